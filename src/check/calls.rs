//! Calls for [`Checker`]: the number of arguments of every call (with
//! what to write instead when a built-in of one argument gets several),
//! queries kept out of move rules, and the checks of built-in calls whose
//! mistakes can be seen in the text:
//!
//! - `table(g(a, _), xs)`: the first argument of `table` may be a game with
//!   some arguments fixed and the others written `_`, one `_` for each
//!   collection that follows (`_` anywhere else is an ordinary name);
//! - `format("...", x, ...)`: a template written as a literal must be well
//!   formed and have as many `{}` as arguments follow it (other templates
//!   are checked when they run).

use super::{Checker, Meaning};
use crate::builtins::{Builtin, FORMAT_HELP, format_mismatch, format_pieces};
use crate::diag::{Diagnostic, Phase, count};
use crate::span::Span;
use crate::syntax::ast::{Expr, ExprKind, family, is_hole};

pub(super) const QUERY_NOTE: &str = "a move rule describes one move; the values of positions are computed \
     from the rules, not inside them";

impl Checker<'_> {
    pub(super) fn call(&mut self, callee: &Expr, args: &[Expr], span: Span) {
        match callee_name(callee) {
            Some(("range", _, true)) if !self.defined("range") => self.python_range(args, span),
            Some((name, name_span, direct)) => {
                if let Some(meaning) = self.resolve(name, name_span) {
                    if direct {
                        self.arity(name, meaning, args.len(), span);
                    }
                    self.query_in_move(name, meaning, name_span);
                    if direct && matches!(meaning, Meaning::Builtin(Builtin::Format)) {
                        self.format_template(args, span);
                    }
                    if matches!(meaning, Meaning::Builtin(Builtin::Table))
                        && let Some((first, axes)) = args.split_first()
                        && let Some((game, game_args)) = family(first)
                    {
                        self.family(first, (game, game_args), axes.len());
                        return self.exprs(axes);
                    }
                }
            }
            None => self.expr(callee),
        }
        self.exprs(args);
    }

    fn arity(&mut self, name: &str, meaning: Meaning, given: usize, call: Span) {
        let (min, max, def, help) = match meaning {
            Meaning::Game { arity, def } | Meaning::Fn { arity, def } => {
                (arity, Some(arity), def, None)
            }
            Meaning::Builtin(builtin) => {
                let (min, max) = builtin.arity();
                (min, max, None, too_many_help(builtin, given))
            }
            Meaning::Local | Meaning::Let => return,
        };
        if given >= min && max.is_none_or(|max| given <= max) {
            return;
        }
        let were = if given == 1 { "was" } else { "were" };
        let mut diag = Diagnostic::new(
            Phase::Check,
            format!(
                "`{name}` takes {} but {given} {were} given",
                expected_count(min, max)
            ),
        )
        .at(call, format!("called with {}", count(given, "argument")));
        if let Some(def) = def {
            diag = diag.also(def, format!("`{name}` is defined here"));
        }
        if let Some(help) = help {
            diag = diag.help(help);
        }
        self.report(diag);
    }

    fn query_in_move(&mut self, name: &str, meaning: Meaning, span: Span) {
        if self.in_move && matches!(meaning, Meaning::Builtin(b) if b.is_query()) {
            self.report(
                Diagnostic::new(
                    Phase::Check,
                    format!("`{name}` cannot be used inside a move rule"),
                )
                .at(span, "a query inside a move rule")
                .note(QUERY_NOTE),
            );
        }
    }

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

/// The name a callee is (through parentheses), its span, and whether it is
/// written without parentheses (only then are its arguments counted).
fn callee_name(callee: &Expr) -> Option<(&str, Span, bool)> {
    match &callee.node {
        ExprKind::Var(name) => Some((name, callee.span, true)),
        ExprKind::Paren(inner) => callee_name(inner).map(|(name, span, _)| (name, span, false)),
        _ => None,
    }
}

/// `1 argument`, `2 to 3 arguments`, `at least 1 argument`.
fn expected_count(min: usize, max: Option<usize>) -> String {
    match max {
        Some(max) if max == min => count(min, "argument"),
        Some(max) => format!("{min} to {max} arguments"),
        None => format!("at least {}", count(min, "argument")),
    }
}

/// What to write instead when a built-in of one argument gets several: a
/// query asks about one position (a sum, if need be), the others take one
/// collection.
fn too_many_help(builtin: Builtin, given: usize) -> Option<String> {
    use Builtin::*;
    let name = builtin.name();
    match builtin {
        _ if given < 2 || builtin.arity().1 != Some(1) => None,
        Value | Winner | Moves | Options => Some(format!(
            "`{name}` asks about one position; for the sum of several, add them: `{name}(P + Q)`"
        )),
        Len | Sum | All | Any | Sorted | Reversed | Enumerate | List | Set | Mex => Some(format!(
            "`{name}` takes one collection: put the items in a list, as in `{name}([a, b])`"
        )),
        _ => None,
    }
}
