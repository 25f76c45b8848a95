//! The syntax tree of a grundy source. Every node carries its [`Span`].

use crate::span::{Span, Spanned};
use std::rc::Rc;

/// A name as written, with its span.
pub type Ident = Spanned<Rc<str>>;

/// A whole source file (or REPL input): its statements in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Game(Rc<GameDef>),
    Fn(Rc<FnDef>),
    Let(Pattern, Expr),
    Expect(Expr),
    Expr(Expr),
}

impl Stmt {
    /// The global names the statement defines: a game's or function's
    /// name, or every name a top-level `let` binds.
    pub fn defined_names(&self) -> Vec<&Ident> {
        match &self.kind {
            StmtKind::Game(g) => vec![&g.name],
            StmtKind::Fn(f) => vec![&f.name],
            StmtKind::Let(pattern, _) => pattern.names(),
            StmtKind::Expect(_) | StmtKind::Expr(_) => Vec::new(),
        }
    }
}

/// `game NAME(params) { move ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct GameDef {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub moves: Vec<MoveRule>,
}

/// `move NAME(binders) if GUARD -> TARGET`
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRule {
    pub name: Ident,
    pub binders: Vec<Binder>,
    pub guard: Option<Expr>,
    pub target: Expr,
    pub span: Span,
}

/// `PATTERN in DOMAIN`, in a move's binders or a comprehension's `for`.
#[derive(Clone, Debug, PartialEq)]
pub struct Binder {
    pub pattern: Pattern,
    pub domain: Expr,
}

/// `fn NAME(params) = BODY`
#[derive(Clone, Debug, PartialEq)]
pub struct FnDef {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: Expr,
}

/// What a binder, `for` or `let` binds: a name or a (nested) tuple of names.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    Name(Ident),
    Tuple(Vec<Pattern>, Span),
}

impl Pattern {
    pub fn span(&self) -> Span {
        match self {
            Pattern::Name(id) => id.span,
            Pattern::Tuple(_, span) => *span,
        }
    }

    /// Every name the pattern binds, left to right.
    pub fn names(&self) -> Vec<&Ident> {
        let mut out = Vec::new();
        fn walk<'a>(p: &'a Pattern, out: &mut Vec<&'a Ident>) {
            match p {
                Pattern::Name(id) => out.push(id),
                Pattern::Tuple(ps, _) => ps.iter().for_each(|p| walk(p, out)),
            }
        }
        walk(self, &mut out);
        out
    }
}

pub type Expr = Spanned<ExprKind>;

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Str(Rc<str>),
    Var(Rc<str>),
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    /// `[elem for ... if ...]` or `{elem for ...}`.
    Comprehension {
        set: bool,
        elem: Box<Expr>,
        clauses: Vec<Clause>,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Comparisons chained as in Python: `a < b <= c` is `operands`
    /// `[a, b, c]` with `ops` `[<, <=]`, and means `a < b and b <= c`
    /// with `b` evaluated once. Only two or more comparisons make a chain.
    Chain(Vec<Expr>, Vec<BinOp>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let PATTERN = VALUE in BODY`: the pattern's names are bound to the
    /// value in the body only.
    Let(Pattern, Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `(e)`: kept so that printing and checks can tell it was parenthesised.
    Paren(Box<Expr>),
}

/// `g(a, _)` as the first argument of `table`: a family of positions, one
/// for each value of the parameters written `_` (the holes). The callee
/// and the arguments, when `e` is a call with at least one hole.
pub fn family(e: &Expr) -> Option<(&Expr, &[Expr])> {
    match &e.node {
        ExprKind::Call(callee, args) if args.iter().any(is_hole) => Some((callee, args)),
        _ => None,
    }
}

/// `_` standing alone: a hole of a [`family`].
pub fn is_hole(e: &Expr) -> bool {
    matches!(&e.node, ExprKind::Var(name) if &**name == "_")
}

#[derive(Clone, Debug, PartialEq)]
pub enum Clause {
    For(Binder),
    If(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
    /// `*k`: a Nim heap of size k.
    Heap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    In,
    NotIn,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Range,
    RangeIncl,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

impl BinOp {
    /// Whether the operator takes two integers to an integer (`+` to
    /// `>>`), as `arith` in the runtime computes it.
    pub fn is_arithmetic(self) -> bool {
        use BinOp::*;
        matches!(
            self,
            Add | Sub | Mul | Div | Rem | Pow | Shl | Shr | BitAnd | BitOr | BitXor
        )
    }

    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Or => "or",
            And => "and",
            In => "in",
            NotIn => "not in",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Range => "..",
            RangeIncl => "..=",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Shl => "<<",
            Shr => ">>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Pow => "**",
        }
    }

    pub fn is_comparison(self) -> bool {
        use BinOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge | In | NotIn)
    }
}
