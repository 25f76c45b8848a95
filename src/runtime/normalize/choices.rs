//! A guard with a choice between tests of the binders, `x == a or y == b
//! or a - x == b - y` (a queen's moves in one rule), as one move per
//! test: the first guarded by `x == a`, the next by `x != a and y ==
//! b`, the last by `x != a and y != b and a - x == b - y`. Each option
//! passes exactly one of them, so the moves make the options the rule
//! made; each test then fixes or narrows a loop (`y` put as `b`, or as
//! `b - a + x`), where the choice was tested for every pair (Wythoff's
//! game so written ran O(n²) options a position, 117 times slower).
//!
//! The options come in another order: only for rules whose order is
//! not shown (`moves` lists them in the written order, `normalize::
//! listing_rules`). Every test chosen between is a comparison of
//! operands that can neither fail nor cost anything to evaluate again
//! (`inline::repeatable`): each move evaluates the tests the `or` would
//! have, in its order, so no option meets an error the rule did not. The
//! conjuncts after the choice are evaluated where it passes, as written;
//! those before it once for each move (which costs time, at most 8
//! times, and meets no error the rule would not have met first).
//!
//! A test may be `and` of such comparisons, the rook's `(nx == x and ny
//! < y) or (ny == y and nx < x)`: the second move is then `ny == y and nx
//! < x and not (nx == x and ny < y)`, its equation first so that it fixes
//! `ny` (a loop over every cell each position, 350 times slower).

use super::either::{flatten, join};
use super::inline::repeatable;
use crate::ir::{Ir, IrKind, MoveIr};
use crate::syntax::ast::{BinOp, UnOp};

/// The most moves one rule is split into.
const MOVES_MAX: usize = 8;

/// `rule` as one move per test of its guard's choices (see the module);
/// `None` when its guard has no such choice.
pub(super) fn split(rule: &MoveIr) -> Option<Vec<MoveIr>> {
    if rule.binders.is_empty() {
        return None;
    }
    let mut out = vec![rule.clone()];
    let mut changed = false;
    // The choices one after another, while the moves stay few.
    while let Some(next) = split_once(&out) {
        out = next;
        changed = true;
    }
    changed.then_some(out)
}

/// The rules with the first choice of each split, or `None` when none
/// has one or the rules would be too many.
fn split_once(rules: &[MoveIr]) -> Option<Vec<MoveIr>> {
    let mut out = Vec::new();
    let mut any = false;
    for rule in rules {
        match choice(rule) {
            Some(moves) => {
                any = true;
                out.extend(moves);
            }
            None => out.push(rule.clone()),
        }
    }
    (any && out.len() <= MOVES_MAX).then_some(out)
}

/// `rule` as a move per test of the first choice among its guard's
/// conjuncts.
fn choice(rule: &MoveIr) -> Option<Vec<MoveIr>> {
    let mut conjuncts = Vec::new();
    flatten(rule.guard.as_ref()?, &mut conjuncts);
    let (at, tests) = conjuncts.iter().enumerate().find_map(|(i, c)| {
        let mut tests = Vec::new();
        disjuncts(c, &mut tests);
        (tests.len() > 1 && tests.iter().all(plain_tests)).then_some((i, tests))
    })?;
    let mut moves = Vec::new();
    for (i, test) in tests.iter().enumerate() {
        // A test's own conjuncts before the `not` of an earlier test of
        // several (`ny == y and nx < x and not (nx == x and ny < y)`), so
        // that an equation among them comes first and fixes its binder
        // (`solved.rs`); the tests cannot fail, so their order is free.
        let (flipped, later): (Vec<&Ir>, Vec<&Ir>) = tests[..i].iter().partition(|t| plain_test(t));
        let mut parts = conjuncts[..at].to_vec();
        parts.extend(flipped.into_iter().map(negated));
        flatten(test, &mut parts);
        parts.extend(later.into_iter().map(negated));
        parts.extend(conjuncts[at + 1..].iter().cloned());
        // Its options in another order: not named as written.
        moves.push(MoveIr {
            guard: Some(join(parts)),
            named: None,
            ..rule.clone()
        });
    }
    Some(moves)
}

/// The tests of `a or b or ...`, in order.
fn disjuncts(ir: &Ir, out: &mut Vec<Ir>) {
    match &ir.kind {
        IrKind::Binary(BinOp::Or, a, b) => {
            disjuncts(a, out);
            disjuncts(b, out);
        }
        _ => out.push(ir.clone()),
    }
}

/// A comparison of two operands that cannot fail, or `and` of such
/// (the rook's `(nx == x and ny < y) or (ny == y and nx < x)`).
fn plain_tests(ir: &Ir) -> bool {
    let mut parts = Vec::new();
    flatten(ir, &mut parts);
    parts.iter().all(plain_test)
}

/// A comparison of two operands that cannot fail.
pub(super) fn plain_test(ir: &Ir) -> bool {
    use BinOp::*;
    matches!(&ir.kind, IrKind::Binary(Eq | Ne | Lt | Le | Gt | Ge, a, b) if repeatable(a) && repeatable(b))
}

/// The test that holds where `test` does not: `!=` for `==` and back,
/// `not` of an order (`<` of sets is not the negation of `>=`).
fn negated(test: &Ir) -> Ir {
    let kind = match &test.kind {
        IrKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => IrKind::Binary(
            super::logic::opposite(*op).expect("== or !="),
            a.clone(),
            b.clone(),
        ),
        _ => IrKind::Unary(UnOp::Not, Box::new(test.clone())),
    };
    Ir {
        kind,
        span: test.span,
    }
}
