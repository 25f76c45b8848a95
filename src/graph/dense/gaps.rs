//! Where positions without values lie in a table of one-integer
//! positions: the gap just below a position, and where a sweep up to it
//! must begin.

use super::{Dense, PAGE_BITS, SLOT_ABSENT, SLOT_IN_PROGRESS, SLOT_UNKNOWN, locate};

/// How many slots a vector test passes over at once.
const BLOCK: usize = 64;

/// Whether a slot holds no value: [`SLOT_UNKNOWN`] or [`SLOT_ABSENT`],
/// which differ from every other slot in bit 1 alone.
fn unvalued(slot: u32) -> bool {
    const _: () = assert!(SLOT_UNKNOWN == u32::MAX && SLOT_ABSENT == u32::MAX - 2);
    slot | 2 == u32::MAX
}

impl Dense {
    /// In a table of one-integer positions, where a sweep up to `z` must
    /// begin, given `gap`, [`Dense::unvalued_below`] of `z`: the lowest
    /// slot below `z` with no value, looked for below `gap` as far down as
    /// the gap is long (so that finding it costs no more than the sweep),
    /// and never past a position in progress. A gap left by an earlier
    /// query (`g(10)` asked first values 10, 8, 5, ... but not 9) would
    /// otherwise stop the sweep at its first position.
    pub fn sweep_bottom(&self, z: u32, gap: u32) -> u32 {
        debug_assert!(self.arity <= 1, "slots by page");
        let lowest = gap.saturating_sub(z - gap);
        let (mut bottom, mut b) = (gap, gap);
        while b > lowest {
            let (p, i) = locate(1, 0, b - 1);
            let page = self.pages.get(p);
            let start = (p << PAGE_BITS) as u32;
            let from = (lowest.max(start) - start) as usize;
            // The slots past the page's end are absent.
            let held = page.len().min(i + 1);
            if held <= i {
                bottom = start + held.max(from) as u32;
            }
            let mut slots = page.get(from..held).unwrap_or_default();
            while !slots.is_empty() {
                let cut = slots.len().saturating_sub(BLOCK);
                let at = |j: usize| start + (from + cut + j) as u32;
                let block = &slots[cut..];
                if block
                    .iter()
                    .fold(false, |any, s| any | (*s == SLOT_IN_PROGRESS))
                {
                    for (j, s) in block.iter().enumerate().rev() {
                        match *s {
                            SLOT_IN_PROGRESS => return bottom,
                            s if unvalued(s) => bottom = at(j),
                            _ => {}
                        }
                    }
                }
                if block.iter().fold(false, |any, s| any | unvalued(*s))
                    && let Some(j) = block.iter().position(|s| unvalued(*s))
                {
                    bottom = at(j);
                }
                slots = &slots[..cut];
            }
            b = start + from as u32;
        }
        bottom
    }

    /// In a table of one-integer positions, the lowest `b <= z` such that
    /// no slot of `b..z` holds a value ([`crate::graph::UNKNOWN`] or
    /// [`crate::graph::ABSENT`] all): a page without slots is passed over whole, a page's slots are
    /// scanned as a slice.
    pub fn unvalued_below(&self, z: u32) -> u32 {
        debug_assert!(self.arity <= 1, "slots by page");
        let mut b = z;
        while b > 0 {
            let (p, i) = locate(1, 0, b - 1);
            let page = self.pages.get(p);
            let mut held = &page[..(i + 1).min(page.len())];
            // Blocks without a value passed over whole, each by a test
            // the compiler makes vector code of.
            while let Some((rest, block)) = held.split_last_chunk::<BLOCK>() {
                if !block.iter().fold(true, |all, s| all & unvalued(*s)) {
                    break;
                }
                held = rest;
            }
            let valued = held.iter().rposition(|s| !unvalued(*s));
            let start = (p << PAGE_BITS) as u32;
            match valued {
                Some(j) => return start + j as u32 + 1,
                None => b = start,
            }
        }
        0
    }
}
