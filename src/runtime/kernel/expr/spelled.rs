//! Conditions spelled another way than as comparisons of integers, taken
//! as the comparisons they stand for, so that the kernels narrow loops
//! and find boards by them as they do by the comparisons:
//!
//! - `x in lo..hi` (and `lo..=hi`, and `not in`) of an integer `x`: `lo
//!   <= x < hi`. The interpreter makes the range and looks `x` up in it;
//!   a guard `x + dx in 1..=N` ran interpreted, 150 times slower than `1
//!   <= x + dx <= N`.
//! - `min(a, b) >= c` (and `>`, and `c <= min(a, b)`, `c < ...`): `a >=
//!   c and b >= c`; `max(a, b) <= c` (and `<`, and the mirrored forms):
//!   `a <= c and b <= c`. A knight's board bounded by `min(x + dx, y +
//!   dy) >= 1 and max(x + dx, y + dy) <= N` was not seen as a board,
//!   10 times slower.
//! - `e == e` (and `<=`, `>=`; `<` and `>` fail) of one linear form: true
//!   (`itself`), the check that a tuple binder lifted from a
//!   comprehension leaves. It cannot fail while the slots are small: the
//!   rules that fold one are not for parameters of any size.
//!
//! Each is taken only where it evaluates what the interpreter does, or
//! less where what it leaves out cannot fail: the comparisons stop at the
//! first that fails, so the parts they may skip (the bounds after the
//! first, the extremum's other items) must be names, constants or linear
//! forms, none of which can fail; and `lo..=hi` fails where `hi` is the
//! largest integer, so it is taken only where `hi` cannot be (a constant
//! below it, or a slot of rules whose slots are small).

use super::{Cond, Num};
use crate::ir::{Ir, IrKind};
use crate::runtime::kernel::seq::Types;
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `x in lo..hi` (`inclusive`: `lo..=hi`), or `not in` where `!yes`, of
/// the integer `x` as the comparisons `lo <= x` and `x < hi` (or `x <=
/// hi`), where the bounds cannot fail and `x` calls no function (it is
/// evaluated twice): `None` otherwise. `wide`: slots may hold any
/// integer, and so a bound that is a slot may be the largest.
pub(super) fn in_range(
    yes: bool,
    x: Num,
    (lo, hi, inclusive): (Num, Num, bool),
    wide: bool,
) -> Option<Cond> {
    if !safe(&lo) || !safe(&hi) || x.calls() {
        return None;
    }
    let upper = match (inclusive, hi) {
        (false, hi) => Cond::Cmp(BinOp::Lt, x.clone(), hi),
        (true, Num::Const(c)) => Cond::Cmp(BinOp::Lt, x.clone(), Num::Const(c.checked_add(1)?)),
        // A slot, or a linear form of slots, is far from the largest
        // integer unless slots take any integer; a name may be it.
        (true, hi @ (Num::Slot(_) | Num::Lin(_))) if !wide => Cond::Cmp(BinOp::Le, x.clone(), hi),
        _ => return None,
    };
    let within = Cond::And(Box::new(Cond::Cmp(BinOp::Le, lo, x)), Box::new(upper));
    Some(match yes {
        true => within,
        false => Cond::not(within),
    })
}

/// The truth of `a op b` where `a` and `b` are one linear form (a slot,
/// a constant), which cannot fail while the slots are small: `n - a ==
/// n - a`, the check that a tuple binder over a comprehension, lifted,
/// leaves that its item's part can be made (`normalize/lift.rs`). The
/// caller notes the fold ([`crate::runtime::kernel::Types`]'s `folded`):
/// the rules no longer take parameters of any size.
pub(super) fn itself(op: BinOp, a: &Num, b: &Num) -> Option<bool> {
    let (x, y) = (a.as_lin()?, b.as_lin()?);
    (x == y).then_some(matches!(op, BinOp::Eq | BinOp::Le | BinOp::Ge))
}

/// `a op b` with an extremum on one side split into a comparison of each
/// of its items where every item must pass (`min(..) >= c`, `max(..) <=
/// c`, either way round); the comparison itself otherwise.
pub(super) fn compared(op: BinOp, a: Num, b: Num) -> Cond {
    use BinOp::{Ge, Gt, Le, Lt};
    // The extremum on the left, the operator turned where it was on the
    // right.
    let (op, ext, other, left) = match (&a, &b, op) {
        (Num::Extremum(..), _, _) => (op, a, b, true),
        (_, Num::Extremum(..), Le) => (Ge, b, a, false),
        (_, Num::Extremum(..), Lt) => (Gt, b, a, false),
        (_, Num::Extremum(..), Ge) => (Le, b, a, false),
        (_, Num::Extremum(..), Gt) => (Lt, b, a, false),
        _ => return Cond::Cmp(op, a, b),
    };
    let Num::Extremum(min, items) = &ext else {
        unreachable!("matched above")
    };
    let splits = matches!((min, op), (true, Ge | Gt) | (false, Le | Lt));
    if !splits || items.is_empty() || !items.iter().all(safe) || other.calls() {
        return match left {
            true => Cond::Cmp(op, ext, other),
            false => Cond::Cmp(turned(op), other, ext),
        };
    }
    // Each item against the other side, in the items' order, the other
    // side evaluated first as the comparison would after the extremum
    // (it cannot fail by what the items are).
    let each = |item: &Num| match left {
        true => Cond::Cmp(op, item.clone(), other.clone()),
        false => Cond::Cmp(turned(op), other.clone(), item.clone()),
    };
    let mut parts = items.iter().map(each);
    let first = parts.next().expect("not empty");
    parts.fold(first, |acc, c| Cond::And(Box::new(acc), Box::new(c)))
}

/// `op` with its operands swapped: `a < b` is `b > a`.
fn turned(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Gt => BinOp::Lt,
        BinOp::Le => BinOp::Ge,
        BinOp::Ge => BinOp::Le,
        op => op,
    }
}

/// Whether evaluating `n` cannot fail: a constant, a slot, a name, or a
/// linear form (exact: see [`super::Lin`]).
pub(in crate::runtime::kernel) fn safe(n: &Num) -> bool {
    matches!(
        n,
        Num::Const(_) | Num::Slot(_) | Num::Named(_) | Num::Lin(_)
    )
}

/// Pushes `c` on `out`, split at its `and`s: a condition spelled as
/// several comparisons (`x in 1..=n`, `min(a, b) >= 1`: see
/// `spelled.rs`) gives each as a conjunct, which bounds a loop or a board
/// as one written so would.
pub(super) fn push_split(out: &mut Vec<Cond>, c: Cond) {
    match c {
        Cond::And(a, b) => {
            push_split(out, *a);
            push_split(out, *b);
        }
        c => out.push(c),
    }
}

/// The bounds of a range of integers written `lo..hi` or `lo..=hi` (the
/// flag), or a constant one.
pub(super) fn range(xs: &Ir, t: &Types) -> Option<(Num, Num, bool)> {
    match &xs.kind {
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => Some((
            super::compile::num_in(lo, t)?,
            super::compile::num_in(hi, t)?,
            *op == BinOp::RangeIncl,
        )),
        IrKind::Const(Value::Range(lo, hi)) => Some((Num::Const(*lo), Num::Const(*hi), false)),
        _ => None,
    }
}
