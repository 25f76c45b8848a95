//! Phase 4b: the rules of integer games compiled to loops over machine
//! integers. A game qualifies when every move's binders range over
//! integer ranges or integer lists, and its guards and targets are
//! integer arithmetic, comparisons and game applications: the common shape
//! of heap, row and board games. [`compile`] is the entry point; the
//! evaluator runs the result with [`Kernel::mex`] and falls back to the
//! interpreter ([`crate::runtime::moves::expand`]) whenever the kernel bails.
//!
//! The kernel never reports a user's error. Anything unusual (a division
//! by zero, an overflow, a negative heap, a cycle, a position that would
//! exceed `--max-states`) makes it bail, and the interpreter, which runs
//! the rules in their written order, then reports exactly what it always
//! reports. So the kernel only has to agree with the interpreter on rules
//! that run cleanly: it must produce the same options.
//!
//! The speed comes from the innermost binder. With the outer binders
//! fixed, a target argument like `n - k - a` is affine in the innermost
//! binder `a`, so it is computed as `base + step * a` without walking an
//! expression; guard conditions that are affine comparisons, such as
//! `2 * a < n`, narrow the binder's range instead of being tested per
//! option; and the options' values are read from the graph's dense arrays
//! by index.

mod bounds;
mod build;
mod calls;
mod expr;
mod filter;
mod large;
mod levels;
pub mod listing;
mod marks;
mod moves;
mod narrow;
// Calling generated machine code is unsafe by nature: this module alone.
mod forms;
mod frame;
mod machine_code;
#[allow(unsafe_code)]
mod native;
mod plan;
pub mod query;
pub mod report;
mod run;
mod seq;
mod strip;
pub mod strip3;
mod targets;
mod terms;
mod values;
pub(crate) use seq::ITEMS_MAX;
mod wide;
mod work;

use crate::defs::Defs;
use crate::graph::Graph;
use crate::graph::{Shape, flat};
use crate::ir::{LetId, Slot};
use crate::runtime::normalize::callees;
use crate::syntax::ast::BinOp;
use crate::value::GameId;
use build::compile_typed;
pub use build::{compile, compile_fixed, compile_game, compile_hinted};
use calls::Calls;
pub use calls::Func;
use expr::{Cond, Lin, Num};
pub use levels::Levels;
pub use marks::{ASKED, MISSING_MAX, Marks, Missing, RECENT};
pub use native::deep::Room;
pub use native::group::{Group, compile as compile_group};
pub use report::{
    MoveShape, compiles_as_cond, compiles_as_domain, compiles_as_num, compiles_as_target,
    domain_too_large, move_shape,
};
use seq::Seq;
pub use seq::Types;

/// For each parameter of a game, the shape and length of the list or
/// tuple its rules are compiled for, where they are (see
/// [`compile_fixed`]).
pub type Lengths = Vec<Option<(crate::graph::Shape, usize)>>;

/// What the positions met say of a game's parameters, which its rules
/// alone cannot: the shapes of a position's arguments, which type its
/// list and set parameters (see [`compile_hinted`]), and the lengths of
/// its lists and tuples where the rules keep them (see [`compile_fixed`]).
#[derive(Clone, Debug, Default)]
pub struct Hints {
    /// The shapes of a position met's arguments; empty where none typed
    /// the rules.
    pub shapes: Vec<crate::graph::Shape>,
    /// For each parameter, the shape and length of the list or tuple of a
    /// position met, that the rules are compiled for; empty where none.
    pub lengths: Lengths,
    /// Whether a position was looked at for `lengths`: after that, the
    /// rules are compiled for any length where `lengths` is empty (none
    /// met, or positions of another length met later), for good.
    pub lengths_tried: bool,
}
use std::cell::{Cell, OnceCell};
use std::rc::Rc;
pub use strip::Strip;
pub use wide::compile_wide;

/// How much work a game's positions do without machine code before it is
/// compiled, in the units [`Marks::work`] counts (a binder's step, an
/// item of a loop), plus one a run: about what compiling it takes (some
/// milliseconds), so that a game of a few hundred positions (a 15 x 15
/// board) is never compiled. A count, not a time, so that the same file
/// always switches at the same position, whatever the machine's load:
/// where the switch falls can change which error is met first near a
/// limit. A unit's cost varies with what a step does (16 ns for a
/// divisor's test, about 600 ns for a step that calls a recursive
/// function or makes a list): 4,000 of them take 0.1 to 2.7 ms on the
/// bench's workloads.
pub const COMPILE_AFTER: u64 = 4_000;

/// Why a kernel stopped without a value.
#[derive(Debug, PartialEq)]
pub enum Stop {
    /// Let the interpreter expand this position instead.
    Bail,
    /// Some options' positions have no value yet (they are in
    /// [`Marks::missing`]): evaluate them, then ask again.
    Missing,
}

type Eval<T> = Result<T, Stop>;

/// Where a binder's values come from.
#[derive(Debug)]
enum Domain {
    /// `lo..hi`, or `lo..=hi` when `inclusive`.
    Range(Num, Num, bool),
    /// A list written out, as in `k in [1, 3, n]`.
    Items(Vec<Num>),
    /// A global constant holding integers: a list, tuple, set or range.
    Global(LetId),
    /// Constant items, ready when the rules are compiled: `k in {1, 2, 3}`.
    Fixed(run::Values),
    /// The items of a list: `h in hs`.
    Seq(Seq),
    /// `(i, h) in enumerate(hs)` or `(x, y) in ps`: the binder's slot
    /// takes each index (or first half), and this slot the item there (or
    /// the second half), as [`seq::Split`] says.
    Split(seq::Split, Seq, Slot),
}

#[derive(Debug)]
enum Term {
    Node(GameId, Vec<Num>),
    Heap(Num),
    /// A position with list arguments: its game, the header of its flat
    /// run ([`flat`]), and its arguments.
    Flat(GameId, i64, Vec<Arg>),
    /// `sum([T for ...])` of positions: the xor of the values of the
    /// terms `T` of every item (games applied to integers, heaps, and
    /// such sums).
    Sum(Box<seq::Comp<Vec<Term>>>),
}

impl Term {
    /// Whether the term makes a position of another game (than `id`)
    /// with a list at a parameter that game's rules pass on unchanged:
    /// such positions are kept in games made for their values
    /// ([`crate::runtime::instances`]), which the compiled rules do not
    /// read; the interpreter makes them. A game's own moves keep the
    /// values of the position they are made from, which is its own.
    fn made_apart(&self, id: GameId, defs: &Defs) -> bool {
        match self {
            Term::Flat(game, header, _) if *game != id => {
                let fixed = crate::runtime::normalize::instance::fixed(defs, *game);
                (fixed.iter().flat_map(|at| at.iter()))
                    .any(|i| flat::shape(*header, *i) != crate::graph::Shape::Int)
            }
            Term::Sum(c) => c.elem.iter().any(|t| t.made_apart(id, defs)),
            _ => false,
        }
    }

    /// Pushes on `out` the game and the number of arguments of each
    /// position the term reads.
    fn targets(&self, out: &mut Vec<(GameId, usize)>) {
        match self {
            Term::Node(game, args) => out.push((*game, args.len())),
            Term::Flat(game, _, args) => out.push((*game, args.len())),
            Term::Heap(_) => {}
            Term::Sum(c) => c.elem.iter().for_each(|t| t.targets(out)),
        }
    }
}

/// An argument of a [`Term::Flat`] (or of a query's [`Num::Ask`]).
#[derive(Clone, Debug)]
pub enum Arg {
    Int(Num),
    Seq(Seq),
}

/// How one of the leading conjuncts of a guard narrows the innermost
/// binder `x`.
#[derive(Debug)]
enum Narrow {
    /// It does not mention `x`: tested once.
    Once,
    /// `d  op  0` with `d` linear: cuts a range to an interval, or filters
    /// a list.
    Linear(BinOp, Lin),
    /// `c0 + c1 * x  op  0`, with `c0` and `c1` expressions free of `x`
    /// (`k * min(a, b) <= max(a, b)`): narrows as [`Narrow::Linear`] does,
    /// with the coefficients evaluated once per loop.
    Affine(BinOp, narrow::Affine),
    /// `f(x) < g` (strict) or `f(x) <= g`, `f` non-decreasing in `x` for
    /// `x >= 0`: ends the loop where it first fails (`k * k <= n`).
    Monotone(bool, Num, Num),
    /// `n % x == 0`, `n` free of `x`: the loop runs over the divisors of
    /// `n` in its window, in increasing order ([`narrow::divisors`]), where
    /// that takes fewer steps. Always the last of a move's narrowing
    /// conjuncts; those after it are tested per divisor.
    Divides(Num),
    /// `x % e == 0`, `e` free of `x`: the loop steps through the multiples
    /// of `e` in its window ([`narrow::multiples`]). Last, as
    /// [`Narrow::Divides`] is.
    Multiple(Num),
    /// A conjunct that reads `x` and no other slot of the position or the
    /// move (`is_prime(k)`): evaluated once per game and value, the loop
    /// runs over the values where it holds ([`filter`]). Last, as
    /// [`Narrow::Divides`] is.
    Filter(Box<filter::Filter>),
}

/// How often a conjunct of a guard past the narrowing ones needs
/// evaluating: for every option, or, when it reads none of the inner
/// binders, once where it is first reached in a position (or for each
/// value of the deepest binder it reads), its truth kept for the options
/// after. It is evaluated where it stands, after the conjuncts before it
/// and only where they hold, so an error (which leaves the position to
/// the interpreter) happens where it would.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Held {
    PerOption,
    /// It reads no binder.
    Once,
    /// It reads binder `i` and none after it.
    PerValue(usize),
}

/// A node term of the fast loop: the game and its arguments as linear
/// forms.
#[derive(Debug)]
struct LinearNode {
    game: GameId,
    args: Vec<Lin>,
}

#[derive(Debug)]
struct Move {
    /// Each binder's slot and domain, outermost first.
    binders: Vec<(Slot, Domain)>,
    /// The guard's conjuncts, in the order they are tested.
    guard: Vec<Cond>,
    /// The span of the condition written that each conjunct of `guard`
    /// comes from: conjuncts that cannot fail are tested in another order
    /// where that cuts the loop (see `moves::cutting_first`), and a chain
    /// or `not (a or b)` is several.
    written: Vec<crate::span::Span>,
    /// How the leading conjuncts narrow the innermost binder.
    narrow: Vec<Narrow>,
    /// How often each conjunct of the guard needs evaluating (see
    /// [`Held`]).
    held: Vec<Held>,
    terms: Vec<Term>,
    /// The node terms, when all are linear with one or two arguments, and
    /// the heaps, when none mentions the innermost binder.
    fast: Option<(Vec<LinearNode>, Vec<Num>)>,
    /// Whether its guard and targets are large (an unrolled recursion):
    /// not worth a copy per value of a binder over constants.
    large: bool,
    /// The move's name, and how to name each option as `moves(P)` does
    /// (see [`listing`]): `None` when the normalised rules do not make
    /// this move's options in the written order, or a name's value is not
    /// an integer the compiled rules hold.
    name: Rc<str>,
    named: Option<Vec<(Rc<str>, listing::Shown)>>,
    /// The move as written that this one comes from (one written with an
    /// `if` in its target may become several), and for a copy unrolled
    /// from it, the items its leading binders took (`MoveIr::share`): a
    /// run records a share of the options without values for each (see
    /// [`Marks::in_rule`]), as the interpreter does, so that both wait
    /// for the same options.
    share: u64,
}

/// A game's rules compiled to integer loops.
#[derive(Debug)]
pub struct Kernel {
    /// The game whose rules these are.
    game: GameId,
    arity: usize,
    slots: usize,
    moves: Vec<Move>,
    /// Every game the targets apply, with the number of arguments given:
    /// a game redefined with another arity since is the interpreter's to
    /// report.
    targets: Vec<(GameId, usize)>,
    /// Which parameters are lists: `None` when all are integers (and
    /// none a boolean).
    lists: Option<Vec<Shape>>,
    /// Which parameters are booleans, as a flat run's header marks them
    /// ([`flat::bool_bit`]).
    bools: i64,
    /// How a position's tuples are split into the integer parameters,
    /// when they are (see `normalize/split.rs`).
    split: Option<frame::Split>,
    /// Whether integer parameters may be of any size (see [`wide`]).
    wide: bool,
    /// Whether every option is one position (no heaps, no sums): then a
    /// run that finds none of its options' values has met them all, and
    /// the position's value is the mex of theirs once they have them.
    single: bool,
    /// The moves (by where their spans start) whose targets, computed as
    /// written, make options of several positions: the interpreter has
    /// those wait in the order of the positions, not as met, so the
    /// machine code evaluates none of them in place (`native/deep.rs`).
    sorted: Vec<u32>,
    /// The order of a board's levels, for a two-integer game that moves
    /// by constant shifts inside a box (see [`levels`]).
    levels: Option<Levels>,
    /// How a two-integer game's positions lie when one argument keeps
    /// to a few values (see [`strip`]).
    strip: Option<Strip>,
    /// For a three-integer game whose positions keep two arguments among
    /// a few small values: the one that runs long (see [`strip3`]).
    strip3: Option<usize>,
    /// Whether its sweep takes a row's pairs second short argument first
    /// (see [`strip3::strip3`]).
    strip3_swapped: bool,
    /// The same rules in machine code, when they compile to it: compiled
    /// on first need (see [`Kernel::native_mex`]), `None` inside when they
    /// do not, or the fast loop runs them faster ([`Move::plan_wins`]).
    native: OnceCell<Option<native::Native>>,
    /// The work the runs did before the machine code was compiled (see
    /// [`Kernel::ran`]).
    spent: Cell<u64>,
    /// The same work of the positions run alone once the machine code is
    /// compiled without its mex function (see `native::Native::mex`),
    /// towards compiling that too.
    alone: Cell<u64>,
    /// The functions the rules call, which the compiled calls refer to.
    calls: Option<Rc<Calls>>,
    /// The shapes of a position met that the parameters were typed by
    /// ([`Types::hinted`]); empty when none.
    hints: Vec<Shape>,
    /// Whether the rules ask positions' values (`value(sub(k)) == 0`),
    /// which only the machine code reads: it is compiled at once.
    asks: bool,
}

/// The result of a kernel run: the position's value and its number of
/// options.
pub type Found = (u64, usize);

impl Kernel {
    /// The value of the position with integer arguments `args`, if every
    /// option's value is known; else which option to evaluate first.
    /// `poll` is called every so often and may stop the run.
    pub fn mex(
        &self,
        defs: &Defs,
        graph: &Graph,
        args: &[i64],
        marks: &mut Marks,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<Found, Stop> {
        self.run_moves((defs, graph), args, (marks, poll), None)?;
        if marks.missing.is_empty() {
            return Ok((marks.mex.mex(), marks.mex.count()));
        }
        // The run counts the options with values only.
        marks.complete = self.single && !marks.dropped;
        marks.options = marks.mex.count() + marks.missed;
        Err(Stop::Missing)
    }
}

impl Kernel {
    /// The game whose rules these are.
    pub fn game(&self) -> GameId {
        self.game
    }

    /// Every game the targets apply, with the number of arguments given.
    pub fn reads(&self) -> &[(GameId, usize)] {
        &self.targets
    }

    /// Whether integer arguments `args` are past what these rules'
    /// linear forms take: [`compile_wide`]'s twin runs them.
    pub fn too_wide(&self, args: &[i64]) -> bool {
        let limit = expr::SLOT_LIMIT as u64;
        !self.wide && self.lists.is_none() && args.iter().any(|a| a.unsigned_abs() >= limit)
    }

    /// The code of the form of the game's positions whose free integers
    /// its sweeps run over: tuples split into the parameters, or a strip's
    /// integer and boolean; `None` for positions of integers.
    pub fn own_form(&self) -> Option<u64> {
        let split = self.split.as_ref().map(frame::Split::form);
        split.or(self.strip.and_then(|s| s.form))
    }

    /// The number of integers the game's tuple parameters are split into,
    /// when they are (see `normalize/split.rs`).
    pub fn split_ints(&self) -> Option<usize> {
        self.split.as_ref().map(|_| self.arity)
    }

    /// The flat run of the game's position whose free integers are
    /// `ints`, into `out`, when its tuples are split (see
    /// [`Kernel::own_form`]); else `out` is left empty.
    pub fn own_run(&self, ints: &[i64], out: &mut Vec<i64>) {
        out.clear();
        if let Some(split) = &self.split {
            split.run(ints, out);
        }
    }

    /// Whether the rules take list arguments: then a position's arguments
    /// come as a flat run ([`flat`]).
    pub fn takes_lists(&self) -> bool {
        self.lists.is_some()
    }

    /// Whether the rules ask positions' values, which only the machine
    /// code reads.
    pub fn asks(&self) -> bool {
        self.asks
    }

    /// Whether the move named `share` (where its span starts) has its
    /// options' positions wait in their order (see the field `sorted`).
    pub fn waits_sorted(&self, share: u32) -> bool {
        self.sorted.contains(&share)
    }

    /// The shapes of the flat run `run`'s arguments, when some of them
    /// are lists or sets of strings where these rules took lists or sets
    /// of integers, or a string or a tuple where they took a list (rules
    /// that index and slice a parameter, and write no string or tuple):
    /// what to type the parameters by ([`compile_hinted`]).
    pub fn shapes_met(&self, run: &[i64]) -> Option<Vec<Shape>> {
        let lists = self.lists.as_ref()?;
        let h = *run.first()?;
        (flat::arity(h) == lists.len()).then_some(())?;
        let met: Vec<Shape> = (0..lists.len()).map(|i| flat::shape(h, i)).collect();
        let new = (met.iter().zip(lists)).any(|(m, l)| m != l && (m.of_words() || typed(*l, *m)));
        new.then_some(met)
    }
}

/// Whether a parameter the rules take as `rules` holds a `met` that types
/// it otherwise: a string, a tuple or booleans where the rules said only
/// a list.
pub fn typed(rules: Shape, met: Shape) -> bool {
    rules == Shape::List && (matches!(met, Shape::Str | Shape::Tuple) || met.of_bools())
}

#[cfg(test)]
pub(crate) mod tests;
