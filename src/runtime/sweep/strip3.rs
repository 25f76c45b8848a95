//! The sweep of the strips of triples: the positions of a three-integer
//! game past its cube whose two short arguments keep to a box of small
//! values (see [`crate::runtime::kernel::strip3`]), evaluated row after
//! row of the long argument, every pair of the box in each, as the
//! hand-written program fills its table, instead of one at a time by the
//! machine code's recursion.

use crate::graph::{self, ABSENT, STRIP3_WIDTH};
use crate::runtime::kernel::strip3::shorts;
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::{GameId, NodeId};

/// The rows whose slots are made at a time.
const CHUNK: i64 = 1 << 12;

/// A strip sweep's game, its long argument and its box of short ones.
type Strips = (GameId, usize, [(i64, i64); 2]);

impl Machine {
    /// The rows `from..to` of `game`'s strips of triples, for a query that
    /// asks them in turn with short arguments `seed` (in the order of
    /// [`shorts`]): swept before they are asked, from the lowest row past
    /// the cube without all its values, while the machine code finds each
    /// position's options known.
    pub(in crate::runtime) fn sweep_strip3_range(
        &mut self,
        (game, seed): (GameId, [i64; 2]),
        (from, to): (i64, i64),
    ) -> RtResult<()> {
        let Some(kernel) = self.kernel(game) else {
            return Ok(());
        };
        let (Some(long), Some(cells)) = (kernel.strip3(), kernel.strip3_box(seed)) else {
            return Ok(());
        };
        let strips = (game, long, cells);
        let top = to.min(graph::LONG3_MAX);
        let from = from.max(graph::SIDE3_MAX);
        if from >= top {
            return Ok(());
        }
        if let Some(low) = self.strip3_bottom(strips, from)? {
            self.strip3_rows(strips, (low, top))?;
        }
        Ok(())
    }

    /// The strips below `node`, which waits for `waited`, when its game's
    /// positions lie in strips of triples and some waited option of its
    /// own is a few rows below it: the rows without all their values
    /// from the lowest past the cube up to `node`'s, every pair of the box
    /// its short arguments keep to in each. Returns as
    /// [`Machine::sweep_strip`] does; `None` when this is no such strip.
    pub(in crate::runtime) fn sweep_strip3(
        &mut self,
        node: NodeId,
        waited: &[NodeId],
    ) -> RtResult<Option<bool>> {
        const SHORTEST: i64 = 64;
        const GAP: i64 = 4;
        let Some(kernel) = self.kernel(node.game) else {
            return Ok(None);
        };
        let Some(long) = kernel.strip3() else {
            return Ok(None);
        };
        let triple = |graph: &graph::Graph, node: NodeId| {
            let mut args = Vec::with_capacity(3);
            graph.int_args(node, &mut args);
            <[i64; 3]>::try_from(args).ok()
        };
        let Some(at) = triple(&self.graph, node) else {
            return Ok(None);
        };
        let n = at[long];
        let below = |c: &NodeId| {
            c.game == node.game
                && triple(&self.graph, *c).is_some_and(|c| (n - GAP..n).contains(&c[long]))
        };
        if n <= graph::SIDE3_MAX || n >= graph::LONG3_MAX || !waited.iter().any(below) {
            return Ok(None);
        }
        let [i, j] = shorts(long);
        let Some(cells) = kernel.strip3_box([at[i], at[j]]) else {
            return Ok(None);
        };
        let strips = (node.game, long, cells);
        match self.strip3_bottom(strips, n)? {
            Some(low) if n - low >= SHORTEST => self.strip3_rows(strips, (low, n)),
            _ => Ok(None),
        }
    }

    /// The position of the strips at row `row` and pair `(s, t)`.
    fn strip3_place((_, long, _): Strips, row: i64, [s, t]: [i64; 2]) -> [i64; 3] {
        let mut at = [row; 3];
        let [i, j] = shorts(long);
        (at[i], at[j]) = (s, t);
        at
    }

    /// The lowest row at or below `row`, and past the cube, from which on
    /// no row of the strips has all its values in the box; `None` when
    /// those rows would fill more than half the room the graph has left
    /// for a sweep. Found by halving, as the rows with all their values
    /// are those below where the sweeps reached: a walk down, row by row,
    /// took a search that waited at each of a million heaps a million
    /// lookups each time. (Where a row with all its values lies above
    /// one without, the sweep may start above the latter: the machine
    /// code then leaves a position whose options have no values, and the
    /// sweep stops there, for the search.)
    fn strip3_bottom(&mut self, strips: Strips, row: i64) -> RtResult<Option<i64>> {
        let (game, _, [(s0, s1), (t0, t1)]) = strips;
        let cells = (s1 - s0 + 1) * (t1 - t0 + 1);
        let free = self.sweep_room().saturating_sub(self.graph.len());
        let most = (free / 2) as i64 / cells;
        let valued = |graph: &graph::Graph, r: i64| {
            (s0..=s1).all(|s| {
                (t0..=t1).all(|t| {
                    let at = Self::strip3_place(strips, r, [s, t]);
                    graph.int_value(game, &at) < ABSENT
                })
            })
        };
        self.poll()?;
        let (mut low, mut high) = (graph::SIDE3_MAX, row);
        while low < high {
            let mid = low + (high - low) / 2;
            match valued(&self.graph, mid) {
                true => low = mid + 1,
                false => high = mid,
            }
        }
        Ok((row - low <= most).then_some(low))
    }

    /// The rows `low..top` of the strips by the game's machine code, a
    /// chunk of rows at a time, their slots made first, with the kernel's
    /// run taking each position the code leaves. Stops at a position
    /// whose options are not all known, which is the search's; returns
    /// whether it found any value, as [`Machine::sweep_strip`] does
    /// (`Some(false)` keeps the search from sweeping again), or `None`
    /// when the game has no machine code for it (yet).
    fn strip3_rows(&mut self, strips: Strips, (low, top): (i64, i64)) -> RtResult<Option<bool>> {
        let (game, long, cells) = strips;
        let [(s0, s1), (t0, t1)] = cells;
        let per_row = (s1 - s0 + 1) * (t1 - t0 + 1);
        // At most half the room left for a sweep (see `strip3_bottom`).
        let free = self.sweep_room().saturating_sub(self.graph.len());
        let top = top.min(low.saturating_add((free / 2) as i64 / per_row));
        let positions = (top - low).saturating_mul(per_row);
        let positions = u32::try_from(positions).unwrap_or(u32::MAX);
        let Some(kernel) = self
            .sweeping(game, positions)
            .filter(|k| k.strip3() == Some(long))
        else {
            return Ok(None);
        };
        let usize_cells = cells.map(|(lo, hi)| (lo as usize, hi as usize));
        let (mut row, mut claimed, mut left) = (low, low, None);
        // Whether any row was finished, or any position left valued.
        let mut found = false;
        while row < top {
            self.poll()?;
            if row >= claimed {
                let end = top.min(row + CHUNK);
                let longs = (row as usize, end as usize - 1);
                let room = self.sweep_room();
                if (self.graph)
                    .claim_strip3((game, long), (usize_cells, longs), room)
                    .is_none()
                {
                    return Ok(Some(found));
                }
                claimed = end;
            }
            let Scratch { marks, views, .. } = &mut self.scratch;
            let graph = (&self.defs, &self.graph);
            let run = (game, (row, claimed), cells);
            let ((stopped, pair), paused) = kernel.native_strip3(graph, run, marks, views);
            found |= stopped > row;
            row = stopped;
            if paused || stopped >= claimed {
                continue;
            }
            // A position the machine code left: the kernel's run, then the
            // same row again (its positions with values are passed over).
            // Left twice, the code did not pass over the value just found:
            // the rest is the search's (never a loop without progress).
            // The position is one of those claimed: found, never made.
            let pair = [pair / STRIP3_WIDTH, pair % STRIP3_WIDTH];
            let at = Self::strip3_place(strips, stopped, pair);
            let valued = left.replace(at) != Some(at)
                && match self.graph.find_ints(game, &at) {
                    Some(node) => self.kernel_finds_value(node, &mut Vec::new())?,
                    None => false,
                };
            if !valued {
                return Ok(Some(found));
            }
            found = true;
        }
        Ok(Some(found || top > low))
    }
}
