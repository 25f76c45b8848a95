//! Long evaluations as the binary runs them: the progress line (on a
//! terminal only), Ctrl-C in `grundy run`, and the memory limit that stops
//! runaway rules.

mod common;

use rexpect::reader::Options;
use rexpect::session::spawn_with_options;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A rule that binds `k` over a range too long to finish: it runs until a
/// limit or Ctrl-C stops it, whatever the speed of the machine.
const ENDLESS: &str = "tests/data/endless.game";

/// A subtraction game with no guard: its positions go below zero forever.
const RUNAWAY: &str =
    "game sub(n) {\n    move take(k in [1, 3, 4]) -> sub(n - k)\n}\nvalue(sub(10))\n";

#[test]
fn no_progress_line_on_a_pipe() {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["--timeout", "2s", "run", ENDLESS])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        started.elapsed() > Duration::from_secs(1),
        "the run must be long"
    );
    let stderr = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.starts_with("Error: the time limit of 2s"),
        "{stderr}"
    );
    assert!(!stderr.contains("evaluating"), "{stderr}");
    assert!(!stderr.contains('\r'), "{stderr}");
}

/// Runs `grundy ARGS` on a terminal; everything it printed, escapes out.
fn on_terminal(args: &[&str], ci: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TERM", "xterm")
        .env_remove("CI");
    if ci {
        cmd.env("CI", "true");
    }
    let options = Options::new()
        .timeout_ms(Some(30_000))
        .strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, options).expect("grundy starts on a terminal");
    p.exp_eof().unwrap()
}

#[test]
fn a_long_run_shows_progress_on_a_terminal() {
    let printed = on_terminal(&["--timeout", "3s", "run", ENDLESS], false);
    assert!(printed.contains("evaluating: "), "{printed}");
    assert!(printed.contains("positions, "), "{printed}");
    assert!(printed.contains("the time limit of 3s"), "{printed}");
}

#[test]
fn quiet_and_ci_turn_the_progress_line_off() {
    let quiet = on_terminal(&["--quiet", "--timeout", "2s", "run", ENDLESS], false);
    let ci = on_terminal(&["--timeout", "2s", "run", ENDLESS], true);
    for printed in [quiet, ci] {
        assert!(printed.contains("the time limit of 2s"), "{printed}");
        assert!(!printed.contains("evaluating"), "{printed}");
    }
}

#[test]
fn ctrl_c_stops_run_with_exit_code_130() {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["run", ENDLESS])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: `kill` takes plain integers; it signals only the child above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("evaluation cancelled (Ctrl-C)"), "{stderr}");
}

#[test]
fn the_memory_limit_stops_a_runaway_rule() {
    let started = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args(["--max-memory", "64M", "run", "-"])
        .env("NO_COLOR", "1");
    let out = common::with_stdin(cmd, RUNAWAY);
    let stderr = common::text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.starts_with("Error: the memory limit of 64.0 MiB was reached"),
        "{stderr}"
    );
    assert!(stderr.contains("`n` was still decreasing"), "{stderr}");
    assert!(stderr.contains("--max-memory"), "{stderr}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn sizes_are_read_with_binary_units() {
    for bad in ["12X", "0", "-1M", "M"] {
        let out = common::grundy(&["--max-memory", bad, "check", ENDLESS]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    for good in ["64M", "4G", "1.5g", "4GiB", "100000000"] {
        let out = common::grundy(&["--max-memory", good, "check", ENDLESS]);
        assert_eq!(out.status.code(), Some(0), "{good}");
    }
}
