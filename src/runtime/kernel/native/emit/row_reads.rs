//! Reads a cube's sweep finds the row of once per row. The cube function
//! (`Emit::cube`) values a three-integer game's positions `(a, b, c)`
//! row by row, `(b, c)` fixed and `a` running along the row. An option
//! `(a', b', c')` whose `b'` and `c'` are linear in `b` and `c` alone (a
//! king stepping towards a corner: `(a - 1, b, c - 1)`) lies in the same
//! row of the table for the whole row: its row's first slot and length
//! are found in a block before the row's loop, once, and the option's
//! read in the loop is a comparison and a load. Found at each option,
//! the row cost bounds checks of `b'` and `c'`, Szudzik's pairing, the
//! row's bounds and two loads, whose operands Cranelift kept on the
//! stack: 25 instructions an option (the king's cube: 365 instructions
//! a position in all, 223 since).
//!
//! A row found before the loop is good for the whole row: a sweep runs
//! with no recursion (`Call::deep` null), so no helper its body calls
//! makes a position or grows a table, and the rows it reads stay where
//! they are (as its tables' fields, read once for the function,
//! `tables::read_once`, do). Only the mex function's helpers make
//! positions, and it has no cube's rows.

use super::{Emit, Table};
use crate::graph::{SIDE3_MAX, STRIP3_ROWS};
use crate::runtime::kernel::expr::{Lin, Num};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};
use cranelift_frontend::Variable;

/// The rows the body of one cube row's loop reads, each found in `prep`,
/// the block before the loop.
pub(super) struct RowReads {
    prep: Block,
    rows: Vec<RowRead>,
}

/// One row read: target `target`'s row `(b', c')`, where `b'` and `c'`
/// are the linear forms `b` and `c`, and the variables its first slot
/// and length are kept in (a length of 0 where there is no such row).
struct RowRead {
    target: usize,
    /// The code of the positions' form (0: integer arguments).
    form: u64,
    b: Lin,
    c: Lin,
    slots: Variable,
    len: Variable,
}

impl RowReads {
    pub(super) fn new(prep: Block) -> RowReads {
        RowReads {
            prep,
            rows: Vec::new(),
        }
    }
}

/// `n` as a linear form of the row's own slots, 1 and 2 (`b` and `c`),
/// if it is one: then it is the same all along the row.
fn of_row(n: &Num) -> Option<Lin> {
    let lin = Lin::of(n)?;
    lin.terms
        .iter()
        .all(|(s, _)| matches!(s, 1 | 2))
        .then_some(lin)
}

impl Emit<'_, '_> {
    /// The variables of the first slot and length of the row of target
    /// `target`'s option of three integers, the last two `b` and `c`
    /// (the free integers of form `form`, 0 for integer arguments),
    /// found before the row's loop, where the function is a cube's and
    /// the option's row is the same all along the row; `None` elsewhere.
    pub(super) fn row_read(
        &mut self,
        target: usize,
        (b, c): (&Num, &Num),
        form: u64,
    ) -> Option<(Variable, Variable)> {
        let reads = self.row_reads.as_mut()?;
        let table = self.tables[target];
        let (b, c) = (of_row(b)?, of_row(c)?);
        if table.runs {
            return None;
        }
        let key = (target, form, &b, &c);
        if let Some(r) = (reads.rows.iter()).find(|r| (r.target, r.form, &r.b, &r.c) == key) {
            return Some((r.slots, r.len));
        }
        let (slots, len) = (self.b.declare_var(I64), self.b.declare_var(I64));
        let reads = self.row_reads.as_mut()?;
        reads.rows.push(RowRead {
            target,
            form,
            b,
            c,
            slots,
            len,
        });
        Some((slots, len))
    }

    /// Reads the slot `a` of the row kept in `(slots, len)` into `value`
    /// and goes to `join`; to `slow` past the row's end, or where the
    /// slot holds no plain value.
    pub(super) fn read_row(
        &mut self,
        (slots, len): (Variable, Variable),
        a: Value,
        value: Variable,
        (slow, join): (Block, Block),
    ) {
        let len = self.b.use_var(len);
        let out = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, a, len);
        self.leave_if(out, slow);
        let slots = self.b.use_var(slots);
        let at = self.slot_at(slots, a);
        self.read_slot(at, value, (slow, join));
    }

    /// Fills `reads.prep`, entered at the start of the row whose `(b, c)`
    /// the variables `b` and `c` hold: each row
    /// the loop reads found, then on to the loop's `body`.
    pub(super) fn fill_row_reads(
        &mut self,
        reads: RowReads,
        (b, c): (Variable, Variable),
        body: Block,
    ) {
        self.b.switch_to_block(reads.prep);
        let (b, c) = (self.b.use_var(b), self.b.use_var(c));
        for r in reads.rows {
            // Not `Emit::lin`, which reads the slots of the position being
            // valued: here, before any, the row's own `b` and `c`.
            let at = |e: &mut Self, lin: &Lin| {
                let mut v = e.int(lin.c);
                for (s, k) in &lin.terms {
                    let s = if *s == 1 { b } else { c };
                    let s = e.b.ins().imul_imm_s(s, *k);
                    v = e.b.ins().iadd(v, s);
                }
                v
            };
            let (rb, rc) = (at(self, &r.b), at(self, &r.c));
            let (slots, len) = self.row_of((self.tables[r.target], r.form), (rb, rc));
            self.b.def_var(r.slots, slots);
            self.b.def_var(r.len, len);
        }
        self.b.ins().jump(body, &[]);
    }

    /// The first slot and length of the row `(b, c)` of the cube of
    /// `table` (its first `SIDE3_MAX` slots only: a first argument past
    /// them, whose position is in a strip, is the helper's), or a length
    /// of 0 where there is none: no such row, or the table's positions
    /// not of form `form`.
    fn row_of(&mut self, (table, form): (Table, u64), (b, c): (Value, Value)) -> (Value, Value) {
        let [found, join] = self.blocks();
        let none = self.b.create_block();
        self.b.set_cold_block(none);
        self.b.append_block_param(join, I64);
        self.b.append_block_param(join, I64);
        let table = self.of_form(table, form, none);
        for x in [b, c] {
            self.outside_to(x, (0, SIDE3_MAX), none);
        }
        let row = self.szudzik(b, c);
        let row = self.b.ins().iadd_imm_s(row, STRIP3_ROWS as i64);
        let count = self.count_of(table);
        let out = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, row, count);
        self.b.ins().brif(out, none, &[], found, &[]);
        self.b.switch_to_block(found);
        let zero = self.int(0);
        let (slots, len) = self.own_row_or(table, (row, zero), none);
        let side = self.int(SIDE3_MAX);
        let len = self.b.ins().umin(len, side);
        self.b.ins().jump(join, &[slots.into(), len.into()]);
        self.b.switch_to_block(none);
        let zero = self.int(0);
        self.b.ins().jump(join, &[zero.into(), zero.into()]);
        self.b.switch_to_block(join);
        let params = self.b.block_params(join);
        (params[0], params[1])
    }
}
