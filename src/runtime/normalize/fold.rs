//! Operations on constants folded where the normaliser meets them: on
//! integers, items and lengths of constants, tuples of constants, and
//! (in `logic.rs`) conditions.

use super::{displays, inline, logic};
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind};
use crate::runtime::ops::item_at;
use crate::syntax::ast::UnOp;
use crate::value::Value;

/// `ir` with an operation on constant integers replaced by its result,
/// where it has one (an overflow or a division by zero is left for the
/// interpreter to report), a tuple of constants made one constant, and a
/// condition on constants its value (`logic.rs`).
pub(super) fn fold(ir: Ir) -> Ir {
    let int = |e: &Ir| match e.kind {
        IrKind::Const(Value::Int(n)) => Some(n),
        _ => None,
    };
    let value = match &ir.kind {
        IrKind::Unary(UnOp::Neg, a) => int(a).and_then(i64::checked_neg).map(Value::Int),
        IrKind::Unary(UnOp::BitNot, a) => int(a).map(|n| Value::Int(!n)),
        IrKind::Binary(op, a, b) if op.is_arithmetic() => match (int(a), int(b)) {
            (Some(x), Some(y)) => crate::runtime::ops::arith(*op, x, y, ir.span)
                .ok()
                .map(Value::Int),
            _ => None,
        },
        // An item of a tuple written out, whose items cannot fail (the
        // interpreter makes them all): the item itself.
        IrKind::Index(xs, i) => match (&xs.kind, int(i)) {
            (IrKind::Tuple(items), Some(i)) if items.iter().all(inline::repeatable) => {
                if let Some(item) = item_at(items, i) {
                    return item.clone();
                }
                None
            }
            (IrKind::Const(Value::Tuple(items)), Some(i)) => item_at(items, i).cloned(),
            (IrKind::Const(Value::List(items)), Some(i)) => item_at(items, i).cloned(),
            // A character of a constant string, counted from the start.
            (IrKind::Const(Value::Str(s)), Some(i)) => (usize::try_from(i).ok())
                .and_then(|i| s.chars().nth(i))
                .map(|c| Value::Str(c.to_string().into())),
            _ => None,
        },
        // The length of a constant: `len(S)` of a `let`.
        IrKind::CallBuiltin(Builtin::Len, xs) => match &xs[..] {
            [
                Ir {
                    kind: IrKind::Const(v),
                    ..
                },
            ] => length(v).map(Value::Int),
            _ => None,
        },
        IrKind::CallBuiltin(b @ (Builtin::Zip | Builtin::Enumerate), args) => zipped(*b, args),
        IrKind::Tuple(items) => items
            .iter()
            .map(|e| match &e.kind {
                IrKind::Const(v) => Some(v.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(|items| Value::Tuple(items.into())),
        _ => None,
    };
    match value {
        Some(v) => Ir {
            kind: IrKind::Const(v),
            span: ir.span,
        },
        None => logic::fold(logic::extremum_is(logic::abs_bounds(displays::written(ir)))),
    }
}

/// The most items a `zip` or `enumerate` of constants is made of.
const ZIPPED_MAX: usize = 4096;

/// `zip` or `enumerate` of constant lists or tuples (or written out of
/// constants), as the interpreter
/// makes it: a list of tuples, as long as the shortest. So `(dx, dy) in
/// zip(DX, DY)` runs over constant tuples, which the rules unroll.
fn zipped(b: Builtin, args: &[Ir]) -> Option<Value> {
    // A constant, or a list or tuple written out of constants.
    let items = |e: &Ir| -> Option<Vec<Value>> {
        match &e.kind {
            IrKind::Const(v @ (Value::List(_) | Value::Tuple(_))) => Some(v.as_slice()?.to_vec()),
            IrKind::List(xs) | IrKind::Tuple(xs) => (xs.iter())
                .map(|x| match &x.kind {
                    IrKind::Const(v) => Some(v.clone()),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    };
    let lists: Vec<Vec<Value>> = args.iter().map(items).collect::<Option<_>>()?;
    let len = lists.iter().map(|l| l.len()).min()?;
    if len > ZIPPED_MAX {
        return None;
    }
    let tuple = |i: usize| -> Value {
        match b {
            Builtin::Enumerate => Value::Tuple([Value::Int(i as i64), lists[0][i].clone()].into()),
            _ => Value::Tuple(lists.iter().map(|l| l[i].clone()).collect()),
        }
    };
    match (b, lists.len()) {
        (Builtin::Enumerate, 1) | (Builtin::Zip, 1..) => {
            Some(Value::list((0..len).map(tuple).collect()))
        }
        _ => None,
    }
}

/// The length of a constant collection, as `len` gives it.
fn length(v: &Value) -> Option<i64> {
    let count = match v {
        Value::Str(s) => s.chars().count(),
        Value::Set(items) => items.len(),
        Value::Range(lo, hi) => return Some(hi.checked_sub(*lo)?.max(0)),
        _ => v.as_slice()?.len(),
    };
    i64::try_from(count).ok()
}
