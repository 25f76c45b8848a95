//! Targets computed as values made into terms. A move whose target is an
//! expression rather than a sum of games applied to arguments, such as
//!
//! ```text
//! move take(k in 1..=3) if k <= n -> if n - k > 5 then g(n - k) else g(0)
//! ```
//!
//! or a call of a function that makes the position, is evaluated as a
//! value by the interpreter. Once calls are inlined, a target that is a
//! sum of applications and heaps becomes terms, and an `if` between such
//! targets becomes one move per branch, each guarded by the branch's
//! condition: the same options, made as the compiled rules make them.

use crate::ir::{Ir, IrKind, MoveIr, PatIr, TargetIr, TermIr};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;

/// The most moves one rule's `if`s may split it into.
const BRANCHES_MAX: usize = 16;

/// `rule`, with a computed target made into terms, as one move per branch
/// of its `if`s; `None` when its target is terms already or cannot be.
pub(super) fn split(rule: &MoveIr) -> Option<Vec<MoveIr>> {
    let target = &match &rule.target {
        TargetIr::Dynamic(target) => target.clone(),
        TargetIr::Terms(terms) => with_if_argument(terms)?,
    };
    let mut out = Vec::new();
    branches(rule, rule.guard.clone(), target, &mut out)?;
    // One move per branch makes the options of the first branch, then
    // those of the next: in the written order only when the branch is
    // the same for every option, its conditions reading no binder.
    let mut binders = rustc_hash::FxHashSet::default();
    (rule.binders.iter()).for_each(|(p, _)| super::inline::pattern_slots(p, &mut binders));
    if out.len() > 1 && super::any_node(target, &|e| reads_in_condition(e, &binders)) {
        out.iter_mut().for_each(|m| m.named = None);
    }
    Some(out)
}

/// `rule` with its computed target made terms where that is one move
/// (`p` of `p in [lk(n - k) for k in 1..=n]`, lifted: `lk(n - k)`).
pub(super) fn made_terms(rule: MoveIr) -> MoveIr {
    match split(&rule).as_deref() {
        Some([one]) => one.clone(),
        _ => rule,
    }
}

/// `rule` with a target that starts by binding names, `let r = a - k * b
/// in if r >= b then e(r, b) else e(b, r)` (a helper given `a - k * b`,
/// inlined, leaves the same), as a binder over that one value, `r in [a
/// - k * b]`, and the rest as its target, which [`split`] then makes
/// terms of. The value is made once per option either way; before the
/// guard as a binder's domain, so only where there is no guard, or the
/// value cannot fail. `None` where the target binds nothing.
pub(super) fn let_bound(rule: &MoveIr) -> Option<MoveIr> {
    let TargetIr::Dynamic(mut target) = rule.target.clone() else {
        return None;
    };
    let mut binders = rule.binders.clone();
    while let IrKind::Let(PatIr::Slot(x), value, body) = &target.kind {
        if rule.guard.is_some() && !super::inline::repeatable(value) {
            break;
        }
        let one = Ir {
            kind: IrKind::List(vec![(**value).clone()]),
            span: value.span,
        };
        binders.push((PatIr::Slot(*x), one));
        target = (**body).clone();
    }
    (binders.len() > rule.binders.len()).then(|| MoveIr {
        binders,
        target: TargetIr::Dynamic(target),
        ..rule.clone()
    })
}

/// Whether `arg` is an `if` between tuples or lists written out (an
/// `if` between integers is an integer the compiled rules compute).
fn items_either_way(arg: &Ir) -> bool {
    let written = |e: &Ir| matches!(e.kind, IrKind::Tuple(_) | IrKind::List(_));
    matches!(&arg.kind, IrKind::If(_, x, y) if written(x) && written(y))
}

/// Terms of which a position has an `if` between tuples or lists for an
/// argument, as the sum they are, for [`lift_argument`]; `None` where
/// none has.
fn with_if_argument(terms: &[TermIr]) -> Option<Ir> {
    let iffy = |t: &TermIr| match t {
        TermIr::Node(_, args, _) => args.iter().any(items_either_way),
        TermIr::Heap(_) => false,
    };
    if !terms.iter().any(iffy) {
        return None;
    }
    let term = |t: &TermIr| match t {
        TermIr::Node(g, args, span) => Ir {
            kind: IrKind::Apply(*g, args.clone()),
            span: *span,
        },
        TermIr::Heap(k) => Ir {
            kind: IrKind::Unary(UnOp::Heap, Box::new(k.clone())),
            span: k.span,
        },
    };
    let mut sum = term(terms.first()?);
    for t in &terms[1..] {
        let t = term(t);
        let span = sum.span.to(t.span);
        sum = Ir {
            kind: IrKind::Binary(BinOp::Add, Box::new(sum), Box::new(t)),
            span,
        };
    }
    Some(sum)
}

/// Whether `ir` is an `if` whose condition reads one of `binders`.
fn reads_in_condition(ir: &Ir, binders: &rustc_hash::FxHashSet<crate::ir::Slot>) -> bool {
    let IrKind::If(c, ..) = &ir.kind else {
        return false;
    };
    super::any_node(
        c,
        &|e| matches!(e.kind, IrKind::Local(s) if binders.contains(&s)),
    )
}

/// Pushes on `out` the moves of `rule` whose target is `target` under
/// `guard`.
fn branches(rule: &MoveIr, guard: Option<Ir>, target: &Ir, out: &mut Vec<MoveIr>) -> Option<()> {
    if let IrKind::If(c, a, b) = &target.kind {
        let not_c = Ir {
            kind: IrKind::Unary(UnOp::Not, c.clone()),
            span: c.span,
        };
        branches(rule, Some(and(guard.clone(), (**c).clone())), a, out)?;
        return branches(rule, Some(and(guard, not_c)), b, out);
    }
    if let Some(lifted) = lift(target) {
        return branches(rule, guard, &lifted, out);
    }
    let mut terms = Vec::new();
    if !as_terms(target, &mut terms) || out.len() == BRANCHES_MAX {
        return None;
    }
    out.push(MoveIr {
        guard,
        target: TargetIr::Terms(terms),
        ..rule.clone()
    });
    Some(())
}

/// A sum with an `if` among its terms, `g(n - k) + (if k % 2 == 0 then
/// *1 else *0)`, as an `if` between sums: `if k % 2 == 0 then g(n - k) +
/// *1 else g(n - k) + *0`. The condition is then evaluated before the
/// other terms rather than after; a target is evaluated for every option
/// the guard lets through, so it fails (and the interpreter reports it,
/// as written) for the same options.
fn lift(ir: &Ir) -> Option<Ir> {
    if let IrKind::Apply(game, args) = &ir.kind {
        return lift_argument(*game, args, ir.span);
    }
    let IrKind::Binary(BinOp::Add, a, b) = &ir.kind else {
        return None;
    };
    let sum = |x: &Ir, y: &Ir| Ir {
        kind: IrKind::Binary(BinOp::Add, Box::new(x.clone()), Box::new(y.clone())),
        span: ir.span,
    };
    let branch = |c: &Ir, x: Ir, y: Ir| Ir {
        kind: IrKind::If(Box::new(c.clone()), Box::new(x), Box::new(y)),
        span: ir.span,
    };
    let a_if = match &a.kind {
        IrKind::If(..) => Some((**a).clone()),
        _ => lift(a),
    };
    if let Some(Ir {
        kind: IrKind::If(c, x, y),
        ..
    }) = a_if
    {
        return Some(branch(&c, sum(&x, b), sum(&y, b)));
    }
    let b_if = match &b.kind {
        IrKind::If(..) => Some((**b).clone()),
        _ => lift(b),
    };
    let IrKind::If(c, x, y) = b_if?.kind else {
        return None;
    };
    Some(branch(&c, sum(a, &x), sum(a, &y)))
}

/// A position with an `if` for an argument, `h(if i == 0 then (a - k,
/// b) else (a, b - k))`, as an `if` between positions: `if i == 0 then
/// h((a - k, b)) else h((a, b - k))`. The condition is evaluated before the
/// arguments written ahead of it: where one of them fails, the compiled
/// rules leave the position to the interpreter, which reports it as
/// written.
fn lift_argument(game: crate::value::GameId, args: &[Ir], span: crate::span::Span) -> Option<Ir> {
    let at = args.iter().position(items_either_way)?;
    let IrKind::If(c, x, y) = &args[at].kind else {
        return None;
    };
    let with = |item: &Ir| {
        let mut args = args.to_vec();
        args[at] = item.clone();
        Box::new(Ir {
            kind: IrKind::Apply(game, args),
            span,
        })
    };
    Some(Ir {
        kind: IrKind::If(c.clone(), with(x), with(y)),
        span,
    })
}

/// `guard and c`: `c` is evaluated only where the guard holds, as the
/// target was.
fn and(guard: Option<Ir>, c: Ir) -> Ir {
    match guard {
        None => c,
        Some(g) => Ir {
            span: c.span,
            kind: IrKind::Binary(BinOp::And, Box::new(g), Box::new(c)),
        },
    }
}

/// Flattens `g(a) + *k + 0 + h(b)` into terms, as lowering does; false if
/// `ir` has any other shape.
fn as_terms(ir: &Ir, out: &mut Vec<TermIr>) -> bool {
    match &ir.kind {
        IrKind::Const(Value::Int(0)) => true,
        IrKind::Binary(BinOp::Add, a, b) => as_terms(a, out) && as_terms(b, out),
        IrKind::Unary(UnOp::Heap, k) => {
            out.push(TermIr::Heap((**k).clone()));
            true
        }
        IrKind::Apply(game, args) => {
            out.push(TermIr::Node(*game, args.clone(), ir.span));
            true
        }
        _ => false,
    }
}
