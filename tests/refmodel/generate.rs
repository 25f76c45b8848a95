//! Random specs: four games and four functions built of every construct
//! the model has, plus queries about them.
//!
//! * `g0(n)` and `g1(n)`: one integer parameter; `g1` also moves to `g0`.
//! * `h(x, y)`: two parameters; moves to `g0`, `g1` and itself.
//! * `l(s)`: a list of heaps; a move takes from, splits or drops one heap.
//! * `f(a, b)` (integer), `ok(a, b)` (boolean), `p(a, b)` (a position),
//!   `vg(a)` (a query: the value of a position of `g0`) and
//!   `splice(xs, i, ys)` (a list), called from guards and targets.
//!
//! Every play ends, by construction: each move of a game to itself makes
//! its arguments smaller in a well-founded order, with a guard that says
//! so (`1 <= d <= n` before `g(n - d)`), while moves to other games and
//! heaps take arguments `e % m` with `m > 0`, which are never negative.
//! Divisors are non-zero constants or odd numbers (`e | 1`), so the only
//! errors are the ones `trap` sets on purpose.

use super::*;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};

/// The names an expression may use.
#[derive(Clone, Debug, Default)]
struct Scope {
    /// Integers known to be small (parameters, heaps of a list state):
    /// fit for the bounds of ranges.
    small: Vec<&'static str>,
    /// All integer names, including binders of any size.
    ints: Vec<&'static str>,
    /// Whether the list `s` is in scope (for `len(s)` and `sum(s)`).
    list: bool,
    call_f: bool,
    call_ok: bool,
    /// Whether `vg`, which asks for a value of `g0`, may be called: not in
    /// `g0` itself, whose rules would then ask about `g0`.
    call_vg: bool,
}

impl Scope {
    fn params(names: &[&'static str]) -> Scope {
        Scope {
            small: names.to_vec(),
            ints: names.to_vec(),
            call_f: true,
            call_ok: true,
            ..Scope::default()
        }
    }

    fn with(&self, names: &[&'static str], small: bool) -> Scope {
        let mut scope = self.clone();
        scope.ints.extend(names);
        if small {
            scope.small.extend(names);
        }
        scope
    }
}

fn weighted(choices: Vec<(u32, BoxedStrategy<Expr>)>) -> BoxedStrategy<Expr> {
    Union::new_weighted(choices).boxed()
}

fn some_var(names: &[&'static str]) -> BoxedStrategy<Expr> {
    select(names.to_vec()).prop_map(var).boxed()
}

fn leaf(scope: &Scope) -> BoxedStrategy<Expr> {
    let mut choices = vec![(2, (-3i64..=7).prop_map(int).boxed())];
    if !scope.ints.is_empty() {
        choices.push((5, some_var(&scope.ints)));
    }
    if scope.list {
        let s = || vec![var("s")];
        choices.push((1, Just(builtin(Builtin::Len, s())).boxed()));
        choices.push((1, Just(builtin(Builtin::Sum, s())).boxed()));
    }
    weighted(choices)
}

fn nonzero() -> BoxedStrategy<Expr> {
    prop_oneof![-4i64..=-1, 1i64..=4].prop_map(int).boxed()
}

fn comparison() -> impl Strategy<Value = Cmp> {
    select(vec![Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne])
}

/// An integer expression: arithmetic (floor `/` and `%`), bit operations,
/// `min`, `max`, `abs`, `if`, and calls of `f`.
fn int_expr(scope: &Scope) -> BoxedStrategy<Expr> {
    int_expr_of_depth(scope, 2)
}

fn int_expr_of_depth(scope: &Scope, depth: u32) -> BoxedStrategy<Expr> {
    let scope = scope.clone();
    leaf(&scope)
        .prop_recursive(depth, 4 * depth, 2, move |inner| {
            let e = || inner.clone();
            let ops = |ops: Vec<Op>| select(ops);
            let mut choices = vec![
                (
                    6,
                    (e(), ops(vec![Op::Add, Op::Sub, Op::Mul]), e())
                        .prop_map(|(a, op, b)| bin(op, a, b))
                        .boxed(),
                ),
                (
                    2,
                    (e(), ops(vec![Op::Div, Op::Mod]), nonzero())
                        .prop_map(|(a, op, b)| bin(op, a, b))
                        .boxed(),
                ),
                // Any divisor, made odd so that it is never zero.
                (
                    1,
                    (e(), ops(vec![Op::Div, Op::Mod]), e())
                        .prop_map(|(a, op, b)| bin(op, a, bin(Op::BitOr, b, int(1))))
                        .boxed(),
                ),
                (
                    2,
                    (e(), ops(vec![Op::BitAnd, Op::BitOr, Op::BitXor]), e())
                        .prop_map(|(a, op, b)| bin(op, a, b))
                        .boxed(),
                ),
                (
                    1,
                    (e(), ops(vec![Op::Shl, Op::Shr]), 0i64..=3)
                        .prop_map(|(a, op, k)| bin(op, a, int(k)))
                        .boxed(),
                ),
                (1, e().prop_map(|a| Expr::Neg(Box::new(a))).boxed()),
                (
                    2,
                    (select(vec![Builtin::Min, Builtin::Max]), e(), e())
                        .prop_map(|(b, x, y)| builtin(b, vec![x, y]))
                        .boxed(),
                ),
                (1, e().prop_map(|a| builtin(Builtin::Abs, vec![a])).boxed()),
                (
                    1,
                    (e(), comparison(), e(), e(), e())
                        .prop_map(|(a, cmp, b, x, y)| {
                            Expr::If(Box::new(chain(a, vec![(cmp, b)])), Box::new(x), Box::new(y))
                        })
                        .boxed(),
                ),
            ];
            if scope.call_vg {
                choices.push((1, leaf(&scope).prop_map(|a| call("vg", vec![a])).boxed()));
            }
            choices.extend(local_lets(&scope, depth, e()));
            if scope.call_f {
                // Plain arguments, so that values stay far from overflow.
                let args = (leaf(&scope), leaf(&scope));
                choices.push((1, args.prop_map(|(a, b)| call("f", vec![a, b])).boxed()));
            }
            weighted(choices)
        })
        .boxed()
}

/// `let u = VALUE in BODY` (or `z`, if `u` is taken: then the value may
/// use the outer `u`), and `let (u, z) = (A, B) in BODY`, whose bodies are
/// integer expressions one level shallower that see the new names.
fn local_lets(
    scope: &Scope,
    depth: u32,
    value: BoxedStrategy<Expr>,
) -> Vec<(u32, BoxedStrategy<Expr>)> {
    if depth == 0 {
        return Vec::new();
    }
    let local = |pattern: Pattern, value: Expr, body: Expr| Expr::Let {
        pattern,
        value: Box::new(value),
        body: Box::new(body),
    };
    let name: &'static str = if scope.ints.contains(&"u") { "z" } else { "u" };
    let body = int_expr_of_depth(&scope.with(&[name], false), depth - 1);
    let one = (value.clone(), body).prop_map(move |(v, b)| local(Pattern::Name(name.into()), v, b));
    let mut choices = vec![(2, one.boxed())];
    if name == "u" {
        let body = int_expr_of_depth(&scope.with(&["u", "z"], false), depth - 1);
        let pair = (value.clone(), value, body).prop_map(move |(a, b, body)| {
            let names = vec!["u".to_string(), "z".to_string()];
            local(Pattern::Tuple(names), Expr::Tuple(vec![a, b]), body)
        });
        choices.push((1, pair.boxed()));
    }
    choices
}

/// A condition: comparisons, chains (`a <= b < c`), calls of `ok`, `and`,
/// `or`, `not`.
fn condition(scope: &Scope) -> BoxedStrategy<Expr> {
    let e = || int_expr_of_depth(scope, 1);
    let mut leaves = vec![
        (
            4,
            (e(), comparison(), e())
                .prop_map(|(a, cmp, b)| chain(a, vec![(cmp, b)]))
                .boxed(),
        ),
        (
            1,
            (e(), comparison(), e(), comparison(), e())
                .prop_map(|(a, c1, b, c2, c)| chain(a, vec![(c1, b), (c2, c)]))
                .boxed(),
        ),
    ];
    if scope.call_ok {
        let args = (leaf(scope), leaf(scope));
        leaves.push((1, args.prop_map(|(a, b)| call("ok", vec![a, b])).boxed()));
    }
    weighted(leaves)
        .prop_recursive(2, 6, 2, |inner| {
            prop_oneof![
                3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| and(a, b)),
                1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| or(a, b)),
                1 => inner.prop_map(|a| Expr::Not(Box::new(a))),
            ]
        })
        .boxed()
}

/// A bound of a range: never far from the small names.
fn bound(scope: &Scope) -> BoxedStrategy<Expr> {
    let mut choices = vec![(2, (-1i64..=5).prop_map(int).boxed())];
    if !scope.small.is_empty() {
        let small = some_var(&scope.small);
        choices.push((3, small.clone()));
        let shifted = (small, -2i64..=2).prop_map(|(v, c)| bin(Op::Add, v, int(c)));
        choices.push((1, shifted.boxed()));
    }
    if !scope.ints.is_empty() {
        let clamped = (some_var(&scope.ints), 1i64..=6)
            .prop_map(|(v, c)| builtin(Builtin::Min, vec![v, int(c)]));
        choices.push((1, clamped.boxed()));
    }
    weighted(choices)
}

/// What an integer binder ranges over: a range, a set or list written
/// out, or the set `S`.
fn domain(scope: &Scope) -> BoxedStrategy<Expr> {
    prop_oneof![
        5 => (bound(scope), bound(scope), any::<bool>()).prop_map(|(a, b, incl)| range(a, b, incl)),
        1 => prop::collection::vec(int_expr(scope), 1..=3).prop_map(Expr::Set),
        1 => prop::collection::vec(int_expr(scope), 0..=3).prop_map(Expr::List),
        1 => Just(var("S")),
    ]
    .boxed()
}

/// What a pair binder `(c, d)` ranges over: `D`, or a list of pairs.
fn pair_domain(scope: &Scope) -> BoxedStrategy<Expr> {
    let item = || prop_oneof![3 => (0i64..=3).prop_map(int), 1 => leaf(scope)];
    let pairs = prop::collection::vec(
        (item(), item()).prop_map(|(a, b)| Expr::Tuple(vec![a, b])),
        1..=3,
    );
    prop_oneof![1 => Just(var("D")), 1 => pairs.prop_map(Expr::List)].boxed()
}

/// Up to two binders, each an integer or a pair; later binders and the
/// rest of the rule see the earlier ones.
fn binders(scope: Scope, slot: usize, max: usize) -> BoxedStrategy<(Vec<Binder>, Scope)> {
    const INTS: [&str; 2] = ["a", "b"];
    const PAIRS: [[&str; 2]; 2] = [["c", "d"], ["e", "w"]];
    if slot == max {
        return Just((vec![], scope)).boxed();
    }
    let int_binder = domain(&scope).prop_map(move |domain| Binder {
        pattern: Pattern::Name(INTS[slot].to_string()),
        domain,
    });
    let pair_binder = pair_domain(&scope).prop_map(move |domain| Binder {
        pattern: Pattern::Tuple(PAIRS[slot].iter().map(|n| n.to_string()).collect()),
        domain,
    });
    prop_oneof![3 => int_binder, 1 => pair_binder]
        .prop_flat_map(move |binder| {
            let names: Vec<&'static str> = match &binder.pattern {
                Pattern::Name(_) => vec![INTS[slot]],
                Pattern::Tuple(_) => PAIRS[slot].to_vec(),
            };
            let inner = scope.with(&names, false);
            binders(inner, slot + 1, max).prop_map(move |(mut rest, scope)| {
                rest.insert(0, binder.clone());
                (rest, scope)
            })
        })
        .boxed()
}

/// A term of a target, with the conditions that make it well founded.
type Term = (Expr, Vec<Expr>);

/// How much a move takes: often a constant or a binder, so that the
/// guard `1 <= d <= n` holds for many positions.
fn step(scope: &Scope) -> BoxedStrategy<Expr> {
    prop_oneof![
        2 => (1i64..=3).prop_map(int),
        2 => some_var(&scope.ints),
        2 => int_expr_of_depth(scope, 1),
    ]
    .boxed()
}

/// `1 <= d <= n`
fn decreases(d: &Expr, n: &str) -> Expr {
    chain(int(1), vec![(Cmp::Le, d.clone()), (Cmp::Le, var(n))])
}

/// `e % m`, with `0 < m <= max`: never negative.
fn modulo(scope: &Scope, max: i64) -> BoxedStrategy<Expr> {
    (int_expr(scope), 1..=max)
        .prop_map(|(e, m)| bin(Op::Mod, e, int(m)))
        .boxed()
}

/// Heaps, positions of the games below, and `p(a, b)`.
fn other_terms(scope: &Scope, lower: &[&'static str]) -> Vec<(u32, BoxedStrategy<Term>)> {
    let mut terms = vec![
        (2, modulo(scope, 5).prop_map(|k| (heap(k), vec![])).boxed()),
        (1, Just((int(0), vec![])).boxed()),
    ];
    if !lower.is_empty() {
        let lower = (select(lower.to_vec()), modulo(scope, 9));
        terms.push((
            2,
            lower.prop_map(|(g, k)| (game(g, vec![k]), vec![])).boxed(),
        ));
        let args = (leaf(scope), leaf(scope));
        terms.push((
            1,
            args.prop_map(|(a, b)| (call("p", vec![a, b]), vec![]))
                .boxed(),
        ));
    }
    terms
}

/// A target: a sum of one or two terms, or an `if` choosing between two
/// sums; with all the conditions its terms need.
fn target(terms: Vec<(u32, BoxedStrategy<Term>)>, scope: &Scope) -> BoxedStrategy<Term> {
    let sum = prop::collection::vec(Union::new_weighted(terms), 1..=2)
        .prop_map(|terms| {
            let mut conds = Vec::new();
            let mut total: Option<Expr> = None;
            for (t, c) in terms {
                conds.extend(c);
                total = Some(match total {
                    Some(sum) => bin(Op::Add, sum, t),
                    None => t,
                });
            }
            (total.unwrap(), conds)
        })
        .boxed();
    prop_oneof![
        4 => sum.clone(),
        1 => (condition(scope), sum.clone(), sum).prop_map(|(c, (a, ca), (b, cb))| {
            (Expr::If(Box::new(c), Box::new(a), Box::new(b)), [ca, cb].concat())
        }),
    ]
    .boxed()
}

/// `guard and c1 and c2 ...`, or nothing.
fn conjunction(guard: Option<Expr>, conds: Vec<Expr>) -> Option<Expr> {
    guard.into_iter().chain(conds).reduce(and)
}

/// A rule of a game, from its binders and a target made in their scope.
fn rule(
    scope: Scope,
    max_binders: usize,
    target: impl Fn(&Scope) -> BoxedStrategy<Term> + Clone + 'static,
) -> BoxedStrategy<Rule> {
    (0..=max_binders)
        .prop_flat_map(move |n| binders(scope.clone(), 0, n))
        .prop_flat_map(move |(binders, scope)| {
            (
                Just(binders),
                prop::option::of(condition(&scope)),
                target(&scope),
            )
        })
        .prop_map(|(binders, guard, (target, conds))| Rule {
            name: "m".to_string(),
            binders,
            guard: conjunction(guard, conds),
            target,
        })
        .boxed()
}

/// A rule of a one-parameter game `name(n)`.
fn rule_1(name: &'static str, lower: &'static [&'static str]) -> BoxedStrategy<Rule> {
    let params = Scope {
        call_vg: !lower.is_empty(),
        ..Scope::params(&["n"])
    };
    let general = rule(params, 2, move |scope| {
        let smaller = step(scope).prop_map(move |d| {
            let guard = decreases(&d, "n");
            (game(name, vec![bin(Op::Sub, var("n"), d)]), vec![guard])
        });
        let mut terms = other_terms(scope, lower);
        terms.push((6, smaller.boxed()));
        target(terms, scope)
    });
    prop_oneof![4 => general, 1 => split_rule(name)].boxed()
}

/// Kayles-like: `k in DOMAIN, a in 0..=n - k` if `1 <= k`, to
/// `name(a) + name(n - k - a)`.
fn split_rule(name: &'static str) -> BoxedStrategy<Rule> {
    let scope = Scope::params(&["n"]);
    let inner = scope.with(&["k"], false);
    (
        domain(&scope),
        prop::option::of(condition(&inner.with(&["a"], false))),
    )
        .prop_map(move |(k_domain, guard)| {
            let rest = bin(Op::Sub, var("n"), var("k"));
            let binders = vec![
                Binder {
                    pattern: Pattern::Name("k".into()),
                    domain: k_domain,
                },
                Binder {
                    pattern: Pattern::Name("a".into()),
                    domain: range(int(0), rest.clone(), true),
                },
            ];
            let k_positive = chain(int(1), vec![(Cmp::Le, var("k"))]);
            Rule {
                name: "split".to_string(),
                binders,
                guard: conjunction(guard, vec![k_positive]),
                target: bin(
                    Op::Add,
                    game(name, vec![var("a")]),
                    game(name, vec![bin(Op::Sub, rest, var("a"))]),
                ),
            }
        })
        .boxed()
}

/// A rule of `h(x, y)`: the arguments go down in lexicographic order (x
/// smaller, y anything not negative; or x the same and y smaller).
fn rule_h() -> BoxedStrategy<Rule> {
    let params = Scope {
        call_vg: true,
        ..Scope::params(&["x", "y"])
    };
    let general = rule(params, 2, |scope| {
        let new_y = prop_oneof![
            2 => Just((var("y"), vec![])),
            1 => step(scope).prop_map(|d| {
                let guard = chain(int(0), vec![(Cmp::Le, d.clone()), (Cmp::Le, var("y"))]);
                (bin(Op::Sub, var("y"), d), vec![guard])
            }),
            1 => modulo(scope, 6).prop_map(|y| (y, vec![])),
        ];
        let x_down = (step(scope), new_y).prop_map(|(d, (y, mut conds))| {
            conds.insert(0, decreases(&d, "x"));
            (game("h", vec![bin(Op::Sub, var("x"), d), y]), conds)
        });
        let y_down = step(scope).prop_map(|d| {
            let guard = decreases(&d, "y");
            (
                game("h", vec![var("x"), bin(Op::Sub, var("y"), d)]),
                vec![guard],
            )
        });
        let mut terms = other_terms(scope, &["g0", "g1"]);
        terms.push((3, x_down.boxed()));
        terms.push((3, y_down.boxed()));
        target(terms, scope)
    });
    prop_oneof![4 => general, 1 => jump_rule()].boxed()
}

/// `jump((c, d) in D) if 1 <= c <= x and 0 <= d <= y -> h(x - c, y - d)`
fn jump_rule() -> BoxedStrategy<Rule> {
    let scope = Scope::params(&["x", "y"]);
    (
        pair_domain(&scope),
        prop::option::of(condition(&scope.with(&["c", "d"], false))),
    )
        .prop_map(|(domain, guard)| Rule {
            name: "jump".to_string(),
            binders: vec![Binder {
                pattern: Pattern::Tuple(vec!["c".into(), "d".into()]),
                domain,
            }],
            guard: conjunction(
                guard,
                vec![
                    decreases(&var("c"), "x"),
                    chain(int(0), vec![(Cmp::Le, var("d")), (Cmp::Le, var("y"))]),
                ],
            ),
            target: game(
                "h",
                vec![
                    bin(Op::Sub, var("x"), var("c")),
                    bin(Op::Sub, var("y"), var("d")),
                ],
            ),
        })
        .boxed()
}

/// How `l` keeps its list: sorted, without zeros, or both.
#[derive(Clone, Copy, Debug)]
enum Normal {
    Sorted,
    Positive,
    SortedPositive,
}

fn normalise(how: Normal, xs: Expr) -> Expr {
    let positive = |xs| Expr::Comprehension {
        elem: Box::new(var("t")),
        var: "t".to_string(),
        over: Box::new(xs),
        cond: Some(Box::new(chain(var("t"), vec![(Cmp::Gt, int(0))]))),
    };
    match how {
        Normal::Sorted => builtin(Builtin::Sorted, vec![xs]),
        Normal::Positive => positive(xs),
        Normal::SortedPositive => builtin(Builtin::Sorted, vec![positive(xs)]),
    }
}

/// `s` with its item `i` replaced by the items `ys`: written out, or by
/// calling `splice`.
fn replace(ys: Vec<Expr>, by_call: bool) -> Expr {
    if by_call {
        return call("splice", vec![var("s"), var("i"), Expr::List(ys)]);
    }
    let before = Expr::Slice(Box::new(var("s")), None, Some(Box::new(var("i"))));
    let after = Expr::Slice(
        Box::new(var("s")),
        Some(Box::new(bin(Op::Add, var("i"), int(1)))),
        None,
    );
    bin(Op::Add, bin(Op::Add, before, Expr::List(ys)), after)
}

/// A rule of `l(s)`. Each move takes `k >= 1` from heap `i`, possibly
/// splitting the rest in two, or drops a heap: the total goes down, or
/// stays with one heap fewer.
fn rule_l(how: Normal) -> BoxedStrategy<Rule> {
    (0..3usize)
        .prop_flat_map(move |kind| {
            let scope = Scope {
                list: true,
                call_vg: true,
                ..Scope::params(&[])
            }
            .with(&["i", "v"], true);
            // A drop binds no `k`.
            let inner = match kind {
                0 => scope.with(&["k"], false),
                1 => scope.with(&["k", "a"], false),
                _ => scope.clone(),
            };
            let extra = prop::option::of(Union::new_weighted(other_terms(&inner, &["g0", "g1"])));
            let guard = prop::option::of(condition(&inner));
            (Just(kind), domain(&scope), guard, extra, any::<bool>())
        })
        .prop_map(move |(kind, k_domain, guard, extra, by_call)| {
            let k = || var("k");
            let each_heap = Binder {
                pattern: Pattern::Tuple(vec!["i".into(), "v".into()]),
                domain: builtin(Builtin::Enumerate, vec![var("s")]),
            };
            let k_binder = Binder {
                pattern: Pattern::Name("k".into()),
                domain: k_domain,
            };
            let rest = bin(Op::Sub, var("v"), k());
            let (name, binders, ys, cond) = match kind {
                0 => (
                    "take",
                    vec![each_heap, k_binder],
                    vec![rest],
                    Some(decreases(&k(), "v")),
                ),
                1 => {
                    let a = Binder {
                        pattern: Pattern::Name("a".into()),
                        domain: range(int(1), rest.clone(), false),
                    };
                    let ys = vec![var("a"), bin(Op::Sub, rest, var("a"))];
                    (
                        "split",
                        vec![each_heap, k_binder, a],
                        ys,
                        Some(chain(int(1), vec![(Cmp::Le, k())])),
                    )
                }
                _ => ("drop", vec![each_heap], vec![], None),
            };
            let mut target = game("l", vec![normalise(how, replace(ys, by_call))]);
            if let Some((e, _)) = extra {
                target = bin(Op::Add, target, e);
            }
            Rule {
                name: name.to_string(),
                binders,
                guard: conjunction(guard, cond.into_iter().collect()),
                target,
            }
        })
        .boxed()
}

/// `S`, a set of move sizes, and `D`, a list of pairs.
fn lets() -> BoxedStrategy<Vec<(String, Expr)>> {
    let set = prop::collection::vec((1i64..=4).prop_map(int), 1..=3).prop_map(Expr::Set);
    let pair = (0i64..=2, 0i64..=2).prop_map(|(a, b)| Expr::Tuple(vec![int(a), int(b)]));
    let pairs = prop::collection::vec(pair, 1..=3).prop_map(Expr::List);
    (set, pairs)
        .prop_map(|(s, d)| vec![("S".to_string(), s), ("D".to_string(), d)])
        .boxed()
}

fn function(name: &str, params: &[&str], body: Expr) -> Function {
    Function {
        name: name.to_string(),
        params: params.iter().map(|p| p.to_string()).collect(),
        body,
    }
}

/// `f` and `ok` call nothing (`ok` may call `f`); `p` makes a position of
/// `g0`; `vg` asks for the value of a position of `g0`; `splice` replaces
/// an item of a list by a list of items.
fn functions() -> BoxedStrategy<Vec<Function>> {
    let ab = Scope {
        call_f: false,
        call_ok: false,
        ..Scope::params(&["a", "b"])
    };
    let f_body = int_expr(&ab);
    let ok_body = condition(&Scope {
        call_f: true,
        ..ab.clone()
    });
    let p_body = (modulo(&ab, 9), modulo(&ab, 5))
        .prop_map(|(x, k)| bin(Op::Add, game("g0", vec![x]), heap(k)));
    let vg_body =
        modulo(&Scope::params(&["a"]), 7).prop_map(|x| Expr::Value(Box::new(game("g0", vec![x]))));
    (f_body, ok_body, p_body, vg_body)
        .prop_map(|(f, ok, p, vg)| {
            let before = Expr::Slice(Box::new(var("xs")), None, Some(Box::new(var("i"))));
            let after = Expr::Slice(
                Box::new(var("xs")),
                Some(Box::new(bin(Op::Add, var("i"), int(1)))),
                None,
            );
            let splice = bin(Op::Add, bin(Op::Add, before, var("ys")), after);
            vec![
                function("f", &["a", "b"], f),
                function("ok", &["a", "b"], ok),
                function("p", &["a", "b"], p),
                function("vg", &["a"], vg),
                function("splice", &["xs", "i", "ys"], splice),
            ]
        })
        .boxed()
}

fn ints(items: &[i64]) -> Expr {
    Expr::List(items.iter().map(|&n| int(n)).collect())
}

/// A start position of `l`: a few small heaps.
fn heaps(max_len: usize, max: i64) -> BoxedStrategy<Expr> {
    prop::collection::vec(0..=max, 0..=max_len)
        .prop_map(|xs| ints(&xs))
        .boxed()
}

/// One component of a queried sum; `small` ones for the win/lose search,
/// which walks the product of the components' positions.
fn component(small: bool) -> BoxedStrategy<Expr> {
    let (n, xy, len, item): (i64, i64, usize, i64) =
        if small { (6, 3, 2, 2) } else { (12, 5, 3, 3) };
    prop_oneof![
        (select(vec!["g0", "g1"]), 0..=n).prop_map(|(g, k)| game(g, vec![int(k)])),
        (0..=xy, 0..=xy).prop_map(|(a, b)| game("h", vec![int(a), int(b)])),
        heaps(len, item).prop_map(|s| game("l", vec![s])),
        (0..=n / 2).prop_map(|k| heap(int(k))),
    ]
    .boxed()
}

fn sum_of(components: Vec<Expr>) -> Expr {
    components
        .into_iter()
        .reduce(|a, b| bin(Op::Add, a, b))
        .unwrap()
}

fn query() -> BoxedStrategy<Query> {
    let n = || var("n");
    let table_g0 = (prop_oneof![Just(0), Just(-2)], 6i64..=14)
        .prop_map(|(lo, hi)| Query::Table("g0".into(), vec![range(int(lo), int(hi), true)]));
    let of_n = prop_oneof![
        Just(game("g1", vec![n()])),
        Just(bin(Op::Add, game("g1", vec![n()]), game("g0", vec![n()]))),
        (1i64..=4).prop_map(move |m| bin(
            Op::Add,
            game("g1", vec![n()]),
            heap(bin(Op::Mod, n(), int(m)))
        )),
    ];
    let values_g1 = (4i64..=14, of_n.clone()).prop_map(|(hi, pos)| Query::Values {
        var: "n".into(),
        over: range(int(0), int(hi), true),
        pos,
    });
    // Folded over a comprehension: compiled when the position is one
    // game's (see src/runtime/kernel/query.rs), interpreted otherwise.
    let folded = (4i64..=30, of_n, any::<bool>()).prop_map(|(hi, pos, lost)| {
        let (var, over) = ("n".to_string(), range(int(0), int(hi), true));
        match lost {
            true => Query::Lost { var, over, pos },
            false => Query::NimSum { var, over, pos },
        }
    });
    let axis = |max: i64| {
        prop_oneof![
            3 => (0..=max).prop_map(|hi| range(int(0), int(hi), true)),
            1 => prop::collection::vec((0..=max).prop_map(int), 1..=3).prop_map(Expr::List),
            1 => prop::collection::vec((0..=max).prop_map(int), 1..=3).prop_map(Expr::Set),
        ]
    };
    let table_h = (axis(5), axis(5)).prop_map(|(xs, ys)| Query::Table("h".into(), vec![xs, ys]));
    let values_l =
        (prop::collection::vec(heaps(3, 3), 1..=4), any::<bool>()).prop_map(|(lists, star)| {
            let pos = game("l", vec![var("s")]);
            let pos = if star {
                bin(Op::Add, pos, heap(int(1)))
            } else {
                pos
            };
            Query::Values {
                var: "s".into(),
                over: Expr::List(lists),
                pos,
            }
        });
    let value =
        prop::collection::vec(component(false), 1..=4).prop_map(|cs| Query::Value(sum_of(cs)));
    let winner =
        prop::collection::vec(component(true), 1..=3).prop_map(|cs| Query::Winner(sum_of(cs)));
    // Far up a chain of positions, where grundy fills values in from below.
    let far = (select(vec!["g0", "g1"]), 25i64..=40)
        .prop_map(|(g, k)| Query::Value(game(g, vec![int(k)])));
    prop_oneof![
        3 => table_g0,
        3 => values_g1,
        2 => folded,
        3 => table_h,
        3 => values_l,
        3 => value,
        2 => winner,
        1 => far,
    ]
    .boxed()
}

fn normal() -> impl Strategy<Value = Normal> {
    select(vec![
        Normal::Sorted,
        Normal::Positive,
        Normal::SortedPositive,
    ])
}

fn game_of(name: &str, params: &[&str], rules: Vec<Rule>) -> Game {
    let rules = rules
        .into_iter()
        .enumerate()
        .map(|(i, r)| Rule {
            name: format!("{}{i}", r.name),
            ..r
        })
        .collect();
    Game {
        name: name.to_string(),
        params: params.iter().map(|p| p.to_string()).collect(),
        rules,
    }
}

/// Sometimes a rule of `g1` that fails at `g1(t)`: it divides by zero, or
/// makes a negative heap. Asking about a position that reaches `g1(t)`
/// is an error; asking about others is not.
fn trap() -> BoxedStrategy<Option<Rule>> {
    let rule = (0i64..=16, any::<bool>()).prop_map(|(t, divide)| {
        let gap = bin(Op::Sub, var("n"), int(t));
        Rule {
            name: "trap".to_string(),
            binders: vec![],
            guard: Some(chain(var("n"), vec![(Cmp::Eq, int(t))])),
            target: match divide {
                true => game("g0", vec![bin(Op::Div, int(1), gap)]),
                false => heap(bin(Op::Sub, gap, int(1))),
            },
        }
    });
    prop::option::weighted(0.4, rule).boxed()
}

/// A whole random spec: the `let`s, functions and games above, and three
/// to six queries.
pub fn spec() -> impl Strategy<Value = Spec> {
    let games = (
        prop::collection::vec(rule_1("g0", &[]), 1..=3),
        (prop::collection::vec(rule_1("g1", &["g0"]), 1..=3), trap()).prop_map(
            |(mut rules, trap)| {
                rules.extend(trap);
                rules
            },
        ),
        prop::collection::vec(rule_h(), 1..=3),
        normal().prop_flat_map(|how| prop::collection::vec(rule_l(how), 1..=3)),
    )
        .prop_map(|(g0, g1, h, l)| {
            vec![
                game_of("g0", &["n"], g0),
                game_of("g1", &["n"], g1),
                game_of("h", &["x", "y"], h),
                game_of("l", &["s"], l),
            ]
        });
    (
        lets(),
        functions(),
        games,
        prop::collection::vec(query(), 3..=6),
    )
        .prop_map(|(lets, functions, games, queries)| Spec {
            lets,
            functions,
            games,
            queries,
        })
}
