//! Positions of lists or tuples of a fixed form (`g([a, b])`, see
//! `graph/form.rs`) read straight from their game's dense table, as
//! positions of integers are: when the target's lists are written out
//! item by item, its form is known when compiling, and the table is read
//! wherever it holds that form.

use super::Emit;
use crate::runtime::kernel::Arg;
use crate::runtime::kernel::forms::StaticForm;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};

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
        let [slow, join] = self.blocks();
        self.b.set_cold_block(slow);
        let value = self.b.declare_var(I64);
        self.read_dense(self.tables[index], (&ints, form.code), value, (slow, join));
        self.b.switch_to_block(slow);
        let v = self.flat_looked_up(index, header, args)?;
        self.b.def_var(value, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(value))
    }
}
