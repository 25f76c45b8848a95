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
//! A conjunct may also ask another position's value, as in `move take(k
//! in 1..=n) if value(sub(k)) == 0`: a position's value never changes
//! once it has one, so the conjunct holds or fails for `k` whatever the
//! position too, once `sub(k)` has one. The values it asks (`value(g(..))`
//! of arguments of `k` alone) are lifted out of it and read from the
//! graph before it is evaluated ([`Filter::fill`]); the values are kept
//! up to the first whose asked position has no value yet, or where
//! anything else fails, and the loop tests the conjunct at each value
//! from there, as it would without the filter, asking the search for the
//! positions missing.
//!
//! [`Narrow::Filter`]: super::Narrow::Filter

use super::Eval;
use super::expr::{ASKS, Cond, Num};
use crate::defs::Defs;
use crate::ir::Slot;
use crate::value::GameId;
use std::cell::{Cell, RefCell};

/// Values of the binder at or past this are not kept (the loop tests
/// the conjunct at each value instead): the bits for the values below
/// take 16 MB at most, and their list (see [`Bits::list`]) as much.
pub const FILTER_END: i64 = 1 << 26;

/// The shortest window a loop runs over by the list of values that hold
/// rather than by the window's words (see [`Bits::list`]).
pub const LISTED_FROM: i64 = 256;

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
    /// The address of [`Bits::list`]'s values, likewise.
    list: Cell<*const i64>,
    /// The positions' values `cond` asks, lifted out of it.
    asked: Vec<Asked>,
}

/// A position's value `value(game(args))` a conjunct asks, of arguments
/// of the binder alone: read before the conjunct is evaluated, into a
/// slot of its own, which the conjunct reads instead.
#[derive(Debug)]
struct Asked {
    game: GameId,
    args: Vec<Num>,
    slot: Slot,
}

/// What reads the value of a position of integers for [`Filter::fill`]:
/// `None` where it has none yet.
pub type Values<'a> = &'a dyn Fn(GameId, &[i64]) -> Option<i64>;

#[derive(Debug, Default)]
struct Bits {
    /// Bit `k`: whether the conjunct was evaluated at `k`.
    known: Vec<u64>,
    /// Bit `k`: whether it holds there.
    holds: Vec<u64>,
    /// The slots the conjunct reads and binds, and the values it asks.
    frame: Vec<i64>,
    /// The arguments of an asked position.
    args: Vec<i64>,
    /// The values evaluated one after another from the start of the
    /// first window evaluated whole to the end of the last that went on
    /// from them: a window that grows at each position (`p in 1..=n`)
    /// evaluates only its new values.
    run: (i64, i64),
    /// The values where it holds from the run's start up to `listed`, in
    /// increasing order, then `i64::MAX`: a loop over a long window (`p in
    /// 1..=n` of a condition that holds rarely, `popcount(p) == 1`) runs
    /// over them rather than over the window's words, at every position
    /// (for a million positions, 15,000 words each; see
    /// [`Filter::list_from`]). It stops growing where the values hold
    /// more often than once in [`SPARSE`] (the words serve as well
    /// there), so it takes a fraction of the bits' memory; it only
    /// grows, so that a loop over it is never left reading values gone.
    list: Vec<i64>,
    listed: i64,
}

/// A list of the values that hold goes on while it has no more than one
/// in this many of the run's values (and 64 besides).
const SPARSE: i64 = 32;

impl Filter {
    /// The filter of the conjuncts `conds` (in the order the guard tests
    /// them) of binder `x`, in a game of `slots` slots: `None` when they
    /// ask a position's value other than of arguments of `x` alone, or
    /// where they would not read it whatever the values (see [`Lift`]).
    pub fn new(conds: &[Cond], x: Slot, slots: usize) -> Option<Filter> {
        let cond = (conds.iter().cloned())
            .reduce(|a, b| Cond::And(Box::new(a), Box::new(b)))
            .unwrap_or(Cond::Const(true));
        let mut lift = Lift {
            x,
            slots,
            asked: Vec::new(),
        };
        let cond = lift.cond(&cond);
        if cond.uses(ASKS) {
            return None;
        }
        let frame = vec![0; slots + lift.asked.len()];
        Some(Filter {
            cond,
            conjuncts: conds.len(),
            x,
            bits: RefCell::new(Bits {
                frame,
                list: vec![i64::MAX],
                ..Bits::default()
            }),
            words: Cell::new(std::ptr::null()),
            list: Cell::new(std::ptr::null()),
            asked: lift.asked,
        })
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
    /// Returns where the values evaluated end: `hi`, or, for a conjunct
    /// that asks positions' values, the first value where one it asks
    /// has none yet in `values` (or there are no `values`), or where
    /// anything else fails (the loop tests the conjunct from there).
    pub fn fill(&self, (lo, hi): (i64, i64), defs: &Defs, values: Option<Values>) -> Eval<i64> {
        if lo >= hi {
            return Ok(hi);
        }
        let mut bits = self.bits.borrow_mut();
        let words = (hi as usize).div_ceil(64);
        if bits.known.len() < words {
            let len = words.next_power_of_two().max(16);
            bits.known.resize(len, 0);
            bits.holds.resize(len, 0);
            self.words.set(bits.holds.as_ptr());
        }
        // The run's values are all evaluated: a window that grows at
        // each position (`p in 1..=n`) evaluates its new values only, not
        // its words again.
        let (start, end) = bits.run;
        let Bits {
            known,
            holds,
            frame,
            args,
            ..
        } = &mut *bits;
        let mut k = match start <= lo && lo < end {
            true => end.min(hi),
            false => lo,
        };
        while k < hi {
            let (w, b) = ((k >> 6) as usize, k & 63);
            // The window's part of a word known: passed over. (A window
            // that ends inside a word, `k in 1..=min(n, 7)`, is asked of
            // at each position, and was looked at a value at a time.)
            let top = (hi - 1 - (k & !63)).min(63);
            let window = (u64::MAX >> (63 - top)) & (u64::MAX << b);
            if known[w] & window == window {
                k = (k & !63) + top + 1;
                continue;
            }
            if known[w] >> b & 1 == 0 {
                frame[self.x as usize] = k;
                let yes = match self.asked.is_empty() {
                    true => self.cond.eval(frame, defs)?,
                    false => match self.asking(values, frame, args, defs) {
                        Some(yes) => yes,
                        None => return Ok(k),
                    },
                };
                known[w] |= 1 << b;
                holds[w] |= u64::from(yes) << b;
            }
            k += 1;
        }
        self.extend_list(&mut bits, (lo, hi));
        Ok(hi)
    }

    /// Adds `lo..hi`, all evaluated, to the run, where the window starts
    /// inside it (or is the first evaluated whole), and the values that
    /// hold to the list while it is sparse.
    fn extend_list(&self, bits: &mut Bits, (lo, hi): (i64, i64)) {
        if bits.run == (0, 0) {
            bits.run = (lo, lo);
            bits.listed = lo;
        }
        let (start, end) = bits.run;
        if lo < start || lo > end || hi <= end {
            return;
        }
        bits.run.1 = hi;
        if bits.listed < end {
            return;
        }
        let most = 64 + (hi - start) / SPARSE;
        let held = (end..hi).filter(|k| bits.holds[(k >> 6) as usize] >> (k & 63) & 1 == 1);
        let new: Vec<i64> = held.collect();
        if (bits.list.len() + new.len()) as i64 > most {
            return;
        }
        bits.list.pop();
        bits.list.extend(new);
        bits.list.push(i64::MAX);
        bits.listed = hi;
        self.list.set(bits.list.as_ptr());
    }

    /// The place in the list of the first value at or past `lo` where
    /// the list covers `lo..hi`, for a loop that runs over the values
    /// from there while they are below `hi`; `None` where it does not.
    pub fn list_from(&self, (lo, hi): (i64, i64)) -> Option<usize> {
        let bits = self.bits.borrow();
        let (start, listed) = (bits.run.0, bits.listed);
        (start <= lo && hi <= listed).then(|| bits.list.partition_point(|v| *v < lo))
    }

    /// The address of [`Filter::list`]' cell, read by the machine code.
    pub fn list_at(&self) -> *const *const i64 {
        self.list.as_ptr() as *const *const i64
    }

    /// The conjunct at the value in `frame`, the values it asks read
    /// from `values` first: `None` where one has none yet, or anything
    /// fails.
    fn asking(
        &self,
        values: Option<Values>,
        frame: &mut Vec<i64>,
        args: &mut Vec<i64>,
        defs: &Defs,
    ) -> Option<bool> {
        let values = values?;
        for asked in &self.asked {
            args.clear();
            for a in &asked.args {
                let n = a.eval(frame, defs).ok()?;
                args.push(n);
            }
            frame[asked.slot as usize] = values(asked.game, args)?;
        }
        self.cond.eval(frame, defs).ok()
    }

    /// Calls `each` on the values of `lo..hi`, all evaluated ([`Filter::fill`]),
    /// where the conjunct holds, in increasing order. `each` may fill
    /// more (a run of the same game below this one).
    pub fn each(&self, (lo, hi): (i64, i64), mut each: impl FnMut(i64) -> Eval<()>) -> Eval<()> {
        if lo >= hi {
            return Ok(());
        }
        // A long window the list covers: its values, read again after
        // each (`each` may have grown the list).
        if hi - lo >= LISTED_FROM
            && let Some(mut at) = self.list_from((lo, hi))
        {
            loop {
                let k = self.bits.borrow().list[at];
                if k >= hi {
                    return Ok(());
                }
                each(k)?;
                at += 1;
            }
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

/// Lifts the positions' values a conjunct asks out of it (see
/// [`Asked`]): those of arguments of binder `x` alone, in comparisons and
/// arithmetic that the conjunct evaluates whatever the values (not after
/// an `and` or an `or`, nor in a branch of an `if`), each into a slot
/// past the game's `slots`. Read before the conjunct, such a value is
/// read where the conjunct would read it anyway. Others stay, and the
/// conjunct then still asks ([`ASKS`]).
struct Lift {
    x: Slot,
    slots: usize,
    asked: Vec<Asked>,
}

impl Lift {
    fn cond(&mut self, c: &Cond) -> Cond {
        match c {
            Cond::Cmp(op, a, b) => Cond::Cmp(*op, self.num(a), self.num(b)),
            Cond::And(a, b) => Cond::And(self.boxed(a), b.clone()),
            Cond::Or(a, b) => Cond::Or(self.boxed(a), b.clone()),
            Cond::Not(a) => Cond::Not(self.boxed(a)),
            Cond::If(c, a, b) => Cond::If(self.boxed(c), a.clone(), b.clone()),
            other => other.clone(),
        }
    }

    fn boxed(&mut self, c: &Cond) -> Box<Cond> {
        Box::new(self.cond(c))
    }

    fn num(&mut self, n: &Num) -> Num {
        match n {
            Num::Value(game, args) if args.iter().all(|a| self.of_x_alone(a)) => {
                let slot = (self.slots + self.asked.len()) as Slot;
                self.asked.push(Asked {
                    game: *game,
                    args: args.clone(),
                    slot,
                });
                Num::Slot(slot)
            }
            Num::Bin(op, a, b) => Num::Bin(*op, self.one(a), self.one(b)),
            Num::Neg(a) => Num::Neg(self.one(a)),
            Num::BitNot(a) => Num::BitNot(self.one(a)),
            Num::Abs(a) => Num::Abs(self.one(a)),
            Num::If(c, a, b) => Num::If(self.boxed(c), a.clone(), b.clone()),
            other => other.clone(),
        }
    }

    fn one(&mut self, n: &Num) -> Box<Num> {
        Box::new(self.num(n))
    }

    /// Whether `a` reads no slot but the binder's, and asks nothing.
    fn of_x_alone(&self, a: &Num) -> bool {
        !a.uses(ASKS) && (0..self.slots as Slot).all(|s| s == self.x || !a.uses(s))
    }
}

#[cfg(test)]
mod tests;
