//! Comprehensions and the `for`s of binders compiled: their clauses,
//! what they go over, and how a `for` of two names splits each item.

use super::eval::{items, split_each};
use super::{Seq, Types};
use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::graph::Shape;
use crate::ir::{ClauseIr, Ir, IrKind, PatIr, Slot};
use crate::runtime::kernel::Eval;
use crate::runtime::kernel::expr::{Cond, Num};
use crate::runtime::kernel::narrow::rising_last;
use crate::syntax::ast::BinOp;

/// A comprehension: its clauses in order, then its element.
#[derive(Clone, Debug)]
pub struct Comp<E> {
    pub(in crate::runtime::kernel) clauses: Vec<Clause>,
    pub(in crate::runtime::kernel) elem: E,
    /// The list its elements make: of integers ([`Shape::List`]), of
    /// packed pairs (`[(x, y) for ...]`) or of packed strings.
    pub(in crate::runtime::kernel) items: Shape,
}

#[derive(Clone, Debug)]
pub(in crate::runtime::kernel) enum Clause {
    For(Slot, Source),
    /// `for (a, b) in ...`: how each item splits, the two slots, the list.
    Split(Split, Slot, Slot, Seq),
    If(Cond),
    /// An `if` right after a `for` over a range from a constant of at
    /// least 0, monotone in the `for`'s name ([`Cond::as_monotone`]: `d *
    /// d <= n`): it holds on an initial part of the range, so the `for`
    /// ends where it first fails rather than testing every value. With
    /// the strictness, `fx` and `g` of `fx(x) < g`.
    While(Cond, Box<(bool, Num, Num)>),
}

/// How a binder or a `for` of two names, `(a, b) in ...`, takes each
/// item of a list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Split {
    /// `(i, x) in enumerate(xs)`: `a` the index, `b` the item.
    Enumerate,
    /// `(x, y) in ps`, a list or set of pairs: `a` and `b` the halves of
    /// each packed pair ([`crate::graph::flat::pack`]).
    Pair,
    /// `p in ps`, of pairs: `a` (and `b`, the same slot) the pair, packed,
    /// read only as a pair ([`Types::is_pair`]).
    Whole,
}

/// `(i, x) in enumerate(xs)` or `(x, y) in ps`, as how each item splits,
/// the slots of the two names, and the list.
pub(in crate::runtime::kernel) fn split(
    pattern: &PatIr,
    domain: &Ir,
    types: &Types,
) -> Option<(Split, Slot, Slot, Seq)> {
    let PatIr::Tuple(parts, _) = pattern else {
        return None;
    };
    let [PatIr::Slot(i), PatIr::Slot(x)] = parts.as_slice() else {
        return None;
    };
    if types.is_list(*i) || types.is_list(*x) || i == x {
        return None;
    }
    match &domain.kind {
        IrKind::CallBuiltin(Builtin::Enumerate, args) if args.len() == 1 => {
            Some((Split::Enumerate, *i, *x, items_of(&args[0], *x, types)?))
        }
        IrKind::CallBuiltin(Builtin::Enumerate, _) => None,
        _ => {
            let ps = Seq::compile(domain, types)?;
            ps.shape(types)
                .of_pairs()
                .then_some((Split::Pair, *i, *x, ps))
        }
    }
}

/// The list `xs` whose items name `x` takes: of integers, or of booleans
/// when `x` holds one.
fn items_of(xs: &Ir, x: Slot, types: &Types) -> Option<Seq> {
    match types.is_bool(x) {
        true => Seq::compile(xs, types).filter(|xs| xs.shape(types).of_bools()),
        false => Seq::numbers(xs, types),
    }
}

/// What a `for` clause or a binder runs over.
#[derive(Clone, Debug)]
pub enum Source {
    Range(Num, Num, bool),
    Seq(Seq),
}

/// Whether `comp` keeps items of a set as they are: `{x for x in s if
/// c}`, one `for` over a set and conditions, its element the item.
pub(in crate::runtime::kernel) fn kept(comp: &Comp<Num>, types: &Types) -> bool {
    let Some((Clause::For(x, Source::Seq(xs)), conds)) = comp.clauses.split_first() else {
        return false;
    };
    xs.shape(types).is_set()
        && matches!(comp.elem, Num::Slot(e) | Num::Named(e) if e == *x)
        && conds.iter().all(|c| matches!(c, Clause::If(_)))
}

impl Comp<Num> {
    /// Whether this comprehension, one [`kept`], runs over set slot `s`.
    pub(super) fn keeps_of(&self, s: Slot) -> bool {
        matches!(&self.clauses[0], Clause::For(_, Source::Seq(Seq::Slot(t))) if *t == s)
    }

    /// The items of the same set that this one, [`kept`], leaves out:
    /// `s - {x for x in s if a if b}` is `{x for x in s if not (a and
    /// b)}`, the conditions evaluated as often and in the same order.
    pub(super) fn others(&self) -> Comp<Num> {
        let mut conds = self.clauses[1..].iter().map(|c| match c {
            Clause::If(c) => c.clone(),
            _ => unreachable!("`kept` takes conditions only"),
        });
        let first = conds.next().unwrap_or(Cond::Const(true));
        let all = conds.fold(first, |a, b| Cond::And(Box::new(a), Box::new(b)));
        Comp {
            clauses: vec![self.clauses[0].clone(), Clause::If(Cond::not(all))],
            elem: self.elem.clone(),
            items: self.items,
        }
    }
}

impl<E> Comp<E> {
    pub fn compile(clauses: &[ClauseIr], elem: E, types: &Types) -> Option<Comp<E>> {
        let clauses = clauses
            .iter()
            .map(|c| match c {
                ClauseIr::For(PatIr::Slot(s), xs) if types.is_pair(*s) => {
                    Some(Clause::Split(Split::Whole, *s, *s, Seq::pairs(xs, types)?))
                }
                ClauseIr::For(PatIr::Slot(s), xs) if types.is_word(*s) => {
                    Some(Clause::Split(Split::Whole, *s, *s, Seq::words(xs, types)?))
                }
                // The characters of a string, as their code points.
                ClauseIr::For(PatIr::Slot(s), xs) if types.is_char(*s) => {
                    let string = Seq::compile(xs, types).filter(|xs| xs.shape(types) == Shape::Str);
                    Some(Clause::For(*s, Source::Seq(string?)))
                }
                ClauseIr::For(PatIr::Slot(s), xs) if types.is_bool(*s) => {
                    Some(Clause::For(*s, Source::Seq(items_of(xs, *s, types)?)))
                }
                ClauseIr::For(PatIr::Slot(s), xs) if !types.is_list(*s) => {
                    Some(Clause::For(*s, Source::compile(xs, types)?))
                }
                ClauseIr::For(pattern, xs) => {
                    let (how, a, b, xs) = split(pattern, xs, types)?;
                    Some(Clause::Split(how, a, b, xs))
                }
                ClauseIr::If(c) => {
                    Some(Clause::If(crate::runtime::kernel::expr::cond_in(c, types)?))
                }
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Comp {
            clauses: ended(clauses),
            elem,
            items: Shape::List,
        })
    }

    pub(super) fn uses(&self, slot: Slot, elem: impl Fn(&E) -> bool) -> bool {
        elem(&self.elem)
            || self.clauses.iter().any(|c| match c {
                Clause::For(s, src) => *s == slot || src.uses(slot),
                Clause::Split(_, a, b, xs) => *a == slot || *b == slot || xs.uses(slot),
                Clause::If(c) | Clause::While(c, _) => c.uses(slot),
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
        // A range up to where the `while` after it first fails.
        if let (
            Clause::For(slot, Source::Range(lo, hi, inclusive)),
            Some(Clause::While(_, rising)),
        ) = (clause, self.clauses.get(i + 1))
        {
            let (lo, hi) = crate::runtime::kernel::run::range((lo, hi, *inclusive), f, defs)?;
            let (strict, fx, g) = &**rising;
            let end = match lo < hi {
                true => rising_last(*slot as usize, (lo, hi - 1), (*strict, fx, g), (f, defs))?,
                false => lo - 1,
            };
            return (lo..=end).try_for_each(|k| {
                f[*slot as usize] = k;
                self.run(i + 2, f, defs, each)
            });
        }
        match clause {
            Clause::If(c) | Clause::While(c, _) => match c.eval(f, defs)? {
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
            Clause::Split(how, a, b, xs) => {
                let mark = f.len();
                let result = split_each(
                    *how,
                    xs,
                    f,
                    defs,
                    &mut |f| self.run(i + 1, f, defs, each),
                    (*a, *b),
                );
                if xs.pushes() {
                    f.truncate(mark);
                }
                result
            }
        }
    }
}

/// The clauses with each [`Clause::While`] found: an `if` monotone in
/// the name of the `for` just before it, over a range from a constant of
/// at least 0.
pub(super) fn ended(mut clauses: Vec<Clause>) -> Vec<Clause> {
    for i in 1..clauses.len() {
        let (Clause::For(x, Source::Range(Num::Const(0..), ..)), Clause::If(c)) =
            (&clauses[i - 1], &clauses[i])
        else {
            continue;
        };
        if let Some(rising) = c.as_monotone(*x) {
            clauses[i] = Clause::While(c.clone(), Box::new(rising));
        }
    }
    clauses
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
                crate::runtime::kernel::expr::num_in(lo, types)?,
                crate::runtime::kernel::expr::num_in(hi, types)?,
                *op == BinOp::RangeIncl,
            )),
            _ => Seq::numbers(ir, types).map(Source::Seq),
        }
    }

    pub(in crate::runtime::kernel) fn pushes(&self) -> bool {
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
    /// must be below [`crate::runtime::kernel::expr::SLOT_LIMIT`] in magnitude, as the kernel's linear
    /// forms assume.
    pub fn each(
        &self,
        f: &mut Vec<i64>,
        defs: &Defs,
        each: &mut dyn FnMut(i64, &mut Vec<i64>) -> Eval<()>,
    ) -> Eval<()> {
        match self {
            Source::Range(lo, hi, inclusive) => {
                let (lo, hi) = crate::runtime::kernel::run::range((lo, hi, *inclusive), f, defs)?;
                (lo..hi).try_for_each(|k| each(k, f))
            }
            Source::Seq(xs) => items(xs, f, defs, &mut |_, k, f| each(k, f)),
        }
    }
}
