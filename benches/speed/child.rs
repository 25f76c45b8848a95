//! Runs one child process and measures it: wall time, CPU time (user +
//! system) and peak resident memory, from `wait4`'s resource usage of that
//! child alone. Its standard output is read to the end through a pipe, so
//! printing costs the child what it would cost on a terminal or a file.
//!
//! Linux counts in a child's peak memory the peak of the process it was
//! started from (the memory it had before its `exec`), and the harness
//! grows as it reads answers. So the harness measures each program through
//! a launcher, a fresh and small copy of this binary (`--child measure`),
//! which starts the program, measures it and reports back.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// What one run of a child took, and what it printed.
pub struct Measured {
    pub wall: Duration,
    /// User plus system CPU time.
    pub cpu: Duration,
    /// Peak resident set size, in KiB.
    pub peak_kib: u64,
    pub stdout: String,
    pub stderr: String,
}

pub enum Outcome {
    Done(Measured),
    /// Killed after the timeout.
    TimedOut(Duration),
    /// It could not start, or it did not exit with 0.
    Failed(String),
}

/// Runs `cmd` to its end, or kills it after `timeout`.
pub fn run(cmd: &mut Command, timeout: Duration) -> Outcome {
    let start = Instant::now();
    let mut child = match cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return Outcome::Failed(format!("cannot start {cmd:?}: {e}")),
    };
    let pid = child.id() as libc::pid_t;
    let stdout = read_all(child.stdout.take().expect("piped"));
    let stderr = read_all(child.stderr.take().expect("piped"));
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let reaped = crate::reap::reap(pid);
        let _ = tx.send((reaped, Instant::now()));
    });
    let (((status, usage), end), killed) = match rx.recv_timeout(timeout) {
        Ok(done) => (done, false),
        Err(_) => {
            // SAFETY: the child has not been reaped yet (the waiter has not
            // reported), so `pid` is still the child's.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            (rx.recv().expect("the waiter reports"), true)
        }
    };
    let stdout = stdout.join().expect("reader");
    let stderr = stderr.join().expect("reader");
    if killed {
        return Outcome::TimedOut(timeout);
    }
    drop(child); // already reaped: dropping it neither waits nor kills
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Outcome::Failed(format!("{cmd:?}: {}\n{stderr}", describe(status)));
    }
    Outcome::Done(Measured {
        wall: end - start,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak_kib: usage.ru_maxrss as u64, // KiB on Linux
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr,
    })
}

/// The last line a launcher writes to stderr starts with this.
const REPORT: &str = "speed-measure:";

/// Runs `cmd` through a launcher (see the top of this file), which kills it
/// after `timeout`.
pub fn run_isolated(cmd: &Command, timeout: Duration) -> Outcome {
    let me = std::env::current_exe().expect("the path of this program");
    let mut launcher = Command::new(me);
    launcher.args([
        "--child",
        "measure",
        &timeout.as_secs_f64().to_string(),
        "--",
    ]);
    launcher.arg(cmd.get_program()).args(cmd.get_args());
    let l = match run(&mut launcher, timeout + Duration::from_secs(60)) {
        Outcome::Done(l) => l,
        other => return other,
    };
    let (before, report) = l
        .stderr
        .trim_end()
        .rsplit_once('\n')
        .unwrap_or(("", &l.stderr));
    let words: Vec<&str> = report.split_whitespace().collect();
    let number = |i: usize| {
        words
            .get(i)
            .and_then(|w| w.parse::<u64>().ok())
            .unwrap_or(0)
    };
    match words.get(..2) {
        Some([REPORT, "done"]) => Outcome::Done(Measured {
            cpu: Duration::from_nanos(number(2)),
            wall: Duration::from_nanos(number(3)),
            peak_kib: number(4),
            stdout: l.stdout,
            stderr: before.to_string(),
        }),
        Some([REPORT, "timeout"]) => Outcome::TimedOut(timeout),
        Some([REPORT, "failed"]) => Outcome::Failed(before.to_string()),
        _ => Outcome::Failed(format!("the launcher reported nothing:\n{}", l.stderr)),
    }
}

/// `--child measure SECS -- PROGRAM ARGS...`: runs the program, passes its
/// output on, and reports what it took as the last line of stderr.
pub fn launcher_main(args: &[String]) -> std::process::ExitCode {
    let secs = args.first().and_then(|s| s.parse::<f64>().ok());
    let (Some(secs), Some("--"), Some(program)) =
        (secs, args.get(1).map(String::as_str), args.get(2))
    else {
        eprintln!("speed: usage: --child measure SECS -- PROGRAM ARGS...");
        return std::process::ExitCode::from(2);
    };
    let mut cmd = Command::new(program);
    cmd.args(&args[3..]);
    match run(&mut cmd, Duration::from_secs_f64(secs)) {
        Outcome::Done(m) => {
            use std::io::Write;
            let _ = std::io::stdout().lock().write_all(m.stdout.as_bytes());
            eprint!("{}", m.stderr);
            let (cpu, wall) = (m.cpu.as_nanos(), m.wall.as_nanos());
            eprintln!("\n{REPORT} done {cpu} {wall} {}", m.peak_kib);
        }
        Outcome::TimedOut(_) => eprintln!("\n{REPORT} timeout"),
        Outcome::Failed(e) => eprintln!("{e}\n{REPORT} failed"),
    }
    std::process::ExitCode::SUCCESS
}

fn read_all(mut from: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

fn seconds(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

fn describe(status: libc::c_int) -> String {
    if libc::WIFEXITED(status) {
        format!("exit code {}", libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        format!("killed by signal {}", libc::WTERMSIG(status))
    } else {
        format!("wait status {status}")
    }
}
