//! Reads a sweep finds the row of once per row, before the row's loop.
//!
//! - The cube function (`Emit::cube`) values a three-integer game's
//!   positions `(a, b, c)` row by row, `(b, c)` fixed and `a` running
//!   along the row. An option `(a', b', c')` whose `b'` and `c'` are
//!   linear in `b` and `c` alone (a king stepping towards a corner:
//!   `(a - 1, b, c - 1)`) lies in the same row of the table for the whole
//!   row. Found at each option, the row cost bounds checks of `b'` and
//!   `c'`, Szudzik's pairing, the row's bounds and two loads, whose
//!   operands Cranelift kept on the stack: 25 instructions an option (the
//!   king's cube: 365 instructions a position in all, 223 since).
//! - The strip function (`Emit::strip`) values a two-integer game's
//!   positions `(n, s)` row by row, the long `n` fixed and the short `s`
//!   running along the row (the strip's columns). An option `(n', s')`
//!   whose `n'` is linear in `n` alone (`last_move(n - k, k)` for each
//!   constant `k`) is in the same row for the whole row. Found at each
//!   option, the row cost the choice between the table's own rows and
//!   its run, the run's bounds, its block's address and the slot's: 22
//!   instructions an option.
//!
//! Such a row's first slot and length are found in a block before the
//! row's loop, once, and the option's read in the loop is a comparison
//! and a load. A row found so is good for the whole row: a sweep runs
//! with no recursion (`Call::deep` null), so no helper its body calls
//! makes a position or grows a table, and the rows it reads stay where
//! they are (as its tables' fields, read once for the function,
//! `tables::read_once`, do). Only the mex function's helpers make
//! positions, and it sweeps no rows.

use super::{Emit, Table};
use crate::graph::{SIDE3_MAX, STRIP3_ROWS};
use crate::runtime::kernel::expr::{Lin, Num};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};
use cranelift_frontend::Variable;

/// The rows the body of one row's loop reads, each found in `prep`, the
/// block before the loop.
pub(super) struct RowReads {
    prep: Block,
    along: Along,
    rows: Vec<RowRead>,
    /// Where the rows go on by one from row to row (a strip's): a
    /// variable that is 1 until the first row's are found, after which a
    /// row one past another found for the row before is that one, moved
    /// on rather than found again (see [`Emit::fill_row_reads`]).
    fresh: Option<Variable>,
}

/// Which sweep's rows: those of a cube, `(b, c)` the same along a row
/// (slots 1 and 2 of the position), or of a strip whose long argument is
/// the same along a row: `Strip(0)` the first (`g(n, last)`), whose rows
/// of the table are the sweep's; `Strip(1)` the second (`g(last, n)`),
/// whose rows of the table are its columns, each read along the sweep's
/// row at a row of the table the option names (a constant, `g(k, n -
/// k)` with `k` unrolled) found once per row all the same.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Along {
    Cube,
    Strip(u32),
}

impl Along {
    /// The slots of the position that are the same all along a row.
    fn slots(self) -> &'static [u32] {
        match self {
            Along::Cube => &[1, 2],
            Along::Strip(0) => &[0],
            Along::Strip(_) => &[1],
        }
    }

    /// Whether the swept position's own row of the table is the same all
    /// along the sweep's row.
    fn own_row(self) -> bool {
        !matches!(self, Along::Strip(1..))
    }
}

/// One row read: target `target`'s row (the swept table's own where
/// `None`), named by the linear forms `row` of the row's own slots (`(b',
/// c')` of a cube, `n'` of a strip), and the variables its first slot and
/// length are kept in (a length of 0 where there is no such row).
struct RowRead {
    target: Option<usize>,
    table: Table,
    /// The code of the positions' form (0: integer arguments).
    form: u64,
    row: Vec<Lin>,
    slots: Variable,
    len: Variable,
}

impl RowReads {
    pub(super) fn new(prep: Block, along: Along) -> RowReads {
        RowReads {
            prep,
            along,
            rows: Vec::new(),
            fresh: None,
        }
    }

    /// These reads, in a loop whose rows go on by one, with `fresh` 1
    /// before its first row.
    pub(super) fn carried(self, fresh: Variable) -> RowReads {
        RowReads {
            fresh: Some(fresh),
            ..self
        }
    }
}

impl RowRead {
    /// Whether `next` is the row one past this one, of the same table:
    /// this row, at the next row of a strip, is `next` at this one.
    fn moves_to(&self, next: &RowRead) -> bool {
        // One slot, the sweep's row, by a weight of 1.
        let by_one = |r: &RowRead| matches!(&r.row[..], [lin] if matches!(lin.terms[..], [(_, 1)]));
        (self.target, self.form) == (next.target, next.form)
            && by_one(self)
            && by_one(next)
            && self.row[0].terms == next.row[0].terms
            && next.row[0].c.checked_sub(self.row[0].c) == Some(1)
    }
}

/// `n` as a linear form of the slots `slots` of the swept position, if it
/// is one, any other slot a constant here (`known`: a binder unrolled):
/// then it is the same all along the row.
fn of_row(n: &Num, slots: &[u32], known: &[Option<(i64, i64)>]) -> Option<Lin> {
    let lin = Lin::of(n)?;
    let mut row = Lin {
        c: lin.c,
        terms: Vec::new(),
    };
    for (s, k) in lin.terms {
        match known.get(s as usize).copied().flatten() {
            _ if slots.contains(&s) => row.terms.push((s, k)),
            Some((lo, hi)) if lo == hi => row.c = row.c.checked_add(lo.checked_mul(k)?)?,
            _ => return None,
        }
    }
    Some(row)
}

impl Emit<'_, '_> {
    /// The variables of the first slot and length of the row `row` of
    /// target `target`'s option (the arguments that name a row: `b` and
    /// `c` of a cube's triple, the first of a strip's pair; of the free
    /// integers of form `form`, 0 for integer arguments), found before
    /// the row's loop, where the function sweeps rows and the option's
    /// row is the same all along the row; `None` elsewhere.
    pub(super) fn row_read(
        &mut self,
        target: usize,
        row: &[&Num],
        form: u64,
    ) -> Option<(Variable, Variable)> {
        let reads = self.row_reads.as_ref()?;
        let along = reads.along;
        let table = self.tables[target];
        let row = (row.iter())
            .map(|n| of_row(n, along.slots(), &self.known))
            .collect::<Option<Vec<_>>>()?;
        // A cube's rows are the table's own, never its run's.
        if row.len() != along.slots().len() || (along == Along::Cube && table.runs) {
            return None;
        }
        self.row_kept((Some(target), table, form), row)
    }

    /// The variables of the first slot and length of the swept position's
    /// own row in `own`, the swept table, found before the row's loop
    /// where the function sweeps rows; `None` elsewhere.
    pub(super) fn own_row_read(&mut self, own: Table) -> Option<(Variable, Variable)> {
        let along = self.row_reads.as_ref()?.along;
        if !along.own_row() {
            return None;
        }
        let row = (along.slots().iter())
            .map(|s| Lin {
                c: 0,
                terms: vec![(*s, 1)],
            })
            .collect();
        self.row_kept((None, own, 0), row)
    }

    /// The variables of row `row` of `table` (the target's, `None` for the
    /// swept table's own), its positions of form `form`: those of a read
    /// of the same row before, else new ones.
    fn row_kept(
        &mut self,
        (target, table, form): (Option<usize>, Table, u64),
        row: Vec<Lin>,
    ) -> Option<(Variable, Variable)> {
        let reads = self.row_reads.as_ref()?;
        let key = (target, form, &row);
        if let Some(r) = (reads.rows.iter()).find(|r| (r.target, r.form, &r.row) == key) {
            return Some((r.slots, r.len));
        }
        let (slots, len) = (self.b.declare_var(I64), self.b.declare_var(I64));
        let reads = self.row_reads.as_mut()?;
        reads.rows.push(RowRead {
            target,
            table,
            form,
            row,
            slots,
            len,
        });
        Some((slots, len))
    }

    /// A variable that is 1 until a loop of rows that go on by one has
    /// found its first row's ([`RowReads::carried`]): defined before the
    /// loop.
    pub(super) fn fresh_rows(&mut self) -> Variable {
        let fresh = self.b.declare_var(I64);
        let one = self.int(1);
        self.b.def_var(fresh, one);
        fresh
    }

    /// The address of the swept position's slot `a` in its own row kept
    /// in `(slots, len)` ([`Emit::own_row_read`]): past the row's end,
    /// the kernel's run takes the position (the code bails), as it did
    /// where the row was found at each position.
    pub(super) fn own_slot(&mut self, (slots, len): (Variable, Variable), a: Value) -> Value {
        let len = self.b.use_var(len);
        let out = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, a, len);
        self.bail_if(out);
        let slots = self.b.use_var(slots);
        self.slot_at(slots, a)
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

    /// Fills `reads.prep`, entered at the start of a row whose own slots
    /// (see [`Along::slots`]) the variables `own` hold: each row the loop
    /// reads found, then on to the loop's `body`. Where the rows go on by
    /// one ([`RowReads::carried`]), a row after the first takes, for each
    /// row read one below another, that other's first slot and length at
    /// the row before: `g(n - 3, k)` at row `n` is `g(n - 2, k)` at row
    /// `n - 1`. The sweep's helpers make no row (see the module), so a row
    /// found stays where it is.
    pub(super) fn fill_row_reads(&mut self, reads: RowReads, own: &[Variable], body: Block) {
        self.b.switch_to_block(reads.prep);
        let own: Vec<Value> = own.iter().map(|v| self.b.use_var(*v)).collect();
        let along = reads.along;
        let rows = &reads.rows;
        let Some(fresh) = reads.fresh else {
            self.find_rows(rows.iter(), along, &own);
            self.b.ins().jump(body, &[]);
            return;
        };
        let [all, moved] = self.blocks();
        let first = self.b.use_var(fresh);
        let zero = self.int(0);
        self.b.def_var(fresh, zero);
        self.b.ins().brif(first, all, &[], moved, &[]);
        self.b.switch_to_block(all);
        self.find_rows(rows.iter(), along, &own);
        self.b.ins().jump(body, &[]);
        self.b.switch_to_block(moved);
        // From the lowest row up, so that each takes the next one's before
        // that one moves on.
        let mut order: Vec<&RowRead> = rows.iter().collect();
        order.sort_by_key(|r| r.row.first().map(|lin| lin.c));
        let mut found = Vec::new();
        for r in order {
            match rows.iter().find(|next| r.moves_to(next)) {
                Some(next) => {
                    let (slots, len) = (self.b.use_var(next.slots), self.b.use_var(next.len));
                    self.b.def_var(r.slots, slots);
                    self.b.def_var(r.len, len);
                }
                None => found.push(r),
            }
        }
        self.find_rows(found.into_iter(), along, &own);
        self.b.ins().jump(body, &[]);
    }

    /// Finds each of `rows` from the row's own slots, whose values are
    /// `own`, into its variables.
    fn find_rows<'r>(
        &mut self,
        rows: impl Iterator<Item = &'r RowRead>,
        along: Along,
        own: &[Value],
    ) {
        let slots = along.slots();
        for r in rows {
            // Not `Emit::lin`, which reads the slots of the position being
            // valued: here, before any, the row's own.
            let at = |e: &mut Self, lin: &Lin| {
                let mut v = e.int(lin.c);
                for (s, k) in &lin.terms {
                    let at = slots.iter().position(|x| x == s).expect("a row's own slot");
                    let s = e.b.ins().imul_imm_s(own[at], *k);
                    v = e.b.ins().iadd(v, s);
                }
                v
            };
            let row: Vec<Value> = r.row.iter().map(|lin| at(self, lin)).collect();
            let table = (r.table, r.form);
            let (slots, len) = match row[..] {
                [b, c] => self.row_of(table, (b, c)),
                [n] => self.strip_row_of(table, n),
                _ => unreachable!("a row is named by one or two integers"),
            };
            self.b.def_var(r.slots, slots);
            self.b.def_var(r.len, len);
        }
    }

    /// The first slot and length of the row `(b, c)` of the cube of
    /// `table` (its first `SIDE3_MAX` slots only: a first argument past
    /// them, whose position is in a strip, is the helper's), or a length
    /// of 0 where there is none: no such row, or the table's positions
    /// not of form `form`.
    fn row_of(&mut self, table: (Table, u64), (b, c): (Value, Value)) -> (Value, Value) {
        self.row_or_none(table, |e, table, none| {
            for x in [b, c] {
                e.outside_to(x, (0, SIDE3_MAX), none);
            }
            let row = e.szudzik(b, c);
            let row = e.b.ins().iadd_imm_s(row, STRIP3_ROWS as i64);
            let count = e.count_of(table);
            let out = (e.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, row, count);
            e.leave_if(out, none);
            let (slots, len) = e.own_row_or(table, (row, None), none);
            let side = e.int(SIDE3_MAX);
            (slots, e.b.ins().umin(len, side))
        })
    }

    /// The first slot and length of row `n` of `table`, a strip's (its
    /// own rows or its run's), or a length of 0 where there is none: no
    /// such row, or the table's positions not of form `form`.
    fn strip_row_of(&mut self, table: (Table, u64), n: Value) -> (Value, Value) {
        self.row_or_none(table, |e, table, none| e.any_row_or(table, n, none))
    }

    /// The first slot and length of the row `find` finds in `table` (of
    /// form `form`), which goes to the block it is given where there is
    /// none: then a length of 0, as where the table's positions are not
    /// of that form.
    fn row_or_none(
        &mut self,
        (table, form): (Table, u64),
        find: impl FnOnce(&mut Self, Table, Block) -> (Value, Value),
    ) -> (Value, Value) {
        let join = self.b.create_block();
        let none = self.b.create_block();
        self.b.set_cold_block(none);
        self.b.append_block_param(join, I64);
        self.b.append_block_param(join, I64);
        let table = self.of_form(table, form, none);
        let (slots, len) = find(self, table, none);
        self.b.ins().jump(join, &[slots.into(), len.into()]);
        self.b.switch_to_block(none);
        let zero = self.int(0);
        self.b.ins().jump(join, &[zero.into(), zero.into()]);
        self.b.switch_to_block(join);
        let params = self.b.block_params(join);
        (params[0], params[1])
    }
}
