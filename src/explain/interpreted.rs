//! The report of a move the compiled rules do not take: for each binder,
//! the guard and the target, the smallest construct that keeps it from
//! compiling, what it is, and what to write instead.

use super::{MoveReport, Slow};
use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::ir::{Ir, IrKind, MoveIr, PatIr, TargetIr, TermIr};
use crate::runtime::kernel::{
    Types, compiles_as_cond, compiles_as_domain, compiles_as_num, compiles_as_target,
    domain_too_large,
};
use crate::syntax::ast::BinOp;

pub(super) fn interpreted_move(rule: &MoveIr, defs: &Defs, t: &Types) -> MoveReport {
    let mut slow = Vec::new();
    for (pattern, domain) in &rule.binders {
        if let PatIr::Tuple(_, span) = pattern {
            slow.push(Slow {
                span: *span,
                what: "a tuple binder over items computed while playing".into(),
                instead: "a tuple binder is compiled when its items are constants, written out \
                          or in a `let`: `(dx, dy) in [(1, 2), (2, 1)]`, a comprehension of \
                          tuples written in place: `(p, q) in [(a, n / a) for a in 1..n if n % a == 0]`, \
                          or a `zip` or `enumerate` of names, slices and ranges: `(a, b) in \
                          zip(1..n, reversed(1..n))`"
                    .into(),
            });
        } else if !compiles_as_domain(domain, t) {
            slow.push(domain_culprit(domain, defs, t));
        }
    }
    if let Some(guard) = &rule.guard
        && !compiles_as_cond(guard, t)
    {
        slow.push(cond_culprit(guard, defs, t));
    }
    match &rule.target {
        TargetIr::Dynamic(e) if !compiles_as_target(e, t) => slow.push(Slow {
            span: e.span,
            what: "a target computed as a value".into(),
            instead: "write the target as a sum of games applied to arguments and heaps, \
                      such as `g(a) + g(b) + *k`, or a `sum` of a comprehension of those, \
                      such as `sum([g(p) for p in parts])`"
                .into(),
        }),
        TargetIr::Dynamic(_) => {}
        TargetIr::Terms(terms) => {
            for term in terms {
                let exprs: &[Ir] = match term {
                    TermIr::Node(_, args, _) => args,
                    TermIr::Heap(k) => std::slice::from_ref(k),
                };
                for e in exprs.iter().filter(|e| !compiles_as_num(e, t)) {
                    slow.push(num_culprit(e, defs, t));
                }
            }
        }
    }
    MoveReport {
        name: rule.name.to_string(),
        span: rule.span,
        how: "interpreted: about 10 to 100 times slower than compiled rules".into(),
        slow,
    }
}

fn domain_culprit(domain: &Ir, defs: &Defs, t: &Types) -> Slow {
    if domain_too_large(domain, t) {
        return Slow {
            span: domain.span,
            what: "a binder over constants, some 2³¹ or more in size, that no comparison at \
                   the start of the guard rules out"
                .into(),
            instead: "start the guard with a bound that rules out the large items, as in \
                      `p in [1, 2, 1 << 40] if p <= n and ...`; the compiled rules take \
                      integers below 2³¹ in size, and larger ones run interpreted"
                .into(),
        };
    }
    match &domain.kind {
        IrKind::Binary(BinOp::Range | BinOp::RangeIncl, lo, hi) => {
            let bad = [lo, hi].into_iter().find(|e| !compiles_as_num(e, t));
            num_culprit(bad.map_or(domain, |e| &**e), defs, t)
        }
        IrKind::List(items) | IrKind::Tuple(items) | IrKind::Set(items) => {
            match items.iter().find(|e| !compiles_as_num(e, t)) {
                Some(e) => num_culprit(e, defs, t),
                None => unexpected(domain),
            }
        }
        _ => Slow {
            span: domain.span,
            what: "a binder over a collection computed while playing".into(),
            instead: "a binder over a range (`1..=n`), over constant integers (`[1, 3, 4]`, \
                      `{1, 3, 4}`, a `let`), or over lists and sets of integers and what `+`, \
                      `|`, `&`, `-` and `^` make of them (`h in heaps`, `set(divisors(n)) - {n}`) \
                      is compiled"
                .into(),
        },
    }
}

/// The smallest part of a condition that does not compile.
fn cond_culprit(ir: &Ir, defs: &Defs, t: &Types) -> Slow {
    let children: Vec<&Ir> = match &ir.kind {
        IrKind::Binary(BinOp::And | BinOp::Or, a, b) => vec![a, b],
        IrKind::Unary(_, a) => vec![a],
        IrKind::If(c, a, b) => {
            if !compiles_as_cond(c, t) {
                return cond_culprit(c, defs, t);
            }
            vec![a, b]
        }
        IrKind::Binary(
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            a,
            b,
        ) => return first_num_culprit([&**a, &**b], ir, defs, t),
        IrKind::Chain(operands, _) => return first_num_culprit(operands.iter(), ir, defs, t),
        _ => return construct(ir, defs),
    };
    match children.into_iter().find(|c| !compiles_as_cond(c, t)) {
        Some(c) => cond_culprit(c, defs, t),
        None => construct(ir, defs),
    }
}

fn first_num_culprit<'a>(
    operands: impl IntoIterator<Item = &'a Ir>,
    whole: &Ir,
    defs: &Defs,
    t: &Types,
) -> Slow {
    match operands.into_iter().find(|e| !compiles_as_num(e, t)) {
        Some(e) => num_culprit(e, defs, t),
        None => construct(whole, defs),
    }
}

/// The smallest part of an integer expression that does not compile.
fn num_culprit(ir: &Ir, defs: &Defs, t: &Types) -> Slow {
    let children: Vec<&Ir> = match &ir.kind {
        IrKind::Unary(_, a) => vec![a],
        IrKind::Binary(_, a, b) => vec![a, b],
        IrKind::If(c, a, b) => {
            if !compiles_as_cond(c, t) {
                return cond_culprit(c, defs, t);
            }
            vec![a, b]
        }
        // `len(str(k))`: the collection is what does not compile.
        IrKind::CallBuiltin(Builtin::Len | Builtin::Sum | Builtin::Min | Builtin::Max, args)
            if args.len() == 1 && !compiles_as_domain(&args[0], t) =>
        {
            return construct(&args[0], defs);
        }
        IrKind::CallBuiltin(Builtin::Min | Builtin::Max | Builtin::Abs, args) => {
            args.iter().collect()
        }
        _ => return construct(ir, defs),
    };
    match children.into_iter().find(|c| !compiles_as_num(c, t)) {
        Some(c) => num_culprit(c, defs, t),
        None => construct(ir, defs),
    }
}

/// What `ir`, a construct the compiled rules do not take, is, and what
/// to write instead.
fn construct(ir: &Ir, defs: &Defs) -> Slow {
    let collections = "lists, tuples and sets of anything but integers (or, for lists, \
                       booleans, and pairs of integers) are evaluated by \
                       the interpreter; the compiled rules take integer arithmetic, \
                       comparisons, `if`, `let`, `min`, `max`, `abs`, `isqrt`, `gcd`, \
                       `popcount`, `bit_length`, `divisors`, lists and tuples of integers \
                       (`len`, indexing, slices, `+`, comprehensions, `sorted`, `reversed`, \
                       `sum`, `all`, `any`, `==`, `!=`, `<` and the other comparisons, `min` and `max` \
                       of two, and `zip` of names, slices, ranges and those \
                       reversed), sets of integers (`{a, b}`, `set(...)`, `|`, `&`, `-`, `^`, \
                       `in`, `len`, indexing, `==`, `!=`) and strings (`len`, indexing, \
                       slices, `+`, `*`, `==`, `!=`, `<`, `\"XXX\" in s`, `for c in s`, and \
                       characters compared with characters, `s[i] == \"H\"`, or looked for \
                       with `in`), lists, sets and tuples of \
                       pairs (`(x, y) in cells`, `ps[i][0]`, `(x + 1, y) in cells`), and \
                       lists and tuples of booleans (`if cs[i]`, `[not c for c in cs]`, `c ^ \
                       (k == i)`, `any`, `all`, `in`, slices and `+`)";
    let (what, instead): (String, String) = match &ir.kind {
        IrKind::CallFn(f, _) => {
            let name = defs.fns[*f as usize]
                .as_ref()
                .map_or("?".into(), |f| f.name.clone());
            let recursive = crate::runtime::normalize::reaches_itself(defs, *f);
            let instead = match recursive {
                true => format!(
                    "`{name}` calls itself, so it is not inlined: write the condition without \
                     the recursion, or make the recursion a game"
                ),
                false => format!(
                    "calls are inlined {} deep: call `{name}` from fewer nested functions, or \
                     write its body in the rule",
                    crate::runtime::normalize::INLINE_DEPTH
                ),
            };
            (format!("a call of `{name}` that is not inlined"), instead)
        }
        IrKind::TableOf(..) => (
            "a query, `table`, inside a rule".into(),
            "the search computes the options' values itself: make the position the target \
             of a move rather than asking for its value"
                .into(),
        ),
        IrKind::CallBuiltin(b, _) if b.is_query() => (
            format!("a query, `{}`, inside a rule", b.name()),
            "the search computes the options' values itself: make the position the target \
             of a move rather than asking for its value"
                .into(),
        ),
        IrKind::CallBuiltin(b, _) => (format!("the built-in `{}`", b.name()), collections.into()),
        IrKind::Const(v) => {
            // "a string" -> "a constant string"
            let kind = v.type_name().split_once(' ').map_or("value", |(_, k)| k);
            (format!("a constant {kind}"), collections.into())
        }
        IrKind::Binary(BinOp::In | BinOp::NotIn, ..) => (
            "a membership test".into(),
            "`x in S` is compiled as a binder, `k in S`, not as a condition".into(),
        ),
        IrKind::Apply(..) | IrKind::CallValue(..) => (
            "a position made inside an expression".into(),
            "positions are compiled as the targets of moves".into(),
        ),
        IrKind::Index(..)
        | IrKind::Slice(..)
        | IrKind::List(_)
        | IrKind::Tuple(_)
        | IrKind::Set(_)
        | IrKind::Comprehension { .. } => ("a collection".into(), collections.into()),
        _ => return unexpected(ir),
    };
    Slow {
        span: ir.span,
        what,
        instead,
    }
}

fn unexpected(ir: &Ir) -> Slow {
    Slow {
        span: ir.span,
        what: "an expression the compiled rules do not take".into(),
        instead:
            "integer arithmetic, comparisons, `if`, `let`, the built-ins `min`, `max`, `abs`, \
                  `isqrt`, `gcd`, `popcount` and `bit_length`, booleans among a game's first four \
                  parameters, and lists, tuples and sets of integers compile"
                .into(),
    }
}
