//! A table's text: a sequence in rows of ten under `+0..+9`, or a grid
//! with the columns' arguments above, every cell right-aligned as wide
//! as the widest.

use super::ROW;
use crate::runtime::Machine;
use crate::value::{Axis, TableSpec, Value};
use std::fmt::Write as _;
use std::io::{self, Write};

/// The greatest value whose cell a table writes once (see `Grid::shown`).
const SHOWN_MAX: u64 = 1023;

impl Machine {
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
        let mut label = String::new();
        for row in 0..grid.rows {
            label.clear();
            match axes[0].int(row * grid.step) {
                Some(n) => {
                    let _ = write!(label, "{n}");
                }
                None => label.push_str(&self.show(&axes[0].get(row * grid.step))),
            }
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
        let most = (0..nims.len()).map(|i| nims.get(i)).max().unwrap_or(0);
        let header_w = match &header {
            Header::Offsets(n) => (0..*n).map(|i| digits(i as u64) + 1).max().unwrap_or(0),
            Header::Axis(ys) => (0..ys.len())
                .map(|j| self.shown_len(&ys.get(j)))
                .max()
                .unwrap_or(0),
        };
        let cell_w = digits(most).max(header_w);
        Some(Grid {
            label_w: labels.chain([corner.chars().count()]).max().unwrap_or(1),
            cell_w,
            shown: (0..=most.min(SHOWN_MAX))
                .map(|v| format!(" {v:>cell_w$}"))
                .collect(),
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
    /// The cells of the values up to [`SHOWN_MAX`] (or the table's
    /// greatest), written once: most values are small, and a table of a
    /// million spends its time writing them.
    shown: Vec<String>,
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
        let label_w = self.label_w;
        let _ = write!(text, "\n{label:>label_w$} |");
        for c in cells {
            c.push(text, self);
        }
    }
}

/// What a table's cell holds: a heading, or a value (a table of a million
/// values spends its time writing them).
trait Cell {
    /// A space, then the cell right-aligned in the grid's cell width.
    fn push(&self, text: &mut String, grid: &Grid);
}

impl Cell for &str {
    fn push(&self, text: &mut String, grid: &Grid) {
        let width = grid.cell_w;
        let _ = write!(text, " {self:>width$}");
    }
}

impl Cell for u64 {
    fn push(&self, text: &mut String, grid: &Grid) {
        if let Some(shown) = usize::try_from(*self).ok().and_then(|v| grid.shown.get(v)) {
            return text.push_str(shown);
        }
        let width = grid.cell_w;
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
