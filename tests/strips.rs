//! Two-integer games whose positions keep one argument among a few values
//! (the heap and the last move's size): their strips are swept row by row
//! (src/runtime/sweep/strip.rs), past the dense square too. Values,
//! errors and cycles agree with the interpreter's, and with a direct
//! computation far past the square.

mod common;

use common::Engine;
use common::differ::{agree, compare, compare_among, same_error};
use grundy::SharedBuffer;
use grundy::session::Session;
use proptest::prelude::*;

/// Each game with the questions asked of it: no move takes as many
/// tokens as the last one, in either order of the arguments; a flag that
/// moves flip; a column kept by some moves, asked outside the strip; a
/// remainder. Each within the 3,000 positions of a differential run.
const GAMES: [&str; 5] = [
    "game g(n, last) {\n move take(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n}\n\
     value(g(500, 0))\nlen([n for n in 0..=600 if value(g(n, 0)) == 0])\ntable(g(_, 2), 0..40)\n",
    "game h(last, n) {\n move take(k in [1, 2, 4]) if k <= n and k != last -> h(k, n - k)\n}\n\
     value(h(0, 520))\nvalue(h(3, 300))\n",
    "game p(n, t) {\n move one if n >= 1 -> p(n - 1, 1 - t)\n move two if n >= 2 and t == 0 -> p(n - 2, t)\n\
     move more(k in {3, 5}) if n >= k -> p(n - k, 1 - t)\n}\n\
     value(p(1010, 1))\n[n for n in 0..400 if value(p(n, 0)) == 0]\n",
    "game q(n, c) {\n move down if n >= 1 -> q(n - 1, c)\n\
     move take(k in 1..=4) if k <= n and k != c -> q(n - k, k)\n}\n\
     value(q(260, 50))\n[n for n in 0..200 if value(q(n, 9)) == 0]\n",
    "game r(n, c) {\n move m(k in 1..=5) if k <= n -> r(n - k, (c + k) % 3)\n}\n\
     value(r(800, 2))\nvalue(r(700, 0))\n",
];

#[test]
fn strips_have_the_interpreters_values() {
    let lines = [8, 2, 2, 2, 2];
    for (text, lines) in GAMES.iter().zip(lines) {
        let printed = agree(text);
        assert_eq!(printed.lines().count(), lines, "{printed}");
    }
    assert!(
        agree(GAMES[0]).contains("\n151\n"),
        "the multiples of 4 to 600"
    );
}

/// An error some hundred rows down: the same message, along the same play.
#[test]
fn an_error_in_a_strip_is_reported_as_the_interpreter_reports_it() {
    let text = "game g(n, last) {\n move take(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n\
                move z if n == 123 and last == 2 -> g(n / (last - 2), 0)\n}\n\
                value(g(700, 0))\n";
    same_error(text, "division by zero");
    let query = "game g(n, last) {\n move take(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n\
                 move z if n == 500 -> g(n / (last - last), 0)\n}\n\
                 len([n for n in 0..800 if value(g(n, 0)) == 0])\n";
    same_error(query, "division by zero");
}

#[test]
fn a_cycle_in_a_strip_is_reported_as_the_interpreter_reports_it() {
    let text = "game g(n, last) {\n move take(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n\
                move swap if n == 77 and last < 3 -> g(n, last + 1)\n\
                move back if n == 77 and last == 3 -> g(n, 1)\n}\n\
                value(g(600, 0))\n";
    same_error(text, "can be reached from itself");
}

/// The values a direct computation gives: `g(n, last)` for heaps `0..=n`.
fn last_move(n: usize) -> Vec<[u64; 4]> {
    let mut g = vec![[0u64; 4]; n + 1];
    for h in 0..=n {
        for last in 0..4 {
            let seen: Vec<u64> = (1..=h.min(3))
                .filter(|k| *k != last)
                .map(|k| g[h - k][k])
                .collect();
            g[h][last] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    g
}

/// Far past the dense square (32,768 rows), in a session with room for
/// the positions: the positions of the strip stay dense, and their values
/// are those of a direct computation.
#[test]
fn strips_past_the_square_have_the_values_computed_directly() {
    let n = 100_000;
    let g = last_move(n);
    let asks = format!(
        "game g(n, last) {{\n move take(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n}}\n\
         game h(last, n) {{\n move take(k in 1..=3) if k <= n and k != last -> h(k, n - k)\n}}\n\
         [value(g({n}, 0)), value(g({m}, 2)), value(h(1, {m}))]\n\
         len([x for x in 0..={n} if value(g(x, 3)) == 0])\n",
        m = n - 7
    );
    let zeros = g.iter().filter(|v| v[3] == 0).count();
    let expected = format!("[{}, {}, {}]\n{zeros}\n", g[n][0], g[n - 7][2], g[n - 7][1]);
    for engine in [Engine::Kernels, Engine::Native] {
        let (session, printed) = engine.run("strip.game", &asks);
        assert_eq!(printed, expected);
        // Dense: no position of either strip was hashed.
        let hashed = Engine::hashed(&session, 2);
        assert_eq!(hashed, 0, "{hashed} positions hashed");
    }
}

/// A strip swept far enough that its rows are made a thousand and more at
/// once: they are a run (`graph/dense/rows/run.rs`), read by the machine
/// code from their number alone, and the values are the direct
/// computation's. A position in a column past the run's rows' width
/// (`g(n - 100, 40)`, whose options are `g(n - 100, 0)`'s) ends the run,
/// and every row keeps its values, read as rows of their own.
#[test]
fn rows_made_a_thousand_at_a_time_are_a_run_with_the_same_values() {
    let n = 20_000;
    let g = last_move(n);
    let zeros = |col: usize| g.iter().filter(|v| v[col] == 0).count();
    let rules =
        "game g(n, last) {\n move take(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n}\n";
    let swept = format!("{rules}len([x for x in 0..={n} if value(g(x, 0)) == 0])\n");
    let (session, printed) = Engine::Native.run("run.game", &swept);
    assert_eq!(printed, format!("{}\n", zeros(0)));
    let in_run = session.machine.graph.rows_in_run(0);
    assert!(in_run > n / 2, "{in_run} rows in a run");
    let asks = format!(
        "{swept}[value(g({n}, 0)), value(g({m}, 2)), value(g({f}, 40))]\n\
         len([x for x in 0..={n} if value(g(x, 3)) == 0])\n",
        m = n - 7,
        f = n - 100
    );
    let want = format!(
        "{}\n[{}, {}, {}]\n{}\n",
        zeros(0),
        g[n][0],
        g[n - 7][2],
        g[n - 100][0],
        zeros(3)
    );
    assert_eq!(Engine::Kernels.run("run.game", &asks).1, want);
    let (session, printed) = Engine::Native.run("run.game", &asks);
    assert_eq!(printed, want);
    assert_eq!(session.machine.graph.rows_in_run(0), 0, "the run ended");
}

/// One move of a random strip game: a range of sizes, a condition, and
/// the column the option takes.
fn strip_move() -> impl Strategy<Value = String> {
    let sizes = (1i64..=3, 0i64..=3).prop_map(|(lo, more)| format!("{lo}..={}", lo + more));
    let guard = prop_oneof![
        Just("k <= n"),
        Just("k <= n and k != c"),
        Just("k <= n and c != 2"),
        Just("k + 1 <= n and (n + k) % 4 != c"),
    ];
    let column = prop_oneof![
        Just("k"),
        Just("c"),
        Just("(c + k) % 3"),
        Just("1 - c % 2"),
        Just("0"),
    ];
    (sizes, guard, column).prop_map(|(sizes, guard, column)| {
        format!("move m(k in {sizes}) if {guard} -> g(n - k, {column})")
    })
}

/// A move that counts the column down (a strip's `down`, item 40 of
/// docs/architecture.md), spelled as users do, or none.
fn counter_move() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just(""),
        Just("move s if c > 0 and n > 0 -> g(n, c - 1)\n"),
        Just("move s(j in 1..=c) if n > 0 -> g(n - 1, c - j)\n"),
        Just("move s if c != 0 -> g(n, c - 1)\n"),
        Just("move s(j in 1..=2) if c >= 2 and n > 1 -> g(n - 2, c - j)\n"),
    ]
}

/// A random game whose options keep the column among a few values, or
/// count it down, asked far enough up for its strip to be swept, perhaps
/// with a move that fails some rows down or leads back up (a cycle).
fn strip_file(heaps: std::ops::Range<i64>) -> impl Strategy<Value = String> {
    let moves = prop::collection::vec(strip_move(), 1..=3);
    let trouble = prop_oneof![
        Just(String::new()),
        (1i64..200).prop_map(|e| format!("move z if n == {e} -> g(n / (c - c), 0)\n")),
        (1i64..200).prop_map(|e| format!("move up if n == {e} and c == 1 -> g(n + 70, 1)\n")),
    ];
    (moves, counter_move(), trouble, heaps, 0i64..5).prop_map(|(moves, counter, trouble, n, c)| {
        format!(
            "game g(n, c) {{\n{}\n{counter}{trouble}}}\nvalue(g({n}, {c}))\n\
             len([x for x in 0..{n} if value(g(x, {c})) == 0])\n",
            moves.join("\n")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random strips: the same values, errors and cycles on every path.
    #[test]
    fn random_strips_agree_with_the_interpreter(file in strip_file(100..400)) {
        compare(&file)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Random strips asked thousands of rows up, with room for sweeps
    /// that make a thousand rows and more at once: runs of rows.
    #[test]
    fn random_long_strips_agree_with_the_interpreter(file in strip_file(2500..4000)) {
        compare_among(&file, 40_000)?;
    }
}

/// A sweep leaves the search the room it needs: rules that reach one
/// column in two (a flag only some moves flip), one column in 32, or
/// leave the strip's columns from the position's own (`min(t, 3)` from
/// column 7), within the 3,000 positions of a differential run.
#[test]
fn a_sweep_never_takes_the_room_the_search_needs() {
    for text in [
        "game g(n, t) {\n move m if n >= 2 -> g(n - 2, 1 - t)\n}\nvalue(g(5000, 0))\n",
        "game g(n, t) {\n move m(k in 1..=2) if k <= n -> g(n - k, (n - k) % 32)\n}\nvalue(g(2500, 0))\n",
        "game g(n, t) {\n move a if n >= 1 -> g(n - 1, min(t, 3))\n\
         move b if n >= 2 -> g(n - 2, min(t, 3))\n}\nvalue(g(2500, 7))\n",
    ] {
        assert_eq!(agree(text).lines().count(), 1);
    }
    // Rows past the dense strips, a trillion of them: the limit, as the
    // interpreter meets it, not a walk down every row.
    let far = "game g(n, last) {\n move take(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n}\n\
               value(g(10 ** 12, 0))\n";
    for engine in [Engine::Interpreter, Engine::Native] {
        let (_, err, phase) = common::differ::run(far, engine);
        assert_eq!(phase, Some(grundy::diag::Phase::Limit), "{err}");
    }
}

/// Positions a sweep could not value are not counted as the
/// interpreter's: only those the search gives it.
#[test]
fn explain_counts_only_the_positions_the_interpreter_ran() {
    let text = "game g(n, t) {\n move m if n >= 1 -> g(n - 1, 1 - t)\n\
                move z if n == 500 and t == 1 -> g(n / (t - 1), 0)\n}\nvalue(g(1000, 0))\n\
                game w(s) {\n move cut(i in 1..=min(2, len(s))) -> w(s[i:])\n}\nvalue(w([1, [2], 3, 4, 5, 6]))\n";
    let mut session = Session::new(
        Box::new(SharedBuffer::default()),
        Box::new(SharedBuffer::default()),
    );
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("count.game", text).error, None);
    // g(500, 1) is never reached; the two lists holding a list, which
    // the compiled rules do not take, are the interpreter's.
    assert_eq!(session.machine.interpreted, [0, 2]);
}
