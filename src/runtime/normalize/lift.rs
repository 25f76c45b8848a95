//! Binders over comprehensions lifted into the move. A rule such as
//!
//! ```text
//! move take((p, q) in [(a, n / a) for a in 1..=n if n % a == 0]) -> g(n - p)
//! ```
//!
//! builds a list of tuples per position, which the compiled rules do not
//! hold. Lifted, the comprehension's loops are the move's binders, its
//! conditions the guard's first conjuncts, and its items' parts stand in
//! place of `p` and `q`: the same options, with no list made. The
//! comprehension's names get slots of their own past the frame, for the
//! slots it had are reused by what follows it.

use super::{binds_locals, map_move, put};
use crate::ir::{ClauseIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `rule` with every tuple binder over a comprehension of tuples lifted,
/// its new slots counted from `*slots` on; `None` when it has none.
pub(super) fn comprehensions(rule: &MoveIr, slots: &mut usize, in_order: bool) -> Option<MoveIr> {
    let mut rule = lift_one(rule, slots, in_order)?;
    while let Some(next) = lift_one(&rule, slots, in_order) {
        rule = next;
    }
    Some(rule)
}

/// The parts of a tuple binder over a comprehension of tuples as wide,
/// or of a binder of one name over a list comprehension (`k in [x for x
/// in S if x <= n]`): the binder's slots, the items' parts and the
/// comprehension's clauses, when nothing in them binds names of its own.
///
/// The lifted rules must meet every error the comprehension would (an
/// error leaves the position to the interpreter, which runs the rules as
/// written): each item's parts are evaluated where the comprehension
/// made the item (see [`lift_one`]), and a condition before a loop is
/// lifted only when that loop runs at least once, over constants.
fn liftable(pattern: &PatIr, domain: &Ir, in_order: bool) -> Option<Lifted> {
    let IrKind::Comprehension { elem, clauses, set } = &domain.kind else {
        return None;
    };
    // A set's items are in another order, each once: the options its
    // loops make, some of them twice, have the same values, but only
    // where the moves are not listed.
    if *set && in_order {
        return None;
    }
    // A set of one name's items filtered, `{k for k in D if ...}`, holds
    // at most what its loop makes; one of other items may keep a few of
    // many (`{j % 4 + 1 for j in 0..500}`), which lifted would each be
    // an option (30 times slower).
    let filtered = match clauses.first() {
        Some(ClauseIr::For(PatIr::Slot(x), _)) => {
            matches!(elem.kind, IrKind::Local(e) if e == *x)
                && clauses[1..].iter().all(|c| matches!(c, ClauseIr::If(_)))
        }
        _ => false,
    };
    let (names, items) = match (pattern, &elem.kind) {
        // A set of positions is made by the interpreter, each hashed:
        // lifted, a position made twice costs a read of its value.
        (PatIr::Slot(s), _) if !*set || filtered || is_position(elem) => {
            (vec![*s], std::slice::from_ref(&**elem))
        }
        (PatIr::Tuple(..), IrKind::Tuple(items)) => (pattern.tuple_slots()?, items.as_slice()),
        _ => return None,
    };
    let simple = clauses.iter().all(|c| match c {
        ClauseIr::For(PatIr::Slot(_), d) => !binds_locals(d),
        // `for (dx, dy) in J`: a tuple of names, taken apart as a
        // binder's pattern takes it.
        ClauseIr::For(p @ PatIr::Tuple(..), d) => p.tuple_slots().is_some() && !binds_locals(d),
        ClauseIr::For(..) => false,
        ClauseIr::If(c) => !binds_locals(c),
    });
    let first_if = clauses.iter().position(|c| matches!(c, ClauseIr::If(_)));
    let runs = first_if.is_none_or(|at| {
        clauses[at..].iter().all(|c| match c {
            ClauseIr::For(_, d) => runs_over_constants(d),
            ClauseIr::If(_) => true,
        })
    });
    (items.len() == names.len() && simple && runs && !items.iter().any(binds_locals))
        .then(|| (names, items.to_vec(), clauses.clone(), *set))
}

/// A comprehension's binder's slots, the items' parts, its clauses, and
/// whether it makes a set.
type Lifted = (Vec<Slot>, Vec<Ir>, Vec<ClauseIr>, bool);

/// Whether `domain` is a range between constants, or a list of items
/// written, that is not empty.
fn runs_over_constants(domain: &Ir) -> bool {
    let int = |e: &Ir| match e.kind {
        IrKind::Const(Value::Int(n)) => Some(n),
        _ => None,
    };
    match &domain.kind {
        IrKind::Binary(BinOp::Range, lo, hi) => int(lo).zip(int(hi)).is_some_and(|(a, b)| a < b),
        IrKind::Binary(BinOp::RangeIncl, lo, hi) => {
            int(lo).zip(int(hi)).is_some_and(|(a, b)| a <= b)
        }
        IrKind::List(items) => !items.is_empty(),
        _ => false,
    }
}

fn lift_one(rule: &MoveIr, slots: &mut usize, in_order: bool) -> Option<MoveIr> {
    let (i, (names, items, clauses, set)) = (rule.binders.iter().enumerate())
        .find_map(|(i, (p, d))| Some((i, liftable(p, d, in_order)?)))?;
    // Each loop's name moves to a slot of its own.
    let mut moved: Vec<(Slot, Ir)> = Vec::new();
    let renamed = |e: &Ir, moved: &[(Slot, Ir)]| {
        put(e, &|s| {
            moved
                .iter()
                .find(|(from, _)| *from == s)
                .map(|(_, to)| to.clone())
        })
    };
    let mut binders = rule.binders[..i].to_vec();
    let mut conditions = Vec::new();
    for clause in &clauses {
        match clause {
            ClauseIr::For(pattern, d) => {
                let domain = renamed(d, &moved);
                let names = match pattern {
                    PatIr::Slot(s) => vec![*s],
                    _ => pattern.tuple_slots().expect("`liftable` takes names only"),
                };
                let mut fresh = Vec::new();
                for s in names {
                    let to = *slots as Slot;
                    *slots += 1;
                    let local = Ir {
                        kind: IrKind::Local(to),
                        span: d.span,
                    };
                    moved.push((s, local));
                    fresh.push(PatIr::Slot(to));
                }
                let pattern = match pattern {
                    PatIr::Tuple(_, span) => PatIr::Tuple(fresh, *span),
                    _ => fresh.remove(0),
                };
                binders.push((pattern, domain));
            }
            ClauseIr::If(c) => conditions.push(renamed(c, &moved)),
        }
    }
    // Then each part of the item that could fail, evaluated where the
    // comprehension made it (`p == p` holds), whatever the guard does
    // with it after.
    let items: Vec<Ir> = items.iter().map(|e| renamed(e, &moved)).collect();
    items.iter().for_each(|part| checks(part, &mut conditions));
    let at = binders.len();
    binders.extend(rule.binders[i + 1..].iter().cloned());
    // The conditions first, in their order.
    let guard = (conditions.into_iter().rev()).fold(rule.guard.clone(), |g, c| {
        Some(match g {
            None => c,
            Some(g) => Ir {
                span: c.span,
                kind: IrKind::Binary(BinOp::And, Box::new(c), Box::new(g)),
            },
        })
    });
    // The loops have no names of their own in the rules: `--explain`
    // names one by the part of the tuple that is its value (`p` of
    // `(p, q) in [(a, n / a) for a ...]`), else by the whole tuple.
    let shown_as = |s: &Slot| {
        rule.shown
            .iter()
            .find(|(_, n)| n == s)
            .map(|(name, _)| name.clone())
    };
    let mut shown = rule.shown.clone();
    if let Some(tuple) = names.iter().map(shown_as).collect::<Option<Vec<_>>>() {
        for (_, to) in &moved {
            let IrKind::Local(fresh) = to.kind else {
                continue;
            };
            let part = items
                .iter()
                .position(|e| matches!(e.kind, IrKind::Local(s) if s == fresh));
            let name = match part {
                Some(k) => tuple[k].clone(),
                None if tuple.len() == 1 => tuple[0].clone(),
                None => format!("({})", tuple.join(", ")).into(),
            };
            shown.push((name, fresh));
        }
    }
    let lifted = MoveIr {
        binders,
        guard,
        shown,
        // A set's options in another order: not named as written.
        named: rule.named.clone().filter(|_| !set),
        ..rule.clone()
    };
    let bind = |s: Slot| names.iter().position(|n| *n == s).map(|k| items[k].clone());
    Some(map_move(&lifted, at, &mut |e| put(e, &bind)))
}

/// Pushes on `conditions` the tests that evaluate what of `part` could
/// fail, `e == e` (which holds): of a position (`lk(n - k)`, `lk(a) +
/// lk(n - a)`), which the compiled rules make only as a target, each
/// argument; of anything else but a name or a constant, the whole.
fn checks(part: &Ir, conditions: &mut Vec<Ir>) {
    match &part.kind {
        IrKind::Local(_) | IrKind::Const(_) => {}
        IrKind::Apply(_, args) => args.iter().for_each(|a| checks(a, conditions)),
        IrKind::Binary(BinOp::Add, a, b) if is_position(a) && is_position(b) => {
            checks(a, conditions);
            checks(b, conditions);
        }
        _ => {
            let same = IrKind::Binary(BinOp::Eq, Box::new(part.clone()), Box::new(part.clone()));
            conditions.push(Ir {
                kind: same,
                span: part.span,
            });
        }
    }
}

/// Whether `ir` is a game applied to arguments, or a sum of such.
pub(super) fn is_position(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Apply(..) => true,
        IrKind::Binary(BinOp::Add, a, b) => is_position(a) && is_position(b),
        _ => false,
    }
}
