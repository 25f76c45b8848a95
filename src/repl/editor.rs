//! Line editing for the REPL: the rustyline helper that completes,
//! highlights, hints and decides when an entry is complete, and where the
//! history file lives.

use super::commands::COMMANDS;
use crate::builtins::Builtin;
use crate::syntax::{KEYWORDS, is_incomplete, literal_len};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Cmd, ConditionalEventHandler, Context, Event, EventContext, RepeatCount};
use std::borrow::Cow;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// The prompt of a new entry.
pub const PROMPT: &str = "grundy> ";
/// What a continuation line shows, as wide as [`PROMPT`].
pub const CONTINUATION: &str = "   ...> ";
/// What Enter inserts after the newline of an incomplete entry: blanks as
/// wide as [`PROMPT`], which the highlighter draws as [`CONTINUATION`]
/// (rustyline has no continuation prompt of its own) and the REPL removes
/// before running the entry.
pub const INDENT: &str = "        ";

/// The environment variable that names the history file; empty turns
/// history off.
pub const HISTORY_VAR: &str = "GRUNDY_HISTORY";

/// Where history is kept: `$GRUNDY_HISTORY`, else `grundy/history` in the
/// user's data directory (e.g. `~/.local/share` on Linux).
pub fn history_path() -> Option<PathBuf> {
    match std::env::var_os(HISTORY_VAR) {
        Some(path) if path.is_empty() => None,
        Some(path) => Some(PathBuf::from(path)),
        None => dirs::data_dir().map(|d| d.join("grundy").join("history")),
    }
}

/// True when an entry can run as it stands: a command, or text the parser
/// does not find cut short.
pub fn entry_is_complete(text: &str) -> bool {
    text.trim_start().starts_with(':') || !is_incomplete(text)
}

/// Takes the continuation blanks back out of an entry typed over several lines.
pub fn strip_continuations(text: &str) -> String {
    text.replace(&format!("\n{INDENT}"), "\n")
}

pub struct GrundyHelper {
    /// The names defined so far in the session, refreshed after each entry.
    pub names: Rc<RefCell<Vec<String>>>,
    pub color: bool,
    files: FilenameCompleter,
    hints: HistoryHinter,
}

impl GrundyHelper {
    pub fn new(names: Rc<RefCell<Vec<String>>>, color: bool) -> Self {
        GrundyHelper {
            names,
            color,
            files: FilenameCompleter::new(),
            hints: HistoryHinter::new(),
        }
    }
}

impl rustyline::Helper for GrundyHelper {}

impl Validator for GrundyHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if entry_is_complete(ctx.input()) {
            ValidationResult::Valid(None)
        } else {
            ValidationResult::Incomplete
        })
    }
}

/// Enter at the end of an incomplete entry opens a continuation line.
/// Elsewhere it does what it always does (and the validator decides).
pub struct ContinueLine;

impl ConditionalEventHandler for ContinueLine {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        let line = ctx.line();
        if ctx.pos() == line.len() && !entry_is_complete(line) {
            Some(Cmd::Insert(1, format!("\n{INDENT}")))
        } else {
            None
        }
    }
}

/// A character of a name or a number.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier-like word that ends at `pos`, and where it starts.
fn word_before(line: &str, pos: usize) -> (usize, &str) {
    let start = line[..pos]
        .rfind(|c: char| !is_word(c))
        .map_or(0, |i| i + 1);
    (start, &line[start..pos])
}

fn pairs<'a>(words: impl Iterator<Item = &'a str>, prefix: &str) -> Vec<Pair> {
    let mut found: Vec<&str> = words.filter(|w| w.starts_with(prefix)).collect();
    found.sort_unstable();
    found.dedup();
    found
        .into_iter()
        .map(|w| Pair {
            display: w.to_string(),
            replacement: w.to_string(),
        })
        .collect()
}

impl Completer for GrundyHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let entry = line.trim_start();
        let indent = line.len() - entry.len();
        if let Some(command) = entry.strip_prefix(':') {
            match command.split_once(char::is_whitespace) {
                // The command's own name.
                None => {
                    let names = COMMANDS.iter().map(|c| c.name);
                    let typed = &line[indent + 1..pos];
                    return Ok((indent + 1, pairs(names, typed)));
                }
                Some(("load", _)) => return self.files.complete(line, pos, ctx),
                Some(_) => {}
            }
        }
        let (start, word) = word_before(line, pos);
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
            return Ok((pos, Vec::new()));
        }
        let names = self.names.borrow();
        let words = KEYWORDS
            .into_iter()
            .chain(Builtin::ALL.iter().map(|b| b.name()))
            .chain(names.iter().map(String::as_str));
        Ok((start, pairs(words, word)))
    }
}

impl Hinter for GrundyHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        self.hints.hint(line, pos, ctx)
    }
}

impl Highlighter for GrundyHelper {
    fn highlight<'l>(&self, line: &'l str, pos: usize) -> Cow<'l, str> {
        if !self.color {
            return Cow::Borrowed(line);
        }
        Cow::Owned(highlight(line, pos))
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        default: bool,
    ) -> Cow<'b, str> {
        if self.color && default {
            Cow::Owned(format!("{BOLD_GREEN}{prompt}{RESET}"))
        } else {
            Cow::Borrowed(prompt)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("{DIM}{hint}{RESET}"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, kind: CmdKind) -> bool {
        // Redraw on every key and cursor move, so the bracket that matches
        // the one at the cursor is always the one marked.
        self.color && kind != CmdKind::ForcedRefresh
    }
}

const RESET: &str = "\x1b[0m";
const DIM: &str = "\x1b[2m";
const BOLD_GREEN: &str = "\x1b[1;32m";
const KEYWORD: &str = "\x1b[1;35m";
const BUILTIN: &str = "\x1b[36m";
const NUMBER: &str = "\x1b[33m";
const STRING: &str = "\x1b[32m";
const COMMAND: &str = "\x1b[1;34m";
const BRACKET: &str = "\x1b[1;4;33m";

/// The classes of text the highlighter colors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Plain,
    Keyword,
    Builtin,
    Number,
    String,
    Comment,
    Command,
    /// The blanks that stand for a continuation prompt.
    Continuation,
}

/// Splits an entry into classed pieces that cover it exactly, left to right.
pub fn classify(text: &str) -> Vec<(Class, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let rest = &text[i..];
        let c = bytes[i];
        let (class, len) = if line_start && i > 0 && rest.starts_with(INDENT) {
            (Class::Continuation, INDENT.len())
        } else if c == b':' && text[..i].trim().is_empty() {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (Class::Command, end)
        } else if let Some(len) = literal_len(rest) {
            let class = if c == b'#' {
                Class::Comment
            } else {
                Class::String
            };
            (class, len)
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let end = rest.find(|ch: char| !is_word(ch)).unwrap_or(rest.len());
            let word = &rest[..end];
            let class = if c.is_ascii_digit() {
                Class::Number
            } else if KEYWORDS.contains(&word) {
                Class::Keyword
            } else if Builtin::from_name(word).is_some() {
                Class::Builtin
            } else {
                Class::Plain
            };
            (class, end)
        } else {
            (Class::Plain, rest.chars().next().map_or(1, char::len_utf8))
        };
        line_start = c == b'\n';
        out.push((class, &text[i..i + len]));
        i += len;
    }
    out
}

/// Where the bracket that matches the one at or just before the cursor is.
pub fn matching_bracket(text: &str, pos: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let at = [pos, pos.wrapping_sub(1)]
        .into_iter()
        .find(|&i| i < bytes.len() && b"()[]{}".contains(&bytes[i]))?;
    // Brackets inside strings and comments do not count.
    let mut code = vec![false; bytes.len()];
    let mut offset = 0;
    for (class, piece) in classify(text) {
        if !matches!(class, Class::String | Class::Comment) {
            code[offset..offset + piece.len()].fill(true);
        }
        offset += piece.len();
    }
    if !code[at] {
        return None;
    }
    let (open, close, forward) = match bytes[at] {
        b'(' => (b'(', b')', true),
        b'[' => (b'[', b']', true),
        b'{' => (b'{', b'}', true),
        b')' => (b'(', b')', false),
        b']' => (b'[', b']', false),
        _ => (b'{', b'}', false),
    };
    let mut depth = 0i32;
    let indices: Box<dyn Iterator<Item = usize>> = if forward {
        Box::new(at..bytes.len())
    } else {
        Box::new((0..=at).rev())
    };
    for i in indices {
        if !code[i] {
            continue;
        }
        let b = bytes[i];
        if b == open {
            depth += if forward { 1 } else { -1 };
        } else if b == close {
            depth += if forward { -1 } else { 1 };
        }
        if depth == 0 {
            return Some(i);
        }
    }
    None
}

/// The entry with ANSI colors; it prints as wide as the plain text.
fn highlight(text: &str, pos: usize) -> String {
    let bracket = matching_bracket(text, pos);
    let mut out = String::with_capacity(text.len() * 2);
    let mut offset = 0;
    for (class, piece) in classify(text) {
        let style = match class {
            Class::Plain => "",
            Class::Keyword => KEYWORD,
            Class::Builtin => BUILTIN,
            Class::Number => NUMBER,
            Class::String => STRING,
            Class::Comment | Class::Continuation => DIM,
            Class::Command => COMMAND,
        };
        let shown = if class == Class::Continuation {
            CONTINUATION
        } else {
            piece
        };
        match bracket {
            Some(b) if (offset..offset + piece.len()).contains(&b) => {
                let local = b - offset;
                out.push_str(&format!(
                    "{style}{}{RESET}{BRACKET}{}{RESET}{style}{}{RESET}",
                    &piece[..local],
                    &piece[local..local + 1],
                    &piece[local + 1..]
                ));
            }
            _ if style.is_empty() => out.push_str(shown),
            _ => out.push_str(&format!("{style}{shown}{RESET}")),
        }
        offset += piece.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_covers_the_text_and_names_each_piece() {
        let text = "let x = value(nim(12)) # a \"comment\"\n        \"s(\" and 3";
        let pieces = classify(text);
        assert_eq!(pieces.iter().map(|p| p.1).collect::<String>(), text);
        let of = |s: &str| pieces.iter().find(|p| p.1 == s).map(|p| p.0);
        assert_eq!(of("let"), Some(Class::Keyword));
        assert_eq!(of("value"), Some(Class::Builtin));
        assert_eq!(of("nim"), Some(Class::Plain));
        assert_eq!(of("12"), Some(Class::Number));
        assert_eq!(of("# a \"comment\""), Some(Class::Comment));
        assert_eq!(of(INDENT), Some(Class::Continuation));
        assert_eq!(of("\"s(\""), Some(Class::String));
        assert_eq!(of("and"), Some(Class::Keyword));
        assert_eq!(classify(":load a.game")[0], (Class::Command, ":load"));
    }

    #[test]
    fn the_matching_bracket_skips_strings_and_nesting() {
        let text = "f(\")\", [1, (2)])";
        assert_eq!(matching_bracket(text, 1), Some(text.len() - 1));
        assert_eq!(matching_bracket(text, text.len()), Some(1));
        assert_eq!(matching_bracket(text, 7), Some(14));
        assert_eq!(matching_bracket(text, 3), None, "inside a string");
        assert_eq!(matching_bracket("(1", 0), None, "unclosed");
        assert_eq!(matching_bracket("abc", 1), None);
    }

    #[test]
    fn highlighting_keeps_the_width_of_the_text() {
        let text = "game g(n) {\n        move m(k in 1..=n) -> g(n - k) # x\n}";
        let shown = highlight(text, 10);
        let plain: String = {
            let mut out = String::new();
            let mut chars = shown.chars();
            while let Some(c) = chars.next() {
                if c == '\x1b' {
                    chars.by_ref().find(|c| c.is_ascii_alphabetic());
                } else {
                    out.push(c);
                }
            }
            out
        };
        assert_eq!(
            plain,
            text.replace(&format!("\n{INDENT}"), &format!("\n{CONTINUATION}"))
        );
        assert!(shown.contains(&format!("{BRACKET}}}")), "{shown:?}");
    }

    #[test]
    fn an_entry_is_complete_when_the_parser_says_so() {
        assert!(entry_is_complete("value(nim(3))"));
        assert!(!entry_is_complete("game g(n) {"));
        assert!(!entry_is_complete("value(nim(3)"));
        assert!(!entry_is_complete("[1, 2,"));
        assert!(entry_is_complete(":load (unbalanced"));
        assert!(
            entry_is_complete("value(nim(3)))"),
            "an error, not more input"
        );
        assert_eq!(
            strip_continuations(&format!("game g(n) {{\n{INDENT}  move m -> 0\n{INDENT}}}")),
            "game g(n) {\n  move m -> 0\n}"
        );
    }

    #[test]
    fn the_word_before_the_cursor_is_what_completes() {
        assert_eq!(word_before("value(ka", 8), (6, "ka"));
        assert_eq!(word_before("val", 3), (0, "val"));
        assert_eq!(word_before("f(x) ", 5), (5, ""));
    }
}
