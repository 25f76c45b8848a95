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

use super::expr::{Cond, Num, SLOT_LIMIT};
use super::{Eval, Stop};
use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::graph::Shape;
use crate::ir::{ClauseIr, GameIr, Ir, IrKind, PatIr, Slot, TargetIr, TermIr};
use crate::syntax::ast::BinOp;
use crate::value::{GameId, Value};

/// The most items a list made by a rule may have before the kernel leaves
/// the position to the interpreter (which enforces its own size limit).
pub(super) const ITEMS_MAX: usize = 1 << 16;

/// What each slot of a game's frame holds: an integer, or (for a
/// parameter used as a collection) a list or tuple.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Types {
    shapes: Vec<Shape>,
}

impl Types {
    /// The parameters of `game` that its rules use as collections
    /// (`len(p)`, `p[i]`, `p[a:b]`, `x in p`, `for x in p`, `sorted(p)`, …)
    /// are lists; every other slot is an integer. A parameter given a
    /// tuple or a list of another shape at run time makes the kernel bail
    /// (see [`Types::admits`]).
    pub fn of(game: &GameIr, id: GameId) -> Types {
        let mut types = Types {
            shapes: vec![Shape::Int; game.slots.max(game.arity)],
        };
        let mut mark = |ir: &Ir| {
            if let IrKind::Local(s) = ir.kind
                && (s as usize) < game.arity
            {
                types.shapes[s as usize] = Shape::List;
            }
        };
        for rule in &game.moves {
            for (_, domain) in &rule.binders {
                mark(domain);
                walk(domain, &mut mark);
            }
            if let Some(g) = &rule.guard {
                walk(g, &mut mark);
            }
            match &rule.target {
                TargetIr::Terms(terms) => {
                    for t in terms {
                        match t {
                            TermIr::Node(_, args, _) => {
                                args.iter().for_each(|a| walk(a, &mut mark))
                            }
                            TermIr::Heap(k) => walk(k, &mut mark),
                        }
                    }
                }
                TargetIr::Dynamic(ir) => walk(ir, &mut mark),
            }
        }
        // A collection parameter that the game's own moves pass tuples
        // for is a tuple (`t[:i] + (x,) + t[i + 1:]`).
        for _ in 0..game.arity {
            let mut changed = false;
            for rule in &game.moves {
                let TargetIr::Terms(terms) = &rule.target else {
                    continue;
                };
                for t in terms {
                    let TermIr::Node(g, args, _) = t else {
                        continue;
                    };
                    if *g != id {
                        continue;
                    }
                    for (i, a) in args.iter().enumerate().take(game.arity) {
                        if types.shapes[i] == Shape::List
                            && types.shape_of(a).is_some_and(|(s, _)| s == Shape::Tuple)
                        {
                            types.shapes[i] = Shape::Tuple;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        types
    }

    /// Whether `ir` makes a list or a tuple, as far as its form says:
    /// `(shape, true)` when a literal or a built-in says so, rather than
    /// what is assumed of a parameter.
    fn shape_of(&self, ir: &Ir) -> Option<(Shape, bool)> {
        match &ir.kind {
            IrKind::Local(s) if self.is_list(*s) => Some((self.shapes[*s as usize], false)),
            IrKind::Tuple(_) | IrKind::Const(Value::Tuple(_)) => Some((Shape::Tuple, true)),
            IrKind::List(_) | IrKind::Const(Value::List(_)) | IrKind::Comprehension { .. } => {
                Some((Shape::List, true))
            }
            IrKind::CallBuiltin(Builtin::Sorted | Builtin::Reversed, _) => {
                Some((Shape::List, true))
            }
            IrKind::Binary(BinOp::Add | BinOp::Mul, a, b) => {
                let (a, b) = (self.shape_of(a), self.shape_of(b));
                match (a, b) {
                    (Some((_, false)), Some((s, true))) => Some((s, true)),
                    _ => a.or(b),
                }
            }
            IrKind::Slice(x, ..) => self.shape_of(x),
            _ => None,
        }
    }

    /// Whether any slot holds a list.
    pub fn has_lists(&self) -> bool {
        self.shapes.iter().any(|s| *s != Shape::Int)
    }

    pub fn is_list(&self, slot: Slot) -> bool {
        self.shapes
            .get(slot as usize)
            .is_some_and(|s| *s != Shape::Int)
    }

    /// The shapes of the parameters.
    pub fn params(&self, arity: usize) -> &[Shape] {
        &self.shapes[..arity]
    }
}

/// Calls `mark` on every operand of `ir` used as a collection.
fn walk(ir: &Ir, mark: &mut impl FnMut(&Ir)) {
    match &ir.kind {
        IrKind::Index(x, _) | IrKind::Slice(x, ..) => mark(x),
        IrKind::CallBuiltin(
            Builtin::Len
            | Builtin::Sorted
            | Builtin::Reversed
            | Builtin::Sum
            | Builtin::All
            | Builtin::Any
            | Builtin::Enumerate,
            args,
        ) => args.iter().for_each(&mut *mark),
        IrKind::CallBuiltin(Builtin::Min | Builtin::Max, args) if args.len() == 1 => mark(&args[0]),
        IrKind::Binary(BinOp::In | BinOp::NotIn, _, xs) => mark(xs),
        IrKind::Comprehension { clauses, .. } => {
            for c in clauses {
                if let ClauseIr::For(_, xs) = c {
                    mark(xs);
                }
            }
        }
        _ => {}
    }
    children(ir, &mut |c| walk(c, mark));
}

/// Calls `each` on the sub-expressions of `ir`.
fn children(ir: &Ir, each: &mut impl FnMut(&Ir)) {
    match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) | IrKind::Global(_) => {}
        IrKind::Tuple(xs) | IrKind::List(xs) | IrKind::Set(xs) => xs.iter().for_each(each),
        IrKind::CallFn(_, xs) | IrKind::CallBuiltin(_, xs) | IrKind::Apply(_, xs) => {
            xs.iter().for_each(each)
        }
        IrKind::Comprehension { elem, clauses, .. } => {
            for c in clauses {
                match c {
                    ClauseIr::For(_, x) | ClauseIr::If(x) => each(x),
                }
            }
            each(elem);
        }
        IrKind::Unary(_, a) => each(a),
        IrKind::Binary(_, a, b) | IrKind::Index(a, b) => {
            each(a);
            each(b);
        }
        IrKind::If(a, b, c) => {
            each(a);
            each(b);
            each(c);
        }
        IrKind::Let(_, a, b) => {
            each(a);
            each(b);
        }
        IrKind::Chain(xs, _) => xs.iter().for_each(each),
        IrKind::CallValue(f, xs, _) => {
            each(f);
            xs.iter().for_each(each);
        }
        IrKind::TableOf(_, xs, ys) => {
            xs.iter().flatten().for_each(&mut *each);
            ys.iter().for_each(each);
        }
        IrKind::Slice(x, lo, hi) => {
            each(x);
            lo.iter().chain(hi).for_each(|b| each(b));
        }
    }
}

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
    Some((*i, *x, Seq::compile(&args[0], types)?))
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
                Shape::List,
                items
                    .iter()
                    .map(|v| match v {
                        Value::Int(n) => Some(Num::Const(*n)),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            ),
            IrKind::Binary(BinOp::Add, a, b) => {
                let (a, b) = (Seq::compile(a, types)?, Seq::compile(b, types)?);
                (a.shape(types) == b.shape(types)).then_some(())?;
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
                Seq::Slice(Box::new(Seq::compile(x, types)?), bound(lo)?, bound(hi)?)
            }
            IrKind::Comprehension {
                set: false,
                elem,
                clauses,
            } => Seq::Comp(Box::new(Comp::compile(
                clauses,
                super::expr::num_in(elem, types)?,
                types,
            )?)),
            IrKind::CallBuiltin(b @ (Builtin::Sorted | Builtin::Reversed), args)
                if args.len() == 1 =>
            {
                let xs = Box::new(Seq::compile(&args[0], types)?);
                match b {
                    Builtin::Sorted => Seq::Sorted(xs),
                    _ => Seq::Reversed(xs),
                }
            }
            _ => return None,
        })
    }

    /// Whether the value is a list or a tuple (never [`Shape::Int`]).
    pub fn shape(&self, types: &Types) -> Shape {
        match self {
            Seq::Slot(s) => types.shapes[*s as usize],
            Seq::Items(shape, _) => *shape,
            Seq::Concat(a, _) | Seq::Slice(a, ..) | Seq::Repeat(a, _) => a.shape(types),
            Seq::Comp(_) | Seq::Sorted(_) | Seq::Reversed(_) => Shape::List,
        }
    }

    /// Whether evaluating it pushes its items (else it points into a
    /// parameter).
    pub(super) fn pushes(&self) -> bool {
        match self {
            Seq::Slot(_) => false,
            Seq::Slice(xs, ..) => xs.pushes(),
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
            Seq::Comp(c) => c.uses(slot, |e| e.uses(slot)),
            Seq::Sorted(a) | Seq::Reversed(a) => a.uses(slot),
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
    fn run(
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
            _ => Seq::compile(ir, types).map(Source::Seq),
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
    /// must be below [`SLOT_LIMIT`] in magnitude, as the kernel's linear
    /// forms assume.
    pub fn each(
        &self,
        f: &mut Vec<i64>,
        defs: &Defs,
        each: &mut dyn FnMut(i64, &mut Vec<i64>) -> Eval<()>,
    ) -> Eval<()> {
        match self {
            Source::Range(lo, hi, inclusive) => {
                let lo = lo.eval(f, defs)?;
                let hi = hi.eval(f, defs)?;
                let hi = if *inclusive {
                    hi.checked_add(1).ok_or(Stop::Bail)?
                } else {
                    hi
                };
                if lo < hi && (lo <= -SLOT_LIMIT || hi > SLOT_LIMIT) {
                    return Err(Stop::Bail);
                }
                (lo..hi).try_for_each(|k| each(k, f))
            }
            Source::Seq(xs) => {
                let (start, end) = xs.eval(f, defs)?;
                (start..end).try_for_each(|at| match f[at] {
                    k if k.abs() < SLOT_LIMIT => each(k, f),
                    _ => Err(Stop::Bail),
                })
            }
        }
    }
}

impl Seq {
    /// Evaluates the list: its items are `f[start..end]`, at the end of the
    /// frame or inside a parameter. The caller truncates the frame back.
    pub fn eval(&self, f: &mut Vec<i64>, defs: &Defs) -> Eval<(usize, usize)> {
        let start = f.len();
        match self {
            Seq::Slot(s) => return Ok(decode(f[*s as usize])),
            Seq::Items(_, items) => {
                for item in items {
                    let v = item.eval(f, defs)?;
                    f.push(v);
                }
            }
            Seq::Concat(a, b) => {
                let ra = a.eval(f, defs)?;
                let rb = b.eval(f, defs)?;
                let from = f.len();
                f.extend_from_within(ra.0..ra.1);
                f.extend_from_within(rb.0..rb.1);
                return Ok((from, f.len()));
            }
            Seq::Repeat(xs, k) => {
                let k = k.eval(f, defs)?.max(0) as usize;
                let (a, b) = xs.eval(f, defs)?;
                if (b - a).saturating_mul(k) > ITEMS_MAX {
                    return Err(Stop::Bail);
                }
                let from = f.len();
                for _ in 0..k {
                    f.extend_from_within(a..b);
                }
                return Ok((from, f.len()));
            }
            Seq::Slice(xs, lo, hi) => {
                let (a, b) = xs.eval(f, defs)?;
                let len = (b - a) as i64;
                let mut bound = |n: &Option<Num>, default: i64| -> Eval<i64> {
                    Ok(match n {
                        None => default,
                        Some(n) => match n.eval(f, defs)? {
                            n if n < 0 => (n + len).max(0),
                            n => n.min(len),
                        },
                    })
                };
                let from = bound(lo, 0)?;
                let to = bound(hi, len)?.max(from);
                return Ok((a + from as usize, a + to as usize));
            }
            Seq::Comp(c) => return comprehension(c, f, defs),
            Seq::Sorted(xs) | Seq::Reversed(xs) => {
                let (a, b) = xs.eval(f, defs)?;
                let from = f.len();
                f.extend_from_within(a..b);
                match self {
                    Seq::Sorted(_) => f[from..].sort_unstable(),
                    _ => f[from..].reverse(),
                }
                return Ok((from, f.len()));
            }
        }
        Ok((start, f.len()))
    }
}

/// Calls `each` with slot `i` set to each index of `xs` and slot `x` to
/// the item there (within [`SLOT_LIMIT`], as for any binder). The caller
/// truncates the frame back if `xs` pushed.
pub(super) fn enumerate(
    xs: &Seq,
    f: &mut Vec<i64>,
    defs: &Defs,
    each: &mut dyn FnMut(&mut Vec<i64>) -> Eval<()>,
    (i, x): (Slot, Slot),
) -> Eval<()> {
    let (a, b) = xs.eval(f, defs)?;
    for at in a..b {
        let item = f[at];
        if item.abs() >= SLOT_LIMIT {
            return Err(Stop::Bail);
        }
        f[i as usize] = (at - a) as i64;
        f[x as usize] = item;
        each(f)?;
    }
    Ok(())
}

/// A list comprehension's items, pushed in order. When a `for` clause
/// runs over a list it pushes, the items go through a buffer, so as not
/// to interleave with that list.
fn comprehension(c: &Comp<Num>, f: &mut Vec<i64>, defs: &Defs) -> Eval<(usize, usize)> {
    let buffered = c.clauses.iter().any(|c| match c {
        Clause::For(_, src) => src.pushes(),
        Clause::Enumerate(_, _, xs) => xs.pushes(),
        Clause::If(_) => false,
    });
    let from = f.len();
    if buffered {
        let mut items = Vec::new();
        c.run(0, f, defs, &mut |e, f| {
            items.push(e.eval(f, defs)?);
            too_many(items.len())
        })?;
        f.extend_from_slice(&items);
    } else {
        c.run(0, f, defs, &mut |e, f| {
            let v = e.eval(f, defs)?;
            f.push(v);
            too_many(f.len() - from)
        })?;
    }
    Ok((from, f.len()))
}

fn too_many(n: usize) -> Eval<()> {
    match n > ITEMS_MAX {
        true => Err(Stop::Bail),
        false => Ok(()),
    }
}

/// The integer built-ins over a list.
pub fn fold(fold: Fold, xs: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let items = &f[a..b];
    let result = match fold {
        Fold::Sum => items
            .iter()
            .try_fold(0i64, |acc, x| acc.checked_add(*x))
            .ok_or(Stop::Bail),
        Fold::Min => items.iter().copied().min().ok_or(Stop::Bail),
        Fold::Max => items.iter().copied().max().ok_or(Stop::Bail),
    };
    f.truncate(mark);
    result
}

/// `xs[i]`, with a negative index counted from the end.
pub fn index(xs: &Seq, i: &Num, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let i = i.eval(f, defs)?;
    let len = (b - a) as i64;
    let at = if i < 0 { i + len } else { i };
    let result = match (0..len).contains(&at) {
        true => Ok(f[a + at as usize]),
        false => Err(Stop::Bail),
    };
    f.truncate(mark);
    result
}

/// `len(xs)`.
pub fn len(xs: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    f.truncate(mark);
    Ok((b - a) as i64)
}

/// `x in xs`.
pub fn contains(x: i64, xs: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<bool> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let found = f[a..b].contains(&x);
    f.truncate(mark);
    Ok(found)
}

#[cfg(test)]
mod tests {
    use crate::sandbox::engines_disagree;
    use crate::session::loaded;

    /// The kernel of the first game of `source`, once its statements ran.
    fn kernel(source: &str) -> Option<super::super::Kernel> {
        let (mut session, _) = loaded("");
        session.run("test.game", source);
        let m = &session.machine;
        super::super::compile(&crate::runtime::normalize::rules(&m.game_ir(0), &m.defs), 0)
    }

    /// Rules over lists and tuples, each with the query that runs them.
    const LIST_GAMES: [(&str, &str); 12] = [
        (
            "fn picked(mask, i) = ((mask >> i) & 1) == 1\n\
             game g(hs) {\n move take(mask in 1..(1 << len(hs)))\n \
             if all([hs[i] > 0 for i in 0..len(hs) if picked(mask, i)])\n \
             -> g(sorted([if picked(mask, i) then hs[i] - 1 else hs[i] for i in 0..len(hs)]))\n}\n",
            "[value(g([3] * 4)), value(g([2, 0, 1]))]",
        ),
        (
            "game g(hs) {\n move take(i in 0..len(hs), k in 1..=hs[i])\n \
             -> g(sorted(hs[:i] + [hs[i] - k] + hs[i + 1:]))\n}\n",
            "[value(g([a, b, c])) == a ^ b ^ c for a in 0..4 for b in 0..4 for c in 0..3]",
        ),
        (
            "game g(p) {\n move dec(i in 0..len(p)) if p[i] > 0 -> g(p[:i] + (p[i] - 1,) + p[i + 1:])\n}\n",
            "[value(g((3, 2, 2))), value(g((1, 0)))]",
        ),
        (
            "game g(hs) {\n move split(i in 0..len(hs), a in 1..hs[i]) if 2 * a < hs[i]\n \
             -> g(sorted(hs[:i] + hs[i + 1:] + [a, hs[i] - a]))\n}\n",
            "[value(g([n])) for n in 1..12]",
        ),
        (
            "game g(hs) {\n move cut(h in hs) if h > 1 and h not in [4, 9] -> g([x for x in hs if x != h] + [h - 2])\n \
             move all_down if any([x > 3 for x in hs]) and sum(hs) < 20 -> g(reversed([max(x - 1, 0) for x in hs]))\n}\n",
            "[value(g([5, 3])), value(g([7, 2, 2]))]",
        ),
        (
            "game g(n, hs) {\n move add(k in 1..=n) if len(hs) < 3 -> g(n - k, hs + [k])\n \
             move drop if len(hs) > 0 -> g(n, hs[1:]) + *hs[-1]\n}\n",
            "[value(g(5, [])), value(g(4, [2, 1]))]",
        ),
        (
            "game g(hs) {\n move m(i in 0..len(hs)) if hs[i] > 0 and min(hs) >= 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
            "[value(g([2, 2, 1])), value(g([1, -1]))]",
        ),
        (
            "game g(hs) {\n move pop if len(hs) > 0 -> g(hs[:-1])\n \
             move tail if len(hs) > 1 -> g(hs[-1:] + [0] * (len(hs) - 2))\n \
             move dec(i in 0..len(hs)) if hs[i] > 0 -> g(sorted(hs[:i] + [hs[i] - 1] + hs[i + 1:]))\n}\n",
            "[value(g([2, 1, 3])), value(g([1, 1, 0, 2]))]",
        ),
        (
            "game g(hs) {\n move take((i, h) in enumerate(hs), k in 1..=h) -> g(sorted(hs[:i] + [h - k] + hs[i + 1:]))\n \
             move cut if len(hs) > 1 and all([x >= j for (j, x) in enumerate(hs)])\n \
             -> g([x - 1 for (j, x) in enumerate(hs) if j != 0])\n}\n",
            "[value(g([1, 2, 3])), value(g([0, 4, 4, 5])), value(g([2, 2]))]",
        ),
        // An index out of range: the interpreter's error, in its words.
        (
            "game g(hs) {\n move m(i in 0..=len(hs)) if hs[i] > 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
            "value(g([1, 1]))",
        ),
        // A list of another shape than the rules take: the interpreter's.
        (
            "game g(hs) {\n move m(i in 0..len(hs)) if hs[i] > 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
            "value(g((2, 1)))",
        ),
        (
            "game g(hs) {\n move m(i in 0..len(hs)) if hs[i] > 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
            "value(g([2, (1, 2)]))",
        ),
    ];

    #[test]
    fn list_and_tuple_states_compile_and_agree_with_the_interpreter() {
        for (rules, query) in LIST_GAMES {
            let source = format!("{rules}{query}\n");
            let kernel = kernel(&source).expect(rules);
            assert!(kernel.takes_lists() && kernel.is_native(), "{rules}");
            assert_eq!(engines_disagree(&source), None, "{source}");
        }
    }

    #[test]
    fn list_states_give_the_values_of_the_games_they_spell() {
        let (mut session, _) = loaded("");
        // Nim written with a list state: the xor of the heaps.
        let (rules, query) = LIST_GAMES[1];
        let code = session.run("nim.game", &format!("{rules}expect all({query})\n"));
        assert_eq!(code.exit_code(), 0);
        // Taking one token from each of a non-empty set of heaps, by hand:
        // [0, 1] moves to [0, 0] only (0), so is worth 1; [0, 2] moves to
        // [0, 1] only, so 0; [1, 1] moves to [0, 1] twice and [0, 0]: 2;
        // [1, 2] moves to [0, 2], [1, 1] and [0, 1]: mex {0, 2, 1} = 3.
        let (rules, _) = LIST_GAMES[0];
        let source = format!(
            "{rules}expect value(g([0, 0])) == 0\nexpect value(g([0, 1])) == 1\n\
             expect value(g([0, 2])) == 0\nexpect value(g([1, 1])) == 2\n\
             expect value(g([1, 2])) == 3\n"
        );
        assert_eq!(session.run("each.game", &source).exit_code(), 0);
    }
}
