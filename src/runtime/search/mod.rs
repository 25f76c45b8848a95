//! Phase 5: Sprague–Grundy values and the queries built on them.
//!
//! The value of a node is the mex of its options' values; an option's value
//! is the xor of its components' values (heaps count as their size). The
//! walk is an explicit depth-first search with its own stack, so a chain of
//! millions of positions needs no Rust stack, and every value is kept in the
//! graph: a node is evaluated once per session.

use super::moves::{self, MoveSink};
use super::sweep;
use crate::diag::Diagnostic;
use crate::graph::{ABSENT, IN_PROGRESS, UNKNOWN};
use crate::ir::MoveIr;
use crate::runtime::kernel::{MISSING_MAX, RECENT};
use crate::runtime::mex::Mex;
use crate::runtime::{Machine, RtResult};
use crate::value::{Component, GameId, NodeId, Value};

mod cycles;
mod kernels;
mod path;
mod typing;

use path::Path;

/// The search path: the positions being evaluated, innermost last, and
/// the options each waits for. A position is run (by its game's kernel or
/// by the interpreter) once all its options have values; a run that meets
/// options without one pushes them, up to [`MISSING_MAX`] of each move,
/// on `pending`, and the position is run again once they are evaluated
/// (or, when the run recorded every option it missed, takes the mex of
/// theirs and of the values it found, kept in `known`). So the
/// search keeps a few words per position on the path, never all its
/// options.
#[derive(Default)]
pub(super) struct Search {
    path: Path,
    /// The options waited for, stacked by position: see [`Wait`].
    pending: Vec<NodeId>,
    waits: Vec<Wait>,
    /// The values of options found with one, stacked by position waiting
    /// with [`Wait::all`].
    known: Vec<u64>,
    /// The marks of the position the interpreter expands.
    mex: Mex,
    /// The games a sweep (see [`Machine::sweep`]) of found nothing: a
    /// chain blocked low down (at another game's option, whose sweeps go
    /// on) is then descended as any search does, not scanned at each step.
    no_sweep: Vec<GameId>,
}

impl Search {
    /// Empties the search for the next query, keeping its buffers (the
    /// mex's marks are a few kilobytes to clear).
    fn clear(&mut self) {
        self.path.indices.clear();
        self.path.games.clear();
        self.pending.clear();
        self.waits.clear();
        self.known.clear();
        self.no_sweep.clear();
    }
}

/// The position at `depth` on the path waits for `pending[start..]`, of
/// which those before `cursor` have values. `interpret`: its kernel left
/// it to the interpreter, which runs it again directly.
struct Wait {
    depth: usize,
    start: usize,
    cursor: usize,
    interpret: bool,
    /// How many times the position has been run.
    runs: u32,
    /// Every option without a value is waited for, and the values of the
    /// others are `known[known_from..]`: the position's value is the mex
    /// of those and of the waited options', with no run again.
    all: bool,
    known_from: usize,
}

/// What the position on top of the path needs next.
enum Next {
    /// This option of it, which has no value yet, is evaluated first.
    Option(NodeId),
    /// It is run (again): by the interpreter when its kernel left it;
    /// `runs` times so far.
    Run { interpret: bool, runs: u32 },
    /// Its value, the mex of all its options', now stored.
    Found(u64),
}

/// What running a position's rules said.
enum Ran {
    Value(u64),
    /// Some options have no value yet: they were pushed on the pending
    /// stack from this index on; each of them, with the values of the
    /// others in the scratch's `known`, when true (see
    /// [`Marks::complete`](kernel::Marks)).
    Missing(usize, bool),
    /// The machine code evaluated options in place and ended short of
    /// values: the first this many pushed from this index on are the play
    /// it was making from an option down, the others the options the
    /// last of those waits for.
    Play(usize, usize),
    /// No kernel, or it bailed: the interpreter must expand the position.
    Interpret,
    /// The run missed only values its guards ask, now found: run again
    /// (never returned by [`Machine::run_kernel`]).
    Asked,
}

impl Machine {
    /// The nim-value of one node, evaluating whatever it depends on.
    pub fn node_value(&mut self, root: NodeId) -> RtResult<u64> {
        let known = self.graph.value(root);
        if known < ABSENT {
            return Ok(known);
        }
        if known == IN_PROGRESS {
            // Only a query asked from inside a rule finds a node in progress here.
            return Err(self.asks_about_itself(root));
        }
        // The common case of a table: every option is known already. The
        // options found without a value are the first the search waits
        // for. A search's buffers are reused: a query asked over every
        // square of a board makes a search per square.
        let mut search = self.searches.pop().unwrap_or_default();
        // In progress for that run too: a move back onto it is a cycle,
        // met wherever the move is among its options (the run records only
        // the first few options without values), as the interpreter meets
        // it before it descends anywhere.
        self.graph.set_value(root, IN_PROGRESS);
        let result = match self.run_kernel(root, &mut search.pending) {
            Ok(Ran::Value(v)) => Ok(v),
            Ok(first) => self
                .search(root, first, &mut search)
                .map_err(|e| self.search_failed(e, &search)),
            Err(e) => {
                self.graph.set_value(root, UNKNOWN);
                Err(e)
            }
        };
        search.clear();
        self.searches.push(search);
        result
    }

    /// The error of a search, with the nodes on its path unmarked and the
    /// play that led to the position it was expanding.
    fn search_failed(&mut self, mut e: Box<Diagnostic>, search: &Search) -> Box<Diagnostic> {
        // Leave no node marked as in progress behind an error.
        let path = search.path.nodes();
        for node in &path {
            self.graph.set_value(*node, UNKNOWN);
        }
        // Say how the search got to the position it was expanding (a
        // cycle's note already shows its path).
        let cycle = e
            .notes
            .iter()
            .any(|n| n.starts_with("cycle:") || n.starts_with("by moves:"));
        if search.path.len() > 1 && !cycle {
            e.notes
                .push(format!("reached by the play {}", self.show_path(&path)));
        }
        self.describe_runaway(&path, &mut e);
        e
    }

    /// Runs the rules of `node`: its kernel's, else the interpreter's;
    /// only the interpreter's when `interpret` (its kernel left it
    /// before, and would again). Says whether the interpreter ran them.
    fn run(&mut self, node: NodeId, interpret: bool, search: &mut Search) -> RtResult<(Ran, bool)> {
        if !interpret {
            match self.run_kernel(node, &mut search.pending)? {
                Ran::Interpret => self.left_to_interpreter(node.game),
                ran => return Ok((ran, false)),
            }
        }
        Ok((self.interpret(node, search)?, true))
    }

    /// Expands `node` with the interpreter, marking the value of each
    /// option whose components all have one.
    fn interpret(&mut self, node: NodeId, search: &mut Search) -> RtResult<Ran> {
        let start = search.pending.len();
        search.mex.start();
        let mut options = Options {
            mex: &mut search.mex,
            pending: &mut search.pending,
            start,
            back: None,
            share: (u64::MAX, start),
            copy: 0,
            most: MISSING_MAX << self.scratch.marks.missing_shift,
        };
        moves::expand(self, node, &mut options)?;
        // A move back onto the path is named before descending anywhere,
        // so a short cycle is found even when another move leads on forever.
        if let Some(child) = options.back {
            return Err(self.cycle(&search.path.nodes(), child));
        }
        if search.pending.len() > start {
            return Ok(Ran::Missing(start, false));
        }
        let value = search.mex.mex();
        self.graph.set_value(node, value);
        if search.mex.count() == 0 {
            self.graph.set_terminal(node);
        }
        Ok(Ran::Value(value))
    }

    /// Puts `node` on the search path.
    fn enter(&mut self, node: NodeId, search: &mut Search) {
        self.graph.set_value(node, IN_PROGRESS);
        search.path.push(node);
    }

    /// Evaluates `root`, whose kernel's run (before it was on the path)
    /// said `first`.
    fn search(&mut self, root: NodeId, first: Ran, search: &mut Search) -> RtResult<u64> {
        self.enter(root, search);
        let mut interpret = matches!(first, Ran::Interpret);
        if interpret {
            self.left_to_interpreter(root.game);
        }
        match first {
            // A move onto itself is reported as any cycle is, by the
            // interpreter, once the root is on the path.
            Ran::Missing(start, _) if search.pending[start..].contains(&root) => {
                search.pending.truncate(start);
            }
            Ran::Missing(start, all) => self.wait(root, start, (false, 1, all), search)?,
            Ran::Play(start, links) => self.wait_play(root, (start, links), 1, search)?,
            _ => {}
        }
        loop {
            let node = search.path.last();
            let (ran, runs) = match self.next_waited(search)? {
                Next::Option(child) => {
                    self.enter(child, search);
                    interpret = false;
                    continue;
                }
                // Stored already, as a run stores what it finds.
                Next::Found(value) => ((Ran::Value(value), false), 0),
                Next::Run {
                    interpret: again,
                    runs,
                } => {
                    interpret |= again;
                    // A position run again and again (one with hundreds of
                    // options to evaluate first, asked top-down) collects
                    // twice as many waiting options each time: a few runs,
                    // not hundreds.
                    self.scratch.marks.missing_shift = runs.min(MISSING_SHIFT_MAX);
                    let ran = self.run(node, interpret, search);
                    self.scratch.marks.missing_shift = 0;
                    (ran?, runs)
                }
            };
            match ran {
                (Ran::Value(value), _) => {
                    search.path.pop();
                    if search.path.is_empty() {
                        return Ok(value);
                    }
                }
                (Ran::Missing(start, all), interpreted) => {
                    self.wait(node, start, (interpreted, runs + 1, all), search)?
                }
                (Ran::Play(start, links), _) => {
                    self.wait_play(node, (start, links), runs + 1, search)?
                }
                (Ran::Interpret | Ran::Asked, _) => {
                    unreachable!("`run` interprets what the kernel leaves, and runs again")
                }
            }
            interpret = false;
        }
    }

    /// Makes `node`, on top of the path, wait for `pending[start..]`;
    /// first sweeps a chain of positions below it, if one begins there,
    /// or the square below it.
    fn wait(
        &mut self,
        node: NodeId,
        start: usize,
        (interpret, runs, all): (bool, u32, bool),
        search: &mut Search,
    ) -> RtResult<()> {
        // Taken before a sweep runs other positions.
        let known_from = search.known.len();
        if all {
            search.known.extend_from_slice(&self.scratch.known);
        }
        if !search.no_sweep.contains(&node.game) {
            let waited = &search.pending[start..];
            // A sweep down values every position below `node` of its line,
            // square or cube, reached or not: a long one only once the
            // search has come down to `node` by a chain of small steps
            // (see `sweep::descended`). A race up finds its own evidence.
            let free = self.graph.dense(node.game).map_or(0, |d| d.free());
            let path = &search.path;
            let chain = || sweep::descended(path.same_game_top(), free);
            let swept = match (
                sweep::near_below(node, waited),
                sweep::near_above(node, waited),
            ) {
                (Some(child), _) => self.sweep(node, child, chain)?,
                (None, Some(child)) => self.sweep_up(node, child)?,
                (None, None) => match self.sweep_group_below(node, waited, &path.indices)? {
                    None => self.sweep_levels(node)?,
                    swept => swept,
                },
            };
            let swept = match swept {
                None => match sweep::square_below(
                    node,
                    waited,
                    (free, free == 4 && self.quad_swept_before(node.game)),
                    path.same_game_top(),
                ) {
                    Some(_) if free < 4 => {
                        let room = self.sweep_room();
                        self.sweep_square(node.game, (node.index, room), chain)?
                    }
                    Some(reach) => self.sweep_quad(node.game, (node.index, reach), chain)?,
                    None => match self.sweep_strip(node, waited, || path.same_game_top_nodes())? {
                        None => self.sweep_strip3(node, waited)?,
                        swept => swept,
                    },
                },
                swept => swept,
            };
            if swept == Some(false) {
                search.no_sweep.push(node.game);
            }
        }
        search.waits.push(Wait {
            depth: search.path.len() - 1,
            start,
            cursor: start,
            interpret,
            runs,
            all,
            known_from,
        });
        Ok(())
    }

    /// Makes `node`, on top of the path, wait for the first of the play
    /// `pending[start..start + links]`, and puts that play on the path,
    /// each position waiting for the next and the last for the rest of
    /// `pending[start..]`: as the search would have gone down, one
    /// option at a time.
    fn wait_play(
        &mut self,
        node: NodeId,
        (start, links): (usize, usize),
        runs: u32,
        search: &mut Search,
    ) -> RtResult<()> {
        let missing: Vec<NodeId> = search.pending.drain(start + links..).collect();
        let play: Vec<NodeId> = search.pending.drain(start + 1..).collect();
        self.wait(node, start, (false, runs, false), search)?;
        let first = search.pending[start];
        for (k, &link) in std::iter::once(&first).chain(&play).enumerate() {
            self.enter(link, search);
            let from = search.pending.len();
            match play.get(k) {
                Some(&next) => search.pending.push(next),
                None => search.pending.extend_from_slice(&missing),
            }
            self.wait(link, from, (false, 1, false), search)?;
        }
        Ok(())
    }

    /// What the position on top of the path needs next: an option it
    /// waits for that has no value yet, or, when it waits for none (any
    /// more), to be run (again).
    fn next_waited(&mut self, search: &mut Search) -> RtResult<Next> {
        let top = search.path.len() - 1;
        let Some(wait) = search.waits.last_mut().filter(|w| w.depth == top) else {
            return Ok(Next::Run {
                interpret: false,
                runs: 0,
            });
        };
        while let Some(&child) = search.pending.get(wait.cursor) {
            match self.graph.value(child) {
                UNKNOWN => return Ok(Next::Option(child)),
                IN_PROGRESS => return Err(self.cycle(&search.path.nodes(), child)),
                _ => wait.cursor += 1,
            }
        }
        let (interpret, runs, all) = (wait.interpret, wait.runs, wait.all);
        let (start, known_from) = (wait.start, wait.known_from);
        search.waits.pop();
        if all {
            let mex = &mut search.mex;
            mex.start();
            for v in search.known.drain(known_from..) {
                mex.mark(v);
            }
            for child in &search.pending[start..] {
                mex.mark(self.graph.value(*child));
            }
            let value = mex.mex();
            search.pending.truncate(start);
            self.graph.set_value(search.path.last(), value);
            return Ok(Next::Found(value));
        }
        search.pending.truncate(start);
        Ok(Next::Run { interpret, runs })
    }
}

/// The most times [`MISSING_MAX`] doubles for a position run again: up to
/// 8,192 waiting options a move.
const MISSING_SHIFT_MAX: u32 = 8;

/// Receives the options of a position the interpreter expands: the value
/// of each option whose components all have one is marked; the others'
/// components without a value wait on `pending`, up to `most` for each
/// move as written (and each item of its leading binders that the
/// compiled rules unroll: [`MoveSink::next_copy`]), and not again when
/// among the last few: as a kernel's
/// run records them (see [`crate::runtime::kernel::Marks`]), so that both
/// wait for the same options and meet an error on the same play.
struct Options<'a> {
    mex: &'a mut Mex,
    pending: &'a mut Vec<NodeId>,
    start: usize,
    /// The first option found on the search path: a cycle.
    back: Option<NodeId>,
    /// The move whose options are made (by where its span starts, and
    /// above, [`Options::copy`]), and where its share of `pending` begins.
    share: (u64, usize),
    /// Counts the items taken by the leading binders that the compiled
    /// rules unroll into copies of the move, each with a share of its
    /// own (see [`MoveSink::next_copy`]).
    copy: u32,
    most: usize,
}

impl Options<'_> {
    fn wait_for(&mut self, rule: &MoveIr, node: NodeId) {
        let share = u64::from(rule.span.start) | (u64::from(self.copy) << 32);
        if self.share.0 != share {
            self.share = (share, self.pending.len());
        }
        if self.pending.len() - self.share.1 >= self.most {
            return;
        }
        let recent = self.pending.len().saturating_sub(RECENT).max(self.start);
        if !self.pending[recent..].contains(&node) {
            self.pending.push(node);
        }
    }
}

impl MoveSink for Options<'_> {
    fn option(&mut self, m: &Machine, rule: &MoveIr, _frame: &[Value], target: &[Component]) {
        let mut value = Some(0);
        for c in target {
            let v = match c {
                Component::Heap(k) => *k,
                Component::Node(n) => match m.graph.value(*n) {
                    v if v < ABSENT => v,
                    IN_PROGRESS => {
                        self.back.get_or_insert(*n);
                        value = None;
                        continue;
                    }
                    _ => {
                        self.wait_for(rule, *n);
                        value = None;
                        continue;
                    }
                },
            };
            value = value.map(|x| x ^ v);
        }
        if let Some(v) = value {
            self.mex.mark(v);
        }
    }

    fn next_copy(&mut self) {
        self.copy = self.copy.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests;
