//! The search: published values, memoization, cycles and queries asked
//! from inside rules.

use super::*;
use crate::session::loaded;
use crate::span::Span;
use crate::value::Position;

fn node(m: &mut Machine, game: u32, n: i64) -> NodeId {
    m.intern(game, &[Value::Int(n)], Span::default()).unwrap()
}

#[test]
fn the_path_keeps_each_nodes_game_across_changes() {
    let n = |game, index| NodeId { game, index };
    let nodes = [n(0, 5), n(0, 4), n(1, 9), n(1, 8), n(0, 3)];
    let mut path = Path::default();
    for node in nodes {
        path.push(node);
    }
    assert_eq!(path.nodes(), nodes);
    assert_eq!((path.get(2), path.last()), (n(1, 9), n(0, 3)));
    path.pop();
    path.pop();
    assert_eq!(path.last(), n(1, 9));
    path.push(n(2, 1));
    assert_eq!(path.nodes(), [n(0, 5), n(0, 4), n(1, 9), n(2, 1)]);
    (0..4).for_each(|_| path.pop());
    assert!(path.is_empty() && path.games.is_empty());
}

#[test]
fn kayles_values_match_the_published_sequence() {
    let (mut session, _) = loaded(
        "game kayles(n) {\n move knock(k in 1..=2, a in 0..=n - k) -> kayles(a) + kayles(n - k - a)\n}\n",
    );
    let m = &mut session.machine;
    let values: Vec<u64> = (0..24)
        .map(|n| {
            let id = node(m, 0, n);
            m.node_value(id).unwrap()
        })
        .collect();
    assert_eq!(
        values,
        [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7
        ]
    );
}

#[test]
fn values_are_memoized_in_the_graph() {
    let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
    let m = &mut session.machine;
    let top = node(m, 0, 30);
    assert_eq!(m.node_value(top).unwrap(), 30);
    let below = node(m, 0, 17);
    assert_eq!(
        m.graph.value(below),
        17,
        "evaluating nim(30) evaluated nim(17)"
    );
    assert_eq!(m.graph.len(), 31);
}

#[test]
fn a_cycle_is_an_error_naming_it_and_leaves_nothing_in_progress() {
    let (mut session, _) =
        loaded("game g(n) {\n move a -> g(n + 1)\n move b if n == 3 -> g(1)\n}\n");
    let m = &mut session.machine;
    let start = node(m, 0, 1);
    let err = m.node_value(start).unwrap_err();
    assert_eq!(err.message, "the position g(1) can be reached from itself");
    assert_eq!(err.notes[0], "cycle: g(1) -> g(2) -> g(3) -> g(1)");
    assert_eq!(m.graph.value(start), crate::graph::UNKNOWN);
    assert!(
        m.node_value(start).is_err(),
        "asking again reports the cycle again"
    );
}

#[test]
fn a_rule_may_ask_through_a_function_about_smaller_positions() {
    let (mut session, _) = loaded(
        "fn lost(n) = value(g(n)) == 0\n\
         game g(n) {\n move m(k in 1..=2) if k <= n and lost(n - k) -> g(n - k)\n}\n",
    );
    let m = &mut session.machine;
    let top = node(m, 0, 4);
    assert_eq!(m.node_value(top).unwrap(), 1);
}

#[test]
fn a_rule_asking_about_its_own_position_is_an_error_at_the_query() {
    let src = "fn v(n) = value(g(n))\n\
               fn o(n) = options(h(n))\n\
               fn w(n) = value(f(n))\n\
               game g(n) {\n move m(k in 1..=n) if v(n) == 0 -> g(n - k)\n}\n\
               game h(n) {\n move m(p in o(n)) -> p\n}\n\
               game e(n) {\n move m if w(n) == 0 -> e(n - 1)\n}\n\
               game f(n) {\n move back -> e(n)\n}\n";
    let (mut session, _) = loaded(src);
    let m = &mut session.machine;
    let g3 = node(m, 0, 3);
    let err = m.node_value(g3).unwrap_err();
    assert_eq!(err.message, "the rules of g(3) ask about g(3) itself");
    assert_eq!(err.label, "asked here");
    let span = err.span.expect("placed at the query");
    assert_eq!(&src[span.start as usize..span.end as usize], "value(g(n))");
    assert_eq!(err.notes, ["while expanding g(3), move m(k = 1)"]);
    assert_eq!(m.graph.value(g3), UNKNOWN);
    assert_eq!(m.running.innermost(), None);
    // Asking for the moves instead would never end.
    let h2 = node(m, 1, 2);
    let p = Position::node(h2);
    let err = m
        .moves_of(&p, Span::default())
        .err()
        .expect("an error, not an endless recursion");
    assert_eq!(err.message, "the rules of h(2) ask about h(2) itself");
    // Asking about a position that leads back by moves.
    let e2 = node(m, 2, 2);
    let err = m.node_value(e2).unwrap_err();
    assert_eq!(
        err.message,
        "the rules of e(2) ask about f(2), which leads back to e(2)"
    );
    assert_eq!(err.notes[0], "by moves: f(2) -> e(2)");
}

#[test]
fn a_rule_asking_about_a_position_leading_to_the_search_path_names_the_asker() {
    let (mut session, _) = loaded(
        "fn v(n) = value(h(n))\n\
         game g(n) {\n move m(k in 1..=n) if n != 4 or v(n) == 0 -> g(n - k)\n}\n\
         game h(n) {\n move x -> g(n + 1)\n}\n",
    );
    let m = &mut session.machine;
    let g5 = node(m, 0, 5);
    let err = m.node_value(g5).unwrap_err();
    assert_eq!(
        err.message,
        "the rules of g(4) ask about h(4), which leads to g(5), still being evaluated"
    );
    assert_eq!(
        err.notes,
        [
            "by moves: h(4) -> g(5)",
            "while expanding g(4), move m(k = 1)"
        ]
    );
}
