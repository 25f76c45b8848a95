//! Arithmetic in the compiled rules and their machine code: floor
//! division and modulo of either sign, by constants and by divisors a
//! loop keeps, shifts, and integers past the tables' sizes.

use super::*;

#[test]
fn floor_division_and_modulo_by_negatives_agree_on_every_path() {
    // Python's rounding, with divisors of both signs and -1 (where the
    // hardware's division differs or traps).
    let text = "game g(n) {\n move q(k in [-7, -3, -1, 2, 5]) if n > 0 and (n / k) % 3 == 1 -> g(n - 1)\n\
                move r(k in [-7, -3, -1, 2, 5]) if n > 1 and (n % k) % 3 == 2 -> g(n - 2)\n}\n\
                table(g, 0..=60)\nvalue(g(200))\n";
    let printed = agree(text);
    assert!(printed.contains("g(n), n = 0..=60"), "{printed}");
    // Operands on both sides of 2^32, where the machine code switches
    // between a 32-bit and a 64-bit division.
    let wide = "let B = 4294967296\n\
                game h(n) {\n move q(k in [-5, -1, 1, 3, B - 1, B, B + 7]) if n > 0 and \
                ((B + n - 3) / k + (B - n) % k + (n * 1000003) % k) % 4 == 1 -> h(n - 1)\n}\n\
                table(h, 0..=40)\n";
    let printed = agree(wide);
    assert!(printed.contains("h(n), n = 0..=40"), "{printed}");
    // Constant powers of two, a shift and a mask in machine code, of
    // dividends of both signs.
    let shifts = "game s(n) {\n move q(k in 1..=3) if n >= k and \
                  ((k - n) / 4 + (k - n) % 8 + (3 - n) / 2 + (n - 40) % 1 + (n - 9) / 1) % 3 == 1 -> s(n - k)\n}\n\
                  table(s, 0..=80)\n";
    let printed = agree(shifts);
    assert!(printed.contains("s(n), n = 0..=80"), "{printed}");
    // Other constants up to 2^32, a multiply in machine code for
    // dividends below 2^32, of dividends on both sides of it and negative.
    let reciprocals = "let B = 4294967296\ngame r(n) {\n move q(k in 1..=3) if n >= k and \
                  ((B - n) / 3 + (B - 1 - n) % 10 + (n * 1000003) / 7 + (B + n) % 4294967295 \
                  + (n - 20) / 3 + (n * 99991) % 1000003 + (B - 2 - n) / 4294967295 + (n - 7) % 10) \
                  % 3 == 1 -> r(n - k)\n}\ntable(r, 0..=300)\n";
    let printed = agree(reciprocals);
    assert!(printed.contains("r(n), n = 0..=300"), "{printed}");
    // Constants past 2^32 too, and dividends up to the integers' ends
    // (`M - n`, and `-M - 1 + n` from the least): an unsigned division by
    // a constant, a multiply in machine code, on either sign.
    let wide = "let M = 9223372036854775807\nlet B = 4294967296\ngame w(n) {\n move q(k in 1..=3) \
                if n >= k and (((M - n) / 3) % 7 + ((n - M) / 7) % 5 + ((-M - 1 + n) % 1000000007) % 11 \
                + ((M - n) / (B + 1)) % 3 + ((n - M) % 12345678901) % 13 + ((-M - 1 + n) / 3) % 4 \
                + ((n - M - 1) / 10) % 9 + ((M - n) % 6) + ((-M - 1 + n) % (B * 3))) % 3 == 1 -> w(n - k)\n}\n\
                table(w, 0..=200)\n";
    let printed = agree(wide);
    assert!(printed.contains("w(n), n = 0..=200"), "{printed}");
    // The least integer as a linear form's constant: |i64::MIN| once
    // wrapped to a negative weight, so the form was read unchecked and
    // `(-M - 1) - n` wrapped silently to a value; it overflows.
    let least = "let M = 9223372036854775807\ngame w(n) {\n move q(k in 1..=2) \
                 if n >= k and (-M - 1) - n + k < 0 -> w(n - k)\n}\nvalue(w(5))\n";
    same_error(least, "integer overflow");
}

#[test]
fn machine_code_sweeps_past_terminal_positions_and_large_values() {
    // Every tenth position has no move: the sweep's machine code leaves
    // each to the kernel's run and goes on after it.
    let terminal = "game g(n) {\n move a(k in 1..=3) if k <= n and n % 10 != 0 -> g(n - k)\n}\n\
                    value(g(2501))\ntable(g, 0..=25)\n";
    let printed = agree(terminal);
    assert!(printed.starts_with("1\n"), "{printed}");
    // Options of values past the mex's first marks (1024) leave
    // positions to the kernel's run, which makes room for them.
    let large = "game g(n) {\n move h if n > 0 -> *(1500 + n % 7)\n\
                 move t(k in 1..=2) if k <= n -> g(n - k)\n}\nvalue(g(2501))\n";
    assert_eq!(agree(large), "2\n");
    // Options of values about the mex's first marks, read from another
    // game's table, of positions of many options (their marks not bits):
    // the machine code tests a value for plain and within the marks in
    // one comparison.
    let read = "game nim(n) {\n move t(k in 1..=n) -> nim(n - k)\n}\n\
                game g(n) {\n move h(k in 1..=20) if k <= n -> nim(1000 + n % 50 - k)\n\
                move t(k in 1..=20) if k <= n -> g(n - k)\n}\n\
                value(g(1500))\n[value(g(n)) for n in 1480..1500]\n";
    assert_eq!(agree(read).lines().count(), 2);
    // Values from 64 on cannot be the mex of a position of a few
    // options: the machine code ignores them, and must not take them for
    // their bits modulo 64 (64 + v for v, 128 + v for v).
    let wrapped = "game g(n) {\n move h if n > 0 -> *(64 + n % 3)\n\
                   move w if n > 1 -> g(n - 2) + *128\n\
                   move t(k in 1..=2) if k <= n -> g(n - k)\n}\n\
                   value(g(2501))\n[value(g(n)) for n in 2480..2500]\n";
    assert_eq!(agree(wrapped).lines().count(), 2);
}

#[test]
fn shifts_by_binders_over_constants_agree_up_to_their_limits() {
    // Shifts whose operands the machine code knows the range of skip the
    // checks; at the edges (a shift by 63, bits lost) the interpreter's
    // error stands, whichever path runs.
    let clean = "game f(m) {\n move one(i in 0..20) if (m >> i) & 1 == 1 -> f(m ^ (1 << i))\n\
                 move two(i in 1..=20) if (m >> i) & 3 == 3 -> f(m ^ (3 << (i - 1)))\n}\n\
                 table(f, 0..300)\nvalue(f((1 << 11) - 1))\n";
    assert!(agree(clean).contains("f(m), m = 0..=299"));
    for rule in [
        "move t(i in 0..64) if m > 0 and (1 << i) > m -> g(m - 1)",
        "move t(i in 0..=62) if m > 0 and (3 << i) > m -> g(m - 1)",
        "move t(i in [1, 5, 62, 2, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]) if m > 0 and (-3 << i) < m -> g(m - 1)",
        "move t(i in -1..3) if m > 0 and (m >> i) >= 0 -> g(m - 1)",
    ] {
        let text = format!("game g(m) {{\n {rule}\n}}\nvalue(g(5))\n");
        let interpreted = run(&text, Engine::Interpreter);
        assert!(interpreted.2.is_some(), "{rule}: an error");
        assert_eq!(run(&text, Engine::Kernels), interpreted, "{text}");
        assert_eq!(run(&text, Engine::Native), interpreted, "{text}");
    }
}

#[test]
fn rules_without_linear_forms_take_positions_of_any_size() {
    // Division and comparisons only: the compiled rules run heaps from
    // 10^15 themselves (hashed positions), and agree.
    let divide = "game d(n) {\n move by(k in {2, 3, 6}) if n > 0 -> d(n / k)\n}\n\
                  value(d(10 ** 15))\nvalue(d(10 ** 18 + 7))\n\
                  value(sum([d(10 ** 12 + i) for i in 0..40]))\n";
    assert_eq!(agree(divide).lines().count(), 3);
}

#[test]
fn rules_with_linear_forms_take_positions_of_any_size_by_their_twin() {
    // A linear form (`n - k`) past the slots' limit: such positions run
    // in the rules' twin compiled without linear forms, with the same
    // values, and none goes to the interpreter.
    let linear = "game g(n) {\n move t(k in 1..=2) if n > 2 ** 40 -> g(n - k * 2 ** 38)\n\
                  move h if n % 3 == 0 and n > 0 -> g(n / 3)\n}\n\
                  value(g(2 ** 41 + 3))\nvalue(g(5))\n";
    assert_eq!(agree(linear).lines().count(), 2);
    runs_compiled_throughout(linear);
    let heaps = "game h(n) {\n move half if n > 0 -> h(n / 2)\n move third if n > 0 -> h(n / 3)\n\
                 move odd if n % 2 == 1 -> h(n - 1)\n move few(k in 1..=3) if k <= n and n < 9 -> h(n - k)\n}\n\
                 [value(h(10 ** 12 + 7 * i)) for i in 0..30]\nvalue(h(-(2 ** 40) + 1))\n";
    assert_eq!(agree(heaps).lines().count(), 2);
    runs_compiled_throughout(heaps);
    // Checked as the interpreter checks: `n + 1` past 2^63 - 1.
    same_error(
        "game u(n) {\n move up if n % 2 == 1 and n > 1 -> u(n + 1)\n\
         move down if n % 2 == 0 and n > 0 -> u(n / 2 - 1)\n}\n\
         value(u(9223372036854775805))\nvalue(u(9223372036854775807))\n",
        "integer overflow",
    );
}

/// A sum put in place of the name that holds it, read only after a
/// condition, cannot fail while slots are small; past them the twin's
/// rules keep it where it was written, so that it fails where the
/// interpreter's does: `x + 2` at `x = 2^63 - 1`, which the twin once
/// skipped after `y > 0`. The same for a helper's parameter, and for
/// `all` of comparisons, which evaluates each where `and` stops.
#[test]
fn a_sum_put_in_place_fails_past_the_slots_as_written() {
    let big = "value(g(9223372036854775807, 0))\n";
    for rules in [
        "move m if (let a = x + 2 in (y > 0 and a > 0)) -> g(x, y - 1)",
        "move m if later(y, x + 2) -> g(x, y - 1)",
        "move m if all([y > 0, x + 2 > 0]) -> g(x, y - 1)",
        "move m if not any([y <= 0, x + 2 <= 0]) -> g(x, y - 1)",
        "move m if all([0 < y <= 3, -3 < x + 2 < 9]) -> g(x, y - 1)",
        "move m if all([0 < c < 9 for c in [y, x + 2]]) -> g(x, y - 1)",
        "move m((dx, dy) in [(2, -1), (-2, -1)]) if all([y + dy >= 0, x + dx >= 0]) -> g(x, y - 1)",
    ] {
        let text = format!("fn later(y, a) = y > 0 and a > 0\ngame g(x, y) {{\n {rules}\n}}\n");
        same_error(&format!("{text}{big}"), "integer overflow");
        let small = format!("{text}[value(g(x, y)) for x in -3..3 for y in 0..4]\n");
        assert_eq!(agree(&small).lines().count(), 1, "{rules}");
        runs_compiled_throughout(&small);
    }
    // A `let`'s name may hold any integer at any position: `t + t + t`
    // is not a sum that cannot fail, and `all` still makes it.
    same_error(
        "game g(n, y) { move m if (let t = n * n in all([y > 0, t + t + t > 0])) -> g(n, y - 1) }\n\
         value(g(2000000000, 0))\n",
        "integer overflow",
    );
    // A function that calls itself, compiled for the twin too: its body
    // keeps the sum where it was written.
    same_error(
        "fn deep(d, x) = if d > 0 then deep(d - 1, x) else (let a = x + 2 in (d < 0 and a > 0))\n\
         game g(x, y) { move m if y > 0 and not deep(300, x) -> g(x, y - 1) }\n\
         value(g(9223372036854775807, 1))\n",
        "integer overflow",
    );
}

/// Items of sets and lists past the slots' limit (2³¹), in rules with no
/// linear form: the machine code binds them as they are, where it once
/// left each such position to the interpreter, and divides by them and
/// compares them exactly, on both sides of 2³² and up to the integers'
/// ends.
#[test]
fn items_of_any_size_agree_in_rules_without_linear_forms() {
    let text = "let M = 9223372036854775807\nlet B = 4294967296\n\
                game g(s) {\n move pick(x in s) if x % 7 != 0 -> g(s - {y for y in s if y % x == 0})\n \
                move halve(x in s) if x > B and x / B not in s -> g((s - {x}) | {x / B})\n}\n\
                game h(xs) {\n move drop(x in xs) if x % 5 != 0 -> h([y for y in xs if y > x])\n}\n\
                value(g({2, 3, B - 1, B, B + 1}))\nvalue(g({5, 2 ** 40, -(2 ** 40), 3 * B}))\n\
                value(g({7, M, -M - 1, M / 7}))\nvalue(g({-3, 2 ** 31, 2 ** 31 - 1, -(2 ** 31)}))\n\
                value(h([1, B, B + 2, M, -M - 1, 2 ** 33 + 1]))\n";
    assert_eq!(agree(text).lines().count(), 5);
    runs_compiled_throughout(text);
}

/// `%` and `/` by a divisor that stays while the innermost loop runs (a
/// parameter, or an outer binder in a comprehension's condition): the
/// machine code divides by multiplying with a reciprocal it keeps, and
/// must agree with the interpreter for divisors 1, large, and negative,
/// and for negative or large dividends.
#[test]
fn division_by_a_divisor_a_loop_keeps_agrees_on_every_path() {
    let params = "[(n, m) for n in [0, 5, 40] for m in [1, 2, 3, 7, -1, -4, 65536, 2147483647, \
                  -2147483647, 4294967295, 4294967296, 4294967297]]";
    for rules in [
        "move t(k in 1..=n) if (k * 7 - 20) % m == 3 or (k - 20) / m == 2 -> h(n - k, m)",
        "move t(k in 1..=n) if (k * 4294967299) % m < (k * 4294967299) / m % 5 -> h(n - k, m)",
        "move t(k in 1..=n) -> h(n - k, m) + *(len([j for j in 0..k if (j - 3) % m == 0]) % 4)",
        "move t(k in 1..=n) -> h(n - k, m) + *(sum([j * 4294967291 % m / m for j in 0..k]) % 3)",
    ] {
        agree(&format!(
            "game h(n, m) {{\n {rules}\n}}\n[value(h(n, m)) for (n, m) in {params}]\n"
        ));
    }
    // A divisor of 0, divided by only past a guard.
    agree(
        "game h(n, m) {\n move t(k in 1..=n) -> h(n - k, m) + \
         *(len([j for j in 0..k if m != 0 and j % m == 0]) % 4)\n}\n\
         [value(h(n, m)) for n in [0, 9] for m in [0, 1, 3]]\n",
    );
    // A divisor of 0 divided by: the error, on every path.
    for rules in [
        "move t(k in 1..=n) -> h(n - k, m) + *(len([j for j in 0..k if j % m == 0]) % 4)",
        "move t(k in 1..=n) -> h(n - k, m) + *(sum([j / m for j in 0..k]) % 3)",
    ] {
        same_error(
            &format!("game h(n, m) {{\n {rules}\n}}\nvalue(h(6, 2))\nvalue(h(6, 0))\n"),
            "division by zero",
        );
    }
    // More divisions than the machine code keeps reciprocals apart for
    // (past them, one place is shared, each use checking its divisor),
    // by two divisors in turn.
    let terms: Vec<String> = (0..20)
        .map(|i| format!("(k + {i}) {} {}", ["%", "/"][i % 2], ["m", "n"][i / 2 % 2]))
        .collect();
    agree(&format!(
        "game h(n, m) {{\n move t(k in 1..=n) if ({}) % 3 == 1 -> h(n - k, m)\n}}\n\
         [value(h(n, m)) for (n, m) in {params}]\n",
        terms.join(" + ")
    ));
    // An outer binder as the divisor of a set comprehension's condition.
    agree(
        "game g(s) {\n move pick(x in s) -> g(s - {y for y in s if y % x == 0})\n \
         move half(x in s) if x > 3 -> g({y / (x / 2) + 1 for y in s if y != x})\n}\n\
         [value(g(set(2..=n))) for n in 2..=14]\n",
    );
}

#[test]
fn values_past_a_thousand_agree_on_every_path() {
    // Values about n / 2: past the mex's first marks, which grow to hold
    // them rather than leave each position to the kernel's own run.
    let text = "game g(n) {\n move m(k in 1..=n) if k == 1 or k % 2 == 0 -> g(n - k)\n}\n\
                print(max([value(g(n)) for n in 0..2900]))\nvalue(g(2899))\n";
    assert_eq!(agree(text), "1450\n1450\n");
}

/// A loop's bounds divided by an outer binder's value: the division is
/// made where the loop starts, in the block that binds the divisor.
#[test]
fn a_loops_bounds_divided_by_an_outer_binder_agree() {
    for a in ["[]", "[1, 2, 5]", "[-3, 4]"] {
        agree(&format!(
            "game g(n) {{\n move m0(a in {a}, b in (n / a)..min(n, n / a + 3)) if b % 7 != 1 and b >= 0 -> g(b)\n}}\n\
             value(g(10 ** 12 + 7))\n[value(g(n)) for n in 0..40]\n"
        ));
    }
}

/// A linear condition on the innermost binder with a coefficient of 1 or
/// -1 (`k <= n`, `n - k > 3`, `k == n - 5`) cuts the loop's window in the
/// machine code itself, without the helper that solves the others
/// (`2 * k < n`): every comparison, both signs, windows the condition
/// keeps whole, cuts, or empties, agree with the interpreter.
#[test]
fn windows_cut_by_unit_linear_conditions_agree() {
    for cond in [
        "k <= n - 3",
        "k < n / 2 + 1",
        "n - k > 3",
        "n - k >= 7",
        "k > n - 9",
        "k >= n / 3",
        "k == n - 5",
        "n - k == 4",
        "k - 2 * n < -30",
        "3 - k < 0 - n / 4",
    ] {
        let text = format!(
            "game g(n) {{\n move t(k in 1..=n + 2) if {cond} and k <= n -> g(n - k) + *(k % 3)\n}}\n\
             [value(g(n)) for n in 0..400]\n"
        );
        agree(&text);
    }
}

/// Sums, differences and products whose operands' ranges rule out an
/// overflow are left unchecked in the machine code (a swept position is
/// known to be below 2³¹, a binder over constants within them): they
/// agree with the interpreter, and where the ranges do not rule it out
/// (a product past 2⁶³), the interpreter's overflow error stands.
#[test]
fn arithmetic_of_ranged_operands_agrees_up_to_its_limits() {
    // A binder over an empty range (`i in 70..5`) makes no option.
    let clean = "game b(n) {\n move p(i in 0..20) if (1 << i) <= n -> b(n - (1 << i))\n\
                 move q(k in 1..=3) if n * 1000 * k < 7000 and k <= n -> b(n - k)\n\
                 move e(i in 70..5) if n > 0 -> b(n - (1 << i))\n}\n\
                 table(b, 0..3000)\nlen([n for n in 0..3000 if value(b(n)) == 0])\n";
    let out = agree(clean);
    assert!(out.contains("b(n), n = 0..=2999"), "{out}");
    runs_compiled_throughout(clean);
    // Past 2^63 only from n = 2,048 (k = 2, 3): the machine code runs by
    // then.
    for product in [
        "n * 2251799813685248 * k",
        "(n - 9) * 1048576 * 2147483648 * k",
    ] {
        let text = format!(
            "game o(n) {{\n move t(k in 1..=3) if k <= n and {product} != 0 -> o(n - k)\n}}\n\
             table(o, 0..3000)\n"
        );
        same_error(&text, "integer overflow");
    }
}

#[test]
fn an_expression_bounded_on_both_sides_is_tested_alike_in_every_spelling() {
    // Two conjuncts that bound one expression by constants are one
    // unsigned comparison in machine code: in every spelling, on both
    // sides of 0, a board's moves off its edges, an empty range, and
    // bounds at the integers' ends.
    let board = "let N = 30\nfn inside(x, y) = 1 <= x <= N and 1 <= y <= N\n\
                 game k(x, y) {\n move j((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) \
                 if inside(x + dx, y + dy) -> k(x + dx, y + dy)\n}\n\
                 len([1 for x in 1..=N for y in 1..=N if value(k(x, y)) == 0])\n\
                 [value(k(x, y)) for x in 1..=N for y in 1..=N]\n";
    // 256 losing squares, as a direct memoized search in Python counts
    // them; every square's value is compared with the interpreter's.
    let printed = agree(board);
    assert_eq!(printed.lines().next(), Some("256"), "{printed}");
    assert!(machine_code_for(board, "k"), "{board}");
    runs_compiled_throughout(board);
    // The binders unrolled, so that each bound is tested per option
    // (a bound linear in a binder narrows its loop instead); the upper
    // bound first or second, the constant on either side, a span past
    // `i64::MAX`, and an empty range, which stays two tests.
    let spellings = "let M = 9223372036854775807\nlet N = 12\ngame h(x, y) {\n\
                     move a((dx, dy) in [(-2, 1), (-1, -2), (1, -3)]) if 0 < x + dx and 13 > x + dx \
                     and y + dy >= -3 and y + dy <= N -> h(x + dx, y + dy)\n\
                     move b((dx, dy) in [(-1, 0), (0, -1)]) if x + dx >= -2 and N + 1 > x + dx \
                     and -M - 1 <= y + dy and y + dy <= 5 and y + dy >= -3 -> h(x + dx, y + dy)\n\
                     move c((dx, dy) in [(-1, -1), (-3, 1)]) if x + dx <= M and x + dx >= 1 \
                     and y + dy > -4 and y + dy < 5 -> h(x + dx, y + dy)\n\
                     move d((dx, dy) in [(-1, -1)]) if 9 <= y + dy <= 4 -> h(x + dx, y + dy)\n}\n\
                     [value(h(x, y)) for x in -2..=N for y in -3..=N]\n";
    let printed = agree(spellings);
    assert!(machine_code_for(spellings, "h"), "{spellings}");
    assert_eq!(printed.matches(", ").count(), 15 * 16 - 1, "{printed}");
}

#[test]
fn constants_past_the_slots_limit_that_the_guard_rules_out_are_compiled() {
    // `p <= n` with `n` below 2^31 rules out the items from 2^31: the
    // rest are compiled, and positions from 2^31 run interpreted.
    let text = "let POWS = [1, 2, 4, 2147483647, 2147483648, 1 << 40]\ngame g(n) {\n\
                move sub(p in POWS) if p <= n and (n < 60 or n % 64 == 0) -> g(n - p)\n\
                move half if n > 0 -> g(n / 2)\n}\n\
                table(g, 0..=50)\nvalue(g(1024))\nvalue(g(2147483648 + 64))\nvalue(g((1 << 40) + 9))\n";
    let printed = agree(text);
    assert!(printed.contains("g(n), n = 0..=50"), "{printed}");
    assert!(machine_code_for(text, "g"), "the rules should compile");
    // A set, the bound written the other way, and a negative item.
    let set = "game g(n) {\n move sub(p in {1, 3, -(1 << 35), 1 << 35}) if n >= p and p > -n \
               -> g(n - p)\n}\ntable(g, 0..=40)\n";
    agree(set);
    assert!(machine_code_for(set, "g"), "the rules should compile");
    // Leading comparisons of linear forms cannot fail, so a bound after
    // them counts; one after any other condition does not: interpreted,
    // and the same.
    let after = "game g(n) {\n move sub(p in [1, 2, 1 << 40]) if n > 0 and p <= n -> g(n - p)\n}\n\
                 table(g, 0..=30)\n";
    agree(after);
    assert!(machine_code_for(after, "g"), "`n > 0` cannot fail");
    let kept = "game g(n) {\n move sub(p in [1, 2, 1 << 40]) if n / 2 >= 0 and p <= n -> g(n - p)\n}\n\
                table(g, 0..=30)\n";
    agree(kept);
    assert!(!machine_code_for(kept, "g"), "2^40 is not ruled out first");
    // A bound that overflows for an item the interpreter tries: its
    // error, not the item dropped.
    let overflows = "game g(n) {\n move take(p in [1, 2, 1 << 62]) if 2 * p <= n -> g(n - 2 * p)\n}\n\
                     value(g(10))\n";
    same_error(overflows, "overflow");
    let small = "game g(n) {\n move take(p in [1, 2, 1 << 32]) if 2 * p <= n -> g(n - 2 * p)\n}\n\
                 table(g, 0..=30)\n";
    agree(small);
    assert!(machine_code_for(small, "g"), "2 * 2^32 cannot overflow");
    // Bounds by a later binder, whose values are not known to be small,
    // and a later domain that fails for the item dropped.
    let mutual = "game g(n) {\n move m(x in [1, 1 << 40], y in [1 << 40]) \
                  if x <= y + n and y <= x + n and n > 0 -> g(n - 1)\n}\nvalue(g(1))\nvalue(g(3))\n";
    assert_eq!(agree(mutual), "1\n1\n");
    let later = "game g(n) {\n move m(p in [1 << 40], q in LATER) if p <= n -> g(n - 1)\n}\n\
                 value(g(3))\nlet LATER = [1]\n";
    same_error(later, "LATER");
}

/// `len(str(x))` of an integer is its decimal places, one more for a
/// sign: compiled as comparisons with the powers of 10, the same on
/// every path for numbers of every length and both signs, and for a
/// linear form; the digit game so written runs in machine code.
#[test]
fn the_length_of_an_integers_text_is_its_places_on_every_path() {
    // Items of every length and both signs, past the compiled rules'
    // integers (interpreted, to check the expectation).
    let text = "let XS = [0, 1, 9, 10, 11, 99, 100, 999999, 1000000, 999999999999999999, \
                1000000000000000000, 9223372036854775807, -1, -9, -10, -11, -100, \
                -999999999999999999, -1000000000000000000, -9223372036854775807 - 1]\n\
                game g(n) {\n move m(x in XS) if n > 0 and len(str(x)) % 7 == n % 7 -> g(n - 1)\n}\n\
                table(g, 0..=30)\n[len(str(x)) for x in XS]\n";
    let printed = agree(text);
    assert!(
        printed.contains("[1, 1, 1, 2, 2, 2, 3, 6, 7, 18, 19, 19, 2, 2, 3, 3, 4, 19, 20, 20]"),
        "{printed}"
    );
    // Linear forms of both signs, of up to 12 places: machine code.
    let text = "game g(n) {\n move w(k in 1..=len(str(n - 60))) if k <= n -> g(n - k)\n\
                move v(k in 1..=2) if k <= n and \
                len(str(n * 1000 * 1000 * 1000 * 100 - 7000 * 1000 * 1000 * 1000)) % 3 == k -> g(n - k)\n}\n\
                table(g, 0..=150)\n";
    agree(text);
    compiled_as(text, &["g(n): compiled to machine code"]);
    let digits = "game dg(n) {\n move take(p in 0..len(str(n))) if n / 10 ** p % 10 > 0 \
                  -> dg(n - n / 10 ** p % 10)\n}\n[value(dg(n)) for n in 0..2000]\n";
    agree_big(digits);
    compiled_as(digits, &["dg(n): compiled to machine code"]);
}

/// An equation fixes no binder past a comparison, a range or its own
/// `..=` end that may overflow for the values it rules out (a review
/// found each of these printing a value): the interpreter's integer
/// overflow, from every path.
#[test]
fn an_equation_fixes_no_binder_past_what_may_overflow() {
    for text in [
        "game g(n) {\n move m(a in 0..n) if a + 9223372036854775800 > n and a == 0 -> g(n - 1)\n}\n\
         value(g(10))\n",
        "game g(n, x) {\n move m(a in 0..n, b in 0..2) if a + x > b and a == 0 -> g(n - 1, x)\n}\n\
         value(g(10, 9223372036854775800))\n",
        "game g(n, k) {\n move m(a in 0..=n, b in 0..2) if a == k -> g(0, 9)\n}\n\
         value(g(9223372036854775807, 5))\n",
        "game g(n) {\n move m(a in 0..n, b in a + 9223372036854775800..a + 9223372036854775802) \
         if a == 0 -> g(n - 1)\n}\nvalue(g(10))\n",
    ] {
        same_error(text, "integer overflow");
    }
}
