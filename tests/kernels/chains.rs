//! A target chosen by an `if` chain in a helper, split into one move per
//! branch (src/runtime/normalize/targets.rs), each guarded by its
//! branch's tests: the tests the others decide dropped
//! (src/runtime/normalize/implied.rs), so that equations fix the binder
//! and the last branch's loop is cut, as for the rows written out.

use super::*;

/// Kayles, the rows left by a helper that drops empty ones.
const KAYLES: &str = "fn rows(a, b) = if a == 0 and b == 0 then 0 else if a == 0 then kayles(b) \
     else if b == 0 then kayles(a) else kayles(a) + kayles(b)\n\
     game kayles(n) {\n\
     move one(a in 0..n) -> rows(a, n - 1 - a)\n\
     move two(a in 0..n - 1) -> rows(a, n - 2 - a)\n}\n";

/// Kayles by definition, from the bottom up.
fn kayles(n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n + 1];
    for m in 1..=n {
        let mut seen = vec![false; 2 * m + 2];
        for k in 1..=2.min(m) {
            for a in 0..=m - k {
                seen[(g[a] ^ g[m - k - a]) as usize] = true;
            }
        }
        g[m] = seen.iter().position(|s| !s).unwrap() as u64;
    }
    g
}

#[test]
fn rows_chosen_by_an_if_chain_agree_and_compile() {
    let text = format!("{KAYLES}[value(kayles(n)) for n in 0..=80]\nmoves(kayles(4))\n");
    let want: Vec<String> = kayles(80).iter().map(u64::to_string).collect();
    assert!(agree(&text).starts_with(&format!("[{}]\n", want.join(", "))));
    runs_compiled_throughout(&format!("{KAYLES}value(kayles(300))\n"));
    let far = format!("{KAYLES}value(kayles(3000))\n");
    assert_eq!(
        run_big(&far, Engine::Native),
        format!("{}\n", kayles(3000)[3000])
    );
}

/// Tests that can fail between the ones decided (`10 / n`), and an
/// order comparison among them (`a < 5`, which is kept): every engine
/// reports or prints what the interpreter does.
#[test]
fn rows_chosen_by_an_if_chain_fail_as_the_interpreter_does() {
    let fails = "fn rows(a, b) = if a == 0 and b == 0 then 0 else if a == 0 then k(b) else k(a) + k(b)\n\
                 game k(n) {\n move one(a in 0..n) if 10 / (n - 3) >= 0 -> rows(a, n - 1 - a)\n}\n\
                 value(k(6))\n";
    same_error(fails, "zero");
    let ordered = "fn rows(a, b) = if a < 5 and b == 0 then k(a) else if a == 0 then k(b) else k(a) + k(b)\n\
                   game k(n) {\n move one(a in 0..n) -> rows(a, n - 1 - a)\n}\n\
                   [value(k(n)) for n in 0..40]\n";
    agree(ordered);
}

/// A test that cannot fail but narrows nothing before a cut, `not (a ==
/// 3 and k == 2) and 2 * a <= n - k`: the cut is tested first and ends
/// the loop (`kernel/moves.rs`, `cutting_first`), as written the other
/// way round; `--explain` names the first as the test made for every
/// option. Before, both were.
#[test]
fn a_cut_after_a_test_that_cannot_fail_still_cuts() {
    let rules = "game g(n) {\n move m(k in 1..=2, a in 0..=n - k) \
                 if not (a == 3 and k == 2) and 2 * a <= n - k -> g(a) + g(n - k - a)\n}\n";
    let other = "game g(n) {\n move m(k in 1..=2, a in 0..=n - k) \
                 if 2 * a <= n - k and not (a == 3 and k == 2) -> g(a) + g(n - k - a)\n}\n";
    let asked = "[value(g(n)) for n in 0..=60]\n";
    let text = format!("{rules}{asked}");
    assert_eq!(agree(&text), agree(&format!("{other}{asked}")));
    let told = compiled_as(
        &text,
        &["`not (a == 3 and k == 2)`: a condition tested for every option"],
    );
    assert!(!told.contains("`2 * a <= n - k`"), "{told}");
    // A test that can fail keeps its place.
    let fails = "game g(n) {\n move m(k in 1..=2, a in 0..=n - k) \
                 if 12 / (a - 3) != 5 and 2 * a <= n - k -> g(a) + g(n - k - a)\n}\n\
                 [value(g(n)) for n in 0..=9]\n";
    same_error(fails, "zero");
}

/// A choice with a chain, `k == 1 or 0 < a < n`, stays one move: split
/// into a move per test (as a review found a change that read the chain
/// as its comparisons did), the options came in another order, and the
/// search met another option's error first, or ran away where the
/// interpreter reports a division by zero.
#[test]
fn a_choice_with_a_chain_keeps_the_written_order() {
    let up = "game up(n) { move u -> up(n + 1) }\n\
              game bad(a, k) {\n  move x if a == 1 and k == 0 -> bad(a / 0, k)\n  \
              move y if a == 2 and k == 1 -> up(0)\n}\n\
              game g(n) {\n  move m(k in 0..=1, a in 0..=n - k) if (k == 1 or 0 < a < n) \
              -> bad(a, k)\n}\nvalue(g(5))\n";
    same_error(up, "zero");
}
