//! From pest's parse tree to the AST: [`Builder`] walks the pairs of one
//! program, gives every node its byte span, builds operators by
//! precedence climbing (comparisons into chains) and checks the depth of
//! expressions as it goes.

use super::ast::*;
use super::{MAX_EXPR_DEPTH, Rule, expr_depth_error};
use crate::diag::{Diagnostic, Phase};
use crate::span::{FileId, Span, Spanned};
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::rc::Rc;
use std::sync::LazyLock;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Assoc::{Left, Right};
    PrattParser::new()
        .op(Op::infix(Rule::or_op, Left))
        .op(Op::infix(Rule::and_op, Left))
        .op(Op::prefix(Rule::not_op))
        .op(Op::infix(Rule::eq_op, Left)
            | Op::infix(Rule::ne_op, Left)
            | Op::infix(Rule::lt_op, Left)
            | Op::infix(Rule::le_op, Left)
            | Op::infix(Rule::gt_op, Left)
            | Op::infix(Rule::ge_op, Left)
            | Op::infix(Rule::in_op, Left)
            | Op::infix(Rule::not_in_op, Left))
        .op(Op::infix(Rule::range_op, Left) | Op::infix(Rule::range_incl_op, Left))
        .op(Op::infix(Rule::bor_op, Left))
        .op(Op::infix(Rule::bxor_op, Left))
        .op(Op::infix(Rule::band_op, Left))
        .op(Op::infix(Rule::shl_op, Left) | Op::infix(Rule::shr_op, Left))
        .op(Op::infix(Rule::add_op, Left) | Op::infix(Rule::sub_op, Left))
        .op(Op::infix(Rule::mul_op, Left)
            | Op::infix(Rule::div_op, Left)
            | Op::infix(Rule::rem_op, Left))
        .op(Op::prefix(Rule::neg_op) | Op::prefix(Rule::bnot_op) | Op::prefix(Rule::heap_op))
        .op(Op::infix(Rule::pow_op, Right))
        .op(Op::postfix(Rule::call) | Op::postfix(Rule::index))
});

pub(super) struct Builder {
    pub(super) file: FileId,
    pub(super) errors: Vec<Diagnostic>,
    /// Levels of the syntax tree above the expression being built.
    pub(super) depth: usize,
}

/// The next part of a rule whose parts the grammar fixes (`let` has a
/// pattern and an expression, ...): a missing one is a bug in the grammar
/// or here, never in the user's text, which pest has accepted.
fn next_part<'i>(parts: &mut impl Iterator<Item = Pair<'i, Rule>>) -> Pair<'i, Rule> {
    parts
        .next()
        .expect("the grammar gives this rule every part the builder reads")
}

fn is_primary(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        if_expr | let_expr | int | string | true_lit | false_lit | ident | paren | list | set
    )
}

fn is_bracket(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::lparen | Rule::rparen | Rule::lbracket | Rule::rbracket | Rule::lbrace | Rule::rbrace
    )
}

/// The children of a pair, without the bracket tokens.
fn inner(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| !is_bracket(p.as_rule()))
}

impl Builder {
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn ident(&self, pair: Pair<'_, Rule>) -> Ident {
        debug_assert_eq!(pair.as_rule(), Rule::ident);
        Spanned::new(Rc::from(pair.as_str()), self.span(&pair))
    }

    pub(super) fn stmt(&mut self, pair: Pair<'_, Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut parts = inner(pair);
        let kind = match rule {
            Rule::game_def => {
                let name = self.ident(next_part(&mut parts));
                let params = self.params(next_part(&mut parts));
                let moves = parts.map(|m| self.move_rule(m)).collect();
                StmtKind::Game(Rc::new(GameDef {
                    name,
                    params,
                    moves,
                }))
            }
            Rule::fn_def => {
                let name = self.ident(next_part(&mut parts));
                let params = self.params(next_part(&mut parts));
                // The `=` between the parameters and the body.
                next_part(&mut parts);
                let body = self.expr(next_part(&mut parts));
                StmtKind::Fn(Rc::new(FnDef { name, params, body }))
            }
            Rule::let_def => {
                let pattern = self.pattern(next_part(&mut parts));
                StmtKind::Let(pattern, self.expr(next_part(&mut parts)))
            }
            Rule::expect_stmt => StmtKind::Expect(self.expr(next_part(&mut parts))),
            Rule::expr_stmt => StmtKind::Expr(self.expr(next_part(&mut parts))),
            other => unreachable!("the grammar has no statement {other:?}"),
        };
        Stmt { kind, span }
    }

    fn params(&self, pair: Pair<'_, Rule>) -> Vec<Ident> {
        inner(pair).map(|p| self.ident(p)).collect()
    }

    fn move_rule(&mut self, pair: Pair<'_, Rule>) -> MoveRule {
        let span = self.span(&pair);
        let mut name = None;
        let mut binders = Vec::new();
        let mut guard = None;
        let mut target = None;
        for part in inner(pair) {
            match part.as_rule() {
                Rule::ident => name = Some(self.ident(part)),
                Rule::binders => binders = inner(part).map(|b| self.binder(b)).collect(),
                Rule::guard => guard = Some(self.expr(next_part(&mut part.into_inner()))),
                Rule::arrow => {}
                Rule::expr => target = Some(self.expr(part)),
                other => unreachable!("a move rule has no part {other:?}"),
            }
        }
        MoveRule {
            name: name.expect("a move rule always has a name"),
            binders,
            guard,
            target: target.expect("a move rule always has a target"),
            span,
        }
    }

    fn binder(&mut self, pair: Pair<'_, Rule>) -> Binder {
        let mut parts = pair.into_inner();
        let pattern = self.pattern(next_part(&mut parts));
        let domain = self.expr(next_part(&mut parts));
        Binder { pattern, domain }
    }

    fn pattern(&self, pair: Pair<'_, Rule>) -> Pattern {
        match pair.as_rule() {
            Rule::ident => Pattern::Name(self.ident(pair)),
            Rule::tuple_pattern => {
                let span = self.span(&pair);
                Pattern::Tuple(inner(pair).map(|p| self.pattern(p)).collect(), span)
            }
            other => unreachable!("a pattern is never {other:?}"),
        }
    }

    fn expr(&mut self, pair: Pair<'_, Rule>) -> Expr {
        debug_assert!(matches!(pair.as_rule(), Rule::expr | Rule::let_value));
        let file = self.file;
        // An operator chain nests one level per operator once built.
        let operators = pair
            .clone()
            .into_inner()
            .filter(|p| !is_primary(p.as_rule()));
        let depth = self.depth + operators.count() + 1;
        if depth > MAX_EXPR_DEPTH {
            let span = self.span(&pair);
            if !self.errors.iter().any(|e| e.phase == Phase::Limit) {
                self.errors.push(expr_depth_error(span));
            }
            return Spanned::new(ExprKind::Int(0), span);
        }
        let sub = || Builder {
            file,
            errors: Vec::new(),
            depth,
        };
        let sp = move |p: &Pair<'_, Rule>| Span::new(file, p.as_span().start(), p.as_span().end());
        // The Pratt callbacks cannot borrow `self` mutably all at once, so
        // errors found inside them are gathered here and moved over after.
        let errors = std::cell::RefCell::new(Vec::new());
        let result = PRATT
            .map_primary(|p| {
                let mut sub = sub();
                let e = sub.primary(p);
                errors.borrow_mut().extend(sub.errors);
                e
            })
            .map_prefix(|op, rhs| {
                let span = sp(&op).to(rhs.span);
                let op = match op.as_rule() {
                    Rule::neg_op => UnOp::Neg,
                    Rule::not_op => UnOp::Not,
                    Rule::bnot_op => UnOp::BitNot,
                    Rule::heap_op => UnOp::Heap,
                    other => unreachable!("not a prefix operator: {other:?}"),
                };
                Spanned::new(ExprKind::Unary(op, Box::new(rhs)), span)
            })
            .map_postfix(|lhs, op| {
                let span = lhs.span.to(sp(&op));
                let mut sub = sub();
                let e = sub.postfix(lhs, op, span);
                errors.borrow_mut().extend(sub.errors);
                e
            })
            .map_infix(|lhs, op, rhs| chain(lhs, binop(op.as_rule()), rhs))
            .parse(pair.into_inner());
        self.errors.extend(errors.into_inner());
        result
    }

    fn postfix(&mut self, lhs: Expr, op: Pair<'_, Rule>, span: Span) -> Expr {
        let kind = match op.as_rule() {
            Rule::call => ExprKind::Call(Box::new(lhs), self.exprs(op)),
            Rule::index => {
                let mut parts = inner(op);
                let first = parts.next().expect("an index has contents");
                let bound = |b: &mut Self, p: Pair<'_, Rule>| {
                    p.into_inner().next().map(|e| Box::new(b.expr(e)))
                };
                match first.as_rule() {
                    Rule::slice_from => {
                        let hi = bound(self, first);
                        ExprKind::Slice(Box::new(lhs), None, hi)
                    }
                    _ => {
                        let at = self.expr(first);
                        match parts.next() {
                            Some(rest) => {
                                let hi = bound(self, rest);
                                ExprKind::Slice(Box::new(lhs), Some(Box::new(at)), hi)
                            }
                            None => ExprKind::Index(Box::new(lhs), Box::new(at)),
                        }
                    }
                }
            }
            other => unreachable!("not a postfix operator: {other:?}"),
        };
        Spanned::new(kind, span)
    }

    fn exprs(&mut self, pair: Pair<'_, Rule>) -> Vec<Expr> {
        inner(pair).map(|e| self.expr(e)).collect()
    }

    fn primary(&mut self, pair: Pair<'_, Rule>) -> Expr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int => {
                let digits: String = pair.as_str().chars().filter(|c| *c != '_').collect();
                match digits.parse::<i64>() {
                    Ok(n) => ExprKind::Int(n),
                    Err(_) => {
                        self.errors.push(
                            Diagnostic::new(Phase::Syntax, "integer literal is too large")
                                .at(span, "does not fit in a 64-bit integer")
                                .note("integers range from -9223372036854775808 to 9223372036854775807"),
                        );
                        ExprKind::Int(0)
                    }
                }
            }
            Rule::string => ExprKind::Str(unescape(next_part(&mut pair.into_inner()).as_str())),
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::ident => ExprKind::Var(Rc::from(pair.as_str())),
            Rule::if_expr => {
                let mut parts = pair.into_inner().map(|e| Box::new(self.expr(e)));
                let (c, a, b) = (parts.next(), parts.next(), parts.next());
                let three = "the grammar gives `if` a condition and two branches";
                ExprKind::If(c.expect(three), a.expect(three), b.expect(three))
            }
            Rule::let_expr => {
                let mut parts = pair.into_inner().filter(|p| p.as_rule() != Rule::let_in);
                let pattern = self.pattern(parts.next().unwrap());
                let mut parts = parts.map(|e| Box::new(self.expr(e)));
                let (value, body) = (parts.next(), parts.next());
                ExprKind::Let(pattern, value.unwrap(), body.unwrap())
            }
            Rule::paren => self.paren(pair),
            Rule::list | Rule::set => self.collection(pair),
            Rule::expr => return self.expr(pair),
            other => unreachable!("not a primary expression: {other:?}"),
        };
        Spanned::new(kind, span)
    }

    fn paren(&mut self, pair: Pair<'_, Rule>) -> ExprKind {
        let mut items = Vec::new();
        let mut trailing_comma = false;
        for part in inner(pair) {
            match part.as_rule() {
                Rule::expr => items.push(self.expr(part)),
                Rule::trailing_comma => trailing_comma = true,
                other => unreachable!("not part of a parenthesis: {other:?}"),
            }
        }
        if items.len() == 1 && !trailing_comma {
            ExprKind::Paren(Box::new(items.pop().expect("one item, counted above")))
        } else {
            ExprKind::Tuple(items)
        }
    }

    /// `[...]` or `{...}`: empty, items, or a comprehension.
    fn collection(&mut self, pair: Pair<'_, Rule>) -> ExprKind {
        let set = pair.as_rule() == Rule::set;
        let mut parts = inner(pair);
        let Some(first) = parts.next() else {
            return if set {
                ExprKind::Set(Vec::new())
            } else {
                ExprKind::List(Vec::new())
            };
        };
        let first = self.expr(first);
        let tail = parts.next().expect("a collection's first item has a tail");
        if tail.as_rule() == Rule::comp_tail {
            let clauses = tail
                .into_inner()
                .map(|c| match c.as_rule() {
                    Rule::comp_for => Clause::For(self.binder(c)),
                    Rule::comp_if => Clause::If(self.expr(next_part(&mut c.into_inner()))),
                    other => unreachable!("not a comprehension clause: {other:?}"),
                })
                .collect();
            let elem = Box::new(first);
            return ExprKind::Comprehension { set, elem, clauses };
        }
        let mut items = vec![first];
        items.extend(self.exprs(tail));
        if set {
            ExprKind::Set(items)
        } else {
            ExprKind::List(items)
        }
    }
}

/// Builds `lhs op rhs`. Comparisons chain as in Python: `a < b <= c`
/// means `a < b and b <= c` with `b` evaluated once, and is built as one
/// [`ExprKind::Chain`] (a parenthesised comparison does not chain).
fn chain(lhs: Expr, op: BinOp, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    if !op.is_comparison() {
        return Spanned::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
    }
    let kind = match lhs.node {
        ExprKind::Binary(first, a, b) if first.is_comparison() => {
            ExprKind::Chain(vec![*a, *b, rhs], vec![first, op])
        }
        ExprKind::Chain(mut operands, mut ops) => {
            operands.push(rhs);
            ops.push(op);
            ExprKind::Chain(operands, ops)
        }
        node => ExprKind::Binary(op, Box::new(Spanned::new(node, lhs.span)), Box::new(rhs)),
    };
    Spanned::new(kind, span)
}

fn binop(rule: Rule) -> BinOp {
    match rule {
        Rule::or_op => BinOp::Or,
        Rule::and_op => BinOp::And,
        Rule::in_op => BinOp::In,
        Rule::not_in_op => BinOp::NotIn,
        Rule::eq_op => BinOp::Eq,
        Rule::ne_op => BinOp::Ne,
        Rule::lt_op => BinOp::Lt,
        Rule::le_op => BinOp::Le,
        Rule::gt_op => BinOp::Gt,
        Rule::ge_op => BinOp::Ge,
        Rule::range_op => BinOp::Range,
        Rule::range_incl_op => BinOp::RangeIncl,
        Rule::bor_op => BinOp::BitOr,
        Rule::bxor_op => BinOp::BitXor,
        Rule::band_op => BinOp::BitAnd,
        Rule::shl_op => BinOp::Shl,
        Rule::shr_op => BinOp::Shr,
        Rule::add_op => BinOp::Add,
        Rule::sub_op => BinOp::Sub,
        Rule::mul_op => BinOp::Mul,
        Rule::div_op => BinOp::Div,
        Rule::rem_op => BinOp::Rem,
        Rule::pow_op => BinOp::Pow,
        other => unreachable!("not an infix operator: {other:?}"),
    }
}

fn unescape(raw: &str) -> Rc<str> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    Rc::from(out)
}
