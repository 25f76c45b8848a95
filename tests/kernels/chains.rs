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
