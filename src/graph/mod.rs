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

mod dense;
pub mod flat;
mod form;
pub use form::{FREE_MAX, code as form_code};
mod hashed;
mod index;
mod packed;

pub use dense::{Dense, View};
pub use flat::Shape;
use form::Form;
use hashed::Hashed;
use index::dense_args;
pub use index::{
    DENSE_END, LONG_MAX, SIDE_MAX, SIDE3_MAX, STRIP_WIDTH, dense_index, dense1, dense2, dense3,
    in_square, int_index, unpair, untriple,
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
    fn form_slot(&self, run: &[i64]) -> Option<(u32, [i64; 3])> {
        let form = self.dense.form.as_ref()?;
        let mut ints = [0; 3];
        if !form.ints(run, &mut ints) {
            return None;
        }
        Some((int_index(&ints[..form.arity()])?, ints))
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
}

impl Graph {
    pub fn len(&self) -> usize {
        self.total
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
        if args.iter().any(flat::holds_items) && flat::encode(args, &mut run) {
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
        if args.iter().any(flat::holds_items) && flat::encode(args, &mut run) {
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

    /// The dense positions of `game`, for the compiled rules to read.
    pub fn dense(&self, game: GameId) -> Option<&Dense> {
        self.games.get(game as usize).map(|t| &t.dense)
    }

    /// [`Graph::insert`] of the dense position in slot `z` of a game whose
    /// dense positions have `arity` arguments, with no arguments made (the
    /// caller has checked the limits and that the position is new), if the
    /// dense table has room for it (see `Dense::may_take`).
    pub fn insert_dense(&mut self, game: GameId, arity: usize, z: u32) -> Option<NodeId> {
        let table = &mut self.games[game as usize];
        debug_assert!(table.dense.arity == arity && z < DENSE_END);
        if !table.dense.take(arity, z, &[]) {
            return None;
        }
        self.total += 1;
        Some(NodeId { game, index: z })
    }

    /// Makes the positions `from..to` of a one-integer game that are not
    /// there yet, in turn, as [`Graph::insert_dense`] would, while the
    /// dense table has room for them and the graph stays below `room`
    /// positions. Returns the end of those made (or found).
    pub fn claim_dense(&mut self, game: GameId, from: u32, to: u32, room: usize) -> u32 {
        let table = &mut self.games[game as usize];
        debug_assert!(table.dense.arity == 1 && to <= DENSE_END);
        let (end, made) = table.dense.claim(from, to, room.saturating_sub(self.total));
        self.total += made;
        end
    }

    /// `Dense::claim_rect` of `game`'s positions `(a, b)`, `a` in `rows`
    /// and `b` in `cols` (inclusive, within [`SIDE_MAX`]), when the graph
    /// has room for them within `room` positions: how many it made.
    pub fn claim_rect(
        &mut self,
        game: GameId,
        (rows, cols): ((usize, usize), (usize, usize)),
        room: usize,
    ) -> Option<usize> {
        let table = self.games.get_mut(game as usize)?;
        let made = table
            .dense
            .claim_rect(rows, cols, room.saturating_sub(self.total))?;
        self.total += made;
        Some(made)
    }

    /// The level below which the board sweep `key` of `game` has valued
    /// every position of its box, and the level below which the box's
    /// slots exist (see `runtime/sweep/mod.rs`).
    pub fn swept(&self, game: GameId, key: [i64; 6]) -> Option<(i64, i64)> {
        let (k, swept, claimed) = self.games.get(game as usize)?.dense.swept?;
        (k == key).then_some((swept, claimed))
    }

    /// Records [`Graph::swept`].
    pub fn set_swept(&mut self, game: GameId, key: [i64; 6], (swept, claimed): (i64, i64)) {
        if let Some(table) = self.games.get_mut(game as usize) {
            table.dense.swept = Some((key, swept, claimed));
        }
    }

    /// [`Graph::insert`] of integer arguments, with no values made when
    /// they are dense.
    pub fn insert_ints(&mut self, game: GameId, args: &[i64]) -> NodeId {
        // The game's first position makes its table: without one, it
        // would be kept as a run of integers, and again as a position of
        // integers once the table exists.
        if self.games.len() <= game as usize {
            self.games
                .resize_with(game as usize + 1, NodeTable::default);
        }
        if let Some(z) = int_index(args)
            && let Some(table) = self.games.get_mut(game as usize)
            && table.dense.form.is_none()
            && table.dense.take(args.len(), z, args)
        {
            self.total += 1;
            return NodeId { game, index: z };
        }
        if let [_] | [_, _] = args
            && let Some(table) = self.games.get_mut(game as usize)
        {
            self.total += 1;
            let index = table.hashed.insert_ints(args);
            return table.hashed_node(game, index);
        }
        let mut run = Vec::with_capacity(args.len() + 1);
        if flat::ints(args, &mut run) {
            return self.insert_flat(game, &run);
        }
        let values: Vec<Value> = args.iter().map(|n| Value::Int(*n)).collect();
        self.insert(game, &values)
    }

    /// The node of `game(args)` for one or two integers too large to be
    /// dense, added if it is new and `add`: [`Graph::find_ints`] and
    /// [`Graph::insert_ints`] in one probe. `None` for other arguments,
    /// which the caller finds and adds with those.
    pub fn intern_hashed_ints(
        &mut self,
        game: GameId,
        args: &[i64],
        add: bool,
    ) -> Option<Option<NodeId>> {
        if int_index(args).is_some() || !matches!(args, [_] | [_, _]) {
            return None;
        }
        let table = self.games.get_mut(game as usize)?;
        Some(match table.hashed.intern_ints(args, add) {
            None => None,
            Some((index, false)) => Some(NodeId {
                game,
                index: DENSE_END + index,
            }),
            Some((index, true)) => {
                self.total += 1;
                Some(table.hashed_node(game, index))
            }
        })
    }

    /// The value slot of `game(args)`, [`ABSENT`] when there is no such
    /// position: read densely when the arguments allow it, else (a
    /// position the dense table had no room for, or any other) among the
    /// hashed positions. The machine code's lookup of a position it does
    /// not read itself: one find of the game's table.
    #[inline]
    pub fn int_value(&self, game: GameId, args: &[i64]) -> u64 {
        let Some(table) = self.games.get(game as usize) else {
            return ABSENT;
        };
        let d = &table.dense;
        let v = match args {
            _ if d.arity() != args.len() => ABSENT,
            [n] => dense1(*n).map_or(ABSENT, |z| d.get(z)),
            // By row and column: no pairing number to undo.
            [a, b] if dense2(*a, *b).is_some() => d.at(*a as usize, *b as usize),
            [a, b, c] => dense3(*a, *b, *c).map_or(ABSENT, |z| d.get_ints(z, args)),
            _ => ABSENT,
        };
        if v != ABSENT || table.hashed.len() == 0 {
            return v;
        }
        match args {
            [_] | [_, _] => table
                .hashed
                .find_ints(args)
                .map_or(ABSENT, |i| table.hashed.value(i)),
            _ => self
                .find_hashed_ints(game, args)
                .map_or(ABSENT, |node| self.value(node)),
        }
    }

    /// [`Graph::find`] of integer arguments, with no values made when they
    /// are dense or there are no hashed positions.
    pub fn find_ints(&self, game: GameId, args: &[i64]) -> Option<NodeId> {
        let table = self.games.get(game as usize)?;
        if let Some(z) = int_index(args).filter(|_| table.dense.arity() == args.len())
            && table.dense.get_ints(z, args) != ABSENT
        {
            return Some(NodeId { game, index: z });
        }
        self.find_hashed_ints(game, args)
    }

    /// [`Graph::find_ints`] among the hashed positions only, for a caller
    /// that found the dense slot absent.
    #[inline]
    pub fn find_hashed_ints(&self, game: GameId, args: &[i64]) -> Option<NodeId> {
        let table = self.games.get(game as usize)?;
        if table.hashed.len() == 0 {
            return None;
        }
        let index = match args {
            [_] | [_, _] => table.hashed.find_ints(args)?,
            // Three or more: their flat run, made on the stack.
            _ if args.len() <= flat::ARITY_MAX => {
                let mut run = [0; flat::ARITY_MAX + 1];
                run[0] = flat::ints_header(args.len());
                run[1..=args.len()].copy_from_slice(args);
                table.hashed.find_flat(&run[..=args.len()])?
            }
            // Too many for a flat run: keyed by their values.
            _ => {
                let values: Vec<Value> = args.iter().map(|n| Value::Int(*n)).collect();
                table.hashed.find(&values)?
            }
        };
        Some(NodeId {
            game,
            index: DENSE_END + index,
        })
    }

    /// [`Graph::find`] of arguments given as a flat run ([`flat`]).
    pub fn find_flat(&self, game: GameId, run: &[i64]) -> Option<NodeId> {
        let table = self.games.get(game as usize)?;
        if let Some((z, ints)) = table.form_slot(run)
            && table.dense.get_ints(z, &ints[..table.dense.arity]) != ABSENT
        {
            return Some(NodeId { game, index: z });
        }
        if table.hashed.len() == 0 {
            return None;
        }
        let index = table.hashed.find_flat(run)?;
        Some(NodeId {
            game,
            index: DENSE_END + index,
        })
    }

    /// [`Graph::insert`] of arguments given as a flat run (the caller has
    /// checked it is new and within limits).
    pub fn insert_flat(&mut self, game: GameId, run: &[i64]) -> NodeId {
        if self.games.len() <= game as usize {
            self.games
                .resize_with(game as usize + 1, NodeTable::default);
        }
        self.total += 1;
        let table = &mut self.games[game as usize];
        // The first list position of one to three integers with a dense
        // index gives the table its form.
        if table.dense.arity == 0
            && let Some(form) = Form::of(run)
        {
            table.dense.form = Some(form);
        }
        if let Some((z, ints)) = table.form_slot(run) {
            let n = table.dense.form.as_ref().map_or(0, Form::arity);
            if table.dense.take(n, z, &ints[..n]) {
                return NodeId { game, index: z };
            }
        }
        let index = table.hashed.insert_flat(run);
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
