//! Lowering of move rules and of the patterns that bind names: a
//! binder's pattern gets frame slots (a top-level `let`'s, globals), and
//! a target that is a sum of game applications and heaps is flattened
//! into terms; any other target is lowered as an expression.

use super::Lowerer;
use crate::defs::Global;
use crate::ir::{MoveIr, PatIr, TargetIr, TermIr};
use crate::syntax::ast::{BinOp, Expr, ExprKind, MoveRule, Pattern, UnOp};

impl Lowerer<'_> {
    pub(super) fn move_rule(&mut self, rule: &MoveRule) -> MoveIr {
        let mark = self.scope.names.len();
        let mut binders = Vec::new();
        let mut shown = Vec::new();
        for b in &rule.binders {
            let domain = self.expr(&b.domain);
            let pattern = self.local_pattern(&b.pattern);
            for name in b.pattern.names() {
                let slot = self.scope.find(&name.node).expect("bound just above");
                shown.push((name.node.clone(), slot));
            }
            binders.push((pattern, domain));
        }
        let guard = rule.guard.as_ref().map(|g| self.expr(g));
        let target = self.target(&rule.target);
        self.scope.reset(mark);
        MoveIr {
            name: rule.name.node.clone(),
            binders,
            shown,
            named: None,
            guard,
            target,
            span: rule.span,
            unrolled: Vec::new(),
        }
    }

    fn target(&mut self, target: &Expr) -> TargetIr {
        let mut terms = Vec::new();
        if self.terms(target, &mut terms) {
            TargetIr::Terms(terms)
        } else {
            TargetIr::Dynamic(self.expr(target))
        }
    }

    /// Flattens `g(a) + *k + 0 + h(b)` into terms; false if the target has
    /// any other shape, which is then evaluated as an ordinary expression.
    fn terms(&mut self, e: &Expr, out: &mut Vec<TermIr>) -> bool {
        match &e.node {
            ExprKind::Paren(inner) => self.terms(inner, out),
            ExprKind::Int(0) => true,
            ExprKind::Binary(BinOp::Add, l, r) => self.terms(l, out) && self.terms(r, out),
            ExprKind::Unary(UnOp::Heap, k) => {
                out.push(TermIr::Heap(self.expr(k)));
                true
            }
            ExprKind::Call(callee, args) => match self.game_callee(callee) {
                Some(game) => {
                    let args = args.iter().map(|a| self.expr(a)).collect();
                    out.push(TermIr::Node(game, args, e.span));
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    pub(super) fn game_callee(&self, callee: &Expr) -> Option<u32> {
        match &callee.node {
            ExprKind::Var(name) if self.scope.find(name).is_none() => {
                match self.defs.lookup(name) {
                    Some(Global::Game(g)) => Some(g),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(super) fn local_pattern(&mut self, p: &Pattern) -> PatIr {
        match p {
            Pattern::Name(id) => PatIr::Slot(self.scope.bind(&id.node)),
            Pattern::Tuple(ps, span) => {
                PatIr::Tuple(ps.iter().map(|p| self.local_pattern(p)).collect(), *span)
            }
        }
    }

    pub(super) fn global_pattern(&mut self, p: &Pattern) -> PatIr {
        match p {
            Pattern::Name(id) => PatIr::Global(self.defs.declare_let(&id.node, id.span)),
            Pattern::Tuple(ps, span) => {
                PatIr::Tuple(ps.iter().map(|p| self.global_pattern(p)).collect(), *span)
            }
        }
    }
}
