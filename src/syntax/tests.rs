use super::*;

fn parse_ok(src: &str) -> Program {
    match parse(FileId(0), src) {
        Ok(p) => p,
        Err(errs) => panic!("parse failed: {errs:?}"),
    }
}

#[test]
fn the_language_overview_parses() {
    let src = include_str!("../../examples/spec.game");
    let program = parse_ok(src);
    assert_eq!(program.stmts.len(), 19);
}

/// The single expression statement of `src`.
fn expr(src: &str) -> Expr {
    let mut program = parse_ok(src);
    assert_eq!(program.stmts.len(), 1, "{src}");
    match program.stmts.remove(0).kind {
        StmtKind::Expr(e) => e,
        other => panic!("not an expression: {other:?}"),
    }
}

/// A compact rendering of an expression tree, to assert on its shape.
fn shape(e: &Expr) -> String {
    match &e.node {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Var(v) => v.to_string(),
        ExprKind::Paren(x) => shape(x),
        ExprKind::Unary(op, x) => format!("({op:?} {})", shape(x)),
        ExprKind::Binary(op, l, r) => format!("({} {} {})", shape(l), op.symbol(), shape(r)),
        ExprKind::Chain(operands, ops) => {
            let mut text = shape(&operands[0]);
            for (op, operand) in ops.iter().zip(&operands[1..]) {
                text += &format!(" {} {}", op.symbol(), shape(operand));
            }
            format!("({text})")
        }
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args.iter().map(shape).collect();
            format!("{}({})", shape(f), args.join(", "))
        }
        ExprKind::Tuple(items) => format!("tuple{}", items.len()),
        ExprKind::Let(pattern, value, body) => {
            let names: Vec<&str> = pattern.names().iter().map(|n| &*n.node).collect();
            let names = names.join(",");
            format!("(let {names} = {} in {})", shape(value), shape(body))
        }
        ExprKind::Slice(x, lo, hi) => {
            format!("{}[{}:{}]", shape(x), lo.is_some(), hi.is_some())
        }
        other => format!("{other:?}"),
    }
}

#[test]
fn operators_follow_python_precedence() {
    let cases = [
        ("1 + 2 * 3", "(1 + (2 * 3))"),
        ("-2 ** 2", "(Neg (2 ** 2))"),
        ("2 ** 3 ** 2", "(2 ** (3 ** 2))"),
        ("a ^ b & c", "(a ^ (b & c))"),
        ("a | b ^ c", "(a | (b ^ c))"),
        ("1 << 2 + 3", "(1 << (2 + 3))"),
        ("not a == b", "(Not (a == b))"),
        ("a or b and c", "(a or (b and c))"),
        ("0..=n - k", "(0 ..= (n - k))"),
        ("*n + *m", "((Heap n) + (Heap m))"),
        ("k not in S", "(k not in S)"),
        ("a - b - c", "((a - b) - c)"),
    ];
    for (src, want) in cases {
        assert_eq!(shape(&expr(src)), want, "{src}");
    }
}

#[test]
fn comparisons_chain_unless_parenthesised() {
    assert_eq!(shape(&expr("a < b <= c")), "(a < b <= c)");
    assert_eq!(shape(&expr("a < b <= c == d")), "(a < b <= c == d)");
    assert_eq!(shape(&expr("a < b and b <= c")), "((a < b) and (b <= c))");
    assert_eq!(shape(&expr("(a < b) == c")), "((a < b) == c)");
}

#[test]
fn newlines_end_statements_except_inside_brackets() {
    assert_eq!(parse_ok("f(1)\n(2, 3)").stmts.len(), 2);
    assert_eq!(parse_ok("xs\n[0]").stmts.len(), 2);
    assert_eq!(parse_ok("[1,\n 2, # a comment\n 3]").stmts.len(), 1);
    assert_eq!(parse_ok("1 + \\\n 2").stmts.len(), 1);
    assert_eq!(parse_ok("1; 2; 3\n\n# only a comment\n").stmts.len(), 3);
}

#[test]
fn a_local_let_runs_to_the_end_of_the_expression_and_its_value_stops_at_in() {
    let cases = [
        (
            "(let a = 1 in let b = a + 1 in a * b)",
            "(let a = 1 in (let b = (a + 1) in (a * b)))",
        ),
        ("(let x = k in S)", "(let x = k in S)"),
        ("(let x = (k in S) in x)", "(let x = (k in S) in x)"),
        ("(let x = k not in S in x)", "(let x = (k not in S) in x)"),
        ("1 + let x = 2 in x * 3", "(1 + (let x = 2 in (x * 3)))"),
        ("(let (q, r) = p in q + r)", "(let q,r = p in (q + r))"),
    ];
    for (src, want) in cases {
        assert_eq!(shape(&expr(src)), want, "{src}");
    }
    // At the start of a statement, `let` is the top-level definition.
    let program = parse_ok("let x = 2 in S");
    assert!(matches!(program.stmts[0].kind, StmtKind::Let(..)));
}

#[test]
fn tuples_parentheses_and_slices() {
    assert_eq!(shape(&expr("(1,)")), "tuple1");
    assert_eq!(shape(&expr("()")), "tuple0");
    assert_eq!(shape(&expr("(1)")), "1");
    assert_eq!(shape(&expr("xs[1:]")), "xs[true:false]");
    assert_eq!(shape(&expr("xs[:]")), "xs[false:false]");
}

#[test]
fn spans_are_byte_offsets_of_the_source() {
    let e = expr("value(kayles(4))");
    assert_eq!((e.span.start, e.span.end), (0, 16));
    let ExprKind::Call(_, args) = &e.node else {
        panic!()
    };
    assert_eq!((args[0].span.start, args[0].span.end), (6, 15));
}

#[test]
fn a_syntax_error_says_what_was_expected_in_the_languages_words() {
    let errors = parse(FileId(0), "game g(n) {\n  move m nim(n)\n}").unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "syntax error: unexpected `nim`");
    assert!(
        errors[0].label.contains("`->` and a move target"),
        "{}",
        errors[0].label
    );
    let too_big = parse(FileId(0), "99999999999999999999").unwrap_err();
    assert_eq!(too_big[0].message, "integer literal is too large");
}

#[test]
fn incomplete_input_is_recognised() {
    assert!(is_incomplete("game g(n) {\n  move m -> g(n - 1)"));
    assert!(is_incomplete("[1, 2,"));
    assert!(!is_incomplete("[1, 2]"));
    assert!(!is_incomplete("[1, 2]]"));
    assert!(is_incomplete("1 + \\"), "a backslash continues the line");
    assert!(is_incomplete("f(1 +\n"));
    assert!(!is_incomplete("1 +"), "the newline ends the statement");
    assert!(!is_incomplete("1 +\n"));
    assert!(!is_incomplete("game g(n) {\n}\nlet x ="));
    assert!(is_incomplete("game g(n) { # a comment"));
    assert!(!is_incomplete(""));
}

#[test]
fn nested_brackets_parse_in_linear_time() {
    // With a shared prefix parsed twice per level, 300 levels would take
    // 2^200 steps: this test would never finish.
    let depth = 200;
    for (open, close) in [
        ("[", "]"),
        ("{", "}"),
        ("(", ")"),
        ("xs[", "]"),
        ("f(", ")"),
    ] {
        let src = format!("{}1{}", open.repeat(depth), close.repeat(depth));
        assert_eq!(parse_ok(&src).stmts.len(), 1, "{open}");
    }
    let slices = format!("{}0{}", "xs[1:".repeat(depth), "]".repeat(depth));
    assert_eq!(parse_ok(&slices).stmts.len(), 1);
}

/// The limit error that `src` fails with, and where it points.
fn too_deep_at(src: &str) -> (String, usize) {
    match parse(FileId(0), src) {
        Err(errs) => {
            assert_eq!(errs.len(), 1, "{errs:?}");
            assert_eq!(errs[0].phase, Phase::Limit, "{errs:?}");
            (
                errs[0].message.clone(),
                errs[0].span.unwrap().start as usize,
            )
        }
        Ok(_) => panic!("parsed: {}", &src[..src.len().min(60)]),
    }
}

#[test]
fn absurd_nesting_is_an_error_not_a_stack_overflow() {
    let n = 100_000;
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("f(", ")")] {
        let src = format!("{}1{}", open.repeat(n), close.repeat(n));
        let (message, at) = too_deep_at(&src);
        assert!(message.contains("nest more than 256"), "{message}");
        // The bracket that opens level 257.
        assert_eq!(at, open.len() * MAX_NESTING + open.len() - 1, "{open}");
    }
    let ifs = format!("{}0", "if true then 1 else ".repeat(n));
    assert_eq!(
        too_deep_at(&ifs).1,
        "if true then 1 else ".len() * MAX_NESTING
    );
    let lets = format!("expect {}0", "let a = 1 in ".repeat(n));
    assert_eq!(
        too_deep_at(&lets).1,
        "expect ".len() + "let a = 1 in ".len() * MAX_NESTING
    );
    for chain in [
        "1 + ".repeat(n),
        "-".repeat(n),
        "2 ** ".repeat(n),
        "not ".repeat(n),
    ] {
        let src = format!("{chain}1");
        let (message, _) = too_deep_at(&src);
        assert!(message.contains("10000 levels"), "{message}");
    }
}

#[test]
fn nesting_is_counted_per_bracket_item_and_per_move() {
    // Brackets inside strings and comments do not count.
    let quoted = format!("let s = \"{}\" # {}\n1", "(".repeat(1000), "[".repeat(1000));
    assert_eq!(parse_ok(&quoted).stmts.len(), 2);
    // Each item of a list, each move and each statement starts afresh.
    let items = vec!["if true then 1 else 0"; 1000].join(", ");
    parse_ok(&format!("[{items}]"));
    let moves = "    move m if n > 0 -> g(n - 1)\n".repeat(1000);
    parse_ok(&format!("game g(n) {{\n{moves}}}"));
    parse_ok(&"let x = if true then 1 else 0\n".repeat(1000));
    // Nesting just under the limits parses.
    let ifs = format!("{}0", "if true then 1 else ".repeat(MAX_NESTING));
    parse_ok(&ifs);
    parse_ok(&format!("{}1", "1 + ".repeat(MAX_EXPR_DEPTH - 2)));
}

/// The help of the one syntax error in `src`.
fn help_for(src: &str) -> String {
    let errors = parse(FileId(0), src).unwrap_err();
    assert_eq!(errors.len(), 1, "{src}");
    errors[0].help.clone().unwrap_or_default()
}

#[test]
fn common_mistakes_get_a_specific_hint() {
    let cases = [
        ("expect value(g(3)) = 3", "to compare, write `==`"),
        ("let x = 1\nx = 2", "names are defined once"),
        ("let x = 1\nx += 1", "cannot be updated"),
        ("let x == 3", "`let` defines with a single `=`"),
        (
            "game g(n) {\n move t(k = 1..n) -> g(n - k)\n}",
            "`k in 1..=n`",
        ),
        (
            "game g(n) {\n move t(k in 1..n) g(n - k)\n}",
            "move name(k in ...)",
        ),
        ("game g(n) {\n move t => g(n - 1)\n}", "with `->`"),
        (
            "game g(n) {\n move t -> g(n - 1) if n > 0\n}",
            "guard goes before",
        ),
        (
            "game g(n) {\n move t(k in 1..n -> g(n - k)\n}",
            "before `->`",
        ),
        ("game g {\n}", "even an empty one"),
        ("move t -> g(1)", "inside a game's body"),
        ("def f(x):\n  return x", "`fn name(params) = expression`"),
        ("let f = lambda x: x", "no `lambda`"),
        ("for x in xs:\n  print(x)", "comprehension"),
        ("fn f(n) = if n == 0: 1 else 2", "with no `:`"),
        ("fn f(n) = if n then 1 elif 2", "`else if`"),
        ("let x = 7 // 2", "Python's `//`"),
        ("// note\nlet x = 1", "start with `#`"),
        ("let x = true && false", "write `and`"),
        ("let x = true || false", "write `or`"),
        ("let x = !true", "write `not`"),
        ("let s = 'a'", "double quotes"),
        ("let s = \"abc", "not closed"),
        ("let xs = [1, 2\n 3]", "`,` may be missing"),
        ("let xs = (1, 2]", "close the `(` with `)`"),
        ("let x = 1)", "no bracket is open"),
        (
            "game g(n) {\n move t -> g(n - 1)\n\nlet x = 1",
            "missing `}`",
        ),
        ("let xs = [1,\n2", "missing `]`"),
        ("fn f(n) = 1 if n > 0 else 2", "`if n > 0 then 1 else 2`"),
        (
            "let xs = [2 * x if x > 1 else 0 for x in 0..5]",
            "`if x > 1 then 2 * x else 0`",
        ),
        ("fn f(n) = n > 0 ? 1 : 2", "`if n > 0 then 1 else 2`"),
        ("print(f\"{n}!\")", "`str(n) + \"!\"`"),
        ("print(f\"abc\")", "drop the `f`"),
        ("game g(n):\n  move t -> g(0)", "`game g(n) { move ... }`"),
        ("fn f(n):\n  n", "`fn f(n) = expression`"),
        ("let x = 1 +\n2", "end this line with `\\`"),
        ("fn f(n) = { let m = n; m }", "`let m = n in m`"),
        (
            "fn f(c) = let m = if c then 1 else 2 in m",
            "goes in brackets",
        ),
    ];
    for (src, hint) in cases {
        let help = help_for(src);
        assert!(
            help.contains(hint),
            "{src:?}: got {help:?}, wanted {hint:?}"
        );
    }
}

#[test]
fn an_unclosed_bracket_is_marked_only_when_nothing_closes_it() {
    let errors = parse(FileId(0), "game g(n) {\n move t -> g(n - 1)\nlet x = 1").unwrap_err();
    let (mark, label) = &errors[0].extra[0];
    assert_eq!(
        (mark.start, label.as_str()),
        (10, "this `{` is never closed")
    );
    // A list with a missing comma is closed later: no such mark.
    let errors = parse(FileId(0), "let xs = [1, 2\n 3, 4]").unwrap_err();
    assert!(errors[0].extra.is_empty(), "{:?}", errors[0].extra);
}

#[test]
fn parsing_goes_on_at_the_next_definition_after_a_syntax_error() {
    let src = "let a = 1 +\nlet b = 2\nfn f(x) = x x\n  let c = (\nexpect 1 = 1\n";
    let errors = parse(FileId(0), src).unwrap_err();
    let starts: Vec<usize> = errors
        .iter()
        .map(|e| e.span.unwrap().start as usize)
        .collect();
    // At the `+` that ends line 1, at the second `x` and at `1 = 1`; the indented
    // `let` is inside the definition of `f`, not the start of a new one.
    assert_eq!(starts, [10, 34, 57], "{errors:?}");
    // One source never yields more than a screenful of syntax errors.
    let many = "let x = = 1\n".repeat(100);
    assert_eq!(
        parse(FileId(0), &many).unwrap_err().len(),
        MAX_SYNTAX_ERRORS
    );
}
