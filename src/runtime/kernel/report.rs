//! What `--explain` asks of the compiled rules: the shape of one move
//! compiled, and whether a piece of a rule compiles.

use super::Domain;
use super::expr::{conjuncts, num_in};
use super::moves::{compile_move, domain_of};
use super::{Kernel, Term, Types, forms};
use crate::graph::flat;
use crate::ir::{GameIr, Ir};
use crate::value::GameId;

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
    /// The spans of the conditions written that are tested for every
    /// option (see `Move::written`).
    pub tested: Vec<crate::span::Span>,
    /// Whether the innermost binder runs over the divisors of a number,
    /// its guard asking `n % x == 0` (see `narrow::divisors`).
    pub divisors: bool,
    /// Whether it steps through the multiples of a number, its guard
    /// asking `x % e == 0` (see `narrow::multiples`).
    pub multiples: bool,
    /// Whether it runs over the values that conjuncts of the binder alone
    /// keep, evaluated once per game (see `kernel::filter`).
    pub kept: bool,
    /// Whether a condition could narrow the innermost binder: it binds
    /// one integer (not an item split in two, nor a pair).
    pub narrows: bool,
    /// Whether a target has list arguments: its value is looked up by
    /// its flat run in the hash table rather than read by index.
    pub lists: bool,
    /// Whether a target has three or more integer arguments and no list:
    /// looked up by its flat run too.
    pub packed: bool,
    /// Whether every target with list arguments has a fixed form of a few
    /// integers (see [`forms`]): read from the tables like integers.
    pub formed: bool,
}

/// The shape of `rule` compiled, or `None` when it does not compile.
pub fn move_shape(rule: &crate::ir::MoveIr, game: &GameIr, id: GameId) -> Option<MoveShape> {
    shape(rule, &Types::of(game, id))
}

impl Kernel {
    /// [`move_shape`] of one of the kernel's rules, with the calls of
    /// functions it compiles.
    pub fn move_shape(&self, rule: &crate::ir::MoveIr, game: &GameIr) -> Option<MoveShape> {
        shape(
            rule,
            &Types::hinted(game, self.game, &self.hints).with_calls(self.calls.clone()),
        )
    }
}

fn shape(rule: &crate::ir::MoveIr, types: &Types) -> Option<MoveShape> {
    let m = compile_move(rule, types)?;
    Some(MoveShape {
        fast: m.fast.is_some() && m.narrowed_whole(),
        narrowed: m.narrow.len() + m.filter().map_or(0, |f| f.conjuncts() - 1),
        conjuncts: m.guard.len(),
        tested: {
            let narrowed = m.narrow.len() + m.filter().map_or(0, |f| f.conjuncts() - 1);
            (m.written.iter().zip(&m.held).skip(narrowed))
                .filter(|(_, h)| **h == super::Held::PerOption)
                .map(|(w, _)| *w)
                .collect()
        },
        divisors: m.divides().is_some(),
        multiples: m.multiple().is_some(),
        kept: m.filter().is_some(),
        narrows: !matches!(m.binders.last(), Some((_, Domain::Split(..)))),
        // A boolean among integers is read from the tables as they are.
        lists: (m.terms.iter()).any(|t| matches!(t, Term::Flat(_, h, _) if h >> 8 != 0)),
        packed: (m.terms.iter()).any(|t| matches!(t, Term::Flat(_, h, _) if flat::plain(*h))),
        formed: m.terms.iter().all(|t| match t {
            Term::Flat(_, h, args) if !flat::plain(*h) => forms::static_form(*h, args).is_some(),
            _ => true,
        }),
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
    domain_of(ir, types).is_some_and(|d| !matches!(d, Domain::Fixed(v) if !v.small()))
}

/// Whether `ir` is a domain of constants of which some are past ±2³¹:
/// compiled only where the guard's first condition rules those out.
pub fn domain_too_large(ir: &Ir, types: &Types) -> bool {
    matches!(domain_of(ir, types), Some(Domain::Fixed(v)) if !v.small())
}

/// Whether a computed target compiles: a sum of games applied to
/// integers, heaps, and `sum`s of comprehensions of those.
pub fn compiles_as_target(ir: &Ir, types: &Types) -> bool {
    super::targets::summed(ir, types, &mut Vec::new()).is_some()
}
