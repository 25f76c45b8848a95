//! The sweep of a chain up: a one-integer game whose moves count up to
//! a bound (a race to N, `t + k <= N`), asked at the bottom, evaluated
//! from a top found above the search down to it, instead of climbed one
//! position at a time, each on the search's path.

use crate::graph;
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::{GameId, NodeId};

impl Machine {
    /// A chain up: `node` of a one-integer game misses the value of
    /// `child` just above it, and the search has already climbed a long
    /// way to it (the position 64 below `node` is on its path), as a race
    /// to N does (`move add(k in 1..=3) if t + k <= N -> race(t + k)`,
    /// asked at 0). Rather than climb to N one position at a time, each on
    /// the path, a top is found (the first of `child + 64`, `child + 128`,
    /// ... whose run finds its value, then the lowest such above the last
    /// that did not, by halving) and the positions from there down to
    /// `child` are run, while each finds all its options known. Returns as
    /// [`Machine::sweep`] does.
    pub(in crate::runtime) fn sweep_up(
        &mut self,
        node: NodeId,
        child: NodeId,
    ) -> RtResult<Option<bool>> {
        const CLIMBED: u32 = 64;
        if self.graph.dense(child.game).is_none_or(|d| d.arity() != 1) || node.index < CLIMBED {
            return Ok(None);
        }
        let game = node.game;
        let low = NodeId {
            game,
            index: node.index - CLIMBED,
        };
        if self.graph.find_ints(game, &[low.index as i64]) != Some(low)
            || self.graph.value(low) != graph::IN_PROGRESS
        {
            return Ok(None);
        }
        let room = self.sweep_room();
        let mut ignored = Vec::new();
        // The top: the first probe whose run finds its value. A probe the
        // compiled rules leave (past the game's end: `ADJ[v]` past the
        // last row) bounds the search from above, which then halves.
        let (mut failed, mut step, mut out) = (child.index, CLIMBED, None);
        let mut top = loop {
            let p = match out {
                Some(out) if out - failed <= 1 => return Ok(Some(false)),
                Some(out) => failed + (out - failed) / 2,
                None => match child.index.checked_add(step) {
                    Some(p) if p < graph::DENSE_END => p,
                    _ => return Ok(Some(false)),
                },
            };
            match self.up_valued(game, p, room, &mut ignored)? {
                Up::Valued => break p,
                Up::Missing => failed = p,
                Up::Left => out = Some(p),
                Up::NoRoom => return Ok(Some(false)),
            }
            step = step.saturating_mul(2);
        };
        while top - failed > 1 {
            let mid = failed + (top - failed) / 2;
            match self.up_valued(game, mid, room, &mut ignored)? {
                Up::Valued => top = mid,
                Up::Missing => failed = mid,
                Up::Left | Up::NoRoom => break,
            }
        }
        let left = self.native_down(game, (child.index, top), room)?;
        let mut found = left < top;
        for index in (child.index..left).rev() {
            if index % 1024 == 0 {
                self.poll()?;
            }
            if self.up_valued(game, index, room, &mut ignored)? != Up::Valued {
                break;
            }
            found = true;
        }
        Ok(Some(found))
    }

    /// The positions `bottom..top` of `game` evaluated from the top down
    /// by its machine code, as far as it goes, when the dense table has
    /// room for all of them. Returns the top of those left: `bottom` when
    /// it did them all, `top` when it did none.
    fn native_down(
        &mut self,
        game: GameId,
        (bottom, top): (u32, u32),
        room: usize,
    ) -> RtResult<u32> {
        let Some(kernel) = self.sweeping(game, top.saturating_sub(bottom)) else {
            return Ok(top);
        };
        if self.graph.claim_dense(game, bottom, top, room) < top {
            return Ok(top);
        }
        let mut left = top;
        loop {
            self.poll()?;
            let Scratch { marks, views, .. } = &mut self.scratch;
            let graph = (&self.defs, &self.graph);
            let (stopped, paused) =
                kernel.native_sweep_down(graph, (game, bottom, left), marks, views);
            left = stopped;
            if !paused || left <= bottom {
                return Ok(left);
            }
        }
    }

    /// Whether the one-integer position `index` of `game` has a value (or
    /// its kernel's run finds one).
    fn up_valued(
        &mut self,
        game: GameId,
        index: u32,
        room: usize,
        ignored: &mut Vec<NodeId>,
    ) -> RtResult<Up> {
        let Some(at) = self.line_position(game, index, room) else {
            return Ok(Up::NoRoom);
        };
        let before = self.graph.len();
        let found = match self.graph.value(at) {
            v if v < graph::ABSENT => Up::Valued,
            graph::IN_PROGRESS => Up::Missing,
            _ => match self.kernel_probe(at, ignored)? {
                Some(true) => Up::Valued,
                Some(false) => Up::Missing,
                None => Up::Left,
            },
        };
        // The options a run missed are interned, ahead of the search.
        self.graph.swept_since(before);
        Ok(found)
    }
}

/// What a probe of a chain up found of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Up {
    /// Its value, known or found by its run.
    Valued,
    /// Options without values yet, or it is on the search's path.
    Missing,
    /// The compiled rules left it (see [`Machine::kernel_probe`]).
    Left,
    /// The graph has no room for it.
    NoRoom,
}

/// The lowest of `waited` just above `node` (a few positions up) in the
/// dense table of a one-integer game: where a chain up may go on.
pub(in crate::runtime) fn near_above(node: NodeId, waited: &[NodeId]) -> Option<NodeId> {
    const GAP: u32 = 4;
    waited
        .iter()
        .filter(|c| c.game == node.game && c.index > node.index && c.index - node.index <= GAP)
        .filter(|c| c.index < graph::DENSE_END)
        .min_by_key(|c| c.index)
        .copied()
}
