//! Lists and tuples of integers in kernels: the list and tuple parameters
//! of games such as `each(hs)`, and the list expressions of their rules
//! (`hs[i]`, `len(hs)`, slices, `+`, comprehensions, `sorted`, `all`).
//!
//! A list lives in the run's frame, past the slots: the frame is one
//! `Vec<i64>` whose first slots hold integers, and a list slot holds where
//! its items are ([`encode`]). Evaluating a list pushes its items at the
//! end of the frame (or, for a parameter or a slice of one, points into
//! it) and says where they are; whoever asked truncates the frame back
//! once done, so a run needs no allocation per option.
//!
//! A position's arguments travel as one flat run of integers
//! ([`crate::graph::flat`]): the graph stores list positions under that
//! key, and the kernel reads and writes it without building values.

mod comp;
mod eval;
mod made;
mod packed;
pub(in crate::runtime::kernel) use packed::word_in;
use packed::{constant_packed, joined, packed};
mod sets;
mod types;

pub(super) use comp::split;
pub(super) use comp::{Clause, kept};
pub use comp::{Comp, Source, Split};
pub(super) use eval::split_each;
pub use eval::{contains, fold, index, len, less, pack, same, within};
use made::divisors;
pub use made::{DIVISORS_MAX, Rows};
pub use sets::{SetOp, combine, merge_into};

pub use types::Types;

use super::expr::{Cond, Num};
use crate::builtins::Builtin;
use crate::graph::Shape;
use crate::ir::{Ir, IrKind, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;
use std::rc::Rc;

/// The most items a list made by a rule may have before the kernel leaves
/// the position to the interpreter (which enforces its own size limit).
pub(crate) const ITEMS_MAX: usize = 1 << 16;

/// A list slot's value: where its items are in the frame.
pub fn encode(start: usize, end: usize) -> i64 {
    ((start as i64) << 32) | (end - start) as i64
}

/// Where the items of a list slot are.
#[inline]
pub fn decode(v: i64) -> (usize, usize) {
    let start = (v >> 32) as usize;
    (start, start + (v & 0xffff_ffff) as usize)
}

/// A list (or tuple) of integers.
#[derive(Clone, Debug)]
pub enum Seq {
    /// A list parameter.
    Slot(Slot),
    /// Items written out: `[a, b]`, `(a, b)`, or a constant list.
    Items(Shape, Vec<Num>),
    Concat(Box<Seq>, Box<Seq>),
    /// `xs * k`.
    Repeat(Box<Seq>, Box<Num>),
    Slice(Box<Seq>, Option<Num>, Option<Num>),
    Comp(Box<Comp<Num>>),
    Sorted(Box<Seq>),
    Reversed(Box<Seq>),
    /// `divisors(n)`: the divisors of `1 <= n <= DIVISORS_MAX`, in
    /// increasing order (larger `n` are left to the interpreter, whose
    /// trial division Ctrl-C and the time limit can stop).
    Divisors(Box<Num>),
    /// The integers of `lo..hi` (`lo..=hi` when true) as `set`, `sorted`
    /// and `reversed` take them: `set(j..=i)`. More than [`ITEMS_MAX`]
    /// bail.
    Range(Box<(Num, Num, bool)>),
    /// `let slot = value in body`.
    Let(Slot, Box<Num>, Box<Seq>),
    /// `let slot = value in body` of a list (or tuple, set or string)
    /// `value`: the slot holds where its items are, as a parameter's does.
    Bind(Slot, Box<Seq>, Box<Seq>),
    /// `if c then a else b`, both lists or both tuples.
    If(Box<Cond>, Box<Seq>, Box<Seq>),
    /// `ROWS[i]`: a row of a constant list of lists of integers (an
    /// adjacency list), copied out.
    Row(Rc<Rows>, Box<Num>),
    /// The set of a list's items: `{a, b}`, `set(xs)`, `{x for ...}`.
    SetOf(Box<Seq>),
    /// The items of a set that a comprehension keeps, `{x for x in s if
    /// c}`: a set as they come, in increasing order (see [`kept`]).
    Kept(Box<Comp<Num>>),
    /// `|`, `&`, `-` or `^` of two sets.
    SetOp(SetOp, Box<Seq>, Box<Seq>),
    /// The characters of a string packed in one integer, an item of a
    /// list or set of strings (`rows[y]`, `w in ws`).
    Word(Box<Num>),
}

/// `sum`, `min` or `max` of a list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fold {
    Sum,
    Min,
    Max,
}

/// A constant list longer than this is one [`Rows`] row, read in place.
const LONG: usize = 16;

/// Compiling the IR of a game with list slots.
impl Seq {
    pub fn compile(ir: &Ir, types: &Types) -> Option<Seq> {
        Some(match &ir.kind {
            IrKind::Local(s) if types.is_list(*s) => Seq::Slot(*s),
            IrKind::Local(s) if types.is_word(*s) => Seq::Word(Box::new(Num::Named(*s))),
            IrKind::List(items) | IrKind::Tuple(items) => {
                let list = matches!(ir.kind, IrKind::List(_));
                match (items.iter())
                    .map(|i| super::expr::num_in(i, types))
                    .collect::<Option<_>>()
                {
                    Some(items) if list => Seq::Items(Shape::List, items),
                    Some(items) => Seq::Items(Shape::Tuple, items),
                    // Of conditions: `[not cs[j]]`, `(false,)`.
                    None if items.iter().all(|x| types.makes_bool(x)) => Seq::Items(
                        if list { Shape::Bools } else { Shape::BoolTuple },
                        (items.iter())
                            .map(|x| super::expr::bool_in(x, types))
                            .collect::<Option<_>>()?,
                    ),
                    None if list => packed(items, types)?,
                    // A tuple of pairs: `((x, y),)`.
                    None => Seq::Items(
                        Shape::PairTuple,
                        (items.iter())
                            .map(|i| super::expr::pair_in(i, types))
                            .collect::<Option<_>>()?,
                    ),
                }
            }
            // A string is its characters' code points, as a flat run
            // holds it; they are characters, not integers, to all but
            // comparisons with characters (see `expr/compile.rs`).
            IrKind::Const(Value::Str(s)) => Seq::Items(
                Shape::Str,
                s.chars().map(|c| Num::Const(u32::from(c).into())).collect(),
            ),
            IrKind::Const(v @ (Value::List(_) | Value::Set(_) | Value::Tuple(_)))
                if constant_packed(v).is_some() =>
            {
                let (shape, items) = constant_packed(v)?;
                match items.len() > LONG {
                    // One row read in place, as a long list of integers.
                    true => Seq::Row(Rc::new(Rows::packed(shape, items)), Box::new(Num::Const(0))),
                    false => Seq::Items(shape, items.into_iter().map(Num::Const).collect()),
                }
            }
            // A long constant list, tuple or set of integers (a table's
            // values, a word's code points) is one row, read in place: as
            // items, each would be an expression of its own.
            IrKind::Const(v)
                if v.as_slice().is_some_and(|items| items.len() > LONG)
                    || matches!(v, Value::Set(s) if s.len() > LONG) =>
            {
                Seq::Row(Rc::new(Rows::single(v)?), Box::new(Num::Const(0)))
            }
            IrKind::Const(v @ (Value::List(_) | Value::Tuple(_) | Value::Report(_))) => Seq::Items(
                match v {
                    Value::List(_) | Value::Report(_) => Shape::List,
                    _ => Shape::Tuple,
                },
                v.as_slice()?
                    .iter()
                    .map(|v| match v {
                        Value::Int(n) => Some(Num::Const(*n)),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            ),
            // A set's items in its order, increasing.
            IrKind::Const(Value::Set(items)) => Seq::Items(
                Shape::Set,
                items
                    .iter()
                    .map(|v| match v {
                        Value::Int(n) => Some(Num::Const(*n)),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            ),
            IrKind::Set(items) => {
                let (list, items) = match (items.iter())
                    .map(|i| super::expr::num_in(i, types))
                    .collect::<Option<Vec<_>>>()
                {
                    Some(items) => (Shape::List, items),
                    None => match packed(items, types)? {
                        Seq::Items(list, items) => (list, items),
                        _ => return None,
                    },
                };
                match items.len() {
                    // One item is a set as it stands.
                    0 | 1 => Seq::Items(
                        match list {
                            Shape::Pairs => Shape::PairSet,
                            Shape::Words => Shape::WordSet,
                            _ => Shape::Set,
                        },
                        items,
                    ),
                    _ => Seq::SetOf(Box::new(Seq::Items(list, items))),
                }
            }
            IrKind::Binary(
                op @ (BinOp::BitOr | BinOp::BitAnd | BinOp::Sub | BinOp::BitXor),
                a,
                b,
            ) => {
                let (a, b) = (Seq::compile(a, types)?, Seq::compile(b, types)?);
                let sets = a.shape(types).is_set() && b.shape(types) == a.shape(types);
                sets.then_some(())?;
                let op = SetOp::of(*op)?;
                match (op, &a, b) {
                    (SetOp::Diff, Seq::Slot(s), Seq::Kept(comp)) if comp.keeps_of(*s) => {
                        Seq::Kept(Box::new(comp.others()))
                    }
                    (_, _, b) => Seq::SetOp(op, Box::new(a), Box::new(b)),
                }
            }
            IrKind::Binary(BinOp::Add, a, b) => {
                let (a, b) = (Seq::compile(a, types)?, Seq::compile(b, types)?);
                (a.shape(types) == b.shape(types) && !a.shape(types).is_set()).then_some(())?;
                Seq::Concat(Box::new(a), Box::new(b))
            }
            IrKind::Binary(BinOp::Mul, a, b) => {
                let (xs, k) = match Seq::compile(a, types) {
                    Some(xs) => (xs, super::expr::num_in(b, types)?),
                    None => (Seq::compile(b, types)?, super::expr::num_in(a, types)?),
                };
                matches!(
                    xs.shape(types),
                    Shape::List | Shape::Pairs | Shape::Str | Shape::Bools
                )
                .then_some(())?;
                Seq::Repeat(Box::new(xs), Box::new(k))
            }
            IrKind::Slice(x, lo, hi) => {
                let bound = |b: &Option<Box<Ir>>| match b {
                    Some(b) => super::expr::num_in(b, types).map(Some),
                    None => Some(None),
                };
                let xs = Seq::compile(x, types)?;
                (!xs.shape(types).is_set()).then_some(())?;
                Seq::Slice(Box::new(xs), bound(lo)?, bound(hi)?)
            }
            IrKind::Comprehension { set, elem, clauses } => {
                let (elem, items) = match super::expr::num_in(elem, types) {
                    Some(n) => (n, Shape::List),
                    // A list of conditions: `[not c for c in cs]`.
                    None if !set && types.makes_bool(elem) => {
                        (super::expr::bool_in(elem, types)?, Shape::Bools)
                    }
                    None => match super::expr::pair_in(elem, types) {
                        Some(p) => (p, Shape::Pairs),
                        None => (word_in(elem, types)?, Shape::Words),
                    },
                };
                let mut comp = Box::new(Comp::compile(clauses, elem, types)?);
                comp.items = items;
                match set {
                    true if kept(&comp, types) => Seq::Kept(comp),
                    true => Seq::SetOf(Box::new(Seq::Comp(comp))),
                    false => Seq::Comp(comp),
                }
            }
            IrKind::CallBuiltin(Builtin::Set, args) if args.len() == 1 => {
                Seq::SetOf(Box::new(Seq::items(&args[0], types)?))
            }
            IrKind::CallBuiltin(b @ (Builtin::Sorted | Builtin::Reversed), args)
                if args.len() == 1 =>
            {
                // A list of booleans reversed is one (`min(cs,
                // reversed(cs))`).
                let bools = *b == Builtin::Reversed;
                let xs = Box::new(Seq::items_as(&args[0], types, bools)?);
                match b {
                    Builtin::Sorted => Seq::Sorted(xs),
                    _ => Seq::Reversed(xs),
                }
            }
            IrKind::CallBuiltin(Builtin::Divisors, args) if args.len() == 1 => {
                Seq::Divisors(Box::new(super::expr::num_in(&args[0], types)?))
            }
            IrKind::Let(PatIr::Slot(s), value, body) if types.is_named(*s) => Seq::Let(
                *s,
                Box::new(super::expr::num_in(value, types)?),
                Box::new(Seq::compile(body, types)?),
            ),
            IrKind::Let(PatIr::Slot(s), value, body) if types.is_list(*s) => {
                let value = Seq::compile(value, types)?;
                (value.shape(types) == types.shape(*s)).then_some(())?;
                Seq::Bind(*s, Box::new(value), Box::new(Seq::compile(body, types)?))
            }
            IrKind::If(c, a, b) => {
                let (a, b) = (Seq::compile(a, types)?, Seq::compile(b, types)?);
                (a.shape(types) == b.shape(types)).then_some(())?;
                let c = super::expr::cond_in(c, types)?;
                Seq::If(Box::new(c), Box::new(a), Box::new(b))
            }
            IrKind::Index(xs, i) => match &xs.kind {
                IrKind::Const(v) if !matches!(v, Value::Str(_)) => Seq::Row(
                    Rc::new(Rows::of(v)?),
                    Box::new(super::expr::num_in(i, types)?),
                ),
                // A character of a string is a string of one character; a
                // row of a list of strings is a string.
                _ => {
                    let string = Seq::compile(xs, types)?;
                    let i = Box::new(super::expr::num_in(i, types)?);
                    match string.shape(types) {
                        Shape::Str => Seq::Items(Shape::Str, vec![Num::Index(Box::new(string), i)]),
                        Shape::Words => Seq::Word(Box::new(Num::Index(Box::new(string), i))),
                        _ => return None,
                    }
                }
            },
            IrKind::CallBuiltin(Builtin::Join, args) => joined(args, types)?,
            // See `Num::Bail`: making the list bails.
            IrKind::CallFn(..) => Seq::Items(Shape::List, vec![Num::Bail]),
            _ => return None,
        })
    }

    /// [`Seq::compile`] of a list, tuple or set, whose items are
    /// integers: never of a string, whose items are characters.
    pub fn numbers(ir: &Ir, types: &Types) -> Option<Seq> {
        Seq::compile(ir, types).filter(|xs| xs.shape(types).holds_ints())
    }

    /// [`Seq::compile`] of a list or set of pairs.
    pub fn pairs(ir: &Ir, types: &Types) -> Option<Seq> {
        Seq::compile(ir, types).filter(|xs| xs.shape(types).of_pairs())
    }

    /// [`Seq::compile`] of a list or set of strings.
    pub fn words(ir: &Ir, types: &Types) -> Option<Seq> {
        Seq::compile(ir, types).filter(|xs| xs.shape(types).of_words())
    }

    /// [`Seq::compile`] of a list, tuple or set, whose items are integers
    /// or pairs, or a range of integers: what `sorted`, `reversed` and
    /// `set` take.
    pub fn items(ir: &Ir, types: &Types) -> Option<Seq> {
        Seq::items_as(ir, types, false)
    }

    /// [`Seq::items`], lists of booleans too where `bools`.
    fn items_as(ir: &Ir, types: &Types, bools: bool) -> Option<Seq> {
        match &ir.kind {
            IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => {
                let (lo, hi) = (
                    super::expr::num_in(lo, types)?,
                    super::expr::num_in(hi, types)?,
                );
                return Some(Seq::Range(Box::new((lo, hi, *op == BinOp::RangeIncl))));
            }
            IrKind::Const(Value::Range(lo, hi)) => {
                let ends = (Num::Const(*lo), Num::Const(*hi), false);
                return Some(Seq::Range(Box::new(ends)));
            }
            _ => {}
        }
        Seq::compile(ir, types).filter(|xs| {
            let shape = xs.shape(types);
            shape != Shape::Str && (bools || !shape.of_bools())
        })
    }

    /// Whether the value is a list, a tuple, a set or a string (never
    /// [`Shape::Int`]).
    pub fn shape(&self, types: &Types) -> Shape {
        match self {
            Seq::Slot(s) => types.shape(*s),
            Seq::Items(shape, _) => *shape,
            Seq::Concat(a, _) | Seq::Slice(a, ..) | Seq::Repeat(a, _) => a.shape(types),
            Seq::Comp(c) => c.items,
            // Each item's kind, as a list: one look, nested as deep as
            // they come.
            Seq::Sorted(xs) | Seq::Reversed(xs) => match xs.shape(types) {
                s if s.of_pairs() => Shape::Pairs,
                s if s.of_words() => Shape::Words,
                s if s.of_bools() && matches!(self, Seq::Reversed(_)) => Shape::Bools,
                _ => Shape::List,
            },
            Seq::Divisors(_) | Seq::Range(_) => Shape::List,
            Seq::Let(_, _, xs) | Seq::Bind(_, _, xs) | Seq::If(_, xs, _) => xs.shape(types),
            Seq::Row(rows, _) => rows.shape,
            Seq::SetOf(xs) if xs.shape(types).of_pairs() => Shape::PairSet,
            Seq::SetOp(_, xs, _) => xs.shape(types),
            Seq::Kept(c) => match &c.clauses[0] {
                Clause::For(_, Source::Seq(xs)) => xs.shape(types),
                _ => Shape::Set,
            },
            Seq::SetOf(xs) if xs.shape(types).of_words() => Shape::WordSet,
            Seq::SetOf(_) => Shape::Set,
            Seq::Word(_) => Shape::Str,
        }
    }

    /// Whether evaluating it pushes its items (else it points into a
    /// parameter).
    pub(super) fn pushes(&self) -> bool {
        match self {
            Seq::Slot(_) => false,
            Seq::Slice(xs, ..) | Seq::Let(_, _, xs) => xs.pushes(),
            Seq::If(_, a, b) | Seq::Bind(_, a, b) => a.pushes() || b.pushes(),
            _ => true,
        }
    }

    pub fn uses(&self, slot: Slot) -> bool {
        match self {
            Seq::Slot(s) => *s == slot,
            Seq::Items(_, items) => items.iter().any(|i| i.uses(slot)),
            Seq::Concat(a, b) => a.uses(slot) || b.uses(slot),
            Seq::Repeat(a, k) => a.uses(slot) || k.uses(slot),
            Seq::Slice(a, lo, hi) => a.uses(slot) || lo.iter().chain(hi).any(|b| b.uses(slot)),
            Seq::Comp(c) | Seq::Kept(c) => c.uses(slot, |e| e.uses(slot)),
            Seq::Sorted(a) | Seq::Reversed(a) => a.uses(slot),
            Seq::Divisors(n) => n.uses(slot),
            Seq::Range(r) => r.0.uses(slot) || r.1.uses(slot),
            Seq::Let(_, n, xs) => n.uses(slot) || xs.uses(slot),
            Seq::If(c, a, b) => c.uses(slot) || a.uses(slot) || b.uses(slot),
            Seq::Bind(_, value, body) => value.uses(slot) || body.uses(slot),
            Seq::Row(_, i) => i.uses(slot),
            Seq::SetOf(xs) => xs.uses(slot),
            Seq::SetOp(_, a, b) => a.uses(slot) || b.uses(slot),
            Seq::Word(w) => w.uses(slot),
        }
    }
}

#[cfg(test)]
mod tests;
