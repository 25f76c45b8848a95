//! Games whose moves pass a parameter on unchanged (`game sub(S, n)`
//! with `-> sub(S, n - k)`): positions with a list, set or string there
//! are kept in a game made for that value (src/runtime/instances.rs).
//! Their values, errors and printed forms are those of the same game
//! written so that nothing is passed on unchanged (`if n >= 0 then S else S`), and of the
//! game with the set written in its rules.

mod common;

use common::Engine;
use common::differ::{agree, run};
use grundy::SharedBuffer;
use grundy::session::Session;

const SUB: &str = "game sub(S, n) { move take(k in S) if k <= n -> sub(S, n - k) }\n";
/// The same game, with `S` passed through an `if`: nothing is passed on
/// unchanged, so nothing is made.
const TWIN: &str =
    "game sub(S, n) { move take(k in S) if k <= n -> sub(if n >= 0 then S else S, n - k) }\n";

/// A session that ran `text` on the machine code's path, and where it
/// reports errors.
fn session_of(text: &str) -> (Session, SharedBuffer) {
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(SharedBuffer::default()), Box::new(err.clone()));
    Engine::Native.apply(&mut session.machine);
    session.machine.limits.max_states = 1_000_000;
    clean(session.run("made.game", text));
    (session, err)
}

/// Checks that a run had no error and no failed `expect`.
fn clean(outcome: grundy::session::Outcome) {
    assert_eq!((outcome.error, outcome.failed_expects), (None, 0));
}

#[test]
fn a_set_passed_on_has_the_values_of_the_set_written_in_the_rules() {
    let asks = "table(sub({1, 3, 4}, _), 0..=30)\n\
                [value(sub({2, 5, 7}, n)) for n in 0..40]\n\
                moves(sub({1, 3, 4}, 7))\n\
                sub({1, 3, 4}, 7) + sub({1, 2}, 3) + sub([1, 2], 3)\n\
                options(sub([1, 3, 4], 7))\n\
                sub({1, 3, 4}, 7) == sub({4, 3, 1}, 7) and sub({1, 3}, 2) != sub([1, 3], 2)\n\
                winner(sub({1, 3, 4}, 5) + sub({1, 3, 4}, 2))\n\
                table(sub((1, 2), _), 0..3)\n";
    let made = agree(&format!("{SUB}{asks}"));
    assert_eq!(made, agree(&format!("{TWIN}{asks}")));
    // Subtraction {1, 3, 4} has period 7: 0 1 0 1 2 3 2.
    assert!(
        made.contains(" 0 |  0  1  0  1  2  3  2  0  1  0"),
        "{made}"
    );
    assert!(
        made.contains("sub({1, 3, 4}, 7)   take(k=1)   sub({1, 3, 4}, 6)"),
        "{made}"
    );
    assert!(
        made.contains("[sub([1, 3, 4], 6), sub([1, 3, 4], 4), sub([1, 3, 4], 3)]"),
        "{made}"
    );
    let plain = "game s(n) { move take(k in {2, 5, 7}) if k <= n -> s(n - k) }\n\
                 [value(s(n)) for n in 0..40]\n";
    assert!(made.contains(agree(plain).trim()), "{made}");
}

/// The positions of a made game are dense integers, not runs of a set
/// and an integer hashed.
#[test]
fn the_positions_of_a_made_game_are_dense() {
    let (session, _) = session_of(&format!("{SUB}value(sub({{1, 3, 4}}, 100000))\n"));
    let graph = &session.machine.graph;
    let hashed: usize = (0..graph.stats().count() as u32)
        .map(|g| graph.nodes(g).filter(|(n, _)| n.index >= 1 << 31).count())
        .sum();
    let total: usize = graph.stats().map(|(_, n, _)| n).sum();
    assert!(total > 100_000, "{total}");
    assert!(hashed <= 1, "{hashed} of {total} positions hashed");
}

/// Another game's move to a position with the set, made by the
/// interpreter, finds the same position as a query does; more values
/// than games are made of stay positions of the game itself.
#[test]
fn every_path_to_a_position_finds_the_same_one() {
    let other = "game h(n) { move to(k in 0..n) -> sub({1, 3, 4}, k) + sub([1, 2], k) }\n\
                 [value(h(n)) for n in 0..12]\n\
                 value(h(9)) == value(sub({1, 3, 4}, 8) + sub([1, 2], 8)) or true\n\
                 [value(sub({1, k}, 30)) for k in 2..75]\n\
                 value(sub({1, 74}, 30) + sub({1, 74}, 29))\n";
    let made = agree(&format!("{SUB}{other}"));
    assert_eq!(made, agree(&format!("{TWIN}{other}")));
}

/// An error in a made game's rules reads as the game's own: the position
/// shown with all its arguments.
#[test]
fn errors_show_the_position_in_full() {
    let div =
        "game d(S, n) { move m(k in S) if k <= n -> d(S, n / (k - 2)) }\nvalue(d({1, 2}, 5))\n";
    let (_, err, phase) = run(div, Engine::Native);
    assert!(phase.is_some(), "{err}");
    assert!(
        err.contains("while expanding d({1, 2}, 5), move m(k = 2)"),
        "{err}"
    );
    assert_eq!(run(div, Engine::Interpreter), run(div, Engine::Native));
}

/// Redefining the game remakes the games made from it: a position kept
/// in a variable takes the new rules, or, when the game now takes
/// another number of parameters, is reported as made under the old.
#[test]
fn a_redefined_game_remakes_its_made_games() {
    let (mut session, err) = session_of(&format!(
        "{SUB}let p = sub({{1, 2}}, 5)\nexpect value(p) == 2\n"
    ));
    let again = "game sub(S, n) { move take(k in S) if k <= n -> sub(S, n - k)\n move big if n >= 3 -> sub(S, n - 3) }\n\
                 expect value(p) == 1\nexpect value(sub({1, 2}, 5)) == 1\n";
    clean(session.run("again.game", again));
    let fewer = "game sub(n) { move take(k in 1..=n) -> sub(n - k) }\nvalue(p)\n";
    assert!(session.run("fewer.game", fewer).error.is_some());
    let err = String::from_utf8(err.0.borrow().clone()).unwrap();
    assert!(
        err.contains("this position of `sub` was made under an earlier definition with 2 parameters; `sub` now takes 1"),
        "{err}"
    );
}

#[test]
fn explain_tells_the_parameters_passed_on() {
    let text = common::explained(&format!("{SUB}value(sub({{1, 3, 4}}, 10))\n"));
    assert!(
        text.contains("every move passes `S` on unchanged"),
        "{text}"
    );
    assert_eq!(text.matches("sub(S, n):").count(), 1, "{text}");
}

/// A position made while the game's rules changed the set stays that
/// position once they pass it on: equal to the same position asked
/// again, with the new rules' value.
#[test]
fn a_position_made_before_the_set_was_passed_on_stays_the_same() {
    let (mut session, _) = session_of(&format!(
        "{TWIN}let p = sub({{1, 2}}, 5)\nexpect value(p) == 2\n"
    ));
    let kept = format!(
        "{SUB}expect p == sub({{1, 2}}, 5)\nexpect value(p) == 2\n\
         expect [value(sub({{1, 2}}, n)) for n in 0..7] == [0, 1, 2, 0, 1, 2, 0]\n\
         expect sub({{1, 3}}, 4) == sub({{3, 1}}, 4)\n"
    );
    clean(session.run("kept.game", &kept));
}

mod random {
    use super::common::Engine;
    use super::common::differ::{compare, run};
    use proptest::prelude::*;

    /// A collection of move sizes: a set, a list or a tuple.
    fn sizes() -> impl Strategy<Value = String> {
        (prop::collection::vec(1i64..=4, 1..=3), 0..3usize).prop_map(|(xs, kind)| {
            let items: Vec<String> = xs.iter().map(i64::to_string).collect();
            match kind {
                0 => format!("{{{}}}", items.join(", ")),
                1 => format!("[{}]", items.join(", ")),
                _ => format!("({},)", items.join(", ")),
            }
        })
    }

    /// A move of `p(S, n)`; `P(` stands for the game applied to `S`.
    fn rule() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "take(k in S) if k <= n -> P(n - k)",
            "split(k in S, a in 0..=n - k) if k <= n -> P(a) + P(n - k - a)",
            "half if n >= 2 -> P(n / 2)",
            "far(k in S) if 2 * k <= n and n % (k + 1) != 0 -> P(n - 2 * k)",
            "count if len(S) <= n -> P(n - len(S)) + *1",
            "low if n >= 1 and min(S) < n -> q(n - 1)",
        ])
    }

    fn file() -> impl Strategy<Value = (String, String)> {
        (prop::collection::vec(rule(), 1..=3), sizes(), sizes()).prop_map(|(rules, s0, s1)| {
            let game = |applied: &str| {
                let moves: String = (rules.iter().enumerate())
                    .map(|(i, r)| format!("    move m{i}{}\n", r.replace("P(", applied)))
                    .collect();
                format!(
                    "game p(S, n) {{\n{moves}}}\n\
                     game q(m) {{ move to(j in 0..m) -> p({s1}, j) }}\n\
                     [value(p({s0}, n)) for n in 0..12]\ntable(p({s1}, _), 0..10)\n\
                     moves(p({s0}, 7))\nvalue(p({s0}, 5) + p({s1}, 4))\n\
                     [value(q(m)) for m in 0..6]\np({s0}, 3) == p({s0}, 3)\n"
                )
            };
            (game("p(S, "), game("p(if n >= 0 then S else S, "))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Each path agrees with the others, and with the same game whose
        /// moves pass `S` through an `if`, which keeps its positions in
        /// the game itself.
        #[test]
        fn made_games_agree_with_the_game_kept_whole((made, whole) in file()) {
            compare(&made)?;
            let (a, b) = (run(&made, Engine::Native), run(&whole, Engine::Interpreter));
            prop_assert_eq!(a.2, None, "{}\n{}", made, a.1);
            prop_assert_eq!((&a.0, a.2), (&b.0, b.2), "{}\n{}", made, a.1);
        }
    }
}

/// Redefinitions in one session, each checked against what the old
/// rules and the new give (found by review): a game that reaches a made
/// game through a position forgets its values with it; a position made
/// before the game changed which parameters its moves pass on is still
/// equal to itself asked again; a game that now takes more parameters
/// makes new games; and the empty position is the integer 0 there.
#[test]
fn redefinitions_keep_positions_and_forget_values() {
    let scenarios: [&[&str]; 4] = [
        &[
            "game H(Q) { move m -> Q }\nexpect value(H(sub({1, 3, 4}, 7))) == 1\n",
            "game sub(S, n) { move take(k in S) if k < n -> sub(S, n - k) }\n\
             expect value(sub({1, 3, 4}, 7)) == 2\nexpect value(H(sub({1, 3, 4}, 7))) == 0\n",
        ],
        &[
            "let p = sub({1, 3, 4}, 5)\n",
            "game sub(S, n) { move take(k in S) if k <= n -> sub(S, n - k)\n move x if n == 100 -> sub({1}, 0) }\n\
             let q = sub({1, 3, 4}, 6)\nexpect p == sub({1, 3, 4}, 5) and q == sub({1, 3, 4}, 6)\n",
            "game sub(S, n) { move take(k in S) if k <= n -> sub(S, n - k) }\n\
             expect p == sub({1, 3, 4}, 5) and q == sub({1, 3, 4}, 6)\n\
             expect options(sub({1, 3, 4}, 7))[0] == q\n",
        ],
        &[
            "expect value(sub({1, 3, 4}, 5)) == 3\n",
            "game sub(S, m, n) { move take(k in S) if k <= n -> sub(S, m, n - k) }\n\
             expect value(sub({1, 3, 4}, 0, 7)) == 0\n\
             expect len([n for n in 0..=2000 if value(sub({1, 3, 4}, 0, n)) == 0]) == 572\n",
        ],
        &[
            "game g(P, n) { move m if n > 0 -> g(P, n - 1) }\n",
            "expect g(0, 3) == g(*0, 3) and len({g(0, 3), g(*0, 3)}) == 1\n",
        ],
    ];
    for units in scenarios {
        let (mut session, err) = session_of(&format!("{SUB}{}", units[0]));
        for unit in &units[1..] {
            let outcome = session.run("after.game", unit);
            let err = String::from_utf8(err.0.borrow().clone()).unwrap();
            assert_eq!(
                (outcome.error, outcome.failed_expects),
                (None, 0),
                "{unit}\n{err}"
            );
        }
    }
    // Passed on: `A` first, then `A` and `B`; the position keeps its place.
    let two = "game g(A, B, n) { move take(k in A) if k <= n -> g(A, B | {k}, n - k) }\n\
               let p = g({1}, {2}, 5)\nexpect value(p) == 1\n";
    let (mut session, _) = session_of(two);
    let again = "game g(A, B, n) { move take(k in A) if k <= n -> g(A, B, n - k) }\n\
                 expect p == g({1}, {2}, 5)\nexpect options(p) == options(g({1}, {2}, 5))\n";
    clean(session.run("again.game", again));
}

/// The REPL's `:stats` counts a made game's positions with its game's.
#[test]
fn stats_count_made_games_with_their_game() {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.arg("repl").env("NO_COLOR", "1");
    let input = format!("{SUB}value(sub({{1, 3, 4}}, 10)) + value(sub({{1, 2}}, 10))\n:stats\n");
    let text = common::text(&common::with_stdin(cmd, &input).stdout);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("sub ")).collect();
    assert_eq!(rows.len(), 1, "{text}");
    let counts: Vec<&str> = rows[0].split_whitespace().collect();
    assert_eq!(counts[1..3], ["22", "22"], "{text}");
}

/// A value a made game fixes reads as a constant where the rules read
/// it: an error about it points there, as the interpreter's does, not at
/// the game's name.
#[test]
fn an_error_about_a_fixed_value_points_where_it_is_read() {
    let called = "game sub(S, n) {\n move take(k in S) if k <= n and S(1) > 0 -> sub(S, n - k)\n}\n\
                  value(sub({1, 2}, 3))\n";
    let (_, err, phase) = run(called, Engine::Native);
    assert!(phase.is_some(), "{err}");
    assert!(err.contains(":2:34"), "{err}");
    assert_eq!(
        run(called, Engine::Interpreter),
        run(called, Engine::Native)
    );
}
