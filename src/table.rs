//! `table(game, rows[, columns])`: the nim-values of a one-parameter game
//! as a sequence printed in rows of ten, or of a two-parameter game as a
//! grid. The result is also a list (of values, or of rows).

use crate::interp::{Machine, RtResult, error};
use crate::span::Span;
use crate::value::{Axis, Component, Report, ReportText, TableSpec, Value};
use std::cell::OnceCell;
use std::rc::Rc;

/// Values per printed row of a one-parameter table.
const ROW: usize = 10;

impl Machine {
    pub fn table(&mut self, args: &[Value], spans: &[Span]) -> RtResult<Value> {
        let Value::Game(game) = args[0] else {
            let e = error(
                spans[0],
                format!(
                    "the first argument of `table` must be a game, found {}",
                    args[0].type_name()
                ),
                format!("this is {}", self.show(&args[0])),
            );
            // `table(nim(3), 0..10)`: the game was meant.
            return Err(match &args[0] {
                Value::Pos(p) => match p.components() {
                    [Component::Node(node)] => {
                        let name = self.defs.game_name(node.game);
                        Box::new(e.help(format!(
                            "give the game itself, not one of its positions: `table({name}, ...)`"
                        )))
                    }
                    _ => e,
                },
                _ => e,
            });
        };
        let rules = self.game_ir(game);
        let ranges = &args[1..];
        if rules.arity != ranges.len() {
            return Err(error(
                spans[0],
                format!(
                    "`{}` has {} parameters, so `table` needs {} ranges but got {}",
                    rules.name,
                    rules.arity,
                    rules.arity,
                    ranges.len()
                ),
                "this game",
            ));
        }
        let axes: Vec<Axis> = ranges
            .iter()
            .zip(&spans[1..])
            .map(|(r, s)| match r {
                Value::Range(lo, hi) => {
                    self.check_size(self.len_of(r, *s)?, *s)?;
                    Ok(Axis::Range(*lo, *hi))
                }
                _ => Ok(Axis::Items(self.items(r, *s)?.iter().cloned().collect())),
            })
            .collect::<RtResult<_>>()?;
        let params: Vec<Rc<str>> = rules.def.params.iter().map(|p| p.node.clone()).collect();
        let title = format!("{}({})", rules.name, params.join(", "));
        let mut args = Vec::with_capacity(2);
        let mut value_at = |m: &mut Machine, xs: &[&Axis], i: usize, j: usize| -> RtResult<Value> {
            args.clear();
            args.push(xs[0].get(i));
            args.extend(xs.get(1).map(|a| a.get(j)));
            let node = match m.graph.find(game, &args) {
                Some(node) => node,
                None => m.intern(game, &args, spans[0])?,
            };
            Ok(Value::Int(m.node_value(node)? as i64))
        };
        let xs: Vec<&Axis> = axes.iter().collect();
        let items = match xs[..] {
            [x] => (0..x.len())
                .map(|i| value_at(self, &xs, i, 0))
                .collect::<RtResult<_>>()?,
            _ => (0..xs[0].len())
                .map(|i| {
                    let row = (0..xs[1].len()).map(|j| value_at(self, &xs, i, j));
                    Ok(Value::list(row.collect::<RtResult<_>>()?))
                })
                .collect::<RtResult<_>>()?,
        };
        let spec = TableSpec {
            title,
            params,
            axes,
        };
        let text = ReportText::Table(spec, OnceCell::new());
        Ok(Value::Report(Rc::new(Report { items, text })))
    }

    /// The text of a table: a sequence in rows of ten, or a grid.
    pub fn table_text(&self, spec: &TableSpec, items: &[Value]) -> String {
        let int = |v: &Value| match v {
            Value::Int(n) => *n,
            _ => unreachable!("a table holds nim-values"),
        };
        let axes: Vec<Vec<Value>> = spec.axes.iter().map(Axis::values).collect();
        let params: Vec<&str> = spec.params.iter().map(|p| &**p).collect();
        if axes.len() == 1 {
            let values: Vec<i64> = items.iter().map(int).collect();
            return self.sequence_text(&spec.title, params[0], &axes[0], &values);
        }
        let grid: Vec<Vec<i64>> = items
            .iter()
            .map(|row| row.as_slice().unwrap_or(&[]).iter().map(int).collect())
            .collect();
        if grid.is_empty() || grid[0].is_empty() {
            format!("{}: no positions in the ranges", spec.title)
        } else {
            self.grid_text(&spec.title, &params, &axes, &grid)
        }
    }

    fn sequence_text(&self, title: &str, param: &str, xs: &[Value], values: &[i64]) -> String {
        if xs.is_empty() {
            return format!("{title}: no positions in the range");
        }
        // Rows of ten with +0..+9 columns read only for consecutive integers;
        // any other list of arguments gets one row each.
        let row = if is_consecutive(xs) && matches!(xs[0], Value::Int(_)) {
            ROW
        } else {
            1
        };
        let header: Vec<String> = if row == ROW {
            (0..ROW.min(xs.len())).map(|i| format!("+{i}")).collect()
        } else {
            Vec::new()
        };
        let rows: Vec<(String, Vec<String>)> = xs
            .chunks(row)
            .zip(values.chunks(row))
            .map(|(args, vs)| (self.show(&args[0]), vs.iter().map(i64::to_string).collect()))
            .collect();
        format!(
            "{title}, {param} = {}\n{}",
            self.describe_axis(xs),
            layout(param, &header, &rows)
        )
    }

    fn grid_text(
        &self,
        title: &str,
        params: &[&str],
        axes: &[Vec<Value>],
        grid: &[Vec<i64>],
    ) -> String {
        let header: Vec<String> = axes[1].iter().map(|y| self.show(y)).collect();
        let rows: Vec<(String, Vec<String>)> = axes[0]
            .iter()
            .zip(grid)
            .map(|(x, vs)| (self.show(x), vs.iter().map(i64::to_string).collect()))
            .collect();
        format!(
            "{title}, {} = {} (rows), {} = {} (columns)\n{}",
            params[0],
            self.describe_axis(&axes[0]),
            params[1],
            self.describe_axis(&axes[1]),
            layout(&format!("{}\\{}", params[0], params[1]), &header, &rows)
        )
    }

    fn describe_axis(&self, xs: &[Value]) -> String {
        match (xs.first(), xs.last()) {
            (Some(Value::Int(a)), Some(Value::Int(b))) if is_consecutive(xs) => {
                format!("{a}..={b}")
            }
            _ => self.show(&Value::list(xs.to_vec())),
        }
    }
}

/// A right-aligned table: a header row (if any) under `corner`, then one
/// line per labelled row, every cell as wide as the widest.
fn layout(corner: &str, header: &[String], rows: &[(String, Vec<String>)]) -> String {
    let label_w = rows
        .iter()
        .map(|(l, _)| l.len())
        .chain([corner.len()])
        .max()
        .unwrap_or(1);
    let cells = rows.iter().flat_map(|(_, cs)| cs.iter());
    let cell_w = header
        .iter()
        .chain(cells)
        .map(String::len)
        .max()
        .unwrap_or(1);
    let line = |label: &str, cells: &[String]| {
        let mut text = format!("{label:>label_w$} |");
        for c in cells {
            text.push_str(&format!(" {c:>cell_w$}"));
        }
        text
    };
    let mut lines = Vec::new();
    if !header.is_empty() {
        lines.push(line(corner, header));
    }
    lines.extend(rows.iter().map(|(label, cells)| line(label, cells)));
    lines.join("\n")
}

fn is_consecutive(xs: &[Value]) -> bool {
    xs.windows(2)
        .all(|w| matches!((&w[0], &w[1]), (Value::Int(a), Value::Int(b)) if *b == a + 1))
}

#[cfg(test)]
mod tests {
    use crate::session::loaded;
    use crate::span::Span;
    use crate::value::{ReportText, Value};

    #[test]
    fn a_table_is_written_out_only_when_shown() {
        let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
        let m = &mut session.machine;
        let args = [Value::Game(0), Value::Range(0, 12)];
        let table = m.table(&args, &[Span::default(); 2]).unwrap();
        let Value::Report(report) = &table else {
            panic!("a table is a report");
        };
        let ReportText::Table(_, text) = &report.text else {
            panic!("a table is written out lazily");
        };
        assert_eq!(report.items, (0..12).map(Value::Int).collect::<Vec<_>>());
        assert!(text.get().is_none(), "nothing written before it is shown");
        let shown = m.show_top(&table);
        assert!(shown.starts_with("nim(n), n = 0..=11\n"), "{shown}");
        assert_eq!(text.get(), Some(&shown));
    }
}
