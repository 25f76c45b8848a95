//! `zip` read by index. A binder or a comprehension's `for` over
//!
//! ```text
//! (a, b) in zip(hs, hs[1:])
//! ```
//!
//! makes a list of tuples, which the compiled rules do not hold. Read by
//! index, it is `i in 0..min(len(hs), len(hs[1:]))` with `hs[i]` and
//! `hs[1:][i]` in place of `a` and `b`: the same items in the same order,
//! with no list made. Only collections that cost nothing to read again
//! (names, constants, and slices of those) are read so, since each is
//! read once per item; the index gets a slot of its own past the frame.

use super::{map_move, put};
use crate::builtins::Builtin;
use crate::ir::{ClauseIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use std::cell::Cell;

/// The slots a `zip` pattern binds and the collections it zips, when it
/// is read by index (see the module's doc). With `enumerate`, also an
/// `enumerate(xs)` pattern's, as the index and `xs`.
fn zipped<'a>(pattern: &PatIr, domain: &'a Ir, enumerate: bool) -> Option<(Vec<Slot>, Zipped<'a>)> {
    let slots = pattern.tuple_slots()?;
    match &domain.kind {
        IrKind::CallBuiltin(Builtin::Zip, xs)
            if slots.len() == xs.len() && xs.len() >= 2 && xs.iter().all(cheap) =>
        {
            Some((slots, Zipped::Zip(xs)))
        }
        IrKind::CallBuiltin(Builtin::Enumerate, xs)
            if enumerate && slots.len() == 2 && xs.len() == 1 && cheap(&xs[0]) =>
        {
            Some((slots, Zipped::Enumerate(&xs[0])))
        }
        _ => None,
    }
}

/// What a pattern read by index goes over.
#[derive(Clone, Copy)]
enum Zipped<'a> {
    Zip(&'a [Ir]),
    /// `enumerate(xs)`: the index itself, then `xs[i]`.
    Enumerate(&'a Ir),
}

/// Whether reading `ir` again costs nothing and cannot fail where it did
/// not: a name, a constant, or a slice of one by such bounds.
pub(super) fn cheap(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Local(_) | IrKind::Const(_) | IrKind::Global(_) => true,
        IrKind::Slice(xs, lo, hi) => {
            let bound = |b: &Option<Box<Ir>>| {
                b.as_deref()
                    .is_none_or(|b| matches!(b.kind, IrKind::Local(_) | IrKind::Const(_)))
            };
            cheap(xs) && bound(lo) && bound(hi)
        }
        _ => false,
    }
}

/// The index's range, `0..min(len(x), len(y), ...)`, and what each slot
/// is then: `x[i]`, `y[i]`, ...; for `enumerate(xs)`, `0..len(xs)`, and
/// `i` and `xs[i]`.
fn by_index(
    slots: &[Slot],
    zipped: Zipped,
    i: Slot,
    span: crate::span::Span,
) -> (Ir, Vec<(Slot, Ir)>) {
    let at = |kind| Ir { kind, span };
    let xs = match zipped {
        Zipped::Zip(xs) => xs,
        Zipped::Enumerate(xs) => {
            let len = at(IrKind::CallBuiltin(Builtin::Len, vec![xs.clone()]));
            let zero = at(IrKind::Const(crate::value::Value::Int(0)));
            let range = at(IrKind::Binary(BinOp::Range, Box::new(zero), Box::new(len)));
            let item = IrKind::Index(Box::new(xs.clone()), Box::new(at(IrKind::Local(i))));
            let items = vec![(slots[0], at(IrKind::Local(i))), (slots[1], at(item))];
            return (range, items);
        }
    };
    let lens = xs
        .iter()
        .map(|x| at(IrKind::CallBuiltin(Builtin::Len, vec![x.clone()])))
        .collect();
    let range = at(IrKind::Binary(
        BinOp::Range,
        Box::new(at(IrKind::Const(crate::value::Value::Int(0)))),
        Box::new(at(IrKind::CallBuiltin(Builtin::Min, lens))),
    ));
    let items = slots
        .iter()
        .zip(xs)
        .map(|(s, x)| {
            let index = IrKind::Index(Box::new(x.clone()), Box::new(at(IrKind::Local(i))));
            (*s, at(index))
        })
        .collect();
    (range, items)
}

fn fresh(slots: &Cell<usize>) -> Slot {
    let i = slots.get();
    slots.set(i + 1);
    i as Slot
}

/// `rule` with its `zip` binders read by index, or `None` when it has
/// none.
pub(super) fn binders(rule: &MoveIr, slots: &Cell<usize>, enumerate: bool) -> Option<MoveIr> {
    let (at, (names, xs)) = (rule.binders.iter().enumerate())
        .find_map(|(at, (p, d))| Some((at, zipped(p, d, enumerate)?)))?;
    let i = fresh(slots);
    let (range, items) = by_index(&names, xs, i, rule.binders[at].1.span);
    let bind = |s: Slot| items.iter().find(|(n, _)| *n == s).map(|(_, e)| e.clone());
    let mut copy = map_move(rule, at + 1, &mut |e| put(e, &bind));
    copy.binders[at] = (PatIr::Slot(i), range);
    // `--explain` names the index's loop by the tuple it stands for.
    let shown: Option<Vec<&str>> = (names.iter())
        .map(|s| {
            rule.shown
                .iter()
                .find(|(_, n)| n == s)
                .map(|(name, _)| &**name)
        })
        .collect();
    if let Some(parts) = shown {
        copy.shown
            .push((format!("({})", parts.join(", ")).into(), i));
    }
    Some(binders(&copy, slots, enumerate).unwrap_or(copy))
}

/// A comprehension's clauses and element with its `zip` clauses read by
/// index, or `None` when it has none.
pub(super) fn clauses(
    clauses: &[ClauseIr],
    elem: &Ir,
    (slots, enumerate): (&Cell<usize>, bool),
) -> Option<(Vec<ClauseIr>, Ir)> {
    let (at, (names, xs)) = clauses.iter().enumerate().find_map(|(at, c)| match c {
        ClauseIr::For(p, d) => Some((at, zipped(p, d, enumerate)?)),
        ClauseIr::If(_) => None,
    })?;
    let ClauseIr::For(_, domain) = &clauses[at] else {
        unreachable!("found a `for`");
    };
    let i = fresh(slots);
    let (range, items) = by_index(&names, xs, i, domain.span);
    let bind = |s: Slot| items.iter().find(|(n, _)| *n == s).map(|(_, e)| e.clone());
    let mut out = clauses.to_vec();
    out[at] = ClauseIr::For(PatIr::Slot(i), range);
    for c in &mut out[at + 1..] {
        match c {
            ClauseIr::For(_, e) | ClauseIr::If(e) => *e = put(e, &bind),
        }
    }
    let elem = put(elem, &bind);
    Some(clauses_again(&out, &elem, (slots, enumerate)))
}

fn clauses_again(
    out: &[ClauseIr],
    elem: &Ir,
    (slots, enumerate): (&Cell<usize>, bool),
) -> (Vec<ClauseIr>, Ir) {
    clauses(out, elem, (slots, enumerate)).unwrap_or_else(|| (out.to_vec(), elem.clone()))
}

/// A comprehension whose first `for` zips collections that are not
/// [`cheap`] (`zip(cs, [0] * i + [1] + ...)`), with each such collection
/// to be bound to a name of its own first (`let z = [0] * i + ... in
/// [... for (c, f) in zip(cs, z)]`), so that it is read by index as a
/// name: made once, in the same order, as the `for`'s domain is. The
/// names with their collections, in order, and the comprehension; `None`
/// for any other.
pub(super) fn named(ir: &Ir, slots: &Cell<usize>) -> Option<(Vec<(Slot, Ir)>, Ir)> {
    let IrKind::Comprehension { set, elem, clauses } = &ir.kind else {
        return None;
    };
    let Some(ClauseIr::For(pattern, domain)) = clauses.first() else {
        return None;
    };
    let IrKind::CallBuiltin(Builtin::Zip, xs) = &domain.kind else {
        return None;
    };
    let fits = pattern.tuple_slots().is_some_and(|s| s.len() == xs.len()) && xs.len() >= 2;
    // A range is no list the compiled rules hold in a name.
    let range = |x: &Ir| matches!(x.kind, IrKind::Binary(BinOp::Range | BinOp::RangeIncl, ..));
    if !fits || xs.iter().all(cheap) || xs.iter().any(range) {
        return None;
    }
    let mut lets = Vec::new();
    let named: Vec<Ir> = (xs.iter())
        .map(|x| match cheap(x) {
            true => x.clone(),
            false => {
                let z = fresh(slots);
                lets.push((z, x.clone()));
                Ir {
                    kind: IrKind::Local(z),
                    span: x.span,
                }
            }
        })
        .collect();
    let mut clauses = clauses.clone();
    let zipped = Ir {
        kind: IrKind::CallBuiltin(Builtin::Zip, named),
        span: domain.span,
    };
    clauses[0] = ClauseIr::For(pattern.clone(), zipped);
    let kind = IrKind::Comprehension {
        set: *set,
        elem: elem.clone(),
        clauses,
    };
    Some((
        lets,
        Ir {
            kind,
            span: ir.span,
        },
    ))
}
