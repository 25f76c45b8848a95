//! Queries inside a top-level expression (src/runtime/toplevel/inner.rs)
//! and loops run downward (src/runtime/normalize/downward.rs): the part
//! evaluated on every path is answered by machine code, the rest by the
//! interpreter with its value in place.

use super::*;

/// `text`'s queries the machine code answered, with the default weighing.
fn answered(text: &str) -> u64 {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    session.machine.native_after = grundy::runtime::NATIVE_AFTER;
    assert_eq!(session.run("inner.game", text).error, None, "{text}");
    session.machine.queries_compiled
}

#[test]
fn a_query_inside_an_expression_is_answered_by_machine_code() {
    // s(n) is lost where n % 7 is 0 or 2 (take 1, 3 or 4).
    let game = "game s(n) {\n move take(k in [1, 3, 4]) if k <= n -> s(n - k)\n}\nlet N = 30000\n";
    for (query, expected, compiled) in [
        (
            "[n for n in 0..=N if value(s(n)) == 0][-3:]",
            "[29990, 29995, 29997]",
            1,
        ),
        (
            "[n for n in reversed(0..=N) if value(s(n)) == 0][0]",
            "29997",
            1,
        ),
        (
            "[n for n in reversed(0..N) if value(s(n)) == 0][:2]",
            "[29997, 29995]",
            1,
        ),
        ("len(set([value(s(n)) for n in 0..N]))", "4", 1),
        ("len({n % 7 for n in 0..N if value(s(n)) == 0})", "2", 1),
        (
            "sorted(set([value(s(n)) for n in 0..N]))",
            "[0, 1, 2, 3]",
            1,
        ),
        ("max([n for n in 0..N if value(s(n)) == 0]) - 1", "29996", 1),
        (
            "[len([n for n in 0..N if value(s(n)) == v]) for v in 0..4]",
            "[8572, 8572, 8571, 4285]",
            0,
        ),
        (
            "str(len([n for n in 0..N if value(s(n)) == 0])) + \" lost\"",
            "8572 lost",
            1,
        ),
        // Evaluated only on some paths: left to the interpreter.
        (
            "N < 0 and len([n for n in 0..N if value(s(n)) == 0]) > 0",
            "false",
            0,
        ),
        (
            "if N > 0 then 1 else len([n for n in 0..N if value(s(n)) == 0])",
            "1",
            0,
        ),
    ] {
        let text = format!("{game}{query}\n");
        assert_eq!(agree_big(&text), format!("{expected}\n"), "{query}");
        assert_eq!(answered(&text), compiled, "{query}");
    }
    // A part the code ran and left is the interpreter's, with all after
    // it: not run again part by part (its list would be made twice).
    let text = format!(
        "{game}min([value(s(n)) for n in N..N]) + len([1 for n in 0..N if value(s(n)) > 0])\n"
    );
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    session.machine.native_after = 0;
    assert!(session.run("inner.game", &text).error.is_some());
    assert_eq!(session.machine.queries_compiled, 0);
    // A part before the query that may fail is evaluated first, as
    // written: its error, not a limit the query would meet, nor after
    // the query's time.
    let bad = "game bad(n) {\n move m if 1 / (n - n) > 0 -> bad(0)\n}\n";
    let text = format!("{game}{bad}value(bad(1)) + len([n for n in 0..N if value(s(n)) == 0])\n");
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    session.machine.native_after = 0;
    session.machine.limits.max_states = 1000;
    assert_eq!(session.run("inner.game", &text).error, Some(Phase::Runtime));
    assert_eq!(session.machine.queries_compiled, 0);
    // An error beside the query is the interpreter's, reported as ever.
    let game = game.replace("30000", "2000");
    same_error(
        &format!("{game}[n for n in 0..N if value(s(n)) == 0][0] / (N - N)\n"),
        "division by zero",
    );
    same_error(
        &format!("{game}[n for n in reversed(0..N) if value(s(n)) == 0][N]\n"),
        "out of range",
    );
    same_error(
        &format!("{game}min([value(s(n)) for n in N..N]) + 1\n"),
        "`min` of an empty collection",
    );
}
