//! Lists, tuples and sets in the compiled rules: made at run time,
//! read from their forms, binders over computed collections,
//! membership, rows of constants, comprehensions and their errors.

use super::*;

/// A helper that makes a tuple item by item with `if`s, called on its own
/// result (`tuple_set(tuple_set(h, i, a), j, b)`): the inliner binds the
/// inner call, and an argument read in more than one branch, by `let`s, so
/// the target is a `let` around a tuple. The game's parameter is a tuple
/// for it (it was a list, and every position ran in the interpreter), and
/// its positions are read from the dense table of their form.
#[test]
fn a_tuple_made_by_a_helper_under_lets_is_compiled_and_agrees() {
    let text = "fn tuple_set(h, i, v) = (if i == 0 then v else h[0], if i == 1 then v else h[1], if i == 2 then v else h[2])\n\
                game t(h) {\n\
                \x20move one(i in 0..3, k in 1..=h[i]) -> t(tuple_set(h, i, h[i] - k))\n\
                \x20move two(i in 0..3, j in 0..3, k in 1..=min(h[i], h[j])) if i < j -> t(tuple_set(tuple_set(h, i, h[i] - k), j, h[j] - k))\n\
                }\n\
                [value(t((a, b, c))) for a in 0..4 for b in 0..4 for c in 0..4]\nvalue(t((9, 7, 8)))\n";
    let twin = "game t(a, b, c) {\n\
                \x20move ta(k in 1..=a) -> t(a - k, b, c)\n\
                \x20move tb(k in 1..=b) -> t(a, b - k, c)\n\
                \x20move tc(k in 1..=c) -> t(a, b, c - k)\n\
                \x20move ab(k in 1..=min(a, b)) -> t(a - k, b - k, c)\n\
                \x20move ac(k in 1..=min(a, c)) -> t(a - k, b, c - k)\n\
                \x20move bc(k in 1..=min(b, c)) -> t(a, b - k, c - k)\n\
                }\n\
                [value(t(a, b, c)) for a in 0..4 for b in 0..4 for c in 0..4]\nvalue(t(9, 7, 8))\n";
    assert_eq!(agree(text), agree(twin));
    runs_compiled_throughout(text);
}

/// Lists made at run time (a comprehension) beside integer arguments, one
/// to three integers in all: the machine code reads the dense table of
/// their form from the run it made, each integer where the run has it.
/// Each game is a sum of Nim heaps, and the heaps are told apart.
#[test]
fn lists_made_at_run_time_beside_integers_are_read_from_their_form() {
    let text = "game m(a, p, b) {\n\
                \x20move x(d in 1..=a) -> m(a - d, [v for v in p], b)\n\
                \x20move y(d in 1..=b) -> m(a, [v for v in p], b - d)\n\
                \x20move z(d in 1..=p[0]) -> m(a, [v - d for v in p], b)\n\
                }\n\
                game q(p, b) {\n\
                \x20move x(i in 0..2, d in 1..=p[i]) -> q([if j == i then v - d else v for (j, v) in enumerate(p)], b)\n\
                \x20move y(d in 1..=b) -> q([v for v in p], b - d)\n\
                }\n\
                [value(m(a, [c], 2 * b)) for a in 0..5 for c in 0..5 for b in 0..5]\n\
                [value(q([a, 3 * c], b)) for a in 0..5 for c in 0..5 for b in 0..5]\n";
    let nim = |f: &dyn Fn(i64, i64, i64) -> i64| {
        let values: Vec<String> = (0..5)
            .flat_map(|a| (0..5).flat_map(move |c| (0..5).map(move |b| (a, c, b))))
            .map(|(a, c, b)| f(a, c, b).to_string())
            .collect();
        format!("[{}]", values.join(", "))
    };
    let expected = format!(
        "{}\n{}\n",
        nim(&|a, c, b| a ^ c ^ (2 * b)),
        nim(&|a, c, b| a ^ (3 * c) ^ b)
    );
    assert_eq!(agree(text), expected);
    runs_compiled_throughout(text);
    // Each position's options are looked up by the helper while they
    // have no values, and read from the table once they have.
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("made.game", text).error, None);
    let (looked_up, positions) = (
        session.machine.lists_looked_up(),
        session.machine.graph.len(),
    );
    assert!(
        looked_up < 2 * positions as u64,
        "{looked_up} lookups for {positions} positions"
    );
}

/// A helper's condition on a list made in the guard, as in
/// `ok(hs[:i] + [hs[i] - k] + hs[i + 1:])`: inlined, the list is bound by
/// a `let` around the condition, which the compiled rules hold on the
/// arena. (It was interpreted, 100 times slower than a hand-written
/// program.)
#[test]
fn a_condition_on_a_list_made_in_the_guard_is_compiled_and_agrees() {
    for (helper, guard) in [
        (
            "fn ok(hs) = all([a <= b for (a, b) in zip(hs, hs[1:])])",
            "ok(hs[:i] + [hs[i] - k] + hs[i + 1:])",
        ),
        (
            "fn ok(hs) = len(hs) < 2 or hs[0] != hs[-1]",
            "ok(hs[:i] + [hs[i] - k] + hs[i + 1:])",
        ),
        ("fn ok(hs) = sum(hs) % 3 != 1", "ok([hs[i] - k] * 2 + hs)"),
        // Out of range in the list made: the error, on every path.
        (
            "fn ok(hs) = hs[0] <= hs[1]",
            "i > 1 or ok(hs[:i] + [hs[i + 3] - k])",
        ),
    ] {
        let text = format!(
            "{helper}\ngame nd(hs) {{\n move take(i in 0..len(hs), k in 1..=hs[i]) if {guard} -> \
             nd(hs[:i] + [hs[i] - k] + hs[i + 1:])\n}}\n[value(nd([a, b, c])) for a in 0..4 for b in 0..4 for c in 1..4]\n"
        );
        let interpreted = common::differ::run_patiently(&text, Engine::Interpreter);
        for engine in [Engine::Kernels, Engine::Native] {
            assert_eq!(
                common::differ::run_patiently(&text, engine),
                interpreted,
                "{text}"
            );
        }
        if interpreted.2.is_none() {
            runs_compiled_throughout(&text);
        }
    }
}

/// Binders over collections computed at each position: sets combined,
/// lists joined or repeated, and sets of computed items (in increasing
/// order, without repeats, as the interpreter runs over them).
#[test]
fn binders_over_computed_collections_agree_on_every_path() {
    for rules in [
        "move to(d in set(divisors(n)) - {n}) -> g(d)",
        "move to(d in {n / 2, n / 3, n - 1, n / 2}) if 0 <= d < n -> g(d)",
        "move to(s in [1, 2] + [n % 7] * 2) if 0 < s <= n -> g(n - s)",
        "move to(d in set(divisors(n)) & {1, 2, 3, 5, 8}) if d < n -> g(n - d)",
        "move to(d in ({1, 2} | {n % 4}) ^ {2}) if 0 < d <= n -> g(n - d)",
    ] {
        let text = format!(
            "game g(n) {{\n {rules}\n}}\n[value(g(n)) for n in 1..60]\n\
             len([n for n in 1..3000 if value(g(n)) == 0])\n"
        );
        let printed = agree(&text);
        assert_eq!(printed.lines().count(), 2, "{rules}");
        let ((_, _, _), compiled) = run_counting(&text, Engine::Native);
        assert_eq!(compiled, 2, "{rules}: the list and the count compile");
        let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
        session.run("computed.game", &text);
        let report = grundy::explain::game(&session.machine.game_ir(0), &session.machine.defs);
        assert!(report.native, "{rules}: machine code");
    }
    // A division by zero in the set made at g(0): the interpreter's error.
    let text = "game g(n) {\n move to(d in {n / n, 0}) if d < n -> g(d)\n}\nvalue(g(5))\n";
    same_error(text, "division by zero");
}

/// `k in S` of a constant collection of at least four integers is a bit
/// read from the collection's span (src/runtime/kernel/expr/members.rs),
/// `not in` too, where the binder is not turned to run over `S` itself;
/// the values are checked against the same game with the collection's
/// items written as a binder, and a span too wide for bits (a look at
/// every item) agrees as well.
#[test]
fn membership_in_a_constant_collection_agrees_on_every_path() {
    let sets = [
        "{p for p in 2..=200 if all([p % q != 0 for q in 2..=isqrt(p)])}",
        // Over 64 constants: the binder runs over them as one constant
        // list (src/runtime/normalize/member.rs).
        "[3 * p + 1 for p in 0..400 if p % 7 != 3]",
        "[-3, 1, 4, 9, 64, 65, 127, 128]",
        "{1, 4, 9, 10 ** 12}",
        "(2, 3, 5, 7)",
    ];
    for set in sets {
        let text = format!(
            "let S = {set}\n\
             game g(n) {{ move take(k in 1..=n) if k in S -> g(n - k) }}\n\
             game h(n) {{ move take(k in 1..=n) if k not in S and k <= 3 -> h(n - k) }}\n\
             game m(n) {{ move take(k in 1..=n) if k % 2 == 1 and k in S -> m(n - k) }}\n\
             [value(g(n)) for n in 0..150]\n[value(h(n)) for n in 0..150]\n\
             [value(m(n)) for n in 0..150]\n"
        );
        let twin = format!(
            "let S = {set}\n\
             game g(n) {{ move take(k in S) if 1 <= k <= n -> g(n - k) }}\n\
             game h(n) {{ move take(k in 1..=3) if k <= n and not any([k == s for s in S]) -> h(n - k) }}\n\
             game m(n) {{ move take(k in S) if 1 <= k <= n and k % 2 == 1 -> m(n - k) }}\n\
             [value(g(n)) for n in 0..150]\n[value(h(n)) for n in 0..150]\n\
             [value(m(n)) for n in 0..150]\n"
        );
        assert_eq!(agree(&text), agree(&twin), "{set}");
    }
}

#[test]
fn divisors_are_listed_in_increasing_order_by_every_path() {
    // Squares and non-squares; indexing sees the order, and a heap of 0
    // (no divisors: an error) and one past the kernels' bound go to the
    // interpreter.
    for (rules, query) in [
        (
            "game g(n) {\n move to(d in divisors(n)) if d < n -> g(d)\n}\n",
            "[value(g(n)) for n in 1..=200]",
        ),
        (
            // Every other divisor, counted from the least: the order shows.
            "game g(n) {\n move down(i in 0..len(divisors(n))) if i % 2 == 0 and divisors(n)[i] * 2 <= n \
             -> g(n - divisors(n)[i])\n}\n",
            "[value(g(n)) for n in 1..=150]",
        ),
        (
            "game g(n) {\n move m if n > 1 and sum(divisors(n)) > n + 1 -> g(n / 2)\n \
             move one if n > 1 -> g(n / 3)\n}\n",
            "[value(g(n)) for n in 1..100] + [value(g(1099511627776 + 3))]",
        ),
    ] {
        agree(&format!("{rules}{query}\n"));
    }
    // At g(1), divisors(0): the interpreter's error, by every path.
    let text = "game g(n) {\n move to(d in divisors(n - 1)) if d < n -> g(d)\n}\nvalue(g(12))\n";
    same_error(text, "needs a positive integer");
}

#[test]
fn rows_of_constant_lists_of_lists_are_read_by_every_path() {
    // A token on a graph given by adjacency lists: rows of lists or of
    // tuples, read from the end for negative indices, and `len` of one.
    let adj =
        "let ADJ = [[1, 2], [2, 3], [3], [4], []]\nlet TUP = ((1, 2), (2, 3), (3,), (4,), ())\n";
    for (rules, values) in [
        ("move go(w in ADJ[v]) -> tok(w)", "[1, 2, 0, 1, 0]"),
        ("move go(w in TUP[v - 5]) -> tok(w)", "[1, 2, 0, 1, 0]"),
        (
            "move go(i in 0..len(ADJ[v])) if ADJ[v][i] > v -> tok(ADJ[v][i])",
            "[1, 2, 0, 1, 0]",
        ),
        // Only tok(1) and tok(2) read a row of one item (rows 2 and 3,
        // counted from the end): tok(2) moves to tok(3), worth 0, so is
        // worth 1; tok(1) moves to both: 2.
        (
            "move go(w in ADJ[v]) if len(TUP[v - 4]) == 1 -> tok(w)",
            "[0, 2, 1, 0, 0]",
        ),
    ] {
        let text = format!("{adj}game tok(v) {{\n {rules}\n}}\n[value(tok(v)) for v in 0..5]\n");
        assert_eq!(agree(&text).trim(), values, "{rules}");
    }
    // Past the last row: the interpreter's error, by every path.
    let text =
        format!("{adj}game tok(v) {{\n move go(w in ADJ[v + 1]) -> tok(w)\n}}\nvalue(tok(4))\n");
    let interpreted = run(&text, Engine::Interpreter);
    assert_eq!(interpreted.2, Some(Phase::Runtime), "{}", interpreted.1);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run(&text, engine), interpreted);
    }
}
#[test]
fn a_list_past_the_item_limit_is_the_same_error_whichever_engine_runs() {
    // The compiled rules make lists of up to 65,536 items; below that
    // limit they step aside, and the interpreter reports the list it
    // forbids, as it would have without them.
    let text = "game g(n) {\n    move t(k in reversed(1..=n)) if k <= 2 -> g(n - k)\n}\n\
                value(g(10))\nvalue(g(50))\n";
    for engine in [Engine::Interpreter, Engine::Kernels, Engine::Native] {
        let out = SharedBuffer::default();
        let err = SharedBuffer::default();
        let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
        engine.apply(&mut session.machine);
        session.machine.limits.max_items = 20;
        let outcome = session.run("items.game", text);
        let out = String::from_utf8(out.0.borrow().clone()).unwrap();
        let err = String::from_utf8(err.0.borrow().clone()).unwrap();
        assert_eq!(
            (out.as_str(), outcome.error),
            ("1\n", Some(Phase::Limit)),
            "{engine:?}"
        );
        assert!(err.contains("a sequence of 50 items is too large"), "{err}");
    }
}

/// Grundy's game with its target `sum([g(a), g(n - a)])`, a list of
/// positions written out: every position was the interpreter's (past the
/// time limit from 3000); now compiled as `g(a) + g(n - a)` is, with its
/// values. An integer in the list is the interpreter's: 0, the empty
/// position, adds nothing, any other is an error.
#[test]
fn a_sum_of_a_list_of_positions_is_compiled_as_their_sum() {
    let game = |target: &str| {
        format!(
            "game g(n) {{\n    move split(a in 1..n) if 2 * a < n -> {target}\n}}\n\
             table(g, 0..=200)\nvalue(g(400))\n"
        )
    };
    let listed = game("sum([g(a), g(n - a)])");
    assert_eq!(agree(&listed), agree(&game("g(a) + g(n - a)")));
    let (session, _) = Engine::Native.run("listed.game", &listed);
    let told = session.explain(None).unwrap();
    assert!(told.starts_with("g(n): compiled"), "{told}");
    assert_eq!(
        session.machine.interpreted.first().copied().unwrap_or(0),
        0,
        "{told}"
    );
    // The integer 0 is the empty position, any other an error.
    assert_eq!(agree(&game("sum([g(a), 0, g(n - a)])")), agree(&listed));
    same_failure(&game("sum([g(a), 1])"));
}

#[test]
fn sums_of_comprehensions_in_targets_agree_on_every_path() {
    // Split into k equal heaps, or into the parts a list names, with
    // heaps and sums inside sums; a sum with no item is the end of play.
    let text = "game g(n) {\n move split(k in 2..=n) if n % k == 0 -> sum([g(n / k) for i in 1..=k])\n\
                move cut(a in 1..n) if a < n - a -> sum([g(b) for b in [a, n - a]]) + *1\n\
                move three(a in 1..=3) if a < n -> g(n - a) + sum([*j for j in 1..=a if j != 2]) \
                + sum([g(a) + g(a - 1) for i in 0..a])\n\
                move none if n == 7 -> sum([g(i) for i in 0..0])\n}\n\
                table(g, 0..=60)\nvalue(g(200))\nvalue(sum([g(n) for n in 1..=300]))\n";
    let printed = agree(text);
    assert!(printed.contains("g(n), n = 0..=60"), "{printed}");
    // Asked top-down: items without a value yet are evaluated first.
    let top_down = "game h(n) {\n move s(k in 1..=3) if k <= n -> sum([h(n - k) for i in 0..k]) + h(n / 2)\n}\n\
                    value(h(2500))\n";
    agree(top_down);
    // More items than the compiled rules take: the interpreter's.
    let long =
        "game w(n) {\n move s if n > 0 -> sum([w(n - 1) for i in 0..70001 * n])\n}\nvalue(w(2))\n";
    assert_eq!(agree(long), "1\n");
    // An item that fails is the interpreter's to report, alike.
    let failing = "game f(n) {\n move s(k in 0..=2) if k <= n -> sum([f(n / k) for i in 0..2])\n}\nvalue(f(9))\n";
    same_error(failing, "division by zero");
}

#[test]
fn a_binder_over_constant_tuples_read_past_their_items_is_the_same_error() {
    // Unrolled over the tuples, `d[0]` folds to each one's number; `d[2]`
    // is left to fail as the interpreter fails.
    let text = "game g(n) {\n move m(d in [(1, 2), (2, 1)]) if d[0] <= n and d[2] > 0 -> g(n - d[0])\n}\n\
                value(g(5))\n";
    same_error(text, "out of range");
}

#[test]
fn a_comprehension_lifted_into_the_move_fails_where_it_would_have() {
    for text in [
        // A part of an item that the guard never reads.
        "game g(n) {\n move m((p, q) in [(a, 10 / (a - 1)) for a in 0..3]) if p > 5 -> g(n - q)\n}\n\
         value(g(4))\n",
        // A condition before a loop that runs no times for that item.
        "game g(n) {\n move m((p, q) in [(i, j) for i in 0..3 if 10 / i > 0 for j in 0..i]) -> g(n - 1)\n}\n\
         value(g(4))\n",
        // A binder of one name: its item, never read.
        "game g(n) {\n move m(k in [10 / (s - 2) for s in [1, 2, 3] if s <= n]) if n > 9 -> g(n - k)\n}\n\
         value(g(4))\n",
    ] {
        same_error(text, "division by zero");
    }
}

#[test]
fn any_and_all_over_a_few_constants_agree_and_fail_where_they_would() {
    let rules = "move t(k in 1..=n) if any([k == s for s in [1, 3, 7]]) or all([k % p == 0 for p in [2, 3]]) \
                 -> g(n - k)";
    let printed = agree(&format!("game g(n) {{\n {rules}\n}}\ntable(g, 0..40)\n"));
    assert!(printed.contains("g(n), n = 0..=39"), "{printed}");
    // Items that may fail are not unrolled: `any` makes the whole list
    // first, and so meets the division by zero even after a `true`.
    let text = "game g(n) {\n move t(k in 1..=n) if any([k == s or 6 / (s - 3) > 9 for s in [1, 3]]) -> g(n - k)\n}\n\
                value(g(4))\n";
    same_error(text, "division by zero");
}

/// A comprehension whose first clause goes over a list it makes (a
/// helper's filter, `sorted([x for x in xs if x > 0])`, inlined around
/// `hs[:i] + [hs[i] - k] + hs[i + 1:]`) is machine code: the list is made
/// first, below the elements. (It was left to the kernel's run, 4 times
/// slower than Rust on Lasker's Nim.) Lists, sums, `all` and `enumerate`
/// over such lists agree with the interpreter.
#[test]
fn a_comprehension_over_a_list_it_makes_is_machine_code_and_agrees() {
    let games = [
        "fn norm(xs) = sorted([x for x in xs if x > 0])\ngame g(hs) {\n\
         move take(i in 0..len(hs), k in 1..=hs[i]) -> g(norm(hs[:i] + [hs[i] - k] + hs[i + 1:]))\n\
         move split(i in 0..len(hs), a in 1..=hs[i] / 2) -> g(norm(hs[:i] + [a, hs[i] - a] + hs[i + 1:]))\n}\n",
        "game g(hs) {\n move dec(j in 0..len(hs)) if hs[j] > 0 -> \
         g([if i == j then x - 1 else x for (i, x) in enumerate(hs[:j] + hs[j:])])\n}\n",
        "game g(hs) {\n move m(j in 0..len(hs), k in 1..=2) \
         if all([x >= 0 for x in hs[:j] + [hs[j] - k]]) -> g(hs[:j] + [hs[j] - k] + hs[j + 1:])\n}\n",
        "game h(n) { move t(k in 1..=n) -> h(n - k) }\ngame g(hs) {\n move m(j in 0..len(hs)) \
         if hs[j] > 1 -> sum([h(x) for x in hs[:j] + [hs[j] - 1] if x > 0])\n\
         move n(j in 0..len(hs)) if hs[j] > 0 -> g(hs[:j] + [hs[j] - 1] + hs[j + 1:])\n}\n",
    ];
    for rules in games {
        let text =
            format!("{rules}[value(g(hs)) for hs in [[3, 4, 5], [7, 2], [0, 6, 1], [4, 4]]]\n");
        agree(&text);
        // A sum whose components have no values yet is the interpreter's.
        if !rules.contains("sum(") {
            runs_compiled_throughout(&text);
        }
        assert!(machine_code_for(&text, "g"), "no machine code for {rules}");
    }
}

/// The values of the one-integer subtraction game with set `s`, up to `n`.
fn subtraction_values(s: &[i64], n: usize) -> Vec<u64> {
    let mut g = vec![0u64; n + 1];
    for h in 0..=n {
        let seen: Vec<u64> = s
            .iter()
            .filter(|&&k| k as usize <= h)
            .map(|&k| g[h - k as usize])
            .collect();
        g[h] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(cases(24))]

    /// Queries asked one after another, small and large, in any order:
    /// each sweep starts at the lowest position an earlier query left
    /// without a value, and one past 65,536 positions waits for the
    /// search to come down a chain (src/runtime/sweep/mod.rs). The values
    /// are those of a direct computation, whatever the order.
    #[test]
    fn queries_in_any_order_sweep_to_the_right_values(
        s in proptest::collection::btree_set(1i64..=7, 1..=3),
        asks in proptest::collection::vec(prop_oneof![0usize..300, 60_000usize..150_000], 1..=4),
    ) {
        let s: Vec<i64> = s.into_iter().collect();
        let set = s.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", ");
        let mut text = format!("game g(n) {{ move take(k in [{set}]) if k <= n -> g(n - k) }}\n");
        for n in &asks {
            text.push_str(&format!("value(g({n}))\n"));
        }
        let g = subtraction_values(&s, *asks.iter().max().unwrap());
        let want: String = asks.iter().map(|n| format!("{}\n", g[*n])).collect();
        prop_assert_eq!(run_big(&text, Engine::Native), want.clone(), "{}", text);
        prop_assert_eq!(run_big(&text, Engine::Kernels), want, "{}", text);
    }
}

/// A computed target with list positions, beside a sum of them
/// (`l(p[:i] + [p[i] - 1] + p[i + 1:]) + sum([...])`), is compiled (it
/// was left to the interpreter whole) and agrees on every path.
#[test]
fn list_positions_beside_a_sum_in_a_target_are_compiled_and_agree() {
    let text = "game l(p) {\n\
                move m0(d in 1..=2) if 1 <= d <= p[0] -> sum([l([p[1], x]) for x in 0..d]) + l([p[0] - d, p[1]])\n\
                move m1(i in 0..len(p)) if p[i] > 0 -> l(p[:i] + [p[i] - 1] + p[i + 1:]) + sum([l([x - 1, 0]) for x in p[:i] if x > 1])\n}\n\
                value(l([12, 11]))\n[value(l([a, b])) for a in 0..6 for b in 0..6]\n";
    agree(text);
    assert!(machine_code_for(text, "l"), "no machine code for {text}");
}
