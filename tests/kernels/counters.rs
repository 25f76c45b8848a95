//! Strips whose short argument is a counter that moves count down
//! (`heap(n, passes - 1)` if `passes > 0`): a position in column `c`
//! reads the columns below it, which a sweep fills first, row by row
//! (src/runtime/kernel/strip.rs, `Strip::down`).

use super::*;

/// A heap from which 1 to 3 are taken, or a pass spent from a few.
const PASSES: &str = "game heap(n, passes) {\n\
                      move take(k in 1..=3) if k <= n -> heap(n - k, passes)\n\
                      move pass() if passes > 0 and n > 0 -> heap(n, passes - 1)\n}\n";

/// The same with two kinds of pass, spending one or two at a time, and a
/// pass that also takes one.
const SPENDS: &str = "game heap(n, passes) {\n\
                      move take(k in 1..=3) if k <= n -> heap(n - k, passes)\n\
                      move pass(k in 1..=2) if passes >= 2 and n > 0 -> heap(n, passes - k)\n\
                      move both() if passes >= 1 and n > 0 -> heap(n - 1, passes - 1)\n}\n";

/// Passes spent any number at a time, up to those left, and a guard that
/// says `!=`.
const ANY: &str = "game heap(n, passes) {\n\
                   move take(k in 1..=3) if k <= n -> heap(n - k, passes)\n\
                   move spend(k in 1..=passes) if n != 0 -> heap(n - 1, passes - k)\n\
                   move wait() if passes != 0 and n > 0 -> heap(n, passes - 1)\n}\n";

/// A counter whose strip is columns 2 to 4, above 0: counted down from
/// 3 up, and moved to 4.
const HIGH: &str = "game heap(n, p) {\n\
                    move take(k in 1..=3) if k <= n -> heap(n - k, p)\n\
                    move to_four(k in 1..=2) if k <= n -> heap(n - k, 4)\n\
                    move down() if p > 2 and n > 0 -> heap(n, p - 1)\n}\n";

/// A heap, passes counted down, and the last move's size: a strip of
/// triples whose counter is its first short argument.
const TRIPLE: &str = "game g(n, passes, last) {\n\
                      move take(k in 1..=3) if k <= n and k != last -> g(n - k, passes, k)\n\
                      move pass() if passes > 0 and n > 0 -> g(n, passes - 1, 0)\n}\n";

/// The same with a turn first and the counter second: its rows' pairs
/// are swept the counter first.
const TURNED: &str = "game g(n, turn, passes) {\n\
                      move take(k in 1..=3) if k <= n -> g(n - k, 1 - turn, passes)\n\
                      move pass() if passes > 0 and n > 0 -> g(n, 1 - turn, passes - 1)\n}\n";

/// The values of [`PASSES`] by its definition: `g[p][n]`.
fn passes_by_hand(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let mut g = vec![vec![0; rows + 1]; cols];
    for n in 0..=rows {
        for p in 0..cols {
            let mut options: Vec<usize> = (1..=3.min(n)).map(|k| g[p][n - k]).collect();
            if p > 0 && n > 0 {
                options.push(g[p - 1][n]);
            }
            g[p][n] = (0..).find(|v| !options.contains(v)).expect("a mex");
        }
    }
    g
}

/// How many positions the kernel's run took one at a time in `text`.
fn alone(text: &str) -> u64 {
    Engine::Native
        .run("counter.game", text)
        .0
        .machine
        .kernel_runs
}

/// A counter counted down is a strip of column 0 whose positions in a
/// column past it read the columns below: a query asking column 3 in
/// order sweeps columns 1 to 3 with it, so that only a few positions are
/// run one at a time (20,011 are, when each column past the strip is
/// left to the search), and the values are the definition's.
#[test]
fn a_counter_counted_down_is_swept_with_the_columns_below() {
    const N: usize = 5000;
    let query = format!("{PASSES}[value(heap(n, 3)) for n in 0..=5000]\n");
    let by_hand = passes_by_hand(N, 4);
    let expected = format!("{:?}\n", by_hand[3]);
    assert_eq!(agree_big(&query), expected);
    // Those of the first rows, asked before the asks start a sweep (256:
    // 64 rows of 4 positions).
    let runs = alone(&query);
    assert!(runs < 400, "{runs} positions run one at a time");
    // Asked from the top, by the search, which climbs as many rows before
    // a sweep starts.
    let top = format!("{PASSES}value(heap(5000, 3))\n");
    assert_eq!(agree_big(&top), format!("{}\n", by_hand[3][N]));
    let runs = alone(&top);
    assert!(
        runs < 400,
        "{runs} positions run one at a time from the top"
    );
}

/// Counters spent several at a time, or any number up to those left, a
/// strip above column 0, and moves that change both arguments, by a
/// query, a table and the search, agree with the interpreter, and leave
/// few positions to be run one at a time (every one past the strip's
/// columns, 10,000 or more, when the columns past them are left to the
/// search); so do columns too far up for a strip (the search's), below
/// the strip's, and below 0, which no pass reaches.
#[test]
fn counters_spent_several_at_a_time_agree_with_the_interpreter() {
    for text in [
        format!("{SPENDS}[value(heap(n, 5)) for n in 0..=3000]\n"),
        format!("{SPENDS}table(heap, 0..=2000, 0..6)\n"),
        format!("{SPENDS}value(heap(3000, 4))\n"),
        format!("{ANY}[value(heap(n, 4)) for n in 0..=3000]\n"),
        format!("{ANY}value(heap(3000, 6))\n"),
        format!("{HIGH}[value(heap(n, 0)) for n in 0..=3000]\n"),
        format!("{TURNED}[value(g(n, 0, 2)) for n in 0..=3000]\n"),
        format!("{TRIPLE}value(g(4000, 3, 0))\n"),
        format!("{HIGH}value(heap(3000, 9))\n"),
        format!("{PASSES}[value(heap(n, 40)) for n in 0..=300]\n"),
        format!("{PASSES}[value(heap(n, -2)) for n in 0..=300]\n"),
    ] {
        agree_big(&text);
    }
    for text in [
        format!("{SPENDS}table(heap, 0..=2000, 0..6)\n"),
        format!("{ANY}[value(heap(n, 4)) for n in 0..=3000]\n"),
        format!("{HIGH}[value(heap(n, 7)) for n in 0..=3000]\n"),
    ] {
        agree_big(&text);
        let runs = alone(&text);
        assert!(runs < 400, "{runs} positions run one at a time: {text}");
    }
}

/// A counter in a strip of triples, its first short argument or its
/// second behind a flag, is swept past the cube: asked by a query to
/// 20,000 heaps, only the positions of the cube's first 1,024 rows run
/// one at a time (12 and 6 pairs a row; 13,317 and 7,170 positions),
/// not the strips' (31,630 and 25,211 with the box not narrowed or not
/// swept the counter first). The values agree with the interpreter's
/// above, at 3,000.
#[test]
fn a_counter_in_a_strip_of_triples_is_swept_past_the_cube() {
    for (game, seed, most) in [(TRIPLE, "2, 0", 14_000), (TURNED, "0, 2", 8_000)] {
        let text = format!("{game}len([n for n in 0..=20000 if value(g(n, {seed})) == 0])\n");
        let runs = alone(&text);
        assert!(runs < most, "{runs} positions run one at a time: {text}");
    }
}
