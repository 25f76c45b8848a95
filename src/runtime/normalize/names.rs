//! Each comprehension's names given slots of their own. Lowering gives
//! comprehensions whose scopes are apart the same slots, so one move may
//! read a slot as an integer in one (`all([a + b > d for (a, b) in ps])`)
//! and as a pair in another (`[p for p in ps if p != q]`); the compiled
//! rules type a slot once per move (`kernel::seq::Types::in_move`), and
//! would take neither.

use super::walk::{map_children, map_move};
use crate::ir::{ClauseIr, Ir, IrKind, MoveIr, Slot};
use std::cell::Cell;

/// `rule` with the names of every comprehension in it moved to slots
/// from `slots` on, which it advances.
pub(super) fn fresh(rule: &MoveIr, slots: &Cell<usize>) -> MoveIr {
    map_move(rule, 0, &mut |e| renamed(e, slots))
}

fn renamed(ir: &Ir, slots: &Cell<usize>) -> Ir {
    let ir = map_children(ir, &mut |e| renamed(e, slots));
    let IrKind::Comprehension { set, elem, clauses } = &ir.kind else {
        return ir;
    };
    let mut moved: Vec<(Slot, Slot)> = Vec::new();
    let mut kept = Vec::new();
    for c in clauses {
        kept.push(match c {
            ClauseIr::For(pattern, xs) => {
                let xs = reads(xs, &moved);
                let mut bound = rustc_hash::FxHashSet::default();
                super::inline::pattern_slots(pattern, &mut bound);
                let mut bound: Vec<Slot> = bound.into_iter().collect();
                bound.sort_unstable();
                for s in bound {
                    moved.push((s, slots.get() as Slot));
                    slots.set(slots.get() + 1);
                }
                let pattern = super::inline::map_pattern(pattern, &|s| to(s, &moved));
                ClauseIr::For(pattern, xs)
            }
            ClauseIr::If(c) => ClauseIr::If(reads(c, &moved)),
        });
    }
    let clauses = kept;
    Ir {
        kind: IrKind::Comprehension {
            set: *set,
            elem: Box::new(reads(elem, &moved)),
            clauses,
        },
        span: ir.span,
    }
}

/// Where `moved` puts slot `s` (the last it says, or `s` itself).
fn to(s: Slot, moved: &[(Slot, Slot)]) -> Slot {
    moved
        .iter()
        .rev()
        .find(|(from, _)| *from == s)
        .map_or(s, |(_, to)| *to)
}

/// `ir` with each slot `from` of `moved` read as its `to`.
fn reads(ir: &Ir, moved: &[(Slot, Slot)]) -> Ir {
    if let IrKind::Local(s) = ir.kind {
        return Ir {
            kind: IrKind::Local(to(s, moved)),
            span: ir.span,
        };
    }
    map_children(ir, &mut |e| reads(e, moved))
}
