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
