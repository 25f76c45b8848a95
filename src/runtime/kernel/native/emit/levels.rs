//! The sweep of a board by levels (see [`crate::runtime::kernel::Levels`]):
//! for each level `s` from `from` to `to`, each position `(a, b)` of the
//! box with `p * a + q * b == s` that has no value yet gets its mex,
//! written into the game's own table, its options all of lower levels.

use super::{BUDGET, Emit, trusted};
use crate::runtime::kernel::Kernel;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types::I32, types::I64};

impl Emit<'_, '_> {
    /// The levels function. Returns `to << 32` when done; `s << 32 | a`
    /// for the position of level `s` in row `a` it left to the kernel's
    /// run (one without options, or with an option it cannot read); or,
    /// with [`super::super::PAUSED`] set, the level where it paused after
    /// enough work.
    pub(super) fn levels(
        &mut self,
        kernel: &Kernel,
        (from, to): (Value, Value),
        own: Value,
    ) -> Option<()> {
        let levels = kernel.levels()?;
        let ((p, q), (r0, r1), (c0, c1)) = (levels.weights, levels.rows, levels.cols);
        let own = self.table(own, 0);
        let (s, a, total) = (
            self.b.declare_var(I64),
            self.b.declare_var(I64),
            self.b.declare_var(I64),
        );
        let zero = self.int(0);
        self.b.def_var(s, from);
        self.b.def_var(a, zero);
        self.b.def_var(total, zero);
        let [level, first, row, inside, next_row, next_level, stop] = self.blocks();
        self.b.ins().jump(level, &[]);
        // A level: its first row is the lowest whose column fits the box.
        self.b.switch_to_block(level);
        let sv = self.b.use_var(s);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, sv, to);
        self.b.ins().brif(more, first, &[], stop, &[]);
        self.b.switch_to_block(first);
        let x = self.b.ins().iadd_imm_s(sv, -q * c1);
        let x = self.b.ins().smax(x, zero);
        let x = self.b.ins().iadd_imm_s(x, p - 1);
        let start = self.b.ins().udiv_imm_s(x, p);
        let lowest = self.int(r0);
        let start = self.b.ins().smax(start, lowest);
        self.b.def_var(a, start);
        self.b.ins().jump(row, &[]);
        // A row: the column at this level, if a whole one.
        self.b.switch_to_block(row);
        let av = self.b.use_var(a);
        let past = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, av, r1);
        self.leave_if(past, next_level);
        let pa = self.b.ins().imul_imm_s(av, p);
        let r = self.b.ins().isub(sv, pa);
        let low = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, r, q * c0);
        self.leave_if(low, next_level);
        let col = match q {
            1 => r,
            _ => {
                let rem = self.b.ins().urem_imm_s(r, q);
                self.leave_if(rem, next_row);
                self.b.ins().udiv_imm_s(r, q)
            }
        };
        // Only a position without a value yet (a slot the table marks
        // unknown) is run.
        let at = self.slot(own, av, col);
        let slot = self.b.ins().load(I32, trusted(), at, 0);
        let slot = self.b.ins().uextend(I64, slot);
        let unknown = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, slot, i64::from(u32::MAX));
        self.b.ins().brif(unknown, inside, &[], next_row, &[]);
        self.b.switch_to_block(inside);
        self.position(kernel, &[av, col])?;
        let missing = self.b.use_var(self.missing);
        self.bail_if(missing);
        let count = self.b.use_var(self.count);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, count, 0);
        self.bail_if(none);
        let value = self.first_unmarked();
        self.b.ins().istore32(trusted(), value, at, 0);
        let stamp = self.b.use_var(self.stamp);
        let stamp = self.b.ins().iadd_imm_s(stamp, 1);
        self.b.def_var(self.stamp, stamp);
        let work = self.b.use_var(self.work);
        let sum = self.b.use_var(total);
        let sum = self.b.ins().iadd(sum, work);
        self.b.def_var(total, sum);
        self.b.ins().jump(next_row, &[]);
        self.b.switch_to_block(next_row);
        let av = self.b.use_var(a);
        let av = self.b.ins().iadd_imm_s(av, 1);
        self.b.def_var(a, av);
        self.b.ins().jump(row, &[]);
        // After a level: a pause after enough work, for the caller to look
        // at the clock.
        self.b.switch_to_block(next_level);
        let sv = self.b.use_var(s);
        let sv = self.b.ins().iadd_imm_s(sv, 1);
        self.b.def_var(s, sv);
        let sum = self.b.use_var(total);
        let enough = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThan, sum, BUDGET / 4);
        let pause = self.b.create_block();
        self.b.ins().brif(enough, pause, &[], level, &[]);
        self.b.switch_to_block(pause);
        let at = self.b.ins().ishl_imm_s(sv, 32);
        let paused = self.b.ins().bor_imm_s(at, super::super::PAUSED as i64);
        self.b.ins().return_(&[paused]);
        self.b.switch_to_block(stop);
        let done = self.b.ins().ishl_imm_s(to, 32);
        self.b.ins().return_(&[done]);
        self.b.switch_to_block(self.bail);
        let (sv, av) = (self.b.use_var(s), self.b.use_var(a));
        let high = self.b.ins().ishl_imm_s(sv, 32);
        let at = self.b.ins().bor(high, av);
        self.b.ins().return_(&[at]);
        Some(())
    }
}
