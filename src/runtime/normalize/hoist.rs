//! A call that both branches of an `if` make with the same arguments,
//! made once before it: `if k % 2 == 1 then 1 + ones(k / 2) else ones(k /
//! 2)` becomes `let t = ones(k / 2) in if k % 2 == 1 then 1 + t else t`.
//! So a function that calls itself in both branches is a recursion of
//! one call, unrolled level by level rather than doubling at each.
//!
//! Exact: the call is one that each branch evaluates for certain (not
//! after an `and`, in a nested `if`'s branch or in a loop), so it is
//! evaluated whichever branch is taken, as often as before; functions
//! have no effects, so only the order changes, and only past a condition
//! that cannot fail (comparisons and logic of names, constants, and `/`
//! or `%` by a constant other than 0). Its arguments read no name either
//! branch binds.

use super::inline::bound_slots;
use super::map_children;
use crate::ir::{ClauseIr, Ir, IrKind, PatIr, Slot};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;
use rustc_hash::FxHashSet;

/// The most calls hoisted out of one function's body.
const MOST: usize = 16;

/// `body`, of a frame of `slots` slots, with common calls hoisted, and
/// the slots its frame has then.
pub(super) fn calls(body: &Ir, slots: usize) -> (Ir, usize) {
    let mut next = slots as Slot;
    let body = hoist(body, &mut next, slots as Slot + MOST as Slot);
    (body, next as usize)
}

fn hoist(ir: &Ir, next: &mut Slot, last: Slot) -> Ir {
    let ir = map_children(ir, &mut |e| hoist(e, next, last));
    let IrKind::If(c, a, b) = &ir.kind else {
        return ir;
    };
    if *next >= last || !safe(c) {
        return ir;
    }
    let mut bound = FxHashSet::default();
    bound_slots(a, &mut bound);
    bound_slots(b, &mut bound);
    let (mut in_a, mut in_b) = (Vec::new(), Vec::new());
    certain_calls(a, &mut in_a);
    certain_calls(b, &mut in_b);
    let common = in_a
        .into_iter()
        .find(|call| in_b.iter().any(|other| same(call, other)) && !reads_any(call, &bound));
    let Some(call) = common else {
        return ir;
    };
    let slot = *next;
    *next += 1;
    let local = Ir {
        kind: IrKind::Local(slot),
        span: call.span,
    };
    let (a, b) = (replace(a, &call, &local), replace(b, &call, &local));
    let branches = Ir {
        kind: IrKind::If(c.clone(), Box::new(a), Box::new(b)),
        span: ir.span,
    };
    // Another call both branches share is hoisted in turn.
    let branches = hoist(&branches, next, last);
    Ir {
        kind: IrKind::Let(PatIr::Slot(slot), Box::new(call), Box::new(branches)),
        span: ir.span,
    }
}

/// Whether evaluating `c` cannot fail.
fn safe(c: &Ir) -> bool {
    match &c.kind {
        IrKind::Local(_) | IrKind::Const(Value::Int(_) | Value::Bool(_)) => true,
        IrKind::Unary(UnOp::Not | UnOp::BitNot, a) => safe(a),
        IrKind::Binary(BinOp::Div | BinOp::Rem, a, b) => {
            safe(a) && matches!(b.kind, IrKind::Const(Value::Int(d)) if d != 0)
        }
        IrKind::Binary(
            BinOp::And
            | BinOp::Or
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor,
            a,
            b,
        ) => safe(a) && safe(b),
        IrKind::Chain(operands, _) => operands.iter().all(safe),
        _ => false,
    }
}

/// The calls of functions that `ir` evaluates whenever it is evaluated.
fn certain_calls(ir: &Ir, out: &mut Vec<Ir>) {
    match &ir.kind {
        IrKind::CallFn(_, args) => {
            out.push(ir.clone());
            args.iter().for_each(|a| certain_calls(a, out));
        }
        IrKind::If(c, ..) => certain_calls(c, out),
        IrKind::Binary(BinOp::And | BinOp::Or, a, _) => certain_calls(a, out),
        IrKind::Chain(operands, _) => operands.iter().take(2).for_each(|e| certain_calls(e, out)),
        IrKind::Comprehension { clauses, .. } => {
            if let Some(ClauseIr::For(_, e) | ClauseIr::If(e)) = clauses.first() {
                certain_calls(e, out);
            }
        }
        IrKind::Unary(..) | IrKind::Binary(..) | IrKind::Let(..) | IrKind::CallBuiltin(..) => {
            super::each_child(ir, &mut |e| certain_calls(e, out));
        }
        _ => {}
    }
}

/// Whether `a` and `b` are the same call of the same arguments, written
/// with names, constants and operators.
pub(super) fn same(a: &Ir, b: &Ir) -> bool {
    let all =
        |xs: &[Ir], ys: &[Ir]| xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y));
    match (&a.kind, &b.kind) {
        (IrKind::Local(x), IrKind::Local(y)) => x == y,
        (IrKind::Global(x), IrKind::Global(y)) => x == y,
        (IrKind::Const(Value::Int(x)), IrKind::Const(Value::Int(y))) => x == y,
        (IrKind::Const(Value::Bool(x)), IrKind::Const(Value::Bool(y))) => x == y,
        (IrKind::Unary(o, x), IrKind::Unary(p, y)) => o == p && same(x, y),
        (IrKind::Binary(o, x1, x2), IrKind::Binary(p, y1, y2)) => {
            o == p && same(x1, y1) && same(x2, y2)
        }
        (IrKind::CallFn(f, xs), IrKind::CallFn(g, ys)) => f == g && all(xs, ys),
        (IrKind::CallBuiltin(f, xs), IrKind::CallBuiltin(g, ys)) => f == g && all(xs, ys),
        _ => false,
    }
}

/// Whether `ir` reads any of `slots`.
fn reads_any(ir: &Ir, slots: &FxHashSet<Slot>) -> bool {
    super::any_node(
        ir,
        &|e| matches!(e.kind, IrKind::Local(s) if slots.contains(&s)),
    )
}

/// `ir` with `local` in place of every occurrence of `call`.
fn replace(ir: &Ir, call: &Ir, local: &Ir) -> Ir {
    if same(ir, call) {
        return local.clone();
    }
    map_children(ir, &mut |e| replace(e, call, local))
}
