//! The loop of an innermost binder `x` whose guard asks `n % x == 0`
//! ([`Narrow::Divides`]): over the divisors of `n` in the window, in
//! increasing order, as the kernel's run finds them
//! ([`crate::runtime::kernel::narrow::divisors`]): those up to `√n` one by
//! one, then the larger ones as the quotients `n / q` of the divisors `q`
//! below `√n`, taken from `√n` down. About `2√n` tests instead of one for
//! each value of the window: the proper-divisor game's loop `d in 1..n`
//! runs 280 steps instead of 20,000 at `n = 20,000`.
//!
//! A guard asking `x % e == 0` ([`Narrow::Multiple`]) steps through the
//! multiples of `e` instead: Euclid's game, `m in 1..=a if m % b == 0`,
//! takes `a / b` steps rather than `a`.
//!
//! [`Narrow::Divides`]: crate::runtime::kernel::Narrow
//! [`Narrow::Multiple`]: crate::runtime::kernel::Narrow

use super::Emit;
use crate::runtime::kernel::Move;
use crate::runtime::kernel::expr::Num;
use crate::runtime::kernel::narrow::MULTIPLE_MOST;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, InstBuilder, Value,
    types::{I32, I64},
};

impl Emit<'_, '_> {
    /// The loop of `rule`'s innermost binder over `lo..hi`, its guard's
    /// conjuncts from `tested` on left to test, the first of them `n % x
    /// == 0`: over the divisors of `n` where `1 <= lo`, `1 <= n < 2³²`
    /// (each division a 32-bit one) and they take fewer steps than the
    /// window is long; else over the window, each value tested. Goes on
    /// after the loop.
    pub(super) fn divisor_loops(
        &mut self,
        rule: &Move,
        n: &Num,
        (lo, hi): (Value, Value),
        tested: usize,
    ) -> Option<()> {
        let [work, sized, fast, plain, after] = self.blocks();
        let empty = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, lo, hi);
        self.b.ins().brif(empty, after, &[], work, &[]);
        // The dividend, evaluated once the window holds a value, as the
        // kernel's run evaluates it (an error bails).
        self.b.switch_to_block(work);
        let n = self.num(n)?;
        let low = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, lo, 1);
        let below = self.b.ins().iadd_imm_s(n, -1);
        let wide =
            (self.b.ins()).icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, below, u32::MAX as i64);
        let out = self.b.ins().bor(low, wide);
        self.b.ins().brif(out, plain, &[], sized, &[]);
        // The steps each way takes.
        self.b.switch_to_block(sized);
        let s = self.checked_call(self.isqrt, &[n]);
        let s1 = self.b.ins().iadd_imm_s(s, 1);
        let small_end = self.b.ins().smin(hi, s1);
        let n_lo = self.b.ins().udiv(n, lo);
        let q_hi = self.b.ins().smin(s, n_lo);
        let n_hi = self.b.ins().udiv(n, hi);
        let q_lo = self.b.ins().iadd_imm_s(n_hi, 1);
        let zero = self.int(0);
        let small = self.b.ins().isub(small_end, lo);
        let small = self.b.ins().smax(small, zero);
        let large = self.b.ins().isub(q_hi, q_lo);
        let large = self.b.ins().iadd_imm_s(large, 1);
        let large = self.b.ins().smax(large, zero);
        let cost = self.b.ins().iadd(small, large);
        let long = self.b.ins().isub(hi, lo);
        let cheaper = self.b.ins().icmp(IntCC::SignedLessThan, cost, long);
        self.b.ins().brif(cheaper, fast, &[], plain, &[]);
        self.b.switch_to_block(fast);
        if self.tick.is_none() {
            self.charge(zero, cost);
        }
        let n32 = self.b.ins().ireduce(I32, n);
        let divides = |e: &mut Self, k: Value| {
            let k32 = e.b.ins().ireduce(I32, k);
            let r = e.b.ins().urem(n32, k32);
            e.b.ins().icmp_imm_s(IntCC::Equal, r, 0)
        };
        // The divisors up to √n, then those above it, `n / q`.
        self.counted_loop((lo, small_end), true, |e, k, next| {
            let yes = divides(e, k);
            e.divisor_option(rule, tested, (yes, k), next)
        })?;
        self.counted_loop((q_hi, q_lo), false, |e, q, next| {
            let yes = divides(e, q);
            let [quotient] = e.blocks();
            e.b.ins().brif(yes, quotient, &[], next, &[]);
            e.b.switch_to_block(quotient);
            let q32 = e.b.ins().ireduce(I32, q);
            let d = e.b.ins().udiv(n32, q32);
            let d = e.b.ins().uextend(I64, d);
            let above = e.b.ins().icmp(IntCC::SignedGreaterThan, d, s);
            e.divisor_option(rule, tested, (above, d), next)
        })?;
        self.b.ins().jump(after, &[]);
        self.tested_loop(rule, (lo, hi), tested, (plain, after))
    }

    /// The loop of `rule`'s innermost binder over `lo..hi`, its guard's
    /// conjuncts from `tested` on left to test, the first of them `x % e
    /// == 0` ([`Narrow::Multiple`]): over the multiples of `e` in the
    /// window, as the kernel's run steps through them
    /// ([`crate::runtime::kernel::narrow::multiples`]), where `1 <= e <=
    /// MULTIPLE_MOST`; else over the window, each value tested. Goes on
    /// after the loop.
    ///
    /// [`Narrow::Multiple`]: crate::runtime::kernel::Narrow
    pub(super) fn multiple_loops(
        &mut self,
        rule: &Move,
        e: &Num,
        (lo, hi): (Value, Value),
        tested: usize,
    ) -> Option<()> {
        let [work, stepped, plain, after] = self.blocks();
        let empty = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, lo, hi);
        self.b.ins().brif(empty, after, &[], work, &[]);
        // The step, evaluated once the window holds a value, as the
        // kernel's run evaluates it (an error bails).
        self.b.switch_to_block(work);
        let e = self.num(e)?;
        let below = self.b.ins().iadd_imm_s(e, -1);
        let most = MULTIPLE_MOST - 1;
        let out = (self.b.ins()).icmp_imm_s(IntCC::UnsignedGreaterThan, below, most);
        self.b.ins().brif(out, plain, &[], stepped, &[]);
        // The first multiple at or past `lo`: `lo + (e - lo mod e) mod e`,
        // the remainders floored.
        self.b.switch_to_block(stepped);
        let r = self.b.ins().srem(lo, e);
        let r = self.b.ins().iadd(r, e);
        let r = self.b.ins().srem(r, e);
        let up = self.b.ins().isub(e, r);
        let up = self.b.ins().srem(up, e);
        let first = self.b.ins().iadd(lo, up);
        if self.tick.is_none() {
            let span = self.b.ins().isub(hi, first);
            let span = self.b.ins().iadd(span, below);
            let steps = self.b.ins().sdiv(span, e);
            let zero = self.int(0);
            self.charge(zero, steps);
        }
        let slot = self.slot_var(rule.binders.last()?.0 as usize);
        self.counted_by((first, hi), Step::By(e), |e, k, next| {
            e.b.def_var(slot, k);
            e.option(rule, tested + 1, next)
        })?;
        self.b.ins().jump(after, &[]);
        self.tested_loop(rule, (lo, hi), tested, (plain, after))
    }

    /// In block `plain`, the loop of `rule`'s innermost binder over every
    /// value of `lo..hi`, each tested from conjunct `tested` on; then on
    /// to `after`, where it goes on: the loop a divisor's or a filter's
    /// falls back to.
    pub(super) fn tested_loop(
        &mut self,
        rule: &Move,
        (lo, hi): (Value, Value),
        tested: usize,
        (plain, after): (Block, Block),
    ) -> Option<()> {
        let slot = self.slot_var(rule.binders.last()?.0 as usize);
        self.b.switch_to_block(plain);
        self.each(lo, hi, |e, k, next| {
            e.b.def_var(slot, k);
            e.option(rule, tested, next)
        })?;
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
        Some(())
    }

    /// The option of `rule` at the divisor `d` where `yes` holds, the
    /// conjuncts after the divisibility tested; else on to `next`.
    fn divisor_option(
        &mut self,
        rule: &Move,
        tested: usize,
        (yes, d): (Value, Value),
        next: Block,
    ) -> Option<()> {
        let [take] = self.blocks();
        self.b.ins().brif(yes, take, &[], next, &[]);
        self.b.switch_to_block(take);
        let slot = self.slot_var(rule.binders.last()?.0 as usize);
        self.b.def_var(slot, d);
        self.option(rule, tested + 1, next)
    }

    /// `body` for each `k` from `from` up to `to` (exclusive), or down to
    /// `to` (inclusive) when not `up`, told the block that goes on to
    /// the next; then goes on after the loop. Uncharged: the caller
    /// counted its steps.
    pub(super) fn counted_loop(
        &mut self,
        (from, to): (Value, Value),
        up: bool,
        body: impl FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let step = if up { Step::Up } else { Step::Down };
        self.counted_by((from, to), step, body)
    }

    /// [`Emit::counted_loop`] by `step`; a loop by a step it reads ticks
    /// at each turn, as [`Emit::each`] does (its caller charged it only
    /// where there is no tick).
    fn counted_by(
        &mut self,
        (from, to): (Value, Value),
        step: Step,
        mut body: impl FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let k = self.b.declare_var(I64);
        self.b.def_var(k, from);
        let [head, inside, next, exit] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let v = self.b.use_var(k);
        let done = match step {
            Step::Down => self.b.ins().icmp(IntCC::SignedLessThan, v, to),
            _ => self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, v, to),
        };
        // The exit first, as in `Emit::each`.
        self.b.ins().brif(done, exit, &[], inside, &[]);
        self.b.switch_to_block(inside);
        body(self, v, next)?;
        self.b.switch_to_block(next);
        let v = self.b.use_var(k);
        let v = match step {
            Step::Up => self.b.ins().iadd_imm_s(v, 1),
            Step::Down => self.b.ins().iadd_imm_s(v, -1),
            Step::By(by) => {
                self.tick();
                self.b.ins().iadd(v, by)
            }
        };
        self.b.def_var(k, v);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(exit);
        Some(())
    }
}

/// How a counted loop steps.
#[derive(Clone, Copy)]
enum Step {
    Up,
    Down,
    /// By a step of 1 or more, read when the loop runs.
    By(Value),
}
