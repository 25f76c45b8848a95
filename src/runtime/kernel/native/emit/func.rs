//! A compiled function ([`Func`]: see `kernel/calls.rs`) as a function of
//! its own, which the machine code calls directly, and which calls
//! itself. Only bodies of integers and conditions are compiled so (no
//! lists, whose arena the caller is using, and no global read when run):
//! any other function is run by the `call` helper.

use super::{Emit, trusted};
use crate::runtime::kernel::calls::Func;
use crate::runtime::kernel::expr::{Cond, Num};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};
use std::mem::offset_of;

/// How deep the machine code's calls of functions nest before they bail
/// (then the kernel's run, which goes deeper, takes the position).
const DEPTH_MAX: i64 = 2_000;

/// How deep calls of `func` may nest in the machine code, counted in the
/// interpreter's frames (as in `Func::run`).
pub(super) fn limit(func: &Func) -> i64 {
    DEPTH_MAX.min(func.limit().into())
}

/// Whether `func` compiles to a function of its own.
pub fn scalar(func: &Func) -> bool {
    func.body().is_some_and(num)
}

fn num(n: &Num) -> bool {
    match n {
        Num::Const(_) | Num::Slot(_) | Num::Named(_) | Num::Lin(_) | Num::Bail => true,
        Num::Global(_) | Num::Len(_) | Num::Index(..) | Num::Fold(..) | Num::Pack(_) => false,
        Num::Value(..) | Num::Ask(..) => false,
        Num::Let(_, a, b) | Num::Gcd(a, b) | Num::Bin(_, a, b) | Num::Pair(a, b) => {
            num(a) && num(b)
        }
        Num::Neg(a) | Num::BitNot(a) | Num::Abs(a) | Num::Isqrt(a) | Num::Bits(_, a) => num(a),
        Num::If(c, a, b) => cond(c) && num(a) && num(b),
        Num::Extremum(_, items) | Num::Call(_, items) => items.iter().all(num),
    }
}

fn cond(c: &Cond) -> bool {
    c.parts()
        .is_some_and(|(nums, conds)| nums.into_iter().all(num) && conds.into_iter().all(cond))
}

impl Emit<'_, '_> {
    /// The function: its arguments read from `args`; returns 0 with its
    /// result in the context's `ret`, or -1 ([`super::super::BAIL`]).
    pub(super) fn func(&mut self, func: &Func, args: Value) -> Option<()> {
        let depth_at = offset_of!(super::super::Ctx, depth) as i32;
        let depth = self.b.ins().load(I64, trusted(), self.ctx, depth_at);
        let (limit, weight) = (limit(func), i64::from(func.weight()));
        let deep = (self.b.ins()).icmp_imm_s(IntCC::SignedGreaterThan, depth, limit - weight);
        let [too_deep, go_on] = self.blocks();
        self.b.set_cold_block(too_deep);
        self.b.ins().brif(deep, too_deep, &[], go_on, &[]);
        self.b.switch_to_block(too_deep);
        let bail = self.int(-1);
        self.b.ins().return_(&[bail]);
        self.b.switch_to_block(go_on);
        let deeper = self.b.ins().iadd_imm_s(depth, weight);
        self.b.ins().store(trusted(), deeper, self.ctx, depth_at);
        // The deepest since a remembered call started (see `memo`).
        let deepest_at = offset_of!(super::super::Ctx, deepest) as i32;
        let deepest = (self.b.ins()).load(I64, trusted(), self.ctx, deepest_at);
        let deepest = self.b.ins().smax(deepest, deeper);
        (self.b.ins()).store(trusted(), deepest, self.ctx, deepest_at);
        let zero = self.int(0);
        for (i, slot) in self.slots.clone().into_iter().enumerate() {
            let v = match i < func.arity() {
                true => self.b.ins().load(I64, trusted(), args, 8 * i as i32),
                false => zero,
            };
            self.b.def_var(slot, v);
        }
        let v = self.num(func.body()?)?;
        let ret = offset_of!(super::super::Ctx, ret) as i32;
        self.b.ins().store(trusted(), v, self.ctx, ret);
        self.b.ins().store(trusted(), depth, self.ctx, depth_at);
        self.b.ins().return_(&[zero]);
        self.b.switch_to_block(self.bail);
        self.b.ins().store(trusted(), depth, self.ctx, depth_at);
        let bail = self.int(-1);
        self.b.ins().return_(&[bail]);
        Some(())
    }
}
