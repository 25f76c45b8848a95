//! One move compiled: its binders' domains, the guard split into the
//! conjuncts that narrow the innermost binder and those tested per option,
//! and its terms (with the linear forms of the fast loop where they
//! exist).

use super::bounds::capped;
use super::expr::{Cond, Num, conjuncts, num_in};
use super::filter::Filter;
use super::large::small_domains;
use super::seq::{self, Seq};
use super::targets::{summed, term};
use super::{Arg, Domain, Held, LinearNode, Move, Narrow, Term, Types, plan, run};

use crate::ir::{Ir, IrKind, PatIr, Slot, TargetIr, TermIr};
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::Value;

pub(super) fn compile_move(rule: &crate::ir::MoveIr, types: &Types) -> Option<Move> {
    let types = &types.in_move(rule);
    let rule = &types.pair_lets(rule);
    let binders = rule
        .binders
        .iter()
        .map(|(pattern, domain)| match pattern {
            PatIr::Slot(slot) if types.is_pair(*slot) => Some((
                *slot,
                Domain::Split(seq::Split::Whole, Seq::pairs(domain, types)?, *slot),
            )),
            PatIr::Slot(slot) if types.is_word(*slot) => Some((
                *slot,
                Domain::Split(seq::Split::Whole, Seq::words(domain, types)?, *slot),
            )),
            PatIr::Slot(slot) if !types.is_list(*slot) => Some((*slot, domain_of(domain, types)?)),
            _ => {
                let (how, a, b, xs) = seq::split(pattern, domain, types)?;
                Some((a, Domain::Split(how, xs, b)))
            }
        })
        .collect::<Option<Vec<_>>>()?;
    // Each conjunct compiled, with the span of the condition written
    // that it comes from (a chain, `not (a or b)`, make several).
    let mut guard = Vec::new();
    let mut written = Vec::new();
    let asked = types.asked.borrow().len();
    if let Some(g) = &rule.guard {
        let mut parts = Vec::new();
        crate::runtime::normalize::and_parts(g, &mut parts);
        for part in parts {
            conjuncts(part, &mut guard, types)?;
            written.resize(guard.len(), part.span);
        }
    }
    let binders = small_domains(binders, &guard, types.wide)?;
    // A guard that asks positions' values reads the tables: nothing of it
    // is held over a loop (a conjunct of the innermost binder alone may
    // still be kept once per game: see `filter`).
    let asks = types.asked.borrow().len() > asked;
    let terms: Vec<Term> = match &rule.target {
        TargetIr::Terms(terms) => terms
            .iter()
            .map(|t| match t {
                TermIr::Node(game, args, _) => term(*game, args, types),
                TermIr::Heap(k) => Some(Term::Heap(num_in(k, types)?)),
            })
            .collect::<Option<_>>()?,
        TargetIr::Dynamic(e) => {
            let mut terms = Vec::new();
            summed(e, types, &mut terms)?;
            terms
        }
    };
    // A binder of two names innermost: the second changes with the
    // first, so nothing narrows it.
    let x = binders
        .last()
        .filter(|(_, d)| !matches!(d, Domain::Split(..)))
        .map(|(slot, _)| *slot);
    let exprs = rule.guard.iter().chain(rule.target.exprs());
    let size = exprs.map(crate::runtime::normalize::size).sum::<usize>();
    // Parameters of any size: a condition narrows only where it is
    // evaluated checked.
    let x_linear = x.filter(|_| !types.wide);
    // A binder of two names (`(i, v) in enumerate(s)`) frees both: a
    // conjunct that reads `v` is not the last binder's alone.
    let split = binders.iter().filter_map(|(_, d)| match d {
        Domain::Split(_, _, b) => Some(*b),
        _ => None,
    });
    let free = (binders.iter().map(|(s, _)| *s))
        .chain(split)
        .chain(0..types.arity as Slot)
        .filter(|s| Some(*s) != x)
        .collect::<Vec<_>>();
    if let Some(x) = x_linear {
        cutting_first(&mut guard, &mut written, (x, &free));
    }
    let held = held(&binders, &guard, asks);
    Some(Move {
        held,
        narrow: match types.wide {
            true => x.map_or_else(Vec::new, |x| checked_narrowing(&guard, x)),
            false => x.map_or_else(Vec::new, |x| narrowing(&guard, (x, &free), types.slots())),
        },
        fast: x_linear.and_then(|x| fast_terms(&terms, x)),
        binders,
        guard,
        written,
        terms,
        large: size > LARGE,
        name: rule.name.clone(),
        named: super::listing::named(rule, types),
        share: rule.share(),
    })
}

/// How often each conjunct of `guard` needs evaluating (see [`Held`]):
/// a conjunct that reads no binder of the innermost loop is held, unless
/// the guard asks positions' values, which change as the search goes.
fn held(binders: &[(Slot, Domain)], guard: &[Cond], asks: bool) -> Vec<Held> {
    let reads = |c: &Cond, (slot, domain): &(Slot, Domain)| {
        c.uses(*slot) || matches!(domain, Domain::Split(_, _, b) if c.uses(*b))
    };
    let inner = binders.len().saturating_sub(1);
    (guard.iter())
        .map(|c| match binders.iter().rposition(|b| reads(c, b)) {
            _ if asks || binders.is_empty() => Held::PerOption,
            None => Held::Once,
            Some(i) if i < inner => Held::PerValue(i),
            Some(_) => Held::PerOption,
        })
        .collect()
}

/// The IR nodes of a move's guard and targets past which the machine code
/// loops over a few constants rather than copying the move for each.
const LARGE: usize = 200;

/// The leading conjuncts that can narrow `x`: ones that do not mention it,
/// and linear comparisons (`!=` included: it cuts a point out). The first
/// other conjunct ends them, for the ones after it are only tested where
/// it holds (and it may fail).
/// A conjunct that reads `x` and none of the slots `free` (the
/// parameters and the other binders) is a [`Narrow::Filter`], in a game
/// of `slots` slots, where it asks no position's value but of `x` alone.
fn narrowing(guard: &[Cond], (x, free): (Slot, &[Slot]), slots: usize) -> Vec<Narrow> {
    let alone = |c: &Cond| free.iter().all(|s| !c.uses(*s));
    let mut narrow: Vec<Narrow> = guard
        .iter()
        .enumerate()
        .map_while(|(at, c)| match c.as_linear() {
            _ if !c.uses(x) => Some(Narrow::Once),
            Some((op, d)) => Some(Narrow::Linear(op, d)),
            None => c
                .as_affine(x)
                .map(|(op, d)| Narrow::Affine(op, d))
                .or_else(|| c.as_monotone(x).map(|(s, f, g)| Narrow::Monotone(s, f, g)))
                .or_else(|| c.as_divides(x).map(Narrow::Divides))
                .or_else(|| {
                    if !alone(c) {
                        return None;
                    }
                    // With the conjuncts of the binder alone after it, as
                    // many as a filter takes (one that asks a value past
                    // the first is tested per value).
                    let more = guard[at + 1..].iter().take_while(|c| alone(c)).count();
                    (at..=at + more).rev().find_map(|end| {
                        let f = Filter::new(&guard[at..=end], x, slots)?;
                        Some(Narrow::Filter(Box::new(f)))
                    })
                })
                // After the filter: `m % 2 == 0 and popcount(m) == 3` is
                // one filter, made once per game, where the multiples
                // would test the second conjunct per option (13x).
                .or_else(|| multiple(c, x)),
        })
        .collect();
    // The divisors, or the values kept, are the loop itself: the
    // conjuncts after them are tested per value.
    if let Some(at) = narrow.iter().position(Narrow::is_loop) {
        narrow.truncate(at + 1);
    }
    narrow
}

/// `x % e == 0` as the loop over the multiples of `e`, unless `e` is a
/// constant the loop cannot step by (0 or less, or past
/// [`super::narrow::MULTIPLE_MOST`]), whose every value is tested as written.
fn multiple(c: &Cond, x: Slot) -> Option<Narrow> {
    let e = c.as_multiple(x)?;
    match e {
        Num::Const(k) if !(1..=super::narrow::MULTIPLE_MOST).contains(&k) => None,
        e => Some(Narrow::Multiple(e)),
    }
}

/// `guard` with its leading conjuncts that cannot fail in an order that
/// lets them cut `x`'s loop: those that read `x` and other slots but can
/// narrow nothing (`k == 1 or 0 < a < n`) after the rest, which
/// [`narrowing`] reads only up to the first such. Evaluated in any
/// order, tests that cannot fail hold for the same options.
fn cutting_first(guard: &mut Vec<Cond>, written: &mut Vec<Span>, (x, free): (Slot, &[Slot])) {
    let run = guard.iter().take_while(|c| cannot_fail(c)).count();
    let stays = |c: &Cond| {
        !c.uses(x)
            || free.iter().all(|s| !c.uses(*s))
            || c.as_linear().is_some()
            || c.as_affine(x).is_some()
            || c.as_monotone(x).is_some()
            || c.as_divides(x).is_some()
    };
    let mut tagged: Vec<(Span, Cond)> = written.drain(..).zip(guard.drain(..)).collect();
    tagged[..run].sort_by_key(|(_, c)| !stays(c));
    (*written, *guard) = tagged.into_iter().unzip();
}

/// Whether evaluating `c` cannot fail: comparisons of constants, slots
/// and linear forms (exact: see [`super::expr::Lin`]), and `not`, `and`
/// and `or` of such.
fn cannot_fail(c: &Cond) -> bool {
    use super::expr::spelled::safe;
    match c {
        Cond::Const(_) => true,
        Cond::Cmp(_, a, b) => safe(a) && safe(b),
        Cond::And(a, b) | Cond::Or(a, b) => cannot_fail(a) && cannot_fail(b),
        Cond::Not(a) => cannot_fail(a),
        _ => false,
    }
}

/// [`narrowing`] for parameters of any size: the conjuncts that do not
/// mention `x`, and monotone ones, whose parts are evaluated checked.
fn checked_narrowing(guard: &[Cond], x: Slot) -> Vec<Narrow> {
    guard
        .iter()
        .map_while(|c| match c.uses(x) {
            false => Some(Narrow::Once),
            true => (c.as_monotone(x)).map(|(s, f, g)| Narrow::Monotone(s, f, g)),
        })
        .collect()
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

pub(super) fn domain_of(ir: &Ir, types: &Types) -> Option<Domain> {
    let num = |ir: &Ir| num_in(ir, types);
    Some(match &ir.kind {
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => {
            Domain::Range(num(lo)?, num(hi)?, *op == BinOp::RangeIncl)
        }
        IrKind::Local(_)
        | IrKind::Slice(..)
        | IrKind::Comprehension { .. }
        | IrKind::Let(..)
        | IrKind::If(..)
        | IrKind::Index(..)
        | IrKind::CallFn(..)
        | IrKind::CallBuiltin(..)
        // Lists joined or repeated, sets combined: `set(divisors(n)) - {n}`.
        | IrKind::Binary(
            BinOp::Add | BinOp::Mul | BinOp::Sub | BinOp::BitOr | BinOp::BitAnd | BinOp::BitXor,
            ..,
        ) => Domain::Seq(Seq::numbers(ir, types)?),
        // A set is iterated in increasing order, without repeats: of
        // constants, converted once; else made as the run goes.
        IrKind::Set(items) => {
            let items: Vec<Num> = items.iter().map(num).collect::<Option<_>>()?;
            let ints = items
                .iter()
                .map(|n| match n {
                    Num::Const(c) => Some(*c),
                    _ => None,
                })
                .collect::<Option<Vec<i64>>>();
            match ints {
                Some(mut ints) => {
                    ints.sort_unstable();
                    ints.dedup();
                    fixed(ints)?
                }
                None => Domain::Seq(Seq::numbers(ir, types)?),
            }
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
        IrKind::Const(list @ (Value::List(_) | Value::Tuple(_) | Value::Report(_))) => {
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
/// Items past the slots' limit are kept here, for [`small_domains`] to
/// rule out by the guard.
fn fixed(items: Vec<i64>) -> Option<Domain> {
    Some(Domain::Fixed(run::Values::any(items)))
}

impl Arg {
    /// The arguments `args` of a position as a flat run makes them: the
    /// run's header, and each argument an integer or a collection.
    pub(super) fn compile(args: &[crate::ir::Ir], types: &Types) -> Option<(i64, Vec<Arg>)> {
        if args.len() > crate::graph::flat::ARITY_MAX {
            return None;
        }
        use crate::graph::flat;
        // A boolean is 0 or 1, marked in the header.
        let mut bools = 0;
        let args: Vec<Arg> = (args.iter().enumerate())
            .map(|(i, a)| match num_in(a, types) {
                Some(n) => Some(Arg::Int(n)),
                None if types.makes_bool(a) => {
                    (i < flat::BOOLS_MAX).then_some(())?;
                    bools |= flat::bool_bit(i);
                    crate::runtime::kernel::expr::bool_in(a, types).map(Arg::Int)
                }
                None => Seq::compile(a, types).map(Arg::Seq),
            })
            .collect::<Option<_>>()?;
        let header = flat::header(args.iter().map(|a| match a {
            Arg::Int(_) => crate::graph::Shape::Int,
            Arg::Seq(xs) => xs.shape(types),
        }));
        Some((header | bools, args))
    }

    pub(super) fn uses(&self, slot: Slot) -> bool {
        match self {
            Arg::Int(n) => n.uses(slot),
            Arg::Seq(xs) => xs.uses(slot),
        }
    }
}

impl Narrow {
    /// Whether it makes the loop itself ([`Narrow::Divides`],
    /// [`Narrow::Multiple`], [`Narrow::Filter`]) rather than cutting its
    /// window.
    fn is_loop(&self) -> bool {
        matches!(
            self,
            Narrow::Divides(_) | Narrow::Multiple(_) | Narrow::Filter(_)
        )
    }
}

impl Move {
    /// Whether every conjunct of the guard narrows the loop or is tested
    /// once, so that the loop's options need no test: not when the loop
    /// runs over divisors ([`Narrow::Divides`]), which it finds by tests,
    /// or over the values a [`Narrow::Filter`] keeps.
    pub(super) fn narrowed_whole(&self) -> bool {
        self.narrow.len() == self.guard.len() && !self.narrow.iter().any(Narrow::is_loop)
    }

    /// The filter whose kept values the innermost binder's loop runs
    /// over, if it does ([`Narrow::Filter`]).
    pub(super) fn filter(&self) -> Option<&Filter> {
        match self.narrow.last() {
            Some(Narrow::Filter(f)) => Some(f),
            _ => None,
        }
    }

    /// The dividend `n` of the conjunct `n % x == 0` whose divisors the
    /// innermost binder's loop runs over, if it does ([`Narrow::Divides`]).
    pub(super) fn divides(&self) -> Option<&Num> {
        match self.narrow.last() {
            Some(Narrow::Divides(n)) => Some(n),
            _ => None,
        }
    }

    /// The step `e` of the conjunct `x % e == 0` whose multiples the
    /// innermost binder's loop steps through, if it does
    /// ([`Narrow::Multiple`]).
    pub(super) fn multiple(&self) -> Option<&Num> {
        match self.narrow.last() {
            Some(Narrow::Multiple(e)) => Some(e),
            _ => None,
        }
    }

    /// Whether the move's target was computed, a `sum` of a comprehension
    /// among its terms. The interpreter waits for such an option's
    /// positions in the order of the sum it makes, which keeps its
    /// components sorted by node, not in the order written; so an option
    /// with a position that has no value yet leaves the position to the
    /// interpreter, which then descends in its own order, and any error
    /// met there is the one it reports.
    pub(super) fn sums(&self) -> bool {
        self.terms.iter().any(|t| matches!(t, Term::Sum(_)))
    }

    /// Whether the fast loop ([`plan`]) runs this move faster than
    /// machine code does: when it takes the whole guard, and its loop is
    /// as long as the position is large (`a in 0..n`) and no equation
    /// leaves it a single value, and its options are of one integer,
    /// where reading the dense tables by slice beats a checked read per
    /// option. Measured on Kayles, Dawson's chess and Grundy's game
    /// (BENCHMARKS.md).
    pub(super) fn plan_wins(&self) -> bool {
        let long = match self.binders.last() {
            Some((_, Domain::Range(lo, hi, _))) => !lo.is_const() || !capped(hi),
            _ => false,
        };
        // An equation in the binder (`a + b == n`) leaves it one value.
        let point = self.narrow.iter().any(|n| {
            matches!(
                n,
                Narrow::Linear(BinOp::Eq, _) | Narrow::Affine(BinOp::Eq, _)
            )
        });
        // Options of two integers: machine code wins, whether their row
        // moves with the binder (Fibonacci nim's `f(n - k, k)`: 0.83 s
        // to 0.60 s to 1,000) or not (Wythoff's game's `g(a, b - k)`
        // beside the others: 1.50x to 1.25x its baseline).
        let one_integer =
            (self.fast.as_ref()).is_some_and(|(nodes, _)| nodes.iter().all(|n| n.args.len() == 1));
        // A bound that calls a function (`k in 1..=digits(n)`) is
        // evaluated faster by machine code: 10x for a digit sum's.
        let calls = (self.binders.iter()).any(|(_, d)| match d {
            Domain::Range(lo, hi, _) => lo.calls() || hi.calls(),
            _ => false,
        });
        long && !point && one_integer && !calls && self.narrowed_whole()
    }
}
