//! The functions of a kernel's machine code that write values into its
//! own game's dense table: the sweeps of one and two integers, a board's
//! levels, a strip's rows, a row of four integers.

use super::{Call, Code, Native, views_of};
use crate::defs::Defs;
use crate::graph::{Dense, Graph, View};
use crate::runtime::kernel::{Kernel, Marks};
use crate::value::GameId;

impl Native {
    /// The values of the positions `from..to` of `game`, the kernel's own
    /// game, by dense index (for two arguments, Szudzik's order: shell
    /// after shell of the square), found in turn and written into its
    /// dense table, whose slots for them the caller has made. Returns
    /// where it stopped: `to`, or the first position it left to the
    /// kernel's run, or a position without options (the last true), for
    /// the caller to value and record as terminal; or where it paused
    /// after enough work (the first true).
    pub fn sweep(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        (game, from, to): (GameId, u32, u32),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> (u32, bool, bool) {
        let Some(code) = self.sweep.filter(|_| from < to) else {
            return (from, false, false);
        };
        let run = (code, (from.into(), to.into()), to - from);
        match self.own_run(kernel, (defs, graph), game, run, (marks, views)) {
            Some((stopped, paused)) => {
                let terminal = stopped & super::TERMINAL != 0;
                let stopped = stopped & !super::TERMINAL;
                debug_assert!(stopped <= to.into());
                (stopped as u32, paused, terminal)
            }
            None => (from, false, false),
        }
    }

    /// The values of the positions `bottom..top` of `game`, a one-integer
    /// game whose options lie above its positions, from the top down, as
    /// [`Native::sweep`] finds them from the bottom up. Returns where it
    /// stopped: `bottom`, or one past the position it left to the kernel's
    /// run, or where it paused (true), below which it goes on.
    pub fn sweep_down(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        (game, bottom, top): (GameId, u32, u32),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> (u32, bool) {
        let Some(code) = self.sweep.filter(|_| 0 < bottom && bottom < top) else {
            return (top, false);
        };
        let run = (code, ((top - 1).into(), (bottom - 1).into()), top - bottom);
        match self.own_run(kernel, (defs, graph), game, run, (marks, views)) {
            Some((stopped, paused)) => {
                // A position without options is left to the kernel's run,
                // as any other it stops at.
                let stopped = stopped & !super::TERMINAL;
                debug_assert!(stopped < top.into());
                (stopped as u32 + 1, paused)
            }
            None => (top, false),
        }
    }

    /// The positions `(a, b, c, d)` of a four-integer game, `a` in
    /// `from..to`, found in turn and written into its dense table, whose
    /// slots for them the caller has made. Returns where it stopped: `to`,
    /// or the first `a` it left to the kernel's run; or where it paused
    /// after enough work (true).
    pub fn quad_row(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        (game, [b, c, d], (from, to)): (GameId, [u16; 3], (u32, u32)),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> (u32, bool) {
        // The machine code takes every argument to be inside the table.
        let inside = to <= crate::graph::SIDE4_MAX as u32
            && [b, c, d]
                .iter()
                .all(|x| i64::from(*x) < crate::graph::SIDE4_MAX);
        let Some(code) = self
            .sweep
            .filter(|_| from < to && kernel.arity == 4 && inside)
        else {
            return (from, false);
        };
        let row = u64::from(b) | u64::from(c) << 16 | u64::from(d) << 32;
        let cols = u64::from(from) | u64::from(to) << 32;
        let run = (code, (row, cols), to - from);
        match self.own_run(kernel, (defs, graph), game, run, (marks, views)) {
            Some((stopped, paused)) => (stopped as u32, paused),
            None => (from, false),
        }
    }

    /// [`Kernel::native_levels`]: the board's levels `from..to`.
    pub fn levels(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        (game, from, to): (GameId, i64, i64),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> ((i64, i64), bool) {
        let (Some(code), Some(levels)) = (self.levels, kernel.levels) else {
            return ((from, 0), false);
        };
        if from >= to {
            return ((from, 0), false);
        }
        let cells = (levels.rows.1 - levels.rows.0 + 1) * (levels.cols.1 - levels.cols.0 + 1);
        let run = (
            code,
            (from as u64, to as u64),
            cells.clamp(1, u32::MAX.into()) as u32,
        );
        self.counted_run(kernel, (defs, graph), game, run, (marks, views))
            .unwrap_or(((from, 0), false))
    }

    /// [`Kernel::native_strip`]: the strip's rows `from..to`, with columns
    /// `extra` if any (as [`Strip::extras`] makes them).
    pub fn strip(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        (game, (from, to), extra): (GameId, (i64, i64), Option<(i64, i64)>),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> ((i64, i64), bool) {
        let (Some(code), Some(strip)) = (self.strip, kernel.strip) else {
            return ((from, 0), false);
        };
        // A strip of no columns of its own sweeps only an extra one.
        if from >= to || (strip.kept() && extra.is_none()) {
            return ((from, 0), false);
        }
        // The last extra column, plus one, in the high half of the first
        // row: the machine code knows the first from it (see
        // `Strip::extras`), and takes no other.
        let high = match extra {
            None => 0,
            Some((e0, e1))
                if (0..u32::MAX.into()).contains(&e1)
                    && e0 == strip.first(e1)
                    && !strip.holds(e1) =>
            {
                e1 + 1
            }
            Some(_) => return ((from, 0), false),
        };
        let extras = extra.map_or(0, |(e0, e1)| e1 - e0 + 1);
        let cols = strip.cols.1 - strip.cols.0 + 1 + extras;
        let positions = (to - from).saturating_mul(cols);
        let positions = positions.clamp(1, u32::MAX.into()) as u32;
        let first = (from as u64) | ((high as u64) << 32);
        let run = (code, (first, to as u64), positions);
        self.counted_run(kernel, (defs, graph), game, run, (marks, views))
            .unwrap_or(((from, 0), false))
    }

    /// [`Kernel::native_cube`]: the cube's rows `from..to`, columns
    /// `0..width`.
    pub fn cube(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        (game, (from, to), width): (GameId, (i64, i64), i64),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> ((i64, i64), bool) {
        let Some(code) = self.cube.filter(|_| from < to && width > 0) else {
            return ((from, 0), false);
        };
        let positions = (to - from).saturating_mul(width);
        let positions = positions.clamp(1, u32::MAX.into()) as u32;
        let first = (from as u64) | ((width as u64) << 32);
        let run = (code, (first, to as u64), positions);
        self.counted_run(kernel, (defs, graph), game, run, (marks, views))
            .unwrap_or(((from, 0), false))
    }

    /// [`Kernel::native_strip3`]: the strips' rows `from..to`, each pair
    /// of short arguments in the box `cells`.
    pub fn strip3(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        (game, (from, to), cells): (GameId, (i64, i64), [(i64, i64); 2]),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> ((i64, i64), bool) {
        let [(s0, s1), (t0, t1)] = cells;
        let fits = |v: i64| (0..crate::graph::STRIP3_WIDTH).contains(&v);
        let past = crate::graph::SIDE3_MAX <= from && to <= crate::graph::LONG3_MAX;
        let Some(code) = self
            .strip3
            .filter(|_| from < to && past && [s0, s1, t0, t1].into_iter().all(fits))
        else {
            return ((from, 0), false);
        };
        let positions = (to - from).saturating_mul((s1 - s0 + 1) * (t1 - t0 + 1));
        let positions = positions.clamp(1, u32::MAX.into()) as u32;
        let first = (from as u64)
            | (s0 as u64) << 32
            | (s1 as u64) << 36
            | (t0 as u64) << 40
            | (t1 as u64) << 44;
        let run = (code, (first, to as u64), positions);
        self.counted_run(kernel, (defs, graph), game, run, (marks, views))
            .unwrap_or(((from, 0), false))
    }

    /// [`Native::own_run`] of a function that walks by two counters and
    /// returns them as one (`high << 32 | low`): the counters where it
    /// stopped, and whether it paused.
    fn counted_run(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        game: GameId,
        run: (Code, (u64, u64), u32),
        (marks, views): (&mut Marks, &mut Vec<View>),
    ) -> Option<((i64, i64), bool)> {
        let (stopped, paused) = self.own_run(kernel, (defs, graph), game, run, (marks, views))?;
        let counters = ((stopped >> 32) as i64, (stopped & 0xffff_ffff) as i64);
        Some((counters, paused))
    }

    /// Runs `code`, a function that writes values into the kernel's own
    /// game's dense table (a sweep, a square, a board's levels), with its
    /// two arguments, for at most `positions` positions: what it returned,
    /// without [`super::PAUSED`], and whether that was set. `None` when the game
    /// has no such table or a target changed its arity.
    fn own_run(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        game: GameId,
        (code, args, positions): (Code, (u64, u64), u32),
        (marks, views): (&mut Marks, &mut Vec<View>),
    ) -> Option<(u64, bool)> {
        // A strip of positions with a boolean, or a board of tuples, is
        // read by its form's free integers, as one of pairs is by its
        // arguments.
        let form = kernel.own_form();
        let own = graph.dense(game).filter(|d| match form {
            None => d.arity() == kernel.arity,
            Some(code) => d.free() == kernel.arity && d.view().form == code,
        });
        if !views_of(&kernel.targets, (defs, graph), views) {
            return None;
        }
        // The own table has the slots the function writes (the caller made
        // them), and nothing else reads or writes it during the call.
        let own = own.map(Dense::view)?;
        let call = Call {
            targets: &kernel.targets,
            single: kernel.single,
            defs,
            graph,
            views,
            own: &own,
            deep: std::ptr::null_mut(),
        };
        Some(call.run_writing(code, args, positions, marks))
    }
}
