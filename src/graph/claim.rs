//! The graph's dense tables as the sweeps and the compiled rules use
//! them: read directly, and filled a slot, a chain or a rectangle at a
//! time with no arguments made, within the room the limits leave; and
//! how far a board sweep has gone.

use super::form::Form;
use super::{DENSE_END, Dense, Graph, View};
use crate::value::{GameId, NodeId};

impl Graph {
    /// The dense positions of `game`, for the compiled rules to read.
    pub fn dense(&self, game: GameId) -> Option<&Dense> {
        self.games.get(game as usize).map(|t| &t.dense)
    }

    /// What compiled rules read the positions of `game` of `n` integers
    /// through: its dense table where its positions have `n` integers
    /// (or a form), and its hashed positions of one or two.
    pub fn target_view(&self, game: GameId, n: usize) -> View {
        let Some(table) = self.games.get(game as usize) else {
            return View::EMPTY;
        };
        let d = &table.dense;
        let mut view = match d.arity() == n || d.is_formed() {
            true => d.view(),
            false => View::EMPTY,
        };
        if matches!(n, 1 | 2) {
            view.hashed = table.hashed.probe() as u64;
        }
        view
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
        self.swept += 1;
        Some(NodeId { game, index: z })
    }

    /// The node of `game(args)`, a triple in a strip of its dense table
    /// (see `index::STRIP3_WIDTH`), made if it is new and `add`, for the
    /// machine code to evaluate in place: only where its slot exists, so
    /// that no row the running code reads moves. `None` for other
    /// arguments (then as [`Graph::intern_hashed_ints`] says); `Some(None)`
    /// where it cannot be made so. With the node, its slot: it stays where
    /// it is while no position is made in a row that does not hold its
    /// slot (the recursion makes none).
    pub fn intern_in_strip(
        &mut self,
        game: GameId,
        args: &[i64],
        add: bool,
    ) -> Option<Option<(NodeId, *mut u32)>> {
        let &[a, b, c] = args else { return None };
        let z = super::dense3(a, b, c).filter(|z| super::index::in_strip3(*z))?;
        let table = self.games.get_mut(game as usize)?;
        if !table.dense.fits(3) {
            return None;
        }
        let node = NodeId { game, index: z };
        let held = table.dense.hold(3, z, args, add);
        if let Some((true, _)) = held {
            self.total += 1;
        }
        Some(held.map(|(_, slot)| (node, slot)))
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
        self.swept += made;
        end
    }

    /// `Dense::claim_rect` of `game`'s positions `(a, b)`, `a` in `rows`
    /// and `b` in `cols` (inclusive, within [`SIDE_MAX`](super::SIDE_MAX)),
    /// when the graph has room for them within `room` positions: how many
    /// it made. Positions of two integers when `form` is `None`; else of
    /// the form of that code (see [`super::form_code`]), which must be
    /// the table's already, of two free integers (`g(n, spent)`). New
    /// rows may be a run where `run` (see `Dense::claim_rect`).
    pub fn claim_rect(
        &mut self,
        (game, form): (GameId, Option<u64>),
        (rows, cols): ((usize, usize), (usize, usize)),
        (room, run): (usize, bool),
    ) -> Option<usize> {
        self.claim_with((game, form), room, |dense, most| {
            dense.claim_rect(rows, cols, (most, run))
        })
    }

    /// `Dense::claim_cube` of `game`'s positions `(a, b, c)`, `a` in `cols`
    /// and `(b, c)` of Szudzik number in `rows` (inclusive), as
    /// [`Graph::claim_rect`] claims pairs: of three integers when `form`
    /// is `None`, else of three free integers of the form of that code.
    pub fn claim_cube(
        &mut self,
        (game, form): (GameId, Option<u64>),
        (rows, cols): ((usize, usize), (usize, usize)),
        room: usize,
    ) -> Option<usize> {
        self.claim_with((game, form), room, |dense, most| {
            dense.claim_cube(rows, cols, most)
        })
    }

    /// `Dense::claim_strip3` of `game`'s triples whose argument `long`
    /// runs long past the cube: the pairs of short arguments in `cells`,
    /// the long one in `longs` (inclusive, from the cube's side), as
    /// [`Graph::claim_rect`] claims pairs.
    pub fn claim_strip3(
        &mut self,
        (game, long): (GameId, usize),
        (cells, longs): ([(usize, usize); 2], (usize, usize)),
        room: usize,
    ) -> Option<usize> {
        let side = super::SIDE3_MAX as usize;
        let cols = (longs.0.checked_sub(side)?, longs.1.checked_sub(side)?);
        let most = room.saturating_sub(self.total);
        let table = self.games.get_mut(game as usize)?;
        if table.dense.form.is_some() {
            return None;
        }
        // Rows claimed before one that could not be are positions too.
        let (made, all) = table.dense.claim_strip3(long, cells, cols, most);
        self.total += made;
        self.swept += made;
        all.then_some(made)
    }

    /// Runs `claim` on `game`'s dense table, whose form must be the one of
    /// code `form` (or none), with the room left for new positions: how
    /// many it made.
    fn claim_with(
        &mut self,
        (game, form): (GameId, Option<u64>),
        room: usize,
        claim: impl FnOnce(&mut Dense, usize) -> Option<usize>,
    ) -> Option<usize> {
        let most = room.saturating_sub(self.total);
        let table = self.games.get_mut(game as usize)?;
        if table.dense.form.as_ref().map(Form::code) != form {
            return None;
        }
        let made = claim(&mut table.dense, most)?;
        self.total += made;
        self.swept += made;
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
}
