//! The printed report: markdown tables, one row printed as soon as it is
//! measured.

use crate::measure::{Cell, Row, Runner, Stats};
use std::time::Duration;

const SIDE_BY_SIDE: [&str; 9] = [
    "workload",
    "N",
    "grundy CPU (wall)",
    "baseline CPU (wall)",
    "time ratio",
    "grundy peak RSS",
    "baseline peak RSS",
    "memory ratio",
    "ogsolve CPU",
];

const SCALING: [&str; 8] = [
    "N",
    "grundy CPU",
    "baseline CPU",
    "time ratio",
    "grundy ns/N²",
    "baseline ns/N²",
    "ogsolve CPU",
    "ogsolve ns/N²",
];

/// What the figures mean.
pub fn preamble(runner: &Runner) {
    let runs = match runner.runs {
        1 => "one run".to_string(),
        k => format!("the median of {k} runs"),
    };
    let ogsolve = match &runner.ogsolve {
        Some(path) => format!("ogsolve: {}", path.display()),
        None => "ogsolve: not on the PATH".to_string(),
    };
    println!(
        "CPU time is user + system time of the child process, {runs}; ratios are grundy / baseline."
    );
    println!("{ogsolve}\n");
}

pub fn side_by_side_header() {
    print_line(&SIDE_BY_SIDE, &SIDE_BY_SIDE.map(String::from));
    print_line(
        &SIDE_BY_SIDE,
        &SIDE_BY_SIDE.map(|h| "-".repeat(h.chars().count())),
    );
}

pub fn side_by_side_row(name: &str, n: usize, row: &Row) {
    let both = |f: fn(&Stats, &Stats) -> String| match (&row.grundy, &row.baseline) {
        (Ok(g), Ok(b)) => f(g, b),
        (Err(e), _) | (_, Err(e)) => e.to_string(),
    };
    print_line(
        &SIDE_BY_SIDE,
        &[
            name.to_string(),
            n.to_string(),
            cell(&row.grundy, |s| {
                format!("{} ({})", time(s.cpu), time(s.wall))
            }),
            cell(&row.baseline, |s| {
                format!("{} ({})", time(s.cpu), time(s.wall))
            }),
            both(|g, b| ratio(secs(g.cpu) / secs(b.cpu))),
            cell(&row.grundy, |s| memory(s.peak_kib)),
            cell(&row.baseline, |s| memory(s.peak_kib)),
            both(|g, b| ratio(g.peak_kib as f64 / b.peak_kib as f64)),
            ogsolve(row, |s| time(s.cpu)),
        ],
    );
}

pub fn scaling_header() {
    print_line(&SCALING, &SCALING.map(String::from));
    print_line(&SCALING, &SCALING.map(|h| "-".repeat(h.chars().count())));
}

pub fn scaling_row(n: usize, row: &Row) {
    let per_n2 = move |s: &Stats| format!("{:.2}", secs(s.cpu) * 1e9 / (n as f64 * n as f64));
    let ratio_cell = match (&row.grundy, &row.baseline) {
        (Ok(g), Ok(b)) => ratio(secs(g.cpu) / secs(b.cpu)),
        (Err(e), _) | (_, Err(e)) => e.to_string(),
    };
    print_line(
        &SCALING,
        &[
            n.to_string(),
            cell(&row.grundy, |s| time(s.cpu)),
            cell(&row.baseline, |s| time(s.cpu)),
            ratio_cell,
            cell(&row.grundy, per_n2),
            cell(&row.baseline, per_n2),
            ogsolve(row, |s| time(s.cpu)),
            ogsolve(row, per_n2),
        ],
    );
}

fn cell(c: &Cell, f: impl Fn(&Stats) -> String) -> String {
    match c {
        Ok(s) => f(s),
        Err(word) => word.to_string(),
    }
}

fn ogsolve(row: &Row, f: impl Fn(&Stats) -> String) -> String {
    match &row.ogsolve {
        Some(c) => cell(c, f),
        None => "—".to_string(),
    }
}

/// One table line, each cell padded to its column's header.
fn print_line(heads: &[&str], cells: &[String]) {
    let padded: Vec<String> = cells
        .iter()
        .zip(heads)
        .map(|(c, h)| format!("{c:<w$}", w = h.chars().count()))
        .collect();
    println!("| {} |", padded.join(" | "));
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// A duration with three significant digits: `185 s`, `2.31 s`, `265 ms`,
/// `3.70 ms`.
pub fn time(d: Duration) -> String {
    let s = secs(d);
    match s {
        s if s >= 100.0 => format!("{s:.0} s"),
        s if s >= 10.0 => format!("{s:.1} s"),
        s if s >= 1.0 => format!("{s:.2} s"),
        s if s >= 0.1 => format!("{:.0} ms", s * 1e3),
        s if s >= 0.01 => format!("{:.1} ms", s * 1e3),
        s => format!("{:.2} ms", s * 1e3),
    }
}

pub fn memory(kib: u64) -> String {
    let mib = kib as f64 / 1024.0;
    if mib >= 100.0 {
        format!("{mib:.0} MiB")
    } else {
        format!("{mib:.1} MiB")
    }
}

pub fn ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}x")
    } else if r >= 10.0 {
        format!("{r:.1}x")
    } else {
        format!("{r:.2}x")
    }
}
