//! Tests of the reference evaluator (tests/refmodel) against published
//! results, so that grundy can later be compared with it.

#[allow(dead_code)] // the differential tests will use the rest
mod refmodel;

use refmodel::eval::Reference;
use refmodel::*;

// ---- the reference itself, against published results ----

fn rule(binders: Vec<(Pattern, Expr)>, guard: Option<Expr>, target: Expr) -> Rule {
    let binders = binders
        .into_iter()
        .map(|(pattern, domain)| Binder { pattern, domain })
        .collect();
    Rule {
        name: "m".into(),
        binders,
        guard,
        target,
    }
}

fn name(n: &str) -> Pattern {
    Pattern::Name(n.into())
}

fn one_game(name: &str, params: &[&str], rules: Vec<Rule>) -> Spec {
    Spec {
        games: vec![Game {
            name: name.into(),
            params: params.iter().map(|p| p.to_string()).collect(),
            rules,
        }],
        ..Spec::default()
    }
}

fn sub(a: Expr, b: Expr) -> Expr {
    bin(Op::Sub, a, b)
}

fn add(a: Expr, b: Expr) -> Expr {
    bin(Op::Add, a, b)
}

fn cmp(a: Expr, op: Cmp, b: Expr) -> Expr {
    chain(a, vec![(op, b)])
}

fn value_of(reference: &Reference, e: Expr) -> u64 {
    let Ok(eval::Val::Pos(p)) = reference.evaluate(&e) else {
        panic!("{e} is not a position")
    };
    reference.value(&p).unwrap()
}

fn kayles() -> Spec {
    // knock(k in 1..=2, a in 0..=n - k) -> kayles(a) + kayles(n - k - a)
    let rest = sub(var("n"), var("k"));
    let knock = rule(
        vec![
            (name("k"), range(int(1), int(2), true)),
            (name("a"), range(int(0), rest.clone(), true)),
        ],
        None,
        add(
            game("kayles", vec![var("a")]),
            game("kayles", vec![sub(rest, var("a"))]),
        ),
    );
    one_game("kayles", &["n"], vec![knock])
}

/// OEIS A002186.
#[test]
fn the_reference_gives_the_kayles_sequence() {
    let spec = kayles();
    let reference = Reference::new(&spec).unwrap();
    let values: Vec<u64> = (0..36)
        .map(|n| value_of(&reference, game("kayles", vec![int(n)])))
        .collect();
    let published = [
        0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4,
        7, 2, 1, 8, 6, 7,
    ];
    assert_eq!(values, published);
}

/// Taking 1, 2 or 3 tokens: the values are n mod 4.
#[test]
fn the_reference_gives_the_subtraction_game_period() {
    let take = rule(
        vec![(name("k"), Expr::Set(vec![int(1), int(2), int(3)]))],
        Some(cmp(var("k"), Cmp::Le, var("n"))),
        game("s", vec![sub(var("n"), var("k"))]),
    );
    let spec = one_game("s", &["n"], vec![take]);
    let reference = Reference::new(&spec).unwrap();
    for n in 0..40 {
        assert_eq!(value_of(&reference, game("s", vec![int(n)])), n as u64 % 4);
    }
}

/// Grundy's game, OEIS A002188: split a heap into two unequal heaps.
#[test]
fn the_reference_gives_grundys_game() {
    let split = rule(
        vec![(name("a"), range(int(1), var("n"), false))],
        Some(cmp(bin(Op::Mul, int(2), var("a")), Cmp::Lt, var("n"))),
        add(
            game("g", vec![var("a")]),
            game("g", vec![sub(var("n"), var("a"))]),
        ),
    );
    let spec = one_game("g", &["n"], vec![split]);
    let reference = Reference::new(&spec).unwrap();
    let values: Vec<u64> = (0..21)
        .map(|n| value_of(&reference, game("g", vec![int(n)])))
        .collect();
    let published = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
    ];
    assert_eq!(values, published);
}

/// Wythoff's game: the second player wins exactly at the pairs
/// (⌊kφ⌋, ⌊kφ²⌋) and their mirror images.
#[test]
fn the_reference_finds_wythoffs_p_positions() {
    let w = |a, b| game("w", vec![a, b]);
    let k_in = |hi| vec![(name("k"), range(int(1), hi, true))];
    let both = builtin(Builtin::Min, vec![var("a"), var("b")]);
    let spec = one_game(
        "w",
        &["a", "b"],
        vec![
            rule(k_in(var("a")), None, w(sub(var("a"), var("k")), var("b"))),
            rule(k_in(var("b")), None, w(var("a"), sub(var("b"), var("k")))),
            rule(
                k_in(both),
                None,
                w(sub(var("a"), var("k")), sub(var("b"), var("k"))),
            ),
        ],
    );
    let reference = Reference::new(&spec).unwrap();
    let published = [
        (0, 0),
        (1, 2),
        (3, 5),
        (4, 7),
        (6, 10),
        (8, 13),
        (9, 15),
        (11, 18),
        (12, 20),
    ];
    for a in 0..=20 {
        for b in 0..=20 {
            let p = published.contains(&(a, b)) || published.contains(&(b, a));
            let v = value_of(&reference, w(int(a), int(b)));
            assert_eq!(v == 0, p, "w({a}, {b}) has value {v}");
        }
    }
}

/// Nim played on a sorted list of heaps: the value is the xor of the
/// heaps (Bouton). Exercises pair binders over `enumerate`, slices and
/// `sorted` in the reference.
#[test]
fn the_reference_plays_nim_on_a_list() {
    let replaced = add(
        add(
            Expr::Slice(Box::new(var("s")), None, Some(Box::new(var("i")))),
            Expr::List(vec![sub(var("v"), var("k"))]),
        ),
        Expr::Slice(
            Box::new(var("s")),
            Some(Box::new(add(var("i"), int(1)))),
            None,
        ),
    );
    let take = rule(
        vec![
            (
                Pattern::Tuple(vec!["i".into(), "v".into()]),
                builtin(Builtin::Enumerate, vec![var("s")]),
            ),
            (name("k"), range(int(1), var("v"), true)),
        ],
        None,
        game("l", vec![builtin(Builtin::Sorted, vec![replaced])]),
    );
    let spec = one_game("l", &["s"], vec![take]);
    let reference = Reference::new(&spec).unwrap();
    for heaps in [
        vec![],
        vec![3],
        vec![1, 2],
        vec![1, 2, 3],
        vec![4, 1, 3],
        vec![2, 2, 4],
    ] {
        let list = Expr::List(heaps.iter().map(|&h| int(h)).collect());
        let xor = heaps.iter().fold(0, |x, &h| x ^ h as u64);
        assert_eq!(
            value_of(&reference, game("l", vec![list])),
            xor,
            "{heaps:?}"
        );
    }
}

/// The Sprague–Grundy theorem, as a check of the reference's sums: the
/// mex over the options of a whole sum is the xor of its components'
/// values, and the win/lose search agrees.
#[test]
fn the_reference_values_sums_as_whole_games_too() {
    type Memo = std::collections::HashMap<Vec<eval::Component>, u64>;
    fn mex_of_sum(reference: &Reference, mut p: Vec<eval::Component>, memo: &mut Memo) -> u64 {
        p.sort();
        if let Some(v) = memo.get(&p) {
            return *v;
        }
        let options = reference.sum_options(&p).unwrap();
        let seen: Vec<u64> = options
            .into_iter()
            .map(|q| mex_of_sum(reference, q, memo))
            .collect();
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        memo.insert(p, v);
        v
    }
    let spec = kayles();
    let reference = Reference::new(&spec).unwrap();
    let k = |n| eval::Component::Game("kayles".into(), vec![eval::Val::Int(n)]);
    let mut memo = Memo::new();
    for sum in [
        vec![k(1), k(1)],
        vec![k(2), k(3)],
        vec![k(4), eval::Component::Heap(1)],
        vec![k(3), k(2), eval::Component::Heap(2)],
        vec![k(5), k(4)],
    ] {
        let xor = reference.value(&sum).unwrap();
        assert_eq!(
            mex_of_sum(&reference, sum.clone(), &mut memo),
            xor,
            "{sum:?}"
        );
        assert_eq!(
            reference.first_player_wins(sum.clone()).unwrap(),
            xor != 0,
            "{sum:?}"
        );
    }
}

/// The examples of docs/language.md: floor division and modulo, shifts,
/// chains.
#[test]
fn the_reference_computes_like_the_language_reference() {
    let spec = Spec::default();
    let reference = Reference::new(&spec).unwrap();
    let int_of = |e: Expr| reference.evaluate(&e).unwrap();
    let n = |x: i64| eval::Val::Int(x);
    for (a, b, q, r) in [
        (7, 2, 3, 1),
        (-7, 2, -4, 1),
        (7, -2, -4, -1),
        (-7, -2, 3, -1),
        (7, 3, 2, 1),
        (-7, 3, -3, 2),
        (7, -3, -3, -2),
    ] {
        assert_eq!(int_of(bin(Op::Div, int(a), int(b))), n(q), "{a} / {b}");
        assert_eq!(int_of(bin(Op::Mod, int(a), int(b))), n(r), "{a} % {b}");
    }
    assert!(reference.evaluate(&bin(Op::Div, int(1), int(0))).is_err());
    assert_eq!(int_of(bin(Op::Shl, int(1), int(4))), n(16));
    assert_eq!(int_of(bin(Op::Shr, int(-16), int(2))), n(-4));
    assert_eq!(int_of(bin(Op::Shr, int(-1), int(5))), n(-1));
    assert_eq!(
        int_of(bin(Op::BitXor, bin(Op::BitXor, int(3), int(4)), int(5))),
        n(2)
    );
    let yes = eval::Val::Bool(true);
    let no = eval::Val::Bool(false);
    assert_eq!(
        int_of(chain(int(1), vec![(Cmp::Lt, int(2)), (Cmp::Lt, int(3))])),
        yes
    );
    assert_eq!(
        int_of(chain(int(3), vec![(Cmp::Gt, int(2)), (Cmp::Gt, int(2))])),
        no
    );
    assert_eq!(
        int_of(chain(int(1), vec![(Cmp::Eq, int(1)), (Cmp::Ne, int(2))])),
        yes
    );
    assert!(reference.evaluate(&heap(int(-1))).is_err());
}
