//! An entry typed in the REPL, which may ask for a game against the
//! computer: `play(P)` on its own is not evaluated as a call (the built-in
//! refuses to run outside the REPL) but hands its position to the REPL.

use super::{Outcome, Session};
use crate::builtins::Builtin;
use crate::ir::{IrKind, StmtIr};
use crate::span::Span;
use crate::value::{Position, Value};

/// What an entry asked for besides its printed results.
pub enum Entry {
    /// An ordinary entry, run as `grundy run` would.
    Ran(Outcome),
    /// `play(P)`: the position to play from, and where `P` was written.
    Play(Position, Span),
}

impl Session {
    /// Runs an entry as [`Session::run_at`] does, unless it is exactly one
    /// call `play(P)`: then `P` is evaluated and returned, to be played.
    pub fn run_entry(&mut self, name: &str, text: &str, first_line: usize) -> Entry {
        let stmts = match self.load_at(name, text, first_line) {
            Ok(stmts) => stmts,
            Err(errors) => return Entry::Ran(self.report_all(&errors)),
        };
        let [StmtIr::Print { expr, slots }] = &stmts[..] else {
            return Entry::Ran(self.execute(&stmts));
        };
        let IrKind::CallBuiltin(Builtin::Play, args) = &expr.kind else {
            return Entry::Ran(self.execute(&stmts));
        };
        let [arg] = &args[..] else {
            // The wrong number of arguments: the call says so.
            return Entry::Ran(self.execute(&stmts));
        };
        let m = &mut self.machine;
        let mut frame = vec![Value::Int(0); *slots];
        let position = m
            .eval(arg, &mut frame)
            .and_then(|v| m.to_position(&v, arg.span, "the argument of `play`"));
        match position {
            Ok(p) => Entry::Play(p, arg.span),
            Err(e) => Entry::Ran(self.report_all(&[*e])),
        }
    }
}
