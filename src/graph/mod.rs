//! Phase 4: the transition graph. Positions of each game are interned to
//! dense [`NodeId`]s (a game's arguments are its state, so equal argument
//! lists are the same node), and each node's nim-value, once known, is kept
//! in a flat array beside it: in dense pages for positions of one, two or
//! three small integers, in hash tables for the others. It is a pure store: the
//! runtime ([`crate::runtime::moves`]) generates a node's moves and the
//! search fills in its value, so the graph grows lazily, only as far as a
//! query needs.

use crate::value::{GameId, NodeId, Value, games_in};
use rustc_hash::FxHashSet;
use std::borrow::Cow;

/// A node's value slot before its value is known.
pub const UNKNOWN: u64 = u64::MAX;
/// A node whose value is being computed: it is on the evaluator's path.
pub const IN_PROGRESS: u64 = u64::MAX - 1;
/// A dense slot whose position has not been interned. Every value below
/// this is a nim-value.
pub const ABSENT: u64 = u64::MAX - 2;

mod claim;
mod dense;
pub mod flat;
mod form;
pub use form::{FREE_MAX, code as form_code};
mod hashed;
mod index;
mod ints;
mod packed;

pub use dense::places::STRIP3_ROWS;
pub use dense::{Dense, RUN_BLOCK, View};
pub use flat::Shape;
use hashed::Hashed;
pub use hashed::{
    EMPTY_SLOT, KEY_AT, KIND_AT, MIX, NODE_BYTES, ONE_KIND, Probe, TURN, TWO_KIND, VALUE_AT,
};
use index::dense_args;
pub use index::{
    DENSE_END, LONG_MAX, LONG3_MAX, SIDE_MAX, SIDE3_MAX, SIDE4_MAX, STRIP_WIDTH, STRIP3_WIDTH,
    dense_index, dense1, dense2, dense3, in_square, int_index, quad_index, quad_place, unpair,
    unquad, untriple,
};

/// The positions of one game: dense ones by index, the others (any other
/// arguments: lists, negative numbers, four parameters...) in a hash
/// table from their argument lists.
#[derive(Default)]
struct NodeTable {
    dense: Dense,
    hashed: Hashed,
    /// Nodes evaluated and found to have no moves at all.
    terminal: Vec<bool>,
    /// The games whose positions or game values appear in the arguments of
    /// some node: this game's values may depend on theirs (see [`crate::deps`]).
    arg_games: FxHashSet<GameId>,
}

impl NodeTable {
    /// The node of hashed position `index`, just added: its value slots.
    fn hashed_node(&mut self, game: GameId, index: u32) -> NodeId {
        self.terminal.push(false);
        NodeId {
            game,
            index: DENSE_END + index,
        }
    }

    fn forget_values(&mut self) {
        self.dense.forget_values();
        self.hashed.forget_values();
        self.terminal.fill(false);
    }

    fn len(&self) -> usize {
        self.dense.count + self.hashed.len()
    }

    /// The dense slot of the position of flat run `run`, when the table
    /// holds positions of its form (see `form.rs`).
    #[inline]
    fn form_slot(&self, run: &[i64]) -> Option<(u32, [i64; FREE_MAX])> {
        let form = self.dense.form.as_ref()?;
        let mut ints = [0; FREE_MAX];
        if !form.ints(run, &mut ints) {
            return None;
        }
        Some((int_index(&ints[..form.arity()])?, ints))
    }

    /// The dense slot of flat run `run` when it is four integers with a
    /// dense index and the table may hold them (see `index::dense4`).
    fn quad_slot(&self, run: &[i64]) -> Option<u32> {
        let ints = flat::only_ints(run).filter(|ints| ints.len() == 4)?;
        self.dense.fits(4).then(|| int_index(ints)).flatten()
    }

    /// The dense slot for `args`, if they are dense for this table.
    fn dense_slot(&self, args: &[Value]) -> Option<u32> {
        self.dense
            .fits(args.len())
            .then(|| dense_index(args))
            .flatten()
    }
}

/// Every node interned so far, by game.
#[derive(Default)]
pub struct Graph {
    games: Vec<NodeTable>,
    total: usize,
    /// How many of them a sweep made, ahead of the search (see
    /// `claim.rs`).
    swept: usize,
}

impl Graph {
    pub fn len(&self) -> usize {
        self.total
    }

    /// The positions made other than by a sweep: those the search and
    /// the interpreter reached, which `--max-states` bounds. A sweep makes
    /// positions ahead of the search, a whole square where the rules may
    /// reach a few of them, within its own room (see
    /// `runtime/sweep/`); counted, they would leave the search short of
    /// the room the interpreter alone would have.
    pub fn reached(&self) -> usize {
        self.total - self.swept
    }

    /// Counts the positions made since the graph held `before` as made
    /// by a sweep: those a sweep's runs interned as options without
    /// values, which the search did not reach.
    pub fn swept_since(&mut self, before: usize) {
        self.swept += self.total.saturating_sub(before);
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The node of `game` with these arguments, if it exists already: in
    /// the dense table, or (a position the dense table had no room for, or
    /// any other) among the hashed ones.
    pub fn find(&self, game: GameId, args: &[Value]) -> Option<NodeId> {
        let table = self.games.get(game as usize)?;
        // Lists and tuples of integers are keyed by their flat run, hashed
        // or of the dense table's form.
        let mut run = Vec::new();
        if args.iter().any(flat::in_run) && flat::encode(args, &mut run) {
            return self.find_flat(game, &run);
        }
        if let Some(z) = table.dense_slot(args) {
            let v = table.dense.get(z);
            if v != ABSENT {
                return Some(NodeId { game, index: z });
            }
        }
        if table.hashed.len() == 0 {
            return None;
        }
        let index = table.hashed.find(args)?;
        Some(NodeId {
            game,
            index: DENSE_END + index,
        })
    }

    /// Adds a node (the caller has checked it is new and within limits).
    pub fn insert(&mut self, game: GameId, args: &[Value]) -> NodeId {
        if self.games.len() <= game as usize {
            self.games
                .resize_with(game as usize + 1, NodeTable::default);
        }
        let mut run = Vec::new();
        if args.iter().any(flat::in_run) && flat::encode(args, &mut run) {
            return self.insert_flat(game, &run);
        }
        self.total += 1;
        let table = &mut self.games[game as usize];
        if let Some(z) = table.dense_slot(args)
            && table.dense.take(args.len(), z, &[])
        {
            return NodeId { game, index: z };
        }
        let index = table.hashed.insert(args);
        for a in args {
            games_in(a, &mut |g| {
                table.arg_games.insert(g);
            });
        }
        table.hashed_node(game, index)
    }

    /// The arguments of `node` as a flat run, into `out`, if they are one.
    pub fn flat_args(&self, node: NodeId, out: &mut Vec<i64>) -> bool {
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => match &table.dense.form {
                Some(form) => {
                    let ints = index::index_ints(form.arity(), node.index);
                    form.fill(&ints, out);
                    true
                }
                // Four integers, which a kernel reads as a flat run.
                None if table.dense.arity == 4 => {
                    out.clear();
                    out.push(flat::ints_header(4));
                    out.extend(index::unquad(node.index).map(|x| x as i64));
                    true
                }
                None => false,
            },
            Some(i) => table.hashed.flat_args(i, out),
        }
    }

    pub fn args(&self, node: NodeId) -> Cow<'_, [Value]> {
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None if table.dense.form.is_some() => {
                let mut run = Vec::new();
                self.flat_args(node, &mut run);
                Cow::Owned(flat::decode(&run))
            }
            None => Cow::Owned(dense_args(table.dense.arity, node.index)),
            Some(i) => table.hashed.args(i),
        }
    }

    /// The arguments of `node` as integers, into `out`, if they all are.
    pub fn int_args(&self, node: NodeId, out: &mut Vec<i64>) -> bool {
        out.clear();
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None if table.dense.form.is_some() => return false,
            None if table.dense.arity == 1 => out.push(node.index as i64),
            None if table.dense.arity == 2 => {
                let (a, b) = index::unpair(node.index);
                out.extend([a as i64, b as i64]);
            }
            None if table.dense.arity == 4 => {
                out.extend(index::unquad(node.index).map(|x| x as i64));
            }
            None => {
                let (a, b, c) = index::untriple(node.index);
                out.extend([a as i64, b as i64, c as i64]);
            }
            Some(i) => return table.hashed.int_args(i, out),
        }
        true
    }

    #[inline]
    pub fn value(&self, node: NodeId) -> u64 {
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => table.dense.get(node.index),
            Some(i) => table.hashed.value(i),
        }
    }

    /// [`Graph::set_value`] of a hashed position (`node.index` at least
    /// [`DENSE_END`]), inlined: a recursion sets them by the million.
    #[inline(always)]
    pub fn set_hashed_value(&mut self, node: NodeId, value: u64) {
        let i = node.index - DENSE_END;
        self.games[node.game as usize].hashed.set_value(i, value);
    }

    pub fn set_value(&mut self, node: NodeId, value: u64) {
        let table = &mut self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => table.dense.set(node.index, value),
            Some(i) => table.hashed.set_value(i, value),
        }
    }

    pub fn set_terminal(&mut self, node: NodeId) {
        let table = &mut self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => {
                table.dense.terminal.insert(node.index);
            }
            Some(i) => table.terminal[i as usize] = true,
        }
    }

    /// True for a node known to have no moves (it plays like the empty position).
    pub fn is_terminal(&self, node: NodeId) -> bool {
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => table.dense.terminal.contains(&node.index),
            Some(i) => table.terminal[i as usize],
        }
    }

    /// Every node of `game` with its value slot: the dense ones by index,
    /// then the others in the order they were made.
    pub fn nodes(&self, game: GameId) -> impl Iterator<Item = (NodeId, u64)> + '_ {
        let table = self.games.get(game as usize);
        let dense = table.into_iter().flat_map(move |t| {
            t.dense
                .slots()
                .map(move |(index, v)| (NodeId { game, index }, v))
        });
        let hashed = table.into_iter().flat_map(move |t| {
            t.hashed.values().enumerate().map(move |(i, v)| {
                let index = DENSE_END + i as u32;
                (NodeId { game, index }, v)
            })
        });
        dense.chain(hashed)
    }

    /// Positions memoized per game: (game, nodes, nodes with a known value).
    pub fn stats(&self) -> impl Iterator<Item = (GameId, usize, usize)> + '_ {
        (0..self.games.len() as GameId).map(|g| {
            let known = self.nodes(g).filter(|(_, v)| *v < ABSENT).count();
            (g, self.games[g as usize].len(), known)
        })
    }

    /// How many rows of `game`'s dense table are a run's (see
    /// `dense/rows/run.rs`): for tests.
    pub fn rows_in_run(&self, game: GameId) -> usize {
        self.games
            .get(game as usize)
            .map_or(0, |t| t.dense.rows_in_run())
    }

    /// About how many bytes the nodes of `game` take: the dense pages, and
    /// for the others their argument lists, the index entry, the value and
    /// the terminal flag.
    pub fn bytes(&self, game: GameId) -> usize {
        let Some(table) = self.games.get(game as usize) else {
            return 0;
        };
        // The keys with their values and their table, then per position
        // its terminal flag.
        let per_node = size_of::<bool>();
        table.dense.bytes() + table.hashed.bytes() + table.hashed.len() * per_node
    }

    /// The games whose positions or game values appear in the arguments
    /// of some node of `game`.
    pub fn arg_games(&self, game: GameId) -> impl Iterator<Item = GameId> + '_ {
        self.games
            .get(game as usize)
            .into_iter()
            .flat_map(|t| t.arg_games.iter().copied())
    }

    /// Forgets every value (nodes stay interned, so positions held in
    /// variables stay valid); they are recomputed under the current rules.
    pub fn clear_values(&mut self) {
        self.games.iter_mut().for_each(NodeTable::forget_values);
    }

    /// Forgets the values of the nodes of `games` only, as
    /// [`Graph::clear_values`] does for all of them.
    pub fn clear_games(&mut self, games: &[GameId]) {
        for &game in games {
            if let Some(table) = self.games.get_mut(game as usize) {
                table.forget_values();
            }
        }
    }
}

#[cfg(test)]
mod tests;
