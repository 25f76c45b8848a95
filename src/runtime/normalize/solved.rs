//! An innermost binder that an equation in its guard fixes to one value,
//!
//! ```text
//! move split(a in 1..n, b in 1..n) if a + b == n and a != b -> g(a) + g(b)
//! ```
//!
//! is that value: `b` is put as `n - a` wherever it is read, and its range
//! takes the equation's place, `1 <= n - a and n - a < n`. Written the
//! first way, every `a` runs a loop over `b` to find the one value the
//! equation keeps; the second is what a programmer would write. The
//! options are the same, in the same order. The equation and the range's
//! ends are sums of names and integers, which cannot fail where the
//! compiled rules run them (their linear forms bail before any
//! overflow), so nothing that was evaluated for another `b` could have
//! reported an error. The equation is the first conjunct, or comes after
//! `==` and `!=` tests of operands that cannot fail, which give a
//! boolean whatever they compare (`x != a and y == b`, a move
//! `choices.rs` made).

use super::{map_move, put};
use crate::ir::{Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `rule` with a binder put as the value its guard's first equation in
/// it fixes, after conjuncts that are `==` or `!=` of operands unable to
/// fail (a choice split by `choices.rs` leaves `x != a and y == b`) or
/// comparisons of sums of names and integers; the innermost binder
/// first, then the ones before it (see [`binder_at`]). `None` when none
/// has that shape.
pub(super) fn binder(rule: &MoveIr) -> Option<MoveIr> {
    (0..rule.binders.len())
        .rev()
        .find_map(|i| binder_at(rule, i))
}

/// [`binder`] for binder `i`. One before the innermost is fixed only
/// where the binders after it are ranges whose ends are sums of names
/// and small integers that cannot fail (`inline::repeatable`), the
/// equation is such a sum and reads none of them, and its own range
/// ends below the largest integer: its value is then known before their
/// loops, and their ranges, evaluated once rather than once for each of
/// its values, cannot fail for the values the equation rules out.
/// Lasker's Nim written as one rule, `a in 0..n, b in 0..n if ... and
/// (a == 0 or a + b == n)`, split by `choices.rs`, ran a loop over `a`
/// to find `a == 0` (117 times slower).
fn binder_at(rule: &MoveIr, i: usize) -> Option<MoveIr> {
    let (PatIr::Slot(b), domain) = &rule.binders[i] else {
        return None;
    };
    let IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) = &domain.kind else {
        return None;
    };
    if !plain(lo, *b) || !plain(hi, *b) {
        return None;
    }
    let innermost = i + 1 == rule.binders.len();
    // `0..=n` fails where `n` is the largest integer, for any binder
    // value: evaluated as written, where nothing else may hide it.
    let reaches_max = match &hi.kind {
        IrKind::Const(Value::Int(n)) => *n == i64::MAX,
        IrKind::Local(_) => super::inline::wide_now(),
        _ => true,
    };
    if !innermost && *op == BinOp::RangeIncl && reaches_max {
        return None;
    }
    let later = &rule.binders[i + 1..];
    let mut after = Vec::new();
    for (pattern, domain) in later {
        let (PatIr::Slot(s), IrKind::Binary(BinOp::Range | BinOp::RangeIncl, lo, hi)) =
            (pattern, &domain.kind)
        else {
            return None;
        };
        if !super::inline::repeatable(lo) || !super::inline::repeatable(hi) {
            return None;
        }
        after.push(*s);
    }
    let mut conjuncts = Vec::new();
    super::either::flatten(rule.guard.as_ref()?, &mut conjuncts);
    // The first equation that fixes `b`, reading no later binder, after
    // tests that cannot fail.
    let free = |others: &[(i64, Ir)]| {
        (others.iter()).all(|(_, e)| !matches!(e.kind, IrKind::Local(s) if after.contains(&s)))
    };
    let (pos, sign, others) =
        conjuncts
            .iter()
            .enumerate()
            .find_map(|(at, c)| match fixes(c, *b) {
                // An outer binder's equation cannot fail either.
                Some((sign, others)) if free(&others) && (innermost || compares(c)) => {
                    Some(Some((at, sign, others)))
                }
                _ if equality(c) || compares(c) => None,
                _ => Some(None),
            })??;
    let first = &conjuncts[pos];
    let span = first.span;
    let at = |kind| Ir { kind, span };
    let value = others
        .into_iter()
        .fold(at(IrKind::Const(Value::Int(0))), |acc, (s, e)| {
            // b = -sign * others: a term of sign s goes in with -sign * s.
            let op = if -sign * s > 0 {
                BinOp::Add
            } else {
                BinOp::Sub
            };
            at(IrKind::Binary(op, Box::new(acc), Box::new(e.clone())))
        });
    let upper = if *op == BinOp::RangeIncl {
        BinOp::Le
    } else {
        BinOp::Lt
    };
    let and = |a: Ir, b: Ir| at(IrKind::Binary(BinOp::And, Box::new(a), Box::new(b)));
    let below = at(IrKind::Binary(
        BinOp::Le,
        lo.clone(),
        Box::new(value.clone()),
    ));
    let above = at(IrKind::Binary(upper, Box::new(value.clone()), hi.clone()));
    conjuncts[pos] = and(below, above);
    let mut solved = rule.clone();
    solved.guard = Some(super::either::join(conjuncts));
    Some(put_at(solved, i, &value))
}

/// Whether `c` is `==` or `!=` of operands that cannot fail, or `not`,
/// `and` or `or` of such tests: a test that gives a boolean whatever the
/// operands hold, so that evaluating it for one value of the binder
/// rather than each hides no error (an order comparison fails between an
/// integer and a string).
fn equality(c: &Ir) -> bool {
    super::implied::safe(c)
}

/// Whether `c` compares sums of names and small integers (`a + b <=
/// n`) that cannot fail (`inline::repeatable`: below 2³¹, as the
/// compiled rules' slots are, they cannot overflow; where parameters
/// may be larger, only a name or a constant alone).
fn compares(c: &Ir) -> bool {
    let IrKind::Binary(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne, l, r) =
        &c.kind
    else {
        return false;
    };
    super::inline::repeatable(l) && super::inline::repeatable(r)
}

/// `(sign, others)` where `c` is an equation of sums of names and
/// integers, `l - r = sign * b + others`, reading `b` once.
fn fixes(c: &Ir, b: Slot) -> Option<(i64, Vec<(i64, Ir)>)> {
    let IrKind::Binary(BinOp::Eq, l, r) = &c.kind else {
        return None;
    };
    let mut terms = Vec::new();
    sum(l, 1, &mut terms)?;
    sum(r, -1, &mut terms)?;
    let (ours, others): (Vec<_>, Vec<_>) = terms.into_iter().partition(|(_, e)| is(e, b));
    let [(sign, _)] = ours.as_slice() else {
        return None;
    };
    let others = others.into_iter().map(|(s, e)| (s, e.clone())).collect();
    Some((*sign, others))
}

/// `rule` with its innermost binder put as the one value its domain
/// holds: `right in [n - k - left]` (a list or set of one item that
/// can neither fail nor cost anything to evaluate again, or a tuple of
/// such items, `p in [(x + dx, y + dy)]`, whose `p[0]` then folds to
/// `x + dx` as the rule is normalised again), or `b in n -
/// a..=n - a` (a range whose ends are the same sum of names and integers,
/// one of them a binder of an earlier range, so that the sum is an
/// integer or fails as the range would). A loop of one turn kept the
/// compiled rules from reading the options by index, or from seeing the
/// board (Grundy's game written so: 157 times slower). `None` when the
/// binder is not of that shape.
pub(super) fn single(rule: &MoveIr) -> Option<MoveIr> {
    let (PatIr::Slot(b), domain) = rule.binders.last()? else {
        return None;
    };
    let value = match &domain.kind {
        IrKind::List(items) | IrKind::Set(items) => match items.as_slice() {
            [e] if super::inline::repeatable(e) || super::inline::few_items(e) => e.clone(),
            _ => return None,
        },
        // Small constants (see `repeatable`): the sum cannot reach the
        // largest integer, whose range `..=` refuses.
        IrKind::Binary(BinOp::RangeIncl, lo, hi)
            if super::hoist::same(lo, hi) && super::inline::repeatable(lo) =>
        {
            let mut terms = Vec::new();
            sum(lo, 1, &mut terms)?;
            let ranged = |e: &Ir| {
                rule.binders[..rule.binders.len() - 1].iter().any(|(p, d)| {
                    matches!((p, &e.kind), (PatIr::Slot(s), IrKind::Local(t)) if s == t)
                        && matches!(d.kind, IrKind::Binary(BinOp::Range | BinOp::RangeIncl, ..))
                })
            };
            let reads_b = terms.iter().any(|(_, e)| is(e, *b));
            if reads_b || !terms.iter().any(|(_, e)| ranged(e)) {
                return None;
            }
            (**lo).clone()
        }
        _ => return None,
    };
    Some(put_innermost(rule.clone(), *b, &value))
}

/// `rule` without its innermost binder, slot `b`, and `value` put
/// wherever `b` is read after it (the guard and the targets).
pub(super) fn put_innermost(rule: MoveIr, b: Slot, value: &Ir) -> MoveIr {
    debug_assert!(matches!(rule.binders.last(), Some((PatIr::Slot(s), _)) if *s == b));
    let last = rule.binders.len() - 1;
    put_at(rule, last, value)
}

/// `rule` without binder `i`, a slot, and `value` put wherever it is read
/// after it (the later binders' domains, the guard and the targets).
fn put_at(mut rule: MoveIr, i: usize, value: &Ir) -> MoveIr {
    let (PatIr::Slot(b), _) = rule.binders.remove(i) else {
        unreachable!("a binder of one slot")
    };
    let bind = |s: Slot| (s == b).then(|| value.clone());
    map_move(&rule, i, &mut |e| put(e, &bind))
}

/// The terms of a sum of names and integers, each with its sign, added
/// to `out`; `None` for anything else.
fn sum<'a>(e: &'a Ir, sign: i64, out: &mut Vec<(i64, &'a Ir)>) -> Option<()> {
    match &e.kind {
        IrKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            sum(a, sign, out)?;
            sum(b, if *op == BinOp::Sub { -sign } else { sign }, out)
        }
        IrKind::Unary(crate::syntax::ast::UnOp::Neg, a) => sum(a, -sign, out),
        IrKind::Local(_) | IrKind::Const(Value::Int(_)) => {
            out.push((sign, e));
            Some(())
        }
        _ => None,
    }
}

fn is(e: &Ir, slot: Slot) -> bool {
    matches!(e.kind, IrKind::Local(s) if s == slot)
}

/// A range's end that cannot fail and does not read the binder.
pub(super) fn plain(e: &Ir, b: Slot) -> bool {
    match &e.kind {
        IrKind::Const(Value::Int(_)) => true,
        IrKind::Local(s) => *s != b,
        _ => false,
    }
}
