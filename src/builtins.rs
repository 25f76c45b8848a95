//! The built-in functions as the front end sees them: their names, their
//! arities and which of them are queries. `check`, `lower` and the REPL's
//! completion read this table; it depends on nothing, so any phase may.
//! Their implementations are in `runtime::builtins`.

/// Every built-in function of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Len,
    Min,
    Max,
    Abs,
    Sum,
    All,
    Any,
    Sorted,
    Reversed,
    Enumerate,
    Zip,
    List,
    Set,
    Str,
    Mex,
    Print,
    /// `gcd(a, b)`: the greatest common divisor, never negative.
    Gcd,
    /// `isqrt(n)`: the largest `r` with `r * r <= n`.
    Isqrt,
    /// `divisors(n)`: the positive divisors of `n >= 1`, in order.
    Divisors,
    /// `popcount(n)`: the number of 1 bits of `n >= 0`.
    Popcount,
    /// `bit_length(n)`: the number of bits of `n >= 0` (`0` for 0).
    BitLength,
    /// `join(strings, sep)`: the strings with `sep` between them.
    Join,
    /// `format(template, args...)`: each `{}` replaced by an argument.
    Format,
    /// `csv(t)`: a table (or a list of rows) as CSV text.
    Csv,
    /// `value(P)`: the nim-value of a position.
    Value,
    /// `winner(P)`: "first" or "second".
    Winner,
    /// `moves(P)`: every move, its result and value, winning ones marked.
    Moves,
    /// `options(P)`: the positions one move away.
    Options,
    /// `table(game, range[, range])`: a nim-sequence or a grid of values.
    Table,
    /// `line(P)`: the game played out, fastest win against longest defence.
    Line,
    /// `play(P)`: a game against the computer, in the REPL only.
    Play,
    /// `graph(P[, depth[, nodes]])`: the transition graph from `P` as
    /// Graphviz DOT text.
    Graph,
    /// `plot(game, range[, path])`: the nim-sequence drawn as SVG or PNG.
    Plot,
}

impl Builtin {
    pub const ALL: [Builtin; 33] = [
        Builtin::Len,
        Builtin::Min,
        Builtin::Max,
        Builtin::Abs,
        Builtin::Sum,
        Builtin::All,
        Builtin::Any,
        Builtin::Sorted,
        Builtin::Reversed,
        Builtin::Enumerate,
        Builtin::Zip,
        Builtin::List,
        Builtin::Set,
        Builtin::Str,
        Builtin::Mex,
        Builtin::Print,
        Builtin::Gcd,
        Builtin::Isqrt,
        Builtin::Divisors,
        Builtin::Popcount,
        Builtin::BitLength,
        Builtin::Join,
        Builtin::Format,
        Builtin::Csv,
        Builtin::Value,
        Builtin::Winner,
        Builtin::Moves,
        Builtin::Options,
        Builtin::Table,
        Builtin::Line,
        Builtin::Play,
        Builtin::Graph,
        Builtin::Plot,
    ];

    pub fn name(self) -> &'static str {
        use Builtin::*;
        match self {
            Len => "len",
            Min => "min",
            Max => "max",
            Abs => "abs",
            Sum => "sum",
            All => "all",
            Any => "any",
            Sorted => "sorted",
            Reversed => "reversed",
            Enumerate => "enumerate",
            Zip => "zip",
            List => "list",
            Set => "set",
            Str => "str",
            Mex => "mex",
            Print => "print",
            Gcd => "gcd",
            Isqrt => "isqrt",
            Divisors => "divisors",
            Popcount => "popcount",
            BitLength => "bit_length",
            Join => "join",
            Format => "format",
            Csv => "csv",
            Value => "value",
            Winner => "winner",
            Moves => "moves",
            Options => "options",
            Table => "table",
            Line => "line",
            Play => "play",
            Graph => "graph",
            Plot => "plot",
        }
    }

    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Smallest and largest number of arguments (`None`: no upper bound).
    pub fn arity(self) -> (usize, Option<usize>) {
        use Builtin::*;
        match self {
            Len | Abs | Sum | All | Any | Sorted | Reversed | Enumerate | List | Set | Str
            | Mex | Isqrt | Divisors | Popcount | BitLength | Csv | Value | Winner | Moves
            | Options | Line | Play => (1, Some(1)),
            Gcd | Join => (2, Some(2)),
            Format => (1, None),
            Min | Max => (1, None),
            Zip => (2, None),
            Print => (0, None),
            Table => (2, Some(3)),
            Graph => (1, Some(3)),
            Plot => (2, Some(3)),
        }
    }

    /// Queries evaluate games; they make no sense inside a move rule, where
    /// the game being defined is still being expanded.
    pub fn is_query(self) -> bool {
        matches!(
            self,
            Builtin::Value
                | Builtin::Winner
                | Builtin::Moves
                | Builtin::Options
                | Builtin::Table
                | Builtin::Line
                | Builtin::Play
                | Builtin::Graph
                | Builtin::Plot
        )
    }
}

/// What to write for a brace in a `format` template.
pub const FORMAT_HELP: &str =
    "`{}` stands for the next argument; write `{{` and `}}` for the braces themselves";

/// Where and why a `format` template is malformed.
#[derive(Debug, PartialEq, Eq)]
pub struct TemplateError {
    /// The character (counted from 0) of the brace at fault.
    pub at: usize,
    pub message: &'static str,
}

/// The text between the `{}` of a `format` template, `{{` and `}}` made
/// single braces. It is here, with no implementation around it, because
/// `check` reads the templates written as literals and the runtime the
/// others.
pub fn format_pieces(template: &str) -> Result<Vec<String>, TemplateError> {
    let mut pieces = vec![String::new()];
    let mut chars = template.chars().enumerate().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|(_, c)| *c);
        let message = match (c, next) {
            ('{', Some('{')) | ('}', Some('}')) => {
                chars.next();
                pieces.last_mut().expect("never empty").push(c);
                continue;
            }
            ('{', Some('}')) => {
                chars.next();
                pieces.push(String::new());
                continue;
            }
            ('{', _) => "a `{` in the template is not followed by `}`",
            ('}', _) => "a `}` in the template has no `{`",
            _ => {
                pieces.last_mut().expect("never empty").push(c);
                continue;
            }
        };
        return Err(TemplateError { at, message });
    }
    Ok(pieces)
}

/// The error of a `format` call whose template has `holes` placeholders
/// and `given` arguments after it.
pub fn format_mismatch(holes: usize, given: usize) -> String {
    let placeholders = if holes == 1 {
        "placeholder"
    } else {
        "placeholders"
    };
    let arguments = if given == 1 {
        "argument follows"
    } else {
        "arguments follow"
    };
    format!("the template has {holes} {placeholders} `{{}}` but {given} {arguments} it")
}
