//! A binder over a range whose guard begins by asking that it be one of
//! a few constants,
//!
//! ```text
//! move take(k in 1..=n) if k in {1, 3, 4} -> g(n - k)
//! ```
//!
//! runs over the constants instead, the range becoming a condition:
//! `k in [1, 3, 4] if 1 <= k and k <= n`. Written the first way the loop
//! is as long as the position is large, each value but three filtered
//! out; the second is what a programmer would write. The options are the
//! same, in the same order (the constants ascending, as the range would
//! meet them), and since the membership test comes first in the guard,
//! nothing else was evaluated for a value outside it.
//!
//! Likewise a binder over a range whose end is capped by a constant,
//! `k in 1..=min(n, 7)`, runs over `1..=7` with `k <= n` first in its
//! guard ([`capped`]), and one over a constant set less a few items,
//! `k in {1, 2, 3, 4} - {last}`, over the set with `k != last` first
//! ([`less_items`]).

use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind, MoveIr, PatIr};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// The most constants a binder is turned to written out, item by item
/// (then a binder over a few is unrolled, see `unroll.rs`); up to
/// [`LONGEST`], one constant list (`k in PRIMES`, hundreds of primes: a
/// loop over those at most the position's size, the range's ends
/// narrowing it, where the range's loop tested every integer).
const MOST: usize = 64;
const LONGEST: usize = 1 << 20;

/// `rule` with its innermost binder turned to the constants its guard
/// begins by asking for; `None` when it does not have that shape.
pub(super) fn constants(rule: &MoveIr) -> Option<MoveIr> {
    let (PatIr::Slot(k), domain) = rule.binders.last()? else {
        return None;
    };
    let IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) = &domain.kind else {
        return None;
    };
    // The ends are evaluated once before the loop, and would be per value
    // after: only ends that cannot fail.
    let plain = |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(_)) | IrKind::Local(_));
    if !plain(lo) || !plain(hi) {
        return None;
    }
    let (first, rest) = split_first(rule.guard.as_ref()?);
    let IrKind::Binary(BinOp::In, x, set) = &first.kind else {
        return None;
    };
    if !matches!(x.kind, IrKind::Local(s) if s == *k) {
        return None;
    }
    let mut items = ints(set)?;
    items.sort_unstable();
    items.dedup();
    if items.len() > LONGEST {
        return None;
    }
    let span = domain.span;
    let at = |kind| Ir { kind, span };
    let local = || Box::new(at(IrKind::Local(*k)));
    let below = at(IrKind::Binary(BinOp::Le, lo.clone(), local()));
    let upper = if *op == BinOp::RangeIncl {
        BinOp::Le
    } else {
        BinOp::Lt
    };
    let above = at(IrKind::Binary(upper, local(), hi.clone()));
    let and = |a: Ir, b: Ir| at(IrKind::Binary(BinOp::And, Box::new(a), Box::new(b)));
    let mut guard = and(below, above);
    if let Some(rest) = rest {
        guard = and(guard, rest);
    }
    let mut rule = rule.clone();
    rule.binders.last_mut()?.1 = match items.len() {
        len if len <= MOST => {
            let consts = items.into_iter().map(|n| at(IrKind::Const(Value::Int(n))));
            at(IrKind::List(consts.collect()))
        }
        _ => at(IrKind::Const(Value::list(
            items.into_iter().map(Value::Int).collect(),
        ))),
    };
    rule.guard = Some(guard);
    Some(rule)
}

/// `rule` with its innermost binder over a range up to the least of a
/// name and a constant (`k in 1..=min(n, 7)`, or `..` and `min(7, n)`)
/// turned to the range up to the constant, `k <= n` (or `k < n`) first in
/// its guard: the same options in the same order, over a loop of
/// constants that the rules unroll or narrow as they would `k in 1..=7
/// if k <= n`, where the loop's end was evaluated per position. `None`
/// when it does not have that shape.
pub(super) fn capped(rule: &MoveIr) -> Option<MoveIr> {
    let (PatIr::Slot(k), domain) = rule.binders.last()? else {
        return None;
    };
    let IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) = &domain.kind else {
        return None;
    };
    let IrKind::CallBuiltin(Builtin::Min, args) = &hi.kind else {
        return None;
    };
    // A cap the compiled rules' loops take (a binder's values are held
    // to the slots' limit: a larger one would bail at every position).
    let small =
        |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(c)) if c.unsigned_abs() < 1 << 30);
    let (name, cap) = match args.as_slice() {
        [a, b] if small(b) => (a, b),
        [a, b] if small(a) => (b, a),
        _ => return None,
    };
    let plain = |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(_)) | IrKind::Local(_));
    if !plain(lo) || !matches!(name.kind, IrKind::Local(s) if s != *k) {
        return None;
    }
    let span = domain.span;
    let at = |kind| Ir { kind, span };
    let upper = match op {
        BinOp::RangeIncl => BinOp::Le,
        _ => BinOp::Lt,
    };
    let local = Box::new(at(IrKind::Local(*k)));
    let below = at(IrKind::Binary(upper, local, Box::new(name.clone())));
    let mut rule = rule.clone();
    rule.guard = Some(match rule.guard.take() {
        Some(rest) => at(IrKind::Binary(BinOp::And, Box::new(below), Box::new(rest))),
        None => below,
    });
    rule.binders.last_mut()?.1 = at(IrKind::Binary(*op, lo.clone(), Box::new(cap.clone())));
    Some(rule)
}

/// The first conjunct of `guard` (its leftmost operand of `and`s), and
/// the rest of it, if any, in the same order.
pub(super) fn split_first(guard: &Ir) -> (&Ir, Option<Ir>) {
    let IrKind::Binary(BinOp::And, l, r) = &guard.kind else {
        return (guard, None);
    };
    let (first, rest) = split_first(l);
    let rest = match rest {
        Some(l) => Ir {
            kind: IrKind::Binary(BinOp::And, Box::new(l), r.clone()),
            span: guard.span,
        },
        None => (**r).clone(),
    };
    (first, Some(rest))
}

/// The integers of a constant collection written out or folded: a set,
/// list or tuple of integers.
fn ints(ir: &Ir) -> Option<Vec<i64>> {
    let int = |v: &Value| match v {
        Value::Int(n) => Some(*n),
        _ => None,
    };
    match &ir.kind {
        IrKind::Set(items) | IrKind::List(items) | IrKind::Tuple(items) => items
            .iter()
            .map(|i| match &i.kind {
                IrKind::Const(v) => int(v),
                _ => None,
            })
            .collect(),
        IrKind::Const(Value::Set(s)) => s.iter().map(int).collect(),
        IrKind::Const(v) => v.as_slice()?.iter().map(int).collect(),
        _ => None,
    }
}

/// `rule` with its innermost binder over a constant set less a set written out of
/// items that can neither fail nor cost (`k in {1, 2, 3, 4} - {last}`) run
/// over the constant set, its guard first asking `k != last` for each
/// item: the same values in the same order (the set's, ascending), where
/// the difference was made at every position (16 times slower); `None`
/// when no binder has that shape.
pub(super) fn less_items(rule: &MoveIr) -> Option<MoveIr> {
    // The innermost binder only: a later binder's domain would be
    // evaluated for the values removed.
    let i = rule.binders.len().checked_sub(1)?;
    let (PatIr::Slot(k), domain) = &rule.binders[i] else {
        return None;
    };
    let IrKind::Binary(BinOp::Sub, kept, removed) = &domain.kind else {
        return None;
    };
    let (IrKind::Const(Value::Set(_)), IrKind::Set(removed)) = (&kept.kind, &removed.kind) else {
        return None;
    };
    if removed.len() > 4 || !removed.iter().all(super::inline::repeatable) {
        return None;
    }
    let span = domain.span;
    let at = |kind| Ir { kind, span };
    let unequal = removed.iter().map(|item| {
        at(IrKind::Binary(
            BinOp::Ne,
            Box::new(at(IrKind::Local(*k))),
            Box::new(item.clone()),
        ))
    });
    let and = |a: Ir, b: Ir| at(IrKind::Binary(BinOp::And, Box::new(a), Box::new(b)));
    let test = unequal.reduce(and)?;
    let mut out = rule.clone();
    out.binders[i].1 = (**kept).clone();
    out.guard = Some(match rule.guard.clone() {
        Some(g) => and(test, g),
        None => test,
    });
    Some(out)
}
