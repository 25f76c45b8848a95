//! A session: the sources loaded so far, their definitions, and the
//! machine that evaluates them. `run`, `check` and `eval` (and the REPL)
//! all go through it: text in, results and diagnostics out.
//!
//! This file loads sources (parse, check, lower) and reports what goes
//! wrong; `run.rs` runs the lowered statements, `entry.rs` the REPL's
//! entries, `debug.rs` prints the stages `--debug` asks for and
//! `json.rs` writes results and diagnostics as JSON.

use crate::check::check;
use crate::diag::{Diagnostic, Phase, Sources};
use crate::ir::StmtIr;
use crate::runtime::{Machine, RtResult};
use crate::span::Span;
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
            self.machine.wide_kernels.clear();
            self.machine.listing_kernels.clear();
            self.machine.share_depths.clear();
            self.machine.hints.clear();
            self.machine.typing_tries.clear();
            self.machine.fn_memo.clear();
            self.machine.squares_skipped.clear();
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

/// A session with `src` loaded (not run), for the unit tests of every phase.
#[cfg(test)]
pub(crate) fn loaded(src: &str) -> (Session, Vec<StmtIr>) {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    let stmts = session
        .load("test.game", src)
        .unwrap_or_else(|errors| panic!("{src} does not load: {errors:?}"));
    (session, stmts)
}

mod debug;
mod entry;
mod run;
pub use entry::Entry;

#[cfg(test)]
mod tests;
