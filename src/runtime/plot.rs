//! `plot(game, range[, path])`: a one-parameter game's nim-sequence,
//! worked out as `table` does it and drawn by [`crate::render::plot`]
//! into an SVG or PNG file.

use crate::builtins::Builtin;
use crate::render::Format;
use crate::render::plot::{DEFAULT_SIZE, Sequence};
use crate::runtime::{Machine, RtResult, error};
use crate::span::Span;
use crate::value::{ReportText, Value};
use std::path::Path;

impl Machine {
    /// `plot(game, range)` writes `<game>.svg` in the current directory,
    /// `plot(game, range, path)` the file named (`.svg` or `.png`); the
    /// result is the path written.
    pub(super) fn plot(&mut self, args: &[Value], spans: &[Span], span: Span) -> RtResult<Value> {
        let seq = self.sequence(&args[..2], &spans[..2])?;
        let (path, at) = match args.get(2) {
            Some(Value::Str(path)) => (path.to_string(), spans[2]),
            Some(other) => {
                return Err(error(
                    spans[2],
                    format!(
                        "the path of `plot` must be a string, found {}",
                        other.type_name()
                    ),
                    format!("this is {}", self.show(other)),
                ));
            }
            None => {
                let Value::Game(game) = args[0] else {
                    unreachable!("`sequence` took it for a game")
                };
                (format!("{}.svg", self.defs.game_name(game)), span)
            }
        };
        if !self.write_files {
            return Err(error(at, "`plot` cannot write files here", "this call"));
        }
        let format = Format::of_path(Path::new(&path), &[Format::Svg, Format::Png])
            .map_err(|e| error(at, e, "this path"))?;
        crate::render::plot::write(&seq, Path::new(&path), format, DEFAULT_SIZE)
            .map_err(|e| error(at, e, "this path"))?;
        Ok(Value::str(&path))
    }

    /// The values of a one-parameter game (`args[0]`) over a range of
    /// integers (`args[1]`), with a title that names them.
    pub fn sequence(&mut self, args: &[Value], spans: &[Span]) -> RtResult<Sequence> {
        let Value::Game(game) = args[0] else {
            return Err(self.not_a_game(Builtin::Plot, &args[0], spans[0]));
        };
        let rules = self.game_ir(game);
        if rules.arity != 1 {
            return Err(Box::new(
                error(
                    spans[0],
                    format!(
                        "`plot` draws games of one parameter, and `{}` has {}",
                        rules.name,
                        crate::diag::count(rules.arity, "parameter")
                    ),
                    "this game",
                )
                .help("`table` shows the values of a game of two parameters as a grid"),
            ));
        }
        let (lo, hi) = match args[1] {
            Value::Range(lo, hi) if lo < hi => (lo, hi),
            Value::Range(..) => {
                return Err(error(
                    spans[1],
                    "the range is empty: there is nothing to plot",
                    "this range",
                ));
            }
            ref other => {
                return Err(error(
                    spans[1],
                    format!(
                        "`plot` needs a range of integers such as `0..=100`, found {}",
                        other.type_name()
                    ),
                    format!("this is {}", self.show(other)),
                ));
            }
        };
        let table = self.table(args, spans)?;
        let Value::Report(report) = &table else {
            unreachable!("`table` makes a report")
        };
        let ReportText::Table(spec) = &report.text else {
            unreachable!("`table` makes a table")
        };
        let param = spec
            .params
            .first()
            .map_or("n".to_string(), |p| p.to_string());
        Ok(Sequence {
            title: format!("{}, {param} = {lo}..={}", spec.title, hi - 1),
            param,
            points: (0..spec.nims.len())
                .map(|i| (lo + i as i64, spec.nims.get(i)))
                .collect(),
        })
    }
}
