//! `all([...])` and `any([...])` of conditions that cannot fail written
//! as chains of `and` and `or`: the compiled rules have no loop over a
//! list of booleans.

use super::inline::{pattern_slots, repeatable};
use super::unroll::few_constants;
use super::{any_node, put};
use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::ir::{ClauseIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;
use rustc_hash::FxHashSet;

/// `any([c for x in S])` or `all(...)` over a few constants `S`, or of
/// a list of conditions written out, as the chain `c1 or c2 or ...`
/// (`and` for `all`) of `c` with each item put for `x`, when each of those is a condition that cannot fail: then
/// stopping early, as `or` does, skips no error that making the whole
/// list would have met. (The compiled rules have no loop over a list of
/// booleans.)
pub(super) fn any_all(ir: &Ir, defs: &Defs) -> Option<Ir> {
    any_all_with(ir, defs, &|_| false)
}

/// [`any_all`] where the slots `small` says hold integers below the
/// slots' limit, as a move's parameters and binders do in the compiled
/// rules: sums of those and small constants (`x + dx`, [`repeatable`])
/// cannot fail either.
fn any_all_with(ir: &Ir, defs: &Defs, small: &dyn Fn(Slot) -> bool) -> Option<Ir> {
    let is_condition = |e: &Ir| is_condition(e, small);
    let IrKind::CallBuiltin(b @ (Builtin::Any | Builtin::All), args) = &ir.kind else {
        return None;
    };
    let [list] = args.as_slice() else {
        return None;
    };
    let op = match b {
        Builtin::Any => BinOp::Or,
        _ => BinOp::And,
    };
    let chain = |parts: Vec<Ir>| {
        parts.into_iter().reduce(|a, b| Ir {
            span: ir.span,
            kind: IrKind::Binary(op, Box::new(a), Box::new(b)),
        })
    };
    // Written out already (`few.rs`): `any([k == 1, k == 3])`.
    if let IrKind::List(items) = &list.kind {
        return chain(items.iter().all(is_condition).then(|| items.clone())?);
    }
    let IrKind::Comprehension {
        elem,
        clauses,
        set: false,
    } = &list.kind
    else {
        return None;
    };
    let [ClauseIr::For(PatIr::Slot(x), domain)] = clauses.as_slice() else {
        return None;
    };
    let items = few_constants(domain, defs).filter(|items| !items.is_empty())?;
    let parts: Vec<Ir> = items
        .into_iter()
        .map(|v| {
            let item = Ir {
                kind: IrKind::Const(v),
                span: domain.span,
            };
            let part = put(elem, &|s| (s == *x).then(|| item.clone()));
            is_condition(&part).then_some(part)
        })
        .collect::<Option<_>>()?;
    chain(parts)
}

/// `rule` with each `all([...])` or `any([...])` of its guard whose
/// items are conditions on its parameters and binders chained (see
/// [`any_all_with`]): `all([x + dx >= 0, x + dx < N])`. Those slots are
/// below the slots' limit in the compiled rules (the twin for larger
/// ones takes no sum as [`repeatable`]); a `let`'s name or a
/// comprehension's may hold any integer. `None` where none is.
pub(super) fn chained_truths(rule: &MoveIr, arity: usize, defs: &Defs) -> Option<MoveIr> {
    let mut slots = FxHashSet::default();
    for (pattern, _) in &rule.binders {
        pattern_slots(pattern, &mut slots);
    }
    let small = |s: Slot| (s as usize) < arity || slots.contains(&s);
    fn chained(ir: &Ir, defs: &Defs, small: &dyn Fn(Slot) -> bool, found: &mut bool) -> Ir {
        let ir = super::map_children(ir, &mut |e| chained(e, defs, small, found));
        match any_all_with(&ir, defs, small) {
            Some(chain) => {
                *found = true;
                chain
            }
            None => ir,
        }
    }
    let mut found = false;
    let guard = rule
        .guard
        .as_ref()
        .map(|g| chained(g, defs, &small, &mut found));
    found.then(|| MoveIr {
        guard,
        ..rule.clone()
    })
}

/// Whether `e` is a comparison of names, constants, their quotients and
/// remainders by constants other than 0 and -1, and sums that cannot
/// overflow ([`repeatable`] sums of the slots `small` says are small),
/// chained or not, or `not`, `and`, `or` of those: a boolean, which
/// cannot fail.
fn is_condition(e: &Ir, small: &dyn Fn(Slot) -> bool) -> bool {
    let total = |e: &Ir| total(e, small);
    match &e.kind {
        IrKind::Binary(
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            a,
            b,
        ) => total(a) && total(b),
        IrKind::Chain(operands, ops) => {
            let order = |op: &BinOp| !matches!(op, BinOp::In | BinOp::NotIn);
            ops.iter().all(|op| op.is_comparison() && order(op)) && operands.iter().all(total)
        }
        IrKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            is_condition(a, small) && is_condition(b, small)
        }
        IrKind::Unary(UnOp::Not, a) => is_condition(a, small),
        _ => false,
    }
}

/// An integer operand of [`is_condition`] that cannot fail.
fn total(e: &Ir, small: &dyn Fn(Slot) -> bool) -> bool {
    let large = |e: &Ir| matches!(e.kind, IrKind::Local(s) if !small(s));
    match &e.kind {
        IrKind::Local(_) | IrKind::Const(Value::Int(_)) => true,
        IrKind::Binary(BinOp::Div | BinOp::Rem, a, b) => {
            matches!(b.kind, IrKind::Const(Value::Int(d)) if d != 0 && d != -1) && total(a, small)
        }
        _ => repeatable(e) && !any_node(e, &large),
    }
}
