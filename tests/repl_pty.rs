//! The REPL on a real terminal: the binary runs in a pseudo-terminal and
//! the tests type at it as a person would, keys and Ctrl- combinations
//! included. ANSI escapes are stripped from what it prints.

#[path = "support/pty.rs"]
mod pty;

use pty::{enter, keys, quit};
use rexpect::session::PtySession;
use std::path::{Path, PathBuf};

/// A fresh history file for one test.
fn history(name: &str) -> PathBuf {
    pty::history("repl-history", name)
}

/// Starts `grundy ARGS` on a terminal, and waits for its first prompt.
fn start(args: &[&str], history: &Path) -> PtySession {
    let mut p = pty::spawn(args, history);
    p.exp_string("type :help for help").unwrap();
    p.exp_string("grundy> ").unwrap();
    p
}

#[test]
fn a_definition_spans_lines_with_a_continuation_prompt() {
    let mut p = start(&["repl", "--color", "always"], &history("multi"));
    enter(&mut p, "game g(n) {");
    p.exp_string("   ...> ").unwrap();
    enter(&mut p, "move m(k in 1..=3) if k <= n -> g(n - k)");
    p.exp_string("   ...> ").unwrap();
    enter(&mut p, "}");
    p.exp_string("grundy> ").unwrap();
    enter(&mut p, "[value(g(n)) for n in 0..9]");
    p.exp_string("[0, 1, 2, 3, 0, 1, 2, 3, 0]").unwrap();
    quit(p);
}

#[test]
fn tab_completes_names_keywords_and_commands() {
    let mut p = start(&["repl", "examples/kayles.game"], &history("complete"));
    // `kay` has one completion, the game the file defined: kayles(4) + *1
    // has value 1 ^ 1 = 0.
    keys(&mut p, "value(kay");
    keys(&mut p, "\t");
    keys(&mut p, "(4) + *1)\r");
    p.exp_string("\r\n0\r\n").unwrap();
    // Built-ins complete too, and `:` commands by their names.
    keys(&mut p, "winn");
    keys(&mut p, "\t");
    keys(&mut p, "(kayles(4))\r");
    p.exp_string("\r\nfirst\r\n").unwrap();
    keys(&mut p, ":gam");
    keys(&mut p, "\t");
    keys(&mut p, "\r");
    p.exp_string("games:").unwrap();
    p.exp_string("kayles(n)").unwrap();
    quit(p);
}

#[test]
fn an_error_keeps_the_session() {
    let mut p = start(&["repl"], &history("error"));
    enter(&mut p, "let K = 3");
    enter(&mut p, "value(nosuch(3))");
    p.exp_string("unknown name `nosuch`").unwrap();
    p.exp_string("<input 2>:1:7").unwrap();
    enter(&mut p, "K * 14");
    p.exp_string("42").unwrap();
    enter(&mut p, ":lod x");
    p.exp_string("did you mean `:load`?").unwrap();
    enter(&mut p, "K + 1");
    // The answer on a line of its own: the history's hint as the line is
    // typed ("K * 14") holds a 4 too, and matching it let `quit` press
    // Ctrl-D at a prompt redrawn before the entry ran.
    p.exp_string("\n4\r\n").unwrap();
    quit(p);
}

#[test]
fn ctrl_c_cancels_an_evaluation_and_keeps_what_is_known() {
    let mut p = start(&["repl"], &history("cancel"));
    // A naive rule: position n has about n^2 / 2 moves.
    enter(&mut p, "game slow(n) {");
    enter(
        &mut p,
        "move split(a in 1..n, b in 1..n) if a + b < n -> slow(a) + slow(b)",
    );
    enter(&mut p, "}");
    enter(&mut p, "value(slow(25))");
    let (_, before) = p.exp_regex(r"\r\n\d+\r\n").unwrap();
    let known_before = known(&mut p);
    enter(&mut p, "value(slow(100000))");
    // Let it get going, then cancel.
    std::thread::sleep(std::time::Duration::from_millis(500));
    p.send_control('c').unwrap();
    p.exp_string("evaluation cancelled").unwrap();
    p.exp_string("grundy> ").unwrap();
    // Definitions and memoized values are still there, and still right.
    let known_after = known(&mut p);
    assert!(
        known_after >= known_before,
        "memoized values were lost: {known_before} before, {known_after} after"
    );
    enter(&mut p, "value(slow(25))");
    let (_, after) = p.exp_regex(r"\r\n\d+\r\n").unwrap();
    assert_eq!(before, after);
    quit(p);
}

/// How many values of `slow` are memoized, as `:stats` says.
fn known(p: &mut PtySession) -> usize {
    enter(p, ":stats");
    let (_, row) = p.exp_regex(r"slow +\d+ +\d+").unwrap();
    row.split_whitespace().nth(2).unwrap().parse().unwrap()
}

#[test]
fn ctrl_c_while_typing_clears_the_line() {
    let mut p = start(&["repl"], &history("clear-line"));
    keys(&mut p, "12345");
    p.send_control('c').unwrap();
    // rustyline drops keys read together with the Ctrl-C: wait for the new
    // prompt before typing on.
    p.exp_regex(r"12345[\r\n]+grundy> ").unwrap();
    enter(&mut p, "6 * 7");
    p.exp_string("\r\n42\r\n").unwrap();
    quit(p);
}

#[test]
fn history_persists_across_sessions() {
    let path = history("persist");
    let mut p = start(&["repl"], &path);
    enter(&mut p, "value(*3 + *4 + *1)");
    p.exp_string("\r\n6\r\n").unwrap();
    quit(p);
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("value(*3 + *4 + *1)"), "{saved}");

    let mut p = start(&["repl"], &path);
    // Up recalls the entry of the earlier session.
    keys(&mut p, "\x1b[A");
    keys(&mut p, "\r");
    p.exp_string("\r\n6\r\n").unwrap();
    quit(p);
}
