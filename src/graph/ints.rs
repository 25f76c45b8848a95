//! The graph's lookups and insertions of positions given as integers or
//! as flat runs of integers ([`flat`]), the paths of the compiled rules
//! and the sweeps: they make no `Value`s when the position is dense or
//! its key packs the integers themselves.

use super::form::Form;
use super::{
    ABSENT, DENSE_END, Graph, IN_PROGRESS, NodeTable, UNKNOWN, dense1, dense2, flat, int_index,
};
use crate::value::{GameId, NodeId, Value};

impl Graph {
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
        if !hashed_ints(args) {
            return None;
        }
        let found = self
            .games
            .get_mut(game as usize)?
            .hashed
            .intern_ints(args, add);
        Some(found.map(|found| self.interned(game, found)))
    }

    /// The node of hashed position `index` of `game`, as
    /// [`Hashed::intern_ints`](super::hashed::Hashed::intern_ints) found
    /// it: made just now where `new`, and counted.
    fn interned(&mut self, game: GameId, (index, new): (u32, bool)) -> NodeId {
        if !new {
            return NodeId {
                game,
                index: DENSE_END + index,
            };
        }
        self.total += 1;
        self.games[game as usize].hashed_node(game, index)
    }

    /// [`Graph::intern_hashed_ints`] for a recursion about to run the
    /// position: its node and the value slot it held, which is marked
    /// [`IN_PROGRESS`] when it held [`UNKNOWN`] (a new position included),
    /// all in one probe and with no second look at its game's table.
    pub fn claim_hashed_ints(
        &mut self,
        game: GameId,
        args: &[i64],
        add: bool,
    ) -> Option<Option<(NodeId, u64)>> {
        if !hashed_ints(args) {
            return None;
        }
        let hashed = &mut self.games.get_mut(game as usize)?.hashed;
        let Some((index, new)) = hashed.intern_ints(args, add) else {
            return Some(None);
        };
        let value = hashed.value(index);
        if value == UNKNOWN {
            hashed.set_value(index, IN_PROGRESS);
        }
        Some(Some((self.interned(game, (index, new)), value)))
    }

    /// The node of the new position `game(args)`, one or two integers
    /// too large to be dense, which the caller found [`ABSENT`] just
    /// now: added without the comparisons of [`Graph::intern_hashed_ints`]
    /// (which this is otherwise, `add` being true). `None` as it says.
    pub fn add_hashed_ints(&mut self, game: GameId, args: &[i64]) -> Option<Option<NodeId>> {
        if !hashed_ints(args) {
            return None;
        }
        let table = self.games.get_mut(game as usize)?;
        debug_assert!(table.hashed.find_ints(args).is_none(), "a new position");
        let index = table.hashed.insert_ints(args);
        Some(Some(self.interned(game, (index, true))))
    }

    /// The value slot of `game(args)`, [`ABSENT`] when there is no such
    /// position: read densely when the arguments allow it, else (a
    /// position the dense table had no room for, or any other) among the
    /// hashed positions. The machine code's lookup of a position it does
    /// not read itself: one find of the game's table.
    #[inline]
    pub fn int_value(&self, game: GameId, args: &[i64]) -> u64 {
        match *args {
            [n] => self.int_value1(game, n),
            _ => self.int_value_of(game, args),
        }
    }

    /// [`Graph::int_value`] of one integer: the machine code's lookup of
    /// a heap outside the dense tables (10^15 divided by 2, 3 or 6) a
    /// million times over, kept apart from the general case's frame.
    fn int_value1(&self, game: GameId, n: i64) -> u64 {
        let Some(table) = self.games.get(game as usize) else {
            return ABSENT;
        };
        let d = &table.dense;
        let v = match dense1(n) {
            Some(z) if d.arity() == 1 => d.get(z),
            _ => ABSENT,
        };
        if v != ABSENT || table.hashed.len() == 0 {
            return v;
        }
        let hashed = &table.hashed;
        hashed.find_ints(&[n]).map_or(ABSENT, |i| hashed.value(i))
    }

    /// [`Graph::int_value`] of other than one integer.
    fn int_value_of(&self, game: GameId, args: &[i64]) -> u64 {
        let Some(table) = self.games.get(game as usize) else {
            return ABSENT;
        };
        let d = &table.dense;
        let v = match args {
            _ if d.arity() != args.len() => ABSENT,
            // By row and column: no pairing number to undo.
            [a, b] if dense2(*a, *b).is_some() => d.at(*a as usize, *b as usize),
            [_, _, _] | [_, _, _, _] => int_index(args).map_or(ABSENT, |z| d.get_ints(z, args)),
            _ => ABSENT,
        };
        if v != ABSENT || table.hashed.len() == 0 {
            return v;
        }
        match args {
            [_, _] => table
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

    /// The value of the position of flat run `run` ([`flat`]), or
    /// [`ABSENT`] when it is not interned: [`Graph::find_flat`] and
    /// [`Graph::value`] in one, with a dense slot read by its integers
    /// rather than by its index undone.
    pub fn flat_value(&self, game: GameId, run: &[i64]) -> u64 {
        self.flat_entry(game, run).map_or(ABSENT, |(_, v)| v)
    }

    /// [`Graph::find`] of arguments given as a flat run ([`flat`]).
    pub fn find_flat(&self, game: GameId, run: &[i64]) -> Option<NodeId> {
        self.flat_entry(game, run).map(|(node, _)| node)
    }

    /// The position of flat run `run` and its value slot, if it is
    /// interned: in the dense table of the game's form, read by the run's
    /// integers, else among the hashed positions.
    fn flat_entry(&self, game: GameId, run: &[i64]) -> Option<(NodeId, u64)> {
        if let Some(h) = flat::canonical(run) {
            return self.flat_entry(game, &[&[h], &run[1..]].concat());
        }
        let table = self.games.get(game as usize)?;
        if let Some(z) = table.quad_slot(run) {
            let v = table.dense.get_ints(z, &run[1..]);
            if v != ABSENT {
                return Some((NodeId { game, index: z }, v));
            }
        }
        if let Some((z, ints)) = table.form_slot(run) {
            let v = table.dense.get_ints(z, &ints[..table.dense.arity]);
            if v != ABSENT {
                return Some((NodeId { game, index: z }, v));
            }
        }
        if table.hashed.len() == 0 {
            return None;
        }
        let index = table.hashed.find_flat(run)?;
        let node = NodeId {
            game,
            index: DENSE_END + index,
        };
        Some((node, table.hashed.value(index)))
    }

    /// The node of `game`'s position of flat run `run` among its hashed
    /// positions, added if it is new and `add` (then counted as
    /// [`Graph::insert_flat`] counts it): `None` when it is not one of
    /// them, as a position the game's form has a dense slot for, or the
    /// first that would give the game its form.
    pub fn intern_hashed_flat(
        &mut self,
        game: GameId,
        run: &[i64],
        add: bool,
    ) -> Option<Option<NodeId>> {
        if let Some(h) = flat::canonical(run) {
            return self.intern_hashed_flat(game, &[&[h], &run[1..]].concat(), add);
        }
        let table = self.games.get_mut(game as usize)?;
        // As `insert_flat` would find it a dense slot.
        if table.form_slot(run).is_some()
            || table.quad_slot(run).is_some()
            || table.dense.arity == 0 && Form::of(run).is_some()
        {
            return None;
        }
        if let Some(index) = table.hashed.find_flat(run) {
            return Some(Some(NodeId {
                game,
                index: DENSE_END + index,
            }));
        }
        if !add {
            return Some(None);
        }
        self.total += 1;
        let index = table.hashed.insert_flat(run);
        Some(Some(table.hashed_node(game, index)))
    }

    /// The flat run of `game`'s position of the form of code `form` whose
    /// free integers are `ints`, into `out`: when that is the form of the
    /// game's dense table (a strip of `g(n, spent)` is swept by its
    /// integers, `spent` as 0 or 1).
    pub fn formed_run(
        &self,
        (game, form): (GameId, u64),
        ints: &[i64],
        out: &mut Vec<i64>,
    ) -> bool {
        let Some(f) = self
            .games
            .get(game as usize)
            .and_then(|t| t.dense.form.as_ref())
        else {
            return false;
        };
        if f.code() != form || f.arity() != ints.len() {
            return false;
        }
        f.fill(ints, out);
        true
    }

    /// The position of `game` whose integers are `ints`: its arguments,
    /// or, given the code of its table's form, its free integers (see
    /// [`Graph::formed_run`]); `None` when it is not interned.
    pub fn find_formed(&self, (game, form): (GameId, Option<u64>), ints: &[i64]) -> Option<NodeId> {
        let Some(form) = form else {
            return self.find_ints(game, ints);
        };
        let mut run = Vec::new();
        match self.formed_run((game, form), ints, &mut run) {
            true => self.find_flat(game, &run),
            false => None,
        }
    }

    /// The free integers of `node`, a position of the form of code `form`
    /// that is its game's dense table's, into `out` (the inverse of
    /// [`Graph::formed_run`]); false for a position of another form or
    /// none, or a table of another form.
    pub fn free_args(&self, (node, form): (NodeId, u64), out: &mut Vec<i64>) -> bool {
        let table = self.games.get(node.game as usize);
        let Some(form) = (table.and_then(|t| t.dense.form.as_ref())).filter(|f| f.code() == form)
        else {
            return false;
        };
        let mut run = Vec::new();
        let mut ints = [0; super::FREE_MAX];
        if !self.flat_args(node, &mut run) || !form.ints(&run, &mut ints) {
            return false;
        }
        out.clear();
        out.extend_from_slice(&ints[..form.arity()]);
        true
    }

    /// [`Graph::insert`] of arguments given as a flat run (the caller has
    /// checked it is new and within limits).
    pub fn insert_flat(&mut self, game: GameId, run: &[i64]) -> NodeId {
        if let Some(h) = flat::canonical(run) {
            return self.insert_flat(game, &[&[h], &run[1..]].concat());
        }
        if self.games.len() <= game as usize {
            self.games
                .resize_with(game as usize + 1, NodeTable::default);
        }
        self.total += 1;
        let table = &mut self.games[game as usize];
        if let Some(z) = table.quad_slot(run)
            && table.dense.take(4, z, &run[1..])
        {
            return NodeId { game, index: z };
        }
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
}

/// Whether `args` are one or two integers too large to be dense: those
/// the hashed positions keep in the key itself.
fn hashed_ints(args: &[i64]) -> bool {
    int_index(args).is_none() && matches!(args, [_] | [_, _])
}
