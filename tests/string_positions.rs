//! Games whose positions are strings, compiled (a string is the code
//! points of its characters, src/graph/flat.rs; src/runtime/kernel/seq/):
//! random rule files run with the interpreter, the kernels and the
//! machine code must print and report the same, and the compiled paths
//! must take them.

mod common;

use common::differ::{agree, compare, runs_compiled_throughout, same_error};
use proptest::prelude::*;

/// A guard beside `s[i] == "H"`: characters compared with literals and
/// with each other, `in`, slices and whole strings compared, and some
/// that read past the end (an error on every path).
fn guard() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        " and s[i - 1] != \"H\"",
        " and (i == 0 or s[i - 1] < \"I\")",
        " and \"T\" in s",
        " and s[i:] != \"HT\"",
        " and len(s) > 2",
        " and s[i] in \"HX\"",
        " and s != \"HHH\"",
        " and s[i + 1] == \"T\"",
        " and s[0] <= s[i]",
        " and s[-1] not in \"Té\"",
        " and s[:2] == s[i:i + 2]",
        " and not (\"HH\" in s[:i] + \"T\" + s[i + 1:])",
        " and \"TéT\" not in s",
        " and s[i:i + 2] in \"HTHHé\"",
        " and \"\" in s[i + 1:]",
        " and len([c for c in s if c == \"H\"]) > 1",
        " and sum([1 for c in s[i:] if c != \"T\"]) < 3",
        " and any([c == \"é\" for c in s])",
        " and len([s for c in s[:i] if c < \"T\"]) != 1",
        " and len([k for (k, d) in enumerate(s) if d == \"H\" and k > i]) < 2",
    ])
    .prop_map(str::to_string)
}

/// One move of `r(s)`, at an `H` at index `i` (and, for some targets, an
/// index `j` below it). Each target turns an `H` into something of fewer
/// `H`s or shortens the string, or turns the `H` at `i` to `T` and flips
/// one coin below it (a binary number of `H`s that falls), so that every
/// play ends.
fn rule() -> impl Strategy<Value = String> {
    let target = prop::sample::select(vec![
        ("r(s[:i] + \"T\" + s[i + 1:])", false),
        ("r(s[:i] + s[i + 1:])", false),
        ("r(flip(s, i))", false),
        ("r(flip(flip(s, i), j))", true),
        ("r(s[:i] + \"T\" + s[i + 1:]) + r(s[i + 1:])", false),
        ("r(s[:i] + s[i + 1:i + 2] + \"T\" + s[i + 2:])", false),
        ("r(s[:i] + s[i + 1] + \"T\" + s[i + 2:])", false),
        (
            "r(s[:i] + (if s[j] == \"T\" then \"é\" else \"TT\") + s[i + 1:])",
            true,
        ),
        ("r(s[:i] + \"T\" + s[i + 1:]) + *(len(s) - i)", false),
        ("r(s[:i] + \"T\" * (i % 2) + s[i + 1:])", false),
    ]);
    // The index and its character as a binder of its own, or enumerated.
    let binder = prop::sample::select(vec![
        ("i in 0..len(s)", "s[i] == \"H\""),
        ("(i, c) in enumerate(s)", "c == \"H\""),
        (
            "(i, c) in enumerate(s)",
            "s[i] == c and c != \"T\" and c != \"é\"",
        ),
    ]);
    (target, guard(), binder).prop_map(|((target, j), guard, (binder, head))| {
        let j = if j { ", j in 0..i" } else { "" };
        format!("({binder}{j}) if {head}{guard} -> {target}")
    })
}

fn string_file() -> impl Strategy<Value = String> {
    let start = prop::collection::vec(prop::sample::select(vec!['H', 'T', 'é']), 0..7);
    (prop::collection::vec(rule(), 1..=3), start).prop_map(|(rules, start)| {
        let moves: String = (rules.iter().enumerate())
            .map(|(i, r)| format!("    move m{i}{r}\n"))
            .collect();
        let start: String = start.into_iter().collect();
        format!(
            "fn flip(s, i) = s[:i] + (if s[i] == \"H\" then \"T\" else \"H\") + s[i + 1:]\n\
             game r(s) {{\n{moves}}}\nvalue(r(\"{start}\"))\nvalue(r(\"HTHHTH\"))\n\
             [value(r(w)) for w in [\"\", \"H\", \"T\", \"HH\", \"HTH\", \"THHT\", \"HéH\"]]\n\
             moves(r(\"HHH\"))\nvalue(r([\"H\", \"H\"]))\n"
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The last query gives a list of strings where the rules take a
    /// string: an error (or not) the same whichever path runs it.
    #[test]
    fn string_position_games_agree_with_the_interpreter(file in string_file()) {
        compare(&file)?;
    }
}

/// Turning coins: a head turned to tails, and perhaps any one coin to
/// its left turned over too (a helper called on its own result, so a
/// string is held by a `let`). A head alone at index k can go to no head
/// or to one at any index below: it is worth k + 1, and a row the
/// nim-sum of its heads' values (the coin-turning theorem of Winning
/// Ways, ch. 14). The same game is also written on integers.
#[test]
fn turning_coins_on_a_string_has_the_values_of_its_bitmask_twin() {
    let strings = "fn flip(s, i) = s[:i] + (if s[i] == \"H\" then \"T\" else \"H\") + s[i + 1:]\n\
                   game row(s) {\n\
                   \x20   move one(i in 0..len(s)) if s[i] == \"H\" -> row(flip(s, i))\n\
                   \x20   move two(i in 0..len(s), j in 0..i) if s[i] == \"H\" -> row(flip(flip(s, i), j))\n\
                   }\n\
                   fn word(b, n) = if n == 0 then \"\" else word(b, n - 1) + (if (b >> (n - 1)) & 1 == 1 then \"H\" else \"T\")\n\
                   [value(row(word(b, 6))) for b in 0..64]\n";
    let masks = "game bits(b) {\n\
                 \x20   move one(i in 0..6) if (b >> i) & 1 == 1 -> bits(b ^ (1 << i))\n\
                 \x20   move two(i in 0..6, j in 0..i) if (b >> i) & 1 == 1 -> bits(b ^ (1 << i) ^ (1 << j))\n\
                 }\n\
                 [value(bits(b)) for b in 0..64]\n";
    let values = agree(strings);
    assert_eq!(values, agree(masks));
    let theorem: Vec<String> = (0..64u32)
        .map(|b| {
            (0..6)
                .filter(|k| b >> k & 1 == 1)
                .fold(0, |v, k| v ^ (k + 1))
                .to_string()
        })
        .collect();
    assert_eq!(values, format!("[{}]\n", theorem.join(", ")));
    let explained = common::explained(strings);
    assert!(
        explained.contains("row(s): compiled to machine code"),
        "{explained}"
    );
}

/// A string reached by a move and one given in a query are one position;
/// the list of its characters is another, and a string's characters are
/// no integers.
#[test]
fn a_string_is_one_position_and_no_list() {
    let text = "game r(s) { move take(i in 0..len(s)) if s[i] == \"H\" -> r(s[:i] + s[i + 1:]) }\n\
                game h(n) { move to -> r(\"HH\") }\n\
                value(r(\"HHH\"))\nvalue(h(0))\nvalue(r(\"HH\") + r(\"H\"))\nvalue(r([\"H\", \"H\"]))\n";
    assert_eq!(agree(text), "1\n1\n1\n0\n");
    let sum =
        "game r(s) { move take(i in 0..len(s)) if s[i] + 1 > 0 -> r(s[:i]) }\nvalue(r(\"ab\"))\n";
    same_error(sum, "cannot be applied");
}

/// Placing an X on a dot of a strip so that no two X's touch is Node
/// Kayles on a path, Dawson's chess (octal 0.137): written on a string
/// with `"XX" in ...`, its values are those of the same game on the
/// lengths of the free runs, and the published sequence (OEIS A002187),
/// and the string game runs as machine code.
#[test]
fn a_substring_guard_plays_dawsons_chess() {
    let strings = "game row(s) {\n\
                   \x20   move put(i in 0..len(s)) if s[i] == \".\" and not (\"XX\" in s[:i] + \"X\" + s[i + 1:]) -> row(s[:i] + \"X\" + s[i + 1:])\n\
                   }\n\
                   [value(row(\".\" * n)) for n in 0..14]\n";
    let runs = "game nk(n) { move pick(i in 0..n) -> nk(max(0, i - 1)) + nk(max(0, n - i - 2)) }\n\
                [value(nk(n)) for n in 0..14]\n";
    let values = agree(strings);
    assert_eq!(values, agree(runs));
    assert_eq!(values, "[0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4]\n");
    let explained = common::explained(strings);
    assert!(
        explained.contains("row(s): compiled to machine code"),
        "{explained}"
    );
}

/// Characters counted with a comprehension over a string: a dot may be
/// taken while fewer than half the cells are taken. The string game and
/// the same game on (cells, taken) agree, and the string game compiles.
#[test]
fn characters_counted_by_a_comprehension_compile() {
    let strings = "fn xs(s) = len([c for c in s if c == \"X\"])\n\
                   game half(s) {\n\
                   \x20   move put(i in 0..len(s)) if s[i] == \".\" and 2 * xs(s) < len(s) -> half(s[:i] + \"X\" + s[i + 1:])\n\
                   }\n\
                   [value(half(\".\" * n)) for n in 0..9]\n";
    let counts = "game half(n, x) { move put(i in 0..n - x) if 2 * x < n -> half(n, x + 1) }\n\
                  [value(half(n, 0)) for n in 0..9]\n";
    assert_eq!(agree(strings), agree(counts));
    let explained = common::explained(strings);
    assert!(
        explained.contains("half(s): compiled to machine code"),
        "{explained}"
    );
}

/// `(i, c) in enumerate(s)` of a string, as a binder and in a
/// comprehension: read by index (`i in 0..len(s)`, `s[i]` for `c`), it
/// compiles, and plays as the spelling with the index alone.
#[test]
fn a_string_enumerated_compiles_and_agrees_with_the_index_spelling() {
    let enumerated = "fn heads(s) = len([i for (i, c) in enumerate(s) if c == \"H\"])\n\
                      game r(s) {\n\
                      \x20   move turn((i, c) in enumerate(s)) if c == \"H\" and heads(s) > 0 -> r(s[:i] + \"T\" + s[i + 1:])\n\
                      \x20   move cut((i, c) in enumerate(s)) if c == \"T\" and i > 0 -> r(s[:i])\n\
                      }\n\
                      [value(r(\"H\" * n + \"T\")) for n in 0..7]\nmoves(r(\"HTH\"))\n";
    let indexed = "fn heads(s) = len([i for i in 0..len(s) if s[i] == \"H\"])\n\
                   game r(s) {\n\
                   \x20   move turn(i in 0..len(s)) if s[i] == \"H\" and heads(s) > 0 -> r(s[:i] + \"T\" + s[i + 1:])\n\
                   \x20   move cut(i in 0..len(s)) if s[i] == \"T\" and i > 0 -> r(s[:i])\n\
                   }\n\
                   [value(r(\"H\" * n + \"T\")) for n in 0..7]\n";
    let printed = agree(enumerated);
    assert!(printed.starts_with(&agree(indexed)), "{printed}");
    assert!(printed.contains("turn(i=0, c=\"H\")"), "{printed}");
    runs_compiled_throughout(enumerated);
    let explained = common::explained(enumerated);
    assert!(
        explained.contains("r(s): compiled to machine code"),
        "{explained}"
    );
}

/// A parameter that holds a state's name, compared whole with strings
/// and passed strings written out (`st("down", n - k)`), is a string:
/// the rules compile, and play as the same game with the states
/// numbered.
#[test]
fn a_states_name_as_a_parameter_compiles_and_agrees_with_numbered_states() {
    let named = "game st(s, n) {\n\
                 \x20   move a(k in 1..=2) if s == \"up\" and n >= k -> st(\"down\", n - k)\n\
                 \x20   move b if \"down\" == s and n > 0 -> st(\"up\", n - 1)\n\
                 \x20   move c if s != \"up\" and n % 3 == 0 and n > 2 -> st(\"up\", n - 3)\n\
                 }\n\
                 [value(st(\"up\", n)) + 2 * value(st(\"down\", n)) for n in 0..40]\n";
    let numbered = "game st(s, n) {\n\
                    \x20   move a(k in 1..=2) if s == 0 and n >= k -> st(1, n - k)\n\
                    \x20   move b if 1 == s and n > 0 -> st(0, n - 1)\n\
                    \x20   move c if s != 0 and n % 3 == 0 and n > 2 -> st(0, n - 3)\n\
                    }\n\
                    [value(st(0, n)) + 2 * value(st(1, n)) for n in 0..40]\n";
    assert_eq!(agree(named), agree(numbered));
    runs_compiled_throughout(named);
}
