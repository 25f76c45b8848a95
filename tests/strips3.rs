//! Three-integer games whose positions keep two arguments among a few
//! small values and the third long (a heap and the sizes of the last two
//! moves): past the dense cube, their positions are dense in strips
//! (`graph::index::STRIP3_WIDTH`), and the machine code evaluates them in
//! place. Values, errors and cycles agree with the interpreter's, and
//! with a direct computation far past the cube.

mod common;

use common::Engine;
use common::differ::{agree, same_error};

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
