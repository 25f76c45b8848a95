//! Calls of functions put in place of the calls (see the module's doc
//! in `mod.rs`), and the local `let`s of their bodies and of the rules.

use super::{INLINE_DEPTH, Normalizer, map_children, put, size, uses};
use crate::defs::{Defs, Global};
use crate::ir::{ClauseIr, FnId, Ir, IrKind, PatIr, Slot};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;
use rustc_hash::FxHashSet;
use std::cell::Cell;
use std::rc::Rc;

impl Normalizer<'_> {
    /// The body of function `f` (its common calls hoisted: see
    /// [`Normalizer::hoisted`]) with `args` in place of its parameters,
    /// if it may be inlined. The function's own names (its `let`s and
    /// comprehensions) get new slots in the caller's frame. An argument
    /// that is cheap and safe to repeat, or whose parameter is read once
    /// and for certain, is put in place; any other is bound by a `let`
    /// around the body, in the order the call evaluates them.
    pub(super) fn inline(&self, f: FnId, args: &[Ir], depth: usize) -> Option<Ir> {
        let func = self.defs.fns.get(f as usize)?.as_ref()?;
        let (body, slots) = &*self.hoisted(f, func);
        let size = size(body);
        let recursive = *(self.recursive.borrow_mut())
            .entry(f)
            .or_insert_with(|| reaches_itself(self.defs, f));
        let unrolled = !self.remember.is_some_and(|params| {
            !args.iter().any(|a| reads_below(a, params)) && remembered(self.defs, f)
        });
        let mut recursion = self.recursion.borrow_mut();
        let room = recursion.entry(f).or_insert(super::RECURSION_BUDGET);
        if depth == 0 {
            // A call written in the rules: its own room, so that a second
            // rule calling the function is unrolled as far as the first.
            *room = super::RECURSION_BUDGET;
        }
        let inlinable = depth < INLINE_DEPTH
            && func.arity == args.len()
            && size <= self.budget.get()
            && (!recursive || (size <= *room && unrolled));
        if !inlinable {
            return None;
        }
        self.budget.set(self.budget.get() - size);
        if recursive {
            *room -= size;
        }
        drop(recursion);
        self.deepest.set(self.deepest.get().max(depth + 1));
        let base = self.slots.get();
        self.slots.set(base + slots.saturating_sub(func.arity));
        let mut lets = Vec::new();
        let mut params = Vec::with_capacity(args.len());
        for (p, arg) in args.iter().enumerate() {
            if repeatable(arg) || few_items(arg) || uses::once_for_certain(body, p as Slot) {
                params.push(arg.clone());
                continue;
            }
            let fresh = self.slots.get() as Slot;
            self.slots.set(fresh as usize + 1);
            lets.push((fresh, arg.clone()));
            params.push(local(fresh, arg.span));
        }
        let body = rename(body, &params, base as Slot);
        let body = lets.into_iter().rev().fold(body, |body, (slot, arg)| Ir {
            span: body.span,
            kind: IrKind::Let(PatIr::Slot(slot), Box::new(arg), Box::new(body)),
        });
        Some(self.expr(&body, depth + 1))
    }

    /// The body of `f` with the calls both branches of an `if` make
    /// hoisted (see `hoist.rs`), and the slots of its frame then.
    pub(super) fn hoisted(&self, f: FnId, func: &crate::ir::FnIr) -> Rc<(Ir, usize)> {
        let mut cache = self.hoisted.borrow_mut();
        let made = cache.entry(f).or_insert_with(|| {
            Rc::new(super::hoist::calls(&func.body, func.slots.max(func.arity)))
        });
        made.clone()
    }
}

/// A read of `slot`.
fn local(slot: Slot, span: crate::span::Span) -> Ir {
    Ir {
        kind: IrKind::Local(slot),
        span,
    }
}

/// A function's body `ir` moved into a caller's frame: `params[i]` in
/// place of parameter `i`, and every other slot, read or bound, moved to
/// the caller's slots from `base` on.
pub(super) fn rename(ir: &Ir, params: &[Ir], base: Slot) -> Ir {
    // Slots past the parameters, from the first on.
    let moved = |s: Slot| base + (s - params.len() as Slot);
    let pattern = |p: &PatIr| map_pattern(p, &moved);
    let kind = match &ir.kind {
        IrKind::Local(s) => match params.get(*s as usize) {
            Some(arg) => return arg.clone(),
            None => IrKind::Local(moved(*s)),
        },
        IrKind::Let(p, value, body) => IrKind::Let(
            pattern(p),
            Box::new(rename(value, params, base)),
            Box::new(rename(body, params, base)),
        ),
        IrKind::Comprehension { set, elem, clauses } => IrKind::Comprehension {
            set: *set,
            elem: Box::new(rename(elem, params, base)),
            clauses: clauses
                .iter()
                .map(|c| match c {
                    ClauseIr::For(p, d) => ClauseIr::For(pattern(p), rename(d, params, base)),
                    ClauseIr::If(c) => ClauseIr::If(rename(c, params, base)),
                })
                .collect(),
        },
        _ => return map_children(ir, &mut |e| rename(e, params, base)),
    };
    Ir {
        kind,
        span: ir.span,
    }
}

/// `p` with `f` applied to each slot it binds.
pub(super) fn map_pattern(p: &PatIr, f: &dyn Fn(Slot) -> Slot) -> PatIr {
    match p {
        PatIr::Slot(s) => PatIr::Slot(f(*s)),
        PatIr::Global(id) => PatIr::Global(*id),
        PatIr::Tuple(parts, span) => {
            PatIr::Tuple(parts.iter().map(|q| map_pattern(q, f)).collect(), *span)
        }
    }
}

/// The body of `let PATTERN = value in body` with the value in place of
/// the name, when the pattern is one name and the value is
/// [`repeatable`] or read once for certain ([`uses::once_for_certain`]).
pub(super) fn put_let(pattern: &PatIr, value: &Ir, body: &Ir) -> Option<Ir> {
    let PatIr::Slot(slot) = *pattern else {
        return None;
    };
    (repeatable(value) || few_items(value) || uses::once_for_certain(body, slot))
        .then(|| put(body, &|s| (s == slot).then(|| value.clone())))
}

/// `let (a, b) = (x, y) in body` as `let a = x in let b = y in body`:
/// the items are evaluated in the same order, and the pattern cannot fail
/// to match a tuple as wide. Not where a later item binds a slot of an
/// earlier name (`let (u, w) = (1, let (u, w) = ... in ...)`, whose inner
/// names take the same slots): split, it would overwrite the earlier
/// name's value before the body reads it.
pub(super) fn split_let(pattern: &PatIr, value: &Ir, body: &Ir) -> Option<Ir> {
    let PatIr::Tuple(parts, _) = pattern else {
        return None;
    };
    let items: Vec<Ir> = match &value.kind {
        IrKind::Tuple(items) => items.clone(),
        IrKind::Const(Value::Tuple(items)) => items
            .iter()
            .map(|v| Ir {
                kind: IrKind::Const(v.clone()),
                span: value.span,
            })
            .collect(),
        _ => return None,
    };
    if items.len() != parts.len() {
        return None;
    }
    let mut earlier = FxHashSet::default();
    for (p, item) in parts.iter().zip(&items) {
        let mut bound = FxHashSet::default();
        bound_slots(item, &mut bound);
        if !earlier.is_disjoint(&bound) {
            return None;
        }
        pattern_slots(p, &mut earlier);
    }
    let lets = parts.iter().zip(items).rev();
    Some(lets.fold(body.clone(), |body, (p, item)| Ir {
        span: body.span,
        kind: IrKind::Let(p.clone(), Box::new(item), Box::new(body)),
    }))
}

/// The slots a pattern binds, into `out`.
pub(super) fn pattern_slots(p: &PatIr, out: &mut FxHashSet<Slot>) {
    match p {
        PatIr::Slot(s) => {
            out.insert(*s);
        }
        PatIr::Tuple(parts, _) => parts.iter().for_each(|q| pattern_slots(q, out)),
        _ => {}
    }
}

/// The slots that `let`s and comprehensions inside `ir` bind, into `out`.
pub(super) fn bound_slots(ir: &Ir, out: &mut FxHashSet<Slot>) {
    match &ir.kind {
        IrKind::Let(p, ..) => pattern_slots(p, out),
        IrKind::Comprehension { clauses, .. } => {
            for clause in clauses {
                if let ClauseIr::For(p, _) = clause {
                    pattern_slots(p, out);
                }
            }
        }
        _ => {}
    }
    super::each_child(ir, &mut |e| bound_slots(e, out));
}

thread_local! {
    /// Whether the rules being normalised are for slots of any size (see
    /// [`super::wide`]).
    static WIDE: Cell<bool> = const { Cell::new(false) };
}

/// While it lives, the rules normalised are for slots of any size.
pub(super) struct Wide(bool);

impl Wide {
    pub(super) fn enter() -> Wide {
        Wide(WIDE.replace(true))
    }
}

impl Drop for Wide {
    fn drop(&mut self) {
        WIDE.set(self.0);
    }
}

/// Whether the rules are being normalised for parameters of any size
/// (see [`Wide`]).
pub(super) fn wide_now() -> bool {
    WIDE.get()
}

/// An argument that can neither fail nor cost anything to evaluate twice:
/// a local, a constant, or sums, differences, negations and constant
/// multiples of small such terms. Those cannot overflow while the slots
/// they read are below [`SLOT_LIMIT`], as the compiled rules run them;
/// in rules for slots of any size ([`Wide`]) only a local or a constant.
///
/// [`SLOT_LIMIT`]: crate::runtime::kernel::expr::SLOT_LIMIT
pub(super) fn repeatable(ir: &Ir) -> bool {
    fn small(ir: &Ir, budget: &mut u32) -> bool {
        *budget = budget.saturating_sub(1);
        if *budget == 0 {
            return false;
        }
        match &ir.kind {
            IrKind::Local(_) => true,
            IrKind::Const(Value::Int(n)) => n.unsigned_abs() < 1 << 20,
            IrKind::Unary(UnOp::Neg, a) => small(a, budget),
            IrKind::Binary(BinOp::Add | BinOp::Sub, a, b) => small(a, budget) && small(b, budget),
            IrKind::Binary(BinOp::Mul, a, b) => {
                let konst = |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(n)) if n.unsigned_abs() < 1 << 10);
                (konst(a) || konst(b)) && small(a, budget) && small(b, budget)
            }
            _ => false,
        }
    }
    match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) => true,
        _ => !WIDE.get() && small(ir, &mut 12),
    }
}

/// Whether `ir` is a tuple of [`repeatable`] items: put in place of a
/// parameter, `p[0]` of it is the item itself (see `fold` in `mod.rs`),
/// so a helper given a square, `on_board((x + dx, y + dy))`, compares
/// integers where a `let` of the tuple left the rules to the interpreter.
/// Made again where it is read whole, which costs and changes nothing
/// else: its items can neither fail nor differ.
pub(super) fn few_items(ir: &Ir) -> bool {
    matches!(&ir.kind, IrKind::Tuple(items) if items.len() <= 4 && items.iter().all(repeatable))
}

/// Whether function `f` calls itself, directly or through others.
/// Whether calls of `f`, a function that calls itself, are better left
/// calls in rules and queries, where its arguments do not read the
/// position: it takes one or two arguments, and it and every function it
/// calls are integer arithmetic alone. The machine code then remembers
/// its results (see `kernel/native/emit/memo.rs`): a helper that counts
/// the ones of a binder `k` by halving it costs a lookup per option,
/// where unrolled it would take a dozen steps each time. (Arguments that
/// read the position, as in `has_digit(n, d)`, are new at each position:
/// there unrolling is faster.)
fn remembered(defs: &Defs, f: FnId) -> bool {
    let Some(Some(func)) = defs.fns.get(f as usize) else {
        return false;
    };
    if !(1..=2).contains(&func.arity) {
        return false;
    }
    let mut seen = FxHashSet::from_iter([f]);
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        let Some(Some(func)) = defs.fns.get(g as usize) else {
            return false;
        };
        let mut calls = |h: FnId| {
            if seen.insert(h) {
                todo.push(h);
            }
        };
        if !numeric(&func.body, &mut calls) {
            return false;
        }
    }
    true
}

/// Whether `ir` reads a slot below `params`: a parameter of the position.
fn reads_below(ir: &Ir, params: usize) -> bool {
    super::any_node(
        ir,
        &|e| matches!(e.kind, IrKind::Local(s) if (s as usize) < params),
    )
}

/// Whether `ir` is integer arithmetic and conditions alone; the functions
/// it calls are passed to `calls`.
fn numeric(ir: &Ir, calls: &mut dyn FnMut(FnId)) -> bool {
    use crate::builtins::Builtin::{Abs, BitLength, Gcd, Isqrt, Max, Min, Popcount};
    let all = |items: &[Ir], calls: &mut dyn FnMut(FnId)| items.iter().all(|i| numeric(i, calls));
    match &ir.kind {
        IrKind::Const(Value::Int(_) | Value::Bool(_)) | IrKind::Local(_) => true,
        IrKind::Unary(_, a) => numeric(a, calls),
        IrKind::Binary(op, a, b) => {
            !matches!(
                op,
                BinOp::In | BinOp::NotIn | BinOp::Range | BinOp::RangeIncl
            ) && numeric(a, calls)
                && numeric(b, calls)
        }
        IrKind::If(c, a, b) => numeric(c, calls) && numeric(a, calls) && numeric(b, calls),
        IrKind::Let(PatIr::Slot(_), v, body) => numeric(v, calls) && numeric(body, calls),
        IrKind::Chain(items, _) => all(items, calls),
        IrKind::CallFn(g, args) => {
            calls(*g);
            all(args, calls)
        }
        IrKind::CallBuiltin(Abs | Gcd | Isqrt | Popcount | BitLength, args) => all(args, calls),
        IrKind::CallBuiltin(Min | Max, args) => args.len() >= 2 && all(args, calls),
        _ => false,
    }
}

pub(crate) fn reaches_itself(defs: &Defs, f: FnId) -> bool {
    let mut seen = FxHashSet::default();
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        let Some(Some(func)) = defs.fns.get(g as usize) else {
            continue;
        };
        for r in crate::deps::fn_refs(func) {
            if let Global::Fn(h) = r {
                if h == f {
                    return true;
                }
                if seen.insert(h) {
                    todo.push(h);
                }
            }
        }
    }
    false
}
