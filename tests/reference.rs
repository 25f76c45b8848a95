//! Differential tests of grundy against a reference evaluator
//! (tests/refmodel): random rule files using ranges, lists, sets, tuples
//! and pair binders, user functions in guards and targets, `if`
//! expressions, chains, floor arithmetic and bit operations, list states,
//! two-parameter games and sums, are run through grundy (with its compiled
//! rules and without) and through the reference, a slow evaluator written
//! straight from the definitions; what grundy prints must be what the
//! reference computes, and grundy must report an error exactly when the
//! reference meets one.
//!
//! The reference itself is checked against published sequences below.

mod common;
mod refmodel;

use common::Engine;
use grundy::SharedBuffer;
use grundy::diag::Phase;
use grundy::session::Session;
use proptest::prelude::*;
use refmodel::eval::{Answer, Reference};
use refmodel::*;

/// What grundy printed and reported, and how its run ended.
struct Run {
    stdout: String,
    stderr: String,
    error: Option<Phase>,
}

fn run_grundy(text: &str, engine: Engine) -> Run {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    engine.apply(&mut session.machine);
    // Far more than any generated file needs: meeting a limit is a failure.
    session.machine.limits.timeout = Some(std::time::Duration::from_secs(30));
    session.machine.start_clock();
    let outcome = session.run("random.game", text);
    let text = |b: &SharedBuffer| String::from_utf8(b.0.borrow().clone()).unwrap();
    Run {
        stdout: text(&out),
        stderr: text(&err),
        error: outcome.error,
    }
}

/// The reference's answers to the queries, up to the first error, and
/// whether there was one.
fn reference_answers(spec: &Spec) -> (Vec<Answer>, Option<String>) {
    let reference = match Reference::new(spec) {
        Ok(r) => r,
        Err(e) => return (vec![], Some(e.0)),
    };
    let mut answers = Vec::new();
    for q in &spec.queries {
        match reference.answer(q) {
            Ok(a) => answers.push(a),
            Err(e) => return (answers, Some(e.0)),
        }
    }
    (answers, None)
}

/// The numbers of a printed table: the title line, then rows `label |
/// values`; a header row (whose label is not a number) is skipped. A
/// one-parameter table's rows are joined into one.
fn table_numbers(lines: &[&str], arity: usize) -> Option<Vec<Vec<u64>>> {
    let mut rows = Vec::new();
    for line in lines.get(1..)? {
        let (label, values) = line.split_once('|')?;
        if label.trim().parse::<i64>().is_err() {
            continue;
        }
        let row: Result<Vec<u64>, _> = values.split_whitespace().map(str::parse).collect();
        rows.push(row.ok()?);
    }
    Some(match arity {
        1 => vec![rows.concat()],
        _ => rows,
    })
}

/// grundy's output cut into the outputs of the queries.
fn outputs(stdout: &str) -> Vec<Vec<&str>> {
    let mut groups = vec![vec![]];
    for line in stdout.lines() {
        match line == SEPARATOR {
            true => groups.push(vec![]),
            false => groups.last_mut().unwrap().push(line),
        }
    }
    groups
}

/// Runs `spec` through grundy, with kernels and without, and compares
/// with the reference.
fn check(spec: &Spec) -> Result<(), TestCaseError> {
    let text = spec.to_string();
    let (answers, error) = reference_answers(spec);
    for engine in Engine::ALL {
        let run = run_grundy(&text, engine);
        let context = format!("engine: {engine:?}\n{text}\n{}", run.stderr);
        let groups = outputs(&run.stdout);
        for (i, answer) in answers.iter().enumerate() {
            let got = groups.get(i).map(Vec::as_slice).unwrap_or_default();
            match answer {
                Answer::Line(line) => {
                    prop_assert_eq!(got, &[line.as_str()], "query {}\n{}", i, context)
                }
                Answer::Table(rows) => {
                    let Query::Table(_, axes) = &spec.queries[i] else {
                        unreachable!()
                    };
                    let numbers = table_numbers(got, axes.len());
                    prop_assert_eq!(
                        numbers.as_ref(),
                        Some(rows),
                        "query {}: {:?}\n{}",
                        i,
                        got,
                        context
                    );
                }
            }
        }
        match &error {
            None => {
                prop_assert_eq!(run.error, None, "{}", context);
                prop_assert_eq!(groups.len(), answers.len(), "{}", context);
            }
            Some(e) => {
                // The statement that fails prints nothing, and stops the run.
                prop_assert_eq!(
                    run.error,
                    Some(Phase::Runtime),
                    "the reference says: {}\n{}",
                    e,
                    context
                );
                prop_assert_eq!(groups.len(), answers.len() + 1, "{}", context);
                prop_assert!(groups[answers.len()].is_empty(), "{}", context);
            }
        }
    }
    Ok(())
}

fn cases(default: u32) -> ProptestConfig {
    // PROPTEST_CASES, when set, overrides the default.
    match std::env::var("PROPTEST_CASES") {
        Ok(_) => ProptestConfig::default(),
        Err(_) => ProptestConfig::with_cases(default),
    }
}

proptest! {
    #![proptest_config(cases(96))]

    #[test]
    fn grundy_agrees_with_the_reference(spec in generate::spec()) {
        check(&spec)?;
    }
}

/// The generator makes files that mostly run, some that fail on
/// purpose, and values that are not all 0 and 1.
#[test]
fn the_random_files_are_varied() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut clean, mut failing, mut big) = (0, 0, 0);
    let (mut lets, mut varied_lets) = (0, 0);
    for _ in 0..200 {
        let spec = generate::spec().new_tree(&mut runner).unwrap().current();
        let text = spec.to_string();
        lets += usize::from(text.contains("(let "));
        varied_lets += usize::from(text.contains("(let (u, z) = ") && text.contains("(let z = "));
        let (answers, error) = reference_answers(&spec);
        match error {
            None => clean += 1,
            Some(_) => failing += 1,
        }
        let numbers = answers.iter().flat_map(|a| match a {
            Answer::Line(line) => line
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|x| x.parse::<u64>().ok())
                .collect(),
            Answer::Table(rows) => rows.concat(),
        });
        if numbers.max().unwrap_or(0) >= 2 {
            big += 1;
        }
    }
    assert!(clean >= 120, "only {clean} of 200 random files run cleanly");
    assert!(failing >= 10, "only {failing} of 200 random files fail");
    assert!(
        big >= 100,
        "only {big} of 200 random files have a value of 2 or more"
    );
    assert!(
        lets >= 150,
        "only {lets} of 200 random files have a local `let`"
    );
    assert!(
        varied_lets >= 20,
        "only {varied_lets} of 200 random files have a pair `let` and a nested one"
    );
}

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
    // A local `let` hides an outer one in its body; its value sees the outer.
    let local = |name: &str, value: Expr, body: Expr| Expr::Let {
        pattern: Pattern::Name(name.into()),
        value: Box::new(value),
        body: Box::new(body),
    };
    let inner = local("u", add(var("u"), int(1)), bin(Op::Mul, var("u"), var("u")));
    assert_eq!(int_of(local("u", int(2), inner)), n(9));
    assert!(reference.evaluate(&local("u", int(2), var("z"))).is_err());
}
