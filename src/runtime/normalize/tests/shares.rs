//! Which binders start a new share of the options a search waits for
//! (`normalize/shares.rs`), as the compiled rules and the interpreter
//! both see it.

use crate::session::Session;

/// Runs `rules` as the moves of `g(x, y)`: the share depth of each move
/// as written, and the shares of its normalised moves in order.
fn shares(rules: &str) -> (Vec<usize>, Vec<u64>) {
    let mut s = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    let source = format!("game g(x, y) {{\n{rules}\n}}\n");
    assert_eq!(s.run("test.game", &source).error, None, "{source}");
    let m = &s.machine;
    let game = m.game_ir(0);
    let depths = super::super::shares::depths(&game, &m.defs, m.limits.max_depth);
    let normal = super::super::rules(&game, &m.defs);
    (depths, normal.moves.iter().map(|r| r.share()).collect())
}

#[test]
fn each_copy_of_a_leading_binder_unrolled_has_a_share_of_its_own() {
    let (depths, shares) = shares(
        "move m((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=x) \
         if k * dx <= x and k * dy <= y -> g(x - k * dx, y - k * dy)",
    );
    assert_eq!(depths, [1]);
    assert_eq!(shares.len(), 3);
    assert!(shares.windows(2).all(|w| w[0] != w[1]), "{shares:?}");
    // All of one move as written: the low half is where its span starts.
    assert!(shares.iter().all(|s| *s as u32 == shares[0] as u32));
}

#[test]
fn two_leading_binders_unrolled_start_shares_at_both() {
    let (depths, shares) = shares(
        "move j(dx in -2..=2, dy in -2..=2) if abs(dx) + abs(dy) == 3 and x + dx >= 0 \
         and y + dy >= 0 and x + dx < 8 and y + dy < 8 -> g(x + dx, y + dy)",
    );
    assert_eq!(depths, [2]);
    // The eight knight's moves, each a copy with a share of its own.
    assert_eq!(shares.len(), 8);
    let mut distinct = shares.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 8, "{shares:?}");
}

#[test]
fn a_binder_unrolled_inside_another_shares_its_moves_one() {
    // `(a, b)` is unrolled inside `k`'s loop, so its copies make their
    // options in another order than the move as written: the interpreter
    // cannot follow them, and all keep the move's one share.
    let (depths, shares) = shares(
        "move m(k in 1..=x, (a, b) in [(1, 0), (0, 1)]) if a * k <= x and b * k <= y \
         -> g(x - a * k, y - b * k)",
    );
    assert_eq!(depths, [0]);
    assert!(shares.len() >= 2, "{shares:?}");
    assert!(shares.iter().all(|s| *s == shares[0]), "{shares:?}");
}

#[test]
fn moves_not_unrolled_keep_one_share_each() {
    let (depths, shares) = shares(
        "move left(k in 1..=x) -> g(x - k, y)\nmove right(k in [1, 2, 3]) if k <= y -> g(x, y - k)",
    );
    assert_eq!(depths, [0, 0]);
    assert_eq!(shares.len(), 2);
    assert_ne!(shares[0], shares[1]);
    assert!(shares.iter().all(|s| s >> 32 == 0), "{shares:?}");
}

#[test]
fn a_binder_an_if_reads_with_constants_is_unrolled_and_starts_shares() {
    // `i` picks the heap in the next binder's range and in the target:
    // each copy's `if`s fold.
    let (depths, shares) = shares(
        "move t(i in 0..2, k in 1..=(if i == 0 then x else y)) \
         -> g(x - (if i == 0 then k else 0), y - (if i == 1 then k else 0))",
    );
    assert_eq!(depths, [1]);
    assert_eq!(shares.len(), 2);
    assert_ne!(shares[0], shares[1]);
}

#[test]
fn copies_a_split_puts_out_of_the_items_order_keep_one_share() {
    // The choice splits the move in two before each part is unrolled:
    // the first item's options come again after the second's.
    let (depths, shares) = shares(
        "move a((c, e) in [(1, 0), (1, 200)], k in 1..=40) if x == 100 and (k == 1 or k >= 2) \
         -> g(c * k + e, y)",
    );
    assert_eq!(depths, [0]);
    assert!(shares.len() >= 4, "{shares:?}");
    assert!(shares.iter().all(|s| *s == shares[0]), "{shares:?}");
}

#[test]
fn copies_that_make_no_options_are_out_of_the_order() {
    // The target's `if` splits the move in two, each unrolled over both
    // items of `i`; the copies whose guard folds to `false` (`i == 0`
    // for `i = 1`) stay for their range, but make no options.
    let (depths, shares) = shares(
        "move take(i in 0..2, k in 1..=(if i == 0 then x else y)) \
         -> if i == 0 then g(x - k, y) else g(x, y - k)",
    );
    assert_eq!(depths, [1]);
    assert_eq!(shares.len(), 4);
    assert!(shares.windows(2).all(|w| w[0] != w[1]), "{shares:?}");
}

#[test]
fn a_leading_binder_picking_an_item_of_the_state_starts_shares() {
    // `x` holds the heaps, a tuple or a list; `i` picks one.
    let distinct = |made: &[u64]| made.windows(2).all(|w| w[0] != w[1]);
    let (depths, made) =
        shares("move t(i in 0..3, k in 1..=x[i]) -> g(x[:i] + (x[i] - k,) + x[i + 1:], y)");
    assert_eq!(depths, [1]);
    assert_eq!(made.len(), 3);
    assert!(distinct(&made), "{made:?}");
    // Steps over its items, read item by item.
    let (depths, made) = shares(
        "move s(d in [[1, 0], [0, 1], [1, 1]], k in 1..=2) \
         if all([x[t] >= k * d[t] for t in 0..2]) -> g([x[t] - k * d[t] for t in 0..2], y)",
    );
    assert_eq!(depths, [1]);
    assert_eq!(made.len(), 3);
    assert!(distinct(&made), "{made:?}");
    // Inside another binder's loop, the copies would not keep the
    // written order: the move stays whole.
    let (depths, made) = shares(
        "move t(k in 1..=3, i in 0..2) if x[i] >= k -> g(x[:i] + (x[i] - k,) + x[i + 1:], y)",
    );
    assert_eq!(depths, [0]);
    assert!(made.iter().all(|s| *s == made[0]), "{made:?}");
}
