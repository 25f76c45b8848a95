//! List and tuple states through the kernels and the machine code,
//! against the interpreter.

use crate::sandbox::engines_disagree;
use crate::session::loaded;

/// The kernel of the first game of `source`, once its statements ran.
fn kernel(source: &str) -> Option<crate::runtime::kernel::Kernel> {
    let (mut session, _) = loaded("");
    session.run("test.game", source);
    crate::runtime::kernel::tests::first_game(&session.machine)
}

/// Rules over lists and tuples, each with the query that runs them.
const LIST_GAMES: [(&str, &str); 14] = [
    (
        "fn picked(mask, i) = ((mask >> i) & 1) == 1\n\
         game g(hs) {\n move take(mask in 1..(1 << len(hs)))\n \
         if all([hs[i] > 0 for i in 0..len(hs) if picked(mask, i)])\n \
         -> g(sorted([if picked(mask, i) then hs[i] - 1 else hs[i] for i in 0..len(hs)]))\n}\n",
        "[value(g([3] * 4)), value(g([2, 0, 1]))]",
    ),
    (
        "game g(hs) {\n move take(i in 0..len(hs), k in 1..=hs[i])\n \
         -> g(sorted(hs[:i] + [hs[i] - k] + hs[i + 1:]))\n}\n",
        "[value(g([a, b, c])) == a ^ b ^ c for a in 0..4 for b in 0..4 for c in 0..3]",
    ),
    (
        "game g(p) {\n move dec(i in 0..len(p)) if p[i] > 0 -> g(p[:i] + (p[i] - 1,) + p[i + 1:])\n}\n",
        "[value(g((3, 2, 2))), value(g((1, 0)))]",
    ),
    (
        "game g(hs) {\n move split(i in 0..len(hs), a in 1..hs[i]) if 2 * a < hs[i]\n \
         -> g(sorted(hs[:i] + hs[i + 1:] + [a, hs[i] - a]))\n}\n",
        "[value(g([n])) for n in 1..12]",
    ),
    (
        "game g(hs) {\n move cut(h in hs) if h > 1 and h not in [4, 9] -> g([x for x in hs if x != h] + [h - 2])\n \
         move all_down if any([x > 3 for x in hs]) and sum(hs) < 20 -> g(reversed([max(x - 1, 0) for x in hs]))\n}\n",
        "[value(g([5, 3])), value(g([7, 2, 2]))]",
    ),
    (
        "game g(n, hs) {\n move add(k in 1..=n) if len(hs) < 3 -> g(n - k, hs + [k])\n \
         move drop if len(hs) > 0 -> g(n, hs[1:]) + *hs[-1]\n}\n",
        "[value(g(5, [])), value(g(4, [2, 1]))]",
    ),
    (
        "game g(hs) {\n move m(i in 0..len(hs)) if hs[i] > 0 and min(hs) >= 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
        "[value(g([2, 2, 1])), value(g([1, -1]))]",
    ),
    (
        "game g(hs) {\n move pop if len(hs) > 0 -> g(hs[:-1])\n \
         move tail if len(hs) > 1 -> g(hs[-1:] + [0] * (len(hs) - 2))\n \
         move dec(i in 0..len(hs)) if hs[i] > 0 -> g(sorted(hs[:i] + [hs[i] - 1] + hs[i + 1:]))\n}\n",
        "[value(g([2, 1, 3])), value(g([1, 1, 0, 2]))]",
    ),
    (
        "game g(hs) {\n move take((i, h) in enumerate(hs), k in 1..=h) -> g(sorted(hs[:i] + [h - k] + hs[i + 1:]))\n \
         move cut if len(hs) > 1 and all([x >= j for (j, x) in enumerate(hs)])\n \
         -> g([x - 1 for (j, x) in enumerate(hs) if j != 0])\n}\n",
        "[value(g([1, 2, 3])), value(g([0, 4, 4, 5])), value(g([2, 2]))]",
    ),
    // An index out of range: the interpreter's error, in its words.
    (
        "game g(hs) {\n move m(i in 0..=len(hs)) if hs[i] > 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
        "value(g([1, 1]))",
    ),
    // Collections compared whole: lists (of other lengths too), tuples
    // and sets.
    (
        "game g(hs) {\n move take(i in 0..len(hs), k in 1..=hs[i]) if hs != [] and hs != [k, k] \
         and (hs[:i] == hs[i + 1:] or k != 2) -> g(sorted(hs[:i] + [hs[i] - k] + hs[i + 1:]))\n}\n",
        "[value(g([a, b])) for a in 0..5 for b in 0..5] + [value(g([2, 2, 2]))]",
    ),
    (
        "game g(p) {\n move dec(i in 0..len(p)) if p[i] > 0 and p != (1, 1) and {p[0]} != {p[-1], 9} \
         -> g(p[:i] + (p[i] - 1,) + p[i + 1:])\n}\n",
        "[value(g((a, b))) for a in 0..4 for b in 0..4]",
    ),
    // A list of another shape than the rules take: the interpreter's.
    (
        "game g(hs) {\n move m(i in 0..len(hs)) if hs[i] > 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
        "value(g((2, 1)))",
    ),
    (
        "game g(hs) {\n move m(i in 0..len(hs)) if hs[i] > 0 -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n",
        "value(g([2, (1, 2)]))",
    ),
];

#[test]
fn list_and_tuple_states_compile_and_agree_with_the_interpreter() {
    for (rules, query) in LIST_GAMES {
        let source = format!("{rules}{query}\n");
        let kernel = kernel(&source).expect(rules);
        assert!(kernel.takes_lists() && kernel.is_native(), "{rules}");
        assert_eq!(engines_disagree(&source), None, "{source}");
    }
}

#[test]
fn list_states_give_the_values_of_the_games_they_spell() {
    let (mut session, _) = loaded("");
    // Nim written with a list state: the xor of the heaps.
    let (rules, query) = LIST_GAMES[1];
    let code = session.run("nim.game", &format!("{rules}expect all({query})\n"));
    assert_eq!(code.exit_code(), 0);
    // Taking one token from each of a non-empty set of heaps, by hand:
    // [0, 1] moves to [0, 0] only (0), so is worth 1; [0, 2] moves to
    // [0, 1] only, so 0; [1, 1] moves to [0, 1] twice and [0, 0]: 2;
    // [1, 2] moves to [0, 2], [1, 1] and [0, 1]: mex {0, 2, 1} = 3.
    let (rules, _) = LIST_GAMES[0];
    let source = format!(
        "{rules}expect value(g([0, 0])) == 0\nexpect value(g([0, 1])) == 1\n\
         expect value(g([0, 2])) == 0\nexpect value(g([1, 1])) == 2\n\
         expect value(g([1, 2])) == 3\n"
    );
    assert_eq!(session.run("each.game", &source).exit_code(), 0);
}

/// An `if` monotone in the name of the `for` just before it (`d * d <=
/// n`, `d * d < n`, `n >= d ** 2`), over a range from 0 or more, ends that
/// `for`: the run gives the elements a filter of every value gives, for
/// ranges ending before, at and past where it fails. Not over a range
/// that may start below 0, nor for an `if` that is not monotone.
#[test]
fn a_monotone_if_ends_its_for() {
    use super::comp::{Clause, Comp, Source, ended};
    use crate::graph::Shape;
    use crate::runtime::kernel::expr::{Cond, Num};
    use crate::syntax::ast::BinOp;
    let bin = |op, a: &Num, b: &Num| Num::Bin(op, Box::new(a.clone()), Box::new(b.clone()));
    let (d, n) = (Num::Slot(0), Num::Slot(1));
    let square = bin(BinOp::Mul, &d, &d);
    let ifs = [
        Cond::Cmp(BinOp::Le, square.clone(), n.clone()),
        Cond::Cmp(BinOp::Lt, square.clone(), n.clone()),
        Cond::Cmp(BinOp::Ge, n.clone(), bin(BinOp::Pow, &d, &Num::Const(2))),
    ];
    let comp = |lo: i64, hi: i64, c: &Cond| Comp {
        clauses: ended(vec![
            Clause::For(0, Source::Range(Num::Const(lo), Num::Const(hi), false)),
            Clause::If(c.clone()),
        ]),
        elem: d.clone(),
        items: Shape::List,
    };
    let defs = crate::defs::Defs::default();
    for c in &ifs {
        for (lo, hi) in [(0, 0), (0, 1), (2, 5), (2, 40), (7, 8), (0, 300), (50, 60)] {
            let comp = comp(lo, hi, c);
            assert!(matches!(comp.clauses[1], Clause::While(..)), "{c:?}");
            for m in [0, 1, 4, 24, 25, 26, 2500] {
                let mut f = vec![0, m];
                let mut got = Vec::new();
                comp.run(0, &mut f, &defs, &mut |e, f| {
                    got.push(e.eval(f, &defs)?);
                    Ok(())
                })
                .unwrap();
                let want: Vec<i64> = (lo..hi)
                    .filter(|k| {
                        f[0] = *k;
                        c.eval(&mut f, &defs).unwrap()
                    })
                    .collect();
                assert_eq!(got, want, "{c:?} over {lo}..{hi} at {m}");
            }
        }
    }
    // From below 0 (`(-3) ** 2` is 9), or not monotone: a filter.
    assert!(matches!(comp(-3, 5, &ifs[0]).clauses[1], Clause::If(_)));
    let cycling = Cond::Cmp(BinOp::Le, bin(BinOp::Rem, &d, &Num::Const(7)), n.clone());
    assert!(matches!(comp(0, 5, &cycling).clauses[1], Clause::If(_)));
}
