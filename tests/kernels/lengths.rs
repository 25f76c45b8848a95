//! Random rule files of a list state, written in the spellings the
//! rewrites for one length take (src/runtime/normalize/lengths/):
//! binders over indices, `enumerate`, constant pairs and steps; guards
//! of `all`, `any`, `sum`, `min` and `max` of the state or of a
//! comprehension; targets by slices, comprehensions over `enumerate` and
//! `zip`, lists repeated, helpers and `let`s, some that fail (an index
//! past the end, a negative heap, a list less a list). Each file asks
//! lists of three heaps, then of two and four: what every engine prints
//! and the errors it reports must be the interpreter's.

use super::*;

/// A move's binder and how its heap `i` is named, with the second
/// heap's `j` where it has one.
const BINDERS: &[&str] = &[
    "i in 0..len(hs)",
    "(i, h) in enumerate(hs)",
    "i in 0..3",
    "i in -len(hs)..0",
    "(i, j) in {(0, 1), (0, 2), (1, 2)}",
    "(i, j) in [(2, 0), (1, 0)]",
    "i in 0..len(hs), j in i + 1..len(hs)",
];

const GUARDS: &[&str] = &[
    "true",
    "all([x >= 0 for x in hs])",
    "any([hs[t] > k for t in 0..len(hs)])",
    "sum(hs) > k",
    "min(hs) < k or max(hs) > 2",
    "all([hs[0] >= 0, hs[1] < 9])",
    "all([hs[t] > 0 for t in 0..4])",
    "len([x for x in hs if x > 0]) >= 1",
    "(let d = hs - [k] in true)",
];

const TARGETS: &[&str] = &[
    "hs[:i] + [hs[i] - k] + hs[i + 1:]",
    "[x - (if t == i then k else 0) for (t, x) in enumerate(hs)]",
    "[x - (if t == i then k else 0) for (t, x) in zip(0..len(hs), hs)]",
    "[x - d for (x, d) in zip(hs, [0] * i + [k] + [0] * (len(hs) - i - 1))]",
    "sorted(hs[:i] + [hs[i] - k] + hs[i + 1:])",
    "sub(hs, i, k)",
    "(let s = sub(hs, i, k) in s[:1] + s[1:])",
    "[hs[t] - (if t == i then k else 0) for t in 0..len(hs)] + [0] * (i - 5)",
    "hs[:i] + [hs[i] - k - 1] + hs[i + 1:]",
];

/// A rule file of one move: a binder, `k in 1..=hs[i]`, a guard and a
/// target; with a binder of two heaps, a second move takes from both.
fn list_file() -> impl Strategy<Value = String> {
    (
        0..BINDERS.len(),
        0..GUARDS.len(),
        0..TARGETS.len(),
        0..TARGETS.len(),
    )
        .prop_map(|(b, g, t, u)| {
            let binder = BINDERS[b];
            let two = binder.contains('j');
            let mut moves = format!(
                "    move one({binder}, k in 1..=hs[i]) if {} -> g({})\n",
                GUARDS[g], TARGETS[t]
            );
            if two {
                let second = TARGETS[u].replace("hs", "ts").replace("i,", "j,");
                let second = second.replace("[i]", "[j]").replace("i +", "j +");
                let second = second.replace(":i]", ":j]").replace("== i", "== j");
                let second = second.replace("* i", "* j").replace("- i -", "- j -");
                moves += &format!(
                    "    move two({binder}, k in 1..=hs[i], l in 1..=hs[j]) if {}\n        \
                     -> g(let ts = {} in {})\n",
                    GUARDS[g],
                    TARGETS[t],
                    second.replace("k", "l")
                );
            }
            format!(
                "fn sub(xs, i, k) = xs[:i] + [xs[i] - k] + xs[i + 1:]\ngame g(hs) {{\n{moves}}}\n\
                 [value(g([a, b, c])) for a in 0..5 for b in 0..5 for c in 0..5]\n\
                 [value(g(h)) for h in [[2, 3], [1, 2, 3, 4], [3, 0, 2]]]\n"
            )
        })
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn list_states_written_out_agree_with_the_interpreter(file in list_file()) {
        compare(&file)?;
    }
}
