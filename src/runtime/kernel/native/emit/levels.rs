//! Boards swept by machine code, each position without a value yet given
//! its mex, written into the game's own table: by levels (see
//! [`crate::runtime::kernel::Levels`]), for each level `s` from `from` to
//! `to` each position `(a, b)` of the box with `p * a + q * b == s`; or
//! by squares, positions `from..to` in the order of their dense indices
//! (Szudzik's), shell after shell of the square; or by the rows of a
//! cube. The strips' functions are in `strips.rs`.

use super::row_reads::{Along, RowReads};
use super::{BUDGET, Emit, Table, trusted};
use crate::graph::STRIP3_ROWS;
use crate::runtime::kernel::Kernel;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I32, types::I64};
use cranelift_frontend::Variable;

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
        let own = self.own_table(own, (kernel, levels.form.is_some()));
        let [s, a, total] = self.counters();
        let zero = self.int(0);
        let [level, first, row, next_row, next_level, stop] = self.blocks();
        // A level: its first row is the lowest whose column fits the box.
        let sv = self.walk((s, a, total), (from, zero, to), (level, first, stop));
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
        self.value_unknown(kernel, (own, (av, col)), &[av, col], (total, next_row))?;
        self.b.switch_to_block(next_row);
        let av = self.b.use_var(a);
        let av = self.b.ins().iadd_imm_s(av, 1);
        self.b.def_var(a, av);
        self.b.ins().jump(row, &[]);
        // After a level: a pause after enough work, for the caller to look
        // at the clock.
        self.b.switch_to_block(next_level);
        self.walk_on((s, a, total), None, (level, stop, to));
        Some(())
    }

    /// The view of the game's own table, whose rows a table of list,
    /// tuple or boolean positions (`formed`) counts as its form's; the
    /// table the options of the same game then read ([`super::OwnRead`]),
    /// where its form is the kernel's.
    pub(super) fn own_table(&mut self, own: Value, (kernel, formed): (&Kernel, bool)) -> Table {
        let code = kernel.own_form().unwrap_or(0);
        let mut own = self.table(own, 0).formed(formed);
        if formed {
            own.checked = Some(code);
        }
        let own = self.loaded(own);
        let target = self.targets.iter().position(|&(g, _)| g == kernel.game);
        self.own_read = target
            .filter(|_| formed == (code != 0))
            .map(|target| super::OwnRead {
                target,
                code,
                ints: kernel.arity,
                table: own,
            });
        own
    }

    /// The pair of Szudzik number `z`: `(r, s)` for `z = s² + r` with `r <
    /// s`, else `(s, r - s)`.
    fn unpair(&mut self, z: Value) -> (Value, Value) {
        let root = self.checked_call(self.isqrt, &[z]);
        let square = self.b.ins().imul(root, root);
        let r = self.b.ins().isub(z, square);
        let low = self.b.ins().icmp(IntCC::SignedLessThan, r, root);
        let beyond = self.b.ins().isub(r, root);
        let a = self.b.ins().select(low, r, root);
        let b = self.b.ins().select(low, root, beyond);
        (a, b)
    }

    /// Starts a walk by two counters: `outer` from `from`, `inner` at
    /// `first`, `total` at 0, then `head`, which goes to `stop` once
    /// `outer` reaches `to` and to `body` before; the builder is left in
    /// `body`, with `outer`'s value read in `head`.
    pub(super) fn walk(
        &mut self,
        (outer, inner, total): (Variable, Variable, Variable),
        (from, first, to): (Value, Value, Value),
        (head, body, stop): (Block, Block, Block),
    ) -> Value {
        let zero = self.int(0);
        self.b.def_var(outer, from);
        self.b.def_var(inner, first);
        self.b.def_var(total, zero);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let at = self.b.use_var(outer);
        let done = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, at, to);
        self.b.ins().brif(done, stop, &[], body, &[]);
        self.b.switch_to_block(body);
        at
    }

    /// The end of a walk's outer step ([`Emit::walk`]): `inner` back at
    /// `first` (if given), `outer` one on, and back to `head` unless
    /// `total` is past the budget (a pause at `outer`); then the
    /// function's ends ([`Emit::returns`]).
    pub(super) fn walk_on(
        &mut self,
        (outer, inner, total): (Variable, Variable, Variable),
        first: Option<Value>,
        (head, stop, to): (Block, Block, Value),
    ) {
        if let Some(first) = first {
            self.b.def_var(inner, first);
        }
        let at = self.b.use_var(outer);
        let at = self.b.ins().iadd_imm_s(at, 1);
        self.b.def_var(outer, at);
        let at = self.b.ins().ishl_imm_s(at, 32);
        self.pause_or(total, head, at);
        self.returns(stop, to, (outer, inner));
    }

    /// `N` integer variables, for a function's counters.
    pub(super) fn counters<const N: usize>(&mut self) -> [Variable; N] {
        std::array::from_fn(|_| self.b.declare_var(I64))
    }

    /// The ends of a function that walks by two counters: `stop` returns
    /// `to << 32`, the bail block `high << 32 | low` of the counters
    /// where it left a position to the kernel's run.
    fn returns(&mut self, stop: Block, to: Value, (high, low): (Variable, Variable)) {
        self.b.switch_to_block(stop);
        let done = self.b.ins().ishl_imm_s(to, 32);
        self.b.ins().return_(&[done]);
        self.b.switch_to_block(self.bail);
        let (hv, lv) = (self.b.use_var(high), self.b.use_var(low));
        let hv = self.b.ins().ishl_imm_s(hv, 32);
        let at = self.b.ins().bor(hv, lv);
        self.b.ins().return_(&[at]);
    }

    /// The square function: positions `from..to` by dense index, `(a, m)`
    /// for `a` below `m` then `(m, b)` for `b` up to `m`, shell `m` after
    /// shell. Returns `to` when done, the index of the position it left to
    /// the kernel's run, or, with [`super::super::PAUSED`] set, where it
    /// paused after enough work.
    pub(super) fn square(
        &mut self,
        kernel: &Kernel,
        (from, to): (Value, Value),
        own: Value,
    ) -> Option<()> {
        // A tuple of two split into the integers: options read by its form.
        let own = match kernel.split_ints() {
            Some(_) => self.own_table(own, (kernel, true)),
            None => self.table_once(own, 0),
        };
        let [z, a, b, total] = self.counters();
        self.terminal = true;
        // The first position.
        let (a0, b0) = self.unpair(from);
        let zero = self.int(0);
        self.b.def_var(z, from);
        self.b.def_var(a, a0);
        self.b.def_var(b, b0);
        self.b.def_var(total, zero);
        let [head, next, stop] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let zv = self.b.use_var(z);
        let done = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, zv, to);
        let body = self.b.create_block();
        self.b.ins().brif(done, stop, &[], body, &[]);
        self.b.switch_to_block(body);
        let (av, bv) = (self.b.use_var(a), self.b.use_var(b));
        self.value_unknown(kernel, (own, (av, bv)), &[av, bv], (total, next))?;
        // The next position: along the shell's top row, then its column.
        self.b.switch_to_block(next);
        let (av, bv, zv) = (self.b.use_var(a), self.b.use_var(b), self.b.use_var(z));
        let z1 = self.b.ins().iadd_imm_s(zv, 1);
        self.b.def_var(z, z1);
        let m = self.b.ins().smax(av, bv);
        let a1 = self.b.ins().iadd_imm_s(av, 1);
        let b1 = self.b.ins().iadd_imm_s(bv, 1);
        let m1 = self.b.ins().iadd_imm_s(m, 1);
        let on_row = self.b.ins().icmp(IntCC::SignedLessThan, av, m);
        let row_end = self.b.ins().icmp(IntCC::Equal, a1, m);
        let col_end = self.b.ins().icmp(IntCC::Equal, bv, m);
        // On the row: (a + 1, m), or (m, 0) at its end; on the column:
        // (m, b + 1), or (0, m + 1) at its end.
        let row_a = self.b.ins().select(row_end, m, a1);
        let row_b = self.b.ins().select(row_end, zero, m);
        let col_a = self.b.ins().select(col_end, zero, m);
        let col_b = self.b.ins().select(col_end, m1, b1);
        let na = self.b.ins().select(on_row, row_a, col_a);
        let nb = self.b.ins().select(on_row, row_b, col_b);
        self.b.def_var(a, na);
        self.b.def_var(b, nb);
        self.pause_or(total, head, z1);
        self.sweep_returns(stop, to, z);
        Some(())
    }

    /// The cube function: for each row `r` from `from` (the low half) to
    /// `to` of the cube of a three-integer game (`(b, c)` of Szudzik
    /// number `r`), each column `a` below `from`'s high half, the position
    /// `(a, b, c)` valued when its slot is unknown. Returns `to << 32`
    /// when done; `r << 32 | a` for the position it left to the kernel's
    /// run; or, with [`super::super::PAUSED`] set, the row where it paused
    /// after enough work.
    pub(super) fn cube(
        &mut self,
        kernel: &Kernel,
        (from, to): (Value, Value),
        own: Value,
    ) -> Option<()> {
        let own = self.own_table(own, (kernel, kernel.own_form().is_some()));
        let width = self.b.ins().ushr_imm_s(from, 32);
        let from = self.b.ins().band_imm_s(from, 0xffff_ffff);
        let [row, col, total, b, c] = self.counters();
        let zero = self.int(0);
        let [head, start, prep, body, next, next_row, stop] = self.blocks();
        // A row: its `(b, c)`, Szudzik's pairing undone; the rows its
        // options read found in `prep`, filled once the loop is made.
        let rv = self.walk((row, col, total), (from, zero, to), (head, start, stop));
        let (bv, cv) = self.unpair(rv);
        self.b.def_var(b, bv);
        self.b.def_var(c, cv);
        self.b.ins().jump(prep, &[]);
        self.row_reads = Some(RowReads::new(prep, Along::Cube));
        self.b.switch_to_block(body);
        let (rv, av) = (self.b.use_var(row), self.b.use_var(col));
        let (bv, cv) = (self.b.use_var(b), self.b.use_var(c));
        let page = self.b.ins().iadd_imm_s(rv, STRIP3_ROWS as i64);
        self.value_unknown(kernel, (own, (page, av)), &[av, bv, cv], (total, next))?;
        self.b.switch_to_block(next);
        let av = self.b.use_var(col);
        let av = self.b.ins().iadd_imm_s(av, 1);
        self.b.def_var(col, av);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, av, width);
        self.b.ins().brif(more, body, &[], next_row, &[]);
        self.b.switch_to_block(next_row);
        self.walk_on((row, col, total), Some(zero), (head, stop, to));
        let reads = self.row_reads.take()?;
        self.fill_row_reads(reads, &[b, c], body);
        Some(())
    }

    /// The position of arguments `args` in row (or page) `a`, column `b`
    /// of the table `own` valued when its slot is unknown (only a
    /// position without a value yet is run), its work added to `total`;
    /// then on to `next`.
    pub(super) fn value_unknown(
        &mut self,
        kernel: &Kernel,
        (own, (a, b)): (Table, (Value, Value)),
        args: &[Value],
        (total, next): (Variable, Block),
    ) -> Option<()> {
        let at = match self.own_row_read(own) {
            Some(row) => self.own_slot(row, b),
            None => self.slot(own, a, b),
        };
        let slot = self.b.ins().load(I32, trusted(), at, 0);
        let slot = self.b.ins().uextend(I64, slot);
        let unknown = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, slot, i64::from(u32::MAX));
        let inside = self.b.create_block();
        self.b.ins().brif(unknown, inside, &[], next, &[]);
        self.b.switch_to_block(inside);
        let window = super::Window {
            row: Some(a),
            at: b,
            place: b,
            slot: at,
        };
        self.valued(kernel, args, window, total)?;
        self.b.ins().jump(next, &[]);
        Some(())
    }

    /// The position of arguments `args` valued into its slot (the
    /// window's, where its options beside it are read: see
    /// [`super::Window`]), its work added to `total`; bails when an option
    /// has no value, or it has none (in a sweep of one or two integers,
    /// setting the context's `terminal` first, for the caller to value
    /// it and go on). The sweeps of one and two integers both run their
    /// positions so.
    pub(super) fn valued(
        &mut self,
        kernel: &Kernel,
        args: &[Value],
        window: super::Window,
        total: Variable,
    ) -> Option<()> {
        self.position_beside(kernel, args, window)?;
        let missing = self.b.use_var(self.missing);
        self.bail_if(missing);
        let count = self.b.use_var(self.count);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, count, 0);
        if self.terminal {
            // Whether this position has none, for the caller to read
            // where the sweep bails (see `super::super::Ctx::terminal`).
            let flag = self.b.ins().uextend(I64, none);
            let at = std::mem::offset_of!(super::super::Ctx, terminal) as i32;
            self.b.ins().store(trusted(), flag, self.ctx, at);
        }
        self.bail_if(none);
        let value = self.first_unmarked();
        self.b.ins().istore32(trusted(), value, window.slot, 0);
        self.next_stamp();
        let work = self.b.use_var(self.work);
        let sum = self.b.use_var(total);
        let sum = self.b.ins().iadd(sum, work);
        self.b.def_var(total, sum);
        Some(())
    }

    /// A sweep's ends: `to` from `stop`, where it ran to the end, and where
    /// it stopped, `at`, from the bail block (at a position without
    /// options, the context's `terminal` set: see [`Emit::valued`]).
    pub(super) fn sweep_returns(&mut self, stop: Block, to: Value, at: Variable) {
        self.b.switch_to_block(stop);
        self.b.ins().return_(&[to]);
        self.terminal = false;
        self.b.switch_to_block(self.bail);
        let at = self.b.use_var(at);
        self.b.ins().return_(&[at]);
    }

    /// Goes on to `again` unless `total` is past the budget; then returns
    /// `at` with [`super::super::PAUSED`] set, for the caller to look at
    /// the clock.
    pub(super) fn pause_or(&mut self, total: Variable, again: Block, at: Value) {
        let sum = self.b.use_var(total);
        let enough = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThan, sum, BUDGET / 4);
        let pause = self.b.create_block();
        self.b.ins().brif(enough, pause, &[], again, &[]);
        self.b.switch_to_block(pause);
        let paused = self.b.ins().bor_imm_s(at, super::super::PAUSED as i64);
        self.b.ins().return_(&[paused]);
    }
}
