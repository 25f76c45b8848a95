//! Diagnostics: every phase reports problems as [`Diagnostic`] values, and
//! this module renders them with ariadne against the [`Sources`] the session
//! has loaded. Nothing here decides *what* is wrong; it only shows it.

use crate::span::{FileId, Span};
use ariadne::{Config, IndexType, Label, Report, ReportKind, Source};
use rustc_hash::FxHashMap;
use std::fmt;
use std::rc::Rc;

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
        let text = self.text(span.file);
        let before = &text[..(span.start as usize).min(text.len())];
        let line = before.matches('\n').count() + 1 + self.files[span.file.0 as usize].2;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{}:{line}:{col}", self.name(span.file))
    }

    /// Renders one diagnostic as ariadne draws it (colored or not).
    pub fn render(&self, diag: &Diagnostic, color: bool) -> String {
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
        let text = String::from_utf8_lossy(&out).into_owned();
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

/// The sources as one diagnostic shows them. A piece of a larger text
/// (see [`Sources::add_at`]) is drawn behind as many blank lines as come
/// before it, with its spans moved past them, so that every line number
/// ariadne prints is the line's number in the whole. (ariadne's own
/// display offset numbers the heading but not the margin.) The padding is
/// built only here, for the pieces this diagnostic points into.
struct View<'a> {
    sources: &'a Sources,
    padded: FxHashMap<FileId, Source<Rc<str>>>,
}

impl<'a> View<'a> {
    fn new(sources: &'a Sources, diag: &Diagnostic) -> Self {
        let mut padded = FxHashMap::default();
        let spans = diag.span.iter().chain(diag.extra.iter().map(|(s, _)| s));
        for span in spans {
            let (_, source, offset) = &sources.files[span.file.0 as usize];
            if *offset > 0 && !padded.contains_key(&span.file) {
                let text = format!("{}{}", "\n".repeat(*offset), source.text());
                padded.insert(span.file, Source::from(Rc::from(text)));
            }
        }
        View { sources, padded }
    }

    fn shift(&self, span: Span) -> Span {
        let offset = self.sources.files[span.file.0 as usize].2 as u32;
        Span {
            start: span.start + offset,
            end: span.end + offset,
            ..span
        }
    }
}

impl ariadne::Cache<FileId> for &View<'_> {
    type Storage = Rc<str>;

    fn fetch(&mut self, id: &FileId) -> Result<&Source<Rc<str>>, impl fmt::Debug> {
        if let Some(source) = self.padded.get(id) {
            return Ok(source);
        }
        self.sources
            .files
            .get(id.0 as usize)
            .map(|(_, source, _)| source)
            .ok_or("unknown file")
    }

    fn display<'b>(&self, id: &'b FileId) -> Option<impl fmt::Display + 'b> {
        self.sources
            .files
            .get(id.0 as usize)
            .map(|(name, _, _)| name.clone())
    }
}
