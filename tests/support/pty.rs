//! The binary on a pseudo-terminal, for the tests that type at it as a
//! person would: a fresh history file per test, the session started, keys
//! and lines typed, and a clean exit checked. ANSI escapes are stripped
//! from what it prints.

use rexpect::reader::Options;
use rexpect::session::{PtySession, spawn_with_options};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Generous: a step that works takes milliseconds, but CI machines are
/// shared. Only a hang waits this long.
const TIMEOUT_MS: u64 = 20_000;

/// A fresh history file `name` in the folder `dir` of the tests' scratch.
pub fn history(dir: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Starts `grundy ARGS` on a terminal, with its history in `history`.
pub fn spawn(args: &[&str], history: &Path) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TERM", "xterm")
        .env("GRUNDY_HISTORY", history)
        .env_remove("NO_COLOR");
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    spawn_with_options(cmd, options).expect("grundy starts on a terminal")
}

/// Types keys (`\r` is Enter, `\t` Tab, `\x1b[A` Up).
pub fn keys(p: &mut PtySession, keys: &str) {
    p.send(keys).unwrap();
    p.flush().unwrap();
}

/// Types a line and presses Enter.
pub fn enter(p: &mut PtySession, line: &str) {
    keys(p, &format!("{line}\r"));
}

/// Leaves with Ctrl-D at the REPL's next prompt and checks the exit
/// status is 0. (A Ctrl-D typed while an entry runs goes to the
/// terminal, not the REPL.)
pub fn quit(mut p: PtySession) {
    p.exp_string("grundy> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
    let status = p.process_mut().wait().unwrap();
    assert!(
        format!("{status:?}").ends_with(", 0)"),
        "expected exit status 0: {status:?}"
    );
}
