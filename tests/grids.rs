//! Constant strings read a character at a time in rules: a grid given as
//! a list of strings (`B[x][y] == "."`) and a word (`W[i] != "#"`). The
//! compiled rules compare code points (src/runtime/kernel/expr/compile.rs);
//! values and errors agree with the interpreter's.

mod common;

use common::differ::{agree, same_error};

/// A token moving up or left over free squares of a small grid, with a
/// negative index (from the end) among its reads.
const GRID: &str = "let B = [\"..#..\", \".#...\", \"...#.\", \"#....\", \"..é..\"]\n\
                    game tok(x, y) {\n\
                    move up(k in 1..=2) if x - k >= 0 and B[x - k][y] == \".\" -> tok(x - k, y)\n\
                    move left(k in 1..=2) if y - k >= 0 and \".\" == B[x][y - k] -> tok(x, y - k)\n\
                    move wrap if x == 4 and y == 0 and B[-1][-3] != \"#\" -> tok(3, 4)\n\
                    move jump if x >= 3 and B[x - 3][y] in \".é\" and B[x][y] not in \"#\" -> tok(x - 3, y)\n}\n";

#[test]
fn a_grid_of_strings_has_the_interpreters_values() {
    let asks = "table(tok, 0..5, 0..5)\n\
                [(x, y) for x in 0..5 for y in 0..5 if B[x][y] != \"#\" and value(tok(x, y)) == 0]\n";
    let printed = agree(&format!("{GRID}{asks}"));
    assert!(printed.contains("(0, 0)"), "{printed}");
    // A word, and a character compared with a longer string: never equal.
    let word = "let W = \"HTHHTTHTHHHTTHTHTHTHHHTTHTHHTHTTHHHTHTTTHHHTTHTHTHHHTHTTHHTHHTTHTHTHTHHTTHTTHHHTHTHHHTHHTTHTTHTHTHHTHHHTTHHTHTTHTHHTHHHTTTHTHTHH\"\n\
                game w(i) {\n move h(k in 1..=3) if i - k >= 0 and W[i - k] == \"H\" -> w(i - k)\n\
                move t if i > 5 and W[i] != \"HT\" and W[i - 5] == \"T\" -> w(i - 5)\n}\n\
                table(w, 0..128)\n";
    assert_eq!(agree(word).lines().count(), 15);
}

#[test]
fn an_index_outside_the_grid_is_reported_as_the_interpreter_reports_it() {
    let text = format!(
        "{GRID}game far(n) {{\n move m if n > 0 and B[n][0] == \".\" -> far(n - 1)\n}}\nvalue(far(7))\n"
    );
    same_error(&text, "out of range");
}

/// A long constant list of integers indexed is read in place, as one row
/// (`Rows::single`): from the end too, and out of range as the
/// interpreter reports it.
#[test]
fn a_long_constant_list_indexed_has_the_interpreters_values() {
    let text = "let W = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]\n\
                game t(n) {\n move m(k in 1..=3) if k <= n and W[-(n % 20) - 1] != k -> t(n - k)\n}\n\
                [value(t(n)) for n in 0..60]\n";
    assert_eq!(agree(text).lines().count(), 1);
    same_error(
        &text.replace("W[-(n % 20) - 1]", "W[n - 40]"),
        "out of range",
    );
}

/// `len(W)` of a constant string is a number the compiled rules read;
/// a word passed on unchanged as a parameter (a game made for it, see
/// tests/instances.rs) reads the same.
#[test]
fn the_length_of_a_constant_word_compiles() {
    let by_let = "let W = \"HTHHTHHHTTHTHHTHTTHHHTHTHHTTHTHH\"\n\
                  game w(i) {\n move step(k in 1..=3) if i + k <= len(W) and W[i + k - 1] == \"H\" -> w(i + k)\n}\n\
                  [value(w(i)) for i in 0..len(W)]\n";
    let passed = "let W = \"HTHHTHHHTTHTHHTHTTHHHTHTHHTTHTHH\"\n\
                  game w(word, i) {\n move step(k in 1..=3) if i + k <= len(word) and word[i + k - 1] == \"H\" -> w(word, i + k)\n}\n\
                  [value(w(W, i)) for i in 0..len(W)]\n";
    assert_eq!(agree(by_let), agree(passed));
    for text in [by_let, passed] {
        let explained = common::explained(text);
        assert!(
            explained.contains("compiled to machine code"),
            "{explained}"
        );
    }
}
