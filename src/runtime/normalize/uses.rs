//! Where a name is read: whether a `let`'s value or a call's argument can
//! be put in place of its name without being evaluated more often, or
//! less often, than as written.

use crate::ir::{ClauseIr, Ir, IrKind, Slot};
use crate::syntax::ast::BinOp;

/// Whether `ir` reads `slot` exactly once, at a point that is evaluated
/// whenever `ir` is: not in a branch of an `if`, after an `and`, an `or`
/// or a chain's first comparison, nor inside a comprehension's loop.
/// The value put there is then evaluated exactly as often as before, so
/// it fails exactly when it did.
pub(super) fn once_for_certain(ir: &Ir, slot: Slot) -> bool {
    let mut reads = Reads {
        slot,
        count: 0,
        certain: true,
    };
    reads.walk(ir, true);
    reads.count == 1 && reads.certain
}

struct Reads {
    slot: Slot,
    count: usize,
    /// Whether every read found so far is evaluated for certain.
    certain: bool,
}

impl Reads {
    fn walk(&mut self, ir: &Ir, certain: bool) {
        match &ir.kind {
            IrKind::Local(s) if *s == self.slot => {
                self.count += 1;
                self.certain &= certain;
            }
            IrKind::If(c, a, b) => {
                self.walk(c, certain);
                self.walk(a, false);
                self.walk(b, false);
            }
            IrKind::Binary(BinOp::And | BinOp::Or, a, b) => {
                self.walk(a, certain);
                self.walk(b, false);
            }
            IrKind::Chain(operands, _) => {
                for (i, e) in operands.iter().enumerate() {
                    self.walk(e, certain && i < 2);
                }
            }
            IrKind::Comprehension { elem, clauses, .. } => {
                // The first clause is evaluated once; the rest run in its
                // loop, as often as it says.
                for (i, c) in clauses.iter().enumerate() {
                    match c {
                        ClauseIr::For(_, e) | ClauseIr::If(e) => self.walk(e, certain && i == 0),
                    }
                }
                self.walk(elem, false);
            }
            _ => super::each_child(ir, &mut |e| self.walk(e, certain)),
        }
    }
}
