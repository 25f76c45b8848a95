//! The least and most values of integer expressions over a move's
//! binders and a position's arguments, where the rules' shape bounds
//! them: a binder over constants, an item of a constant list, the least
//! of a few. A strip's columns (`strip.rs`, `strip3.rs`) are found by
//! them, and whether a binder takes a few values (`capped`).

use super::expr::Num;
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
