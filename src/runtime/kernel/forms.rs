//! A target whose lists are written out item by item (`g([a - k, b])`)
//! has a fixed form (see `graph/form.rs`): the machine code reads its
//! value from a dense table of that form, as it reads integer positions.

use super::Arg;
use super::expr::Num;
use super::seq::Seq;
use crate::graph::{FREE_MAX, form_code};
use crate::ir::Slot;

/// A target's form, when its lists are items written out: the form's
/// code and its free integers, in order.
pub(super) struct StaticForm<'a> {
    pub code: u64,
    pub ints: Vec<&'a Num>,
    /// The `let`s around the items (`let v = h[i] - k in (v, h[1])`, a
    /// helper's argument bound once), each slot and value in order: the
    /// items read them.
    pub lets: Vec<(Slot, &'a Num)>,
}

/// The form of a target of header `header` and arguments `args`, when
/// it is fixed and has one to four free integers.
pub(super) fn static_form(header: i64, args: &[Arg]) -> Option<StaticForm<'_>> {
    // Packed pairs are no indexes of a table.
    if args.len() > FREE_MAX || crate::graph::flat::has_packed(header) {
        return None;
    }
    let mut ints = Vec::new();
    let mut lens = Vec::new();
    let mut lets = Vec::new();
    for a in args {
        let mut xs = match a {
            Arg::Int(n) => {
                ints.push(n);
                continue;
            }
            Arg::Seq(xs) => xs,
        };
        while let Seq::Let(s, value, body) = xs {
            lets.push((*s, &**value));
            xs = body;
        }
        let Seq::Items(_, items) = xs else {
            return None;
        };
        ints.extend(items);
        lens.push(items.len());
    }
    // Integers only have dense indices of their own; with a boolean
    // among them, they are a form's.
    let plain = lens.is_empty() && crate::graph::flat::plain(header);
    if ints.is_empty() || ints.len() > FREE_MAX || plain {
        return None;
    }
    Some(StaticForm {
        code: form_code(header, &lens),
        ints,
        lets,
    })
}
