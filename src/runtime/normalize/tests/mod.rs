//! Normalised rules compile and agree with the interpreter.

use crate::sandbox::engines_disagree;
use crate::session::Session;

/// `source`'s first game compiles, and agrees with the interpreter;
/// `what` names the case.
fn compiles_and_agrees(source: &str, what: &str) {
    assert!(compiles(source), "{what}");
    assert_eq!(engines_disagree(source), None, "{what}");
}

/// Runs `source`; its first game's moves, normalised.
fn normalized(source: &str) -> Vec<crate::ir::MoveIr> {
    let mut s = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    s.run("test.game", source);
    let m = &s.machine;
    super::rules(&m.game_ir(0), &m.defs).moves
}

/// Runs `source`; whether its first game's normalised rules compile.
fn compiles(source: &str) -> bool {
    let mut s = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    s.run("test.game", source);
    crate::runtime::kernel::tests::first_game(&s.machine).is_some()
}

#[test]
fn spellings_users_write_compile_and_agree_with_the_interpreter() {
    let knight = "let N = 9\nfn inside(x, y) = 1 <= x <= N and 1 <= y <= N\n";
    for (prelude, rules) in [
        (
            knight,
            "move j((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) if inside(x + dx, y + dy) -> g(x + dx, y + dy)",
        ),
        (
            "let STEPS = [(-1, 0), (0, -1), (-1, -1)]\n",
            "move j((dx, dy) in STEPS) if x + dx >= 0 and y + dy >= 0 -> g(x + dx, y + dy)",
        ),
        (
            "let STEPS = {(1, 0), (0, 2)}\nfn ok(a, b) = min(a, b) >= 0\n",
            "move j((dx, dy) in STEPS) if ok(x - dx, y - dy) -> g(x - dx, y - dy)",
        ),
        (
            "fn unequal(a, b) = a != b\nfn half(a, n) = unequal(a, n - a) and 2 * a < n\n",
            "move s(a in 1..x) if half(a, x) -> g(a, y) + g(x - a, y)",
        ),
        (
            "",
            "move t(k in 1..=2 * 3) if k <= x and y > -(1) -> g(x - k, y)",
        ),
        // `any` and `all` over a few constants.
        (
            "",
            "move t(k in 1..=x) if any([k == s for s in [1, 3, 7]]) and all([k % p != 0 for p in [2, 5]]) \
             or k == y -> g(x - k, y)",
        ),
        // A binder of one name over a list comprehension.
        (
            "",
            "move t(k in [s for s in [1, 3, 4] if s <= x]) -> g(x - k, y)",
        ),
        // A binder of one name over tuples, read by index.
        (
            "",
            "move j(d in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) if x + d[0] >= 0 and y + d[1] >= 0 -> g(x + d[0], y + d[1])",
        ),
        (
            "let STEPS = {(1, 0), (0, 2)}\n",
            "move j(d in STEPS) if x >= d[0] and y >= d[-1] -> g(x - d[0], y - d[1]) + g(d[0], len(d))",
        ),
        (
            "",
            "move d((p, q) in [(a, x / a) for a in 1..=isqrt(x) if x % a == 0]) if p < x -> g(x - p, y) + g(q - 1, y)",
        ),
        (
            "",
            "move s((p, q) in [(i, j) for i in 0..=2 if i <= x for j in 0..=2 if 0 < i + j <= 2], k in 1..=1) \
             if q <= y -> g(x - p, y - q + k - 1)",
        ),
    ] {
        let source = format!(
            "{prelude}game g(x, y) {{\n {rules}\n}}\ntable(g, 0..8, 0..8)\nvalue(g(9, 9) + g(3, 4))\n"
        );
        compiles_and_agrees(&source, rules);
    }
}

#[test]
fn local_lets_of_cheap_values_compile_and_agree_with_the_interpreter() {
    for (prelude, guard) in [
        ("", "let d = x - k in d >= 0 and d != 3"),
        (
            "fn ok(a, b) = let d = a - b in let e = d + 1 in e > 1\n",
            "ok(x, k)",
        ),
        ("fn ok(a, b) = let a = a - b in a >= 0\n", "ok(x, k)"),
    ] {
        let source = format!(
            "{prelude}game g(x) {{\n move t(k in 1..=3) if {guard} -> g(let y = x - k in y)\n}}\ntable(g, 0..12)\n"
        );
        compiles_and_agrees(&source, guard);
    }
}

#[test]
fn lets_and_arguments_that_could_fail_are_evaluated_once_in_a_slot() {
    // Each value may fail (a division by zero at k = 2, an overflow) and
    // is read twice, only in a branch or never: the compiled rules hold it
    // in a slot, evaluate it exactly once, and leave the position to the
    // interpreter when it fails, which reports it as written.
    compiled_and_agree(&[
        ("fn f(a, b) = let q = a / (b - 2) in a > 0\n", "f(x, k)"),
        ("fn f(a, b) = a > 0\n", "f(k, x / (k - 2))"),
        ("fn f(a, b) = b * b >= a\n", "f(k, x / (k - 2) + 1)"),
        (
            "fn f(a, b) = if a > 2 then b > 0 else true\n",
            "f(k, 10 / (x - k))",
        ),
        ("", "let q = x * 4611686018427387904 in q == q or k > 1"),
        ("", "let (a, b) = (x, k) in a >= b"),
        ("fn f(a) = let q = [a] in len(q) == 1\n", "f(k)"),
        // More parameters than the caller has slots, and names of its own.
        (
            "fn f(a, b, c, d, e) = let s = a * b + c in s * s > d + e\n",
            "f(k, x, 1, 2, x / k)",
        ),
        (
            "fn s(p, q) = sum([i * p for i in 0..q]) + len([j for j in 0..p if j < q])\n",
            "s(k, x) != 3 and s(x, k) % 4 != 1",
        ),
    ]);
}

#[test]
fn lets_of_large_integers_are_never_read_by_unchecked_forms() {
    // `u` exceeds the bound below which linear forms are exact; read
    // twice, it stays in its slot and is compared with checked arithmetic.
    let source = "fn big(n) = let u = n * 3000000000 in (u - u) + n * (u / u)\n\
                  game g(n) {\n move t(k in 1..=big(n)) if k + big(n) > 1 -> g(n - k)\n}\n\
                  table(g, 0..12)\nvalue(g(2000))\n";
    assert!(compiles(source));
    assert_eq!(engines_disagree(source), None);
}

#[test]
fn calls_of_functions_on_strings_stay_interpreted() {
    stay_interpreted(&[
        ("fn f(a) = len(str([a])) == 3\n", "f(k)"),
        (
            "fn r(a) = if a <= 0 then true else len(str([a])) > 0 and r(a - 1)\n",
            "r(k)",
        ),
    ]);
}

/// Each `(prelude, guard)`, the guard after `k <= x and` in a move of
/// `g(x)`: its rules compile, and agree with the interpreter.
fn compiled_and_agree(cases: &[(&str, &str)]) {
    for (prelude, guard) in cases {
        let source = guarded(prelude, guard);
        compiles_and_agrees(&source, guard);
    }
}

fn guarded(prelude: &str, guard: &str) -> String {
    format!(
        "{prelude}game g(x) {{\n move t(k in 1..=3) if k <= x and {guard} -> g(x - k)\n}}\ntable(g, 0..12)\n"
    )
}

/// Each `(prelude, guard)`, the guard after `k <= x and` in a move of
/// `g(x)`: its rules do not compile, and agree with the interpreter.
fn stay_interpreted(cases: &[(&str, &str)]) {
    for (prelude, guard) in cases {
        let source = guarded(prelude, guard);
        assert!(!compiles(&source), "{guard}");
        assert_eq!(engines_disagree(&source), None, "{guard}");
    }
}

#[test]
fn a_constant_operation_that_fails_is_left_for_the_interpreter() {
    let source = "game g(x) {\n move t(k in [1, 2 / 0]) if k <= x -> g(x - k)\n}\nvalue(g(3))\n";
    assert_eq!(engines_disagree(source), None);
    let mut s = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    assert_eq!(
        s.run("test.game", source).exit_code(),
        3,
        "division by zero"
    );
}

#[test]
fn tuple_binders_over_comprehensions_that_bind_names_inside_stay_as_written() {
    // A comprehension inside the items, or a tuple pattern in a loop: not
    // lifted, and the rules still agree with the interpreter.
    for rules in [
        "move m((p, q) in [(a, sum([b for b in 0..a])) for a in 1..=x]) if q <= y -> g(x - p, y - q)",
        "move m((p, q) in [(a, b) for (a, b) in [(1, 0), (0, 1)] if a <= x and b <= y]) -> g(x - p, y - q)",
    ] {
        let source = format!(
            "game g(x, y) {{\n {rules}\n}}\ntable(g, 0..8, 0..8)\nvalue(g(9, 9) + g(3, 4))\n"
        );
        assert_eq!(engines_disagree(&source), None, "{rules}");
    }
}

#[test]
fn a_range_binder_first_restricted_to_constants_runs_over_them() {
    let rule = |source: &str| normalized(source).remove(0);
    for (prelude, rules, turns) in [
        (
            "",
            "move t(k in 1..=x) if k in {4, 1, 3} -> g(x - k, y)",
            true,
        ),
        (
            "let S = [3, 1, 1]\n",
            "move t(k in 0..x) if k in S and k != y -> g(x - k, y)",
            true,
        ),
        (
            "",
            "move t(k in 1..=x) if k in (2, 5) and (y % 2 == 0 or k > 2) -> g(x - k, y)",
            true,
        ),
        // A first conjunct that can fail for values outside the constants
        // keeps the range (the error is met as written).
        (
            "",
            "move t(k in 1..=x) if x % (k - 2) == 0 and k in {1, 3} -> g(x - k, y)",
            false,
        ),
    ] {
        let source = format!(
            "{prelude}game g(x, y) {{\n {rules}\n}}\ntable(g, 0..12, 0..5)\nvalue(g(40, 3))\n"
        );
        // Over the constants, or unrolled over them (`1 <= k`, from the
        // range, is a condition on constants alone: see `unroll.rs`).
        let rule = rule(&source);
        let turned = match rule.binders.first() {
            Some((_, domain)) => matches!(domain.kind, crate::ir::IrKind::List(_)),
            None => true,
        };
        assert_eq!(turned, turns, "{rules}");
        compiles_and_agrees(&source, rules);
    }
}

#[test]
fn an_innermost_binder_an_equation_fixes_is_that_value() {
    let rule = |source: &str| normalized(source).remove(0);
    for (rules, solved) in [
        (
            "move s(a in 1..x, b in 1..x) if a + b == x and a != b -> g(a, y) + g(b, y)",
            true,
        ),
        (
            "move s(a in 0..=x, b in 0..=y) if x - b == a + 1 -> g(a, b)",
            true,
        ),
        (
            "move s(a in 1..=x, b in 0..y) if b - a == 2 -> g(x - a, b)",
            true,
        ),
        (
            "move s(a in 1..=x, b in 0..y) if a == y - b -> g(x - a, b)",
            true,
        ),
        // The guard goes on only where the equation holds: a division by
        // zero at b = 2 alone is met as written.
        (
            "move s(a in 1..=x, b in 0..=y) if a + b == y and x % (b - 2) == 0 -> g(x - a, b)",
            true,
        ),
        // After a comparison that cannot fail: solved, that comparison
        // kept before the range's.
        (
            "move s(a in 1..=x, b in 0..=y) if a != 1 and a + b == y -> g(x - a, b)",
            true,
        ),
        // A coefficient, the binder twice, or a condition that may fail
        // first: as written.
        (
            "move s(a in 1..=x, b in 0..=y) if 2 * b == a -> g(x - a, b)",
            false,
        ),
        (
            "move s(a in 1..=x, b in 0..=y) if a + b == y - b -> g(x - a, b)",
            false,
        ),
        (
            "move s(a in 1..=x, b in 0..=y) if x % (a + 1) == 0 and a + b == y -> g(x - a, b)",
            false,
        ),
    ] {
        let source =
            format!("game g(x, y) {{\n {rules}\n}}\ntable(g, 0..14, 0..6)\nvalue(g(30, 4))\n");
        assert_eq!(rule(&source).binders.len() == 1, solved, "{rules}");
        compiles_and_agrees(&source, rules);
    }
}

#[test]
fn an_outer_binder_an_equation_fixes_is_that_value() {
    let rule = |source: &str| normalized(source).remove(0);
    for (rules, binders) in [
        // Lasker's Nim as one rule: `a == 0` fixes the outer binder
        // after comparisons of sums, and `a + b == x` the inner one.
        (
            "move s(a in 0..x, b in 0..x) if a + b <= x and a <= b and a == 0 \
             and not (a == 0 and b == x) -> g(a, y) + g(b, y)",
            1,
        ),
        (
            "move s(a in 0..x, b in 0..x) if a + b <= x and a <= b and a != 0 and a + b == x \
             -> g(a, y) + g(b, y)",
            1,
        ),
        (
            "move s(a in 1..=x, b in 0..y) if a == y - 1 and b < a -> g(x - a, b)",
            1,
        ),
        // The outer binder's value past its range: no option.
        (
            "move s(a in 1..=x, b in 0..y) if a == x + 3 -> g(x - 1, b)",
            1,
        ),
        // A later range that may fail, an equation reading a later
        // binder, or a condition that may fail first: as written.
        (
            "move s(a in 0..=x, b in 0..x / (a + 1)) if a == 1 -> g(x - a, b)",
            2,
        ),
        (
            "move s(a in 1..=x, b in 0..=y) if 2 * b == a -> g(x - a, b)",
            2,
        ),
        (
            "move s(a in 1..=x, b in 0..=y) if x % (b + 1) == 0 and a == 2 -> g(x - a, b)",
            2,
        ),
    ] {
        let source =
            format!("game g(x, y) {{\n {rules}\n}}\ntable(g, 0..14, 0..6)\nvalue(g(30, 4))\n");
        assert_eq!(rule(&source).binders.len(), binders, "{rules}");
        compiles_and_agrees(&source, rules);
    }
}

#[test]
fn binders_over_a_few_constants_a_condition_reads_are_unrolled_and_folded() {
    let moves = normalized;
    for (rules, count) in [
        // A knight written with ranges: eight jumps, four towards (0, 0).
        (
            "move j(dx in -2..=2, dy in -2..=2) if abs(dx) + abs(dy) == 3 and dx + dy < 0 \
             and x + dx >= 0 and y + dy >= 0 -> g(x + dx, y + dy)",
            4,
        ),
        // Strings, which the compiled rules do not loop over: one move
        // each, the comparisons folded.
        (
            "move m(k in 1..=max(x, y), kind in [\"x\", \"y\", \"xy\"]) \
             if (kind == \"x\" and k <= x) or (kind == \"y\" and k <= y) \
             or (kind == \"xy\" and k <= min(x, y)) \
             -> g(x - (if kind != \"y\" then k else 0), y - (if kind != \"x\" then k else 0))",
            3,
        ),
        // `not`, `or` with a known side, and a condition that may fail
        // after one that holds: the division by zero stays, for y = 0.
        (
            "move m(s in {1, -1}, t in [true, false]) if (not t or s > 0) and x % (s + 1) == 0 \
             and x >= 1 -> g(x - 1, y)",
            3,
        ),
        // Read with a parameter only: the loop stays.
        ("move t(k in 1..=3) if k <= x -> g(x - k, y)", 1),
        // A guard folded to `false` behind a binder whose domain fails
        // (`divisors(0)`): the copies stay, so does the error; and over
        // no constants at all, no copies would be left: not unrolled.
        (
            "move m(a in divisors(x), k in [1, 2]) if k == 3 -> g(x - 1, y)",
            2,
        ),
        (
            "move m(a in divisors(x), k in []) if k == 3 -> g(x - 1, y)",
            1,
        ),
    ] {
        let source =
            format!("game g(x, y) {{\n {rules}\n}}\ntable(g, 0..9, 0..7)\nvalue(g(20, 11))\n");
        assert_eq!(moves(&source).len(), count, "{rules}");
        compiles_and_agrees(&source, rules);
    }
}

#[test]
fn targets_computed_as_values_become_one_move_per_branch() {
    for (prelude, rules) in [
        (
            "",
            "move t(k in 1..=3) if k <= x -> if x - k > 5 then g(x - k) else g(0)",
        ),
        (
            "fn next(a, k) = g(a - k) + 0\n",
            "move t(k in 1..=3) if k <= x -> next(x, k)",
        ),
        (
            "",
            "move t(k in 1..=3) if k <= x -> if k == 1 then *x else if k == 2 then g(x - 2) + g(1) else 0",
        ),
        // An `if` whose condition fails at x = 4 (a division by zero):
        // the interpreter reports it as written.
        (
            "",
            "move t(k in 1..=2) if k <= x -> if 8 / (x - 4) > 1 then g(x - k) else g(0)",
        ),
    ] {
        let source = format!("{prelude}game g(x) {{\n {rules}\n}}\ntable(g, 0..4)\nvalue(g(12))\n");
        compiles_and_agrees(&source, rules);
    }
}

#[test]
fn binders_over_reordered_collections_and_divisors_compile() {
    for (prelude, domain) in [
        ("", "reversed([1, 2, x % 3 + 1])"),
        ("", "reversed(1..=min(x, 4))"),
        ("", "reversed(x / 2..x)"),
        ("let S = {1, 3}\n", "list(S)"),
        ("", "divisors(x + 1)"),
    ] {
        let source = format!(
            "{prelude}game g(x) {{\n move t(k in {domain}) if 0 < k <= x -> g(x - k)\n}}\ntable(g, 0..30)\n"
        );
        compiles_and_agrees(&source, domain);
    }
}

#[test]
fn functions_that_call_themselves_are_unrolled_and_compile() {
    for (prelude, rules, query) in [
        // Subtract a digit of the heap: recursion on n / 10.
        (
            "fn has_digit(n, d) = n > 0 and (n % 10 == d or has_digit(n / 10, d))\n",
            "move m(d in 1..=9) if has_digit(x, d) -> g(x - d)",
            "[value(g(n)) for n in 0..300]",
        ),
        (
            "fn digits(n) = if n < 10 then [n] else digits(n / 10) + [n % 10]\n",
            "move m(d in digits(x)) if d > 0 -> g(x - d)",
            "[value(g(n)) for n in 0..300]",
        ),
        // Deeper than the levels unrolled (2^40 halves 40 times): those
        // positions are the interpreter's, with the same values.
        (
            "fn halvings(n) = if n <= 1 then 0 else 1 + halvings(n / 2)\n",
            "move m(k in 1..=2) if k <= x and halvings(x) % 3 != 1 -> g(x / (k + 1))",
            "[value(g(n)) for n in 0..100] + [value(g(2 ** 40 + 7))]",
        ),
        // Two calls of itself: unrolled as far as the budget allows, then
        // called.
        (
            "fn fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2)\n",
            "move m(k in 1..=3) if k <= x and fib(k + x % 20) % 2 == 0 -> g(x - k)",
            "[value(g(n)) for n in 0..60]",
        ),
    ] {
        let source = format!("{prelude}game g(x) {{\n {rules}\n}}\n{query}\n");
        compiles_and_agrees(&source, rules);
    }
}

#[test]
fn a_tuple_let_whose_item_rebinds_its_names_is_not_split() {
    // The inner `(u, w)` takes the outer one's slots: split into `let u =
    // 1 in let w = (...) in ...`, the inner `u` would overwrite the outer
    // before the body reads it (found by the list-position proptest).
    for param in ["p", "n"] {
        let read = if param == "p" { "p[0]" } else { "n" };
        let start = if param == "p" { "[12, 11]" } else { "12" };
        let source = format!(
            "game l({param}) {{\n move m(d in 1..=(let (u, w) = (1, (let (u, w) = ({read}, {read}) in \
             u * w - u)) in u * w - u)) if d <= {read} -> l({})\n}}\nvalue(l({start}))\n",
            if param == "p" {
                "[p[0] - d, p[1]]"
            } else {
                "n - d"
            }
        );
        assert_eq!(engines_disagree(&source), None, "{source}");
    }
}

mod calls;
mod choices;
mod shares;

#[test]
fn a_bound_on_an_absolute_value_is_a_chain_the_loop_is_narrowed_by() {
    let rules = |guard: &str| {
        format!("game g(n, last) {{\n move t(k in 1..=n) if {guard} -> g(n - k, k)\n}}\n")
    };
    for (guard, chained) in [
        ("abs(k - last) <= 1", true),
        ("2 > abs(last - k)", true),
        ("abs(k - last) < last", true),
        ("abs(k - last) >= 1", false),
        ("abs(k * k - last) <= 1", false),
    ] {
        let moves = normalized(&rules(guard));
        let is_chain = matches!(
            moves[0].guard.as_ref().map(|g| &g.kind),
            Some(crate::ir::IrKind::Chain(..))
        );
        assert_eq!(is_chain, chained, "{guard}");
        let source = format!("{}table(g, 0..12, 0..5)\nvalue(g(30, 1))\n", rules(guard));
        compiles_and_agrees(&source, guard);
    }
}
