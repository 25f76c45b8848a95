//! The functions that normalised rules still call: those that call
//! themselves, past the levels unrolled (see [`super::RECURSION_BUDGET`]).
//! Each is normalised once in its own frame, so that the compiled rules
//! can call it as a function of integers rather than leave the position
//! to the interpreter.

use super::{Normalizer, any_node, each_child};
use crate::defs::Defs;
use crate::ir::{FnId, GameIr, Ir, IrKind, MoveIr};

/// The most functions a game's rules, or one query, call this way.
const MOST: usize = 64;

/// A function the rules call: its body normalised in its own frame,
/// whose first `arity` slots are its parameters.
#[derive(Debug)]
pub struct Callee {
    pub id: FnId,
    pub arity: usize,
    pub slots: usize,
    pub body: Ir,
    /// The most calls inlined one inside another in `body`: a call of it
    /// stands for this many frames of the interpreter's, and one more.
    pub inlined: usize,
}

/// The functions `game`'s normalised rules call, and those their bodies
/// call in turn.
pub fn of_rules(game: &GameIr, defs: &Defs) -> Vec<Callee> {
    let mut todo = Vec::new();
    for e in game.moves.iter().flat_map(MoveIr::exprs) {
        calls_in(e, &mut todo);
    }
    close(todo, defs)
}

/// [`of_rules`] of a normalised top-level expression.
pub fn of_expr(ir: &Ir, defs: &Defs) -> Vec<Callee> {
    let mut todo = Vec::new();
    calls_in(ir, &mut todo);
    close(todo, defs)
}

/// The functions in `todo`, and those their normalised bodies call.
fn close(mut todo: Vec<FnId>, defs: &Defs) -> Vec<Callee> {
    let mut found: Vec<Callee> = Vec::new();
    while let Some(f) = todo.pop() {
        if found.len() >= MOST || found.iter().any(|c| c.id == f) {
            continue;
        }
        let Some(Some(func)) = defs.fns.get(f as usize) else {
            continue;
        };
        let n = Normalizer::new(defs);
        let hoisted = n.hoisted(f, func);
        n.slots.set(hoisted.1);
        let body = n.expr(&hoisted.0, 0);
        calls_in(&body, &mut todo);
        found.push(Callee {
            id: f,
            arity: func.arity,
            slots: n.slots.get(),
            body,
            inlined: n.deepest.get(),
        });
    }
    found
}

/// Whether the rules, as written, call a function: then, under a
/// `--max-depth` below [`super::INLINE_DEPTH`], calls inlined in them
/// might nest deeper than the interpreter allows.
pub fn nest_in_rules(game: &GameIr, max_depth: usize) -> bool {
    max_depth < super::INLINE_DEPTH && game.moves.iter().flat_map(MoveIr::exprs).any(calls_any)
}

/// [`nest_in_rules`] of a top-level expression.
pub fn nest_in_expr(ir: &Ir, max_depth: usize) -> bool {
    max_depth < super::INLINE_DEPTH && calls_any(ir)
}

/// Whether `ir` calls a function.
fn calls_any(ir: &Ir) -> bool {
    any_node(ir, &|e| matches!(e.kind, IrKind::CallFn(..)))
}

/// The functions `ir` calls, pushed on `out`.
fn calls_in(ir: &Ir, out: &mut Vec<FnId>) {
    if let IrKind::CallFn(f, _) = ir.kind {
        out.push(f);
    }
    each_child(ir, &mut |e| calls_in(e, out));
}
