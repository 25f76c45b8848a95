//! Games whose positions are sets of integers, compiled
//! (src/runtime/kernel/seq/sets.rs): random rule files run with the
//! interpreter, the kernels and the machine code must print and report
//! the same, and the compiled paths must take them.

mod common;

use common::differ::{agree, compare, same_error};
use proptest::prelude::*;

/// A guard over `x`, `d` and the set `xs`.
fn guard() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        " and x + d not in xs",
        " and len(xs) > 2",
        " and x - d in {0, 2, 3, 7}",
        " and min(xs) < x",
        " and x != max(xs)",
        " and xs[0] + xs[-1] > d",
        " and all([y != x + 1 for y in xs])",
        // Sets compared whole.
        " and xs - {x} != {y for y in xs if y > x}",
        " and (xs & {1, 2, 3} == {} or d == 1)",
    ])
    .prop_map(str::to_string)
}

/// One move of `s(xs)`. Each target lowers the sum of the set's items,
/// or keeps it and makes the set smaller, so every play ends.
fn set_rule() -> impl Strategy<Value = String> {
    let target = prop::sample::select(vec![
        "s(xs - {x})",
        "s(xs - {x} | {x - d})",
        "s(xs ^ {x, x - d})",
        "s(xs & {y for y in 0..x})",
        "s(xs - {y for y in xs if y % x == 0})",
        "s(xs - {x} - R[x % 3])",
        "s(xs - {x}) + s({x - d, d - 1})",
        "s(xs - {x}) + *(len(xs) * d)",
        "s(set([y - 1 for y in xs if y > 0]))",
        "s((xs - {x, x - d}) | set(sorted([x - d, d - 1])) - {x})",
    ]);
    (target, guard())
        .prop_map(|(target, guard)| format!("(x in xs, d in 1..=2) if d <= x{guard} -> {target}"))
}

fn set_file() -> impl Strategy<Value = String> {
    let start = prop::collection::btree_set(0i64..9, 0..6);
    (prop::collection::vec(set_rule(), 1..=3), start).prop_map(|(rules, start)| {
        let moves: String = (rules.iter().enumerate())
            .map(|(i, r)| format!("    move m{i}{r}\n"))
            .collect();
        let start: Vec<String> = start.iter().map(i64::to_string).collect();
        format!(
            "let R = [{{1, 2}}, {{0, 5, 8}}, {{3}}]\ngame s(xs) {{\n{moves}}}\nvalue(s({{{}}}))\nvalue(s({{1, 4, 6, 7}}))\n\
             [value(s({{a, b}})) for a in 0..4 for b in 0..4]\n\
             value(s([2, 1]))\n",
            start.join(", ")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The last query gives a list where the rules take a set: an error
    /// (or not) the same whichever path runs it.
    #[test]
    fn set_position_games_agree_with_the_interpreter(file in set_file()) {
        compare(&file)?;
    }
}

/// A game that removes a number and its multiples from a set, its values
/// checked against the same game played on a bitmask.
#[test]
fn a_set_game_has_the_values_of_its_bitmask_twin() {
    let sets = "game m(xs) { move pick(x in xs) -> m(xs - {y for y in xs if y % x == 0}) }\n\
                [value(m(set(2..=k))) for k in 2..=12]\n";
    let masks = "fn gone(b, x, k) = if k > 12 then b else \
                 gone(if k % x == 0 then b & ~(1 << k) else b, x, k + 1)\n\
                 game m(b) { move pick(x in 2..=12) if (b >> x) & 1 == 1 -> m(gone(b, x, x)) }\n\
                 [value(m((1 << (k + 1)) - 4)) for k in 2..=12]\n";
    let values = agree(sets);
    assert_eq!(values, agree(masks));
    // {2}, {2, 3} and {2, 3, 4}, worked by hand.
    assert!(values.starts_with("[1, 0, 3, "), "{values}");
}

/// A set's positions are kept by their items, so a set reached by a
/// move, one given in a query and one made by another game are the same
/// position; a list of the same items is another.
#[test]
fn a_set_reached_by_any_path_is_one_position() {
    let text = "game s(xs) { move take(x in xs) -> s(xs - {x}) }\n\
                game h(n) { move to -> s({1, 2, 3}) }\n\
                value(s({3, 2, 1}))\nvalue(h(0))\nvalue(s({1, 2}) + s({5}))\n";
    assert_eq!(agree(text), "1\n0\n1\n");
    // `-` of a list and a set is an error, reported alike by every path.
    let list = "game s(xs) { move take(x in xs) -> s(xs - {x}) }\nvalue(s([1, 2]))\n";
    same_error(list, "cannot be applied");
}

/// Node Kayles on a path, its neighbourhoods a constant list of sets
/// (`alive - NB[v]`, a row of constant sets): the values of Dawson's
/// chess (OEIS A002187), and every position left to compiled rules.
#[test]
fn node_kayles_with_a_constant_list_of_sets_is_compiled() {
    let text = "let N = 14\n\
                let NB = [{v - 1, v, v + 1} & set(0..N) for v in 0..N]\n\
                game nk(alive) { move pick(v in alive) -> nk(alive - NB[v]) }\n\
                [value(nk(set(0..m))) for m in 0..=N]\n";
    assert_eq!(
        agree(text),
        "[0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0]\n"
    );
    let explained = common::explained(text);
    assert!(
        explained.contains("nk(alive): compiled to machine code"),
        "{explained}"
    );
}
