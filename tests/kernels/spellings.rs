//! Spellings of a rule that say what plain comparisons and loops say,
//! written as users write them: each agrees with the interpreter and
//! runs as the plain spelling does (src/runtime/kernel/expr/spelled.rs,
//! src/runtime/normalize/solved.rs, the tuples a helper is given in
//! src/runtime/normalize/inline.rs, the windows of
//! src/runtime/kernel/filter.rs). Each was 10 to 240 times slower than
//! the plain spelling.

use super::*;

/// A knight moving towards (1, 1) on an 40 x 40 board: how many squares
/// the second player wins, its guard in `GUARD` and its move in `MOVE`.
fn knight(guard: &str, jump: &str, helper: &str) -> String {
    format!(
        "let N = 40\n{helper}\ngame knight(x, y) {{\n    move {jump} if {guard}\n        \
         -> knight(x + dx, y + dy)\n}}\n\
         len([1 for x in 1..=N for y in 1..=N if value(knight(x, y)) == 0])\n\
         [value(knight(x, y)) for x in 1..=6 for y in 1..=6]\n"
    )
}

const JUMP: &str = "jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)])";

/// The rules' report of game 0 after running `text` with machine code,
/// and how many of its positions ran in the interpreter or alone.
fn report(text: &str) -> (grundy::explain::GameReport, u64, u64) {
    report_at(text, 0)
}

/// [`report`] of game `g`.
fn report_at(text: &str, g: usize) -> (grundy::explain::GameReport, u64, u64) {
    let (session, _) = Engine::Native.run("spelled.game", text);
    let machine = &session.machine;
    let report = grundy::explain::game(&machine.game_ir(g as _), &machine.defs);
    let interpreted = machine.interpreted.get(g).copied().unwrap_or(0);
    (report, interpreted, machine.kernel_runs)
}

/// A board's bounds written as ranges the square must be in, `not in`
/// them, `min` and `max` of the coordinates either way round, or by a
/// helper given the square as a tuple: the same values as the plain
/// comparisons, a board swept level by level with no position left to
/// the interpreter, as the plain spelling is.
#[test]
fn a_board_bounded_in_other_words_is_a_board() {
    let plain = knight(
        "x + dx >= 1 and x + dx <= N and y + dy >= 1 and y + dy <= N",
        JUMP,
        "",
    );
    let expected = agree_big(&plain);
    let on_board = "fn on_board(p) = 1 <= p[0] <= N and 1 <= p[1] <= N";
    let spellings = [
        knight("x + dx in 1..=N and y + dy in 1..=N", JUMP, ""),
        knight("x + dx in 1..N + 1 and y + dy in 0 + 1..N + 1", JUMP, ""),
        knight("not (x + dx not in 1..=N) and y + dy in 1..=40", JUMP, ""),
        knight(
            "min(x + dx, y + dy) >= 1 and max(x + dx, y + dy) <= N",
            JUMP,
            "",
        ),
        knight(
            "1 <= min(x + dx, y + dy) and N >= max(y + dy, x + dx)",
            JUMP,
            "",
        ),
        knight(
            "min(x + dx, y + dy) > 0 and max(x + dx, y + dy) < N + 1",
            JUMP,
            "",
        ),
        knight("on_board((x + dx, y + dy))", JUMP, on_board),
        knight("on_board((x + dx, y + dy))", JUMP, on_board).replace(
            "jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) if on_board((x + dx, y + dy))\n        \
             -> knight(x + dx, y + dy)",
            "jump(d in {(-2, 1), (-2, -1), (1, -2), (-1, -2)}) if on_board((x + d[0], y + d[-1]))\n        \
             -> knight(x + d[0], y + d[1])",
        ),
    ];
    assert!(spellings[7].contains("d in {"), "{}", spellings[7]);
    for text in spellings {
        assert_eq!(agree_big(&text), expected, "{text}");
        let (report, interpreted, _) = report(&text);
        assert!(report.compiled, "compiled: {text}");
        assert!(report.levels.is_some(), "a board: {text}");
        assert_eq!(interpreted, 0, "positions interpreted: {text}");
    }
}

/// Membership of other ranges, and extrema where splitting would skip
/// an item that could fail or bound nothing: the interpreter's answers,
/// errors included (`1 / 0` in a `min`, a range up to the largest
/// integer, which overflows).
#[test]
fn ranges_and_extrema_keep_the_interpreters_answers() {
    let game = |guard: &str| {
        format!(
            "game g(n, m) {{\n    move take(k in 1..=3) if k <= n and {guard} -> g(n - k, m)\n    \
             move drop(k in 1..=2) if k <= m -> g(n, m - k)\n}}\n\
             [value(g(n, m)) for n in 0..12 for m in 0..6]\n"
        )
    };
    for guard in [
        "n - k in m..n",
        "n - k not in m..=n - 2",
        "k in 0..=m",
        "min(n, m, k) >= 1",
        "max(n - k, m) < 9",
        "min(n - k, m) <= 2",
        "max(n, m) >= k + 4",
        "3 > min(m, n - k)",
        "k in -5..=9223372036854775806",
    ] {
        agree_big(&game(guard));
    }
    // The same error, printed the same, whichever engine runs.
    let fails = |guard: &str| same_failure(&game(guard));
    fails("min(n, 1 / (n - n)) >= 5");
    fails("k in 0..=9223372036854775807");
}

/// A binder over one value, a list of one item or a range whose ends are
/// the same sum, is that value: Grundy's game written with `b in n -
/// a..=n - a`, and Kayles with `right in [n - k - left]`, agree with the
/// plain spellings and read their options by index, not one loop turn
/// at a time (157 and 3.4 times slower).
#[test]
fn a_binder_over_one_value_is_that_value() {
    let split = |binders: &str, guard: &str| {
        format!(
            "game grundy(n) {{\n    move split({binders}) if {guard} -> grundy(a) + grundy(b)\n}}\n\
             [value(grundy(n)) for n in 0..=300]\n"
        )
    };
    let plain = agree_big(
        "game grundy(n) {\n    move split(a in 1..n) if 2 * a < n -> grundy(a) + grundy(n - a)\n}\n\
         [value(grundy(n)) for n in 0..=300]\n",
    );
    for text in [
        split("a in 1..n, b in n - a..=n - a", "a < b"),
        split("a in 1..n, b in [n - a]", "a < b"),
        split("a in 1..n, b in {n - a}", "a < b"),
    ] {
        assert_eq!(agree_big(&text), plain, "{text}");
        let (report, interpreted, _) = report(&text);
        assert!(report.compiled && interpreted == 0, "{text}");
        assert!(
            report.moves[0].how.contains("loop over `a`"),
            "one loop: {text} {report:?}"
        );
    }
    // A tuple binder over a comprehension of pairs, lifted into the
    // move: its check that `n - a` can be made holds, and the loop is
    // the plain spelling's fast one.
    let pairs = split("(a, b) in [(a, n - a) for a in 1..n if a < n - a]", "true");
    assert_eq!(agree_big(&pairs), plain, "{pairs}");
    let (made, _, _) = report(&pairs);
    assert!(made.moves[0].how.contains("fast loop over `a`"), "{made:?}");
    let kayles = "game kayles(n) {\n    move knock(k in 1..=2, left in 0..n, right in [n - k - left]) \
                  if right >= 0 -> kayles(left) + kayles(right)\n}\n\
                  [value(kayles(n)) for n in 0..=200]\n";
    let plain = "game kayles(n) {\n    move knock(k in 1..=2, a in 0..=n - k) \
                 -> kayles(a) + kayles(n - k - a)\n}\n[value(kayles(n)) for n in 0..=200]\n";
    assert_eq!(agree_big(kayles), agree_big(plain));
}

/// A guard's conjunct of the binder alone, over a window that ends
/// inside a word of its bits (`k in 1..=min(n, 7)`), is evaluated once
/// per value, not looked at again at every position: the values are the
/// plain spelling's.
#[test]
fn a_short_window_of_a_kept_conjunct_agrees() {
    let helper = "fn allowed(k) = k == 2 or k == 5 or k == 7\n\
                  game sub(n) {\n    move take(k in 1..=min(n, 7)) if allowed(k) -> sub(n - k)\n}\n\
                  len([n for n in 0..=20000 if value(sub(n)) == 0])\n";
    let plain = "game sub(n) {\n    move take(k in {2, 5, 7}) if k <= n -> sub(n - k)\n}\n\
                 len([n for n in 0..=20000 if value(sub(n)) == 0])\n";
    let plain = agree_big(plain);
    assert_eq!(agree_big(helper), plain);
    // The loop's end capped by a constant is the constants' loop, `k <=
    // n` its first condition, unrolled as `k in 1..=7 if k <= n` is.
    let (made, _, _) = report(helper);
    assert!(made.moves[0].how.contains("no binder"), "{made:?}");
    // (`k < n` of `1..min(n, 8)`: a game that cannot take the last.)
    let last = agree_big(&helper.replace("k in 1..=min(n, 7)", "k in 1..min(n, 8)"));
    assert_ne!(last, plain);
    for (binder, start, same) in [
        ("k in 1..=min(7, n)", "1", &plain),
        ("k in s..=min(n, 7)", "1", &plain),
        ("k in s..min(8, n)", "1", &last),
        ("k in 1..=min(n, s + 6)", "1", &plain),
    ] {
        let text = helper
            .replace("k in 1..=min(n, 7)", binder)
            .replace("game sub(n)", "game sub(n, s)")
            .replace("sub(n - k)", &format!("sub(n - k, {start})"))
            .replace("value(sub(n))", &format!("value(sub(n, {start}))"));
        assert_eq!(&agree_big(&text), same, "{text}");
    }
}

/// A kept conjunct that holds rarely, over a window growing with the
/// heap (`p in 1..=n if popcount(p) == 1`, a square found by `isqrt`):
/// the machine code runs the long windows over the filter's list of the
/// values that hold, and agrees with the interpreter and with the plain
/// spelling; one that holds often (`k % 3 != 0`) is run over the words
/// past the list's first values, and agrees too.
#[test]
fn a_rare_kept_conjunct_over_a_growing_window_agrees() {
    let query = "[value(g(n)) for n in 0..=1000]\n";
    let game = |binder: &str, guard: &str| {
        format!("game g(n) {{\n    move take({binder}) if {guard} -> g(n - p)\n}}\n{query}")
    };
    let plain = agree_big(&game("p in [1 << i for i in 0..11]", "p <= n"));
    assert_eq!(agree_big(&game("p in 1..=n", "popcount(p) == 1")), plain);
    assert_eq!(agree_big(&game("p in 1..=n", "p & (p - 1) == 0")), plain);
    let squares = "fn is_square(s) = isqrt(s) ** 2 == s\n";
    let plain = agree_big(&game("p in [k * k for k in 1..=31]", "p <= n"));
    let listed = format!("{squares}{}", game("p in 1..=n", "is_square(p)"));
    assert_eq!(agree_big(&listed), plain);
    agree_big(&game("p in 1..=n", "p % 3 != 0"));
}

/// A binder over a constant set less the last move (`k in {1, 2, 3, 4} -
/// {last}`), which was made at every position (16 times slower), is the
/// set with `k != last` first in the guard: the plain spelling's values,
/// for a last move in the set and out of it.
#[test]
fn a_set_less_the_last_move_agrees_with_the_plain_spelling() {
    let game = |binder: &str, guard: &str| {
        format!(
            "game lm(n, last) {{\n    move take({binder}) if {guard} -> lm(n - k, k)\n}}\n\
             [value(lm(n, l)) for n in 0..=300 for l in [0, 2, 5]]\n"
        )
    };
    let plain = agree_big(&game("k in 1..=4", "k <= n and k != last"));
    let less = game("k in {1, 2, 3, 4} - {last}", "k <= n");
    assert_eq!(agree_big(&less), plain);
    let (report, interpreted, _) = report(&less);
    assert!(report.compiled && interpreted == 0, "{less}");
    let two = game("k in {1, 2, 3, 4, 5} - {last, 5}", "k <= n");
    assert_eq!(agree_big(&two), plain);
}

/// Subtracting a prime, the primes found by a helper whose comprehension
/// tests divisors only while `d * d <= k` (an `if` monotone in its `for`,
/// which ends the loop rather than testing every `d` below `k`: 34 times
/// slower): the plain spelling's values, spelled strictly or with a
/// power, with an `if` before it or a `for` inside. An `if` that
/// overflows past its first values is the interpreter's error.
#[test]
fn a_monotone_if_in_a_helper_agrees() {
    let game = |helper: &str| {
        format!(
            "{helper}\ngame pt(n) {{\n    move take(p in 2..=n) if not composite(p) -> pt(n - p)\n}}\n\
             [value(pt(n)) for n in 0..=400]\n"
        )
    };
    let plain = agree_big(&game(
        "fn composite(k) = not all([k % d != 0 for d in 2..=isqrt(k)])",
    ));
    for helper in [
        "fn composite(k) = any([k % d == 0 for d in 2..k if d * d <= k])",
        "fn composite(k) = any([k % d == 0 for d in 2..k if d * d < k + 1])",
        "fn composite(k) = len([d for d in 2..=k if k >= d ** 2 if k % d == 0]) > 0",
        "fn composite(k) = any([k % d == 0 for d in 0..k if 2 <= d if d * d <= k])",
        "fn composite(k) = any([k % d == 0 for d in 2..k if d * d <= k for e in [d]])",
    ] {
        assert_eq!(agree_big(&game(helper)), plain, "{helper}");
    }
    same_failure(&game(
        "fn composite(k) = any([k % d == 0 for d in 2..k if d ** 30 <= k])",
    ));
}

/// A table kept in a global and read by another game's guard (`let T =
/// table(sub, 0..=N)`, then `T[k] == 0`) was interpreted (100 times
/// slower); a long constant list in a slice, a sum, a comprehension or a
/// set made the machine code an expression per item, and ran out of
/// memory compiling it. Each is one row read in place now, with the
/// interpreter's values.
#[test]
fn a_table_or_a_long_constant_list_in_a_rule_agrees() {
    let game = |table: &str, guard: &str| {
        format!(
            "game sub(n) {{ move take(k in {{1, 3, 4}}) if k <= n -> sub(n - k) }}\n\
             let T = {table}\ngame picky(n) {{\n    move take(k in 1..=n) if {guard} -> picky(n - k)\n}}\n\
             [value(picky(n)) for n in 0..=300]\nstr(table(sub, 0..=3))\n"
        )
    };
    let plain = agree_big(&game("list(table(sub, 0..=2000))", "T[k] == 0"));
    let table = game("table(sub, 0..=2000)", "T[k] == 0");
    assert_eq!(agree_big(&table), plain);
    let (report, interpreted, _) = report_at(&table, 1);
    assert!(report.compiled && interpreted == 0, "{table}");
    for (t, guard) in [
        ("table(sub, 0..=2000)", "sum(T[:3]) >= 0 and T[k] == 0"),
        (
            "table(sub, 0..=2000)",
            "len([x for x in T if x == 0]) > 1 and T[k] == 0",
        ),
        ("list(table(sub, 0..=2000))", "k in set(T) and T[-k] != 1"),
        (
            "(0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2)",
            "k in T and T[k % 21] == 2",
        ),
        (
            "set([3 * i for i in 0..100])",
            "k in T or k in {x - 1 for x in T}",
        ),
        ("table(sub, 0..=2000)", "k in T"),
    ] {
        agree_big(&game(t, guard));
    }
}

/// Powers in a guard or a target (`n - 2 ** i`, `k ** 2 <= n`) were a
/// call each (3 to 4 times slower than `1 << i` and `k * k`): the plain
/// spellings' values, and the interpreter's errors for a power that
/// overflows or an exponent below 0.
#[test]
fn powers_agree_with_shifts_and_products() {
    let game = |binder: &str, guard: &str, taken: &str| {
        format!(
            "game g(n) {{\n    move take({binder}) if {guard} -> g(n - {taken})\n}}\n\
             [value(g(n)) for n in 0..=600]\n"
        )
    };
    let plain = agree_big(&game("i in 0..=9", "1 << i <= n", "(1 << i)"));
    assert_eq!(
        agree_big(&game("i in 0..bit_length(n)", "true", "2 ** i")),
        plain
    );
    assert_eq!(
        agree_big(&game("i in 0..=9", "2 ** i <= n", "2 ** i")),
        plain
    );
    let plain = agree_big(&game("k in 1..=isqrt(n)", "true", "k * k"));
    assert_eq!(
        agree_big(&game("k in 1..=30", "k ** 2 <= n", "k ** 2")),
        plain
    );
    let cubes = agree_big(&game("k in 1..=9", "k * k * k <= n", "k * k * k"));
    assert_eq!(
        agree_big(&game("k in 1..=9", "k ** 3 <= n", "k ** 3")),
        cubes
    );
    let fourth = agree_big(&game(
        "k in 1..=5",
        "k * k * k * k <= n",
        "k ** 4 + k ** 1 - k",
    ));
    assert_eq!(
        agree_big(&game(
            "k in 1..=5",
            "k ** 4 <= n",
            "k * k ** 0 * k ** 2 * k"
        )),
        fourth
    );
    same_failure(&game("i in 0..=70", "2 ** i > 0", "1"));
    same_failure(&game("i in -2..=3", "2 ** i > 0", "1"));
    same_failure(&game("k in 1..=n", "(3037000500 * k) ** 2 > 0", "k"));
    same_failure(&game("k in 1..=n", "(3037000500 * k) ** 4 > 0", "k"));
}

/// A guard that what is left stays non-negative, `n - k * k >= 0`, is
/// the same end of the loop as `k * k <= n` (85x slower at 100,000 when
/// it was tested at each `k`): ended where it first fails, with its
/// overflows (of `k * k`, or of `n - k ** 4` below the least integer)
/// the interpreter's.
#[test]
fn what_is_left_kept_non_negative_ends_the_loop_as_a_bound() {
    let game = |guard: &str| {
        format!(
            "game g(n) {{\n    move take(k in 1..=n) if {guard} -> g(n - k * k)\n}}\n\
             [value(g(n)) for n in 0..=2000]\n"
        )
    };
    let plain = agree_big(&game("k * k <= n"));
    for guard in [
        "n - k * k >= 0",
        "0 <= n - k * k",
        "n - k ** 2 > -1",
        "-1 < n - k * k",
        "n >= 0 and n - k * k >= 0",
    ] {
        assert_eq!(agree_big(&game(guard)), plain, "{guard}");
    }
    let told = crate::common::explained(&game("n - k * k >= 0"));
    assert!(!told.contains("tested for every option"), "{told}");
    let fewer = agree_big(&game("k * k < n"));
    assert_eq!(agree_big(&game("n - k * k > 0")), fewer);
    let far = "game g(n) {\n    move take(k in 1..=n) if GUARD -> g(n / 2)\n}\n\
               value(g(NUM))\n";
    for (guard, num) in [
        ("n - k * k * k * k >= 0", "9223372036854775807"),
        ("-9223372036854775807 - n * 0 - k * k >= 0", "10"),
        ("5 - k ** 40 >= 0", "7"),
        // The lesser side fails, at every probe.
        ("1 / (n - n) <= n - k * k", "10"),
    ] {
        same_failure(&far.replace("GUARD", guard).replace("NUM", num));
    }
}

/// A string state rebuilt by `join` of a comprehension of characters
/// (the ruler game's coins flipped, the multiples game's and node
/// Kayles' flags cleared) was interpreted, 25 to 70 times slower than a
/// list state or a set, or ran out of time: the same values, compiled,
/// and the interpreter's for a `join` of longer strings or with a
/// separator.
#[test]
fn a_string_joined_from_characters_agrees() {
    let ruler = |made: &str| {
        format!(
            "game ruler(s) {{\n    move turn(i in 0..len(s), j in 0..=i) if s[i] == \"H\"\n        \
             -> ruler(s[:j] + {made} + s[i + 1:])\n}}\n\
             [value(ruler(\"H\" * n)) for n in 0..=9] + [value(ruler(\"HTHHT\"))]\n"
        )
    };
    let list = "game ruler(c) {\n    move turn(i in 0..len(c), j in 0..=i) if c[i] == 1\n        \
                -> ruler(c[:j] + [1 - x for x in c[j:i + 1]] + c[i + 1:])\n}\n\
                [value(ruler([1] * n)) for n in 0..=9] + [value(ruler([1, 0, 1, 1, 0]))]\n";
    let plain = agree_big(list);
    let joined = ruler("join([if c == \"H\" then \"T\" else \"H\" for c in s[j:i + 1]], \"\")");
    assert_eq!(agree_big(&joined), plain);
    let (made, interpreted, _) = report(&joined);
    assert!(made.compiled && interpreted == 0, "{joined}");
    let indexed = ruler("join([if s[k] == \"H\" then \"T\" else \"H\" for k in j..=i], \"\")");
    assert_eq!(agree_big(&indexed), plain);
    // Longer pieces, a separator, a literal list: the interpreter's.
    let shorter = |made: &str| {
        format!(
            "game g(s) {{\n    move cut(i in 0..len(s)) if s[i] == \"H\" -> g({made}[:i])\n}}\n\
             [value(g(\"HTH\" * n)) for n in 0..=4] + [value(g(\"HHTHHH\"))]\n"
        )
    };
    for made in [
        "join([if c == \"H\" then \"T\" else \"H\" for c in s], \"\")",
        "join([if c == \"H\" then \"TH\" else \"H\" for c in s], \"\")",
        "join([c for c in s], \"-\")",
        "join([\"T\", s[0], s[i]], \"\")",
        "join([s[i - 1], \"H\"], \"\")",
    ] {
        agree_big(&shorter(made));
    }
    same_failure(&shorter("join([s[k + 1] for k in 0..len(s)], \"\")"));
    let multiples = |state: &str, rules: &str| {
        format!("game mult({state}) {{\n    {rules}\n}}\n[value(mult(n)) for n in STARTS]\n")
    };
    let sets = multiples(
        "S",
        "move pick(x in S) -> mult(S - {y for y in S if y % x == 0})",
    )
    .replace(
        "mult(n)) for n in STARTS",
        "mult(set(2..=n))) for n in 2..=14",
    );
    let flags = multiples(
        "s",
        "move pick(x in 2..len(s)) if s[x] == \"1\"\n        \
         -> mult(join([if j % x == 0 then \"0\" else s[j] for j in 0..len(s)], \"\"))",
    )
    .replace(
        "mult(n)) for n in STARTS",
        "mult(\"00\" + \"1\" * (n - 1))) for n in 2..=14",
    );
    assert_eq!(agree_big(&flags), agree_big(&sets));
    let (made, interpreted, _) = report(&flags);
    assert!(made.compiled && interpreted == 0, "{flags}");
}

/// The integers of a range made into a set or sorted (`S ^ set(j..=i)`,
/// the ruler game's run of coins turned over) were interpreted (13 times
/// slower than a list of coins): the list spelling's values, compiled;
/// empty ranges, ranges the wrong way round and ranges past the
/// compiled rules' size agree with the interpreter.
#[test]
fn a_set_of_a_range_agrees() {
    let ruler = |state: &str, rules: &str, start: &str| {
        format!(
            "game ruler({state}) {{\n    {rules}\n}}\n[value(ruler({start})) for n in 0..=10]\n"
        )
    };
    let plain = agree_big(&ruler(
        "c",
        "move turn(i in 0..len(c), j in 0..=i) if c[i] == 1 -> ruler(c[:j] + [1 - x for x in c[j:i + 1]] + c[i + 1:])",
        "[1] * n",
    ));
    let sets = ruler(
        "S",
        "move turn(i in S, j in 0..=i) -> ruler(S ^ set(j..=i))",
        "set(0..n)",
    );
    assert_eq!(agree_big(&sets), plain);
    let (made, interpreted, _) = report(&sets);
    assert!(made.compiled && interpreted == 0, "{sets}");
    let sorted = ruler(
        "S",
        "move turn(i in S, j in 0..=i) -> ruler(S ^ set(sorted(j..i + 1)) ^ set(reversed(i + 1..j)))",
        "set(0..n)",
    );
    assert_eq!(agree_big(&sorted), plain);
    let counted = "game g(n) {\n    move m(k in 1..=n) if len(set(0..=k * 9000)) > k -> g(n - k)\n}\n\
                   [value(g(n)) for n in 0..=12]\n";
    agree_big(counted);
}

/// Chomp with its board a list of strings, read only by `len(rows[r])`
/// and slices, which the rules alone do not tell from a list of lists:
/// typed by the first position met, it compiles (27 times slower when
/// interpreted), agrees with the list of row lengths, and `--explain`
/// says so.
#[test]
fn a_list_of_strings_the_rules_do_not_name_is_typed_by_its_position() {
    let plain = "game chomp(rows) {\n    move bite(r in 0..len(rows), c in 0..rows[r]) if r > 0 or c > 0\n        \
                 -> chomp(rows[:r] + [min(x, c) for x in rows[r:]])\n}\n\
                 [value(chomp([n] * m)) for n in 1..=5 for m in 1..=4] + [value(chomp([5, 3, 3, 1]))]\n";
    let strings = "game chomp(rows) {\n    move bite(r in 0..len(rows), c in 0..len(rows[r])) if r > 0 or c > 0\n        \
                   -> chomp(rows[:r] + [row[:c] for row in rows[r:]])\n}\n\
                   [value(chomp([\"#\" * n] * m)) for n in 1..=5 for m in 1..=4] + [value(chomp([\"#####\", \"###\", \"###\", \"#\"]))]\n";
    assert_eq!(agree_big(strings), agree_big(plain));
    let (session, _) = Engine::Native.run("strings.game", strings);
    let told = session.explain(None).unwrap();
    assert!(
        told.starts_with("chomp(rows): compiled to machine code"),
        "{told}"
    );
    assert_eq!(
        session.machine.interpreted.first().copied().unwrap_or(0),
        0,
        "{told}"
    );
    // Rows of a list of lists: still the interpreter's, and its values.
    agree_big(&strings.replace("\"#\" * n", "[1] * n").replace(
        "[\"#####\", \"###\", \"###\", \"#\"]",
        "[[1] * 5, [1] * 3, [1] * 3, [1]]",
    ));
}

/// A string or a tuple state whose rules write no string or tuple (they
/// index and slice it only) was taken for a list: every position of a
/// string ran in the interpreter (13 times slower). The first position
/// met types it, and its values are the list's; a game given lists,
/// strings and tuples by turns agrees too, compiled once more at most.
#[test]
fn a_string_or_tuple_state_the_rules_do_not_name_is_typed_by_its_position() {
    let game = |starts: &str| {
        format!(
            "game g(s) {{\n    move cut(i in 0..len(s)) if i == 0 or s[i] != s[i - 1] -> g(s[:i] + s[i + 1:])\n}}\n\
             [value(g(w)) for w in [{starts}]]\n"
        )
    };
    let lists = game("[1, 2, 3, 1, 2, 3, 1, 2], [1, 1, 2, 2, 1, 1, 2], [1, 2, 3, 4, 1, 2]");
    let plain = agree_big(&lists);
    for starts in [
        "\"abcabcab\", \"aabbaab\", \"abcdab\"",
        "(1, 2, 3, 1, 2, 3, 1, 2), (1, 1, 2, 2, 1, 1, 2), (1, 2, 3, 4, 1, 2)",
    ] {
        let text = game(starts);
        assert_eq!(agree_big(&text), plain, "{text}");
        let (session, _) = Engine::Native.run("typed.game", &text);
        assert_eq!(
            session.machine.interpreted.first().copied().unwrap_or(0),
            0,
            "{text}"
        );
    }
    let mixed = game(
        "[1, 2, 3, 1, 2], \"abcab\", (1, 2, 3, 1, 2), [1, 1, 2, 2], \"aabb\", (1, 1, 2, 2), \"abcd\"",
    );
    // Each start in three shapes: the lists' values, each thrice.
    let three = agree_big(&game("[1, 2, 3, 1, 2], [1, 1, 2, 2], [1, 2, 3, 4]"));
    let values: Vec<&str> = three.trim().trim_matches(['[', ']']).split(", ").collect();
    let thrice: Vec<&str> = values.iter().flat_map(|v| [*v; 3]).take(7).collect();
    assert_eq!(agree_big(&mixed), format!("[{}]\n", thrice.join(", ")));
}

/// The edges of the spellings above: a monotone condition that
/// overflows below the least integer at its loop's first value (the
/// loop is ended by testing both ends), a comparison of a linear form
/// with itself beside a parameter past any linear form's size, a table
/// collected whole by a query (printed as a table), a long constant
/// list asked for membership, and a loop's end capped by a constant too
/// large for a slot: the interpreter's answers and errors, every engine.
#[test]
fn the_edges_of_these_spellings_keep_the_interpreters_answers() {
    let sub = "game g(n) {\n    move take(k in 1..=n) if GUARD -> g(n - k)\n}\n[value(g(n)) for n in 0..=3]\n";
    same_failure(&sub.replace(
        "GUARD",
        "any([true for d in 0..5 if d * d - 9223372036854775807 - 5 <= n])",
    ));
    same_failure(&sub.replace("GUARD", "k * k - 9223372036854775807 - 5 <= n"));
    same_failure(
        "game g(n) {\n    move m(k in [2, 3]) if n + 1 == n + 1 -> g(n / k)\n}\n\
         value(g(9223372036854775807))\n",
    );
    same_failure(
        "game g(n) {\n    move m((a, b) in [(a, n + 1) for a in [2, 3]]) -> g(n / a)\n}\n\
         value(g(9223372036854775807))\n",
    );
    agree_big(
        "game g(n) { move take(k in 1..=3) if k <= n -> g(n - k) }\nlet T = table(g, 0..=6)\n\
         let U = [T for n in 0..=100 if value(g(n)) == 0]\nU[0]\nstr(U[1])\nlen(U)\n",
    );
    let primes = "let P = [p for p in 2..400 if all([p % d != 0 for d in 2..p])]\n\
                  game g(n) {\n    move take(k in 1..=n) if k in P or k == 1 -> g(n - k)\n}\n\
                  [value(g(n)) for n in 0..=500]\n";
    let plain = agree_big(primes);
    assert_eq!(agree_big(&primes.replace("k in P", "k in set(P)")), plain);
    // A long constant set of pairs (or strings) asked for membership: one
    // row, its items sorted and looked up by halves, where each was an
    // expression of its own (over 1,000 of them: seconds and gigabytes
    // compiling).
    let edges = "let E = {(v, w) for v in 1..1500 for w in [v - 1, v - 3, v / 2] if 0 <= w < v}\n\
                 game tok(v) {\n    move go(w in [v - 1, v - 2, v - 3, v / 2]) if (v, w) in E -> tok(w)\n}\n\
                 [value(tok(v)) for v in 1400..1500]\n";
    let plain = agree_big(&edges.replace(
        "(v, w) in E",
        "(w == v - 1 or w == v - 3 or w == v / 2) and 0 <= w < v",
    ));
    assert_eq!(agree_big(edges), plain);
    let words = "let W = {str(k) for k in 0..2000}\n\
                 game g(n) {\n    move take(k in 1..=3) if k <= n and str(n - k) in W -> g(n - k)\n}\n\
                 [value(g(n)) for n in 1990..2200]\n";
    agree_big(words);
    let capped = "game g(n) {\n    move take(k in 1..=min(n, CAP)) if k % 3 != 0 -> g(n - k)\n}\n\
                  [value(g(n)) for n in 0..=200]\n";
    let plain = agree_big(&capped.replace("min(n, CAP)", "n"));
    for cap in ["3000000000", "9223372036854775807", "-5"] {
        let text = capped.replace("CAP", cap);
        match cap {
            "-5" => agree_big(&text),
            _ => {
                assert_eq!(agree_big(&text), plain, "{text}");
                plain.clone()
            }
        };
    }
}

/// A loop's end bounded by a constant whatever the position (`k in
/// 1..=min(n, n % 10 + 1)`, an item of a constant list, an `if` picking
/// the less of two as a helper returning the cap writes it) keeps the
/// loop short: machine code runs it, not the fast loop for long windows
/// (12 to 15 times slower), with the values of the same bound written
/// as a guard.
#[test]
fn a_loop_bounded_by_a_remainder_is_short() {
    let game = |binder: &str, guard: &str| {
        format!(
            "game g(n) {{\n    move take({binder}) if {guard} -> g(n - k)\n}}\n\
             [value(g(n)) for n in 0..=3000]\n"
        )
    };
    let plain = agree_big(&game("k in 1..=10", "k <= n and k <= n % 10 + 1"));
    for (binder, guard) in [
        ("k in 1..=min(n, n % 10 + 1)", "true"),
        ("k in 1..=min(n % 10 + 1, n)", "true"),
        ("k in 1..=min(n, (n & 7) + 3)", "k <= n % 10 + 1"),
        (
            "k in 1..=min(n, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10][n % 10])",
            "true",
        ),
        (
            "k in 1..=(let r = n % 10 + 1 in if r > n then n else r)",
            "true",
        ),
    ] {
        let text = game(binder, guard);
        let got = agree_big(&text);
        if !binder.contains('&') {
            assert_eq!(got, plain, "{text}");
            let (made, _, _) = report(&text);
            assert!(made.moves[0].how.starts_with("machine code"), "{made:?}");
        }
    }
}

/// A digit of `n` found by its text, `str(d) in str(n)` with `d` over
/// digits: the same test by arithmetic (`normalize/digits.rs`,
/// `digit_of`), compiled, where it made two strings for every option.
/// Negative heaps (whose text starts with `-`), 0, the greatest integer
/// and the least (whose magnitude `abs` leaves to the interpreter), and
/// `not in`, agree on every engine.
#[test]
fn a_digit_found_by_text_is_found_by_arithmetic() {
    let game =
        "game dg(n) {\n move take(d in 1..=9) if str(d) in str(n) and d <= n -> dg(n - d)\n}\n";
    let text = format!("{game}[value(dg(n)) for n in 0..400]\n");
    compiled_as(&text, &["dg(n): compiled to machine code"]);
    common::differ::runs_compiled_throughout(&text);
    agree(&text);
    let edges = "game dg(n) {\n    move take(d in 0..=9) if str(d) in str(n) and d <= abs(n) and d > 0 \
                 -> dg(if n > 0 then n - d else n + d)\n    \
                 move zero(d in 0..1) if str(d) not in str(n) and 100 < n < 1000 -> dg(n - 101)\n}\n\
                 [value(dg(n)) for n in -300..300]\n\
                 game big(n) {\n    move t(d in 1..=9) if str(d) in str(n) -> big(abs(n % 1000) / 10)\n    \
                 move u(d in 0..1) if str(d) in str(n) and n > 0 -> big(0)\n}\n\
                 [value(big(n)) for n in [9223372036854775807, 1000000000000000000, \
                 -9223372036854775807, -9223372036854775807 - 1, 0, 10, 7]]\n";
    assert!(agree(edges).ends_with("[1, 1, 1, 1, 0, 2, 1]\n"));
    // `not in` is a `not (a or b)`, compiled as several conjuncts:
    // `--explain` still names the test made for every option, not the
    // chain after it, held once a position.
    let zero = "game dg(n) {\n    move zero(d in 0..2) if str(d) not in str(n) and 100 < n < 1000 \
                -> dg(n - 101)\n}\n[value(dg(n)) for n in 0..300]\n";
    let told = compiled_as(
        zero,
        &["`str(d) not in str(n)`: a condition tested for every option"],
    );
    assert!(!told.contains("`100 < n < 1000`"), "{told}");
}
