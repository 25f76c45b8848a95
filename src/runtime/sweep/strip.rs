//! The sweep of a strip: the positions of a two-integer game below a
//! large one, when one argument keeps to a few values (see
//! [`crate::runtime::kernel::Strip`]), evaluated row after row from the
//! bottom, as the hand-written program fills its table, instead of
//! descended one at a time by the search.

use super::evidence::FREELY;
use crate::graph::{self, ABSENT, IN_PROGRESS};
use crate::runtime::kernel::Strip;
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::{GameId, NodeId};

/// The fewest rows without values below a position worth a sweep.
const SHORTEST: i64 = 64;
/// How far below a position the option that starts a sweep may be.
const GAP: i64 = 4;

/// A strip's game and the extra columns of a walk down it, and the rows
/// `lo..hi` it found without all their values.
pub(in crate::runtime) type Walked = ((GameId, Option<(i64, i64)>), (i64, i64));

impl Machine {
    /// The strip below `node`, which waits for `waited`, when its game has
    /// a strip and some waited option of its own is a few rows below it:
    /// the rows without values from the lowest up to `node`'s, each of
    /// the strip's columns in turn, while each position finds all its
    /// options known. Returns as [`Machine::sweep`] does; `None` when
    /// this is no such strip, or a long strip of no columns of its own
    /// (see [`Strip::kept`]) the search came down to by no `chain`
    /// (asked only then).
    pub(in crate::runtime) fn sweep_strip(
        &mut self,
        node: NodeId,
        waited: &[NodeId],
        chain: impl FnOnce() -> Vec<NodeId>,
    ) -> RtResult<Option<bool>> {
        let Some(strip) = self.kernel(node.game).and_then(|k| k.strip()) else {
            return Ok(None);
        };
        let long = strip.long;
        // Rows past the dense strips are hashed, and their options found
        // in place by the machine code (`native/deep.rs`).
        let Some(at) = self
            .pair(node, strip)
            .filter(|at| at[long] < graph::LONG_MAX)
        else {
            return Ok(None);
        };
        let own = at[1 - long];
        // The columns past the strip's the sweep fills: the position's
        // own, and those below it of a counter counted down.
        let extra = strip.extras(own, false);
        // An option a few rows below, in a column the sweep fills: one the
        // position's own column leads out of the strip's (`min(t, 3)` from
        // column 7, with the strip's found from column 0) is not.
        let below = |c: &NodeId| {
            c.game == node.game
                && self.pair(*c, strip).is_some_and(|c| {
                    let col = c[1 - long];
                    c[long] < at[long]
                        && at[long] - c[long] <= GAP
                        && (strip.holds(col) || extra.is_some_and(|(a, b)| (a..=b).contains(&col)))
                })
        };
        if !waited.iter().any(below) {
            return Ok(None);
        }
        // A column of its own may be far longer than the positions the
        // search reaches (`s(n / (k + 1), c)`, and `s(n - 1, c)` from odd
        // `n`): past a few milliseconds' work, swept only once the search
        // came down by a chain of small steps, as a line is. (A strip of
        // its own columns changes them as it steps, which no chain of one
        // argument shows.)
        if strip.kept() && at[long] > i64::from(FREELY) && !self.strip_chain(strip, chain()) {
            return Ok(None);
        }
        let Some(low) = self.strip_bottom((node.game, strip), at[long], extra)? else {
            return Ok(None);
        };
        if at[long] - low < SHORTEST {
            return Ok(None);
        }
        self.strip_rows((node.game, strip), (low, at[long]), extra)
            .map(Some)
    }

    /// Whether the search came down to the last of `path` (the top of its
    /// path, positions of the strip's game) by a chain of steps down the
    /// strip's long argument (see [`super::descended_along`]).
    fn strip_chain(&self, strip: Strip, path: Vec<NodeId>) -> bool {
        let pairs: Option<Vec<[i64; 2]>> = path.iter().map(|n| self.pair(*n, strip)).collect();
        pairs.is_some_and(|pairs| super::descended_along(&pairs, strip.long))
    }

    /// The lowest row below `row` from which on no row of the strip (its
    /// columns and columns `extra`) has all its values; `None` when those
    /// rows would fill more than half the room the graph has left for a
    /// sweep. The search may reach only a few of the strip's positions
    /// (one column in two, of a turn flag that only some moves flip), and
    /// a sweep must not take the room it needs.
    fn strip_bottom(
        &mut self,
        (game, strip): (GameId, Strip),
        row: i64,
        extra: Option<(i64, i64)>,
    ) -> RtResult<Option<i64>> {
        let cols = strip.columns(extra);
        if cols.is_empty() {
            return Ok(None);
        }
        let free = self.sweep_room().saturating_sub(self.graph.len());
        let most = (free / 2 / cols.len()) as i64;
        // Rows `low..row` are known to lack values. A search that
        // descends row by row, each row too far above the bottom for a
        // sweep, would walk the same rows again at each: it resumes where
        // the walk before stopped. (Rows valued since are no sweep's
        // loss: it passes over positions with values.)
        // One entry for each strip: two games that hand the search to
        // each other would otherwise each walk again what the other's
        // walk replaced.
        let key = (game, extra);
        let kept = self.strip_walked.iter().position(|(k, _)| *k == key);
        let (mut low, top) = match kept.map(|i| self.strip_walked[i].1) {
            Some((lo, hi)) if lo < row && row <= hi => (lo, hi),
            _ => (row, row),
        };
        loop {
            if low == 0 {
                self.walked(key, None);
                return Ok(Some(low));
            }
            if row - low > most {
                self.walked(key, Some((low, top)));
                return Ok(None);
            }
            if low % (1 << 16) == 0 {
                self.poll()?;
            }
            self.strip_rows_walked += 1;
            let valued = (cols.iter())
                .all(|c| self.strip_value((game, strip), strip.place(low - 1, *c)) < ABSENT);
            if valued {
                self.walked(key, None);
                return Ok(Some(low));
            }
            low -= 1;
        }
    }

    /// Keeps `rows` as those the walk of the strip `key` found without
    /// all their values, or forgets them (`None`): a few strips at most,
    /// the oldest forgotten first.
    fn walked(&mut self, key: (GameId, Option<(i64, i64)>), rows: Option<(i64, i64)>) {
        const KEPT: usize = 8;
        self.strip_walked.retain(|(k, _)| *k != key);
        if let Some(rows) = rows {
            if self.strip_walked.len() == KEPT {
                self.strip_walked.remove(0);
            }
            self.strip_walked.push((key, rows));
        }
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
        let extra = strip.extras(col, true);
        // From the lowest row without all its values: the rows just below
        // those asked may have only some, the options of those asked. A
        // strip has no row below 0.
        let top = to.min(graph::LONG_MAX);
        if top < 0 {
            return Ok(());
        }
        if let Some(low) = self.strip_bottom((game, strip), from.clamp(0, top), extra)? {
            self.strip_rows((game, strip), (low, top), extra)?;
        }
        Ok(())
    }

    /// The positions of `game`'s strip in rows `low..top`: its columns by
    /// machine code where there is some, then those left, and those of
    /// columns `extra` too, position by position, while each finds all its
    /// options known. Returns whether it found any value.
    fn strip_rows(
        &mut self,
        (game, strip): (GameId, Strip),
        (low, top): (i64, i64),
        extra: Option<(i64, i64)>,
    ) -> RtResult<bool> {
        let cols = strip.columns(extra);
        // At most half the room left for a sweep (see `strip_bottom`).
        let free = self.sweep_room().saturating_sub(self.graph.len());
        let top = top.min(low.saturating_add((free / 2 / cols.len()) as i64));
        let (done, with_extra) = self.strip_by_code((game, strip), (low, top), extra)?;
        let mut found = done > low;
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
                match self.strip_value((game, strip), args) {
                    v if v < ABSENT => continue,
                    // A position on the search path is the search's.
                    IN_PROGRESS => return Ok(found),
                    _ => {}
                }
                let Some(position) = self.strip_position((game, strip), args, room) else {
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

    /// The strip's columns in rows `low..top`, and columns `extra` if any,
    /// by the game's machine code, a chunk of rows at a time, their slots
    /// made first, with the kernel's run taking each position the code
    /// leaves. Returns the row below which all have values, and whether
    /// those of columns `extra` too.
    fn strip_by_code(
        &mut self,
        (game, strip): (GameId, Strip),
        (low, top): (i64, i64),
        mut extra: Option<(i64, i64)>,
    ) -> RtResult<(i64, bool)> {
        const CHUNK: i64 = 1 << 14;
        let positions = (top - low).saturating_mul(strip.columns(extra).len() as i64);
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
        let (mut row, mut with_extra) = (low, extra.is_some());
        // The rows below this have their slots: made a chunk at a time,
        // not again for each position the code leaves (every third row
        // of a game whose positions `n % 3 == 0` have no move).
        let mut claimed = low;
        // The position the code left last: left again, it is the code's
        // to pass over and it did not, so the rest is the kernel's run's
        // (never a loop that makes no progress).
        let mut left = None;
        while row < top {
            self.poll()?;
            if row >= claimed {
                let end = top.min(row + CHUNK);
                match self.claim_strip((game, strip), (row, end), extra) {
                    Some(kept) => (extra, with_extra) = (kept, with_extra && kept.is_some()),
                    None => return Ok((row, false)),
                }
                claimed = end;
            }
            let Scratch { marks, views, .. } = &mut self.scratch;
            let graph = (&self.defs, &self.graph);
            let run = (game, (row, claimed), extra);
            let ((stopped, col), paused) = kernel.native_strip(graph, run, marks, views);
            row = stopped;
            if paused || stopped >= claimed {
                continue;
            }
            // A position the machine code left: the kernel's run, then
            // the same row again (its positions with values are passed
            // over).
            let at = strip.place(stopped, col);
            if left.replace(at) == Some(at) {
                return Ok((row, false));
            }
            let valued = match self.strip_position((game, strip), at, 0) {
                Some(at) => self.kernel_finds_value(at, &mut Vec::new())?,
                None => false,
            };
            if !valued {
                return Ok((row, false));
            }
        }
        Ok((row, with_extra))
    }

    /// Makes the slots of the strip's rows `row..end`, and of columns
    /// `extra` there where they fit: `None` when the graph has no room for
    /// the strip's own; else the extra columns, if their slots were made.
    fn claim_strip(
        &mut self,
        (game, strip): (GameId, Strip),
        (row, end): (i64, i64),
        extra: Option<(i64, i64)>,
    ) -> Option<Option<(i64, i64)>> {
        let room = self.sweep_room();
        let (c0, c1) = strip.cols;
        let rect = |(c0, c1): (i64, i64)| {
            let ([a0, b0], [a1, b1]) = (strip.place(row, c0), strip.place(end - 1, c1));
            ((a0 as usize, a1 as usize), (b0 as usize, b1 as usize))
        };
        let table = (game, strip.form);
        // A strip of no columns of its own has the rows' slots up to the
        // one it fills (see `Strip::kept`).
        if strip.kept() {
            let e = extra?;
            return self
                .graph
                .claim_rect(table, rect(e), (room, true))
                .map(|_| extra);
        }
        // The extra columns where their slots can be made, and (when the
        // first argument runs long) within the slots the rows hold for
        // the strip's own columns: column 50 beside columns 1 to 4 would
        // make each row 16 times longer. A counter counted down needs
        // each column up to the one asked.
        let width = (c1 as u64 + 1).next_power_of_two().max(4) as i64;
        let extra = extra.filter(|(_, c)| strip.long == 1 || *c < width || strip.down);
        // Those beside the strip's own are made with them, in one pass
        // over the rows (a heap and a flag: both columns).
        if let Some((e0, e1)) = extra
            && (e1 + 1 == c0 || e0 == c1 + 1)
            && self
                .graph
                .claim_rect(table, rect((c0.min(e0), c1.max(e1))), (room, true))
                .is_some()
        {
            return Some(extra);
        }
        self.graph.claim_rect(table, rect((c0, c1)), (room, true))?;
        Some(extra.filter(|e| {
            self.graph
                .claim_rect(table, rect(*e), (room, true))
                .is_some()
        }))
    }

    /// The two integers of `node`, a position of the strip's game: its
    /// arguments, or the free integers of its form (a boolean as 0 or 1).
    fn pair(&self, node: NodeId, strip: Strip) -> Option<[i64; 2]> {
        let mut args = Vec::with_capacity(2);
        let found = match strip.form {
            None => self.graph.int_args(node, &mut args),
            Some(form) => self.graph.free_args((node, form), &mut args),
        };
        match found {
            true => args.try_into().ok(),
            false => None,
        }
    }

    /// The value slot of the strip's position `args` (see [`Machine::pair`]),
    /// [`ABSENT`] when there is no such position.
    fn strip_value(&self, (game, strip): (GameId, Strip), args: [i64; 2]) -> u64 {
        let Some(form) = strip.form else {
            return self.graph.int_value(game, &args);
        };
        let mut run = Vec::new();
        match self.graph.formed_run((game, form), &args, &mut run) {
            true => self.graph.flat_value(game, &run),
            false => ABSENT,
        }
    }

    /// The strip's position `args`: found, or made while the graph holds
    /// fewer than `room` positions.
    fn strip_position(
        &mut self,
        (game, strip): (GameId, Strip),
        args: [i64; 2],
        room: usize,
    ) -> Option<NodeId> {
        if self.graph.len() >= room {
            return self.graph.find_formed((game, strip.form), &args);
        }
        let Some(form) = strip.form else {
            return self.intern_ints(game, &args);
        };
        let mut run = Vec::new();
        match self.graph.formed_run((game, form), &args, &mut run) {
            true => self.intern_flat(game, &run),
            false => None,
        }
    }
}
