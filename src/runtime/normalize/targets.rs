//! Targets computed as values made into terms. A move whose target is an
//! expression rather than a sum of games applied to arguments, such as
//!
//! ```text
//! move take(k in 1..=3) if k <= n -> if n - k > 5 then g(n - k) else g(0)
//! ```
//!
//! or a call of a function that makes the position, is evaluated as a
//! value by the interpreter. Once calls are inlined, a target that is a
//! sum of applications and heaps becomes terms, and an `if` between such
//! targets becomes one move per branch, each guarded by the branch's
//! condition: the same options, made as the compiled rules make them.

use crate::ir::{Ir, IrKind, MoveIr, TargetIr, TermIr};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;

/// The most moves one rule's `if`s may split it into.
const BRANCHES_MAX: usize = 16;

/// `rule`, with a computed target made into terms, as one move per branch
/// of its `if`s; `None` when its target is terms already or cannot be.
pub(super) fn split(rule: &MoveIr) -> Option<Vec<MoveIr>> {
    let TargetIr::Dynamic(target) = &rule.target else {
        return None;
    };
    let mut out = Vec::new();
    branches(rule, rule.guard.clone(), target, &mut out)?;
    Some(out)
}

/// Pushes on `out` the moves of `rule` whose target is `target` under
/// `guard`.
fn branches(rule: &MoveIr, guard: Option<Ir>, target: &Ir, out: &mut Vec<MoveIr>) -> Option<()> {
    if let IrKind::If(c, a, b) = &target.kind {
        let not_c = Ir {
            kind: IrKind::Unary(UnOp::Not, c.clone()),
            span: c.span,
        };
        branches(rule, Some(and(guard.clone(), (**c).clone())), a, out)?;
        return branches(rule, Some(and(guard, not_c)), b, out);
    }
    let mut terms = Vec::new();
    if !as_terms(target, &mut terms) || out.len() == BRANCHES_MAX {
        return None;
    }
    out.push(MoveIr {
        guard,
        target: TargetIr::Terms(terms),
        ..rule.clone()
    });
    Some(())
}

/// `guard and c`: `c` is evaluated only where the guard holds, as the
/// target was.
fn and(guard: Option<Ir>, c: Ir) -> Ir {
    match guard {
        None => c,
        Some(g) => Ir {
            span: c.span,
            kind: IrKind::Binary(BinOp::And, Box::new(g), Box::new(c)),
        },
    }
}

/// Flattens `g(a) + *k + 0 + h(b)` into terms, as lowering does; false if
/// `ir` has any other shape.
fn as_terms(ir: &Ir, out: &mut Vec<TermIr>) -> bool {
    match &ir.kind {
        IrKind::Const(Value::Int(0)) => true,
        IrKind::Binary(BinOp::Add, a, b) => as_terms(a, out) && as_terms(b, out),
        IrKind::Unary(UnOp::Heap, k) => {
            out.push(TermIr::Heap((**k).clone()));
            true
        }
        IrKind::Apply(game, args) => {
            out.push(TermIr::Node(*game, args.clone(), ir.span));
            true
        }
        _ => false,
    }
}
