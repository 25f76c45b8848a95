//! About how much work an expression's own loops do: the comprehensions
//! inside a top-level query's conditions and elements (`all([p % q != 0
//! for q in 2..=isqrt(p)])`), each counted as the lengths of its ranges
//! with the names outside it at their last values. The caller weighs
//! whether compiling pays (see [`crate::runtime::kernel::query::Query::work`]);
//! an estimate, never a bound: a range whose ends cannot be had ahead of
//! the run counts once.

use super::expr::{Cond, Num, SLOT_LIMIT};
use super::query::Ends;
use super::seq::{Clause, Comp, Seq, Source};
use crate::defs::Defs;

/// What one call of a user function weighs, as iterations of arithmetic:
/// the interpreter's call (a frame, its arguments bound) costs about as
/// much as a position's few options do.
pub(super) const CALL: u64 = 16;

/// The integers `lo..hi` of a loop's range `lo..hi` (or `lo..=hi`), its
/// ends evaluated in `frame` ahead of the query, when they are arithmetic.
pub(super) fn range_ends(
    (lo, hi, inclusive): (&Num, &Num, bool),
    frame: &mut Vec<i64>,
    defs: &Defs,
) -> Option<Ends> {
    if !arithmetic(lo) || !arithmetic(hi) {
        return None;
    }
    let lo = lo.eval(frame, defs).ok()?;
    let hi = hi
        .eval(frame, defs)
        .ok()?
        .checked_add(i64::from(inclusive))?;
    Some((lo, hi))
}

/// Whether `n` is arithmetic on integers alone, quick to evaluate ahead of
/// the query: no call, no list, no position's value.
fn arithmetic(n: &Num) -> bool {
    match n {
        Num::Const(_) | Num::Slot(_) | Num::Named(_) | Num::Lin(_) | Num::Global(_) => true,
        Num::Neg(a) | Num::BitNot(a) | Num::Abs(a) | Num::Isqrt(a) | Num::Bits(_, a) => {
            arithmetic(a)
        }
        Num::Bin(_, a, b) | Num::Gcd(a, b) | Num::Let(_, a, b) => arithmetic(a) && arithmetic(b),
        Num::Extremum(_, items) => items.iter().all(arithmetic),
        _ => false,
    }
}

/// The lengths of `comp`'s leading ranges multiplied, each evaluated with
/// the loops outside it at their last values, which are left in `frame`
/// (within what a slot holds: the linear forms' arithmetic is unchecked
/// within that); a range whose ends cannot be had counts once.
pub(super) fn leading_iterations<E>(comp: &Comp<E>, frame: &mut Vec<i64>, defs: &Defs) -> u64 {
    let mut total: u64 = 1;
    for clause in &comp.clauses {
        let Clause::For(slot, Source::Range(lo, hi, inclusive)) = clause else {
            break;
        };
        let Some((lo, hi)) = range_ends((lo, hi, *inclusive), frame, defs) else {
            continue;
        };
        total = total.saturating_mul(hi.saturating_sub(lo).max(0) as u64);
        // Every binder's slot is in the statement's frame; its value is
        // kept within what a slot holds.
        let last = hi.saturating_sub(1).max(lo);
        if let Some(at) = frame.get_mut(*slot as usize) {
            *at = last.clamp(1 - SLOT_LIMIT, SLOT_LIMIT - 1);
        }
    }
    total
}

/// The work of one element of `comp` beyond the element itself: the loops
/// inside its conditions and its element (`elem` weighs that).
pub(super) fn per_element<E>(
    comp: &Comp<E>,
    frame: &mut Vec<i64>,
    defs: &Defs,
    elem: impl Fn(&E, &mut Vec<i64>, &Defs) -> u64,
) -> u64 {
    let mut work = elem(&comp.elem, frame, defs);
    for clause in &comp.clauses {
        let more = match clause {
            Clause::For(_, Source::Seq(xs)) => seq(xs, frame, defs),
            Clause::For(_, Source::Range(lo, hi, _)) => {
                num(lo, frame, defs).saturating_add(num(hi, frame, defs))
            }
            Clause::Split(_, _, _, xs) => seq(xs, frame, defs),
            Clause::If(c) | Clause::While(c, _) => cond(c, frame, defs),
        };
        work = work.saturating_add(more);
    }
    work
}

/// The work of a nested comprehension: its elements, each with its own.
fn nested<E>(
    comp: &Comp<E>,
    frame: &mut Vec<i64>,
    defs: &Defs,
    elem: impl Fn(&E, &mut Vec<i64>, &Defs) -> u64,
) -> u64 {
    let count = leading_iterations(comp, frame, defs);
    let each = per_element(comp, frame, defs, elem);
    count.saturating_mul(each.saturating_add(1))
}

/// The work of `n`'s loops and calls.
pub(super) fn num(n: &Num, frame: &mut Vec<i64>, defs: &Defs) -> u64 {
    let mut both = |a: &Num, b: &Num| num(a, frame, defs).saturating_add(num(b, frame, defs));
    match n {
        Num::Call(_, args) => {
            (args.iter()).fold(CALL, |w, a| w.saturating_add(num(a, frame, defs)))
        }
        Num::Let(_, a, b) | Num::Bin(_, a, b) | Num::Gcd(a, b) | Num::Pair(a, b) => both(a, b),
        Num::Neg(a) | Num::BitNot(a) | Num::Abs(a) | Num::Isqrt(a) | Num::Bits(_, a) => {
            num(a, frame, defs)
        }
        Num::If(c, a, b) => {
            let branches = num(a, frame, defs).max(num(b, frame, defs));
            cond(c, frame, defs).saturating_add(branches)
        }
        Num::Extremum(_, items) => {
            (items.iter()).fold(0, |w, a| w.saturating_add(num(a, frame, defs)))
        }
        Num::Pack(xs) | Num::Len(xs) | Num::Fold(_, xs) => seq(xs, frame, defs),
        Num::Index(xs, i) => seq(xs, frame, defs).saturating_add(num(i, frame, defs)),
        // A position's value asked costs what its arguments do here: the
        // caller weighs the positions a query asks apart.
        Num::Value(_, args) => (args.iter()).fold(0, |w, a| w.saturating_add(num(a, frame, defs))),
        Num::Const(_)
        | Num::Slot(_)
        | Num::Named(_)
        | Num::Bail
        | Num::Lin(_)
        | Num::Global(_)
        | Num::Ask(..) => 0,
    }
}

/// The work of `c`'s loops and calls.
pub(super) fn cond(c: &Cond, frame: &mut Vec<i64>, defs: &Defs) -> u64 {
    match c {
        Cond::Const(_) => 0,
        Cond::Cmp(_, a, b) => num(a, frame, defs).saturating_add(num(b, frame, defs)),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond(a, frame, defs).saturating_add(cond(b, frame, defs))
        }
        Cond::Not(a) => cond(a, frame, defs),
        Cond::If(a, b, c) => {
            let branches = cond(b, frame, defs).max(cond(c, frame, defs));
            cond(a, frame, defs).saturating_add(branches)
        }
        Cond::Quant(_, comp) => nested(comp, frame, defs, cond),
        Cond::In { x, xs, .. } => num(x, frame, defs).saturating_add(seq(xs, frame, defs)),
        Cond::Member(_, x, _) => num(x, frame, defs),
        Cond::Same(_, a, b) | Cond::Less(_, a, b) | Cond::Within(_, a, b) => {
            seq(a, frame, defs).saturating_add(seq(b, frame, defs))
        }
        Cond::Let(_, a, b) => num(a, frame, defs).saturating_add(cond(b, frame, defs)),
        Cond::Bind(_, a, b) => seq(a, frame, defs).saturating_add(cond(b, frame, defs)),
    }
}

/// The work of making `xs`: its comprehensions' loops, and calls.
pub(super) fn seq(xs: &Seq, frame: &mut Vec<i64>, defs: &Defs) -> u64 {
    match xs {
        Seq::Comp(comp) | Seq::Kept(comp) => nested(comp, frame, defs, num),
        Seq::Items(_, items) => {
            (items.iter()).fold(0, |w, a| w.saturating_add(num(a, frame, defs)))
        }
        Seq::Concat(a, b) | Seq::SetOp(_, a, b) | Seq::Bind(_, a, b) => {
            seq(a, frame, defs).saturating_add(seq(b, frame, defs))
        }
        Seq::Repeat(a, _) | Seq::Slice(a, ..) | Seq::Sorted(a) | Seq::Reversed(a) => {
            seq(a, frame, defs)
        }
        Seq::SetOf(a) => seq(a, frame, defs),
        Seq::Let(_, n, a) => num(n, frame, defs).saturating_add(seq(a, frame, defs)),
        Seq::If(c, a, b) => {
            let branches = seq(a, frame, defs).max(seq(b, frame, defs));
            cond(c, frame, defs).saturating_add(branches)
        }
        Seq::Divisors(n) | Seq::Row(_, n) | Seq::Word(n) => num(n, frame, defs),
        Seq::Range(r) => num(&r.0, frame, defs).saturating_add(num(&r.1, frame, defs)),
        Seq::Slot(_) => 0,
    }
}
