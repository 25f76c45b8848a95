//! A kernel's machine code: compiled once its runs have done the work
//! compiling costs ([`super::COMPILE_AFTER`]), and its entry points for a
//! position, a sweep, a board and a strip; what the rules read that
//! chooses between them (short loops, few options, moves to another
//! game at the same size).

use super::bounds::capped;
use super::{COMPILE_AFTER, Domain, Found, Kernel, Levels, Marks, Stop, Strip, Term, native};
use super::{Lin, Num};
use crate::defs::Defs;
use crate::graph::Graph;
use crate::value::GameId;
use std::cell::Cell;

impl Kernel {
    /// [`Kernel::mex`] by the machine code; `None` when there is no
    /// machine code, or it left the position to [`Kernel::mex`];
    /// `Stop::Bail` when `poll`, called every so often, says to stop.
    ///
    /// The machine code is compiled once the runs without it have done
    /// [`COMPILE_AFTER`] (see [`Kernel::ran`]), or at once when `eager`
    /// or the rules ask values, which the runs without it leave to the
    /// interpreter:
    /// compiling takes some milliseconds (about 10⁷ instructions), which a
    /// game of a few hundred positions, such as a 15 x 15 board, never
    /// wins back.
    pub fn native_mex(
        &self,
        (defs, graph, room): (&Defs, &mut Graph, Option<native::deep::Room>),
        args: &[i64],
        (marks, views): (&mut Marks, &mut Vec<crate::graph::View>),
        poll: &mut dyn FnMut() -> bool,
        eager: bool,
    ) -> Option<Result<Found, Stop>> {
        let early = |spent: &Cell<u64>| !eager && !self.asks && spent.get() < COMPILE_AFTER;
        let (native, now) = match self.native.get() {
            Some(native) => (native.as_ref()?, false),
            None if early(&self.spent) => return None,
            None => (self.native()?, true),
        };
        // Machine code compiled before for a sweep has its mex function
        // compiled on the same terms, once the positions run alone since
        // have done the work.
        if !native.has_mex() && !now && early(&self.alone) {
            return None;
        }
        native.mex(self, (defs, graph, room), args, (marks, views), poll)
    }

    /// Whether the machine code is compiled (and compiled to something).
    pub fn compiled(&self) -> bool {
        matches!(self.native.get(), Some(Some(_)))
    }

    /// [`native::Native::value_in_place`] of `node`, with arguments
    /// `args`, when the machine code is compiled already (`None` where
    /// it is not).
    pub fn native_in_place(
        &self,
        (defs, graph, room): (&Defs, &mut Graph, native::deep::Room),
        (node, args): (crate::value::NodeId, &[i64]),
        views: &mut Vec<crate::graph::View>,
        poll: &mut dyn FnMut() -> bool,
    ) -> Option<Option<u64>> {
        let native = self.native.get()?.as_ref()?;
        native.value_in_place(self, (defs, graph, room), (node, args), views, poll)
    }

    /// Whether the work of runs of [`Kernel::mex`] is to be counted with
    /// [`Kernel::ran`]: while the machine code, or its mex function, is
    /// not compiled yet.
    pub fn counts_work(&self) -> bool {
        match self.native.get() {
            Some(Some(native)) => !native.has_mex(),
            Some(None) => false,
            None => true,
        }
    }

    /// Counts the work a run of [`Kernel::mex`] did towards compiling the
    /// machine code, or, once it is compiled without it, its mex function
    /// (see [`Kernel::native_mex`]).
    pub fn ran(&self, work: u64) {
        let spent = match self.native.get() {
            Some(_) => &self.alone,
            None => &self.spent,
        };
        spent.set(spent.get().saturating_add(work));
    }

    /// The machine code, compiled now if it was not.
    pub(super) fn native(&self) -> Option<&native::Native> {
        self.native.get_or_init(|| native::compile(self)).as_ref()
    }

    /// The values of positions `from..to` of `game`, this kernel's own
    /// game, found by the machine code in turn by dense index (for two
    /// arguments: shell after shell of the square, Szudzik's order) and
    /// written into the game's dense table, whose slots for them must
    /// exist.
    /// Returns where it stopped: `to`, or the first position it left to
    /// [`Kernel::mex`] (or that has no machine code), or a position
    /// without options (the last true), which the caller values 0 and
    /// records as terminal; or where it paused after enough work, for the
    /// caller to look at the clock (the first true).
    pub fn native_sweep(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, from, to): (GameId, u32, u32),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> (u32, bool, bool) {
        match self.native() {
            Some(native) => native.sweep(self, (defs, graph), (game, from, to), marks, views),
            None => (from, false, false),
        }
    }

    /// [`Native::quad_row`](super::native::Native::quad_row): the
    /// positions `(a, b, c, d)` of row `(b, c, d)`, `a` in `from..to`;
    /// `(from, false)` when there is no machine code.
    pub fn native_quad_row(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, row, cols): (GameId, [u16; 3], (u32, u32)),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> (u32, bool) {
        match self.native() {
            Some(native) => native.quad_row(self, (defs, graph), (game, row, cols), marks, views),
            None => (cols.0, false),
        }
    }

    /// [`Native::sweep_down`](super::native::Native::sweep_down) of the
    /// positions `bottom..top`; `(top, false)` when there is no machine
    /// code.
    pub fn native_sweep_down(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, bottom, top): (GameId, u32, u32),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> (u32, bool) {
        match self.native() {
            Some(native) => {
                native.sweep_down(self, (defs, graph), (game, bottom, top), marks, views)
            }
            None => (top, false),
        }
    }

    /// Whether the game's positions are three integers, or a tuple split
    /// into three (see `normalize/split.rs`): then its machine code sweeps
    /// the rows of their cube ([`Kernel::native_cube`]).
    pub fn cube(&self) -> bool {
        self.arity == 3 && (self.lists.is_none() || self.split.is_some())
    }

    /// The order of the board's levels, if the game has one (see
    /// [`Levels`]).
    pub fn levels(&self) -> Option<Levels> {
        self.levels
    }

    /// How many values of their binders the conjuncts the rules keep once
    /// per game ([`super::filter`]) were evaluated at.
    pub fn filtered(&self) -> usize {
        (self.moves.iter())
            .filter_map(|m| m.filter())
            .map(|f| f.evaluated())
            .sum()
    }

    /// The strip the game's positions lie in, if it has one (see
    /// [`Strip`]).
    pub fn strip(&self) -> Option<Strip> {
        self.strip
    }

    /// The positions of levels `from..to` of the board (see [`Levels`]),
    /// those of its box without a value yet, found by the machine code in
    /// turn and written into the game's dense table, whose slots for the
    /// box must exist. Returns where it stopped: `(to, 0)` when done, the
    /// level and row of the first position it left to [`Kernel::mex`]
    /// (or `(from, 0)` when there is no such machine code), or where it
    /// paused after enough work (true).
    pub fn native_levels(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, from, to): (GameId, i64, i64),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> ((i64, i64), bool) {
        match self.native() {
            Some(native) => native.levels(self, (defs, graph), (game, from, to), marks, views),
            None => ((from, 0), false),
        }
    }

    /// The argument that runs long in the game's strips of triples, if
    /// its positions lie in some (see [`super::strip3`]).
    pub fn strip3(&self) -> Option<usize> {
        self.strip3
    }

    /// Whether a sweep of the strips of triples takes a row's pairs
    /// second short argument first (see [`super::strip3::strip3`]).
    pub fn strip3_swapped(&self) -> bool {
        self.strip3_swapped
    }

    /// The box of short arguments the positions reached from a position
    /// with short arguments `seed` keep to (see [`super::strip3::close`]).
    pub fn strip3_box(&self, seed: [i64; 2]) -> Option<[(i64, i64); 2]> {
        let order = (self.strip3?, self.strip3_swapped);
        super::strip3::close(&self.moves, self.game, order, seed)
    }

    /// The rows `from..to` of the long argument of the strips of triples
    /// (see [`super::strip3`]), each pair of short arguments of `cells` in
    /// turn, those of its positions without a value yet, found by the
    /// machine code and written into the game's dense table, whose slots
    /// for them must exist. Returns where it stopped: `(to, 0)` when done,
    /// the row and the pair's strip row (`s * STRIP3_WIDTH + t`) of the
    /// first position it left to [`Kernel::mex`] (or `(from, 0)` when
    /// there is no such machine code), or the row where it paused after
    /// enough work (true).
    pub fn native_strip3(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, (from, to), cells): (GameId, (i64, i64), [(i64, i64); 2]),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> ((i64, i64), bool) {
        let run = (game, (from, to), cells);
        match self.native() {
            Some(native) => native.strip3(self, (defs, graph), run, marks, views),
            None => ((from, 0), false),
        }
    }

    /// The rows `from..to` of the strip (see [`Strip`]), in its columns
    /// and columns `extra` (inclusive) if any, those of its positions
    /// without a value yet, found by the machine code in turn
    /// and written into the game's dense table, whose slots for them must
    /// exist. Returns where it stopped: `(to, 0)` when done, the row and
    /// column of the first position it left to [`Kernel::mex`] (or
    /// `(from, 0)` when there is no such machine code), or the row where
    /// it paused after enough work (true).
    pub fn native_strip(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, (from, to), extra): (GameId, (i64, i64), Option<(i64, i64)>),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> ((i64, i64), bool) {
        let run = (game, (from, to), extra);
        match self.native() {
            Some(native) => native.strip(self, (defs, graph), run, marks, views),
            None => ((from, 0), false),
        }
    }

    /// The rows `from..to` of the cube of a three-integer game (the
    /// Szudzik numbers of `(b, c)`), columns `0..width`, those of its
    /// positions `(a, b, c)` without a value yet, found by the machine code
    /// in turn and written into the game's dense table, whose slots for
    /// them must exist. Returns where it stopped: `(to, 0)` when done, the
    /// row and column of the first position it left to [`Kernel::mex`]
    /// (or `(from, 0)` when there is no such machine code), or the row
    /// where it paused after enough work (true).
    pub fn native_cube(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, (from, to), width): (GameId, (i64, i64), i64),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> ((i64, i64), bool) {
        let run = (game, (from, to), width);
        match self.native() {
            Some(native) => native.cube(self, (defs, graph), run, marks, views),
            None => ((from, 0), false),
        }
    }

    /// Whether the rules' calls of function `f` are compiled calls (see
    /// [`calls`]), rather than left to the interpreter.
    pub fn calls_compiled(&self, f: crate::ir::FnId) -> bool {
        self.calls.as_ref().is_some_and(|c| c.compiled(f))
    }

    /// Whether every move's loops run over a few values whatever the
    /// position (`k in {1, 3, 4}`, `k in 1..=3`, `k in 1..=passes` of a
    /// counter's strip's short argument `passes`, no binder at all): then
    /// sweeping positions beats running each alone, which it does not
    /// for `d in 1..n`, whose options cost more in a sweep's code.
    pub fn short(&self) -> bool {
        // Up to the short argument of a counter's strip, which a sweep
        // takes only among a few values (`k in 1..=passes`).
        let narrow = |hi: &Num| {
            self.strip.filter(|s| s.down).is_some_and(|s| {
                Lin::of(hi).is_some_and(|l| l.terms.iter().all(|(x, _)| *x as usize == 1 - s.long))
            })
        };
        let few = |d: &Domain| match d {
            Domain::Range(lo, hi, _) => lo.is_const() && (capped(hi) || narrow(hi)),
            Domain::Items(_) | Domain::Global(_) | Domain::Fixed(_) => true,
            // A constant row's items (`k in NEXT[last]`).
            Domain::Seq(seq) => super::bounds::capped_seq(seq),
            Domain::Split(..) => false,
        };
        (self.moves.iter()).all(|m| m.binders.iter().all(|(_, d)| few(d)))
    }

    /// The games whose position `n` an option of position `n` of this
    /// one-integer game is (`a(n)` moving to `b(n)`): a sweep of both
    /// values those first.
    pub fn reads_level(&self) -> Vec<GameId> {
        let mut out = Vec::new();
        if self.arity == 1 && self.lists.is_none() {
            (self.moves.iter().flat_map(|m| &m.terms)).for_each(|t| level(t, &mut out));
        }
        out
    }

    /// Whether a position has at most a few options (16), whatever it
    /// is: every binder runs over a few constants, or a range between
    /// constants (`k in 1..=3`, `k in 1..=min(n, 3)`). Its mex is then at
    /// most 16, and its machine code keeps the options' values below 64
    /// as bits of a word, ignores the others, and finds the mex with no
    /// scan (`native/emit`). With more options, the word costs more per
    /// option than the scan saves (the bitmask workload's 39: +7%).
    pub fn few_options(&self) -> bool {
        let size = |d: &Domain| -> Option<i64> {
            match d {
                Domain::Range(Num::Const(lo), hi, inclusive) => {
                    let hi = match hi {
                        Num::Const(hi) => *hi,
                        Num::Extremum(true, items) => (items.iter())
                            .filter_map(|i| match i {
                                Num::Const(c) => Some(*c),
                                _ => None,
                            })
                            .min()?,
                        _ => return None,
                    };
                    Some(
                        hi.saturating_sub(*lo)
                            .saturating_add(i64::from(*inclusive))
                            .max(0),
                    )
                }
                Domain::Items(items) => Some(items.len() as i64),
                Domain::Fixed(values) => Some(values.len() as i64),
                _ => None,
            }
        };
        let options = (self.moves.iter()).try_fold(0i64, |sum, m| {
            let each =
                (m.binders.iter()).try_fold(1i64, |n, (_, d)| Some(n.saturating_mul(size(d)?)));
            Some(sum.saturating_add(each?))
        });
        options.is_some_and(|n| n <= 16)
    }

    /// Whether the rules run as machine code, compiling it if it was not.
    pub fn is_native(&self) -> bool {
        self.native().is_some()
    }

    /// Whether the machine code should run `positions` positions: it is
    /// compiled for them if there are at least `after` (see
    /// [`Kernel::native_mex`]).
    pub fn native_for(&self, positions: u32, after: u32) -> bool {
        match self.native.get() {
            Some(native) => native.is_some(),
            None if positions < after => false,
            None => self.is_native(),
        }
    }
}

/// Pushes on `out` each game whose position `n` the term `t` makes from a
/// one-integer position `n` (`b(n)`, with `n` the parameter).
fn level(t: &Term, out: &mut Vec<GameId>) {
    match t {
        Term::Node(game, args) if matches!(args.as_slice(), [Num::Slot(0)]) => out.push(*game),
        Term::Sum(c) => c.elem.iter().for_each(|t| level(t, out)),
        _ => {}
    }
}
