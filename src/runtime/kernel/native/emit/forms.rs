//! Positions of lists or tuples of a fixed form (`g([a, b])`, see
//! `graph/form.rs`) read straight from their game's dense table, as
//! positions of integers are: when the target's lists are written out
//! item by item, its form is known when compiling, and the table is read
//! wherever it holds that form.

use super::Emit;
use crate::graph::{FREE_MAX, form_code};
use crate::runtime::kernel::Arg;
use crate::runtime::kernel::expr::Num;
use crate::runtime::kernel::seq::Seq;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};

/// A target's form, when its lists are items written out: the form's
/// code and its free integers, in order.
pub(super) struct StaticForm<'a> {
    code: u64,
    ints: Vec<&'a Num>,
}

/// The form of a target of header `header` and arguments `args`, when
/// it is fixed and has one to three free integers.
pub(super) fn static_form(header: i64, args: &[Arg]) -> Option<StaticForm<'_>> {
    if args.len() > FREE_MAX {
        return None;
    }
    let mut ints = Vec::new();
    let mut lens = Vec::new();
    for a in args {
        match a {
            Arg::Int(n) => ints.push(n),
            Arg::Seq(Seq::Items(_, items)) => {
                ints.extend(items);
                lens.push(items.len());
            }
            Arg::Seq(_) => return None,
        }
    }
    if ints.is_empty() || ints.len() > FREE_MAX || lens.is_empty() {
        return None;
    }
    Some(StaticForm {
        code: form_code(header, &lens),
        ints,
    })
}

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
