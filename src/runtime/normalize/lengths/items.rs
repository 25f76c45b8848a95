//! Lists and tuples written out item by item, as the rewrites of
//! `lengths` make and read them: a constant collection's items, `xs * n`
//! repeated, `zip` of a few of them read item by item, `min`, `max`,
//! `sum`, `all` and `any` of them, and the values a range of a few
//! constants runs over.

use super::VALUES_MAX;
use crate::builtins::Builtin;
use crate::graph::Shape;
use crate::ir::{Ir, IrKind, Slot};
use crate::span::Span;
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;
use std::borrow::Cow;

/// The most nodes of an expression [`small`] takes.
pub(super) const SMALL_NODES: u32 = 24;
/// The most items a list written out by `xs * n` has.
pub(super) const ITEMS_MAX: i64 = 64;

/// The items of a list or tuple written out, or of a constant one, with
/// its shape.
pub(super) fn items_of(ir: &Ir) -> Option<(Shape, Cow<'_, [Ir]>)> {
    let consts = |items: &[Value]| {
        let at = |v: &Value| Ir {
            kind: IrKind::Const(v.clone()),
            span: ir.span,
        };
        Cow::Owned(items.iter().map(at).collect())
    };
    match &ir.kind {
        IrKind::List(items) => Some((Shape::List, Cow::Borrowed(items))),
        IrKind::Tuple(items) => Some((Shape::Tuple, Cow::Borrowed(items))),
        IrKind::Const(Value::List(items)) => Some((Shape::List, consts(items))),
        IrKind::Const(Value::Tuple(items)) => Some((Shape::Tuple, consts(items))),
        _ => None,
    }
}

/// A list or tuple (by `shape`) of `items` written out.
pub(super) fn collection(shape: Shape, items: Vec<Ir>) -> IrKind {
    match shape {
        Shape::Tuple => IrKind::Tuple(items),
        _ => IrKind::List(items),
    }
}

/// `xs * n` (or `n * xs`) of items written out that cannot fail and a
/// constant count, as those items repeated (none for `n <= 0`, as the
/// interpreter repeats), up to [`ITEMS_MAX`] of them.
pub(super) fn repeated(a: &Ir, b: &Ir, safe: &dyn Fn(&Ir) -> bool) -> Option<IrKind> {
    let ((shape, items), n) = match (items_of(a), items_of(b)) {
        (Some(xs), None) => (xs, constant(b)?),
        (None, Some(xs)) => (xs, constant(a)?),
        _ => return None,
    };
    let n = n.max(0);
    if !items.iter().all(safe) || (items.len() as i64).saturating_mul(n) > ITEMS_MAX {
        return None;
    }
    let all = items.iter().cycle().take(items.len() * n as usize).cloned();
    Some(collection(shape, all.collect()))
}

/// `min`, `max`, `sum`, `all` or `any` of items written out, where each
/// reads its items directly: `min(a, b, c)`, `a + b + c`, `a and b and
/// c`. `sum` only of integers ([`integer`]), and `all` and `any` only of
/// booleans that cannot fail ([`boolean`]), since `all` evaluates every
/// item and `and` skips those after a false one.
pub(super) fn folded(
    b: Builtin,
    items: &[Ir],
    safe: &dyn Fn(&Ir) -> bool,
    span: Span,
) -> Option<Ir> {
    let at = |kind| Ir { kind, span };
    match (b, items) {
        (Builtin::Min | Builtin::Max, [one]) => Some(one.clone()),
        (Builtin::Min | Builtin::Max, [_, _, ..]) => {
            Some(at(IrKind::CallBuiltin(b, items.to_vec())))
        }
        (Builtin::Sum, [_, ..]) if items.iter().all(|e| integer(e, safe)) => {
            Some(added(items.to_vec(), span))
        }
        (Builtin::All | Builtin::Any, [_, ..]) if items.iter().all(|e| boolean(e, safe)) => {
            let op = if matches!(b, Builtin::All) {
                BinOp::And
            } else {
                BinOp::Or
            };
            let joined = |a: Ir, b: Ir| at(IrKind::Binary(op, Box::new(a), Box::new(b)));
            items.iter().cloned().reduce(joined)
        }
        _ => None,
    }
}

/// `x + 0`, `0 + x`, `x - 0`, `x * 1` or `1 * x` of an integer `x`
/// ([`integer`]), as `x`: what a binder unrolled leaves of `x - (if j
/// == i then k else 0)`.
pub(super) fn identity(op: BinOp, a: &Ir, b: &Ir, safe: &dyn Fn(&Ir) -> bool) -> Option<IrKind> {
    let unit = if op == BinOp::Mul { 1 } else { 0 };
    let is_unit = |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(n)) if n == unit);
    let x = match op {
        _ if is_unit(b) => a,
        BinOp::Add | BinOp::Mul if is_unit(a) => b,
        _ => return None,
    };
    integer(x, safe).then(|| x.kind.clone())
}

/// Whether `ir` is certainly an integer where it does not fail: a
/// constant one, an item `safe` says is one of a state of integers, a
/// difference with one, or arithmetic, `min` or `max` of such.
fn integer(ir: &Ir, safe: &dyn Fn(&Ir) -> bool) -> bool {
    match &ir.kind {
        IrKind::Const(v) => matches!(v, Value::Int(_)),
        IrKind::Index(..) => safe(ir),
        IrKind::Unary(UnOp::Neg, a) => integer(a, safe),
        // Anything taken from an integer, or an integer from anything, is
        // an integer or fails, as its items' sum would (a position less
        // an integer fails; a position plus one is a position).
        IrKind::Binary(BinOp::Sub, a, b) => integer(a, safe) || integer(b, safe),
        IrKind::Binary(op, a, b) => op.is_arithmetic() && integer(a, safe) && integer(b, safe),
        IrKind::CallBuiltin(Builtin::Min | Builtin::Max, args) => {
            args.len() >= 2 && args.iter().all(|a| integer(a, safe))
        }
        _ => false,
    }
}

/// Whether `ir` is a boolean that evaluates without failing: a
/// comparison of [`small`] terms, `not`, `true` or `false`, or `and` or
/// `or` of such.
fn boolean(ir: &Ir, safe: &dyn Fn(&Ir) -> bool) -> bool {
    let scalar = |e: &Ir| {
        matches!(
            e.kind,
            IrKind::Const(Value::Int(_) | Value::Bool(_) | Value::Str(_))
        )
    };
    let small = |e: &Ir| scalar(e) || small(e, safe, &mut { SMALL_NODES });
    match &ir.kind {
        IrKind::Const(v) => matches!(v, Value::Bool(_)),
        IrKind::Binary(op, a, b) if op.is_comparison() => small(a) && small(b),
        IrKind::Chain(items, _) => items.iter().all(small),
        IrKind::Binary(BinOp::And | BinOp::Or, a, b) => boolean(a, safe) && boolean(b, safe),
        IrKind::Unary(UnOp::Not, a) => boolean(a, safe),
        _ => false,
    }
}

/// Whether `ir` is what `safe` says cannot fail, or sums, differences,
/// negations, small constant multiples, `min` and `max` of a few such,
/// which cannot overflow as the rewrites take it (see
/// `inline::repeatable`).
pub(super) fn small(ir: &Ir, safe: &dyn Fn(&Ir) -> bool, budget: &mut u32) -> bool {
    *budget = budget.saturating_sub(1);
    if *budget == 0 {
        return false;
    }
    let konst =
        |e: &Ir, max: u64| matches!(e.kind, IrKind::Const(Value::Int(n)) if n.unsigned_abs() < max);
    match &ir.kind {
        IrKind::Const(Value::Int(_)) => konst(ir, 1 << 20),
        IrKind::Unary(UnOp::Neg, a) => small(a, safe, budget),
        IrKind::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            small(a, safe, budget) && small(b, safe, budget)
        }
        IrKind::Binary(BinOp::Mul, a, b) => {
            (konst(a, 1 << 10) || konst(b, 1 << 10))
                && small(a, safe, budget)
                && small(b, safe, budget)
        }
        IrKind::CallBuiltin(Builtin::Min | Builtin::Max, args) => {
            args.len() >= 2 && args.iter().all(|a| small(a, safe, budget))
        }
        // A name or an item of the state: no list or tuple written out,
        // which arithmetic fails on.
        IrKind::Local(_) | IrKind::Index(..) => safe(ir),
        _ => false,
    }
}

/// What `zip(xs, ys, ...)` gives item by item, where each of its
/// collections is written out item by item (`written` says how, or
/// `None`): the items of each, as many as the shortest has. Those past
/// it must be ones `safe` says cannot fail, since they are not read.
pub(super) fn zipped(
    args: &[Ir],
    written: &dyn Fn(&Ir) -> Option<Vec<Ir>>,
    safe: &dyn Fn(&Ir) -> bool,
) -> Option<Vec<Vec<Ir>>> {
    let columns: Vec<Vec<Ir>> = args.iter().map(written).collect::<Option<_>>()?;
    let len = columns.iter().map(Vec::len).min()?;
    let past = columns.iter().flat_map(|c| &c[len..]);
    past.clone().all(safe).then_some(())?;
    Some(
        (0..len)
            .map(|k| columns.iter().map(|c| c[k].clone()).collect())
            .collect(),
    )
}

/// The values of a binder's domain `lo..hi` or `lo..=hi` with constant
/// ends, where there are at most [`VALUES_MAX`].
pub(super) fn range_values(domain: &Ir) -> Option<Vec<i64>> {
    let IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) = &domain.kind else {
        return None;
    };
    let (lo, hi) = (constant(lo)?, constant(hi)?);
    let hi = match op {
        BinOp::RangeIncl => hi.checked_add(1)?,
        _ => hi,
    };
    (hi.saturating_sub(lo) <= VALUES_MAX).then(|| (lo..hi).collect())
}

/// The value of `ir` where it is integer arithmetic, `min` or `max` on
/// constants that cannot fail.
pub(super) fn constant(ir: &Ir) -> Option<i64> {
    match &ir.kind {
        IrKind::Const(Value::Int(n)) => Some(*n),
        IrKind::Unary(UnOp::Neg, x) => constant(x)?.checked_neg(),
        IrKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() >= 2 => {
            let values = args.iter().map(constant).collect::<Option<Vec<_>>>()?;
            match b {
                Builtin::Min => values.into_iter().min(),
                _ => values.into_iter().max(),
            }
        }
        IrKind::Binary(op, a, b) => {
            let (a, b) = (constant(a)?, constant(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `p[k]`.
pub(super) fn item(p: Slot, k: usize, span: Span) -> Ir {
    let at = |kind| Ir { kind, span };
    at(IrKind::Index(
        Box::new(at(IrKind::Local(p))),
        Box::new(int(k as i64, span)),
    ))
}

/// The constant `n`.
pub(super) fn int(n: i64, span: Span) -> Ir {
    Ir {
        kind: IrKind::Const(Value::Int(n)),
        span,
    }
}

/// `a + b + ...` of `items`, at least one.
pub(super) fn added(items: Vec<Ir>, span: Span) -> Ir {
    (items.into_iter())
        .reduce(|a, b| Ir {
            kind: IrKind::Binary(BinOp::Add, Box::new(a), Box::new(b)),
            span,
        })
        .expect("at least one item")
}
