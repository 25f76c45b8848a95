//! The sweep of a four-integer game (`g(a, b, c, d)`: four heaps, two
//! tokens on a board): its dense positions row by row, a row being the
//! positions `(_, b, c, d)` in the cube's order of `(b, c, d)` (see
//! [`crate::graph::dense4`]), each row as far in `a` as the search has
//! been. Lowering any argument lowers the dense index, so a position comes
//! after every one it may move to that is swept.

use super::FREELY;
use crate::graph::{self, ABSENT, IN_PROGRESS, UNKNOWN};
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::{GameId, NodeId};

/// The key the progress of a game's sweeps is kept under
/// ([`graph::Graph::swept`]): how many positions of the order are
/// valued from its start, and the reach they were swept with.
const KEY: [i64; 6] = [-4, 0, 0, 0, 0, 0];

impl Machine {
    /// Whether positions of `game` (of four integers) have been swept.
    pub(in crate::runtime) fn quad_swept_before(&self, game: GameId) -> bool {
        self.graph.swept(game, KEY).is_some()
    }

    /// The positions of `game` below dense index `end` of the rows up to
    /// `end`'s, of first argument up to `reach` (the largest the search
    /// has been at, or that of an earlier sweep), each with no value yet
    /// run while its options all have values: as
    /// [`Machine::sweep_square`] does for two or three integers. Past
    /// [`FREELY`] positions, the first sweep of a game waits for the search
    /// to come down by a `chain`; the later ones, as it climbs back up and
    /// meets positions whose options lack values, go on from where the
    /// last one left the order's first gap. Returns as
    /// [`Machine::sweep`] does.
    pub(in crate::runtime) fn sweep_quad(
        &mut self,
        game: GameId,
        (end, reach): (u32, usize),
        chain: impl FnOnce() -> bool,
    ) -> RtResult<Option<bool>> {
        if self.graph.dense(game).is_none_or(|d| d.free() != 4) {
            return Ok(None);
        }
        let before = self.graph.swept(game, KEY);
        let (rows, cols) = graph::quad_place(end);
        if before.is_none() && (rows + 1) * (reach + 1) > FREELY as usize && !chain() {
            return Ok(None);
        }
        // The reach never shrinks: a smaller one would start over.
        let (done, reach) = match before {
            Some((done, r)) if r as usize >= reach => (done as usize, r as usize),
            _ => (0, reach),
        };
        let width = reach + 1;
        let mut sweep = Sweep {
            game,
            width,
            room: self.sweep_room(),
            gap: None,
            found: false,
        };
        let (first, mut from) = (done / width, done % width);
        let mut k = done;
        for row in first..=rows {
            let to = if row == rows { cols.min(width) } else { width };
            let stopped = self.sweep_row(&mut sweep, row, (from, to))?;
            k = row * width + stopped;
            if stopped < to {
                break;
            }
            from = 0;
        }
        let (found, gap) = (sweep.found, sweep.gap);
        let valued = gap.unwrap_or(k);
        self.graph
            .set_swept(game, KEY, (valued.max(done) as i64, reach as i64));
        Ok(Some(found))
    }
}

/// What one sweep of a four-integer game keeps as it goes.
struct Sweep {
    game: GameId,
    /// The positions of each row it runs: `a` below this.
    width: usize,
    /// How many positions the graph may hold.
    room: usize,
    /// The first position of the order on the search path, if any.
    gap: Option<usize>,
    /// Whether any position got its value.
    found: bool,
}

impl Machine {
    /// The positions `(a, b, c, d)` of row `row` (the cube index of `(b,
    /// c, d)`), `a` in `from..to`, with no value yet, valued by the
    /// machine code (the kernel's run taking each it leaves), or by the
    /// kernel's run. Returns where it stopped: `to`, or the first `a`
    /// it could not value (or make).
    fn sweep_row(
        &mut self,
        sweep: &mut Sweep,
        row: usize,
        (from, to): (usize, usize),
    ) -> RtResult<usize> {
        self.poll()?;
        let game = sweep.game;
        // The slots first: the machine code values only positions made.
        for a in from..to {
            let z = graph::quad_index(row, a);
            match self.graph.dense(game).map_or(ABSENT, |d| d.get(z)) {
                // Made, while the graph has room for it.
                ABSENT
                    if self.graph.len() < sweep.room
                        && self.graph.insert_dense(game, 4, z).is_some() => {}
                ABSENT => return self.sweep_cells(sweep, row, (from, a)),
                IN_PROGRESS => {
                    sweep.gap.get_or_insert(row * sweep.width + a);
                }
                _ => {}
            }
        }
        self.sweep_cells(sweep, row, (from, to))
    }

    /// [`Machine::sweep_row`] of positions that all exist.
    fn sweep_cells(
        &mut self,
        sweep: &mut Sweep,
        row: usize,
        (mut from, to): (usize, usize),
    ) -> RtResult<usize> {
        let game = sweep.game;
        let (b, c, d) = graph::untriple(row as u32);
        let at = [b, c, d].map(|x| x as u16);
        let kernel = self.sweeping(game, (to - from) as u32);
        while from < to {
            let stopped = match &kernel {
                Some(kernel) => {
                    let Scratch { marks, views, .. } = &mut self.scratch;
                    let cols = (from as u32, to as u32);
                    let graph = (&self.defs, &self.graph);
                    let (stopped, paused) =
                        kernel.native_quad_row(graph, (game, at, cols), marks, views);
                    if paused {
                        self.poll()?;
                        from = stopped as usize;
                        continue;
                    }
                    stopped as usize
                }
                None => from,
            };
            if stopped >= to {
                sweep.found |= stopped > from;
                break;
            }
            let z = graph::quad_index(row, stopped);
            let node = NodeId { game, index: z };
            sweep.found |= stopped > from;
            let unknown = self.graph.dense(game).is_some_and(|d| d.get(z) == UNKNOWN);
            if unknown && !self.kernel_finds_value(node, &mut Vec::new())? {
                return Ok(stopped);
            }
            sweep.found |= unknown;
            from = stopped + 1;
        }
        Ok(to)
    }
}
