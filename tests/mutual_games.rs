//! One-integer games that move to one another (`ping(n)` to `pong(n - k)`
//! and back) are swept together, each `n` of every game of the group
//! before the next (src/runtime/sweep/group.rs): asked in turn, asked at
//! one large position, or in a table. Values agree with a direct
//! computation and with the interpreter; errors and cycles as the
//! interpreter reports them.

mod common;

use common::Engine;
use common::differ::{agree, same_error};
use grundy::SharedBuffer;
use grundy::session::Session;

/// Ping takes 1 or 2 and hands the heap to pong; pong takes 1 to 3 to
/// leave an even heap, or passes with a token (`*1`).
const PING_PONG: &str = "game ping(n) {\n move take(k in 1..=2) if k <= n -> pong(n - k)\n}\n\
    game pong(n) {\n move take(k in 1..=3) if k <= n and (n - k) % 2 == 0 -> ping(n - k)\n\
    move pass if n > 0 -> ping(n - 1) + *1\n}\n";

/// The values of ping and pong below `n`, computed directly.
fn ping_pong(n: usize) -> (Vec<u64>, Vec<u64>) {
    let mex = |seen: &[u64]| (0..).find(|v| !seen.contains(v)).unwrap();
    let (mut ping, mut pong) = (vec![0u64; n], vec![0u64; n]);
    for m in 0..n {
        let takes = (1..=2).filter(|k| *k <= m).map(|k| pong[m - k]);
        ping[m] = mex(&takes.collect::<Vec<_>>());
        let mut seen: Vec<u64> = (1..=3)
            .filter(|k| *k <= m && (m - k) % 2 == 0)
            .map(|k| ping[m - k])
            .collect();
        seen.extend((m > 0).then(|| ping[m - 1] ^ 1));
        pong[m] = mex(&seen);
    }
    (ping, pong)
}

/// Runs `text` with the machine code: what it printed, and how many
/// positions ran one at a time.
fn run(text: &str) -> (String, u64) {
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("mutual.game", text).error, None);
    let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
    (printed, session.machine.kernel_runs)
}

#[test]
fn games_asked_in_turn_are_swept_together_with_the_direct_values() {
    let n = 20_000;
    let (ping, pong) = ping_pong(n);
    let zeros = ping.iter().filter(|v| **v == 0).count();
    let text = format!(
        "{PING_PONG}len([n for n in 0..{n} if value(ping(n)) == 0])\n\
         [value(pong(n)) for n in {}..{n}]\n",
        n - 5
    );
    let (printed, runs) = run(&text);
    let expected = format!("{zeros}\n{:?}\n", &pong[n - 5..]);
    assert_eq!(printed, expected);
    // The first asks, until the run is long enough to sweep ahead, and a
    // few at each sweep's start; about 2,000 otherwise.
    assert!(runs < 500, "{runs} positions run one at a time");
}

#[test]
fn one_large_position_asked_sweeps_the_group_below_it() {
    let n = 200_000;
    let (ping, pong) = ping_pong(n + 1);
    let text = format!("{PING_PONG}value(ping({n}))\nvalue(pong({}))\n", n - 1);
    let (printed, runs) = run(&text);
    assert_eq!(printed, format!("{}\n{}\n", ping[n], pong[n - 1]));
    // The search comes down a chain of 33 positions, then the sweep
    // takes the rest: 200,000 positions otherwise.
    assert!(runs < 1_000, "{runs} positions run one at a time");
}

/// Three games, one moving to another's position of the same size (`a(n)`
/// to `b(n)`, so that `b(n)` is valued first), and sums of two.
const THREE: &str = "game a(n) {\n move ab if n > 0 -> b(n)\n move down(k in 1..=3) if k <= n -> a(n - k)\n}\n\
    game b(n) {\n move ba(k in 1..=2) if k <= n -> a(n - k)\n move bc if n >= 2 -> c(n - 2)\n}\n\
    game c(n) {\n move ca(k in 1..=4) if k <= n -> a(n - k) + b(n - k)\n}\n";

#[test]
fn groups_agree_with_the_interpreter() {
    let printed = agree(&format!(
        "{THREE}len([n for n in 0..900 if value(a(n)) == 0])\n\
         [value(c(n)) + 2 * value(b(n)) for n in 880..900]\ntable(b, 0..40)\n"
    ));
    assert!(printed.starts_with("225\n"), "{printed}");
    // Swept with `b(n)` first, each `n` in one pass: a few positions run
    // one at a time (about 60,000 with `a(n)` first).
    let (printed, runs) = run(&format!(
        "{THREE}len([n for n in 0..20000 if value(a(n)) == 0])\n"
    ));
    assert_eq!(printed, "5000\n");
    assert!(runs < 500, "{runs} positions run one at a time");
    // A game may also move to its own position of the same size through
    // another by a step that is sometimes 0, which the group's order does
    // not foresee: those positions go to the kernels' runs.
    let zero_step = "game p(n) {\n move t(k in 0..=2) if k <= n and n > 0 -> q(n - k)\n}\n\
        game q(n) {\n move u(k in 1..=3) if k <= n -> p(n - k)\n}\n\
        len([n for n in 0..1200 if value(p(n)) == 0])\nvalue(q(1199))\n";
    assert_eq!(agree(zero_step).lines().count(), 2);
    let (ping, _) = ping_pong(1401);
    let asked = agree(&format!("{PING_PONG}value(ping(1400))\n"));
    assert_eq!(asked, format!("{}\n", ping[1400]));
}

#[test]
fn errors_and_cycles_in_a_group_are_the_interpreters() {
    let error = "game p(n) {\n move t(k in 1..=2) if k <= n -> q(n - k)\n}\n\
        game q(n) {\n move u if n > 0 -> p(n - 1)\n move z if n == 600 -> p(n / (n - n))\n}\n\
        len([n for n in 0..1000 if value(p(n)) == 0])\n";
    same_error(error, "division by zero");
    let cycle = "game p(n) {\n move t(k in 1..=2) if k <= n -> q(n - k)\n move up if n == 700 -> q(n)\n}\n\
        game q(n) {\n move u if n > 0 -> p(n - 1)\n move back if n == 700 -> p(n)\n}\n\
        len([n for n in 0..1000 if value(p(n)) == 0])\n";
    same_error(cycle, "can be reached from itself");
}
