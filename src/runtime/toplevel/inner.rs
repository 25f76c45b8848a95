//! Queries inside a top-level expression: `[n for n in 0..=N if
//! value(s(n)) == 0][-5:]`, `set([value(s(n)) for n in 0..N])`, `len({n %
//! 7 for n in 0..N if ...})`. The statement as a whole is no query the
//! machine code answers ([`Machine::compiled_query`]), but a part of it
//! that the interpreter evaluates first, whatever the rest does, may be:
//! it is answered so, and the rest evaluated with its value in its place.
//! (Written so, a list of half a million positions' values was made by
//! the interpreter, each position asked alone: 17 times slower.)
//!
//! Only the parts evaluated on every path to the statement's value are
//! tried: the operands of an operator that does not short-circuit, a
//! call's arguments, a list's items, what is indexed or sliced, the
//! condition of an `if`, the left of `and` and `or`, the first of a
//! chain. Such a part reads no name the statement binds (it is inside no
//! comprehension or `let` of it), and evaluating it first changes no
//! output: a query prints nothing, and one the code does not finish
//! (an error, a limit) is left to the interpreter, which meets it where
//! the statement is evaluated. They are tried in the interpreter's order,
//! and none after a part left to the interpreter that is more than a
//! constant or a name: that part may fail, and its error must come
//! first, not a limit the query met, nor after the query's time.

use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind};
use crate::runtime::Machine;
use crate::syntax::ast::BinOp;

impl Machine {
    /// `ir` with each part evaluated on every path that is a query the
    /// machine code answered put as its value; `None` when there is none.
    pub(super) fn inner_queries(&mut self, ir: &Ir, slots: usize) -> Option<Ir> {
        let mut walk = Walk {
            slots,
            changed: false,
            blocked: false,
        };
        let out = walk.parts(self, ir);
        walk.changed.then_some(out)
    }
}

/// A walk over a statement's parts in the order the interpreter
/// evaluates them.
struct Walk {
    slots: usize,
    /// Whether a part was answered.
    changed: bool,
    /// Whether a part evaluated earlier is left to the interpreter and
    /// may fail or stop at a limit: a query after it, answered first,
    /// would meet a limit before that part's error, or make it wait.
    blocked: bool,
}

impl Walk {
    /// Part `e`: answered as a query, else its own parts walked.
    fn part(&mut self, m: &mut Machine, e: &Ir) -> Ir {
        // A query the code left (an error, a limit) is the interpreter's,
        // and so is everything after it: tried again part by part, its
        // loops would run twice.
        if self.blocked {
            return e.clone();
        }
        let out = match m.compiled_query(&as_set(e), self.slots) {
            Some(Some(v)) => {
                self.changed = true;
                Ir {
                    kind: IrKind::Const(v),
                    span: e.span,
                }
            }
            Some(None) => e.clone(),
            None => self.parts(m, e),
        };
        self.blocked |= !matches!(
            out.kind,
            IrKind::Const(_) | IrKind::Local(_) | IrKind::Global(_)
        );
        out
    }

    /// `ir` with its parts walked (see the module), in order.
    fn parts(&mut self, m: &mut Machine, ir: &Ir) -> Ir {
        let mut each =
            |w: &mut Walk, es: &[Ir]| es.iter().map(|e| w.part(m, e)).collect::<Vec<_>>();
        let kind = match &ir.kind {
            IrKind::Tuple(es) => IrKind::Tuple(each(self, es)),
            IrKind::List(es) => IrKind::List(each(self, es)),
            IrKind::Set(es) => IrKind::Set(each(self, es)),
            IrKind::CallBuiltin(b, es) => IrKind::CallBuiltin(*b, each(self, es)),
            IrKind::CallFn(f, es) => IrKind::CallFn(*f, each(self, es)),
            IrKind::Unary(op, a) => IrKind::Unary(*op, Box::new(self.part(m, a))),
            IrKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                IrKind::Binary(*op, Box::new(self.part(m, a)), b.clone())
            }
            IrKind::Binary(op, a, b) => {
                let a = self.part(m, a);
                IrKind::Binary(*op, Box::new(a), Box::new(self.part(m, b)))
            }
            IrKind::If(c, a, b) => IrKind::If(Box::new(self.part(m, c)), a.clone(), b.clone()),
            IrKind::Chain(es, ops) if !es.is_empty() => {
                let mut es = es.clone();
                es[0] = self.part(m, &es[0]);
                IrKind::Chain(es, ops.clone())
            }
            IrKind::Index(a, i) => {
                let a = self.part(m, a);
                IrKind::Index(Box::new(a), Box::new(self.part(m, i)))
            }
            IrKind::Slice(a, lo, hi) => {
                let a = self.part(m, a);
                let lo = lo.as_ref().map(|e| Box::new(self.part(m, e)));
                let hi = hi.as_ref().map(|e| Box::new(self.part(m, e)));
                IrKind::Slice(Box::new(a), lo, hi)
            }
            _ => return ir.clone(),
        };
        Ir {
            kind,
            span: ir.span,
        }
    }
}

/// `set([e for ...])` as `{e for ...}`: the same elements made in the
/// same order, then kept each once, which a query collects as a set
/// (`len(set([value(g(n)) for n in 0..N]))`). Anything else as it is.
pub(super) fn as_set(ir: &Ir) -> std::borrow::Cow<'_, Ir> {
    if let IrKind::CallBuiltin(Builtin::Set, args) = &ir.kind
        && let [arg] = args.as_slice()
        && let IrKind::Comprehension {
            set: false,
            elem,
            clauses,
        } = &arg.kind
    {
        return std::borrow::Cow::Owned(Ir {
            kind: IrKind::Comprehension {
                set: true,
                elem: elem.clone(),
                clauses: clauses.clone(),
            },
            span: ir.span,
        });
    }
    std::borrow::Cow::Borrowed(ir)
}
