//! Phase 4b: the rules of integer games compiled to loops over machine
//! integers. A game qualifies when every move's binders range over
//! integer ranges or integer lists, and its guards and targets are
//! integer arithmetic, comparisons and game applications: the common shape
//! of heap, row and board games. [`compile`] is the entry point; the
//! evaluator runs the result with [`Kernel::mex`] and falls back to the
//! interpreter ([`crate::graph::expand`]) whenever the kernel bails.
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

use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::graph::{ABSENT, Dense, Graph, IN_PROGRESS, dense1, dense2};
use crate::interp::arith;
use crate::ir::{GameIr, Ir, IrKind, LetId, PatIr, Slot, TargetIr, TermIr};
use crate::span::Span;
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::{GameId, Value};
use std::rc::Rc;

/// An integer expression over the frame's integer slots.
#[derive(Debug)]
enum Num {
    Const(i64),
    Slot(Slot),
    /// A global constant, read when evaluated (it must hold an integer).
    Global(LetId),
    Neg(Box<Num>),
    BitNot(Box<Num>),
    Bin(BinOp, Box<Num>, Box<Num>),
    If(Box<Cond>, Box<Num>, Box<Num>),
    Extremum(bool, Vec<Num>),
    Abs(Box<Num>),
}

/// A boolean expression over the frame's integer slots.
#[derive(Debug)]
enum Cond {
    Const(bool),
    Cmp(BinOp, Num, Num),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    If(Box<Cond>, Box<Cond>, Box<Cond>),
}

/// Why a kernel stopped without a value.
#[derive(Debug, PartialEq)]
pub enum Stop {
    /// Let the interpreter expand this position instead.
    Bail,
    /// An option's position has no value yet: evaluate it, then ask again.
    Missing(GameId, Vec<Value>),
}

type Eval<T> = Result<T, Stop>;

/// What the kernel reads besides its frame.
struct Env<'a> {
    defs: &'a Defs,
    graph: &'a Graph,
}

impl Num {
    fn eval(&self, f: &[i64], env: &Env) -> Eval<i64> {
        Ok(match self {
            Num::Const(c) => *c,
            Num::Slot(s) => f[*s as usize],
            Num::Global(id) => match env.defs.lets[*id as usize].value {
                Some(Value::Int(n)) => n,
                _ => return Err(Stop::Bail),
            },
            Num::Neg(a) => a.eval(f, env)?.checked_neg().ok_or(Stop::Bail)?,
            Num::BitNot(a) => !a.eval(f, env)?,
            Num::Bin(op, a, b) => {
                let (x, y) = (a.eval(f, env)?, b.eval(f, env)?);
                arith(*op, x, y, Span::default()).map_err(|_| Stop::Bail)?
            }
            Num::If(c, a, b) => match c.eval(f, env)? {
                true => a.eval(f, env)?,
                false => b.eval(f, env)?,
            },
            Num::Extremum(min, items) => {
                let mut best = items[0].eval(f, env)?;
                for item in &items[1..] {
                    let v = item.eval(f, env)?;
                    best = if *min { best.min(v) } else { best.max(v) };
                }
                best
            }
            Num::Abs(a) => a.eval(f, env)?.checked_abs().ok_or(Stop::Bail)?,
        })
    }

    /// Whether `slot` occurs in the expression.
    fn uses(&self, slot: Slot) -> bool {
        match self {
            Num::Const(_) | Num::Global(_) => false,
            Num::Slot(s) => *s == slot,
            Num::Neg(a) | Num::BitNot(a) | Num::Abs(a) => a.uses(slot),
            Num::Bin(_, a, b) => a.uses(slot) || b.uses(slot),
            Num::If(c, a, b) => c.uses(slot) || a.uses(slot) || b.uses(slot),
            Num::Extremum(_, items) => items.iter().any(|i| i.uses(slot)),
        }
    }

    /// Whether the expression is `base + step * x` for `x` in `slot`, with
    /// every intermediate result affine in `x` too (so an intermediate that
    /// fits at both ends of an interval fits everywhere in between).
    fn affine(&self, slot: Slot) -> bool {
        match self {
            Num::Neg(a) => a.affine(slot),
            Num::Bin(BinOp::Add | BinOp::Sub, a, b) => a.affine(slot) && b.affine(slot),
            Num::Bin(BinOp::Mul, a, b) => {
                (a.affine(slot) && !b.uses(slot)) || (!a.uses(slot) && b.affine(slot))
            }
            Num::Slot(_) | Num::Const(_) | Num::Global(_) => true,
            _ => !self.uses(slot),
        }
    }

    /// Whether evaluating can fail only by overflowing.
    fn total(&self) -> bool {
        match self {
            // A global that is no integer makes the kernel bail where it
            // is read, as an overflow does.
            Num::Const(_) | Num::Slot(_) | Num::Global(_) => true,
            Num::Neg(a) | Num::BitNot(a) => a.total(),
            Num::Bin(
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor,
                a,
                b,
            ) => a.total() && b.total(),
            _ => false,
        }
    }
}

impl Cond {
    fn eval(&self, f: &[i64], env: &Env) -> Eval<bool> {
        Ok(match self {
            Cond::Const(b) => *b,
            Cond::Cmp(op, a, b) => compare(*op, a.eval(f, env)?, b.eval(f, env)?),
            Cond::And(a, b) => a.eval(f, env)? && b.eval(f, env)?,
            Cond::Or(a, b) => a.eval(f, env)? || b.eval(f, env)?,
            Cond::Not(a) => !a.eval(f, env)?,
            Cond::If(c, a, b) => match c.eval(f, env)? {
                true => a.eval(f, env)?,
                false => b.eval(f, env)?,
            },
        })
    }

    fn uses(&self, slot: Slot) -> bool {
        match self {
            Cond::Const(_) => false,
            Cond::Cmp(_, a, b) => a.uses(slot) || b.uses(slot),
            Cond::And(a, b) | Cond::Or(a, b) => a.uses(slot) || b.uses(slot),
            Cond::Not(a) => a.uses(slot),
            Cond::If(c, a, b) => c.uses(slot) || a.uses(slot) || b.uses(slot),
        }
    }

    /// The comparison's operator and its two sides, when both are affine
    /// in `slot` and cannot fail except by overflowing.
    fn affine_cmp(&self, slot: Slot) -> Option<(BinOp, &Num, &Num)> {
        match self {
            Cond::Cmp(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq), a, b)
                if a.affine(slot) && b.affine(slot) && a.total() && b.total() =>
            {
                Some((*op, a, b))
            }
            _ => None,
        }
    }
}

fn compare(op: BinOp, x: i64, y: i64) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    }
}

/// Where a binder's values come from.
#[derive(Debug)]
enum Domain {
    /// `lo..hi`, or `lo..=hi` when `inclusive`.
    Range(Num, Num, bool),
    /// A list written out, as in `k in [1, 3, n]`.
    Items(Vec<Num>),
    /// A global constant holding integers: a list, tuple, set or range.
    Global(LetId),
}

#[derive(Debug)]
enum Term {
    Node(GameId, Vec<Num>),
    Heap(Num),
}

#[derive(Debug)]
struct Move {
    /// Each binder's slot and domain, outermost first.
    binders: Vec<(Slot, Domain)>,
    /// The guard's conjuncts, in the order they are tested.
    guard: Vec<Cond>,
    terms: Vec<Term>,
}

/// A game's rules compiled to integer loops.
#[derive(Debug)]
pub struct Kernel {
    /// The rules compiled, to notice a redefinition.
    pub rules: Rc<GameIr>,
    slots: usize,
    moves: Vec<Move>,
    /// Every game the targets apply, with the number of arguments given:
    /// a game redefined with another arity since is the interpreter's to
    /// report.
    targets: Vec<(GameId, usize)>,
}

/// Compiles `game`'s rules, or says `None` when some part of them is not
/// integer arithmetic the kernel knows.
pub fn compile(game: &Rc<GameIr>) -> Option<Kernel> {
    let moves: Vec<Move> = game
        .moves
        .iter()
        .map(|rule| {
            let binders = rule
                .binders
                .iter()
                .map(|(pattern, domain)| match pattern {
                    PatIr::Slot(slot) => Some((*slot, domain_of(domain)?)),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            let mut guard = Vec::new();
            if let Some(g) = &rule.guard {
                conjuncts(g, &mut guard)?;
            }
            let TargetIr::Terms(terms) = &rule.target else {
                return None;
            };
            let terms = terms
                .iter()
                .map(|t| match t {
                    TermIr::Node(game, args, _) => Some(Term::Node(
                        *game,
                        args.iter().map(num).collect::<Option<_>>()?,
                    )),
                    TermIr::Heap(k) => Some(Term::Heap(num(k)?)),
                })
                .collect::<Option<_>>()?;
            Some(Move {
                binders,
                guard,
                terms,
            })
        })
        .collect::<Option<_>>()?;
    let mut targets: Vec<(GameId, usize)> = moves
        .iter()
        .flat_map(|m: &Move| &m.terms)
        .filter_map(|t| match t {
            Term::Node(game, args) => Some((*game, args.len())),
            Term::Heap(_) => None,
        })
        .collect();
    targets.sort_unstable();
    targets.dedup();
    Some(Kernel {
        rules: game.clone(),
        slots: game.slots,
        moves,
        targets,
    })
}

fn domain_of(ir: &Ir) -> Option<Domain> {
    Some(match &ir.kind {
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => {
            Domain::Range(num(lo)?, num(hi)?, *op == BinOp::RangeIncl)
        }
        IrKind::List(items) | IrKind::Tuple(items) => {
            Domain::Items(items.iter().map(num).collect::<Option<_>>()?)
        }
        IrKind::Global(id) => Domain::Global(*id),
        _ => return None,
    })
}

/// Splits a guard at its top-level `and`s (chained comparisons too).
fn conjuncts(ir: &Ir, out: &mut Vec<Cond>) -> Option<()> {
    match &ir.kind {
        IrKind::Binary(BinOp::And, a, b) => {
            conjuncts(a, out)?;
            conjuncts(b, out)
        }
        IrKind::Chain(operands, ops) => {
            for (i, op) in ops.iter().enumerate() {
                out.push(comparison(*op, &operands[i], &operands[i + 1])?);
            }
            Some(())
        }
        _ => {
            out.push(cond(ir)?);
            Some(())
        }
    }
}

fn num(ir: &Ir) -> Option<Num> {
    Some(match &ir.kind {
        IrKind::Const(Value::Int(n)) => Num::Const(*n),
        IrKind::Local(slot) => Num::Slot(*slot),
        IrKind::Global(id) => Num::Global(*id),
        IrKind::Unary(UnOp::Neg, a) => Num::Neg(Box::new(num(a)?)),
        IrKind::Unary(UnOp::BitNot, a) => Num::BitNot(Box::new(num(a)?)),
        IrKind::Binary(
            op @ (BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Rem
            | BinOp::Pow
            | BinOp::Shl
            | BinOp::Shr
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor),
            a,
            b,
        ) => Num::Bin(*op, Box::new(num(a)?), Box::new(num(b)?)),
        IrKind::If(c, a, b) => Num::If(Box::new(cond(c)?), Box::new(num(a)?), Box::new(num(b)?)),
        IrKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() >= 2 => {
            Num::Extremum(
                *b == Builtin::Min,
                args.iter().map(num).collect::<Option<_>>()?,
            )
        }
        IrKind::CallBuiltin(Builtin::Abs, args) if args.len() == 1 => {
            Num::Abs(Box::new(num(&args[0])?))
        }
        _ => return None,
    })
}

fn cond(ir: &Ir) -> Option<Cond> {
    Some(match &ir.kind {
        IrKind::Const(Value::Bool(b)) => Cond::Const(*b),
        IrKind::Binary(BinOp::And, a, b) => Cond::And(Box::new(cond(a)?), Box::new(cond(b)?)),
        IrKind::Binary(BinOp::Or, a, b) => Cond::Or(Box::new(cond(a)?), Box::new(cond(b)?)),
        IrKind::Unary(UnOp::Not, a) => Cond::Not(Box::new(cond(a)?)),
        IrKind::Binary(op, a, b) => comparison(*op, a, b)?,
        IrKind::Chain(operands, ops) => {
            let mut parts = ops
                .iter()
                .enumerate()
                .map(|(i, op)| comparison(*op, &operands[i], &operands[i + 1]));
            let first = parts.next()??;
            parts.try_fold(first, |acc, c| Some(Cond::And(Box::new(acc), Box::new(c?))))?
        }
        IrKind::If(c, a, b) => Cond::If(Box::new(cond(c)?), Box::new(cond(a)?), Box::new(cond(b)?)),
        _ => return None,
    })
}

fn comparison(op: BinOp, a: &Ir, b: &Ir) -> Option<Cond> {
    match op {
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            Some(Cond::Cmp(op, num(a)?, num(b)?))
        }
        _ => None,
    }
}

/// The reusable marks of the mex: `marks[v] == stamp` when an option of
/// the position being evaluated has value `v`.
#[derive(Default)]
pub struct Marks {
    marks: Vec<u32>,
    stamp: u32,
    /// Values too large for `marks` when they were seen.
    large: Vec<u64>,
    count: usize,
    /// The frame of integer slots, kept between runs.
    frame: Vec<i64>,
    /// The first option found without a value. The run goes on after it,
    /// looking for an option on the search path (a cycle), as the
    /// interpreter looks for one before it descends anywhere.
    missing: Option<(GameId, Vec<Value>)>,
}

impl Marks {
    fn start(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
        self.large.clear();
        self.count = 0;
        self.missing = None;
        if self.marks.is_empty() {
            self.marks.resize(1024, 0);
        }
    }

    #[inline]
    fn mark(&mut self, v: u64) {
        self.count += 1;
        match self.marks.get_mut(v as usize) {
            Some(m) => *m = self.stamp,
            None => self.large.push(v),
        }
    }

    /// The smallest value not marked since `start`.
    fn mex(&mut self) -> u64 {
        // The mex is at most the number of options.
        if self.marks.len() <= self.count {
            self.marks.resize(self.count + 1, 0);
            let len = self.marks.len() as u64;
            for v in self.large.iter().filter(|v| **v < len) {
                self.marks[*v as usize] = self.stamp;
            }
        }
        (0..).find(|&v| self.marks[v] != self.stamp).unwrap() as u64
    }
}

/// How many options the kernel makes between looks at the clock.
const POLL_EVERY: usize = 1 << 16;

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
        let arity = |g: GameId| defs.game(g).map(|g| g.arity);
        if args.len() != self.rules.arity || self.targets.iter().any(|(g, n)| arity(*g) != Some(*n))
        {
            return Err(Stop::Bail);
        }
        let env = Env { defs, graph };
        let mut frame = std::mem::take(&mut marks.frame);
        frame.clear();
        frame.resize(self.slots.max(args.len()), 0);
        frame[..args.len()].copy_from_slice(args);
        marks.start();
        let mut run = Run {
            env: &env,
            marks,
            poll,
            steps: 0,
        };
        let result = self
            .moves
            .iter()
            .try_for_each(|rule| run.binders(rule, 0, &mut frame));
        marks.frame = frame;
        result?;
        match marks.missing.take() {
            Some((game, args)) => Err(Stop::Missing(game, args)),
            None => Ok((marks.mex(), marks.count)),
        }
    }
}

/// One run of a kernel over one position.
struct Run<'a, 'e> {
    env: &'a Env<'e>,
    marks: &'a mut Marks,
    poll: &'a mut dyn FnMut() -> bool,
    /// Combinations of binder values tried, to look at the clock.
    steps: usize,
}

/// The values of a binder's domain.
enum Values {
    Range(i64, i64),
    List(Vec<i64>),
}

impl Run<'_, '_> {
    /// Counts a step, and every so often asks `poll` whether to stop.
    fn tick(&mut self) -> Eval<()> {
        self.steps += 1;
        if self.steps.is_multiple_of(POLL_EVERY) && (self.poll)() {
            return Err(Stop::Bail);
        }
        Ok(())
    }

    fn binders(&mut self, rule: &Move, i: usize, f: &mut [i64]) -> Eval<()> {
        self.tick()?;
        match rule.binders.len() {
            0 => return self.each(rule, None, f),
            n if i + 1 == n => return self.innermost(rule, f),
            _ => {}
        }
        let (slot, domain) = &rule.binders[i];
        match self.values(domain, f)? {
            Values::Range(lo, hi) => {
                for k in lo..hi {
                    f[*slot as usize] = k;
                    self.binders(rule, i + 1, f)?;
                }
            }
            Values::List(items) => {
                for k in items {
                    f[*slot as usize] = k;
                    self.binders(rule, i + 1, f)?;
                }
            }
        }
        Ok(())
    }

    fn values(&self, domain: &Domain, f: &[i64]) -> Eval<Values> {
        Ok(match domain {
            Domain::Range(lo, hi, inclusive) => {
                let (lo, hi) = (lo.eval(f, self.env)?, hi.eval(f, self.env)?);
                let hi = if *inclusive {
                    hi.checked_add(1).ok_or(Stop::Bail)?
                } else {
                    hi
                };
                Values::Range(lo, hi)
            }
            Domain::Items(items) => Values::List(
                items
                    .iter()
                    .map(|n| n.eval(f, self.env))
                    .collect::<Eval<_>>()?,
            ),
            Domain::Global(id) => match &self.env.defs.lets[*id as usize].value {
                Some(Value::Range(lo, hi)) => Values::Range(*lo, *hi),
                Some(v) => {
                    let items = v.as_slice().ok_or(Stop::Bail)?;
                    Values::List(
                        items
                            .iter()
                            .map(|v| match v {
                                Value::Int(n) => Ok(*n),
                                _ => Err(Stop::Bail),
                            })
                            .collect::<Eval<_>>()?,
                    )
                }
                None => return Err(Stop::Bail),
            },
        })
    }

    /// The innermost binder: its conjuncts narrow it, then the fast loop
    /// or the general one makes the options.
    fn innermost(&mut self, rule: &Move, f: &mut [i64]) -> Eval<()> {
        let (x, domain) = &rule.binders[rule.binders.len() - 1];
        let values = self.values(domain, f)?;
        let (values, rest) = match narrow(&rule.guard, *x, values, f, self.env)? {
            Some(narrowed) => narrowed,
            None => return Ok(()),
        };
        let guard = &rule.guard[rest..];
        if guard.is_empty()
            && let Some(plan) = Plan::new(&rule.terms, *x, &values, f, self.env)?
        {
            return plan.run(&values, self.marks, self.poll);
        }
        let mut each = |k: i64, run: &mut Self| {
            f[*x as usize] = k;
            run.each(rule, Some(guard), f)
        };
        match values {
            Values::Range(lo, hi) => (lo..hi).try_for_each(|k| each(k, self)),
            Values::List(items) => items.into_iter().try_for_each(|k| each(k, self)),
        }
    }

    /// One combination of binder values: the guard's conjuncts (all of
    /// them, or the ones `narrow` left), then the option.
    fn each(&mut self, rule: &Move, guard: Option<&[Cond]>, f: &[i64]) -> Eval<()> {
        self.tick()?;
        for c in guard.unwrap_or(&rule.guard) {
            if !c.eval(f, self.env)? {
                return Ok(());
            }
        }
        // Every term is looked at, even after one without a value: a later
        // one may be on the search path.
        let mut value = Some(0);
        for term in &rule.terms {
            let v = match term {
                Term::Heap(k) => Some(u64::try_from(k.eval(f, self.env)?).map_err(|_| Stop::Bail)?),
                Term::Node(game, args) => {
                    let args: Vec<i64> = args
                        .iter()
                        .map(|a| a.eval(f, self.env))
                        .collect::<Eval<_>>()?;
                    let v = node_value(self.env, *game, &args);
                    self.marks.known(v, *game, &args)?
                }
            };
            value = value.zip(v).map(|(a, b)| a ^ b);
        }
        if let Some(value) = value {
            self.marks.mark(value);
        }
        Ok(())
    }
}

/// Narrows the innermost binder `x` by the guard's leading conjuncts that
/// do not mention it (tested once) or that are affine comparisons in it
/// (which cut a range to an interval). Returns the values left and how
/// many conjuncts were used, or `None` when no value is left.
///
/// Only a prefix of the conjuncts is used, and each is checked for
/// overflow over the values it is tested on, so the interpreter, which
/// tests every conjunct in order for every value, would have met no error
/// on the way: a conjunct that could fail ends the prefix.
fn narrow(
    guard: &[Cond],
    x: Slot,
    mut values: Values,
    f: &mut [i64],
    env: &Env,
) -> Eval<Option<(Values, usize)>> {
    for (used, c) in guard.iter().enumerate() {
        if values.is_empty() {
            return Ok(None);
        }
        if !c.uses(x) {
            // Tested for any one value, it holds for all or for none.
            f[x as usize] = values.first();
            match c.eval(f, env) {
                Ok(true) => continue,
                Ok(false) if total_cond(c) => return Ok(None),
                _ => return Ok(Some((values, used))),
            }
        }
        let Some((op, a, b)) = c.affine_cmp(x) else {
            return Ok(Some((values, used)));
        };
        // d(k) = a(k) - b(k) = d0 + step * (k - lo), exactly, if neither
        // side overflows at either end.
        let (lo, hi) = values.bounds();
        let at = |k: i64, f: &mut [i64]| -> Eval<i128> {
            f[x as usize] = k;
            Ok(a.eval(f, env)? as i128 - b.eval(f, env)? as i128)
        };
        let d0 = at(lo, f)?;
        let last = at(hi, f)?;
        let step = if hi > lo { at(lo + 1, f)? - d0 } else { 0 };
        debug_assert_eq!(d0 + step * (hi - lo) as i128, last);
        values = match values {
            Values::Range(..) => {
                let (from, to) = solve(op, d0, step, (hi - lo) as i128 + 1);
                Values::Range(lo + from as i64, lo + to as i64)
            }
            Values::List(mut items) => {
                let holds = |k: i64| {
                    let d = d0 + step * (k - lo) as i128;
                    compare(op, d.signum() as i64, 0)
                };
                items.retain(|k| holds(*k));
                Values::List(items)
            }
        };
    }
    Ok((!values.is_empty()).then_some((values, guard.len())))
}

/// Whether a condition can fail only by overflowing (which the kernel
/// detects, so it would bail): then its being false is certain.
fn total_cond(c: &Cond) -> bool {
    match c {
        Cond::Const(_) => true,
        Cond::Cmp(_, a, b) => a.total() && b.total(),
        Cond::And(a, b) | Cond::Or(a, b) => total_cond(a) && total_cond(b),
        Cond::Not(a) => total_cond(a),
        Cond::If(c, a, b) => total_cond(c) && total_cond(a) && total_cond(b),
    }
}

/// The offsets `t` in `[0, len)` with `d0 + step * t  op  0`: an interval.
fn solve(op: BinOp, d0: i128, step: i128, len: i128) -> (i128, i128) {
    // Each comparison is one or two conditions `s * (d0 + step t) <= c`.
    let le = |sign: i128, c: i128| -> (i128, i128) {
        let (d, s) = (sign * d0, sign * step);
        // d + s t <= c
        match s.cmp(&0) {
            std::cmp::Ordering::Equal if d <= c => (0, len),
            std::cmp::Ordering::Equal => (0, 0),
            std::cmp::Ordering::Greater => (0, ((c - d).div_euclid(s) + 1).clamp(0, len)),
            std::cmp::Ordering::Less => {
                // t >= (d - c) / -s, rounded up
                let t = (d - c + (-s) - 1).div_euclid(-s);
                (t.clamp(0, len), len)
            }
        }
    };
    let both = |(a, b): (i128, i128), (c, d): (i128, i128)| (a.max(c), b.min(d).max(a.max(c)));
    match op {
        BinOp::Lt => le(1, -1),
        BinOp::Le => le(1, 0),
        BinOp::Gt => le(-1, -1),
        BinOp::Ge => le(-1, 0),
        _ => both(le(1, 0), le(-1, 0)),
    }
}

impl Values {
    fn is_empty(&self) -> bool {
        match self {
            Values::Range(lo, hi) => hi <= lo,
            Values::List(items) => items.is_empty(),
        }
    }

    fn first(&self) -> i64 {
        match self {
            Values::Range(lo, _) => *lo,
            Values::List(items) => items[0],
        }
    }

    /// The smallest and largest value.
    fn bounds(&self) -> (i64, i64) {
        match self {
            Values::Range(lo, hi) => (*lo, hi - 1),
            Values::List(items) => {
                let lo = items.iter().copied().min().unwrap_or(0);
                (lo, items.iter().copied().max().unwrap_or(0))
            }
        }
    }
}

/// The value slot of `game(args)`, read densely when the arguments allow it.
fn node_value(env: &Env, game: GameId, args: &[i64]) -> u64 {
    let dense = env.graph.dense(game);
    let z = match args {
        [n] => dense1(*n),
        [a, b] => dense2(*a, *b),
        _ => None,
    };
    match (dense, z) {
        (Some(d), Some(z)) if d.arity() == args.len() => d.get(z),
        _ => {
            let values: Vec<Value> = args.iter().map(|n| Value::Int(*n)).collect();
            match env.graph.find(game, &values) {
                Some(node) => env.graph.value(node),
                None => ABSENT,
            }
        }
    }
}

impl Marks {
    /// The value in a slot, if known. An option on the search path stops
    /// the run; the first without a value is remembered.
    #[cold]
    fn known(&mut self, v: u64, game: GameId, args: &[i64]) -> Eval<Option<u64>> {
        match v {
            v if v < ABSENT => Ok(Some(v)),
            IN_PROGRESS => Err(Stop::Bail),
            _ => {
                if self.missing.is_none() {
                    let args = args.iter().map(|n| Value::Int(*n)).collect();
                    self.missing = Some((game, args));
                }
                Ok(None)
            }
        }
    }
}

/// The most node terms the fast loop takes; a target with more goes
/// through the general loop.
const PLAN_NODES: usize = 4;

/// One node term of the fast loop: its game, its dense table, its arity,
/// and per argument `(value at lo, step)`, the argument being
/// `first + step * (x - lo)`.
type PlanNode<'g> = (GameId, &'g Dense, usize, [(i64, i64); 2]);

/// The fast loop's plan: every term's arguments affine in the innermost
/// binder and dense at both ends of its values (so everywhere between),
/// nothing that can fail on the way.
struct Plan<'g> {
    nodes: [Option<PlanNode<'g>>; PLAN_NODES],
    heaps: u64,
    lo: i64,
}

impl<'g> Plan<'g> {
    fn new(
        terms: &[Term],
        x: Slot,
        values: &Values,
        f: &mut [i64],
        env: &Env<'g>,
    ) -> Eval<Option<Plan<'g>>> {
        let (lo, hi) = values.bounds();
        let mut plan = Plan {
            nodes: [None; PLAN_NODES],
            heaps: 0,
            lo,
        };
        let mut count = 0;
        for term in terms {
            match term {
                Term::Heap(k) if !k.uses(x) => {
                    plan.heaps ^= u64::try_from(k.eval(f, env)?).map_err(|_| Stop::Bail)?;
                }
                Term::Node(game, args) if (1..=2).contains(&args.len()) && count < PLAN_NODES => {
                    let Some(dense) = env.graph.dense(*game).filter(|d| d.arity() == args.len())
                    else {
                        return Ok(None);
                    };
                    let mut lines = [(0, 0); 2];
                    for (i, a) in args.iter().enumerate() {
                        let Some(line) = affine_line(a, x, (lo, hi), args.len(), f, env)? else {
                            return Ok(None);
                        };
                        lines[i] = line;
                    }
                    plan.nodes[count] = Some((*game, dense, args.len(), lines));
                    count += 1;
                }
                _ => return Ok(None),
            }
        }
        Ok(Some(plan))
    }

    /// Marks the value of every option, for `x` over `values`, looking at
    /// the clock between blocks of options.
    fn run(&self, values: &Values, marks: &mut Marks, poll: &mut dyn FnMut() -> bool) -> Eval<()> {
        let Values::Range(lo, hi) = values else {
            let Values::List(items) = values else {
                unreachable!()
            };
            return items.iter().try_for_each(|k| self.option(*k, marks));
        };
        let linear = self.nodes.iter().flatten().all(|n| n.2 == 1);
        let mut from = *lo;
        while from < *hi {
            let to = match linear {
                true => self.block(from, *hi, marks)?,
                false => {
                    let to = from.saturating_add(POLL_EVERY as i64).min(*hi);
                    (from..to).try_for_each(|k| self.option(k, marks))?;
                    to
                }
            };
            from = to;
            if from < *hi && poll() {
                return Err(Stop::Bail);
            }
        }
        Ok(())
    }

    /// The options for `x` from `from` on, as far as every node's index
    /// stays in one page of its table (and a block at most): there the
    /// values are read from slices, index `offset + step * u`. Returns
    /// where it stopped.
    fn block(&self, from: i64, hi: i64, marks: &mut Marks) -> Eval<i64> {
        let t0 = from.wrapping_sub(self.lo);
        let mut len = (hi - from).min(POLL_EVERY as i64);
        let mut runs: [(&[u64], i64, i64); PLAN_NODES] = [(&[], 0, 0); PLAN_NODES];
        let nodes = self.nodes.iter().flatten().count();
        for (run, (_, dense, _, lines)) in runs.iter_mut().zip(self.nodes.iter().flatten()) {
            let (first, step) = lines[0];
            let z = first.wrapping_add(step.wrapping_mul(t0)) as u32;
            let (page, offset) = dense.page_of(z);
            let room = match step {
                0 => len,
                s if s > 0 => (Dense::PAGE as i64 - 1 - offset as i64) / s + 1,
                s => offset as i64 / -s + 1,
            };
            len = len.min(room);
            *run = (page, offset as i64, step);
        }
        let read = |(page, offset, step): (&[u64], i64, i64), u: i64| {
            page.get((offset + step * u) as usize)
                .copied()
                .unwrap_or(ABSENT)
        };
        let slow = |u: i64, marks: &mut Marks| self.option(from + u, marks);
        match nodes {
            1 => {
                let r = runs[0];
                for u in 0..len {
                    match read(r, u) {
                        v if v < ABSENT => marks.mark(v ^ self.heaps),
                        _ => slow(u, marks)?,
                    }
                }
            }
            2 => {
                let (r, q) = (runs[0], runs[1]);
                for u in 0..len {
                    let (a, b) = (read(r, u), read(q, u));
                    if a < ABSENT && b < ABSENT {
                        marks.mark(a ^ b ^ self.heaps);
                    } else {
                        slow(u, marks)?;
                    }
                }
            }
            _ => (0..len).try_for_each(|u| slow(u, marks))?,
        }
        Ok(from + len)
    }

    #[inline]
    fn option(&self, k: i64, marks: &mut Marks) -> Eval<()> {
        let t = k.wrapping_sub(self.lo);
        let (mut value, mut complete) = (self.heaps, true);
        for (game, dense, arity, lines) in self.nodes.iter().map_while(|n| n.as_ref()) {
            // Affine and in range at both ends, so in range here: the
            // wrapping arithmetic gives the exact argument.
            let at = |(first, step): (i64, i64)| first.wrapping_add(step.wrapping_mul(t));
            let (a, b) = (at(lines[0]), at(lines[1]));
            let z = match arity {
                1 => a as u32,
                _ => (if a >= b { a * a + a + b } else { b * b + a }) as u32,
            };
            match dense.get(z) {
                v if v < ABSENT => value ^= v,
                v => {
                    // Looked at all the same, as in `Run::each`.
                    marks.known(v, *game, &[a, b][..*arity])?;
                    complete = false;
                }
            }
        }
        if complete {
            marks.mark(value);
        }
        Ok(())
    }
}

/// `(a(lo), step)` with `a(x) = a(lo) + step * (x - lo)` for `x` in
/// `[lo, hi]`, when `a` is affine in `x`, evaluates without overflow at
/// both ends, and is a dense argument for a game of `arity` at both ends.
fn affine_line(
    a: &Num,
    x: Slot,
    (lo, hi): (i64, i64),
    arity: usize,
    f: &mut [i64],
    env: &Env,
) -> Eval<Option<(i64, i64)>> {
    if !a.affine(x) {
        return Ok(None);
    }
    let mut at = |k: i64| {
        f[x as usize] = k;
        a.eval(f, env)
    };
    let (first, last) = (at(lo)?, at(hi)?);
    let step = if hi > lo { at(lo + 1)? - first } else { 0 };
    let dense = |v: i64| match arity {
        1 => dense1(v).is_some(),
        _ => dense2(v, 0).is_some(),
    };
    Ok((dense(first) && dense(last)).then_some((first, step)))
}
