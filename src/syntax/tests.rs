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
