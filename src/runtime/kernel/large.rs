//! Binders over constants past the slots' limit (`p in [1, 2, 1 << 40]`):
//! the compiled rules take slots below [`SLOT_LIMIT`] in magnitude, so
//! such items are dropped where the guard's leading comparisons rule them
//! out, and the rules are left to the interpreter where they do not.

use super::Domain;
use super::expr::{Cond, Lin, Num, SLOT_LIMIT};
use crate::ir::Slot;
use crate::syntax::ast::BinOp;

/// The binders, where each over constants past the slots' limit
/// (`p in [1, 2, 1 << 40]`) keeps only the items that can pass the guard's
/// first conditions: with every slot below the limit, `p <= n` rules out
/// `1 << 40`, and a condition of linear forms cannot fail. `None` when
/// some stay (the interpreter runs such rules), or in a twin for wide
/// parameters, where no slot is bounded.
pub(super) fn small_domains(
    mut binders: Vec<(Slot, Domain)>,
    guard: &[Cond],
    wide: bool,
) -> Option<Vec<(Slot, Domain)>> {
    for i in 0..binders.len() {
        let (x, Domain::Fixed(values)) = &binders[i] else {
            continue;
        };
        if values.small() {
            continue;
        }
        // Later binders' domains are made before the guard is tried.
        let later = binders[i + 1..].iter().all(|(_, d)| constant(d));
        (!wide && later).then_some(())?;
        let (lo, hi) = window(guard, *x);
        let kept = values.kept(lo, hi)?;
        kept.small().then_some(())?;
        binders[i].1 = Domain::Fixed(kept);
    }
    Some(binders)
}

/// Whether a domain reads no slot.
fn constant(d: &Domain) -> bool {
    match d {
        Domain::Fixed(_) | Domain::Global(_) => true,
        Domain::Range(lo, hi, _) => matches!((lo, hi), (Num::Const(_), Num::Const(_))),
        _ => false,
    }
}

/// The values of `x` that can pass the guard's first conditions, as far
/// as they compare linear forms (which cannot fail), with every other
/// slot below [`SLOT_LIMIT`] in magnitude.
fn window(guard: &[Cond], x: Slot) -> (i64, i64) {
    let mut window = (i64::MIN, i64::MAX);
    for c in guard {
        let Cond::Cmp(op, a, b) = c else { break };
        // `a - b`, as `k * x + rest`.
        let Some(diff) = Lin::of(&Num::Bin(
            BinOp::Sub,
            Box::new(a.clone()),
            Box::new(b.clone()),
        )) else {
            break;
        };
        let k = diff.coef(x);
        let rest = diff.terms.iter().filter(|(s, _)| *s != x);
        let reach = rest.fold(diff.c.unsigned_abs() as i64, |w, (_, coef)| {
            w + coef.abs() * (SLOT_LIMIT - 1)
        });
        // `k * x + rest` compared with 0, where `|rest| <= reach`.
        let most = reach / k.abs().max(1);
        let (lo, hi) = match (op, k.signum()) {
            (_, 0) | (BinOp::Ne, _) => continue,
            (BinOp::Eq, _) => (-most, most),
            (BinOp::Lt | BinOp::Le, 1) | (BinOp::Gt | BinOp::Ge, -1) => (i64::MIN, most),
            (BinOp::Gt | BinOp::Ge, 1) | (BinOp::Lt | BinOp::Le, -1) => (-most, i64::MAX),
            _ => break,
        };
        window = (window.0.max(lo), window.1.min(hi));
    }
    window
}
