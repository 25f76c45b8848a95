//! Habits brought from other languages, recognised where they stop the
//! parser: Python's `x if c else y` and f-strings, C's `c ? a : b`, a
//! block after `:` or in braces, a line continued after an operator. Each
//! is named in the error's message and answered with the grundy spelling,
//! computed from the text itself where it can be.

use super::Rule;
use super::hints::{Advice, Context, Scan};
use super::literal_len;

/// The first habit that fits the error, if any.
pub(super) fn advise(cx: &Context, scan: &Scan) -> Option<Advice> {
    let habits = [
        python_conditional,
        c_conditional,
        f_string,
        colon_block,
        braced_block,
        let_shape,
        trailing_operator,
    ];
    habits.iter().find_map(|habit| habit(cx, scan))
}

fn habit(message: String, label: &str, span: (usize, usize), help: String) -> Option<Advice> {
    Some(Advice {
        help: Some(help),
        message: Some(message),
        label: Some(label.into()),
        span: Some(span),
        marks: Vec::new(),
    })
}

/// `1 if n > 0 else 2`: the parser stops at the `if`.
fn python_conditional(cx: &Context, scan: &Scan) -> Option<Advice> {
    if cx.found != "if" {
        return None;
    }
    let start = expr_start(cx.src, scan.statement_start, cx.at);
    let end = expr_end(cx.src, cx.at);
    let otherwise = find_at_depth(cx.src, cx.at, end, |rest| word_at(rest, "else"))?;
    let then = cx.src[start..cx.at].trim();
    let cond = cx.src[cx.at + 2..otherwise].trim();
    let other = cx.src[otherwise + 4..end].trim();
    if then.is_empty() || cond.is_empty() {
        return None;
    }
    habit(
        "Python's conditional `a if c else b` is written `if c then a else b`".into(),
        "a Python conditional",
        (start, end),
        format!("write `if {cond} then {then} else {other}`"),
    )
}

/// `n > 0 ? 1 : 2`: the parser stops at the `?`.
fn c_conditional(cx: &Context, scan: &Scan) -> Option<Advice> {
    if cx.found != "?" {
        return None;
    }
    let start = expr_start(cx.src, scan.statement_start, cx.at);
    let end = expr_end(cx.src, cx.at);
    let cond = cx.src[start..cx.at].trim();
    let help = match find_at_depth(cx.src, cx.at, end, |rest| rest.starts_with(':')) {
        Some(colon) if !cond.is_empty() => format!(
            "write `if {cond} then {} else {}`",
            cx.src[cx.at + 1..colon].trim(),
            cx.src[colon + 1..end].trim()
        ),
        _ => "write `if condition then a else b`".into(),
    };
    habit(
        "C's conditional `c ? a : b` is written `if c then a else b`".into(),
        "a C conditional",
        (start, end),
        help,
    )
}

/// `f"n = {n}"`: the parser stops at the quote after the `f`.
fn f_string(cx: &Context, _scan: &Scan) -> Option<Advice> {
    let before = &cx.src[..cx.at];
    let prefix = before.strip_suffix(['f', 'F'])?;
    if cx.found != "\"" || prefix.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let len = literal_len(&cx.src[cx.at..])?;
    let text = &cx.src[cx.at..cx.at + len];
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let help = if inner.contains('{') {
        format!(
            "build the text with `+` and `str`: `{}`",
            concatenation(inner)
        )
    } else {
        format!("drop the `f`: `{text}`")
    };
    habit(
        "grundy has no f-strings: the `f` before this string is Python's".into(),
        "an f-string",
        (cx.at - 1, cx.at + len),
        help,
    )
}

/// An f-string's text as a concatenation: `n = {n}` becomes
/// `"n = " + str(n)`.
fn concatenation(inner: &str) -> String {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' | '}' if chars.peek() == Some(&c) => {
                chars.next();
                literal.push(c);
            }
            '{' => {
                let field: String = chars.by_ref().take_while(|&c| c != '}').collect();
                // A format spec or conversion (`{x:3}`, `{x!r}`) has no grundy form.
                let expr = field.split([':', '!']).next().unwrap_or("").trim();
                if !literal.is_empty() {
                    parts.push(format!("\"{}\"", std::mem::take(&mut literal)));
                }
                parts.push(format!("str({expr})"));
            }
            _ => literal.push(c),
        }
    }
    if !literal.is_empty() {
        parts.push(format!("\"{literal}\""));
    }
    parts.join(" + ")
}

/// `game g(n):` or `fn f(n):`, a Python block header.
fn colon_block(cx: &Context, scan: &Scan) -> Option<Advice> {
    if cx.found != ":" || !scan.open.is_empty() {
        return None;
    }
    let header = cx.statement(scan).trim();
    // Only straight after the parameters: `fn f(n) = if c: ...` is another slip.
    if !header.ends_with(')') || header.contains('=') {
        return None;
    }
    let (message, help) = match cx.first_word(scan) {
        "game" => (
            "a game's moves go in braces, not after `:`",
            format!("write `{header} {{ move ... }}`: inside the braces, moves may span lines"),
        ),
        "fn" => (
            "a function's body follows `=`, not `:`",
            format!("write `{header} = expression`"),
        ),
        _ => return None,
    };
    habit(message.into(), "a Python block", (cx.at, cx.at + 1), help)
}

/// `{ let m = n / 2; m + 1 }`, a block as in Rust or JavaScript.
fn braced_block(cx: &Context, scan: &Scan) -> Option<Advice> {
    let &(open, '{') = scan.open.last()? else {
        return None;
    };
    if !cx.expects(Rule::let_in) || !word_at(cx.src[open + 1..].trim_start(), "let") {
        return None;
    }
    let close = find_at_depth(cx.src, open + 1, cx.src.len(), |rest| rest.starts_with('}'))?;
    let parts = split_at_depth(&cx.src[open + 1..close], &[';', '\n']);
    let (last, lets) = parts.split_last()?;
    if last.starts_with("let") || !lets.iter().all(|p| word_at(p, "let")) {
        return None;
    }
    let mut rewrite: Vec<String> = lets.iter().map(|p| format!("{p} in")).collect();
    rewrite.push(last.to_string());
    habit(
        "a block `{ let ...; ... }` is not grundy syntax: braces make a set".into(),
        "a block",
        (open, close + 1),
        format!(
            "bind local names with `let ... in`: `{}`",
            rewrite.join(" ")
        ),
    )
}

/// A local `let` whose value ran on past where the `in` was meant.
fn let_shape(cx: &Context, _scan: &Scan) -> Option<Advice> {
    cx.expects(Rule::let_in).then(|| Advice {
        help: Some(
            "a local `let` is written `let name = value in body`; the value ends at the \
             first `in` outside brackets, so a value that ends with `if ... else ...` or \
             tests `in` goes in brackets: `let m = (if c then a else b) in ...`"
                .into(),
        ),
        ..Advice::default()
    })
}

/// `let x = 1 +` at the end of a line: the newline ended the statement.
fn trailing_operator(cx: &Context, scan: &Scan) -> Option<Advice> {
    if !(cx.found.is_empty() || cx.found.starts_with('\n')) || !scan.open.is_empty() {
        return None;
    }
    let text = cx.statement(scan).trim_end();
    const OPERATORS: [&str; 25] = [
        "..=", "**", "<<", ">>", "==", "!=", "<=", ">=", "..", "+", "-", "*", "/", "%", "|", "^",
        "&", "<", ">", "=", "~", "and", "or", "not", "in",
    ];
    let op = OPERATORS.iter().find(|op| {
        text.strip_suffix(**op).is_some_and(|rest| {
            !op.starts_with(char::is_alphabetic)
                || !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        })
    })?;
    let end = scan.statement_start + text.len();
    habit(
        format!("this line ends with `{op}`, but a newline ends the statement"),
        "the statement ends after this",
        (end - op.len(), end),
        "to go on on the next line, open a bracket before the expression and close it \
         after (inside brackets a newline is a space), or end this line with `\\`"
            .into(),
    )
}

/// Whether `text` starts with the whole word `word`.
fn word_at(text: &str, word: &str) -> bool {
    text.strip_prefix(word)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Where the expression that ends at `at` starts: after the innermost open
/// bracket, `,`, `=`, `->` or keyword that comes before it (scanning the
/// statement from `from`).
fn expr_start(src: &str, from: usize, at: usize) -> usize {
    let mut starts = vec![from];
    let mut i = from;
    while i < at {
        if let Some(len) = literal_len(&src[i..at]) {
            i += len;
            continue;
        }
        let rest = &src[i..at];
        let c = rest.chars().next().unwrap_or(' ');
        let prev = src[..i].chars().next_back().unwrap_or(' ');
        let last = starts.len() - 1;
        match c {
            '(' | '[' | '{' => starts.push(i + 1),
            ')' | ']' | '}' if last > 0 => {
                starts.pop();
            }
            ',' => starts[last] = i + 1,
            '=' if !rest[1..].starts_with('=') && !"=!<>".contains(prev) => starts[last] = i + 1,
            '-' if rest[1..].starts_with('>') => starts[last] = i + 2,
            _ if !(prev.is_alphanumeric() || prev == '_') => {
                for word in ["then", "else", "expect", "return"] {
                    if word_at(rest, word) {
                        starts[last] = i + word.len();
                    }
                }
            }
            _ => {}
        }
        i += c.len_utf8();
    }
    let start = starts[starts.len() - 1];
    start + (src[start..at].len() - src[start..at].trim_start().len())
}

/// Where the expression around `from` ends: at a `,`, `;`, newline,
/// comment or comprehension's `for` outside brackets, or at a bracket it
/// did not open.
fn expr_end(src: &str, from: usize) -> usize {
    let end = find_at_depth(src, from, src.len(), |rest| {
        rest.starts_with([',', ';', '\n', '#'])
            || rest.starts_with(' ') && word_at(rest.trim_start_matches(' '), "for")
    });
    let end = end.unwrap_or(src.len());
    from + src[from..end].trim_end().len()
}

/// The first place in `src[from..until]` outside brackets opened there
/// where `hit` holds, or where an unopened closing bracket stands.
fn find_at_depth(
    src: &str,
    from: usize,
    until: usize,
    hit: impl Fn(&str) -> bool,
) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = from;
    while i < until {
        let rest = &src[i..until];
        if depth == 0 && hit(rest) {
            return Some(i);
        }
        if let Some(len) = literal_len(rest) {
            i += len;
            continue;
        }
        let c = rest.chars().next()?;
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return Some(i),
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        i += c.len_utf8();
    }
    None
}

/// `text` split at each of `seps` outside brackets, each part trimmed,
/// empty ones dropped.
fn split_at_depth<'a>(text: &'a str, seps: &[char]) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let mut from = 0;
    while let Some(at) = find_at_depth(text, from, text.len(), |rest| rest.starts_with(seps)) {
        parts.push(text[from..at].trim());
        from = at + 1;
        if from > text.len() {
            break;
        }
    }
    parts.push(text[from..].trim());
    parts.retain(|p| !p.is_empty());
    parts
}
