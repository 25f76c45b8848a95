//! Claiming a dense table's slots ahead of a sweep: the absent ones of
//! a run of one-integer positions, or of a rectangle of pairs, made
//! unknown at once, within the room the table may take.

use super::places::STRIP3_ROWS;
use super::{
    Dense, FREE_SLOTS, PAGE, PAGE_BITS, ROW_SLOTS, SLOT_ABSENT, SLOT_UNKNOWN, SLOTS_PER_POSITION,
    dense2, locate,
};
use crate::graph::{LONG3_MAX, SIDE3_MAX, STRIP3_WIDTH};

impl Dense {
    /// Makes the absent slots of `from..to` (one-argument positions)
    /// unknown, a page at a time while the table may take a page's worth,
    /// and at most `most` of them. Returns where it stopped and how many
    /// it made.
    pub(in crate::graph) fn claim(&mut self, from: u32, to: u32, most: usize) -> (u32, usize) {
        let (mut z, mut made) = (from, 0);
        while z < to {
            let (p, i) = locate(1, 0, z);
            let end = to.min(((p + 1) << PAGE_BITS) as u32);
            if !self.may_take(1, end - 1) {
                break;
            }
            let last = (end - 1) as usize & (PAGE - 1);
            let page = self.grow(1, p, last);
            let slots = &mut page[i..=last];
            // A page's run at once, by loops the compiler makes vector
            // code of, when the room takes all its absent slots.
            let absent = slots.iter().filter(|s| **s == SLOT_ABSENT).count();
            if made + absent <= most {
                for slot in slots.iter_mut() {
                    *slot = if *slot == SLOT_ABSENT {
                        SLOT_UNKNOWN
                    } else {
                        *slot
                    };
                }
                made += absent;
                z = end;
                continue;
            }
            for slot in slots {
                if *slot == SLOT_ABSENT {
                    if made == most {
                        self.count += made;
                        return (z, made);
                    }
                    *slot = SLOT_UNKNOWN;
                    made += 1;
                }
                z += 1;
            }
        }
        self.count += made;
        (z, made)
    }

    /// Makes the absent slots of rows `a0..=a1`, columns `b0..=b1`
    /// (two-argument positions) unknown, if the table may take them all
    /// (see [`Dense::may_take`]) and they are at most `most`: how many it
    /// made. New rows are a run where `run` (a strip's, whose machine
    /// code reads runs) and enough of one length are made at once.
    pub(in crate::graph) fn claim_rect(
        &mut self,
        (a0, a1): (usize, usize),
        (b0, b1): (usize, usize),
        (most, run): (usize, bool),
    ) -> Option<usize> {
        // The dense pairs are closed downwards: the far corner's being
        // dense makes the whole rectangle dense.
        // A form's free integers index it as two integers would.
        let pairs = self.arity == 2 || self.fits(2);
        if !pairs || a0 > a1 || b0 > b1 || dense2(a1 as i64, b1 as i64).is_none() {
            return None;
        }
        self.claim_rows(2, (a0, a1), (b0, b1), (most, run))
    }

    /// Makes the absent slots of the cube's rows `r0..=r1` (the Szudzik
    /// numbers of `(b, c)`), columns `a0..=a1` (three-argument positions
    /// `(a, b, c)`) unknown, as [`Dense::claim_rect`] does: when the
    /// cube's columns lie along the first argument (see `places.rs`).
    pub(in crate::graph) fn claim_cube(
        &mut self,
        (r0, r1): (usize, usize),
        (a0, a1): (usize, usize),
        most: usize,
    ) -> Option<usize> {
        let side = SIDE3_MAX as usize;
        let triples = self.arity == 3 || (self.arity == 0 && self.form.is_none());
        if !triples || self.axis != 0 || r0 > r1 || a0 > a1 || a1 >= side || r1 >= side * side {
            return None;
        }
        let rows = (STRIP3_ROWS + r0, STRIP3_ROWS + r1);
        self.claim_rows(3, rows, (a0, a1), (most, false))
    }

    /// Makes the absent slots of the strips of triples whose argument
    /// `long` runs long unknown, as [`Dense::claim_rect`] does: for each
    /// pair `(s, t)` of short arguments in `cells`, the strip row of the
    /// pair, columns `c0..=c1` (the long argument less the cube's side;
    /// see `places::place3`). How many it made, and whether it made them
    /// all: the rows of a value of `s` are claimed together, and those
    /// claimed before some the table may not take stay claimed.
    pub(in crate::graph) fn claim_strip3(
        &mut self,
        long: usize,
        [(s0, s1), (t0, t1)]: [(usize, usize); 2],
        (c0, c1): (usize, usize),
        most: usize,
    ) -> (usize, bool) {
        let w = STRIP3_WIDTH as usize;
        let triples = self.arity == 3 || (self.arity == 0 && self.form.is_none());
        let long_most = (LONG3_MAX - SIDE3_MAX) as usize;
        let inside = long <= 2 && s0 <= s1 && t0 <= t1 && s1 < w && t1 < w;
        if !triples || !inside || c0 > c1 || c1 >= long_most {
            return (0, false);
        }
        let mut made = 0;
        for s in s0..=s1 {
            let row = long * w * w + s * w;
            match self.claim_rows(3, (row + t0, row + t1), (c0, c1), (most - made, false)) {
                Some(rows) => made += rows,
                None => return (made, false),
            }
        }
        (made, true)
    }

    /// The claim of a rectangle of rows (pages) `a0..=a1`, columns
    /// `b0..=b1`, of a table of `arity` (2 or 3) whose positions lie there.
    fn claim_rows(
        &mut self,
        arity: usize,
        (a0, a1): (usize, usize),
        (b0, b1): (usize, usize),
        (most, run): (usize, bool),
    ) -> Option<usize> {
        // Rows not made yet are counted whole, with no slot read; new
        // rows cost their place, address and length too.
        let (width, held) = (Dense::grown(arity, b1), self.pages.len().min(a1 + 1));
        let fresh = (a1 + 1) - held.max(a0);
        let gap = a0.saturating_sub(held) * self.pages.new_row_slots(ROW_SLOTS);
        let new_rows = self.pages.new_rows_cost(fresh, width, run, ROW_SLOTS) + gap;
        let fresh_absent = fresh * (b1 - b0 + 1);
        // When the rectangle fits even if every held row grew and nothing
        // in it were absent before, the held rows are read and written
        // in one pass; otherwise they are counted first.
        let room = |absent: usize| FREE_SLOTS.max(SLOTS_PER_POSITION * (self.count + absent));
        let (rows, cols) = (a1 + 1 - a0, b1 + 1 - b0);
        let surely = rows * cols <= most
            && self.slots + (held.saturating_sub(a0)) * width + new_rows <= room(fresh_absent);
        if !surely {
            let (grown, absent) = self.unclaimed((a0, held), (b0, b1), width);
            if absent + fresh_absent > most
                || self.slots + grown + new_rows > room(absent + fresh_absent)
            {
                return None;
            }
        }
        self.pages.reserve(a1 + 1);
        let mut absent = fresh_absent;
        for a in a0..held {
            // A row's length, as `get(a).len()` (0 for a row without slots).
            if self.pages.row_len(a) < width {
                self.grow(arity, a, b1);
            }
        }
        self.pages.span_mut(a0..held.max(a0), b0..=b1, |slots| {
            // Without a branch a slot, which the compiler makes a loop
            // over vectors: a board's claims pass over millions.
            // Counted in 32 bits, a slot's width: a row's slots fit.
            let mut made = 0u32;
            for slot in slots {
                let was = *slot == SLOT_ABSENT;
                *slot = if was { SLOT_UNKNOWN } else { *slot };
                made += u32::from(was);
            }
            absent += made as usize;
        });
        self.slots += self.pages.push(a0, 0, SLOT_ABSENT, false);
        // The rows made just now hold nothing yet: made so at once when
        // the rectangle is as wide as they are (a heap and a flag, a
        // million rows of two), else a row at a time.
        let whole = b0 == 0 && b1 + 1 == width;
        let fill = if whole { SLOT_UNKNOWN } else { SLOT_ABSENT };
        self.slots += self.pages.push(a1 + 1, width, fill, run);
        if !whole {
            let fresh_rows = held.max(a0)..a1 + 1;
            self.pages
                .span_mut(fresh_rows, b0..=b1, |slots| slots.fill(SLOT_UNKNOWN));
        }
        self.arity = arity;
        self.count += absent;
        Some(absent)
    }

    /// Of the held rows `a0..held`, columns `b0..=b1`: the slots their
    /// growing to `width` would add, and the absent ones (the columns
    /// past a row's end are absent).
    fn unclaimed(
        &self,
        (a0, held): (usize, usize),
        (b0, b1): (usize, usize),
        width: usize,
    ) -> (usize, usize) {
        let (mut grown, mut absent) = (0, 0);
        for a in a0..held {
            let slots = self.pages.get(a);
            let end = slots.len().min(b1 + 1);
            let within = slots.get(b0..end).unwrap_or_default();
            absent += within.iter().filter(|s| **s == SLOT_ABSENT).count() + (b1 + 1 - end.max(b0));
            grown += width.saturating_sub(slots.len());
        }
        (grown, absent)
    }
}
