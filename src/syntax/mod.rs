//! Phase 1: source text in, syntax tree out.
//!
//! The pest grammar (`grammar/grundy.pest`) recognises the text; this module
//! turns pest's pairs into the [`ast`] with byte spans, resolves operator
//! precedence with a Pratt parser, and turns pest's errors into diagnostics
//! worded in the language's own terms.

pub mod ast;
mod build;
mod habits;
mod hints;

use crate::diag::{Diagnostic, Phase};
use crate::span::{FileId, Span};
use ast::*;
use pest::Parser as _;

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
    let mut builder = build::Builder {
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

/// How deeply brackets, `if`s and `let`s may nest in one statement.
pub const MAX_NESTING: usize = 256;

/// How deeply an expression's syntax tree may nest, counting each operator
/// of a chain such as `a + b + c` as a level.
pub const MAX_EXPR_DEPTH: usize = 10_000;

/// Where the nesting of brackets, `if`s and `let`s first goes past [`MAX_NESTING`],
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
                    // A `let` nests as an `if` does, unless it is a
                    // top-level definition.
                    "let" if !starts_statement(&src[..start], &opened) => level += 1,
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

/// Whether a word after `before` starts a statement (outside brackets).
fn starts_statement(before: &str, opened: &[usize]) -> bool {
    let line = before.rsplit('\n').next().unwrap_or("");
    opened.is_empty() && matches!(line.trim_end().chars().last(), None | Some(';'))
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
        format!("brackets, `if`s and `let`s nest more than {MAX_NESTING} levels deep"),
    )
    .at(span, "this is one level too deep")
    .help("give the inner parts names with `let` or `fn`")
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
        expr | expr_stmt | if_expr | let_expr | let_value | int | string | true_lit | false_lit
        | paren | list | set | not_op | neg_op | bnot_op | heap_op => "an expression",
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
        let_in => "`in`",
        fn_eq => "`=` and the function's body",
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
    let advice = hints::advise(&hints::Context {
        src,
        at: start,
        found: token_at(&src[start..]),
        expected: positives,
    });
    // A habit from another language is named in the message itself, and
    // marked where it is written.
    let message = advice
        .message
        .clone()
        .unwrap_or_else(|| format!("syntax error: unexpected {found}"));
    let span = advice
        .span
        .map_or(span, |(start, end)| Span::new(file, start, end));
    let label = advice.label.clone().unwrap_or(label);
    let mut diag = Diagnostic::new(Phase::Syntax, message).at(span, label);
    for (start, end, text) in advice.marks {
        diag = diag.also(Span::new(file, start, end), text);
    }
    diag.help = advice.help;
    diag
}

#[cfg(test)]
mod tests;
