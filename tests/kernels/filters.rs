//! Conjuncts of the innermost binder alone, evaluated once per game and
//! value (src/runtime/kernel/filter.rs; the machine code's loop over the
//! values kept in src/runtime/kernel/native/emit/filtered.rs): the
//! options, their order, the values and the errors stay the
//! interpreter's.

use super::*;

const FNS: &str = "fn ones(k) = if k == 0 then 0 else k % 2 + ones(k / 2)\n\
                   fn is_prime(k) = k >= 2 and all([k % d != 0 for d in 2..=isqrt(k)])\n\
                   let S = {1, 4, 9, 16, 25, 36, 49, 64}\n";

/// Windows of every shape, filters of functions, globals and arithmetic,
/// conjuncts before and after, and several filters in a row.
#[test]
fn loops_over_the_values_kept_agree_with_the_interpreter() {
    for (domain, guard, target) in [
        ("1..=n", "is_prime(k)", "g(n - k)"),
        ("1..=n", "ones(k) == 2", "g(n - k)"),
        ("0..n", "k % 3 != 1 and ones(k) <= 2", "g(k)"),
        (
            "1..=n",
            "2 * k <= n + 1 and is_prime(k) and (n - k) % 4 != 2",
            "g(n - k)",
        ),
        ("1..=n", "k in S or k % 10 == 7", "g(n - k) + *(k % 3)"),
        ("-4..=n", "k * k % 7 == 2 and k >= 1", "g(n - k)"),
        (
            "1..=n / 2",
            "not is_prime(k) and ones(k) != 1",
            "g(k) + g(n - k)",
        ),
        ("60..=n", "k % 60 < 5", "g(n - k)"),
        ("1..=n", "(let u = k * k in u % 11 < 3)", "g(n - k)"),
    ] {
        let text = format!(
            "{FNS}game g(n) {{\n move m(k in {domain}) if {guard} -> {target}\n}}\n\
             [value(g(n)) for n in 0..300]\nmoves(g(97))\nmoves(g(256))\n"
        );
        agree(&text);
    }
}

/// A binder of two names (`(i, v) in enumerate(s)`) is not the last
/// binder's to keep once: a conjunct that reads its second name changes
/// with it. `(k ^ k) < v` was once taken for `k`'s alone, evaluated with
/// whatever `v` held first, and every option of `l([3, 3])` was lost.
#[test]
fn a_conjunct_of_a_split_binders_second_name_is_no_filter() {
    for guard in [
        "(k ^ k) < v",
        "(k ^ k) != v",
        "k * 0 + 2 <= v",
        "is_prime(k + v)",
    ] {
        let text = format!(
            "{FNS}game l(s) {{\n move m((i, v) in enumerate(s), k in 1..=v) if {guard} -> \
             l(sorted([t for t in s[:i] + [v - k] + s[i + 1:] if t > 0])) + *(i % 2)\n}}\n\
             len(moves(l([3, 3])))\n[value(l(s)) for s in [[3], [3, 3], [1, 3, 3], [2, 4, 5]]]\n"
        );
        agree(&text);
    }
}

/// A conjunct that fails at some value fails where the interpreter's
/// does: at the first position whose loop reaches it, along the same
/// play, whatever the values kept before.
#[test]
fn errors_of_the_values_kept_are_the_interpreters() {
    same_error(
        "game g(n) { move m(k in 1..=n) if 100 / (k - 50) > 1 -> g(n - k) }\nvalue(g(30))\nvalue(g(70))\n",
        "division by zero",
    );
    same_error(
        "game g(n) { move m(k in 1..=n) if [5, 6, 7, 8][k] > 6 -> g(n - k) }\nvalue(g(3))\nvalue(g(9))\n",
        "index",
    );
    // Past 64 bits from k = 5 on.
    same_error(
        "game g(n) { move m(k in 1..=n) if k ** 30 % 7 == 1 -> g(n - k) }\nvalue(g(4))\nvalue(g(9))\n",
        "overflow",
    );
}

/// A conjunct that reads none of the inner binders is evaluated once
/// where it is first reached, its truth kept (`Held` in
/// src/runtime/kernel/mod.rs): only where the conjuncts before it hold,
/// so one that fails does so where the interpreter's does, and one that
/// is never reached never fails; one of an outer binder is evaluated
/// again for each of its values.
#[test]
fn conjuncts_held_over_a_loop_agree_with_the_interpreter() {
    for guard in [
        // Never reached: the division by zero never happens.
        "k > n and 10 / (n - n) > 0",
        "k % 2 == 1 and ones(n) < 3",
        "k % 3 != 1 and n % 4 != 2 and is_prime(k + n)",
        // An outer binder's: a new truth for each `a`.
        "k <= a and ones(a) == 1",
        "(k + a) % 2 == 0 and a % 3 != 0 and n > a",
    ] {
        let text = format!(
            "{FNS}game g(n) {{\n move m(a in 0..3, k in 1..=n) if {guard} -> g(n - k) + *(a % 2)\n}}\n\
             [value(g(n)) for n in 0..60]\nmoves(g(17))\n"
        );
        agree(&text);
        runs_compiled_throughout(&text);
    }
    // Reached only past a dot: the error comes where it would.
    same_error(
        "game g(n) { move m(k in 1..=n) if k > 3 and 10 / (n - 9) > 0 -> g(n - k) }\n\
         [value(g(n)) for n in 0..12]\n",
        "division by zero",
    );
}

fn filter_file() -> impl Strategy<Value = String> {
    let window = prop::sample::select(vec!["1..=n", "0..n", "-3..n", "n / 2..=n", "1..=n / 3"]);
    let alone = prop::sample::select(vec![
        "ones(k) == 2",
        "k % 4 != 1",
        "is_prime(k)",
        "k in S",
        "k * k % 5 < 2",
        "100 / (k - 37) > -3",
    ]);
    let before = prop::sample::select(vec![
        "",
        "k <= n and ",
        "n > 3 and ",
        "(n + k) % 3 != 0 and ",
    ]);
    let after = prop::sample::select(vec![
        "",
        " and k != n - k",
        " and ones(k) < 3",
        " and (n - k) % 5 != 1",
    ]);
    let target = prop::sample::select(vec!["g(n - 1 - abs(k) % n)", "g(n / 2) + *(k % 4)"]);
    (window, before, alone, after, target).prop_map(|(window, before, alone, after, target)| {
        format!(
            "{FNS}game g(n) {{\n move m(k in {window}) if n > 0 and {before}{alone}{after} -> {target}\n}}\n\
             [value(g(n)) for n in 0..150]\nmoves(g(64))\n"
        )
    })
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn random_conjuncts_of_the_binder_agree_with_the_interpreter(file in filter_file()) {
        compare(&file)?;
    }
}

/// A binder over a range capped by a constant, `k in 1..=min(n, 30)`,
/// with a test of `k` alone (src/runtime/normalize/sifted.rs): the test is
/// worked out once per value as the rules are normalised, and the loop
/// runs over the values kept, as over the list written out (2.3x before).
#[test]
fn a_short_range_tested_by_its_binder_alone_runs_over_the_values_kept() {
    let game = |domain: &str, guard: &str| {
        format!(
            "fn ok(k) = k % 4 == 1 or k % 4 == 2\ngame s(n) {{\n move take(k in {domain}) if {guard} \
             -> s(n - k)\n}}\n[value(s(n)) for n in 0..200]\nmoves(s(13))\n"
        )
    };
    let listed = agree_big(&game("[1, 2, 5, 6, 9, 10, 13, 14, 17, 18]", "k <= n"));
    for (domain, guard) in [
        ("1..=min(n, 18)", "ok(k)"),
        ("1..=min(18, n)", "k % 4 == 1 or k % 4 == 2"),
        ("1..19", "k <= n and ok(k)"),
        ("0..=18", "k <= n and k > 0 and ok(k) and k * 0 == 0"),
    ] {
        let text = game(domain, guard);
        assert_eq!(agree_big(&text), listed, "{text}");
        // Over the values written out: no test left, none kept per game.
        let told = compiled_as(&text, &[]);
        assert!(!told.contains("tested for every option"), "{told}");
        assert!(!told.contains("alone hold"), "{told}");
    }
    // A test that fails at a value keeps the loop: its error, where the
    // interpreter meets it.
    same_error(
        &game("0..=9", "k <= n and 10 / (k - 3) > 0"),
        "division by zero",
    );
    // One that reads the position is no test of `k` alone.
    let odd = agree_big(&game("1..=min(n, 9)", "k % 2 == 1"));
    assert_eq!(
        agree_big(&game("1..=9", "k <= n and (k + n - n) % 2 == 1")),
        odd
    );
}

/// A test of `k` alone through `all` of a comprehension over a range its
/// value bounds (primes by trial division, `fn is_prime(k) = k >= 2 and
/// all([k % d != 0 for d in 2..k])`): worked out at each value as the
/// rules are normalised, as a test of plain arithmetic is (5x slower
/// before, each value tested once per game and the loop run over bits).
/// One whose items fail at a value (`k % (d - 3)` at `d = 3`) is left in
/// the guard, for the interpreter's error.
#[test]
fn a_test_by_all_of_a_comprehension_over_its_binder_runs_over_the_values_kept() {
    let game = |guard: &str| {
        format!(
            "fn is_prime(k) = k >= 2 and all([k % d != 0 for d in 2..k])\n\
             game s(n) {{\n move take(k in 1..=9) if {guard} -> s(n - k)\n}}\n\
             [value(s(n)) for n in 0..200]\nmoves(s(13))\n"
        )
    };
    let listed = agree_big(
        "game s(n) {\n move take(k in [2, 3, 5, 7]) if k <= n -> s(n - k)\n}\n\
         [value(s(n)) for n in 0..200]\nmoves(s(13))\n",
    );
    for guard in [
        "is_prime(k) and k <= n",
        "k <= n and is_prime(k)",
        "k <= n and any([k == p for p in 2..10 if is_prime(p)])",
    ] {
        let text = game(guard);
        assert_eq!(agree_big(&text), listed, "{text}");
        let told = compiled_as(&text, &[]);
        assert!(!told.contains("alone hold"), "{told}");
    }
    same_error(
        &game("k <= n and all([k % (d - 3) >= 0 for d in 2..k])"),
        "division by zero",
    );
}
