//! Strips swept by machine code (see [`crate::runtime::kernel::Strip`]
//! and [`crate::runtime::kernel::strip3`]): each row of the long argument
//! in turn, and in each row every column (or pair of short arguments)
//! the strip holds, each position without a value yet given its mex,
//! written into the game's own table. The walk over rows and the
//! valuing of a position are `levels.rs`'s.

use super::Emit;
use super::row_reads::{Along, RowReads};
use crate::runtime::kernel::Kernel;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};

impl Emit<'_, '_> {
    /// The strip function (see [`crate::runtime::kernel::Strip`]): for
    /// each row from `from` to `to` of the long argument, each column of
    /// the strip, then the extra columns up to `e1` (`from`'s high half
    /// less one, when not negative: see [`Strip::extras`]), the position
    /// valued when its slot is unknown.
    /// Returns `to << 32` when done; `row << 32 | col` for the position it
    /// left to the kernel's run; or, with [`super::super::PAUSED`] set,
    /// the row where it paused after enough work.
    pub(super) fn strip(
        &mut self,
        kernel: &Kernel,
        (from, to): (Value, Value),
        own: Value,
    ) -> Option<()> {
        let strip = kernel.strip()?;
        let (c0, c1) = strip.cols;
        let own = self.own_table(own, (kernel, strip.form.is_some()));
        // The last extra column, `e1` (`from`'s high half less one; -1
        // for none). The first is `e1` too, or for a counter counted down
        // (`Strip::down`) the one past the strip's when `e1` is above.
        let e1 = self.b.ins().sshr_imm_s(from, 32);
        let e1 = self.b.ins().iadd_imm_s(e1, -1);
        let from = self.b.ins().band_imm_s(from, 0xffff_ffff);
        let [row, col, total] = self.counters();
        // A strip of no columns of its own starts each row at the one
        // extra (see `Strip::kept`).
        let first = match strip.kept() {
            true => e1,
            false => self.int(c0),
        };
        let [
            head,
            start,
            prep,
            body,
            next,
            past,
            to_extra,
            next_row,
            stop,
        ] = self.blocks();
        // A row: the rows its options read found in `prep`, filled once
        // the loop is made (or moved on from the row before's).
        let fresh = self.fresh_rows();
        self.walk((row, col, total), (from, first, to), (head, start, stop));
        self.b.ins().jump(prep, &[]);
        let along = Along::Strip(strip.long as u32);
        self.row_reads = Some(RowReads::new(prep, along).carried(fresh));
        self.b.switch_to_block(body);
        let (rv, cv) = (self.b.use_var(row), self.b.use_var(col));
        let at = match strip.long {
            0 => (rv, cv),
            _ => (cv, rv),
        };
        self.value_unknown(kernel, (own, at), &[at.0, at.1], (total, next))?;
        // The next column: the strip's, then the extra ones (none of
        // which is the strip's), then the next row's first.
        self.b.switch_to_block(next);
        let cv = self.b.use_var(col);
        let was_last = self.b.ins().icmp(IntCC::Equal, cv, e1);
        self.leave_if(was_last, next_row);
        let end = self.b.ins().icmp_imm_s(IntCC::Equal, cv, c1);
        let cv = self.b.ins().iadd_imm_s(cv, 1);
        self.b.def_var(col, cv);
        self.b.ins().brif(end, past, &[], body, &[]);
        self.b.switch_to_block(past);
        let some = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, e1, 0);
        self.b.ins().brif(some, to_extra, &[], next_row, &[]);
        self.b.switch_to_block(to_extra);
        let e0 = match strip.down {
            true => {
                let next = self.int(c1 + 1);
                self.b.ins().smin(e1, next)
            }
            false => e1,
        };
        self.b.def_var(col, e0);
        self.b.ins().jump(body, &[]);
        self.b.switch_to_block(next_row);
        self.walk_on((row, col, total), Some(first), (head, stop, to));
        let reads = self.row_reads.take()?;
        self.fill_row_reads(reads, &[row], body);
        Some(())
    }

    /// The function of the strips of triples (see
    /// [`crate::runtime::kernel::strip3`]): for each row `n` of the long
    /// argument from `from` (its low half) to `to`, past the cube, each
    /// pair `(s, t)` of short arguments in the box `from`'s high half
    /// holds (four bits each: the least `s`, the greatest, the least `t`,
    /// the greatest; `t` the outer loop when the kernel's strips are
    /// swept so, `Kernel::strip3_swapped`), the position valued when its slot is unknown: in
    /// the strip row `s * 8 + t` of the long argument's block, column `n`
    /// less the cube's side. Returns `to << 32` when done; `n << 32 | p`,
    /// `p` the pair's strip row `s * 8 + t`, for the position it left to
    /// the kernel's run; or, with [`super::super::PAUSED`] set, the row
    /// where it paused after enough work.
    pub(super) fn strip3(
        &mut self,
        kernel: &Kernel,
        (from, to): (Value, Value),
        own: Value,
    ) -> Option<()> {
        use crate::graph::{SIDE3_MAX, STRIP3_WIDTH};
        let long = kernel.strip3()?;
        let own = self.own_table(own, (kernel, false));
        let [s0, s1, t0, t1] = [32, 36, 40, 44].map(|at| {
            let v = self.b.ins().ushr_imm_s(from, at);
            self.b.ins().band_imm_s(v, 15)
        });
        let from = self.b.ins().band_imm_s(from, 0xffff_ffff);
        let [row, pair, total] = self.counters();
        let w = STRIP3_WIDTH;
        let first = self.b.ins().imul_imm_s(s0, w);
        let first = self.b.ins().iadd(first, t0);
        let [head, body, next, next_s, next_row, stop] = self.blocks();
        self.walk((row, pair, total), (from, first, to), (head, body, stop));
        let (n, p) = (self.b.use_var(row), self.b.use_var(pair));
        let s = self.b.ins().ushr_imm_s(p, w.trailing_zeros() as i64);
        let t = self.b.ins().band_imm_s(p, w - 1);
        let args = match long {
            0 => [n, s, t],
            1 => [s, n, t],
            _ => [s, t, n],
        };
        let page = self.b.ins().iadd_imm_s(p, long as i64 * w * w);
        let col = self.b.ins().iadd_imm_s(n, -SIDE3_MAX);
        self.value_unknown(kernel, (own, (page, col)), &args, (total, next))?;
        // The next pair: `t` up to its greatest, then the next `s` from
        // the least `t`, then the next row's first pair; swapped, `s`
        // first, then the next `t` from the least `s`.
        self.b.switch_to_block(next);
        let p = self.b.use_var(pair);
        let shift = w.trailing_zeros() as i64;
        let swapped = kernel.strip3_swapped();
        let (inner, inner_top, step) = match swapped {
            false => (self.b.ins().band_imm_s(p, w - 1), t1, 1),
            true => (self.b.ins().ushr_imm_s(p, shift), s1, w),
        };
        let more = self.b.ins().icmp(IntCC::SignedLessThan, inner, inner_top);
        let on = self.b.ins().iadd_imm_s(p, step);
        self.b.def_var(pair, on);
        self.b.ins().brif(more, head, &[], next_s, &[]);
        self.b.switch_to_block(next_s);
        let s = self.b.ins().ushr_imm_s(p, shift);
        let t = self.b.ins().band_imm_s(p, w - 1);
        let (outer, outer_top) = if swapped { (t, t1) } else { (s, s1) };
        let more = self.b.ins().icmp(IntCC::SignedLessThan, outer, outer_top);
        let (s, t) = match swapped {
            false => (self.b.ins().iadd_imm_s(s, 1), t0),
            true => (s0, self.b.ins().iadd_imm_s(t, 1)),
        };
        let on = self.b.ins().imul_imm_s(s, w);
        let on = self.b.ins().iadd(on, t);
        self.b.def_var(pair, on);
        self.b.ins().brif(more, head, &[], next_row, &[]);
        self.b.switch_to_block(next_row);
        self.walk_on((row, pair, total), Some(first), (head, stop, to));
        Some(())
    }
}
