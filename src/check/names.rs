//! Name resolution for [`Checker`]: what a name means where it is used
//! (a local, a global defined above or hoisted, a built-in, or what an
//! earlier unit defined), and the "did you mean" suggestions for the
//! names that mean nothing.

use super::{Checker, Global, Meaning};
use crate::builtins::Builtin;
use crate::diag::{Diagnostic, Phase};
use crate::span::Span;

impl Checker<'_> {
    /// What `name` means here; reports it when it is not (yet) defined.
    pub(super) fn resolve(&mut self, name: &str, span: Span) -> Option<Meaning> {
        if self.locals.iter().any(|local| &*local.node == name) {
            return Some(Meaning::Local);
        }
        match self.globals.get(name).copied() {
            Some(Global::Game { arity, name }) => {
                return Some(Meaning::Game {
                    arity,
                    def: Some(name),
                });
            }
            Some(Global::Fn { arity, name }) => {
                return Some(Meaning::Fn {
                    arity,
                    def: Some(name),
                });
            }
            Some(Global::Let { stmt, name: def }) => {
                return Some(self.let_use(name, span, stmt, def));
            }
            None => {}
        }
        if let Some(builtin) = Builtin::from_name(name) {
            return Some(Meaning::Builtin(builtin));
        }
        if let Some(known) = self.earlier.known(name) {
            return Some(known.into());
        }
        self.unknown(name, span);
        None
    }

    /// A use of a top-level `let` of this program, made by statement `stmt`.
    fn let_use(&mut self, name: &str, span: Span, stmt: usize, def: Span) -> Meaning {
        if self.in_body || stmt < self.stmt {
            return Meaning::Let;
        }
        if let Some(known) = self.earlier.known(name) {
            return known.into();
        }
        self.report(
            Diagnostic::new(
                Phase::Check,
                format!("`{name}` is used before it is defined"),
            )
            .at(span, "used here")
            .also(def, "defined here, later")
            .help(format!("move the `let` of `{name}` above its first use")),
        );
        Meaning::Let
    }

    fn unknown(&mut self, name: &str, span: Span) {
        let mut diag = Diagnostic::new(Phase::Check, format!("unknown name `{name}`"))
            .at(span, "not defined here");
        if name == "_" {
            diag = diag.help(
                "`_` stands for a varying parameter only as a whole argument of the game that \
                 `table` takes first, as in `table(g(3, _), 0..10)`",
            );
        } else if let Some(close) = self.closest_name(name) {
            diag = diag.help(format!("did you mean `{close}`?"));
        }
        self.report(diag);
    }

    /// The visible name most like `name`, if one is close enough.
    fn closest_name(&self, name: &str) -> Option<String> {
        self.visible_names()
            .into_iter()
            .filter_map(|c| closeness(name, &c).map(|score| (score, c)))
            .max_by(|(a, x), (b, y)| a.total_cmp(b).then_with(|| y.cmp(x)))
            .map(|(_, c)| c)
    }

    /// Every name visible here.
    fn visible_names(&self) -> Vec<String> {
        let locals = self.locals.iter().map(|l| l.node.to_string());
        let globals = self
            .globals
            .iter()
            .filter(|(_, g)| match g {
                Global::Let { stmt, .. } => self.in_body || *stmt < self.stmt,
                Global::Game { .. } | Global::Fn { .. } => true,
            })
            .map(|(n, _)| n.to_string());
        let builtins = Builtin::ALL.iter().map(|b| b.name().to_string());
        let earlier = self.earlier.names().into_iter();
        // The keywords that are values, for `True` or `FALSE`.
        let literals = ["true", "false"].into_iter().map(String::from);
        locals
            .chain(globals)
            .chain(builtins)
            .chain(earlier)
            .chain(literals)
            .collect()
    }
}

/// How close `candidate` is to the unknown `name` (higher is closer), or
/// `None` when it is too different to suggest.
pub(super) fn closeness(name: &str, candidate: &str) -> Option<f64> {
    if name != candidate && name.eq_ignore_ascii_case(candidate) {
        return Some(1.0);
    }
    let distance = strsim::damerau_levenshtein(name, candidate);
    let similarity = strsim::normalized_damerau_levenshtein(name, candidate);
    let longest = name.chars().count().max(candidate.chars().count());
    let short_and_near = distance <= 2 && distance * 3 <= longest;
    (distance > 0 && (similarity >= 0.7 || short_and_near)).then_some(similarity)
}
