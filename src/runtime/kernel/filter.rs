//! Conditions on the innermost binder alone, kept once per game: a
//! guard's conjunct that reads no parameter and no other binder, such as
//! `is_prime(k)` or `ones(k) == 2` in `move take(k in 1..=n) if is_prime(k)
//! -> g(n - k)`, holds or fails for a value of `k` whatever the position.
//! Evaluated at each position, it costs the rules a call per value of
//! the loop and per position (`is_prime` again and again), where a
//! hand-written program would sieve once. Here each value is evaluated
//! once per game, the first time a loop's window reaches it, and kept as
//! a bit; the loop then runs over the values whose bit is set, a word of
//! 64 at a time ([`Narrow::Filter`]).
//!
//! A value whose evaluation fails (an overflow, a division by zero, a
//! call nested too deep) is not kept: the run bails, and the interpreter
//! meets the error at the same value, in the same position, as it would
//! have anyway: the conjunct is tested at every value of the window.
//!
//! [`Narrow::Filter`]: super::Narrow::Filter

use super::Eval;
use super::expr::Cond;
use crate::defs::Defs;
use crate::ir::Slot;
use std::cell::{Cell, RefCell};

/// Values of the binder at or past this are not kept (the loop tests
/// the conjunct at each value instead): the bits for the values below
/// take 16 MB at most.
pub const FILTER_END: i64 = 1 << 26;

/// A conjunct of the innermost binder alone, and the values it was
/// evaluated at (see the module).
#[derive(Debug)]
pub struct Filter {
    /// The conjunction of the guard's conjuncts it takes.
    cond: Cond,
    /// How many conjuncts that is: the first conjunct the loop tests per
    /// value is that many past the filter's first.
    conjuncts: usize,
    x: Slot,
    bits: RefCell<Bits>,
    /// The address of the words of [`Bits::holds`], for the machine code,
    /// which reads it again after anything that may have grown them.
    words: Cell<*const u64>,
}

#[derive(Debug, Default)]
struct Bits {
    /// Bit `k`: whether the conjunct was evaluated at `k`.
    known: Vec<u64>,
    /// Bit `k`: whether it holds there.
    holds: Vec<u64>,
    /// The slots the conjunct reads and binds.
    frame: Vec<i64>,
}

impl Filter {
    /// The filter of the conjuncts `conds` (in the order the guard tests
    /// them) of binder `x`, in a game of `slots` slots.
    pub fn new(conds: &[Cond], x: Slot, slots: usize) -> Filter {
        let cond = (conds.iter().cloned())
            .reduce(|a, b| Cond::And(Box::new(a), Box::new(b)))
            .unwrap_or(Cond::Const(true));
        Filter {
            cond,
            conjuncts: conds.len(),
            x,
            bits: RefCell::new(Bits {
                frame: vec![0; slots],
                ..Bits::default()
            }),
            words: Cell::new(std::ptr::null()),
        }
    }

    pub fn cond(&self) -> &Cond {
        &self.cond
    }

    /// How many of the guard's conjuncts it takes.
    pub fn conjuncts(&self) -> usize {
        self.conjuncts
    }

    /// Whether the values `lo..hi` can be kept.
    pub fn covers((lo, hi): (i64, i64)) -> bool {
        0 <= lo && hi <= FILTER_END
    }

    /// Evaluates the conjunct at each value of `lo..hi` (which
    /// [`Filter::covers`]) not evaluated yet; stops at one where it fails.
    pub fn fill(&self, (lo, hi): (i64, i64), defs: &Defs) -> Eval<()> {
        if lo >= hi {
            return Ok(());
        }
        let mut bits = self.bits.borrow_mut();
        let words = (hi as usize).div_ceil(64);
        if bits.known.len() < words {
            let len = words.next_power_of_two().max(16);
            bits.known.resize(len, 0);
            bits.holds.resize(len, 0);
            self.words.set(bits.holds.as_ptr());
        }
        let Bits {
            known,
            holds,
            frame,
        } = &mut *bits;
        let mut k = lo;
        while k < hi {
            let (w, b) = ((k >> 6) as usize, k & 63);
            // A whole word known: passed over.
            if b == 0 && known[w] == u64::MAX && k + 64 <= hi {
                k += 64;
                continue;
            }
            if known[w] >> b & 1 == 0 {
                frame[self.x as usize] = k;
                let yes = self.cond.eval(frame, defs)?;
                known[w] |= 1 << b;
                holds[w] |= u64::from(yes) << b;
            }
            k += 1;
        }
        Ok(())
    }

    /// Calls `each` on the values of `lo..hi`, all evaluated ([`Filter::fill`]),
    /// where the conjunct holds, in increasing order. `each` may fill
    /// more (a run of the same game below this one).
    pub fn each(&self, (lo, hi): (i64, i64), mut each: impl FnMut(i64) -> Eval<()>) -> Eval<()> {
        if lo >= hi {
            return Ok(());
        }
        let (first, last) = (lo >> 6, (hi - 1) >> 6);
        for w in first..=last {
            let mut word = self.bits.borrow().holds[w as usize];
            if w == first {
                word &= u64::MAX << (lo & 63);
            }
            if w == last {
                word &= u64::MAX >> (63 - ((hi - 1) & 63));
            }
            while word != 0 {
                let k = w << 6 | i64::from(word.trailing_zeros());
                word &= word - 1;
                each(k)?;
            }
        }
        Ok(())
    }

    /// How many values the conjunct was evaluated at.
    pub fn evaluated(&self) -> usize {
        (self.bits.borrow().known.iter())
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The address of [`Filter::words`]' cell, read by the machine code.
    pub fn words_at(&self) -> *const *const u64 {
        self.words.as_ptr() as *const *const u64
    }
}

#[cfg(test)]
mod tests {
    use super::super::expr::Num;
    use super::*;
    use crate::syntax::ast::BinOp;

    /// `k % 3 == 1` as a filter of slot 0.
    fn filter() -> Filter {
        let rem = Num::Bin(BinOp::Rem, Box::new(Num::Slot(0)), Box::new(Num::Const(3)));
        Filter::new(&[Cond::Cmp(BinOp::Eq, rem, Num::Const(1))], 0, 1)
    }

    fn kept(f: &Filter, window: (i64, i64)) -> Vec<i64> {
        let mut out = Vec::new();
        f.each(window, |k| {
            out.push(k);
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn the_values_where_it_holds_are_found_in_any_window() {
        let defs = Defs::default();
        let f = filter();
        for (lo, hi) in [
            (0, 10),
            (5, 200),
            (63, 65),
            (0, 1000),
            (64, 128),
            (7, 7),
            (900, 901),
        ] {
            f.fill((lo, hi), &defs).unwrap();
            let want: Vec<i64> = (lo..hi).filter(|k| k % 3 == 1).collect();
            assert_eq!(kept(&f, (lo, hi)), want, "{lo}..{hi}");
        }
        assert!(Filter::covers((0, FILTER_END)));
        assert!(!Filter::covers((-1, 5)));
        assert!(!Filter::covers((0, FILTER_END + 1)));
    }
}
