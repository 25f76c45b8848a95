//! The reads of the options' values: from a dense table by page and
//! place (or row and column), beside the swept position's own slot, or
//! through the helper for anything else.

use super::{Emit, Table, trusted};
use crate::graph::{DENSE_END, Dense, LONG3_MAX, SIDE3_MAX, STRIP3_ROWS, STRIP3_WIDTH};
use crate::runtime::kernel::expr::Num;
use crate::runtime::kernel::seq::Comp;
use crate::runtime::kernel::{ITEMS_MAX, Term};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, Inst, InstBuilder, Value,
    types::{I32, I64},
};

impl Emit<'_, '_> {
    /// A term's nim-value: a heap's size, or a position's value read from
    /// its game's dense table.
    pub(super) fn term(&mut self, term: &Term) -> Option<Value> {
        let (game, args) = match term {
            Term::Heap(k) => {
                let v = self.num(k)?;
                let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
                self.bail_if(negative);
                return Some(v);
            }
            Term::Node(game, args) => (*game, args),
            Term::Flat(game, header, args) => return self.flat_term(*game, *header, args),
            Term::Sum(comp) => return self.sum(comp),
        };
        let index = self.targets.iter().position(|t| *t == (game, args.len()))?;
        let [slow, join] = self.blocks();
        self.b.set_cold_block(slow);
        let value = self.b.declare_var(I64);
        let given = args
            .iter()
            .map(|a| self.num(a))
            .collect::<Option<Vec<_>>>()?;
        // Made before any branch to `slow`, which reads it.
        let zero = self.int(0);
        let (a, b, c) = match given.as_slice() {
            [n] => (*n, zero, zero),
            [a, b] => (*a, *b, zero),
            [a, b, c] => (*a, *b, *c),
            _ => return None,
        };
        // In a row only where the target names the row itself: elsewhere
        // the test would cost each option and never pass.
        let own = self.window.is_some_and(|(own, _)| own == index);
        if let Some((_, window)) = self.window
            && own
            && given.len() <= 2
            && (window.row.is_none() || matches!(args[0], Num::Slot(0)))
        {
            self.read_below(window, &given, value, (slow, join));
        }
        // Another game's page is kept: a loop over `k` reads `value(g(k))`
        // along it. The game's own options far from the swept position
        // are each in another page.
        match (self.pages.get(index).copied().flatten(), given.as_slice()) {
            (Some(cache), [n]) if !own => {
                self.read_kept(self.tables[index], cache, *n, value, (slow, join));
            }
            (_, [a, _, _]) if let Some(row) = self.row_read(index, &[&args[1], &args[2]], 0) => {
                self.read_row(row, *a, value, (slow, join));
            }
            (_, [_, b]) if let Some(row) = self.row_read(index, &[&args[0]], 0) => {
                self.read_row(row, *b, value, (slow, join));
            }
            _ => {
                let table = self.dense_table(index, (0, given.len()));
                self.read_dense(table, (&given, 0), value, (slow, join));
            }
        }
        self.b.switch_to_block(slow);
        let v = self.read_slow(index, &given, [a, b, c]);
        self.b.def_var(value, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(value))
    }

    /// The value of target `index`'s position `given` (also as the
    /// helper takes it: `abc`) where the dense tables had none, from the
    /// current block. A hashed position with a value is read here;
    /// anything else is the helper's: a large value, one without a value
    /// yet (then 0 here, and the position's marks no longer count), one
    /// on the search path (bail).
    fn read_slow(&mut self, index: usize, given: &[Value], [a, b, c]: [Value; 3]) -> Value {
        let got = self.b.create_block();
        self.b.set_cold_block(got);
        self.b.append_block_param(got, I64);
        if given.len() <= 2 && self.probes {
            self.probe_hashed(index, given, got);
        }
        self.note_option();
        let target = self.int(index as i64);
        let call = match given.len() {
            3 => self
                .b
                .ins()
                .call(self.unusual3, &[self.ctx, target, a, b, c]),
            _ => self.b.ins().call(self.unusual, &[self.ctx, target, a, b]),
        };
        self.forget_pages();
        let v = self.helper_result(call);
        let v = self.helper_value(v);
        self.b.ins().jump(got, &[v.into()]);
        self.b.switch_to_block(got);
        let v = self.b.block_params(got)[0];
        if self.within_marks {
            let len = self.marks_len();
            let past = (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, v, len);
            self.bail_if(past);
        }
        v
    }

    /// What the helper called by `call` returned: its result, or, called
    /// through a trampoline that keeps every register ([`Emit::kept`]),
    /// which returns nothing, the context's `ret` it wrote.
    pub(super) fn helper_result(&mut self, call: Inst) -> Value {
        if let Some(&v) = self.b.inst_results(call).first() {
            return v;
        }
        let ret = std::mem::offset_of!(super::super::Ctx, ret) as i32;
        self.b.ins().load(I64, trusted(), self.ctx, ret)
    }

    /// A [`Term::Sum`]'s value: the xor of its items' terms, as the
    /// kernel's run finds it, leaving the position past
    /// [`ITEMS_MAX`] items.
    fn sum(&mut self, comp: &Comp<Vec<Term>>) -> Option<Value> {
        let (acc, items) = (self.b.declare_var(I64), self.b.declare_var(I64));
        let zero = self.int(0);
        self.b.def_var(acc, zero);
        self.b.def_var(items, zero);
        // A list the first clause makes is dropped after.
        let top = self.b.use_var(self.top);
        self.comp_from(comp, &mut |e, terms, next| {
            let n = e.b.use_var(items);
            let n = e.b.ins().iadd_imm_s(n, 1);
            let over = (e.b.ins()).icmp_imm_s(IntCC::SignedGreaterThan, n, ITEMS_MAX as i64);
            e.bail_if(over);
            e.b.def_var(items, n);
            for t in terms {
                let v = e.term(t)?;
                let sum = e.b.use_var(acc);
                let sum = e.b.ins().bxor(sum, v);
                e.b.def_var(acc, sum);
            }
            e.b.ins().jump(next, &[]);
            Some(())
        })?;
        self.b.def_var(self.top, top);
        Some(self.b.use_var(acc))
    }

    /// The table target `index`'s positions of form `code` read by
    /// `ints` integers are read in: the game's own, loaded once, where
    /// the target is the game itself ([`super::OwnRead`]), else the
    /// target's.
    pub(super) fn dense_table(&self, index: usize, (code, ints): (u64, usize)) -> Table {
        match self.own_read {
            Some(o) if (o.target, o.code, o.ints) == (index, code, ints) => o.table,
            _ => self.tables[index],
        }
    }

    /// Reads the value of the position of one to three integers `args`,
    /// of the form of code `form` (0 for integer arguments), from
    /// `table` into `value`, then goes to `join`; goes to `slow` where
    /// the table holds no plain value for it (outside the table, or one
    /// of its marks), or for other arguments.
    pub(super) fn read_dense(
        &mut self,
        table: Table,
        (args, form): (&[Value], u64),
        value: cranelift_frontend::Variable,
        (slow, join): (Block, Block),
    ) {
        // A table of positions of another form is the helper's; one of
        // list positions shows integer arguments no pages.
        let table = self.of_form(table, form, slow);
        let mut strip = None;
        let place = match args {
            [n] => {
                self.outside_to(*n, (0, DENSE_END.into()), slow);
                self.page_place(*n)
            }
            // No test of the pair's own: a negative argument is past
            // every row and every row's length (compared unsigned), and a
            // slot a row holds past the dense pairs (its length a power
            // of two, a strip's up to 2²⁴) is absent, the slow path's.
            [a, b] => (*a, *b),
            [a, b, c] => {
                // The cube's rows follow the strips'. A long first
                // argument is read out of line, below.
                let long = self.b.create_block();
                self.b.set_cold_block(long);
                for x in [b, c] {
                    self.outside_to(*x, (0, SIDE3_MAX), slow);
                }
                self.outside_to(*a, (0, SIDE3_MAX), long);
                strip = Some((long, (*a, *b, *c)));
                let row = self.szudzik(*b, *c);
                (self.b.ins().iadd_imm_s(row, STRIP3_ROWS as i64), *a)
            }
            // A form of four free integers: as four integers are kept
            // (see `crate::graph::dense4`), row by the last three.
            [a, b, c, d] => {
                for x in [a, b, c, d] {
                    self.outside_to(*x, (0, crate::graph::SIDE4_MAX), slow);
                }
                (self.cube_index(*b, *c, *d), *a)
            }
            _ => {
                self.b.ins().jump(slow, &[]);
                return;
            }
        };
        let at = self.slot_or(table, place, slow);
        self.read_slot(at, value, (slow, join));
        if let Some((long, abc)) = strip {
            self.b.switch_to_block(long);
            let place = self.strip3_place(abc, slow);
            let at = self.slot_or(table, place, slow);
            self.read_slot(at, value, (slow, join));
        }
    }

    /// `at - n`: the `k` of an option `n = at - k` written without a test
    /// of overflow (see [`Emit::range_of`]), which Cranelift does not
    /// fold, else the difference.
    fn below(&mut self, at: Value, n: Value) -> Value {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        let dfg = &self.b.func.dfg;
        if let ValueDef::Result(inst, 0) = dfg.value_def(n)
            && let InstructionData::Binary {
                opcode: Opcode::Isub,
                args: [x, k],
            } = dfg.insts[inst]
            && x == at
        {
            return k;
        }
        self.b.ins().isub(at, n)
    }

    /// Where the triple `(a, b, c)` of a long first argument is in a
    /// table of triples whose cube has its columns along the first
    /// argument: in the strip of a heap and two small counters
    /// (`g(n, a, b)`), row `b * 8 + c`, column `a` past the cube. Another
    /// strip's triple (or a table turned, whose view shows no rows) goes
    /// to `slow`.
    fn strip3_place(&mut self, (a, b, c): (Value, Value, Value), slow: Block) -> (Value, Value) {
        for x in [b, c] {
            self.outside_to(x, (0, STRIP3_WIDTH), slow);
        }
        self.outside_to(a, (SIDE3_MAX, LONG3_MAX), slow);
        let row = self.b.ins().imul_imm_s(b, STRIP3_WIDTH);
        let row = self.b.ins().iadd(row, c);
        (row, self.b.ins().iadd_imm_s(a, -SIDE3_MAX))
    }

    /// Reads the slot at address `at` into `value` and goes to `join`;
    /// goes to `slow` where it holds no plain value (one of its marks).
    pub(super) fn read_slot(
        &mut self,
        at: Value,
        value: cranelift_frontend::Variable,
        (slow, join): (Block, Block),
    ) {
        let narrow = self.b.ins().load(I32, trusted(), at, 0);
        let slot = self.b.ins().uextend(I64, narrow);
        // Within the marks, a value is plain and markable in one test: a
        // plain value past them takes the slow path, which bails on it.
        let unusual = match self.within_marks {
            true => {
                let len = self.marks_len();
                (self.b.ins()).icmp(IntCC::UnsignedGreaterThanOrEqual, slot, len)
            }
            // Compared as 32 bits, the mark is an immediate of the
            // instruction rather than a constant loaded from memory.
            false => (self.b.ins()).icmp_imm_u(
                IntCC::UnsignedGreaterThanOrEqual,
                narrow,
                i64::from(Dense::PLAIN),
            ),
        };
        let fast = self.b.create_block();
        self.b.ins().brif(unusual, slow, &[], fast, &[]);
        self.b.switch_to_block(fast);
        self.b.def_var(value, slot);
        self.b.ins().jump(join, &[]);
    }

    /// The page of a one-integer position `n` in its dense table, and its
    /// place in the page.
    pub(super) fn page_place(&mut self, n: Value) -> (Value, Value) {
        let page = self
            .b
            .ins()
            .ushr_imm_s(n, Dense::PAGE.trailing_zeros() as i64);
        let place = self.b.ins().band_imm_s(n, Dense::PAGE as i64 - 1);
        (page, place)
    }

    /// In a sweep, reads the value of the game's own position `args`
    /// into `value` and goes to `join` when it is in the swept position's
    /// page or row, before it (see [`super::Window`]); goes on in a new
    /// block otherwise, and to `slow` where the slot holds no plain value.
    fn read_below(
        &mut self,
        window: super::Window,
        args: &[Value],
        value: cranelift_frontend::Variable,
        (slow, join): (Block, Block),
    ) {
        let n = *args.last().expect("a position of one or two integers");
        // 1 <= at - n <= place, as one unsigned comparison.
        let below = self.below(window.at, n);
        let less = self.b.ins().iadd_imm_s(below, -1);
        let mut near = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, less, window.place);
        if let (Some(row), [a, _]) = (window.row, args) {
            let same = self.b.ins().icmp(IntCC::Equal, *a, row);
            near = self.b.ins().band(near, same);
        }
        let [fast, far] = self.blocks();
        self.b.ins().brif(near, fast, &[], far, &[]);
        self.b.switch_to_block(fast);
        let back = self.b.ins().imul_imm_s(below, 4);
        let at = self.b.ins().isub(window.slot, back);
        self.read_slot(at, value, (slow, join));
        self.b.switch_to_block(far);
    }

    /// Szudzik's number of the pair `(a, b)`, both non-negative and small
    /// enough: `a² + a + b` where `a >= b`, else `b² + a`. The row of a
    /// triple `(_, a, b)` of the cube among the cube's rows (see [`Dense`]).
    pub(super) fn szudzik(&mut self, a: Value, b: Value) -> Value {
        let ge = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, a, b);
        let (big, small) = (self.b.ins().smax(a, b), self.b.ins().smin(a, b));
        let square = self.b.ins().imul(big, big);
        // a >= b: a² + a + b = big² + big + small; else b² + a = big² + small.
        let zero = self.int(0);
        let extra = self.b.ins().select(ge, big, zero);
        let sum = self.b.ins().iadd(square, extra);
        self.b.ins().iadd(sum, small)
    }

    /// The index of `(a, b, c)` in the dense cube, all three non-negative
    /// and small enough ([`crate::graph::dense3`]): `s³` for the shells
    /// below `s = max(a, b, c)`, then where `(a, b, c)` is in its shell.
    /// Written by which of `a < max(b, c)` holds, each case a sum whose
    /// terms but one are the same for the other arguments fixed: a loop
    /// over one argument's values (an option of a four-integer game taking
    /// from one heap) has Cranelift compute those terms once, before it,
    /// where the formula by `s` was computed whole at every option.
    pub(super) fn cube_index(&mut self, a: Value, b: Value, c: Value) -> Value {
        let m = self.b.ins().smax(b, c);
        let [low, high, join] = self.blocks();
        self.b.append_block_param(join, I64);
        let below = self.b.ins().icmp(IntCC::SignedLessThan, a, m);
        self.b.ins().brif(below, low, &[], high, &[]);
        // a < m = s: m³ + a (2m + 1), then b where b < m, else m + c.
        self.b.switch_to_block(low);
        let before = self.cube_before(m, a);
        let b_low = self.b.ins().icmp(IntCC::SignedLessThan, b, m);
        let m_c = self.b.ins().iadd(m, c);
        let inner = self.b.ins().select(b_low, b, m_c);
        let index = self.b.ins().iadd(before, inner);
        self.b.ins().jump(join, &[index.into()]);
        // a = s: a³ + a (2a + 1), then b (a + 1) + c.
        self.b.switch_to_block(high);
        let before = self.cube_before(a, a);
        let a1 = self.b.ins().iadd_imm_s(a, 1);
        let rows = self.b.ins().imul(b, a1);
        let inner = self.b.ins().iadd(rows, c);
        let index = self.b.ins().iadd(before, inner);
        self.b.ins().jump(join, &[index.into()]);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    /// The triples of the cube before those of shell `s` whose first
    /// argument is `a`: `s³` of the shells below, and `a (2s + 1)` of
    /// the shell's own, each first argument below `a` holding `2s + 1`.
    fn cube_before(&mut self, s: Value, a: Value) -> Value {
        let square = self.b.ins().imul(s, s);
        let cube = self.b.ins().imul(square, s);
        let width = self.b.ins().imul_imm_s(s, 2);
        let width = self.b.ins().iadd_imm_s(width, 1);
        let shell = self.b.ins().imul(a, width);
        self.b.ins().iadd(cube, shell)
    }

    /// What a helper that reads an option's value returned, as a value:
    /// bails on [`super::super::BAIL`]; on [`super::super::MISSING`]
    /// notes that the position's marks no longer count, and gives 0.
    /// A function over dense tables bails at once on either: it stops at
    /// such a position in any case (see [`Emit::valued`]), and a flag
    /// carried through its loops would cost every option.
    pub(super) fn helper_value(&mut self, v: Value) -> Value {
        if self.kept {
            let code = super::super::MISSING as i64;
            let stop = (self.b.ins()).icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, v, code);
            self.bail_if(stop);
            return v;
        }
        let bail = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, v, super::super::BAIL as i64);
        self.bail_if(bail);
        let missing = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, v, super::super::MISSING as i64);
        let flag = self.b.ins().uextend(I64, missing);
        for var in [self.missing, self.option_missing] {
            let before = self.b.use_var(var);
            let after = self.b.ins().bor(before, flag);
            self.b.def_var(var, after);
        }
        let zero = self.int(0);
        self.b.ins().select(missing, zero, v)
    }

    /// Goes on only where `v` is in `lo..hi`, else to `elsewhere`.
    pub(super) fn outside_to(&mut self, v: Value, (lo, hi): (i64, i64), elsewhere: Block) {
        let shifted = self.b.ins().iadd_imm_s(v, lo.wrapping_neg());
        let out = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, shifted, hi - lo);
        self.leave_if(out, elsewhere);
    }
}
