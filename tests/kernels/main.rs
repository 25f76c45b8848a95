//! Differential tests of the compiled rules (src/runtime/kernel/) against the
//! interpreter. Random integer games are written as rule files, with
//! binders over ranges and lists, guards of comparisons, `and`, `or`,
//! `not` and chains, arithmetic that can divide by zero or go negative,
//! local `let`s, calls of functions, and targets of one-, two- and
//! three-parameter games and Nim heaps, some computed with `if`. Each file
//! runs twice, with the kernels and without; what it prints and the
//! errors it reports must be the same.
//!
//! This file makes the random files; beside it, each module holds the
//! cases of one part of the engine.

#[path = "../common/mod.rs"]
mod common;

mod arith;
mod below;
mod bools;
mod calls;
mod chains;
mod coins;
mod counters;
mod displays;
mod divisors;
mod few;
mod filters;
mod inner;
mod joined;
mod kept;
mod lengths;
mod letters;
mod listing;
mod lists;
mod multiples;
mod picks;
mod queries;
mod quotients;
mod rows;
mod search;
mod spellings;
mod states;
mod sweeps;
mod tuples;
mod written;

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
        // Sums written as terms, a Nim heap among them.
        (n.clone(), expr(vec!["a"]), expr(vec!["a"])).prop_map(|(n, e, f)| format!(
            "len([a for a in 0..{n} if winner(g({e}) + h(a, {f}) + *(a % 3)) == \"second\"])"
        )),
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
        "table(g, 0..=12)\ntable(h, 0..=4, 0..=4)\nvalue(g(30) + h(7, 9))\nvalue(g(120))\n\
         moves(g(30) + h(7, 9) + *2)\nmoves(g(5))\nline(g(11) + h(3, 4))\nline(h(6, 5))\n",
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
/// Failures are kept in `main.proptest-regressions` beside this file: by
/// default proptest, finding `main.rs` here, would read and write
/// `tests/proptest-regressions/main.txt` instead, and the seeds kept
/// would not be run again.
fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        max_shrink_time: 120_000,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
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
        // The less or the greater of two lists, item by item.
        "l(min([p[0] - d, p[1]], [p[1], p[0] - d]))",
        "l(max((p[0] - d, p[1], 2), reversed([p[0] - d, p[1]])))",
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
        // Compared item by item: of other lengths, and a list beside a
        // tuple (the interpreter's error).
        " and p < reversed(p)",
        " and (p[:1] + [d] >= p[1:] or d == 2)",
        " and (p <= (d, d) or d == 1)",
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
             [value(l([a, b])) for a in 0..4 for b in 0..4]\n\
             moves(l([9, 7]))\nmoves(l((5, 6)) + l([3]))\n"
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
                 value(t(0, 13, 2) + g(5))\nmoves(t(5, 4, 6))\n"
            )
        })
}

/// The moves `m0`, `m1`, ... of game `game`, one for each guard and
/// target of `rules`, each with the binders `binders` and its guard
/// after `first` (a condition and `and`, or nothing).
fn guarded_moves(rules: &[(&str, &str)], binders: &str, first: &str, game: &str) -> String {
    let line = |(r, (guard, target)): (usize, &(&str, &str))| {
        format!("    move m{r}({binders}) if {first}({guard}) -> {game}({target})\n")
    };
    rules.iter().enumerate().map(line).collect()
}

/// The explanation of `text` run by machine code, checked to say `says`
/// and to have left no position to the interpreter.
fn compiled_as(text: &str, says: &[&str]) -> String {
    // `run` asserts the run did not fail.
    let (session, _) = Engine::Native.run("written.game", text);
    let told = session.explain(None).unwrap();
    for s in says {
        assert!(told.contains(s), "{s}: {told}");
    }
    let interpreted = session.machine.interpreted.first().copied().unwrap_or(0);
    assert_eq!(interpreted, 0, "{told}");
    told
}

/// What `text` prints, the same run by the interpreter, the kernels and
/// the machine code, with room for the default number of positions.
fn agree_big(text: &str) -> String {
    let interpreted = run_big(text, Engine::Interpreter);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_big(text, engine), interpreted, "{engine:?}: {text}");
    }
    interpreted
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

/// What `text` prints on its error stream, and the phase it failed in,
/// the same whichever engine runs it, and an error.
fn same_failure(text: &str) {
    let printed: Vec<(String, Option<Phase>)> =
        [Engine::Interpreter, Engine::Kernels, Engine::Native]
            .into_iter()
            .map(|engine| {
                let err = SharedBuffer::default();
                let mut session =
                    Session::new(Box::new(SharedBuffer::default()), Box::new(err.clone()));
                engine.apply(&mut session.machine);
                let outcome = session.run("fails.game", text);
                (
                    String::from_utf8(err.0.borrow().clone()).unwrap(),
                    outcome.error,
                )
            })
            .collect();
    assert!(printed[0].1.is_some(), "an error: {text}");
    assert!(printed.iter().all(|p| *p == printed[0]), "{printed:?}");
}
