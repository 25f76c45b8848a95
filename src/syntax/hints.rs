//! Advice for common syntax mistakes. pest says where the text stopped
//! following the grammar and what it expected there; this module looks at
//! the text around that place for the mistakes people actually make (a
//! Python habit, `=` for `==`, a bracket never closed) and says what to
//! write instead.

use super::Rule;

/// What to add to a syntax error: a help line, and further places to mark
/// as (start, end, label); for a habit from another language, also the
/// message, the label and the text it covers, in place of pest's.
#[derive(Default)]
pub(super) struct Advice {
    pub help: Option<String>,
    pub marks: Vec<(usize, usize, String)>,
    pub message: Option<String>,
    pub label: Option<String>,
    pub span: Option<(usize, usize)>,
}

/// The text around a syntax error.
pub(super) struct Context<'a> {
    pub src: &'a str,
    /// Where the error is.
    pub at: usize,
    /// The token found there (empty at the end of the input).
    pub found: &'a str,
    /// The grammar rules that would have been accepted there.
    pub expected: &'a [Rule],
}

impl Context<'_> {
    pub(super) fn expects(&self, rule: Rule) -> bool {
        self.expected.contains(&rule)
    }

    /// The statement so far: from its start up to the error.
    pub(super) fn statement(&self, scan: &Scan) -> &str {
        &self.src[scan.statement_start..self.at]
    }

    /// The first word of the statement the error is in.
    pub(super) fn first_word(&self, scan: &Scan) -> &str {
        let text = self.statement(scan).trim_start();
        let end = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        &text[..end]
    }

    /// The character just before the error, skipping nothing.
    fn before(&self) -> Option<char> {
        self.src[..self.at].chars().next_back()
    }

    /// True when only white space comes before the error on its line.
    fn starts_line(&self) -> bool {
        let line = self.src[..self.at].rsplit('\n').next().unwrap_or("");
        line.trim().is_empty()
    }
}

/// Brackets open at the error, and where its statement starts, found by a
/// scan that skips strings and comments.
pub(super) struct Scan {
    /// (offset, bracket) of each bracket still open, outermost first.
    pub open: Vec<(usize, char)>,
    pub statement_start: usize,
}

pub(super) fn scan(src: &str, until: usize) -> Scan {
    let mut open = Vec::new();
    let mut statement_start = 0;
    let mut i = 0;
    while let Some(c) = src[i..until].chars().next() {
        // A comment or string is skipped; the newline after it still ends
        // the statement.
        if let Some(len) = super::literal_len(&src[i..until]) {
            i += len;
            continue;
        }
        match c {
            '(' | '[' | '{' => open.push((i, c)),
            ')' | ']' | '}' => {
                open.pop();
            }
            '\n' | ';' if open.is_empty() => statement_start = i + 1,
            _ => {}
        }
        i += c.len_utf8();
    }
    Scan {
        open,
        statement_start,
    }
}

fn closer(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// The first piece of advice that fits the error, if any.
pub(super) fn advise(cx: &Context) -> Advice {
    let scan = scan(cx.src, cx.at);
    let rules = [
        super::habits::advise,
        closing_bracket,
        python_habits,
        single_equals,
        move_shape,
        misplaced_words,
        quotes,
        never_closed,
        missing_comma,
    ];
    rules
        .iter()
        .find_map(|rule| rule(cx, &scan))
        .unwrap_or_default()
}

fn help(text: impl Into<String>) -> Option<Advice> {
    Some(Advice {
        help: Some(text.into()),
        ..Advice::default()
    })
}

/// A closing bracket with nothing to close, or the wrong kind.
fn closing_bracket(cx: &Context, scan: &Scan) -> Option<Advice> {
    let close @ (')' | ']' | '}') = cx.found.chars().next()? else {
        return None;
    };
    match scan.open.last().copied() {
        None => help(format!("remove this `{close}`: no bracket is open here")),
        Some((at, open)) if closer(open) != close => Some(Advice {
            help: Some(format!(
                "close the `{open}` with `{}` before this `{close}`",
                closer(open)
            )),
            marks: vec![(at, at + 1, format!("this `{open}` is still open"))],
            ..Advice::default()
        }),
        Some(_) => None,
    }
}

/// An error at the end of the input or at the start of a line, inside a
/// bracket that nothing in the rest of the text closes.
fn never_closed(cx: &Context, scan: &Scan) -> Option<Advice> {
    if !(cx.found.is_empty() || cx.starts_line()) {
        return None;
    }
    let unclosed = self::scan(cx.src, cx.src.len()).open;
    let &(at, open) = scan.open.iter().rev().find(|b| unclosed.contains(b))?;
    let line = cx.src[..at].matches('\n').count() + 1;
    Some(Advice {
        help: Some(format!(
            "add the missing `{}` to close the `{open}` on line {line}",
            closer(open)
        )),
        marks: vec![(at, at + 1, format!("this `{open}` is never closed"))],
        ..Advice::default()
    })
}

/// Python spellings of things grundy writes otherwise.
fn python_habits(cx: &Context, scan: &Scan) -> Option<Advice> {
    let statement = cx.statement(scan);
    let first = match cx.first_word(scan) {
        "" => cx.found,
        word => word,
    };
    let has_word = |w: &str| {
        statement
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|x| x == w)
    };
    match (first, cx.found) {
        ("def", _) => help("define a function with `fn name(params) = expression`"),
        _ if has_word("lambda") || cx.found == "lambda" => help(
            "grundy has no `lambda`: define a named function with `fn name(params) = expression`",
        ),
        ("return", _) => {
            help("a function's body is one expression, written after `=`; drop `return`")
        }
        ("for" | "while", _) => help(
            "there are no loops: build a list with a comprehension, `[f(x) for x in xs if ...]`",
        ),
        (_, "elif") => help("write `else if`"),
        (_, "&" | "|") if cx.before() == cx.found.chars().next() => help(format!(
            "write `{}`",
            if cx.found == "&" { "and" } else { "or" }
        )),
        (_, "/") if cx.before() == Some('/') => {
            help("`/` already divides integers rounding down, like Python's `//`")
        }
        (_, "//") => help("comments start with `#`"),
        (_, "!") => help("write `not` for negation; `!=` means not equal"),
        (_, ":") if has_word("if") || has_word("else") => {
            help("write a conditional as `if condition then a else b`, with no `:`")
        }
        _ => None,
    }
}

/// `=` where `==` was meant, or an assignment, which grundy does not have.
fn single_equals(cx: &Context, scan: &Scan) -> Option<Advice> {
    let first = cx.first_word(scan);
    let next = cx.src[cx.at + cx.found.len()..].trim_start();
    match cx.found {
        _ if cx.expects(Rule::binder) && is_name(cx.found) && next.starts_with('=') => {
            help("a binder is written `k in 1..=n`, with `in`")
        }
        "=" if cx.before() == Some('=') && (first == "let" || first == "fn") => {
            help(format!("`{first}` defines with a single `=`"))
        }
        "=" if cx.before() == Some('+') || cx.before() == Some('-') => {
            help("names cannot be updated: define a new one with `let`")
        }
        "=" if in_binders(cx, scan) => help("a binder is written `k in 1..=n`, with `in`"),
        "=" if is_name(cx.statement(scan).trim()) => {
            help("names are defined once, with `let name = ...`; to compare, write `==`")
        }
        "=" => help("to compare, write `==`; a single `=` only defines, in `let` and `fn`"),
        _ => None,
    }
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// True inside the binder list of a move: after `move name(` on the
/// same line, before any `->`.
fn in_binders(cx: &Context, scan: &Scan) -> bool {
    let line_start = cx.src[..cx.at].rfind('\n').map_or(0, |i| i + 1);
    let line = &cx.src[line_start..cx.at];
    line.trim_start().starts_with("move ")
        && !line.contains("->")
        && scan
            .open
            .last()
            .is_some_and(|(at, c)| *c == '(' && *at >= line_start)
}

/// A move rule missing its arrow, or with a guard after its target.
fn move_shape(cx: &Context, scan: &Scan) -> Option<Advice> {
    if cx.found == "=>" {
        return help("a move leads to its target with `->`");
    }
    if let (true, Some(&(at, '('))) = (cx.found == "->", scan.open.last()) {
        return Some(Advice {
            help: Some("close the binders with `)` before `->`".into()),
            marks: vec![(at, at + 1, "this `(` is not closed".into())],
            ..Advice::default()
        });
    }
    if cx.expects(Rule::arrow) {
        return help("a move is written `move name(k in ...) if guard -> target`");
    }
    let line_start = cx.src[..cx.at].rfind('\n').map_or(0, |i| i + 1);
    let line = &cx.src[line_start..cx.at];
    if cx.found == "if" && line.trim_start().starts_with("move ") && line.contains("->") {
        return help("a guard goes before the arrow: `move name(...) if guard -> target`");
    }
    None
}

/// Words used where they do not belong.
fn misplaced_words(cx: &Context, scan: &Scan) -> Option<Advice> {
    match cx.found {
        "move" if scan.open.is_empty() => {
            help("a move rule belongs inside a game's body: `game name(params) { move ... }`")
        }
        "{" if cx.first_word(scan) == "game" => {
            help("a game takes a parameter list, even an empty one: `game name() { ... }`")
        }
        _ if cx.expects(Rule::params) && cx.first_word(scan) == "game" => {
            help("a game is written `game name(params) { move ... }`")
        }
        _ => None,
    }
}

/// Strings are in double quotes and end on their line.
fn quotes(cx: &Context, _scan: &Scan) -> Option<Advice> {
    match cx.found {
        "'" => help("strings are written in double quotes: \"...\""),
        "\"" => help("this string is not closed: end it with `\"` on the same line"),
        _ => None,
    }
}

/// Two items side by side inside brackets, as in `[1, 2 3]`.
fn missing_comma(cx: &Context, scan: &Scan) -> Option<Advice> {
    scan.open.last()?;
    let starts_item = cx
        .found
        .starts_with(|c: char| c.is_alphanumeric() || "_\"([{".contains(c));
    let before = cx.src[..cx.at].trim_end();
    let ends_item = before.ends_with(|c: char| c.is_alphanumeric() || "_\")]}".contains(c));
    if starts_item && ends_item && !is_keyword(cx.found) {
        return help("a `,` may be missing before this");
    }
    None
}

fn is_keyword(word: &str) -> bool {
    super::KEYWORDS.contains(&word)
}
