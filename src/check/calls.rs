//! Checks of built-in calls whose mistakes can be seen in the text:
//!
//! - `table(g(a, _), xs)`: the first argument of `table` may be a game with
//!   some arguments fixed and the others written `_`, one `_` for each
//!   collection that follows (`_` anywhere else is an ordinary name);
//! - `format("...", x, ...)`: a template written as a literal must be well
//!   formed and have as many `{}` as arguments follow it (other templates
//!   are checked when they run).

use super::{Checker, Meaning};
use crate::builtins::{FORMAT_HELP, format_mismatch, format_pieces};
use crate::diag::{Diagnostic, Phase, count};
use crate::span::Span;
use crate::syntax::ast::{Expr, ExprKind, is_hole};

impl Checker<'_> {
    /// `format(template, args...)` with a literal template; `call` is the
    /// whole call's span.
    pub(super) fn format_template(&mut self, args: &[Expr], call: Span) {
        let Some(ExprKind::Str(template)) = args.first().map(|a| &a.node) else {
            return;
        };
        match format_pieces(template) {
            Err(e) => self.report(
                Diagnostic::new(Phase::Check, e.message)
                    .at(args[0].span, "this template")
                    .note(format!("at character {} of the template", e.at + 1))
                    .help(FORMAT_HELP),
            ),
            Ok(pieces) if pieces.len() != args.len() => self.report(
                Diagnostic::new(
                    Phase::Check,
                    format_mismatch(pieces.len() - 1, args.len() - 1),
                )
                .at(call, "this call"),
            ),
            Ok(_) => {}
        }
    }

    /// `whole`, `game(args)` with holes, followed by `axes` collections.
    pub(super) fn family(&mut self, whole: &Expr, (game, args): (&Expr, &[Expr]), axes: usize) {
        let holes = args.iter().filter(|a| is_hole(a)).count();
        let whole = whole.span;
        let name = match &game.node {
            ExprKind::Var(name) => name.clone(),
            _ => return self.not_a_game(game, "this is not the name of a game"),
        };
        match self.resolve(&name, game.span) {
            Some(meaning @ Meaning::Game { .. }) => self.arity(&name, meaning, args.len(), whole),
            Some(_) => return self.not_a_game(game, "this is not a game"),
            None => {}
        }
        if holes > 2 {
            self.report(
                Diagnostic::new(
                    Phase::Check,
                    format!("a table has one or two axes, but `{name}` has {holes} `_`"),
                )
                .at(whole, "more than two parameters vary")
                .help("fix all but one or two of the parameters"),
            );
        } else if holes != axes {
            self.report(
                Diagnostic::new(
                    Phase::Check,
                    format!(
                        "`table` needs one collection for each `_`, but `{name}` has {holes} `_` \
                         and {} {} it",
                        count(axes, "collection"),
                        if axes == 1 { "follows" } else { "follow" }
                    ),
                )
                .at(whole, format!("{holes} `_` here"))
                .help(if holes > axes {
                    "give a collection for each `_`, or fix more of the parameters"
                } else {
                    "write `_` for as many parameters as there are collections"
                }),
            );
        }
        for fixed in args.iter().filter(|a| !is_hole(a)) {
            self.expr(fixed);
        }
    }

    fn not_a_game(&mut self, callee: &Expr, label: &str) {
        self.report(
            Diagnostic::new(Phase::Check, "`_` fixes the parameters of a game only")
                .at(callee.span, label)
                .help("`table(g(a, _), xs)` is the table of `g(a, x)` for `x` in `xs`"),
        );
    }
}
