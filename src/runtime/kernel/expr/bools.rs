//! Booleans as numbers, 0 or 1: a condition's value where a position
//! or a list of booleans holds it, and a boolean looked for in a list of
//! them.

use super::compile::{cond_in, member, num_in};
use super::{Cond, Num};
use crate::ir::{Ir, IrKind};
use crate::runtime::kernel::seq::Types;
use crate::value::Value;

/// The boolean `ir` (see [`Types::makes_bool`]) as a number, 1 for
/// true and 0 for false, as a boolean parameter holds it: a position's
/// argument (`g(n - 1, not first)`).
pub fn bool_in(ir: &Ir, t: &Types) -> Option<Num> {
    let one = |c: Cond| {
        Num::If(
            Box::new(c),
            Box::new(Num::Const(1)),
            Box::new(Num::Const(0)),
        )
    };
    // An item of a list of booleans, 0 or 1.
    if let IrKind::Index(xs, i) = &ir.kind
        && let Some(xs) = t.bools_of(xs)
    {
        return Some(Num::Index(Box::new(xs), Box::new(num_in(i, t)?)));
    }
    Some(match &ir.kind {
        IrKind::Const(Value::Bool(b)) => Num::Const(i64::from(*b)),
        IrKind::Local(s) if t.is_bool(*s) => Num::Slot(*s),
        IrKind::If(c, a, b) => Num::If(
            Box::new(cond_in(c, t)?),
            Box::new(bool_in(a, t)?),
            Box::new(bool_in(b, t)?),
        ),
        _ if t.makes_bool(ir) => one(cond_in(ir, t)?),
        _ => return None,
    })
}

/// `x in cs` (or `not in`, when `!yes`) of a boolean `x` and a list of
/// booleans `cs`.
pub(super) fn bool_member(yes: bool, x: &Ir, xs: &Ir, t: &Types) -> Option<Cond> {
    t.makes_bool(x).then_some(())?;
    let xs = t.bools_of(xs)?;
    Some(member(yes, bool_in(x, t)?, xs, t))
}
