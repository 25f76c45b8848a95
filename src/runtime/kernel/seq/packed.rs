//! Lists whose items are packed or made of characters: a display of
//! pairs or of strings, a string as an item of a list of strings, a
//! constant one, and `join` of characters.

use super::{Comp, Seq, Types};
use crate::graph::Shape;
use crate::ir::{Ir, IrKind};
use crate::runtime::kernel::expr::Num;
use crate::value::Value;

/// `join(xs, "")` of a list of one-character strings, written out or
/// made by a comprehension (`join([if j % x == 0 then "0" else s[j] for j
/// in 0..len(s)], "")`): a string, each item a character's code point.
pub(super) fn joined(args: &[Ir], types: &Types) -> Option<Seq> {
    let [xs, sep] = args else { return None };
    matches!(&sep.kind, IrKind::Const(Value::Str(sep)) if sep.is_empty()).then_some(())?;
    let character = |e: &Ir| crate::runtime::kernel::expr::character(e, types);
    Some(match &xs.kind {
        IrKind::List(items) => Seq::Items(
            Shape::Str,
            items.iter().map(character).collect::<Option<_>>()?,
        ),
        IrKind::Comprehension {
            set: false,
            elem,
            clauses,
        } => {
            let mut comp = Box::new(Comp::compile(clauses, character(elem)?, types)?);
            comp.items = Shape::Str;
            Seq::Comp(comp)
        }
        _ => return None,
    })
}

/// A list display of pairs or of strings, its items packed.
pub(super) fn packed(items: &[Ir], types: &Types) -> Option<Seq> {
    let pairs = (items.iter())
        .map(|i| crate::runtime::kernel::expr::pair_in(i, types))
        .collect::<Option<_>>();
    Some(match pairs {
        Some(pairs) => Seq::Items(Shape::Pairs, pairs),
        None => Seq::Items(
            Shape::Words,
            (items.iter())
                .map(|i| word_in(i, types))
                .collect::<Option<_>>()?,
        ),
    })
}

/// A string as an item of a list or set of strings, packed: a slot that
/// holds one, an item of a list of them, a constant, or a string made
/// and packed.
pub(in crate::runtime::kernel) fn word_in(ir: &Ir, types: &Types) -> Option<Num> {
    Some(match &ir.kind {
        IrKind::Local(s) if types.is_word(*s) => Num::Named(*s),
        IrKind::Const(Value::Str(s)) => Num::Const(crate::graph::flat::pack_word(s)?),
        _ => match Seq::compile(ir, types)? {
            Seq::Word(w) => *w,
            xs if xs.shape(types) == Shape::Str => Num::Pack(Box::new(xs)),
            _ => return None,
        },
    })
}

/// A constant list, set or tuple of pairs, list or set of strings, or
/// list or tuple of booleans: its shape and its items, packed.
pub(super) fn constant_packed(v: &Value) -> Option<(Shape, Vec<i64>)> {
    let mut run = Vec::new();
    crate::graph::flat::encode(std::slice::from_ref(v), &mut run).then_some(())?;
    let shape = crate::graph::flat::shape(run[0], 0);
    (shape.without_pairs() != shape).then(|| (shape, run[2..].to_vec()))
}
