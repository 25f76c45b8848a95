//! Games with a boolean among their parameters (`game g(n, first)`: whose
//! turn it is, a flag), which the compiled rules hold as 0 or 1 and the
//! graph keys by a flat run that marks them (src/graph/flat/mod.rs):
//! random ones against the interpreter, and the usual spellings compiled
//! throughout.

use super::{FUNCTIONS, cases, cond};
use crate::common::Engine;
use crate::common::differ::{agree, compare, machine_code_for, runs_compiled_throughout};
use grundy::SharedBuffer;
use grundy::session::Session;
use proptest::prelude::*;

/// A condition over `n`, `k` and the boolean `b` (and `c`, a second one,
/// in two-boolean games): `b` read whole, negated, in `and`/`or`,
/// compared with another boolean, or in an `if`.
fn bool_cond(two: bool) -> impl Strategy<Value = String> {
    let other = if two { "c" } else { "(k > 1)" };
    (
        prop::sample::select(vec![
            "b".to_string(),
            "not b".to_string(),
            "b or k < 3".to_string(),
            "(not b) and k != 2".to_string(),
            format!("b == {other}"),
            format!("b != {other}"),
            format!("if b then k <= 2 else {other}"),
            "true".to_string(),
        ]),
        prop::option::weighted(0.3, cond(vec!["n", "k"])),
    )
        .prop_map(|(b, c)| match c {
            Some(c) => format!("({b}) and {c}"),
            None => format!("({b})"),
        })
}

/// What a move passes for `b`: itself, its negation, a constant, a
/// comparison, or an `if` of these; one in a few an integer, which the
/// rules then read as a condition, an error both engines report.
fn bool_arg(two: bool) -> impl Strategy<Value = &'static str> {
    let mut args = vec![
        "b",
        "not b",
        "true",
        "false",
        "k % 2 == 0",
        "if k == 1 then not b else b",
        "b and n > 3",
    ];
    if two {
        args.extend(["c", "not c", "b != c"]);
    } else {
        args.push("k");
    }
    prop::sample::select(args)
}

/// A file of a game of a heap `n` and the boolean `b` (and `c` when
/// `two`), asked about both values of each boolean for the heaps below
/// `rows` (the search's positions at 30, a strip swept at 300: see
/// `runtime/sweep/strip.rs`), and its moves listed.
fn bool_file(two: bool, rows: usize) -> impl Strategy<Value = String> {
    let moves = (bool_cond(two), bool_arg(two), bool_arg(two));
    prop::collection::vec(moves, 1..=3).prop_map(move |rules| {
        let params = if two { "n, b, c" } else { "n, b" };
        let body: String = (rules.iter().enumerate())
            .map(|(i, (guard, x, y))| {
                let rest = if two {
                    format!("{x}, {y}")
                } else {
                    x.to_string()
                };
                format!("    move m{i}(k in 1..=3) if k <= n and {guard} -> g(n - k, {rest})\n")
            })
            .collect();
        let (t, f) = if two {
            ("true, false", "false, true")
        } else {
            ("true", "false")
        };
        format!(
            "{FUNCTIONS}game g({params}) {{\n{body}}}\n\
             [value(g(n, {t})) for n in 0..{rows}]\n[value(g(n, {f})) for n in 0..{rows}]\n\
             value(g(200, {t}) + g(7, {f}))\nwinner(g(12, {f}))\nmoves(g(6, {t}))\n"
        )
    })
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn games_of_a_boolean_agree_with_the_interpreter(file in bool_file(false, 30)) {
        compare(&file)?;
    }

    #[test]
    fn games_of_two_booleans_agree_with_the_interpreter(file in bool_file(true, 30)) {
        compare(&file)?;
    }

    #[test]
    fn strips_of_a_boolean_agree_with_the_interpreter(file in bool_file(false, 300)) {
        compare(&file)?;
    }
}

/// Take 1 to 3, but only the first player may take 3: the turn a boolean.
const TURNS: &str = "game g(n, first) {\n\
    move take(k in 1..=3) if k <= n and (first or k < 3) -> g(n - k, not first)\n}\n";

#[test]
fn a_turn_flag_compiles_to_machine_code_and_runs_compiled_throughout() {
    assert!(machine_code_for(TURNS, "g"));
    let text = format!("{TURNS}len([n for n in 0..2000 if value(g(n, true)) == 0])\n");
    runs_compiled_throughout(&text);
    // By hand (a table of both flags): with the flag, a heap of 4 takes
    // 1 to leave (3, false), lost since only 1 or 2 may be taken there.
    let asked = "[value(g(n, true)) for n in 0..8]\n[value(g(n, false)) for n in 0..8]\n";
    let printed = agree(&format!(
        "{TURNS}{asked}winner(g(4, true))\nwinner(g(3, false))\n"
    ));
    assert_eq!(
        printed,
        "[0, 1, 2, 3, 3, 1, 1, 1]\n[0, 1, 2, 0, 0, 0, 0, 0]\nfirst\nsecond\n"
    );
    let listed = agree(&format!("{TURNS}moves(g(4, true))\n"));
    assert!(
        listed.contains("take(k=1)   g(3, false)       0   <- wins"),
        "{listed}"
    );
}

#[test]
fn a_boolean_and_an_integer_are_other_positions() {
    // `g(5, 1)` is no `g(5, true)`: the interpreter's error, in both.
    let text = format!("{TURNS}value(g(5, true))\nvalue(g(5, 1))\n");
    let (out, err, _) = crate::common::differ::run(&text, crate::common::Engine::Native);
    assert_eq!(out, "1\n");
    assert!(err.contains("expected a boolean"), "{err}");
    agree(&format!("{TURNS}value(g(5, true))\n"));
}

/// Take 1 to 3, or pass once while tokens are left: the pass a boolean.
const ONE_PASS: &str = "game g(n, spent) {\n\
    move take(k in 1..=3) if k <= n -> g(n - k, spent)\n\
    move pass if not spent and n > 0 -> g(n, true)\n}\n";

/// Asked heap after heap, the positions with a boolean lie in a strip
/// (the heap long, the boolean a column) swept row by row by the machine
/// code, each position run once, not one at a time by the search; the
/// values agree with the interpreter and with the definition (worked by
/// hand: a heap of 1 mod 4 from 5 on is lost with the pass unspent).
#[test]
fn positions_of_a_boolean_asked_heap_after_heap_are_swept_as_a_strip() {
    const N: i64 = 3_000;
    let text = format!("{ONE_PASS}len([n for n in 0..{N} if value(g(n, false)) == 0])\n");
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("one_pass.game", &text).error, None);
    let runs = session.machine.kernel_runs;
    assert!(runs < 1_000, "{runs} positions run one at a time");
    let lost = 1 + (5..N).filter(|h| h % 4 == 1).count();
    assert_eq!(out.0.borrow().as_slice(), format!("{lost}\n").as_bytes());
    let values = "[value(g(n, false)) for n in 0..400]\n[value(g(n, true)) for n in 0..400]\n";
    agree(&format!(
        "{ONE_PASS}{values}value(g(999, false) + g(998, true))\n"
    ));
}
