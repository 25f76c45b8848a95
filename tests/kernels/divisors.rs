//! Loops over divisors: a guard `n % d == 0` on the innermost binder `d`
//! makes the compiled rules run over the divisors of `n` in the binder's
//! window (about `2√n` steps), not test every value of it
//! (src/runtime/kernel/narrow.rs, `divisors`; the machine code's in
//! src/runtime/kernel/native/emit/divisors.rs). The options, their order,
//! the errors and the values stay the interpreter's.

use super::common::differ::run_patiently;
use super::*;

/// Windows of every shape, dividends that are expressions, conjuncts
/// before and after the divisibility, and dividends of 0 and below.
#[test]
fn options_over_divisors_agree_with_the_interpreter() {
    for (domain, guard, target) in [
        ("1..n", "n % d == 0", "g(d)"),
        ("2..=n", "n % d == 0", "g(n / d) + *(d % 5)"),
        ("1..=n / 2", "0 == n % d", "g(d)"),
        ("3..n + 5", "n % d == 0 and d % 3 != 1", "g(n - d)"),
        ("1..=n", "2 * d <= n and n % d == 0", "g(d)"),
        ("1..n", "n > 6 and (n * n - 1) % d == 0 and d < n", "g(d)"),
        ("1..n", "(n + 1) % d == 0 and d <= n - 1", "g(n - d)"),
        ("7..=40", "(n + 60) % d == 0 and d <= n", "g(n - d)"),
        (
            "-3..n",
            "n > 1 and d != 0 and (n - 1) % d == 0 and d >= 1",
            "g(d)",
        ),
        ("1..n", "(n - 12) % d == 0", "g(d)"),
        ("1..n", "(n % 5) % d == 0", "g(d)"),
    ] {
        let text = format!(
            "game g(n) {{\n move m(d in {domain}) if {guard} -> {target}\n}}\n\
             [value(g(n)) for n in 0..200]\nmoves(g(60))\nmoves(g(97))\n"
        );
        agree(&text);
    }
}

/// A window reaching 0 divides by it, and a target of the wrong kind
/// fails at the first divisor: the errors the interpreter reports, on the
/// same play, from every path.
#[test]
fn errors_among_divisors_are_the_interpreters() {
    same_error(
        "game g(n) { move m(d in 0..n) if n % d == 0 -> g(d) }\nvalue(g(12))\n",
        "division by zero",
    );
    same_error(
        "game g(n) { move m(d in 1..n) if n % d == 0 -> g(d - 0 / (d - 6)) }\nvalue(g(36))\n",
        "division by zero",
    );
}

/// The proper-divisor game at 2 · 10⁹: its value is the number of prime
/// factors (with multiplicity), 19. The compiled rules reach its 110
/// divisors, each looping over about `2√d` values; a loop over every
/// value of `1..n` would run for 10⁹ steps and more, past any patience.
#[test]
fn a_large_number_is_divided_in_about_its_square_root_of_steps() {
    let text = "game dv(n) { move to(d in 1..n) if n % d == 0 -> dv(d) }\nvalue(dv(2000000000))\n";
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_patiently(text, engine).0, "19\n");
    }
    runs_compiled_throughout(text);
}

fn divisor_file() -> impl Strategy<Value = String> {
    let lo = prop::sample::select(vec!["1", "2", "0", "-2", "n / 3"]);
    let hi = prop::sample::select(vec!["n", "n + 1", "n / 2 + 1", "2 * n + 3", "30"]);
    let dividend = prop::sample::select(vec!["n", "n + 1", "2 * n", "n * n - 4", "n - 7", "0"]);
    let after = prop::sample::select(vec!["", " and d % 3 != 1", " and d > 2", " and n > d"]);
    let target = prop::sample::select(vec!["g(n - 1 - abs(d) % n)", "g(n / 2) + *(d % 4)"]);
    (lo, hi, dividend, after, target).prop_map(|(lo, hi, dividend, after, target)| {
        format!(
            "game g(n) {{\n move m(d in {lo}..{hi}) if n > 0 and ({dividend}) % d == 0{after} -> {target}\n}}\n\
             [value(g(n)) for n in 0..120]\nmoves(g(48))\n"
        )
    })
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn random_divisor_guards_agree_with_the_interpreter(file in divisor_file()) {
        compare(&file)?;
    }
}
