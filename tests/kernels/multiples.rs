//! Loops over multiples: a guard `x % e == 0` on the innermost binder
//! `x`, `e` free of it, makes the compiled rules step through the
//! multiples of `e` in the binder's window, not test every value of it
//! (src/runtime/kernel/narrow.rs, `multiples`; the machine code's in
//! src/runtime/kernel/native/emit/divisors.rs). The options, their order,
//! the errors and the values stay the interpreter's.

use super::common::differ::run_patiently;
use super::*;

/// Windows reaching below 0, steps that are expressions of the position,
/// conjuncts before and after the test, and steps of 0 and below (tested
/// value by value, as the interpreter does).
#[test]
fn options_over_multiples_agree_with_the_interpreter() {
    for (domain, guard, target) in [
        ("1..=a", "b > 0 and m % b == 0", "g(a - m, b)"),
        (
            "0..a",
            "b >= 1 and 0 == m % b",
            "g(a - m - 1, b) + *(m % 5)",
        ),
        (
            "-7..a",
            "a > 0 and b > 0 and m % b == 0 and m != 0",
            "g(a - 1 - abs(m) % a, b)",
        ),
        (
            "1..=a",
            "min(a, b) > 0 and m % min(a, b) == 0",
            "g(a - m, b)",
        ),
        (
            "1..=a + b",
            "b > 1 and m % (b - 1) == 0 and m <= a",
            "g(a - m, b)",
        ),
        ("2..a", "a > 3 and m % (a % 4 + 1) == 0", "g(m, b)"),
        ("1..=a", "b != 0 and m % b == 0", "g(a - m, b)"),
        (
            "1..=a",
            "b > 0 and m % b == 0 and m % 3 != 1",
            "g(a - m, b)",
        ),
        (
            "1..=40",
            "b > 0 and m % (b * b) == 0 and m <= a",
            "g(a - m, b)",
        ),
    ] {
        let text = format!(
            "game g(a, b) {{\n move s(m in {domain}) if {guard} -> {target}\n}}\n\
             [value(g(a, b)) for a in 0..40 for b in -3..12]\nmoves(g(36, 4))\nmoves(g(35, 6))\n"
        );
        agree(&text);
    }
}

/// A step of 0 divides by it, and a target of the wrong kind fails at
/// the first multiple: the errors the interpreter reports, on the same
/// play, from every path.
#[test]
fn errors_among_multiples_are_the_interpreters() {
    same_error(
        "game g(a, b) { move s(m in 1..=a) if m % b == 0 -> g(a - m, b) }\nvalue(g(12, 0))\n",
        "division by zero",
    );
    same_error(
        "game g(a, b) { move s(m in 1..=a) if m % b == 0 -> g(a - m + 0 / (m - 6), b) }\n\
         value(g(12, 3))\n",
        "division by zero",
    );
}

/// Subtracting multiples of `b` from `a` is a Nim heap of `a / b`: at
/// `a = 2 · 10⁹`, `b = 10⁶` its value is 2000. The compiled rules reach
/// the 2000 positions `g(a - k b, b)`, each stepping through its 2000
/// multiples or fewer; a loop over every value of `1..=a` would run for
/// 10¹² steps, past any patience.
#[test]
fn a_large_window_is_stepped_through_by_its_multiples() {
    let text = "game g(a, b) { move s(m in 1..=a) if b > 0 and m % b == 0 -> g(a - m, b) }\n\
                value(g(2000000000, 1000000))\n";
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_patiently(text, engine).0, "2000\n");
    }
    runs_compiled_throughout(text);
}

/// Euclid's game as users write it, the larger heap less a multiple of
/// the smaller: `--explain` says so.
#[test]
fn euclids_game_steps_through_the_multiples() {
    let text = "game e(a, b) {\n move take(m in 1..=max(a, b)) if min(a, b) > 0 and \
                m % min(a, b) == 0 -> e(max(a, b) - m, min(a, b))\n}\n\
                [value(e(a, b)) for a in 1..30 for b in 1..30]\n";
    agree_big(text);
    compiled_as(text, &["`m` steps through the multiples"]);
}

fn multiple_file() -> impl Strategy<Value = String> {
    let lo = prop::sample::select(vec!["1", "0", "-5", "a / 3"]);
    let hi = prop::sample::select(vec!["a", "a + 1", "2 * a + 3", "30"]);
    let step = prop::sample::select(vec!["b", "b + 1", "b - 2", "a % 7", "2 * b", "0"]);
    let after = prop::sample::select(vec!["", " and m % 3 != 1", " and m > 2", " and a > m"]);
    let target = prop::sample::select(vec!["g(a - 1 - abs(m) % a, b)", "g(a / 2, b) + *(m % 4)"]);
    (lo, hi, step, after, target).prop_map(|(lo, hi, step, after, target)| {
        format!(
            "game g(a, b) {{\n move s(m in {lo}..{hi}) if a > 0 and m % ({step}) == 0{after} -> {target}\n}}\n\
             [value(g(a, b)) for a in 0..50 for b in 1..6]\nmoves(g(48, 5))\n"
        )
    })
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn random_multiple_guards_agree_with_the_interpreter(file in multiple_file()) {
        compare(&file)?;
    }
}

/// A constant step with conditions of the binder alone after it is one
/// filter, made once per game, rather than multiples whose every option
/// tests the rest; a constant step that cannot be stepped by (below 1)
/// is a filter too, not multiples.
#[test]
fn a_constant_step_stays_a_filter() {
    for step in ["2", "-2"] {
        let text = format!(
            "game g(n) {{\n move s(m in 1..=n) if m % {step} == 0 and popcount(m) == 3 -> g(n - m)\n}}\n\
             [value(g(n)) for n in 0..300]\n"
        );
        agree(&text);
        let told = compiled_as(
            &text,
            &["`m` runs over the values where its guard's conditions"],
        );
        assert!(!told.contains("multiples"), "{told}");
    }
}
