//! The interpreter's own diagnostics.

/// What running `src` reports on standard error.
fn errors(src: &str) -> String {
    let err = crate::SharedBuffer::default();
    let mut session =
        crate::session::Session::new(Box::new(std::io::sink()), Box::new(err.clone()));
    session.run("test.game", src);
    String::from_utf8(err.0.borrow().clone()).unwrap()
}

#[test]
fn a_wrong_condition_domain_or_callee_says_what_is_needed() {
    let err = errors("game g(n) { move m(k in 1..=n) if k % 2 -> g(n - k) }\nvalue(g(2))");
    assert!(err.contains("compare, as in `x != 0`"), "{err}");
    let err = errors("game g(n) { move m(k in n) -> g(n - k) }\nvalue(g(3))");
    assert!(err.contains("write `0..3`; from 1 to 3, `1..=3`"), "{err}");
    let err = errors("fn f(xs, len) = len(xs)\nf([1], 3)");
    assert!(err.contains("an integer cannot be called"), "{err}");
    assert!(err.contains("this is 3"), "{err}");
    assert!(err.contains("hides the built-in `len`"), "{err}");
    let err = errors("let f = 1\nf(2)");
    assert!(
        err.contains("only games and functions can be called"),
        "{err}"
    );
}

#[test]
fn a_wrong_operand_says_what_was_probably_meant() {
    let game = "game nim(n) { move take(k in 1..=n) -> nim(n - k) }\n";
    let err = errors(&format!("{game}value(nim(3) + 1)"));
    assert!(err.contains("the right side is 1"), "{err}");
    assert!(
        err.contains("a Nim heap of 1 token is written `*1`"),
        "{err}"
    );
    let err = errors(&format!("{game}value(nim)"));
    assert!(err.contains("as in `nim(...)`"), "{err}");
    let err = errors(&format!("{game}nim(3) < 2"));
    assert!(err.contains("as in `value(P) < 2`"), "{err}");
    let err = errors(&format!("{game}value([nim(1), nim(2)])"));
    assert!(err.contains("add them up with `sum(...)`"), "{err}");
    let err = errors(&format!("{game}table(nim(3), 0..3)"));
    assert!(err.contains("`table(nim, ...)`"), "{err}");
    let err = errors("\"n = \" + 3");
    assert!(err.contains("str(n)"), "{err}");
    assert!(!errors("[1] + \"a\"").contains("Help"));
}
