//! Binders over constants past the slots' limit (`p in [1, 2, 1 << 40]`):
//! the compiled rules take slots below [`SLOT_LIMIT`] in magnitude, so
//! such items are dropped where the guard's leading comparisons rule them
//! out, and the rules are left to the interpreter where they do not.

use super::Domain;
use super::expr::{Cond, Lin, Num, SLOT_LIMIT};
use crate::ir::Slot;
use crate::syntax::ast::BinOp;

/// The binders, where each over constants past the slots' limit
/// (`p in [1, 2, 1 << 40]`) keeps only the items that cannot pass the
/// guard's first conditions: with every slot below the limit, `p <= n`
/// rules out `1 << 40`. Each item dropped must be one for which those
/// conditions cannot fail either (see [`window`]). `None` when some
/// stay (the interpreter runs such rules), or in a twin for wide
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
        // Later binders' domains are made before the guard is tried, and
        // their values are not known to be small.
        let later: Vec<Slot> = binders[i + 1..].iter().map(|(s, _)| *s).collect();
        let constant = binders[i + 1..].iter().all(|(_, d)| constant(d));
        (!wide && constant).then_some(())?;
        let (lo, hi, safe) = window(guard, *x, &later);
        let out = |v: &i64| *v < lo || hi < *v;
        let dropped = values.items().iter().filter(|v| out(v));
        dropped
            .into_iter()
            .all(|v| v.unsigned_abs() <= safe)
            .then_some(())?;
        let kept = values.kept(lo, hi)?;
        kept.small().then_some(())?;
        binders[i].1 = Domain::Fixed(kept);
    }
    Some(binders)
}

/// Whether a domain reads no slot and cannot fail.
fn constant(d: &Domain) -> bool {
    match d {
        Domain::Fixed(_) => true,
        Domain::Range(lo, hi, _) => matches!((lo, hi), (Num::Const(_), Num::Const(_))),
        _ => false,
    }
}

/// The values of `x` that can pass the guard's first conditions, as far
/// as they compare linear forms of `x`, constants and the slots known to
/// be below [`SLOT_LIMIT`] in magnitude (not those of `later` binders),
/// and how large a value may be for those conditions not to fail: any,
/// where `x` stands alone on its side of each (`p <= n`, `p > -n`), else
/// 2³² (a part of a linear form weighs at most 2³⁰, so none then reaches
/// 2⁶³: `2 * p <= n` overflows at `p = 1 << 62`).
fn window(guard: &[Cond], x: Slot, later: &[Slot]) -> (i64, i64, u64) {
    let mut window = (i64::MIN, i64::MAX, u64::MAX);
    for c in guard {
        let Cond::Cmp(op, a, b) = c else { break };
        if later.iter().any(|s| c.uses(*s)) {
            break;
        }
        // `a - b`, as `k * x + rest`.
        let Some(diff) = Lin::of(&Num::Bin(
            BinOp::Sub,
            Box::new(a.clone()),
            Box::new(b.clone()),
        )) else {
            break;
        };
        let k = diff.coef(x);
        if [a, b].iter().any(|side| side.uses(x) && !bare(side)) {
            window.2 = window.2.min(1 << 32);
        }
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
        window = (window.0.max(lo), window.1.min(hi), window.2);
    }
    window
}

/// Whether `n` is a name alone, which comparing cannot overflow.
fn bare(n: &Num) -> bool {
    match n {
        Num::Slot(_) => true,
        Num::Lin(l) => l.c == 0 && matches!(l.terms[..], [(_, 1)]),
        _ => false,
    }
}
