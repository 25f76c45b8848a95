//! Phase 1: source text in, syntax tree out.
//!
//! The pest grammar (`grammar/grundy.pest`) recognises the text; this module
//! turns pest's pairs into the [`ast`] with byte spans, resolves operator
//! precedence with a Pratt parser, and turns pest's errors into diagnostics
//! worded in the language's own terms.

pub mod ast;
mod hints;

use crate::diag::{Diagnostic, Phase};
use crate::span::{FileId, Span, Spanned};
use ast::*;
use pest::Parser as _;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::rc::Rc;
use std::sync::LazyLock;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/grundy.pest"]
struct GrundyParser;

/// Parses one source. All syntax errors found are returned; pest stops at
/// the first one it cannot recover from, so this is usually a single error.
pub fn parse(file: FileId, src: &str) -> Result<Program, Vec<Diagnostic>> {
    // pest's parser recurses once per nesting level; refuse absurd nesting
    // before it runs, so no input can exhaust the stack.
    if let Some(at) = too_deep(src) {
        return Err(vec![nesting_error(Span::new(file, at, at + 1))]);
    }
    let mut pairs = match GrundyParser::parse(Rule::program, src) {
        Ok(pairs) => pairs,
        Err(err) => return Err(syntax_errors(file, src, err)),
    };
    let mut builder = Builder {
        file,
        errors: Vec::new(),
        depth: 0,
    };
    let program = pairs
        .next()
        .expect("the program rule always yields one pair");
    let stmts = program
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| builder.stmt(p))
        .collect();
    if builder.errors.is_empty() {
        Ok(Program { stmts })
    } else {
        Err(builder.errors)
    }
}

/// The language's keywords: no name may be one of them.
pub const KEYWORDS: [&str; 15] = [
    "game", "move", "fn", "let", "expect", "if", "then", "else", "for", "in", "and", "or", "not",
    "true", "false",
];

/// The length of the comment or string literal that `rest` starts with, if
/// it starts with one: a comment runs to the end of its line, a string to
/// its closing quote (or to the end of the line, if it has none). Scans of
/// the raw text use it to skip what is not code.
pub fn literal_len(rest: &str) -> Option<usize> {
    match rest.as_bytes().first()? {
        b'#' => Some(rest.find('\n').unwrap_or(rest.len())),
        b'"' => {
            let mut escaped = false;
            for (i, c) in rest.char_indices().skip(1) {
                match c {
                    '\n' => return Some(i),
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => return Some(i + 1),
                    _ => escaped = false,
                }
            }
            Some(rest.len())
        }
        _ => None,
    }
}

/// At most this many syntax errors are reported for one source.
const MAX_SYNTAX_ERRORS: usize = 10;

/// The first syntax error, then those found by parsing again from each
/// later line that starts a definition (`game`, `fn`, `let`, `expect` at
/// the start of a line), so that one slip does not hide the next.
fn syntax_errors(file: FileId, src: &str, first: pest::error::Error<Rule>) -> Vec<Diagnostic> {
    let mut errors = vec![syntax_error(file, src, first, 0)];
    let mut from = errors[0].span.map_or(src.len(), |s| s.end as usize);
    while errors.len() < MAX_SYNTAX_ERRORS {
        let Some(restart) = next_definition(src, from) else {
            break;
        };
        match GrundyParser::parse(Rule::program, &src[restart..]) {
            Ok(_) => break,
            Err(err) => {
                let diag = syntax_error(file, src, err, restart);
                from = diag.span.map_or(src.len(), |s| s.end as usize);
                errors.push(diag);
            }
        }
    }
    errors
}

/// The first line at or after `from` that starts with a definition.
fn next_definition(src: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(newline) = src.get(at..)?.find('\n') {
        at += newline + 1;
        let line = &src[at..];
        let word = line.split(|c: char| !c.is_ascii_alphanumeric()).next()?;
        if matches!(word, "game" | "fn" | "let" | "expect") {
            return Some(at);
        }
    }
    None
}

/// True when `src` fails to parse only because it ended too early, inside
/// an open bracket or after a `\` that continues the line: the REPL then
/// asks for another line. A statement cut short at a newline outside
/// brackets (`1 +`) is an error, not incomplete: the newline ended it.
pub fn is_incomplete(src: &str) -> bool {
    if too_deep(src).is_some() {
        return false;
    }
    let mut text = src.to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    match GrundyParser::parse(Rule::program, &text) {
        Ok(_) => false,
        Err(err) => match err.location {
            pest::error::InputLocation::Pos(p) => p == text.len(),
            pest::error::InputLocation::Span((s, _)) => s == text.len(),
        },
    }
}

/// How deeply brackets and `if`s may nest in one statement.
pub const MAX_NESTING: usize = 256;

/// How deeply an expression's syntax tree may nest, counting each operator
/// of a chain such as `a + b + c` as a level.
pub const MAX_EXPR_DEPTH: usize = 10_000;

/// Where the nesting of brackets and `if`s first goes past [`MAX_NESTING`],
/// found by a scan of the text that skips strings and comments. An `if`
/// nests until the end of its bracket, list item, move rule or statement.
fn too_deep(src: &str) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut opened: Vec<usize> = Vec::new(); // the level at each open bracket
    let mut level = 0;
    let mut i = 0;
    while i < bytes.len() {
        let inside = opened.last().map_or(0, |l| l + 1);
        match bytes[i] {
            b'#' | b'"' => {
                i += literal_len(&src[i..]).unwrap_or(1);
                continue;
            }
            b'(' | b'[' | b'{' => {
                opened.push(level);
                level += 1;
            }
            b')' | b']' | b'}' => level = opened.pop().unwrap_or(0),
            b',' => level = inside,
            b'\n' | b';' if opened.is_empty() => level = 0,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &src[start..i] {
                    "if" => level += 1,
                    "move" => level = inside,
                    _ => {}
                }
                if level > MAX_NESTING {
                    return Some(start);
                }
                continue;
            }
            _ => {}
        }
        if level > MAX_NESTING {
            return Some(i);
        }
        i += 1;
    }
    None
}

fn expr_depth_error(span: Span) -> Diagnostic {
    Diagnostic::new(
        Phase::Limit,
        format!("this expression nests more than {MAX_EXPR_DEPTH} levels deep"),
    )
    .at(span, "this expression")
    .help("split it with `let` or `fn`; to add up many items, use `sum([...])`")
    .note("each operator of a chain such as `a + b + c` counts as a level")
}

fn nesting_error(span: Span) -> Diagnostic {
    Diagnostic::new(
        Phase::Limit,
        format!("brackets and `if`s nest more than {MAX_NESTING} levels deep"),
    )
    .at(span, "this is one level too deep")
    .help("give the inner parts names with `let` or `fn`")
}

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

struct Builder {
    file: FileId,
    errors: Vec<Diagnostic>,
    /// Levels of the syntax tree above the expression being built.
    depth: usize,
}

fn is_primary(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        if_expr | int | string | true_lit | false_lit | ident | paren | list | set
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

    fn stmt(&mut self, pair: Pair<'_, Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut parts = inner(pair);
        let kind = match rule {
            Rule::game_def => {
                let name = self.ident(parts.next().unwrap());
                let params = self.params(parts.next().unwrap());
                let moves = parts.map(|m| self.move_rule(m)).collect();
                StmtKind::Game(Rc::new(GameDef {
                    name,
                    params,
                    moves,
                }))
            }
            Rule::fn_def => {
                let name = self.ident(parts.next().unwrap());
                let params = self.params(parts.next().unwrap());
                let body = self.expr(parts.next().unwrap());
                StmtKind::Fn(Rc::new(FnDef { name, params, body }))
            }
            Rule::let_def => {
                let pattern = self.pattern(parts.next().unwrap());
                StmtKind::Let(pattern, self.expr(parts.next().unwrap()))
            }
            Rule::expect_stmt => StmtKind::Expect(self.expr(parts.next().unwrap())),
            Rule::expr_stmt => StmtKind::Expr(self.expr(parts.next().unwrap())),
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
                Rule::guard => guard = Some(self.expr(part.into_inner().next().unwrap())),
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
        let pattern = self.pattern(parts.next().unwrap());
        let domain = self.expr(parts.next().unwrap());
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
        debug_assert_eq!(pair.as_rule(), Rule::expr);
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
            Rule::string => ExprKind::Str(unescape(pair.into_inner().next().unwrap().as_str())),
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::ident => ExprKind::Var(Rc::from(pair.as_str())),
            Rule::if_expr => {
                let mut parts = pair.into_inner().map(|e| Box::new(self.expr(e)));
                let (c, a, b) = (parts.next(), parts.next(), parts.next());
                ExprKind::If(c.unwrap(), a.unwrap(), b.unwrap())
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
            ExprKind::Paren(Box::new(items.pop().unwrap()))
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
                    Rule::comp_if => Clause::If(self.expr(c.into_inner().next().unwrap())),
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

/// The token a piece of text starts with: a word, a number or an operator.
fn token_at(text: &str) -> &str {
    let first = text.chars().next().map_or(0, char::len_utf8);
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let end = if text.starts_with(word) {
        text.find(|c: char| !word(c)).unwrap_or(text.len())
    } else {
        const OPERATORS: [&str; 12] = [
            "..=", "->", "==", "!=", "<=", ">=", "**", "<<", ">>", "..", "//", "=>",
        ];
        OPERATORS
            .iter()
            .find(|op| text.starts_with(*op))
            .map_or(first, |op| op.len())
    };
    &text[..end.min(24)]
}

/// Words a user understands for what the parser was looking for.
fn describe(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        expr | expr_stmt | if_expr | int | string | true_lit | false_lit | paren | list | set
        | not_op | neg_op | bnot_op | heap_op => "an expression",
        ident => "a name",
        params => "a parameter list `(...)`",
        binders => "move binders `(x in ...)`",
        binder => "a binder `x in ...`",
        tuple_pattern => "a pattern",
        guard => "a guard `if ...`",
        arrow => "`->` and a move target",
        move_rule => "`move`",
        game_def | fn_def | let_def | expect_stmt => "a statement",
        lparen => "`(`",
        rparen => "`)`",
        lbracket => "`[`",
        rbracket => "`]`",
        lbrace => "`{`",
        rbrace => "`}`",
        call | index => "`(` or `[`",
        comp_for => "`for`",
        comp_if => "`if`",
        comp_tail => "`for`",
        slice_from | slice_rest => "`:`",
        EOI => "the end of the statement",
        or_op | and_op | in_op | not_in_op | eq_op | ne_op | le_op | ge_op | shl_op | shr_op
        | lt_op | gt_op | range_incl_op | range_op | bor_op | bxor_op | band_op | add_op
        | sub_op | pow_op | mul_op | div_op | rem_op => "an operator",
        _ => return None,
    })
}

/// The diagnostic for a pest error in the part of `src` from `offset` on.
fn syntax_error(
    file: FileId,
    src: &str,
    err: pest::error::Error<Rule>,
    offset: usize,
) -> Diagnostic {
    let (start, end) = match err.location {
        pest::error::InputLocation::Pos(p) => (p + offset, p + offset),
        pest::error::InputLocation::Span((s, e)) => (s + offset, e + offset),
    };
    // Point at the offending token (or the end of the input) rather than
    // at an empty position, so the label is visible.
    let end = if end > start {
        end
    } else {
        start + token_at(&src[start..]).len()
    };
    let span = Span::new(file, start, end);
    let found = match src[start..].chars().next() {
        None => "end of input".to_string(),
        Some('\n') => "end of line".to_string(),
        Some(_) => format!("`{}`", token_at(&src[start..])),
    };
    let positives: &[Rule] = match &err.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives,
        pest::error::ErrorVariant::CustomError { .. } => &[],
    };
    let mut expected: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
    expected.sort();
    expected.dedup();
    let label = match expected.as_slice() {
        [] => format!("unexpected {found}"),
        [one] => format!("expected {one}"),
        [init @ .., last] => format!("expected {} or {last}", init.join(", ")),
    };
    let mut diag =
        Diagnostic::new(Phase::Syntax, format!("syntax error: unexpected {found}")).at(span, label);
    let advice = hints::advise(&hints::Context {
        src,
        at: start,
        found: token_at(&src[start..]),
        expected: positives,
    });
    for (start, end, text) in advice.marks {
        diag = diag.also(Span::new(file, start, end), text);
    }
    diag.help = advice.help;
    diag
}

#[cfg(test)]
mod tests;
