//! A divisor spelled by a product or a quotient: `k * x == n` fixing
//! the inner binder (src/runtime/normalize/quotient.rs) and `(n / d) * d
//! == n` where the range says `n` is at least 0
//! (src/runtime/normalize/divides.rs). Each agrees with the interpreter,
//! errors included, and loops over the divisors as `n % d == 0` does.

use super::*;

/// The proper-divisor game with its binders and guard spelled so, the
/// target `target`: values to 150 (the interpreter loops over both
/// binders).
fn divisor_game(binders: &str, guard: &str, target: &str) -> String {
    format!(
        "game dv(n) {{\n    move to({binders}) if {guard} -> {target}\n}}\n\
         [value(dv(n)) for n in 0..150]\n"
    )
}

fn loops_over_divisors(text: &str) {
    compiled_as(text, &["runs over the divisors"]);
}

/// `x in 1..n, k in 2..=n` with `k * x == n`, however the product and
/// the equation are turned, is the divisor loop of `n % x == 0`: `k`
/// read in the target or a later condition is `n / x`.
#[test]
fn a_product_equation_fixes_the_inner_binder() {
    let plain = agree_big(&divisor_game("x in 1..n", "n % x == 0", "dv(x)"));
    for guard in ["k * x == n", "x * k == n", "n == k * x", "n == x * k"] {
        let text = divisor_game("x in 1..n, k in 2..=n", guard, "dv(x)");
        assert_eq!(agree_big(&text), plain, "{text}");
        loops_over_divisors(&text);
    }
    // The cofactor as the target, with a condition after: the same as
    // written with `n / x`.
    let by_cofactor = agree_big(&divisor_game(
        "x in 2..n",
        "n % x == 0 and n / x != 3",
        "dv(n / x)",
    ));
    let text = divisor_game("x in 2..n, k in 2..=n", "k * x == n and k != 3", "dv(k)");
    assert_eq!(agree_big(&text), by_cofactor);
    loops_over_divisors(&text);
    // The other binder inside: `k` divides, `x` is fixed.
    let text = divisor_game("k in 2..=n, x in 1..n", "k * x == n", "dv(x)");
    agree_big(&text);
    loops_over_divisors(&text);
    // Moves listed keep their names and order.
    let listed = "game dv(n) {\n    move to(x in 1..n, k in 2..=n) if k * x == n -> dv(x)\n}\n\
                  moves(dv(12))\n";
    let shown = agree_big(listed);
    assert!(
        shown.contains("to(x=1, k=12)") && shown.contains("to(x=6, k=2)"),
        "{shown}"
    );
}

/// Where the rewrite's premises fail, the rules are left as written and
/// agree with the interpreter all the same; where a product of the
/// loops as written overflows, the error is the interpreter's.
#[test]
fn a_product_equation_left_or_failing_as_written() {
    // `x` from 0: `0 * k == 0` keeps every `k`.
    agree_big(&divisor_game(
        "x in 0..n, k in 0..=n",
        "k * x == n",
        "dv(x)",
    ));
    agree_big(&divisor_game(
        "x in 1..n, k in -2..=n",
        "k * x == n",
        "dv(x)",
    ));
    agree_big(&divisor_game(
        "x in 1..n, k in 2..=n",
        "k * x == n + k",
        "dv(x)",
    ));
    let huge = "game g(n) {\n    move to(x in 1..n, k in 4000000000000000000..=4000000000000000005) \
                if k * x == n -> g(x)\n}\nvalue(g(2))\nvalue(g(5))\n";
    same_error(huge, "overflow");
    // Both ranges constant: their largest product fits, or nothing changes.
    let fixed = "game g(n) {\n    move to(x in 1..9, k in 1..=9) if k * x == n -> g(n - x)\n}\n\
                 [value(g(n)) for n in 0..90]\n";
    agree_big(fixed);
}

/// `(n / d) * d == n`, where `d` runs from 1 to `n`, `n - c`, `n / c` or
/// `n + 1`, is `n % d == 0`: `n` is at least 0 there, so the product
/// cannot overflow.
#[test]
fn a_quotient_times_the_divisor_loops_over_the_divisors() {
    for (binder, guard) in [
        ("x in 1..n", "(n / x) * x == n"),
        ("x in 1..n", "x * (n / x) == n"),
        ("x in 1..n", "n == n / x * x"),
        ("x in 1..=n - 1", "(n / x) * x == n"),
        ("x in 1..n + 1", "(n / x) * x == n and x < n"),
        ("x in 1..=n / 2", "(n / x) * x == n"),
    ] {
        let text = divisor_game(binder, guard, "dv(x)");
        let plain = divisor_game(
            binder,
            &guard.replace("(n / x) * x == n", "n % x == 0"),
            "dv(x)",
        );
        if guard.starts_with('(') {
            assert_eq!(agree_big(&text), agree_big(&plain), "{text}");
        } else {
            agree_big(&text);
        }
        loops_over_divisors(&text);
    }
}

/// `any([k * d == n for k in 2..=n / d])`, a multiple of `d` in a range
/// being `n`, is `n % d == 0` with the quotient in the range: the divisor
/// loop, where the comprehension was made for every `d` (70x).
#[test]
fn some_multiple_in_a_range_is_a_divisor_test() {
    let plain = agree_big(&divisor_game("d in 1..n", "n % d == 0", "dv(d)"));
    for guard in [
        "any([k * d == n for k in 2..=n / d])",
        "any([n == d * k for k in 2..=n / d])",
        "any([k * d == n for k in 1..=n])",
    ] {
        let text = divisor_game("d in 1..n", guard, "dv(d)");
        assert_eq!(agree_big(&text), plain, "{text}");
        loops_over_divisors(&text);
    }
    // An upper end that is not a quotient by `d`: its product with `d` is
    // tested first, the loop over every `d` kept, the values the same.
    agree_big(&divisor_game(
        "d in 1..n",
        "any([k * d == n for k in 2..=n])",
        "dv(d)",
    ));
    // From below 0, or `d` from 0: left as written.
    agree_big(&divisor_game(
        "d in 1..n",
        "any([k * d == n for k in -2..=n])",
        "dv(d)",
    ));
    agree_big(&divisor_game(
        "d in 0..n",
        "d > 0 and any([k * d == n for k in 2..=n])",
        "dv(d)",
    ));
    // A product past the largest integer is the interpreter's error.
    let huge = "game g(n) {\n    move to(d in 1..n) \
                if any([k * d == n for k in 4000000000000000000..=4000000000000000005]) -> g(d)\n}\n\
                value(g(2))\nvalue(g(5))\n";
    same_error(huge, "overflow");
}
