//! Games whose positions are lists or sets of strings (rows of a board,
//! a set of words), compiled: each string of at most nine ASCII
//! characters packed into one item (src/graph/flat/mod.rs, `pack_word`;
//! src/runtime/kernel/seq/types/words.rs). Random rule files run with
//! the interpreter, the kernels and the machine code must print and
//! report the same, strings too long or past ASCII included (the
//! compiled rules leave those to the interpreter), and the compiled
//! paths must take the games.

mod common;

use common::differ::{agree, compare};
use proptest::prelude::*;

/// A guard beside `rows[y][x] == "."`: characters of rows, rows compared
/// and looked for, substrings, and reads past a row's end.
fn row_guard() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        " and (x == 0 or rows[y][x - 1] != \".\")",
        " and len(rows[y]) > 2",
        " and rows[y] != rows[0]",
        " and rows[y] not in rows[:y]",
        " and not (\"#.#\" in rows[y])",
        " and rows[y][x + 1] == \".\"",
        " and len([r for r in rows if r[0] == \"#\"]) < 2",
        " and y + 1 < len(rows) and rows[y + 1][x] == \".\"",
        " and rows[y][-1] == \".\"",
        " and rows[y][1:-1] != \"\"",
        " and rows[y][x:][0] == rows[y][-len(rows[y]) + x]",
    ])
    .prop_map(str::to_string)
}

/// One move of `b(rows)`, at a dot at `(x, y)`. Every target takes a dot
/// away (and may lengthen its row, past what packs, or put a character
/// past ASCII in it), so every play ends.
fn row_rule() -> impl Strategy<Value = String> {
    let target = prop::sample::select(vec![
        "b(rows[:y] + [rows[y][:x] + \"#\" + rows[y][x + 1:]] + rows[y + 1:])",
        "b(rows[:y] + [rows[y][:x] + \"##\" + rows[y][x + 1:]] + rows[y + 1:])",
        "b(rows[:y] + [rows[y][:x] + \"é\" + rows[y][x + 1:]] + rows[y + 1:])",
        "b(rows[:y] + rows[y + 1:]) + b([rows[y][x + 1:]])",
        "b(sorted(rows[:y] + [rows[y][:x]] + rows[y + 1:]))",
        "b(put(rows, y, x))",
        "b(put(put(rows, y, x), y, len(rows[y]) - 1 - x))",
        "b(rows[:y] + [rows[y][-len(rows[y]):x] + \"#\" + rows[y][x + 1:]] + rows[y + 1:])",
        "b(rows[:y] + [rows[y][x + 1:] + rows[y][:x]] + rows[y + 1:])",
    ]);
    (target, row_guard()).prop_map(|(target, guard)| {
        format!(
            "(y in 0..len(rows), x in 0..len(rows[y])) if rows[y][x] == \".\"{guard} -> {target}"
        )
    })
}

fn rows_file() -> impl Strategy<Value = String> {
    let row = prop::collection::vec(prop::sample::select(vec!['.', '#']), 0..6)
        .prop_map(|cs| cs.into_iter().collect::<String>());
    let start = prop::collection::vec(row, 0..4);
    (prop::collection::vec(row_rule(), 1..=3), start).prop_map(|(rules, start)| {
        let moves: String = (rules.iter().enumerate())
            .map(|(i, r)| format!("    move m{i}{r}\n"))
            .collect();
        let start: Vec<String> = start.iter().map(|r| format!("\"{r}\"")).collect();
        format!(
            "fn put(rows, y, x) = rows[:y] + [rows[y][:x] + \"#\" + rows[y][x + 1:]] + rows[y + 1:]\n\
             game b(rows) {{\n{moves}}}\nvalue(b([{}]))\nvalue(b([\"...\", \"..\"]))\n\
             [value(b(r)) for r in [[], [\"\"], [\".\"], [\"..\", \"#.\"], [\"....\"]]]\n\
             moves(b([\"..\"]))\n",
            start.join(", ")
        )
    })
}

/// One move of `w(ws)`, a set of words: a word picked, and words like it
/// leave the set.
fn word_rule() -> impl Strategy<Value = String> {
    let guard = prop::sample::select(vec![
        "",
        " if len(v) > 1",
        " if v[0] != v[-1]",
        " if \"a\" in v",
        " if v != \"fig\"",
        " if v[1:] not in ws",
    ]);
    let target = prop::sample::select(vec![
        "w(ws - {v})",
        "w({u for u in ws if u[0] != v[0]})",
        "w({u for u in ws if u != v and len(u) != len(v)})",
        "w(set([u for u in ws if u < v]))",
        "w({u[1:] for u in ws if u != v and len(u) > 1})",
    ]);
    (guard, target).prop_map(|(g, t)| format!("(v in ws){g} -> {t}"))
}

fn words_file() -> impl Strategy<Value = String> {
    let pool = vec![
        "fig", "figs", "apple", "pear", "pea", "a", "ab", "ba", "kiwi", "banana", "",
    ];
    let start = prop::sample::subsequence(pool, 0..8);
    (prop::collection::vec(word_rule(), 1..=2), start).prop_map(|(rules, start)| {
        let moves: String = (rules.iter().enumerate())
            .map(|(i, r)| format!("    move m{i}{r}\n"))
            .collect();
        let start: Vec<String> = start.iter().map(|w| format!("\"{w}\"")).collect();
        format!(
            "game w(ws) {{\n{moves}}}\nvalue(w({{{}}}))\n\
             value(w({{\"apple\", \"avocado\", \"banana\"}}))\nvalue(w({{\"longer than nine\", \"ok\"}}))\n",
            start.join(", ")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn games_on_rows_of_text_agree_with_the_interpreter(file in rows_file()) {
        compare(&file)?;
    }

    #[test]
    fn games_on_sets_of_words_agree_with_the_interpreter(file in words_file()) {
        compare(&file)?;
    }
}

/// A row that grows past nine characters (`"##"` put for one `.`) is no
/// longer packed into one item: the kernels leave it to the interpreter,
/// as they must, rather than place its tenth character past the word
/// (once an overflow in a debug build, found by the test above).
#[test]
fn a_row_grown_past_a_word_is_left_to_the_interpreter() {
    let file = "game b(rows) {\n    move m0(y in 0..len(rows), x in 0..len(rows[y])) \
                if rows[y][x] == \".\" -> b(rows[:y] + [rows[y][:x] + \"##\" + rows[y][x + 1:]] + rows[y + 1:])\n}\n\
                value(b([\".....\"]))\nvalue(b([\"...\", \"..\"]))\n\
                [value(b(r)) for r in [[], [\"\"], [\".\"], [\"..\", \"#.\"], [\"....\"]]]\n";
    assert_eq!(agree(file).lines().count(), 3);
}

/// Cram on rows of text and Cram on the set of its empty cells are one
/// game: their values agree on every board up to 3 x 4, and the rows'
/// game runs as machine code.
#[test]
fn cram_on_rows_of_text_is_cram_on_cells() {
    let rows = "fn put(rows, y, x) = rows[:y] + [rows[y][:x] + \"#\" + rows[y][x + 1:]] + rows[y + 1:]\n\
                game cram(rows) {\n\
                \x20   move horiz(y in 0..len(rows), x in 0..len(rows[y]) - 1) if rows[y][x] == \".\" and rows[y][x + 1] == \".\"\n\
                \x20       -> cram(put(put(rows, y, x), y, x + 1))\n\
                \x20   move vert(y in 0..len(rows) - 1, x in 0..len(rows[y])) if rows[y][x] == \".\" and rows[y + 1][x] == \".\"\n\
                \x20       -> cram(put(put(rows, y, x), y + 1, x))\n\
                }\n\
                [value(cram([\".\" * w for _ in 0..h])) for h in 1..=3 for w in 1..=4]\n";
    let cells = "game cram(c) {\n\
                 \x20   move horiz((x, y) in c) if (x + 1, y) in c -> cram(c - {(x, y), (x + 1, y)})\n\
                 \x20   move vert((x, y) in c) if (x, y + 1) in c -> cram(c - {(x, y), (x, y + 1)})\n\
                 }\n\
                 [value(cram({(x, y) for x in 0..w for y in 0..h})) for h in 1..=3 for w in 1..=4]\n";
    let values = agree(rows);
    assert_eq!(values, agree(cells));
    // 1 x n Cram is Dawson's Kayles (octal 0.07) on n pins: 0, 1, 1, 2
    // for n = 1..4 (the first row of the list).
    assert!(values.starts_with("[0, 1, 1, 2, "), "{values}");
    let explained = common::explained(rows);
    assert!(
        explained.contains("cram(rows): compiled to machine code"),
        "{explained}"
    );
    assert!(!explained.contains("ran in the interpreter"), "{explained}");
}

/// Pick a word; the words that share its first letter leave with it. The
/// set is played as a sum of one heap of one per first letter: its value
/// is the parity of the number of first letters. The rules read the
/// words only through `v[0]`, which could be a list's item as well as a
/// string's character: the set of words met types them, and the game
/// runs as machine code.
#[test]
fn a_set_of_words_is_typed_by_the_set_met() {
    let game = "game w(ws) {\n    move pick(v in ws) -> w({u for u in ws if u[0] != v[0]})\n}\n\
                value(w({\"apple\", \"avocado\", \"banana\", \"cherry\", \"cress\"}))\n\
                value(w({\"apple\", \"banana\", \"cherry\", \"date\", \"egg\", \"fig\"}))\n\
                value(w({\"ab\", \"ba\"}))\n";
    assert_eq!(agree(game), "1\n0\n0\n");
    let explained = common::explained(game);
    assert!(
        explained.contains("w(ws): compiled to machine code"),
        "{explained}"
    );
    assert!(!explained.contains("ran in the interpreter"), "{explained}");
}
