//! The least and most values of integer expressions over a move's
//! binders and a position's arguments, where the rules' shape bounds
//! them: a binder over constants, an item of a constant list, the least
//! of a few. A strip's columns (`strip.rs`, `strip3.rs`) are found by
//! them, and whether a binder takes a few values (`capped`).

use super::expr::{Cond, Num};
use super::seq::Seq;
use super::{Domain, Move, run};
use crate::graph::Shape;
use crate::ir::Slot;
use crate::syntax::ast::BinOp;

/// A slot and the least and most it holds.
pub(super) type Bound = (Slot, (i64, i64));

/// The lowest and highest value of each of `m`'s binders whose domain
/// has constant ends, outermost first, by slot, after `seed`'s (the
/// bounds of a parameter, which a binder's ends may name).
pub(super) fn binder_bounds(m: &Move, seed: Vec<Bound>) -> Vec<Bound> {
    let mut bounds = seed;
    for (slot, domain) in &m.binders {
        let span = match domain {
            Domain::Range(lo, hi, inclusive) => {
                let lo = lower(lo, &bounds);
                let hi = upper(hi, &bounds).and_then(|h| h.checked_sub(i64::from(!inclusive)));
                lo.zip(hi)
            }
            Domain::Items(items) => items.iter().try_fold((i64::MAX, i64::MIN), |(l, h), n| {
                let (lo, hi) = span(n, &bounds)?;
                Some((l.min(lo), h.max(hi)))
            }),
            Domain::Fixed(run::Values::Range(lo, hi)) => Some((*lo, *hi - 1)),
            Domain::Fixed(run::Values::List { lo, hi, .. }) => Some((*lo, *hi)),
            Domain::Seq(seq) => seq_span(seq, &bounds),
            _ => None,
        };
        if let Some(span) = span.filter(|(lo, hi)| lo <= hi) {
            bounds.push((*slot, span));
        }
    }
    bounds
}

/// The lowest and highest value an item of `seq` takes, when both are
/// known: of items written out, of a row of a constant list of lists
/// (`k in NEXT[last]`, any row's), of either branch of an `if`, and of
/// what keeps some of the items of those.
pub(super) fn seq_span(seq: &Seq, bounds: &[Bound]) -> Option<(i64, i64)> {
    let both = |a: (i64, i64), b: (i64, i64)| (a.0.min(b.0), a.1.max(b.1));
    match seq {
        Seq::Items(Shape::List | Shape::Tuple | Shape::Set, items) => {
            let mut spans = items.iter().map(|n| span(n, bounds));
            let first = spans.next()??;
            spans.try_fold(first, |all, s| Some(both(all, s?)))
        }
        Seq::Row(rows, _) if matches!(rows.shape, Shape::List | Shape::Tuple | Shape::Set) => {
            let lo = rows.items.iter().min()?;
            Some((*lo, *rows.items.iter().max()?))
        }
        Seq::If(_, a, b) | Seq::Concat(a, b) => {
            Some(both(seq_span(a, bounds)?, seq_span(b, bounds)?))
        }
        Seq::SetOf(a) | Seq::Sorted(a) | Seq::Reversed(a) | Seq::Slice(a, ..) => {
            seq_span(a, bounds)
        }
        _ => None,
    }
}

/// The lowest and highest value `n` takes, when both are known.
pub(super) fn span(n: &Num, bounds: &[(Slot, (i64, i64))]) -> Option<(i64, i64)> {
    lower(n, bounds).zip(upper(n, bounds))
}

/// A value `n` never goes below, if one is known.
fn lower(n: &Num, bounds: &[(Slot, (i64, i64))]) -> Option<i64> {
    ends(n, bounds, false)
}

/// A value `n` never goes above, if one is known.
fn upper(n: &Num, bounds: &[(Slot, (i64, i64))]) -> Option<i64> {
    ends(n, bounds, true)
}

/// [`lower`] or, when `high`, [`upper`]: of constants, binders over
/// constants, their linear forms, and the least and greatest of such
/// (`min(3, n)` is at most 3 whatever `n`).
fn ends(n: &Num, bounds: &[(Slot, (i64, i64))], high: bool) -> Option<i64> {
    match n {
        Num::Const(c) => Some(*c),
        Num::Slot(s) => {
            let (_, (lo, hi)) = bounds.iter().find(|(b, _)| b == s)?;
            Some(if high { *hi } else { *lo })
        }
        Num::Lin(l) => l.terms.iter().try_fold(l.c, |sum, (s, k)| {
            // A positive weight takes the end asked, a negative the other.
            let end = ends(&Num::Slot(*s), bounds, high == (*k > 0))?;
            sum.checked_add(k.checked_mul(end)?)
        }),
        // The least of items is at most any one's highest, and at least
        // the lowest of all; the greatest the other way around.
        Num::Extremum(min, items) => {
            let each = items.iter().map(|i| ends(i, bounds, high));
            match *min == high {
                true => each
                    .flatten()
                    .reduce(|a, b| if high { a.min(b) } else { a.max(b) }),
                false => {
                    let all: Option<Vec<i64>> = each.collect();
                    all?.into_iter()
                        .reduce(|a, b| if high { a.max(b) } else { a.min(b) })
                }
            }
        }
        Num::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let a = ends(a, bounds, high)?;
            // A difference takes the other end of what it takes away.
            let b = ends(b, bounds, high == (*op == BinOp::Add))?;
            match op {
                BinOp::Add => a.checked_add(b),
                _ => a.checked_sub(b),
            }
        }
        // Either branch: a boolean passed as `k == 2` is 0 or 1.
        Num::If(_, a, b) => {
            let (a, b) = (ends(a, bounds, high)?, ends(b, bounds, high)?);
            Some(if high { a.max(b) } else { a.min(b) })
        }
        // An item of a list whose items are known (`1..=LIM[last]`).
        Num::Index(seq, _) => {
            let (lo, hi) = seq_span(seq, bounds)?;
            Some(if high { hi } else { lo })
        }
        // A remainder by a positive constant, rounded down: from 0 to
        // the constant less one, whatever the number divided.
        Num::Bin(BinOp::Rem, _, c) => match **c {
            Num::Const(c) if c > 0 => Some(if high { c - 1 } else { 0 }),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a loop's upper bound `hi` is bounded by a constant whatever
/// the slots hold: a constant, the least of something and a constant
/// (`min(3, n)` keeps the loop short however large `n`), a remainder by
/// a constant (`n % 10 + 1`: floored, from 0 to 9), a bitwise and with a
/// constant of 0 or more, an item of a constant list of integers
/// (`CAP[n % 10]`), and sums, `if`s and `let`s of those; an `if` that
/// picks the less of two (`if r > n then n else r`) as `min` does.
pub(super) fn capped(hi: &Num) -> bool {
    capped_in(hi, &mut Vec::new())
}

/// Whether every item of `seq` is at most some constant, whatever the
/// position: a row of a constant list of lists of integers (`k in
/// NEXT[last]`), items written out that are, and either branch of an
/// `if`, a join or what keeps some items of those.
pub(super) fn capped_seq(seq: &Seq) -> bool {
    capped_seq_in(seq, &mut Vec::new())
}

/// [`capped_seq`], the slots `kept` holding values that are capped.
fn capped_seq_in(seq: &Seq, kept: &mut Vec<Slot>) -> bool {
    match seq {
        Seq::Row(rows, _) => rows.shape.holds_ints(),
        Seq::Items(_, items) => items.iter().all(|n| capped_in(n, kept)),
        Seq::If(_, a, b) | Seq::Concat(a, b) => capped_seq_in(a, kept) && capped_seq_in(b, kept),
        Seq::SetOf(a) | Seq::Sorted(a) | Seq::Reversed(a) | Seq::Slice(a, ..) => {
            capped_seq_in(a, kept)
        }
        _ => false,
    }
}

/// [`capped`], the slots `kept` holding values that are.
fn capped_in(hi: &Num, kept: &mut Vec<Slot>) -> bool {
    let constant = |n: &Num, least: i64| matches!(n, Num::Const(c) if *c >= least);
    match hi {
        Num::Const(_) => true,
        Num::Slot(s) | Num::Named(s) => kept.contains(s),
        Num::Extremum(true, items) => items.iter().any(|n| capped_in(n, kept)),
        Num::Extremum(false, items) => items.iter().all(|n| capped_in(n, kept)),
        Num::Bin(BinOp::Rem, _, by) => constant(by, 1),
        Num::Bin(BinOp::BitAnd, a, b) => constant(a, 0) || constant(b, 0),
        Num::Bin(BinOp::Add | BinOp::Sub, a, b) => capped_in(a, kept) && capped_in(b, kept),
        Num::Lin(l) => l.terms.iter().all(|(s, _)| kept.contains(s)),
        Num::Index(xs, _) => capped_seq_in(xs, kept),
        Num::Let(s, value, body) => {
            let mut inner: Vec<_> = kept.iter().copied().filter(|k| k != s).collect();
            if capped_in(value, kept) {
                inner.push(*s);
            }
            capped_in(body, &mut inner)
        }
        Num::If(c, a, b) => match least_of(c, a, b) {
            Some((x, y)) => capped_in(x, kept) || capped_in(y, kept),
            None => capped_in(a, kept) && capped_in(b, kept),
        },
        _ => false,
    }
}

/// `(x, y)` where `if c then a else b` is the less of two slots `x`
/// and `y` (`if r > n then n else r`, `if n < r then n else r`).
fn least_of<'a>(c: &'a Cond, a: &'a Num, b: &'a Num) -> Option<(&'a Num, &'a Num)> {
    let Cond::Cmp(op, p, q) = c else { return None };
    let same = |x: &Num, y: &Num| match (x, y) {
        (Num::Slot(x) | Num::Named(x), Num::Slot(y) | Num::Named(y)) => x == y,
        _ => false,
    };
    let least = match op {
        BinOp::Gt | BinOp::Ge => same(a, q) && same(b, p),
        BinOp::Lt | BinOp::Le => same(a, p) && same(b, q),
        _ => false,
    };
    least.then_some((a, b))
}
