//! Calls of user functions from the compiled rules: unrolled
//! recursions, calls that nest, and calls remembered.

use super::*;

/// A function of lists that calls itself, called by two rules: each
/// call is unrolled as far as one rule's would be. (The game once shared
/// one room among them, so the second rule's call was left a call, and
/// every position went to the interpreter: 30 times slower.)
#[test]
fn a_recursion_called_by_two_rules_is_unrolled_for_each() {
    let text = "fn digits(n) = if n < 10 then [n] else digits(n / 10) + [n % 10]\n\
                game ds(n) {\n\
                \x20move take(d in digits(n)) if 0 < d <= n -> ds(n - d)\n\
                \x20move sq(d in digits(n)) if 0 < d * d <= n -> ds(n - d * d)\n\
                }\n\
                sum([value(ds(n)) for n in 0..=2000])\n[value(ds(n)) for n in 90..110]\n";
    agree(text);
    runs_compiled_throughout(text);
}

#[test]
fn calls_of_functions_that_call_themselves_agree_at_every_depth() {
    // The machine code's calls nest 2,000 deep, the kernel's run's
    // 10,000, the interpreter's --max-depth: each depth below is first
    // past one of them, and all three paths agree.
    let tri =
        "fn tri(n) = if n <= 0 then 0 else if n % 2 == 0 then n + tri(n - 1) else tri(n - 1) - n\n";
    // (Few positions: the interpreter, built for tests, takes seconds for
    // a million levels, and the harness stops each run at two.)
    for (d, last) in [(150, 12), (500, 12), (2_000, 6)] {
        let text = format!(
            "{tri}game g(n) {{\n move m(k in 1..=2) if k <= n and tri({d} * n) % 3 != 1 -> g(n - k)\n}}\n\
             [value(g(n)) for n in 0..={last}]\n"
        );
        agree(&text);
    }
    // A query's calls, too.
    agree(&format!(
        "{tri}game g(n) {{\n move m(k in 1..=3) if k <= n -> g(n - k)\n}}\n\
         sum([value(g(n)) for n in 0..300 if tri(n) % 4 == 1])\n"
    ));
    // An error deep in a call is the interpreter's to report, alike.
    same_error(
        "fn h(n) = if n == 0 then 1 / n else if n % 2 == 0 then h(n / 2) else h(n - 1)\n\
         game g(n) {\n move m(k in 1..=2) if k <= n and h(n + 64) > 0 -> g(n - k)\n}\n\
         value(g(9))\n",
        "division by zero",
    );
}

#[test]
fn remembered_calls_agree_with_the_interpreter() {
    // The machine code remembers the results of functions of one or two
    // integers in 4,096 entries: arguments 4,096 apart share an entry,
    // as do pairs whose first differs and second does not, negative ones
    // too; each must be told apart.
    agree(
        "fn ones(k) = if k == 0 then 0 else if k % 2 == 1 then 1 + ones(k / 2) else ones(k / 2)\n\
         game g(n) {\n move t(k in 1..=n) if ones(k + 4096 * (n % 3)) == 2 -> g(n - k)\n}\n\
         [value(g(n)) for n in 0..=300]\n",
    );
    agree(
        "fn c(a, b) = if b <= 0 then a % 7 else c(a + b, b - 2)\n\
         game g(n) {\n move t(k in 1..=n) if c(-k, n % 5) != c(k, n % 4) -> g(n - k)\n}\n\
         [value(g(n)) for n in 0..=200]\n",
    );
    agree(
        "fn ones(k) = if k == 0 then 0 else if k % 2 == 1 then 1 + ones(k / 2) else ones(k / 2)\n\
         game g(n) {\n move t(k in 1..=n) if ones(k) == 2 -> g(n - k)\n}\n\
         table(g, 0..=400)\n",
    );
}
