//! The `grundy` command line: `run`, `check`, `eval`, `graph`, `plot` and `repl` (the
//! default when no command is given: `grundy FILE...` is `grundy repl FILE...`).

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod maths;

use clap::{Parser, Subcommand};
use grundy::draw::{GraphRequest, PlotRequest};
use grundy::progress::{Clearing, Pulse, Watch};
use grundy::repl::Repl;
use grundy::runtime::Limits;
use grundy::runtime::transitions::Bounds;
use grundy::session::{Format, Outcome, Session, Stage, exit};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Write the rules of impartial games; ask who wins.
#[derive(Parser)]
#[command(
    name = "grundy",
    version,
    about,
    long_about = None,
    // Files without a command start the REPL; clap still reads the first
    // word as a command when it names one.
    override_usage = "grundy [OPTIONS] [FILE]...\n       grundy [OPTIONS] <COMMAND>",
    after_help = "Exit codes: 0 success, 1 an expect failed, 2 usage error, 3 error in a script, \
                  4 a limit was exceeded, 130 interrupted."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// With no command: load these files, then start the REPL (as `grundy repl FILE...`).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Stop with an error after this many positions reached (guards against runaway rules).
    #[arg(long, global = true, default_value_t = 25_000_000, value_name = "N")]
    max_states: usize,

    /// Stop with an error when user functions nest deeper than this.
    #[arg(long, global = true, default_value_t = 100_000, value_name = "N")]
    max_depth: usize,

    /// Stop with an error when a list, set, tuple or string would hold more items than this.
    #[arg(long, global = true, default_value_t = 10_000_000, value_name = "N")]
    max_items: usize,

    /// Stop with an error after this long: `30s`, `1.5s`, `500ms`, `2m` (a bare number is
    /// seconds). In the REPL the limit applies to each entry.
    #[arg(long, global = true, value_name = "TIME", value_parser = parse_duration)]
    timeout: Option<Duration>,

    /// Stop with an error when grundy's memory (resident) grows past this: `512M`, `4G`,
    /// `1.5G` (K, M, G, T are powers of 1024; a bare number is bytes). Default: 4G, or half
    /// the physical memory if that is less.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,

    /// Show no progress line (it is shown on a terminal only, for evaluations longer than a
    /// second, and never when the CI environment variable is set).
    #[arg(short, long, global = true)]
    quiet: bool,

    /// After `run` or `eval`, print how each game's rules run: compiled or interpreted, and
    /// which construct sends a move down a slower path, with what to write instead.
    #[arg(long, global = true)]
    explain: bool,

    /// Print a stage of the pipeline as it is produced: ast, ir, graph (repeatable).
    #[arg(long, global = true, value_name = "STAGE")]
    debug: Vec<DebugStage>,

    /// Color diagnostics: auto (only on a terminal, and never with NO_COLOR), always, never.
    #[arg(long, global = true, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,

    /// How to print results, expects and errors: text, or json (one JSON object per line on
    /// stdout, everything else on stderr; see docs/json.md).
    #[arg(long, global = true, default_value = "text", value_name = "FORMAT")]
    format: OutputFormat,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum OutputFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DebugStage {
    Ast,
    Ir,
    Graph,
}

#[derive(Subcommand)]
enum Command {
    /// Run scripts in order, printing each bare expression's value (`-` reads stdin).
    Run {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Parse and check scripts without evaluating anything.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Load the files, then evaluate one expression and print it.
    Eval {
        /// The expression, e.g. `value(kayles(10))`.
        #[arg(short = 'e', long = "expr", value_name = "EXPR")]
        expr: String,
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Draw the transition graph of a position as Graphviz DOT (on standard output
    /// without -o), or as SVG or PNG with Graphviz's `dot`.
    Graph {
        /// The script that defines the game (run first, its results not printed).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The position, e.g. `kayles(4)` or `kayles(3) + kayles(5)`.
        #[arg(value_name = "EXPR")]
        expr: String,
        /// Write to this file: `.dot`, `.svg` or `.png` (the last two need Graphviz).
        #[arg(short, long, value_name = "OUT")]
        output: Option<PathBuf>,
        /// Draw positions at most this many moves from the start.
        #[arg(long, default_value_t = Bounds::default().depth, value_name = "N")]
        depth: usize,
        /// Draw at most this many nodes (positions and sums).
        #[arg(long, default_value_t = Bounds::default().nodes, value_name = "N",
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        max_nodes: usize,
    },
    /// Plot the nim-sequence of a one-parameter game as SVG or PNG.
    Plot {
        /// The script that defines the game (run first, its results not printed).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The game, e.g. `kayles`.
        #[arg(value_name = "GAME")]
        game: String,
        /// The values of its parameter, e.g. `0..=100`.
        #[arg(value_name = "RANGE")]
        range: String,
        /// The file to write: `.svg` or `.png`.
        #[arg(short, long, value_name = "OUT", required = true)]
        output: PathBuf,
        /// The size of the chart in pixels, WIDTHxHEIGHT.
        #[arg(long, default_value = "960x540", value_name = "WxH",
              value_parser = grundy::render::plot::parse_size)]
        size: (u32, u32),
    },
    /// Explore interactively (the default): load the files, then read entries.
    /// On a pipe it reads entries from stdin with no prompts.
    Repl {
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print the values of the files' bare expressions as they load (by default they are
        /// not printed; `print(...)`, failed `expect`s and errors show either way).
        #[arg(short, long)]
        verbose: bool,
    },
}

fn read_source(path: &PathBuf) -> Result<(String, String), String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(("<stdin>".into(), text));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    Ok((path.display().to_string(), text))
}

/// A time such as `30s`, `1.5s`, `500ms`, `2m` or `1h`; a bare number is seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale = match unit.trim() {
        "" | "s" => 1.0,
        "ms" => 0.001,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => return Err(format!("unknown unit `{other}`: use ms, s, m or h")),
    };
    let number: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a time such as `30s` or `500ms`"))?;
    Duration::try_from_secs_f64(number * scale).map_err(|e| format!("`{text}`: {e}"))
}

/// A size such as `64M`, `4G`, `1.5G` or `4GiB`; a bare number is bytes.
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit.trim_end_matches("IB").trim_end_matches('B');
    let scale = match unit {
        "" => 1u64,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        other => return Err(format!("unknown unit `{other}`: use K, M, G or T")),
    };
    let number: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size such as `512M` or `4G`"))?;
    let bytes = number * scale as f64;
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("`{text}` is not a size grundy can use"));
    }
    Ok(bytes as u64)
}

/// The memory limit when `--max-memory` is not given: 4 GiB, or half the
/// physical memory when that is less, so that runaway rules stop before
/// the machine starts to swap.
fn default_max_memory() -> u64 {
    let four_gib = 4 << 30;
    grundy::progress::physical_memory().map_or(four_gib, |total| four_gib.min(total / 2))
}

/// Whether to draw a progress line on long evaluations: on a terminal,
/// outside CI, unless `--quiet`.
fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

/// Runs `each` over the files in order, stopping at the first error.
fn for_files(
    session: &mut Session,
    files: &[PathBuf],
    each: fn(&mut Session, &str, &str) -> Outcome,
) -> Result<Outcome, i32> {
    let mut total = Outcome::default();
    for path in files {
        let (name, text) = read_source(path).map_err(|msg| {
            session.usage_error(&msg);
            exit::USAGE
        })?;
        total.merge(each(session, &name, &text));
        if total.error.is_some() {
            break;
        }
    }
    Ok(total)
}

/// `graph` and `plot`: the output's format checked, the file loaded
/// without printing its results, then `draw`.
fn load_then<F>(
    session: &mut Session,
    file: &PathBuf,
    format: Result<F, i32>,
    draw: impl FnOnce(&mut Session) -> Result<Outcome, i32>,
) -> Result<Outcome, i32> {
    format?;
    session.quiet = true;
    let mut total = for_files(session, std::slice::from_ref(file), Session::run)?;
    if total.error.is_none() {
        total.merge(draw(session)?);
    }
    Ok(total)
}

fn main_with(cli: Cli) -> i32 {
    let pulse = Arc::new(Pulse::default());
    let progress = show_progress(cli.quiet);
    let (stdout, stderr): (Box<dyn Write>, Box<dyn Write>) = match progress {
        // Output takes the progress line away before it is written.
        true => (
            Box::new(Clearing {
                inner: std::io::stdout(),
                pulse: pulse.clone(),
            }),
            Box::new(Clearing {
                inner: std::io::stderr(),
                pulse: pulse.clone(),
            }),
        ),
        false => (Box::new(std::io::stdout()), Box::new(std::io::stderr())),
    };
    let mut session = Session::new(Box::new(std::io::BufWriter::new(stdout)), stderr);
    session.color = use_color(cli.color);
    session.set_format(match cli.format {
        OutputFormat::Text => Format::Human,
        OutputFormat::Json => Format::Json,
    });
    let max_memory = cli.max_memory.unwrap_or_else(default_max_memory);
    session.machine.limits = Limits {
        max_states: cli.max_states,
        max_depth: cli.max_depth,
        max_items: cli.max_items,
        timeout: cli.timeout,
        max_memory: Some(max_memory),
    };
    session.machine.pulse = pulse.clone();
    grundy::progress::watch(
        pulse,
        Watch {
            progress,
            max_memory: Some(max_memory),
            cancel: session.machine.cancel.clone(),
        },
    );
    session.debug = cli
        .debug
        .iter()
        .map(|d| match d {
            DebugStage::Ast => Stage::Ast,
            DebugStage::Ir => Stage::Ir,
            DebugStage::Graph => Stage::Graph,
        })
        .collect();
    let command = cli.command.unwrap_or(Command::Repl {
        files: cli.files,
        verbose: false,
    });
    if !matches!(command, Command::Repl { .. }) {
        cancel_on_ctrl_c(session.machine.cancel.clone());
    }
    session.machine.start_clock();
    let result = match &command {
        Command::Run { files } => for_files(&mut session, files, Session::run),
        Command::Check { files } => for_files(&mut session, files, Session::check),
        Command::Eval { expr, files } => {
            for_files(&mut session, files, Session::run).map(|loaded| {
                if loaded.error.is_some() {
                    loaded
                } else {
                    let mut total = loaded;
                    total.merge(session.eval(expr));
                    total
                }
            })
        }
        Command::Graph {
            file,
            expr,
            output,
            depth,
            max_nodes,
        } => {
            let request = GraphRequest {
                expr: expr.clone(),
                output: output.clone(),
                bounds: Bounds {
                    depth: *depth,
                    nodes: *max_nodes,
                },
            };
            load_then(&mut session, file, request.format(), |s| request.run(s))
        }
        Command::Plot {
            file,
            game,
            range,
            output,
            size,
        } => {
            let request = PlotRequest {
                game: game.clone(),
                range: range.clone(),
                output: output.clone(),
                size: *size,
            };
            load_then(&mut session, file, request.format(), |s| request.run(s))
        }
        Command::Repl { files, verbose } => return repl(session, files, *verbose, progress),
    };
    session.machine.pulse.end();
    let _ = session.machine.out.flush();
    if cli.explain && matches!(command, Command::Run { .. } | Command::Eval { .. }) {
        let text = session.explain(None);
        let out = session.human_out();
        let _ = write!(out, "{}", text.unwrap_or_else(|e| e + "\n"));
        let _ = out.flush();
    }
    let code = match result {
        Ok(outcome) => outcome.exit_code(),
        Err(code) => code,
    };
    // Freeing the session's values one at a time (a `let` of 300,000
    // adjacency lists) can take as long as computing them: the process's
    // end frees them all at once. Both writers were flushed above, and
    // nothing is written after.
    std::mem::forget(session);
    code
}

fn repl(mut session: Session, files: &[PathBuf], verbose: bool, progress: bool) -> i32 {
    let terminal = std::io::stdin().is_terminal();
    if !terminal {
        // A pipe gets plain text, whatever --color says of diagnostics.
        session.color = false;
    }
    // Results go out as they come, not when a buffer fills.
    session.machine.out = match progress {
        true => Box::new(Clearing {
            inner: std::io::stdout(),
            pulse: session.machine.pulse.clone(),
        }),
        false => Box::new(std::io::stdout()),
    };
    let mut repl = Repl::new(session);
    repl.verbose = verbose;
    repl.load(files, verbose);
    if terminal {
        let color = repl.session.color;
        grundy::repl::interactive(&mut repl, color)
    } else {
        grundy::repl::piped(&mut repl, std::io::stdin().lock())
    }
}

/// Ctrl-C in `run`, `check` or `eval` cancels the evaluation, which ends
/// with exit code 130; a second Ctrl-C, if the first was not noticed,
/// quits at once. (The REPL sets its own handler.)
fn cancel_on_ctrl_c(cancel: Arc<AtomicBool>) {
    let handler = move || {
        if cancel.swap(true, Ordering::Relaxed) {
            let _ = writeln!(std::io::stderr(), "grundy: interrupted");
            std::process::exit(exit::INTERRUPTED);
        }
    };
    if let Err(e) = ctrlc::set_handler(handler) {
        let _ = writeln!(std::io::stderr(), "warning: Ctrl-C will quit at once: {e}");
    }
}

fn main() {
    let cli = Cli::parse();
    // The REPL applies the time limit to each entry and must outlive it.
    let repl = matches!(cli.command, None | Some(Command::Repl { .. }));
    let hard_limit = cli.timeout.filter(|_| !repl);
    // The evaluator needs no deep stack, but user functions may recurse
    // (up to the depth limit): give the interpreter room for that.
    let (done, finished) = std::sync::mpsc::channel();
    let worker = std::thread::Builder::new()
        .stack_size(grundy::sandbox::STACK_SIZE)
        .spawn(move || {
            let code = main_with(cli);
            let _ = done.send(());
            code
        })
        .expect("cannot start the interpreter thread");
    if let Some(limit) = hard_limit {
        // The interpreter stops itself at the limit wherever it looks at
        // the clock; this is for the rare place that does not look.
        let grace = (limit / 10).max(Duration::from_secs(1));
        if finished.recv_timeout(limit + grace).is_err() {
            eprintln!(
                "Error: the time limit of {} was reached and the evaluation did not stop; \
                 grundy was stopped",
                grundy::runtime::show_duration(limit)
            );
            std::process::exit(exit::LIMIT);
        }
    }
    let code = worker.join().unwrap_or(exit::SCRIPT_ERROR);
    std::process::exit(code);
}
