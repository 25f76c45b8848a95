//! `min` and `max` of two lists, tuples or strings, the canonical form of
//! a row and its mirror image (`min(cs, reversed(cs))`), as the choice
//! between them that a comparison makes:
//!
//! ```text
//! let x = cs in let y = reversed(cs) in if y < x then y else x
//! ```
//!
//! which the compiled rules make, comparing two collections item by
//! item; `min` and `max` of collections are not among their built-ins.
//! The interpreter's `min(a, b)` and `max(a, b)` are the less and the
//! greater of the two, and either where they are equal, which are then
//! alike: the same value as this choice.

use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;
use std::cell::Cell;

/// `min(a, b)` or `max(a, b)` of which one argument is a collection as
/// written (see [`collection`]), as the choice of the module's doc; `None`
/// for any other expression. The arguments are normalised already.
pub(super) fn extremum(ir: &Ir, slots: &Cell<usize>) -> Option<Ir> {
    let IrKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) = &ir.kind else {
        return None;
    };
    let [a, b_arg] = args.as_slice() else {
        return None;
    };
    (collection(a) || collection(b_arg)).then_some(())?;
    let at = |kind| Ir {
        kind,
        span: ir.span,
    };
    let mut lets = Vec::new();
    let mut named = |value: &Ir| match value.kind {
        IrKind::Local(_) | IrKind::Const(_) => value.clone(),
        _ => {
            let slot = slots.get() as Slot;
            slots.set(slots.get() + 1);
            lets.push((slot, value.clone()));
            at(IrKind::Local(slot))
        }
    };
    let (x, y) = (named(a), named(b_arg));
    let (less, more) = match b {
        Builtin::Min => ((y.clone(), x.clone()), (y, x)),
        _ => ((x.clone(), y.clone()), (y, x)),
    };
    let test = at(IrKind::Binary(
        BinOp::Lt,
        Box::new(less.0),
        Box::new(less.1),
    ));
    let choice = at(IrKind::If(
        Box::new(test),
        Box::new(more.0),
        Box::new(more.1),
    ));
    Some(lets.into_iter().rev().fold(choice, |body, (slot, value)| {
        at(IrKind::Let(
            PatIr::Slot(slot),
            Box::new(value),
            Box::new(body),
        ))
    }))
}

/// Whether `ir` is a list, tuple or string whatever the values it reads:
/// written out, a constant one, a slice, a comprehension, or made by
/// `reversed`, `sorted` or `list`, or by `+` or `*` of one.
fn collection(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::List(_) | IrKind::Tuple(_) | IrKind::Slice(..) => true,
        IrKind::Comprehension { set, .. } => !set,
        IrKind::Const(v) => matches!(v, Value::List(_) | Value::Tuple(_) | Value::Str(_)),
        IrKind::CallBuiltin(Builtin::Reversed | Builtin::Sorted | Builtin::List, _) => true,
        IrKind::Binary(BinOp::Add, a, b) => collection(a) || collection(b),
        IrKind::Binary(BinOp::Mul, a, _) => collection(a),
        _ => false,
    }
}
