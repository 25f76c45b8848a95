//! A few items written out and tested (`a not in {n - a}`, `len({a, n -
//! a}) == 2`, `not (a == n - a)`, `min(..) != max(..)`, `abs(n - 2 * a) >
//! 0`: src/runtime/normalize/displays.rs and logic.rs) and an integer's text compared with a constant string
//! (`str(k) in "1349"`: src/runtime/normalize/digits.rs) are the plain
//! comparisons: the same values as the interpreter's, compiled as the
//! plain spelling is.

use super::*;

/// Grundy's game with the guard `guard`: values to 300.
fn grundy_game(guard: &str) -> String {
    format!(
        "game g(n) {{\n    move split(a in 1..n) if {guard} -> g(a) + g(n - a)\n}}\n\
         [value(g(n)) for n in 0..300]\n"
    )
}

#[test]
fn a_few_items_tested_are_comparisons() {
    let plain = agree_big(&grundy_game("a != n - a"));
    let told = compiled_as(&grundy_game("a != n - a"), &[]);
    for guard in [
        "a not in {n - a}",
        "a not in [n - a]",
        "not (a in (n - a,))",
        "len({a, n - a}) == 2",
        "len({n - a, a}) > 1",
        "not (len({a, n - a}) < 2)",
        "not (a == n - a)",
        "min(a, n - a) != max(a, n - a)",
        "max(n - a, a) != min(a, n - a)",
        "abs(n - 2 * a) > 0",
        "0 != abs(2 * a - n)",
        "(a, 1) != (n - a, 1)",
    ] {
        let text = grundy_game(guard);
        assert_eq!(agree_big(&text), plain, "{text}");
        assert_eq!(
            compiled_as(&text, &[]),
            told.replace("a != n - a", guard),
            "{text}"
        );
    }
    // A constant tuple beside one written out: compared item by item.
    let text = grundy_game("(2 * a - n, 0) != (0, 0)");
    assert_eq!(agree_big(&text), plain);
    assert!(!compiled_as(&text, &[]).contains("tested for every option"));
    // The opposite tests, and two items.
    let equal = agree_big(&grundy_game("a == n - a or a == 1"));
    for guard in ["a in {n - a, 1}", "len({a, n - a}) == 1 or a in [1]"] {
        assert_eq!(agree_big(&grundy_game(guard)), equal, "{guard}");
    }
    // Items that may fail, or a length compared with what no `if`
    // branch gives: left as written, the same values or errors.
    agree_big(&grundy_game("len({a, n - a}) != 3 and a != n - a"));
    agree_big(&grundy_game("a not in {n / a}"));
    same_error(&grundy_game("a not in {n / (a - 1)}"), "division by zero");
    // `abs` of the least integer overflows: so do the rules without it.
    for guard in [
        "abs(n) > 0",
        "abs(n) <= 5",
        "abs(n) == 0",
        "abs(n) == abs(k)",
        "abs(k) != abs(n)",
    ] {
        let least = format!(
            "game h(n) {{\n    move m(k in 1..=2) if {guard} -> h(0)\n}}\n\
             value(h(-9223372036854775807 - 1))\n"
        );
        same_error(&least, "overflow");
    }
}

/// S-Nim with `{1, 3, 4, 9}` written as the digits of a string.
#[test]
fn an_integers_text_in_a_constant_string_is_a_set_test() {
    let game = |binders: &str, guard: &str| {
        format!(
            "let D = \"1349\"\nlet W = {{\"1\", \"3\", \"4\", \"9\"}}\n\
             game s(n) {{\n    move take({binders}) if {guard} and k <= n -> s(n - k)\n}}\n\
             [value(s(n)) for n in 0..200]\nvalue(s(100000))\n"
        )
    };
    let plain = agree_big(&game("k in 1..=9", "k in {1, 3, 4, 9}"));
    for (binders, guard) in [
        ("k in 1..=9", "str(k) in W"),
        ("k in 1..=9", "str(k) in [\"1\", \"3\", \"4\", \"9\"]"),
        ("c in D, k in 1..=9", "str(k) == c"),
    ] {
        let text = game(binders, guard);
        assert_eq!(agree_big(&text), plain, "{text}");
        runs_compiled_throughout(&text);
    }
    // Substrings: 13, 34, 49, 134 and 349 as well.
    let within = agree_big(&game(
        "k in 1..=400",
        "k in {1, 3, 4, 9, 13, 34, 49, 134, 349}",
    ));
    let text = game("k in 1..=400", "str(k) in D");
    assert_eq!(agree_big(&text), within);
    runs_compiled_throughout(&text);
    // Leading zeros and signs are not an integer's text.
    let signed = |guard: &str| {
        format!(
            "game s(n) {{\n    move take(k in -9..=9) if {guard} and k != 0 and abs(k) <= n \
             -> s(n - abs(k))\n}}\n[value(s(n)) for n in 0..100]\n"
        )
    };
    let odd = agree_big(&signed("k in {-5, 0, 5, 2}"));
    let text = signed("(str(k) in \"-05x\" or str(k) == \"-5\" or str(k) in [\"02\", \"2\"])");
    assert_eq!(agree_big(&text), odd);
    runs_compiled_throughout(&text);
    let never = agree_big(&game("k in 2..=9", "true"));
    assert_eq!(
        agree_big(&game("k in 1..=9", "str(k) != \"01\" and k != 1")),
        never
    );
}

/// Wythoff's game as one rule over both coordinates, `x == a or y == b
/// or a - x == b - y` (src/runtime/normalize/choices.rs): a move per
/// test, each fixing `y`, where every pair was tested (117x).
#[test]
fn a_choice_between_tests_of_the_binders_is_a_move_each() {
    let queen = |guard: &str| {
        format!(
            "game w(a, b) {{\n    move to(x in 0..=a, y in 0..=b) if {guard} -> w(x, y)\n}}\n\
             [[value(w(a, b)) for b in 0..12] for a in 0..12]\nvalue(w(60, 70))\n"
        )
    };
    let plain = "game w(a, b) {\n    move left(k in 1..=a) -> w(a - k, b)\n    \
                 move right(k in 1..=b) -> w(a, b - k)\n    \
                 move both(k in 1..=min(a, b)) -> w(a - k, b - k)\n}\n\
                 [[value(w(a, b)) for b in 0..12] for a in 0..12]\nvalue(w(60, 70))\n";
    let want = agree_big(plain);
    for guard in [
        "(x, y) != (a, b) and (x == a or y == b or a - x == b - y)",
        "(x != a or y != b) and (y == b or x == a or x - y == a - b)",
        "[x, y] != [a, b] and (x == a or y == b or a - x == b - y)",
        "(x != a or y != b) and (x == a or y == b or abs(a - x) == abs(b - y))",
    ] {
        // No test left for every pair: each move's loop fixes `y`.
        agrees_with_no_test_per_option(&queen(guard), &want);
    }
    // Moves listed keep the written order: the rule is not split there.
    let listed = "game w(a, b) {\n    move to(x in 0..=a, y in 0..=b) \
                  if (x, y) != (a, b) and (x == a or y == b or a - x == b - y) -> w(x, y)\n}\n\
                  moves(w(2, 1))\n";
    let shown = agree_big(listed);
    let at = |s: &str| shown.find(s).unwrap_or_else(|| panic!("{s} in {shown}"));
    assert!(at("to(x=0, y=1)") < at("to(x=1, y=0)") && at("to(x=1, y=0)") < at("to(x=2, y=0)"));
    // A test that may fail stays a choice, with the interpreter's error.
    same_error(
        &queen("(x, y) != (a, b) and (x == a or 10 / (b - y) == 5 or y == b)"),
        "division by zero",
    );
}

/// The rook as one rule over every cell, `(nx == x and ny < y) or (ny ==
/// y and nx < x)`: a choice between conjunctions is a move each too, the
/// equation of each fixing a loop (350x, a loop over every cell each
/// position), with the queen's diagonal as a third.
#[test]
fn a_choice_between_conjunctions_of_tests_is_a_move_each() {
    let board = |guard: &str| {
        format!(
            "game r(x, y) {{\n    move to(nx in 0..9, ny in 0..9) if {guard} -> r(nx, ny)\n}}\n\
             [[value(r(x, y)) for y in 0..9] for x in 0..9]\n"
        )
    };
    let rook = agree_big(
        "game r(x, y) {\n    move a(k in 1..=x) -> r(x - k, y)\n    \
         move b(k in 1..=y) -> r(x, y - k)\n}\n[[value(r(x, y)) for y in 0..9] for x in 0..9]\n",
    );
    for guard in [
        "(nx == x and ny < y) or (ny == y and nx < x)",
        "(ny == y and nx < x) or (nx == x and ny < y)",
        "(x == nx and y > ny) or (nx < x and y == ny)",
        "nx <= x and ny <= y and ((nx == x and ny != y) or (ny == y and nx != x))",
    ] {
        // No choice left for every cell: each move's loop is fixed.
        agrees_with_no_test_per_option(&board(guard), &rook);
    }
    // Overlapping tests make each option once: a queen's diagonal beside
    // the rook's lines, the corner (`nx < x and ny < y`) in two of them.
    let queen = agree_big(
        "game r(x, y) {\n    move a(k in 1..=x) -> r(x - k, y)\n    \
         move b(k in 1..=y) -> r(x, y - k)\n    move c(k in 1..=min(x, y)) -> r(x - k, y - k)\n\
         }\n[[value(r(x, y)) for y in 0..9] for x in 0..9]\n",
    );
    let diagonal = "(nx == x and ny < y) or (ny == y and nx < x) or (x - nx == y - ny and nx < x)";
    assert_eq!(agree_big(&board(diagonal)), queen);
    let text = board("(nx < x and ny < y) or (nx == x and ny < y) or (ny == y and nx < x)");
    let corner = agree_big(&text);
    assert_ne!(corner, rook);
    // Moves listed keep the written order, each option once.
    let listed = "game r(x, y) {\n    move to(nx in 0..3, ny in 0..3) \
                  if (nx == x and ny < y) or (ny == y and nx < x) -> r(nx, ny)\n}\nmoves(r(1, 2))\n";
    let shown = agree_big(listed);
    let at = |s: &str| shown.find(s).unwrap_or_else(|| panic!("{s} in {shown}"));
    assert!(
        at("to(nx=0, ny=2)") < at("to(nx=1, ny=0)") && at("to(nx=1, ny=0)") < at("to(nx=1, ny=1)")
    );
    assert_eq!(shown.matches("to(").count(), 3, "{shown}");
}

/// `text` prints `want` on every path, compiled with no condition
/// tested for every option.
fn agrees_with_no_test_per_option(text: &str, want: &str) {
    assert_eq!(agree_big(text), want, "{text}");
    let told = compiled_as(text, &[]);
    assert!(!told.contains("tested for every option"), "{told}");
}
