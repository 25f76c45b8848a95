//! Reading back what a workload's script printed, and telling two
//! answers apart.

use super::Answer;

pub(super) fn max(values: &[u32]) -> usize {
    values.iter().copied().max().unwrap_or(0) as usize
}

/// The number of digits of `n`.
pub(super) fn width(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The value rows of a printed table: after the title, every line whose
/// label (left of `|`) is a number. Each label must be the index of the
/// row's first value (1-D) or the row's index (2-D); all else is an error.
pub(super) fn parse_rows(out: &str, grid: bool) -> Result<Vec<Vec<u32>>, String> {
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
