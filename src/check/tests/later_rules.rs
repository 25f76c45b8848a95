//! Rules 6 and on: binders, arity, calls, queries in rules, targets.

use super::*;

// Rule 6: binders shadowing parameters.

#[test]
fn a_binder_shadowing_a_parameter_is_reported() {
    let src = "game g(n, m) { move take((k, n) in [(1, 2)]) -> g(n, m) }";
    let diag = single(src);
    assert_eq!(diag.message, "binder `n` shadows the parameter `n` of `g`");
    assert_eq!(diag.extra[0].0.start, 7);
    // A comprehension inside the rule may reuse the name.
    assert_clean("game g(n) { move m(k in [n for n in 0..3]) -> g(k) }");
}

// Rule 7: arity.

#[test]
fn calls_of_games_and_fns_must_match_their_arity() {
    let src = "game g(n) { move m -> g(n, 1) }\nfn f(a, b) = a\nf(1)\nkayles(1, 2)\ndouble()";
    assert_eq!(
        messages(src),
        [
            "`g` takes 1 argument but 2 were given",
            "`f` takes 2 arguments but 1 was given",
            "`kayles` takes 1 argument but 2 were given",
            "`double` takes 1 argument but 0 were given",
        ]
    );
    let first = &diagnostics(src)[0];
    assert_eq!(text(src, first.span.unwrap()), "g(n, 1)");
    assert_eq!(text(src, first.extra[0].0), "g");
}

#[test]
fn calls_of_builtins_must_be_within_their_arity() {
    assert_eq!(
        messages("table(kayles)\nmin()\nzip([1])\nlen([1], [2])\nprint()\nmax(1, 2, 3)"),
        [
            "`table` takes 2 to 3 arguments but 1 was given",
            "`min` takes at least 1 argument but 0 were given",
            "`zip` takes at least 2 arguments but 1 was given",
            "`len` takes 1 argument but 2 were given",
        ]
    );
}

#[test]
fn a_builtin_of_one_argument_given_several_says_what_to_write() {
    let help = |src| single(src).help;
    assert_eq!(
        help("value(kayles(1), kayles(2))").as_deref(),
        Some("`value` asks about one position; for the sum of several, add them: `value(P + Q)`")
    );
    assert_eq!(
        help("mex(0, 1, 3)").as_deref(),
        Some("`mex` takes one collection: put the items in a list, as in `mex([a, b])`")
    );
    assert_eq!(help("len()"), None);
    assert_eq!(help("abs(1, 2)"), None);
    assert_eq!(help("table(kayles)"), None);
}

#[test]
fn calls_of_locals_lets_and_expressions_are_left_to_run_time() {
    assert_clean(
        "fn apply(h, x) = h(x, x, x)\nlet G = kayles\nG(1, 2)\nLIMIT(1)\n\
             fn f(x) = (x)(1)\n[x(1) for x in [kayles]]",
    );
}

// Rule 8: functions must be called.

#[test]
fn a_function_that_is_not_called_is_reported() {
    assert_eq!(
        messages("fn inside(x) = x > 0\nlet f = inside\n[len, 1]\ndouble"),
        [
            "function `inside` must be called with arguments",
            "function `len` must be called with arguments",
            "function `double` must be called with arguments",
        ]
    );
    assert_clean("game g(n) { move m -> 0 }\ntable(g, 0..3)\nlet h = kayles\n(len)([1])");
    let diag = single("fn answer() = 42\nanswer + 1");
    assert_eq!(diag.message, "function `answer` must be called");
    assert_eq!(diag.help.as_deref(), Some("call it, as in `answer()`"));
}

// Rule 9: queries in move rules.

#[test]
fn queries_inside_move_rules_are_reported() {
    let src = "game g(n) {\n\
                   move a(k in moves(g(n))) -> g(k)\n\
                   move b if value(g(n - 1)) == 0 -> g(n - 1)\n\
                   move c -> g(winner(g(0)))\n\
                   move d(k in [x for x in options(g(n))]) -> 0\n\
                   }";
    let diags = diagnostics(src);
    let got: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        got,
        [
            "`moves` cannot be used inside a move rule",
            "`value` cannot be used inside a move rule",
            "`winner` cannot be used inside a move rule",
            "`options` cannot be used inside a move rule",
        ]
    );
    assert_eq!(diags[0].notes, [QUERY_NOTE]);
}

#[test]
fn queries_outside_move_rules_are_fine() {
    assert_clean(
        "fn v(p) = value(p)\nexpect winner(kayles(3)) == \"first\"\nlet t = table(kayles, 0..3)",
    );
}

// Rule 10: move targets.

#[test]
fn a_move_target_that_is_never_a_position_is_reported() {
    let target = |t: &str| {
        let src = format!("game g(n) {{ move m(k in 0..n) -> {t} }}");
        let diag = single(&src);
        assert_eq!(diag.message, "a move target must be a position", "for {t}");
        assert_eq!(diag.help.as_deref(), Some(TARGET_HELP));
        (text(&src, diag.span.unwrap()).to_string(), diag.label)
    };
    assert_eq!(
        target("1"),
        ("1".into(), "this is a number, not a position".into())
    );
    assert_eq!(target("-2").1, "this is a number, not a position");
    assert_eq!(target("true").1, "this is a boolean, not a position");
    assert_eq!(target("\"g\"").1, "this is a string, not a position");
    assert_eq!(target("(g(k), g(k))").1, "this is a tuple, not a position");
    assert_eq!(target("[g(k)]").1, "this is a list, not a position");
    assert_eq!(target("{g(k)}").1, "this is a set, not a position");
    assert_eq!(
        target("[g(i) for i in 0..k]").1,
        "this is a comprehension, not a position"
    );
    assert_eq!(target("k < n").1, "this is a comparison, not a position");
    assert_eq!(
        target("k in 0..n").1,
        "this is a comparison, not a position"
    );
    assert_eq!(
        target("g(k) and g(k)").1,
        "this is a boolean, not a position"
    );
    assert_eq!(target("not g(k)").1, "this is a boolean, not a position");
    assert_eq!(target("0..k").1, "this is a range, not a position");
    assert_eq!(target("g(k) + 1").0, "1");
    assert_eq!(target("[1] + g(k)").0, "[1]");
    assert_eq!(target("if k > 0 then g(k) else 2").0, "2");
    assert_eq!(target("(((k, k)))").0, "(k, k)");
}

#[test]
fn a_move_target_that_may_be_a_position_is_fine() {
    assert_clean(
        "game g(n) {\n\
             move a -> 0\n\
             move b(k in 0..n) -> g(k) + 0 + *k\n\
             move c -> sum([g(i) for i in 0..n])\n\
             move d(k in 0..n) -> if k > 0 then g(k) else 0\n\
             move e(ps in [[g(1)]]) -> ps[0]\n\
             move f(p in [g(0)]) -> (p)\n\
             move h -> kayles(n) - g(n)\n\
             }",
    );
}

// Rule 11 and all rules together.

#[test]
fn top_level_expressions_follow_the_same_rules() {
    assert_eq!(
        messages("expect nimm(3) == 0\nlet x = inside\nprint(x, len(1, 2))"),
        [
            "unknown name `nimm`",
            "unknown name `inside`",
            "`len` takes 1 argument but 2 were given",
        ]
    );
}

#[test]
fn every_mistake_of_a_file_is_reported_in_source_order() {
    let src = "game nim(n) {\n\
                   move take(k in 1..=n) -> [nim(n - k)]\n\
                   }\n\
                   value(nim(1, 2))\n\
                   fn nim(x) = kayle(x)";
    assert_eq!(
        messages(src),
        [
            "a move target must be a position",
            "`nim` takes 1 argument but 2 were given",
            "`nim` is defined twice",
            "unknown name `kayle`",
        ]
    );
    let diags = diagnostics(src);
    assert!(
        diags
            .iter()
            .all(|d| d.phase == Phase::Check && d.span.is_some())
    );
    assert!(
        diags
            .windows(2)
            .all(|w| w[0].span.unwrap().start <= w[1].span.unwrap().start)
    );
}

#[test]
fn mangled_programs_never_panic() {
    for cut in (0..VALID.len()).step_by(2) {
        let (head, tail) = VALID.split_at(cut);
        let src = format!("{head}{}", tail.get(1..).unwrap_or_default());
        if let Ok(program) = crate::syntax::parse(FileId(0), &src) {
            let _ = check(&program, &src, &TestEarlier);
        }
    }
}

#[test]
fn names_of_earlier_units_two_edits_away_are_suggested() {
    let diags = diagnostics("LIMTI_ + 1");
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `LIMIT`?"));
}

#[test]
fn suggestions_pick_the_closest_name() {
    assert_eq!(closeness("x", "y"), None);
    assert_eq!(closeness("nim", "nim"), None);
    assert!(closeness("nm", "nim").is_some());
    assert!(closeness("kayle", "kayles") > closeness("kayle", "kale"));
}
