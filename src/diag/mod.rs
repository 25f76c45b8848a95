//! Diagnostics: every phase reports problems as [`Diagnostic`] values, and
//! this module renders them with ariadne against the [`Sources`] the session
//! has loaded. Nothing here decides *what* is wrong; it only shows it.

mod view;

use crate::span::{FileId, Span};
use ariadne::{Config, IndexType, Label, Report, ReportKind, Source};
use std::fmt;
use std::rc::Rc;
use view::View;

/// Which phase found the problem; it decides the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The text does not follow the grammar.
    Syntax,
    /// Names, arity and scope problems found before anything runs.
    Check,
    /// A problem met while evaluating (overflow, wrong type, cycle, ...).
    Runtime,
    /// A configured limit (`--max-states`, recursion depth) was exceeded.
    Limit,
    /// An `expect` statement evaluated to false.
    Expect,
    /// The user pressed Ctrl-C while an evaluation ran (in the REPL).
    Interrupted,
}

/// One problem, with where it is and what may help.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub phase: Phase,
    pub message: String,
    /// The primary location and its label text.
    pub span: Option<Span>,
    pub label: String,
    /// Further locations worth showing.
    pub extra: Vec<(Span, String)>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(phase: Phase, message: impl Into<String>) -> Self {
        Diagnostic {
            phase,
            message: message.into(),
            span: None,
            label: String::new(),
            extra: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn at(mut self, span: Span, label: impl Into<String>) -> Self {
        self.span = Some(span);
        self.label = label.into();
        self
    }

    pub fn also(mut self, span: Span, label: impl Into<String>) -> Self {
        self.extra.push((span, label.into()));
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl Diagnostic {
    /// The diagnostic with every text cut to a readable length: a value
    /// shown in a label can be a list of millions of items.
    pub fn clipped(&self) -> Diagnostic {
        Diagnostic {
            message: clip(&self.message),
            label: clip(&self.label),
            extra: self.extra.iter().map(|(s, t)| (*s, clip(t))).collect(),
            notes: self.notes.iter().map(|n| clip(n)).collect(),
            help: self.help.as_deref().map(clip),
            ..self.clone()
        }
    }
}

/// Texts longer than this many characters lose their middle.
const MAX_TEXT: usize = 300;

fn clip(text: &str) -> String {
    let count = text.chars().count();
    if count <= MAX_TEXT {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_TEXT * 2 / 3).collect();
    let tail: String = text.chars().skip(count - MAX_TEXT / 4).collect();
    format!(
        "{head} … ({} characters left out) … {tail}",
        count - head.chars().count() - MAX_TEXT / 4
    )
}

impl fmt::Display for Diagnostic {
    /// A one-line form, for tests and for places without sources.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

/// `1 argument`, `2 arguments`: a count with its noun, for messages.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The texts of every source loaded in a session, indexed by [`FileId`].
#[derive(Default)]
pub struct Sources {
    /// Name, text, and the line number of the text's first line less one.
    files: Vec<(String, Source<Rc<str>>, usize)>,
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Rc<str>>) -> FileId {
        self.add_at(name, text, 1)
    }

    /// A source that is a piece of a larger text starting at `first_line`
    /// (1-based), such as a statement read from a pipe: diagnostics number
    /// its lines as they are in the whole.
    pub fn add_at(
        &mut self,
        name: impl Into<String>,
        text: impl Into<Rc<str>>,
        first_line: usize,
    ) -> FileId {
        let offset = first_line.saturating_sub(1);
        self.files
            .push((name.into(), Source::from(text.into()), offset));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn name(&self, file: FileId) -> &str {
        &self.files[file.0 as usize].0
    }

    pub fn text(&self, file: FileId) -> &str {
        self.files[file.0 as usize].1.text()
    }

    /// `file:line:col` (1-based) of a span's start, for one-line messages.
    pub fn location(&self, span: Span) -> String {
        let (line, col) = self.line_col(span.file, span.start as usize);
        format!("{}:{line}:{col}", self.name(span.file))
    }

    /// The line and column (1-based, in characters) of a byte offset, with
    /// the lines of the whole text a piece is part of (see [`Sources::add_at`]).
    pub fn line_col(&self, file: FileId, offset: usize) -> (usize, usize) {
        let text = self.text(file);
        let before = &text[..offset.min(text.len())];
        let line = before.matches('\n').count() + 1 + self.files[file.0 as usize].2;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// Renders one diagnostic as ariadne draws it (colored or not).
    pub fn render(&self, diag: &Diagnostic, color: bool) -> String {
        let diag = &diag.clipped();
        let mut out = Vec::new();
        let kind = match diag.phase {
            Phase::Expect => ReportKind::Custom("expectation failed", ariadne::Color::Red),
            Phase::Interrupted => ReportKind::Custom("Interrupted", ariadne::Color::Yellow),
            _ => ReportKind::Error,
        };
        let config = Config::default()
            .with_index_type(IndexType::Byte)
            .with_color(color);
        let view = View::new(self, diag);
        match diag.span {
            Some(span) => {
                let mut report = Report::build(kind, view.shift(span))
                    .with_config(config)
                    .with_message(&diag.message);
                // ariadne starts a new snippet whenever a label is above the
                // one before it, so labels go in source order.
                let mut labels: Vec<(Span, &str)> = vec![(span, &diag.label)];
                labels.extend(diag.extra.iter().map(|(s, t)| (*s, t.as_str())));
                labels.sort_by_key(|(s, _)| (s.file, s.start));
                for (span, text) in labels {
                    report.add_label(label(view.shift(span), text, color));
                }
                for note in &diag.notes {
                    report.add_note(note);
                }
                if let Some(help) = &diag.help {
                    report.set_help(help);
                }
                report
                    .finish()
                    .write(&view, &mut out)
                    .expect("writing a report to memory cannot fail");
            }
            None => {
                let head = match diag.phase {
                    Phase::Expect => "expectation failed",
                    Phase::Interrupted => "Interrupted",
                    _ => "Error",
                };
                out.extend(format!("{head}: {}\n", diag.message).bytes());
                for note in &diag.notes {
                    out.extend(format!("  = note: {note}\n").bytes());
                }
                if let Some(help) = &diag.help {
                    out.extend(format!("  = help: {help}\n").bytes());
                }
            }
        }
        let mut text = String::from_utf8_lossy(&out).into_owned();
        if let Some(span) = diag.span {
            text = view.fix_heading(text, self, span);
        }
        if color { text } else { strip_ansi(&text) }
    }
}

/// ariadne colors custom report kinds even when colors are off.
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Skip `ESC [ ... letter`.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn label(span: Span, text: &str, color: bool) -> Label<Span> {
    let label = Label::new(span).with_message(text);
    if color {
        label.with_color(ariadne::Color::Red)
    } else {
        label
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str, first_line: usize, spans: &[(usize, usize)]) -> String {
        let mut sources = Sources::default();
        let file = sources.add_at("f.game", text, first_line);
        let at = |(s, e): (usize, usize)| Span::new(file, s, e);
        let mut diag = Diagnostic::new(Phase::Runtime, "boom").at(at(spans[0]), "here");
        for &s in &spans[1..] {
            diag = diag.also(at(s), "and here");
        }
        sources.render(&diag, false)
    }

    #[test]
    fn a_long_line_is_clipped_around_the_spans_with_the_true_column() {
        let text = format!(
            "let x = 1\n{}y{}z{}\n",
            "a".repeat(5000),
            "b".repeat(5000),
            "c".repeat(500)
        );
        let y = text.find('y').unwrap();
        let z = text.find('z').unwrap();
        let shown = render(&text, 1, &[(y, y + 1), (z, z + 1)]);
        assert!(shown.contains("[ f.game:2:5001 ]"), "{shown}");
        assert!(shown.lines().all(|l| l.chars().count() < 250), "{shown}");
        // Both places are drawn, each with its neighbourhood and a `…` for
        // what is left out in between.
        let line = shown.lines().find(|l| l.contains('y')).unwrap();
        assert!(line.contains("aaay") && line.contains("zccc"), "{line}");
        assert_eq!(line.matches('…').count(), 3, "{line}");
    }

    #[test]
    fn a_piece_of_a_larger_text_keeps_its_line_numbers() {
        let shown = render("1 +\n2 + x", 41, &[(8, 9)]);
        assert!(shown.contains("[ f.game:42:5 ]"), "{shown}");
        assert!(shown.contains(" 42 │ 2 + x"), "{shown}");
    }

    #[test]
    fn a_long_label_loses_its_middle() {
        let mut sources = Sources::default();
        let file = sources.add("f.game", "xs");
        let long = format!("this is [{}]", "7, ".repeat(10_000));
        let diag = Diagnostic::new(Phase::Runtime, "boom").at(Span::new(file, 0, 2), long);
        let shown = sources.render(&diag, false);
        assert!(shown.contains("this is [7, 7"), "{shown}");
        assert!(shown.contains("(29735 characters left out)"), "{shown}");
        assert!(shown.len() < 1500, "{shown}");
    }

    #[test]
    fn short_lines_are_drawn_whole() {
        let shown = render("let x = y\n", 1, &[(8, 9)]);
        assert!(shown.contains(" 1 │ let x = y\n"), "{shown}");
        assert!(!shown.contains('…'), "{shown}");
    }
}
