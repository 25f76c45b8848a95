//! Binders unrolled over constant items: one move per item, the item's
//! numbers put in place of the binder's names.
//!
//! - A tuple binder, `(dx, dy) in [(-2, 1), (1, -2)]`: the compiled rules
//!   loop over integers, not over tuples.
//! - A binder of one name over a few constant integers that divides,
//!   `d in {2, 3, 6}` with `n / d` or `n % d`: a division by a constant
//!   is a multiply by its reciprocal in machine code, a division by a
//!   name the slowest instruction there is.

use super::{Normalizer, any_node, map_move, put};
use crate::defs::Defs;
use crate::ir::{Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// The most items a tuple binder is unrolled over, and the most moves a
/// game's rules may grow to by unrolling.
const UNROLL_ITEMS: usize = 64;
pub(super) const UNROLL_MOVES: usize = 256;
/// The most items a binder of one name that divides is unrolled over.
const DIVISOR_ITEMS: usize = 8;

impl Normalizer<'_> {
    /// Unrolls the binders of `rule` from binder `from` on (see the
    /// module's doc), pushing the moves it becomes on `out`.
    pub(super) fn unroll(&self, rule: MoveIr, from: usize, out: &mut Vec<MoveIr>) {
        let found = rule
            .binders
            .iter()
            .enumerate()
            .skip(from)
            .find_map(|(i, (p, d))| self.unrolled(&rule, i, p, d));
        let Some((i, slots, items)) = found else {
            out.push(rule);
            return;
        };
        if out.len() + items.len() > UNROLL_MOVES {
            out.push(rule);
            return;
        }
        for item in items {
            let bind = |slot: Slot| {
                let k = slots.iter().position(|s| *s == slot)?;
                Some(Ir {
                    kind: IrKind::Const(item[k].clone()),
                    span: rule.span,
                })
            };
            let mut copy = rule.clone();
            copy.binders.remove(i);
            let copy = map_move(&copy, i, &mut |e| self.expr(&put(e, &bind), 0));
            self.unroll(copy, i, out);
        }
    }

    /// The slots binder `i` (`pattern in domain`) binds and the items it
    /// is unrolled over, if it is.
    fn unrolled(
        &self,
        rule: &MoveIr,
        i: usize,
        pattern: &PatIr,
        domain: &Ir,
    ) -> Option<(usize, Vec<Slot>, Vec<Vec<Value>>)> {
        match pattern {
            PatIr::Tuple(..) => {
                let slots = pattern.tuple_slots()?;
                let items = constant_items(domain, self.defs, slots.len())?;
                (items.len() <= UNROLL_ITEMS).then_some((i, slots, items))
            }
            PatIr::Slot(s) if divides(rule, i, *s) => {
                let items = constant_ints(domain, self.defs)?;
                let items: Vec<Vec<Value>> = items.into_iter().map(|n| vec![n]).collect();
                Some((i, vec![*s], items)).filter(|(_, _, v)| v.len() <= DIVISOR_ITEMS)
            }
            _ => None,
        }
    }
}

/// Whether `slot`, bound by binder `i` of `rule`, divides anywhere after
/// it: `x / slot` or `x % slot`.
fn divides(rule: &MoveIr, i: usize, slot: Slot) -> bool {
    let by_slot = |ir: &Ir| match &ir.kind {
        IrKind::Binary(BinOp::Div | BinOp::Rem, _, by) => {
            matches!(by.kind, IrKind::Local(s) if s == slot)
        }
        _ => false,
    };
    let later = rule.binders[i + 1..].iter().map(|(_, d)| d);
    later
        .chain(&rule.guard)
        .chain(rule.target.exprs())
        .any(|e| any_node(e, &by_slot))
}

/// The items of a constant domain of integers, a list's in its order and
/// a set's in increasing order, as the binder runs over them.
fn constant_ints(domain: &Ir, defs: &Defs) -> Option<Vec<Value>> {
    let value = match &domain.kind {
        IrKind::Const(v) => v.clone(),
        IrKind::Global(id) => defs.lets[*id as usize].value.clone()?,
        IrKind::List(items) => {
            let items = items.iter().map(|item| match &item.kind {
                IrKind::Const(v @ Value::Int(_)) => Some(v.clone()),
                _ => None,
            });
            return items.collect();
        }
        _ => return None,
    };
    let items: Vec<Value> = match &value {
        Value::Set(s) => s.iter().cloned().collect(),
        Value::List(_) | Value::Tuple(_) => value.as_slice()?.to_vec(),
        _ => return None,
    };
    items
        .into_iter()
        .map(|v| matches!(v, Value::Int(_)).then_some(v))
        .collect()
}

/// The items of a constant domain whose items are all tuples or lists of
/// `width` values.
fn constant_items(domain: &Ir, defs: &Defs, width: usize) -> Option<Vec<Vec<Value>>> {
    let value = match &domain.kind {
        IrKind::Const(v) => v.clone(),
        IrKind::Global(id) => defs.lets[*id as usize].value.clone()?,
        IrKind::List(items) | IrKind::Tuple(items) => {
            let rows = items.iter().map(|item| match &item.kind {
                IrKind::Const(v) => Some(v.clone()),
                IrKind::Tuple(parts) | IrKind::List(parts) => {
                    let parts = parts.iter().map(|p| match &p.kind {
                        IrKind::Const(v) => Some(v.clone()),
                        _ => None,
                    });
                    Some(Value::Tuple(parts.collect::<Option<Vec<_>>>()?.into()))
                }
                _ => None,
            });
            Value::list(rows.collect::<Option<_>>()?)
        }
        _ => return None,
    };
    let items: Vec<Value> = match &value {
        Value::Set(s) => s.iter().cloned().collect(),
        v => v.as_slice()?.to_vec(),
    };
    items
        .iter()
        .map(|item| match item.as_slice() {
            Some(parts) if parts.len() == width && !matches!(item, Value::Report(_)) => {
                Some(parts.to_vec())
            }
            _ => None,
        })
        .collect()
}
