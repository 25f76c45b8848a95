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

pub mod json;
pub use json::Format;

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
    /// Bare expressions are evaluated but their values not printed: how
    /// the REPL loads files unless asked to show them.
    pub quiet: bool,
    /// How results and diagnostics are printed: set with [`Session::set_format`].
    format: Format,
    err: Box<dyn Write>,
}

/// A failed `expect`: the diagnostic to show, and the texts of both sides
/// of a comparison.
type ExpectFailure = (Diagnostic, Option<[String; 2]>);

impl Session {
    /// A session printing results to `out` and diagnostics to `err`.
    pub fn new(out: Box<dyn Write>, err: Box<dyn Write>) -> Session {
        Session {
            sources: Sources::default(),
            machine: Machine::new(out),
            color: false,
            debug: Vec::new(),
            origins: FxHashMap::default(),
            quiet: false,
            format: Format::Human,
            err,
        }
    }

    /// Prints results and diagnostics in `format` from now on. In JSON,
    /// `print(...)` keeps its arguments for the session to show as values.
    pub fn set_format(&mut self, format: Format) {
        self.format = format;
        self.machine.printed = (format == Format::Json).then(Vec::new);
    }

    /// Where text meant for people goes (`--debug`, `--explain`, the
    /// REPL's commands): the output, except in JSON, which has the output
    /// to itself; then the diagnostics' stream.
    pub fn human_out(&mut self) -> &mut dyn Write {
        match self.format {
            Format::Human => &mut *self.machine.out,
            Format::Json => &mut *self.err,
        }
    }

    /// Writes a diagnostic where this session's diagnostics go.
    pub fn report(&mut self, diag: &Diagnostic) {
        let error = Some(diag.phase);
        let code = Outcome {
            failed_expects: 0,
            error,
        }
        .exit_code();
        self.report_with_code(diag, code);
    }

    /// [`Session::report`] for a diagnostic whose exit code its phase does
    /// not say (a misused command); only JSON shows the code.
    pub fn report_with_code(&mut self, diag: &Diagnostic, exit_code: i32) {
        if self.format == Format::Json {
            // Whatever ran before the error printed first (an entry a bug
            // abandoned may leave some).
            let _ = self.show_printed();
            let _ = self.show(json::Event::Error { diag, exit_code });
            return;
        }
        let text = self.sources.render(diag, self.color);
        let _ = self.err.write_all(text.as_bytes());
        let _ = self.err.flush();
    }

    /// A problem with the command line, such as a file that cannot be read.
    pub fn usage_error(&mut self, message: &str) {
        match self.format {
            Format::Json => {
                let diag = Diagnostic::new(Phase::Check, message);
                self.report_with_code(&diag, exit::USAGE);
            }
            Format::Human => {
                let _ = writeln!(self.err, "error: {message}");
            }
        }
    }

    /// Writes one JSON event to the output.
    fn show(&mut self, event: json::Event) -> RtResult<()> {
        let m = &mut self.machine;
        let mut out = std::mem::replace(&mut m.out, Box::new(std::io::sink()));
        let written = json::write(&mut *out, event, &self.sources, m);
        m.out = out;
        written
    }

    /// Shows what `print(...)` calls have printed since last asked (JSON only).
    fn show_printed(&mut self) -> RtResult<()> {
        let printed = self.machine.printed.as_mut().map(std::mem::take);
        for (span, values) in printed.unwrap_or_default() {
            self.show(json::Event::Result {
                span,
                values: &values,
            })?;
        }
        Ok(())
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
            let _ = writeln!(self.human_out(), "{program:#?}");
        }
        let defs = &self.machine.defs;
        let errors = check(&program, text, defs);
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
        if !changed.is_empty() {
            self.machine.remake_instances();
        }
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
        let m = &self.machine;
        let mut lines = Vec::new();
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
            lines.extend(lowered);
        }
        lines.extend(stmts.iter().map(|stmt| format!("{stmt:#?}")));
        for line in lines {
            let _ = writeln!(self.human_out(), "{line}");
        }
    }

    /// `--debug graph`: every position interned so far and its value.
    fn dump_graph(&mut self) {
        let m = &self.machine;
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
            let _ = writeln!(self.human_out(), "{line}");
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
            let ran = self.statement(stmt);
            // What `print(...)` printed comes before an error it met.
            match self.show_printed().and(ran) {
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
        let quiet = self.quiet;
        let m = &mut self.machine;
        match stmt {
            StmtIr::Let {
                pattern,
                value,
                slots,
            } => {
                let mut frame = vec![Value::Int(0); *slots];
                let v = m.eval_top(value, &mut frame)?;
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
                let v = m.eval_top(expr, &mut frame)?;
                // `print(...)` has written its output already.
                if !quiet
                    && !matches!(
                        expr.kind,
                        IrKind::CallBuiltin(crate::builtins::Builtin::Print, _)
                    )
                {
                    self.show_result(expr.span, v)?;
                }
            }
            StmtIr::Expect { cond, slots } => {
                let mut frame = vec![Value::Int(0); *slots];
                let failure = self.expectation(cond, &mut frame)?;
                return self.show_expect(cond.span, failure);
            }
        }
        Ok(true)
    }

    /// Prints a bare expression's value.
    fn show_result(&mut self, span: Span, value: Value) -> RtResult<()> {
        if self.format == Format::Json {
            self.show_printed()?;
            return self.show(json::Event::Result {
                span,
                values: &[value],
            });
        }
        let m = &mut self.machine;
        let mut out = std::mem::replace(&mut m.out, Box::new(std::io::sink()));
        let _ = m.write_top(&value, &mut out);
        m.out = out;
        Ok(())
    }

    /// Reports an `expect` at `span`: in JSON every one, else the failed.
    fn show_expect(&mut self, span: Span, failure: Option<ExpectFailure>) -> RtResult<bool> {
        let held = failure.is_none();
        if self.format == Format::Json {
            self.show_printed()?;
            self.show(json::Event::Expect {
                span,
                failure: failure.as_ref().map(|f| &f.0),
                sides: failure.as_ref().and_then(|f| f.1.as_ref()),
            })?;
        } else if let Some((diag, _)) = failure {
            let _ = self.machine.out.flush();
            self.report(&diag);
        }
        Ok(held)
    }

    /// Evaluates an `expect`; a failure comes back as the diagnostic to show,
    /// with both sides of a comparison.
    fn expectation(
        &mut self,
        cond: &crate::ir::Ir,
        frame: &mut [Value],
    ) -> RtResult<Option<ExpectFailure>> {
        let m = &mut self.machine;
        let text = self.sources.text(cond.span.file)
            [cond.span.start as usize..cond.span.end as usize]
            .to_string();
        let failure = Diagnostic::new(Phase::Expect, format!("`{text}` is false"));
        if let IrKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
        {
            let a = m.eval_top(l, frame)?;
            let b = m.eval_top(r, frame)?;
            return Ok(match m.binary(*op, a.clone(), b.clone(), cond.span)? {
                Value::Bool(true) => None,
                _ => {
                    let sides = [m.show(&a), m.show(&b)];
                    let failure = failure
                        .at(l.span, format!("the left side is {}", shorten(&sides[0])))
                        .also(r.span, format!("the right side is {}", shorten(&sides[1])));
                    // `expect kayles(4) == 0`: a position is never a number.
                    let failure = match (&a, &b) {
                        (Value::Pos(_), Value::Int(_)) | (Value::Int(_), Value::Pos(_)) => failure
                            .help(
                                "a position is not a number: to compare its nim-value, \
                                 write `value(P) == 0`",
                            ),
                        _ => failure,
                    };
                    Some((failure, Some(sides)))
                }
            });
        }
        match m.eval(cond, frame)? {
            Value::Bool(true) => Ok(None),
            Value::Bool(false) => Ok(Some((failure.at(cond.span, "this is false"), None))),
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

    /// Loads `text` as a single expression and evaluates it without
    /// printing it, for the commands that draw it (`grundy graph`,
    /// `grundy plot`). An error is reported, and its outcome returned.
    pub fn value(&mut self, text: &str) -> Result<(Value, Span), Outcome> {
        let stmts = self
            .load("<expression>", text)
            .map_err(|e| self.report_all(&e))?;
        let [StmtIr::Print { expr, slots }] = &stmts[..] else {
            let diag = Diagnostic::new(Phase::Syntax, format!("`{text}` is not one expression"));
            return Err(self.report_all(&[diag]));
        };
        let mut frame = vec![Value::Int(0); *slots];
        self.machine
            .eval(expr, &mut frame)
            .map(|v| (v, expr.span))
            .map_err(|e| {
                let _ = self.machine.out.flush();
                self.report(&e);
                Outcome {
                    error: Some(e.phase),
                    ..Outcome::default()
                }
            })
    }
}

/// Long values are cut in messages, keeping both ends.
fn shorten(s: &str) -> String {
    const MAX: usize = 160;
    if s.chars().count() <= MAX {
        return s.to_string();
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

mod entry;
pub use entry::Entry;

#[cfg(test)]
mod tests;
