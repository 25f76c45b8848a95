//! Choices in a guard split into moves (`either.rs`, `choices.rs`).

use super::*;
use crate::runtime::normalize::any_node;

#[test]
fn a_choice_the_binders_do_not_change_splits_the_move_in_two() {
    let rules = |guard: &str| {
        format!("game g(n, last) {{\n move t(k in 1..=n) if {guard} -> g(n - k, k)\n}}\n")
    };
    // The written rule, then the two it becomes.
    let split = normalized(&rules("last == 0 or abs(k - last) <= 1"));
    assert_eq!(split.len(), 2);
    let binder_reads =
        |ir: &crate::ir::Ir| any_node(ir, &|e| matches!(e.kind, crate::ir::IrKind::Local(2)));
    assert!(!binder_reads(split[0].guard.as_ref().expect("a guard")));
    assert!(binder_reads(split[1].guard.as_ref().expect("a guard")));
    // A left side that reads the binder, or no binder at all: as written
    // (a choice of comparisons that cannot fail is `choices.rs`'s).
    assert_eq!(normalized(&rules("k == last or k % 2 == 1")).len(), 1);
    assert_eq!(normalized(&rules("k == last or k == 1")).len(), 2);
    let no_binder = "game g(n, last) {\n move t if last == 0 or n > 3 -> g(n - 1, 1)\n}\n";
    assert_eq!(normalized(no_binder).len(), 1);
    for guard in [
        "last == 0 or abs(k - last) <= 1",
        "k <= 5 and (last == 0 or abs(k - last) <= 1) and k != 3",
        "(n % 3 == 0 or k == last) and k <= 4",
        // Errors on either side, met at the same option as written.
        "(10 / (last - 2) > 1 or k == last)",
        "(last != 3 or 10 / (k - 2) > 1)",
        "last > 1 or k <= last or abs(k - last) < 2",
    ] {
        let source = format!("{}table(g, 0..12, 0..5)\nvalue(g(30, 0))\n", rules(guard));
        compiles_and_agrees(&source, guard);
    }
}

#[test]
fn a_choice_between_conjunctions_of_tests_is_a_move_each_with_its_loop_fixed() {
    let rules = |guard: &str| {
        format!("game r(x, y) {{\n move to(nx in 0..9, ny in 0..9) if {guard} -> r(nx, ny)\n}}\n")
    };
    for guard in [
        "(nx == x and ny < y) or (ny == y and nx < x)",
        "(ny == y and nx < x) or (nx == x and ny < y)",
        "(nx == x and ny < y) or (ny == y and nx < x) or (x - nx == y - ny and nx < x)",
    ] {
        // A move per test, no choice left in any (each equation then
        // fixes a loop: tests/kernels/displays.rs).
        let moves = normalized(&rules(guard));
        assert_eq!(moves.len(), guard.matches(" or ").count() + 1, "{guard}");
        let choice = |e: &crate::ir::Ir| {
            matches!(
                e.kind,
                crate::ir::IrKind::Binary(crate::syntax::ast::BinOp::Or, ..)
            )
        };
        let guards = moves.iter().filter_map(|m| m.guard.as_ref());
        assert!(!guards.clone().any(|g| any_node(g, &choice)), "{guard}");
        let source = format!("{}table(r, 0..9, 0..9)\n", rules(guard));
        compiles_and_agrees(&source, guard);
    }
    // A test that may fail keeps the choice whole.
    let failing = "(nx == x and 10 / (y - ny) > 1) or (ny == y and nx < x)";
    assert_eq!(normalized(&rules(failing)).len(), 1);
}
