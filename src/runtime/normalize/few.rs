//! Spellings over a few items written as the items themselves.
//!
//! - A comprehension whose one `for` runs over a few items written out,
//!   `[kayles(h) for h in [a, n - k - a]]`, is the list of its element
//!   for each: `[kayles(a), kayles(n - k - a)]`. The items can neither
//!   fail nor cost anything to evaluate again ([`repeatable`]), so the
//!   list is the same, made without a loop; a target summing it is then
//!   a sum of positions the compiled rules read by index.
//! - Two positions of one game in a sum, one given the least of two
//!   values and the other the greatest, `g(min(a, b)) + g(max(a, b))`,
//!   are `g(a) + g(b)`: a sum is the same whatever the order of its
//!   terms (and is shown with its terms in order). Not in the rules that
//!   list moves in the written order ([`super::listing_rules`]).

use super::hoist::same;
use super::inline::repeatable;
use super::put;
use crate::builtins::Builtin;
use crate::ir::{ClauseIr, Ir, IrKind, MoveIr, PatIr, TargetIr, TermIr};
use crate::value::Value;

/// The most items a comprehension is written out for.
const FEW: usize = 8;

/// `ir`, a comprehension with one `for` over a few items written out, as
/// the list (or set) of its element for each; `None` for any other.
pub(super) fn comprehension(ir: &Ir) -> Option<Ir> {
    let IrKind::Comprehension { set, elem, clauses } = &ir.kind else {
        return None;
    };
    let [ClauseIr::For(PatIr::Slot(h), domain)] = &clauses[..] else {
        return None;
    };
    let items: Vec<Ir> = match &domain.kind {
        IrKind::List(items) | IrKind::Tuple(items) if items.iter().all(repeatable) => items.clone(),
        IrKind::Const(v @ (Value::List(_) | Value::Tuple(_))) => (v.as_slice()?.iter())
            .map(|v| Ir {
                kind: IrKind::Const(v.clone()),
                span: domain.span,
            })
            .collect(),
        _ => return None,
    };
    if items.len() > FEW {
        return None;
    }
    let each = (items.iter())
        .map(|x| put(elem, &|s| (s == *h).then(|| x.clone())))
        .collect();
    let kind = match set {
        true => IrKind::Set(each),
        false => IrKind::List(each),
    };
    Some(Ir {
        kind,
        span: ir.span,
    })
}

/// `rule` with two positions of one game given `min(a, b)` and `max(a,
/// b)` in the same place, the rest the same, given `a` and `b` instead;
/// `None` where its target has no such pair.
pub(super) fn pair(rule: &MoveIr) -> Option<MoveIr> {
    let TargetIr::Terms(terms) = &rule.target else {
        return None;
    };
    let mut terms = terms.clone();
    let mut changed = false;
    for i in 0..terms.len() {
        for j in i + 1..terms.len() {
            if let Some((a, b)) = unsorted(&terms[i], &terms[j]) {
                (terms[i], terms[j]) = (a, b);
                changed = true;
            }
        }
    }
    changed.then(|| MoveIr {
        target: TargetIr::Terms(terms),
        ..rule.clone()
    })
}

/// `g(..., a, ...)` and `g(..., b, ...)` for `g(..., min(a, b), ...)` and
/// `g(..., max(a, b), ...)` (either way round, the rest the same).
fn unsorted(x: &TermIr, y: &TermIr) -> Option<(TermIr, TermIr)> {
    let (TermIr::Node(g, xs, sx), TermIr::Node(h, ys, sy)) = (x, y) else {
        return None;
    };
    if g != h || xs.len() != ys.len() {
        return None;
    }
    let differ: Vec<usize> = (0..xs.len()).filter(|&k| !same(&xs[k], &ys[k])).collect();
    let [k] = differ[..] else {
        return None;
    };
    let ((f, a, b), (g2, c, d)) = (extremum(&xs[k])?, extremum(&ys[k])?);
    let pair = (same(a, c) && same(b, d)) || (same(a, d) && same(b, c));
    if f == g2 || !pair {
        return None;
    }
    let with = |args: &[Ir], v: &Ir| {
        let mut args = args.to_vec();
        args[k] = v.clone();
        args
    };
    Some((
        TermIr::Node(*g, with(xs, a), *sx),
        TermIr::Node(*h, with(ys, b), *sy),
    ))
}

/// `min(a, b)` or `max(a, b)`, as which and its two operands.
fn extremum(e: &Ir) -> Option<(Builtin, &Ir, &Ir)> {
    match &e.kind {
        IrKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
            Some((*b, &args[0], &args[1]))
        }
        _ => None,
    }
}
