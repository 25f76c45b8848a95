//! Heaps held as one tuple or list, a move picking its heap by a leading
//! binder over a few constants (`i in 0..3` read as `p[i]`, or steps `d
//! in D` read as `d[t]`): unrolled, each item is a move with its own
//! share of the options a search waits for
//! (src/runtime/normalize/unroll.rs, `picks_item`), so that a position
//! asked first waits for steps down in every heap, and the cube below it
//! is swept, as for three integer parameters.

use super::*;

/// Three heaps: take from one, or the same from two, asked at `(side,
/// side, side)`.
fn three_heaps(spelling: &str, side: usize) -> String {
    let game = match spelling {
        "tuple" => {
            "fn put(t, i, v) = t[:i] + (v,) + t[i + 1:]\n\
             game t3(p) {\n\
             move one(i in 0..3, k in 1..=p[i]) -> t3(put(p, i, p[i] - k))\n\
             move two(i in 0..3, j in i + 1..3, k in 1..=min(p[i], p[j])) \
             -> t3(put(put(p, i, p[i] - k), j, p[j] - k))\n}\n"
        }
        "list" => {
            "let D = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1]]\n\
             game t3(p) {\n\
             move take(d in D, k in 1..=max(p)) if all([p[i] >= k * d[i] for i in 0..3]) \
             -> t3([p[i] - k * d[i] for i in 0..3])\n}\n"
        }
        _ => unreachable!("no spelling {spelling}"),
    };
    let state = match spelling {
        "tuple" => format!("({side}, {side}, {side})"),
        _ => format!("[{side}, {side}, {side}]"),
    };
    format!("{game}value(t3({state}))\n")
}

/// The same game by definition, from the bottom up.
fn three_heaps_by_definition(side: usize) -> u64 {
    let n = side + 1;
    let mut g = vec![0u64; n * n * n];
    let at = |a: usize, b: usize, c: usize| (a * n + b) * n + c;
    for a in 0..n {
        for b in 0..n {
            for c in 0..n {
                let mut seen = std::collections::HashSet::new();
                for k in 1..=a {
                    seen.insert(g[at(a - k, b, c)]);
                }
                for k in 1..=b {
                    seen.insert(g[at(a, b - k, c)]);
                }
                for k in 1..=c {
                    seen.insert(g[at(a, b, c - k)]);
                }
                for k in 1..=a.min(b) {
                    seen.insert(g[at(a - k, b - k, c)]);
                }
                for k in 1..=a.min(c) {
                    seen.insert(g[at(a - k, b, c - k)]);
                }
                for k in 1..=b.min(c) {
                    seen.insert(g[at(a, b - k, c - k)]);
                }
                g[at(a, b, c)] = (0..).find(|v| !seen.contains(v)).unwrap();
            }
        }
    }
    g[at(n - 1, n - 1, n - 1)]
}

/// Asked first at the far corner, both spellings agree with the
/// interpreter and with the definition, and the cube below is swept:
/// the kernel's run values a few positions one at a time. Before, at
/// side 36 a position waited for the steps of the first two heaps only
/// (32 options of each move as written, then 64: 108 are missing), so no
/// cube was swept, and the search ran 56,134 positions one at a time
/// (the cube holds 50,653).
#[test]
fn a_heap_picked_by_a_leading_binder_sweeps_the_cube_below() {
    for spelling in ["tuple", "list"] {
        let small = three_heaps(spelling, 9);
        assert!(machine_code_for(&small, "t3"), "{small}");
        let expected = three_heaps_by_definition(9);
        assert_eq!(agree(&small), format!("{expected}\n"), "{small}");
        runs_compiled_throughout(&small);
        let text = three_heaps(spelling, 36);
        let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
        Engine::Native.apply(&mut session.machine);
        assert_eq!(session.run("heaps.game", &text).error, None, "{text}");
        let runs = session.machine.kernel_runs;
        assert!(runs < 200, "{spelling}: {runs} positions run one at a time");
        let expected = three_heaps_by_definition(36);
        assert_eq!(run_big(&text, Engine::Native), format!("{expected}\n"));
    }
}

/// A move picking its heap fails for one of them (an index past the end
/// of a shorter state, a guard dividing by an item at 0): every engine
/// reports the interpreter's error, met on the same play.
#[test]
fn a_heap_picked_by_a_leading_binder_fails_as_the_interpreter_does() {
    let past_the_end = "game t(p) {\n move one(i in 0..3, k in 1..=p[i]) \
                        -> t(p[:i] + [p[i] - k] + p[i + 1:])\n}\n\
                        value(t([10, 10, 10]))\nvalue(t([3, 2]))\n";
    same_error(past_the_end, "index");
    let divides = "game t(p) {\n move one(i in 0..2, k in 1..=p[i]) if 12 % p[1 - i] >= 0 \
                   -> t(p[:i] + (p[i] - k,) + p[i + 1:])\n}\n\
                   value(t((50, 50)))\n";
    same_error(divides, "zero");
}

/// Steps over the state's items that are too many to unroll as steps
/// (17 tuples), over a state whose length changes: unrolled as constant
/// tuples still, and compiled (a review found them interpreted, 11x
/// slower, when the steps refused them first).
#[test]
fn many_steps_over_a_states_items_still_compile() {
    let text = "let D = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (1, 0, 1), (0, 1, 1), \
                (1, 1, 1), (2, 0, 0), (0, 2, 0), (0, 0, 2), (2, 1, 0), (2, 0, 1), (1, 2, 0), \
                (0, 2, 1), (1, 0, 2), (0, 1, 2), (2, 2, 2)]\n\
                game t(p) {\n\
                move m(d in D, k in 1..=3) if len(p) == 3 and all([p[j] >= k * d[j] for j in 0..3]) \
                -> t([p[j] - k * d[j] for j in 0..3 if p[j] - k * d[j] > 0])\n\
                move n(k in 1..=3) if len(p) < 3 and len(p) > 0 and p[0] >= k -> t([p[0] - k] + p[1:])\n}\n\
                len([1 for a in 1..7 for b in 1..7 for c in 1..7 if value(t([a, b, c])) == 0])\n";
    assert!(machine_code_for(text, "t"), "{text}");
    agree(text);
    runs_compiled_throughout(text);
}
