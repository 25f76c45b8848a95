//! Strips of no columns of their own: a two-integer game whose every
//! option keeps one argument, as a bound passed on unchanged (`s(n, c)`
//! with `k in 1..=c`). The positions below one lie in its column, which
//! a sweep fills row by row, past the dense square too
//! (src/runtime/kernel/strip.rs, `Strip::kept`).

use super::*;

/// Take 1 to `c`: the value of `s(n, c)` is `n % (c + 1)`.
const BOUND: &str = "game s(n, c) {\n move take(k in 1..=c) if k <= n -> s(n - k, c)\n}\n";

#[test]
fn a_bound_passed_on_unchanged_is_swept_in_its_column() {
    let text = format!(
        "{BOUND}print(value(s(40000, 5)), value(s(33000, 7)), value(s(39999, 1)))\n\
         print(len([n for n in 0..=40000 if value(s(n, 3)) == 0]))\n"
    );
    let (a, b, c) = (40000 % 6, 33000 % 8, 39999 % 2);
    assert_eq!(agree_big(&text), format!("{a} {b} {c}\n10001\n"));
    compiled_as(&text, &["a strip: every option keeps c"]);
}

#[test]
fn a_kept_argument_first_or_read_by_the_guard_is_swept_in_its_column() {
    // The heap second, and moves of `a` or `2a` (S-Nim of two sizes).
    let turned = "game s(a, n) {\n move t(k in [a, 2 * a]) if k <= n -> s(a, n - k)\n}\n\
                  print(value(s(3, 40000)), value(s(5, 34567)))\n";
    let by_hand = |a: usize, n: usize| {
        let mut v: Vec<usize> = Vec::with_capacity(n + 1);
        for i in 0..=n {
            let seen: Vec<usize> = [a, 2 * a]
                .iter()
                .filter(|k| **k <= i)
                .map(|k| v[i - k])
                .collect();
            v.push((0..).find(|x| !seen.contains(x)).unwrap());
        }
        v[n]
    };
    let expected = format!("{} {}\n", by_hand(3, 40000), by_hand(5, 34567));
    assert_eq!(agree_big(turned), expected);
    // A column past the strips' width (64) is no dense position: the
    // search's, and the same values.
    let wide = format!("{BOUND}print(value(s(40000, 70)), value(s(40000, 63)))\n");
    assert_eq!(agree_big(&wide), format!("{} {}\n", 40000 % 71, 40000 % 64));
}

#[test]
fn a_kept_strip_meets_its_errors_where_the_interpreter_does() {
    // A division by zero met at one row of the column swept.
    same_failure(
        "game s(n, c) {\n move t(k in 1..=c) if k <= n -> s(n - k, c)\n \
         move d if n == 34567 -> s(n / (c - c), c)\n}\nprint(value(s(40000, 3)))\n",
    );
}

/// What `text` prints, the same by every engine, and how many positions
/// the machine code made, and the search reached (not a sweep).
fn counted(text: &str) -> (String, usize, usize) {
    let printed = agree_big(text);
    let (session, _) = Engine::Native.run("kept.game", text);
    let graph = &session.machine.graph;
    (printed, graph.len(), graph.reached())
}

#[test]
fn a_kept_column_the_search_reaches_sparsely_is_not_swept() {
    // Halved, or one down from an odd heap: a few hundred positions of a
    // column of ten million, and the rows below 65,536 that a sweep may
    // fill freely (see `sweep::FREELY`), not millions.
    let sparse = "game s(n, c) {\n move h(k in 1..=c) if n >= 2 * k -> s(n / (k + 1), c)\n \
                  move a if n % 2 == 1 -> s(n - 1, c)\n}\n\
                  print(value(s(9999999, 3)), value(s(19999999, 2)))\n";
    let (printed, made, _) = counted(sparse);
    assert_eq!(printed, "1 2\n");
    assert!(made < 200_000, "{made} positions made");
}

#[test]
fn a_kept_strip_blocked_by_another_games_option_leaves_that_game_its_sweep() {
    // At one row the column moves to a long chain of another game: the
    // strip's sweep stops there, and that chain is swept on its own.
    let text = "game u(m) {\n move a(k in 1..=2) if k <= m -> u(m - k)\n}\n\
                game s(n, c) {\n move a(k in 1..=c) if k <= n -> s(n - k, c)\n \
                move d if n == 60000 -> u(300000)\n}\nprint(value(s(100000, 3)))\n";
    let (printed, _, reached) = counted(text);
    // u(300000) is 0 (300000 % 3), so s(60000, 3) has options 0, 1, 2, 3
    // (60000 % 4 == 0 before): value 4; and above, the column mod 4 again.
    let by_hand = {
        let mut v = vec![0usize; 100_001];
        for n in 1..=100_000 {
            let mut seen: Vec<usize> = (1..=3.min(n)).map(|k| v[n - k]).collect();
            if n == 60_000 {
                seen.push(300_000 % 3);
            }
            v[n] = (0..).find(|x| !seen.contains(x)).unwrap();
        }
        v[100_000]
    };
    assert_eq!(printed, format!("{by_hand}\n"));
    // The rows of the column above the block are searched; u(300000)'s
    // chain is swept, not searched too (323,618 then).
    assert!(reached < 100_000, "{reached} positions reached");
}
