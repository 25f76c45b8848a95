//! Conditions evaluated over a frame: their truth, their parts, the
//! slots they read, and `not` pushed into a comparison or a membership.

use super::super::Eval;
use super::super::seq;
use super::{Cond, Lin, Num, compare};
use crate::defs::Defs;
use crate::ir::Slot;
use crate::syntax::ast::BinOp;

impl Cond {
    /// `not c`, the negation pushed into a comparison or a membership
    /// where there is one (`not (y % x == 0)` is `y % x != 0`), which
    /// the machine code tests with one instruction rather than a
    /// comparison and a flip. Each keeps what it evaluates, and in
    /// which order.
    pub fn not(c: Cond) -> Cond {
        match c {
            Cond::Const(b) => Cond::Const(!b),
            Cond::Cmp(op, a, b) => match op {
                BinOp::Eq => Cond::Cmp(BinOp::Ne, a, b),
                BinOp::Ne => Cond::Cmp(BinOp::Eq, a, b),
                BinOp::Lt => Cond::Cmp(BinOp::Ge, a, b),
                BinOp::Ge => Cond::Cmp(BinOp::Lt, a, b),
                BinOp::Le => Cond::Cmp(BinOp::Gt, a, b),
                BinOp::Gt => Cond::Cmp(BinOp::Le, a, b),
                op => Cond::Not(Box::new(Cond::Cmp(op, a, b))),
            },
            Cond::Not(a) => *a,
            Cond::In { yes, sorted, x, xs } => Cond::In {
                yes: !yes,
                sorted,
                x,
                xs,
            },
            Cond::Member(yes, x, set) => Cond::Member(!yes, x, set),
            Cond::Same(yes, xs, ys) => Cond::Same(!yes, xs, ys),
            Cond::Less(strict, xs, ys) => Cond::Less(!strict, ys, xs),
            Cond::Within(yes, t, s) => Cond::Within(!yes, t, s),
            c => Cond::Not(Box::new(c)),
        }
    }

    pub fn eval(&self, f: &mut Vec<i64>, defs: &Defs) -> Eval<bool> {
        Ok(match self {
            Cond::Const(b) => *b,
            Cond::Cmp(op, a, b) => compare(*op, a.operand(f, defs)?, b.operand(f, defs)?),
            Cond::And(a, b) => a.eval(f, defs)? && b.eval(f, defs)?,
            Cond::Or(a, b) => a.eval(f, defs)? || b.eval(f, defs)?,
            Cond::Not(a) => !a.eval(f, defs)?,
            Cond::If(c, a, b) => match c.eval(f, defs)? {
                true => a.eval(f, defs)?,
                false => b.eval(f, defs)?,
            },
            Cond::Quant(all, comp) => comp.quantify(*all, f, defs)?,
            Cond::In { yes, sorted, x, xs } => {
                let x = x.eval(f, defs)?;
                seq::contains(x, (xs, *sorted), f, defs)? == *yes
            }
            Cond::Member(yes, x, set) => set.has(x.eval(f, defs)?) == *yes,
            Cond::Same(yes, xs, ys) => seq::same(xs, ys, f, defs)? == *yes,
            Cond::Less(strict, xs, ys) => seq::less(*strict, xs, ys, f, defs)?,
            Cond::Within(yes, t, s) => seq::within(t, s, f, defs)? == *yes,
            Cond::Let(s, value, body) => {
                f[*s as usize] = value.eval(f, defs)?;
                body.eval(f, defs)?
            }
            Cond::Bind(s, value, body) => {
                let mark = f.len();
                let (a, b) = value.eval(f, defs)?;
                f[*s as usize] = seq::encode(a, b);
                let holds = body.eval(f, defs)?;
                f.truncate(mark);
                holds
            }
        })
    }

    /// The integer expressions and conditions right inside, for the
    /// forms made of them alone; `None` for `all`/`any` and `in`, which
    /// hold comprehensions and lists.
    pub fn parts(&self) -> Option<(Vec<&Num>, Vec<&Cond>)> {
        Some(match self {
            Cond::Const(_) => (vec![], vec![]),
            Cond::Cmp(_, a, b) => (vec![a, b], vec![]),
            Cond::And(a, b) | Cond::Or(a, b) => (vec![], vec![&**a, &**b]),
            Cond::Not(a) => (vec![], vec![&**a]),
            Cond::If(c, a, b) => (vec![], vec![&**c, &**a, &**b]),
            Cond::Let(_, a, b) => (vec![&**a], vec![&**b]),
            Cond::Quant(..)
            | Cond::In { .. }
            | Cond::Same(..)
            | Cond::Less(..)
            | Cond::Within(..)
            | Cond::Member(..)
            | Cond::Bind(..) => {
                return None;
            }
        })
    }

    pub fn uses(&self, slot: Slot) -> bool {
        match self {
            Cond::Const(_) => false,
            Cond::Cmp(_, a, b) => a.uses(slot) || b.uses(slot),
            Cond::And(a, b) | Cond::Or(a, b) => a.uses(slot) || b.uses(slot),
            Cond::Not(a) => a.uses(slot),
            Cond::If(c, a, b) => c.uses(slot) || a.uses(slot) || b.uses(slot),
            Cond::Quant(_, comp) => comp.uses_slot(slot),
            Cond::In { x, xs, .. } => x.uses(slot) || xs.uses(slot),
            Cond::Member(_, x, _) => x.uses(slot),
            Cond::Same(_, xs, ys) | Cond::Less(_, xs, ys) | Cond::Within(_, xs, ys) => {
                xs.uses(slot) || ys.uses(slot)
            }
            Cond::Let(_, a, b) => a.uses(slot) || b.uses(slot),
            Cond::Bind(_, a, b) => a.uses(slot) || b.uses(slot),
        }
    }

    /// Whether it can fail only as [`Num::total`] says.
    pub fn total(&self) -> bool {
        match self {
            Cond::Const(_) => true,
            Cond::Cmp(_, a, b) => a.total() && b.total(),
            Cond::And(a, b) | Cond::Or(a, b) => a.total() && b.total(),
            Cond::Not(a) => a.total(),
            Cond::If(c, a, b) => c.total() && a.total() && b.total(),
            Cond::Let(_, a, b) => a.total() && b.total(),
            Cond::Member(_, x, _) => x.total(),
            Cond::Quant(..)
            | Cond::In { .. }
            | Cond::Same(..)
            | Cond::Less(..)
            | Cond::Within(..)
            | Cond::Bind(..) => false,
        }
    }

    /// A comparison of two linear forms, as `a - b  op  0`.
    pub fn as_linear(&self) -> Option<(BinOp, Lin)> {
        match self {
            Cond::Cmp(
                op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
                a,
                b,
            ) => Some((*op, a.as_lin()?.plus(-1, &b.as_lin()?)?)),
            _ => None,
        }
    }
}
