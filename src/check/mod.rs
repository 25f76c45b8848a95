//! Phase 2 of syntax → check → lower → runtime: looks at a parsed
//! program before anything runs and reports every mistake that can be seen
//! from the text alone. It resolves every name (hoisted games and functions,
//! top-level `let`s in order, parameters, move binders, comprehension
//! variables, built-ins and what earlier units of the session defined),
//! counts the arguments of calls, keeps queries out of move rules and
//! rejects move targets that cannot be positions. It never stops at the
//! first problem and never changes the program.

use crate::builtins::Builtin;
use crate::diag::{Diagnostic, Phase, count};
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

const TARGET_HELP: &str = "write a game applied to arguments such as `g(n - 1)`, a sum `g(a) + g(b)`, \
     `*k`, `sum([...])`, or `0` for the empty position";

const QUERY_NOTE: &str = "a move rule describes one move; the values of positions are computed \
     from the rules, not inside them";

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

    // ------------------------------------------------------------ definitions

    /// Records every top-level definition, so games and fns are visible
    /// before they are defined and `let`s can be found by their statement.
    fn hoist(&mut self, program: &Program) {
        for (index, stmt) in program.stmts.iter().enumerate() {
            for (name, global) in definitions(index, stmt) {
                self.define(name, global);
            }
        }
    }

    fn define(&mut self, name: &Ident, global: Global) {
        if Builtin::from_name(&name.node).is_some() {
            return self.builtin_redefined(name);
        }
        match self.globals.get(&name.node).copied() {
            None => {
                self.globals.insert(name.node.clone(), global);
            }
            // One `let` binding a name twice: the pattern check reports it.
            Some(first) if first.same_let(global) => {}
            Some(first) => self.report(
                Diagnostic::new(Phase::Check, format!("`{}` is defined twice", name.node))
                    .at(name.span, "defined again here")
                    .also(first.name_span(), "first defined here")
                    .help("rename one of the definitions or remove one of them"),
            ),
        }
    }

    fn builtin_redefined(&mut self, name: &Ident) {
        // Often a helper the user did not know was built in, such as `mex`.
        self.report(
            Diagnostic::new(
                Phase::Check,
                format!(
                    "`{}` is a built-in function and cannot be redefined",
                    name.node
                ),
            )
            .at(name.span, "this name belongs to a built-in function")
            .help(format!(
                "the built-in `{}` may already do what you need (docs/language.md, \
                 section 8); otherwise choose another name",
                name.node
            )),
        );
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

    // ------------------------------------------------------------- move rules

    fn move_rule(&mut self, game: &GameDef, rule: &MoveRule) {
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

    fn call(&mut self, callee: &Expr, args: &[Expr], span: Span) {
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
}

/// The names a top-level statement defines, with what they are.
fn definitions(index: usize, stmt: &Stmt) -> Vec<(&Ident, Global)> {
    match &stmt.kind {
        StmtKind::Game(game) => {
            let (arity, name) = (game.params.len(), game.name.span);
            vec![(&game.name, Global::Game { arity, name })]
        }
        StmtKind::Fn(f) => {
            let (arity, name) = (f.params.len(), f.name.span);
            vec![(&f.name, Global::Fn { arity, name })]
        }
        StmtKind::Let(pattern, _) => {
            let names = pattern.names().into_iter();
            names
                .map(|n| {
                    (
                        n,
                        Global::Let {
                            stmt: index,
                            name: n.span,
                        },
                    )
                })
                .collect()
        }
        StmtKind::Expect(_) | StmtKind::Expr(_) => Vec::new(),
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

mod calls;
mod names;

#[cfg(test)]
mod tests;
