//! Games whose positions are lists or sets of pairs of integers (tokens
//! on a board, a board's empty cells), compiled with each pair packed
//! into one integer (src/graph/flat.rs): random rule files run with the
//! interpreter, the kernels and the machine code must print and report
//! the same; hand-written ones must run compiled throughout, and agree
//! with twins written on integers.

mod common;

use common::Engine;
use common::differ::{agree, compare, machine_code_for, runs_compiled_throughout};
use proptest::prelude::*;

/// A guard of a move of `t(ps)` on the token `i`, lowered by `d`.
fn token_guard() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "",
        " and (ps[i][0] - d, ps[i][1]) not in ps",
        " and ps[i] != (d, d)",
        " and (1, 1) in ps",
        " and ps[i][1] % 2 == 0",
        " and len(ps) > 1",
        " and all([a + b > d for (a, b) in ps])",
        " and any([x == ps[i][1] for (x, y) in ps])",
        " and ps[-1][-1] >= d",
        " and ps[i] == (ps[i][0], d)",
    ])
}

/// One move of `t(ps)`: each lowers a coordinate, takes a token off, or
/// turns one `(x, y)` into `(y - 1, x - 1)`, so that every play ends.
fn token_rule() -> impl Strategy<Value = String> {
    let target = prop::sample::select(vec![
        "t(sorted(ps[:i] + [(ps[i][0] - d, ps[i][1])] + ps[i + 1:]))",
        "t(ps[:i] + [(ps[i][0], ps[i][1] - d)] + ps[i + 1:])",
        "t(ps[:i] + ps[i + 1:])",
        "t(ps[:i]) + t(ps[i + 1:])",
        "t(ps[:i] + ps[i + 1:]) + *(ps[i][0] * 2 + ps[i][1])",
        "t([(b, a) for (a, b) in ps if (a, b) != ps[i]])",
        "t([p for p in ps if p != ps[i]] + [(ps[i][1] - 1, ps[i][0] - 1)])",
        "t(sorted(set(ps[:i] + [(ps[i][0] - d, ps[i][1])] + ps[i + 1:])))",
        "let (x, y) = ps[i] in t(sorted(ps[:i] + [(x - d, y)] + ps[i + 1:]))",
    ]);
    (target, token_guard()).prop_map(|(target, guard)| {
        let lowered = match target.contains("ps[i][1] - d") {
            true => "ps[i][1]",
            false => "ps[i][0]",
        };
        // Turning a token needs both coordinates positive.
        let turned = match target.contains("ps[i][1] - 1") {
            true => " and ps[i][1] > 0",
            false => "",
        };
        format!("(i in 0..len(ps), d in 1..=2) if d <= {lowered}{turned}{guard} -> {target}")
    })
}

/// One move of `c(cells)`: each takes cells away, or moves one down, so
/// that every play ends.
fn cell_rule() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "((x, y) in cells) if (x + 1, y) in cells -> c(cells - {(x, y), (x + 1, y)})",
        "((x, y) in cells) if (x, y + 1) in cells -> c(cells - {(x, y + 1)} - {(x, y)})",
        "((x, y) in cells) -> c(cells - {(x, y)})",
        "((x, y) in cells) if y > 0 and (x, y - 1) not in cells -> c(cells - {(x, y)} | {(x, y - 1)})",
        "((x, y) in cells) -> c({(a, b) for (a, b) in cells if a != x})",
        "((x, y) in cells) if x >= y -> c(cells - {(x, y)}) + *(x + y)",
        "((x, y) in cells) -> c(cells & {(a, b) for (a, b) in cells if a + b < x + y})",
        "(p in cells) if p[0] != p[1] -> c(cells - {p})",
        "((x, y) in cells) if len(cells) > 2 -> c(cells ^ {(x, y)})",
        "(q in cells) if (q[0] + 1, q[1]) in cells -> c(cells - {q, (q[0] + 1, q[1])})",
        "(q in cells) -> let (x, y) = q in c(cells - {(x, y)}) + *(abs(x))",
        "((x, y) in cells) if (x, y) != cells[0] and cells[-1][1] >= y -> c(cells - {(x, y)})",
    ])
}

fn pairs(items: &[(i64, i64)]) -> String {
    let items: Vec<String> = items.iter().map(|(x, y)| format!("({x}, {y})")).collect();
    items.join(", ")
}

fn pair_file() -> impl Strategy<Value = String> {
    let start = prop::collection::vec((-1i64..5, -1i64..5), 0..5);
    let cells = prop::collection::btree_set((-1i64..4, 0i64..3), 0..7);
    (
        prop::collection::vec(token_rule(), 1..=3),
        prop::collection::vec(cell_rule(), 1..=3),
        start,
        cells,
    )
        .prop_map(|(tokens, cells_rules, start, cells)| {
            let moves = |rules: Vec<String>| -> String {
                (rules.iter().enumerate())
                    .map(|(i, r)| format!("    move m{i}{r}\n"))
                    .collect()
            };
            let cells: Vec<(i64, i64)> = cells.into_iter().collect();
            format!(
                "game t(ps) {{\n{}}}\ngame c(cells) {{\n{}}}\n\
                 value(t([{}]))\nvalue(c({{{}}}))\n\
                 [value(t([(a, b), (b, 1)])) for a in 0..3 for b in 0..3]\n\
                 value(t([])) + value(c({{}}))\n\
                 value(c({{(x, y) for x in 0..3 for y in 0..2}}))\n\
                 value(t([(-(2 ** 40), 1), (0, 1)]))\n",
                moves(tokens),
                moves(cells_rules.iter().map(|r| r.to_string()).collect()),
                pairs(&start),
                pairs(&cells),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Lists and sets of pairs, empty ones, pairs too wide to pack (the
    /// last query): the same on every path.
    #[test]
    fn pair_position_games_agree_with_the_interpreter(file in pair_file()) {
        compare(&file)?;
    }
}

/// Runs `text` with machine code: its kernels run, no position of a
/// compiled game goes to the interpreter, and `game`'s rules compile to
/// machine code.
fn runs_as_machine_code(text: &str, game: &str) {
    runs_compiled_throughout(text);
    assert!(machine_code_for(text, game), "no machine code for {text}");
}

/// Cram on a strip of cells is Dawson's Kayles on integers (a domino
/// takes two adjacent cells, splitting the strip in two); on boards of
/// even sides the second player wins by symmetry.
#[test]
fn cram_on_a_set_of_cells_has_the_values_of_its_integer_twin() {
    let cram = "game cram(empty) {\n\
                move horiz((x, y) in empty) if (x + 1, y) in empty -> cram(empty - {(x, y), (x + 1, y)})\n\
                move vert((x, y) in empty) if (x, y + 1) in empty -> cram(empty - {(x, y), (x, y + 1)})\n}\n";
    let strips = format!(
        "{cram}game dk(n) {{ move m(a in 0..=n - 2) -> dk(a) + dk(n - 2 - a) }}\n\
         [value(cram({{(x, 0) for x in 0..n}})) for n in 0..16]\n[value(dk(n)) for n in 0..16]\n"
    );
    let printed = agree(&strips);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 2, "{printed}");
    assert_eq!(
        lines[0], lines[1],
        "Cram on a strip against Dawson's Kayles"
    );
    runs_as_machine_code(&strips, "cram");
    let even = format!(
        "{cram}[value(cram({{(x, y) for x in 0..w for y in 0..h}})) for (w, h) in [(2, 2), (2, 4), (4, 2), (2, 6)]]\n"
    );
    assert_eq!(agree(&even).trim(), "[0, 0, 0, 0]");
    runs_as_machine_code(&even, "cram");
}

/// One token sliding left or down on a board is Nim on two heaps: its
/// value is `x ^ y`. Several, which block each other, agree on every
/// path, and run as machine code.
#[test]
fn tokens_as_a_sorted_list_of_pairs_run_as_machine_code_and_agree() {
    let tokens = "fn put(ts, i, p) = sorted(ts[:i] + [p] + ts[i + 1:])\n\
                  game tokens(ts) {\n\
                  move left(i in 0..len(ts), d in 1..=ts[i][0]) if (ts[i][0] - d, ts[i][1]) not in ts \
                  -> tokens(put(ts, i, (ts[i][0] - d, ts[i][1])))\n\
                  move down(i in 0..len(ts), d in 1..=ts[i][1]) if (ts[i][0], ts[i][1] - d) not in ts \
                  -> tokens(put(ts, i, (ts[i][0], ts[i][1] - d)))\n}\n";
    let one =
        format!("{tokens}all([value(tokens([(x, y)])) == x ^ y for x in 0..9 for y in 0..9])\n");
    assert_eq!(agree(&one).trim(), "true");
    let three = format!("{tokens}value(tokens([(2, 3), (3, 1), (3, 3)]))\n");
    agree(&three);
    runs_as_machine_code(&three, "tokens");
}

/// Negative coordinates pack below the others, so sorting and sets keep
/// the interpreter's order; a pair too wide to pack, and an empty list
/// reached by the compiled rules, are each one position.
#[test]
fn negative_wide_and_no_pairs_agree_on_every_path() {
    let text = "game t(ps) {\n\
                move drop(i in 0..len(ps)) if ps[i][0] > -3 -> t(ps[:i] + ps[i + 1:]) + *(i)\n\
                move low((x, y) in ps) if -3 < x < 10 -> t(sorted([if (a, b) == (x, y) then (a - 1, b) else (a, b) for (a, b) in ps]))\n}\n\
                value(t([]))\n\
                value(t([(0, -2), (-1, 5), (1, -(2 ** 31))]))\n\
                [value(t([(a, 2), (-a, -1)])) for a in -2..3]\n\
                value(t([(2 ** 31, 0)]))\n\
                t([(-2, 0), (0, 0)])\n";
    agree(text);
}

/// The generator's files check, most run cleanly, and most of their games
/// compile to machine code: the comparison is between the paths, not the
/// interpreter with itself.
#[test]
fn the_random_pair_files_run_and_mostly_compile() {
    use grundy::diag::Phase;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut clean, mut native) = (0, 0);
    for _ in 0..60 {
        let file = pair_file().new_tree(&mut runner).unwrap().current();
        let (_, err, phase) = common::differ::run(&file, Engine::Native);
        assert!(
            !matches!(phase, Some(Phase::Syntax | Phase::Check)),
            "{file}\n{err}"
        );
        clean += usize::from(phase.is_none());
        // The rules alone: how they compile.
        let rules: String = (file.lines())
            .filter(|l| !l.starts_with("value(") && !l.starts_with('['))
            .map(|l| format!("{l}\n"))
            .collect();
        native += ["t", "c"]
            .iter()
            .filter(|name| machine_code_for(&rules, name))
            .count();
    }
    assert!(clean >= 30, "only {clean} of 60 random files ran cleanly");
    assert!(native >= 90, "only {native} of 120 random games compiled");
}
