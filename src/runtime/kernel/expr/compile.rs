//! Integer and boolean expressions compiled from the IR, with the slots a
//! [`Types`] says: `None` for what the compiled rules do not take.

use super::bools::{bool_in, bool_member};
use super::length::length;
use super::text::{character_in, characters, within, word_member};
use super::{Cond, Lin, Members, Num, spelled};
use crate::builtins::Builtin;
use crate::graph::{Shape, flat};
use crate::ir::{Ir, IrKind, PatIr, Slot};
use crate::runtime::kernel::calls;
use crate::runtime::kernel::seq::{Comp, Fold, Seq, Types};
use std::rc::Rc;

use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;

/// Splits a guard at its top-level `and`s (chained comparisons too).
pub fn conjuncts(ir: &Ir, out: &mut Vec<Cond>, t: &Types) -> Option<()> {
    match &ir.kind {
        IrKind::Binary(BinOp::And, a, b) => {
            conjuncts(a, out, t)?;
            conjuncts(b, out, t)
        }
        IrKind::Chain(operands, ops) => {
            for (i, op) in ops.iter().enumerate() {
                spelled::push_split(out, comparison(*op, &operands[i], &operands[i + 1], t)?);
            }
            Some(())
        }
        // `not (a or b)` is `not a and not b`, evaluated in the same
        // order and stopping at the same point: conjuncts, each a loop
        // may be narrowed by (`not (x < 0 or x >= N)`).
        IrKind::Unary(UnOp::Not, a) if let IrKind::Binary(BinOp::Or, x, y) = &a.kind => {
            let not = |e: &Ir| Ir {
                kind: IrKind::Unary(UnOp::Not, Box::new(e.clone())),
                span: e.span,
            };
            conjuncts(&not(x), out, t)?;
            conjuncts(&not(y), out, t)
        }
        _ => {
            spelled::push_split(out, cond_in(ir, t)?);
            Some(())
        }
    }
}

/// The integer expression `ir`, with the slots `t` says, as a linear
/// form when it is one.
pub fn num_in(ir: &Ir, t: &Types) -> Option<Num> {
    let n = tree(ir, t)?;
    Some(match Lin::of(&n) {
        Some(lin) if !t.wide && !matches!(n, Num::Const(_) | Num::Slot(_)) => Num::Lin(lin),
        _ => n,
    })
}

fn tree(ir: &Ir, t: &Types) -> Option<Num> {
    let num = |ir: &Ir| num_in(ir, t);
    let list = |ir: &Ir| Seq::numbers(ir, t).map(Box::new);
    Some(match &ir.kind {
        IrKind::Const(Value::Int(n)) => Num::Const(*n),
        IrKind::Local(slot) if t.is_named(*slot) => Num::Named(*slot),
        // A pair is read as one only (see `pair_in`).
        IrKind::Local(slot) if t.is_pair(*slot) => return None,
        // So is a character (see `character`), and a string packed.
        IrKind::Local(slot) if t.is_char(*slot) || t.is_word(*slot) => return None,
        // A boolean is a number only where a condition's value is taken
        // (see `bool_in`): `first + 1` is the interpreter's to report.
        IrKind::Local(slot) if t.is_bool(*slot) => return None,
        IrKind::Local(slot) if !t.is_list(*slot) => Num::Slot(*slot),
        IrKind::Let(PatIr::Slot(s), value, body) if t.is_named(*s) => {
            Num::Let(*s, Box::new(num(value)?), Box::new(num(body)?))
        }
        IrKind::Global(id) => Num::Global(*id),
        IrKind::Unary(UnOp::Neg, a) => Num::Neg(Box::new(num(a)?)),
        IrKind::Unary(UnOp::BitNot, a) => Num::BitNot(Box::new(num(a)?)),
        IrKind::Binary(op, a, b) if op.is_arithmetic() => {
            Num::Bin(*op, Box::new(num(a)?), Box::new(num(b)?))
        }
        IrKind::If(c, a, b) => Num::If(
            Box::new(cond_in(c, t)?),
            Box::new(num(a)?),
            Box::new(num(b)?),
        ),
        IrKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max), args) if args.len() >= 2 => {
            Num::Extremum(
                *b == Builtin::Min,
                args.iter().map(num).collect::<Option<_>>()?,
            )
        }
        IrKind::CallBuiltin(Builtin::Isqrt, args) if args.len() == 1 => {
            Num::Isqrt(Box::new(num(&args[0])?))
        }
        IrKind::CallBuiltin(b @ (Builtin::Popcount | Builtin::BitLength), args)
            if args.len() == 1 =>
        {
            Num::Bits(*b == Builtin::Popcount, Box::new(num(&args[0])?))
        }
        IrKind::CallBuiltin(Builtin::Gcd, args) if args.len() == 2 => {
            Num::Gcd(Box::new(num(&args[0])?), Box::new(num(&args[1])?))
        }
        IrKind::CallBuiltin(Builtin::Abs, args) if args.len() == 1 => {
            Num::Abs(Box::new(num(&args[0])?))
        }
        IrKind::CallBuiltin(Builtin::Len, args) if args.len() == 1 => length(&args[0], t)?,
        IrKind::CallBuiltin(b @ (Builtin::Sum | Builtin::Min | Builtin::Max), args)
            if args.len() == 1 =>
        {
            let fold = match b {
                Builtin::Sum => Fold::Sum,
                Builtin::Min => Fold::Min,
                _ => Fold::Max,
            };
            Num::Fold(fold, list(&args[0])?)
        }
        IrKind::Index(xs, i) => match list(xs) {
            Some(xs) => Num::Index(xs, Box::new(num(i)?)),
            // `ps[i][0]`: a half of a pair.
            None => half(pair_in(xs, t)?, i)?,
        },
        IrKind::CallBuiltin(Builtin::Value, args) if (t.queries || t.rules) && args.len() == 1 => {
            value_of(&args[0], t)?
        }
        IrKind::CallFn(f, args) => calls::num(*f, args, t).unwrap_or(Num::Bail),
        _ => return None,
    })
}

/// A pair of integers as one, packed ([`flat::pack`]): `(a, b)` written
/// out or constant, an item of a list of pairs (`ps[i]`), a tuple slot
/// (a helper's argument bound once) when it holds two items, or a choice
/// of them by `if`.
pub fn pair_in(ir: &Ir, t: &Types) -> Option<Num> {
    let pair = |ir: &Ir| pair_in(ir, t).map(Box::new);
    Some(match &ir.kind {
        IrKind::Tuple(xy) if xy.len() == 2 => {
            Num::Pair(Box::new(num_in(&xy[0], t)?), Box::new(num_in(&xy[1], t)?))
        }
        IrKind::Const(Value::Tuple(xy)) => match xy.as_ref() {
            [Value::Int(x), Value::Int(y)] => Num::Const(flat::pack(*x, *y)?),
            _ => return None,
        },
        IrKind::Index(ps, i) => {
            let ps = Seq::compile(ps, t).filter(|ps| ps.shape(t).of_pairs())?;
            Num::Index(Box::new(ps), Box::new(num_in(i, t)?))
        }
        // Any integer, never read by a linear form.
        IrKind::Local(s) if t.is_pair(*s) => Num::Named(*s),
        IrKind::Local(s) if t.shape(*s) == Shape::Tuple => {
            let item = |k| Box::new(Num::Index(Box::new(Seq::Slot(*s)), Box::new(Num::Const(k))));
            let two = Cond::Cmp(BinOp::Eq, Num::Len(Box::new(Seq::Slot(*s))), Num::Const(2));
            Num::If(
                Box::new(two),
                Box::new(Num::Pair(item(0), item(1))),
                Box::new(Num::Bail),
            )
        }
        IrKind::If(c, a, b) => Num::If(Box::new(cond_in(c, t)?), pair(a)?, pair(b)?),
        IrKind::Let(PatIr::Slot(s), value, body) if t.is_named(*s) => {
            Num::Let(*s, Box::new(num_in(value, t)?), pair(body)?)
        }
        _ => return None,
    })
}

/// Item `i` of the packed pair `p`: its first half (`i` 0 or -2), or its
/// second (1 or -1), as [`flat::unpack`] takes them.
fn half(p: Num, i: &Ir) -> Option<Num> {
    let IrKind::Const(Value::Int(i)) = i.kind else {
        return None;
    };
    let p = Box::new(p);
    match i {
        0 | -2 => Some(Num::Bin(BinOp::Shr, p, Box::new(Num::Const(32)))),
        1 | -1 => {
            let low = Num::Bin(BinOp::BitAnd, p, Box::new(Num::Const(0xffff_ffff)));
            let half = Box::new(Num::Const(-flat::PAIR_MIN));
            Some(Num::Bin(BinOp::Sub, Box::new(low), half))
        }
        _ => None,
    }
}

/// `value(apply)` in a query or a guard, where `apply` is a game applied
/// to integer arguments (in a query, also to lists, tuples, sets or
/// strings: [`Num::Ask`]), noted among the games asked about; or a sum of
/// such positions and Nim heaps (`a(n) + b(2 * n) + *3`), the nim-sum of
/// their values.
pub(in crate::runtime::kernel) fn value_of(apply: &Ir, t: &Types) -> Option<Num> {
    let sum = |a: &Ir, b: &Ir| {
        let (a, b) = (value_of(a, t)?, value_of(b, t)?);
        Some(Num::Bin(BinOp::BitXor, Box::new(a), Box::new(b)))
    };
    let (game, args) = match &apply.kind {
        IrKind::Apply(game, args) => (game, args),
        IrKind::Binary(BinOp::Add, a, b) => return sum(a, b),
        // A heap's size, non-negative as the interpreter checks.
        IrKind::Unary(UnOp::Heap, k) => {
            let k = num_in(k, t)?;
            let negative = Cond::Cmp(BinOp::Lt, k.clone(), Num::Const(0));
            return Some(Num::If(
                Box::new(negative),
                Box::new(Num::Bail),
                Box::new(k),
            ));
        }
        _ => return None,
    };
    let Some(nums) = args.iter().map(|a| num_in(a, t)).collect::<Option<_>>() else {
        // Lists, tuples, sets or strings among them: asked by the
        // position's flat run, in a query.
        t.queries.then_some(())?;
        let (header, compiled) = crate::runtime::kernel::Arg::compile(args, t)?;
        t.asked.borrow_mut().push((*game, ASKED_FLAT));
        if let [arg] = args.as_slice()
            && let Some((shape, items)) = match &arg.kind {
                IrKind::Tuple(items) => Some((Shape::Tuple, items)),
                IrKind::List(items) => Some((Shape::List, items)),
                _ => None,
            }
            && let Some(slots) = names(items)
        {
            t.asked_at.borrow_mut().push((*game, slots, Some(shape)));
        }
        return Some(Num::Ask(*game, Box::new((header, compiled))));
    };
    t.asked.borrow_mut().push((*game, args.len()));
    if let Some(slots) = names(args) {
        t.asked_at.borrow_mut().push((*game, slots, None));
    }
    Some(Num::Value(*game, nums))
}

/// The slots of `args` when each is a name.
fn names(args: &[Ir]) -> Option<Vec<Slot>> {
    (args.iter())
        .map(|a| match a.kind {
            IrKind::Local(s) => Some(s),
            _ => None,
        })
        .collect()
}

/// The number of arguments [`Types::asked`] notes for a position asked by
/// its flat run ([`Num::Ask`]): no game has so many, so that no dense
/// table is read for it.
pub const ASKED_FLAT: usize = usize::MAX;

pub fn cond_in(ir: &Ir, t: &Types) -> Option<Cond> {
    let cond = |ir: &Ir| cond_in(ir, t).map(Box::new);
    Some(match &ir.kind {
        IrKind::Const(Value::Bool(b)) => Cond::Const(*b),
        IrKind::Local(s) if t.is_bool(*s) => Cond::Cmp(BinOp::Ne, Num::Slot(*s), Num::Const(0)),
        IrKind::Index(..) if t.makes_bool(ir) => {
            Cond::Cmp(BinOp::Ne, bool_in(ir, t)?, Num::Const(0))
        }
        IrKind::Binary(BinOp::BitXor, a, b) if t.makes_bool(ir) => {
            Cond::Cmp(BinOp::Ne, bool_in(a, t)?, bool_in(b, t)?)
        }
        IrKind::Binary(BinOp::And, a, b) => Cond::And(cond(a)?, cond(b)?),
        IrKind::Binary(BinOp::Or, a, b) => Cond::Or(cond(a)?, cond(b)?),
        IrKind::Unary(UnOp::Not, a) => Cond::not(*cond(a)?),
        IrKind::Binary(op @ (BinOp::In | BinOp::NotIn), x, xs) => match num_in(x, t) {
            Some(x) => match spelled::range(xs, t)
                .and_then(|r| spelled::in_range(*op == BinOp::In, x.clone(), r, t.wide))
            {
                Some(c) => c,
                None => member(*op == BinOp::In, x, Seq::numbers(xs, t)?, t),
            },
            None => character_in(*op == BinOp::In, x, xs, t)
                .or_else(|| pair_member(*op == BinOp::In, x, xs, t))
                .or_else(|| within(*op == BinOp::In, x, xs, t))
                .or_else(|| word_member(*op == BinOp::In, x, xs, t))
                .or_else(|| bool_member(*op == BinOp::In, x, xs, t))?,
        },
        IrKind::Binary(op, a, b) => comparison(*op, a, b, t)?,
        IrKind::Chain(operands, ops) => {
            let mut parts = ops
                .iter()
                .enumerate()
                .map(|(i, op)| comparison(*op, &operands[i], &operands[i + 1], t));
            let first = parts.next()??;
            parts.try_fold(first, |acc, c| Some(Cond::And(Box::new(acc), Box::new(c?))))?
        }
        IrKind::If(c, a, b) => Cond::If(cond(c)?, cond(a)?, cond(b)?),
        IrKind::Let(PatIr::Slot(s), value, body) if t.is_named(*s) => {
            Cond::Let(*s, Box::new(num_in(value, t)?), cond(body)?)
        }
        IrKind::Let(PatIr::Slot(s), value, body) if t.is_list(*s) => {
            let value = Seq::compile(value, t)?;
            (value.shape(t) == t.shape(*s)).then_some(())?;
            Cond::Bind(*s, Box::new(value), cond(body)?)
        }
        // See `Num::Bail`: evaluating it bails.
        IrKind::CallFn(f, args) => {
            calls::cond(*f, args, t).unwrap_or(Cond::Cmp(BinOp::Eq, Num::Bail, Num::Const(0)))
        }
        // `any(cs)` of a list of booleans is `true in cs`, `all(cs)` is
        // `false not in cs`.
        IrKind::CallBuiltin(b @ (Builtin::All | Builtin::Any), args)
            if args.len() == 1
                && !matches!(args[0].kind, IrKind::Comprehension { .. })
                && t.holds_bools(&args[0]) =>
        {
            let any = *b == Builtin::Any;
            member(
                any,
                Num::Const(i64::from(any)),
                Seq::compile(&args[0], t)?,
                t,
            )
        }
        IrKind::CallBuiltin(b @ (Builtin::All | Builtin::Any), args) if args.len() == 1 => {
            let IrKind::Comprehension {
                set: false,
                elem,
                clauses,
            } = &args[0].kind
            else {
                return None;
            };
            let comp = Comp::compile(clauses, cond_in(elem, t)?, t)?;
            Cond::Quant(*b == Builtin::All, Box::new(comp))
        }
        _ => return None,
    })
}

/// `x in xs` (or `not in`, when `!yes`): a bit of [`Members`] when `xs`
/// is a constant collection of integers (for a set of hundreds of primes,
/// a load in place of a look at every one).
pub(super) fn member(yes: bool, x: Num, xs: Seq, t: &Types) -> Cond {
    let consts: Option<Vec<i64>> = match &xs {
        Seq::Items(_, items) => items
            .iter()
            .map(|n| match n {
                Num::Const(c) => Some(*c),
                _ => None,
            })
            .collect(),
        // A long constant, one row read in place.
        Seq::Row(rows, i) if rows.len() == 1 && matches!(**i, Num::Const(0)) => {
            Some(rows.items.to_vec())
        }
        _ => None,
    };
    if let Some(set) = consts.as_deref().and_then(Members::of) {
        return Cond::Member(yes, x, Rc::new(set));
    }
    Cond::In {
        yes,
        sorted: xs.shape(t).is_set(),
        x,
        xs: Box::new(xs),
    }
}

/// `p in ps` (or `not in`) of a pair and a list or set of pairs.
fn pair_member(yes: bool, p: &Ir, ps: &Ir, t: &Types) -> Option<Cond> {
    let ps = Seq::compile(ps, t).filter(|ps| ps.shape(t).of_pairs())?;
    Some(member(yes, pair_in(p, t)?, ps, t))
}

/// `a == b` (or `!=`, when `!yes`) of two collections of the same
/// shape; `None` for any other operands (a list and a tuple, which are
/// never equal, are the interpreter's).
fn same(yes: bool, a: &Ir, b: &Ir, t: &Types) -> Option<Cond> {
    let (xs, ys) = (Seq::compile(a, t)?, Seq::compile(b, t)?);
    (xs.shape(t) == ys.shape(t)).then(|| Cond::Same(yes, Box::new(xs), Box::new(ys)))
}

/// `a < b` (or `<=`, `>`, `>=`) of two lists, two tuples or two strings,
/// item by item (`min(cs, reversed(cs))`, see `normalize/ordered.rs`);
/// `None` for other operands: sets (which the interpreter does not order), pairs (packed,
/// not in their order), and collections of two shapes, the interpreter's.
fn ordered(op: BinOp, a: &Ir, b: &Ir, t: &Types) -> Option<Cond> {
    use crate::graph::Shape;
    let (xs, ys) = (Seq::compile(a, t)?, Seq::compile(b, t)?);
    let shape = xs.shape(t);
    let items = matches!(
        shape,
        Shape::List | Shape::Tuple | Shape::Str | Shape::Bools | Shape::BoolTuple
    );
    (items && ys.shape(t) == shape).then_some(())?;
    let (xs, ys) = (Box::new(xs), Box::new(ys));
    Some(match op {
        BinOp::Lt => Cond::Less(true, xs, ys),
        BinOp::Le => Cond::Less(false, xs, ys),
        BinOp::Gt => Cond::Less(true, ys, xs),
        _ => Cond::Less(false, ys, xs),
    })
}

/// `a op b` of two integers (an extremum compared split into its items:
/// see `spelled.rs`).
fn numbers(op: BinOp, a: &Ir, b: &Ir, t: &Types) -> Option<Cond> {
    let (a, b) = (num_in(a, t)?, num_in(b, t)?);
    if let Some(truth) = spelled::itself(op, &a, &b) {
        // A bare slot or constant holds whatever its size.
        t.folded.set(t.folded.get() || matches!(a, Num::Lin(_)));
        return Some(Cond::Const(truth));
    }
    Some(spelled::compared(op, a, b))
}

fn comparison(op: BinOp, a: &Ir, b: &Ir, t: &Types) -> Option<Cond> {
    match op {
        // A query's `winner(P) == "first"`.
        BinOp::Eq | BinOp::Ne
            if (t.queries || t.rules) && crate::runtime::kernel::query::asks_winner(a, b) =>
        {
            crate::runtime::kernel::query::winner_test(op, a, b, t)
        }
        // Two booleans, as 0 or 1.
        BinOp::Eq | BinOp::Ne if t.makes_bool(a) && t.makes_bool(b) => {
            Some(Cond::Cmp(op, bool_in(a, t)?, bool_in(b, t)?))
        }
        BinOp::Eq | BinOp::Ne => numbers(op, a, b, t)
            .or_else(|| characters(op, a, b, t))
            .or_else(|| same(op == BinOp::Eq, a, b, t))
            .or_else(|| Some(Cond::Cmp(op, pair_in(a, t)?, pair_in(b, t)?))),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => numbers(op, a, b, t)
            .or_else(|| characters(op, a, b, t))
            .or_else(|| ordered(op, a, b, t)),
        _ => None,
    }
}
