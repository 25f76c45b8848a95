//! Phase 4d: a top-level query over a comprehension compiled like rules,
//! to machine code. Scripts ask for one number about many positions:
//!
//! - `len([1 for x in 1..=N for y in 1..=N if value(g(x, y)) == 0])`,
//!   `sum(...)`, `min(...)`, `max(...)` of integers, `value(g(...))`
//!   among them;
//! - `value(sum([g(...) for i in 0..N]))` and `winner(sum(...))`: the
//!   nim-sum of the positions' values;
//! - the comprehension alone, a list of integers: `[n for n in 0..N if
//!   value(g(n)) == 0]`, as a statement, printed, or kept by a `let`.
//!
//! The interpreter builds the list, a value per element, then folds it;
//! the compiled query runs the comprehension's loops over machine
//! integers and folds each element as it comes, asking the evaluator's
//! search for each position's value through a helper (see
//! `kernel/native/query.rs`). Anything unusual (an overflow, an error
//! in the rules, a limit, Ctrl-C) leaves the query to the interpreter,
//! which evaluates it as written and reports what it always reports;
//! the positions already valued keep their values.

use super::calls::Calls;
use super::expr::{Cond, Num, num_in, value_of};
use super::native::query as native;
use super::seq::{Clause, Comp, Seq, Source, Types};
use super::work;
use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::graph::Shape;
use crate::ir::{Ir, IrKind, Slot};
use crate::runtime::normalize::callees;
use crate::syntax::ast::BinOp;
use crate::value::{GameId, Value};
use std::rc::Rc;

pub use native::{Asker, NativeQuery};

/// How a query folds its elements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fold {
    /// `len(...)`: how many there are (each still evaluated).
    Count,
    Sum,
    Min,
    Max,
    /// The nim-sum of the elements, positions' values.
    Xor,
}

/// The integers `lo..hi` a range of a query's loop goes over.
pub type Ends = (i64, i64);

/// An element of a query's comprehension.
#[derive(Debug)]
pub(super) enum Element {
    /// An integer, folded or collected.
    Num(Num),
    /// A list, tuple or set of integers, collected only (`let ADJ =
    /// [[j for j in ... if ...] for i in 0..N]`), of that shape.
    Items(Seq, Shape),
}

/// A query: a comprehension whose elements fold into one integer.
#[derive(Debug)]
pub struct Query {
    /// The slots of the statement's frame, where its binders are.
    pub(super) slots: usize,
    pub(super) fold: Fold,
    pub(super) comp: Comp<Element>,
    /// The games whose positions it asks about, with their numbers of
    /// arguments: their dense tables' views are the code's to read.
    pub targets: Vec<(GameId, usize)>,
    /// Whether the result is shown as `winner` shows a value.
    pub winner: bool,
    /// Whether the result is the list of the elements (a comprehension
    /// alone, `[n for n in 0..N if value(g(n)) == 0]`), which the code
    /// hands to the asker one by one (see [`Asker::collect`]) while it
    /// counts them.
    pub collect: bool,
    /// Whether the list collected is made a set (`let PRIMES = {p for p
    /// in 2..=N if ...}`).
    pub set: bool,
    /// The functions it calls, which the compiled calls refer to.
    pub(super) calls: Option<Rc<Calls>>,
    /// The two-integer games it asks of its two outermost names, each
    /// with whether it asks `(outer, inner)` (else `(inner, outer)`) and
    /// the shape of the one tuple or list it asks them as (`g((x, y))`).
    asked_at: Vec<(GameId, bool, Option<Shape>)>,
    /// The games it asks of its three outermost names in order, each with
    /// the shape of the one tuple or list it asks them as (`g((x, y,
    /// z))`).
    asked_in_box: Vec<(GameId, Option<Shape>)>,
}

/// The query `ir` (normalised: see [`crate::runtime::normalize::expr`]),
/// whose binders are in a frame of `slots` slots; `None` when it is not
/// one of the shapes above. One that asks no position's value (arithmetic
/// alone, such as a `let` of adjacency lists) is compiled too: the caller
/// weighs its work ([`Query::targets`] is empty; see [`Query::work`]).
pub fn compile(ir: &Ir, slots: usize, defs: &Defs, max_depth: usize) -> Option<Query> {
    // A comprehension alone (see `Query::collect`).
    let collect = matches!(ir.kind, IrKind::Comprehension { .. });
    let set = matches!(ir.kind, IrKind::Comprehension { set: true, .. });
    let (fold, winner, list) = match &ir.kind {
        IrKind::Comprehension { .. } => (Fold::Count, false, ir),
        IrKind::CallBuiltin(b, args) => match (b, args.as_slice()) {
            (Builtin::Len, [arg]) => (Fold::Count, false, arg),
            (Builtin::Sum, [arg]) => (Fold::Sum, false, arg),
            (Builtin::Min, [arg]) => (Fold::Min, false, arg),
            (Builtin::Max, [arg]) => (Fold::Max, false, arg),
            (Builtin::Value | Builtin::Winner, [arg]) => match &arg.kind {
                IrKind::CallBuiltin(Builtin::Sum, inner) if inner.len() == 1 => {
                    (Fold::Xor, *b == Builtin::Winner, &inner[0])
                }
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let IrKind::Comprehension { elem, clauses, .. } = &list.kind else {
        return None;
    };
    // A set folded (`len({...})`) counts its items once each: the
    // interpreter's.
    if !collect && matches!(list.kind, IrKind::Comprehension { set: true, .. }) {
        return None;
    }
    // The functions it calls are normalised only for a query of this shape.
    let calls = Calls::new(callees::of_expr(ir, defs), max_depth);
    let types = Types::top_level(ir).with_calls(calls.clone());
    let elem = match (fold, &elem.kind) {
        (Fold::Xor, IrKind::Apply(..)) => Element::Num(value_of(elem, &types)?),
        (Fold::Xor, _) => return None,
        _ if collect => match num_in(elem, &types) {
            Some(n) => Element::Num(n),
            // A table (a report) collected whole prints as a table: the
            // interpreter's to collect.
            None if reports(elem) => return None,
            None => {
                let xs = Seq::numbers(elem, &types)?;
                let shape = xs.shape(&types);
                Element::Items(xs, shape)
            }
        },
        // Counted only: a tuple or list of what cannot fail, as in
        // `len([(x, y) for ... if value(g(x, y)) == 0])`, is as good as 1.
        (Fold::Count, IrKind::Tuple(items) | IrKind::List(items))
            if items
                .iter()
                .all(|i| num_in(i, &types).is_some_and(|n| n.total())) =>
        {
            Element::Num(Num::Const(1))
        }
        _ => Element::Num(num_in(elem, &types)?),
    };
    let comp = Comp::compile(clauses, elem, &types)?;
    let mut targets = types.asked.take();
    let (outer, inner) = match comp.clauses.as_slice() {
        [Clause::For(a, _), Clause::For(b, _), ..] => (Some(*a), Some(*b)),
        _ => (None, None),
    };
    let three = match comp.clauses.as_slice() {
        [Clause::For(a, _), Clause::For(b, _), Clause::For(c, _), ..] => Some([*a, *b, *c]),
        _ => None,
    };
    let asked = types.asked_at.take();
    let asked_at = (asked.iter())
        .filter_map(
            |(game, slots, items)| match (slots.as_slice(), outer, inner) {
                ([x, y], Some(a), Some(b)) if (*x, *y) == (a, b) => Some((*game, true, *items)),
                ([x, y], Some(a), Some(b)) if (*x, *y) == (b, a) => Some((*game, false, *items)),
                _ => None,
            },
        )
        .collect();
    let asked_in_box = (asked.iter())
        .filter(|(_, slots, _)| three.is_some_and(|t| slots.as_slice() == t))
        .map(|(game, _, items)| (*game, *items))
        .collect();
    targets.sort_unstable();
    targets.dedup();
    Some(Query {
        slots,
        fold,
        comp,
        targets,
        winner,
        collect,
        set,
        calls,
        asked_at,
        asked_in_box,
    })
}

/// Whether a comparison has `winner(...)` on one side.
pub(super) fn asks_winner(a: &Ir, b: &Ir) -> bool {
    let winner = |ir: &Ir| matches!(ir.kind, IrKind::CallBuiltin(Builtin::Winner, _));
    winner(a) || winner(b)
}

/// `winner(g(args)) == "first"` (or `!=`, or `"second"`, either side) as
/// a comparison of `value(g(args))` with 0.
pub(super) fn winner_test(op: BinOp, a: &Ir, b: &Ir, t: &Types) -> Option<Cond> {
    let (call, said) = match &a.kind {
        IrKind::CallBuiltin(Builtin::Winner, _) => (a, b),
        _ => (b, a),
    };
    let IrKind::CallBuiltin(Builtin::Winner, args) = &call.kind else {
        return None;
    };
    let [arg] = args.as_slice() else {
        return None;
    };
    let nonzero = match &said.kind {
        IrKind::Const(Value::Str(s)) if &**s == "first" => true,
        IrKind::Const(Value::Str(s)) if &**s == "second" => false,
        _ => return None,
    };
    let value = value_of(arg, t)?;
    let op = match (op == BinOp::Eq) != nonzero {
        true => BinOp::Eq,
        false => BinOp::Ne,
    };
    Some(Cond::Cmp(op, value, Num::Const(0)))
}

impl Query {
    /// About how many elements the query's loops run over: the product
    /// of the lengths of its leading ranges, each taken with the names of
    /// the loops outside it at their last values (`for b in 1..=a` as long
    /// as `a`'s last value); a range whose ends cannot be had so counts
    /// once.
    pub fn iterations(&self, defs: &Defs) -> u64 {
        work::leading_iterations(&self.comp, &mut vec![0; self.slots], defs)
    }

    /// About how much work the query's loops do, as iterations of
    /// arithmetic: [`Query::iterations`] times one for each element and
    /// the iterations of the loops inside it (`all([p % q != 0 for q in
    /// 2..=isqrt(p)])` in a condition), with a call of a user function as
    /// [`work::CALL`].
    pub fn work(&self, defs: &Defs) -> u64 {
        let mut frame = vec![0; self.slots];
        let count = work::leading_iterations(&self.comp, &mut frame, defs);
        let each = work::per_element(&self.comp, &mut frame, defs, |e, f, d| match e {
            Element::Num(n) => work::num(n, f, d),
            Element::Items(xs, _) => work::seq(xs, f, d),
        });
        count.saturating_mul(each.saturating_add(1))
    }

    /// The values its outermost loop runs over, `lo..hi`, when it is a
    /// range with constant ends.
    pub fn outer_range(&self) -> Option<(i64, i64)> {
        match self.comp.clauses.first()? {
            Clause::For(_, Source::Range(Num::Const(lo), Num::Const(hi), inclusive)) => {
                Some((*lo, hi.checked_add(i64::from(*inclusive))?))
            }
            _ => None,
        }
    }

    /// The rectangles of two-integer games it asks about: `value(g(x,
    /// y))` with `x` and `y` its two outermost names (or `g(y, x)`, the
    /// rectangle turned), `x` over a range with constant ends and `y`
    /// over one whose ends are constants or follow `x` (`for y in
    /// 1..=x`: the triangle's bounding rectangle, its ends taken at
    /// `x`'s first and last values). Each says the shape of the tuple or
    /// list it asks (`g((x, y))`). The caller may sweep them first, as a
    /// table's are.
    pub fn rectangles(&self, defs: &Defs) -> Vec<(GameId, [Ends; 2], Option<Shape>)> {
        let (
            Some(xs),
            Some(&Clause::For(x, _)),
            Some(Clause::For(_, Source::Range(ylo, yhi, yincl))),
        ) = (
            self.outer_range(),
            self.comp.clauses.first(),
            self.comp.clauses.get(1),
        )
        else {
            return Vec::new();
        };
        // The inner range's ends at `x`'s first and last values: constants,
        // or read `x` alone.
        let alone = |n: &Num| (0..self.slots as Slot).all(|s| s == x || !n.uses(s));
        if xs.0 >= xs.1 || !alone(ylo) || !alone(yhi) {
            return Vec::new();
        }
        let mut frame = vec![0; self.slots];
        let mut ends = |at: i64| {
            frame[x as usize] = at;
            work::range_ends((ylo, yhi, *yincl), &mut frame, defs)
        };
        let (Some(first), Some(last)) = (ends(xs.0), ends(xs.1 - 1)) else {
            return Vec::new();
        };
        let ys = (first.0.min(last.0), first.1.max(last.1));
        (self.asked_at.iter())
            .map(|(game, straight, items)| match straight {
                true => (*game, [xs, ys], *items),
                false => (*game, [ys, xs], *items),
            })
            .collect()
    }

    /// The boxes of three-integer games it asks about: `value(g(x, y, z))`
    /// (or `g((x, y, z))`, with the tuple's shape) with `x`, `y` and `z` its three outermost
    /// names in order, each over a range whose ends are constants. The
    /// caller may sweep them first.
    pub fn boxes(&self, defs: &Defs) -> Vec<(GameId, [Ends; 3], Option<Shape>)> {
        let mut frame = vec![0; self.slots];
        let mut ends = Vec::new();
        for clause in self.comp.clauses.iter().take(3) {
            let Clause::For(_, Source::Range(lo, hi, inclusive)) = clause else {
                return Vec::new();
            };
            let fixed = |n: &Num| (0..self.slots as Slot).all(|s| !n.uses(s));
            if !fixed(lo) || !fixed(hi) {
                return Vec::new();
            }
            match work::range_ends((lo, hi, *inclusive), &mut frame, defs) {
                Some(e) if e.0 < e.1 => ends.push(e),
                _ => return Vec::new(),
            }
        }
        let Ok(ends) = <[Ends; 3]>::try_from(ends) else {
            return Vec::new();
        };
        (self.asked_in_box.iter())
            .map(|(game, items)| (*game, ends, *items))
            .collect()
    }

    /// The shape of each element collected, when each is a list, tuple or
    /// set of integers (see [`Asker::collect_items`]).
    pub fn items(&self) -> Option<Shape> {
        match &self.comp.elem {
            Element::Items(_, shape) => Some(*shape),
            Element::Num(_) => None,
        }
    }

    /// The query's machine code, or `None` when part of it has none.
    pub fn native(&self) -> Option<NativeQuery> {
        native::compile(self)
    }
}

/// Whether `ir` may make a table whole (`T`, `if c then T else U`), which
/// prints as a table where a list made of its values would print as a
/// list.
fn reports(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Const(Value::Report(_)) => true,
        IrKind::If(_, a, b) => reports(a) || reports(b),
        IrKind::Let(_, _, body) => reports(body),
        _ => false,
    }
}
