//! Rules typed by the positions met: a game's parameters whose shapes
//! its rules alone do not tell (a list of strings read only by `len` and
//! slices, a string or tuple state whose rules write none, a set of
//! words) typed by the arguments of a position, and the rules compiled
//! again for them (`Kernel::shapes_met`, `kernel::typed`); after a bail,
//! or for rules that did not compile at all.

use super::Ran;
use crate::graph::{Shape, flat};
use crate::runtime::kernel;
use crate::runtime::{Machine, RtResult};
use crate::value::NodeId;
use std::rc::Rc;

/// How many positions of a game whose rules did not compile are looked
/// at for shapes that would type them (see `typed_by_position`).
const TYPING_TRIES: u8 = 4;

impl Machine {
    /// After a bail of rules that ask values, which only the machine
    /// code runs: it leaves an option's value past the marks to the
    /// kernel's run, which would grow them (see `Mex::mex`) but cannot
    /// run these rules. The marks grown here instead, and the position
    /// run again, as long as they may grow.
    pub(super) fn with_more_marks(
        &mut self,
        node: NodeId,
        pending: &mut Vec<NodeId>,
    ) -> RtResult<Ran> {
        let asks = matches!(&self.kernels[node.game as usize], Some((_, Some(k))) if k.asks());
        match self.use_native && asks && self.scratch.marks.mex.grow() {
            true => self.run_kernel(node, pending),
            false => Ok(Ran::Interpret),
        }
    }

    /// After a bail: when the position's arguments are lists or sets of
    /// strings where the rules were compiled for integers (a set of
    /// words, which the rules alone do not tell from a set of numbers),
    /// the rules compiled again for those, once, and run; otherwise the
    /// interpreter's.
    #[cold]
    pub(super) fn retyped(&mut self, node: NodeId, pending: &mut Vec<NodeId>) -> RtResult<Ran> {
        let slot = node.game as usize;
        let met = match &self.kernels[slot] {
            Some((_, Some(kernel))) => kernel.shapes_met(&self.scratch.args),
            _ => None,
        };
        let Some(met) = met.filter(|m| self.retypes(slot, m)) else {
            return self.with_more_marks(node, pending);
        };
        self.hint(slot, met);
        match self.compile_kernel(node.game) {
            true => self.run_kernel(node, pending),
            false => Ok(Ran::Interpret),
        }
    }

    /// Whether positions of shapes `met` type the rules of game `slot`
    /// again: the first time, or strings where the shapes met before had
    /// other items (never back and forth between a list and a string or
    /// a tuple, which would compile the rules at each bail).
    fn retypes(&self, slot: usize, met: &[Shape]) -> bool {
        match self.shape_hints.get(slot) {
            Some(old) if !old.is_empty() => {
                old != met && old.iter().zip(met).all(|(o, m)| o == m || m.of_words())
            }
            _ => true,
        }
    }

    /// Rules that did not compile, typed by a position met: when its
    /// arguments are lists or sets of strings (`len(rows[r])` and
    /// `rows[r][:c]`, which the rules alone do not tell from a list of
    /// lists), or a string or tuple where the rules said a list, the rules
    /// compiled again for those shapes. The first [`TYPING_TRIES`]
    /// positions are looked at, then none.
    #[cold]
    pub(super) fn typed_by_position(&mut self, node: NodeId) -> bool {
        let slot = node.game as usize;
        let failed = match (self.kernels.get(slot), self.defs.game(node.game)) {
            (Some(Some((compiled, None))), Some(rules)) => Rc::ptr_eq(compiled, rules),
            _ => false,
        };
        let tried = self.typing_tries.get(slot).copied().unwrap_or(0);
        let hinted = self.shape_hints.get(slot).is_some_and(|h| !h.is_empty());
        let stale = self.stale_instance(node.game).is_some();
        if !failed || hinted || tried >= TYPING_TRIES || !self.compiled_rules() || stale {
            return false;
        }
        if self.typing_tries.len() <= slot {
            self.typing_tries.resize(slot + 1, 0);
        }
        self.typing_tries[slot] += 1;
        let mut run = Vec::new();
        let found = self.graph.flat_args(node, &mut run);
        let Some(&h) = run.first().filter(|_| found) else {
            return false;
        };
        let met: Vec<Shape> = (0..flat::arity(h)).map(|i| flat::shape(h, i)).collect();
        if !(met.iter()).any(|m| m.of_words() || kernel::typed(Shape::List, *m)) {
            return false;
        }
        self.hint(slot, met);
        self.compile_kernel(node.game)
    }

    /// Keeps `met` as the shapes game `slot`'s rules are compiled for.
    fn hint(&mut self, slot: usize, met: Vec<Shape>) {
        if self.shape_hints.len() <= slot {
            self.shape_hints.resize(slot + 1, Vec::new());
        }
        self.shape_hints[slot] = met;
    }
}
