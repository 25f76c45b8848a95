//! A binder over lists joined by `+`, the options of Lasker's Nim written
//! out as one list of positions,
//!
//! ```text
//! move m(p in [lk(n - k) for k in 1..=n] + [lk(a) + lk(n - a) for a in 1..n]) -> p
//! ```
//!
//! as one move per list, each binder then over one comprehension, which
//! `lift.rs` makes the move's own loops, its positions the target. The
//! moves make the options the rule made, the first list's before the
//! next's, in the written order: only a move's first binder is split (a
//! binder inside another's loop would take every item of one list before
//! the other's items, and the search would wait for other options, and
//! meet another error first), and only lists of positions, which the
//! compiled rules do not hold (lists of integers joined are a loop the
//! machine code runs, which the parts split need not all be: a review
//! measured 4x). Each list is made only where its move runs, not all
//! before the first option; a list that fails leaves the position to the
//! interpreter, which runs the rule as written and reports the error
//! where it met it. Sets of positions united by `|` are split alike
//! where the moves are not listed.

use crate::ir::{Ir, IrKind, MoveIr};
use crate::syntax::ast::BinOp;

/// The most lists one binder is split over.
const PARTS_MAX: usize = 8;

/// `rule` as one move per list of positions its first binder runs over,
/// lists joined by `+` (or, unless the moves are listed in the written
/// order, sets united by `|`); `None` where it has none.
pub(super) fn split(rule: &MoveIr, in_order: bool) -> Option<Vec<MoveIr>> {
    let (at, parts, set) = (rule.binders.iter().enumerate()).find_map(|(i, (_, domain))| {
        // A set holds each position once, and in another order than its
        // loops make them: the moves may make one twice, and in another
        // order, neither of which the mex sees, so only where the moves
        // are not listed.
        [false, true].into_iter().find_map(|set| {
            let mut parts = Vec::new();
            let found = (!set || !in_order) && joined(domain, set, &mut parts) && parts.len() > 1;
            found.then_some((i, parts, set))
        })
    })?;
    if at > 0 || !parts.iter().all(of_positions) {
        return None;
    }
    let moves = parts.into_iter().map(|part| {
        let mut binders = rule.binders.clone();
        binders[at].1 = part.clone();
        MoveIr {
            binders,
            // Sets: the options in another order, which the move then
            // does not name.
            named: rule.named.clone().filter(|_| !set),
            ..rule.clone()
        }
    });
    Some(moves.collect())
}

/// Pushes on `parts` the lists `domain` joins by `+` (or the sets it
/// unites by `|`, where `set`), in order, each written or a
/// comprehension, at most [`PARTS_MAX`] of them; whether it is such.
fn joined(domain: &Ir, set: bool, parts: &mut Vec<Ir>) -> bool {
    let by = if set { BinOp::BitOr } else { BinOp::Add };
    let whole = match &domain.kind {
        IrKind::Binary(op, a, b) if *op == by => {
            return joined(a, set, parts) && joined(b, set, parts);
        }
        IrKind::List(_) => !set,
        IrKind::Set(_) => set,
        IrKind::Comprehension { set: s, .. } => *s == set,
        _ => false,
    };
    let room = parts.len() < PARTS_MAX;
    if whole && room {
        parts.push(domain.clone());
    }
    whole && room
}

/// Whether `part`'s items, written or a comprehension's, are positions:
/// games applied to arguments, or sums of such.
fn of_positions(part: &Ir) -> bool {
    match &part.kind {
        IrKind::List(items) | IrKind::Set(items) => items.iter().all(super::lift::is_position),
        IrKind::Comprehension { elem, .. } => super::lift::is_position(elem),
        _ => false,
    }
}
