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
//! (names, constants, and slices of those), ranges between such ends
//! (`lo + i`) and those reversed (`hs[-1 - i]`, `hi - 1 - i`) are read
//! so, since each is read once per item; `enumerate(zip(...))` with a
//! pattern `(i, (a, b))` too. The index gets a slot of its own past the
//! frame.

use super::{map_move, put};
use crate::builtins::Builtin;
use crate::ir::{ClauseIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use std::cell::Cell;

/// The slots a `zip` or `enumerate` pattern binds, each with what it
/// reads at an index, when it is read by index (see the module's doc):
/// `(a, b) in zip(xs, 1..n)`, and `(i, (c, d)) in enumerate(zip(s,
/// s[1:]))`. With `enumerate`, also an `enumerate(xs)` pattern's, as the
/// index and `xs[i]`: a list of integers enumerated is read item by item
/// otherwise, faster than by index.
fn zipped(pattern: &PatIr, domain: &Ir, enumerate: bool) -> Option<Vec<(Slot, Part)>> {
    let PatIr::Tuple(ps, _) = pattern else {
        return None;
    };
    match &domain.kind {
        IrKind::CallBuiltin(Builtin::Zip, xs) if ps.len() == xs.len() && xs.len() >= 2 => {
            (ps.iter().zip(xs))
                .map(|(p, x)| match p {
                    PatIr::Slot(s) => Some((*s, part(x)?)),
                    _ => None,
                })
                .collect()
        }
        IrKind::CallBuiltin(Builtin::Enumerate, xs) if ps.len() == 2 && xs.len() == 1 => {
            let PatIr::Slot(i) = ps[0] else {
                return None;
            };
            let rest = match &ps[1] {
                PatIr::Slot(s) if enumerate => vec![(*s, part(&xs[0])?)],
                inner @ PatIr::Tuple(..) => zipped(inner, &xs[0], enumerate)?,
                _ => return None,
            };
            Some([(i, Part::Index)].into_iter().chain(rest).collect())
        }
        _ => None,
    }
}

/// What a slot of a pattern read by index is at index `i`.
#[derive(Clone)]
enum Part {
    /// `enumerate`'s index: `i` itself.
    Index,
    /// An item of a [`cheap`] collection: `xs[i]`.
    Items(Ir),
    /// An item of a [`cheap`] collection reversed: `xs[-1 - i]`.
    Back(Ir),
    /// An item of a range between names or constants, the whole range
    /// given (for its length) with its ends and whether it is inclusive
    /// and reversed: `lo + i`, or `hi - 1 - i` (`hi - i` inclusive).
    Range(Ir, (Ir, Ir), bool, bool),
}

/// What `x`, one of a `zip`'s collections, gives at an index, where it
/// costs nothing to read again (a range's ends are read by its length
/// first, as `zip` reads them).
fn part(x: &Ir) -> Option<Part> {
    let at = |kind| Ir { kind, span: x.span };
    let int = |n: i64| at(IrKind::Const(crate::value::Value::Int(n)));
    let end = |b: &Ir| matches!(b.kind, IrKind::Local(_) | IrKind::Const(_));
    Some(match &x.kind {
        _ if cheap(x) && !matches!(x.kind, IrKind::Const(crate::value::Value::Range(..))) => {
            Part::Items(x.clone())
        }
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) if end(lo) && end(hi) => {
            let ends = ((**lo).clone(), (**hi).clone());
            Part::Range(x.clone(), ends, *op == BinOp::RangeIncl, false)
        }
        IrKind::Const(crate::value::Value::Range(lo, hi)) => {
            Part::Range(x.clone(), (int(*lo), int(*hi)), false, false)
        }
        IrKind::CallBuiltin(Builtin::Reversed, xs) if xs.len() == 1 => match part(&xs[0])? {
            Part::Items(xs) => Part::Back(xs),
            Part::Range(whole, ends, inclusive, false) => Part::Range(whole, ends, inclusive, true),
            _ => return None,
        },
        _ => return None,
    })
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
/// is then: `x[i]`, `y[i]`, ..., as [`Part`] says.
fn by_index(parts: &[(Slot, Part)], i: Slot, span: crate::span::Span) -> (Ir, Vec<(Slot, Ir)>) {
    let at = |kind| Ir { kind, span };
    let int = |n: i64| at(IrKind::Const(crate::value::Value::Int(n)));
    let bin = |op, a: Ir, b: Ir| at(IrKind::Binary(op, Box::new(a), Box::new(b)));
    let len = |x: &Ir| at(IrKind::CallBuiltin(Builtin::Len, vec![x.clone()]));
    // A range's length as `len(reversed(r))`: the interpreter makes a
    // range that `zip` is given, and the compiled rules leave one past
    // the items they hold to it (see `kernel/expr/compile.rs`).
    let made = |x: &Ir| at(IrKind::CallBuiltin(Builtin::Reversed, vec![x.clone()]));
    let lens: Vec<Ir> = (parts.iter())
        .filter_map(|(_, p)| match p {
            Part::Index => None,
            Part::Items(x) | Part::Back(x) => Some(len(x)),
            Part::Range(x, ..) => Some(len(&made(x))),
        })
        .collect();
    let count = match lens.len() {
        1 => lens[0].clone(),
        _ => at(IrKind::CallBuiltin(Builtin::Min, lens)),
    };
    let range = bin(BinOp::Range, int(0), count);
    let index = || at(IrKind::Local(i));
    let items = (parts.iter())
        .map(|(s, p)| {
            let item = match p {
                Part::Index => index(),
                Part::Items(x) => at(IrKind::Index(Box::new(x.clone()), Box::new(index()))),
                Part::Back(x) => {
                    let back = bin(BinOp::Sub, int(-1), index());
                    at(IrKind::Index(Box::new(x.clone()), Box::new(back)))
                }
                Part::Range(_, (lo, _), _, false) => bin(BinOp::Add, lo.clone(), index()),
                Part::Range(_, (_, hi), true, true) => bin(BinOp::Sub, hi.clone(), index()),
                Part::Range(_, (_, hi), false, true) => {
                    bin(BinOp::Sub, bin(BinOp::Sub, hi.clone(), int(1)), index())
                }
            };
            (*s, item)
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
    let (at, parts) = (rule.binders.iter().enumerate())
        .find_map(|(at, (p, d))| Some((at, zipped(p, d, enumerate)?)))?;
    let i = fresh(slots);
    let (range, items) = by_index(&parts, i, rule.binders[at].1.span);
    let names: Vec<Slot> = parts.iter().map(|(s, _)| *s).collect();
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
    let (at, parts) = clauses.iter().enumerate().find_map(|(at, c)| match c {
        ClauseIr::For(p, d) => Some((at, zipped(p, d, enumerate)?)),
        ClauseIr::If(_) => None,
    })?;
    let ClauseIr::For(_, domain) = &clauses[at] else {
        unreachable!("found a `for`");
    };
    let i = fresh(slots);
    let (range, items) = by_index(&parts, i, domain.span);
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
    // A range is no list the compiled rules hold in a name: it is read by
    // index as it is.
    let read = |x: &Ir| part(x).is_some();
    let range = |x: &Ir| matches!(x.kind, IrKind::Binary(BinOp::Range | BinOp::RangeIncl, ..));
    if !fits || xs.iter().all(read) || xs.iter().any(|x| range(x) && !read(x)) {
        return None;
    }
    let mut lets = Vec::new();
    let named: Vec<Ir> = (xs.iter())
        .map(|x| match read(x) {
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
