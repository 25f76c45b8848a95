//! Where positions without values lie in a table of one-integer
//! positions: the gap just below a position, and where a sweep up to it
//! must begin.

use super::{Dense, PAGE_BITS, SLOT_ABSENT, SLOT_IN_PROGRESS, SLOT_UNKNOWN, locate};

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
            let (p, i) = locate(1, b - 1);
            let page = self.pages.get(p);
            let start = (p << PAGE_BITS) as u32;
            let from = (lowest.max(start) - start) as usize;
            for j in (from..=i).rev() {
                match page.get(j).copied().unwrap_or(SLOT_ABSENT) {
                    SLOT_UNKNOWN | SLOT_ABSENT => bottom = start + j as u32,
                    SLOT_IN_PROGRESS => return bottom,
                    _ => {}
                }
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
            let (p, i) = locate(1, b - 1);
            let page = self.pages.get(p);
            let held = &page[..(i + 1).min(page.len())];
            let valued = held
                .iter()
                .rposition(|s| !matches!(*s, SLOT_UNKNOWN | SLOT_ABSENT));
            let start = (p << PAGE_BITS) as u32;
            match valued {
                Some(j) => return start + j as u32 + 1,
                None => b = start,
            }
        }
        0
    }
}
