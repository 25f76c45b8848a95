//! A model of grundy rule files for differential tests: a small AST of
//! games, functions and queries, independent of grundy's own types, that
//! is rendered to grundy source text (`Display`) and evaluated by a slow,
//! plain reference evaluator written from the language's definitions
//! (`eval`). Random specs come from `generate`.

pub mod eval;
pub mod generate;

use std::fmt::{self, Display, Formatter};

/// A binary operator on integers (`Add` also adds lists and positions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A built-in function the model uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Builtin {
    Min,
    Max,
    Abs,
    Len,
    Sum,
    Sorted,
    Enumerate,
}

/// An expression. It is dynamically typed, like the language: the
/// generator only builds well-typed ones.
#[derive(Clone, Debug)]
pub enum Expr {
    Int(i64),
    Var(String),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    /// `a < b <= c`: a chain of comparisons, Python style.
    Chain(Box<Expr>, Vec<(Cmp, Expr)>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Builtin(Builtin, Vec<Expr>),
    /// A call of a user function.
    Call(String, Vec<Expr>),
    /// `a..b` (false) or `a..=b` (true).
    Range(Box<Expr>, Box<Expr>, bool),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    Tuple(Vec<Expr>),
    /// `xs[a:b]`, either bound optional.
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `[elem for var in over if cond]`.
    Comprehension {
        elem: Box<Expr>,
        var: String,
        over: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    /// A game applied to arguments: a position.
    Game(String, Vec<Expr>),
    /// `*k`, a Nim heap.
    Heap(Box<Expr>),
    /// `value(P)`: allowed in a function, even one that rules call.
    Value(Box<Expr>),
    /// `let PATTERN = VALUE in BODY`: the names bound in the body only.
    Let {
        pattern: Pattern,
        value: Box<Expr>,
        body: Box<Expr>,
    },
}

/// A binder's pattern: a name or a flat tuple of names.
#[derive(Clone, Debug)]
pub enum Pattern {
    Name(String),
    Tuple(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct Binder {
    pub pattern: Pattern,
    pub domain: Expr,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub name: String,
    pub binders: Vec<Binder>,
    pub guard: Option<Expr>,
    pub target: Expr,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub name: String,
    pub params: Vec<String>,
    pub rules: Vec<Rule>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<String>,
    pub body: Expr,
}

/// A statement that prints something.
#[derive(Clone, Debug)]
pub enum Query {
    /// `value(P)`
    Value(Expr),
    /// `winner(P)`
    Winner(Expr),
    /// `[value(P) for var in over]`
    Values { var: String, over: Expr, pos: Expr },
    /// `len([var for var in over if value(P) == 0])`: how many are lost
    Lost { var: String, over: Expr, pos: Expr },
    /// `value(sum([P for var in over]))`: the nim-sum of their values
    NimSum { var: String, over: Expr, pos: Expr },
    /// `table(game, xs)` or `table(game, xs, ys)`
    Table(String, Vec<Expr>),
}

/// A whole rule file: `let`s, functions, games, then queries.
#[derive(Clone, Default)]
pub struct Spec {
    pub lets: Vec<(String, Expr)>,
    pub functions: Vec<Function>,
    pub games: Vec<Game>,
    pub queries: Vec<Query>,
}

/// Printed between the queries' outputs, to tell them apart.
pub const SEPARATOR: &str = "@@";

fn op_text(op: Op) -> &'static str {
    match op {
        Op::Add => "+",
        Op::Sub => "-",
        Op::Mul => "*",
        Op::Div => "/",
        Op::Mod => "%",
        Op::BitAnd => "&",
        Op::BitOr => "|",
        Op::BitXor => "^",
        Op::Shl => "<<",
        Op::Shr => ">>",
    }
}

fn cmp_text(cmp: Cmp) -> &'static str {
    match cmp {
        Cmp::Lt => "<",
        Cmp::Le => "<=",
        Cmp::Gt => ">",
        Cmp::Ge => ">=",
        Cmp::Eq => "==",
        Cmp::Ne => "!=",
    }
}

fn builtin_text(b: Builtin) -> &'static str {
    match b {
        Builtin::Min => "min",
        Builtin::Max => "max",
        Builtin::Abs => "abs",
        Builtin::Len => "len",
        Builtin::Sum => "sum",
        Builtin::Sorted => "sorted",
        Builtin::Enumerate => "enumerate",
    }
}

/// `a, b, c`
fn commas<T: Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every compound expression is parenthesised, so the text never depends
/// on operator precedence.
impl Display for Expr {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            Expr::Int(n) => write!(f, "{n}"),
            Expr::Var(name) => write!(f, "{name}"),
            Expr::Neg(e) => write!(f, "(-({e}))"),
            Expr::Bin(op, a, b) => write!(f, "({a} {} {b})", op_text(*op)),
            Expr::Chain(first, rest) => {
                write!(f, "({first}")?;
                for (cmp, e) in rest {
                    write!(f, " {} {e}", cmp_text(*cmp))?;
                }
                write!(f, ")")
            }
            Expr::And(a, b) => write!(f, "({a} and {b})"),
            Expr::Or(a, b) => write!(f, "({a} or {b})"),
            Expr::Not(a) => write!(f, "(not {a})"),
            Expr::If(c, a, b) => write!(f, "(if {c} then {a} else {b})"),
            Expr::Builtin(b, args) => write!(f, "{}({})", builtin_text(*b), commas(args)),
            Expr::Call(name, args) | Expr::Game(name, args) => {
                write!(f, "{name}({})", commas(args))
            }
            Expr::Range(a, b, inclusive) => {
                write!(f, "({a}..{}{b})", if *inclusive { "=" } else { "" })
            }
            Expr::List(items) => write!(f, "[{}]", commas(items)),
            Expr::Set(items) => write!(f, "{{{}}}", commas(items)),
            Expr::Tuple(items) if items.len() == 1 => write!(f, "({},)", items[0]),
            Expr::Tuple(items) => write!(f, "({})", commas(items)),
            Expr::Slice(e, a, b) => {
                let bound = |x: &Option<Box<Expr>>| x.as_ref().map(|x| x.to_string());
                let (a, b) = (bound(a).unwrap_or_default(), bound(b).unwrap_or_default());
                write!(f, "{e}[{a}:{b}]")
            }
            Expr::Comprehension {
                elem,
                var,
                over,
                cond,
            } => {
                write!(f, "[{elem} for {var} in {over}")?;
                if let Some(c) = cond {
                    write!(f, " if {c}")?;
                }
                write!(f, "]")
            }
            Expr::Heap(e) => write!(f, "*({e})"),
            Expr::Value(p) => write!(f, "value({p})"),
            // The value is a name, a number or parenthesised, so it never
            // holds an `in` outside brackets.
            Expr::Let {
                pattern,
                value,
                body,
            } => write!(f, "(let {pattern} = {value} in {body})"),
        }
    }
}

impl Display for Pattern {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            Pattern::Name(name) => write!(f, "{name}"),
            Pattern::Tuple(names) => write!(f, "({})", names.join(", ")),
        }
    }
}

impl Display for Rule {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        write!(f, "move {}", self.name)?;
        if !self.binders.is_empty() {
            let binders: Vec<String> = self
                .binders
                .iter()
                .map(|b| format!("{} in {}", b.pattern, b.domain))
                .collect();
            write!(f, "({})", binders.join(", "))?;
        }
        if let Some(guard) = &self.guard {
            write!(f, " if {guard}")?;
        }
        write!(f, " -> {}", self.target)
    }
}

impl Display for Query {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        match self {
            Query::Value(p) => write!(f, "value({p})"),
            Query::Winner(p) => write!(f, "winner({p})"),
            Query::Values { var, over, pos } => write!(f, "[value({pos}) for {var} in {over}]"),
            Query::Lost { var, over, pos } => {
                write!(f, "len([{var} for {var} in {over} if value({pos}) == 0])")
            }
            Query::NimSum { var, over, pos } => {
                write!(f, "value(sum([{pos} for {var} in {over}]))")
            }
            Query::Table(game, axes) => write!(f, "table({game}, {})", commas(axes)),
        }
    }
}

/// A failing case is shown as the rule file it stands for.
impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

impl Display for Spec {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        for (name, e) in &self.lets {
            writeln!(f, "let {name} = {e}")?;
        }
        for func in &self.functions {
            writeln!(
                f,
                "fn {}({}) = {}",
                func.name,
                func.params.join(", "),
                func.body
            )?;
        }
        for game in &self.games {
            writeln!(f, "game {}({}) {{", game.name, game.params.join(", "))?;
            for rule in &game.rules {
                writeln!(f, "    {rule}")?;
            }
            writeln!(f, "}}")?;
        }
        for (i, query) in self.queries.iter().enumerate() {
            if i > 0 {
                writeln!(f, "\"{SEPARATOR}\"")?;
            }
            writeln!(f, "{query}")?;
        }
        Ok(())
    }
}

/// Shorthands for building expressions.
pub fn int(n: i64) -> Expr {
    Expr::Int(n)
}

pub fn var(name: &str) -> Expr {
    Expr::Var(name.to_string())
}

pub fn bin(op: Op, a: Expr, b: Expr) -> Expr {
    Expr::Bin(op, Box::new(a), Box::new(b))
}

pub fn and(a: Expr, b: Expr) -> Expr {
    Expr::And(Box::new(a), Box::new(b))
}

pub fn or(a: Expr, b: Expr) -> Expr {
    Expr::Or(Box::new(a), Box::new(b))
}

pub fn chain(first: Expr, rest: Vec<(Cmp, Expr)>) -> Expr {
    Expr::Chain(Box::new(first), rest)
}

pub fn range(a: Expr, b: Expr, inclusive: bool) -> Expr {
    Expr::Range(Box::new(a), Box::new(b), inclusive)
}

pub fn game(name: &str, args: Vec<Expr>) -> Expr {
    Expr::Game(name.to_string(), args)
}

pub fn heap(e: Expr) -> Expr {
    Expr::Heap(Box::new(e))
}

pub fn call(name: &str, args: Vec<Expr>) -> Expr {
    Expr::Call(name.to_string(), args)
}

pub fn builtin(b: Builtin, args: Vec<Expr>) -> Expr {
    Expr::Builtin(b, args)
}
