//! A move's target compiled into the terms of its options: games
//! applied to integers or to lists, heaps, and sums of those, of
//! comprehensions of those or of lists of those written out.

use super::expr::num_in;
use super::seq::Comp;
use super::{Arg, Term, Types};
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::{GameId, Value};

/// Pushes on `out` the terms of a computed target that is a sum of games
/// applied to integers, heaps, and sums of comprehensions or of lists
/// written out of those: `g(a) + sum([g(n / k) for i in 1..=k])`,
/// `sum([g(a), g(n - a)])`. A sum of positions is their
/// disjunctive sum, whose value is the xor of theirs. (A `sum` of
/// integers is an integer, which as a target is an error, the
/// interpreter's to report: an element must be a position.)
pub(super) fn summed(ir: &Ir, types: &Types, out: &mut Vec<Term>) -> Option<()> {
    match &ir.kind {
        IrKind::Const(Value::Int(0)) => {}
        IrKind::Binary(BinOp::Add, a, b) => {
            summed(a, types, out)?;
            summed(b, types, out)?;
        }
        IrKind::Unary(UnOp::Heap, k) => out.push(Term::Heap(num_in(k, types)?)),
        // A position of integers, or with lists (`g(hs[:i] + hs[i + 1:])`),
        // as a target written out takes them.
        IrKind::Apply(game, args) => out.push(term(*game, args, types)?),
        IrKind::CallBuiltin(Builtin::Sum, args) => {
            let [arg] = &args[..] else { return None };
            // `sum([g(a), g(n - a)])`, a list of positions written out:
            // `0 + g(a) + g(n - a)`, each item a position (none the
            // integer 0).
            if let IrKind::List(items) = &arg.kind {
                for item in items {
                    let before = out.len();
                    summed(item, types, out)?;
                    (out.len() > before).then_some(())?;
                }
                return Some(());
            }
            let IrKind::Comprehension {
                set: false,
                elem,
                clauses,
            } = &arg.kind
            else {
                return None;
            };
            let mut each = Vec::new();
            summed(elem, types, &mut each)?;
            // A position, never the integer 0 (every other form above is
            // a position).
            (!each.is_empty()).then_some(())?;
            out.push(Term::Sum(Box::new(Comp::compile(clauses, each, types)?)));
        }
        _ => return None,
    }
    Some(())
}

/// A node term: integer arguments, or a flat run when some are lists.
pub(super) fn term(game: GameId, args: &[Ir], types: &Types) -> Option<Term> {
    if let Some(nums) = args
        .iter()
        .map(|a| num_in(a, types))
        .collect::<Option<Vec<_>>>()
        .filter(|nums| nums.len() <= 3)
    {
        return Some(Term::Node(game, nums));
    }
    // Four or more integers, or lists: the position is keyed by its flat
    // run, made in place.
    let (header, args) = Arg::compile(args, types)?;
    Some(Term::Flat(game, header, args))
}
