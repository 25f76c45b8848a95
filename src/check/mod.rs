//! Phase 2 of syntax → check → lower → runtime: looks at a parsed
//! program before anything runs and reports every mistake that can be seen
//! from the text alone. It resolves every name (hoisted games and functions,
//! top-level `let`s in order, parameters, move binders, comprehension
//! variables, built-ins and what earlier units of the session defined),
//! counts the arguments of calls, keeps queries out of move rules and
//! rejects move targets that cannot be positions. It never stops at the
//! first problem and never changes the program.
//!
//! This file holds the walk over statements and expressions; the checks
//! it calls live beside it: `hoist.rs` (top-level definitions), `names.rs`
//! (what a name means), `calls.rs` (arguments, queries, `table`, `format`)
//! and `moves.rs` (binders and targets of move rules).

use crate::builtins::Builtin;
use crate::diag::{Diagnostic, Phase};
use crate::span::Span;
use crate::syntax::ast::*;
use rustc_hash::FxHashMap;
use std::rc::Rc;

pub use crate::defs::{Earlier, Known};

/// Checks a parsed program (of source text `src`) before anything is
/// evaluated and returns every problem found, in source order (empty: fine).
pub fn check(program: &Program, src: &str, earlier: &dyn Earlier) -> Vec<Diagnostic> {
    let mut checker = Checker::new(src, earlier);
    checker.hoist(program);
    for (index, stmt) in program.stmts.iter().enumerate() {
        checker.stmt(index, stmt);
    }
    let mut diags = checker.diags;
    diags.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
    diags
}

/// A top-level definition of the program being checked.
#[derive(Clone, Copy, Debug)]
enum Global {
    Game {
        arity: usize,
        name: Span,
    },
    Fn {
        arity: usize,
        name: Span,
    },
    /// A top-level `let`, made by the statement numbered `stmt`.
    Let {
        stmt: usize,
        name: Span,
    },
}

impl Global {
    fn name_span(self) -> Span {
        match self {
            Global::Game { name, .. } | Global::Fn { name, .. } | Global::Let { name, .. } => name,
        }
    }

    /// Both are names bound by the same `let` statement.
    fn same_let(self, other: Global) -> bool {
        matches!((self, other), (Global::Let { stmt: a, .. }, Global::Let { stmt: b, .. }) if a == b)
    }
}

/// What a name means at the place it is used.
#[derive(Clone, Copy, Debug)]
enum Meaning {
    Local,
    Game { arity: usize, def: Option<Span> },
    Fn { arity: usize, def: Option<Span> },
    Let,
    Builtin(Builtin),
}

impl From<Known> for Meaning {
    fn from(known: Known) -> Meaning {
        match known {
            Known::Game { arity } => Meaning::Game { arity, def: None },
            Known::Fn { arity } => Meaning::Fn { arity, def: None },
            Known::Let => Meaning::Let,
        }
    }
}

struct Checker<'e> {
    earlier: &'e dyn Earlier,
    /// The text the program's spans point into, to quote in suggestions.
    src: &'e str,
    /// The first definition of every top-level name of this program.
    globals: FxHashMap<Rc<str>, Global>,
    /// Parameters, binders and comprehension variables in scope, innermost last.
    locals: Vec<Ident>,
    /// The number of the top-level statement being checked.
    stmt: usize,
    /// Inside a game or fn body, where every top-level `let` is visible.
    in_body: bool,
    /// Inside a move rule, where queries are not allowed.
    in_move: bool,
    diags: Vec<Diagnostic>,
}

impl<'e> Checker<'e> {
    fn new(src: &'e str, earlier: &'e dyn Earlier) -> Self {
        Checker {
            earlier,
            src,
            globals: FxHashMap::default(),
            locals: Vec::new(),
            stmt: 0,
            in_body: false,
            in_move: false,
            diags: Vec::new(),
        }
    }

    fn report(&mut self, diag: Diagnostic) {
        self.diags.push(diag);
    }

    // ------------------------------------------------------------- statements

    fn stmt(&mut self, index: usize, stmt: &Stmt) {
        self.stmt = index;
        match &stmt.kind {
            StmtKind::Game(game) => self.game(game),
            StmtKind::Fn(f) => self.function(f),
            StmtKind::Let(pattern, value) => {
                self.expr(value);
                self.bind(pattern, &mut Vec::new());
            }
            StmtKind::Expect(e) | StmtKind::Expr(e) => self.expr(e),
        }
    }

    fn game(&mut self, game: &GameDef) {
        self.enter_body(&game.name, &game.params);
        for rule in &game.moves {
            self.move_rule(game, rule);
        }
        self.leave_body();
    }

    fn function(&mut self, f: &FnDef) {
        self.enter_body(&f.name, &f.params);
        self.expr(&f.body);
        self.leave_body();
    }

    fn enter_body(&mut self, owner: &Ident, params: &[Ident]) {
        for (i, param) in params.iter().enumerate() {
            let earlier = params.get(..i).unwrap_or_default();
            if let Some(first) = earlier.iter().find(|p| p.node == param.node) {
                self.report(
                    Diagnostic::new(
                        Phase::Check,
                        format!(
                            "parameter `{}` of `{}` is declared twice",
                            param.node, owner.node
                        ),
                    )
                    .at(param.span, "declared again here")
                    .also(first.span, "first declared here")
                    .help("give every parameter its own name"),
                );
            }
        }
        self.locals = params.to_vec();
        self.in_body = true;
    }

    fn leave_body(&mut self) {
        self.locals.clear();
        self.in_body = false;
    }

    // --------------------------------------------------------------- patterns

    /// Checks the names of `pattern` against those already bound in the same
    /// construct (`bound`) and adds them there.
    fn bind(&mut self, pattern: &Pattern, bound: &mut Vec<Ident>) {
        for name in pattern.names() {
            if let Some(first) = bound.iter().find(|b| b.node == name.node) {
                self.report(
                    Diagnostic::new(Phase::Check, format!("`{}` is bound twice", name.node))
                        .at(name.span, "bound again here")
                        .also(first.span, "first bound here")
                        .help("give every bound variable its own name"),
                );
            }
            bound.push(name.clone());
        }
    }

    // ------------------------------------------------------------ expressions

    fn expr(&mut self, e: &Expr) {
        match &e.node {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => {}
            ExprKind::Var(name) => self.bare_name(name, e.span),
            ExprKind::Tuple(items) | ExprKind::List(items) | ExprKind::Set(items) => {
                self.exprs(items)
            }
            ExprKind::Comprehension { elem, clauses, .. } => self.comprehension(elem, clauses),
            ExprKind::Unary(_, x) | ExprKind::Paren(x) => self.expr(x),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            // Each comparison of the chain on its own, as when the parser
            // spelled `a < b <= c` as `a < b and b <= c`: a middle operand is
            // looked at twice (so a mistake there is reported twice).
            ExprKind::Chain(operands, _) => {
                for pair in operands.windows(2) {
                    self.expr(&pair[0]);
                    self.expr(&pair[1]);
                }
            }
            ExprKind::If(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Let(pattern, value, body) => self.local_let(pattern, value, body),
            ExprKind::Call(callee, args) => self.call(callee, args, e.span),
            ExprKind::Slice(x, lo, hi) => {
                self.expr(x);
                for bound in [lo, hi].into_iter().flatten() {
                    self.expr(bound);
                }
            }
        }
    }

    fn exprs(&mut self, items: &[Expr]) {
        for item in items {
            self.expr(item);
        }
    }

    fn comprehension(&mut self, elem: &Expr, clauses: &[Clause]) {
        let mark = self.locals.len();
        for clause in clauses {
            match clause {
                Clause::For(binder) => {
                    self.expr(&binder.domain);
                    let mut bound = Vec::new();
                    self.bind(&binder.pattern, &mut bound);
                    self.locals.extend(bound);
                }
                Clause::If(cond) => self.expr(cond),
            }
        }
        self.expr(elem);
        self.locals.truncate(mark);
    }

    /// `let PATTERN = VALUE in BODY`: the value sees the names around it,
    /// the body sees the pattern's names too (hiding any of the same name,
    /// as comprehension variables do).
    fn local_let(&mut self, pattern: &Pattern, value: &Expr, body: &Expr) {
        self.expr(value);
        let mut bound = Vec::new();
        self.bind(pattern, &mut bound);
        let mark = self.locals.len();
        self.locals.extend(bound);
        self.expr(body);
        self.locals.truncate(mark);
    }

    /// A name used as a value, not called.
    fn bare_name(&mut self, name: &str, span: Span) {
        let (args, with) = match self.resolve(name, span) {
            Some(Meaning::Fn { arity: 0, .. }) => ("", ""),
            Some(Meaning::Fn { .. } | Meaning::Builtin(_)) => ("...", " with arguments"),
            _ => return,
        };
        self.report(
            Diagnostic::new(
                Phase::Check,
                format!("function `{name}` must be called{with}"),
            )
            .at(span, "not called")
            .help(format!("call it, as in `{name}({args})`")),
        );
    }
}

mod calls;
mod hoist;
mod moves;
mod names;

#[cfg(test)]
mod tests;
