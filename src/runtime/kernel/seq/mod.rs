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

mod eval;
mod made;
mod sets;
mod types;

pub(super) use eval::enumerate;
use eval::items;
pub use eval::{contains, fold, index, len, same};
use made::divisors;
pub use made::{DIVISORS_MAX, Rows};
pub use sets::{SetOp, combine};

pub use types::Types;

use super::Eval;
use super::expr::{Cond, Num};
use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::graph::Shape;
use crate::ir::{ClauseIr, Ir, IrKind, PatIr, Slot};
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
}

/// A comprehension: its clauses in order, then its element.
#[derive(Clone, Debug)]
pub struct Comp<E> {
    pub(super) clauses: Vec<Clause>,
    pub(super) elem: E,
}

#[derive(Clone, Debug)]
pub(super) enum Clause {
    For(Slot, Source),
    /// `for (i, x) in enumerate(xs)`: the index's slot, the item's, the list.
    Enumerate(Slot, Slot, Seq),
    If(Cond),
}

/// `(i, x) in enumerate(xs)`, as the slots of `i` and `x` and the list.
pub(super) fn enumerated(pattern: &PatIr, domain: &Ir, types: &Types) -> Option<(Slot, Slot, Seq)> {
    let PatIr::Tuple(parts, _) = pattern else {
        return None;
    };
    let [PatIr::Slot(i), PatIr::Slot(x)] = parts.as_slice() else {
        return None;
    };
    let IrKind::CallBuiltin(Builtin::Enumerate, args) = &domain.kind else {
        return None;
    };
    if args.len() != 1 || types.is_list(*i) || types.is_list(*x) || i == x {
        return None;
    }
    Some((*i, *x, Seq::numbers(&args[0], types)?))
}

/// What a `for` clause or a binder runs over.
#[derive(Clone, Debug)]
pub enum Source {
    Range(Num, Num, bool),
    Seq(Seq),
}

/// `sum`, `min` or `max` of a list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fold {
    Sum,
    Min,
    Max,
}

/// Compiling the IR of a game with list slots.
impl Seq {
    pub fn compile(ir: &Ir, types: &Types) -> Option<Seq> {
        Some(match &ir.kind {
            IrKind::Local(s) if types.is_list(*s) => Seq::Slot(*s),
            IrKind::List(items) | IrKind::Tuple(items) => Seq::Items(
                match ir.kind {
                    IrKind::List(_) => Shape::List,
                    _ => Shape::Tuple,
                },
                items
                    .iter()
                    .map(|i| super::expr::num_in(i, types))
                    .collect::<Option<_>>()?,
            ),
            // A string is its characters' code points, as a flat run
            // holds it; they are characters, not integers, to all but
            // comparisons with characters (see `expr/compile.rs`).
            IrKind::Const(Value::Str(s)) => Seq::Items(
                Shape::Str,
                s.chars().map(|c| Num::Const(u32::from(c).into())).collect(),
            ),
            IrKind::Const(v @ (Value::List(_) | Value::Tuple(_))) => Seq::Items(
                match v {
                    Value::List(_) => Shape::List,
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
                let items = (items.iter())
                    .map(|i| super::expr::num_in(i, types))
                    .collect::<Option<Vec<_>>>()?;
                match items.len() {
                    // One item is a set as it stands.
                    0 | 1 => Seq::Items(Shape::Set, items),
                    _ => Seq::SetOf(Box::new(Seq::Items(Shape::List, items))),
                }
            }
            IrKind::Binary(
                op @ (BinOp::BitOr | BinOp::BitAnd | BinOp::Sub | BinOp::BitXor),
                a,
                b,
            ) => {
                let (a, b) = (Seq::compile(a, types)?, Seq::compile(b, types)?);
                let sets = a.shape(types) == Shape::Set && b.shape(types) == Shape::Set;
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
                (a.shape(types) == b.shape(types) && a.shape(types) != Shape::Set).then_some(())?;
                Seq::Concat(Box::new(a), Box::new(b))
            }
            IrKind::Binary(BinOp::Mul, a, b) => {
                let (xs, k) = match Seq::compile(a, types) {
                    Some(xs) => (xs, super::expr::num_in(b, types)?),
                    None => (Seq::compile(b, types)?, super::expr::num_in(a, types)?),
                };
                (xs.shape(types) == Shape::List).then_some(())?;
                Seq::Repeat(Box::new(xs), Box::new(k))
            }
            IrKind::Slice(x, lo, hi) => {
                let bound = |b: &Option<Box<Ir>>| match b {
                    Some(b) => super::expr::num_in(b, types).map(Some),
                    None => Some(None),
                };
                let xs = Seq::compile(x, types)?;
                (xs.shape(types) != Shape::Set).then_some(())?;
                Seq::Slice(Box::new(xs), bound(lo)?, bound(hi)?)
            }
            IrKind::Comprehension { set, elem, clauses } => {
                let comp = Box::new(Comp::compile(
                    clauses,
                    super::expr::num_in(elem, types)?,
                    types,
                )?);
                match set {
                    true if kept(&comp, types) => Seq::Kept(comp),
                    true => Seq::SetOf(Box::new(Seq::Comp(comp))),
                    false => Seq::Comp(comp),
                }
            }
            IrKind::CallBuiltin(Builtin::Set, args) if args.len() == 1 => {
                Seq::SetOf(Box::new(Seq::numbers(&args[0], types)?))
            }
            IrKind::CallBuiltin(b @ (Builtin::Sorted | Builtin::Reversed), args)
                if args.len() == 1 =>
            {
                let xs = Box::new(Seq::numbers(&args[0], types)?);
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
                // A character of a string is a string of one character.
                _ => {
                    let string = Seq::compile(xs, types)?;
                    (string.shape(types) == Shape::Str).then_some(())?;
                    let i = super::expr::num_in(i, types)?;
                    Seq::Items(Shape::Str, vec![Num::Index(Box::new(string), Box::new(i))])
                }
            },
            // See `Num::Bail`: making the list bails.
            IrKind::CallFn(..) => Seq::Items(Shape::List, vec![Num::Bail]),
            _ => return None,
        })
    }

    /// [`Seq::compile`] of a list, tuple or set, whose items are
    /// integers: never of a string, whose items are characters.
    pub fn numbers(ir: &Ir, types: &Types) -> Option<Seq> {
        Seq::compile(ir, types).filter(|xs| xs.shape(types) != Shape::Str)
    }

    /// Whether the value is a list, a tuple, a set or a string (never
    /// [`Shape::Int`]).
    pub fn shape(&self, types: &Types) -> Shape {
        match self {
            Seq::Slot(s) => types.shape(*s),
            Seq::Items(shape, _) => *shape,
            Seq::Concat(a, _) | Seq::Slice(a, ..) | Seq::Repeat(a, _) => a.shape(types),
            Seq::Comp(_) | Seq::Sorted(_) | Seq::Reversed(_) | Seq::Divisors(_) => Shape::List,
            Seq::Let(_, _, xs) | Seq::Bind(_, _, xs) | Seq::If(_, xs, _) => xs.shape(types),
            Seq::Row(rows, _) => rows.shape,
            Seq::SetOf(_) | Seq::SetOp(..) | Seq::Kept(_) => Shape::Set,
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
            Seq::Let(_, n, xs) => n.uses(slot) || xs.uses(slot),
            Seq::If(c, a, b) => c.uses(slot) || a.uses(slot) || b.uses(slot),
            Seq::Bind(_, value, body) => value.uses(slot) || body.uses(slot),
            Seq::Row(_, i) => i.uses(slot),
            Seq::SetOf(xs) => xs.uses(slot),
            Seq::SetOp(_, a, b) => a.uses(slot) || b.uses(slot),
        }
    }
}

/// Whether `comp` keeps items of a set as they are: `{x for x in s if
/// c}`, one `for` over a set and conditions, its element the item.
fn kept(comp: &Comp<Num>, types: &Types) -> bool {
    let Some((Clause::For(x, Source::Seq(xs)), conds)) = comp.clauses.split_first() else {
        return false;
    };
    xs.shape(types) == Shape::Set
        && matches!(comp.elem, Num::Slot(e) if e == *x)
        && conds.iter().all(|c| matches!(c, Clause::If(_)))
}

impl Comp<Num> {
    /// Whether this comprehension, one [`kept`], runs over set slot `s`.
    fn keeps_of(&self, s: Slot) -> bool {
        matches!(&self.clauses[0], Clause::For(_, Source::Seq(Seq::Slot(t))) if *t == s)
    }

    /// The items of the same set that this one, [`kept`], leaves out:
    /// `s - {x for x in s if a if b}` is `{x for x in s if not (a and
    /// b)}`, the conditions evaluated as often and in the same order.
    fn others(&self) -> Comp<Num> {
        let mut conds = self.clauses[1..].iter().map(|c| match c {
            Clause::If(c) => c.clone(),
            _ => unreachable!("`kept` takes conditions only"),
        });
        let first = conds.next().unwrap_or(Cond::Const(true));
        let all = conds.fold(first, |a, b| Cond::And(Box::new(a), Box::new(b)));
        Comp {
            clauses: vec![
                self.clauses[0].clone(),
                Clause::If(Cond::Not(Box::new(all))),
            ],
            elem: self.elem.clone(),
        }
    }
}

impl<E> Comp<E> {
    pub fn compile(clauses: &[ClauseIr], elem: E, types: &Types) -> Option<Comp<E>> {
        let clauses = clauses
            .iter()
            .map(|c| match c {
                ClauseIr::For(PatIr::Slot(s), xs) if !types.is_list(*s) => {
                    Some(Clause::For(*s, Source::compile(xs, types)?))
                }
                ClauseIr::For(pattern, xs) => {
                    let (i, x, xs) = enumerated(pattern, xs, types)?;
                    Some(Clause::Enumerate(i, x, xs))
                }
                ClauseIr::If(c) => Some(Clause::If(super::expr::cond_in(c, types)?)),
            })
            .collect::<Option<_>>()?;
        Some(Comp { clauses, elem })
    }

    fn uses(&self, slot: Slot, elem: impl Fn(&E) -> bool) -> bool {
        elem(&self.elem)
            || self.clauses.iter().any(|c| match c {
                Clause::For(s, src) => *s == slot || src.uses(slot),
                Clause::Enumerate(i, x, xs) => *i == slot || *x == slot || xs.uses(slot),
                Clause::If(c) => c.uses(slot),
            })
    }

    /// Runs the clauses, calling `each` once per element, in order.
    pub(in crate::runtime::kernel) fn run(
        &self,
        i: usize,
        f: &mut Vec<i64>,
        defs: &Defs,
        each: &mut dyn FnMut(&E, &mut Vec<i64>) -> Eval<()>,
    ) -> Eval<()> {
        let Some(clause) = self.clauses.get(i) else {
            return each(&self.elem, f);
        };
        match clause {
            Clause::If(c) => match c.eval(f, defs)? {
                true => self.run(i + 1, f, defs, each),
                false => Ok(()),
            },
            Clause::For(slot, src) => {
                let mark = f.len();
                let result = src.each(f, defs, &mut |k, f| {
                    f[*slot as usize] = k;
                    self.run(i + 1, f, defs, each)
                });
                // A list the clause pushed is dropped; otherwise what the
                // elements pushed is the comprehension's to keep.
                if src.pushes() {
                    f.truncate(mark);
                }
                result
            }
            Clause::Enumerate(i_slot, x_slot, xs) => {
                let mark = f.len();
                let result = enumerate(
                    xs,
                    f,
                    defs,
                    &mut |f| self.run(i + 1, f, defs, each),
                    (*i_slot, *x_slot),
                );
                if xs.pushes() {
                    f.truncate(mark);
                }
                result
            }
        }
    }
}

impl Comp<Cond> {
    /// `all(...)` (or `any(...)` when `!all`) of the comprehension. Every
    /// element is evaluated, as the interpreter builds the whole list
    /// first: an element that fails is then the interpreter's to report.
    pub fn quantify(&self, all: bool, f: &mut Vec<i64>, defs: &Defs) -> Eval<bool> {
        let mut found = false;
        self.run(0, f, defs, &mut |c, f| {
            found |= c.eval(f, defs)? != all;
            Ok(())
        })?;
        Ok(found != all)
    }

    pub fn uses_slot(&self, slot: Slot) -> bool {
        self.uses(slot, |c| c.uses(slot))
    }
}

impl Source {
    pub fn compile(ir: &Ir, types: &Types) -> Option<Source> {
        match &ir.kind {
            IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => Some(Source::Range(
                super::expr::num_in(lo, types)?,
                super::expr::num_in(hi, types)?,
                *op == BinOp::RangeIncl,
            )),
            _ => Seq::numbers(ir, types).map(Source::Seq),
        }
    }

    pub(super) fn pushes(&self) -> bool {
        match self {
            Source::Range(..) => false,
            Source::Seq(xs) => xs.pushes(),
        }
    }

    pub fn uses(&self, slot: Slot) -> bool {
        match self {
            Source::Range(lo, hi, _) => lo.uses(slot) || hi.uses(slot),
            Source::Seq(xs) => xs.uses(slot),
        }
    }

    /// Calls `each` with every value, in order. Values bound to a slot
    /// must be below [`super::expr::SLOT_LIMIT`] in magnitude, as the kernel's linear
    /// forms assume.
    pub fn each(
        &self,
        f: &mut Vec<i64>,
        defs: &Defs,
        each: &mut dyn FnMut(i64, &mut Vec<i64>) -> Eval<()>,
    ) -> Eval<()> {
        match self {
            Source::Range(lo, hi, inclusive) => {
                let (lo, hi) = super::run::range((lo, hi, *inclusive), f, defs)?;
                (lo..hi).try_for_each(|k| each(k, f))
            }
            Source::Seq(xs) => items(xs, f, defs, &mut |_, k, f| each(k, f)),
        }
    }
}

#[cfg(test)]
mod tests;
