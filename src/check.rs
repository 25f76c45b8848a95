//! Phase 2 of syntax → check → lower → graph → eval: looks at a parsed
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

/// Checks a parsed program before anything is evaluated and returns every problem found, in source order (empty: fine).
pub fn check(program: &Program, earlier: &dyn Earlier) -> Vec<Diagnostic> {
    let mut checker = Checker::new(earlier);
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
    fn new(earlier: &'e dyn Earlier) -> Self {
        Checker {
            earlier,
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
            Some((name, name_span, direct)) => {
                if let Some(meaning) = self.resolve(name, name_span) {
                    if direct {
                        self.arity(name, meaning, args.len(), span);
                    }
                    self.query_in_move(name, meaning, name_span);
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

    // ------------------------------------------------------------------ names

    /// What `name` means here; reports it when it is not (yet) defined.
    fn resolve(&mut self, name: &str, span: Span) -> Option<Meaning> {
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
        if let Some(close) = self.closest_name(name) {
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
        ExprKind::Paren(inner) => return not_a_position(inner),
        _ => return None,
    };
    Some((target.span, what))
}

/// How close `candidate` is to the unknown `name` (higher is closer), or
/// `None` when it is too different to suggest.
fn closeness(name: &str, candidate: &str) -> Option<f64> {
    if name != candidate && name.eq_ignore_ascii_case(candidate) {
        return Some(1.0);
    }
    let distance = strsim::damerau_levenshtein(name, candidate);
    let similarity = strsim::normalized_damerau_levenshtein(name, candidate);
    let longest = name.chars().count().max(candidate.chars().count());
    let short_and_near = distance <= 2 && distance * 3 <= longest;
    (distance > 0 && (similarity >= 0.7 || short_and_near)).then_some(similarity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::FileId;

    /// What the tests' earlier units defined.
    struct TestEarlier;

    const EARLIER: [(&str, Known); 3] = [
        ("kayles", Known::Game { arity: 1 }),
        ("double", Known::Fn { arity: 1 }),
        ("LIMIT", Known::Let),
    ];

    impl Earlier for TestEarlier {
        fn known(&self, name: &str) -> Option<Known> {
            EARLIER.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
        }

        fn names(&self) -> Vec<String> {
            EARLIER.iter().map(|(n, _)| n.to_string()).collect()
        }
    }

    fn diagnostics(src: &str) -> Vec<Diagnostic> {
        match crate::syntax::parse(FileId(0), src) {
            Ok(program) => check(&program, &TestEarlier),
            Err(errs) => panic!("parse failed: {errs:?}"),
        }
    }

    fn messages(src: &str) -> Vec<String> {
        diagnostics(src).into_iter().map(|d| d.message).collect()
    }

    /// The only diagnostic of `src`.
    fn single(src: &str) -> Diagnostic {
        let mut diags = diagnostics(src);
        assert_eq!(diags.len(), 1, "expected one diagnostic, got {diags:?}");
        diags.remove(0)
    }

    /// The source text a span covers.
    fn text(src: &str, span: Span) -> &str {
        &src[span.start as usize..span.end as usize]
    }

    fn assert_clean(src: &str) {
        let diags = diagnostics(src);
        assert!(diags.is_empty(), "unexpected diagnostics: {diags:?}");
    }

    const VALID: &str = r#"
game nim(n) {
    move take(k in 1..=n) -> nim(n - k)
}
value(nim(3) + nim(4) + nim(5))
let S = {1, 2, 3}
game sub(n) {
    move take(k in S) if k <= n -> sub(n - k)
}
expect [value(sub(n)) for n in 0..8] == [0, 1, 2, 3, 0, 1, 2, 3]
game dawson(n) {
    move one if n == 1 -> 0
    move two if n >= 2 -> dawson(n - 2)
    move three(a in 0..=n - 3) -> dawson(a) + dawson(n - 3 - a)
}
fn inside(x, y) = 1 <= x and x <= 8 and 1 <= y and y <= 8
game knight(x, y) {
    move jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) if inside(x + dx, y + dy) -> knight(x + dx, y + dy)
}
winner(sum([knight(x, y) for (x, y) in [(5, 4), (5, 8), (8, 2)]]))
fn shift(ps, i, m) = [if j == i then p - m else if j == i - 1 then p + m else p for (j, p) in enumerate(ps)]
game stairs(ps) {
    move down(i in 1..len(ps), m in 1..=ps[i]) -> stairs(shift(ps, i, m))
}
table(kayles, 0..=23)
"#;

    #[test]
    fn the_valid_program_reports_nothing() {
        assert_clean(VALID);
    }

    #[test]
    fn the_language_overview_reports_nothing() {
        let program = crate::syntax::parse(FileId(0), include_str!("../examples/spec.game"));
        let diags = check(
            &program.expect("the overview parses"),
            &crate::defs::Defs::default(),
        );
        assert!(diags.is_empty(), "unexpected diagnostics: {diags:?}");
    }

    // Rule 1: scopes.

    #[test]
    fn games_and_fns_are_visible_before_their_definition_and_recursively() {
        assert_clean(
            "value(g(3))\n\
             game g(n) { move m(k in 1..=n) if ok(k) -> g(n - k) + h(k) }\n\
             game h(n) { move m if n > 0 -> g(n - 1) }\n\
             fn ok(k) = k == 1 or ok(k - 2)",
        );
    }

    #[test]
    fn a_let_is_visible_in_bodies_before_it_and_in_later_statements() {
        assert_clean(
            "game g(n) { move m(k in S) if k <= n -> g(n - k) }\n\
             fn f(x) = x + len(S)\n\
             let S = {1, 2}\n\
             value(g(f(1)))\n\
             let (a, (b, c)) = (S, (1, 2))\n\
             a == b + c",
        );
    }

    #[test]
    fn binders_and_comprehension_variables_are_scoped() {
        assert_clean(
            "game g(n) { move m(a in 0..n, b in a..n) if a < b -> g(a + b) }\n\
             [x + y for x in 0..3 if x > 0 for y in 0..x if y != x]",
        );
        assert_eq!(
            messages("[x for x in 0..y for y in 0..3]"),
            ["unknown name `y`"]
        );
        assert_eq!(
            messages("game g(n) { move m(a in 0..b, b in 0..n) -> g(a) }"),
            ["unknown name `b`"]
        );
        assert_eq!(messages("[x for x in 0..3]\nx"), ["unknown name `x`"]);
        assert_eq!(
            messages("game g(n) { move m(a in 0..n) -> g(a) }\nfn f(x) = a + n"),
            ["unknown name `a`", "unknown name `n`"]
        );
    }

    // Rule 2: unknown names.

    #[test]
    fn an_unknown_name_suggests_a_close_earlier_name() {
        let src = "value(kayle(3))";
        let diag = single(src);
        assert_eq!(diag.message, "unknown name `kayle`");
        assert_eq!(diag.phase, Phase::Check);
        assert_eq!(text(src, diag.span.unwrap()), "kayle");
        assert_eq!(diag.help.as_deref(), Some("did you mean `kayles`?"));
    }

    #[test]
    fn an_unknown_name_suggests_locals_globals_and_builtins() {
        let help = |src| single(src).help;
        assert_eq!(
            help("game nim(n) { move take(k in 1..=n) -> nmi(n - k) }").as_deref(),
            Some("did you mean `nim`?")
        );
        assert_eq!(
            help("fn f(count) = cuont + 1").as_deref(),
            Some("did you mean `count`?")
        );
        assert_eq!(help("lenn([1])").as_deref(), Some("did you mean `len`?"));
        assert_eq!(
            help("let limit = 3\nlimt + 1").as_deref(),
            Some("did you mean `limit`?")
        );
    }

    #[test]
    fn a_capitalised_boolean_or_name_suggests_the_right_case() {
        let help = |src| single(src).help;
        assert_eq!(help("expect True").as_deref(), Some("did you mean `true`?"));
        assert_eq!(help("[FALSE]").as_deref(), Some("did you mean `false`?"));
        assert_eq!(help("VALUE(0)").as_deref(), Some("did you mean `value`?"));
        assert_eq!(
            help("game Nim(n) { move m -> nim(n) }").as_deref(),
            Some("did you mean `Nim`?")
        );
    }

    #[test]
    fn an_unknown_name_far_from_everything_gets_no_suggestion() {
        let diag = single("zebra + 1");
        assert_eq!(diag.message, "unknown name `zebra`");
        assert_eq!(diag.help, None);
    }

    // Rule 3: a let used before its definition.

    #[test]
    fn a_let_used_before_its_definition_is_reported_with_the_definition() {
        let src = "value(kayles(S))\nlet S = 3";
        let diag = single(src);
        assert_eq!(diag.message, "`S` is used before it is defined");
        assert_eq!(diag.extra.len(), 1);
        assert_eq!(text(src, diag.extra[0].0), "S");
        assert!(diag.extra[0].0.start > diag.span.unwrap().start);
        assert_eq!(
            messages("let x = x + 1"),
            ["`x` is used before it is defined"]
        );
    }

    #[test]
    fn a_let_used_before_its_definition_is_fine_when_known_earlier() {
        assert_clean("LIMIT + 1\nlet LIMIT = 4");
    }

    // Rule 4: definitions.

    #[test]
    fn a_name_defined_twice_is_reported_at_the_second_definition() {
        let src = "game kayles(n) { move m -> 0 }\nfn kayles(n) = n";
        let diag = single(src);
        assert_eq!(diag.message, "`kayles` is defined twice");
        assert_eq!(
            diag.span.unwrap().start as usize,
            src.find("kayles(n) =").unwrap()
        );
        assert_eq!(diag.extra[0].1, "first defined here");
        assert_eq!(diag.extra[0].0.start, 5);
        assert_eq!(
            messages(
                "let a = 1\nfn a(x) = x\ngame g(n) { move m -> 0 }\ngame g(n) { move m -> 0 }\nlet (b, a) = (1, 2)"
            ),
            [
                "`a` is defined twice",
                "`g` is defined twice",
                "`a` is defined twice"
            ]
        );
    }

    #[test]
    fn redefining_a_name_from_an_earlier_unit_is_fine() {
        assert_clean("game kayles(n, m) { move m -> 0 }\nkayles(1, 2)\nlet double = 2\ndouble + 1");
    }

    #[test]
    fn a_builtin_cannot_be_redefined() {
        assert_eq!(
            messages("game sum(n) { move m -> 0 }\nfn len(x) = 1\nlet (a, max) = (1, 2)"),
            [
                "`sum` is a built-in function and cannot be redefined",
                "`len` is a built-in function and cannot be redefined",
                "`max` is a built-in function and cannot be redefined",
            ]
        );
    }

    // Rule 5: parameters and patterns.

    #[test]
    fn a_parameter_declared_twice_is_reported() {
        let src = "fn f(x, y, x) = x + y";
        let diag = single(src);
        assert_eq!(diag.message, "parameter `x` of `f` is declared twice");
        assert_eq!(diag.span.unwrap().start, 11);
        assert_eq!(diag.extra[0].0.start, 5);
        assert_eq!(
            messages("game g(a, a) { move m -> 0 }"),
            ["parameter `a` of `g` is declared twice"]
        );
    }

    #[test]
    fn a_name_bound_twice_in_a_pattern_is_reported() {
        assert_eq!(
            messages("let (a, (b, a)) = (1, (2, 3))"),
            ["`a` is bound twice"]
        );
        assert_eq!(
            messages("[p for (p, p) in [(1, 2)]]"),
            ["`p` is bound twice"]
        );
        assert_eq!(
            messages("game g(n) { move m(a in 0..n, a in 0..n) -> g(a) }"),
            ["`a` is bound twice"]
        );
    }

    // Rule 6: binders shadowing parameters.

    #[test]
    fn a_binder_shadowing_a_parameter_is_reported() {
        let src = "game g(n, m) { move take((k, n) in [(1, 2)]) -> g(n, m) }";
        let diag = single(src);
        assert_eq!(diag.message, "binder `n` shadows the parameter `n` of `g`");
        assert_eq!(diag.extra[0].0.start, 7);
        // A comprehension inside the rule may reuse the name.
        assert_clean("game g(n) { move m(k in [n for n in 0..3]) -> g(k) }");
    }

    // Rule 7: arity.

    #[test]
    fn calls_of_games_and_fns_must_match_their_arity() {
        let src = "game g(n) { move m -> g(n, 1) }\nfn f(a, b) = a\nf(1)\nkayles(1, 2)\ndouble()";
        assert_eq!(
            messages(src),
            [
                "`g` takes 1 argument but 2 were given",
                "`f` takes 2 arguments but 1 was given",
                "`kayles` takes 1 argument but 2 were given",
                "`double` takes 1 argument but 0 were given",
            ]
        );
        let first = &diagnostics(src)[0];
        assert_eq!(text(src, first.span.unwrap()), "g(n, 1)");
        assert_eq!(text(src, first.extra[0].0), "g");
    }

    #[test]
    fn calls_of_builtins_must_be_within_their_arity() {
        assert_eq!(
            messages("table(kayles)\nmin()\nzip([1])\nlen([1], [2])\nprint()\nmax(1, 2, 3)"),
            [
                "`table` takes 2 to 3 arguments but 1 was given",
                "`min` takes at least 1 argument but 0 were given",
                "`zip` takes at least 2 arguments but 1 was given",
                "`len` takes 1 argument but 2 were given",
            ]
        );
    }

    #[test]
    fn a_builtin_of_one_argument_given_several_says_what_to_write() {
        let help = |src| single(src).help;
        assert_eq!(
            help("value(kayles(1), kayles(2))").as_deref(),
            Some(
                "`value` asks about one position; for the sum of several, add them: `value(P + Q)`"
            )
        );
        assert_eq!(
            help("mex(0, 1, 3)").as_deref(),
            Some("`mex` takes one collection: put the items in a list, as in `mex([a, b])`")
        );
        assert_eq!(help("len()"), None);
        assert_eq!(help("abs(1, 2)"), None);
        assert_eq!(help("table(kayles)"), None);
    }

    #[test]
    fn calls_of_locals_lets_and_expressions_are_left_to_run_time() {
        assert_clean(
            "fn apply(h, x) = h(x, x, x)\nlet G = kayles\nG(1, 2)\nLIMIT(1)\n\
             fn f(x) = (x)(1)\n[x(1) for x in [kayles]]",
        );
    }

    // Rule 8: functions must be called.

    #[test]
    fn a_function_that_is_not_called_is_reported() {
        assert_eq!(
            messages("fn inside(x) = x > 0\nlet f = inside\n[len, 1]\ndouble"),
            [
                "function `inside` must be called with arguments",
                "function `len` must be called with arguments",
                "function `double` must be called with arguments",
            ]
        );
        assert_clean("game g(n) { move m -> 0 }\ntable(g, 0..3)\nlet h = kayles\n(len)([1])");
        let diag = single("fn answer() = 42\nanswer + 1");
        assert_eq!(diag.message, "function `answer` must be called");
        assert_eq!(diag.help.as_deref(), Some("call it, as in `answer()`"));
    }

    // Rule 9: queries in move rules.

    #[test]
    fn queries_inside_move_rules_are_reported() {
        let src = "game g(n) {\n\
                   move a(k in moves(g(n))) -> g(k)\n\
                   move b if value(g(n - 1)) == 0 -> g(n - 1)\n\
                   move c -> g(winner(g(0)))\n\
                   move d(k in [x for x in options(g(n))]) -> 0\n\
                   }";
        let diags = diagnostics(src);
        let got: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            got,
            [
                "`moves` cannot be used inside a move rule",
                "`value` cannot be used inside a move rule",
                "`winner` cannot be used inside a move rule",
                "`options` cannot be used inside a move rule",
            ]
        );
        assert_eq!(diags[0].notes, [QUERY_NOTE]);
    }

    #[test]
    fn queries_outside_move_rules_are_fine() {
        assert_clean(
            "fn v(p) = value(p)\nexpect winner(kayles(3)) == \"first\"\nlet t = table(kayles, 0..3)",
        );
    }

    // Rule 10: move targets.

    #[test]
    fn a_move_target_that_is_never_a_position_is_reported() {
        let target = |t: &str| {
            let src = format!("game g(n) {{ move m(k in 0..n) -> {t} }}");
            let diag = single(&src);
            assert_eq!(diag.message, "a move target must be a position", "for {t}");
            assert_eq!(diag.help.as_deref(), Some(TARGET_HELP));
            (text(&src, diag.span.unwrap()).to_string(), diag.label)
        };
        assert_eq!(
            target("1"),
            ("1".into(), "this is a number, not a position".into())
        );
        assert_eq!(target("-2").1, "this is a number, not a position");
        assert_eq!(target("true").1, "this is a boolean, not a position");
        assert_eq!(target("\"g\"").1, "this is a string, not a position");
        assert_eq!(target("(g(k), g(k))").1, "this is a tuple, not a position");
        assert_eq!(target("[g(k)]").1, "this is a list, not a position");
        assert_eq!(target("{g(k)}").1, "this is a set, not a position");
        assert_eq!(
            target("[g(i) for i in 0..k]").1,
            "this is a comprehension, not a position"
        );
        assert_eq!(target("k < n").1, "this is a comparison, not a position");
        assert_eq!(
            target("k in 0..n").1,
            "this is a comparison, not a position"
        );
        assert_eq!(
            target("g(k) and g(k)").1,
            "this is a boolean, not a position"
        );
        assert_eq!(target("not g(k)").1, "this is a boolean, not a position");
        assert_eq!(target("0..k").1, "this is a range, not a position");
        assert_eq!(target("g(k) + 1").0, "1");
        assert_eq!(target("[1] + g(k)").0, "[1]");
        assert_eq!(target("if k > 0 then g(k) else 2").0, "2");
        assert_eq!(target("(((k, k)))").0, "(k, k)");
    }

    #[test]
    fn a_move_target_that_may_be_a_position_is_fine() {
        assert_clean(
            "game g(n) {\n\
             move a -> 0\n\
             move b(k in 0..n) -> g(k) + 0 + *k\n\
             move c -> sum([g(i) for i in 0..n])\n\
             move d(k in 0..n) -> if k > 0 then g(k) else 0\n\
             move e(ps in [[g(1)]]) -> ps[0]\n\
             move f(p in [g(0)]) -> (p)\n\
             move h -> kayles(n) - g(n)\n\
             }",
        );
    }

    // Rule 11 and all rules together.

    #[test]
    fn top_level_expressions_follow_the_same_rules() {
        assert_eq!(
            messages("expect nimm(3) == 0\nlet x = inside\nprint(x, len(1, 2))"),
            [
                "unknown name `nimm`",
                "unknown name `inside`",
                "`len` takes 1 argument but 2 were given",
            ]
        );
    }

    #[test]
    fn every_mistake_of_a_file_is_reported_in_source_order() {
        let src = "game nim(n) {\n\
                   move take(k in 1..=n) -> [nim(n - k)]\n\
                   }\n\
                   value(nim(1, 2))\n\
                   fn nim(x) = kayle(x)";
        assert_eq!(
            messages(src),
            [
                "a move target must be a position",
                "`nim` takes 1 argument but 2 were given",
                "`nim` is defined twice",
                "unknown name `kayle`",
            ]
        );
        let diags = diagnostics(src);
        assert!(
            diags
                .iter()
                .all(|d| d.phase == Phase::Check && d.span.is_some())
        );
        assert!(
            diags
                .windows(2)
                .all(|w| w[0].span.unwrap().start <= w[1].span.unwrap().start)
        );
    }

    #[test]
    fn mangled_programs_never_panic() {
        for cut in (0..VALID.len()).step_by(2) {
            let (head, tail) = VALID.split_at(cut);
            let src = format!("{head}{}", tail.get(1..).unwrap_or_default());
            if let Ok(program) = crate::syntax::parse(FileId(0), &src) {
                let _ = check(&program, &TestEarlier);
            }
        }
    }

    #[test]
    fn names_of_earlier_units_two_edits_away_are_suggested() {
        let diags = diagnostics("LIMTI_ + 1");
        assert_eq!(diags[0].help.as_deref(), Some("did you mean `LIMIT`?"));
    }

    #[test]
    fn suggestions_pick_the_closest_name() {
        assert_eq!(closeness("x", "y"), None);
        assert_eq!(closeness("nim", "nim"), None);
        assert!(closeness("nm", "nim").is_some());
        assert!(closeness("kayle", "kayles") > closeness("kayle", "kale"));
    }
}
