//! Spellings over a few items, or over a constant list's indices, that
//! say what a plain binder or target says: each agrees with the
//! interpreter and runs as the plain spelling does
//! (src/runtime/normalize/few.rs and indexed.rs).

use super::*;

/// Kayles to `n`, its move knocking `k` pins and leaving heaps `a` and
/// the rest, the target spelled `target`: the sum of the table.
fn kayles(target: &str, n: usize) -> String {
    format!(
        "game kayles(n) {{\n    move knock(k in 1..=2, a in 0..=n - k) -> {target}\n}}\n\
         sum(table(kayles, 0..={n}))\n[value(kayles(n)) for n in 0..40]\n"
    )
}

/// A target summing a comprehension over the two heaps written out, or
/// naming them by `min` and `max`, is the plain sum: read by index in a
/// fast loop, where each was 2.7 to 6 times slower.
#[test]
fn kayles_targets_over_a_few_heaps_are_the_plain_sum() {
    let plain = kayles("kayles(a) + kayles(n - k - a)", 300);
    let want = agree_big(&plain);
    for target in [
        "sum([kayles(h) for h in [a, n - k - a]])",
        "sum([kayles(h) for h in (n - k - a, a)])",
        "kayles(min(a, n - k - a)) + kayles(max(a, n - k - a))",
        "kayles(max(n - k - a, a)) + kayles(min(a, n - k - a))",
    ] {
        let text = kayles(target, 300);
        assert_eq!(agree_big(&text), want, "{text}");
        let (session, _) = Engine::Native.run("few.game", &text);
        let told = session.explain(None).unwrap();
        assert!(
            told.contains("fast loop over `a`, options read by index"),
            "{told}"
        );
    }
    // Not a pair: both `min`, or different operands; the same values
    // as the interpreter's all the same.
    agree_big(&kayles(
        "kayles(min(a, n - k - a)) + kayles(min(a, n - k - a))",
        60,
    ));
    agree_big(&kayles(
        "kayles(min(a, n - k)) + kayles(max(a, n - k - a))",
        60,
    ));
    // A set, an `if` after the `for`, and constants.
    agree_big(&kayles("sum([kayles(h) for h in {a, n - k - a}])", 60));
    agree_big(&kayles(
        "sum([kayles(h) for h in [a, n - k - a] if h > 0])",
        60,
    ));
    agree_big(&kayles(
        "kayles(a) + sum([*j for j in [1, 2]]) + kayles(n - k - a)",
        60,
    ));
    // Moves listed: a sum shows its terms in order whichever way written.
    let listed = "game kayles(n) {\n    move knock(k in 1..=2, a in 0..=n - k) \
                  -> kayles(max(a, n - k - a)) + kayles(min(a, n - k - a))\n}\nmoves(kayles(5))\n";
    let printed = agree(listed);
    assert!(
        printed.contains("knock(k=1, a=3)   kayles(1) + kayles(3)"),
        "{printed}"
    );
}

/// A binder over the indices of a constant list that only reads its
/// items, `i in 0..len(S)` with `S[i]`, runs over the items
/// (src/runtime/normalize/indexed.rs): the guard `S[i] <= n` narrows the
/// loop as `k <= n` does, where every index was tested (3.6 times
/// slower). Moves are still listed and named by the index.
#[test]
fn a_binder_over_the_indices_of_a_constant_list_runs_over_its_items() {
    let game = |binder: &str, guard: &str, take: &str| {
        format!(
            "let S = [2, 3, 5, 7, 11, 13]\ngame sub(n) {{\n    \
             move take({binder}) if {guard} -> sub(n - {take})\n}}\n\
             [value(sub(n)) for n in 0..=400]\n"
        )
    };
    let plain = agree_big(&game("k in S", "k <= n", "k"));
    for (binder, guard, take) in [
        ("i in 0..len(S)", "S[i] <= n", "S[i]"),
        ("i in 0..=len(S) - 1", "n >= S[i]", "S[i]"),
        ("i in 0..4", "S[i] <= n", "S[i]"),
    ] {
        let text = game(binder, guard, take);
        let (session, printed) = Engine::Native.run("indexed.game", &text);
        let told = session.explain(None).unwrap();
        assert!(!told.contains("tested for every option"), "{told}");
        if binder.ends_with("S) - 1") || binder.ends_with("(S)") {
            assert_eq!(printed, plain, "{text}");
        }
        agree_big(&text);
    }
    // The index read otherwise too: left as it is, and the same.
    let both = game("i in 0..len(S)", "S[i] <= n and i != n % 6", "S[i]");
    agree_big(&both);
    // Moves listed name the index.
    let listed = "let S = [2, 3, 5]\ngame sub(n) {\n    move take(i in 0..len(S)) if S[i] <= n -> sub(n - S[i])\n}\n\
                  moves(sub(9))\n";
    let printed = agree(listed);
    assert!(printed.contains("take(i=2)   sub(4)"), "{printed}");
}

/// An outer binder over a few constants whose guard looks it up in a
/// constant, `CODE[k] >= 4`, `CODE[k] in "4567"` of a string, or `k in
/// OK`, is unrolled and the lookup folded (src/runtime/normalize/unroll.rs,
/// logic.rs): as fast as `k == 3`, where it was 30 to 90 times slower.
#[test]
fn a_guard_looking_up_an_outer_binder_in_a_constant_folds() {
    let game = |lets: &str, guard: &str| {
        format!(
            "{lets}\ngame d(n) {{\n    move mid(k in 1..=3, a in 1..n - k) if {guard} \
             -> d(a) + d(n - k - a)\n    move end(k in 1..=2) if k <= n -> d(n - k)\n}}\n\
             [value(d(n)) for n in 0..200]\n"
        )
    };
    let plain = agree_big(&game("", "k == 3"));
    for (lets, guard) in [
        ("let CODE = [0, 1, 3, 7]", "CODE[k] >= 4"),
        ("let CODE = (0, 1, 3, 7)", "CODE[k] > 3 and k > 0"),
        ("let CODE = \"0137\"", "CODE[k] in \"4567\""),
        ("let CODE = \"0137\"", "CODE[k] not in \"0123\""),
        ("let OK = {3}", "k in OK"),
        ("let OK = [3, 9]", "k in OK"),
        ("let NO = 1..3", "k not in NO"),
    ] {
        let text = game(lets, guard);
        assert_eq!(agree_big(&text), plain, "{text}");
        let (session, _) = Engine::Native.run("few.game", &text);
        let told = session.explain(None).unwrap();
        assert!(!told.contains("tested for every option"), "{told}");
    }
    // A lookup that fails for one item is the interpreter's error.
    let failing = game("let CODE = [0, 1, 3]", "CODE[k] >= 4");
    same_error(&failing, "index 3");
}

/// A binder choosing the heap, `i in 0..2` with `if i == 0 then a else
/// b` after it, agrees with a move per heap written out. (Each item is a
/// copy of the move, unrolled, with a share of the options a search
/// waits for of its own: see `normalize/shares.rs`.)
#[test]
fn a_binder_choosing_the_heap_agrees_with_a_move_per_heap() {
    let chosen = "game w(a, b) {\n    move t(i in 0..2, k in 1..=(if i == 0 then a else b)) \
                  -> w(a - (if i == 0 then k else 0), b - (if i == 1 then k else 0))\n    \
                  move both(k in 1..=min(a, b)) -> w(a - k, b - k)\n}\n\
                  [value(w(a, b)) for a in 0..30 for b in 0..30]\nmoves(w(2, 1))\n";
    let written = "game w(a, b) {\n    move t(k in 1..=a) -> w(a - k, b)\n    \
                   move u(k in 1..=b) -> w(a, b - k)\n    \
                   move both(k in 1..=min(a, b)) -> w(a - k, b - k)\n}\n\
                   [value(w(a, b)) for a in 0..30 for b in 0..30]\n";
    let printed = agree_big(chosen);
    assert!(printed.starts_with(&agree_big(written)), "{printed}");
    assert!(printed.contains("t(i=1, k=1)"), "{printed}");
}

/// A guard `min(a, n - a) == a` is `a <= n - a` (src/runtime/normalize/
/// logic.rs), which narrows the loop: 17 times slower before, in a game
/// with another move.
#[test]
fn an_extremum_equal_to_one_side_is_a_comparison() {
    let game = |guard: &str| {
        format!(
            "game L(n) {{\n    move take(k in 1..=n) -> L(n - k)\n    \
             move split(a in 1..n) if {guard} -> L(a) + L(n - a)\n}}\n\
             [value(L(n)) for n in 0..120]\n"
        )
    };
    let plain = agree_big(&game("a <= n - a"));
    for guard in [
        "min(a, n - a) == a",
        "a == min(n - a, a)",
        "max(a, n - a) == n - a",
        "not (min(a, n - a) != a)",
    ] {
        let text = game(guard);
        assert_eq!(agree_big(&text), plain, "{text}");
        let (session, _) = Engine::Native.run("few.game", &text);
        let told = session.explain(None).unwrap();
        assert!(!told.contains("tested for every option"), "{told}");
    }
    agree_big(&game("max(a, n - a) != a"));
    agree_big(&game("min(a, 2 * a) == n - a"));
}

/// A target that binds a name first, `let r = a - k * b in if r >= b
/// then ... else ...`, or a helper that leaves the same once inlined, is
/// a binder over that one value (src/runtime/normalize/targets.rs): the
/// rules compile, where they were interpreted (5 times slower).
#[test]
fn a_target_binding_a_name_first_compiles() {
    let game = |helper: &str, target: &str| {
        format!(
            "{helper}\ngame e(a, b) {{\n    move sub(k in 1..=(if b == 0 then 0 else a / b)) -> {target}\n}}\n\
             [value(e(a, b)) for a in 1..=40 for b in 1..=a]\n"
        )
    };
    let plain = agree_big(&game(
        "",
        "if a - k * b >= b then e(a - k * b, b) else e(b, a - k * b)",
    ));
    for (helper, target) in [
        (
            "",
            "let r = a - k * b in if r >= b then e(r, b) else e(b, r)",
        ),
        (
            "fn pos(x, y) = if x >= y then e(x, y) else e(y, x)",
            "pos(a - k * b, b)",
        ),
        (
            "",
            "let r = a - k * b in let s = b in if r >= s then e(r, s) else e(s, r)",
        ),
    ] {
        let text = game(helper, target);
        assert_eq!(agree_big(&text), plain, "{text}");
        let (session, _) = Engine::Native.run("few.game", &text);
        let told = session.explain(None).unwrap();
        assert!(!told.contains("interpreted"), "{told}");
    }
    // With a guard, a value that may fail is left where it is.
    let guarded = "game e(a, b) {\n    move sub(k in 1..=3) if k <= a -> let r = a / (k - 2) in e(r, b)\n}\n\
                   value(e(9, 1))\n";
    same_error(guarded, "division by zero");
}

/// `gcd(n, d) == d` for a binder `d` from 1 is `n % d == 0`
/// (src/runtime/normalize/divides.rs): the loop runs over the divisors,
/// where it tested every `d` (190 times slower). `(n / d) * d == n`,
/// which may overflow where `%` does not, is rewritten only where the
/// range says `n` is at least 0 (see quotients.rs).
#[test]
fn divisibility_spelled_otherwise_loops_over_the_divisors() {
    let game = |binder: &str, guard: &str| {
        format!(
            "game g(n) {{\n    move take({binder}) if {guard} -> g(n - d)\n}}\n\
             [value(g(n)) for n in 0..300]\n"
        )
    };
    let plain = agree_big(&game("d in 1..n", "n % d == 0"));
    for guard in [
        "gcd(n, d) == d",
        "d == gcd(d, n)",
        "gcd(d, n) == d and d > 0",
        "not (gcd(n, d) != d)",
    ] {
        let text = game("d in 1..n", guard);
        assert_eq!(agree_big(&text), plain, "{text}");
        let (session, _) = Engine::Native.run("few.game", &text);
        let told = session.explain(None).unwrap();
        assert!(told.contains("runs over the divisors"), "{told}");
    }
    // From 0 or below, `d` may be 0 or negative: left as written, and
    // the same as the interpreter's (an error for `n / 0`).
    agree_big(&game("d in 0..n", "gcd(n, d) == d and d > 0"));
    agree_big(&game("d in -3..n", "d != 0 and gcd(n, d) == d"));
    same_error(&game("d in 0..n", "(n / d) * d == n"), "division by zero");
    assert_eq!(agree_big(&game("d in 1..n", "(n / d) * d == n")), plain);
    // Near the least integer the product overflows: the interpreter's
    // error, from rules that take parameters of any size.
    let least = "game h(n) {\n    move m(d in 2..=3) if (n / d) * d == n -> h(0)\n}\n\
                 value(h(-9223372036854775807))\n";
    same_error(least, "overflow");
}
