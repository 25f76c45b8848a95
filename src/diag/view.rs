//! The sources as one diagnostic draws them: a piece of a larger text
//! behind the blank lines that keep its line numbers, and a very long
//! line cut down to the places the diagnostic points at, with the spans
//! moved to match.

use super::{Diagnostic, Sources};
use crate::span::{FileId, Span};
use ariadne::Source;
use rustc_hash::FxHashMap;
use std::fmt;
use std::rc::Rc;

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
pub(super) struct View<'a> {
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
    pub(super) fn new(sources: &'a Sources, diag: &Diagnostic) -> Self {
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

    pub(super) fn shift(&self, span: Span) -> Span {
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
    pub(super) fn fix_heading(&self, text: String, sources: &Sources, span: Span) -> String {
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
