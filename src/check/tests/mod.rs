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
    let src = include_str!("../../../examples/spec.game");
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

mod later_rules;
