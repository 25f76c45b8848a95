//! A game's state written as a tuple or a list where integers would do
//! (`q((x, y))` for `q(x, y)`), as users write it: the values of the
//! integers' spelling, and as fast, the tuple split into the integers
//! (src/runtime/normalize/split.rs) and swept as they are
//! (src/runtime/sweep/mod.rs).

use super::*;

/// A lame queen moving left, down or diagonally, 1 to 5 squares, with
/// its state in `STATE`, moves written in `RULES`, and a query asking
/// each square of a 60 x 60 board as `ASK`.
fn queen(state: &str, rules: &str, ask: &str) -> String {
    format!(
        "let N = 60\ngame q({state}) {{\n{rules}\n}}\n\
         len([1 for x in 0..N for y in 0..N if value(q({ask})) == 0])\n\
         [value(q({ask})) for x in 0..6 for y in 0..6]\n"
    )
}

/// The queen's state as a tuple read item by item, taken apart by `let
/// (x, y) = p` in its guard or its target: before, a `let` of a pattern
/// in a target left every position to the interpreter (125 times slower,
/// past the time limit on a 3000 x 3000 board), and a query asking
/// `q((x, y))` ran each position alone (5 times slower), and so did an
/// `if` between two tuples for the position (4 times slower). Now each
/// is swept by machine code as the integers are, no position run alone.
#[test]
fn a_tuple_state_taken_apart_is_swept_as_its_integers() {
    let plain = agree_big(&queen(
        "x, y",
        "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
         if k * dx <= x and k * dy <= y -> q(x - k * dx, y - k * dy)",
        "x, y",
    ));
    let tuple = |rules: &str| queen("p", rules, "(x, y)");
    let spellings = [
        tuple(
            "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
             if k * dx <= p[0] and k * dy <= p[1] -> q((p[0] - k * dx, p[1] - k * dy))",
        ),
        tuple(
            "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
             if (let (x, y) = p in k * dx <= x and k * dy <= y)\n        \
             -> (let (x, y) = p in q((x - k * dx, y - k * dy)))",
        ),
        tuple(
            "    move left(k in 1..=5) if k <= p[0] -> (let (x, y) = p in q((x - k, y)))\n    \
             move down(k in 1..=5) if k <= p[1] -> (let (x, y) = p in q((x, y - k)))\n    \
             move diag(k in 1..=5) if (let (x, y) = p in k <= min(x, y)) -> q((p[0] - k, p[1] - k))",
        ),
        tuple(
            "    move slide(i in 0..2, k in 1..=5) if (i == 0 and k <= p[0]) or (i == 1 and k <= p[1])\n        \
             -> q(if i == 0 then (p[0] - k, p[1]) else (p[0], p[1] - k))\n    \
             move diag(k in 1..=5) if k <= p[0] and k <= p[1] -> q((p[0] - k, p[1] - k))",
        ),
    ];
    for text in &spellings {
        assert_eq!(agree_big(text), plain, "{text}");
        let (session, _) = Engine::Native.run("tuple.game", text);
        let told = session.explain(None).unwrap();
        assert!(told.contains("run as 2 integers"), "{told}");
        assert!(told.contains("swept first, as a table is"), "{told}");
        assert_eq!(
            session.machine.interpreted.first().copied().unwrap_or(0),
            0,
            "{told}"
        );
        let runs = session.machine.kernel_runs;
        assert!(runs < 100, "{runs} positions run one at a time: {told}");
    }
}

/// The edges: a tuple of three among the pairs, or a list, given to the
/// game that splits pairs; a pattern that does not fit its tuple: the
/// interpreter's answers and errors, every engine.
#[test]
fn a_tuple_state_of_another_length_keeps_the_interpreters_answers() {
    let rules = "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
                 if k * dx <= p[0] and k * dy <= p[1] -> (let (x, y) = p in q((x - k * dx, y - k * dy)))";
    let text = format!(
        "game q(p) {{\n{rules}\n}}\n\
         [value(q((x, y))) for x in 0..30 for y in 0..30]\n\
         value(q([7, 9]))\nvalue(q((7, 9, 2)))\n"
    );
    same_failure(&text);
}
