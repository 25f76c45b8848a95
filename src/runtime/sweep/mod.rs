//! The sweep: a chain of a one-integer game's positions, all without a
//! value, evaluated from the bottom up instead of descended one at a
//! time; by the game's machine code where it has some. The search
//! ([`super::search`]) starts one where a position waits for the one just
//! below it. A two-integer game's positions are swept likewise, square
//! shell by square shell (the order of their dense indices), where a
//! position waits for its neighbours below it in both arguments; and a
//! three-integer game's cube shell by cube shell.

use crate::graph::{self, ABSENT, UNKNOWN};
use crate::runtime::kernel::Kernel;
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::{GameId, NodeId};

mod cube;
mod evidence;
mod group;
mod levels;
mod quad;
mod strip;
mod strip3;
mod up;

use evidence::FREELY;

/// How many positions a sweep runs between looks at the clock.
const CHUNK: u32 = 1 << 16;
pub(in crate::runtime) use evidence::{
    CHAIN, descended, descended_along, near_below, square_below,
};

pub(in crate::runtime) use strip::Walked;
pub(in crate::runtime) use up::near_above;

impl Machine {
    /// A chain: `node` of a one-integer game misses the value of `child`
    /// just below it, and the positions below `child` have no values
    /// either, as when `value(g(10000000))` is asked first. Rather than
    /// descend the chain one position at a time (two kernel runs and a
    /// path entry each), their kernels are run from the bottom up, while
    /// each finds all its options known. Returns whether it found any
    /// value, or `None` when this is no such chain.
    ///
    /// A position swept is one the search would most likely have reached
    /// (the rules move from one position to another a few below); its
    /// value is right in any case. The sweep stops short of the
    /// `--max-states` limit, so it never makes a query fail.
    ///
    /// A chain longer than [`FREELY`] is swept only once the search came
    /// down to `node` by one (`chain`, asked only then: see [`descended`]).
    pub(super) fn sweep(
        &mut self,
        node: NodeId,
        child: NodeId,
        chain: impl FnOnce() -> bool,
    ) -> RtResult<Option<bool>> {
        const SHORTEST: u32 = 64;
        let Some(dense) = self.graph.dense(child.game).filter(|d| d.arity() == 1) else {
            return Ok(None);
        };
        // The gap of positions without values just below `child`: too
        // long to sweep without a chain, it is not looked below.
        let gap = dense.unvalued_below(child.index);
        if child.index - gap > FREELY && !chain() {
            return Ok(None);
        }
        // The lowest of the positions below `child` that have no value.
        let bottom = dense.sweep_bottom(child.index, gap);
        if child.index - bottom < SHORTEST {
            return Ok(None);
        }
        let room = self.sweep_room();
        let start = self.native_sweep(node.game, (bottom, child.index + 1), room)?;
        let mut found = start > bottom;
        for index in start..=child.index {
            if index % 1024 == 0 {
                self.poll()?;
            }
            let Some(at) = self.line_position(node.game, index, room) else {
                break;
            };
            if !self.left_finds_value(at)? {
                break;
            }
            found = true;
        }
        Ok(Some(found))
    }

    /// The one-integer position `index` of `game`: found, or made in its
    /// dense table; `None` when the graph holds `room` positions or the
    /// table has no room for it (such a position is hashed).
    fn line_position(&mut self, game: GameId, index: u32, room: usize) -> Option<NodeId> {
        match self.graph.find_ints(game, &[index as i64]) {
            Some(node) => Some(node),
            None if self.graph.len() >= room => None,
            None => self.graph.insert_dense(game, 1, index),
        }
    }

    /// The square below a two-integer position, as when
    /// `value(wythoff(500, 500))` is asked first and its position waits
    /// for those just below it in both arguments (or the square around a
    /// table's rectangle); or the cube below a three-integer one (four
    /// integers: see [`Machine::sweep_quad`]). Rather
    /// than descend to them and run most positions twice (once to find
    /// options without values, once more when they have them), each
    /// position of `game` of dense index below `end` that has no value yet
    /// is run in the index's order: shell by shell of the square `[0, m)²`
    /// (or the cube `[0, m)³`), where every option of a rule that makes no
    /// argument larger comes first. A game's first such sweep leaves a
    /// position whose options are not all known and goes on (see
    /// [`Skips`]); later ones stop at the first (and any stops when the
    /// graph holds `room` positions). Returns as
    /// [`Machine::sweep`] does; `None` when the game has no dense table of
    /// pairs or triples, or `end` is past [`FREELY`] and the search came
    /// down by no `chain` (asked only then).
    pub(super) fn sweep_square(
        &mut self,
        game: GameId,
        (end, room): (u32, usize),
        chain: impl FnOnce() -> bool,
    ) -> RtResult<Option<bool>> {
        if end > FREELY && !chain() {
            return Ok(None);
        }
        // A table of list positions (`g([a, b])`) is swept as its free
        // integers are, by the kernel's run.
        let Some((arity, plain)) = self.graph.dense(game).map(|d| (d.free(), d.arity())) else {
            return Ok(None);
        };
        if !matches!(arity, 2 | 3) {
            return Ok(None);
        }
        // A tuple of two split into the kernel's integers (see
        // `normalize/split.rs`) is swept by the machine code as a pair is.
        let pairs = (self.kernel(game)).is_some_and(|k| k.split_ints() == Some(2));
        let start = match (plain, arity) {
            (2, _) => self.native_sweep(game, (0, end), room)?,
            (0, 2) if pairs => self.native_sweep(game, (0, end), room)?,
            (_, 3) if self.sweep_cube_below(game, end, room)? => end,
            _ => 0,
        };
        let mut found = start > 0;
        let mut ignored = Vec::new();
        for z in start..end {
            if z % 1024 == 0 {
                self.poll()?;
            }
            let Some(dense) = self.graph.dense(game) else {
                break;
            };
            let at = match dense.get(z) {
                UNKNOWN => NodeId { game, index: z },
                ABSENT if self.graph.len() < room => {
                    match self.graph.insert_dense(game, arity, z) {
                        Some(node) => node,
                        None => break,
                    }
                }
                ABSENT => break,
                // A value, or a position on the search path.
                _ => continue,
            };
            if !self.kernel_finds_value(at, &mut ignored)? {
                break;
            }
            found = true;
        }
        Ok(Some(found))
    }

    /// The kernel of `game` to sweep `positions` positions with, when it
    /// has machine code (or is worth compiling for that many).
    pub(super) fn sweeping(&mut self, game: GameId, positions: u32) -> Option<std::rc::Rc<Kernel>> {
        let after = self.native_after;
        self.use_native
            .then(|| self.kernel(game))
            .flatten()
            .filter(|k| k.native_for(positions, after))
    }

    /// How many positions the graph may hold while a sweep makes more:
    /// seven eighths of `--max-states`. The positions a sweep makes do
    /// not count towards the search's limit ([`graph::Graph::reached`]),
    /// so that a sweep never makes a query fail; the graph holds at most
    /// about twice the limit.
    pub(super) fn sweep_room(&self) -> usize {
        let most = self.limits.max_states;
        most.saturating_sub(most / 8)
    }

    /// Evaluates the positions `lo..hi` of a one-integer `game` from the
    /// bottom up by its machine code, as far as it can: for a table of
    /// them, which then finds their values made. Any position it cannot
    /// do is left as it was, for the table to ask as usual. Returns where
    /// it stopped: `hi`, or the first position it left.
    pub(super) fn sweep_range(&mut self, game: GameId, (lo, hi): (i64, i64)) -> RtResult<i64> {
        let (Some(first), Some(last)) = (graph::dense1(lo), graph::dense1(hi - 1)) else {
            return Ok(lo);
        };
        if first > last || self.graph.dense(game).is_none_or(|d| d.arity() != 1) {
            return Ok(lo);
        }
        let lo = first;
        let room = self.sweep_room();
        if let Some(group) = self.group_of(game, last + 1 - lo) {
            return Ok(self.sweep_group(&group, (lo, last + 1))?.into());
        }
        self.sweep_read(game, last + 1, room, (0, &[]))?;
        Ok(self.native_sweep(game, (lo, last + 1), room)?.into())
    }

    /// Sweeps the other one-integer games `game`'s rules read, from the
    /// lowest of their positions below `end` without a value up to `end`,
    /// and theirs first, a few games deep: a game whose moves go to
    /// another (`h(n)` to `g(n - k)`), asked at n = 0, 1, 2, ..., then
    /// finds its options' values made when its own positions are swept.
    /// Positions of the other games that the asks would not reach are
    /// swept too, at most as many as `end`.
    fn sweep_read(
        &mut self,
        game: GameId,
        end: u32,
        room: usize,
        (depth, except): (u32, &[GameId]),
    ) -> RtResult<()> {
        const DEEPEST: u32 = 4;
        let Some(kernel) = self.kernel(game).filter(|_| depth < DEEPEST) else {
            return Ok(());
        };
        let read: Vec<GameId> = (kernel.reads().iter())
            .filter(|(g, n)| *g != game && *n == 1 && !except.contains(g))
            .map(|(g, _)| *g)
            .collect();
        for g in read {
            // A game only asked about (`value(sub(k))` in a guard) may
            // have no position yet: its table starts at 0.
            if self.graph.dense(g).is_none_or(|d| d.arity() == 0) {
                self.intern_ints(g, &[0]);
            }
            let Some(dense) = self.graph.dense(g).filter(|d| d.arity() == 1) else {
                continue;
            };
            let bottom = dense.unvalued_below(end);
            if bottom < end && self.kernel(g).is_some_and(|k| k.short()) {
                // A game moving back and forth with others is swept with them.
                if let Some(group) = self.group_of(g, end - bottom) {
                    self.sweep_group(&group, (bottom, end))?;
                    continue;
                }
                self.sweep_read(g, end, room, (depth + 1, except))?;
                self.native_sweep(g, (bottom, end), room)?;
            }
        }
        Ok(())
    }

    /// Evaluates the positions `(a, b)` of a two-integer `game`, `a` in
    /// `a0..a1` and `b` in `b0..b1`, as [`Machine::sweep_square`] does,
    /// with those of the square around them: for a table of them. Only
    /// when that square is not much larger than the rectangle.
    pub(in crate::runtime) fn sweep_rectangle(
        &mut self,
        game: GameId,
        (a0, a1): (i64, i64),
        (b0, b1): (i64, i64),
    ) -> RtResult<()> {
        let side = a1.max(b1);
        if a0 < 0 || b0 < 0 || a0 >= a1 || b0 >= b1 || side > graph::SIDE_MAX {
            return Ok(());
        }
        if side * side > 4 * (a1 - a0) * (b1 - b0) {
            return Ok(());
        }
        // Every position of the rectangle is asked for: the graph holds
        // them in any case, as many as the search may reach.
        let room = self.limits.max_states.max(self.sweep_room());
        self.sweep_square(game, ((side * side) as u32, room), || true)?;
        Ok(())
    }

    /// The sweep of positions `from..to` of `game` by its machine code, by
    /// dense index (for two integers, shell by shell of the square), in
    /// chunks between looks at the clock, with the kernel's run taking
    /// each position the machine code leaves, but one without options
    /// (flagged `TERMINAL`: valued 0 and recorded here). A square's
    /// slots are made at once, a line's a chunk at a time. Returns where
    /// it stopped: the positions below have values, but for those of a
    /// square it left and went on past (see [`Skips`]).
    fn native_sweep(
        &mut self,
        game: GameId,
        (mut from, to): (u32, u32),
        room: usize,
    ) -> RtResult<u32> {
        let Some(kernel) = self.sweeping(game, to.saturating_sub(from)) else {
            return Ok(from);
        };
        // Two integers, or a tuple of two the kernel splits into them.
        let form = kernel.own_form().filter(|_| kernel.split_ints() == Some(2));
        let square = (self.graph.dense(game))
            .is_some_and(|d| d.arity() == 2 || (d.free() == 2 && form.is_some()));
        let mut to = to;
        if square {
            // The square below `to`, or as much of it as there is room for.
            let side = (to.max(1) - 1).isqrt() as usize + 1;
            let fits = room.saturating_sub(self.graph.len()).isqrt();
            let claim = |graph: &mut graph::Graph, side: usize| {
                side > 0
                    && graph
                        .claim_rect((game, form), ((0, side - 1), (0, side - 1)), (room, false))
                        .is_some()
            };
            match claim(&mut self.graph, side) {
                true => {}
                false if fits < side && claim(&mut self.graph, fits) => {
                    to = to.min((fits * fits) as u32);
                }
                false => return Ok(from),
            }
        }
        // Only a game's first sweep goes on past positions (see `Skips`).
        let skipping = square && !self.squares_skipped.contains(&game);
        let mut skips = Skips::default();
        while from < to {
            self.poll()?;
            let chunk = to.min(from.saturating_add(CHUNK));
            let end = match square {
                true => chunk,
                false => self.graph.claim_dense(game, from, chunk, room),
            };
            let Scratch { marks, views, .. } = &mut self.scratch;
            let (stopped, paused, terminal) =
                kernel.native_sweep((&self.defs, &self.graph), (game, from, end), marks, views);
            skips.ran += u64::from(stopped - from);
            self.native_swept += u64::from(stopped - from);
            if paused {
                from = stopped;
            } else if terminal {
                // A position without options: 0, and terminal (which a
                // result's display leaves out, `show_result`).
                let node = NodeId {
                    game,
                    index: stopped,
                };
                self.graph.set_value(node, 0);
                self.graph.set_terminal(node);
                skips.ran += 1;
                from = stopped + 1;
            } else if stopped < end {
                let at = NodeId {
                    game,
                    index: stopped,
                };
                if skips.count > 0 || !self.left_finds_value(at)? {
                    // A square's position left unknown: the search values
                    // it if the play reaches it (see `Skips`).
                    if !skipping || !skips.skip() {
                        return Ok(skips.first.unwrap_or(stopped));
                    }
                    skips.first.get_or_insert(stopped);
                    self.squares_skipped.insert(game);
                }
                from = stopped + 1;
            } else if end < chunk {
                // No room for more dense positions.
                return Ok(end);
            } else {
                from = end;
            }
        }
        Ok(from)
    }
}

impl Machine {
    /// Whether the kernel's run finds the value of `at`, a position a
    /// sweep (the machine code's or the kernels') left, once the hashed
    /// options it misses are valued where their own options are known:
    /// heaps below 0 (`s(n - k)` if `n > 0`), which no sweep of the dense
    /// table fills, and which the search would otherwise descend to from
    /// the top, every position above them its own (44x for one heap of
    /// 3,000,000). Only options made and not on the search's path; each
    /// is given one kernel run (which may value options of its own game
    /// in place), and none that run misses is followed further.
    fn left_finds_value(&mut self, at: NodeId) -> RtResult<bool> {
        let mut missing = Vec::new();
        if self.kernel_finds_value(at, &mut missing)? {
            return Ok(true);
        }
        let hashed = |m: &NodeId| m.index >= graph::DENSE_END;
        if missing.is_empty() || !missing.iter().all(hashed) {
            return Ok(false);
        }
        let mut deeper = Vec::new();
        for option in missing {
            match self.graph.value(option) {
                v if v < ABSENT => continue,
                UNKNOWN => {}
                _ => return Ok(false),
            }
            if !self.kernel_finds_value(option, &mut deeper)? {
                return Ok(false);
            }
        }
        self.kernel_finds_value(at, &mut Vec::new())
    }
}

/// The positions of a square a sweep left without a value and went on
/// past. A position whose options the sweep cannot value (they leave the
/// dense table, or wait for another game) need not hold up the rest:
/// Wythoff's game kept in order, `w(min(a - k, b), max(a - k, b))`, never
/// reaches `(a, b)` with `a > b`, whose options run below 0, and stopping
/// at the first of them left the whole square to the search (5x the
/// square swept). Past the first, a skipped position gets no kernel run
/// of its own (which would make its options below 0, every one); and the
/// sweep stops once it skipped [`SKIPS_FREE`] more positions than it
/// passed, so that a square whose every position waits on one costs
/// little more than that. Only a game's first such sweep goes on: the
/// search may start another each time it waits, and each would walk
/// the positions left again (5x on a square with a move up its index).
#[derive(Default)]
struct Skips {
    /// The positions left.
    count: u64,
    /// The positions the machine code passed (valued, or valued before).
    ran: u64,
    /// The first left.
    first: Option<u32>,
}

/// How many more positions than it passed a sweep may leave.
const SKIPS_FREE: u64 = 4096;

impl Skips {
    /// Counts one more position left: whether the sweep goes on.
    fn skip(&mut self) -> bool {
        self.count += 1;
        self.count <= self.ran + SKIPS_FREE
    }
}
