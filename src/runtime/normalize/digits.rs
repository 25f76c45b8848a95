//! The decimal text of an integer binder compared with a constant
//! string, as a test of the integer:
//!
//! ```text
//! move take(k in 1..=9) if str(k) in "1349" and k <= n -> s(n - k)
//! ```
//!
//! `str(k) in D` holds where the text of `k` is a substring of `D`:
//! where `k` is one of the integers written in `D` (its substrings that
//! are the text of an integer: `-` for a negative one, no leading zero),
//! here `k in {1, 3, 4, 9, 13, 34, 49, 134, 349, 1349}`, a set the
//! compiled rules test (each `str(k)` was made as text for every option:
//! S-Nim so written was 300 times slower). `str(k) in {"1", "3"}` (a
//! constant list or set of strings) is `k in {1, 3}`, `str(k) == "12"`
//! is `k == 12`, and `str(k) == "012"` is `false`. `k` is a binder over
//! a range, an integer, whose text cannot fail. Binders unrolled over
//! the characters of a string (`c in "1349"` with `str(k) == c`) are
//! read so once each copy has its character (`unroll.rs`).
//!
//! `str(d) in str(n)` of a binder `d` over digits and an integer `n`, a
//! digit of `n` found by its text (`move take(d in 1..=9) if str(d) in
//! str(n) -> s(n - d)`), is the same test by arithmetic, one place of
//! `abs(n)` after another while `n` has it (see [`digit_of`]):
//! interpreted, it made two strings for every option (4x the time).

use super::walk::guard_rewritten;
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;
use std::collections::BTreeSet;

/// The longest constant string whose substrings are read as integers.
const TEXT_MAX: usize = 64;

/// `rule` with its guard's comparisons of an integer binder's text with
/// a constant string made tests of the integer; `None` where it has none.
pub(super) fn spelled(rule: &MoveIr) -> Option<MoveIr> {
    let ints: Vec<Slot> = (rule.binders.iter())
        .filter_map(|(p, d)| match (p, &d.kind) {
            (PatIr::Slot(s), IrKind::Binary(BinOp::Range | BinOp::RangeIncl, ..))
            | (PatIr::Slot(s), IrKind::Const(Value::Range(..))) => Some(*s),
            _ => None,
        })
        .collect();
    if ints.is_empty() {
        return None;
    }
    let digits: Vec<Slot> = (rule.binders.iter())
        .filter_map(|(p, d)| match p {
            PatIr::Slot(s) if one_digit(d) => Some(*s),
            _ => None,
        })
        .collect();
    guard_rewritten(rule, &|ir| match &ir.kind {
        IrKind::Binary(op, a, b) => Some(Ir {
            kind: integer_test(*op, a, b, &ints).or_else(|| digit_of(*op, a, b, &digits))?,
            span: ir.span,
        }),
        _ => None,
    })
}

/// Whether `domain` is a range of constants within `0..=9`.
fn one_digit(domain: &Ir) -> bool {
    let int = |e: &Ir| match e.kind {
        IrKind::Const(Value::Int(n)) => Some(n),
        _ => None,
    };
    let (lo, hi) = match &domain.kind {
        IrKind::Binary(BinOp::Range, lo, hi) => (int(lo), int(hi).map(|h| h - 1)),
        IrKind::Binary(BinOp::RangeIncl, lo, hi) => (int(lo), int(hi)),
        IrKind::Const(Value::Range(lo, hi)) => (Some(*lo), Some(*hi - 1)),
        _ => return false,
    };
    lo.zip(hi).is_some_and(|(lo, hi)| lo >= 0 && hi <= 9)
}

/// `str(k) in str(n)` (or `not in`) of a binder `k` over digits, `0..=9`
/// or within it, and an integer `n` that can neither fail nor cost
/// anything to evaluate again: whether `k` is a digit of `n`, tested by
/// arithmetic, `m % 10 == k or (m >= 10 and (m / 10 % 10 == k or (m >=
/// 100 and ...)))` with `m` the magnitude `abs(n)`, one digit a level
/// while `m` has it (the text of a negative `n` is its magnitude's after
/// `-`). Where `n` is not an integer (a string, whose `str` is itself,
/// or a list), `abs` does not compile, and the interpreter runs the rule
/// as written; where it is the least integer, `abs` leaves it to the
/// interpreter too.
fn digit_of(op: BinOp, a: &Ir, b: &Ir, digits: &[Slot]) -> Option<IrKind> {
    if !matches!(op, BinOp::In | BinOp::NotIn) {
        return None;
    }
    let text_of = |e: &Ir| match &e.kind {
        IrKind::CallBuiltin(Builtin::Str, args) if args.len() == 1 => Some(args[0].clone()),
        _ => None,
    };
    let (k, n) = (text_of(a)?, text_of(b)?);
    if !matches!(k.kind, IrKind::Local(s) if digits.contains(&s)) || !super::inline::repeatable(&n)
    {
        return None;
    }
    let span = b.span;
    let at = |kind| Ir { kind, span };
    let int = |v: i64| at(IrKind::Const(Value::Int(v)));
    let bin = |op, x: Ir, y: Ir| at(IrKind::Binary(op, Box::new(x), Box::new(y)));
    let m = at(IrKind::CallBuiltin(Builtin::Abs, vec![n]));
    // From the highest digit an i64 has (10^18) down to the units.
    let mut test: Option<Ir> = None;
    for p in (0..=18).rev() {
        let place = 10i64.pow(p);
        let digit = match p {
            0 => bin(BinOp::Rem, m.clone(), int(10)),
            _ => bin(BinOp::Rem, bin(BinOp::Div, m.clone(), int(place)), int(10)),
        };
        let here = bin(BinOp::Eq, digit, k.clone());
        let this_or_higher = match test {
            Some(higher) => bin(BinOp::Or, here, higher),
            None => here,
        };
        test = Some(match p {
            0 => this_or_higher,
            _ => bin(
                BinOp::And,
                bin(BinOp::Ge, m.clone(), int(place)),
                this_or_higher,
            ),
        });
    }
    let test = test.expect("nineteen places");
    Some(match op {
        BinOp::In => test.kind,
        _ => IrKind::Unary(crate::syntax::ast::UnOp::Not, Box::new(test)),
    })
}

/// `str(k) op "text"` as a test of `k` (see the module).
fn integer_test(op: BinOp, a: &Ir, b: &Ir, ints: &[Slot]) -> Option<IrKind> {
    let IrKind::CallBuiltin(Builtin::Str, args) = &a.kind else {
        return None;
    };
    let [k] = args.as_slice() else {
        return None;
    };
    if !matches!(k.kind, IrKind::Local(s) if ints.contains(&s)) {
        return None;
    }
    let konst = |v| Ir {
        kind: IrKind::Const(v),
        span: b.span,
    };
    let text = match &b.kind {
        IrKind::Const(Value::Str(text)) => text,
        // A constant list or set of strings: the integers written as one.
        IrKind::Const(v @ (Value::List(_) | Value::Set(_)))
            if matches!(op, BinOp::In | BinOp::NotIn) =>
        {
            let items: Vec<&Value> = match v {
                Value::Set(items) => items.iter().collect(),
                _ => v.as_slice()?.iter().collect(),
            };
            let mut set = BTreeSet::new();
            for item in items {
                let Value::Str(t) = item else {
                    return None;
                };
                set.extend(integer(t).map(Value::Int));
            }
            let set = konst(Value::Set(std::rc::Rc::new(set)));
            return Some(IrKind::Binary(op, Box::new(k.clone()), Box::new(set)));
        }
        _ => return None,
    };
    match op {
        BinOp::In | BinOp::NotIn if text.len() <= TEXT_MAX => {
            let set = integers_within(text).into_iter().map(Value::Int).collect();
            let set = konst(Value::Set(std::rc::Rc::new(set)));
            Some(IrKind::Binary(op, Box::new(k.clone()), Box::new(set)))
        }
        BinOp::Eq | BinOp::Ne => Some(match integer(text) {
            Some(n) => IrKind::Binary(op, Box::new(k.clone()), Box::new(konst(Value::Int(n)))),
            None => IrKind::Const(Value::Bool(op == BinOp::Ne)),
        }),
        _ => None,
    }
}

/// The integers whose text is a substring of `text`.
fn integers_within(text: &str) -> BTreeSet<i64> {
    let ends: Vec<usize> = (text.char_indices().map(|(i, _)| i))
        .chain([text.len()])
        .collect();
    let mut out = BTreeSet::new();
    for (i, &from) in ends.iter().enumerate() {
        for &to in &ends[i + 1..] {
            if let Some(n) = integer(&text[from..to]) {
                out.insert(n);
            }
        }
    }
    out
}

/// The integer whose text `s` is exactly, as `str` writes it: digits
/// with no leading zero (or `0`), after `-` for a negative one.
fn integer(s: &str) -> Option<i64> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let plain = !digits.is_empty()
        && digits.bytes().all(|c| c.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && s != "-0";
    plain.then(|| s.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_written_in_a_text() {
        let within = |t| integers_within(t).into_iter().collect::<Vec<_>>();
        assert_eq!(within("1349"), [1, 3, 4, 9, 13, 34, 49, 134, 349, 1349]);
        assert_eq!(within("-05"), [0, 5]);
        assert_eq!(within("-51"), [-51, -5, 1, 5, 51]);
        assert_eq!(within("a1é2"), [1, 2]);
        assert_eq!(within(""), Vec::<i64>::new());
        assert_eq!(integer("012"), None);
        assert_eq!(integer("-0"), None);
        assert_eq!(integer("-12"), Some(-12));
        assert_eq!(integer("99999999999999999999"), None);
    }
}
