//! Which parameters of a game hold booleans (`game g(n, first)`): those
//! its rules read as conditions (`if first`, `not first`, `first or k <
//! 3`) and those its own moves pass a condition (`g(n - 1, not first)`,
//! `g(n, k == 2)`, or a boolean parameter). A condition must be `true`
//! or `false`, nothing else counts as one, so a parameter read as one
//! holds a boolean or the rules fail there (which the interpreter
//! reports: a position whose run says otherwise is no kernel's). The
//! compiled rules hold a boolean as 0 or 1, a flat run too
//! ([`crate::graph::flat::is_bool`]).

use super::Types;
use crate::graph::flat::BOOLS_MAX;
use crate::ir::{GameIr, Ir, IrKind, Slot};
use crate::runtime::normalize::each_child;
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;

impl Types {
    /// Whether `slot` holds a boolean (see the module).
    pub fn is_bool(&self, slot: Slot) -> bool {
        self.bools.contains(&slot)
    }

    /// Whether `ir` makes a boolean, as far as its form says (see
    /// `types/bools.rs`).
    pub fn makes_bool(&self, ir: &Ir) -> bool {
        boolean(ir, &self.bools)
    }

    /// The bits of a flat run's header that say which parameters hold
    /// booleans ([`crate::graph::flat::bool_bit`]).
    pub fn bool_bits(&self) -> i64 {
        (self.bools.iter()).fold(0, |h, s| h | crate::graph::flat::bool_bit(*s as usize))
    }
}

/// The parameters of `game` (id `id`) that hold booleans, among the
/// first [`BOOLS_MAX`] (a flat run marks no others) and those `ints` (the
/// parameters not used as collections).
pub(super) fn params(game: &GameIr, own: &[&[Ir]], ints: impl Fn(Slot) -> bool) -> Vec<Slot> {
    let mut out = Vec::new();
    for rule in &game.moves {
        if let Some(guard) = &rule.guard {
            condition(guard, &mut out);
        }
        rule.exprs().for_each(|e| conditions(e, &mut out));
    }
    // Passed a condition, or a parameter found to hold one.
    for _ in 0..=game.arity {
        let before = out.len();
        for args in own {
            for (i, a) in args.iter().enumerate().take(game.arity) {
                if boolean(a, &out) && !out.contains(&(i as Slot)) {
                    out.push(i as Slot);
                }
            }
        }
        if out.len() == before {
            break;
        }
    }
    out.retain(|s| (*s as usize) < game.arity.min(BOOLS_MAX) && ints(*s));
    out.sort_unstable();
    out.dedup();
    out
}

/// Pushes on `out` the local `ir` is, read as a condition.
fn condition(ir: &Ir, out: &mut Vec<Slot>) {
    if let IrKind::Local(s) = ir.kind
        && !out.contains(&s)
    {
        out.push(s);
    }
}

/// Pushes on `out` each local `ir` reads as a condition: an operand of
/// `not`, `and` or `or`, or the test of an `if`.
fn conditions(ir: &Ir, out: &mut Vec<Slot>) {
    match &ir.kind {
        IrKind::Unary(UnOp::Not, a) => condition(a, out),
        IrKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            condition(a, out);
            condition(b, out);
        }
        IrKind::If(c, _, _) => condition(c, out),
        _ => {}
    }
    each_child(ir, &mut |c| conditions(c, out));
}

/// Whether `ir` makes a boolean, as far as its form says: `true` or
/// `false`, a comparison, `not`, `and`, `or`, `in`, a local of `bools`,
/// or an `if` of two such.
fn boolean(ir: &Ir, bools: &[Slot]) -> bool {
    match &ir.kind {
        IrKind::Const(Value::Bool(_)) | IrKind::Unary(UnOp::Not, _) | IrKind::Chain(..) => true,
        IrKind::Binary(op, _, _) => {
            !op.is_arithmetic() && !matches!(op, BinOp::Range | BinOp::RangeIncl)
        }
        IrKind::Local(s) => bools.contains(s),
        IrKind::If(_, a, b) => boolean(a, bools) && boolean(b, bools),
        _ => false,
    }
}
