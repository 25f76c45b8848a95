//! Running untrusted source as the binary does, within small limits. The
//! fuzz target (`fuzz/`) and the fuzz tests (`tests/fuzz.rs`) share it:
//!
//! ```
//! use grundy::sandbox::{Mode, on_interpreter_stack, run};
//! let ran = on_interpreter_stack(|| run("1 / 0", &Mode::Run));
//! assert_eq!(ran.code, 3);
//! assert!(ran.diagnostics.contains("division by zero"));
//! assert_eq!(ran.problem(&Mode::Run), None);
//! ```

pub mod calls;

use crate::SharedBuffer;
use crate::diag::Phase;
use crate::repl::{INTERNAL_ERROR, Repl, piped};
use crate::runtime::Limits;
use crate::session::{Outcome, Session, exit};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// The stack of the interpreter's thread: the evaluator needs no deep
/// stack, but user functions may recurse up to the depth limit.
pub const STACK_SIZE: usize = 512 << 20;

/// Runs `work` on a new thread with a [`STACK_SIZE`] stack, as the binary
/// runs the interpreter. A panic in it is raised again in the caller.
pub fn on_interpreter_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let worker = std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(work)
        .expect("cannot start the interpreter thread");
    match worker.join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Limits small enough that any input finishes in a moment.
pub fn small_limits() -> Limits {
    Limits {
        max_states: 20_000,
        max_depth: 500,
        max_items: 100_000,
        // Counts only in the REPL mode, which starts the clock per entry;
        // the watchdog of `run` bounds the whole run in every mode.
        timeout: Some(DEADLINE),
        max_memory: None,
    }
}

/// How long [`run`] lets a source run before it cancels it, as Ctrl-C does
/// in the REPL: ranges bind lazily, so `k in 1..=10**12` in a rule is
/// bounded work that no other limit cuts short.
pub const DEADLINE: Duration = Duration::from_secs(2);

/// What to do with a source: what a command of the binary does with a file.
#[derive(Clone, Debug)]
pub enum Mode {
    /// `grundy run FILE`.
    Run,
    /// `grundy check FILE`.
    Check,
    /// `grundy eval -e EXPR FILE`: run the source, then the expression.
    Eval(String),
    /// `grundy repl < FILE`: the source piped to the REPL. Lines with
    /// `:load` are dropped, so that no file is read.
    Repl,
}

/// How running a source went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// The exit code the binary would give.
    pub code: i32,
    /// The phase of the error that stopped it, if one did.
    pub error: Option<Phase>,
    /// The diagnostics written, without colors.
    pub diagnostics: String,
    /// It ran past [`DEADLINE`] and was cancelled: nothing can be said of
    /// how it would have ended.
    pub timed_out: bool,
}

impl Ran {
    /// What is wrong with how `mode` went, if anything: an exit code the
    /// README does not give for it, or an exit code that disagrees with
    /// whether diagnostics were written.
    pub fn problem(&self, mode: &Mode) -> Option<String> {
        if self.diagnostics.contains(INTERNAL_ERROR) {
            return Some(format!("{mode:?} panicked:\n{}", self.diagnostics));
        }
        if self.timed_out {
            return None;
        }
        let codes: &[i32] = match mode {
            // Nesting too deep to parse is a limit (4), as documented.
            Mode::Check => &[exit::OK, exit::SCRIPT_ERROR, exit::LIMIT],
            Mode::Run | Mode::Eval(_) => &[
                exit::OK,
                exit::EXPECT_FAILED,
                exit::SCRIPT_ERROR,
                exit::LIMIT,
            ],
            Mode::Repl => &[
                exit::OK,
                exit::EXPECT_FAILED,
                exit::USAGE,
                exit::SCRIPT_ERROR,
                exit::LIMIT,
            ],
        };
        if !codes.contains(&self.code) {
            return Some(format!("{mode:?} exited with {}", self.code));
        }
        match (self.code, self.diagnostics.is_empty()) {
            (exit::OK, false) => Some(format!(
                "{mode:?} exited with 0 but wrote diagnostics:\n{}",
                self.diagnostics
            )),
            (code, true) if code != exit::OK => Some(format!(
                "{mode:?} exited with {code} but wrote no diagnostic"
            )),
            _ => None,
        }
    }
}

/// Does `mode` with `text` in a new session with [`small_limits`], on this
/// thread, printing results nowhere; cancelled after [`DEADLINE`].
pub fn run(text: &str, mode: &Mode) -> Ran {
    run_within(text, mode, DEADLINE, None)
}

/// Runs `text` as `grundy run` does, with the compiled rules (see
/// `src/kernel`) and again with the interpreter alone; what differs
/// between the two, if anything. Runs that were cancelled or met a limit
/// are not compared: the two make positions in another order, so a limit
/// may be met at another place.
pub fn engines_disagree(text: &str) -> Option<String> {
    let [compiled, interpreted] = [true, false].map(|kernels| {
        let out = SharedBuffer::default();
        let ran = run_within(text, &Mode::Run, DEADLINE, Some((out.clone(), kernels)));
        (ran, String::from_utf8_lossy(&out.0.borrow()).into_owned())
    });
    let comparable = |(ran, _): &(Ran, String)| !ran.timed_out && ran.error != Some(Phase::Limit);
    if !comparable(&compiled) || !comparable(&interpreted) || compiled == interpreted {
        return None;
    }
    Some(format!(
        "compiled:\n{}{}\ninterpreted:\n{}{}",
        compiled.1, compiled.0.diagnostics, interpreted.1, interpreted.0.diagnostics
    ))
}

/// [`run`], with `out` (if given) receiving what is printed, and the
/// compiled rules on or off.
fn run_within(
    text: &str,
    mode: &Mode,
    deadline: Duration,
    out: Option<(SharedBuffer, bool)>,
) -> Ran {
    let err = SharedBuffer::default();
    let (stdout, kernels): (Box<dyn std::io::Write>, bool) = match out {
        Some((out, kernels)) => (Box::new(out), kernels),
        None => (Box::new(std::io::sink()), true),
    };
    let mut session = Session::new(stdout, Box::new(err.clone()));
    session.machine.limits = small_limits();
    // Untrusted source writes no files (`plot`).
    session.machine.write_files = false;
    session.machine.use_kernels = kernels;
    // Small programs are what is fuzzed: their machine code is run too.
    session.machine.native_after = 0;
    let (finished, timed_out) = watchdog(session.machine.cancel.clone(), deadline);
    let (code, outcome) = match mode {
        Mode::Run => ended(session.run("fuzz.game", text)),
        Mode::Check => ended(session.check("fuzz.game", text)),
        Mode::Eval(expr) => {
            let mut total = session.run("fuzz.game", text);
            if total.error.is_none() {
                total.merge(session.eval(expr));
            }
            ended(total)
        }
        Mode::Repl => {
            let mut repl = Repl::new(session);
            let code = piped(&mut repl, without_load(text).as_bytes());
            (code, repl.outcome)
        }
    };
    drop(finished);
    let diagnostics = String::from_utf8_lossy(&err.0.borrow()).into_owned();
    Ran {
        code,
        error: outcome.error,
        diagnostics,
        timed_out: timed_out.load(Ordering::Relaxed),
    }
}

/// A thread that sets `cancel` from `deadline` on, again and again (the
/// REPL clears it before each entry), until the sender it returns is
/// dropped. The flag it returns tells whether it did.
fn watchdog(
    cancel: Arc<AtomicBool>,
    deadline: Duration,
) -> (std::sync::mpsc::Sender<()>, Arc<AtomicBool>) {
    let (finished, done) = channel::<()>();
    let fired = Arc::new(AtomicBool::new(false));
    let flag = fired.clone();
    std::thread::Builder::new()
        .name("deadline".into())
        .stack_size(64 << 10)
        .spawn(move || {
            let mut wait = deadline;
            while let Err(RecvTimeoutError::Timeout) = done.recv_timeout(wait) {
                flag.store(true, Ordering::Relaxed);
                cancel.store(true, Ordering::Relaxed);
                wait = Duration::from_millis(10);
            }
        })
        .expect("cannot start the deadline thread");
    (finished, fired)
}

fn ended(outcome: Outcome) -> (i32, Outcome) {
    (outcome.exit_code(), outcome)
}

/// `text` with every REPL command that reads a file blanked out (the line
/// stays, so that line numbers do not change).
fn without_load(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        // As the REPL reads a command: colons, then its name.
        let command = line.trim().trim_start_matches(':');
        let name = command.split(char::is_whitespace).next().unwrap_or("");
        if line.trim_start().starts_with(':') && matches!(name, "load" | "l") {
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_reports_as_the_binary_does() {
        let good = "game g(n) {\n move m if n > 0 -> g(n - 1)\n}\nvalue(g(3))\n";
        let cases = [
            (good, Mode::Run, 0),
            (good, Mode::Check, 0),
            (good, Mode::Eval("value(g(4))".into()), 0),
            (good, Mode::Eval("let x = 1".into()), 3),
            (good, Mode::Repl, 0),
            ("expect 1 == 2\n", Mode::Run, 1),
            ("1 / 0\n", Mode::Run, 3),
            ("1 / 0\n", Mode::Check, 0),
            ("nope\n", Mode::Check, 3),
            ("fn f(n) = f(n + 1)\nf(0)\n", Mode::Run, 4),
            (":nope\n", Mode::Repl, 2),
        ];
        let nested = format!("let x = {}1{}\n", "(".repeat(300), ")".repeat(300));
        let nested: &'static str = nested.leak();
        let cases = cases
            .into_iter()
            .chain([(nested, Mode::Check, 4), (nested, Mode::Run, 4)]);
        for (text, mode, code) in cases {
            let sent = mode.clone();
            let ran = on_interpreter_stack(move || run(text, &sent));
            assert_eq!(ran.code, code, "{text} {mode:?}: {ran:?}");
            assert_eq!(ran.problem(&mode), None, "{text} {mode:?}");
        }
    }

    #[test]
    fn the_repl_reads_no_file() {
        let text = "1\n:load Cargo.toml\n  ::l  x\n:loader\n2";
        assert_eq!(without_load(text), "1\n\n\n:loader\n2");
        let ran = run(":load /nonexistent\n:l /nonexistent\n", &Mode::Repl);
        assert_eq!((ran.code, ran.diagnostics.as_str()), (0, ""));
    }

    #[test]
    fn a_run_past_the_deadline_is_cancelled() {
        // Two slow entries, for the REPL clears a cancellation before each.
        let text = "game g(n) {\n move m(k in 1..=10**15) if k % 7 == 9 -> g(0)\n}\nvalue(g(1))\nvalue(g(2))\n";
        for mode in [Mode::Run, Mode::Repl] {
            let ran = run_within(text, &mode, Duration::from_millis(50), None);
            assert!(ran.timed_out, "{mode:?} {ran:?}");
            assert_eq!(ran.error, Some(Phase::Interrupted), "{mode:?}");
            assert_eq!(ran.problem(&mode), None);
        }
        assert!(!run("1", &Mode::Run).timed_out);
    }

    #[test]
    fn a_panic_on_the_interpreter_stack_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| on_interpreter_stack(|| panic!("boom")));
        assert!(caught.is_err());
    }
}
