//! Walks over the IR shared by the rewrites: a move's parts rewritten
//! ([`Rewrite`], [`rewrite_move`]), an expression's children visited or
//! copied, locals put in place.

use super::inline;
use crate::ir::{Ir, IrKind, MoveIr, Slot, TargetIr, TermIr};
use crate::span::Span;
use crate::value::GameId;

/// A copy of `rule` with `f` applied to the domains of its binders from
/// binder `from` on, to its guard and to every expression of its target.
pub(crate) fn map_move(rule: &MoveIr, from: usize, f: &mut dyn FnMut(&Ir) -> Ir) -> MoveIr {
    struct Exprs<'a>(&'a mut dyn FnMut(&Ir) -> Ir);
    impl Rewrite for Exprs<'_> {
        fn expr(&mut self, ir: &Ir) -> Ir {
            (self.0)(ir)
        }
    }
    rewrite_move(rule, from, &mut Exprs(f))
}

/// `rule` with its guard rewritten by `found` wherever it finds
/// something (the outermost match; otherwise its children are looked
/// at): `None` when it found nothing.
pub(super) fn guard_rewritten(rule: &MoveIr, found: &dyn Fn(&Ir) -> Option<Ir>) -> Option<MoveIr> {
    fn walk(ir: &Ir, found: &dyn Fn(&Ir) -> Option<Ir>, changed: &mut bool) -> Ir {
        if let Some(new) = found(ir) {
            *changed = true;
            return new;
        }
        map_children(ir, &mut |e| walk(e, found, changed))
    }
    let mut changed = false;
    let guard = walk(rule.guard.as_ref()?, found, &mut changed);
    changed.then(|| MoveIr {
        guard: Some(guard),
        ..rule.clone()
    })
}

/// What [`rewrite_move`] makes of the parts of a move.
pub(crate) trait Rewrite {
    /// An expression: a binder's domain, the guard, or one in the target.
    fn expr(&mut self, ir: &Ir) -> Ir;

    /// A position of `game` the target makes: by default, the same game
    /// with each argument rewritten.
    fn node(&mut self, game: GameId, args: &[Ir], span: Span) -> TermIr {
        TermIr::Node(game, args.iter().map(|a| self.expr(a)).collect(), span)
    }

    /// The slot a binder binds (by default, the same).
    fn slot(&self, slot: Slot) -> Slot {
        slot
    }
}

/// A copy of `rule` rewritten by `r`: the domains of its binders from
/// binder `from` on, its guard, the positions and expressions of its
/// target, and the slots its binders bind.
pub(crate) fn rewrite_move(rule: &MoveIr, from: usize, r: &mut impl Rewrite) -> MoveIr {
    let binders = rule.binders.iter().enumerate();
    MoveIr {
        name: rule.name.clone(),
        binders: binders
            .map(|(i, (p, d))| {
                let p = inline::map_pattern(p, &|s| r.slot(s));
                (p, if i < from { d.clone() } else { r.expr(d) })
            })
            .collect(),
        shown: (rule.shown.iter())
            .map(|(n, s)| (n.clone(), r.slot(*s)))
            .collect(),
        named: (rule.named.as_ref())
            .map(|named| named.iter().map(|(n, e)| (n.clone(), r.expr(e))).collect()),
        unrolled: (rule.unrolled.iter())
            .map(|&(s, i)| (r.slot(s), i))
            .collect(),
        guard: rule.guard.as_ref().map(|g| r.expr(g)),
        target: match &rule.target {
            TargetIr::Terms(terms) => TargetIr::Terms(
                terms
                    .iter()
                    .map(|t| match t {
                        TermIr::Node(g, args, span) => r.node(*g, args, *span),
                        TermIr::Heap(k) => TermIr::Heap(r.expr(k)),
                    })
                    .collect(),
            ),
            TargetIr::Dynamic(e) => TargetIr::Dynamic(r.expr(e)),
        },
        span: rule.span,
    }
}

/// A copy of `ir` with `bind(slot)`, where it says something, in place of
/// each local.
pub(crate) fn put(ir: &Ir, bind: &dyn Fn(Slot) -> Option<Ir>) -> Ir {
    if let IrKind::Local(slot) = ir.kind
        && let Some(e) = bind(slot)
    {
        return e;
    }
    map_children(ir, &mut |e| put(e, bind))
}

/// Calls `f` on each direct child of `ir`, in the order [`map_children`]
/// visits them.
pub(crate) fn each_child<'a>(ir: &'a Ir, f: &mut dyn FnMut(&'a Ir)) {
    let mut all = |items: &'a [Ir]| items.iter().for_each(&mut *f);
    match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) | IrKind::Global(_) => {}
        IrKind::Tuple(items)
        | IrKind::List(items)
        | IrKind::Set(items)
        | IrKind::Chain(items, _)
        | IrKind::CallFn(_, items)
        | IrKind::CallBuiltin(_, items)
        | IrKind::Apply(_, items) => all(items),
        IrKind::Comprehension { elem, clauses, .. } => {
            f(elem);
            for c in clauses {
                match c {
                    crate::ir::ClauseIr::For(_, e) | crate::ir::ClauseIr::If(e) => f(e),
                }
            }
        }
        IrKind::Unary(_, a) => f(a),
        IrKind::Binary(_, a, b) | IrKind::Let(_, a, b) | IrKind::Index(a, b) => {
            f(a);
            f(b);
        }
        IrKind::If(c, a, b) => [c, a, b].into_iter().for_each(|e| f(e)),
        IrKind::CallValue(c, args, _) => {
            f(c);
            args.iter().for_each(f);
        }
        IrKind::TableOf(_, args, axes) => {
            args.iter().flatten().for_each(&mut *f);
            axes.iter().for_each(f);
        }
        IrKind::Slice(x, lo, hi) => {
            f(x);
            lo.iter().chain(hi).for_each(|e| f(e));
        }
    }
}

/// Whether `ir`, or some expression inside it, is one `pick` picks.
pub(crate) fn any_node(ir: &Ir, pick: &dyn Fn(&Ir) -> bool) -> bool {
    let mut found = pick(ir);
    each_child(ir, &mut |e| found = found || any_node(e, pick));
    found
}

/// How many IR nodes `ir` has.
pub(crate) fn size(ir: &Ir) -> usize {
    let mut n = 1;
    each_child(ir, &mut |e| n += size(e));
    n
}

/// Whether `ir` binds a local anywhere: a `let` or a comprehension.
pub(super) fn binds_locals(ir: &Ir) -> bool {
    any_node(ir, &|e| {
        matches!(e.kind, IrKind::Let(..) | IrKind::Comprehension { .. })
    })
}

/// A copy of `ir` with `f` applied to each of its direct children.
pub(crate) fn map_children(ir: &Ir, f: &mut dyn FnMut(&Ir) -> Ir) -> Ir {
    let all = |items: &[Ir], f: &mut dyn FnMut(&Ir) -> Ir| items.iter().map(f).collect::<Vec<_>>();
    let kind = match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) | IrKind::Global(_) => ir.kind.clone(),
        IrKind::Tuple(items) => IrKind::Tuple(all(items, f)),
        IrKind::List(items) => IrKind::List(all(items, f)),
        IrKind::Set(items) => IrKind::Set(all(items, f)),
        IrKind::Comprehension { set, elem, clauses } => IrKind::Comprehension {
            set: *set,
            elem: Box::new(f(elem)),
            clauses: clauses
                .iter()
                .map(|c| match c {
                    crate::ir::ClauseIr::For(p, d) => crate::ir::ClauseIr::For(p.clone(), f(d)),
                    crate::ir::ClauseIr::If(c) => crate::ir::ClauseIr::If(f(c)),
                })
                .collect(),
        },
        IrKind::Unary(op, a) => IrKind::Unary(*op, Box::new(f(a))),
        IrKind::Binary(op, a, b) => IrKind::Binary(*op, Box::new(f(a)), Box::new(f(b))),
        IrKind::If(c, a, b) => IrKind::If(Box::new(f(c)), Box::new(f(a)), Box::new(f(b))),
        IrKind::Let(p, value, body) => {
            IrKind::Let(p.clone(), Box::new(f(value)), Box::new(f(body)))
        }
        IrKind::Chain(items, ops) => IrKind::Chain(all(items, f), ops.clone()),
        IrKind::CallFn(id, args) => IrKind::CallFn(*id, all(args, f)),
        IrKind::CallBuiltin(b, args) => IrKind::CallBuiltin(*b, all(args, f)),
        IrKind::Apply(g, args) => IrKind::Apply(*g, all(args, f)),
        IrKind::CallValue(c, args, hides) => {
            IrKind::CallValue(Box::new(f(c)), all(args, f), hides.clone())
        }
        IrKind::TableOf(g, args, axes) => IrKind::TableOf(
            *g,
            args.iter().map(|a| a.as_ref().map(&mut *f)).collect(),
            all(axes, f),
        ),
        IrKind::Index(x, i) => IrKind::Index(Box::new(f(x)), Box::new(f(i))),
        IrKind::Slice(x, lo, hi) => IrKind::Slice(
            Box::new(f(x)),
            lo.as_ref().map(|e| Box::new(f(e))),
            hi.as_ref().map(|e| Box::new(f(e))),
        ),
    };
    Ir {
        kind,
        span: ir.span,
    }
}

/// Pushes on `out` the conditions `ir` joins by `and`, in order.
pub fn and_parts<'a>(ir: &'a Ir, out: &mut Vec<&'a Ir>) {
    match &ir.kind {
        IrKind::Binary(crate::syntax::ast::BinOp::And, a, b) => {
            and_parts(a, out);
            and_parts(b, out);
        }
        _ => out.push(ir),
    }
}
