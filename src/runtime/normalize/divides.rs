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
//! evaluated as often. (`(n / d) * d == n` says the same, but overflows
//! for `n` within `d` of the least integer, where `%` does not.)

use super::hoist::same;
use super::walk::map_children;
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `rule` with its guard's tests that a binder from 1 divides something
/// written as `%`; `None` where it has none.
pub(super) fn spelled(rule: &MoveIr) -> Option<MoveIr> {
    let positive: Vec<Slot> = (rule.binders.iter())
        .filter_map(|(p, d)| match (p, &d.kind) {
            (PatIr::Slot(s), IrKind::Binary(BinOp::Range | BinOp::RangeIncl, lo, _))
                if matches!(lo.kind, IrKind::Const(Value::Int(lo)) if lo >= 1) =>
            {
                Some(*s)
            }
            (PatIr::Slot(s), IrKind::Const(Value::Range(lo, _))) if *lo >= 1 => Some(*s),
            _ => None,
        })
        .collect();
    let mut changed = false;
    let guard = rewrite(rule.guard.as_ref()?, &positive, &mut changed);
    changed.then(|| MoveIr {
        guard: Some(guard),
        ..rule.clone()
    })
}

/// `ir` with each test that a binder of `positive` divides something
/// written as `%`, noting in `changed` whether there was one.
fn rewrite(ir: &Ir, positive: &[Slot], changed: &mut bool) -> Ir {
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
        *changed = true;
        return at(IrKind::Binary(*op, Box::new(rem), Box::new(zero)));
    }
    map_children(ir, &mut |e| rewrite(e, positive, changed))
}

/// `(n, d)` where `a == b` says that `d`, a binder of `positive`, divides
/// `n`: `gcd(n, d) == d` or `gcd(d, n) == d`.
fn divides<'a>(a: &'a Ir, b: &'a Ir, positive: &[Slot]) -> Option<(&'a Ir, &'a Ir)> {
    let is_d = |e: &Ir| matches!(e.kind, IrKind::Local(s) if positive.contains(&s));
    match &a.kind {
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
