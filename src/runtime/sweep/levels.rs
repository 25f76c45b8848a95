//! A board of constant shifts (see [`crate::runtime::kernel::Levels`])
//! swept level by level: the slots below a level claimed, by halving
//! where the room is short, and the machine code run over them.

use crate::graph;
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::GameId;
use crate::value::NodeId;

impl Machine {
    /// The board below `node`, a position of a two-integer game that
    /// moves by constant shifts inside a box (see
    /// [`crate::runtime::kernel::Levels`]), as when a
    /// knight's square is asked first: each position of the box of a lower
    /// level than `node`'s with no value yet is evaluated by the machine
    /// code, level after level, each once with its options known, from
    /// where an earlier sweep of the board stopped. Returns as
    /// [`Machine::sweep`] does; `None` when the game has no such board or
    /// no machine code for it, or nothing is left below `node`.
    pub(in crate::runtime) fn sweep_levels(&mut self, node: NodeId) -> RtResult<Option<bool>> {
        const SMALLEST: i64 = 64;
        if node.index >= graph::DENSE_END || !self.use_native {
            return Ok(None);
        }
        let Some(kernel) = self.kernel(node.game) else {
            return Ok(None);
        };
        let (Some(levels), true) = (kernel.levels(), self.graph.dense(node.game).is_some()) else {
            return Ok(None);
        };
        let (a, b) = graph::unpair(node.index);
        let (lowest, highest) = levels.span();
        let to = levels.of((a as i64, b as i64)).min(highest + 1);
        let key = levels.key();
        let swept = self.graph.swept(node.game, key);
        let (mut from, claimed) = swept.unwrap_or((lowest, lowest));
        let cells = (levels.rows.1 - levels.rows.0 + 1) * (levels.cols.1 - levels.cols.0 + 1);
        let cells = u32::try_from(cells).unwrap_or(u32::MAX);
        // A first sweep waits for a few levels; once the board is swept,
        // a level at a time is cheaper than a search through it (a query
        // over every square meets a new level or two at each row).
        let few = if swept.is_some() { 1 } else { SMALLEST };
        if to - from < few || !kernel.native_for(cells, self.native_after) {
            return Ok(None);
        }
        let claimed = match self.claim_levels(node.game, levels, (claimed, to)) {
            Some(claimed) => claimed,
            None => return Ok(None),
        };
        self.graph.set_swept(node.game, key, (from, claimed));
        // Fewer levels than asked, where the room is short: those only.
        let to = to.min(claimed);
        if to <= from {
            return Ok(None);
        }
        let (mut found, mut left) = (false, None);
        while from < to {
            self.poll()?;
            let Scratch { marks, views, .. } = &mut self.scratch;
            let graph = (&self.defs, &self.graph);
            let ((level, row), paused) =
                kernel.native_levels(graph, (node.game, from, to), marks, views);
            found |= level > from;
            from = level;
            if paused || level >= to {
                continue;
            }
            // A position the machine code left: the kernel's run, then the
            // same level again (its positions with values are passed over).
            let col = (level - levels.weights.0 * row) / levels.weights.1;
            // Left twice, the code did not pass over the value just found:
            // the rest is the search's (never a loop without progress).
            let valued = left.replace((row, col)) != Some((row, col));
            let valued = valued
                && match self
                    .graph
                    .find_formed((node.game, levels.form), &[row, col])
                {
                    Some(at) => self.kernel_finds_value(at, &mut Vec::new())?,
                    None => false,
                };
            if !valued {
                self.graph.set_swept(node.game, key, (level, claimed));
                return Ok(Some(found));
            }
            found = true;
        }
        self.graph.set_swept(node.game, key, (to, claimed));
        Ok(Some(found))
    }

    /// Makes the slots of the board's positions of levels below `to`, when
    /// those below `claimed` exist already: the rectangle of the box that
    /// holds them, at least twice as many levels as before (so that a
    /// board met a level at a time is claimed a few times, not once per
    /// level). Returns the level below which the slots now exist, below
    /// `to` where the room left is short; `None` when no more levels fit.
    fn claim_levels(
        &mut self,
        game: GameId,
        levels: crate::runtime::kernel::Levels,
        (claimed, to): (i64, i64),
    ) -> Option<i64> {
        if to <= claimed {
            return Some(claimed);
        }
        let (lowest, highest) = levels.span();
        let want = to.max(lowest + 2 * (claimed - lowest)).min(highest + 1);
        // A board refused for want of room is asked again only for an
        // eighth fewer levels: the search descends a level at a time, and
        // each refusal counts the rectangle's slots (quadratic: a
        // knight's board near `--max-states` ran minutes, not a second).
        let refused = (self.levels_refused)
            .filter(|r| r.0 == (game, levels.key()) && r.2 <= self.graph.len());
        if refused.is_some_and(|(_, most, _)| (want - lowest) * 8 > (most - lowest) * 7) {
            return None;
        }
        if self.claim_below(game, levels, want) {
            self.levels_refused = None;
            return Some(want);
        }
        // Refused: the most levels that fit, found by halving (a claim
        // of fewer levels each time, a dozen for ten thousand levels),
        // swept now, as the search descending level by level would have
        // found them.
        let (mut fits, mut fails) = (claimed, want);
        while fails - fits > 1 {
            let mid = fits + (fails - fits) / 2;
            match self.claim_below(game, levels, mid) {
                true => fits = mid,
                false => fails = mid,
            }
        }
        self.levels_refused = Some(((game, levels.key()), fails, self.graph.len()));
        (fits > claimed).then_some(fits)
    }

    /// Makes the slots of the board's positions of levels below `want`
    /// (the rectangle of the box that holds them): whether the graph had
    /// room for them.
    fn claim_below(
        &mut self,
        game: GameId,
        levels: crate::runtime::kernel::Levels,
        want: i64,
    ) -> bool {
        let ((p, q), (r0, r1), (c0, c1)) = (levels.weights, levels.rows, levels.cols);
        let rows = (r0 as usize, r1.min((want - 1 - q * c0) / p) as usize);
        let cols = (c0 as usize, c1.min((want - 1 - p * r0) / q) as usize);
        let room = self.sweep_room();
        self.levels_claimed += 1;
        (self.graph)
            .claim_rect((game, levels.form), (rows, cols), (room, false))
            .is_some()
    }
}
