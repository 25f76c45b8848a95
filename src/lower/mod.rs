//! Phase 3: checked syntax tree in, IR out.
//!
//! Every name is resolved here, once: parameters, binders and
//! comprehension variables become frame slots, top-level names become
//! indices into [`Defs`], built-ins become [`Builtin`] tags. Move targets
//! that are sums of game applications and heaps are flattened into terms.
//! The checker has already reported user mistakes; what this phase still
//! finds (only possible if a check was skipped) is returned as errors too.
//!
//! This file lowers statements and definitions; `moves.rs` lowers move
//! rules, their patterns and targets, and `exprs.rs` expressions.

use crate::defs::Defs;
use crate::diag::{Diagnostic, Phase};
use crate::ir::*;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::value::Value;
use std::rc::Rc;

/// Lowers a program into `defs` (games and functions) and returns its
/// top-level statements in order.
pub fn lower(program: &Program, defs: &mut Defs) -> Result<Vec<StmtIr>, Vec<Diagnostic>> {
    declare(program, defs);
    let mut lowerer = Lowerer {
        defs,
        scope: Scope::default(),
        errors: Vec::new(),
    };
    let mut stmts = Vec::new();
    for stmt in &program.stmts {
        if let Some(s) = lowerer.stmt(stmt) {
            stmts.push(s);
        }
    }
    if lowerer.errors.is_empty() {
        Ok(stmts)
    } else {
        Err(lowerer.errors)
    }
}

/// Gives every game and function of the program its id before any body is
/// lowered, so that definitions may refer to each other in any order.
fn declare(program: &Program, defs: &mut Defs) {
    for stmt in &program.stmts {
        match &stmt.kind {
            StmtKind::Game(g) => {
                defs.declare_game(&g.name.node);
            }
            StmtKind::Fn(f) => {
                defs.declare_fn(&f.name.node);
            }
            // Rules may use a constant defined further down; it has a value
            // once its `let` has run (the checker rejects earlier top-level uses).
            StmtKind::Let(pattern, _) => {
                for name in pattern.names() {
                    defs.declare_let(&name.node, name.span);
                }
            }
            _ => {}
        }
    }
}

/// The local names in scope and the frame slots they live in.
#[derive(Default)]
struct Scope {
    names: Vec<(Rc<str>, Slot)>,
    next: Slot,
    max: Slot,
}

impl Scope {
    fn bind(&mut self, name: &Rc<str>) -> Slot {
        let slot = self.next;
        self.names.push((name.clone(), slot));
        self.next += 1;
        self.max = self.max.max(self.next);
        slot
    }

    fn find(&self, name: &str) -> Option<Slot> {
        self.names
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|(_, s)| *s)
    }

    /// Forgets the names bound since `mark` (their slots are reused).
    fn reset(&mut self, mark: usize) {
        self.names.truncate(mark);
        self.next = self.names.last().map_or(0, |(_, s)| s + 1);
    }
}

struct Lowerer<'a> {
    defs: &'a mut Defs,
    scope: Scope,
    errors: Vec<Diagnostic>,
}

impl Lowerer<'_> {
    fn fresh_scope(&mut self, params: &[Ident]) {
        self.scope = Scope::default();
        for p in params {
            self.scope.bind(&p.node);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) -> Option<StmtIr> {
        match &stmt.kind {
            StmtKind::Game(def) => {
                self.game(def);
                None
            }
            StmtKind::Fn(def) => {
                self.fn_def(def);
                None
            }
            StmtKind::Let(pattern, value) => {
                self.fresh_scope(&[]);
                let value = self.expr(value);
                let pattern = self.global_pattern(pattern);
                let slots = self.scope.max as usize;
                Some(StmtIr::Let {
                    pattern,
                    value,
                    slots,
                })
            }
            StmtKind::Expect(e) => {
                self.fresh_scope(&[]);
                let cond = self.expr(e);
                let slots = self.scope.max as usize;
                Some(StmtIr::Expect { cond, slots })
            }
            StmtKind::Expr(e) => {
                self.fresh_scope(&[]);
                let expr = self.expr(e);
                let slots = self.scope.max as usize;
                Some(StmtIr::Print { expr, slots })
            }
        }
    }

    fn game(&mut self, def: &Rc<GameDef>) {
        self.fresh_scope(&def.params);
        let moves = def.moves.iter().map(|m| self.move_rule(m)).collect();
        let id = self.defs.declare_game(&def.name.node);
        self.defs.games[id as usize] = Some(Rc::new(GameIr {
            name: def.name.node.clone(),
            arity: def.params.len(),
            slots: self.scope.max as usize,
            moves,
            def: def.clone(),
        }));
    }

    fn fn_def(&mut self, def: &Rc<FnDef>) {
        self.fresh_scope(&def.params);
        let body = self.expr(&def.body);
        let id = self.defs.declare_fn(&def.name.node);
        self.defs.fns[id as usize] = Some(Rc::new(FnIr {
            name: def.name.node.clone(),
            arity: def.params.len(),
            slots: self.scope.max as usize,
            body,
            def: def.clone(),
        }));
    }

    fn error(&mut self, span: Span, message: String) -> Ir {
        self.errors
            .push(Diagnostic::new(Phase::Check, message).at(span, "here"));
        Ir {
            kind: IrKind::Const(Value::Int(0)),
            span,
        }
    }
}

mod exprs;
mod moves;

#[cfg(test)]
mod tests;
