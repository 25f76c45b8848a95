//! `table(game, rows[, columns])`: the nim-values of a one-parameter game
//! as a sequence printed in rows of ten, or of a two-parameter game as a
//! grid. The result is also a list (of values, or of rows).

use crate::builtins::Builtin;
use crate::diag::Diagnostic;
use crate::graph::ABSENT;
use crate::runtime::{Machine, RtResult, error};
use crate::span::Span;
use crate::value::{Axis, Component, Nims, Report, TableSpec, Value};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::rc::Rc;

/// Values per printed row of a one-parameter table.
const ROW: usize = 10;

impl Machine {
    pub fn table(&mut self, args: &[Value], spans: &[Span]) -> RtResult<Value> {
        let Value::Game(game) = args[0] else {
            return Err(self.not_a_game(Builtin::Table, &args[0], spans[0]));
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
        let all_holes = vec![None; rules.arity];
        self.table_of(game, &all_holes, ranges, &spans[1..], spans[0])
    }

    /// The error of `table(x, ...)` or `plot(x, ...)` (`query`) when `x`
    /// is no game; for `table`, which takes families, with how to write
    /// one.
    pub(super) fn not_a_game(&self, query: Builtin, x: &Value, span: Span) -> Box<Diagnostic> {
        let query = query.name();
        let e = error(
            span,
            format!(
                "the first argument of `{query}` must be a game, found {}",
                x.type_name()
            ),
            format!("this is {}", self.show(x)),
        );
        // `table(nim(3), 0..10)`: the game was meant, or `w(1, _)` for `w(1, 2)`.
        let Value::Pos(p) = x else { return e };
        let [Component::Node(node)] = p.components() else {
            return e;
        };
        let name = self.defs.game_name(node.game);
        let args = self.node_args(*node);
        let family = match args.split_last() {
            Some((_, fixed)) if !fixed.is_empty() && query == "table" => {
                let shown: Vec<String> = fixed.iter().map(|a| self.show(a)).collect();
                format!(
                    ", or write `_` for the parameter that varies: `table({name}({}, _), ...)`",
                    shown.join(", ")
                )
            }
            _ => String::new(),
        };
        Box::new(e.help(format!(
            "give the game itself, not one of its positions: `{query}({name}, ...)`{family}"
        )))
    }

    /// `table(g(a, _), xs)`: the table of `game` with the arguments of
    /// `template`, each `None` in it (a hole) taken from its collection of
    /// `ranges`; `span` is the whole call's. `table(g, xs)` is the family
    /// whose arguments are all holes.
    pub fn table_of(
        &mut self,
        game: u32,
        template: &[Option<Value>],
        ranges: &[Value],
        spans: &[Span],
        span: Span,
    ) -> RtResult<Value> {
        let rules = self.game_ir(game);
        let holes: Vec<usize> = (0..template.len())
            .filter(|i| template[*i].is_none())
            .collect();
        if rules.arity != template.len()
            || holes.len() != ranges.len()
            || !(1..=2).contains(&holes.len())
        {
            // The game was redefined since the call was written.
            return Err(error(
                span,
                format!(
                    "`{}` now has {}, which this table does not match",
                    rules.name,
                    crate::diag::count(rules.arity, "parameter")
                ),
                "this table",
            ));
        }
        let axes = self.axes(ranges, spans)?;
        let names: Vec<Rc<str>> = rules.def.params.iter().map(|p| p.node.clone()).collect();
        let params: Vec<Rc<str>> = holes.iter().map(|i| names[*i].clone()).collect();
        let shown: Vec<String> = template
            .iter()
            .zip(&names)
            .map(|(arg, name)| arg.as_ref().map_or(name.to_string(), |v| self.show(v)))
            .collect();
        let title = format!("{}({})", rules.name, shown.join(", "));
        let nims = self.family_nims(game, template, &holes, &axes, span)?;
        let spec = TableSpec {
            title,
            params,
            axes,
            nims,
        };
        Ok(Value::Report(Rc::new(Report::table(spec))))
    }

    fn axes(&self, ranges: &[Value], spans: &[Span]) -> RtResult<Vec<Axis>> {
        ranges
            .iter()
            .zip(spans)
            .map(|(r, s)| match r {
                Value::Range(lo, hi) => {
                    self.check_size(self.len_of(r, *s)?, *s)?;
                    Ok(Axis::Range(*lo, *hi))
                }
                _ => Ok(Axis::Items(self.items(r, *s)?.iter().cloned().collect())),
            })
            .collect()
    }

    /// The values of the positions of a family, row by row: the holes of
    /// `template` (at `holes`) filled from the axes.
    fn family_nims(
        &mut self,
        game: u32,
        template: &[Option<Value>],
        holes: &[usize],
        axes: &[Axis],
        span: Span,
    ) -> RtResult<Nims> {
        // `table(sub({1, 3, 4}, _), ...)`: the family of a game made for
        // the fixed arguments, when no hole is one of them.
        if let Some((made, template, holes)) = self.family_instance(game, template, holes) {
            return self.family_nims(made, &template, &holes, axes, span);
        }
        if let ([Axis::Range(lo, hi)], [None]) = (axes, template) {
            // The sequence of a one-integer game: from the bottom up at once.
            let first = [Value::Int(*lo)];
            if *lo < *hi && self.graph.find(game, &first).is_none() {
                self.intern(game, &first, span)?;
            }
            self.sweep_range(game, (*lo, *hi))?;
        }
        if let ([Axis::Range(a0, a1), Axis::Range(b0, b1)], [None, None]) = (axes, template) {
            // A two-integer game's: square shell by square shell.
            let first = [Value::Int(*a0), Value::Int(*b0)];
            if *a0 < *a1 && *b0 < *b1 && self.graph.find(game, &first).is_none() {
                self.intern(game, &first, span)?;
            }
            self.sweep_rectangle(game, (*a0, *a1), (*b0, *b1))?;
        }
        let (rows, columns) = (axes[0].len(), axes.get(1).map_or(1, Axis::len));
        let mut nims = Nims::with_capacity(rows.saturating_mul(columns));
        let mut args: Vec<Value> = template
            .iter()
            .map(|a| a.clone().unwrap_or(Value::Int(0)))
            .collect();
        let total = rows.saturating_mul(columns);
        let mut ints = Vec::with_capacity(args.len());
        for i in 0..rows {
            for j in 0..columns {
                self.pulse.table(i * columns + j, total);
                args[holes[0]] = axes[0].get(i);
                if let Some(ys) = axes.get(1) {
                    args[holes[1]] = ys.get(j);
                }
                // Integers, the common case, are found or made as such,
                // with no values; anything else (or a limit) as any
                // position is.
                ints.clear();
                ints.extend(args.iter().map_while(|a| match a {
                    Value::Int(n) => Some(*n),
                    _ => None,
                }));
                let found = match ints.len() == args.len() {
                    true => {
                        // Most often the sweep above valued it already.
                        let v = self.graph.int_value(game, &ints);
                        if v < ABSENT {
                            nims.push(v);
                            continue;
                        }
                        self.intern_ints(game, &ints)
                    }
                    false => self.graph.find(game, &args),
                };
                let node = match found {
                    Some(node) => node,
                    None => self.intern(game, &args, span)?,
                };
                nims.push(self.node_value(node)?);
            }
        }
        self.pulse.table(0, 0);
        Ok(nims)
    }

    /// Writes the text of a table: a sequence in rows of ten, or a grid,
    /// every cell as wide as the widest. A row at a time is made, so a
    /// table of millions of values needs no more memory to print.
    pub fn write_table(&self, spec: &TableSpec, out: &mut dyn Write) -> io::Result<()> {
        let TableSpec {
            title,
            params,
            axes,
            nims,
        } = spec;
        let Some(grid) = self.layout(spec) else {
            let what = if axes.len() == 1 { "range" } else { "ranges" };
            return write!(out, "{title}: no positions in the {what}");
        };
        match &axes[..] {
            [xs] => write!(out, "{title}, {} = {}", params[0], self.describe_axis(xs))?,
            [xs, ys] => write!(
                out,
                "{title}, {} = {} (rows), {} = {} (columns)",
                params[0],
                self.describe_axis(xs),
                params[1],
                self.describe_axis(ys)
            )?,
            _ => unreachable!("a table has one or two axes"),
        }
        let mut text = String::new();
        grid.header(&mut text);
        for row in 0..grid.rows {
            let label = self.show(&axes[0].get(row * grid.step));
            let cells =
                (row * grid.width..((row + 1) * grid.width).min(nims.len())).map(|i| nims.get(i));
            grid.line(&mut text, &label, cells);
            if text.len() >= 1 << 16 {
                out.write_all(text.as_bytes())?;
                text.clear();
            }
        }
        out.write_all(text.as_bytes())
    }

    /// How a table is laid out; `None` when it is empty.
    fn layout(&self, spec: &TableSpec) -> Option<Grid> {
        let (xs, nims) = (&spec.axes[0], &spec.nims);
        if nims.is_empty() {
            return None;
        }
        // A sequence of consecutive integers goes in rows of ten under
        // +0..+9 columns; any other sequence one value a row.
        let (corner, step, header) = match &spec.axes[..] {
            [_] if is_consecutive(xs) => (
                spec.params[0].to_string(),
                ROW,
                Header::Offsets(ROW.min(xs.len())),
            ),
            [_] => (spec.params[0].to_string(), 1, Header::Offsets(0)),
            [_, ys] => (
                format!("{}\\{}", spec.params[0], spec.params[1]),
                1,
                Header::Axis(ys),
            ),
            _ => unreachable!("a table has one or two axes"),
        };
        let width = match &spec.axes[..] {
            [_, ys] => ys.len(),
            _ => step,
        };
        let rows = nims.len().div_ceil(width);
        let labels = (0..rows).map(|row| self.shown_len(&xs.get(row * step)));
        let cells = (0..nims.len()).map(|i| digits(nims.get(i)));
        let header_w = match &header {
            Header::Offsets(n) => (0..*n).map(|i| digits(i as u64) + 1).max().unwrap_or(0),
            Header::Axis(ys) => (0..ys.len())
                .map(|j| self.shown_len(&ys.get(j)))
                .max()
                .unwrap_or(0),
        };
        Some(Grid {
            label_w: labels.chain([corner.chars().count()]).max().unwrap_or(1),
            cell_w: cells.chain([header_w]).max().unwrap_or(1),
            corner,
            header: match header {
                Header::Offsets(n) => (0..n).map(|i| format!("+{i}")).collect(),
                Header::Axis(ys) => (0..ys.len()).map(|j| self.show(&ys.get(j))).collect(),
            },
            step,
            width,
            rows,
        })
    }

    /// The width of a value as shown.
    fn shown_len(&self, v: &Value) -> usize {
        match v {
            Value::Int(n) => {
                n.unsigned_abs()
                    .checked_ilog10()
                    .map_or(1, |d| d as usize + 1)
                    + usize::from(*n < 0)
            }
            v => self.show(v).chars().count(),
        }
    }

    fn describe_axis(&self, xs: &Axis) -> String {
        match (xs, xs.len()) {
            (Axis::Range(lo, hi), n) if n > 0 => format!("{lo}..={}", hi - 1),
            (_, n) if n > 0 && is_consecutive(xs) => match (xs.get(0), xs.get(n - 1)) {
                (Value::Int(a), Value::Int(b)) => format!("{a}..={b}"),
                _ => unreachable!("consecutive items are integers"),
            },
            _ => self.show(&Value::list(xs.values())),
        }
    }
}

/// The column headings of a table.
enum Header<'a> {
    /// `+0`, `+1`, ...: offsets from the row's label.
    Offsets(usize),
    /// The arguments of a grid's columns.
    Axis(&'a Axis),
}

/// A table's layout: right-aligned cells under a header row (if any),
/// `width` values a row, the row labelled by every `step`-th argument.
struct Grid {
    corner: String,
    header: Vec<String>,
    label_w: usize,
    cell_w: usize,
    step: usize,
    width: usize,
    rows: usize,
}

impl Grid {
    fn header(&self, text: &mut String) {
        if !self.header.is_empty() {
            let cells: Vec<&str> = self.header.iter().map(String::as_str).collect();
            self.line(text, &self.corner, cells.into_iter());
        }
    }

    /// A newline, then one line of the table.
    fn line<T: Cell>(&self, text: &mut String, label: &str, cells: impl Iterator<Item = T>) {
        let (label_w, cell_w) = (self.label_w, self.cell_w);
        let _ = write!(text, "\n{label:>label_w$} |");
        for c in cells {
            c.push(text, cell_w);
        }
    }
}

/// What a table's cell holds: a heading, or a value (a table of a million
/// values spends its time writing them).
trait Cell {
    /// A space, then the cell right-aligned in `width` characters.
    fn push(&self, text: &mut String, width: usize);
}

impl Cell for &str {
    fn push(&self, text: &mut String, width: usize) {
        let _ = write!(text, " {self:>width$}");
    }
}

impl Cell for u64 {
    fn push(&self, text: &mut String, width: usize) {
        let mut digits = [0u8; 20];
        let (mut n, mut at) = (*self, digits.len());
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let len = digits.len() - at;
        text.extend(std::iter::repeat_n(' ', 1 + width.saturating_sub(len)));
        text.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
    }
}

/// The number of decimal digits of `n`.
fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Whether an axis is integers counting up by one. Any collection may be an
/// axis (`table(octal, [code], 0..=15)` has a list as its only row), so a
/// single item counts only if it is an integer.
fn is_consecutive(xs: &Axis) -> bool {
    match xs {
        Axis::Range(..) => true,
        Axis::Items(items) => {
            items.iter().all(|x| matches!(x, Value::Int(_)))
                && items.windows(2).all(
                    |w| matches!((&w[0], &w[1]), (Value::Int(a), Value::Int(b)) if *b == a + 1),
                )
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::session::loaded;
    use crate::span::Span;
    use crate::value::{Nims, ReportText, Value};

    #[test]
    fn a_table_keeps_nim_values_and_makes_its_items_when_asked() {
        let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
        let m = &mut session.machine;
        let args = [Value::Game(0), Value::Range(0, 12)];
        let table = m.table(&args, &[Span::default(); 2]).unwrap();
        let Value::Report(report) = &table else {
            panic!("a table is a report");
        };
        let ReportText::Table(spec) = &report.text else {
            panic!("a table is written out when shown");
        };
        assert!(matches!(&spec.nims, Nims::U8(v) if *v == (0..12).collect::<Vec<u8>>()));
        assert_eq!(report.items(), (0..12).map(Value::Int).collect::<Vec<_>>());
        let shown = m.show_top(&table);
        assert!(shown.starts_with("nim(n), n = 0..=11\n"), "{shown}");
        let mut written = Vec::new();
        m.write_top(&table, &mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), shown + "\n");
    }

    #[test]
    fn nim_values_move_to_wider_slots_as_they_grow() {
        let mut nims = Nims::with_capacity(5);
        nims.push(7);
        assert!(matches!(&nims, Nims::U8(v) if v.capacity() >= 5));
        nims.push(300);
        assert!(matches!(&nims, Nims::U16(v) if v.capacity() >= 5));
        nims.push(70_000);
        assert!(matches!(&nims, Nims::U32(v) if v.capacity() >= 5));
        nims.push(255);
        nims.push(1 << 40);
        assert!(matches!(&nims, Nims::U64(v) if v.capacity() >= 5));
        let all: Vec<u64> = (0..nims.len()).map(|i| nims.get(i)).collect();
        assert_eq!(all, [7, 300, 70_000, 255, 1 << 40]);
    }

    #[test]
    fn any_value_may_label_a_table_row() {
        let (mut session, _) = loaded("game g(a) { }\n");
        let m = &mut session.machine;
        let items = [
            Value::str("x"),
            Value::Bool(true),
            Value::list(vec![Value::Int(1)]),
        ];
        for item in items {
            let axis = Value::list(vec![item.clone()]);
            let table = m.table(&[Value::Game(0), axis], &[Span::default(); 2]);
            let shown = m.show_top(&table.unwrap());
            assert!(
                shown.ends_with(&format!("{} | 0", m.show(&item))),
                "{shown}"
            );
        }
    }
}
