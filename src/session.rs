//! A session: the sources loaded so far, their definitions, and the
//! machine that evaluates them. `run`, `check` and `eval` (and the REPL)
//! all go through it: text in, results and diagnostics out.

use crate::check::check;
use crate::diag::{Diagnostic, Phase, Sources};
use crate::ir::{IrKind, StmtIr};
use crate::runtime::{Machine, RtResult};
use crate::span::Span;
use crate::syntax::ast::StmtKind;
use crate::syntax::parse;
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::io::Write;
use std::rc::Rc;

/// Process exit codes, documented in the README.
pub mod exit {
    pub const OK: i32 = 0;
    pub const EXPECT_FAILED: i32 = 1;
    pub const USAGE: i32 = 2;
    pub const SCRIPT_ERROR: i32 = 3;
    pub const LIMIT: i32 = 4;
    pub const INTERRUPTED: i32 = 130;
}

/// How running some source ended.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub failed_expects: usize,
    /// The phase of the error that stopped it, if one did.
    pub error: Option<Phase>,
}

impl Outcome {
    pub fn exit_code(&self) -> i32 {
        match self.error {
            Some(Phase::Limit) => exit::LIMIT,
            Some(Phase::Interrupted) => exit::INTERRUPTED,
            Some(_) => exit::SCRIPT_ERROR,
            None if self.failed_expects > 0 => exit::EXPECT_FAILED,
            None => exit::OK,
        }
    }

    pub fn merge(&mut self, other: Outcome) {
        self.failed_expects += other.failed_expects;
        self.error = self.error.or(other.error);
    }
}

/// A stage of the pipeline that `--debug` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The syntax tree of each source.
    Ast,
    /// The lowered statements, games and functions.
    Ir,
    /// Every position interned, with its value, after each source ran.
    Graph,
}

pub struct Session {
    pub sources: Sources,
    pub machine: Machine,
    /// Whether diagnostics are drawn in color.
    pub color: bool,
    /// Stages to print as they are produced.
    pub debug: Vec<Stage>,
    /// The statement that last defined each global name.
    pub origins: FxHashMap<Rc<str>, Span>,
    err: Box<dyn Write>,
}

impl Session {
    /// A session printing results to `out` and diagnostics to `err`.
    pub fn new(out: Box<dyn Write>, err: Box<dyn Write>) -> Session {
        Session {
            sources: Sources::default(),
            machine: Machine::new(out),
            color: false,
            debug: Vec::new(),
            origins: FxHashMap::default(),
            err,
        }
    }

    /// Writes a diagnostic where this session's diagnostics go.
    pub fn report(&mut self, diag: &Diagnostic) {
        let text = self.sources.render(diag, self.color);
        let _ = self.err.write_all(text.as_bytes());
        let _ = self.err.flush();
    }

    fn report_all(&mut self, diags: &[Diagnostic]) -> Outcome {
        for d in diags {
            self.report(d);
        }
        Outcome {
            failed_expects: 0,
            error: diags.first().map(|d| d.phase),
        }
    }

    /// Parses, checks and lowers a source; its definitions join the session.
    pub fn load(&mut self, name: &str, text: &str) -> Result<Vec<StmtIr>, Vec<Diagnostic>> {
        self.load_at(name, text, 1)
    }

    /// [`Session::load`] for a piece of a larger text that starts at line
    /// `first_line`, so that diagnostics give the line numbers of the whole.
    fn load_at(
        &mut self,
        name: &str,
        text: &str,
        first_line: usize,
    ) -> Result<Vec<StmtIr>, Vec<Diagnostic>> {
        let file = self.sources.add_at(name, text, first_line);
        let program = parse(file, text)?;
        if self.debug.contains(&Stage::Ast) {
            let _ = writeln!(self.machine.out, "{program:#?}");
        }
        let defs = &self.machine.defs;
        let errors = check(&program, defs);
        if !errors.is_empty() {
            return Err(errors);
        }
        // Redefinitions: the values of the games they change, and of every
        // game depending on those, may be wrong under the new definitions.
        // Found before lowering, which replaces definitions in place.
        let changed = crate::deps::redefined(&program, &self.machine.defs);
        if !changed.is_empty() {
            let stale = crate::deps::affected(&self.machine.defs, &self.machine.graph, &changed);
            self.machine.graph.clear_games(&stale);
            // Compiled rules may have inlined what changed (see
            // crate::runtime::normalize): every game is compiled again when used.
            self.machine.kernels.clear();
        }
        let stmts = crate::lower::lower(&program, &mut self.machine.defs)?;
        self.remember_origins(&program);
        if self.debug.contains(&Stage::Ir) {
            self.dump_ir(&program, &stmts);
        }
        Ok(stmts)
    }

    /// Where each name defined by `program` was defined, for the REPL's
    /// `:games` and `:show`.
    fn remember_origins(&mut self, program: &crate::syntax::ast::Program) {
        for stmt in &program.stmts {
            for name in stmt.defined_names() {
                self.origins.insert(name.node.clone(), stmt.span);
            }
        }
    }

    /// `--debug ir`: the rules and statements of one source, as lowered.
    fn dump_ir(&mut self, program: &crate::syntax::ast::Program, stmts: &[StmtIr]) {
        let m = &mut self.machine;
        for stmt in &program.stmts {
            let lowered = match &stmt.kind {
                StmtKind::Game(g) => m.defs.lookup(&g.name.node).and_then(|id| match id {
                    crate::defs::Global::Game(id) => m.defs.game(id).map(|g| format!("{g:#?}")),
                    _ => None,
                }),
                StmtKind::Fn(f) => m.defs.lookup(&f.name.node).and_then(|id| match id {
                    crate::defs::Global::Fn(id) => {
                        m.defs.fns[id as usize].as_ref().map(|f| format!("{f:#?}"))
                    }
                    _ => None,
                }),
                _ => None,
            };
            if let Some(text) = lowered {
                let _ = writeln!(m.out, "{text}");
            }
        }
        for stmt in stmts {
            let _ = writeln!(m.out, "{stmt:#?}");
        }
    }

    /// `--debug graph`: every position interned so far and its value.
    fn dump_graph(&mut self) {
        let m = &mut self.machine;
        let mut lines = Vec::new();
        for (game, count, known) in m.graph.stats().collect::<Vec<_>>() {
            lines.push(format!(
                "# {}: {count} positions, {known} with known values",
                m.defs.game_name(game)
            ));
            for (node, value) in m.graph.nodes(game) {
                let shown = if value < crate::graph::ABSENT {
                    value.to_string()
                } else {
                    "?".into()
                };
                lines.push(format!("{} = {shown}", m.show_node(node)));
            }
        }
        for line in lines {
            let _ = writeln!(m.out, "{line}");
        }
    }

    /// Loads a source without running its statements (`grundy check`).
    pub fn check(&mut self, name: &str, text: &str) -> Outcome {
        match self.load(name, text) {
            Ok(_) => Outcome::default(),
            Err(errors) => self.report_all(&errors),
        }
    }

    /// Loads and runs a source, printing each bare expression's value.
    pub fn run(&mut self, name: &str, text: &str) -> Outcome {
        self.run_at(name, text, 1)
    }

    /// [`Session::run`] for a piece of a larger text starting at `first_line`.
    pub fn run_at(&mut self, name: &str, text: &str, first_line: usize) -> Outcome {
        match self.load_at(name, text, first_line) {
            Ok(stmts) => self.execute(&stmts),
            Err(errors) => self.report_all(&errors),
        }
    }

    /// Runs lowered statements in order: failed expectations are counted
    /// and the run goes on; an error is reported and stops it.
    fn execute(&mut self, stmts: &[StmtIr]) -> Outcome {
        let mut outcome = Outcome::default();
        for stmt in stmts {
            match self.statement(stmt) {
                Ok(true) => {}
                Ok(false) => outcome.failed_expects += 1,
                Err(e) => {
                    // What was printed before the error comes before it.
                    let _ = self.machine.out.flush();
                    self.report(&e);
                    outcome.error = Some(e.phase);
                    break;
                }
            }
        }
        if self.debug.contains(&Stage::Graph) {
            self.dump_graph();
        }
        let _ = self.machine.out.flush();
        outcome
    }

    /// Runs one statement; `Ok(false)` for a failed expectation (reported).
    fn statement(&mut self, stmt: &StmtIr) -> RtResult<bool> {
        let m = &mut self.machine;
        match stmt {
            StmtIr::Let {
                pattern,
                value,
                slots,
            } => {
                let mut frame = vec![Value::Int(0); *slots];
                let v = m.eval(value, &mut frame)?;
                // Rules that read a let already bound may have been evaluated
                // with its old value since this unit loaded.
                let rebound = crate::deps::rebound_lets(&m.defs, pattern);
                m.bind(pattern, v, &mut frame)?;
                if !rebound.is_empty() {
                    let stale = crate::deps::affected(&m.defs, &m.graph, &rebound);
                    m.graph.clear_games(&stale);
                }
            }
            StmtIr::Print { expr, slots } => {
                let mut frame = vec![Value::Int(0); *slots];
                let v = m.eval(expr, &mut frame)?;
                // `print(...)` has written its output already.
                if !matches!(
                    expr.kind,
                    IrKind::CallBuiltin(crate::builtins::Builtin::Print, _)
                ) {
                    let mut out = std::mem::replace(&mut m.out, Box::new(std::io::sink()));
                    let _ = m.write_top(&v, &mut out);
                    m.out = out;
                }
            }
            StmtIr::Expect { cond, slots } => {
                let mut frame = vec![Value::Int(0); *slots];
                if let Some(failure) = self.expectation(cond, &mut frame)? {
                    let _ = self.machine.out.flush();
                    self.report(&failure);
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Evaluates an `expect`; a failure comes back as the diagnostic to show,
    /// with both sides of a comparison.
    fn expectation(
        &mut self,
        cond: &crate::ir::Ir,
        frame: &mut [Value],
    ) -> RtResult<Option<Diagnostic>> {
        let m = &mut self.machine;
        let text = self.sources.text(cond.span.file)
            [cond.span.start as usize..cond.span.end as usize]
            .to_string();
        let failure = Diagnostic::new(Phase::Expect, format!("`{text}` is false"));
        if let IrKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
        {
            let a = m.eval(l, frame)?;
            let b = m.eval(r, frame)?;
            return Ok(match m.binary(*op, a.clone(), b.clone(), cond.span)? {
                Value::Bool(true) => None,
                _ => {
                    let failure = failure
                        .at(l.span, format!("the left side is {}", shorten(m.show(&a))))
                        .also(r.span, format!("the right side is {}", shorten(m.show(&b))));
                    // `expect kayles(4) == 0`: a position is never a number.
                    Some(match (&a, &b) {
                        (Value::Pos(_), Value::Int(_)) | (Value::Int(_), Value::Pos(_)) => failure
                            .help(
                                "a position is not a number: to compare its nim-value, \
                                 write `value(P) == 0`",
                            ),
                        _ => failure,
                    })
                }
            });
        }
        match m.eval(cond, frame)? {
            Value::Bool(true) => Ok(None),
            Value::Bool(false) => Ok(Some(failure.at(cond.span, "this is false"))),
            other => Err(Box::new(
                Diagnostic::new(Phase::Runtime, "`expect` needs a condition")
                    .at(
                        cond.span,
                        format!("this is {}, not a boolean", other.type_name()),
                    )
                    .help("say what is expected of it, as in `expect value(P) == 0`"),
            )),
        }
    }

    /// Loads `text` as a single expression and prints its value (`grundy eval`).
    pub fn eval(&mut self, text: &str) -> Outcome {
        let stmts = match self.load("<expression>", text) {
            Ok(stmts) => stmts,
            Err(errors) => return self.report_all(&errors),
        };
        if stmts.len() != 1 || !matches!(stmts[0], StmtIr::Print { .. }) {
            let diag = Diagnostic::new(Phase::Syntax, "`-e` takes one expression");
            return self.report_all(&[diag]);
        }
        self.execute(&stmts)
    }
}

/// Long values are cut in messages, keeping both ends.
fn shorten(s: String) -> String {
    const MAX: usize = 160;
    if s.chars().count() <= MAX {
        return s;
    }
    let head: String = s.chars().take(MAX - 40).collect();
    let tail: String = s
        .chars()
        .rev()
        .take(30)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("{head} ... {tail}")
}

/// A session with `src` loaded (not run), for the unit tests of every phase.
#[cfg(test)]
pub(crate) fn loaded(src: &str) -> (Session, Vec<StmtIr>) {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    let stmts = session
        .load("test.game", src)
        .unwrap_or_else(|errors| panic!("{src} does not load: {errors:?}"));
    (session, stmts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SharedBuffer;

    fn run(src: &str) -> (Outcome, String, String) {
        let out = SharedBuffer::default();
        let err = SharedBuffer::default();
        let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
        let outcome = session.run("test.game", src);
        let text = |b: &SharedBuffer| String::from_utf8(b.0.borrow().clone()).unwrap();
        (outcome, text(&out), text(&err))
    }

    #[test]
    fn a_failed_expect_does_not_stop_the_script() {
        let (outcome, out, err) = run("expect 1 == 2\n3\nexpect 2 == 2\n");
        assert_eq!(outcome.failed_expects, 1);
        assert_eq!(outcome.exit_code(), exit::EXPECT_FAILED);
        assert_eq!(out, "3\n");
        assert!(err.contains("the left side is 1"), "{err}");
        assert!(err.contains("the right side is 2"), "{err}");
    }

    #[test]
    fn comparing_a_position_with_a_number_suggests_its_value() {
        let (_, _, err) = run("game g(n) { move m if n > 0 -> g(n - 1) }\nexpect g(2) == 0\n");
        assert!(err.contains("write `value(P) == 0`"), "{err}");
        let (_, _, err) = run("expect 1 == 0\n");
        assert!(!err.contains("Help"), "{err}");
    }

    #[test]
    fn an_expect_of_a_number_asks_for_a_comparison() {
        let (outcome, _, err) = run("expect 3\n");
        assert_eq!(outcome.error, Some(Phase::Runtime));
        assert!(err.contains("`expect value(P) == 0`"), "{err}");
    }

    #[test]
    fn a_runtime_error_stops_the_script() {
        let (outcome, out, err) = run("1\n1 / 0\n2\n");
        assert_eq!(outcome.error, Some(Phase::Runtime));
        assert_eq!(outcome.exit_code(), exit::SCRIPT_ERROR);
        assert_eq!(out, "1\n");
        assert!(err.contains("division by zero"));
    }

    #[test]
    fn print_writes_its_arguments_once() {
        let (_, out, _) = run("print(\"value\", 1 + 2, [1])\n");
        assert_eq!(out, "value 3 [1]\n");
    }

    #[test]
    fn redefining_a_game_recomputes_its_values() {
        let out = SharedBuffer::default();
        let mut session = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
        session.run(
            "a",
            "game g(n) {\n move one if n > 0 -> g(n - 1)\n}\nlet P = g(3)\nvalue(P)\n",
        );
        session.run("b", "game g(n) {\n move one if n > 0 -> g(n - 1)\n move two if n > 1 -> g(n - 2)\n}\nvalue(P)\n");
        assert_eq!(String::from_utf8(out.0.borrow().clone()).unwrap(), "1\n0\n");
    }

    /// `g` and its redefinition: one step at a time (values alternate 0, 1),
    /// then one or two steps (values n % 3). g(3) is 1, then 0.
    const G1: &str = "game g(n) {\n move one if n > 0 -> g(n - 1)\n}\n";
    const G2: &str =
        "game g(n) {\n move one if n > 0 -> g(n - 1)\n move two if n > 1 -> g(n - 2)\n}\n";
    /// A game unrelated to `g`.
    const K: &str = "game k(n) {\n move one if n > 0 -> k(n - 1)\n}\n";

    /// A session printing into a buffer, and a way to take what it printed.
    fn session() -> (Session, impl Fn() -> String) {
        let out = SharedBuffer::default();
        let session = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
        let take = move || String::from_utf8(out.0.borrow_mut().split_off(0)).unwrap();
        (session, take)
    }

    /// Runs a unit that must run cleanly.
    fn unit(session: &mut Session, src: &str) {
        let outcome = session.run("unit.game", src);
        assert_eq!(outcome, Outcome::default(), "{src}");
    }

    /// Loads a unit without running it: only its invalidation has happened.
    fn load_only(session: &mut Session, src: &str) -> Vec<StmtIr> {
        session.load("unit.game", src).expect("the unit loads")
    }

    /// How many nodes of `game` have a known value.
    fn known(session: &Session, game: &str) -> usize {
        let Some(crate::defs::Global::Game(id)) = session.machine.defs.lookup(game) else {
            panic!("`{game}` is not a game");
        };
        let mut stats = session.machine.graph.stats();
        stats
            .find(|(g, ..)| *g == id)
            .map_or(0, |(_, _, known)| known)
    }

    #[test]
    fn redefining_a_game_recomputes_it_and_its_users_and_keeps_unrelated_values() {
        let (mut s, out) = session();
        let h = "game h(n) {\n move m -> g(n)\n}\n";
        unit(&mut s, &format!("{G1}{h}{K}value(h(3))\nvalue(k(7))\n"));
        assert_eq!(out(), "0\n1\n");
        assert_eq!((known(&s, "g"), known(&s, "h"), known(&s, "k")), (4, 1, 8));
        let stmts = load_only(&mut s, &format!("{G2}value(h(3))\nvalue(k(7))\n"));
        assert_eq!((known(&s, "g"), known(&s, "h"), known(&s, "k")), (0, 0, 8));
        assert_eq!(s.execute(&stmts), Outcome::default());
        assert_eq!(out(), "1\n1\n");
        assert_eq!(known(&s, "k"), 8, "k's values were kept, not recomputed");
    }

    /// Each way a game's values can depend on another game: through a fn,
    /// a let holding a position, a position passed as an argument.
    #[test]
    fn a_game_reaching_a_redefined_game_indirectly_is_recomputed() {
        let cases = [
            ("fn f(n) = g(n)\ngame h(n) {\n move m -> f(n)\n}\n", "h(3)"),
            ("let P = g(3)\ngame h(n) {\n move m -> P\n}\n", "h(0)"),
            ("game h(p) {\n move m -> p\n}\n", "h(g(3))"),
        ];
        for (h, query) in cases {
            let (mut s, out) = session();
            unit(&mut s, &format!("{G1}{h}{K}value({query})\nvalue(k(2))\n"));
            assert_eq!(out(), "0\n0\n", "{h}");
            load_only(&mut s, G2);
            assert_eq!((known(&s, "h"), known(&s, "k")), (0, 3), "{h}");
            unit(&mut s, &format!("value({query})\n"));
            assert_eq!(out(), "1\n", "{h}");
        }
    }

    #[test]
    fn redefining_a_let_recomputes_the_games_that_read_it() {
        let (mut s, out) = session();
        let games = "game s(n) {\n move take(k in 1..=K) if k <= n -> s(n - k)\n}\ngame t(n) {\n move m if n > B -> t(n - 1)\n}\n";
        unit(
            &mut s,
            &format!(
                "let K = 2\nlet (A, B) = (0, 0)\n{games}{K}value(s(3))\nvalue(t(3))\nvalue(k(2))\n"
            ),
        );
        assert_eq!(out(), "0\n1\n0\n");
        load_only(&mut s, "let K = 3\n");
        assert_eq!((known(&s, "s"), known(&s, "t"), known(&s, "k")), (0, 4, 3));
        unit(&mut s, "let K = 3\nvalue(s(3))\n");
        assert_eq!(out(), "3\n");
        // A name bound by a tuple pattern is a redefinition too.
        load_only(&mut s, "let (A, B) = (0, 1)\n");
        assert_eq!((known(&s, "s"), known(&s, "t"), known(&s, "k")), (4, 0, 3));
        unit(&mut s, "let (A, B) = (0, 1)\nvalue(t(3))\n");
        assert_eq!(out(), "0\n");
    }

    #[test]
    fn redefining_a_fn_recomputes_a_game_whose_guard_calls_it() {
        let (mut s, out) = session();
        let t = "fn ok(n) = n > 0\ngame t(n) {\n move one if ok(n) -> t(n - 1)\n}\n";
        unit(&mut s, &format!("{t}{K}value(t(3))\nvalue(k(2))\n"));
        assert_eq!(out(), "1\n0\n");
        load_only(&mut s, "fn ok(n) = n > 5\n");
        assert_eq!((known(&s, "t"), known(&s, "k")), (0, 3));
        unit(&mut s, "fn ok(n) = n > 5\nvalue(t(3))\n");
        assert_eq!(out(), "0\n");
    }

    /// Runs `text` as a file `b`, returning how it went and what it reported.
    fn run_reporting(s: &mut Session, text: &str) -> (Outcome, String) {
        let err = SharedBuffer::default();
        s.err = Box::new(err.clone());
        let outcome = s.run("b", text);
        let reported = String::from_utf8(err.0.borrow().clone()).unwrap();
        (outcome, reported)
    }

    #[test]
    fn a_position_made_before_a_game_changed_arity_is_an_error_not_a_panic() {
        let (mut s, out) = session();
        unit(&mut s, &format!("{G1}let P = g(3)\nvalue(P)\n"));
        let (outcome, err) = run_reporting(
            &mut s,
            "game g(n, m) {\n move one if n > 0 -> g(n - 1, m)\n}\nvalue(g(2, 1))\nvalue(P)\n",
        );
        assert_eq!(outcome.error, Some(Phase::Runtime));
        assert_eq!(out(), "1\n0\n");
        assert!(
            err.contains("this position of `g` was made under an earlier definition with 1 parameter; `g` now takes 2"),
            "{err}"
        );
        assert!(
            err.contains("`g` is redefined here with 2 parameters"),
            "{err}"
        );
    }

    #[test]
    fn old_rules_applying_a_game_with_its_old_arity_get_an_arity_error() {
        let (mut s, _) = session();
        unit(
            &mut s,
            &format!("{G1}game h(n) {{\n move m -> g(n)\n}}\nvalue(h(1))\n"),
        );
        // h still applies g to one argument; g(1) is in the graph already.
        let (outcome, err) = run_reporting(
            &mut s,
            "game g(n, m) {\n move one if n > 0 -> g(n - 1, m)\n}\nvalue(h(1))\n",
        );
        assert_eq!(outcome.error, Some(Phase::Runtime));
        assert!(
            err.contains("`g` takes 2 arguments but 1 was given"),
            "{err}"
        );
    }
}
