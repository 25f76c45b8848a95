//! A guard's test that its other tests decide, as a target's `if` chain
//! split into moves leaves it (`targets.rs`). A helper dropping empty
//! rows,
//!
//! ```text
//! fn rows(a, b) = if a == 0 and b == 0 then 0 else if a == 0 then k(b)
//!                 else if b == 0 then k(a) else k(a) + k(b)
//! ```
//!
//! leaves its last branch guarded by `not (a == 0 and b == 0) and a != 0
//! and b != 0`, whose first test the second decides, and its second by
//! `not (a == 0 and b == 0) and a == 0`, where the first test is `b !=
//! 0`. Tested for every option, the first kept the loop from being cut
//! by the others, and the equation `a == 0` from fixing `a` (`solved.rs`):
//! Kayles so written ran 7 times slower than with its rows written out.
//!
//! A test `not (p and q ...)` is dropped where another conjunct of the
//! guard is the opposite of one of its parts, and a part another conjunct
//! is is taken out of it. Only tests of equality (`==`, `!=`, and `not`,
//! `and`, `or` of those) between operands that cannot fail, with only
//! such tests between the two: evaluated or not, in any order, they make
//! no error, and the guard holds for the same options.

use super::either::{flatten, join};
use super::hoist::same;
use crate::ir::{Ir, IrKind, MoveIr};
use crate::syntax::ast::{BinOp, UnOp};

/// `rule` with each test its guard's others decide dropped or made
/// shorter (see the module's doc); `None` where it has none.
pub(super) fn tests(rule: &MoveIr) -> Option<MoveIr> {
    let mut conjuncts = Vec::new();
    flatten(rule.guard.as_ref()?, &mut conjuncts);
    let mut changed = false;
    let mut i = 0;
    while i < conjuncts.len() {
        match decided(&conjuncts, i) {
            Some(None) => {
                conjuncts.remove(i);
                changed = true;
            }
            Some(Some(shorter)) => {
                conjuncts[i] = shorter;
                changed = true;
            }
            None => i += 1,
        }
    }
    changed.then(|| MoveIr {
        guard: (!conjuncts.is_empty()).then(|| join(conjuncts)),
        ..rule.clone()
    })
}

/// What conjunct `i`, a test `not (p and q ...)`, is given the others:
/// `Some(None)` where one of them is the opposite of a part (it holds),
/// `Some(Some(t))` where one of them is a part (`t` the test without
/// it), `None` where neither.
fn decided(conjuncts: &[Ir], i: usize) -> Option<Option<Ir>> {
    let IrKind::Unary(UnOp::Not, inner) = &conjuncts[i].kind else {
        return None;
    };
    let mut parts = Vec::new();
    flatten(inner, &mut parts);
    if parts.len() < 2 || !parts.iter().all(safe) {
        return None;
    }
    // The conjuncts it may be read with: those next to it that cannot
    // fail either.
    let mut lo = i;
    while lo > 0 && safe(&conjuncts[lo - 1]) {
        lo -= 1;
    }
    let mut hi = i + 1;
    while hi < conjuncts.len() && safe(&conjuncts[hi]) {
        hi += 1;
    }
    let others = (lo..hi).filter(|&j| j != i).map(|j| &conjuncts[j]);
    let others: Vec<&Ir> = others.collect();
    if (parts.iter()).any(|p| others.iter().any(|c| opposite(c, p))) {
        return Some(None);
    }
    let kept: Vec<Ir> = (parts.iter())
        .filter(|p| !others.iter().any(|c| same(c, p)))
        .cloned()
        .collect();
    if kept.len() == parts.len() || kept.is_empty() {
        return None;
    }
    let span = conjuncts[i].span;
    Some(Some(Ir {
        kind: IrKind::Unary(UnOp::Not, Box::new(join(kept))),
        span,
    }))
}

/// Whether `c` is `p`'s opposite: `not p`, or `x != y` of `x == y` (and
/// the other way round).
fn opposite(c: &Ir, p: &Ir) -> bool {
    let flip = |op| match op {
        BinOp::Eq => Some(BinOp::Ne),
        BinOp::Ne => Some(BinOp::Eq),
        _ => None,
    };
    match (&c.kind, &p.kind) {
        (IrKind::Unary(UnOp::Not, q), _) => same(q, p),
        (_, IrKind::Unary(UnOp::Not, q)) => same(q, c),
        (IrKind::Binary(o, x, y), IrKind::Binary(q, u, v)) => {
            flip(*o) == Some(*q) && same(x, u) && same(y, v)
        }
        _ => false,
    }
}

/// Whether `c` is a test that cannot fail: `==` or `!=` of operands
/// that cannot ([`super::inline::repeatable`]), or `not`, `and` or `or`
/// of such tests.
pub(super) fn safe(c: &Ir) -> bool {
    match &c.kind {
        IrKind::Binary(BinOp::Eq | BinOp::Ne, a, b) => {
            super::inline::repeatable(a) && super::inline::repeatable(b)
        }
        IrKind::Binary(BinOp::And | BinOp::Or, a, b) => safe(a) && safe(b),
        IrKind::Unary(UnOp::Not, a) => safe(a),
        _ => false,
    }
}
