use super::*;
use crate::SharedBuffer;

fn run(src: &str) -> (Outcome, String, String) {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    let outcome = session.run("test.game", src);
    let text = |b: &SharedBuffer| String::from_utf8(b.0.borrow().clone()).unwrap();
    (outcome, text(&out), text(&err))
}

#[test]
fn a_failed_expect_does_not_stop_the_script() {
    let (outcome, out, err) = run("expect 1 == 2\n3\nexpect 2 == 2\n");
    assert_eq!(outcome.failed_expects, 1);
    assert_eq!(outcome.exit_code(), exit::EXPECT_FAILED);
    assert_eq!(out, "3\n");
    assert!(err.contains("the left side is 1"), "{err}");
    assert!(err.contains("the right side is 2"), "{err}");
}

#[test]
fn comparing_a_position_with_a_number_suggests_its_value() {
    let (_, _, err) = run("game g(n) { move m if n > 0 -> g(n - 1) }\nexpect g(2) == 0\n");
    assert!(err.contains("write `value(P) == 0`"), "{err}");
    let (_, _, err) = run("expect 1 == 0\n");
    assert!(!err.contains("Help"), "{err}");
}

#[test]
fn an_expect_of_a_number_asks_for_a_comparison() {
    let (outcome, _, err) = run("expect 3\n");
    assert_eq!(outcome.error, Some(Phase::Runtime));
    assert!(err.contains("`expect value(P) == 0`"), "{err}");
}

#[test]
fn a_runtime_error_stops_the_script() {
    let (outcome, out, err) = run("1\n1 / 0\n2\n");
    assert_eq!(outcome.error, Some(Phase::Runtime));
    assert_eq!(outcome.exit_code(), exit::SCRIPT_ERROR);
    assert_eq!(out, "1\n");
    assert!(err.contains("division by zero"));
}

#[test]
fn print_writes_its_arguments_once() {
    let (_, out, _) = run("print(\"value\", 1 + 2, [1])\n");
    assert_eq!(out, "value 3 [1]\n");
}

#[test]
fn redefining_a_game_recomputes_its_values() {
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
    session.run(
        "a",
        "game g(n) {\n move one if n > 0 -> g(n - 1)\n}\nlet P = g(3)\nvalue(P)\n",
    );
    session.run("b", "game g(n) {\n move one if n > 0 -> g(n - 1)\n move two if n > 1 -> g(n - 2)\n}\nvalue(P)\n");
    assert_eq!(String::from_utf8(out.0.borrow().clone()).unwrap(), "1\n0\n");
}

/// `g` and its redefinition: one step at a time (values alternate 0, 1),
/// then one or two steps (values n % 3). g(3) is 1, then 0.
const G1: &str = "game g(n) {\n move one if n > 0 -> g(n - 1)\n}\n";
const G2: &str = "game g(n) {\n move one if n > 0 -> g(n - 1)\n move two if n > 1 -> g(n - 2)\n}\n";
/// A game unrelated to `g`.
const K: &str = "game k(n) {\n move one if n > 0 -> k(n - 1)\n}\n";

/// A session printing into a buffer, and a way to take what it printed.
fn session() -> (Session, impl Fn() -> String) {
    let out = SharedBuffer::default();
    let session = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
    let take = move || String::from_utf8(out.0.borrow_mut().split_off(0)).unwrap();
    (session, take)
}

/// Runs a unit that must run cleanly.
fn unit(session: &mut Session, src: &str) {
    let outcome = session.run("unit.game", src);
    assert_eq!(outcome, Outcome::default(), "{src}");
}

/// Loads a unit without running it: only its invalidation has happened.
fn load_only(session: &mut Session, src: &str) -> Vec<StmtIr> {
    session.load("unit.game", src).expect("the unit loads")
}

/// How many nodes of `game` have a known value.
fn known(session: &Session, game: &str) -> usize {
    let Some(crate::defs::Global::Game(id)) = session.machine.defs.lookup(game) else {
        panic!("`{game}` is not a game");
    };
    let mut stats = session.machine.graph.stats();
    stats
        .find(|(g, ..)| *g == id)
        .map_or(0, |(_, _, known)| known)
}

#[test]
fn redefining_a_game_recomputes_it_and_its_users_and_keeps_unrelated_values() {
    let (mut s, out) = session();
    let h = "game h(n) {\n move m -> g(n)\n}\n";
    unit(&mut s, &format!("{G1}{h}{K}value(h(3))\nvalue(k(7))\n"));
    assert_eq!(out(), "0\n1\n");
    assert_eq!((known(&s, "g"), known(&s, "h"), known(&s, "k")), (4, 1, 8));
    let stmts = load_only(&mut s, &format!("{G2}value(h(3))\nvalue(k(7))\n"));
    assert_eq!((known(&s, "g"), known(&s, "h"), known(&s, "k")), (0, 0, 8));
    assert_eq!(s.execute(&stmts), Outcome::default());
    assert_eq!(out(), "1\n1\n");
    assert_eq!(known(&s, "k"), 8, "k's values were kept, not recomputed");
}

/// Each way a game's values can depend on another game: through a fn,
/// a let holding a position, a position passed as an argument.
#[test]
fn a_game_reaching_a_redefined_game_indirectly_is_recomputed() {
    let cases = [
        ("fn f(n) = g(n)\ngame h(n) {\n move m -> f(n)\n}\n", "h(3)"),
        ("let P = g(3)\ngame h(n) {\n move m -> P\n}\n", "h(0)"),
        ("game h(p) {\n move m -> p\n}\n", "h(g(3))"),
    ];
    for (h, query) in cases {
        let (mut s, out) = session();
        unit(&mut s, &format!("{G1}{h}{K}value({query})\nvalue(k(2))\n"));
        assert_eq!(out(), "0\n0\n", "{h}");
        load_only(&mut s, G2);
        assert_eq!((known(&s, "h"), known(&s, "k")), (0, 3), "{h}");
        unit(&mut s, &format!("value({query})\n"));
        assert_eq!(out(), "1\n", "{h}");
    }
}

#[test]
fn redefining_a_let_recomputes_the_games_that_read_it() {
    let (mut s, out) = session();
    let games = "game s(n) {\n move take(k in 1..=K) if k <= n -> s(n - k)\n}\ngame t(n) {\n move m if n > B -> t(n - 1)\n}\n";
    unit(
        &mut s,
        &format!(
            "let K = 2\nlet (A, B) = (0, 0)\n{games}{K}value(s(3))\nvalue(t(3))\nvalue(k(2))\n"
        ),
    );
    assert_eq!(out(), "0\n1\n0\n");
    load_only(&mut s, "let K = 3\n");
    assert_eq!((known(&s, "s"), known(&s, "t"), known(&s, "k")), (0, 4, 3));
    unit(&mut s, "let K = 3\nvalue(s(3))\n");
    assert_eq!(out(), "3\n");
    // A name bound by a tuple pattern is a redefinition too.
    load_only(&mut s, "let (A, B) = (0, 1)\n");
    assert_eq!((known(&s, "s"), known(&s, "t"), known(&s, "k")), (4, 0, 3));
    unit(&mut s, "let (A, B) = (0, 1)\nvalue(t(3))\n");
    assert_eq!(out(), "0\n");
}

#[test]
fn redefining_a_fn_recomputes_a_game_whose_guard_calls_it() {
    let (mut s, out) = session();
    let t = "fn ok(n) = n > 0\ngame t(n) {\n move one if ok(n) -> t(n - 1)\n}\n";
    unit(&mut s, &format!("{t}{K}value(t(3))\nvalue(k(2))\n"));
    assert_eq!(out(), "1\n0\n");
    load_only(&mut s, "fn ok(n) = n > 5\n");
    assert_eq!((known(&s, "t"), known(&s, "k")), (0, 3));
    unit(&mut s, "fn ok(n) = n > 5\nvalue(t(3))\n");
    assert_eq!(out(), "0\n");
}

/// Runs `text` as a file `b`, returning how it went and what it reported.
fn run_reporting(s: &mut Session, text: &str) -> (Outcome, String) {
    let err = SharedBuffer::default();
    s.err = Box::new(err.clone());
    let outcome = s.run("b", text);
    let reported = String::from_utf8(err.0.borrow().clone()).unwrap();
    (outcome, reported)
}

#[test]
fn a_position_made_before_a_game_changed_arity_is_an_error_not_a_panic() {
    let (mut s, out) = session();
    unit(&mut s, &format!("{G1}let P = g(3)\nvalue(P)\n"));
    let (outcome, err) = run_reporting(
        &mut s,
        "game g(n, m) {\n move one if n > 0 -> g(n - 1, m)\n}\nvalue(g(2, 1))\nvalue(P)\n",
    );
    assert_eq!(outcome.error, Some(Phase::Runtime));
    assert_eq!(out(), "1\n0\n");
    assert!(
            err.contains("this position of `g` was made under an earlier definition with 1 parameter; `g` now takes 2"),
            "{err}"
        );
    assert!(
        err.contains("`g` is redefined here with 2 parameters"),
        "{err}"
    );
}

#[test]
fn old_rules_applying_a_game_with_its_old_arity_get_an_arity_error() {
    let (mut s, _) = session();
    unit(
        &mut s,
        &format!("{G1}game h(n) {{\n move m -> g(n)\n}}\nvalue(h(1))\n"),
    );
    // h still applies g to one argument; g(1) is in the graph already.
    let (outcome, err) = run_reporting(
        &mut s,
        "game g(n, m) {\n move one if n > 0 -> g(n - 1, m)\n}\nvalue(h(1))\n",
    );
    assert_eq!(outcome.error, Some(Phase::Runtime));
    assert!(
        err.contains("`g` takes 2 arguments but 1 was given"),
        "{err}"
    );
}
