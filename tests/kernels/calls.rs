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

/// A binder whose bound calls a function that calls itself (`k in
/// 1..=dsum(n)`, the digit sum) runs as machine code, not as the fast
/// loop, which evaluates the call by walking the function's body (10x
/// slower). The values are a direct computation's.
#[test]
fn a_bound_that_calls_a_function_runs_as_machine_code() {
    let game = "fn dsum(n) = if n == 0 then 0 else n % 10 + dsum(n / 10)\n\
                game ds(n) {\n move take(k in 1..=dsum(n)) if k <= n -> ds(n - k)\n}\n";
    agree(&format!("{game}[value(ds(n)) for n in 0..40]\n"));
    const N: usize = 5_000;
    let digits = |mut n: usize| {
        let mut s = 0;
        while n > 0 {
            (s, n) = (s + n % 10, n / 10);
        }
        s
    };
    let mut g = vec![0u32; N + 1];
    for n in 0..=N {
        let options: Vec<u32> = (1..=digits(n).min(n)).map(|k| g[n - k]).collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    let text = format!("{game}print(len([n for n in 0..={N} if value(ds(n)) == 0]))\n");
    assert_eq!(session.run("digits.game", &text).error, None);
    let report = grundy::explain::game(&session.machine.game_ir(0), &session.machine.defs);
    assert!(report.native, "machine code");
    let zeros = g.iter().filter(|v| **v == 0).count();
    assert_eq!(
        String::from_utf8(out.0.borrow().clone()).unwrap(),
        format!("{zeros}\n")
    );
}
