//! A few items written out, tested as the comparisons they stand for:
//!
//! - `x in {y}`, `x in [y, z]`, `x not in {y}` (at most four items) as
//!   `x == y`, `x == y or x == z`, `x != y`: Grundy's game written `a
//!   not in {n - a}` was 4 times slower than `a != n - a`, which the
//!   compiled rules narrow the loop by;
//! - `len({x, y})` as `if x == y then 1 else 2`, and an `if` between two
//!   constants compared with a constant as its condition or the
//!   condition's negation: `len({a, n - a}) == 2` is `a != n - a` (12
//!   times slower before).
//!
//! - `(x, y) == (a, b)` (two tuples or two lists written out, of at
//!   most four items) as `x == a and y == b`, and `!=` as `x != a or y
//!   != b`: what a choice of moves is split by (`choices.rs`).
//!
//! Every operand is [`repeatable`]: it can neither fail nor cost
//! anything to evaluate again or not at all, so the comparisons, which
//! stop early, fail where the display would and give what `in` and
//! `len` give (a set keeps one of two equal items, and `in` is `==`
//! item by item).

use super::inline::repeatable;
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// The most items a display tested by `in` is written out for.
const ITEMS_MAX: usize = 4;

/// `ir` with a test of membership in a few items, or the length of a
/// set of two, at its top written as comparisons (see the module).
pub(super) fn written(ir: Ir) -> Ir {
    let at = |kind| Ir {
        kind,
        span: ir.span,
    };
    let bin = |op, a: &Ir, b: &Ir| at(IrKind::Binary(op, Box::new(a.clone()), Box::new(b.clone())));
    match &ir.kind {
        IrKind::Binary(op @ (BinOp::In | BinOp::NotIn), x, xs) => {
            let items = match &xs.kind {
                IrKind::List(items) | IrKind::Set(items) | IrKind::Tuple(items) => items,
                _ => return ir,
            };
            if items.is_empty() || items.len() > ITEMS_MAX || !repeatable(x) {
                return ir;
            }
            if !items.iter().all(repeatable) {
                return ir;
            }
            let (test, join) = match op {
                BinOp::In => (BinOp::Eq, BinOp::Or),
                _ => (BinOp::Ne, BinOp::And),
            };
            (items.iter().map(|y| bin(test, x, y)))
                .reduce(|acc, t| bin(join, &acc, &t))
                .expect("at least one item")
        }
        IrKind::CallBuiltin(Builtin::Len, args) => match args.as_slice() {
            [set] => match &set.kind {
                IrKind::Set(items) if items.len() == 2 && items.iter().all(repeatable) => {
                    let int = |n| at(IrKind::Const(Value::Int(n)));
                    let same = bin(BinOp::Eq, &items[0], &items[1]);
                    at(IrKind::If(
                        Box::new(same),
                        Box::new(int(1)),
                        Box::new(int(2)),
                    ))
                }
                _ => ir,
            },
            _ => ir,
        },
        // `(x, y) != (a, b)` item by item: `x != a or y != b`.
        IrKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => match (&a.kind, &b.kind) {
            // A constant tuple or list beside one written out: its items.
            (IrKind::Tuple(_) | IrKind::List(_), IrKind::Const(v))
            | (IrKind::Const(v), IrKind::Tuple(_) | IrKind::List(_))
                if written_out(v, ir.span).is_some() =>
            {
                let items = written_out(v, ir.span).expect("checked");
                let (a, b) = match &a.kind {
                    IrKind::Const(_) => (items, (**b).clone()),
                    _ => ((**a).clone(), items),
                };
                let both_written =
                    std::mem::discriminant(&a.kind) == std::mem::discriminant(&b.kind);
                match both_written {
                    true => written(bin(*op, &a, &b)),
                    false => ir,
                }
            }
            (IrKind::Tuple(xs), IrKind::Tuple(ys)) | (IrKind::List(xs), IrKind::List(ys))
                if xs.len() == ys.len()
                    && (1..=ITEMS_MAX).contains(&xs.len())
                    && xs.iter().chain(ys).all(repeatable) =>
            {
                let join = if *op == BinOp::Eq {
                    BinOp::And
                } else {
                    BinOp::Or
                };
                // Items both constant fold (`(x, 1) != (a, 1)`).
                let fold = super::logic::fold;
                (xs.iter().zip(ys).map(|(x, y)| fold(bin(*op, x, y))))
                    .reduce(|acc, t| fold(bin(join, &acc, &t)))
                    .expect("at least one item")
            }
            _ => if_compared(*op, a, b).unwrap_or(ir),
        },
        IrKind::Binary(op, a, b) if op.is_comparison() => {
            if let Some(c) = if_compared(*op, a, b) {
                return c;
            }
            ir
        }
        _ => ir,
    }
}

/// `(if c then p else q) op k` of constants `p`, `q`, `k`, where `c` is
/// `==` or `!=` of repeatable operands: `c` where only `p` passes, its
/// negation (`!=` for `==`) where only `q` does.
fn if_compared(op: BinOp, a: &Ir, b: &Ir) -> Option<Ir> {
    let IrKind::If(c, p, q) = &a.kind else {
        return None;
    };
    let (IrKind::Const(p), IrKind::Const(q), IrKind::Const(k)) = (&p.kind, &q.kind, &b.kind) else {
        return None;
    };
    let IrKind::Binary(test @ (BinOp::Eq | BinOp::Ne), x, y) = &c.kind else {
        return None;
    };
    if !repeatable(x) || !repeatable(y) {
        return None;
    }
    let truth = |v: &Value| match super::logic::compare(op, v, k) {
        Some(Value::Bool(t)) => Some(t),
        _ => None,
    };
    match (truth(p)?, truth(q)?) {
        (true, false) => Some((**c).clone()),
        (false, true) => Some(Ir {
            kind: IrKind::Binary(super::logic::opposite(*test)?, x.clone(), y.clone()),
            span: c.span,
        }),
        (t, _) => Some(Ir {
            kind: IrKind::Const(Value::Bool(t)),
            span: a.span,
        }),
    }
}

/// A constant tuple or list of at most [`ITEMS_MAX`] items as one written
/// out, each item a constant.
fn written_out(v: &Value, span: crate::span::Span) -> Option<Ir> {
    let konst = |items: &[Value]| -> Vec<Ir> {
        let at = |v: &Value| Ir {
            kind: IrKind::Const(v.clone()),
            span,
        };
        items.iter().map(at).collect()
    };
    let kind = match v {
        Value::Tuple(items) if items.len() <= ITEMS_MAX => IrKind::Tuple(konst(items)),
        Value::List(items) if items.len() <= ITEMS_MAX => IrKind::List(konst(items)),
        _ => return None,
    };
    Some(Ir { kind, span })
}
