//! A guard with a choice that the binders do not change, `last == 0 or
//! abs(k - last) <= 1`, as two moves: one guarded by `last == 0`, the
//! other by `not (last == 0) and abs(k - last) <= 1`. At a position
//! exactly one of them makes options, those the rule made, in the same
//! order; and the second's condition on `k` can narrow its loop, which a
//! choice tested for every option cannot (a take within one of the last
//! ran O(n³) instead of O(n²)).
//!
//! Only where the choice's left side reads no binder: it is then the
//! same for every option, so each rule evaluates it where the written one
//! did, and meets any error it has at the same option.

use super::inline::pattern_slots;
use crate::ir::{Ir, IrKind, MoveIr, Slot};
use crate::syntax::ast::{BinOp, UnOp};
use rustc_hash::FxHashSet;

/// `rule` as the two moves of the first choice among its guard's
/// conjuncts whose left side reads no binder; `None` when there is none.
pub(super) fn split(rule: &MoveIr) -> Option<[MoveIr; 2]> {
    let guard = rule.guard.as_ref()?;
    if rule.binders.is_empty() {
        return None;
    }
    let mut binders = FxHashSet::default();
    rule.binders
        .iter()
        .for_each(|(p, _)| pattern_slots(p, &mut binders));
    let mut conjuncts = Vec::new();
    flatten(guard, &mut conjuncts);
    let at = conjuncts.iter().position(|c| match &c.kind {
        IrKind::Binary(BinOp::Or, a, b) => {
            condition(a) && condition(b) && !reads(a, &binders) && reads(b, &binders)
        }
        _ => false,
    })?;
    let IrKind::Binary(BinOp::Or, a, b) = &conjuncts[at].kind else {
        return None;
    };
    let not_a = Ir {
        kind: IrKind::Unary(UnOp::Not, a.clone()),
        span: a.span,
    };
    let guarded = |c: Ir| {
        let mut parts = conjuncts.clone();
        parts[at] = c;
        MoveIr {
            guard: Some(join(parts)),
            ..rule.clone()
        }
    };
    Some([guarded((**a).clone()), guarded(both(not_a, (**b).clone()))])
}

/// The conjuncts of `a and b and ...`, in order.
pub(super) fn flatten(ir: &Ir, out: &mut Vec<Ir>) {
    let mut parts = Vec::new();
    super::and_parts(ir, &mut parts);
    out.extend(parts.into_iter().cloned());
}

/// The conjunction of `parts`, left to right.
pub(super) fn join(parts: Vec<Ir>) -> Ir {
    let mut parts = parts.into_iter();
    let first = parts.next().expect("a conjunct");
    parts.fold(first, both)
}

fn both(a: Ir, b: Ir) -> Ir {
    Ir {
        span: a.span.to(b.span),
        kind: IrKind::Binary(BinOp::And, Box::new(a), Box::new(b)),
    }
}

/// Whether `ir` is a condition, a boolean or an error whichever operator
/// takes it: a comparison, `not`, `and`, `or` or `in`.
fn condition(ir: &Ir) -> bool {
    use BinOp::*;
    matches!(
        ir.kind,
        IrKind::Binary(Eq | Ne | Lt | Le | Gt | Ge | And | Or | In | NotIn, ..)
            | IrKind::Unary(UnOp::Not, _)
            | IrKind::Chain(..)
    )
}

/// Whether `ir` reads any of `slots`.
fn reads(ir: &Ir, slots: &FxHashSet<Slot>) -> bool {
    super::any_node(
        ir,
        &|e| matches!(e.kind, IrKind::Local(s) if slots.contains(&s)),
    )
}
