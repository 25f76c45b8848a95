//! Differential tests of the compiled rules (src/runtime/kernel/) against the
//! interpreter. Random integer games are written as rule files, with
//! binders over ranges and lists, guards of comparisons, `and`, `or`,
//! `not` and chains, arithmetic that can divide by zero or go negative,
//! local `let`s, calls of functions, and targets of one-, two- and
//! three-parameter games and Nim heaps, some computed with `if`. Each file
//! runs twice, with the kernels and without; what it prints and the
//! errors it reports must be the same.

mod common;

use common::Engine;
use common::differ::{
    agree, compare, machine_code_for, run, run_at_depth, run_counting, runs_compiled_throughout,
    same_error,
};
use grundy::SharedBuffer;
use grundy::diag::Phase;
use grundy::session::Session;
use proptest::prelude::*;

/// An integer expression over the names in `vars`.
fn expr(vars: Vec<&'static str>) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        3 => prop::sample::select(vars).prop_map(str::to_string),
        2 => (-3i64..=7).prop_map(|c| c.to_string()),
    ];
    leaf.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            4 => (inner.clone(), prop::sample::select(vec!["+", "-", "*"]), inner.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            1 => (inner.clone(), prop::sample::select(vec!["/", "%"]), inner.clone())
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            1 => inner.clone().prop_map(|a| format!("abs({a})")),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("gcd({a}, {b})")),
            1 => inner.clone().prop_map(|a| format!("popcount(abs({a}))")),
            1 => inner.clone().prop_map(|a| format!("bit_length(abs({a}))")),
            1 => (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("(if {c} > 2 then {a} else {b})")),
            // Local `let`s: put in place when their value is cheap, else
            // interpreted; a nested one may hide an outer `u`.
            1 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(let u = {a} in ({b} - u * 2))")),
            1 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(let (u, w) = ({a}, {b}) in u * w - u)")),
            // Read twice, or only in a branch: kept in a slot of its own.
            1 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(let u = {a} in (u * u - {b} * u))")),
            1 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(let u = {a} in (if {b} > 1 then u else 3))")),
            // The file's functions, inlined with any arguments.
            1 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("fa({a}, {b})")),
            1 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("fb({a}, {b})")),
            1 => inner.clone().prop_map(|a| format!("fc({a})")),
            // A function that calls itself: unrolled a few levels, then
            // called (at 2^20, twenty levels down).
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("fd({a} * 99999, {b})")),
            // One that calls itself in both branches of an `if`, and one that
            // is a condition: called, in the kernel's run and the machine code.
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("ff({a} * 777, {b})")),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(if fg({a} * 31) then {b} else 2)")),
            // Its call in both branches made once, before them.
            1 => inner.prop_map(|a| format!("fh({a} * 4099)")),
        ]
    })
}

/// A condition over the names in `vars`.
fn cond(vars: Vec<&'static str>) -> impl Strategy<Value = String> {
    let cmp = prop::sample::select(vec!["<", "<=", ">", ">=", "==", "!="]);
    let leaf = prop_oneof![
        4 => (expr(vars.clone()), cmp.clone(), expr(vars.clone()))
            .prop_map(|(a, op, b)| format!("{a} {op} {b}")),
        1 => (expr(vars.clone()), expr(vars.clone()), expr(vars))
            .prop_map(|(a, b, c)| format!("{a} <= {b} < {c}")),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} and {b}")),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} or {b})")),
            1 => inner.prop_map(|a| format!("not ({a})")),
        ]
    })
}

fn domain(vars: Vec<&'static str>) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (expr(vars.clone()), expr(vars.clone())).prop_map(|(a, b)| format!("{a}..{b}")),
        3 => (expr(vars.clone()), expr(vars.clone())).prop_map(|(a, b)| format!("{a}..={b}")),
        1 => prop::collection::vec(expr(vars.clone()), 0..4).prop_map(|xs| format!("[{}]", xs.join(", "))),
        1 => Just("STEPS".to_string()),
        // In increasing order; an error below 1.
        1 => expr(vars.clone()).prop_map(|e| format!("divisors({e})")),
        1 => expr(vars.clone()).prop_map(|e| format!("fe({e})")),
        // Reordered, or with repeats dropped: the same options for a mex.
        1 => (expr(vars.clone()), expr(vars.clone()))
            .prop_map(|(a, b)| format!("reversed({a}..={b})")),
        1 => prop::collection::vec(expr(vars), 0..4)
            .prop_map(|xs| format!("set(sorted([{}]))", xs.join(", "))),
    ]
}

/// A target: one or two terms. Most take a strictly smaller position, as
/// guarded by the move (`d` in `1..=n`); some are arbitrary, to meet
/// cycles, negative heaps and the position limit.
fn target(params: &'static [&'static str], vars: Vec<&'static str>) -> BoxedStrategy<String> {
    let d = expr(vars.clone()).boxed();
    let smaller = (prop::sample::select(params.to_vec()), d).prop_map(move |(p, d)| {
        let args: Vec<String> = params
            .iter()
            .map(|q| {
                if *q == p {
                    format!("{q} - ({d})")
                } else {
                    q.to_string()
                }
            })
            .collect();
        let game = ["g", "h", "t"][params.len() - 1];
        (
            format!("{game}({})", args.join(", ")),
            format!("1 <= {d} <= {p}"),
        )
    });
    let mut inner = vars.clone();
    inner.push("i");
    let smaller = smaller.boxed();
    let summed = (smaller.clone(), 0i64..4, cond(inner.clone()))
        .prop_map(|((t, guard), k, c)| format!("sum([{t} for i in 0..{k} if {c}]) if {guard}"));
    let term = prop_oneof![
        20 => smaller.prop_map(|(t, guard)| format!("{t} if {guard}")),
        // Sums of comprehensions of positions: the xor of their values.
        2 => summed,
        1 => (0i64..3, expr(inner.clone()), expr(inner))
            .prop_map(|(k, a, b)| format!("sum([g({a}) + *({b}) for i in 0..={k}])")),
        1 => expr(vars.clone()).prop_map(|e| format!("*({e})")),
        1 => expr(vars.clone()).prop_map(|e| format!("g({e})")),
        1 => (expr(vars.clone()), expr(vars.clone())).prop_map(|(a, b)| format!("h({a}, {b})")),
        // A target computed as a value: one move per branch, compiled.
        1 => (cond(vars.clone()), expr(vars.clone()), expr(vars))
            .prop_map(|(c, a, b)| format!("(if {c} then g({a}) else *({b}) + 0)")),
    ];
    prop::collection::vec(term, 1..=2)
        .prop_map(|terms| {
            // The guards of the terms, if any, go before the arrow.
            let mut shown = Vec::new();
            let mut guards = Vec::new();
            for t in terms {
                match t.rsplit_once(" if ") {
                    Some((t, g)) => {
                        shown.push(t.to_string());
                        guards.push(g.to_string());
                    }
                    None => shown.push(t),
                }
            }
            format!("{}\u{0}{}", shown.join(" + "), guards.join(" and "))
        })
        .boxed()
}

/// One move of a game with these parameters.
fn rule(params: &'static [&'static str]) -> impl Strategy<Value = String> {
    const NAMES: [&str; 2] = ["a", "b"];
    (0usize..=2)
        .prop_flat_map(move |binders| {
            let mut vars: Vec<&'static str> = params.to_vec();
            let mut domains = Vec::new();
            for name in NAMES[..binders].iter().copied() {
                domains.push(domain(vars.clone()).prop_map(move |d| format!("{name} in {d}")));
                vars.push(name);
            }
            let guard = prop::option::of(cond(vars.clone()));
            (domains, guard, target(params, vars))
        })
        .prop_map(|(domains, guard, target)| {
            let (target, term_guards) = target.split_once('\u{0}').unwrap();
            let conds: Vec<&str> = guard
                .as_deref()
                .into_iter()
                .chain((!term_guards.is_empty()).then_some(term_guards))
                .collect();
            let binders = match domains.is_empty() {
                true => String::new(),
                false => format!("({})", domains.join(", ")),
            };
            let guard = match conds.is_empty() {
                true => String::new(),
                false => format!(" if {}", conds.join(" and ")),
            };
            format!("{binders}{guard} -> {target}")
        })
}

/// A top-level query over a comprehension, compiled when the machine
/// code runs (see src/runtime/kernel/query.rs): counts, sums, minima,
/// nim-sums and lists of positions' values, with conditions and element
/// expressions that may fail, and ranges that may be empty.
fn query() -> impl Strategy<Value = String> {
    let n = 0i64..7;
    prop_oneof![
        (n.clone(), n.clone(), cond(vec!["a", "b"])).prop_map(|(a, b, c)| format!(
            "len([1 for a in 0..={a} for b in 0..={b} if value(h(a, b)) == 0 or {c}])"
        )),
        (n.clone(), expr(vec!["a"]), cond(vec!["a"]))
            .prop_map(|(n, e, c)| format!("sum([value(g(a)) * {e} for a in 0..{n} if {c}])")),
        (n.clone(), expr(vec!["a"]))
            .prop_map(|(n, e)| format!("winner(sum([g({e}) for a in 0..{n}]))")),
        (n.clone(), expr(vec!["a", "b"]))
            .prop_map(|(n, e)| format!("value(sum([h(a, {e}) for a in 0..={n} for b in 0..2]))")),
        (n.clone(), expr(vec!["a"]))
            .prop_map(|(n, e)| format!("min([value(g(a)) - {e} for a in 0..={n}])")),
        (n.clone(), cond(vec!["a", "b"])).prop_map(|(n, c)| format!(
            "max([value(h(a, b)) + a for a in 0..{n} for b in a..{n} if {c}])"
        )),
        (n.clone(), expr(vec!["a", "b"]), cond(vec!["a", "b"])).prop_map(|(n, e, c)| format!(
            "[value(h(a, b)) * {e} for a in 0..{n} for b in 0..3 if {c}]"
        )),
        // Lists of lists, tuples and sets, and arithmetic alone: no
        // position asked (adjacency lists made by a `let`).
        (n.clone(), expr(vec!["a", "b"]), cond(vec!["a", "b"]))
            .prop_map(|(n, e, c)| format!("[[{e} for b in a..{n} if {c}] for a in 0..{n}]")),
        (n.clone(), expr(vec!["a"]), cond(vec!["a"]))
            .prop_map(|(n, e, c)| format!("[(a, {e}) for a in 0..={n} if {c}]")),
        (n.clone(), expr(vec!["a", "b"]))
            .prop_map(|(n, e)| format!("[{{{e} for b in 0..a}} for a in 0..{n}]")),
        (n, expr(vec!["a"]), cond(vec!["a"]))
            .prop_map(|(n, e, c)| format!("sum([{e} for a in 0..{n} if {c}])")),
    ]
}

/// The functions the random expressions call: one whose `let` is read
/// twice, two with comprehensions of their own, whose names the caller's
/// frame must make room for, and five that call themselves.
const FUNCTIONS: &str = "fn fa(p, q) = let s = p - q in if s > 0 then s * 2 else q - s\n\
    fn fb(p, q) = sum([i * p for i in 0..min(abs(q), 4)])\n\
    fn fc(p) = len([i for i in 0..=min(abs(p), 5) if i % 2 == 0 or p > 3])\n\
    fn fd(p, q) = if p <= 0 then q else fd(p / 2, q + p % 2)\n\
    fn fe(p) = if p <= 0 then [] else fe(p / 3) + [p % 3 + 1]\n\
    fn ff(p, q) = if p <= 0 then q else if p % 2 == 0 then ff(p / 2, q + 1) else ff(p - 1, q * 2 % 97)\n\
    fn fg(p) = p > 0 and (p % 5 == 2 or fg(p / 3))\n\
    fn fh(p) = if p <= 0 then p % 4 else if p % 2 == 1 then 1 + fh(p / 2) else fh(p / 2) * 3 % 1000\n";

fn game_file() -> impl Strategy<Value = String> {
    game_file_asking(
        "table(g, 0..=12)\ntable(h, 0..=4, 0..=4)\nvalue(g(30) + h(7, 9))\nvalue(g(120))\n",
    )
}

/// Random games `g(n)` and `h(x, y)`, asked `asked` and maybe a random
/// query.
fn game_file_asking(asked: &'static str) -> impl Strategy<Value = String> {
    (
        prop::collection::vec(rule(&["n"]), 1..=3),
        prop::collection::vec(rule(&["x", "y"]), 1..=2),
        prop::collection::vec(-2i64..6, 0..4),
        prop::collection::vec(query(), 0..=1),
    )
        .prop_map(move |(g, h, steps, queries)| {
            let moves = |rules: Vec<String>| -> String {
                rules
                    .iter()
                    .enumerate()
                    .map(|(i, r)| format!("    move m{i}{r}\n"))
                    .collect()
            };
            let steps: Vec<String> = steps.iter().map(i64::to_string).collect();
            format!(
                "{FUNCTIONS}let STEPS = [{}]\ngame g(n) {{\n{}}}\ngame h(x, y) {{\n{}}}\n{asked}{}",
                steps.join(", "),
                moves(g),
                moves(h),
                queries.iter().map(|q| format!("{q}\n")).collect::<String>()
            )
        })
}

/// `n` cases, with shrinking bounded in time: a random file may run into
/// the two seconds' limit on each path, so that shrinking a failure by
/// its thousands of steps would take hours; two minutes find a small one.
fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        max_shrink_time: 120_000,
        ..ProptestConfig::with_cases(n)
    }
}

proptest! {
    #![proptest_config(cases(400))]

    #[test]
    fn compiled_rules_agree_with_the_interpreter(file in game_file()) {
        compare(&file)?;
    }
}

proptest! {
    #![proptest_config(cases(64))]

    /// Positions of negative and huge integers, outside the dense tables:
    /// their options of the same game are evaluated inside the machine
    /// code's runs (src/runtime/kernel/native/deep.rs).
    #[test]
    fn hashed_positions_agree_with_the_interpreter(file in game_file_asking(
        "table(g, -12..=0)\nvalue(g(-40) + h(-3, 5))\nvalue(h(7, -9))\nvalue(g(10 ** 12 + 7))\n",
    )) {
        compare(&file)?;
    }
}

proptest! {
    #![proptest_config(cases(48))]

    /// Games of three integers, kept in a dense cube and swept shell by
    /// shell (src/graph/dense/, src/runtime/sweep/mod.rs).
    #[test]
    fn three_integer_games_agree_with_the_interpreter(file in three_file()) {
        compare(&file)?;
    }
}

proptest! {
    #![proptest_config(cases(48))]

    /// Games whose positions are lists or tuples of a few integers, kept
    /// in a dense table of their form (src/graph/form.rs) and read by the
    /// machine code where a target has that form.
    #[test]
    fn list_position_games_agree_with_the_interpreter(file in list_file()) {
        compare(&file)?;
    }
}

proptest! {
    #![proptest_config(cases(48))]

    /// Games whose positions are sets, each move taking an item `x` and
    /// leaving a subset without it: kept by a comprehension over the set,
    /// or what one takes out (`p - {y for y in p if ...}`, which the
    /// compiled rules make as the items kept), or another set operation.
    #[test]
    fn set_position_games_agree_with_the_interpreter(file in set_file()) {
        compare(&file)?;
    }
}

/// A condition on an item `y` of the set beside the item `x` taken; some
/// divide by zero, or read a negative item.
fn item_cond() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "y % x == 0",
        "y % (x - 2) != 1",
        "y > x + 1",
        "y * y <= x + 3",
        "(y + x) % 3 == 0 and y != 4",
        "not (y < x or y % 2 == 1)",
    ])
}

/// A rule file of the set game `s(p)`, asked about a few sets.
fn set_file() -> impl Strategy<Value = String> {
    let target = (item_cond(), item_cond(), 0..7usize).prop_map(|(a, b, form)| match form {
        0 => format!("s(p - {{y for y in p if y == x or {a}}})"),
        1 => format!("s({{y for y in p if y != x if {a}}})"),
        2 => format!("s({{y for y in p if y != x if {a} if {b}}})"),
        3 => format!(
            "s(p - {{y for y in p if y == x or {a} or {b}}}) + s({{y for y in p if y > x}})"
        ),
        4 => format!("s({{y for y in p if y < x and {a}}} | {{y for y in p if y > x}})"),
        5 => format!("s(p & {{y for y in p if y != x and {a}}})"),
        _ => format!("s((p - {{x}}) - {{y for y in p if {a}}})"),
    });
    let guard = prop::sample::select(vec![
        "",
        " if x > 0",
        " if x != 1",
        " if len(p) > 2 or x % 2 == 0",
    ]);
    prop::collection::vec((guard, target), 1..=2).prop_map(|rules| {
        let moves: String = (rules.iter().enumerate())
            .map(|(i, (g, t))| format!("    move m{i}(x in p){g} -> {t}\n"))
            .collect();
        format!(
            "game s(p) {{\n{moves}}}\n\
             value(s(set(1..=7)))\nvalue(s({{0, 2, 3, 5}}))\nvalue(s(set(-3..=4)))\n\
             [value(s(set(a..=a + 3))) for a in -2..3]\n"
        )
    })
}

/// One move of the list game `l(p)`: `d` over a domain, a guard, and a
/// target of one of a few forms (lists and tuples, of two or three items,
/// some of them telling the lengths apart), each lowering `p[0]` or `p[1]`
/// by `d`, so that every play ends.
fn list_rule() -> impl Strategy<Value = String> {
    let names = vec!["p[0]", "p[1]", "d"];
    let target = prop::sample::select(vec![
        "l([p[0] - d, p[1]])",
        "l([p[0], p[1] - d])",
        "l((p[0] - d, p[1]))",
        "l([p[1], p[0] - d])",
        "l([p[0] - d, p[1], 0])",
        "l([p[0] - d, p[1]]) + l((p[1], p[0] - d))",
        "l([p[0], p[1] - d]) + *(d)",
        // Positions of two and three items play differently.
        "l([p[0] - d, p[1], 1]) + *(len(p))",
        "l([p[1] - d, p[0]]) + *(len(p) * d)",
        // A computed target: list positions beside a sum of them.
        "sum([l([p[1], x]) for x in 0..d]) + l([p[0] - d, p[1]])",
        // Lists made at run time, of a length the rules do not fix.
        "l([if i == 0 then x - d else x for (i, x) in enumerate(p)])",
        "l(p[:0] + [p[0] - d] + p[1:])",
        "l(sorted([p[0] - d, p[1]]))",
    ]);
    // Lists and tuples compared whole: alike or not, of other lengths,
    // and a list beside a tuple (never equal, left to the interpreter).
    let same = prop::sample::select(vec![
        "",
        " and p != [d, d]",
        " and (p == sorted(p) or d == 1)",
        " and p[:1] + [d] != p[1:] + [d]",
        " and p != (d, d)",
        " and (p == [] or p != [p[0]] * len(p))",
        // `zip`, read by index: pairs of neighbours, and unequal lengths.
        " and all([a <= b + d for (a, b) in zip(p, p[1:])])",
        " and any([a == b for (a, b) in zip(p, [d, 2, 1])])",
    ]);
    (
        domain(vec!["p[0]", "p[1]"]),
        prop::option::of(cond(names)),
        target,
        same,
    )
        .prop_map(|(domain, guard, target, same)| {
            let lowered = if target.contains("p[1] - d") {
                "p[1]"
            } else {
                "p[0]"
            };
            let guard = guard.map_or(String::new(), |g| format!(" and {g}"));
            format!("(d in {domain}) if 1 <= d <= {lowered}{guard}{same} -> {target}")
        })
}

fn list_file() -> impl Strategy<Value = String> {
    prop::collection::vec(list_rule(), 1..=3).prop_map(|rules| {
        let moves: String = (rules.iter().enumerate())
            .map(|(i, r)| format!("    move m{i}{r}\n"))
            .collect();
        format!(
            "{FUNCTIONS}let STEPS = [1, 2]\ngame l(p) {{\n{moves}}}\n\
             value(l([12, 11]))\nvalue(l((9, 13)))\nvalue(l([7, 6, 0]))\n\
             [value(l([a, b])) for a in 0..4 for b in 0..4]\n"
        )
    })
}

/// A file of a three-integer game `t`, beside a one- and a two-integer
/// game its moves may also take, asked about a position high enough to
/// start a sweep of its cube, and about the cube's corner one by one.
fn three_file() -> impl Strategy<Value = String> {
    (
        rule(&["n"]),
        rule(&["x", "y"]),
        prop::collection::vec(rule(&["x", "y", "z"]), 1..=3),
    )
        .prop_map(|(g, h, t)| {
            let moves: String = (t.iter().enumerate())
                .map(|(i, r)| format!("    move m{i}{r}\n"))
                .collect();
            format!(
                "{FUNCTIONS}let STEPS = [1, 2]\ngame g(n) {{\n    move m{g}\n}}\n\
                 game h(x, y) {{\n    move m{h}\n}}\ngame t(x, y, z) {{\n{moves}}}\n\
                 value(t(11, 10, 12))\n\
                 [value(t(a, b, c)) for a in 0..4 for b in 0..4 for c in 0..4]\n\
                 value(t(0, 13, 2) + g(5))\n"
            )
        })
}

#[test]
fn long_chains_are_swept_from_the_bottom_with_the_same_values() {
    let chain = "game g(n) {\n move a(k in 1..=3) if k <= n -> g(n - k)\n move b if n % 5 == 2 -> g(n / 2)\n}\n";
    let out = agree(&format!("{chain}value(g(2900))\nvalue(g(1000))\n"));
    assert_eq!(out.lines().count(), 2);
    // A position low in the chain whose option is not dense (h(-1)): the
    // sweep stops there and the search goes on as usual.
    let blocked = "game h(n) {\n move m if n > 0 -> h(n - 1)\n}\n\
                   game g(n) {\n move a(k in 1..=2) if k <= n -> g(n - k)\n move b if n == 700 -> h(-1) + g(n - 1)\n}\n";
    agree(&format!("{blocked}value(g(2900))\n"));
}

#[test]
fn values_past_63_and_positions_left_half_done_agree_on_every_path() {
    // The machine code keeps option values below 64 as bits of a word
    // and larger ones in the marks; a Nim heap's options have every value
    // below it, so the mex crosses from one to the other at 64.
    let nim = "game g(n) {\n move take(k in 1..=n) -> g(n - k)\n}\n";
    let out = agree(&format!(
        "{nim}value(g(200))\ntable(g, 60..70)\nvalue(g(64) + g(63))\n"
    ));
    assert!(out.starts_with("200\n"), "{out}");
    assert!(out.contains("60 | 60 61 62 63 64 65 66 67 68 69"), "{out}");
    assert!(out.ends_with("127\n"), "{out}");
    // A position some of whose options have values (below 64) and some
    // none yet: the search completes its mex from the values the run
    // found, which the machine code kept as bits. (The guard, not linear,
    // has the rules run as machine code rather than the fast loop.)
    let out = agree(&format!(
        "{nim}game h(n) {{\n move to(k in 0..n) if k * k >= 0 -> g(k)\n}}\nvalue(g(30))\nvalue(h(100))\n"
    ));
    assert_eq!(out, "30\n100\n");
    // The same where a position has a few options (8): their values are
    // bits of a word, written into the marks when some have no value.
    let out = agree(&format!(
        "{nim}game h(n) {{\n move to(k in 0..8) if k * k >= n -> g(k)\n}}\nvalue(g(3))\nvalue(h(0))\n"
    ));
    assert_eq!(out, "3\n8\n");
    // Wythoff's game asked top-down (options without values are left to
    // the search, the bits written into the marks first), then swept.
    let wythoff = "game w(a, b) {\n move x(k in 1..=a) -> w(a - k, b)\n \
                   move y(k in 1..=b) -> w(a, b - k)\n move z(k in 1..=min(a, b)) -> w(a - k, b - k)\n}\n";
    let out = agree(&format!(
        "{wythoff}value(w(40, 50))\nlen([(a, b) for a in 0..50 for b in 0..50 if value(w(a, b)) == 0])\n"
    ));
    // Its losing positions: (0, 0) and the pairs (floor(k phi), floor(k
    // phi) + k) either way round, 39 of them in the square of side 50.
    assert!(out.ends_with("\n39\n"), "{out}");
}

#[test]
fn a_cycle_below_a_long_chain_is_reported_as_the_interpreter_reports_it() {
    let text = "game g(n) {\n move a if n > 0 -> g(n - 1)\n move b if n == 50 -> g(100)\n}\nvalue(g(2000))\n";
    let (interpreted, compiled) = (run(text, Engine::Interpreter), run(text, Engine::Native));
    assert_eq!(compiled, interpreted);
    assert!(
        compiled.1.contains("can be reached from itself"),
        "{}",
        compiled.1
    );
}

/// The machine code evaluates an option outside the dense tables (a heap
/// of 10^15, a negative one) in place, where it meets it; an option met
/// after one without a value waits its turn, so the
/// search meets the first error on the interpreter's play. Evaluated in
/// place, `h(-3)` below would lead on through `h(5)`, `h(-5)`, `h(7)`, ...
/// to the position limit before `h(2)` was looked at.
#[test]
fn an_option_after_one_without_a_value_is_evaluated_in_the_interpreters_order() {
    let text = "game h(n) {\n move down if n > 0 -> h(n - 1)\n move neg if n > 0 -> h(-n)\n \
                move up if n < 0 -> h(2 - n)\n move bad if n == 0 -> h(1 / n)\n}\nvalue(h(3))\n";
    let (interpreted, compiled) = (run(text, Engine::Interpreter), run(text, Engine::Native));
    assert_eq!(compiled, interpreted);
    assert!(
        compiled
            .1
            .contains("reached by the play h(3) -> h(2) -> h(1) -> h(0)"),
        "{}",
        compiled.1
    );
}

/// A move of the position asked back onto itself is a cycle, wherever it
/// is among its options: the kernel's first run records only the first
/// few options without values (here `h(40)` down to `h(9)`, with an
/// error at `h(39)`), but the position is in progress for it already.
#[test]
fn a_move_onto_the_position_asked_is_a_cycle_wherever_it_comes() {
    let text = "game h(n) {\n move m(a in reversed(0..=40)) if n == 0 -> h(a)\n \
                move bad if n == 39 -> h(1 / (n - n))\n}\nvalue(h(0))\n";
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run(text, engine), run(text, Engine::Interpreter));
    }
    let (_, reported, _) = run(text, Engine::Native);
    assert!(reported.contains("cycle: h(0) -> h(0)"), "{reported}");
}

/// The interpreter waits for the options without values of each move in
/// its own share, as a kernel's run records them: here 32 of the 40 of
/// `a`, then `h(200)` of `b`, then the rest. Both search in that order,
/// and meet the error at `h(200)` before the one at `h(35)`.
#[test]
fn the_interpreter_and_the_kernels_wait_for_the_same_options() {
    let text = "game h(n) {\n move a(k in 1..=40) if n == 100 -> h(k)\n \
                move b if n == 100 -> h(200)\n \
                move bad if n == 200 or n == 35 -> h(1 / (n - n))\n}\nvalue(h(100))\n";
    let interpreted = run(text, Engine::Interpreter);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run(text, engine), interpreted);
    }
    assert!(
        interpreted
            .1
            .contains("reached by the play h(100) -> h(200)"),
        "{}",
        interpreted.1
    );
}

/// A sweep makes the whole square below `h(120, 120)`, 14,641 positions
/// where the rules reach some 1,600, as far as its room goes; those do not
/// count towards the search's limit (3,000 here), which the interpreter
/// alone stays under.
#[test]
fn positions_a_sweep_makes_ahead_leave_the_search_its_whole_limit() {
    let text = "game h(x, y) {\n move m if 1 <= popcount(y) <= y and 1 <= popcount(x) <= x \
                -> h(x, y - popcount(y)) + h(x - popcount(x), y)\n}\nvalue(h(120, 120))\n";
    let interpreted = run(text, Engine::Interpreter);
    assert_eq!(interpreted.2, None, "{}", interpreted.1);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run(text, engine), interpreted);
    }
}

#[test]
fn a_sweep_never_makes_a_query_exceed_the_position_limit() {
    // 2,900 positions are needed; the limit (3,000) leaves room for them
    // and nothing much else.
    let text = "game g(n) {\n move a(k in 1..=2) if k <= n -> g(n - k)\n}\nvalue(g(2899))\n";
    agree(text);
}

/// The generator makes files that check, and values as well as errors.
#[test]
fn the_random_files_are_mostly_valid_games() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..100 {
        let file = game_file().new_tree(&mut runner).unwrap().current();
        let (_, err, phase) = run(&file, Engine::Native);
        assert_ne!(phase, Some(Phase::Syntax), "{file}\n{err}");
        assert_ne!(phase, Some(Phase::Check), "{file}\n{err}");
        match phase {
            None => ok += 1,
            Some(_) => failed += 1,
        }
    }
    assert!(
        ok >= 25,
        "only {ok} of 100 random files ran cleanly ({failed} failed)"
    );
}

/// Every kernel run is short here, but there are a million of them: the
/// clock is looked at across runs, not only within a long one.
#[test]
fn many_short_compiled_runs_still_meet_the_time_limit() {
    // Two parameters: no sweep, whose own loop looks at the clock. The
    // second's values are copied out: its runs make no loop at all.
    for text in [
        "game g(n, c) {\n move m(k in 1..=300) if (k * k) % 7 != c and k <= n -> g(n - k, c)\n}\n\
         value(g(1000000, 3))\n",
        "game g(n, c) {\n move m(k in [1, 2]) if k <= n -> g(n - k, c)\n}\nvalue(g(10000000, 3))\n",
    ] {
        meets_the_time_limit(text);
    }
}

fn meets_the_time_limit(text: &str) {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    session.machine.limits.timeout = Some(std::time::Duration::from_millis(50));
    session.machine.start_clock();
    let outcome = session.run("slow.game", text);
    let err = String::from_utf8(err.0.borrow().clone()).unwrap();
    assert_eq!(outcome.error, Some(Phase::Limit), "{err}");
    assert!(err.contains("time limit"), "{err}");
}

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
    // A linear form (`n - k`) past the slots' limit: such positions go to
    // the interpreter, with the same values.
    let linear = "game g(n) {\n move t(k in 1..=2) if n > 2 ** 40 -> g(n - k * 2 ** 38)\n\
                  move h if n % 3 == 0 and n > 0 -> g(n / 3)\n}\n\
                  value(g(2 ** 41 + 3))\nvalue(g(5))\n";
    assert_eq!(agree(linear).lines().count(), 2);
}

#[test]
fn queries_over_comprehensions_run_as_machine_code_and_agree() {
    let games = "game g(n) {\n move take(k in 1..=3) if k <= n -> g(n - k)\n}\n\
                 game w(x, y) {\n move a(k in 1..=x) -> w(x - k, y)\n move b(k in 1..=y) -> w(x, y - k)\n}\n\
                 game d(n) {\n move m if n > 0 -> d(n / (n - 5))\n}\n";
    // Values by theory: g(n) is n % 4 (subtraction of 1 to 3), w(x, y)
    // is x ^ y (two Nim heaps).
    for (query, expected) in [
        ("value(sum([g(i) for i in 0..100]))", "0"),
        ("winner(sum([g(n) for n in 0..5]))", "second"),
        ("winner(sum([g(n) for n in 0..6]))", "first"),
        (
            "len([1 for x in 0..40 for y in 0..40 if value(w(x, y)) == 0])",
            "40",
        ),
        ("sum([value(g(n)) for n in 0..100])", "150"),
        ("max([value(w(x, y)) for x in 0..8 for y in x..8])", "7"),
        ("min([value(g(n)) - n for n in 0..10])", "-8"),
        // Other spellings of a count of losing positions.
        (
            "len([(x, y) for x in 0..40 for y in 0..40 if value(w(x, y)) == 0])",
            "40",
        ),
        (
            "sum([1 for x in 0..40 for y in 0..40 if winner(w(x, y)) == \"second\"])",
            "40",
        ),
        (
            "len([x for x in 0..40 for y in 0..40 if \"first\" != winner(w(x, y))])",
            "40",
        ),
        (
            "len([1 for x in 0..40 for y in 0..40 if winner(w(x, y)) == \"first\"])",
            "1560",
        ),
        // A query printed, alone or beside other values.
        ("print(len([1 for n in 0..400 if value(g(n)) == 0]))", "100"),
        (
            "print(\"losing:\", sum([1 for n in 0..400 if value(g(n)) == 0]), 7)",
            "losing: 100 7",
        ),
        // A list made, alone, printed, or kept by a `let`.
        ("[value(g(n)) for n in 0..9]", "[0, 1, 2, 3, 0, 1, 2, 3, 0]"),
        (
            "print([n for n in 0..20 if value(g(n)) == 0])",
            "[0, 4, 8, 12, 16]",
        ),
        (
            "let P = [x * 100 + y for x in 0..40 for y in 0..40 if winner(w(x, y)) == \"second\"]\n\
             print(len(P), P[1], P[-1])",
            "40 101 3939",
        ),
        // Lists of tuples, of lists and of sets, and arithmetic alone (a
        // `let` of adjacency lists).
        (
            "[(n, value(g(n))) for n in 0..5]",
            "[(0, 0), (1, 1), (2, 2), (3, 3), (4, 0)]",
        ),
        (
            "let A = [[j for j in i..9 if value(g(j)) == i] for i in 0..3]\nprint(A)",
            "[[0, 4, 8], [1, 5], [2, 6]]",
        ),
        (
            "[{j % 3 for j in 0..i} for i in 0..4]",
            "[{}, {0}, {0, 1}, {0, 1, 2}]",
        ),
        ("sum([n * n for n in 0..100 if n % 3 == 1])", "106161"),
        (
            "let ADJ = [[j for j in i + 1..min(50, i + 4) if (i + j) % 3 != 0] for i in 0..50]\n\
             print(len(ADJ), ADJ[0], ADJ[48], ADJ[49])",
            "50 [1, 2] [49] []",
        ),
    ] {
        let text = format!("{games}{query}\n");
        let ((out, err, phase), compiled) = run_counting(&text, Engine::Native);
        assert_eq!((out.trim(), phase), (expected, None), "{query}\n{err}");
        assert_eq!(compiled, 1, "{query}");
        assert_eq!(
            run(&text, Engine::Interpreter),
            (out, err, phase),
            "{query}"
        );
    }
    // Whatever the machine code cannot finish, the interpreter evaluates
    // and reports as it always does: the minimum of nothing, an overflow,
    // a division by zero in the rules (at d(5)).
    for query in [
        "min([value(g(n)) for n in 0..0])",
        "sum([value(g(n)) * 4611686018427387904 for n in 0..10])",
        "len([1 for n in 0..10 if value(d(n)) == 0])",
        "[value(d(n)) for n in 0..10]",
    ] {
        let text = format!("{games}{query}\n");
        let (compiled, counted) = run_counting(&text, Engine::Native);
        assert_eq!(counted, 0, "{query}");
        assert_eq!(compiled.2, Some(Phase::Runtime), "{query}");
        assert_eq!(compiled, run(&text, Engine::Interpreter), "{query}");
    }
    // Not a query the machine code takes (a winner that is never "draw"
    // in finite games, a list of strings): the interpreter's answer.
    for query in [
        "len([1 for x in 0..9 if winner(g(x)) == \"draw\"])",
        "[winner(g(n)) for n in 0..9]",
    ] {
        let text = format!("{games}{query}\n");
        let (interpreted, counted) = run_counting(&text, Engine::Native);
        assert_eq!((counted, &interpreted.2), (0, &None), "{query}");
        assert_eq!(interpreted, run(&text, Engine::Interpreter), "{query}");
    }
}

/// A query over every square of a board, `value(g(x, y))` with `x` and
/// `y` its loops' names (or turned, `g(y, x)`, or over a triangle): the
/// query is compiled, however its inner range is written, and the
/// rectangle is swept first, as a table's is, rather than each square
/// run alone once the ones below it have values. The counts agree with
/// a direct computation and with the interpreter.
#[test]
fn a_query_over_a_rectangle_sweeps_it_first() {
    const N: usize = 300;
    let steps = [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)];
    let mut g = vec![[0u8; N]; N];
    for x in 0..N {
        for y in 0..N {
            let options: Vec<u8> = (steps.iter())
                .filter(|(dx, dy)| *dx <= x && *dy <= y)
                .map(|(dx, dy)| g[x - dx][y - dy])
                .collect();
            g[x][y] = (0..).find(|v| !options.contains(v)).unwrap();
        }
    }
    let game = "let DIRS = [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]\n\
                game kk(x, y) { move go((dx, dy) in DIRS) if dx <= x and dy <= y -> kk(x - dx, y - dy) }\n";
    for (query, count) in [
        (
            format!("len([1 for x in 0..{N} for y in 0..{N} if value(kk(x, y)) == 0])"),
            (0..N)
                .flat_map(|x| (0..N).map(move |y| (x, y)))
                .filter(|(x, y)| g[*x][*y] == 0)
                .count(),
        ),
        (
            format!(
                "len([1 for y in 0..{N} for x in 0..{} if value(kk(x, y)) == 1])",
                N / 2
            ),
            (0..N)
                .flat_map(|y| (0..N / 2).map(move |x| (x, y)))
                .filter(|(x, y)| g[*x][*y] == 1)
                .count(),
        ),
        // A triangle: the inner range ends where the outer name is.
        (
            format!("len([1 for x in 0..{N} for y in 0..=x if value(kk(x, y)) == 0])"),
            (0..N)
                .flat_map(|x| (0..=x).map(move |y| (x, y)))
                .filter(|(x, y)| g[*x][*y] == 0)
                .count(),
        ),
    ] {
        let text = format!("{game}{query}\n");
        let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
        Engine::Native.apply(&mut session.machine);
        // Compiled as `grundy run` compiles it: when it is long enough.
        session.machine.native_after = grundy::runtime::NATIVE_AFTER;
        assert_eq!(session.run("board.game", &text).error, None);
        let runs = session.machine.kernel_runs;
        assert!(
            runs < (N * N / 20) as u64,
            "{runs} squares run one at a time: {query}"
        );
        assert_eq!(session.machine.queries_compiled, 1, "{query}");
        assert_eq!(
            run_big(&text, Engine::Native),
            format!("{count}\n"),
            "{query}"
        );
    }
    agree(&format!(
        "{game}len([1 for y in 0..40 for x in 0..30 if value(kk(x, y)) == 0])\n"
    ));
}

/// A query asking a game's positions in turn, each once those below it
/// have values, sweeps the positions ahead rather than run each alone:
/// under 2,000 runs for 200,000 positions (every one of them before),
/// and nothing past the query's range.
#[test]
fn a_query_over_positions_in_turn_sweeps_ahead() {
    let game = "game g(n) {\n move take(k in {1, 3, 4}) if n - k >= 0 -> g(n - k)\n}\n";
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    let first = format!("{game}print(len([n for n in 0..200000 if value(g(n)) == 0]))\n");
    assert_eq!(session.run("turn.game", &first).error, None);
    let runs = session.machine.kernel_runs;
    assert!(runs < 2_000, "{runs} positions run one at a time");
    // Nothing past the range is swept (the proper-divisor game's
    // positions grow dearer with n: sweeping twice as far cost 3.5x).
    let graph = &session.machine.graph;
    let value = |n: i64| graph.find_ints(0, &[n]).map(|node| graph.value(node));
    assert!(value(199_999).is_some_and(|v| v < 4));
    assert_eq!(value(200_000), None);
    let second = "len([n for n in 400000..400300 if value(g(n)) == 0])\n";
    assert_eq!(session.run("more.game", second).error, None);
    // The subtraction game {1, 3, 4} has period 7, losing at 0 and 2.
    let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
    assert_eq!(printed, "57144\n86\n");
    assert_eq!(session.machine.queries_compiled, 2);
}

/// A game whose moves go to another, `h(n)` to `g(n - k)`, asked in
/// turn: the positions of `g` its sweep needs are swept first, so `h` is
/// swept too rather than run one position at a time; and a target with
/// an `if` among its terms (`g(n - k) + (if k % 2 == 0 then *1 else
/// *0)`) is one move per branch, compiled. The values are checked against
/// the definitions, computed here.
#[test]
fn a_game_read_by_one_asked_in_turn_is_swept_first() {
    const N: usize = 200_000;
    let mut g = vec![0u8; N];
    for n in 0..N {
        let options: Vec<u8> = [1, 3, 4]
            .iter()
            .filter(|&&k| k <= n)
            .map(|k| g[n - k])
            .collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let mex = |options: Vec<u8>| (0..).find(|v| !options.contains(v)).unwrap();
    let h = |n: usize, odd: bool| {
        let bonus = |k: usize| u8::from(odd && k.is_multiple_of(2));
        mex((1..=5)
            .filter(|&k| k <= n)
            .map(|k| g[n - k] ^ bonus(k))
            .collect())
    };
    let game = "game g(n) {\n move take(k in {1, 3, 4}) if n - k >= 0 -> g(n - k)\n}\n\
                game h(n) {\n move first(k in 1..=5) if k <= n -> g(n - k)\n}\n\
                game o(n) {\n move first(k in 1..=5) if k <= n -> g(n - k) + (if k % 2 == 0 then *1 else *0)\n}\n";
    for (id, name, odd) in [(1, "h", false), (2, "o", true)] {
        let out = SharedBuffer::default();
        let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
        Engine::Native.apply(&mut session.machine);
        let text = format!("{game}print(sum([value({name}(n)) for n in 0..{N}]))\n");
        assert_eq!(session.run("turn.game", &text).error, None);
        let runs = session.machine.kernel_runs;
        assert!(runs < 2_000, "{name}: {runs} positions run one at a time");
        let report = grundy::explain::game(&session.machine.game_ir(id), &session.machine.defs);
        assert!(report.native, "{name}: machine code");
        let expected: u64 = (0..N).map(|n| u64::from(h(n, odd))).sum();
        let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
        assert_eq!(printed, format!("{expected}\n"), "{name}");
    }
    let small = format!("{game}[value(h(n)) for n in 0..40]\n[value(o(n)) for n in 0..40]\n");
    agree(&small);
}

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

/// A race up to a bound, asked at 0: the search climbs, each position
/// waiting for the one above it, and once it has climbed 64 the positions
/// from a top found above down to it are run instead
/// (src/runtime/sweep/mod.rs, `sweep_up`). The values agree with the
/// interpreter and with the definition; an error partway up is the
/// interpreter's, met on the same play; and the search itself reaches
/// only a few of the positions.
#[test]
fn a_race_up_to_a_bound_is_swept_down_from_the_top() {
    const N: usize = 100_000;
    let mut g = vec![0u8; N + 4];
    for t in (0..=N).rev() {
        let options: Vec<u8> = [1, 2, 5]
            .iter()
            .filter(|&&k| t + k <= N)
            .map(|k| g[t + k])
            .collect();
        g[t] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let race =
        format!("game race(t) {{ move add(k in [1, 2, 5]) if t + k <= {N} -> race(t + k) }}\n");
    let text = format!("{race}value(race(0))\nvalue(race(7))\n");
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("race.game", &text).error, None);
    let reached = session.machine.graph.reached();
    assert!(reached < 1_000, "{reached} positions reached by the search");
    // The machine code sweeps them down, not the kernel's run one at a
    // time (100,000 runs).
    let runs = session.machine.kernel_runs;
    assert!(runs < 1_000, "{runs} positions run one at a time");
    let values = format!("{}\n{}\n", g[0], g[7]);
    assert_eq!(run_big(&text, Engine::Native), values);
    let small = "game race(t) { move add(k in [1, 2, 5]) if t + k <= 300 -> race(t + k) }\n\
                 [value(race(t)) for t in [0, 150, 299, 300]]\nvalue(race(0) + race(1))\n";
    agree(small);
    // Races whose moves the machine code sweeps down from a top, with
    // conditions beside the bound, a bound met in the middle, and a sum.
    for rules in [
        "move add(k in 1..=3) if t + k <= 3000 and (t + k) % 7 != 3 -> race(t + k)",
        "move add(k in [1, 4]) if t + k <= 3000 -> race(t + k)\n move jump if t % 5 == 0 and t + 9 <= 3000 -> race(t + 9)",
        "move add(k in 1..=2) if t + k <= 3000 -> race(t + k) + *(t % 3)",
        "move add(k in 1..=3) if t + k <= 3000 and t != 1700 -> race(t + k)",
    ] {
        agree(&format!(
            "game race(t) {{\n {rules}\n}}\n[value(race(t)) for t in [0, 1, 1000, 2999]]\n"
        ));
    }
    // A division by zero at 200, met on the play up from 0.
    let error = "game race(t) { move add(k in [1, 2]) if t + k <= 300 -> race(t + k + 0 / (t - 200)) }\n\
                 value(race(0))\n";
    same_error(error, "division by zero");
}

/// Tokens on a DAG given by adjacency lists that a `let` makes, the
/// edges going up: the search climbs from 0, and the probes for a top
/// past the last row (`ADJ[v]` out of range, which the compiled rules
/// leave to the interpreter) bound the search for it rather than end the
/// sweep. The `let` itself is made by machine code, and the values agree
/// with the definition and with the interpreter.
#[test]
fn a_dag_of_adjacency_lists_is_swept_down_from_its_last_row() {
    const N: usize = 30_000;
    let edge = |i: usize, j: usize| (i * 31 + j * 17) % 5 < 2;
    let mut g = vec![0u8; N];
    for v in (0..N).rev() {
        let options: Vec<u8> = (v + 1..N.min(v + 25))
            .filter(|&w| edge(v, w))
            .map(|w| g[w])
            .collect();
        g[v] = (0..).find(|x| !options.contains(x)).unwrap();
    }
    let rules = |n: usize| {
        format!(
            "let ADJ = [[j for j in i + 1..min({n}, i + 25) if (i * 31 + j * 17) % 5 < 2] for i in 0..{n}]\n\
             game walk(v) {{ move go(w in ADJ[v]) -> walk(w) }}\n"
        )
    };
    let text = format!("{}value(walk(0))\nvalue(walk(1) + walk(2))\n", rules(N));
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("dag.game", &text).error, None);
    assert_eq!(session.machine.queries_compiled, 1, "the `let` of ADJ");
    let reached = session.machine.graph.reached();
    assert!(reached < 2_000, "{reached} positions reached by the search");
    let runs = session.machine.kernel_runs;
    assert!(runs < 2_000, "{runs} positions run one at a time");
    let values = format!("{}\n{}\n", g[0], g[1] ^ g[2]);
    assert_eq!(run_big(&text, Engine::Native), values);
    agree(&format!(
        "{}[value(walk(v)) for v in [0, 5, 299]]\n",
        rules(300)
    ));
}

/// `%` and `/` by a divisor that stays while the innermost loop runs (a
/// parameter, or an outer binder in a comprehension's condition): the
/// machine code divides by multiplying with a reciprocal it keeps, and
/// must agree with the interpreter for divisors 1, large, and negative,
/// and for negative or large dividends.
#[test]
fn division_by_a_divisor_a_loop_keeps_agrees_on_every_path() {
    let params = "[(n, m) for n in [0, 5, 40] for m in [1, 2, 3, 7, -1, -4, 65536, 2147483647, -2147483647]]";
    for rules in [
        "move t(k in 1..=n) if (k * 7 - 20) % m == 3 or (k - 20) / m == 2 -> h(n - k, m)",
        "move t(k in 1..=n) if (k * 4294967299) % m < (k * 4294967299) / m % 5 -> h(n - k, m)",
        "move t(k in 1..=n) -> h(n - k, m) + *(len([j for j in 0..k if (j - 3) % m == 0]) % 4)",
    ] {
        agree(&format!(
            "game h(n, m) {{\n {rules}\n}}\n[value(h(n, m)) for (n, m) in {params}]\n"
        ));
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
fn a_lower_max_depth_is_met_alike_by_every_path() {
    // Calls inlined into the rules, unrolled in a function's body, and
    // made by the compiled code all count towards --max-depth, as the
    // interpreter counts them: no path may give a value where it stops.
    let files = [
        // A recursion, unrolled into the rules and then called.
        "fn f(n) = if n == 0 then 0 else 1 + f(n - 1)\n\
         game g(n) {\n move t(k in 1..=n) if f(k * 7) % 2 == 1 -> g(n - k)\n}\n\
         value(g(30))\n",
        // Helpers that call one another, not themselves.
        "fn a(n) = n + 1\nfn b(n) = a(n) * 2\nfn c(n) = b(n) - a(n)\n\
         game g(n) {\n move t(k in 1..=3) if k <= n and c(k) > 0 -> g(n - k)\n}\n\
         value(g(40))\n",
        // Calls in a top-level query.
        "fn f(n) = if n == 0 then 0 else 1 + f(n - 1)\n\
         game g(n) {\n move t(k in 1..=2) if k <= n -> g(n - k)\n}\n\
         sum([value(g(n)) for n in 0..300 if f(n) % 3 == 1])\n",
        // A result remembered from a shallow call, asked for again from
        // deep inside another recursion: there it is past the limit.
        "fn f(n) = if n <= 0 then 0 else 1 + f(n - 1)\n\
         fn g(n, d) = if d == 0 then f(n) else g(n, d - 1)\n\
         game h(n) {\n move t(k in 1..=2) if k <= n and f(150) + g(150, 100 + n) > 0 -> h(n - k)\n}\n\
         value(h(12))\n",
    ];
    for text in files {
        for depth in [
            1, 2, 3, 4, 5, 19, 20, 21, 40, 100, 203, 204, 205, 250, 260, 270, 290, 300, 301,
        ] {
            let interpreted = run_at_depth(text, Engine::Interpreter, depth);
            for engine in [Engine::Kernels, Engine::Native] {
                let compiled = run_at_depth(text, engine, depth);
                assert_eq!(
                    compiled, interpreted,
                    "{engine:?} at depth {depth}:\n{text}"
                );
            }
        }
    }
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

#[test]
fn a_sweep_reads_the_options_beside_its_position_across_page_boundaries() {
    // The dense table's pages hold 65,536 slots; a sweep reads an option
    // in its position's page directly, and one in the page before
    // through the table. Values straight from the definition: options
    // n - k for k in {1, 2, 5, 9}, and n / 3 when n is odd.
    let top = 3 * 65_536 + 100;
    let mut v = vec![0usize; top + 1];
    for n in 0..=top {
        let mut seen = [false; 8];
        for k in [1, 2, 5, 9] {
            if k <= n {
                seen[v[n - k]] = true;
            }
        }
        if n % 2 == 1 {
            seen[v[n / 3]] = true;
        }
        v[n] = seen.iter().position(|s| !s).unwrap();
    }
    let weighted: usize = (0..=top).map(|n| v[n] * (n % 11 + 1)).sum();
    let near = |from: usize| {
        let items: Vec<String> = (from..from + 12).map(|n| v[n].to_string()).collect();
        format!("[{}]", items.join(", "))
    };
    let text = format!(
        "game g(n) {{\n move take(k in [1, 2, 5, 9]) if k <= n -> g(n - k)\n \
         move third if n % 2 == 1 -> g(n / 3)\n}}\nvalue(g({top}))\n\
         sum([value(g(n)) * (n % 11 + 1) for n in 0..={top}])\n\
         [value(g(n)) for n in 65530..65542]\n[value(g(n)) for n in 131066..131078]\n"
    );
    let expected = format!(
        "{}\n{weighted}\n{}\n{}\n",
        v[top],
        near(65_530),
        near(131_066)
    );
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_big(&text, engine), expected, "{engine:?}");
    }
}

#[test]
fn a_square_swept_reads_the_options_beside_its_position_in_its_row_only() {
    // A position (a, b) reads (a, b - 1) in its own row directly, and
    // (a - 1, b - 1) and (a - 2, b) through the table. Values straight
    // from the definition.
    let side = 400;
    let mut v = vec![vec![0usize; side + 1]; side + 1];
    for a in 0..=side {
        for b in 0..=side {
            let mut seen = [false; 4];
            if b > 0 {
                seen[v[a][b - 1]] = true;
            }
            if a > 0 && b > 0 {
                seen[v[a - 1][b - 1]] = true;
            }
            if a > 1 {
                seen[v[a - 2][b]] = true;
            }
            v[a][b] = seen.iter().position(|s| !s).unwrap();
        }
    }
    let weighted: usize = (0..=side)
        .flat_map(|a| (0..=side).map(move |b| (a, b)))
        .map(|(a, b)| v[a][b] * (a + 2 * b + 1))
        .sum();
    let text = format!(
        "game g(a, b) {{\n move r if b > 0 -> g(a, b - 1)\n \
         move d if a > 0 and b > 0 -> g(a - 1, b - 1)\n move u if a > 1 -> g(a - 2, b)\n}}\n\
         value(g({side}, {side}))\n\
         sum([value(g(a, b)) * (a + 2 * b + 1) for a in 0..={side} for b in 0..={side}])\n"
    );
    let expected = format!("{}\n{weighted}\n", v[side][side]);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_big(&text, engine), expected, "{engine:?}");
    }
}

/// Runs `text` with the default limits; what it printed (it must not fail).
fn run_big(text: &str, engine: Engine) -> String {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    engine.apply(&mut session.machine);
    session.machine.start_clock();
    let outcome = session.run("big.game", text);
    let text = |b: &SharedBuffer| String::from_utf8(b.0.borrow().clone()).unwrap();
    assert_eq!(outcome.error, None, "{}", text(&err));
    text(&out)
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
fn values_past_a_thousand_agree_on_every_path() {
    // Values about n / 2: past the mex's first marks, which grow to hold
    // them rather than leave each position to the kernel's own run.
    let text = "game g(n) {\n move m(k in 1..=n) if k == 1 or k % 2 == 0 -> g(n - k)\n}\n\
                print(max([value(g(n)) for n in 0..2900]))\nvalue(g(2899))\n";
    assert_eq!(agree(text), "1450\n1450\n");
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

/// Runs `text` on the machine code with at most `max_states` positions,
/// and returns the session, whose graph and counters the caller reads.
fn run_within(text: &str, max_states: usize) -> Session {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    session.machine.limits.max_states = max_states;
    assert_eq!(session.run("sparse.game", text).error, None, "{text}");
    session
}

#[test]
fn a_sparse_game_is_searched_not_swept_through() {
    // From a position just above a missing option, a sweep would value
    // every position below it; these reach a handful. A bitmask losing a
    // bit a move (the value is the parity of the bits), and two heaps in
    // a list that each move lowers by at most its last two digits.
    for (text, value) in [
        (
            "game coins(m) { move take(i in 0..40) if (m >> i) & 1 == 1 -> coins(m ^ (1 << i)) }\n\
             value(coins(2 ** 30 + 2 ** 20 + 1))\n",
            "1",
        ),
        (
            "game g(hs) { move down(i in 0..len(hs), d in 1..=hs[i] % 100) -> g(hs[:i] + [hs[i] - d] + hs[i + 1:]) }\n\
             value(g([2002, 3002])) + value(g([2002, 3001]))\n",
            "3",
        ),
    ] {
        let session = run_within(text, 200_000);
        let held = session.machine.graph.len();
        assert!(held < 1_000, "{held} positions held for {text}");
        assert_eq!(run_big(text, Engine::Native).trim(), value);
        assert_eq!(run_big(text, Engine::Interpreter).trim(), value);
    }
}

#[test]
fn a_gap_left_by_an_earlier_query_does_not_stop_the_sweep() {
    // `sub(10)` values 10, 8, 5, ... but not 9 or 7; asked next, the chain
    // below 200,000 is swept from the lowest position without a value,
    // not descended one position at a time (200,000 runs).
    const N: usize = 200_000;
    let mut g = vec![0u64; N + 1];
    for n in 0..=N {
        let options: Vec<u64> = [2, 5]
            .iter()
            .filter(|&&k| k <= n)
            .map(|k| g[n - k])
            .collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let text = format!(
        "game sub(n) {{ move take(k in [2, 5]) if k <= n -> sub(n - k) }}\n\
         value(sub(10))\nvalue(sub({N}))\nvalue(sub({}))\n",
        N - 3
    );
    let session = run_within(&text, 1_000_000);
    let runs = session.machine.kernel_runs;
    assert!(runs < 10_000, "{runs} positions run one at a time");
    let values = format!("{}\n{}\n{}\n", g[10], g[N], g[N - 3]);
    assert_eq!(run_big(&text, Engine::Native), values);
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
