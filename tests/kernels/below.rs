//! One-integer games whose moves reach heaps below 0 (`s(n - k)` if
//! `n > 0`): those positions are hashed, and no sweep of the dense table
//! fills them. A sweep the machine code leaves at such an option values
//! it where its own options are known, and goes on
//! (src/runtime/sweep/mod.rs, `left_finds_value`), rather than leave
//! every position above to the search.

use super::*;

/// Subtract 1, 3 or 4 from any heap above 0, to below 0 too.
const BELOW: &str = "game s(n) {\n move take(k in [1, 3, 4]) if n > 0 -> s(n - k)\n}\n";

/// The values of [`BELOW`] by its definition, heaps `-3..=n` (index `h + 3`).
fn below_by_hand(n: usize) -> Vec<usize> {
    let mut v = vec![0; n + 4];
    for h in 4..n + 4 {
        let seen: Vec<usize> = [1, 3, 4].iter().map(|k| v[h - k]).collect();
        v[h] = (0..).find(|x| !seen.contains(x)).unwrap();
    }
    v
}

/// What `text` prints, the same by every engine, and how many positions
/// the search reached (not a sweep) when the kernels run it without
/// machine code, which sweeps position by position.
fn reached(text: &str) -> (String, usize) {
    let printed = agree_big(text);
    let (session, _) = Engine::Kernels.run("below.game", text);
    (printed, session.machine.graph.reached())
}

#[test]
fn one_heap_whose_moves_reach_below_zero_is_swept_from_the_bottom() {
    const N: usize = 200_000;
    let v = below_by_hand(N);
    // Swept from the bottom: the search goes a few positions down, not
    // all 200,000.
    let (printed, seen) = reached(&format!("{BELOW}print(value(s({N})), value(s(-2)))\n"));
    assert_eq!(printed, format!("{} 0\n", v[N + 3]));
    assert!(seen < 1000, "{seen} positions reached by the search");
    // A table of them, from below 0.
    let (printed, _) = reached(&format!("{BELOW}print([value(s(n)) for n in -3..=5000])\n"));
    let expected: Vec<String> = v[..5004].iter().map(|x| x.to_string()).collect();
    assert_eq!(printed, format!("[{}]\n", expected.join(", ")));
}

#[test]
fn heaps_below_zero_with_moves_of_their_own_agree() {
    // Below 0 a heap may move up again, to a heap whose options are
    // below 0 too: valued one level deep, the rest is the search's.
    let up = "game s(n) {\n move take(k in [2, 5, 7]) if n > -3 -> s(n - k)\n \
              move up if n < -4 -> s(n + 3)\n}\n";
    agree_big(&format!(
        "{up}print(value(s(100000)), value(s(-9)))\ntable(s, -12..=200)\n"
    ));
    // Another game's heaps below 0, read by this one.
    let two = "game h(n) {\n move t(k in 1..=2) if n > 0 -> h(n - 3 * k)\n}\n\
               game g(n) {\n move a(k in 1..=3) if k <= n -> g(n - k) + h(n - 5)\n}\n";
    agree_big(&format!("{two}print(value(g(100000)))\n"));
}
