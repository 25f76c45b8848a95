//! Python's floor division and modulo in machine code, as the
//! interpreter has them: by a constant, by a divisor a loop keeps (a
//! reciprocal kept in variables), and by any divisor.

use super::Emit;
use crate::runtime::kernel::expr::Num;
use crate::syntax::ast::BinOp;
use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, Function, InstBuilder, StackSlot, StackSlotData, StackSlotKind, Value, types::I32,
    types::I64,
};

/// The most places [`Emit::divisor_place`] makes in one function.
const DIVISOR_PLACES: u32 = 16;

/// A cursor in `block` before its branch, or at its end where it has none.
fn before_branch(func: &mut Function, block: Block) -> FuncCursor<'_> {
    let end = func.layout.last_inst(block);
    let cursor = FuncCursor::new(func);
    match end {
        Some(end) if cursor.func.dfg.insts[end].opcode().is_terminator() => cursor.at_inst(end),
        _ => cursor.at_bottom(block),
    }
}

/// What the block before a loop computes for a divisor `d` the loop
/// keeps (see [`Emit::floor_invariant`]).
#[derive(Clone, Copy)]
pub(super) struct Hoisted {
    /// Where in the frame they are kept: `d - 1`, then `m`.
    slot: StackSlot,
    at: i32,
}

/// The constant `n` is, when floor division and modulo by it have a form
/// cheaper than a division instruction (see [`Emit::floor_by`]): any
/// positive constant.
pub(super) fn cheap_divisor(n: &Num) -> Option<i64> {
    match n {
        Num::Const(c) if *c > 0 => Some(*c),
        _ => None,
    }
}

impl Emit<'_, '_> {
    /// Python's floor division or modulo, as the interpreter has them.
    /// Operands that are both non-negative and below 2³² (the common
    /// case: `n % d`, `n / k`) take a 32-bit unsigned division, several
    /// times faster than a 64-bit one, and exact there.
    pub(super) fn floor(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        self.bail_if(zero);
        let both = self.b.ins().bor(a, b);
        self.floor_small(op, (a, b), (both, false), |e| {
            let (x, y) = (e.b.ins().ireduce(I32, a), e.b.ins().ireduce(I32, b));
            let r = match op {
                BinOp::Div => e.b.ins().udiv(x, y),
                _ => e.b.ins().urem(x, y),
            };
            e.b.ins().uextend(I64, r)
        })
    }

    /// Whether `by` is a slot that stays while the innermost loop being
    /// emitted runs: a parameter of the position, or a slot an outer loop
    /// binds (`x` in `{y for y in s if y % x == 0}` under `x in s`).
    pub(super) fn invariant(&self, by: &Num) -> bool {
        let (Num::Slot(s), Some((inner, outer))) = (by, self.loops.split_last()) else {
            return false;
        };
        let s = *s as usize;
        !inner.slots.contains(&s)
            && (s < self.params.len() || outer.iter().any(|l| l.slots.contains(&s)))
    }

    /// [`Emit::floor`] by the slot `s`, whose value `d` stays while the
    /// loop runs ([`Emit::invariant`]): operands below 2³² take Lemire's
    /// remainder by multiplication, with `m = 2⁶⁴ / d` rounded up. `a % d`
    /// is the high word of `(m * a mod 2⁶⁴) * d`, `a / d` the high word of
    /// `m * a` (and `a` for `d = 1`, whose `m` wraps to 0): exact for every
    /// `a`, `d` below 2³² ("Faster Remainder by Direct Computation",
    /// Lemire, Kaser and Kurz, 2019). `m` is made before the innermost
    /// loop, where its value is known there ([`Emit::hoisted`]); else it
    /// is kept in the frame ([`Emit::divisor_place`]) and made again (one
    /// division) only when `d` is not the one it was made for.
    pub(super) fn floor_invariant(&mut self, op: BinOp, a: Value, (d, s): (Value, usize)) -> Value {
        let Some(h) = self.hoisted(s) else {
            return self.floor_kept(op, a, d);
        };
        // The divisor is 1..2³², and `a` below 2³²: one test, as `a | (d -
        // 1)` is below 2³² only where both are. A divisor of 0 fails it.
        let less = self.b.ins().stack_load(I64, I64, h.slot, h.at);
        let both = self.b.ins().bor(a, less);
        self.floor_small(op, (a, d), (both, true), |e| {
            let m = e.b.ins().stack_load(I64, I64, h.slot, h.at + 8);
            e.lemire(op, a, d, m)
        })
    }

    /// `a / d` or `a % d` from `m` (see [`Emit::floor_invariant`]).
    fn lemire(&mut self, op: BinOp, a: Value, d: Value, m: Value) -> Value {
        match op {
            BinOp::Div => {
                let q = self.b.ins().umulhi(m, a);
                let one = self.b.ins().icmp_imm_s(IntCC::Equal, d, 1);
                self.b.ins().select(one, a, q)
            }
            _ => {
                let low = self.b.ins().imul(m, a);
                self.b.ins().umulhi(low, d)
            }
        }
    }

    /// What the block before the innermost loop computes for a divisor,
    /// the slot `s`, whose value is known there: a parameter's, or an
    /// outer loop's slot's ([`super::Loop`]). Made there, once, the first
    /// time the loop divides by it.
    fn hoisted(&mut self, s: usize) -> Option<Hoisted> {
        let params = self.params.len();
        let lp = self.loops.last()?;
        if let Some((_, h)) = lp.divisors.iter().find(|(t, _)| *t == s) {
            return Some(*h);
        }
        let d = match s < params {
            true => self.params[s],
            false => lp.outer.iter().find(|(t, _)| *t == s)?.1,
        };
        // Before the block's branch into the loop; at its end where it has
        // none yet (the division is in the loop's bounds, made there).
        let before = lp.before;
        let (slot, at) = self.divisor_place();
        let mut pos = before_branch(self.b.func, before);
        // `d - 1` is below 2³² for `d` in `1..=2³²` only: for `d <= 0` it
        // is past 2⁶³ as unsigned, and for a larger `d` (a slot of rules
        // that take integers of any size) at least 2³², either of which
        // sends every use to the slow path. Lemire's remainder is exact
        // for `d = 2³²` as well (`m = 2³²`). `m` is made for `d >= 1`
        // (and for 1 in place of 0, which would trap).
        let less = pos.ins().iadd_imm_s(d, -1);
        let zero = pos.ins().icmp_imm_s(IntCC::Equal, d, 0);
        let one = pos.ins().iconst(I64, 1);
        let safe = pos.ins().select(zero, one, d);
        let all = pos.ins().iconst(I64, -1);
        let m = pos.ins().udiv(all, safe);
        let m = pos.ins().iadd_imm_s(m, 1);
        // Kept in the frame: Cranelift would make again, at each use in
        // the loop, what it can make from one value (`m + 1`, the select).
        pos.ins().stack_store(I64, less, slot, at);
        pos.ins().stack_store(I64, m, slot, at + 8);
        let h = Hoisted { slot, at };
        self.loops.last_mut()?.divisors.push((s, h));
        Some(h)
    }

    /// [`Emit::floor_invariant`] with `m` kept in the function's stack
    /// frame.
    fn floor_kept(&mut self, op: BinOp, a: Value, d: Value) -> Value {
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, d, 0);
        self.bail_if(zero);
        let (slot, at) = self.divisor_place();
        let both = self.b.ins().bor(a, d);
        self.floor_small(op, (a, d), (both, false), |e| {
            // The divisor starts as 0 (see `divisor_place`), which none is.
            let last = e.b.ins().stack_load(I64, I64, slot, at);
            let same = e.b.ins().icmp(IntCC::Equal, last, d);
            let m = e.choose(
                I64,
                same,
                |e| Some(e.b.ins().stack_load(I64, I64, slot, at + 8)),
                |e| {
                    let all = e.int(-1);
                    let m = e.b.ins().udiv(all, d);
                    let m = e.b.ins().iadd_imm_s(m, 1);
                    e.b.ins().stack_store(I64, d, slot, at);
                    e.b.ins().stack_store(I64, m, slot, at + 8);
                    Some(m)
                },
            );
            e.lemire(op, a, d, m.expect("no bail"))
        })
    }

    /// A new place in the stack frame for a divisor and its reciprocal
    /// ([`Emit::floor_invariant`]): the stack slot and the place's offset
    /// in it. Kept in memory rather than in variables, which would be
    /// carried around every loop the code is in, each taking a register
    /// or a spill in each; the loop that divides reads them from the
    /// cache, and writes them once a divisor. [`Emit::zero_divisors`]
    /// sets each place's divisor to 0 on entry.
    fn divisor_place(&mut self) -> (StackSlot, i32) {
        let at = 16 * self.divisors as i32;
        let slot = match self.divisor_slot {
            Some(slot) => slot,
            None => {
                // Room for many places: a slot's size is fixed when made.
                let data = StackSlotData::new(StackSlotKind::ExplicitSlot, 16 * DIVISOR_PLACES, 3);
                let slot = self.b.create_sized_stack_slot(data);
                self.divisor_slot = Some(slot);
                slot
            }
        };
        if self.divisors == DIVISOR_PLACES {
            // Past the room: the last place is shared, still exact, as
            // each use checks the divisor its reciprocal was made for.
            return (slot, at - 16);
        }
        self.divisors += 1;
        (slot, at)
    }

    /// Sets the divisor of each place [`Emit::divisor_place`] made to 0,
    /// and the first word of each [`Emit::filled_place`], at the start of
    /// the entry block `entry`, once the code is made.
    pub(super) fn zero_divisors(&mut self, entry: Block) {
        let mut pos = FuncCursor::new(self.b.func).at_first_insertion_point(entry);
        let zero = pos.ins().iconst(I64, 0);
        if let Some(slot) = self.divisor_slot {
            for place in 0..self.divisors {
                pos.ins().stack_store(I64, zero, slot, 16 * place as i32);
            }
        }
        for slot in &self.filled {
            pos.ins().stack_store(I64, zero, *slot, 0);
        }
    }

    /// A place in the frame for the window a filter's helper last
    /// evaluated to its end (see `filtered.rs`): its end, 0 on entry
    /// ([`Emit::zero_divisors`]), then its start.
    pub(super) fn filled_place(&mut self) -> StackSlot {
        let data = StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 3);
        let slot = self.b.create_sized_stack_slot(data);
        self.filled.push(slot);
        slot
    }

    /// [`Emit::floor`] by the constant `d > 0` ([`cheap_divisor`]). By
    /// 2^k, an arithmetic shift and a mask. By another `d`, an unsigned
    /// division by a constant, which Cranelift makes a multiply by its
    /// reciprocal: `floor(a / d)` is `a / d` for `a >= 0`, and `!(!a / d)`
    /// for `a < 0` (`!a = -a - 1` is then at least 0), so with `s` all
    /// ones for a negative `a` and 0 otherwise, it is `((a ^ s) / d) ^ s`,
    /// exact for every `a`. The remainder `a - q * d` is in `0..d`, so the
    /// wrapping product and difference give it exactly.
    pub(super) fn floor_by(&mut self, op: BinOp, (a, natural): (Value, bool), d: i64) -> Value {
        if d.count_ones() == 1 {
            return match op {
                BinOp::Div => self.b.ins().sshr_imm_s(a, i64::from(d.trailing_zeros())),
                _ => self.b.ins().band_imm_s(a, d - 1),
            };
        }
        // Known not negative (`7 * i % 15` with `i` in `0..n`): floor is
        // unsigned division, with no sign folded in and out.
        if natural {
            let by = self.int(d);
            return match op {
                BinOp::Div => self.b.ins().udiv(a, by),
                _ => self.b.ins().urem(a, by),
            };
        }
        let ins = self.b.ins();
        let sign = ins.sshr_imm_s(a, 63);
        let x = self.b.ins().bxor(a, sign);
        let by = self.int(d);
        let q = self.b.ins().udiv(x, by);
        let q = self.b.ins().bxor(q, sign);
        match op {
            BinOp::Div => q,
            _ => {
                let qd = self.b.ins().imul_imm_s(q, d);
                self.b.ins().isub(a, qd)
            }
        }
    }

    /// `a op b` by `small` where `fits` is below 2^32 (the operands are
    /// then both in `0..2^32`), else by [`Emit::floor_wide`], on a cold
    /// path. `b` is not 0, or, with `zero_wide`, is 0 only where `fits`
    /// is not below 2^32: the cold path then bails on it.
    fn floor_small(
        &mut self,
        op: BinOp,
        (a, b): (Value, Value),
        (fits, zero_wide): (Value, bool),
        small: impl FnOnce(&mut Self) -> Value,
    ) -> Value {
        let result = self.b.declare_var(I64);
        let [below, large, join] = self.blocks();
        let fits = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, fits, 1 << 32);
        self.b.ins().brif(fits, below, &[], large, &[]);
        self.b.switch_to_block(below);
        let r = small(self);
        self.b.def_var(result, r);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(large);
        self.b.set_cold_block(large);
        if zero_wide {
            let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
            self.bail_if(zero);
        }
        let r = self.floor_wide(op, a, b);
        self.b.def_var(result, r);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.use_var(result)
    }

    /// [`Emit::floor`] of any operands, the divisor not 0.
    fn floor_wide(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
        if op == BinOp::Div {
            let min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
            let overflow = self.b.ins().band(min, minus_one);
            self.bail_if(overflow);
        }
        // `x % -1` is 0, and the hardware would trap on `MIN % -1`: the
        // remainder divides by 1 instead (`MIN / -1` bailed above).
        let d = match op {
            BinOp::Div => b,
            _ => {
                let one = self.int(1);
                self.b.ins().select(minus_one, one, b)
            }
        };
        match op {
            BinOp::Div => {
                // One hardware division: the remainder by a multiply.
                let q = self.b.ins().sdiv(a, d);
                let back = self.b.ins().imul(q, d);
                let r = self.b.ins().isub(a, back);
                let fix = self.rounded_to_zero(r, b);
                let fix = self.b.ins().uextend(I64, fix);
                self.b.ins().isub(q, fix)
            }
            _ => {
                let r = self.b.ins().srem(a, d);
                let fix = self.rounded_to_zero(r, b);
                let zero = self.int(0);
                let add = self.b.ins().select(fix, b, zero);
                let r = self.b.ins().iadd(r, add);
                self.b.ins().select(minus_one, zero, r)
            }
        }
    }

    /// Whether a division rounded towards zero where Python's floors: a
    /// remainder `r` of another sign than the divisor `b`.
    fn rounded_to_zero(&mut self, r: Value, b: Value) -> Value {
        let inexact = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
        let signs = self.b.ins().bxor(r, b);
        let differ = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, signs, 0);
        self.b.ins().band(inexact, differ)
    }
}
