//! The report of a move the compiled rules take: which loop runs it
//! (machine code, the fast loop or the general one), the conditions
//! tested for every option rather than cutting the loop short, and the
//! calls the compiled rules leave to the interpreter.

use super::{MoveReport, Slow};
use crate::defs::Defs;
use crate::ir::{Ir, IrKind, MoveIr, PatIr};
use crate::runtime::kernel;
use crate::span::Span;

pub(super) fn compiled_move(
    rule: &MoveIr,
    shape: &kernel::MoveShape,
    (native, called): (bool, &dyn Fn(crate::ir::FnId) -> bool),
    defs: &Defs,
) -> MoveReport {
    let shown = |slot: &crate::ir::Slot| {
        (rule.shown.iter())
            .find(|(_, s)| s == slot)
            .map(|(name, _)| name.to_string())
    };
    let x = match rule.binders.last() {
        Some((PatIr::Slot(slot), _)) => shown(slot),
        // `(x, y) in cells`, `(i, h) in enumerate(hs)`.
        Some((PatIr::Tuple(parts, _), _)) => (parts.iter())
            .map(|p| match p {
                PatIr::Slot(s) => shown(s),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(|names| format!("({})", names.join(", "))),
        _ => None,
    };
    let mut slow = Vec::new();
    let mut how = loop_kind(x.as_deref(), shape, native);
    if let (Some(x), true) = (&x, shape.divisors) {
        how.push_str(&format!(
            "; `{x}` runs over the divisors its guard's `% {x} == 0` keeps, about 2√n of them"
        ));
    }
    if let (Some(x), true) = (&x, shape.multiples) {
        how.push_str(&format!(
            "; `{x}` steps through the multiples its guard's `{x} % ... == 0` keeps"
        ));
    }
    if let (Some(x), true) = (&x, shape.kept) {
        how.push_str(&format!(
            "; `{x}` runs over the values where its guard's conditions of `{x}` alone hold, \
             each evaluated once per game"
        ));
    }
    // A loop named by a tuple (the index of a `zip`, a lifted
    // comprehension's) has no name to write a narrowing condition in.
    let named = x.as_deref().is_some_and(|x| !x.starts_with('(')) && shape.narrows;
    if let Some(guard) = rule.guard.as_ref().filter(|_| named) {
        let mut parts = Vec::new();
        crate::runtime::normalize::and_parts(guard, &mut parts);
        // Those past the ones that narrow the loop, less those held over
        // it, in the order written.
        let tested = parts
            .iter()
            .map(|p| p.span)
            .filter(|s| shape.tested.contains(s));
        for span in tested {
            slow.push(Slow {
                span,
                what: "a condition tested for every option".into(),
                instead: format!(
                    "a condition linear in the last binder (`2 * {0} < n`, `{0} != n - {0}`) or of \
                     the form `{0} * e <= f` cuts the loop short instead",
                    x.as_deref().unwrap_or("k")
                ),
            });
        }
    }
    if x.is_some() && !native && !shape.fast && shape.narrowed == shape.conjuncts {
        slow.push(Slow {
            span: rule.span,
            what: "a target not read from the tables by index".into(),
            instead: "targets of one or two games whose arguments are sums and constant \
                      multiples of the binders (`g(n - k)`, `g(a) + g(n - a)`) are read by index"
                .into(),
        });
    }
    slow.extend(unrolled_calls(rule, defs, called));
    MoveReport {
        name: rule.name.to_string(),
        span: rule.span,
        how,
        slow,
    }
}

/// Which loop runs a compiled move whose innermost binder is named `x`.
fn loop_kind(x: Option<&str>, shape: &kernel::MoveShape, native: bool) -> String {
    match (x, shape.fast) {
        (None, _) if native => "machine code: no binder, one option".to_string(),
        (None, _) => "compiled: no binder, one option".to_string(),
        (Some(x), _) if native && shape.lists && shape.formed => {
            format!(
                "machine code: loop over `{x}`, each option's list of a few integers read from the \
                 tables by its items"
            )
        }
        (Some(x), _) if native && shape.lists => {
            format!(
                "machine code: loop over `{x}`, each option's list or set made in place and looked up"
            )
        }
        (Some(x), _) if native && shape.packed => {
            format!(
                "machine code: loop over `{x}`, each option's arguments packed in place and looked up"
            )
        }
        (Some(x), _) if native => {
            format!("machine code: loop over `{x}`, each option's value read from the tables")
        }
        (Some(x), true) => format!("compiled: fast loop over `{x}`, options read by index"),
        (Some(x), false) => format!("compiled: general loop over `{x}`, each option computed"),
    }
}

/// The calls left in a compiled move that the compiled rules cannot make
/// (`called` says which they can): of functions that call themselves, of
/// lists, past the levels unrolled, where the run leaves the position to
/// the interpreter.
fn unrolled_calls(
    rule: &MoveIr,
    defs: &Defs,
    called: &dyn Fn(crate::ir::FnId) -> bool,
) -> Vec<Slow> {
    fn find(
        ir: &Ir,
        out: &mut Vec<(Span, crate::ir::FnId)>,
        called: &dyn Fn(crate::ir::FnId) -> bool,
    ) {
        if let IrKind::CallFn(f, _) = ir.kind
            && !called(f)
            && !out.iter().any(|(_, g)| *g == f)
        {
            out.push((ir.span, f));
        }
        crate::runtime::normalize::each_child(ir, &mut |e| find(e, out, called));
    }
    let mut calls = Vec::new();
    let targets = rule.target.exprs();
    let domains = rule.binders.iter().map(|(_, d)| d);
    for e in domains.chain(rule.guard.iter()).chain(targets) {
        find(e, &mut calls, called);
    }
    calls
        .into_iter()
        .map(|(span, f)| {
            let name = defs.fns[f as usize]
                .as_ref()
                .map_or("?".into(), |f| f.name.clone());
            let what = match crate::runtime::normalize::reaches_itself(defs, f) {
                true => format!(
                    "`{name}` calls itself, and takes or returns something other than \
                     integers and conditions: unrolled at most {} levels deep",
                    crate::runtime::normalize::INLINE_DEPTH
                ),
                false => {
                    format!("`{name}` is not inlined: the rules grew as large as inlining allows")
                }
            };
            Slow {
                span,
                what,
                instead: "a position that needs it deeper is evaluated by the interpreter, \
                          with the same result; a function of integers that returns an \
                          integer or a condition is called by the compiled rules instead"
                    .into(),
            }
        })
        .collect()
}
