//! Positions of four small integers (`g(a, b, c, d)`: four heaps, two
//! tokens on a board) are dense (`graph::index::dense4`), however they
//! are made: by the kernels' flat runs, by the interpreter's values.
//! Values, errors and cycles agree with the interpreter's, and with a
//! direct computation.

mod common;

use common::Engine;
use common::differ::{agree, same_error};

/// Four heaps: take from one, or the same from the first and third.
const RULES: &str = "game q(a, b, c, d) {\n\
    move ta(k in 1..=a) -> q(a - k, b, c, d)\n\
    move tb(k in 1..=b) -> q(a, b - k, c, d)\n\
    move tc(k in 1..=c) -> q(a, b, c - k, d)\n\
    move td(k in 1..=d) -> q(a, b, c, d - k)\n\
    move ac(k in 1..=min(a, c)) -> q(a - k, b, c - k, d)\n}\n";

/// The values a direct computation gives, by `[a, b, c, d]` below `m`.
fn four_heaps(m: usize) -> Vec<u32> {
    let at = |[a, b, c, d]: [usize; 4]| ((a * m + b) * m + c) * m + d;
    let mut g = vec![0u32; m * m * m * m];
    for z in 0..m * m * m * m {
        let p @ [a, b, c, d] = [z / (m * m * m), z / (m * m) % m, z / m % m, z % m];
        let mut seen = Vec::new();
        seen.extend((1..=a).map(|k| g[at([a - k, b, c, d])]));
        seen.extend((1..=b).map(|k| g[at([a, b - k, c, d])]));
        seen.extend((1..=c).map(|k| g[at([a, b, c - k, d])]));
        seen.extend((1..=d).map(|k| g[at([a, b, c, d - k])]));
        seen.extend((1..=a.min(c)).map(|k| g[at([a - k, b, c - k, d])]));
        g[at(p)] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    g
}

#[test]
fn four_heaps_are_dense_and_have_the_values_computed_directly() {
    let m = 13;
    let g = four_heaps(m);
    let at = |a: usize, b: usize, c: usize, d: usize| g[((a * m + b) * m + c) * m + d];
    let asks = format!(
        "{RULES}value(q(12, 12, 12, 12))\nvalue(q(12, 3, 7, 11))\n\
         len([1 for a in 0..13 for c in 0..13 if value(q(a, 5, c, 2)) == 0])\n"
    );
    let zeros = (0..m).flat_map(|a| (0..m).map(move |c| (a, c)));
    let zeros = zeros.filter(|(a, c)| at(*a, 5, *c, 2) == 0).count();
    let expected = format!("{}\n{}\n{zeros}\n", at(12, 12, 12, 12), at(12, 3, 7, 11));
    for engine in Engine::ALL {
        let (session, printed) = engine.run("quads.game", &asks);
        assert_eq!(printed, expected, "{engine:?}");
        let hashed = Engine::hashed(&session, 1);
        assert_eq!(hashed, 0, "{engine:?}: {hashed} positions hashed");
    }
}

/// Within a differential run's positions: the interpreter's values, and
/// its errors and cycles; and positions past the dense range (hashed).
#[test]
fn four_integers_agree_with_the_interpreter() {
    let asks = format!(
        "{RULES}value(q(3, 4, 2, 5))\n[value(q(a, 1, 2, a)) for a in 0..6]\n\
         value(q(130, 0, 0, 1))\nvalue(q(0, 0, 1, -1))\n"
    );
    assert_eq!(agree(&asks).lines().count(), 4);
    let error = "game q(a, b, c, d) {\n move t(k in 1..=a) -> q(a - k, b, c, d)\n\
                 move z if a == 2 -> q(a / (b - b), b, c, d)\n}\nvalue(q(5, 1, 1, 1))\n";
    same_error(error, "division by zero");
    let cycle = "game q(a, b, c, d) {\n move t(k in 1..=a) -> q(a - k, b, c, d)\n\
                 move back if a == 2 -> q(4, b, c, d)\n}\nvalue(q(5, 1, 1, 1))\n";
    same_error(cycle, "can be reached from itself");
}

/// Four heaps where every move takes two tokens (two from one heap, or
/// one from each of a pair), by a direct computation, by `[a, b, c, d]`
/// below `m`.
fn even_takes(m: usize) -> Vec<u32> {
    let at = |[a, b, c, d]: [usize; 4]| ((a * m + b) * m + c) * m + d;
    let mut g = vec![0u32; m * m * m * m];
    for z in 0..m * m * m * m {
        let p @ [a, b, c, d] = [z / (m * m * m), z / (m * m) % m, z / m % m, z % m];
        let mut options = Vec::new();
        for i in 0..4 {
            if p[i] >= 2 {
                let mut q = p;
                q[i] -= 2;
                options.push(q);
            }
        }
        for (i, j) in [(0, 1), (2, 3)] {
            if p[i] >= 1 && p[j] >= 1 {
                let mut q = p;
                (q[i], q[j]) = (p[i] - 1, p[j] - 1);
                options.push(q);
            }
        }
        let seen: Vec<u32> = options.into_iter().map(|q| g[at(q)]).collect();
        g[at([a, b, c, d])] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    g
}

/// Asked about one position, the search comes down a chain of small steps
/// and then sweeps the box below it row by row of `(b, c, d)`: nearly
/// every position of the box gets its value (those of an odd total too,
/// which no move from an even one reaches), each the direct computation's.
#[test]
fn one_position_asked_sweeps_the_box_below_it() {
    const RULES: &str = "game e(a, b, c, d) {\n\
        move a2 if a >= 2 -> e(a - 2, b, c, d)\n\
        move b2 if b >= 2 -> e(a, b - 2, c, d)\n\
        move c2 if c >= 2 -> e(a, b, c - 2, d)\n\
        move d2 if d >= 2 -> e(a, b, c, d - 2)\n\
        move ab if a >= 1 and b >= 1 -> e(a - 1, b - 1, c, d)\n\
        move cd if c >= 1 and d >= 1 -> e(a, b, c - 1, d - 1)\n}\n";
    let m = 19;
    let g = even_takes(m);
    let at = |[a, b, c, d]: [usize; 4]| g[((a * m + b) * m + c) * m + d];
    let asks = format!("{RULES}value(e(18, 18, 18, 18))\n");
    let (session, printed) = Engine::Native.run("even.game", &asks);
    assert_eq!(printed, format!("{}\n", at([18, 18, 18, 18])));
    let graph = &session.machine.graph;
    let (mut valued, mut args) = (0, Vec::new());
    for (node, v) in graph.nodes(0) {
        assert!(graph.int_args(node, &mut args), "four integers");
        let p: [usize; 4] = std::array::from_fn(|i| args[i] as usize);
        assert_eq!(v, u64::from(at(p)), "e{p:?}");
        valued += 1;
    }
    // All but the few of the top rows past the asked position, which the
    // sweeps stop before; the search alone reaches those of an even total.
    assert!(valued > m * m * m * m - m * m, "{valued} valued");
}
