//! Which rules are strips (see [`crate::runtime::kernel::Strip`]): a
//! few values kept by one argument, of a form with a boolean, or a
//! counter counted down.

use super::kernel;

#[test]
fn games_keeping_one_argument_among_a_few_values_are_strips() {
    let strip = |rules: &str| {
        let source = format!("game g(a, b) {{\n {rules}\n}}\n");
        kernel(&source).expect(rules).strip()
    };
    let of = |long, cols, keeps| {
        Some(crate::runtime::kernel::Strip {
            long,
            cols,
            keeps,
            form: None,
            flag: false,
            down: false,
        })
    };
    for (rules, expected) in [
        // The heap and the last move's size.
        (
            "move t(k in 1..=3) if k <= a and k != b -> g(a - k, k)",
            of(0, (1, 3), false),
        ),
        (
            "move t(k in [1, 2, 4]) if k <= b and k != a -> g(k, b - k)",
            of(1, (1, 4), false),
        ),
        (
            "move t(k in 1..=min(5, a)) -> g(a - k, k)\n move d if a > 0 -> g(a - 1, b)",
            of(0, (1, 5), true),
        ),
        // A flag that moves flip, found from the column 0 on.
        (
            "move o if a >= 1 -> g(a - 1, 1 - b)\n move t if a >= 2 -> g(a - 2, b)",
            of(0, (0, 1), true),
        ),
        (
            "move m(k in 1..=5) if k <= a -> g(a - k, (b + k) % 3)",
            of(0, (0, 2), false),
        ),
        (
            "move o if a >= 1 -> g(a - 1, 1 - b % 2)",
            of(0, (0, 1), false),
        ),
        (
            "move z(k in {2, 7}) if k <= a -> g(a - k, 0) + g(k, 1)",
            of(0, (0, 1), false),
        ),
        // A bound passed on unchanged: no columns of its own, only the
        // position's (`Strip::kept`), either way round.
        (
            "move t(k in 1..=b) if k <= a -> g(a - k, b)",
            of(0, (0, -1), true),
        ),
        (
            "move t(k in [a, 2 * a]) if k <= b -> g(a, b - k)",
            of(1, (0, -1), true),
        ),
    ] {
        assert_eq!(strip(rules), expected, "{rules}");
    }
    for rules in [
        // Both arguments run long, or the column grows.
        "move t(k in 1..=a) -> g(a - k, 2 * k)",
        "move t if a > 0 -> g(a - 1, b + 1)",
        // Too many columns; negative ones.
        "move t(k in 1..=40) if k <= a -> g(a - k, k)",
        "move t(k in -2..=2) if 0 < a -> g(a - 1, k)",
    ] {
        assert_eq!(strip(rules), None, "{rules}");
    }
}

#[test]
fn games_of_an_integer_and_a_boolean_are_strips_of_their_form() {
    let strip = |rules: &str| {
        let source = format!("game g(n, s) {{\n {rules}\n}}\n");
        kernel(&source).expect(rules).strip()
    };
    let seen = |rules: &str| strip(rules).map(|s| (s.long, s.cols, s.keeps, s.flag));
    // A pass spent once: `true` and the position's own.
    let rules = "move t(k in 1..=3) if k <= n -> g(n - k, s)\n \
                 move p if not s and n > 0 -> g(n, true)";
    assert_eq!(seen(rules), Some((0, (1, 1), true, true)));
    let form = strip(rules).and_then(|s| s.form);
    // A turn flipped by every move, or by some (an `if`).
    let flipped = "move t(k in 1..=3) if k <= n and (s or k < 3) -> g(n - k, not s)";
    assert_eq!(seen(flipped), Some((0, (0, 1), false, true)));
    // (Unrolled over `k`, whose `if` folds: the copy for `k == 2` keeps
    // the turn.)
    let some = "move t(k in 1..=2) if k <= n -> g(n - k, if k == 1 then not s else s)";
    assert_eq!(seen(some), Some((0, (0, 1), true, true)));
    // The same form whatever the moves: the header marks the boolean.
    assert_eq!(strip(flipped).and_then(|s| s.form), form);
    assert!(form.is_some());
    // Two integers: no form.
    let ints = "move t(k in 1..=3) if k <= n -> g(n - k, 1 - s)";
    assert_eq!(strip(ints).map(|s| (s.form, s.flag)), Some((None, false)));
}

#[test]
fn counters_that_moves_count_down_are_strips_reading_the_columns_below() {
    let strip = |rules: &str| {
        let source = format!("game g(n, p) {{\n {rules}\n}}\n");
        kernel(&source).expect(rules).strip()
    };
    let seen = |rules: &str| strip(rules).map(|s| (s.long, s.cols, s.keeps, s.down));
    let take = "move t(k in 1..=3) if k <= n -> g(n - k, p)\n ";
    // Down to 0 from any column: the strip is column 0.
    for pass in [
        "move s if p > 0 and n > 0 -> g(n, p - 1)",
        "move s if n > 0 and p >= 1 -> g(n, p - 1)",
        "move s(k in 1..=2) if p >= 2 -> g(n, p - k)",
        "move s if 0 < p -> g(n - 1, p - 1)",
        "move s if p != 0 -> g(n, p - 1)",
        "move s(k in 1..=p) -> g(n, p - k)",
        "move s(k in 1..p + 1) if n > 0 -> g(n - 1, p - k)",
    ] {
        assert_eq!(
            seen(&format!("{take}{pass}")),
            Some((0, (0, 0), true, true)),
            "{pass}"
        );
    }
    // A constant column with it: the strip reaches down to the lowest.
    let to_five = "move f(k in 1..=2) if k <= n -> g(n - k, 5)\n move s if p > 1 -> g(n, p - 2)";
    assert_eq!(seen(to_five), Some((0, (0, 5), false, true)));
    // Below column 0 (no guard, or one too low), or up: no strip.
    for rules in [
        "move s if n > 0 -> g(n - 1, p - 1)",
        "move s if p != 1 -> g(n, p - 1)",
        "move s(k in 1..=p + 1) -> g(n, p - k)",
        "move s(k in 1..=2) if n > 0 -> g(n - 1, p + k)",
    ] {
        assert_eq!(seen(&format!("{take}{rules}")), None, "{rules}");
    }
    // A counter whose guard keeps column 0's positions from the move:
    // the strip of column 0 alone.
    let jump = format!("{take}move s if p >= 1 -> g(n, p - 2)");
    assert_eq!(seen(&jump), Some((0, (0, 0), true, false)));
    // A binder the guard holds below the argument is how a heap is
    // written (`k <= n`): no counter, and no strip of column 0 here.
    let guarded = "move s(k in 1..=2) if k <= p and n > 0 -> g(n, p - k)";
    assert_eq!(seen(&format!("{take}{guarded}")), None);
    // Both counted down: a board, no strip.
    let rook = "move r if n >= 1 -> g(n - 1, p)\n move c if p >= 2 -> g(n, p - 2)";
    assert_eq!(seen(rook), None);
    // A strip above column 0: columns 2 to 4, counted down from 3 on.
    let high = format!(
        "{take}move f(k in 1..=2) if k <= n -> g(n - k, 4)\n move d if p > 2 -> g(n, p - 1)"
    );
    assert_eq!(seen(&high), Some((0, (2, 4), true, true)));
    let high = strip(&high).expect("a strip");
    assert_eq!(high.extras(7, false), Some((5, 7)));
    assert_eq!(high.extras(0, true), Some((0, 0)));
    assert_eq!((high.first(7), high.first(0)), (5, 0));
    // Sweeps fill the columns up to the one asked, past the strip's.
    let counter = strip(&format!("{take}move s if p > 0 -> g(n, p - 1)")).expect("a strip");
    assert_eq!(counter.extras(0, false), None);
    assert_eq!(counter.extras(3, false), Some((1, 3)));
    // Too far up for a sweep of every column: none.
    assert_eq!(counter.extras(40, true), None);
    assert_eq!((counter.first(3), counter.first(0)), (1, 0));
    assert_eq!(counter.columns(Some((1, 3))), vec![0, 1, 2, 3]);
}

#[test]
fn counters_in_triples_are_strips_where_a_row_meets_its_options_first() {
    let long = |rules: &str| {
        let source = format!("game g(n, a, b) {{\n {rules}\n}}\n");
        let kernel = kernel(&source).expect(rules);
        kernel.strip3().map(|long| (long, kernel.strip3_swapped()))
    };
    let take = "move t(k in 1..=3) if k <= n and k != b -> g(n - k, a, k)\n ";
    // The counter first: its option in the same row comes first.
    let first = format!("{take}move p if a > 0 and n > 0 -> g(n, a - 1, 0)");
    assert_eq!(long(&first), Some((0, false)));
    // The counter second, with the first flipped: the option in the same
    // row comes before its position only when a row's pairs are swept
    // the second argument first.
    let second = "move t(k in 1..=3) if k <= n -> g(n - k, 1 - a, b)\n \
                  move p if b > 0 and n > 0 -> g(n, 1 - a, b - 1)";
    assert_eq!(long(second), Some((0, true)));
    // An option in a higher row is swept after its position, whatever
    // its short arguments: the box is not narrowed, and `b - 1` leaves it.
    let higher = format!("{take}move p if b > 0 -> g(n + 1, a, b - 1)");
    assert_eq!(long(&higher), None);
    // Without the guard, no strip either.
    let bare = format!("{take}move p if n > 0 -> g(n - 1, a - 1, 0)");
    assert_eq!(long(&bare), None);
}
