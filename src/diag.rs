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

/// Source lines longer than this many bytes are shown clipped to the
/// places a diagnostic points at, with [`CONTEXT`] bytes on each side.
const MAX_SHOWN_LINE: usize = 160;
const CONTEXT: usize = 40;

/// The sources as one diagnostic shows them. A piece of a larger text
/// (see [`Sources::add_at`]) is drawn behind as many blank lines as come
/// before it, so that every line number ariadne prints is the line's
/// number in the whole (ariadne's own display offset numbers the heading
/// but not the margin). A very long line is cut down to the parts around
/// the diagnostic's spans, with `…` for what is left out. Spans move to
/// match; only the files this diagnostic points into are redrawn.
struct View<'a> {
    sources: &'a Sources,
    shown: FxHashMap<FileId, Shown>,
}

/// A redrawn source: its text, and how the original maps onto it.
struct Shown {
    source: Source<Rc<str>>,
    /// Consecutive pieces of the original, covering all of it: (start in
    /// the original, start in the new text, kept). A piece not kept is
    /// drawn as one `…`.
    pieces: Vec<(usize, usize, bool)>,
}

impl Shown {
    /// `points` are the offsets the diagnostic's spans start and end at.
    fn new(text: &str, offset: usize, points: &[usize]) -> Option<Shown> {
        let long = text.split('\n').any(|l| l.len() > MAX_SHOWN_LINE);
        if offset == 0 && !long {
            return None;
        }
        let mut shown = Shown {
            source: Source::from(Rc::from("")),
            pieces: Vec::new(),
        };
        let mut out = "\n".repeat(offset);
        let mut at = 0;
        let mut piece = |out: &mut String, start: usize, end: usize, keep: bool| {
            shown.pieces.push((start, out.len(), keep));
            out.push_str(if keep { &text[start..end] } else { "…" });
        };
        for line in text.split_inclusive('\n') {
            let end = at + line.trim_end_matches('\n').len();
            let mut cursor = at;
            for (a, b) in windows(text, at, end, points) {
                if a > cursor {
                    piece(&mut out, cursor, a, false);
                }
                piece(&mut out, a, b, true);
                cursor = b;
            }
            if cursor < end {
                piece(&mut out, cursor, end, false);
            }
            piece(&mut out, end, at + line.len(), true);
            at += line.len();
        }
        shown.source = Source::from(Rc::from(out));
        Some(shown)
    }

    /// Where an offset of the original is in the redrawn text; a place
    /// that was cut out is where its `…` is.
    fn map(&self, at: usize) -> usize {
        let i = self.pieces.partition_point(|p| p.0 <= at);
        match i.checked_sub(1).map(|i| self.pieces[i]) {
            Some((start, to, true)) => to + (at - start),
            Some((_, to, false)) => to,
            None => self.pieces.first().map_or(0, |p| p.1),
        }
    }
}

/// The parts of the line `start..end` of `text` to show: all of it if it
/// is short, else the neighbourhoods of `points` (or its beginning).
fn windows(text: &str, start: usize, end: usize, points: &[usize]) -> Vec<(usize, usize)> {
    if end - start <= MAX_SHOWN_LINE {
        return vec![(start, end)];
    }
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let ceil = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let mut near: Vec<usize> = points
        .iter()
        .copied()
        .filter(|p| (start..=end).contains(p))
        .collect();
    if near.is_empty() {
        near.push(start);
    }
    near.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for p in near {
        let a = floor(p.saturating_sub(CONTEXT).max(start));
        let b = ceil((p + CONTEXT).min(end));
        match out.last_mut() {
            Some(last) if a <= last.1 + 3 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

impl<'a> View<'a> {
    fn new(sources: &'a Sources, diag: &Diagnostic) -> Self {
        let mut shown = FxHashMap::default();
        let spans: Vec<Span> = diag
            .span
            .iter()
            .chain(diag.extra.iter().map(|(s, _)| s))
            .copied()
            .collect();
        for span in &spans {
            if shown.contains_key(&span.file) {
                continue;
            }
            let (_, source, offset) = &sources.files[span.file.0 as usize];
            let points: Vec<usize> = spans
                .iter()
                .filter(|s| s.file == span.file)
                .flat_map(|s| [s.start as usize, s.end as usize])
                .collect();
            if let Some(redrawn) = Shown::new(source.text(), *offset, &points) {
                shown.insert(span.file, redrawn);
            }
        }
        View { sources, shown }
    }

    fn shift(&self, span: Span) -> Span {
        match self.shown.get(&span.file) {
            Some(shown) => Span {
                start: shown.map(span.start as usize) as u32,
                end: shown.map(span.end as usize) as u32,
                ..span
            },
            None => span,
        }
    }

    /// The heading ariadne draws, `[ name:line:col ]`, counts columns in
    /// the redrawn line; this puts back the column in the real one.
    fn fix_heading(&self, text: String, sources: &Sources, span: Span) -> String {
        let Some(shown) = self.shown.get(&span.file) else {
            return text;
        };
        let drawn = shown.source.text();
        let at = self.shift(span).start as usize;
        let before = &drawn[..at.min(drawn.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let name = sources.name(span.file);
        text.replacen(
            &format!("[ {name}:{line}:{col} ]"),
            &format!("[ {} ]", sources.location(span)),
            1,
        )
    }
}

impl ariadne::Cache<FileId> for &View<'_> {
    type Storage = Rc<str>;

    fn fetch(&mut self, id: &FileId) -> Result<&Source<Rc<str>>, impl fmt::Debug> {
        if let Some(shown) = self.shown.get(id) {
            return Ok(&shown.source);
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
