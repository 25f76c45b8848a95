//! A binder over a short range of constants whose guard tests it alone,
//!
//! ```text
//! fn ok(k) = k % 4 == 1 or k % 4 == 2
//! move take(k in 1..=min(n, 30)) if ok(k) -> s(n - k)
//! ```
//!
//! (the cap made `k in 1..=30 if k <= n and ...` by `member::capped`,
//! the helper inlined), runs over the values the test keeps, `k in [1,
//! 2, 5, 6, ...] if k <= n`: the test is worked out for each value once,
//! as the rules are normalised, instead of at every position (2.3 times
//! slower than the list written out, which the rules unroll or sweep).
//! The options are the same, in the same order. A test is removed from
//! the guard only where it is a constant at every value (it cannot fail
//! there), and only while the conjuncts before it left in the guard
//! cannot fail either (`k <= n`), as they are passed over for the values
//! it drops.

use super::choices::plain_test;
use super::either::{flatten, join};
use super::fold::fold;
use super::walk::{any_node, map_children, put};
use crate::ir::{Ir, IrKind, MoveIr, PatIr};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// The most values of a range a test is worked out at.
const MOST: i64 = 4096;
/// Up to this many kept values are written out as a list (which the
/// rules unroll); past it, one constant list.
const WRITTEN: usize = 64;

/// `rule` with its innermost binder over a range of constants run over
/// the values its guard's tests of it alone keep (see the module); `None`
/// when it does not have that shape.
pub(super) fn binder(rule: &MoveIr) -> Option<MoveIr> {
    let (PatIr::Slot(k), domain) = rule.binders.last()? else {
        return None;
    };
    let (lo, hi) = constant_range(domain)?;
    if hi.saturating_sub(lo) > MOST {
        return None;
    }
    let mut conjuncts = Vec::new();
    flatten(rule.guard.as_ref()?, &mut conjuncts);
    // A test of `k` alone reads no other name but those its own
    // comprehensions bind (`all([k % d != 0 for d in 2..k])`).
    let alone = |c: &Ir| {
        let inner = bound_inside(c);
        any_node(c, &|e| matches!(e.kind, IrKind::Local(s) if s == *k))
            && !any_node(
                c,
                &|e| matches!(e.kind, IrKind::Local(s) if s != *k && !inner.contains(&s)),
            )
    };
    // Each conjunct of `k` alone that is a constant at every value left,
    // while those before it left in the guard cannot fail.
    let mut kept: Vec<i64> = (lo..hi).collect();
    let mut left = Vec::new();
    let mut sifted = false;
    for (i, c) in conjuncts.iter().enumerate() {
        match alone(c).then(|| holds(c, *k, &kept, domain.span)).flatten() {
            Some(holds) => {
                kept = kept
                    .into_iter()
                    .zip(holds)
                    .filter(|(_, h)| *h)
                    .map(|(v, _)| v)
                    .collect();
                sifted = true;
            }
            None if plain_test(c) => left.push(c.clone()),
            None => {
                left.extend(conjuncts[i..].iter().cloned());
                break;
            }
        }
    }
    if !sifted {
        return None;
    }
    let conjuncts = left;
    let span = domain.span;
    let int = |n: i64| Ir {
        kind: IrKind::Const(Value::Int(n)),
        span,
    };
    let domain = match kept.len() {
        len if len <= WRITTEN => IrKind::List(kept.into_iter().map(int).collect()),
        _ => IrKind::Const(Value::list(kept.into_iter().map(Value::Int).collect())),
    };
    let mut rule = rule.clone();
    rule.binders.last_mut()?.1 = Ir { kind: domain, span };
    rule.guard = (!conjuncts.is_empty()).then(|| join(conjuncts));
    Some(rule)
}

/// Whether `test` holds at each of `values` of `k`, where it is a
/// constant at every one (`None` otherwise).
fn holds(
    test: &Ir,
    k: crate::ir::Slot,
    values: &[i64],
    span: crate::span::Span,
) -> Option<Vec<bool>> {
    values
        .iter()
        .map(|v| {
            let value = Ir {
                kind: IrKind::Const(Value::Int(*v)),
                span,
            };
            let budget = std::cell::Cell::new(BUDGET);
            let test = put(test, &|s| (s == k).then(|| value.clone()));
            match deep_fold(&test, &budget).kind {
                IrKind::Const(Value::Bool(b)) => Some(b),
                _ => None,
            }
        })
        .collect()
}

/// The values of a range with constant ends, `lo..hi` or `lo..=hi`, as
/// the half-open `(lo, hi)`.
fn constant_range(range: &Ir) -> Option<(i64, i64)> {
    let IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) = &range.kind else {
        return None;
    };
    let (IrKind::Const(Value::Int(lo)), IrKind::Const(Value::Int(hi))) = (&lo.kind, &hi.kind)
    else {
        return None;
    };
    match op {
        BinOp::RangeIncl => Some((*lo, hi.checked_add(1)?)),
        _ => Some((*lo, *hi)),
    }
}

/// The names the comprehensions of `ir` bind with their `for`s.
fn bound_inside(ir: &Ir) -> Vec<crate::ir::Slot> {
    let bound = std::cell::RefCell::new(Vec::new());
    any_node(ir, &|e| {
        if let IrKind::Comprehension { clauses, .. } = &e.kind {
            for clause in clauses {
                if let crate::ir::ClauseIr::For(PatIr::Slot(s), _) = clause {
                    bound.borrow_mut().push(*s);
                }
            }
        }
        false
    });
    bound.into_inner()
}

/// The most items of comprehensions inside `all` and `any` a test is
/// worked out over at one value.
const BUDGET: usize = 4096;

/// `ir` with every operation on constants folded, from the leaves up,
/// and `all` and `any` of a comprehension over a range of constants
/// whose items all fold (`all([k % d != 0 for d in 2..k])` at each `k`),
/// within `budget` items.
fn deep_fold(ir: &Ir, budget: &std::cell::Cell<usize>) -> Ir {
    let ir = fold(map_children(ir, &mut |c| deep_fold(c, budget)));
    match truth_of(&ir, budget) {
        Some(b) => Ir {
            kind: IrKind::Const(Value::Bool(b)),
            span: ir.span,
        },
        None => ir,
    }
}

/// `all` or `any` of a list comprehension of one `for` over a range of
/// constants, and `if`s, whose every item and test folds to a boolean:
/// its value. The interpreter makes every item first, so one that does
/// not fold (an error left for it to report) leaves it unfolded.
fn truth_of(ir: &Ir, budget: &std::cell::Cell<usize>) -> Option<bool> {
    use crate::builtins::Builtin;
    use crate::ir::ClauseIr;
    let (which, elem, clauses) = ir.truths()?;
    let (ClauseIr::For(PatIr::Slot(d), range), tests) = clauses.split_first()? else {
        return None;
    };
    let (lo, hi) = constant_range(range)?;
    let len = usize::try_from(hi.saturating_sub(lo)).unwrap_or(0);
    budget.set(budget.get().checked_sub(len)?);
    let boolean = |e: &Ir| match e.kind {
        IrKind::Const(Value::Bool(b)) => Some(b),
        _ => None,
    };
    let mut items = Vec::with_capacity(len);
    for v in lo..hi {
        let at = Ir {
            kind: IrKind::Const(Value::Int(v)),
            span: range.span,
        };
        let with = |e: &Ir| deep_fold(&put(e, &|s| (s == *d).then(|| at.clone())), budget);
        let mut kept = true;
        for test in tests {
            let ClauseIr::If(test) = test else {
                return None;
            };
            kept = kept && boolean(&with(test))?;
        }
        if kept {
            items.push(boolean(&with(elem))?);
        }
    }
    Some(match which {
        Builtin::All => items.iter().all(|b| *b),
        _ => items.iter().any(|b| *b),
    })
}
