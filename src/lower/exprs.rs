//! Lowering of expressions: names resolved to slots, globals, games or
//! built-ins; calls told apart (a game applied, a function, a built-in,
//! `table` of a family, a value called); comprehensions given slots; and
//! collections of constants built once.

use super::Lowerer;
use crate::builtins::Builtin;
use crate::defs::Global;
use crate::ir::{ClauseIr, Ir, IrKind};
use crate::span::Span;
use crate::syntax::ast::{Clause, Expr, ExprKind, family, is_hole};
use crate::value::Value;
use std::rc::Rc;

impl Lowerer<'_> {
    fn exprs(&mut self, es: &[Expr]) -> Vec<Ir> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    pub(super) fn expr(&mut self, e: &Expr) -> Ir {
        let kind = match &e.node {
            ExprKind::Int(n) => IrKind::Const(Value::Int(*n)),
            ExprKind::Bool(b) => IrKind::Const(Value::Bool(*b)),
            ExprKind::Str(s) => IrKind::Const(Value::Str(s.clone())),
            ExprKind::Var(name) => return self.var(name, e.span),
            ExprKind::Paren(inner) => return self.expr(inner),
            ExprKind::Tuple(items) => fold(IrKind::Tuple(self.exprs(items))),
            ExprKind::List(items) => fold(IrKind::List(self.exprs(items))),
            ExprKind::Set(items) => fold(IrKind::Set(self.exprs(items))),
            ExprKind::Comprehension { set, elem, clauses } => {
                self.comprehension(*set, elem, clauses)
            }
            ExprKind::Unary(op, x) => IrKind::Unary(*op, Box::new(self.expr(x))),
            ExprKind::Chain(operands, ops) => IrKind::Chain(self.exprs(operands), ops.clone()),
            ExprKind::Binary(op, l, r) => {
                IrKind::Binary(*op, Box::new(self.expr(l)), Box::new(self.expr(r)))
            }
            ExprKind::If(c, a, b) => IrKind::If(
                Box::new(self.expr(c)),
                Box::new(self.expr(a)),
                Box::new(self.expr(b)),
            ),
            ExprKind::Let(pattern, value, body) => {
                let value = Box::new(self.expr(value));
                let mark = self.scope.names.len();
                let pattern = self.local_pattern(pattern);
                let body = Box::new(self.expr(body));
                self.scope.reset(mark);
                IrKind::Let(pattern, value, body)
            }
            ExprKind::Call(callee, args) => return self.call(callee, args, e.span),
            ExprKind::Index(x, i) => IrKind::Index(Box::new(self.expr(x)), Box::new(self.expr(i))),
            ExprKind::Slice(x, lo, hi) => IrKind::Slice(
                Box::new(self.expr(x)),
                lo.as_ref().map(|b| Box::new(self.expr(b))),
                hi.as_ref().map(|b| Box::new(self.expr(b))),
            ),
        };
        Ir { kind, span: e.span }
    }

    fn var(&mut self, name: &Rc<str>, span: Span) -> Ir {
        let kind = if let Some(slot) = self.scope.find(name) {
            IrKind::Local(slot)
        } else {
            match self.defs.lookup(name) {
                Some(Global::Let(id)) => IrKind::Global(id),
                Some(Global::Game(id)) => IrKind::Const(Value::Game(id)),
                Some(Global::Fn(_)) => {
                    return self.error(span, format!("function `{name}` must be called"));
                }
                None => return self.error(span, format!("unknown name `{name}`")),
            }
        };
        Ir { kind, span }
    }

    fn call(&mut self, callee: &Expr, args: &[Expr], span: Span) -> Ir {
        let global = match &callee.node {
            ExprKind::Var(name) if self.scope.find(name).is_none() => {
                Some((name.clone(), self.defs.lookup(name)))
            }
            _ => None,
        };
        let kind = match global {
            Some((_, Some(Global::Game(g)))) => IrKind::Apply(g, self.exprs(args)),
            Some((_, Some(Global::Fn(f)))) => IrKind::CallFn(f, self.exprs(args)),
            Some((name, None)) => match Builtin::from_name(&name) {
                Some(b) => match self.table_of(b, args) {
                    Some(kind) => kind,
                    None => IrKind::CallBuiltin(b, self.exprs(args)),
                },
                None => return self.error(callee.span, format!("unknown name `{name}`")),
            },
            _ => {
                let hides = self.hidden_function(callee);
                IrKind::CallValue(Box::new(self.expr(callee)), self.exprs(args), hides)
            }
        };
        Ir { kind, span }
    }

    /// `table(g(a, _), xs)`, when the first argument has holes.
    fn table_of(&mut self, b: Builtin, args: &[Expr]) -> Option<IrKind> {
        if b != Builtin::Table {
            return None;
        }
        let (first, axes) = args.split_first()?;
        let (callee, game_args) = family(first)?;
        let game = self.game_callee(callee)?;
        let fixed = game_args
            .iter()
            .map(|a| (!is_hole(a)).then(|| self.expr(a)))
            .collect();
        Some(IrKind::TableOf(game, fixed, self.exprs(axes)))
    }

    /// The name of the function or built-in that a local callee hides, as
    /// a parameter `max` hides `max`: what its call most likely meant.
    fn hidden_function(&self, callee: &Expr) -> Option<Rc<str>> {
        let ExprKind::Var(name) = &callee.node else {
            return None;
        };
        let function = matches!(self.defs.lookup(name), Some(Global::Fn(_)));
        (function || Builtin::from_name(name).is_some()).then(|| name.clone())
    }

    fn comprehension(&mut self, set: bool, elem: &Expr, clauses: &[Clause]) -> IrKind {
        let mark = self.scope.names.len();
        let clauses = clauses
            .iter()
            .map(|c| match c {
                Clause::For(b) => {
                    let domain = self.expr(&b.domain);
                    ClauseIr::For(self.local_pattern(&b.pattern), domain)
                }
                Clause::If(cond) => ClauseIr::If(self.expr(cond)),
            })
            .collect();
        let elem = Box::new(self.expr(elem));
        self.scope.reset(mark);
        IrKind::Comprehension { set, elem, clauses }
    }
}

/// A collection written with constants only (`{1, 2, 3}`) is built once,
/// here, rather than every time a rule runs.
fn fold(kind: IrKind) -> IrKind {
    let consts = |items: &[Ir]| -> Option<Vec<Value>> {
        items
            .iter()
            .map(|i| match &i.kind {
                IrKind::Const(v) => Some(v.clone()),
                _ => None,
            })
            .collect()
    };
    let folded = match &kind {
        IrKind::Tuple(items) => consts(items).map(|v| Value::Tuple(v.into())),
        IrKind::List(items) => consts(items).map(Value::list),
        IrKind::Set(items) => consts(items).map(|v| Value::Set(Rc::new(v.into_iter().collect()))),
        _ => None,
    };
    folded.map_or(kind, IrKind::Const)
}
