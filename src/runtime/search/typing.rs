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
use crate::value::{GameId, NodeId};
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
        // Rules compiled for the lengths of lists met, given others.
        if self.hints.get(slot).is_some_and(|h| !h.lengths.is_empty()) {
            let run = self.scratch.args.clone();
            if !run.is_empty() && self.fixed_by_position(node.game, &run) {
                return self.run_kernel(node, pending);
            }
        }
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
        match self.hints.get(slot).map(|h| &h.shapes) {
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
        let hinted = self.hints.get(slot).is_some_and(|h| !h.shapes.is_empty());
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
        if (met.iter()).any(|m| m.of_words() || kernel::typed(Shape::List, *m)) {
            self.hint(slot, met);
            if self.compile_kernel(node.game) {
                return true;
            }
        }
        // Lists or tuples of integers: the rules for their lengths may
        // compile where those for any length do not (`min(p)` beside `let
        // (a, b) = p`).
        self.lengths_untried(node.game)
            && self.fixed_by_position(node.game, &run)
            && self.ready_kernel(node.game)
    }

    /// Keeps `met` as the shapes game `slot`'s rules are compiled for.
    fn hint(&mut self, slot: usize, met: Vec<Shape>) {
        self.hints_of(slot).shapes = met;
    }

    /// Whether no position of `game` was looked at for the lengths of its
    /// lists yet (see [`Machine::fixed_by_position`]).
    pub(in crate::runtime) fn lengths_untried(&self, game: GameId) -> bool {
        !self
            .hints
            .get(game as usize)
            .is_some_and(|h| h.lengths_tried)
    }

    /// The hints of game `slot`, made empty if need be.
    fn hints_of(&mut self, slot: usize) -> &mut kernel::Hints {
        if self.hints.len() <= slot {
            self.hints.resize(slot + 1, kernel::Hints::default());
        }
        &mut self.hints[slot]
    }

    /// Rules that take lists, compiled for any length, met a position
    /// `run` (its flat run): where it has lists or tuples of integers and
    /// the rules keep their lengths, they are compiled once for those, as
    /// integers (`normalize/lengths/`). Rules compiled for those that
    /// met a position of other lengths are compiled again for any, for
    /// good. Whether they were compiled again.
    #[cold]
    pub(in crate::runtime) fn fixed_by_position(&mut self, game: GameId, run: &[i64]) -> bool {
        let met = lengths_of(run);
        let hints = self.hints_of(game as usize);
        if hints.lengths_tried {
            if hints.lengths.is_empty() || hints.lengths == met {
                return false;
            }
            hints.lengths = Vec::new();
        } else {
            hints.lengths_tried = true;
            if met.iter().all(Option::is_none) {
                return false;
            }
            hints.lengths = met;
        }
        // The same rules, compiled for other arguments: the positions
        // the interpreter ran still count.
        let interpreted = self.interpreted.get(game as usize).copied();
        let compiled = self.compile_kernel(game);
        if let (Some(n), Some(count)) = (interpreted, self.interpreted.get_mut(game as usize)) {
            *count = n;
        }
        // Rules that do not keep the lengths: compiled for any, for good.
        if self.kernel(game).is_none_or(|k| k.split_ints().is_none()) {
            self.hints_of(game as usize).lengths = Vec::new();
        }
        compiled
    }
}

/// The shape and length of each argument of the flat run `run` that is
/// a list or tuple of at least two integers, and few enough to split.
fn lengths_of(run: &[i64]) -> Vec<Option<(Shape, usize)>> {
    let few = 2..=crate::runtime::normalize::split::SPLIT_MAX;
    (flat::arguments(run))
        .map(|(shape, items)| match shape {
            Shape::List | Shape::Tuple if few.contains(&items.len()) => Some((shape, items.len())),
            _ => None,
        })
        .collect()
}
