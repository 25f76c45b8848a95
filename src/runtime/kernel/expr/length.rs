//! `len(...)` in the compiled rules: of a constant string, a range (no
//! list made), a range reversed (made by the interpreter, so counted only
//! up to the items a list holds), a comprehension (counted, not made),
//! or any list the rules make.

use super::Num;
use super::{Cond, num_in};
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind};
use crate::runtime::kernel::ITEMS_MAX;
use crate::runtime::kernel::seq::{Comp, Seq, Types};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `len(arg)`, where the compiled rules take it.
pub(super) fn length(arg: &Ir, t: &Types) -> Option<Num> {
    if let IrKind::CallBuiltin(Builtin::Str, xs) = &arg.kind
        && let [x] = xs.as_slice()
        && let Some(count) = num_in(x, t).and_then(places)
    {
        return Some(count);
    }
    Some(match &arg.kind {
        // A constant string's characters, as indexing counts them.
        IrKind::Const(Value::Str(s)) => Num::Const(s.chars().count() as i64),
        // A range's length, with no list made.
        IrKind::Binary(BinOp::Range | BinOp::RangeIncl, ..) | IrKind::Const(Value::Range(..)) => {
            range_len(arg, t)?
        }
        // Of a range reversed, which the interpreter makes, as it does
        // the ranges `zip` is given (`normalize/zip.rs` reads those by
        // index): past the items a list of the compiled rules holds,
        // the interpreter's, which checks `--max-items`.
        IrKind::CallBuiltin(Builtin::Reversed, xs) if xs.len() == 1 => {
            let count = range_len(&xs[0], t)?;
            let over = Cond::Cmp(BinOp::Gt, count.clone(), Num::Const(ITEMS_MAX as i64));
            Num::If(Box::new(over), Box::new(Num::Bail), Box::new(count))
        }
        IrKind::Comprehension {
            set: false,
            elem,
            clauses,
        } if read_only(elem) => {
            // Only how many there are: `len([c for c in s if c ==
            // "X"])` counts characters, whatever the items are.
            let comp = Comp::compile(clauses, Num::Const(0), t)?;
            Num::Len(Box::new(Seq::Comp(Box::new(comp))))
        }
        _ => Num::Len(Box::new(Seq::compile(arg, t)?)),
    })
}

/// `len(str(x))` of an integer `x`, arithmetic of names and constants:
/// its decimal places, one more for a sign, found by comparisons with the
/// powers of 10 (at most six, `x` evaluated again for each, which it
/// costs little and where it fails it does at the first) rather than a
/// string made (the digit game's `p in 0..len(str(n))` left it to the
/// interpreter, 60 times slower). `None` for any other `x`.
fn places(x: Num) -> Option<Num> {
    fn plain(x: &Num) -> bool {
        match x {
            Num::Slot(_) | Num::Named(_) | Num::Lin(_) | Num::Const(_) | Num::Global(_) => true,
            Num::Neg(a) | Num::Abs(a) => plain(a),
            Num::Bin(_, a, b) => plain(a) && plain(b),
            _ => false,
        }
    }
    if !plain(&x) {
        return None;
    }
    // 10, 100, ..., 10¹⁸; and their negations, for `-10` and below.
    let powers: Vec<i64> = (1..=18).map(|k| 10i64.pow(k)).collect();
    let negative: Vec<i64> = powers.iter().map(|p| -p).collect();
    let below = Cond::Cmp(BinOp::Lt, x.clone(), Num::Const(0));
    Some(Num::If(
        Box::new(below),
        Box::new(passed(&x, &negative, 2, false)),
        Box::new(passed(&x, &powers, 1, true)),
    ))
}

/// `base` and the number of the thresholds `ts` that `x` reaches (`x >=
/// t` where `up`, else `x <= t`), which it reaches from the first on: a
/// search halving them, at most five comparisons for 18.
fn passed(x: &Num, ts: &[i64], base: i64, up: bool) -> Num {
    if ts.is_empty() {
        return Num::Const(base);
    }
    let mid = ts.len() / 2;
    let op = if up { BinOp::Ge } else { BinOp::Le };
    let reaches = Cond::Cmp(op, x.clone(), Num::Const(ts[mid]));
    Num::If(
        Box::new(reaches),
        Box::new(passed(x, &ts[mid + 1..], base + mid as i64 + 1, up)),
        Box::new(passed(x, &ts[..mid], base, up)),
    )
}

/// Whether evaluating `e` only reads a name or a constant, and so never
/// fails: a list of them is counted without being made.
fn read_only(e: &Ir) -> bool {
    matches!(e.kind, IrKind::Local(_) | IrKind::Const(_))
}

/// The length of a range, `max(hi - lo, 0)` (one more for `lo..=hi`),
/// with no list made.
fn range_len(range: &Ir, t: &Types) -> Option<Num> {
    let (lo, hi, inclusive) = match &range.kind {
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => {
            (num_in(lo, t)?, num_in(hi, t)?, *op == BinOp::RangeIncl)
        }
        IrKind::Const(Value::Range(lo, hi)) => {
            return Some(Num::Const(hi.checked_sub(*lo)?.max(0)));
        }
        _ => return None,
    };
    let hi = match inclusive {
        true => Num::Bin(BinOp::Add, Box::new(hi), Box::new(Num::Const(1))),
        false => hi,
    };
    let count = Num::Bin(BinOp::Sub, Box::new(hi), Box::new(lo));
    Some(Num::Extremum(false, vec![count, Num::Const(0)]))
}
