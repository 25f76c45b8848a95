use super::calls::QUERY_NOTE;
use super::moves::TARGET_HELP;
use super::names::closeness;
use super::*;
use crate::span::FileId;

/// What the tests' earlier units defined.
struct TestEarlier;

const EARLIER: [(&str, Known); 3] = [
    ("kayles", Known::Game { arity: 1 }),
    ("double", Known::Fn { arity: 1 }),
    ("LIMIT", Known::Let),
];

impl Earlier for TestEarlier {
    fn known(&self, name: &str) -> Option<Known> {
        EARLIER.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
    }

    fn names(&self) -> Vec<String> {
        EARLIER.iter().map(|(n, _)| n.to_string()).collect()
    }
}

fn diagnostics(src: &str) -> Vec<Diagnostic> {
    match crate::syntax::parse(FileId(0), src) {
        Ok(program) => check(&program, src, &TestEarlier),
        Err(errs) => panic!("parse failed: {errs:?}"),
    }
}

fn messages(src: &str) -> Vec<String> {
    diagnostics(src).into_iter().map(|d| d.message).collect()
}

/// The only diagnostic of `src`.
fn single(src: &str) -> Diagnostic {
    let mut diags = diagnostics(src);
    assert_eq!(diags.len(), 1, "expected one diagnostic, got {diags:?}");
    diags.remove(0)
}

/// The source text a span covers.
fn text(src: &str, span: Span) -> &str {
    &src[span.start as usize..span.end as usize]
}

fn assert_clean(src: &str) {
    let diags = diagnostics(src);
    assert!(diags.is_empty(), "unexpected diagnostics: {diags:?}");
}

const VALID: &str = r#"
game nim(n) {
    move take(k in 1..=n) -> nim(n - k)
}
value(nim(3) + nim(4) + nim(5))
let S = {1, 2, 3}
game sub(n) {
    move take(k in S) if k <= n -> sub(n - k)
}
expect [value(sub(n)) for n in 0..8] == [0, 1, 2, 3, 0, 1, 2, 3]
game dawson(n) {
    move one if n == 1 -> 0
    move two if n >= 2 -> dawson(n - 2)
    move three(a in 0..=n - 3) -> dawson(a) + dawson(n - 3 - a)
}
fn inside(x, y) = 1 <= x and x <= 8 and 1 <= y and y <= 8
game knight(x, y) {
    move jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) if inside(x + dx, y + dy) -> knight(x + dx, y + dy)
}
winner(sum([knight(x, y) for (x, y) in [(5, 4), (5, 8), (8, 2)]]))
fn shift(ps, i, m) = [if j == i then p - m else if j == i - 1 then p + m else p for (j, p) in enumerate(ps)]
game stairs(ps) {
    move down(i in 1..len(ps), m in 1..=ps[i]) -> stairs(shift(ps, i, m))
}
table(kayles, 0..=23)
"#;

#[test]
fn the_valid_program_reports_nothing() {
    assert_clean(VALID);
}

#[test]
fn the_language_overview_reports_nothing() {
    let src = include_str!("../../examples/spec.game");
    let program = crate::syntax::parse(FileId(0), src);
    let diags = check(
        &program.expect("the overview parses"),
        src,
        &crate::defs::Defs::default(),
    );
    assert!(diags.is_empty(), "unexpected diagnostics: {diags:?}");
}

// Rule 1: scopes.

#[test]
fn games_and_fns_are_visible_before_their_definition_and_recursively() {
    assert_clean(
        "value(g(3))\n\
             game g(n) { move m(k in 1..=n) if ok(k) -> g(n - k) + h(k) }\n\
             game h(n) { move m if n > 0 -> g(n - 1) }\n\
             fn ok(k) = k == 1 or ok(k - 2)",
    );
}

#[test]
fn a_let_is_visible_in_bodies_before_it_and_in_later_statements() {
    assert_clean(
        "game g(n) { move m(k in S) if k <= n -> g(n - k) }\n\
             fn f(x) = x + len(S)\n\
             let S = {1, 2}\n\
             value(g(f(1)))\n\
             let (a, (b, c)) = (S, (1, 2))\n\
             a == b + c",
    );
}

#[test]
fn binders_and_comprehension_variables_are_scoped() {
    assert_clean(
        "game g(n) { move m(a in 0..n, b in a..n) if a < b -> g(a + b) }\n\
             [x + y for x in 0..3 if x > 0 for y in 0..x if y != x]",
    );
    assert_eq!(
        messages("[x for x in 0..y for y in 0..3]"),
        ["unknown name `y`"]
    );
    assert_eq!(
        messages("game g(n) { move m(a in 0..b, b in 0..n) -> g(a) }"),
        ["unknown name `b`"]
    );
    assert_eq!(messages("[x for x in 0..3]\nx"), ["unknown name `x`"]);
    assert_eq!(
        messages("game g(n) { move m(a in 0..n) -> g(a) }\nfn f(x) = a + n"),
        ["unknown name `a`", "unknown name `n`"]
    );
}

// Rule 2: unknown names.

#[test]
fn an_unknown_name_suggests_a_close_earlier_name() {
    let src = "value(kayle(3))";
    let diag = single(src);
    assert_eq!(diag.message, "unknown name `kayle`");
    assert_eq!(diag.phase, Phase::Check);
    assert_eq!(text(src, diag.span.unwrap()), "kayle");
    assert_eq!(diag.help.as_deref(), Some("did you mean `kayles`?"));
}

#[test]
fn an_unknown_name_suggests_locals_globals_and_builtins() {
    let help = |src| single(src).help;
    assert_eq!(
        help("game nim(n) { move take(k in 1..=n) -> nmi(n - k) }").as_deref(),
        Some("did you mean `nim`?")
    );
    assert_eq!(
        help("fn f(count) = cuont + 1").as_deref(),
        Some("did you mean `count`?")
    );
    assert_eq!(help("lenn([1])").as_deref(), Some("did you mean `len`?"));
    assert_eq!(
        help("let limit = 3\nlimt + 1").as_deref(),
        Some("did you mean `limit`?")
    );
}

#[test]
fn a_capitalised_boolean_or_name_suggests_the_right_case() {
    let help = |src| single(src).help;
    assert_eq!(help("expect True").as_deref(), Some("did you mean `true`?"));
    assert_eq!(help("[FALSE]").as_deref(), Some("did you mean `false`?"));
    assert_eq!(help("VALUE(0)").as_deref(), Some("did you mean `value`?"));
    assert_eq!(
        help("game Nim(n) { move m -> nim(n) }").as_deref(),
        Some("did you mean `Nim`?")
    );
}

#[test]
fn an_unknown_name_far_from_everything_gets_no_suggestion() {
    let diag = single("zebra + 1");
    assert_eq!(diag.message, "unknown name `zebra`");
    assert_eq!(diag.help, None);
}

// Rule 3: a let used before its definition.

#[test]
fn a_let_used_before_its_definition_is_reported_with_the_definition() {
    let src = "value(kayles(S))\nlet S = 3";
    let diag = single(src);
    assert_eq!(diag.message, "`S` is used before it is defined");
    assert_eq!(diag.extra.len(), 1);
    assert_eq!(text(src, diag.extra[0].0), "S");
    assert!(diag.extra[0].0.start > diag.span.unwrap().start);
    assert_eq!(
        messages("let x = x + 1"),
        ["`x` is used before it is defined"]
    );
}

#[test]
fn a_let_used_before_its_definition_is_fine_when_known_earlier() {
    assert_clean("LIMIT + 1\nlet LIMIT = 4");
}

// Rule 4: definitions.

#[test]
fn a_name_defined_twice_is_reported_at_the_second_definition() {
    let src = "game kayles(n) { move m -> 0 }\nfn kayles(n) = n";
    let diag = single(src);
    assert_eq!(diag.message, "`kayles` is defined twice");
    assert_eq!(
        diag.span.unwrap().start as usize,
        src.find("kayles(n) =").unwrap()
    );
    assert_eq!(diag.extra[0].1, "first defined here");
    assert_eq!(diag.extra[0].0.start, 5);
    assert_eq!(
        messages(
            "let a = 1\nfn a(x) = x\ngame g(n) { move m -> 0 }\ngame g(n) { move m -> 0 }\nlet (b, a) = (1, 2)"
        ),
        [
            "`a` is defined twice",
            "`g` is defined twice",
            "`a` is defined twice"
        ]
    );
}

#[test]
fn redefining_a_name_from_an_earlier_unit_is_fine() {
    assert_clean("game kayles(n, m) { move m -> 0 }\nkayles(1, 2)\nlet double = 2\ndouble + 1");
}

#[test]
fn a_builtin_cannot_be_redefined() {
    assert_eq!(
        messages("game sum(n) { move m -> 0 }\nfn len(x) = 1\nlet (a, max) = (1, 2)"),
        [
            "`sum` is a built-in function and cannot be redefined",
            "`len` is a built-in function and cannot be redefined",
            "`max` is a built-in function and cannot be redefined",
        ]
    );
}

// Rule 5: parameters and patterns.

#[test]
fn a_parameter_declared_twice_is_reported() {
    let src = "fn f(x, y, x) = x + y";
    let diag = single(src);
    assert_eq!(diag.message, "parameter `x` of `f` is declared twice");
    assert_eq!(diag.span.unwrap().start, 11);
    assert_eq!(diag.extra[0].0.start, 5);
    assert_eq!(
        messages("game g(a, a) { move m -> 0 }"),
        ["parameter `a` of `g` is declared twice"]
    );
}

#[test]
fn a_name_bound_twice_in_a_pattern_is_reported() {
    assert_eq!(
        messages("let (a, (b, a)) = (1, (2, 3))"),
        ["`a` is bound twice"]
    );
    assert_eq!(
        messages("[p for (p, p) in [(1, 2)]]"),
        ["`p` is bound twice"]
    );
    assert_eq!(
        messages("game g(n) { move m(a in 0..n, a in 0..n) -> g(a) }"),
        ["`a` is bound twice"]
    );
}

#[test]
fn a_local_let_binds_its_names_in_its_body_only() {
    assert_clean("fn f(n) = let m = n / 2 in let (a, b) = (m, n) in a * b + m");
    // The value sees the names around it, not the one it defines.
    assert_clean("fn f(n) = let n = n + 1 in n * n");
    let src = "fn f(n) = (let m = n / 2 in m) + m";
    let diag = single(src);
    assert_eq!(diag.message, "unknown name `m`");
    assert_eq!(diag.span.unwrap().start as usize, src.len() - 1);
    assert_eq!(messages("fn f() = let k = k in k"), ["unknown name `k`"]);
    assert_eq!(
        messages("fn f(p) = let (a, a) = p in a"),
        ["`a` is bound twice"]
    );
    // In a move rule, a local `let` is an expression like any other.
    assert_clean(
        "game g(n) { move m(k in let h = n / 2 in 1..=h) if let d = n - k in d > 0 -> g(n - k) }",
    );
    assert_eq!(
        messages("game g(n) { move m -> let h = n / 2 in 3 }"),
        ["a move target must be a position"]
    );
}

#[test]
fn pythons_range_gets_the_grundy_range_computed_from_its_arguments() {
    for (src, want) in [
        ("fn f(n) = sum(range(1, n + 1))", "write `1..=n`"),
        ("fn f(n) = range(n)", "write `0..n`"),
        ("fn f(n) = range(n + 1)", "write `0..=n`"),
        ("fn f(a, b) = range(a * 2, b)", "write `a * 2..b`"),
        ("fn f(a, b) = range(a, b or a)", "write `a..(b or a)`"),
        (
            "fn f(a, b) = range(a, b, 3)",
            "`[x for x in a..b if (x - a) % 3 == 0]`",
        ),
    ] {
        let diag = single(src);
        assert!(diag.message.contains("`range` is Python's"), "{src}");
        let help = diag.help.unwrap_or_default();
        assert!(help.contains(want), "{src}: {help}");
        assert_eq!(
            text(src, diag.span.unwrap()).split('(').next(),
            Some("range")
        );
    }
    // A `range` the program defines is its own business.
    assert_clean("fn range(a, b) = a..b\nfn f(n) = range(1, n)");
    assert_clean("fn f(range) = [x for x in range]");
}

#[test]
fn a_top_level_let_using_its_own_name_suggests_a_local_let() {
    let diag = &diagnostics("let x = 2 in x * x")[0];
    assert_eq!(diag.message, "`x` is used before it is defined");
    assert!(
        diag.help
            .as_deref()
            .unwrap()
            .contains("(let x = ... in ...)")
    );
}

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
