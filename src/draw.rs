//! The `grundy graph` and `grundy plot` commands, after their files are
//! loaded: the expression typed is evaluated in the session, drawn by
//! [`crate::render`] and written where `-o` says (a graph without `-o`
//! goes to standard output as DOT). Mistakes in what was typed are
//! diagnostics, as in `grundy eval`; a file that cannot be written, or a
//! Graphviz that is not installed, is a usage error.

use crate::render::dot::{self, TransitionGraph};
use crate::render::{Format, plot};
use crate::runtime::transitions::Bounds;
use crate::session::{Outcome, Session, exit};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `grundy graph` was asked to draw.
pub struct GraphRequest {
    /// The position, e.g. `kayles(4) + kayles(2)`.
    pub expr: String,
    /// `.dot`, `.svg` or `.png`; standard output (DOT) if none.
    pub output: Option<PathBuf>,
    pub bounds: Bounds,
}

/// What `grundy plot` was asked to draw.
pub struct PlotRequest {
    /// The game, e.g. `kayles`.
    pub game: String,
    /// The values of its parameter, e.g. `0..=100`.
    pub range: String,
    /// `.svg` or `.png`.
    pub output: PathBuf,
    pub size: (u32, u32),
}

/// A usage error, said on standard error: its exit code.
fn usage(message: impl std::fmt::Display) -> i32 {
    eprintln!("error: {message}");
    exit::USAGE
}

impl GraphRequest {
    /// The format of the output, checked before anything runs.
    pub fn format(&self) -> Result<Format, i32> {
        match &self.output {
            None => Ok(Format::Dot),
            Some(path) => {
                Format::of_path(path, &[Format::Dot, Format::Svg, Format::Png]).map_err(usage)
            }
        }
    }

    /// Draws the graph into a session that has loaded its files.
    pub fn run(&self, session: &mut Session) -> Result<Outcome, i32> {
        let format = self.format()?;
        let (value, span) = match session.value(&self.expr) {
            Ok(found) => found,
            Err(outcome) => return Ok(outcome),
        };
        let graph = match session.machine.transition_graph(&value, span, self.bounds) {
            Ok(graph) => graph,
            Err(e) => return Ok(failed(session, &e)),
        };
        let text = dot::to_dot(&graph);
        let Some(path) = &self.output else {
            let out = &mut session.machine.out;
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
            return Ok(Outcome::default());
        };
        let bytes = match format {
            Format::Dot => text.into_bytes(),
            Format::Svg | Format::Png => dot::draw(&text, format.extension()).map_err(usage)?,
        };
        write_file(path, &bytes)?;
        let said = format!(
            "{}: {} written to {}",
            graph.title,
            nodes(&graph),
            path.display()
        );
        let _ = writeln!(session.machine.out, "{said}");
        Ok(Outcome::default())
    }
}

impl PlotRequest {
    /// The format of the output, checked before anything runs.
    pub fn format(&self) -> Result<Format, i32> {
        Format::of_path(&self.output, &[Format::Svg, Format::Png]).map_err(usage)
    }

    /// Plots the sequence from a session that has loaded its files.
    pub fn run(&self, session: &mut Session) -> Result<Outcome, i32> {
        let format = self.format()?;
        let mut args = Vec::new();
        for text in [&self.game, &self.range] {
            match session.value(text) {
                Ok(found) => args.push(found),
                Err(outcome) => return Ok(outcome),
            }
        }
        let (values, spans): (Vec<_>, Vec<_>) = args.into_iter().unzip();
        let seq = match session.machine.sequence(&values, &spans) {
            Ok(seq) => seq,
            Err(e) => return Ok(failed(session, &e)),
        };
        // The path is checked before drawing, so that its error is a
        // usage error whatever the format.
        write_file(&self.output, b"")?;
        plot::write(&seq, &self.output, format, self.size).map_err(usage)?;
        let count = seq.points.len();
        let said = format!(
            "{}: {count} values plotted to {}",
            seq.title,
            self.output.display()
        );
        let _ = writeln!(session.machine.out, "{said}");
        Ok(Outcome::default())
    }
}

/// Reports an evaluation error in the session: its outcome.
fn failed(session: &mut Session, e: &crate::diag::Diagnostic) -> Outcome {
    session.report(e);
    Outcome {
        error: Some(e.phase),
        ..Outcome::default()
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), i32> {
    std::fs::write(path, bytes)
        .map_err(|e| usage(format!("cannot write `{}`: {e}", path.display())))
}

/// `7 nodes`, and whether the graph was cut.
fn nodes(graph: &TransitionGraph) -> String {
    let count = crate::diag::count(graph.nodes.len(), "node");
    match (graph.cut.depth, graph.cut.nodes) {
        (None, None) => count,
        _ => format!("{count} (cut by its limits)"),
    }
}
