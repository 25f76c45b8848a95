//! Three-integer games whose positions keep two arguments among a few
//! small values and the third long (a heap and the sizes of the last two
//! moves): past the dense cube, their positions are dense in strips
//! (`graph::index::STRIP3_WIDTH`), and the machine code evaluates them in
//! place. Values, errors and cycles agree with the interpreter's, and
//! with a direct computation far past the cube.

mod common;

use common::Engine;
use common::differ::{agree, compare_among, same_error};
use proptest::prelude::*;

/// The rules: take 1 to 4, never as many as either of the last two
/// moves; the long argument first, in the middle or last.
const RULES: &str = "game f(n, a, b) {\n move take(k in 1..=4) if k <= n and k != a and k != b -> f(n - k, k, a)\n}\n\
    game m(a, n, b) {\n move take(k in 1..=4) if k <= n and k != a and k != b -> m(k, n - k, a)\n}\n\
    game l(a, b, n) {\n move take(k in 1..=4) if k <= n and k != a and k != b -> l(k, a, n - k)\n}\n";

/// The values a direct computation gives: `f(h, a, b)` for heaps `0..=n`.
fn no_repeat(n: usize) -> Vec<[[u64; 5]; 5]> {
    let mut g = vec![[[0u64; 5]; 5]; n + 1];
    for h in 0..=n {
        let value = |a: usize, b: usize, g: &[[[u64; 5]; 5]]| {
            let seen: Vec<u64> = (1..=h.min(4))
                .filter(|k| *k != a && *k != b)
                .map(|k| g[h - k][k][a])
                .collect();
            (0..).find(|v| !seen.contains(v)).unwrap()
        };
        g[h] = std::array::from_fn(|a| std::array::from_fn(|b| value(a, b, &g)));
    }
    g
}

/// Far past the cube (1,024 a side), each argument long in turn: the
/// positions stay dense, and their values are a direct computation's.
#[test]
fn strips_of_triples_have_the_values_computed_directly() {
    let n = 60_000;
    let g = no_repeat(n);
    let asks = format!(
        "{RULES}[value(f({n}, 0, 0)), value(m(2, {k}, 3)), value(l(4, 1, {k}))]\n\
         len([x for x in 0..={n} if value(f(x, 0, 0)) == 0])\n\
         len([x for x in 0..={n} if value(l(1, 2, x)) == 0])\n",
        k = n - 7
    );
    let zeros = |a: usize, b: usize| g.iter().filter(|v| v[a][b] == 0).count();
    let expected = format!(
        "[{}, {}, {}]\n{}\n{}\n",
        g[n][0][0],
        g[n - 7][2][3],
        g[n - 7][4][1],
        zeros(0, 0),
        zeros(1, 2)
    );
    for engine in [Engine::Kernels, Engine::Native] {
        let (session, printed) = engine.run("strip3.game", &asks);
        assert_eq!(printed, expected);
        let hashed = Engine::hashed(&session, 3);
        assert_eq!(hashed, 0, "{hashed} positions hashed");
        let graph = &session.machine.graph;
        // The machine code sweeps the strips of the heaps the queries ask
        // in turn, every pair of counters in the box at each: those the
        // search has not made yet (8 of f's 25 a heap are never reached
        // from `f(x, 0, 0)`) are the sweep's, not the search's (`reached`).
        if engine == Engine::Native {
            let swept = graph.len() - graph.reached();
            assert!(swept > 5 * (n - 2_048), "{swept} positions swept");
        }
        // A few rows of the heap's length each, not a row per heap: a few
        // bytes a position.
        for game in 0..3 {
            let positions = graph.nodes(game).count();
            assert!(
                graph.bytes(game) < 8 * positions,
                "{} bytes",
                graph.bytes(game)
            );
        }
    }
}

/// The heap last or in the middle, whose cube's columns are turned
/// along it (`graph/dense/triples.rs`): its strips are swept all the
/// same, each heap's pairs of counters by the machine code.
#[test]
fn strips_are_swept_with_the_heap_in_any_place() {
    let n = 30_000;
    let g = no_repeat(n);
    let zeros = |a: usize, b: usize| g.iter().filter(|v| v[a][b] == 0).count();
    for (ask, (a, b)) in [
        (
            format!("len([x for x in 0..={n} if value(l(1, 2, x)) == 0])"),
            (1, 2),
        ),
        (
            format!("len([x for x in 0..={n} if value(m(0, x, 0)) == 0])"),
            (0, 0),
        ),
    ] {
        let (session, printed) = Engine::Native.run("turned.game", &format!("{RULES}{ask}\n"));
        assert_eq!(printed, format!("{}\n", zeros(a, b)));
        let graph = &session.machine.graph;
        let swept = graph.len() - graph.reached();
        assert!(swept > 3 * (n - 2_048), "{ask}: {swept} positions swept");
    }
}

/// Steps of 40, 160, 360 and 640, never as large as either of the last
/// two: a few hundred positions across the cube's edge, within a
/// differential run's, each argument long in turn.
const STEPS: &str = "game f(n, a, b) {\n move take(k in 1..=4) if 40 * k * k <= n and k != a and k != b -> f(n - 40 * k * k, k, a)\n}\n\
    game m(a, n, b) {\n move take(k in 1..=4) if 40 * k * k <= n and k != a and k != b -> m(k, n - 40 * k * k, a)\n}\n\
    game l(a, b, n) {\n move take(k in 1..=4) if 40 * k * k <= n and k != a and k != b -> l(k, a, n - 40 * k * k)\n}\n";

/// Across the cube's edge: the interpreter's values, errors and cycles.
#[test]
fn strips_of_triples_agree_with_the_interpreter() {
    let asks = format!(
        "{STEPS}value(f(1200, 0, 0))\nvalue(m(0, 1250, 0))\nvalue(l(0, 0, 1300))\n\
         [x for x in 1000..1400 if x % 40 == 0 and value(f(x, 1, 0)) == 0]\n"
    );
    let printed = agree(&asks);
    assert_eq!(printed.lines().count(), 4, "{printed}");
    let error = "game f(n, a, b) {\n move take(k in 1..=4) if 40 * k * k <= n and k != a and k != b -> f(n - 40 * k * k, k, a)\n\
                 move z if n == 1160 -> f(n / (b - b), 0, 0)\n}\nvalue(f(1200, 0, 0))\n";
    same_error(error, "division by zero");
    let cycle = "game f(n, a, b) {\n move take(k in 1..=4) if 40 * k * k <= n and k != a and k != b -> f(n - 40 * k * k, k, a)\n\
                 move back if n == 1040 and a == 2 -> f(1200, 0, 0)\n}\nvalue(f(1200, 0, 0))\n";
    same_error(cycle, "can be reached from itself");
}

/// One move of a random game of a heap and two small counters, `g(n, a,
/// b)`: the counters it leaves stay among 0 to 4 whatever they were.
fn strip3_move() -> impl Strategy<Value = String> {
    let sizes = prop::sample::select(vec!["1..=3", "[1, 2, 4]", "{1, 3}", "1..=4"]);
    let guard = prop::sample::select(vec![
        "k <= n",
        "k <= n and k != a",
        "k <= n and k != a and k != b",
        "k <= n and a + k != b + 2",
    ]);
    let first = prop::sample::select(vec!["k", "a", "(a + k) % 3", "b", "min(a + 1, 4)"]);
    let second = prop::sample::select(vec!["a", "k", "b", "(b + 1) % 4"]);
    (sizes, guard, first, second).prop_map(|(sizes, guard, first, second)| {
        format!("move m(k in {sizes}) if {guard} -> g(n - k, {first}, {second})")
    })
}

/// `text` with the arguments of each position of `g` (its parameters,
/// targets and asks, written heap first) put in the order `long` says:
/// the heap first, in the middle or last.
fn laid_out(text: &str, long: usize) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("g(") {
        out += &rest[..at + 2];
        rest = &rest[at + 2..];
        // The three arguments, each up to its comma or the closing
        // parenthesis at depth zero.
        let (mut args, mut depth, mut start, mut end) = (Vec::new(), 0, 0, 0);
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    args.push(rest[start..i].trim().to_string());
                    end = i;
                    break;
                }
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    args.push(rest[start..i].trim().to_string());
                    start = i + 1;
                }
                _ => {}
            }
        }
        let heap = args.remove(0);
        args.insert(long, heap);
        out += &args.join(", ");
        rest = &rest[end..];
    }
    out + rest
}

/// A random game of [`strip3_move`]s asked for every heap across the
/// cube's edge (1,024), so that its strips are swept ahead of the query,
/// perhaps with a move that fails in the rows swept or leads back up (a
/// cycle).
fn strip3_file() -> impl Strategy<Value = String> {
    let moves = prop::collection::vec(strip3_move(), 1..=3);
    let trouble = prop_oneof![
        Just(String::new()),
        (1030i64..1150).prop_map(|e| format!("move z if n == {e} -> g(n / (a - a), 0, 0)\n")),
        (1030i64..1150)
            .prop_map(|e| format!("move up if n == {e} and a == 1 -> g(n + 70, 1, 0)\n")),
    ];
    let asked = (1100i64..1200, 0i64..3, 0i64..3, 0usize..3);
    (moves, trouble, asked).prop_map(|(moves, trouble, (top, c, d, long))| {
        let text = format!(
            "game g(n, a, b) {{\n{}\n{trouble}}}\n\
             len([x for x in 990..{top} if value(g(x, {c}, {d})) == 0])\n",
            moves.join("\n")
        );
        laid_out(&text, long)
    })
}

/// The heap put in the middle or last: the same rules otherwise.
#[test]
fn a_layout_moves_the_heap_in_every_position() {
    let text = "game g(n, a, b) {\nmove m(k in 1..=3) if k <= n -> g(n - k, min(a + 1, 4), (b + k) % 3)\n}\n\
                value(g(x, 0, 1))\n";
    assert_eq!(laid_out(text, 0), text);
    assert_eq!(
        laid_out(text, 2),
        "game g(a, b, n) {\nmove m(k in 1..=3) if k <= n -> g(min(a + 1, 4), (b + k) % 3, n - k)\n}\n\
         value(g(0, 1, x))\n"
    );
    assert!(laid_out(text, 1).contains("-> g(min(a + 1, 4), n - k, (b + k) % 3)"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Random strips of triples, swept past the cube: the interpreter's
    /// values, errors and cycles, with room for every position below the
    /// heaps asked.
    #[test]
    fn random_strips_of_triples_agree_with_the_interpreter(file in strip3_file()) {
        compare_among(&file, 60_000)?;
    }
}

/// `--explain` says which argument runs long and the box the others
/// keep to; a game whose counter grows with the heap has no strips.
#[test]
fn explain_names_the_strips_and_their_box() {
    let explained = common::explained(RULES);
    assert!(
        explained.contains(
            "f(n, a, b): compiled to machine code\n  strips: from a = b = 0, every option's a is \
             in 0..=4 and its b in 0..=4; past the cube (a 1024 side), swept row by row of n"
        ),
        "{explained}"
    );
    assert!(explained.contains("l(a, b, n): compiled to machine code\n  strips"));
    let growing = "game g(n, a, b) {\n move m(k in 1..=2) if k <= n -> g(n - k, a + k, b)\n}\n";
    let explained = common::explained(growing);
    assert!(!explained.contains("strips"), "{explained}");
}
