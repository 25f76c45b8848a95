//! A binder over the indices of a constant list that reads the index only
//! to take that list's item,
//!
//! ```text
//! let S = [2, 3, 5, 7, 11, 13]
//! move take(i in 0..len(S)) if S[i] <= n -> sub(n - S[i])
//! ```
//!
//! runs over the items instead, `k in S` with `k` for each `S[i]`: the
//! same options in the same order, and since every index was in range, no
//! `S[i]` could fail. A binder over constants is narrowed by the guard's
//! comparisons (`k <= n`), where one over the indices tested each.
//!
//! The index itself is then no longer at hand to name a move by, so the
//! rule's `named` is dropped, and the pass is not used for the rules that
//! list moves in order (see [`super::listing_rules`]).

use super::inline::pattern_slots;
use super::walk::{each_child, map_children, map_move};
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;
use std::cell::Cell;

/// `rule` with its first binder over the indices of a constant list that
/// only indexes it turned to the list's items; `None` when it has none.
pub(super) fn items(rule: &MoveIr, slots: &Cell<usize>) -> Option<MoveIr> {
    let (at, i, list) = rule.binders.iter().enumerate().find_map(|(at, (p, d))| {
        let PatIr::Slot(i) = *p else { return None };
        let count = indices(d)?;
        let list = only_indexed(rule, at, i)?;
        let items = list.as_slice()?;
        let ints = items.iter().all(|v| matches!(v, Value::Int(_)));
        (ints && items.len() >= count).then(|| (at, i, Value::List(items[..count].to_vec().into())))
    })?;
    let k = slots.get() as Slot;
    slots.set(slots.get() + 1);
    let mut copy = map_move(rule, at + 1, &mut |e| read_item(e, i, k));
    let span = rule.binders[at].1.span;
    copy.binders[at] = (
        PatIr::Slot(k),
        Ir {
            kind: IrKind::Const(list),
            span,
        },
    );
    for (_, s) in &mut copy.shown {
        if *s == i {
            *s = k;
        }
    }
    copy.named = None;
    Some(copy)
}

/// How many indices `domain` runs over, where it is `0..N` of constants.
fn indices(domain: &Ir) -> Option<usize> {
    let count = match &domain.kind {
        IrKind::Const(Value::Range(0, hi)) => *hi,
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => {
            let hi = match (&lo.kind, &hi.kind) {
                (IrKind::Const(Value::Int(0)), IrKind::Const(Value::Int(hi))) => *hi,
                // `0..len(S)` of a constant `S`.
                (IrKind::Const(Value::Int(0)), IrKind::CallBuiltin(Builtin::Len, xs)) => {
                    let [xs] = &xs[..] else { return None };
                    let IrKind::Const(v) = &xs.kind else {
                        return None;
                    };
                    v.as_slice()?.len() as i64
                }
                _ => return None,
            };
            hi.checked_add(i64::from(*op == BinOp::RangeIncl))?
        }
        _ => return None,
    };
    usize::try_from(count.max(0)).ok()
}

/// The constant list or tuple that every read of `i` in `rule` (past
/// binder `at`) indexes, where each read is such an index.
fn only_indexed(rule: &MoveIr, at: usize, i: Slot) -> Option<Value> {
    let mut found: Option<Value> = None;
    let mut fine = true;
    let later = rule.binders[at + 1..].iter().map(|(_, d)| d);
    let target = rule.target.exprs();
    for e in later.chain(rule.guard.iter()).chain(target) {
        reads(e, i, &mut found, &mut fine);
    }
    // A pattern may bind `i` again: then it is no longer only this one.
    let mut later = rustc_hash::FxHashSet::default();
    (rule.binders[at + 1..].iter()).for_each(|(p, _)| pattern_slots(p, &mut later));
    (fine && !later.contains(&i)).then_some(found?)
}

/// Walks `ir`: `fine` stays true while every read of `i` is `C[i]` of
/// one constant `C`, a list or tuple, kept in `found`.
fn reads(ir: &Ir, i: Slot, found: &mut Option<Value>, fine: &mut bool) {
    match &ir.kind {
        IrKind::Index(xs, at) if matches!(at.kind, IrKind::Local(s) if s == i) => match &xs.kind {
            IrKind::Const(v @ (Value::List(_) | Value::Tuple(_))) => match found {
                Some(seen) if seen != v => *fine = false,
                Some(_) => {}
                None => *found = Some(v.clone()),
            },
            _ => *fine = false,
        },
        IrKind::Local(s) if *s == i => *fine = false,
        _ => each_child(ir, &mut |e| reads(e, i, found, fine)),
    }
}

/// `ir` with `k` in place of each `C[i]`.
fn read_item(ir: &Ir, i: Slot, k: Slot) -> Ir {
    match &ir.kind {
        IrKind::Index(_, at) if matches!(at.kind, IrKind::Local(s) if s == i) => Ir {
            kind: IrKind::Local(k),
            span: ir.span,
        },
        _ => map_children(ir, &mut |e| read_item(e, i, k)),
    }
}
