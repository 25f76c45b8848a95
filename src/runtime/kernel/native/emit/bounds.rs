//! A conjunction that bounds one expression by two constants, in any
//! spelling (`1 <= x <= n`, `x >= 0 and x < 8`, `0 < x and 9 > x`), as
//! one unsigned comparison: `x - lo` is at most `hi - lo` exactly when
//! `lo <= x <= hi`, as 64-bit words. A board's `inside(x, y)` is two of
//! them an option, each two compares and branches before.

use super::Emit;
use crate::runtime::kernel::Move;
use crate::runtime::kernel::expr::{Cond, Num};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};

/// What a comparison with a constant says of its other side: a least
/// value or a greatest.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    Least(i64),
    Most(i64),
}

/// The expression `c` compares with a constant, and the bound it puts on
/// it; `None` for any other condition (or a bound past the integers:
/// `x < i64::MIN`).
fn bound(c: &Cond) -> Option<(&Num, Bound)> {
    let Cond::Cmp(op, a, b) = c else { return None };
    let (x, k, op) = match (constant(a), constant(b)) {
        (None, Some(k)) => (a, k, *op),
        // `k op x` is `x op' k`.
        (Some(k), None) => (b, k, flipped(*op)?),
        _ => return None,
    };
    let bound = match op {
        BinOp::Le => Bound::Most(k),
        BinOp::Lt => Bound::Most(k.checked_sub(1)?),
        BinOp::Ge => Bound::Least(k),
        BinOp::Gt => Bound::Least(k.checked_add(1)?),
        _ => return None,
    };
    Some((x, bound))
}

/// `x op k` for `k op x`.
fn flipped(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Le => BinOp::Ge,
        BinOp::Lt => BinOp::Gt,
        BinOp::Ge => BinOp::Le,
        BinOp::Gt => BinOp::Lt,
        _ => return None,
    })
}

/// The integer `n` is, if it is a constant.
fn constant(n: &Num) -> Option<i64> {
    match n {
        Num::Const(k) => Some(*k),
        Num::Lin(l) if l.terms.is_empty() => Some(l.c),
        _ => None,
    }
}

/// Whether `a` and `b` are the same expression of the frame's slots,
/// read with no check that could stop the run: a slot or a linear form
/// (a board's `x + dx`, the binder unrolled).
fn same(a: &Num, b: &Num) -> bool {
    match (a, b) {
        (Num::Slot(x), Num::Slot(y)) | (Num::Named(x), Num::Named(y)) => x == y,
        (Num::Lin(x), Num::Lin(y)) => x == y,
        _ => false,
    }
}

/// The expression `a and b` bounds from both sides, and the bounds
/// `lo..=hi`, where it is such a conjunction.
fn between<'c>(a: &'c Cond, b: &'c Cond) -> Option<(&'c Num, i64, i64)> {
    let ((x, p), (y, q)) = (bound(a)?, bound(b)?);
    if !same(x, y) {
        return None;
    }
    match (p, q) {
        (Bound::Least(lo), Bound::Most(hi)) | (Bound::Most(hi), Bound::Least(lo)) => {
            Some((x, lo, hi))
        }
        _ => None,
    }
}

impl Emit<'_, '_> {
    /// Conjuncts `j` and `j + 1` of `rule`'s guard in one comparison,
    /// where they bound one expression and neither is held (its truth
    /// kept across options: see `Emit::held`): an 8-bit 0 or 1. `None`
    /// where they are to be tested each in turn.
    pub(super) fn bounded_pair(&mut self, rule: &Move, j: usize) -> Option<Value> {
        let free = |e: &Self, i: usize| e.held.get(i).copied().flatten().is_none();
        if !free(self, j) || !free(self, j + 1) {
            return None;
        }
        self.bounded(rule.guard.get(j)?, rule.guard.get(j + 1)?)
    }

    /// `a and b` in one comparison, an 8-bit 0 or 1, where they bound
    /// one expression by constants; `None` where they are to be tested
    /// each in turn.
    pub(super) fn bounded(&mut self, a: &Cond, b: &Cond) -> Option<Value> {
        let (x, lo, hi) = between(a, b)?;
        self.within_bounds(x, (lo, hi))
    }

    /// `lo <= x <= hi` as an 8-bit 0 or 1, in one comparison; `None`
    /// for an empty range (the caller then tests each bound).
    fn within_bounds(&mut self, x: &Num, (lo, hi): (i64, i64)) -> Option<Value> {
        let span = u64::try_from(i128::from(hi) - i128::from(lo)).ok()?;
        let v = self.num(x)?;
        let from_lo = self.b.ins().iadd_imm_s(v, lo.wrapping_neg());
        // The immediate is a word's bits, compared unsigned: a span past
        // `i64::MAX` (from `-M - 1` to 5, say) is as exact as any.
        let span = span.cast_signed();
        let ins = self.b.ins();
        Some(ins.icmp_imm_s(IntCC::UnsignedLessThanOrEqual, from_lo, span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::kernel::expr::Lin;

    fn cmp(op: BinOp, a: Num, b: Num) -> Cond {
        Cond::Cmp(op, a, b)
    }

    fn x_minus_2() -> Num {
        Num::Lin(Lin {
            c: -2,
            terms: vec![(0, 1)],
        })
    }

    #[test]
    fn chains_in_any_spelling_bound_one_expression() {
        let one_le = cmp(BinOp::Le, Num::Const(1), x_minus_2());
        let le_n = cmp(BinOp::Le, x_minus_2(), Num::Const(2000));
        assert_eq!(
            between(&one_le, &le_n).map(|(_, l, h)| (l, h)),
            Some((1, 2000))
        );
        assert_eq!(
            between(&le_n, &one_le).map(|(_, l, h)| (l, h)),
            Some((1, 2000))
        );
        // `x > 0 and 9 > x`: 1..=8.
        let gt0 = cmp(BinOp::Gt, Num::Slot(3), Num::Const(0));
        let lt9 = cmp(BinOp::Gt, Num::Const(9), Num::Slot(3));
        assert_eq!(between(&gt0, &lt9).map(|(_, l, h)| (l, h)), Some((1, 8)));
    }

    #[test]
    fn other_conjunctions_are_left_as_they_are() {
        let ge1 = cmp(BinOp::Ge, Num::Slot(0), Num::Const(1));
        let other = cmp(BinOp::Le, Num::Slot(1), Num::Const(9));
        let both_least = cmp(BinOp::Gt, Num::Slot(0), Num::Const(5));
        let not_bound = cmp(BinOp::Ne, Num::Slot(0), Num::Const(9));
        assert!(between(&ge1, &other).is_none(), "another slot");
        assert!(between(&ge1, &both_least).is_none(), "two least values");
        assert!(between(&ge1, &not_bound).is_none(), "not a bound");
        // Past the integers: `x < i64::MIN` bounds nothing.
        let past = cmp(BinOp::Lt, Num::Slot(0), Num::Const(i64::MIN));
        assert!(between(&ge1, &past).is_none());
    }
}
