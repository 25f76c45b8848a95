//! Runs one child process and measures it: wall time, CPU time (user +
//! system) and peak resident memory, from `wait4`'s resource usage of that
//! child alone. Its standard output is read to the end through a pipe, so
//! printing costs the child what it would cost on a terminal or a file.

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
        let reaped = reap(pid);
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
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        let stderr = String::from_utf8_lossy(&stderr);
        return Outcome::Failed(format!("{cmd:?}: {}\n{stderr}", describe(status)));
    }
    Outcome::Done(Measured {
        wall: end - start,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak_kib: usage.ru_maxrss as u64, // KiB on Linux
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
    })
}

fn read_all(mut from: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

/// Waits for the child `pid` to end: its wait status and resource usage.
fn reap(pid: libc::pid_t) -> (libc::c_int, libc::rusage) {
    let mut status = 0;
    // SAFETY: rusage is plain data, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals of the right types.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return (status, usage);
        }
        let err = std::io::Error::last_os_error();
        assert_eq!(err.kind(), std::io::ErrorKind::Interrupted, "wait4: {err}");
    }
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
