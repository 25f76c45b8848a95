//! `play(P)` on a real terminal: the binary runs in a pseudo-terminal and
//! the tests play as a person would, at the game's own prompt, with
//! Ctrl-D and Ctrl-C included. ANSI escapes are stripped from what it
//! prints. Every line is typed only once its prompt is shown: rustyline
//! drops keys read together with a line's end.

#[path = "support/pty.rs"]
mod pty;

use pty::{enter, quit};
use rexpect::session::PtySession;

const NIM: &str = "game nim(n) { move take(k in 1..=n) -> nim(n - k) }";

/// Starts `grundy repl` on a terminal with Nim defined, at its prompt.
fn start(name: &str) -> PtySession {
    let mut p = pty::spawn(&["repl"], &pty::history("play-history", name));
    p.exp_string("grundy> ").unwrap();
    enter(&mut p, NIM);
    p.exp_string("grundy> ").unwrap();
    p
}

/// Waits for the game's prompt, then types a line.
fn play(p: &mut PtySession, line: &str) {
    p.exp_string("  play> ").unwrap();
    enter(p, line);
}

#[test]
fn the_computer_wins_a_whole_game_against_weak_moves() {
    let mut p = start("whole");
    // Value 2 ^ 3 ^ 1 = 0: lost for the person, who plays move 1 each time.
    enter(&mut p, "play(nim(2) + nim(3) + *1)");
    p.exp_string("You move first (c lets me start).").unwrap();
    p.exp_string("6. *1: take(1) -> nim(2) + nim(3)").unwrap();
    play(&mut p, "1");
    p.exp_string("You: nim(2): take(k=1) -> nim(1) + nim(3) + *1")
        .unwrap();
    p.exp_string("Me:  nim(3): take(k=3) -> nim(1) + *1")
        .unwrap();
    play(&mut p, "1");
    p.exp_string("You: nim(1): take(k=1) -> *1").unwrap();
    p.exp_string("Me:  take(1) -> 0").unwrap();
    p.exp_string("You have no move: I win.").unwrap();
    // What is not for the finished game runs in the REPL, a longer entry
    // going on over continuation lines.
    play(&mut p, "game g(n) {");
    p.exp_string("the game is over: left the game, back to the REPL.")
        .unwrap();
    p.exp_string("   ...> ").unwrap();
    enter(&mut p, "move m if n > 0 -> g(n - 1) }");
    p.exp_string("grundy> ").unwrap();
    enter(&mut p, "[value(g(n)) for n in 0..4]");
    p.exp_string("[0, 1, 0, 1]").unwrap();
    quit(p);
}

#[test]
fn a_hint_an_undo_an_explanation_and_giving_up() {
    let mut p = start("hint");
    enter(&mut p, "play(nim(1) + nim(3) + *4)");
    // 1 ^ 3 ^ 4 = 6: the winning move takes *4 to *2.
    play(&mut p, "h");
    p.exp_string("Hint: 7 (*4: take(2) -> nim(1) + nim(3) + *2) wins")
        .unwrap();
    play(&mut p, "1");
    p.exp_string("You: nim(1): take(k=1) -> nim(3) + *4")
        .unwrap();
    p.exp_string("Me:  *4: take(1) -> nim(3) + *3").unwrap();
    play(&mut p, "w");
    p.exp_string("Before my move: nim(3) + *4").unwrap();
    p.exp_string("nim(3)   value 3 = 011").unwrap();
    p.exp_string("*4       value 4 = 100").unwrap();
    p.exp_string("nim-sum        7 = 111").unwrap();
    p.exp_string("*4 has value 4, which has the nim-sum's highest bit, so 4 xor 7 = 3")
        .unwrap();
    p.exp_string("Now the nim-sum is 3 xor 3 = 0").unwrap();
    play(&mut p, "u");
    p.exp_string("Taken back: nim(1) + nim(3) + *4 again.")
        .unwrap();
    play(&mut p, "q");
    p.exp_string("You give up: I win. Back to the REPL.")
        .unwrap();
    p.exp_string("grundy> ").unwrap();
    enter(&mut p, "value(nim(1) + nim(3) + *4)");
    p.exp_string("\r\n6\r\n").unwrap();
    quit(p);
}

#[test]
fn bad_input_at_the_game_prompt_is_answered_and_the_game_goes_on() {
    let mut p = start("bad");
    enter(&mut p, "play(nim(2))");
    play(&mut p, "3");
    p.exp_string("There is no move 3: type a move's number, 1 to 2, or ? for the commands")
        .unwrap();
    play(&mut p, "take 2");
    p.exp_string("`take 2` is neither a move nor a command")
        .unwrap();
    play(&mut p, "(");
    p.exp_string("`(` is neither a move nor a command").unwrap();
    play(&mut p, "?");
    p.exp_string("Type a move's number to play it, or:")
        .unwrap();
    play(&mut p, "2");
    p.exp_string("You: take(k=2) -> 0").unwrap();
    p.exp_string("I have no move: you win!").unwrap();
    play(&mut p, "q");
    p.exp_string("Back to the REPL.").unwrap();
    quit(p);
}

#[test]
fn ctrl_d_and_ctrl_c_leave_the_game_and_keep_the_session() {
    let mut p = start("leave");
    enter(&mut p, "let K = 7");
    enter(&mut p, "play(nim(3) + nim(4))");
    play(&mut p, "1");
    p.exp_string("Me:  ").unwrap();
    p.exp_string("  play> ").unwrap();
    p.send_control('d').unwrap();
    p.exp_string("Ctrl-D: left the game, back to the REPL.")
        .unwrap();
    p.exp_string("grundy> ").unwrap();
    enter(&mut p, "K * 6");
    p.exp_string("\r\n42\r\n").unwrap();
    p.exp_string("grundy> ").unwrap();
    enter(&mut p, "play(nim(3) + nim(4))");
    p.exp_string("  play> ").unwrap();
    p.send_control('c').unwrap();
    p.exp_string("Ctrl-C: left the game, back to the REPL.")
        .unwrap();
    p.exp_string("grundy> ").unwrap();
    enter(&mut p, "value(nim(K))");
    p.exp_string("\r\n7\r\n").unwrap();
    quit(p);
}
