//! Divisibility spelled otherwise. For a binder `d` over a range from a
//! constant of at least 1,
//!
//! ```text
//! move take(d in 1..n) if gcd(n, d) == d -> g(n - d)
//! ```
//!
//! `gcd(n, d) == d` (either way round) says that `d` divides `n`: it is
//! `n % d == 0`, which the compiled rules loop over the divisors by,
//! where the `gcd` tested every `d` below `n` (190 times slower). With
//! `d` at least 1 neither can fail but by what `n` is, and `n` is
//! evaluated as often.
//!
//! `any([k * d == n for k in 2..=n / d])`, some multiple of `d` in a
//! range being `n`, is `n % d == 0` with the quotient tested against
//! the range's ends (70 times faster to 20,000; see `any_multiple`).
//!
//! `(n / d) * d == n` (the product either way round, the equation either
//! way round) says the same, 18 times slower to 20,000, but overflows for
//! `n` within `d` of the least integer, where `%` does not. It is
//! rewritten only where the range `d` runs over says `n` is at least 0,
//! where `n / d * d` lies between 0 and `n`: a local `n` whose range's
//! upper end is `n`, `n - c`, `n / c` (`c` a constant, at least 0, and at
//! least 1 to divide) or `n + 1`: since `d` is at least 1 and below that
//! end or at it, `n` is at least 0.

use super::hoist::same;
use super::inline::repeatable;
use super::quotient::{ends, product_of};
use super::walk::{any_node, guard_rewritten};
use crate::builtins::Builtin;
use crate::ir::{ClauseIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `rule` with its guard's tests that a binder from 1 divides something
/// written as `%`; `None` where it has none.
pub(super) fn spelled(rule: &MoveIr) -> Option<MoveIr> {
    let positive: Vec<Positive> = (rule.binders.iter())
        .filter_map(|(p, d)| match (p, &d.kind) {
            (PatIr::Slot(s), IrKind::Binary(BinOp::Range | BinOp::RangeIncl, lo, hi))
                if matches!(lo.kind, IrKind::Const(Value::Int(lo)) if lo >= 1) =>
            {
                Some((*s, not_negative(hi)))
            }
            (PatIr::Slot(s), IrKind::Const(Value::Range(lo, _))) if *lo >= 1 => Some((*s, None)),
            _ => None,
        })
        .collect();
    guard_rewritten(rule, &|ir| rewrite(ir, &positive))
}

/// `ir`, a test that a binder of `positive` divides something, written
/// as `%`.
fn rewrite(ir: &Ir, positive: &[Positive]) -> Option<Ir> {
    if let IrKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) = &ir.kind
        && let Some((n, d)) = divides(a, b, positive).or_else(|| divides(b, a, positive))
    {
        let at = |kind| Ir {
            kind,
            span: ir.span,
        };
        let rem = at(IrKind::Binary(
            BinOp::Rem,
            Box::new(n.clone()),
            Box::new(d.clone()),
        ));
        let zero = at(IrKind::Const(Value::Int(0)));
        return Some(at(IrKind::Binary(*op, Box::new(rem), Box::new(zero))));
    }
    any_multiple(ir, positive)
}

/// `any([k * d == n for k in lo..=hi])`, `d` a binder of `positive`, as
/// `hi * d >= 0 and n % d == 0 and lo <= n / d and n / d <= hi`: some
/// multiple of `d` in the range is `n` where `d` divides `n` and the
/// quotient is in the range. With `lo` a constant of at least 0, every
/// product the comprehension makes lies between 0 and `hi * d`, which
/// fails (the compiled rules bail) wherever one of them could, and is
/// at least 0 wherever the range holds anything; `n` and `hi` are
/// evaluated again, so they must be cheap and unable to fail
/// (`hi` may be a quotient by such a binder: `n / d`, whose product with
/// `d` cannot fail where the range holds anything, and is not tested).
fn any_multiple(ir: &Ir, positive: &[Positive]) -> Option<Ir> {
    let (Builtin::Any, elem, clauses) = ir.truths()? else {
        return None;
    };
    let [ClauseIr::For(PatIr::Slot(k), range)] = clauses else {
        return None;
    };
    let IrKind::Binary(BinOp::Eq, l, r) = &elem.kind else {
        return None;
    };
    let (d, n) = product_of(l, *k, r).or_else(|| product_of(r, *k, l))?;
    let (lo, hi, inclusive) = ends(range)?;
    let is_positive = |s: Slot| positive.iter().any(|p| p.0 == s);
    let cheap = |e: &Ir| match &e.kind {
        IrKind::Binary(BinOp::Div, a, b) => {
            repeatable(a) && matches!(b.kind, IrKind::Local(p) if is_positive(p))
        }
        _ => repeatable(e),
    };
    let reads_k = |e: &Ir| matches!(e.kind, IrKind::Local(s) if s == *k);
    let from_zero = matches!(lo.kind, IrKind::Const(Value::Int(lo)) if lo >= 0);
    if !is_positive(d) || !from_zero || !cheap(&hi) || any_node(&hi, &reads_k) || !repeatable(n) {
        return None;
    }
    let at = |kind| Ir {
        kind,
        span: ir.span,
    };
    let bin = |op, a: Ir, b: Ir| at(IrKind::Binary(op, Box::new(a), Box::new(b)));
    let (d, zero) = (at(IrKind::Local(d)), at(IrKind::Const(Value::Int(0))));
    let quotient = bin(BinOp::Div, n.clone(), d.clone());
    let upper = if inclusive { BinOp::Le } else { BinOp::Lt };
    // `hi` a quotient by `d` itself, `m / d`: `hi * d` lies between `m -
    // d + 1` and `m`, so it fails only for `m` below 0, where the range
    // is empty and the comprehension makes no product.
    let by_d = matches!(&hi.kind, IrKind::Binary(BinOp::Div, _, b) if same(b, &d));
    let witness = bin(
        BinOp::Ge,
        bin(BinOp::Mul, hi.clone(), d.clone()),
        zero.clone(),
    );
    let tests = [
        (!by_d).then_some(witness),
        Some(bin(BinOp::Eq, bin(BinOp::Rem, n.clone(), d), zero)),
        Some(bin(BinOp::Le, lo, quotient.clone())),
        Some(bin(upper, quotient, hi)),
    ];
    tests
        .into_iter()
        .flatten()
        .reduce(|a, b| bin(BinOp::And, a, b))
}

/// `(n, d)` where `a == b` says that `d`, a binder of `positive`, divides
/// `n`: `gcd(n, d) == d`, `gcd(d, n) == d`, or `(n / d) * d == n` (`d *
/// (n / d)`) where the range of `d` says `n` is at least 0.
fn divides<'a>(a: &'a Ir, b: &'a Ir, positive: &[Positive]) -> Option<(&'a Ir, &'a Ir)> {
    let is_d = |e: &Ir| matches!(e.kind, IrKind::Local(s) if positive.iter().any(|p| p.0 == s));
    match &a.kind {
        IrKind::Binary(BinOp::Mul, p, q) => {
            let (quotient, d) = if is_d(q) { (p, q) } else { (q, p) };
            let IrKind::Binary(BinOp::Div, n, d2) = &quotient.kind else {
                return None;
            };
            let IrKind::Local(ds) = d.kind else {
                return None;
            };
            // `n` a local the range of `d` says is at least 0.
            let bounded =
                |e: &Ir| matches!(e.kind, IrKind::Local(n) if positive.contains(&(ds, Some(n))));
            (is_d(d) && same(d, d2) && same(n, b) && bounded(n)).then_some((&**n, &**d))
        }
        IrKind::CallBuiltin(Builtin::Gcd, args) if args.len() == 2 && is_d(b) => {
            match (same(&args[0], b), same(&args[1], b)) {
                (_, true) => Some((&args[0], b)),
                (true, _) => Some((&args[1], b)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A binder from a constant of at least 1, and the local its range's
/// upper end says is at least 0 (see the module), if one does.
type Positive = (Slot, Option<Slot>);

/// The local `n` that an upper end `hi` of a range from 1 or more says
/// is at least 0: `n`, `n - c`, `n / c` or `n + 1`.
fn not_negative(hi: &Ir) -> Option<Slot> {
    let konst = |e: &Ir, least: i64| matches!(e.kind, IrKind::Const(Value::Int(c)) if c >= least);
    match &hi.kind {
        IrKind::Local(n) => Some(*n),
        IrKind::Binary(op, a, c) => match (op, &a.kind) {
            (BinOp::Sub, IrKind::Local(n)) if konst(c, 0) => Some(*n),
            (BinOp::Div, IrKind::Local(n)) if konst(c, 1) => Some(*n),
            (BinOp::Add, IrKind::Local(n)) if matches!(c.kind, IrKind::Const(Value::Int(1))) => {
                Some(*n)
            }
            _ => None,
        },
        _ => None,
    }
}
