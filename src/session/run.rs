//! Running a source's lowered statements in a [`Session`]: each `let`
//! bound, each bare expression's value printed, each `expect` tested; a
//! failed `expect` is reported with both sides of a comparison, and the
//! first error stops the run.

use super::Format;
use super::{Outcome, Session, Stage, json};
use crate::diag::{Diagnostic, Phase};
use crate::ir::{IrKind, StmtIr};
use crate::runtime::RtResult;
use crate::span::Span;
use crate::value::Value;
use std::io::Write;

/// A failed `expect`: the diagnostic to show, and the texts of both sides
/// of a comparison.
type ExpectFailure = (Diagnostic, Option<[String; 2]>);

impl Session {
    /// Runs lowered statements in order: failed expectations are counted
    /// and the run goes on; an error is reported and stops it.
    pub(super) fn execute(&mut self, stmts: &[StmtIr]) -> Outcome {
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
                    m.fn_memo.clear();
                    m.squares_skipped.clear();
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
        match m.eval_top(cond, frame)? {
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
