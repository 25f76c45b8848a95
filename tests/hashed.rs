//! Positions outside the dense tables (huge or negative integers), whose
//! options of the same game the machine code evaluates where it meets
//! them (src/runtime/kernel/native/deep.rs): values, errors, cycles and
//! limits agree with the interpreter's, however deep the positions go.

mod common;

use common::Engine;
use common::differ::{agree, counts_every_position, meets_the_position_limit, run, same_error};
use grundy::SharedBuffer;
use grundy::diag::Phase;
use grundy::session::Session;

/// A chain of hashed positions far deeper than the recursion nests: the
/// options it cannot finish are evaluated by the search, and their
/// positions run again.
#[test]
fn chains_deeper_than_the_recursion_have_the_interpreters_values() {
    let chain = "game c(n) {\n move a if n > 10 ** 12 -> c(n - 1)\n\
                 move b if n > 10 ** 12 + 1 -> c(n - 2)\n move h if n % 7 == 3 -> c(n / 1000)\n}\n\
                 value(c(10 ** 12 + 2000))\nvalue(sum([c(10 ** 12 + 2100 + i) for i in 0..5]))\n\
                 table(c, 10 ** 12 + 10..10 ** 12 + 20)\n";
    let printed = agree(chain);
    assert_eq!(printed.lines().count(), 5, "{printed}");
    // Two integers, and options of another game the recursion leaves.
    let two = "game s(x) {\n move t(k in 1..=2) if k <= x % 5 -> s(x - k)\n}\n\
               game p(a, b) {\n move l if a > 10 ** 12 -> p(a - 1, b)\n\
               move r(k in {2, 3}) if b > 0 -> p(a, b / k) + s(a % 97)\n}\n\
               value(p(10 ** 12 + 15, 10 ** 4))\nvalue(p(-5, -7))\n";
    assert_eq!(agree(two).lines().count(), 2);
}

#[test]
fn an_error_deep_in_the_recursion_is_reported_with_the_whole_play() {
    let text = "game c(n) {\n move a if n > 10 ** 12 -> c(n - 1)\n\
                move z if n == 10 ** 12 + 3 -> c(n / (n - 10 ** 12 - 3))\n}\n\
                value(c(10 ** 12 + 500))\n";
    same_error(text, "division by zero");
    let (_, err, _) = run(text, Engine::Native);
    assert!(err.contains("487 more"), "the play from the query: {err}");
}

#[test]
fn a_cycle_among_hashed_positions_is_reported_as_the_interpreter_reports_it() {
    for text in [
        "game c(n) {\n move a if n > 10 ** 12 -> c(n - 1)\n move z if n == 10 ** 12 + 3 -> c(n + 300)\n}\n\
         value(c(10 ** 12 + 500))\n",
        // The cycle closes far below the recursion's depth.
        "game c(n) {\n move a if n < -10 -> c(n + 1)\n move z if n == -11 -> c(n - 1000)\n}\n\
         value(c(-2000))\n",
    ] {
        same_error(text, "can be reached from itself");
    }
}

#[test]
fn the_position_limit_holds_inside_the_recursion() {
    // 5,000 positions; the differential runs allow 3,000.
    let text = "game c(n) {\n move a if n > 10 ** 12 -> c(n - 1)\n}\nvalue(c(10 ** 12 + 5000))\n";
    meets_the_position_limit(text);
}

#[test]
fn a_long_recursion_meets_the_time_limit() {
    // Millions of hashed positions, each found inside another's run.
    let text = "game d(n) {\n move by(k in {2, 3, 5, 7}) if n > 0 -> d(n / k)\n}\n\
                value(sum([d(10 ** 15 + i) for i in 0..10000000]))\n";
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(SharedBuffer::default()), Box::new(err.clone()));
    session.machine.limits.timeout = Some(std::time::Duration::from_millis(100));
    session.machine.start_clock();
    let started = std::time::Instant::now();
    let outcome = session.run("slow.game", text);
    let err = String::from_utf8(err.0.borrow().clone()).unwrap();
    assert_eq!(outcome.error, Some(Phase::Limit), "{err}");
    assert!(err.contains("time limit"), "{err}");
    // Not a timing assertion on speed: only that the limit stopped it.
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

/// Every position the recursion adds counts towards `--max-states` as the
/// search's own do: after the divide-by-2/3/6 game from 10^15, the graph
/// has reached as many positions with the machine code as without it,
/// and a limit just under that number stops the machine code too.
#[test]
fn the_recursion_counts_every_position_it_adds() {
    let text = "game d(n) {\n move by(k in {2, 3, 6}) if n > 0 -> d(n / k)\n}\n\
                value(sum([d(10 ** 15 + i) for i in 0..3000]))\n";
    counts_every_position(text, 9000);
}

/// Options found by the machine code's own probe of the hashed positions
/// (`emit/hashed.rs`), of one and of two integers, as the table grows
/// through several sizes, and a position in progress met by the probe
/// (a cycle): all as the interpreter finds them.
#[test]
fn positions_the_machine_code_probes_for_have_the_interpreters_values() {
    let one = "game d(n) {\n move by(k in {2, 3, 6}) if n > 0 -> d(n / k)\n}\n\
               value(sum([d(10 ** 15 + i) for i in 0..500]))\n\
               table(d, 10 ** 15..10 ** 15 + 8)\n";
    assert_eq!(agree(one).lines().count(), 4);
    let two = "game e(a, b) {\n move h if a > 0 -> e(a / 2, b)\n move t if b > 0 -> e(a, b / 3)\n\
               move both if a > 0 and b > 0 -> e(a / 5, b / 5)\n}\n\
               value(sum([e(10 ** 9 + i, 10 ** 5 - 3 * i) for i in 0..8]))\n";
    assert_eq!(agree(two).lines().count(), 1);
    let cycle = "game c(n) {\n move h if n > 1 -> c(n / 2)\n move back if n == 95367431 -> c(10 ** 14)\n}\n\
                 value(c(10 ** 14))\n";
    same_error(cycle, "can be reached from itself");
}

/// A query that asks hashed positions one after another has each valued
/// by the machine code's recursion from it, without the search's set-up
/// (`Machine::value_in_place`), with the interpreter's values. Where the
/// recursion cannot finish them (a chain deeper than it nests), the
/// search does, and after 64 such the query stops trying for that game,
/// so that its positions are not each run twice, and only for it.
#[test]
fn hashed_positions_a_query_asks_are_valued_in_place() {
    let divide = "game d(n) {\n move by(k in {2, 3, 6}) if n > 0 -> d(n / k)\n}\n\
                  value(sum([d(10 ** 15 + i) for i in 0..600]))\n";
    agree(divide);
    let (session, _) = Engine::Native.run("d.game", divide);
    // All but the first, whose search compiles the machine code.
    assert_eq!(session.machine.in_place, [(599, 0)]);
    // c(10^12 + k) is k mod 2: lost for the even multiples of 121.
    let chain = format!(
        "game c(n) {{\n move a if n > 10 ** 12 -> c(n - 1)\n}}\n\
         len([x for x in 0..1000 if value(c(10 ** 12 + 121 * x)) == 0])\n{divide}"
    );
    let (session, printed) = Engine::Native.run("c.game", &chain);
    assert!(printed.starts_with("500\n"), "{printed}");
    let (done, left) = session.machine.in_place[0];
    assert_eq!(left, 64, "{done} valued in place");
    assert_eq!(session.machine.in_place[1], (599, 0), "another game's");
}
