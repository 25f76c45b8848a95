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

mod expr;
mod narrow;
// Calling generated machine code is unsafe by nature: this module alone.
#[allow(unsafe_code)]
mod native;
mod plan;
mod run;
mod seq;
mod wide;

use crate::defs::Defs;
use crate::graph::Graph;
use crate::graph::{Shape, flat};
use crate::ir::{GameIr, Ir, IrKind, LetId, PatIr, Slot, TargetIr, TermIr};
use crate::runtime::mex::Mex;
use crate::syntax::ast::BinOp;
use crate::value::{GameId, Value};
use expr::{Cond, Lin, Num, conjuncts, num_in};
use seq::Seq;
pub use seq::Types;

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
    /// `(i, h) in enumerate(hs)`: the binder's slot takes each index, and
    /// this slot the item there.
    Enumerate(Seq, Slot),
}

#[derive(Debug)]
enum Term {
    Node(GameId, Vec<Num>),
    Heap(Num),
    /// A position with list arguments: its game, the header of its flat
    /// run ([`flat`]), and its arguments.
    Flat(GameId, i64, Vec<Arg>),
}

/// An argument of a [`Term::Flat`].
#[derive(Debug)]
enum Arg {
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
    /// How the leading conjuncts narrow the innermost binder.
    narrow: Vec<Narrow>,
    terms: Vec<Term>,
    /// The node terms, when all are linear with one or two arguments, and
    /// the heaps, when none mentions the innermost binder.
    fast: Option<(Vec<LinearNode>, Vec<Num>)>,
}

/// A game's rules compiled to integer loops.
#[derive(Debug)]
pub struct Kernel {
    arity: usize,
    slots: usize,
    moves: Vec<Move>,
    /// Every game the targets apply, with the number of arguments given:
    /// a game redefined with another arity since is the interpreter's to
    /// report.
    targets: Vec<(GameId, usize)>,
    /// Which parameters are lists: `None` when all are integers.
    lists: Option<Vec<Shape>>,
    /// Whether integer parameters may be of any size (see [`wide`]).
    wide: bool,
    /// Whether every option is one position (no heaps, no sums): then a
    /// run that finds none of its options' values has met them all, and
    /// the position's value is the mex of theirs once they have them.
    single: bool,
    /// The same rules in machine code, when they compile to it.
    native: Option<native::Native>,
}

/// Compiles `game`'s rules (normalised: see [`crate::runtime::normalize`]), or
/// says `None` when some part of them is not integer arithmetic the
/// kernel knows.
pub fn compile(game: &GameIr, id: GameId) -> Option<Kernel> {
    let types = Types::of(game, id);
    if game.arity > flat::ARITY_MAX {
        return None;
    }
    let moves: Vec<Move> = game
        .moves
        .iter()
        .map(|m| compile_move(m, &types))
        .collect::<Option<_>>()?;
    let mut targets: Vec<(GameId, usize)> = moves
        .iter()
        .flat_map(|m| &m.terms)
        .filter_map(|t| match t {
            Term::Node(game, args) => Some((*game, args.len())),
            Term::Flat(game, _, args) => Some((*game, args.len())),
            Term::Heap(_) => None,
        })
        .collect();
    targets.sort_unstable();
    targets.dedup();
    let mut kernel = Kernel {
        arity: game.arity,
        slots: game.slots,
        moves,
        targets,
        lists: types.has_lists().then(|| types.params(game.arity).to_vec()),
        wide: false,
        single: false,
        native: None,
    };
    kernel.wide = wide::linear_free(&kernel.moves);
    kernel.single = (kernel.moves.iter())
        .all(|m| matches!(m.terms.as_slice(), [Term::Node(..) | Term::Flat(..)]));
    if !kernel.moves.iter().any(Move::plan_wins) {
        kernel.native = native::compile(&kernel);
    }
    Some(kernel)
}

impl Move {
    /// Whether the fast loop ([`plan`]) runs this move faster than
    /// machine code does: when it takes the whole guard, and its loop is
    /// as long as the position is large (`a in 0..n`), where reading the
    /// dense tables by slice beats a checked read per option. Measured
    /// on Kayles, Dawson's chess and Grundy's game (BENCHMARKS.md).
    fn plan_wins(&self) -> bool {
        let long = match self.binders.last() {
            Some((_, Domain::Range(lo, hi, _))) => !lo.is_const() || !hi.is_const(),
            _ => false,
        };
        long && self.fast.is_some() && self.narrow.len() == self.guard.len()
    }
}

fn compile_move(rule: &crate::ir::MoveIr, types: &Types) -> Option<Move> {
    let binders = rule
        .binders
        .iter()
        .map(|(pattern, domain)| match pattern {
            PatIr::Slot(slot) if !types.is_list(*slot) => Some((*slot, domain_of(domain, types)?)),
            _ => {
                let (i, v, xs) = seq::enumerated(pattern, domain, types)?;
                Some((i, Domain::Enumerate(xs, v)))
            }
        })
        .collect::<Option<Vec<_>>>()?;
    let mut guard = Vec::new();
    if let Some(g) = &rule.guard {
        conjuncts(g, &mut guard, types)?;
    }
    let TargetIr::Terms(terms) = &rule.target else {
        return None;
    };
    let terms: Vec<Term> = terms
        .iter()
        .map(|t| match t {
            TermIr::Node(game, args, _) => term(*game, args, types),
            TermIr::Heap(k) => Some(Term::Heap(num_in(k, types)?)),
        })
        .collect::<Option<_>>()?;
    // A pair binder innermost: its item's slot changes with the index, so
    // nothing narrows it.
    let x = binders
        .last()
        .filter(|(_, d)| !matches!(d, Domain::Enumerate(..)))
        .map(|(slot, _)| *slot);
    Some(Move {
        narrow: x.map_or_else(Vec::new, |x| narrowing(&guard, x)),
        fast: x.and_then(|x| fast_terms(&terms, x)),
        binders,
        guard,
        terms,
    })
}

/// The leading conjuncts that can narrow `x`: ones that do not mention it,
/// and linear comparisons (`!=` included: it cuts a point out). The first
/// other conjunct ends them, for the ones after it are only tested where
/// it holds (and it may fail).
fn narrowing(guard: &[Cond], x: Slot) -> Vec<Narrow> {
    guard
        .iter()
        .map_while(|c| match c.as_linear() {
            _ if !c.uses(x) => Some(Narrow::Once),
            Some((op, d)) => Some(Narrow::Linear(op, d)),
            None => c
                .as_affine(x)
                .map(|(op, d)| Narrow::Affine(op, d))
                .or_else(|| c.as_monotone(x).map(|(s, f, g)| Narrow::Monotone(s, f, g))),
        })
        .collect()
}

/// A node term: integer arguments, or a flat run when some are lists.
fn term(game: GameId, args: &[Ir], types: &Types) -> Option<Term> {
    if let Some(nums) = args
        .iter()
        .map(|a| num_in(a, types))
        .collect::<Option<Vec<_>>>()
    {
        return Some(Term::Node(game, nums));
    }
    if args.len() > flat::ARITY_MAX {
        return None;
    }
    let args: Vec<Arg> = args
        .iter()
        .map(|a| match num_in(a, types) {
            Some(n) => Some(Arg::Int(n)),
            None => Seq::compile(a, types).map(Arg::Seq),
        })
        .collect::<Option<_>>()?;
    let header = flat::header(args.iter().map(|a| match a {
        Arg::Int(_) => Shape::Int,
        Arg::Seq(xs) => xs.shape(types),
    }));
    Some(Term::Flat(game, header, args))
}

fn fast_terms(terms: &[Term], x: Slot) -> Option<(Vec<LinearNode>, Vec<Num>)> {
    let mut nodes = Vec::new();
    let mut heaps = Vec::new();
    for term in terms {
        match term {
            Term::Node(game, args) if (1..=2).contains(&args.len()) => nodes.push(LinearNode {
                game: *game,
                args: args.iter().map(Num::as_lin).collect::<Option<_>>()?,
            }),
            Term::Heap(k) if !k.uses(x) => heaps.push(Num::Lin(k.as_lin()?)),
            _ => return None,
        }
    }
    (nodes.len() <= plan::PLAN_NODES).then_some((nodes, heaps))
}

fn domain_of(ir: &Ir, types: &Types) -> Option<Domain> {
    let num = |ir: &Ir| num_in(ir, types);
    Some(match &ir.kind {
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => {
            Domain::Range(num(lo)?, num(hi)?, *op == BinOp::RangeIncl)
        }
        IrKind::Local(_)
        | IrKind::Slice(..)
        | IrKind::Comprehension { .. }
        | IrKind::CallBuiltin(..) => Domain::Seq(Seq::compile(ir, types)?),
        // A set is iterated in increasing order, without repeats.
        IrKind::Set(items) => {
            let items: Vec<Num> = items.iter().map(num).collect::<Option<_>>()?;
            let mut ints = items
                .iter()
                .map(|n| match n {
                    Num::Const(c) => Some(*c),
                    _ => None,
                })
                .collect::<Option<Vec<i64>>>()?;
            ints.sort_unstable();
            ints.dedup();
            fixed(ints)?
        }
        IrKind::List(items) | IrKind::Tuple(items) => {
            let items: Vec<Num> = items.iter().map(num).collect::<Option<_>>()?;
            let consts = items.iter().map(|n| match n {
                Num::Const(c) => Some(*c),
                _ => None,
            });
            match consts.collect::<Option<Vec<i64>>>() {
                Some(ints) => fixed(ints)?,
                None => Domain::Items(items),
            }
        }
        IrKind::Global(id) => Domain::Global(*id),
        // A list or range of constants, folded when lowered: `k in [1, 2, 3]`.
        IrKind::Const(Value::Range(lo, hi)) => {
            Domain::Range(Num::Const(*lo), Num::Const(*hi), false)
        }
        IrKind::Const(list @ (Value::List(_) | Value::Tuple(_))) => {
            fixed(list.as_slice()?.iter().map(int).collect::<Option<_>>()?)?
        }
        IrKind::Const(Value::Set(items)) => fixed(items.iter().map(int).collect::<Option<_>>()?)?,
        _ => return None,
    })
}

fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        _ => None,
    }
}

/// A domain of constant items, converted once.
fn fixed(items: Vec<i64>) -> Option<Domain> {
    run::Values::list(items).ok().map(Domain::Fixed)
}

/// What a kernel run keeps between runs: the mex of the position, the
/// options found without a value, and reusable buffers.
#[derive(Default)]
pub struct Marks {
    pub mex: Mex,
    /// The frame of integer slots, kept between runs.
    frame: Vec<i64>,
    /// The options found without a value, each once, in the order they
    /// were met, up to [`MISSING_MAX`] from each move. The run goes on
    /// after them, looking for an option on the search path (a cycle), as
    /// the interpreter looks for one before it descends anywhere.
    pub missing: Vec<Missing>,
    /// The move being run, and where its options in `missing` begin: each
    /// move has its own share, so a search waits for options of every
    /// move of a position with many (and may see the rules step down in
    /// each argument), not only of its first.
    rule: u32,
    rule_missing: usize,
    /// How many times the run met an option's position without a value
    /// (each a place in `missing`, or one past its share), and whether it
    /// met one past its share.
    missed: usize,
    dropped: bool,
    /// Set by a run that found options without values when those are
    /// all its options, each in `missing` (see [`Kernel::single`]).
    pub all_missing: bool,
    /// The arguments of the `missing` positions, one after another.
    pub missing_args: Vec<i64>,
    /// `missing` holds up to [`MISSING_MAX`] times two to this power: the
    /// search raises it for a position run again and again (see
    /// `runtime/search/`).
    pub missing_shift: u32,
    /// The integers of the globals used as binder domains, converted once
    /// for each value they hold.
    lists: Vec<(LetId, Value, run::Values)>,
    /// The flat run of a position with list arguments, made per option.
    run: Vec<i64>,
    /// Work done by all runs so far, in options or binder values, and when
    /// to look at the clock next: kept across runs, since a search may do
    /// millions of small ones.
    work: usize,
    next_poll: usize,
}

/// An option's position found without a value: its game and where its
/// arguments are in [`Marks::missing_args`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Missing {
    pub game: GameId,
    pub args: (u32, u32),
    /// Whether the arguments are a flat run ([`flat`]) rather than
    /// integers.
    pub flat: bool,
}

impl Marks {
    /// The arguments of one of the positions in `missing`.
    pub fn args(&self, m: &Missing) -> &[i64] {
        &self.missing_args[m.args.0 as usize..m.args.1 as usize]
    }
}

/// The most options without a value that one run of a position's rules
/// collects. The search evaluates them all before it runs the position
/// again, so a position with many options to evaluate first (the divisors
/// of a large number) is run a few times, not once per option, while the
/// search path keeps at most this many waiting options per position, and
/// a run that meets thousands of them (a board asked top-down) does not
/// pay to record them all.
pub const MISSING_MAX: usize = 32;

impl Marks {
    /// Counts `n` units of work; whether it is time to look at the clock.
    fn charge(&mut self, n: usize) -> bool {
        self.work = self.work.wrapping_add(n);
        if self.work.wrapping_sub(self.next_poll) > usize::MAX / 2 {
            return false;
        }
        self.next_poll = self.work.wrapping_add(POLL_EVERY);
        true
    }

    fn start(&mut self) {
        self.mex.start();
        self.missing.clear();
        self.missing_args.clear();
        self.rule = u32::MAX;
        (self.missed, self.dropped, self.all_missing) = (0, false, false);
    }

    /// Notes that the run is in move `rule` (counted from 0).
    #[inline(always)]
    fn in_rule(&mut self, rule: u32) {
        if rule != self.rule {
            self.rule = rule;
            self.rule_missing = self.missing.len();
        }
    }

    #[inline(always)]
    fn mark(&mut self, v: u64) {
        self.mex.mark(v);
    }
}

/// How many options the kernel makes between looks at the clock.
const POLL_EVERY: usize = 1 << 16;

/// The result of a kernel run: the position's value and its number of
/// options.
pub type Found = (u64, usize);

impl Kernel {
    /// [`Kernel::mex`] by the machine code; `None` when there is no
    /// machine code, or it left the position to [`Kernel::mex`];
    /// `Stop::Bail` when `poll`, called every so often, says to stop.
    pub fn native_mex(
        &self,
        defs: &Defs,
        graph: &Graph,
        args: &[i64],
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
        poll: &mut dyn FnMut() -> bool,
    ) -> Option<Result<Found, Stop>> {
        let native = self.native.as_ref()?;
        native.mex(self, (defs, graph), args, marks, views, poll)
    }

    /// The values of positions `from..to` of `game`, this kernel's own
    /// one-argument game, found by the machine code in turn and written
    /// into the game's dense table, whose slots for them must exist.
    /// Returns where it stopped: `to`, or the first position it left to
    /// [`Kernel::mex`] (or that has no machine code); or where it paused
    /// after enough work, for the caller to look at the clock (true).
    pub fn native_sweep(
        &self,
        (defs, graph): (&Defs, &Graph),
        (game, from, to): (GameId, u32, u32),
        marks: &mut Marks,
        views: &mut Vec<crate::graph::View>,
    ) -> (u32, bool) {
        match &self.native {
            Some(native) => native.sweep(self, (defs, graph), (game, from, to), marks, views),
            None => (from, false),
        }
    }

    /// Whether the rules run as machine code.
    pub fn is_native(&self) -> bool {
        self.native.is_some()
    }

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
        let arity = |g: GameId| defs.game(g).map(|g| g.arity);
        if self.targets.iter().any(|(g, n)| arity(*g) != Some(*n)) {
            return Err(Stop::Bail);
        }
        let mut frame = std::mem::take(&mut marks.frame);
        if !self.load(args, &mut frame) {
            marks.frame = frame;
            return Err(Stop::Bail);
        }
        marks.start();
        let mut run = run::Run::new(defs, graph, marks, poll);
        let result = self.moves.iter().enumerate().try_for_each(|(i, rule)| {
            run.in_rule(i as u32);
            run.binders(rule, 0, &mut frame)
        });
        marks.frame = frame;
        result?;
        if marks.missing.is_empty() {
            return Ok((marks.mex.mex(), marks.mex.count()));
        }
        // The run counts the options with values only.
        marks.all_missing = self.single && !marks.dropped && marks.mex.count() == 0;
        Err(Stop::Missing)
    }
}

impl Kernel {
    /// Whether the rules take list arguments: then a position's arguments
    /// come as a flat run ([`flat`]).
    pub fn takes_lists(&self) -> bool {
        self.lists.is_some()
    }

    /// The frame of a position with arguments `args` (integers, or a flat
    /// run), if they are what the rules were compiled for: every integer
    /// below [`expr::SLOT_LIMIT`], each list where the rules take one.
    fn load(&self, args: &[i64], frame: &mut Vec<i64>) -> bool {
        frame.clear();
        frame.resize(self.slots.max(self.arity), 0);
        let small = |a: &i64| self.wide || a.abs() < expr::SLOT_LIMIT;
        let Some(shapes) = &self.lists else {
            frame[..args.len().min(self.arity)]
                .copy_from_slice(&args[..args.len().min(self.arity)]);
            return args.len() == self.arity && args.iter().all(small);
        };
        let Some((&header, mut rest)) = args.split_first() else {
            return false;
        };
        if header != flat::header(shapes.iter().copied()) {
            return false;
        }
        for (i, shape) in shapes.iter().enumerate() {
            match shape {
                Shape::Int => {
                    let Some((a, tail)) = rest.split_first().filter(|(a, _)| small(a)) else {
                        return false;
                    };
                    frame[i] = *a;
                    rest = tail;
                }
                _ => {
                    let len = rest[0] as usize;
                    let start = frame.len();
                    frame.extend_from_slice(&rest[1..1 + len]);
                    frame[i] = seq::encode(start, frame.len());
                    rest = &rest[1 + len..];
                }
            }
        }
        true
    }
}

/// How one move runs once compiled, for `--explain`.
#[derive(Debug, PartialEq)]
pub struct MoveShape {
    /// The innermost binder's options are read from the dense tables by
    /// index, with no per-option work beyond the read.
    pub fast: bool,
    /// How many of the guard's conjuncts narrow the innermost binder's
    /// loop (or are tested once); the rest are tested per option.
    pub narrowed: usize,
    /// How many conjuncts the guard has.
    pub conjuncts: usize,
    /// Whether a target has list arguments: its value is looked up by
    /// its flat run in the hash table rather than read by index.
    pub lists: bool,
}

/// The shape of `rule` compiled, or `None` when it does not compile.
pub fn move_shape(rule: &crate::ir::MoveIr, game: &GameIr, id: GameId) -> Option<MoveShape> {
    let m = compile_move(rule, &Types::of(game, id))?;
    Some(MoveShape {
        fast: m.fast.is_some() && m.narrow.len() == m.guard.len(),
        narrowed: m.narrow.len(),
        conjuncts: m.guard.len(),
        lists: m.terms.iter().any(|t| matches!(t, Term::Flat(..))),
    })
}

/// Whether `ir` compiles as an integer expression, a condition, or a
/// binder's domain: the tests `--explain` uses to find what stops a rule.
/// (`types` says which slots hold lists: see [`Types::of`].)
pub fn compiles_as_num(ir: &Ir, types: &Types) -> bool {
    num_in(ir, types).is_some()
}

pub fn compiles_as_cond(ir: &Ir, types: &Types) -> bool {
    let mut out = Vec::new();
    conjuncts(ir, &mut out, types).is_some()
}

pub fn compiles_as_domain(ir: &Ir, types: &Types) -> bool {
    domain_of(ir, types).is_some()
}

#[cfg(test)]
mod tests;
