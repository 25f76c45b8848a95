//! Calls of functions in rules: made once, unrolled, or left as calls;
//! and binders over a few constants.

use super::*;

/// The calls of functions left in `source`'s first game's normalised
/// rules.
fn calls_left(source: &str) -> usize {
    guard_nodes(source, |ir| {
        matches!(ir.kind, crate::ir::IrKind::CallFn(..))
    })
}

/// The nodes of `source`'s first game's normalised guards that `which`
/// picks.
fn guard_nodes(source: &str, which: fn(&crate::ir::Ir) -> bool) -> usize {
    fn count(ir: &crate::ir::Ir, which: fn(&crate::ir::Ir) -> bool) -> usize {
        let mut n = usize::from(which(ir));
        super::super::each_child(ir, &mut |e| n += count(e, which));
        n
    }
    let mut s = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    s.run("test.game", source);
    let m = &s.machine;
    let rules = super::super::rules(&m.game_ir(0), &m.defs);
    rules
        .moves
        .iter()
        .filter_map(|r| r.guard.as_ref())
        .map(|g| count(g, which))
        .sum()
}

#[test]
fn a_call_both_branches_make_is_made_once_before_them() {
    // Three parameters, so that the rules unroll the recursion rather
    // than leave it a call the machine code remembers (see below).
    let ones = |body: &str| {
        format!(
            "fn ones(n, a, b) = if n == 0 then a - b else {body}\n\
             game g(x) {{\n move m(k in 1..=x) if ones(k, 1, 1) == 2 -> g(x - k)\n}}\n\
             [value(g(n)) for n in 0..200]\n"
        )
    };
    // Hoisted, the recursion unrolls as one call per level, and one call
    // is left at the end; a condition that may fail (`n / (n - 1)`) keeps
    // the calls in their branches, doubling at each level.
    let hoisted = ones("if n % 2 == 1 then 1 + ones(n / 2, a, b) else ones(n / 2, a, b)");
    assert_eq!(calls_left(&hoisted), 1);
    compiles_and_agrees(&hoisted, "hoisted");
    let kept = ones(
        "if n / (n + 1) == 0 and n % 2 == 1 then 1 + ones(n / 2, a, b) else ones(n / 2, a, b)",
    );
    assert!(calls_left(&kept) > 1);
    compiles_and_agrees(&kept, "kept");
    // A call whose argument a branch binds is not hoisted.
    let bound = ones(
        "if n % 2 == 1 then (let n = n / 2 in 1 + ones(n, a, b)) else (let n = n / 2 in ones(n, a, b))",
    );
    compiles_and_agrees(&bound, "bound");
}

#[test]
fn a_function_of_integers_that_calls_itself_stays_a_call_in_the_rules() {
    // One or two integer parameters: the rules call it, and the machine
    // code remembers its results, rather than unroll it per option.
    let game = |f: &str, call: &str| {
        format!(
            "{f}\ngame g(x) {{\n move m(k in 1..=x) if {call} == 2 -> g(x - k)\n}}\n\
             [value(g(n)) for n in 0..200]\n"
        )
    };
    let ones =
        "fn ones(n) = if n == 0 then 0 else if n % 2 == 1 then 1 + ones(n / 2) else ones(n / 2)";
    let digits = "fn digits(n, b) = if n < b then n else n % b + digits(n / b, b)";
    let all = |_: &crate::ir::Ir| true;
    for (source, name) in [
        (game(ones, "ones(k)"), "ones"),
        (game(digits, "digits(k, 3)"), "digits"),
    ] {
        assert_eq!(calls_left(&source), 1, "{name}");
        assert!(guard_nodes(&source, all) < 10, "{name}");
        compiles_and_agrees(&source, name);
    }
    // A list inside: unrolled as before, a level per step.
    let listed = game(
        "fn ones(n) = if n == 0 then 0 else [0, 1][n % 2] + ones(n / 2)",
        "ones(k)",
    );
    assert!(guard_nodes(&listed, all) > 30);
    compiles_and_agrees(&listed, "listed");
}

/// How many moves `source`'s first game's normalised rules have.
fn moves_normalised(source: &str) -> usize {
    let mut s = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    s.run("test.game", source);
    let m = &s.machine;
    super::super::rules(&m.game_ir(0), &m.defs).moves.len()
}

#[test]
fn a_binder_over_a_few_constants_that_divides_is_unrolled() {
    let game = |prelude: &str, rule: &str, far: &str| {
        format!("{prelude}game g(n) {{\n {rule}\n}}\ntable(g, -40..=40)\n{far}")
    };
    let far = "value(g(10 ** 15))\nvalue(g(-(10 ** 15) - 7))\n";
    // Dividing (`/`, `%`), over a set, a list or a constant: one move per
    // item, in the binder's order, with the values the interpreter finds
    // for dividends of both signs.
    for (prelude, rule) in [
        ("", "move by(d in {6, 2, 3}) if n > 0 -> g(n / d)"),
        ("", "move by(d in [7, 3]) if n < 0 -> g(-(-n / d))"),
        (
            "let D = {3, 10}\n",
            "move by(d in D) if n % d == 1 and n != 0 -> g(n - n / d - 1)",
        ),
    ] {
        let source = game(prelude, rule, far);
        let items = if rule.contains("6, 2, 3") { 3 } else { 2 };
        assert_eq!(moves_normalised(&source), items, "{rule}");
        compiles_and_agrees(&source, rule);
    }
    // Not dividing, over too many items, or a binder the divisor reads
    // only through another name: one move, as written.
    for rule in [
        "move take(k in {1, 2, 3}) if k <= n -> g(n - k)",
        "move by(d in [2, 3, 4, 5, 6, 7, 8, 9, 10]) if n > 0 -> g(n / d)",
        "move by(d in {2, 3}, e in 1..=d) if n > 0 -> g(n / e)",
    ] {
        let source = game("", rule, "");
        assert_eq!(moves_normalised(&source), 1, "{rule}");
        compiles_and_agrees(&source, rule);
    }
}

#[test]
fn zip_is_read_by_index_and_compiles() {
    for (params, rules, asked) in [
        (
            "hs",
            "move down(i in 1..len(hs), k in 1..=hs[i]) if all([a <= b for (a, b) in zip(hs, hs[1:])]) \
             -> g(hs[:i - 1] + [hs[i - 1] + k, hs[i] - k] + hs[i + 1:])",
            "value(g([0, 2, 3]))\nvalue(g([1, 1, 4]))\n",
        ),
        (
            "n",
            "move m((a, b, c) in zip([1, 2, 3, 4], [4, 3, 2, 1], {0, 1, 5})) if a + c <= n and b != n -> g(n - a - c)",
            "table(g, 0..20)\n",
        ),
    ] {
        let source = format!("game g({params}) {{\n {rules}\n}}\n{asked}");
        compiles_and_agrees(&source, rules);
    }
    // A collection that costs something to make again is made once, in
    // a `let` around the comprehension: `all` of the list of conditions
    // made from it compiles, with the same values.
    let sorted = "game g(hs) {\n move m(i in 0..len(hs)) if hs[i] > 0 and all([a <= b \
                  for (a, b) in zip(sorted(hs), hs)]) -> g(hs[:i] + [hs[i] - 1] + hs[i + 1:])\n}\n\
                  value(g([1, 2, 3]))\n";
    assert!(compiles(sorted));
    assert_eq!(engines_disagree(sorted), None);
}

#[test]
fn a_binder_over_a_set_comprehension_is_lifted_where_moves_are_not_listed() {
    let source = "game s(n) {\n move take(k in {k for k in [4, 1, 3] if k <= n}) -> s(n - k)\n}\n";
    let set = |rules: &[crate::ir::MoveIr]| {
        rules.iter().any(|m| {
            let comprehension =
                |e: &crate::ir::Ir| matches!(e.kind, crate::ir::IrKind::Comprehension { .. });
            m.binders
                .iter()
                .any(|(_, d)| super::super::any_node(d, &comprehension))
        })
    };
    let moves = normalized(source);
    assert!(!set(&moves), "{moves:?}");
    // A set of other items than its loop's may keep a few of many
    // (`{j % 4 + 1 for j in 0..500}`): made once per position, not an
    // option per turn of its loop.
    let few =
        "game s(n) {\n move take(k in {j % 4 + 1 for j in 0..500}) if k <= n -> s(n - k)\n}\n";
    assert!(set(&normalized(few)));
    // Listed, in the set's order and each once: the set is kept.
    let mut s = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    s.run("test.game", source);
    let m = &s.machine;
    let listing = super::super::listing_rules(&m.game_ir(0), &m.defs).moves;
    assert!(set(&listing), "{listing:?}");
    compiles_and_agrees(
        &format!("{source}[value(s(n)) for n in 0..40]\n"),
        "a set comprehension",
    );
}

/// Kayles through a helper choosing the target by an `if` chain: no
/// move's guard tests `not (a == 0 and b == 0)`, which the other tests
/// decide (`implied.rs`), and the branches an equation picks (`a == 0`,
/// `n - 1 - a == 0`) loop over nothing (`solved.rs`): one loop is left,
/// the last branch's. Before, each of the four moves looped over `a`,
/// testing every option (7x the time of the rows written out).
#[test]
fn an_if_chain_in_a_helper_leaves_no_test_the_others_decide() {
    use crate::ir::IrKind;
    use crate::syntax::ast::{BinOp, UnOp};
    let source = "fn rows(a, b) = if a == 0 and b == 0 then 0 else if a == 0 then k(b) \
                  else if b == 0 then k(a) else k(a) + k(b)\n\
                  game k(n) {\n move one(a in 0..n) -> rows(a, n - 1 - a)\n}\nvalue(k(5))\n";
    let not_of_and = |ir: &crate::ir::Ir| {
        matches!(&ir.kind, IrKind::Unary(UnOp::Not, x)
            if matches!(x.kind, IrKind::Binary(BinOp::And, ..)))
    };
    assert_eq!(guard_nodes(source, not_of_and), 0);
    let moves = normalized(source);
    assert_eq!(moves.len(), 4);
    let loops: usize = moves.iter().map(|m| m.binders.len()).sum();
    assert_eq!(loops, 1, "{moves:#?}");
    compiles_and_agrees(source, "Kayles by a helper");
}
