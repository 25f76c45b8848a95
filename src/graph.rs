//! Phase 4: the transition graph. Positions of each game are interned to
//! dense [`NodeId`]s (a game's arguments are its state, so equal argument
//! lists are the same node), and each node's nim-value, once known, is kept
//! in a flat array beside it: in dense pages for positions of one or two
//! small integers, in hash tables for the others. It is a pure store: the
//! runtime ([`crate::runtime::moves`]) generates a node's moves and the
//! search fills in its value, so the graph grows lazily, only as far as a
//! query needs.

use crate::value::{GameId, NodeId, Value, games_in};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::rc::Rc;

/// A node's value slot before its value is known.
pub const UNKNOWN: u64 = u64::MAX;
/// A node whose value is being computed: it is on the evaluator's path.
pub const IN_PROGRESS: u64 = u64::MAX - 1;
/// A dense slot whose position has not been interned. Every value below
/// this is a nim-value.
pub const ABSENT: u64 = u64::MAX - 2;

/// Node indices below this are dense: the index is the game's integer
/// argument itself, or the Szudzik number of its two arguments. Indices
/// from here on count the positions kept in a hash table.
pub const DENSE_END: u32 = 1 << 31;

const PAGE_BITS: u32 = 16;
const PAGE: usize = 1 << PAGE_BITS;

/// The dense index of a game's arguments, when they are one or two
/// non-negative integers small enough: `n`, or Szudzik's pairing of
/// `(a, b)`, which numbers the pairs of the square `[0, m)²` by `[0, m²)`,
/// so that a rectangle of positions fills a block of indices.
pub fn dense_index(args: &[Value]) -> Option<u32> {
    match args {
        [Value::Int(n)] => dense1(*n),
        [Value::Int(a), Value::Int(b)] => dense2(*a, *b),
        _ => None,
    }
}

#[inline]
pub fn dense1(n: i64) -> Option<u32> {
    u32::try_from(n).ok().filter(|n| *n < DENSE_END)
}

#[inline]
pub fn dense2(a: i64, b: i64) -> Option<u32> {
    // 46340² < 2³¹, so every pair of the square [0, 46340)² is dense.
    if !(0..46_340).contains(&a) || !(0..46_340).contains(&b) {
        return None;
    }
    let z = if a >= b { a * a + a + b } else { b * b + a };
    Some(z as u32)
}

/// The arguments of a dense index of arity `arity`.
fn dense_args(arity: usize, z: u32) -> Vec<Value> {
    if arity == 1 {
        return vec![Value::Int(z as i64)];
    }
    let (a, b) = unpair(z);
    vec![Value::Int(a as i64), Value::Int(b as i64)]
}

/// The values of a game's dense positions, in pages allocated as indices
/// are reached: a chain of positions from the top down, or one far-out
/// position, costs only the pages it touches. A page grows by doubling up
/// to its full size, so a game with a handful of positions takes a
/// handful of slots. The positions `(a, b)` of a two-parameter game are
/// kept by rows instead, row `a` holding column `b`: their Szudzik index
/// names them, but a board is read a row at a time.
#[derive(Default)]
pub struct Dense {
    /// The number of arguments of the dense positions (1 or 2), or 0 while
    /// the game has none.
    arity: usize,
    /// The pages (arity 1) or rows (arity 2), 4 bytes a slot: a nim-value
    /// below [`Dense::PLAIN`], or one of the `SLOT_` marks.
    pages: Vec<Vec<u32>>,
    /// The values too large for a slot (2³² - 4 and up), by slot index.
    spilled: FxHashMap<u32, u64>,
    count: usize,
    terminal: FxHashSet<u32>,
}

const SLOT_UNKNOWN: u32 = u32::MAX;
const SLOT_IN_PROGRESS: u32 = u32::MAX - 1;
const SLOT_ABSENT: u32 = u32::MAX - 2;
/// The value is in [`Dense::spilled`].
const SLOT_SPILLED: u32 = u32::MAX - 3;

/// Szudzik's pairing undone: the `(a, b)` of index `z`.
fn unpair(z: u32) -> (usize, usize) {
    let z = z as u64;
    let s = z.isqrt();
    let r = z - s * s;
    let (a, b) = if r < s { (r, s) } else { (s, r - s) };
    (a as usize, b as usize)
}

impl Dense {
    /// Which page (or row) and where in it slot `z` is.
    #[inline]
    fn locate(&self, z: u32) -> (usize, usize) {
        match self.arity {
            2 => unpair(z),
            _ => ((z >> PAGE_BITS) as usize, z as usize & (PAGE - 1)),
        }
    }

    /// The value in slot `z`: a nim-value, [`UNKNOWN`], [`IN_PROGRESS`] or
    /// [`ABSENT`].
    #[inline]
    pub fn get(&self, z: u32) -> u64 {
        let (p, i) = self.locate(z);
        self.at(p, i)
    }

    /// The value of position `(a, b)` of a two-parameter game (both in
    /// the dense square), or of slot `p * PAGE + i` of a one-parameter one.
    #[inline]
    pub fn at(&self, p: usize, i: usize) -> u64 {
        let slot = match self.pages.get(p) {
            Some(page) => page.get(i).copied().unwrap_or(SLOT_ABSENT),
            None => SLOT_ABSENT,
        };
        match slot {
            v if v < Dense::PLAIN => v.into(),
            SLOT_ABSENT => ABSENT,
            _ => self.unusual(p, i, slot),
        }
    }

    #[cold]
    fn unusual(&self, p: usize, i: usize, slot: u32) -> u64 {
        match slot {
            SLOT_UNKNOWN => UNKNOWN,
            SLOT_IN_PROGRESS => IN_PROGRESS,
            _ => self.spilled[&self.index(p, i)],
        }
    }

    fn set(&mut self, z: u32, value: u64) {
        let (p, i) = self.locate(z);
        if self.pages.len() <= p {
            self.pages.resize_with(p + 1, Vec::new);
        }
        let page = &mut self.pages[p];
        if page.len() <= i {
            page.resize((i + 1).next_power_of_two().clamp(16, PAGE), SLOT_ABSENT);
        }
        let slot = match value {
            UNKNOWN => SLOT_UNKNOWN,
            IN_PROGRESS => SLOT_IN_PROGRESS,
            ABSENT => SLOT_ABSENT,
            v => match u32::try_from(v) {
                Ok(v) if v < Dense::PLAIN => v,
                _ => SLOT_SPILLED,
            },
        };
        if page[i] == SLOT_SPILLED {
            self.spilled.remove(&z);
        }
        if slot == SLOT_SPILLED {
            self.spilled.insert(z, value);
        }
        page[i] = slot;
    }

    /// The slot index of page (or row) `p`, place `i`.
    fn index(&self, p: usize, i: usize) -> u32 {
        match self.arity {
            2 => dense2(p as i64, i as i64).expect("rows hold dense pairs"),
            _ => ((p << PAGE_BITS) + i) as u32,
        }
    }

    pub fn arity(&self) -> usize {
        self.arity
    }

    /// The number of slots of a full page.
    pub const PAGE: usize = PAGE;

    /// Slots below this hold their nim-value; the others are read with
    /// [`Dense::get`].
    pub const PLAIN: u32 = SLOT_SPILLED;

    /// Row `a` of a two-parameter game's table: the slots of `(a, b)` for
    /// `b` from 0 on, as far as any is known.
    pub fn row(&self, a: usize) -> &[u32] {
        self.pages.get(a).map_or(&[], Vec::as_slice)
    }

    /// The page holding slot `z` (as far as it is allocated: slots past
    /// its end are absent) and `z`'s offset in it.
    #[inline]
    pub fn page_of(&self, z: u32) -> (&[u32], usize) {
        let page = self.pages.get((z >> PAGE_BITS) as usize);
        (page.map_or(&[], Vec::as_slice), z as usize & (PAGE - 1))
    }

    fn slots(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let mut slots: Vec<(u32, u64)> = self
            .pages
            .iter()
            .enumerate()
            .flat_map(|(p, page)| {
                page.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != SLOT_ABSENT)
                    .map(move |(i, _)| (self.index(p, i), self.at(p, i)))
            })
            .collect();
        slots.sort_unstable();
        slots.into_iter()
    }

    fn forget_values(&mut self) {
        for page in &mut self.pages {
            page.iter_mut()
                .filter(|v| **v != SLOT_ABSENT)
                .for_each(|v| *v = SLOT_UNKNOWN);
        }
        self.spilled.clear();
        self.terminal.clear();
    }

    fn bytes(&self) -> usize {
        let slots: usize = self.pages.iter().map(Vec::capacity).sum();
        self.pages.capacity() * size_of::<Vec<u32>>()
            + slots * size_of::<u32>()
            + self.spilled.capacity() * (size_of::<(u32, u64)>() + 1)
            + self.terminal.len() * (size_of::<u32>() + 1)
    }
}

/// The positions of one game: dense ones by index, the others (any other
/// arguments: lists, negative numbers, three parameters...) in a hash
/// table from their argument lists.
#[derive(Default)]
struct NodeTable {
    dense: Dense,
    index: FxHashMap<Rc<[Value]>, u32>,
    args: Vec<Rc<[Value]>>,
    values: Vec<u64>,
    /// Nodes evaluated and found to have no moves at all.
    terminal: Vec<bool>,
    /// The games whose positions or game values appear in the arguments of
    /// some node: this game's values may depend on theirs (see [`crate::deps`]).
    arg_games: FxHashSet<GameId>,
}

impl NodeTable {
    fn forget_values(&mut self) {
        self.dense.forget_values();
        self.values.fill(UNKNOWN);
        self.terminal.fill(false);
    }

    fn len(&self) -> usize {
        self.dense.count + self.args.len()
    }

    /// The dense slot for `args`, if they are dense for this table.
    fn dense_slot(&self, args: &[Value]) -> Option<u32> {
        let dense = self.dense.arity == 0 || self.dense.arity == args.len();
        dense.then(|| dense_index(args)).flatten()
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

    /// The node of `game` with these arguments, if it exists already.
    pub fn find(&self, game: GameId, args: &[Value]) -> Option<NodeId> {
        let table = self.games.get(game as usize)?;
        if let Some(z) = table.dense_slot(args) {
            return (table.dense.get(z) != ABSENT).then_some(NodeId { game, index: z });
        }
        let index = *table.index.get(args)?;
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
        self.total += 1;
        let table = &mut self.games[game as usize];
        if let Some(z) = table.dense_slot(args) {
            table.dense.arity = args.len();
            table.dense.set(z, UNKNOWN);
            table.dense.count += 1;
            return NodeId { game, index: z };
        }
        let index = table.args.len() as u32;
        for a in args {
            games_in(a, &mut |g| {
                table.arg_games.insert(g);
            });
        }
        let key: Rc<[Value]> = Rc::from(args);
        table.index.insert(key.clone(), index);
        table.args.push(key);
        table.values.push(UNKNOWN);
        table.terminal.push(false);
        NodeId {
            game,
            index: DENSE_END + index,
        }
    }

    /// The dense positions of `game`, for the compiled rules to read.
    pub fn dense(&self, game: GameId) -> Option<&Dense> {
        self.games.get(game as usize).map(|t| &t.dense)
    }

    /// [`Graph::insert`] of the dense position in slot `z` of a game whose
    /// dense positions have `arity` arguments, with no arguments made (the
    /// caller has checked the limits and that the slot is free).
    pub fn insert_dense(&mut self, game: GameId, arity: usize, z: u32) -> NodeId {
        let table = &mut self.games[game as usize];
        debug_assert!(table.dense.arity == arity && z < DENSE_END);
        table.dense.set(z, UNKNOWN);
        table.dense.count += 1;
        self.total += 1;
        NodeId { game, index: z }
    }

    pub fn args(&self, node: NodeId) -> Cow<'_, [Value]> {
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => Cow::Owned(dense_args(table.dense.arity, node.index)),
            Some(i) => Cow::Borrowed(&table.args[i as usize]),
        }
    }

    /// The arguments of `node` as integers, into `out`, if they all are.
    pub fn int_args(&self, node: NodeId, out: &mut Vec<i64>) -> bool {
        out.clear();
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None if table.dense.arity == 1 => out.push(node.index as i64),
            None => out.extend(dense_args(2, node.index).iter().map(|v| match v {
                Value::Int(n) => *n,
                _ => unreachable!("dense arguments are integers"),
            })),
            Some(i) => {
                for v in table.args[i as usize].iter() {
                    let Value::Int(n) = v else { return false };
                    out.push(*n);
                }
            }
        }
        true
    }

    #[inline]
    pub fn value(&self, node: NodeId) -> u64 {
        let table = &self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => table.dense.get(node.index),
            Some(i) => table.values[i as usize],
        }
    }

    pub fn set_value(&mut self, node: NodeId, value: u64) {
        let table = &mut self.games[node.game as usize];
        match node.index.checked_sub(DENSE_END) {
            None => table.dense.set(node.index, value),
            Some(i) => table.values[i as usize] = value,
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
            t.values.iter().enumerate().map(move |(i, v)| {
                let index = DENSE_END + i as u32;
                (NodeId { game, index }, *v)
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
        // The key in `args`, the index entry (key, id, control byte), the
        // value and the terminal flag.
        let index_entry = size_of::<Rc<[Value]>>() + size_of::<u32>() + 1;
        let per_node =
            size_of::<Rc<[Value]>>() + index_entry + size_of::<u64>() + size_of::<bool>();
        // An `Rc` allocation: two counts, then the values.
        let args: usize = table
            .args
            .iter()
            .map(|a| 2 * size_of::<usize>() + a.len() * size_of::<Value>())
            .sum();
        table.dense.bytes() + table.args.len() * per_node + args
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
mod tests {
    use super::*;

    #[test]
    fn a_dense_slot_holds_any_value_and_every_mark() {
        for arity in [1, 2] {
            let mut dense = Dense {
                arity,
                ..Dense::default()
            };
            let z = if arity == 1 {
                70_000
            } else {
                dense2(5, 9).unwrap()
            };
            assert_eq!(dense.get(z), ABSENT);
            let large = u64::from(Dense::PLAIN);
            for value in [
                0,
                7,
                large - 1,
                large,
                1 << 40,
                UNKNOWN,
                IN_PROGRESS,
                ABSENT,
                3,
            ] {
                dense.set(z, value);
                assert_eq!(dense.get(z), value, "arity {arity}");
            }
            assert!(
                dense.spilled.is_empty(),
                "a spilled value is dropped once replaced"
            );
            dense.set(z, 1 << 40);
            assert_eq!(dense.slots().collect::<Vec<_>>(), [(z, 1 << 40)]);
            dense.forget_values();
            assert_eq!((dense.get(z), dense.spilled.len()), (UNKNOWN, 0));
        }
    }

    #[test]
    fn small_integer_arguments_are_dense_and_others_hashed() {
        let mut graph = Graph::default();
        let int = |n: i64| Value::Int(n);
        // A one-parameter game: the index is the argument.
        let a = graph.insert(0, &[int(7)]);
        assert_eq!(a.index, 7);
        let neg = graph.insert(0, &[int(-1)]);
        assert!(neg.index >= DENSE_END, "negative arguments are hashed");
        assert_eq!(graph.find(0, &[int(7)]), Some(a));
        assert_eq!(graph.find(0, &[int(-1)]), Some(neg));
        assert_eq!(graph.find(0, &[int(8)]), None);
        // A two-parameter game: the index is the Szudzik number, kept by rows.
        let pairs = [(0, 0), (3, 5), (5, 3), (46_339, 2)];
        let nodes: Vec<NodeId> = pairs
            .iter()
            .map(|(x, y)| graph.insert(1, &[int(*x), int(*y)]))
            .collect();
        for ((x, y), node) in pairs.iter().zip(&nodes) {
            assert!(node.index < DENSE_END);
            assert_eq!(&*graph.args(*node), [int(*x), int(*y)]);
            graph.set_value(*node, (*x + *y) as u64);
        }
        let dense = graph.dense(1).unwrap();
        assert_eq!(dense.at(3, 5), 8);
        assert_eq!(dense.at(5, 3), 8);
        assert_eq!(dense.at(4, 4), ABSENT);
        assert_eq!(graph.insert(1, &[int(46_340), int(0)]).index, DENSE_END);
        let listed: Vec<NodeId> = graph.nodes(1).map(|(n, _)| n).collect();
        assert_eq!(listed.len(), 5);
        assert_eq!(graph.len(), 7);
        let known = graph.stats().map(|(_, _, known)| known).collect::<Vec<_>>();
        assert_eq!(known, [0, 4]);
    }
}
