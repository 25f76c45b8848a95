//! Conditions on constants folded, as the interpreter would evaluate
//! them: a comparison of two integers or two strings, `==` and `!=` of
//! any two integers, strings or booleans, `not`, `abs`, an `if` whose
//! condition is known, and `and` / `or` with a known side; and `not` of
//! `==`, `!=`, `in` or `not in` as the opposite test. Binders
//! unrolled over constants (`unroll.rs`) leave such conditions behind:
//! `kind == "a"` with `kind` put as `"b"`, `abs(dx) + abs(dy) == 3`.
//!
//! `and` and `or` evaluate their left side first and stop when it
//! decides; each side must be a boolean. So `false and x` is `false`,
//! whatever `x` is, while `true and x`, `x and true` and `x or false`
//! become `x` only when `x` is a condition (a comparison, `not`, `and`,
//! `or`, `in`), which is a boolean or an error either way. `x and false`
//! stays: `x` may fail.

use super::inline::repeatable;
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;

/// `abs(e) <= c` as the chain `-c <= -e <= c` (and `<` alike, either way
/// round), where `e` and `c` are cheap and safe to evaluate twice: a
/// condition the compiled rules narrow a binder's loop by, where the
/// `abs` they test for every option.
pub(super) fn abs_bounds(ir: Ir) -> Ir {
    if let Some(nonzero) = abs_positive(&ir).or_else(|| abs_equal(&ir)) {
        return nonzero;
    }
    let (op, e, c) = match &ir.kind {
        IrKind::Binary(op @ (BinOp::Le | BinOp::Lt), a, c) => (*op, a, c),
        IrKind::Binary(BinOp::Ge, c, a) => (BinOp::Le, a, c),
        IrKind::Binary(BinOp::Gt, c, a) => (BinOp::Lt, a, c),
        _ => return ir,
    };
    let IrKind::CallBuiltin(Builtin::Abs, args) = &e.kind else {
        return ir;
    };
    let [e] = args.as_slice() else {
        return ir;
    };
    if !repeatable(e) || !repeatable(c) {
        return ir;
    }
    let below = Ir {
        kind: IrKind::Unary(UnOp::Neg, c.clone()),
        span: c.span,
    };
    Ir {
        kind: IrKind::Chain(vec![below, negated(e), (**c).clone()], vec![op, op]),
        span: ir.span,
    }
}

/// `abs(e) > 0` (`0 < abs(e)`, `abs(e) != 0`) as `-e != 0`, and `abs(e)
/// == 0` as `-e == 0`, where `e` is cheap and safe to evaluate (`-e`
/// overflows where `abs(e)` does, for the least integer): the test
/// the compiled rules narrow a loop by, where `abs(n - 2 * a) > 0` was
/// tested for every option (6 times slower than `a != n - a`).
fn abs_positive(ir: &Ir) -> Option<Ir> {
    let zero = |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(0)));
    let (test, a) = match &ir.kind {
        IrKind::Binary(op @ (BinOp::Gt | BinOp::Ne | BinOp::Eq), a, c) if zero(c) => (*op, a),
        IrKind::Binary(op @ (BinOp::Lt | BinOp::Ne | BinOp::Eq), c, a) if zero(c) => (*op, a),
        _ => return None,
    };
    let IrKind::CallBuiltin(Builtin::Abs, args) = &a.kind else {
        return None;
    };
    let [e] = args.as_slice() else {
        return None;
    };
    let test = if test == BinOp::Eq {
        BinOp::Eq
    } else {
        BinOp::Ne
    };
    let zero = Ir {
        kind: IrKind::Const(Value::Int(0)),
        span: a.span,
    };
    repeatable(e).then(|| Ir {
        kind: IrKind::Binary(test, Box::new(negated(e)), Box::new(zero)),
        span: ir.span,
    })
}

/// `abs(p) == abs(q)` as `-p == -q or -p == q` (`!=` as `-p != -q and
/// -p != q`), of cheap operands that cannot fail: the first comparison
/// evaluates both negations, which fail where the `abs`es do, and each
/// is a test of the binders a choice is split by (`choices.rs`; a queen's
/// diagonal, `abs(a - x) == abs(b - y)`).
fn abs_equal(ir: &Ir) -> Option<Ir> {
    let IrKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) = &ir.kind else {
        return None;
    };
    let operand = |e: &Ir| match &e.kind {
        IrKind::CallBuiltin(Builtin::Abs, args) => match args.as_slice() {
            [x] if repeatable(x) => Some(x.clone()),
            _ => None,
        },
        _ => None,
    };
    let (p, q) = (operand(a)?, operand(b)?);
    let join = if *op == BinOp::Eq {
        BinOp::Or
    } else {
        BinOp::And
    };
    let at = |kind| Ir {
        kind,
        span: ir.span,
    };
    let test = |x: Ir, y: Ir| at(IrKind::Binary(*op, Box::new(x), Box::new(y)));
    let both = test(negated(&p), negated(&q));
    let across = test(negated(&p), q);
    Some(at(IrKind::Binary(join, Box::new(both), Box::new(across))))
}

/// `-e`, which fails where `abs(e)` does (for the least integer), and is
/// 0 where `e` is: in place of `e` beside 0 or between `-c` and `c`, the
/// rules written without `abs` report the same overflow.
fn negated(e: &Ir) -> Ir {
    Ir {
        kind: IrKind::Unary(UnOp::Neg, Box::new(e.clone())),
        span: e.span,
    }
}

/// `min(x, y) == x` as `x <= y` (and `max`, `!=`, either way round), and
/// `min(x, y) == max(x, y)` as `x == y` (`!=` as `x != y`: 7 times
/// slower in Grundy's game),
/// where `x` and `y` are cheap and safe to evaluate once less: a
/// comparison the compiled rules narrow a binder's loop by, where the
/// `min` they test for every option.
pub(super) fn extremum_is(ir: Ir) -> Ir {
    let (op, a, b) = match &ir.kind {
        IrKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => (*op, a, b),
        _ => return ir,
    };
    let (m, z) = match (&a.kind, &b.kind) {
        (IrKind::CallBuiltin(Builtin::Min | Builtin::Max, _), _) => (a, b),
        (_, IrKind::CallBuiltin(Builtin::Min | Builtin::Max, _)) => (b, a),
        _ => return ir,
    };
    let IrKind::CallBuiltin(f, args) = &m.kind else {
        return ir;
    };
    let [x, y] = args.as_slice() else {
        return ir;
    };
    if !repeatable(x) || !repeatable(y) {
        return ir;
    }
    // `min(x, y) == max(x, y)` (either way round) holds when `x == y`.
    if let IrKind::CallBuiltin(g @ (Builtin::Min | Builtin::Max), other) = &z.kind
        && g != f
        && let [u, v] = other.as_slice()
    {
        let same = super::hoist::same;
        if (same(u, x) && same(v, y)) || (same(u, y) && same(v, x)) {
            return Ir {
                kind: IrKind::Binary(op, Box::new(x.clone()), Box::new(y.clone())),
                span: ir.span,
            };
        }
    }
    // `min(x, y) == x` holds when `x <= y`; `== y` when `y <= x`.
    let (lo, hi) = match (super::hoist::same(z, x), super::hoist::same(z, y)) {
        (true, _) => (x, y),
        (_, true) => (y, x),
        _ => return ir,
    };
    let (lo, hi) = match f {
        Builtin::Min => (lo, hi),
        _ => (hi, lo),
    };
    let cmp = match op {
        BinOp::Eq => BinOp::Le,
        _ => BinOp::Gt,
    };
    Ir {
        kind: IrKind::Binary(cmp, Box::new(lo.clone()), Box::new(hi.clone())),
        span: ir.span,
    }
}

/// `ir` with a condition on constants at its top replaced by its value.
pub(super) fn fold(ir: Ir) -> Ir {
    let known = |e: &Ir| match e.kind {
        IrKind::Const(Value::Bool(b)) => Some(b),
        _ => None,
    };
    let value = match &ir.kind {
        IrKind::Binary(
            op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
            a,
            b,
        ) => match (&a.kind, &b.kind) {
            (IrKind::Const(x), IrKind::Const(y)) => compare(*op, x, y),
            _ => None,
        },
        IrKind::Binary(op @ (BinOp::In | BinOp::NotIn), a, b) => match (&a.kind, &b.kind) {
            (IrKind::Const(x), IrKind::Const(xs)) => {
                member(x, xs).map(|m| Value::Bool(m == (*op == BinOp::In)))
            }
            _ => None,
        },
        // `not (x == y)` is `x != y`, and `not (x in xs)` is `x not in
        // xs`: the same operands in the same order, the one test the
        // compiled rules narrow a loop by (`not (a == n - a)` was 1.4
        // times slower). Order comparisons stay: `<` of sets is a
        // subset's, which `>=` does not negate.
        IrKind::Unary(UnOp::Not, a) => match &a.kind {
            IrKind::Binary(op, x, y) if let Some(negated) = opposite(*op) => {
                return Ir {
                    kind: IrKind::Binary(negated, x.clone(), y.clone()),
                    span: ir.span,
                };
            }
            _ => known(a).map(|b| Value::Bool(!b)),
        },
        IrKind::CallBuiltin(Builtin::Abs, args) => match args.as_slice() {
            [a] => match a.kind {
                IrKind::Const(Value::Int(n)) => n.checked_abs().map(Value::Int),
                _ => None,
            },
            _ => None,
        },
        IrKind::If(c, a, b) => {
            return match known(c) {
                Some(true) => (**a).clone(),
                Some(false) => (**b).clone(),
                None => ir,
            };
        }
        IrKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
            let stop = *op == BinOp::Or;
            match (known(a), known(b)) {
                // The left side decides: the right is never evaluated.
                (Some(l), _) if l == stop => Some(Value::Bool(stop)),
                // The left side goes on to the right, a condition.
                (Some(_), _) if condition(b) => return (**b).clone(),
                // The right side changes nothing after a condition.
                (None, Some(r)) if r != stop && condition(a) => return (**a).clone(),
                _ => None,
            }
        }
        _ => None,
    };
    match value {
        Some(v) => Ir {
            kind: IrKind::Const(v),
            span: ir.span,
        },
        None => ir,
    }
}

/// The test that holds exactly where `op` does not, of the same operands
/// in the same order: `!=` of `==`, `not in` of `in`, and back. Order
/// comparisons have none (`<` of sets is a subset's, which `>=` does not
/// negate).
pub(super) fn opposite(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::In => BinOp::NotIn,
        BinOp::NotIn => BinOp::In,
        _ => return None,
    })
}

/// `x op y` of two constants, where the interpreter's answer is plain:
/// integers with integers, strings with strings, and equality of
/// integers, strings and booleans.
pub(super) fn compare(op: BinOp, x: &Value, y: &Value) -> Option<Value> {
    let simple = |v: &Value| matches!(v, Value::Int(_) | Value::Str(_) | Value::Bool(_));
    let ord = match (x, y) {
        (Value::Int(a), Value::Int(b)) => a.cmp(b),
        (Value::Str(a), Value::Str(b)) => a.cmp(b),
        _ if simple(x) && simple(y) => {
            return match op {
                BinOp::Eq => Some(Value::Bool(x == y)),
                BinOp::Ne => Some(Value::Bool(x != y)),
                _ => None,
            };
        }
        _ => return None,
    };
    Some(Value::Bool(match op {
        BinOp::Eq => ord.is_eq(),
        BinOp::Ne => ord.is_ne(),
        BinOp::Lt => ord.is_lt(),
        BinOp::Le => ord.is_le(),
        BinOp::Gt => ord.is_gt(),
        _ => ord.is_ge(),
    }))
}

/// Whether constant `x` is in constant `xs`, where the answer is plain:
/// an integer among integers or in a range, a string in a string.
fn member(x: &Value, xs: &Value) -> Option<bool> {
    match (x, xs) {
        (Value::Int(n), Value::Range(lo, hi)) => Some(lo <= n && n < hi),
        (Value::Int(_), Value::Set(items)) if items.iter().all(|v| matches!(v, Value::Int(_))) => {
            Some(items.contains(x))
        }
        (Value::Int(_), _) => {
            let items = xs.as_slice()?;
            (items.iter().all(|v| matches!(v, Value::Int(_)))).then(|| items.contains(x))
        }
        (Value::Str(t), Value::Str(s)) => Some(s.contains(&**t)),
        _ => None,
    }
}

/// Whether `e` is a boolean or fails, whatever it holds: a comparison,
/// `not`, `and`, `or`, `in`, or a boolean constant.
fn condition(e: &Ir) -> bool {
    match &e.kind {
        // `in` and `not in` among the comparisons.
        IrKind::Binary(op, ..) => op.is_comparison() || matches!(op, BinOp::And | BinOp::Or),
        IrKind::Unary(UnOp::Not, _) | IrKind::Const(Value::Bool(_)) => true,
        _ => false,
    }
}
