//! Phase 3: checked syntax tree in, IR out.
//!
//! Every name is resolved here, once: parameters, binders and
//! comprehension variables become frame slots, top-level names become
//! indices into [`Defs`], built-ins become [`Builtin`] tags. Move targets
//! that are sums of game applications and heaps are flattened into terms.
//! The checker has already reported user mistakes; what this phase still
//! finds (only possible if a check was skipped) is returned as errors too.

use crate::builtins::Builtin;
use crate::defs::{Defs, Global};
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

    fn move_rule(&mut self, rule: &MoveRule) -> MoveIr {
        let mark = self.scope.names.len();
        let mut binders = Vec::new();
        let mut shown = Vec::new();
        for b in &rule.binders {
            let domain = self.expr(&b.domain);
            let pattern = self.local_pattern(&b.pattern);
            for name in b.pattern.names() {
                let slot = self.scope.find(&name.node).expect("bound just above");
                shown.push((name.node.clone(), slot));
            }
            binders.push((pattern, domain));
        }
        let guard = rule.guard.as_ref().map(|g| self.expr(g));
        let target = self.target(&rule.target);
        self.scope.reset(mark);
        MoveIr {
            name: rule.name.node.clone(),
            binders,
            shown,
            guard,
            target,
            span: rule.span,
        }
    }

    fn target(&mut self, target: &Expr) -> TargetIr {
        let mut terms = Vec::new();
        if self.terms(target, &mut terms) {
            TargetIr::Terms(terms)
        } else {
            TargetIr::Dynamic(self.expr(target))
        }
    }

    /// Flattens `g(a) + *k + 0 + h(b)` into terms; false if the target has
    /// any other shape, which is then evaluated as an ordinary expression.
    fn terms(&mut self, e: &Expr, out: &mut Vec<TermIr>) -> bool {
        match &e.node {
            ExprKind::Paren(inner) => self.terms(inner, out),
            ExprKind::Int(0) => true,
            ExprKind::Binary(BinOp::Add, l, r) => self.terms(l, out) && self.terms(r, out),
            ExprKind::Unary(UnOp::Heap, k) => {
                out.push(TermIr::Heap(self.expr(k)));
                true
            }
            ExprKind::Call(callee, args) => match self.game_callee(callee) {
                Some(game) => {
                    let args = args.iter().map(|a| self.expr(a)).collect();
                    out.push(TermIr::Node(game, args, e.span));
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    fn game_callee(&self, callee: &Expr) -> Option<u32> {
        match &callee.node {
            ExprKind::Var(name) if self.scope.find(name).is_none() => {
                match self.defs.lookup(name) {
                    Some(Global::Game(g)) => Some(g),
                    _ => None,
                }
            }
            _ => None,
        }
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

    fn local_pattern(&mut self, p: &Pattern) -> PatIr {
        match p {
            Pattern::Name(id) => PatIr::Slot(self.scope.bind(&id.node)),
            Pattern::Tuple(ps, span) => {
                PatIr::Tuple(ps.iter().map(|p| self.local_pattern(p)).collect(), *span)
            }
        }
    }

    fn global_pattern(&mut self, p: &Pattern) -> PatIr {
        match p {
            Pattern::Name(id) => PatIr::Global(self.defs.declare_let(&id.node, id.span)),
            Pattern::Tuple(ps, span) => {
                PatIr::Tuple(ps.iter().map(|p| self.global_pattern(p)).collect(), *span)
            }
        }
    }

    fn error(&mut self, span: Span, message: String) -> Ir {
        self.errors
            .push(Diagnostic::new(Phase::Check, message).at(span, "here"));
        Ir {
            kind: IrKind::Const(Value::Int(0)),
            span,
        }
    }

    fn exprs(&mut self, es: &[Expr]) -> Vec<Ir> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn expr(&mut self, e: &Expr) -> Ir {
        let kind = match &e.node {
            ExprKind::Int(n) => IrKind::Const(Value::Int(*n)),
            ExprKind::Bool(b) => IrKind::Const(Value::Bool(*b)),
            ExprKind::Str(s) => IrKind::Const(Value::Str(s.clone())),
            ExprKind::Var(name) => return self.var(name, e.span),
            ExprKind::Paren(inner) => return self.expr(inner),
            ExprKind::Tuple(items) => fold(IrKind::Tuple(self.exprs(items))),
            ExprKind::List(items) => fold(IrKind::List(self.exprs(items))),
            ExprKind::Set(items) => fold(IrKind::Set(self.exprs(items))),
            ExprKind::Comprehension { set, elem, clauses } => {
                self.comprehension(*set, elem, clauses)
            }
            ExprKind::Unary(op, x) => IrKind::Unary(*op, Box::new(self.expr(x))),
            ExprKind::Chain(operands, ops) => IrKind::Chain(self.exprs(operands), ops.clone()),
            ExprKind::Binary(op, l, r) => {
                IrKind::Binary(*op, Box::new(self.expr(l)), Box::new(self.expr(r)))
            }
            ExprKind::If(c, a, b) => IrKind::If(
                Box::new(self.expr(c)),
                Box::new(self.expr(a)),
                Box::new(self.expr(b)),
            ),
            ExprKind::Let(pattern, value, body) => {
                let value = Box::new(self.expr(value));
                let mark = self.scope.names.len();
                let pattern = self.local_pattern(pattern);
                let body = Box::new(self.expr(body));
                self.scope.reset(mark);
                IrKind::Let(pattern, value, body)
            }
            ExprKind::Call(callee, args) => return self.call(callee, args, e.span),
            ExprKind::Index(x, i) => IrKind::Index(Box::new(self.expr(x)), Box::new(self.expr(i))),
            ExprKind::Slice(x, lo, hi) => IrKind::Slice(
                Box::new(self.expr(x)),
                lo.as_ref().map(|b| Box::new(self.expr(b))),
                hi.as_ref().map(|b| Box::new(self.expr(b))),
            ),
        };
        Ir { kind, span: e.span }
    }

    fn var(&mut self, name: &Rc<str>, span: Span) -> Ir {
        let kind = if let Some(slot) = self.scope.find(name) {
            IrKind::Local(slot)
        } else {
            match self.defs.lookup(name) {
                Some(Global::Let(id)) => IrKind::Global(id),
                Some(Global::Game(id)) => IrKind::Const(Value::Game(id)),
                Some(Global::Fn(_)) => {
                    return self.error(span, format!("function `{name}` must be called"));
                }
                None => return self.error(span, format!("unknown name `{name}`")),
            }
        };
        Ir { kind, span }
    }

    fn call(&mut self, callee: &Expr, args: &[Expr], span: Span) -> Ir {
        let global = match &callee.node {
            ExprKind::Var(name) if self.scope.find(name).is_none() => {
                Some((name.clone(), self.defs.lookup(name)))
            }
            _ => None,
        };
        let kind = match global {
            Some((_, Some(Global::Game(g)))) => IrKind::Apply(g, self.exprs(args)),
            Some((_, Some(Global::Fn(f)))) => IrKind::CallFn(f, self.exprs(args)),
            Some((name, None)) => match Builtin::from_name(&name) {
                Some(b) => match self.table_of(b, args) {
                    Some(kind) => kind,
                    None => IrKind::CallBuiltin(b, self.exprs(args)),
                },
                None => return self.error(callee.span, format!("unknown name `{name}`")),
            },
            _ => {
                let hides = self.hidden_function(callee);
                IrKind::CallValue(Box::new(self.expr(callee)), self.exprs(args), hides)
            }
        };
        Ir { kind, span }
    }

    /// `table(g(a, _), xs)`, when the first argument has holes.
    fn table_of(&mut self, b: Builtin, args: &[Expr]) -> Option<IrKind> {
        if b != Builtin::Table {
            return None;
        }
        let (first, axes) = args.split_first()?;
        let (callee, game_args) = family(first)?;
        let game = self.game_callee(callee)?;
        let fixed = game_args
            .iter()
            .map(|a| (!is_hole(a)).then(|| self.expr(a)))
            .collect();
        Some(IrKind::TableOf(game, fixed, self.exprs(axes)))
    }

    /// The name of the function or built-in that a local callee hides, as
    /// a parameter `max` hides `max`: what its call most likely meant.
    fn hidden_function(&self, callee: &Expr) -> Option<Rc<str>> {
        let ExprKind::Var(name) = &callee.node else {
            return None;
        };
        let function = matches!(self.defs.lookup(name), Some(Global::Fn(_)));
        (function || Builtin::from_name(name).is_some()).then(|| name.clone())
    }

    fn comprehension(&mut self, set: bool, elem: &Expr, clauses: &[Clause]) -> IrKind {
        let mark = self.scope.names.len();
        let clauses = clauses
            .iter()
            .map(|c| match c {
                Clause::For(b) => {
                    let domain = self.expr(&b.domain);
                    ClauseIr::For(self.local_pattern(&b.pattern), domain)
                }
                Clause::If(cond) => ClauseIr::If(self.expr(cond)),
            })
            .collect();
        let elem = Box::new(self.expr(elem));
        self.scope.reset(mark);
        IrKind::Comprehension { set, elem, clauses }
    }
}

/// A collection written with constants only (`{1, 2, 3}`) is built once,
/// here, rather than every time a rule runs.
fn fold(kind: IrKind) -> IrKind {
    let consts = |items: &[Ir]| -> Option<Vec<Value>> {
        items
            .iter()
            .map(|i| match &i.kind {
                IrKind::Const(v) => Some(v.clone()),
                _ => None,
            })
            .collect()
    };
    let folded = match &kind {
        IrKind::Tuple(items) => consts(items).map(|v| Value::Tuple(v.into())),
        IrKind::List(items) => consts(items).map(Value::list),
        IrKind::Set(items) => consts(items).map(|v| Value::Set(Rc::new(v.into_iter().collect()))),
        _ => None,
    };
    folded.map_or(kind, IrKind::Const)
}

#[cfg(test)]
mod tests {
    use crate::ir::{IrKind, TargetIr, TermIr};
    use crate::session::loaded;

    #[test]
    fn parameters_come_first_then_binders_in_order() {
        let (session, _) =
            loaded("game w(a, b) {\n move both(k in 1..=a, j in 0..k) -> w(a - k, b - j)\n}\n");
        let game = session.machine.defs.game(0).unwrap().clone();
        assert_eq!(game.arity, 2);
        assert_eq!(game.slots, 4);
        let shown: Vec<(&str, u32)> = game.moves[0]
            .shown
            .iter()
            .map(|(n, s)| (&**n, *s))
            .collect();
        assert_eq!(shown, [("k", 2), ("j", 3)]);
    }

    #[test]
    fn sums_of_games_and_heaps_become_terms() {
        let (session, _) = loaded(
            "game k(n) {\n move a(x in 0..n) -> k(x) + *2 + 0 + (k(n - 1 - x))\n move b -> sum([k(0)])\n}\n",
        );
        let game = session.machine.defs.game(0).unwrap().clone();
        let TargetIr::Terms(terms) = &game.moves[0].target else {
            panic!("a sum of applications is lowered to terms");
        };
        assert!(matches!(
            terms.as_slice(),
            [
                TermIr::Node(0, _, _),
                TermIr::Heap(_),
                TermIr::Node(0, _, _)
            ]
        ));
        assert!(matches!(game.moves[1].target, TargetIr::Dynamic(_)));
    }

    #[test]
    fn names_resolve_to_slots_globals_and_games() {
        let (session, stmts) =
            loaded("let S = {1}\ngame g(n) {\n move t(k in S) -> g(n - k)\n}\n[g for x in S]\n");
        let game = session.machine.defs.game(0).unwrap().clone();
        assert!(matches!(game.moves[0].binders[0].1.kind, IrKind::Global(0)));
        let crate::ir::StmtIr::Print { expr, slots } = &stmts[1] else {
            panic!("a bare expression lowers to a print");
        };
        assert_eq!(*slots, 1);
        let IrKind::Comprehension { elem, .. } = &expr.kind else {
            panic!()
        };
        assert!(matches!(
            elem.kind,
            IrKind::Const(crate::value::Value::Game(0))
        ));
    }

    #[test]
    fn constant_collections_are_built_once() {
        let (_, stmts) = loaded("[{1, 2}, (3, [4]), [x for x in 0..2]]\n");
        let crate::ir::StmtIr::Print { expr, .. } = &stmts[0] else {
            panic!()
        };
        let IrKind::List(items) = &expr.kind else {
            panic!("not all constant: {expr:?}")
        };
        assert!(matches!(
            items[0].kind,
            IrKind::Const(crate::value::Value::Set(_))
        ));
        assert!(matches!(
            items[1].kind,
            IrKind::Const(crate::value::Value::Tuple(_))
        ));
        assert!(matches!(items[2].kind, IrKind::Comprehension { .. }));
    }

    #[test]
    fn games_may_refer_to_later_games_and_functions() {
        let (session, _) = loaded(
            "game a(n) {\n move m if ok(n) -> b(n - 1)\n}\ngame b(n) {\n move m if n > 0 -> a(n - 1)\n}\nfn ok(n) = n > 0\n",
        );
        assert!(session.machine.defs.game(0).is_some() && session.machine.defs.game(1).is_some());
        assert!(session.machine.defs.fns[0].is_some());
    }
}
