//! Unit tests of lowering: slots, terms, name resolution and constant
//! folding, read from the IR of small programs.

use crate::ir::{IrKind, TargetIr, TermIr};
use crate::session::loaded;

#[test]
fn parameters_come_first_then_binders_in_order() {
    let (session, _) =
        loaded("game w(a, b) {\n move both(k in 1..=a, j in 0..k) -> w(a - k, b - j)\n}\n");
    let game = session.machine.defs.game(0).unwrap().clone();
    assert_eq!(game.arity, 2);
    assert_eq!(game.slots, 4);
    let shown: Vec<(&str, u32)> = game.moves[0]
        .shown
        .iter()
        .map(|(n, s)| (&**n, *s))
        .collect();
    assert_eq!(shown, [("k", 2), ("j", 3)]);
}

#[test]
fn sums_of_games_and_heaps_become_terms() {
    let (session, _) = loaded(
        "game k(n) {\n move a(x in 0..n) -> k(x) + *2 + 0 + (k(n - 1 - x))\n move b -> sum([k(0)])\n}\n",
    );
    let game = session.machine.defs.game(0).unwrap().clone();
    let TargetIr::Terms(terms) = &game.moves[0].target else {
        panic!("a sum of applications is lowered to terms");
    };
    assert!(matches!(
        terms.as_slice(),
        [
            TermIr::Node(0, _, _),
            TermIr::Heap(_),
            TermIr::Node(0, _, _)
        ]
    ));
    assert!(matches!(game.moves[1].target, TargetIr::Dynamic(_)));
}

#[test]
fn names_resolve_to_slots_globals_and_games() {
    let (session, stmts) =
        loaded("let S = {1}\ngame g(n) {\n move t(k in S) -> g(n - k)\n}\n[g for x in S]\n");
    let game = session.machine.defs.game(0).unwrap().clone();
    assert!(matches!(game.moves[0].binders[0].1.kind, IrKind::Global(0)));
    let crate::ir::StmtIr::Print { expr, slots } = &stmts[1] else {
        panic!("a bare expression lowers to a print");
    };
    assert_eq!(*slots, 1);
    let IrKind::Comprehension { elem, .. } = &expr.kind else {
        panic!()
    };
    assert!(matches!(
        elem.kind,
        IrKind::Const(crate::value::Value::Game(0))
    ));
}

#[test]
fn constant_collections_are_built_once() {
    let (_, stmts) = loaded("[{1, 2}, (3, [4]), [x for x in 0..2]]\n");
    let crate::ir::StmtIr::Print { expr, .. } = &stmts[0] else {
        panic!()
    };
    let IrKind::List(items) = &expr.kind else {
        panic!("not all constant: {expr:?}")
    };
    assert!(matches!(
        items[0].kind,
        IrKind::Const(crate::value::Value::Set(_))
    ));
    assert!(matches!(
        items[1].kind,
        IrKind::Const(crate::value::Value::Tuple(_))
    ));
    assert!(matches!(items[2].kind, IrKind::Comprehension { .. }));
}

#[test]
fn games_may_refer_to_later_games_and_functions() {
    let (session, _) = loaded(
        "game a(n) {\n move m if ok(n) -> b(n - 1)\n}\ngame b(n) {\n move m if n > 0 -> a(n - 1)\n}\nfn ok(n) = n > 0\n",
    );
    assert!(session.machine.defs.game(0).is_some() && session.machine.defs.game(1).is_some());
    assert!(session.machine.defs.fns[0].is_some());
}
