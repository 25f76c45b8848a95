//! The search: published values, memoization, cycles and queries asked
//! from inside rules.

use super::*;
use crate::session::loaded;
use crate::span::Span;
use crate::value::Position;

mod strips;

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

/// The values of a two-integer game by plain recursion from `options`,
/// memoized: what the search must agree with however it orders its work.
fn brute(options: &dyn Fn(i64, i64) -> Vec<(i64, i64)>, a: i64, b: i64) -> u64 {
    fn go(
        options: &dyn Fn(i64, i64) -> Vec<(i64, i64)>,
        at: (i64, i64),
        memo: &mut std::collections::HashMap<(i64, i64), u64>,
    ) -> u64 {
        if let Some(v) = memo.get(&at) {
            return *v;
        }
        let seen: Vec<u64> = options(at.0, at.1)
            .into_iter()
            .map(|o| go(options, o, memo))
            .collect();
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        memo.insert(at, v);
        v
    }
    go(options, (a, b), &mut Default::default())
}

fn node2(m: &mut Machine, game: u32, a: i64, b: i64) -> NodeId {
    m.intern(game, &[Value::Int(a), Value::Int(b)], Span::default())
        .unwrap()
}

/// How many positions of `game` have a value.
fn valued(m: &Machine, game: u32) -> usize {
    m.graph.nodes(game).filter(|(_, v)| *v < ABSENT).count()
}

#[test]
fn a_position_stepping_down_in_both_arguments_sweeps_the_square_below_it() {
    let (mut session, _) = loaded(
        "game w(a, b) {\n move left(k in 1..=a) -> w(a - k, b)\n\
         move right(k in 1..=b) -> w(a, b - k)\n\
         move both(k in 1..=min(a, b)) -> w(a - k, b - k)\n}\n\
         game p(a, b) {\n move left if a >= 2 -> p(a - 2, b)\n\
         move down if b >= 2 -> p(a, b - 2)\n\
         move both if a >= 1 and b >= 1 -> p(a - 1, b - 1)\n}\n",
    );
    let m = &mut session.machine;
    let wythoff = |a: i64, b: i64| {
        let mut o: Vec<(i64, i64)> = (1..=a).map(|k| (a - k, b)).collect();
        o.extend((1..=b).map(|k| (a, b - k)));
        o.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
        o
    };
    let top = node2(m, 0, 40, 40);
    assert_eq!(m.node_value(top).unwrap(), brute(&wythoff, 40, 40));
    for (a, b) in [(0, 0), (3, 5), (5, 3), (39, 40), (40, 0), (17, 28)] {
        let at = node2(m, 0, a, b);
        assert_eq!(m.graph.value(at), brute(&wythoff, a, b), "w({a}, {b})");
    }
    // The moves of `p` keep a + b even or odd: from (40, 40) the search
    // reaches 841 of the square's 1681 positions, the sweep all of them,
    // each with the right value.
    let parity = |a: i64, b: i64| {
        let mut o = Vec::new();
        o.extend((a >= 2).then(|| (a - 2, b)));
        o.extend((b >= 2).then(|| (a, b - 2)));
        o.extend((a >= 1 && b >= 1).then(|| (a - 1, b - 1)));
        o
    };
    let top = node2(m, 1, 40, 40);
    assert_eq!(m.node_value(top).unwrap(), brute(&parity, 40, 40));
    assert_eq!(valued(m, 1), 41 * 41);
    for (a, b) in [(0, 1), (3, 6), (6, 3), (39, 40), (40, 1), (17, 28)] {
        let at = node2(m, 1, a, b);
        assert_eq!(m.graph.value(at), brute(&parity, a, b), "p({a}, {b})");
    }
}

#[test]
fn a_square_whose_order_a_move_breaks_is_left_to_the_search_where_it_does() {
    // `up` makes `b` larger: in the square's order its option may come
    // after the position, and the sweep stops there.
    let (mut session, _) = loaded(
        "game g(a, b) {\n move x(k in 1..=2) if k <= a -> g(a - k, b)\n\
         move y(k in 1..=2) if k <= b -> g(a, b - k)\n\
         move up if 0 < a and a < b -> g(a - 1, b + 1)\n}\n",
    );
    let m = &mut session.machine;
    let rules = |a: i64, b: i64| {
        let mut o: Vec<(i64, i64)> = (1..=2.min(a)).map(|k| (a - k, b)).collect();
        o.extend((1..=2.min(b)).map(|k| (a, b - k)));
        if 0 < a && a < b {
            o.push((a - 1, b + 1));
        }
        o
    };
    for (a, b) in [(30, 30), (12, 31), (31, 12), (45, 44)] {
        let at = node2(m, 0, a, b);
        assert_eq!(
            m.node_value(at).unwrap(),
            brute(&rules, a, b),
            "g({a}, {b})"
        );
    }
}

#[test]
fn a_table_of_a_two_integer_game_is_swept_square_by_square() {
    // Euclid's game moves from (a, b) to (b - k a, a) when a < b: later,
    // row by row, but earlier in the square's order.
    let src = "game e(a, b) {\n move take(k in 1..=max(a, b)) \
               if min(a, b) > 0 and k * min(a, b) <= max(a, b) \
               -> e(max(a, b) - k * min(a, b), min(a, b))\n}\n";
    let (mut session, _) = loaded(src);
    let m = &mut session.machine;
    let euclid = |a: i64, b: i64| {
        let (hi, lo) = (a.max(b), a.min(b));
        (1..=hi)
            .filter(|k| lo > 0 && k * lo <= hi)
            .map(|k| (hi - k * lo, lo))
            .collect()
    };
    let (range, span) = (Value::Range(0, 60), Span::default());
    let args = [Value::Game(0), range.clone(), range];
    m.table(&args, &[span; 3]).unwrap();
    assert_eq!(valued(m, 0), 60 * 60);
    for (a, b) in [(0, 7), (7, 0), (3, 10), (10, 3), (59, 58), (21, 34)] {
        let at = node2(m, 0, a, b);
        assert_eq!(m.graph.value(at), brute(&euclid, a, b), "e({a}, {b})");
    }
}

#[test]
fn a_position_whose_options_all_lacked_values_takes_the_mex_of_theirs() {
    // Huge heaps, hashed: each position's options are new when it is
    // first run, so its value is the mex of theirs once they have them,
    // with no run again. Two moves reach the same position; a third
    // option is a sum (a heap beside the position), which the run does
    // not count as one position's value.
    let (mut session, _) = loaded(
        "game d(n) {\n move half if n > 0 -> d(n / 2)\n\
         move again if n > 0 -> d(n / 2)\n move third if n > 0 -> d(n / 3)\n}\n\
         game s(n) {\n move half if n > 0 -> s(n / 2)\n\
         move third if n > 0 -> s(n / 3) + *1\n}\n",
    );
    let m = &mut session.machine;
    fn brute(n: i64, sum: bool, memo: &mut std::collections::HashMap<i64, u64>) -> u64 {
        if let Some(v) = memo.get(&n) {
            return *v;
        }
        let mut seen = Vec::new();
        if n > 0 {
            seen.push(brute(n / 2, sum, memo));
            seen.push(brute(n / 3, sum, memo) ^ u64::from(sum));
        }
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        memo.insert(n, v);
        v
    }
    let (mut d, mut s) = (Default::default(), Default::default());
    for n in [
        10_i64.pow(15),
        10_i64.pow(15) + 7,
        999_999_999_999,
        5_000_000_000_001,
    ] {
        let top = node(m, 0, n);
        assert_eq!(
            m.node_value(top).unwrap(),
            brute(n, false, &mut d),
            "d({n})"
        );
        let top = node(m, 1, n);
        assert_eq!(m.node_value(top).unwrap(), brute(n, true, &mut s), "s({n})");
    }
}

#[test]
fn a_position_whose_run_missed_some_options_takes_the_mex_with_the_others() {
    // Neighbouring huge heaps share options: a first run finds some of its
    // options' values and not others, and its value is the mex of those it
    // found and of the others' once they have them, with no run again;
    // by the machine code (which must not mark the options it missed) and
    // by the kernel's own run alike.
    let rules = "game k(n) {\n move half if n > 0 -> k(n / 2)\n\
                 move third if n > 0 -> k(n / 3)\n move small if n > 5 -> k(n % 5)\n}\n";
    fn brute(n: i64, memo: &mut std::collections::HashMap<i64, u64>) -> u64 {
        if let Some(v) = memo.get(&n) {
            return *v;
        }
        let seen: Vec<u64> = match n {
            0 => Vec::new(),
            1..=5 => vec![brute(n / 2, memo), brute(n / 3, memo)],
            _ => vec![brute(n / 2, memo), brute(n / 3, memo), brute(n % 5, memo)],
        };
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        memo.insert(n, v);
        v
    }
    let mut memo = Default::default();
    for native in [true, false] {
        let (mut session, _) = loaded(rules);
        let m = &mut session.machine;
        (m.use_native, m.native_after) = (native, 0);
        for n in (0..300).map(|i| 10_i64.pow(14) + 3 * i) {
            let top = node(m, 0, n);
            assert_eq!(m.node_value(top).unwrap(), brute(n, &mut memo), "k({n})");
        }
    }
}

#[test]
fn a_board_asked_low_down_makes_the_slots_of_the_levels_below_only() {
    // A 4000 x 4000 board: asking a square near the corner sweeps the
    // levels below it, and makes slots for a rectangle around them, not
    // for the sixteen million squares of the box.
    let (mut session, _) = loaded(
        "fn inside(x, y) = 1 <= x <= 4000 and 1 <= y <= 4000\n\
         game k(x, y) {\n move jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)])\n \
         if inside(x + dx, y + dy) -> k(x + dx, y + dy)\n}\n",
    );
    let m = &mut session.machine;
    m.native_after = 0;
    // The values by levels x + y, below level 1600, in a plain table.
    let side = 1600usize;
    let mut board = vec![0u64; side * side];
    for level in 2..side {
        for x in 1..level {
            let y = level - x;
            let mut seen = Vec::new();
            for (dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)] {
                let (u, v) = (x as i64 + dx, y as i64 + dy);
                if u >= 1 && v >= 1 {
                    seen.push(board[u as usize * side + v as usize]);
                }
            }
            board[x * side + y] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    let direct = |x: usize, y: usize| board[x * side + y];
    let at = node2(m, 0, 150, 150);
    assert_eq!(m.node_value(at).unwrap(), direct(150, 150));
    assert!(m.graph.len() < 200_000, "{} positions made", m.graph.len());
    // Higher up, the slots made grow with the levels: values still right.
    let at = node2(m, 0, 900, 650);
    assert_eq!(m.node_value(at).unwrap(), direct(900, 650));
}

#[test]
fn a_position_stepping_down_in_three_arguments_sweeps_the_cube_below_it() {
    // The moves keep a + b + c's parity: from (20, 20, 20) the search
    // reaches half of the cube's 9261 positions, the sweep all of them,
    // each with the value of a direct recursion.
    let rules = "game t(a, b, c) {\n move x(k in [2, 4]) if k <= a -> t(a - k, b, c)\n\
         move y if b >= 2 -> t(a, b - 2, c)\n move z if c >= 2 -> t(a, b, c - 2)\n\
         move all if min(a, b, c) >= 1 and a != b -> t(a - 1, b - 1, c - 1)\n}\n";
    let (side, top) = (21usize, 20);
    let mut cube = vec![0u64; side * side * side];
    let at = |a: usize, b: usize, c: usize| (a * side + b) * side + c;
    for (a, b, c) in
        (0..side).flat_map(|a| (0..side).flat_map(move |b| (0..side).map(move |c| (a, b, c))))
    {
        let mut seen = Vec::new();
        seen.extend(
            [2, 4]
                .iter()
                .filter(|k| **k <= a)
                .map(|k| cube[at(a - k, b, c)]),
        );
        seen.extend((b >= 2).then(|| cube[at(a, b - 2, c)]));
        seen.extend((c >= 2).then(|| cube[at(a, b, c - 2)]));
        seen.extend((a.min(b).min(c) >= 1 && a != b).then(|| cube[at(a - 1, b - 1, c - 1)]));
        cube[at(a, b, c)] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    for native in [true, false] {
        let (mut session, _) = loaded(rules);
        let m = &mut session.machine;
        (m.use_native, m.native_after) = (native, 0);
        let args = |a, b, c| [a, b, c].map(Value::Int);
        let node = m.intern(0, &args(top, top, top), Span::default()).unwrap();
        let t = top as usize;
        assert_eq!(m.node_value(node).unwrap(), cube[at(t, t, t)]);
        assert_eq!(valued(m, 0), side * side * side, "native: {native}");
        for (a, b, c) in [
            (0, 0, 0),
            (3, 5, 7),
            (7, 5, 3),
            (20, 0, 19),
            (1, 20, 2),
            (13, 13, 20),
        ] {
            let node = m.intern(0, &args(a, b, c), Span::default()).unwrap();
            let v = cube[at(a as usize, b as usize, c as usize)];
            assert_eq!(m.graph.value(node), v, "t({a}, {b}, {c})");
        }
    }
}
