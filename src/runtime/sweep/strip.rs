//! The sweep of a strip: the positions of a two-integer game below a
//! large one, when one argument keeps to a few values (see
//! [`crate::runtime::kernel::Strip`]), evaluated row after row from the
//! bottom, as the hand-written program fills its table, instead of
//! descended one at a time by the search.

use crate::graph::{ABSENT, IN_PROGRESS};
use crate::runtime::kernel::Strip;
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::{GameId, NodeId};

/// The fewest rows without values below a position worth a sweep.
const SHORTEST: i64 = 64;
/// How far below a position the option that starts a sweep may be.
const GAP: i64 = 4;

impl Machine {
    /// The strip below `node`, which waits for `waited`, when its game has
    /// a strip and some waited option of its own is a few rows below it:
    /// the rows without values from the lowest up to `node`'s, each of
    /// the strip's columns in turn, while each position finds all its
    /// options known. Returns as [`Machine::sweep`] does; `None` when
    /// this is no such strip.
    pub(in crate::runtime) fn sweep_strip(
        &mut self,
        node: NodeId,
        waited: &[NodeId],
    ) -> RtResult<Option<bool>> {
        let Some(strip) = self.kernel(node.game).and_then(|k| k.strip()) else {
            return Ok(None);
        };
        let long = strip.long;
        let Some(at) = self.pair(node) else {
            return Ok(None);
        };
        let below = |c: &NodeId| {
            c.game == node.game
                && self
                    .pair(*c)
                    .is_some_and(|c| c[long] < at[long] && at[long] - c[long] <= GAP)
        };
        if !waited.iter().any(below) {
            return Ok(None);
        }
        let own = at[1 - long];
        let extra = (strip.keeps && !strip.holds(own)).then_some(own);
        let low = self.strip_bottom((node.game, strip), at[long], extra);
        if at[long] - low < SHORTEST {
            return Ok(None);
        }
        self.strip_rows((node.game, strip), (low, at[long]), extra)
            .map(Some)
    }

    /// The lowest row below `row` from which on no row of the strip (its
    /// columns and column `extra`) has all its values.
    fn strip_bottom(&self, (game, strip): (GameId, Strip), row: i64, extra: Option<i64>) -> i64 {
        let cols: Vec<i64> = (strip.cols.0..=strip.cols.1).chain(extra).collect();
        let valued = |row: i64| {
            (cols.iter()).all(|c| self.graph.int_value(game, &strip.place(row, *c)) < ABSENT)
        };
        let mut low = row;
        while low > 0 && !valued(low - 1) {
            low -= 1;
        }
        low
    }

    /// The positions of `game`'s strip in rows `from..to`, for a query
    /// that asks them in turn in column `col`: as a table's, before they
    /// are asked.
    pub(in crate::runtime) fn sweep_strip_range(
        &mut self,
        (game, col): (GameId, i64),
        (from, to): (i64, i64),
    ) -> RtResult<()> {
        let Some(strip) = self.kernel(game).and_then(|k| k.strip()) else {
            return Ok(());
        };
        let extra = (!strip.holds(col)).then_some(col);
        // From the lowest row without all its values: the rows just below
        // those asked may have only some, the options of those asked.
        let low = self.strip_bottom((game, strip), from.max(0), extra);
        self.strip_rows((game, strip), (low, to), extra)?;
        Ok(())
    }

    /// The positions of `game`'s strip in rows `low..top`: its columns by
    /// machine code where there is some, then those left, and those of
    /// column `extra` too, position by position, while each finds all its
    /// options known. Returns whether it found any value.
    fn strip_rows(
        &mut self,
        (game, strip): (GameId, Strip),
        (low, top): (i64, i64),
        extra: Option<i64>,
    ) -> RtResult<bool> {
        let (done, with_extra) = self.strip_by_code((game, strip), (low, top), extra)?;
        let mut found = done > low;
        let cols: Vec<i64> = (strip.cols.0..=strip.cols.1).chain(extra).collect();
        let room = self.sweep_room();
        let mut ignored = Vec::new();
        let from = if extra.is_some() && !with_extra {
            low
        } else {
            done
        };
        for row in from..top {
            if row % 256 == 0 {
                self.poll()?;
            }
            for col in &cols {
                let args = strip.place(row, *col);
                match self.graph.int_value(game, &args) {
                    v if v < ABSENT => continue,
                    // A position on the search path is the search's.
                    IN_PROGRESS => return Ok(found),
                    _ => {}
                }
                let position = match self.graph.len() < room {
                    true => self.intern_ints(game, &args),
                    false => self.graph.find_ints(game, &args),
                };
                let Some(position) = position else {
                    return Ok(found);
                };
                if !self.kernel_finds_value(position, &mut ignored)? {
                    return Ok(found);
                }
                ignored.clear();
                found = true;
            }
        }
        Ok(found)
    }

    /// The strip's columns in rows `low..top`, and column `extra` if any,
    /// by the game's machine code, a chunk of rows at a time, their slots
    /// made first, with the kernel's run taking each position the code
    /// leaves. Returns the row below which all have values, and whether
    /// those of column `extra` too.
    fn strip_by_code(
        &mut self,
        (game, strip): (GameId, Strip),
        (low, top): (i64, i64),
        mut extra: Option<i64>,
    ) -> RtResult<(i64, bool)> {
        const CHUNK: i64 = 1 << 14;
        let (c0, c1) = strip.cols;
        let positions = (top - low).saturating_mul(c1 - c0 + 1);
        let positions = u32::try_from(positions).unwrap_or(u32::MAX);
        let kernel = match self.use_native {
            true => self
                .kernel(game)
                .filter(|k| k.native_for(positions, self.native_after)),
            false => None,
        };
        let Some(kernel) = kernel else {
            return Ok((low, false));
        };
        let room = self.sweep_room();
        let (mut row, mut with_extra) = (low, extra.is_some());
        while row < top {
            self.poll()?;
            let end = top.min(row + CHUNK);
            let rect = |(c0, c1): (i64, i64)| {
                let ([a0, b0], [a1, b1]) = (strip.place(row, c0), strip.place(end - 1, c1));
                ((a0 as usize, a1 as usize), (b0 as usize, b1 as usize))
            };
            if self.graph.claim_rect(game, rect((c0, c1)), room).is_none() {
                return Ok((row, false));
            }
            // The extra column where its slots can be made, and (when the
            // first argument runs long) within the slots the rows hold for
            // the strip's own columns: column 50 beside columns 1 to 4
            // would make each row 16 times longer.
            let width = (c1 as u64 + 1).next_power_of_two().max(4) as i64;
            let fits = |c: i64| strip.long == 1 || c < width;
            if let Some(c) = extra
                && (!fits(c) || self.graph.claim_rect(game, rect((c, c)), room).is_none())
            {
                (extra, with_extra) = (None, false);
            }
            let Scratch { marks, views, .. } = &mut self.scratch;
            let graph = (&self.defs, &self.graph);
            let run = (game, (row, end), extra);
            let ((stopped, col), paused) = kernel.native_strip(graph, run, marks, views);
            row = stopped;
            if paused || stopped >= end {
                continue;
            }
            // A position the machine code left: the kernel's run, then
            // the same row again (its positions with values are passed
            // over).
            let valued = match self.graph.find_ints(game, &strip.place(stopped, col)) {
                Some(at) => self.kernel_finds_value(at, &mut Vec::new())?,
                None => false,
            };
            if !valued {
                return Ok((row, false));
            }
        }
        Ok((row, with_extra))
    }

    /// The two integers of `node`, a position of a two-integer game.
    fn pair(&self, node: NodeId) -> Option<[i64; 2]> {
        let mut args = Vec::with_capacity(2);
        match self.graph.int_args(node, &mut args) {
            true => args.try_into().ok(),
            false => None,
        }
    }
}
