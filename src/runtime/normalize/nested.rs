//! Nested tuple patterns in binders taken apart. A binder such as
//!
//! ```text
//! (r, (w, b)) in enumerate(rows)
//! ```
//!
//! binds a tuple inside a tuple, which the compiled rules do not loop
//! over. Taken apart, it is `(r, t) in enumerate(rows), (w, b) in [t]`,
//! with `t` a slot of its own past the frame: the same options in the
//! same order, each inner tuple bound from its one value (as a target's
//! `let (w, b) = t` is), which the compiled rules take.

use crate::ir::{Ir, IrKind, MoveIr, PatIr, Slot};
use std::cell::Cell;

/// `rule` with each nested tuple pattern of its binders taken apart (see
/// the module's doc); `None` where no binder has one.
pub(super) fn binders(rule: &MoveIr, slots: &Cell<usize>) -> Option<MoveIr> {
    let nested = |p: &PatIr| match p {
        PatIr::Tuple(parts, _) => parts.iter().any(|q| matches!(q, PatIr::Tuple(..))),
        _ => false,
    };
    rule.binders.iter().any(|(p, _)| nested(p)).then_some(())?;
    let mut binders = Vec::new();
    for (pattern, domain) in &rule.binders {
        apart(pattern, domain.clone(), slots, &mut binders);
    }
    Some(MoveIr {
        binders,
        ..rule.clone()
    })
}

/// Pushes `pattern in domain` onto `out`, each tuple nested in it bound
/// by a binder of its own right after it.
fn apart(pattern: &PatIr, domain: Ir, slots: &Cell<usize>, out: &mut Vec<(PatIr, Ir)>) {
    let PatIr::Tuple(parts, span) = pattern else {
        out.push((pattern.clone(), domain));
        return;
    };
    let mut inner = Vec::new();
    let parts = (parts.iter())
        .map(|part| match part {
            PatIr::Tuple(_, span) => {
                let slot = slots.get() as Slot;
                slots.set(slots.get() + 1);
                let one = Ir {
                    kind: IrKind::List(vec![Ir {
                        kind: IrKind::Local(slot),
                        span: *span,
                    }]),
                    span: *span,
                };
                inner.push((part, one));
                PatIr::Slot(slot)
            }
            _ => part.clone(),
        })
        .collect();
    out.push((PatIr::Tuple(parts, *span), domain));
    for (part, one) in inner {
        apart(part, one, slots, out);
    }
}
