//! Top-level definitions for [`Checker`]: every game, fn and `let` of the
//! program recorded before any statement is checked (so games and fns are
//! visible above their definitions), and the reports of a name defined
//! twice or of a built-in redefined.

use super::{Checker, Global};
use crate::builtins::Builtin;
use crate::diag::{Diagnostic, Phase};
use crate::syntax::ast::{Ident, Program, Stmt, StmtKind};

impl Checker<'_> {
    /// Records every top-level definition, so games and fns are visible
    /// before they are defined and `let`s can be found by their statement.
    pub(super) fn hoist(&mut self, program: &Program) {
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
