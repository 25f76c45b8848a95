//! The cube of a three-integer game swept by its machine code: the
//! positions `(a, b, c)` of a box, row by row of the dense table (the
//! rows are the Szudzik numbers of `(b, c)`, the columns `a`: see
//! `graph/dense/places.rs`), each valued once with its options known
//! where every move lowers one argument and raises none, as a king steps
//! towards a corner or heaps shrink. A tuple state of three items split
//! into integers (`king((x, y, z))`: `normalize/split.rs`) is swept the
//! same way, by its form's free integers.

use crate::graph;
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::GameId;

impl Machine {
    /// Values the positions `(a, b, c)` of `game`, `a` below `width` and
    /// `(b, c)` of Szudzik number below `rows`, that have no value yet, by
    /// the machine code, with the kernel's run taking each position it
    /// leaves (a terminal one); it stops at the first whose options are
    /// not all known. The box's slots are made first, within `room`
    /// positions. Returns whether it ran to the end; `None` when the game
    /// has no such machine code or no room for the box.
    pub(in crate::runtime) fn sweep_cube(
        &mut self,
        game: GameId,
        (rows, width): (i64, i64),
        room: usize,
    ) -> RtResult<Option<bool>> {
        let positions = u32::try_from(rows.saturating_mul(width)).unwrap_or(u32::MAX);
        let Some(kernel) = self.sweeping(game, positions).filter(|k| k.cube()) else {
            return Ok(None);
        };
        let form = kernel.own_form();
        let (rows_in, cols) = ((0, rows as usize - 1), (0, width as usize - 1));
        if rows < 1
            || width < 1
            || self
                .graph
                .claim_cube((game, form), (rows_in, cols), room)
                .is_none()
        {
            return Ok(None);
        }
        let (mut from, mut left) = (0, None);
        while from < rows {
            self.poll()?;
            let Scratch { marks, views, .. } = &mut self.scratch;
            let graph = (&self.defs, &self.graph);
            let ((row, col), paused) =
                kernel.native_cube(graph, (game, (from, rows), width), marks, views);
            from = row;
            if paused || row >= rows {
                continue;
            }
            // Left twice, the code did not pass over the value just found:
            // the rest is the search's (never a loop without progress).
            let (b, c) = graph::unpair(row as u32);
            let at = [col, b as i64, c as i64];
            let valued = left.replace((row, col)) != Some((row, col))
                && match self.graph.find_formed((game, form), &at) {
                    Some(node) => self.kernel_finds_value(node, &mut Vec::new())?,
                    None => false,
                };
            if !valued {
                return Ok(Some(false));
            }
        }
        Ok(Some(true))
    }

    /// Makes the position of `game` at `corner`, its integers, as
    /// arguments or as one tuple or list (`items`, its shape), when the
    /// kernel splits that state into them (the rules compiled for its
    /// length if need be): the dense table then has their count, or
    /// their form. Whether it was made (or found).
    pub(in crate::runtime) fn corner(
        &mut self,
        game: GameId,
        corner: &[i64],
        items: Option<graph::Shape>,
    ) -> bool {
        let Some(shape) = items else {
            return self.intern_ints(game, corner).is_some();
        };
        let mut kernel = self.kernel(game);
        // Rules that take lists, or that compile only for a length
        // (`zip(0..len(hs), hs)`): compiled for the corner's.
        let retype = match &kernel {
            Some(k) => k.split_ints().is_none() && k.takes_lists(),
            None => self.lengths_untried(game),
        };
        if retype {
            let mut run = vec![
                graph::flat::header([shape].into_iter()),
                corner.len() as i64,
            ];
            run.extend_from_slice(corner);
            self.fixed_by_position(game, &run);
            kernel = self.kernel(game);
        }
        let Some(kernel) = kernel.filter(|k| k.split_ints() == Some(corner.len())) else {
            return false;
        };
        let mut run = Vec::new();
        kernel.own_run(corner, &mut run);
        // The one tuple or list the query asks, as the kernel splits it.
        let asked = |h: i64| graph::flat::arity(h) == 1 && graph::flat::shape(h, 0) == shape;
        run.first().is_some_and(|&h| asked(h)) && self.intern_flat(game, &run).is_some()
    }

    /// The box of a three-integer `game`'s positions a query asks, each
    /// argument over `ends` (each `lo..hi`), as arguments or as one tuple
    /// or list (`items`, its shape), swept first by [`Machine::sweep_cube`] from 0 (the rows of
    /// the cube below its far corner): when the game's machine code sweeps
    /// cubes and the box is most of that. Whether it swept it.
    pub(in crate::runtime) fn sweep_box(
        &mut self,
        game: GameId,
        ends: [(i64, i64); 3],
        items: Option<graph::Shape>,
    ) -> RtResult<bool> {
        let [(a0, a1), (b0, b1), (c0, c1)] = ends;
        let side = b1.max(c1);
        let inside = |lo: i64, hi: i64| 0 <= lo && hi <= graph::SIDE3_MAX;
        if !(inside(a0, a1) && inside(b0, b1) && inside(c0, c1)) {
            return Ok(false);
        }
        let asked = (a1 - a0) * (b1 - b0) * (c1 - c0);
        if a1 * side * side > 4 * asked || !self.corner(game, &[a0, b0, c0], items) {
            return Ok(false);
        }
        let Some(kernel) = self.kernel(game).filter(|k| k.cube()) else {
            return Ok(false);
        };
        if kernel.own_form().is_some() != items.is_some() {
            return Ok(false);
        }
        // Every position of the box is asked for: the graph holds them in
        // any case, as many as the search may reach.
        let room = self.limits.max_states.max(self.sweep_room());
        Ok(self.sweep_cube(game, (side * side, a1), room)?.is_some())
    }

    /// The cube below the dense index `end` of a three-integer `game`
    /// (its shells below `m`, `m³ >= end`) swept by [`Machine::sweep_cube`]:
    /// whether all of it now has values.
    pub(super) fn sweep_cube_below(
        &mut self,
        game: GameId,
        end: u32,
        room: usize,
    ) -> RtResult<bool> {
        let side = (1..=graph::SIDE3_MAX).find(|m| m * m * m >= i64::from(end));
        let Some(side) = side else {
            return Ok(false);
        };
        Ok(self.sweep_cube(game, (side * side, side), room)? == Some(true))
    }
}
