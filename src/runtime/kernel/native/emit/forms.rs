//! Positions of lists or tuples of a fixed form (`g([a, b])`, see
//! `graph/form.rs`) read straight from their game's dense table, as
//! positions of integers are: when the target's lists are written out
//! item by item, its form is known when compiling, and the table is read
//! wherever it holds that form; when its one list is made otherwise (a
//! comprehension, `[min(x, c) for x in rows]`), the run made is read for
//! each length the form may have.

use super::{Emit, trusted};
use crate::graph::{FREE_MAX, flat, form_code};
use crate::runtime::kernel::Arg;
use crate::runtime::kernel::forms::StaticForm;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};
use cranelift_frontend::Variable;

impl Emit<'_, '_> {
    /// The value of target `index`'s position of form `form`: read from
    /// the table where it holds that form and a plain value for the
    /// position, else looked up by the helper, as
    /// [`Emit::flat_looked_up`] does.
    pub(super) fn form_term(
        &mut self,
        index: usize,
        form: StaticForm<'_>,
        (header, args): (i64, &[Arg]),
    ) -> Option<Value> {
        for (s, value) in &form.lets {
            let v = self.num(value)?;
            let slot = self.slot_var(*s as usize);
            self.b.def_var(slot, v);
        }
        let ints = (form.ints.iter())
            .map(|n| self.num(n))
            .collect::<Option<Vec<_>>>()?;
        // The argument read along a row found before a sweep's row loop:
        // a cube's first, a strip's second.
        let row = match form.ints[..] {
            [_, b, c] => self
                .row_read(index, &[b, c], form.code)
                .map(|r| (r, ints[0])),
            [n, _] => self.row_read(index, &[n], form.code).map(|r| (r, ints[1])),
            _ => None,
        };
        self.read_or_looked_up(index, (header, args), |e, value, exits| match row {
            Some((row, along)) => e.read_row(row, along, value, exits),
            None => {
                let table = e.dense_table(index, (form.code, ints.len()));
                e.read_dense(table, (&ints, form.code), value, exits)
            }
        })
    }

    /// For a target whose one list or tuple argument is made at run time
    /// (the others integers), its flat run the arena's items from `from`
    /// on: reads the table where it holds the run's form, for each length
    /// of the list a form can have (one to four integers in all). Returns
    /// the variable that gets the value, and the block that joins; the
    /// builder is left in the cold block where the table has no value
    /// for it, which must define the variable and go to the join.
    pub(in crate::runtime::kernel::native::emit) fn made_form(
        &mut self,
        index: usize,
        header: i64,
        args: &[Arg],
        from: Value,
    ) -> Option<(Variable, Block)> {
        let table = *self.tables.get(index)?;
        let mut lists = args
            .iter()
            .enumerate()
            .filter(|(_, a)| matches!(a, Arg::Seq(_)));
        let (at, _) = lists.next()?;
        let shape = flat::shape(header, at);
        if lists.next().is_some() || !matches!(shape, flat::Shape::List | flat::Shape::Tuple) {
            return None;
        }
        let ints = args.len() - 1;
        let lens = usize::from(ints == 0)..=FREE_MAX.checked_sub(ints)?;
        let [slow, join] = self.blocks();
        self.b.set_cold_block(slow);
        let value = self.b.declare_var(I64);
        // A table of integers, or of list positions of no form: the
        // helper's, with no length looked at.
        let form = self.form_of(table);
        let formless = self.b.ins().icmp_imm_s(IntCC::Equal, form, 0);
        self.leave_if(formless, slow);
        // The run: the header, the integers before the list, its length
        // and items, the integers after.
        let load = |e: &mut Self, i: usize| {
            let offset = e.b.ins().iadd_imm_s(from, i as i64);
            let offset = e.b.ins().ishl_imm_s(offset, 3);
            let addr = e.b.ins().iadd(e.arena, offset);
            e.b.ins().load(I64, trusted(), addr, 0)
        };
        let len = load(self, 1 + at);
        for n in lens {
            let [this, next] = self.blocks();
            let same = self.b.ins().icmp_imm_s(IntCC::Equal, len, n as i64);
            self.b.ins().brif(same, this, &[], next, &[]);
            self.b.switch_to_block(this);
            let free: Vec<Value> = (0..at)
                .map(|i| 1 + i)
                .chain((0..n).map(|k| 2 + at + k))
                .chain((at + 1..args.len()).map(|i| 2 + n + i - 1))
                .map(|i| load(self, i))
                .collect();
            let code = form_code(header, &[n]);
            self.read_dense(table, (&free, code), value, (slow, join));
            self.b.switch_to_block(next);
        }
        self.b.ins().jump(slow, &[]);
        self.b.switch_to_block(slow);
        Some((value, join))
    }
}
