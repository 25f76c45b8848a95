//! The workloads: a rule file under `benches/workloads/` each, its sizes,
//! the baseline that computes the same answer, and how to read the answer
//! from what grundy prints.

use crate::baselines;
use crate::pairs;
use std::io::{self, Write};

#[path = "workloads/answers.rs"]
mod answers;
pub use answers::{difference, parse_ogsolve};
use answers::{max, parse_rows, width};

/// What a workload's script prints, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `table(g, 0..=N)`: the values of g(0), ..., g(N).
    Seq(Vec<u32>),
    /// `table(g, 0..N, 0..N)`: the values row by row.
    Grid(Vec<Vec<u32>>),
    /// `value(...)`, or an integer printed by a bare expression (a count).
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
    /// The names of the game's parameters, as its table prints them.
    pub params: &'static [&'static str],
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
pub const ALL: [Workload; 43] = [
    Workload {
        name: "kayles",
        file: "kayles.game",
        game: "kayles",
        params: &["n"],
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
        params: &["n"],
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
        params: &["n"],
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
        params: &["n"],
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
        params: &["n"],
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
        params: &["a", "b"],
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
        params: &["hs"],
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
        params: &["x", "y"],
        shape: Shape::Winner,
        full: 100_000,
        smoke: 1_000,
        baseline: |n| Answer::FirstWins(baselines::coins(n)),
        octal: None,
    },
    Workload {
        name: "subtraction_set",
        file: "subtraction_set.game",
        game: "sub",
        params: &["n"],
        shape: Shape::Value,
        full: 10_000_000,
        smoke: 10_000,
        baseline: |n| Answer::Value(baselines::subtraction(n).into()),
        octal: None,
    },
    Workload {
        name: "subtraction_let_set",
        file: "subtraction_let_set.game",
        game: "sub",
        params: &["n"],
        shape: Shape::Seq,
        full: 1_000_000,
        smoke: 5_000,
        baseline: |n| Answer::Seq(baselines::subtraction_134(n)),
        octal: None,
    },
    Workload {
        name: "subtraction_param",
        file: "subtraction_param.game",
        game: "sub",
        params: &["S", "n"],
        shape: Shape::Value,
        full: 10_000_000,
        smoke: 5_000,
        baseline: |n| {
            let zeros = baselines::subtraction_134(n)
                .iter()
                .filter(|v| **v == 0)
                .count();
            Answer::Value(zeros as u64)
        },
        octal: None,
    },
    Workload {
        name: "bound_param",
        file: "bound_param.game",
        game: "take",
        params: &["n", "c"],
        shape: Shape::Value,
        full: 8_000_000,
        smoke: 5_000,
        baseline: |n| Answer::Value(baselines::take_up_to(n, 7).into()),
        octal: None,
    },
    Workload {
        name: "knight",
        file: "knight.game",
        game: "knight",
        params: &["x", "y"],
        shape: Shape::Value,
        full: 2000,
        smoke: 40,
        baseline: |n| Answer::Value(baselines::knight(n)),
        octal: None,
    },
    Workload {
        name: "knight_tuple",
        file: "knight_tuple.game",
        game: "knight",
        params: &["p"],
        shape: Shape::Value,
        full: 2000,
        smoke: 40,
        baseline: |n| Answer::Value(baselines::knight(n)),
        octal: None,
    },
    Workload {
        name: "knight_any",
        file: "knight_any.game",
        game: "knight",
        params: &["x", "y"],
        shape: Shape::Value,
        full: 2000,
        smoke: 40,
        baseline: |n| Answer::Value(baselines::knight(n)),
        octal: None,
    },
    Workload {
        name: "divisors",
        file: "divisors.game",
        game: "dv",
        params: &["n"],
        shape: Shape::Value,
        full: 20_000,
        smoke: 300,
        baseline: |n| Answer::Value(baselines::divisors(n).into()),
        octal: None,
    },
    Workload {
        name: "bitmask",
        file: "bitmask.game",
        game: "flip",
        params: &["m"],
        shape: Shape::Seq,
        full: 20,
        smoke: 8,
        baseline: |n| Answer::Seq(baselines::bitmask(n)),
        octal: None,
    },
    Workload {
        name: "wythoff_one",
        file: "wythoff_one.game",
        game: "wythoff",
        params: &["a", "b"],
        shape: Shape::Value,
        full: 500,
        smoke: 30,
        baseline: |n| Answer::Value(baselines::wythoff_one(n).into()),
        octal: None,
    },
    Workload {
        name: "wythoff_dirs",
        file: "wythoff_dirs.game",
        game: "wythoff",
        params: &["a", "b"],
        shape: Shape::Value,
        full: 500,
        smoke: 30,
        baseline: |n| Answer::Value(baselines::wythoff_one(n).into()),
        octal: None,
    },
    Workload {
        name: "three_heaps",
        file: "three_heaps.game",
        game: "tri",
        params: &["a", "b", "c"],
        shape: Shape::Value,
        full: 80,
        smoke: 12,
        baseline: |n| Answer::Value(baselines::three_heaps(n).into()),
        octal: None,
    },
    Workload {
        name: "euclid",
        file: "euclid.game",
        game: "euclid",
        params: &["a", "b"],
        shape: Shape::Grid,
        full: 1000,
        smoke: 30,
        baseline: |n| Answer::Grid(baselines::euclid(n)),
        octal: None,
    },
    Workload {
        name: "divide",
        file: "divide.game",
        game: "divide",
        params: &["n"],
        shape: Shape::Value,
        full: 1_000_000,
        smoke: 1000,
        baseline: |n| Answer::Value(baselines::divide(n).into()),
        octal: None,
    },
    Workload {
        name: "multiples",
        file: "multiples.game",
        game: "multiples",
        params: &["s"],
        shape: Shape::Value,
        full: 26,
        smoke: 12,
        baseline: |n| Answer::Value(baselines::multiples(n).into()),
        octal: None,
    },
    Workload {
        name: "two_bits",
        file: "two_bits.game",
        game: "two_bits",
        params: &["n"],
        shape: Shape::Seq,
        full: 4000,
        smoke: 300,
        baseline: |n| Answer::Seq(baselines::two_bits(n)),
        octal: None,
    },
    Workload {
        name: "last_move",
        file: "last_move.game",
        game: "last_move",
        params: &["n", "last"],
        shape: Shape::Value,
        full: 1_000_000,
        smoke: 1000,
        baseline: |n| Answer::Value(baselines::last_move(n).into()),
        octal: None,
    },
    Workload {
        name: "prime_take",
        file: "prime_take.game",
        game: "take",
        params: &["n"],
        shape: Shape::Value,
        full: 20_000,
        smoke: 300,
        baseline: |n| Answer::Value(baselines::prime_take(n).into()),
        octal: None,
    },
    // The same game, each prime tested by trial division in the guard
    // (grundy keeps each value's test once per game): the baseline sieves.
    Workload {
        name: "prime_fn",
        file: "prime_fn.game",
        game: "take",
        params: &["n"],
        shape: Shape::Value,
        full: 20_000,
        smoke: 300,
        baseline: |n| Answer::Value(baselines::prime_take(n).into()),
        octal: None,
    },
    Workload {
        name: "coin_row",
        file: "coin_row.game",
        game: "row",
        params: &["s"],
        shape: Shape::Value,
        full: 16,
        smoke: 8,
        baseline: |n| Answer::Value(baselines::coin_row(n).into()),
        octal: None,
    },
    Workload {
        name: "coin_bools",
        file: "coin_bools.game",
        game: "row",
        params: &["cs"],
        shape: Shape::Value,
        full: 16,
        smoke: 8,
        baseline: |n| Answer::Value(baselines::coin_bools(n).into()),
        octal: None,
    },
    Workload {
        name: "northcott",
        file: "northcott.game",
        game: "nc",
        params: &["rs"],
        shape: Shape::Value,
        full: 4,
        smoke: 2,
        baseline: |n| Answer::Value(baselines::northcott(n).into()),
        octal: None,
    },
    Workload {
        name: "cram",
        file: "cram.game",
        game: "cram",
        params: &["empty"],
        shape: Shape::Value,
        full: 7,
        smoke: 3,
        baseline: |n| Answer::Value(pairs::cram(n).into()),
        octal: None,
    },
    Workload {
        name: "tokens",
        file: "tokens.game",
        game: "tokens",
        params: &["ts"],
        shape: Shape::Value,
        full: 7,
        smoke: 2,
        baseline: |n| Answer::Value(pairs::tokens(n).into()),
        octal: None,
    },
    // Written in another sitting, as users write rules, to find where the
    // engine falls behind: see BENCHMARKS.md.
    Workload {
        name: "no_repeat",
        file: "no_repeat.game",
        game: "lm",
        params: &["n", "a", "b"],
        shape: Shape::Value,
        full: 100_000,
        smoke: 1200,
        baseline: |n| Answer::Value(baselines::no_repeat(n).into()),
        octal: None,
    },
    Workload {
        name: "sum_winner",
        file: "sum_winner.game",
        game: "a",
        params: &["n"],
        shape: Shape::Value,
        full: 600_000,
        smoke: 1000,
        baseline: |n| Answer::Value(baselines::sum_winner(n).into()),
        octal: None,
    },
    Workload {
        name: "digit_sum",
        file: "digit_sum.game",
        game: "ds",
        params: &["n"],
        shape: Shape::Value,
        full: 2_000_000,
        smoke: 2000,
        baseline: |n| Answer::Value(baselines::digit_sum(n).into()),
        octal: None,
    },
    Workload {
        name: "ping_pong",
        file: "ping_pong.game",
        game: "ping",
        params: &["n"],
        shape: Shape::Value,
        full: 2_000_000,
        smoke: 2000,
        baseline: |n| Answer::Value(baselines::ping_pong(n).into()),
        octal: None,
    },
    Workload {
        name: "four_heaps",
        file: "four_heaps.game",
        game: "q",
        params: &["a", "b", "c", "d"],
        shape: Shape::Value,
        full: 20,
        smoke: 4,
        baseline: |n| Answer::Value(baselines::four_heaps(n).into()),
        octal: None,
    },
    Workload {
        name: "no_three",
        file: "no_three.game",
        game: "nothree",
        params: &["s"],
        shape: Shape::Value,
        full: 16,
        smoke: 8,
        baseline: |n| Answer::Value(baselines::no_three(n).into()),
        octal: None,
    },
    Workload {
        name: "king3d",
        file: "king3d.game",
        game: "king",
        params: &["p"],
        shape: Shape::Value,
        full: 120,
        smoke: 10,
        baseline: |n| Answer::Value(baselines::king3d(n).into()),
        octal: None,
    },
    Workload {
        name: "cram_rows",
        file: "cram_rows.game",
        game: "cram",
        params: &["rows"],
        shape: Shape::Value,
        full: 7,
        smoke: 3,
        // The same game as `cram`, on the same board.
        baseline: |n| Answer::Value(pairs::cram(n).into()),
        octal: None,
    },
    Workload {
        name: "cold_take",
        file: "cold_take.game",
        game: "picky",
        params: &["n"],
        shape: Shape::Seq,
        full: 5000,
        smoke: 300,
        baseline: |n| Answer::Seq(baselines::cold_take(n)),
        octal: None,
    },
    Workload {
        name: "one_pass",
        file: "one_pass.game",
        game: "heap",
        params: &["n", "spent"],
        shape: Shape::Value,
        full: 1_000_000,
        smoke: 1000,
        baseline: |n| Answer::Value(baselines::one_pass(n).into()),
        octal: None,
    },
    Workload {
        name: "passes",
        file: "passes.game",
        game: "heap",
        params: &["n", "passes"],
        shape: Shape::Value,
        full: 1_000_000,
        smoke: 1000,
        baseline: |n| Answer::Value(baselines::passes(n).into()),
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

    /// Writes the answer as grundy prints it, so the baseline pays for the
    /// same output. It goes straight out, as a hand-written program's would.
    pub fn write_answer(&self, answer: &Answer, out: &mut impl Write) -> io::Result<()> {
        match answer {
            Answer::Seq(values) => self.write_seq(values, out),
            Answer::Grid(rows) => self.write_grid(rows, out),
            Answer::Value(v) => writeln!(out, "{v}"),
            Answer::FirstWins(true) => writeln!(out, "first"),
            Answer::FirstWins(false) => writeln!(out, "second"),
        }
    }

    /// A sequence in rows of ten, labelled by their first index, under a
    /// header `+0 ... +9`; labels and cells right-aligned to the widest.
    fn write_seq(&self, values: &[u32], out: &mut impl Write) -> io::Result<()> {
        let (game, n) = (self.game, self.params[0]);
        let Some(last) = values.len().checked_sub(1) else {
            return writeln!(out, "{game}({n}): no positions in the range");
        };
        writeln!(out, "{game}({n}), {n} = 0..={last}")?;
        let columns = values.len().min(10);
        let label_w = width(last / 10 * 10).max(n.chars().count());
        let cell_w = width(max(values)).max(2); // +0 .. +9
        write!(out, "{n:>label_w$} |")?;
        for i in 0..columns {
            write!(out, " {:>cell_w$}", format!("+{i}"))?;
        }
        writeln!(out)?;
        for (r, row) in values.chunks(10).enumerate() {
            write!(out, "{:>label_w$} |", 10 * r)?;
            for v in row {
                write!(out, " {v:>cell_w$}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// A grid with a row per value of the first parameter and a column per
    /// value of the second.
    fn write_grid(&self, grid: &[Vec<u32>], out: &mut impl Write) -> io::Result<()> {
        let (game, x, y) = (self.game, self.params[0], self.params[1]);
        if grid.is_empty() || grid[0].is_empty() {
            return writeln!(out, "{game}({x}, {y}): no positions in the ranges");
        }
        let (a, b) = (grid.len() - 1, grid[0].len() - 1);
        writeln!(
            out,
            "{game}({x}, {y}), {x} = 0..={a} (rows), {y} = 0..={b} (columns)"
        )?;
        let corner = format!("{x}\\{y}");
        let label_w = width(a).max(corner.chars().count());
        let cell_w = width(b).max(width(max(&grid.concat())));
        write!(out, "{corner:>label_w$} |")?;
        for j in 0..=b {
            write!(out, " {j:>cell_w$}")?;
        }
        writeln!(out)?;
        for (i, row) in grid.iter().enumerate() {
            write!(out, "{i:>label_w$} |")?;
            for v in row {
                write!(out, " {v:>cell_w$}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}
