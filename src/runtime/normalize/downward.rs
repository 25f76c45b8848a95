//! A query's loop over a range run downward, `for n in reversed(0..=N)`,
//! as a loop up from 0, `for n in 0..=N`, with `N - n` wherever `n` is
//! read: the same elements in the same order, over a range, which the
//! compiled queries run (`reversed(...)` of a range is a list they would
//! make first, and did not: the interpreter made the query's half a
//! million elements, 17 times slower). Only ends that are constants or
//! names, evaluated once either way; the range's length is folded where
//! both are constants.

use super::walk::{map_children, put};
use crate::builtins::Builtin;
use crate::ir::{ClauseIr, Ir, IrKind, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `ir` with every comprehension's `for x in reversed(lo..hi)` counted
/// up (see the module).
pub(super) fn ranges(ir: &Ir) -> Ir {
    let ir = match &ir.kind {
        IrKind::Comprehension { set, elem, clauses } => {
            let mut bound: Vec<(Slot, Ir)> = Vec::new();
            let mut out = Vec::with_capacity(clauses.len());
            // `e` with each loop counted up so far read as `last - x`.
            let at = |e: &Ir, bound: &[(Slot, Ir)]| {
                put(e, &|s| {
                    bound.iter().find(|(b, _)| *b == s).map(|(_, e)| e.clone())
                })
            };
            for clause in clauses {
                out.push(match clause {
                    ClauseIr::If(c) => ClauseIr::If(at(c, &bound)),
                    ClauseIr::For(p, d) => {
                        let d = at(d, &bound);
                        match (p, upward(&d)) {
                            (PatIr::Slot(s), Some((domain, last))) => {
                                bound.push((*s, minus(last, *s, d.span)));
                                ClauseIr::For(p.clone(), domain)
                            }
                            _ => ClauseIr::For(p.clone(), d),
                        }
                    }
                });
            }
            let elem = at(elem, &bound);
            Ir {
                kind: IrKind::Comprehension {
                    set: *set,
                    elem: Box::new(elem),
                    clauses: out,
                },
                span: ir.span,
            }
        }
        _ => ir.clone(),
    };
    map_children(&ir, &mut ranges)
}

/// `reversed(lo..hi)` (or `lo..=hi`) as the range `0..hi - lo` (or
/// `0..=hi - lo`) and the last of its items, `hi - 1` (or `hi`).
fn upward(domain: &Ir) -> Option<(Ir, Ir)> {
    let IrKind::CallBuiltin(Builtin::Reversed, args) = &domain.kind else {
        return None;
    };
    let [range] = args.as_slice() else {
        return None;
    };
    let IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) = &range.kind else {
        return None;
    };
    let end = |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(_)) | IrKind::Local(_));
    if !end(lo) || !end(hi) {
        return None;
    }
    let at = |kind| Ir {
        kind,
        span: range.span,
    };
    let int = |n| at(IrKind::Const(Value::Int(n)));
    let (length, last) = match (&lo.kind, &hi.kind) {
        (IrKind::Const(Value::Int(a)), IrKind::Const(Value::Int(b))) => {
            let last = match op {
                BinOp::Range => b.checked_sub(1)?,
                _ => *b,
            };
            (int(b.checked_sub(*a)?), int(last))
        }
        _ => {
            let sub =
                |a: &Ir, b: Ir| at(IrKind::Binary(BinOp::Sub, Box::new(a.clone()), Box::new(b)));
            let last = match op {
                BinOp::Range => sub(hi, int(1)),
                _ => (**hi).clone(),
            };
            (sub(hi, (**lo).clone()), last)
        }
    };
    let domain = at(IrKind::Binary(*op, Box::new(int(0)), Box::new(length)));
    Some((domain, last))
}

/// `last - x`, where `x` is the loop's name.
fn minus(last: Ir, x: Slot, span: crate::span::Span) -> Ir {
    let local = Ir {
        kind: IrKind::Local(x),
        span,
    };
    Ir {
        kind: IrKind::Binary(BinOp::Sub, Box::new(last), Box::new(local)),
        span,
    }
}

#[cfg(test)]
mod tests {
    use crate::session::Session;

    /// What `source` prints, and how many queries its machine code
    /// answered.
    fn printed(source: &str) -> (String, u64) {
        let out = crate::SharedBuffer::default();
        let mut s = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
        // Every query compiled, however short.
        s.machine.native_after = 0;
        s.run("test.game", source);
        let text = String::from_utf8_lossy(&out.0.borrow()).into_owned();
        (text, s.machine.queries_compiled)
    }

    #[test]
    fn a_loop_run_downward_keeps_its_elements_and_their_order() {
        let game =
            "game s(n) {\n move take(k in [1, 3, 4]) if k <= n -> s(n - k)\n}\nlet N = 3000\n";
        for (query, want) in [
            (
                "[n for n in reversed(0..=N) if value(s(n)) == 0]",
                "[2998, 2996, 2991",
            ),
            ("[n for n in reversed(3..12) if value(s(n)) == 0]", "[9, 7]"),
            ("[n for n in reversed(12..3) if value(s(n)) == 0]", "[]"),
            (
                "[a * 10 + b for a in 1..=3 for b in reversed(a..=3)]",
                "[13, 12, 11, 23, 22, 33]",
            ),
            (
                "sum([n * i for i in 0..3 for n in reversed(i..=N) if value(s(n)) > 0])",
                "9646072",
            ),
        ] {
            let (shown, compiled) = printed(&format!("{game}{query}\n"));
            assert!(shown.starts_with(want), "{query}: {shown}");
            assert_eq!(compiled, 1, "{query}");
        }
    }
}
