//! `table(game, rows[, columns])`: the nim-values of a one-parameter game
//! as a sequence printed in rows of ten, or of a two-parameter game as a
//! grid. The result is also a list (of values, or of rows).

use crate::interp::{Machine, RtResult, error};
use crate::span::Span;
use crate::value::{Component, Position, Report, Value};
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
        let axes: Vec<Vec<Value>> = ranges
            .iter()
            .zip(&spans[1..])
            .map(|(r, s)| Ok(self.items(r, *s)?.iter().cloned().collect()))
            .collect::<RtResult<_>>()?;
        let params: Vec<&str> = rules.def.params.iter().map(|p| &*p.node).collect();
        let title = format!("{}({})", rules.name, params.join(", "));
        let value_at = |m: &mut Machine, args: Vec<Value>| -> RtResult<i64> {
            let node = match m.graph.find(game, &args) {
                Some(node) => node,
                None => m.intern(game, &args, spans[0])?,
            };
            let p = Position::node(node);
            Ok(m.position_value(&p)? as i64)
        };
        if axes.len() == 1 {
            let values = axes[0]
                .iter()
                .map(|x| value_at(self, vec![x.clone()]))
                .collect::<RtResult<Vec<i64>>>()?;
            let text = self.sequence_text(&title, params[0], &axes[0], &values);
            let items = values.into_iter().map(Value::Int).collect();
            return Ok(Value::Report(Rc::new(Report { items, text })));
        }
        let mut grid = Vec::new();
        for x in &axes[0] {
            let row = axes[1]
                .iter()
                .map(|y| value_at(self, vec![x.clone(), y.clone()]))
                .collect::<RtResult<Vec<i64>>>()?;
            grid.push(row);
        }
        let text = if grid.is_empty() || grid[0].is_empty() {
            format!("{title}: no positions in the ranges")
        } else {
            self.grid_text(&title, &params, &axes, &grid)
        };
        let items = grid
            .into_iter()
            .map(|row| Value::list(row.into_iter().map(Value::Int).collect()))
            .collect();
        Ok(Value::Report(Rc::new(Report { items, text })))
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
