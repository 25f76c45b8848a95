//! List, set and string positions, whose options of the same game the
//! machine code evaluates where it meets them, as it does for hashed
//! integers (src/runtime/kernel/native/deep.rs, and tests/hashed.rs):
//! values, errors, cycles and limits agree with the interpreter's,
//! however deep the positions go.

mod common;

use common::Engine;
use common::differ::{agree, counts_every_position, meets_the_position_limit, run, same_error};

/// Chains of list positions far deeper than the recursion nests (it
/// stops at 96 runs): the options it cannot finish are evaluated by the
/// search, and their positions run again.
#[test]
fn chains_of_lists_deeper_than_the_recursion_have_the_interpreters_values() {
    let chain = "game c(xs) {\n move a if len(xs) > 0 -> c(xs[1:])\n\
                 move b if len(xs) > 1 and xs[0] % 3 == 1 -> c(xs[2:])\n\
                 move h if len(xs) > 0 and xs[0] == 5 -> c([4] + xs[1:])\n}\n\
                 value(c([k % 7 for k in 0..600]))\n\
                 value(sum([c([k % 5 for k in 0..200 + j]) for j in 0..3]))\n";
    assert_eq!(agree(chain).lines().count(), 2);
    // Strings, and a set whose options are sets.
    let strings = "game w(s) {\n move a(i in 0..len(s)) if s[i] == \"H\" and i < 3 \
                   -> w(s[:i] + \"T\" + s[i + 1:])\n move cut if len(s) > 8 -> w(s[1:])\n}\n\
                   value(w(join([\"H\" for k in 0..150], \"\")))\n";
    assert_eq!(agree(strings).lines().count(), 1);
    let sets = "game m(s) {\n move pick(x in s) -> m(s - {y for y in s if y % x == 0})\n}\n\
                value(m(set(2..=14)))\n";
    assert_eq!(agree(sets).lines().count(), 1);
}

#[test]
fn an_error_deep_in_a_recursion_of_lists_is_reported_with_the_whole_play() {
    let text = "game c(xs) {\n move a if len(xs) > 3 -> c(xs[1:])\n\
                move z if len(xs) == 4 -> c([1 / (len(xs) - 4)] * 5)\n}\n\
                value(c([0] * 400))\n";
    same_error(text, "division by zero");
    // The play, 396 moves (four times the recursion's depth), down to
    // the position in error.
    let (_, err, _) = run(text, Engine::Native);
    assert!(
        err.contains("-> c([0, 0, 0, 0, 0]) -> c([0, 0, 0, 0])"),
        "the play from the query: {err}"
    );
}

#[test]
fn a_cycle_among_list_positions_is_reported_as_the_interpreter_reports_it() {
    for text in [
        "game c(xs) {\n move a if len(xs) > 4 -> c(xs[1:])\n\
         move z if len(xs) == 5 -> c(xs + [0] * 300)\n}\nvalue(c([0] * 400))\n",
        // The cycle closes far below the recursion's depth.
        "game c(xs) {\n move a if len(xs) > 4 -> c(xs[1:])\n\
         move z if len(xs) == 200 -> c(xs + [0] * 50)\n}\nvalue(c([0] * 230))\n",
    ] {
        same_error(text, "can be reached from itself");
    }
}

#[test]
fn the_position_limit_holds_inside_a_recursion_of_lists() {
    // 5,000 positions; the differential runs allow 3,000.
    let text = "game c(xs) {\n move a if len(xs) > 0 -> c(xs[1:])\n}\nvalue(c([1] * 5000))\n";
    meets_the_position_limit(text);
}

/// Every list position the recursion adds counts towards `--max-states`
/// as the search's own do, and a limit just under their number stops the
/// machine code too.
#[test]
fn the_recursion_of_lists_counts_every_position_it_adds() {
    let text = "game m(s) {\n move pick(x in s) -> m(s - {y for y in s if y % x == 0})\n}\n\
                value(m(set(2..=16)))\n";
    counts_every_position(text, 300);
}
