//! User functions that call themselves have their results remembered
//! (src/runtime/interp/memo.rs): the textbook recursion `fn g(n) =
//! mex([g(n - k) for k in S if k <= n])` runs in linear time, with the
//! values of the same game written with `game`. A function that prints
//! is not remembered, and a changed definition or `let` forgets what
//! was remembered.

mod common;

use common::Engine;
use grundy::SharedBuffer;
use grundy::session::Session;

/// A session on the machine code's path, its output, and what it printed.
fn started() -> (Session, SharedBuffer) {
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    (session, out)
}

/// Runs `text` in `session`, which must stop on no error and no failed
/// `expect`; what it printed.
fn run(session: &mut Session, out: &SharedBuffer, text: &str) -> String {
    out.0.borrow_mut().clear();
    let outcome = session.run("f.game", text);
    assert_eq!((outcome.error, outcome.failed_expects), (None, 0), "{text}");
    String::from_utf8(out.0.borrow().clone()).unwrap()
}

#[test]
fn the_textbook_recursion_with_mex_has_the_games_values() {
    // Called once for each n, in turn and then from the top: each call
    // makes three more, so without the memo `g(300)` alone would make
    // more calls than there are atoms in the universe.
    let text = "fn g(n) = mex([g(n - k) for k in [2, 5, 7] if k <= n])\n\
                game s(n) { move take(k in [2, 5, 7]) if k <= n -> s(n - k) }\n\
                expect all([g(n) == value(s(n)) for n in 0..=300])\n\
                expect [g(n) for n in 0..=7] == [0, 0, 1, 1, 0, 2, 1, 3]\n\
                g(300)\n";
    let (mut session, out) = started();
    assert_eq!(run(&mut session, &out, text), "0\n");
    let kept = session.machine.fn_memo.len();
    assert!((301..=310).contains(&kept), "{kept} results remembered");
    // From the top at once: the recursion remembers its way down.
    let (mut session, out) = started();
    let down = "fn g(n) = mex([g(n - k) for k in [2, 5, 7] if k <= n])\n\
                game s(n) { move take(k in [2, 5, 7]) if k <= n -> s(n - k) }\n\
                expect g(2000) == value(s(2000))\n";
    assert_eq!(run(&mut session, &out, down), "");
}

#[test]
fn functions_that_do_not_call_themselves_or_that_print_are_not_remembered() {
    let (mut session, out) = started();
    let text = "fn twice(n) = 2 * n\n\
                fn loud(n) = if n == 0 then print(\"bottom\") else loud(n - 1)\n\
                sum([twice(n) for n in 0..100])\n\
                loud(3)\nloud(3)\n";
    // `print` returns nothing, which a statement does not show.
    let printed = run(&mut session, &out, text);
    assert_eq!(printed.matches("bottom").count(), 2, "{printed}");
    assert!(printed.starts_with("9900\n"), "{printed}");
    assert_eq!(session.machine.fn_memo.len(), 0);
    // A function that reaches one that prints is not remembered either.
    let text = "fn shout(n) = if n == 0 then loud(0) else shout(n - 1)\nshout(2)\nshout(2)\n";
    let printed = run(&mut session, &out, text);
    assert_eq!(printed.matches("bottom").count(), 2, "{printed}");
    assert_eq!(session.machine.fn_memo.len(), 0);
}

#[test]
fn a_changed_definition_or_let_forgets_the_results() {
    let (mut session, out) = started();
    let text = "let K = 2\nfn f(n) = if n == 0 then K else f(n - 1)\nf(10)\n";
    assert_eq!(run(&mut session, &out, text), "2\n");
    assert!(!session.machine.fn_memo.is_empty());
    assert_eq!(run(&mut session, &out, "let K = 3\nf(10)\n"), "3\n");
    let again = "fn f(n) = if n == 0 then 5 * K else f(n - 1)\nf(10)\n";
    assert_eq!(run(&mut session, &out, again), "15\n");
    // A game the function asks, redefined.
    let game = "game s(n) { move t(k in [1, 2]) if k <= n -> s(n - k) }\n\
                fn w(n) = if n == 0 then value(s(4)) else w(n - 1)\nw(4)\n";
    assert_eq!(run(&mut session, &out, game), "1\n");
    let other = "game s(n) { move t(k in [2, 3]) if k <= n -> s(n - k) }\nw(4)\n";
    assert_eq!(run(&mut session, &out, other), "2\n");
}

#[test]
fn a_call_that_fails_fails_every_time() {
    let (mut session, _) = started();
    let text = "fn f(n) = if n == 0 then 1 / n else f(n - 1)\nf(5)\n";
    for _ in 0..2 {
        let outcome = session.run("f.game", text);
        assert!(outcome.error.is_some());
    }
    assert_eq!(session.machine.fn_memo.len(), 0);
}

/// Only integers are keys, compared exactly: an empty range, the
/// position `*0` and a table are passed to the function each time, as
/// written (a key by `Value`'s equality took `5..2` for `0..0`, and `*0`
/// for `0`).
#[test]
fn arguments_other_than_integers_are_not_keys() {
    let (mut session, out) = started();
    let text = "fn keep(r, n) = if n == 0 then r else keep(r, n - 1)\n\
                keep(0..0, 3)\nkeep(5..2, 3)\n\
                fn less(x, n) = if n == 0 then x < 1 else less(x, n - 1)\nless(0, 3)\n";
    assert_eq!(run(&mut session, &out, text), "0..0\n5..2\ntrue\n");
    let outcome = session.run("f.game", "less(*0, 3)\n");
    assert!(outcome.error.is_some());
}

/// A function that reaches a game, or a `let` holding one, is not
/// remembered: a game's rules may print, and a position's value is the
/// search's.
#[test]
fn functions_that_reach_a_game_are_not_remembered() {
    let (mut session, out) = started();
    let text = "game h(n) { move m if print(\"guard\") == 0 and n > 0 -> h(n - 1) }\n\
                let G = h(1)\n\
                fn f(n) = if n == 0 then value(G) else f(n - 1)\n\
                fn g(n) = if n == 0 then value(h(1)) else g(n - 1)\n\
                f(2)\ng(2)\n";
    run(&mut session, &out, text);
    assert_eq!(session.machine.fn_memo.len(), 0);
}

/// A call deeper than `--max-depth` fails whatever was kept before: a
/// result is used only where the calls it made would have stayed within
/// the limit, so each call succeeds or fails as it does alone.
#[test]
fn a_result_kept_does_not_let_a_call_past_the_depth_limit() {
    let rules = "fn down(n) = if n == 0 then 0 else 1 + down(n - 1)\n";
    let alone = |n: usize| {
        let (mut session, _) = started();
        session.machine.limits.max_depth = 1_000;
        session
            .run("f.game", &format!("{rules}down({n})\n"))
            .error
            .is_some()
    };
    let (mut session, _) = started();
    session.machine.limits.max_depth = 1_000;
    assert!(session.run("f.game", rules).error.is_none());
    for n in [600, 1500, 999, 1000, 2000, 998, 1001] {
        let failed = session
            .run("f.game", &format!("down({n})\n"))
            .error
            .is_some();
        assert_eq!(failed, alone(n), "down({n})");
    }
    assert!(session.machine.fn_memo.len() >= 999);
    assert!(!alone(999) && alone(1000));
}

/// A recursion that seldom meets a call again (halving a range) keeps
/// nothing past its trial: it would pay for each call's key and hold
/// memory for nothing (2.5x the time before the trial).
#[test]
fn a_recursion_without_repeated_calls_is_not_remembered() {
    let (mut session, out) = started();
    let text = "fn xr(i, j) = if j - i == 1 then i else xr(i, (i + j) / 2) ^ xr((i + j) / 2, j)\n\
                xr(0, 100000)\n";
    let want = (0..100_000u64).fold(0, |a, b| a ^ b);
    assert_eq!(run(&mut session, &out, text), format!("{want}\n"));
    assert_eq!(session.machine.fn_memo.len(), 0);
}
