//! Name resolution for [`Checker`]: what a name means where it is used
//! (a local, a global defined above or hoisted, a built-in, or what an
//! earlier unit defined), and the "did you mean" suggestions for the
//! names that mean nothing.

use super::{Checker, Global, Meaning};
use crate::builtins::Builtin;
use crate::diag::{Diagnostic, Phase};
use crate::span::Span;
use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};
use std::borrow::Cow;

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
        let help = if stmt == self.stmt {
            // `let x = 1 in x + 1` typed as a statement: a top-level `let`
            // whose value is the membership test `1 in x + 1`.
            format!(
                "a top-level `let` cannot use what it defines; for a name local to an \
                 expression, write it in brackets: `(let {name} = ... in ...)`"
            )
        } else {
            format!("move the `let` of `{name}` above its first use")
        };
        self.report(
            Diagnostic::new(
                Phase::Check,
                format!("`{name}` is used before it is defined"),
            )
            .at(span, "used here")
            .also(def, "defined here, later")
            .help(help),
        );
        Meaning::Let
    }

    /// Whether `name` means anything here, without reporting it.
    pub(super) fn defined(&self, name: &str) -> bool {
        self.locals.iter().any(|local| &*local.node == name)
            || self.globals.contains_key(name)
            || Builtin::from_name(name).is_some()
            || self.earlier.known(name).is_some()
    }

    /// `range(...)`, Python's: grundy writes `a..b` or `a..=b`.
    pub(super) fn python_range(&mut self, args: &[Expr], call: Span) {
        let help = match args {
            [n] => format!("write `{}`", self.range_text("0", n)),
            [a, b] => format!("write `{}`", self.range_text(&self.operand(a), b)),
            [a, b, step] => format!(
                "grundy's ranges have no step; filter with a comprehension: \
                 `[x for x in {} if (x - {}) % {} == 0]`",
                self.range_text(&self.operand(a), b),
                self.operand(a),
                self.operand(step),
            ),
            _ => "write `a..b` for the integers from a up to b - 1, `a..=b` to include b".into(),
        };
        self.report(
            Diagnostic::new(
                Phase::Check,
                "`range` is Python's: grundy writes a range as `a..b` or `a..=b`",
            )
            .at(call, "Python's `range`")
            .help(help)
            .note("`a..b` runs from a to b - 1, like `range(a, b)`; `a..=b` includes b"),
        );
    }

    /// `lo..hi`, or `lo..=x` when `hi` is `x + 1`.
    fn range_text(&self, lo: &str, hi: &Expr) -> String {
        match &hi.node {
            ExprKind::Binary(BinOp::Add, x, one) if one.node == ExprKind::Int(1) => {
                format!("{lo}..={}", self.operand(x))
            }
            _ => format!("{lo}..{}", self.operand(hi)),
        }
    }

    /// The text of `e`, bracketed if it binds more loosely than `..`.
    fn operand(&self, e: &Expr) -> Cow<'_, str> {
        let text = self.text(e.span);
        let loose = match &e.node {
            ExprKind::Binary(op, ..) => op.is_comparison() || matches!(op, BinOp::And | BinOp::Or),
            ExprKind::Chain(..) | ExprKind::If(..) | ExprKind::Let(..) => true,
            ExprKind::Unary(op, _) => *op == UnOp::Not,
            _ => false,
        };
        match loose {
            true => Cow::Owned(format!("({text})")),
            false => Cow::Borrowed(text),
        }
    }

    fn text(&self, span: Span) -> &str {
        self.src
            .get(span.start as usize..span.end as usize)
            .unwrap_or("...")
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
