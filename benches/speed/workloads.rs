//! The workloads: a rule file under `benches/workloads/` each, its sizes,
//! the baseline that computes the same answer, and how to read the answer
//! from what grundy prints.

use crate::baselines;

/// What a workload's script prints, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `table(g, 0..=N)`: the values of g(0), ..., g(N).
    Seq(Vec<u32>),
    /// `table(g, 0..N, 0..N)`: the values row by row.
    Grid(Vec<Vec<u32>>),
    /// `value(...)`.
    Value(u64),
    /// `winner(...)`: whether the first player wins.
    FirstWins(bool),
}

/// The form of a workload's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Seq,
    Grid,
    Value,
    Winner,
}

pub struct Workload {
    pub name: &'static str,
    /// The rule file, under `benches/workloads/`.
    pub file: &'static str,
    /// The game the script's table is of (its name in the table's title).
    pub game: &'static str,
    pub shape: Shape,
    /// The size of the timed run.
    pub full: usize,
    /// A size small enough for CI and for a debug build.
    pub smoke: usize,
    pub baseline: fn(usize) -> Answer,
    /// The game's octal code, when ogsolve can solve it too.
    pub octal: Option<&'static str>,
}

/// Every workload, in the order of the report.
pub const ALL: [Workload; 8] = [
    Workload {
        name: "kayles",
        file: "kayles.game",
        game: "kayles",
        shape: Shape::Seq,
        full: 20_000,
        smoke: 300,
        baseline: |n| Answer::Seq(baselines::kayles(n)),
        octal: Some("0.77"),
    },
    Workload {
        name: "grundy_game",
        file: "grundy_game.game",
        game: "grundy",
        shape: Shape::Seq,
        full: 20_000,
        smoke: 300,
        baseline: |n| Answer::Seq(baselines::grundy_game(n)),
        octal: None,
    },
    Workload {
        name: "dawson",
        file: "dawson.game",
        game: "dawson",
        shape: Shape::Seq,
        full: 20_000,
        smoke: 300,
        baseline: |n| Answer::Seq(baselines::dawson(n)),
        octal: Some("0.137"),
    },
    Workload {
        name: "subtraction",
        file: "subtraction.game",
        game: "sub",
        shape: Shape::Value,
        full: 10_000_000,
        smoke: 10_000,
        baseline: |n| Answer::Value(baselines::subtraction(n).into()),
        octal: None,
    },
    Workload {
        name: "subtract_square",
        file: "subtract_square.game",
        game: "square",
        shape: Shape::Seq,
        full: 1_000_000,
        smoke: 5_000,
        baseline: |n| Answer::Seq(baselines::subtract_square(n)),
        octal: None,
    },
    Workload {
        name: "wythoff",
        file: "wythoff.game",
        game: "wythoff",
        shape: Shape::Grid,
        full: 500,
        smoke: 30,
        baseline: |n| Answer::Grid(baselines::wythoff(n)),
        octal: None,
    },
    Workload {
        name: "take_from_each",
        file: "take_from_each.game",
        game: "each",
        shape: Shape::Value,
        full: 6,
        smoke: 2,
        baseline: |n| Answer::Value(baselines::take_from_each(n).into()),
        octal: None,
    },
    Workload {
        name: "coins",
        file: "coins.game",
        game: "coin",
        shape: Shape::Winner,
        full: 100_000,
        smoke: 1_000,
        baseline: |n| Answer::FirstWins(baselines::coins(n)),
        octal: None,
    },
];

pub fn find(name: &str) -> Option<&'static Workload> {
    ALL.iter().find(|w| w.name == name)
}

/// The directory of the rule files.
pub const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/workloads");

impl Workload {
    /// The workload's script with its size set to `n`: its one line
    /// `let N = ...` rewritten.
    pub fn script(&self, n: usize) -> Result<String, String> {
        let path = format!("{DIR}/{}", self.file);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let sized = |line: &str| line.starts_with("let N = ");
        let count = text.lines().filter(|l| sized(l)).count();
        if count != 1 {
            return Err(format!("{path}: {count} lines `let N = ...`, not one"));
        }
        let lines: Vec<String> = text
            .lines()
            .map(|l| {
                if sized(l) {
                    format!("let N = {n}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        Ok(lines.join("\n") + "\n")
    }

    /// Reads the answer from grundy's output (or the baseline's, which is
    /// printed the same way).
    pub fn parse(&self, out: &str) -> Result<Answer, String> {
        let out = out.trim_end();
        match self.shape {
            Shape::Seq => parse_rows(out, false).map(|rows| Answer::Seq(rows.concat())),
            Shape::Grid => parse_rows(out, true).map(Answer::Grid),
            Shape::Value => out
                .parse()
                .map(Answer::Value)
                .map_err(|_| format!("not a value: {out:?}")),
            Shape::Winner => match out {
                "first" => Ok(Answer::FirstWins(true)),
                "second" => Ok(Answer::FirstWins(false)),
                _ => Err(format!("not a winner: {out:?}")),
            },
        }
    }

    /// The answer as grundy prints it, so the baseline's output costs what
    /// grundy's does.
    pub fn render(&self, answer: &Answer) -> String {
        match answer {
            Answer::Seq(values) => self.render_seq(values),
            Answer::Grid(rows) => self.render_grid(rows),
            Answer::Value(v) => format!("{v}\n"),
            Answer::FirstWins(true) => "first\n".to_string(),
            Answer::FirstWins(false) => "second\n".to_string(),
        }
    }

    fn render_seq(&self, values: &[u32]) -> String {
        let game = self.game;
        if values.is_empty() {
            return format!("{game}(n): no positions in the range\n");
        }
        let header: Vec<String> = (0..values.len().min(10)).map(|i| format!("+{i}")).collect();
        let rows: Vec<(String, Vec<String>)> = values
            .chunks(10)
            .enumerate()
            .map(|(r, vs)| ((10 * r).to_string(), strings(vs)))
            .collect();
        let last = values.len() - 1;
        let title = format!("{game}(n), n = 0..={last}");
        format!("{title}\n{}\n", layout("n", &header, &rows))
    }

    fn render_grid(&self, grid: &[Vec<u32>]) -> String {
        let game = self.game;
        if grid.is_empty() || grid[0].is_empty() {
            return format!("{game}(a, b): no positions in the ranges\n");
        }
        let header: Vec<String> = (0..grid[0].len()).map(|b| b.to_string()).collect();
        let rows: Vec<(String, Vec<String>)> = grid
            .iter()
            .enumerate()
            .map(|(a, vs)| (a.to_string(), strings(vs)))
            .collect();
        let (a, b) = (grid.len() - 1, grid[0].len() - 1);
        let title = format!("{game}(a, b), a = 0..={a} (rows), b = 0..={b} (columns)");
        format!("{title}\n{}\n", layout("a\\b", &header, &rows))
    }
}

fn strings(values: &[u32]) -> Vec<String> {
    values.iter().map(u32::to_string).collect()
}

/// grundy's table layout: a header row under `corner`, then one line per
/// labelled row, every label and every cell right-aligned to the widest.
fn layout(corner: &str, header: &[String], rows: &[(String, Vec<String>)]) -> String {
    let labels = rows.iter().map(|(l, _)| l.len()).chain([corner.len()]);
    let label_w = labels.max().unwrap_or(1);
    let cells = header.iter().chain(rows.iter().flat_map(|(_, cs)| cs));
    let cell_w = cells.map(String::len).max().unwrap_or(1);
    let mut text = String::new();
    let mut line = |label: &str, cells: &[String]| {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!("{label:>label_w$} |"));
        for c in cells {
            text.push_str(&format!(" {c:>cell_w$}"));
        }
    };
    line(corner, header);
    for (label, cells) in rows {
        line(label, cells);
    }
    text
}

/// The value rows of a printed table: after the title, every line whose
/// label (left of `|`) is a number. Each label must be the index of the
/// row's first value (1-D) or the row's index (2-D); all else is an error.
fn parse_rows(out: &str, grid: bool) -> Result<Vec<Vec<u32>>, String> {
    let mut lines = out.lines();
    let title = lines.next().ok_or("no output")?;
    if title.ends_with(": no positions in the range") || title.ends_with("in the ranges") {
        return Ok(Vec::new());
    }
    let mut rows: Vec<Vec<u32>> = Vec::new();
    let mut count = 0;
    for line in lines {
        let (label, cells) = line.split_once('|').ok_or(format!("not a row: {line:?}"))?;
        let Ok(label) = label.trim().parse::<usize>() else {
            continue; // the header
        };
        let cells: Vec<u32> = cells
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| format!("not a row of values: {line:?}"))?;
        if label != if grid { rows.len() } else { count } {
            return Err(format!("row {label} out of order: {line:?}"));
        }
        count += cells.len();
        rows.push(cells);
    }
    if rows.is_empty() {
        return Err(format!("no rows of values under {title:?}"));
    }
    Ok(rows)
}

/// The nimbers ogsolve prints with `-p`, on its line `nimbers: ...`.
pub fn parse_ogsolve(out: &str) -> Result<Answer, String> {
    let line = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("nimbers:"))
        .ok_or("no line `nimbers:` in ogsolve's output")?;
    line.split_whitespace()
        .map(|v| v.parse().map_err(|_| format!("not a nimber: {v:?}")))
        .collect::<Result<_, _>>()
        .map(Answer::Seq)
}

/// Where two answers first differ, in words.
pub fn difference(expected: &Answer, got: &Answer) -> String {
    let cells = |a: &Answer| -> Vec<u32> {
        match a {
            Answer::Seq(vs) => vs.clone(),
            Answer::Grid(rows) => rows.concat(),
            _ => Vec::new(),
        }
    };
    let (e, g) = (cells(expected), cells(got));
    match e.iter().zip(&g).position(|(x, y)| x != y) {
        Some(i) => format!("first difference at item {i}: {} vs {}", e[i], g[i]),
        None if e.len() != g.len() => format!("{} items vs {}", e.len(), g.len()),
        None => format!("{expected:?} vs {got:?}"),
    }
}
