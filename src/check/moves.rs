//! Move rules for [`Checker`]: binders checked in order (none may hide a
//! parameter of the game), then the guard and the target, which must be
//! something that can be a position.

use super::Checker;
use crate::diag::{Diagnostic, Phase};
use crate::span::Span;
use crate::syntax::ast::{BinOp, Expr, ExprKind, GameDef, Ident, MoveRule, UnOp};

pub(super) const TARGET_HELP: &str = "write a game applied to arguments such as `g(n - 1)`, a sum `g(a) + g(b)`, \
     `*k`, `sum([...])`, or `0` for the empty position";

impl Checker<'_> {
    pub(super) fn move_rule(&mut self, game: &GameDef, rule: &MoveRule) {
        let mark = self.locals.len();
        self.in_move = true;
        let mut bound = Vec::new();
        for binder in &rule.binders {
            self.expr(&binder.domain);
            let start = bound.len();
            self.bind(&binder.pattern, &mut bound);
            let new = bound.get(start..).unwrap_or_default();
            for name in new {
                self.binder_shadows_param(game, name);
            }
            self.locals.extend(new.iter().cloned());
        }
        if let Some(guard) = &rule.guard {
            self.expr(guard);
        }
        self.expr(&rule.target);
        self.move_target(&rule.target);
        self.in_move = false;
        self.locals.truncate(mark);
    }

    fn binder_shadows_param(&mut self, game: &GameDef, binder: &Ident) {
        let Some(param) = game.params.iter().find(|p| p.node == binder.node) else {
            return;
        };
        self.report(
            Diagnostic::new(
                Phase::Check,
                format!(
                    "binder `{}` shadows the parameter `{}` of `{}`",
                    binder.node, param.node, game.name.node
                ),
            )
            .at(binder.span, "this binder hides the parameter")
            .also(param.span, "the parameter is declared here")
            .help("give the binder another name"),
        );
    }

    fn move_target(&mut self, target: &Expr) {
        if let Some((span, what)) = not_a_position(target) {
            self.report(
                Diagnostic::new(Phase::Check, "a move target must be a position")
                    .at(span, format!("this is {what}, not a position"))
                    .help(TARGET_HELP),
            );
        }
    }
}

/// Where and what `target` is when it can never be a position.
fn not_a_position(target: &Expr) -> Option<(Span, &'static str)> {
    let what = match &target.node {
        ExprKind::Int(0) => return None,
        ExprKind::Int(_) => "a number",
        ExprKind::Unary(UnOp::Neg, x) if matches!(x.node, ExprKind::Int(n) if n != 0) => "a number",
        ExprKind::Bool(_) | ExprKind::Unary(UnOp::Not, _) => "a boolean",
        ExprKind::Str(_) => "a string",
        ExprKind::Tuple(_) => "a tuple",
        ExprKind::List(_) => "a list",
        ExprKind::Set(_) => "a set",
        ExprKind::Comprehension { .. } => "a comprehension",
        ExprKind::Binary(BinOp::Add, a, b) | ExprKind::If(_, a, b) => {
            return not_a_position(a).or_else(|| not_a_position(b));
        }
        ExprKind::Binary(op, _, _) if op.is_comparison() => "a comparison",
        ExprKind::Binary(BinOp::And | BinOp::Or, _, _) | ExprKind::Chain(..) => "a boolean",
        ExprKind::Binary(BinOp::Range | BinOp::RangeIncl, _, _) => "a range",
        ExprKind::Paren(inner) | ExprKind::Let(_, _, inner) => return not_a_position(inner),
        _ => return None,
    };
    Some((target.span, what))
}
