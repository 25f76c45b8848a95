//! What the rules read of their slots, walked in their expressions: the
//! `let`s they bind, the collections they read, the strings and
//! characters they compare with.

use super::super::SetOp;
use crate::builtins::Builtin;
use crate::ir::{ClauseIr, Ir, IrKind, PatIr, Slot};
use crate::runtime::normalize::each_child;
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// Pushes on `out` the slot of every `let` of one name in `ir`.
pub(super) fn lets(ir: &Ir, out: &mut Vec<Slot>) {
    if let IrKind::Let(PatIr::Slot(s), ..) = ir.kind
        && !out.contains(&s)
    {
        out.push(s);
    }
    each_child(ir, &mut |c| lets(c, out));
}

/// Pushes on `out` the slot of each local that a comparison in `ir`
/// compares with a string written out: `s == "up"`, `"end" != s`.
pub(super) fn compared_with_text(ir: &Ir, out: &mut Vec<Slot>) {
    if let IrKind::Binary(op, a, b) = &ir.kind
        && op.is_comparison()
    {
        for (x, c) in [(a, b), (b, a)] {
            if let (IrKind::Local(s), IrKind::Const(Value::Str(_))) = (&x.kind, &c.kind) {
                out.push(*s);
            }
        }
    }
    each_child(ir, &mut |c| compared_with_text(c, out));
}

/// Pushes on `out` each slot `s` that `ir` reads as `s[i] == "c"` (any
/// comparison), beside a string of one character.
pub(super) fn characters(ir: &Ir, out: &mut Vec<Slot>) {
    let indexed = |e: &Ir| match &e.kind {
        IrKind::Index(xs, _) => match xs.kind {
            IrKind::Local(s) => Some(s),
            _ => None,
        },
        _ => None,
    };
    beside_characters(ir, &indexed, out);
}

/// Pushes on `out` each slot that `read` finds in an operand of a
/// comparison in `ir` with a string of one character.
pub(super) fn beside_characters(ir: &Ir, read: &impl Fn(&Ir) -> Option<Slot>, out: &mut Vec<Slot>) {
    let one = |e: &Ir| matches!(&e.kind, IrKind::Const(Value::Str(c)) if c.chars().count() == 1);
    let mut pair = |a: &Ir, b: &Ir| {
        for (x, c) in [(a, b), (b, a)] {
            if let Some(s) = read(x).filter(|_| one(c)) {
                out.push(s);
            }
        }
    };
    match &ir.kind {
        IrKind::Binary(op, a, b) if op.is_comparison() => pair(a, b),
        IrKind::Chain(operands, _) => operands.windows(2).for_each(|w| pair(&w[0], &w[1])),
        _ => {}
    }
    each_child(ir, &mut |c| beside_characters(c, read, out));
}

/// Pushes on `out` the slot and the value of every `let` of one name in
/// `ir`.
pub(super) fn values(ir: &Ir, out: &mut Vec<(Slot, Ir)>) {
    if let IrKind::Let(PatIr::Slot(s), value, _) = &ir.kind {
        out.push((*s, (**value).clone()));
    }
    each_child(ir, &mut |c| values(c, out));
}

/// Whether `ir` makes a set: a set display, a constant set, a set
/// comprehension, `set(...)`, a row of a constant list of sets, or a
/// set operator applied to one.
pub(super) fn set_made(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Set(_)
        | IrKind::Const(Value::Set(_))
        | IrKind::Comprehension { set: true, .. }
        | IrKind::CallBuiltin(Builtin::Set, _) => true,
        IrKind::Binary(op, a, b) if SetOp::of(*op).is_some() => set_made(a) || set_made(b),
        // A row of a constant list of sets, `NB[v]`.
        IrKind::Index(xs, _) => match &xs.kind {
            IrKind::Const(v) => v.as_slice().is_some_and(|rows| {
                !rows.is_empty() && rows.iter().all(|r| matches!(r, Value::Set(_)))
            }),
            _ => false,
        },
        _ => false,
    }
}

/// Calls `mark` on every operand of `ir` used as a collection.
pub(super) fn walk(ir: &Ir, mark: &mut impl FnMut(&Ir)) {
    match &ir.kind {
        IrKind::Index(x, _) | IrKind::Slice(x, ..) => mark(x),
        IrKind::CallBuiltin(
            Builtin::Len
            | Builtin::Sorted
            | Builtin::Reversed
            | Builtin::Sum
            | Builtin::All
            | Builtin::Any
            | Builtin::Enumerate,
            args,
        ) => args.iter().for_each(&mut *mark),
        IrKind::CallBuiltin(Builtin::Min | Builtin::Max, args) if args.len() == 1 => mark(&args[0]),
        IrKind::Binary(BinOp::In | BinOp::NotIn, _, xs) => mark(xs),
        // `xs - {x}`: an operand of a set operator beside a set made there.
        IrKind::Binary(_, a, b) if set_made(ir) => {
            mark(a);
            mark(b);
        }
        IrKind::Comprehension { clauses, .. } => {
            for c in clauses {
                if let ClauseIr::For(_, xs) = c {
                    mark(xs);
                }
            }
        }
        _ => {}
    }
    each_child(ir, &mut |c| walk(c, mark));
}
