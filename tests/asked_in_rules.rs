//! Rules that ask another position's value (`value(sub(k)) == 0` in a
//! guard, through a function or written out): the machine code reads the
//! value as it reads an option's, and a position without one yet is
//! missed as an option is, evaluated by the search, and the position run
//! again. Every path must print and report the same.

mod common;

use common::Engine;
use common::differ::{agree, compare, same_error};
use grundy::SharedBuffer;
use grundy::session::Session;
use proptest::prelude::*;

/// Take `k` only if `k` is a losing heap of the subtraction game {1, 3,
/// 4} (whose losing heaps are those of 0 or 2 modulo 7).
fn picky(n: usize) -> (String, String) {
    let text = format!(
        "game sub(n) {{ move take(k in {{1, 3, 4}}) if k <= n -> sub(n - k) }}\n\
         fn cold(k) = value(sub(k)) == 0\n\
         game picky(n) {{ move take(k in 1..=n) if cold(k) -> picky(n - k) }}\n\
         [value(picky(n)) for n in 0..={n}]\n"
    );
    let cold = |k: usize| k.is_multiple_of(7) || k % 7 == 2;
    let mut g = vec![0usize; n + 1];
    for h in 0..=n {
        let seen: Vec<usize> = (1..=h).filter(|k| cold(*k)).map(|k| g[h - k]).collect();
        g[h] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    let expected: Vec<String> = g.iter().map(usize::to_string).collect();
    (text, format!("[{}]\n", expected.join(", ")))
}

/// Every path agrees, and with a direct computation.
#[test]
fn a_guard_that_asks_another_game_agrees_on_every_path() {
    let (text, expected) = picky(400);
    assert_eq!(agree(&text), expected);
}

/// Values past the mex's first marks (1,024 of them; the values here
/// reach about 1,400): the machine code, which alone runs such rules,
/// has its marks grown rather than leaving the positions to the
/// interpreter, and is right.
#[test]
fn values_past_the_first_marks_are_marked_by_the_machine_code() {
    let (text, expected) = picky(5000);
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("picky.game", &text).error, None);
    assert_eq!(String::from_utf8(out.0.borrow().clone()).unwrap(), expected);
    let picky = session.machine.interpreted.iter().sum::<u64>();
    assert_eq!(picky, 0, "positions left to the interpreter");
    // The game asked about is swept ahead of the asks, so that each
    // position of the one that asks (whose long moves keep it from a
    // sweep of its own) runs once, and none of the other's alone.
    let runs = session.machine.kernel_runs;
    assert!(runs <= 5_100, "{runs} positions run one at a time");
}

/// A guard that asks a game no sweep values ahead (Nim of two heaps,
/// `k % 7` and `k % 5`): a position's kept values end mid-window at the
/// first asked position without a value, the rest are tested and those
/// missing asked, and the position run again keeps more. Every path
/// agrees, and with a direct computation (a heap of `k` may be taken
/// where `k % 7 == k % 5`).
#[test]
fn values_kept_end_where_an_asked_position_has_none_yet() {
    let text = "game nim(a, b) {\n move x(k in 1..=a) -> nim(a - k, b)\n \
                move y(k in 1..=b) -> nim(a, b - k)\n}\n\
                fn cold(k) = value(nim(k % 7, k % 5)) == 0\n\
                game picky(n) { move take(k in 1..=n) if cold(k) -> picky(n - k) }\n\
                value(picky(700))\n[value(picky(n)) for n in 0..=60]\n";
    let mut g = vec![0usize; 701];
    for h in 0..=700 {
        let seen: Vec<usize> = (1..=h)
            .filter(|k| k % 7 == k % 5)
            .map(|k| g[h - k])
            .collect();
        g[h] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    let list: Vec<String> = g[..=60].iter().map(usize::to_string).collect();
    let expected = format!("{}\n[{}]\n", g[700], list.join(", "));
    assert_eq!(agree(text), expected);
}

/// A guard that asks positions of other games (or of its own), through
/// a function as the language asks, written in several ways, some of
/// which fail.
fn asking_file() -> impl Strategy<Value = String> {
    let guard = prop::sample::select(vec![
        "value(sub(k)) == 0",
        "value(sub(k)) != value(sub(k + 1))",
        "winner(sub(n - k)) == \"second\"",
        "value(sub(k) + sub(n - k)) > 0",
        "value(pair(k, n % 3)) < 2",
        "value(sub(k - 1)) == 0",
        "value(g(k - 1)) == 1",
        // Errors: a position that asks about itself, or about one that
        // leads back to it, and a negative heap asked.
        "value(g(n)) == 0",
        "value(back(n)) == 0",
        "value(sub(k - 3)) == 0",
    ]);
    (guard, 0usize..60).prop_map(|(guard, n)| {
        format!(
            "game sub(n) {{ move take(k in [1, 3, 4]) if k <= n -> sub(n - k) }}\n\
             game pair(a, b) {{ move l(k in 1..=a) -> pair(a - k, b)\n move r(k in 1..=b) -> pair(a, b - k) }}\n\
             game back(n) {{ move to -> g(n) }}\n\
             fn ok(k, n) = {guard}\n\
             game g(n) {{ move take(k in 1..=n) if ok(k, n) -> g(n - k) }}\n\
             [value(g(m)) for m in 0..={n}]\nvalue(g({n}) + sub({n}))\n"
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn guards_that_ask_values_agree_with_the_interpreter(file in asking_file()) {
        compare(&file)?;
    }
}

/// A game whose guard asks about its own positions (or about a game that
/// asks in turn) is left to the interpreter, whose `--max-depth` bounds
/// the nesting: compiled, a move with an empty range asked `g(-1)`, whose
/// guard asked `g(-2)`, and so on down, and an ask that met the position
/// limit was asked again at every level.
#[test]
fn a_game_that_asks_about_itself_is_the_interpreters() {
    agree(
        "fn ok(a) = value(g(a - 1, 0, 0)) == 0\n\
         game g(a, b, c) { move x(k in 1..=a) if ok(a) -> g(a - k, b, c) }\n\
         value(g(2, 0, 0))\nvalue(g(7, 1, 2))\n",
    );
    same_error(
        "fn ok(n) = value(g(n - 1)) == 0\n\
         game g(n) { move take(k in 1..=min(n, 2)) if n > 0 and ok(n) -> g(n - k) }\n\
         value(g(3100))\n",
        "more than 3000 positions",
    );
    let explained = common::explained(
        "fn ok(n) = value(g(n - 1)) == 0\ngame g(n) { move take(k in 1..=n) if ok(n) -> g(n - k) }\nvalue(g(5))\n",
    );
    assert!(explained.contains("g(n): interpreted"), "{explained}");
}
