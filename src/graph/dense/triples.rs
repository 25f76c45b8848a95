//! A table of triples turned: its cube's columns along another argument
//! than the first (see `places::place3`), where the rows along the first
//! would outgrow the table's room. A game of two small counters and a
//! heap last, `g(a, b, n)`, would otherwise take a row for each `(b, n)`,
//! a million of them below the cube's edge, and be hashed.

use super::super::index::{in_strip3, untriple};
use super::places::{place3, unplace3};
use super::rows::Rows;
use super::{Dense, SLOT_ABSENT};

impl Dense {
    /// Turns the cube of this table of triples, once, to the axis whose
    /// rows reach least far for the positions it holds and the new one
    /// at `z` (a triple of the cube), when that is another axis and then
    /// leaves room for `z`. Whether `z` may now be taken.
    pub(super) fn turn_cube(&mut self, z: u32) -> bool {
        if self.turned || self.form.is_some() || in_strip3(z) {
            return false;
        }
        self.turned = true;
        let (a, b, c) = untriple(z);
        let (axis, pages) = (self.axis, &self.pages);
        let held: Vec<([usize; 3], u32)> = (0..pages.len())
            .flat_map(|p| {
                let row = pages.get(p).iter().enumerate();
                let kept = row.filter(|(_, slot)| **slot != SLOT_ABSENT);
                kept.map(move |(i, slot)| (unplace3(axis, p, i), *slot))
            })
            .collect();
        let reach = |axis: usize| {
            let rows = held.iter().map(|(abc, _)| place3(axis, *abc).0);
            rows.chain([place3(axis, [a, b, c]).0]).max().unwrap_or(0)
        };
        let best = (0..3).min_by_key(|axis| reach(*axis)).unwrap_or(0);
        if reach(best) >= reach(self.axis) {
            return false;
        }
        (self.axis, self.pages, self.slots) = (best, Rows::default(), 0);
        self.located.set(None);
        for (abc, slot) in held {
            let (p, i) = place3(best, abc);
            self.grow(3, p, i)[i] = slot;
        }
        self.may_take(3, z)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::index::dense3;
    use super::*;
    use crate::graph::UNKNOWN;

    #[test]
    fn a_cube_of_a_heap_last_turns_its_columns_along_the_heap() {
        let mut dense = Dense::default();
        let mut made = Vec::new();
        for n in 0..1024 {
            for (a, b) in [(0, 0), (1, 2), (3, 1)] {
                let z = dense3(a, b, n).unwrap();
                assert!(dense.take(3, z, &[a, b, n]), "({a}, {b}, {n})");
                dense.set(z, (n % 7) as u64);
                made.push((z, [a, b, n]));
            }
        }
        assert_eq!(dense.axis, 2);
        // A few rows the heap's length: 3,072 positions in well under a
        // megabyte.
        assert!(dense.bytes() < 64 << 10, "{} bytes", dense.bytes());
        for (z, [a, b, n]) in made {
            assert_eq!(dense.get(z), (n % 7) as u64);
            assert_eq!(dense.get_ints(z, &[a, b, n]), (n % 7) as u64);
        }
        assert_eq!(dense.get(dense3(2, 2, 5).unwrap()), crate::graph::ABSENT);
        // The machine code reads only a cube along the first argument: a
        // turned one shows it the strips' rows alone, whatever the axis.
        let rows = dense.pages.len().min(super::super::places::STRIP3_ROWS);
        assert_eq!(dense.view().count, rows as u64);
        let z = dense3(9, 9, 9).unwrap();
        assert!(dense.take(3, z, &[]) && dense.get(z) == UNKNOWN);
    }
}
