//! `cargo bench --bench speed`: grundy side by side with hand-written Rust
//! programs doing the same naive computation, and with ogsolve where it is
//! installed. Every program runs in a child process of its own; the report
//! gives CPU time, wall time and peak memory, and checks that every program
//! printed the same answer. BENCHMARKS.md describes the flags and the
//! workloads.

mod baselines;
mod child;
mod known;
mod measure;
mod pairs;
#[path = "../../tests/support/reap.rs"]
mod reap;
mod report;
mod workloads;

use measure::Runner;
use std::process::ExitCode;
use std::time::Duration;
use workloads::Workload;

const USAGE: &str = "\
usage: cargo bench --bench speed [-- FLAGS]
  --runs K           run each program K times, report the median (default 1)
  --only NAME,...    only these workloads
  --scaling          Kayles at N = 5000, 10000, 20000, 40000
  --smoke            every workload at a small size, as in CI
  --timeout SECS     kill a child after SECS seconds (default 1800)";

struct Options {
    runs: usize,
    only: Option<Vec<String>>,
    scaling: bool,
    smoke: bool,
    timeout: Duration,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.get(..2) {
        Some([child, kind]) if child == "--child" && kind == "measure" => {
            return child::launcher_main(&args[2..]);
        }
        Some([child, _]) if child == "--child" => return child_main(&args[1..]),
        _ => {}
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match parse_args(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("speed: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let wrong = known::check();
    if !wrong.is_empty() {
        eprintln!("speed: {}", wrong.join("\nspeed: "));
        return ExitCode::FAILURE;
    }
    let dir = std::env::temp_dir().join(format!("grundy-speed-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("speed: {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let runner = Runner {
        dir: dir.clone(),
        timeout: options.timeout,
        runs: options.runs,
        ogsolve: measure::find_ogsolve(),
    };
    let ok = if options.scaling {
        scaling(&runner, &options)
    } else {
        side_by_side(&runner, &options)
    };
    let _ = std::fs::remove_dir_all(&dir);
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("speed: FAILED: a program failed, timed out or gave another answer (see above)");
        ExitCode::FAILURE
    }
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        runs: 1,
        only: None,
        scaling: false,
        smoke: false,
        timeout: Duration::from_secs(1800),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--runs" => {
                let k = value()?.parse().ok().filter(|&k| k > 0);
                options.runs = k.ok_or("--runs takes a positive count")?;
            }
            "--only" => options.only = Some(value()?.split(',').map(String::from).collect()),
            "--scaling" => options.scaling = true,
            "--smoke" => options.smoke = true,
            "--timeout" => {
                let secs = value()?.parse().ok().filter(|&s: &f64| s > 0.0);
                let secs = secs.ok_or("--timeout takes a positive number of seconds")?;
                options.timeout = Duration::from_secs_f64(secs);
            }
            "--bench" => {} // passed by cargo bench
            other => eprintln!("speed: ignoring {other:?}"),
        }
    }
    for name in options.only.iter().flatten() {
        if workloads::find(name).is_none() {
            let names: Vec<&str> = workloads::ALL.iter().map(|w| w.name).collect();
            return Err(format!(
                "no workload {name:?}; there are {}",
                names.join(", ")
            ));
        }
    }
    Ok(options)
}

/// `--child baseline NAME N`: computes a baseline's answer and prints it
/// as grundy would.
fn child_main(args: &[String]) -> ExitCode {
    let (w, n) = match args {
        [kind, name, n] if kind == "baseline" => (workloads::find(name), n.parse().ok()),
        _ => (None, None),
    };
    let (Some(w), Some(n)) = (w, n) else {
        eprintln!("speed: usage: --child baseline NAME N");
        return ExitCode::from(2);
    };
    let answer = (w.baseline)(n);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match w
        .write_answer(&answer, &mut out)
        .and_then(|()| std::io::Write::flush(&mut out))
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// Every chosen workload, full size (or smoke size), one row each.
fn side_by_side(runner: &Runner, options: &Options) -> bool {
    let chosen: Vec<&Workload> = workloads::ALL
        .iter()
        .filter(|w| {
            options
                .only
                .as_ref()
                .is_none_or(|o| o.iter().any(|n| n == w.name))
        })
        .collect();
    report::preamble(runner);
    report::side_by_side_header();
    let mut ok = true;
    for w in chosen {
        let n = if options.smoke { w.smoke } else { w.full };
        let row = runner.compare(w, n);
        report::side_by_side_row(w.name, n, &row);
        ok &= !row.failed();
    }
    ok
}

/// Kayles at growing sizes: the cost per N² of each program.
fn scaling(runner: &Runner, options: &Options) -> bool {
    let kayles = workloads::find("kayles").expect("the kayles workload");
    let sizes: &[usize] = if options.smoke {
        &[500, 1000, 2000, 4000]
    } else {
        &[5000, 10_000, 20_000, 40_000]
    };
    report::preamble(runner);
    report::scaling_header();
    let mut ok = true;
    for &n in sizes {
        let row = runner.compare(kayles, n);
        report::scaling_row(n, &row);
        ok &= !row.failed();
    }
    ok
}
