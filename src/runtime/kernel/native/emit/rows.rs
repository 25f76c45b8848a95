//! Where a page (or row) of a dense table is, and a slot in it: a page
//! or row of its own, by the addresses and lengths of the table's view,
//! or a row of its run (see `graph/dense/rows/run.rs`), past them.

use super::{Emit, Table, trusted};
use crate::graph::RUN_BLOCK;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I32, types::I64};

impl Emit<'_, '_> {
    /// The address of slot `place` of page `page` of `table`, checked to
    /// be inside it (else the code bails).
    pub(super) fn slot(&mut self, table: Table, page: Value, place: Value) -> Value {
        self.slot_or(table, (page, place), self.bail)
    }

    /// [`Emit::slot`], going to `elsewhere` when it is not inside.
    pub(super) fn slot_or(
        &mut self,
        table: Table,
        (page, place): (Value, Value),
        elsewhere: Block,
    ) -> Value {
        let (slots, _) = self.row_join(table, (page, Some(place)), elsewhere, false);
        self.slot_at(slots, place)
    }

    /// The address of slot `place` of the page whose first slot is at
    /// `slots`.
    pub(super) fn slot_at(&mut self, slots: Value, place: Value) -> Value {
        let offset = self.b.ins().imul_imm_s(place, 4);
        self.b.ins().iadd(slots, offset)
    }

    /// The address of the first slot of page `page` of `table`, and the
    /// page's length, going to `elsewhere` unless `place` is inside it:
    /// a page (or row) of its own, or a row of the table's run (see
    /// [`crate::graph::View`]), past the others.
    pub(super) fn row_or(
        &mut self,
        table: Table,
        (page, place): (Value, Value),
        elsewhere: Block,
    ) -> (Value, Value) {
        let (slots, len) = self.row_join(table, (page, Some(place)), elsewhere, true);
        (slots, len.expect("asked for"))
    }

    /// The address of the first slot of row (or page) `page` of `table`,
    /// and its length, going to `elsewhere` where it has none: a sweep's
    /// row found before its loop reads it (see `row_reads.rs`).
    pub(super) fn any_row_or(
        &mut self,
        table: Table,
        page: Value,
        elsewhere: Block,
    ) -> (Value, Value) {
        let (slots, len) = self.row_join(table, (page, None), elsewhere, true);
        (slots, len.expect("asked for"))
    }

    /// [`Emit::row_or`], the length only where `with_len`: a read of one
    /// slot passes on only the address, in one register. With no
    /// `place`, any row the table has is found.
    fn row_join(
        &mut self,
        table: Table,
        (page, place): (Value, Option<Value>),
        elsewhere: Block,
        with_len: bool,
    ) -> (Value, Option<Value>) {
        let count = self.count_of(table);
        if !table.runs {
            let out = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, page, count);
            self.leave_if(out, elsewhere);
            let (slots, len) = self.own_row_or(table, (page, place), elsewhere);
            return (slots, Some(len));
        }
        let [apart, run, join] = self.blocks();
        self.b.append_block_param(join, I64);
        if with_len {
            self.b.append_block_param(join, I64);
        }
        let inside = (self.b.ins()).icmp(IntCC::UnsignedLessThan, page, count);
        self.b.ins().brif(inside, apart, &[], run, &[]);
        // The run first, where the function reads a strip's rows: it
        // falls through to them, and jumps over them to a page of its
        // own.
        self.b.switch_to_block(run);
        let (slots, len) = self.run_row_or(table, (page, count, place), elsewhere);
        let args = [slots.into(), len.into()];
        self.b.ins().jump(join, &args[..1 + usize::from(with_len)]);
        self.b.switch_to_block(apart);
        let (slots, len) = self.own_row_or(table, (page, place), elsewhere);
        let args = [slots.into(), len.into()];
        self.b.ins().jump(join, &args[..1 + usize::from(with_len)]);
        self.b.switch_to_block(join);
        let params = self.b.block_params(join);
        (params[0], params.get(1).copied())
    }

    /// [`Emit::row_or`] of a row of the table's run, `page - count` into
    /// it.
    fn run_row_or(
        &mut self,
        table: Table,
        (page, count, place): (Value, Value, Option<Value>),
        elsewhere: Block,
    ) -> (Value, Value) {
        let [rows, shift, blocks] = self.run_of(table);
        let d = self.b.ins().isub(page, count);
        let out = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, d, rows);
        self.leave_if(out, elsewhere);
        let one = self.int(1);
        let len = self.b.ins().ishl(one, shift);
        if let Some(place) = place {
            let out = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, place, len);
            self.leave_if(out, elsewhere);
        }
        let slot = self.b.ins().ishl(d, shift);
        let block = (self.b.ins()).ushr_imm_s(slot, i64::from(RUN_BLOCK.trailing_zeros()));
        let at = self.b.ins().ishl_imm_s(block, 3);
        let at = self.b.ins().iadd(blocks, at);
        let base = self.b.ins().load(I64, trusted(), at, 0);
        let within = (self.b.ins()).band_imm_s(slot, RUN_BLOCK as i64 - 1);
        let offset = self.b.ins().ishl_imm_s(within, 2);
        (self.b.ins().iadd(base, offset), len)
    }

    /// [`Emit::row_or`] of a page (or row) of its own, below the count.
    pub(super) fn own_row_or(
        &mut self,
        table: Table,
        (page, place): (Value, Option<Value>),
        elsewhere: Block,
    ) -> (Value, Value) {
        let at = self.b.ins().imul_imm_s(page, 4);
        let lens = self.lens_of(table);
        let at = self.b.ins().iadd(lens, at);
        let len = self.b.ins().load(I32, trusted(), at, 0);
        let len = self.b.ins().uextend(I64, len);
        if let Some(place) = place {
            let out = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, place, len);
            self.leave_if(out, elsewhere);
        }
        let at = self.b.ins().imul_imm_s(page, 8);
        let pages = self.pages_of(table);
        let at = self.b.ins().iadd(pages, at);
        (self.b.ins().load(I64, trusted(), at, 0), len)
    }
}
