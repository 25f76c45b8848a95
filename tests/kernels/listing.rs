//! The queries that name moves (`moves`, `line`, `play`, `graph`) list a
//! position's moves with its compiled rules (src/runtime/kernel/listing.rs)
//! where the normalised rules make them in the written order: the same
//! moves, names and order as the interpreter's, which lists the others.

use super::*;
use common::differ::moves_listed;

/// Runs `text` on every path, which must agree, and says whether the
/// compiled rules listed the moves.
fn listed(text: &str) -> bool {
    let printed = agree(text);
    let (compiled, listed) = moves_listed(text);
    assert_eq!(compiled, printed, "{text}");
    listed > 0
}

#[test]
fn moves_of_rules_written_in_many_ways_are_listed_by_the_compiled_rules() {
    for text in [
        // A set of constants.
        "game s(n) {\n move take(k in {1, 3, 4}) if k <= n -> s(n - k)\n}\nmoves(s(10))\n",
        // A tuple binder over constants, unrolled: each copy names its item.
        "game k(x, y) {\n move jump((dx, dy) in [(-2, 1), (-1, -2), (1, -2), (-2, -1)]) \
         if 0 <= x + dx < 8 and 0 <= y + dy < 8 -> k(x + dx, y + dy)\n}\nmoves(k(4, 4) + k(2, 1))\n",
        // A binder an equation fixes: named by the value it takes.
        "game sp(n) {\n move split(a in 1..n, b in 1..n) if a + b == n and a < b -> sp(a) + sp(b)\n}\n\
         moves(sp(9))\n",
        // Words an unrolled binder takes.
        "game w(n) {\n move say(word in [\"up\", \"down\"]) if len(word) <= n -> w(n - len(word))\n}\n\
         moves(w(7))\n",
        // A computed target whose branch is the same for every option.
        "game g(n) {\n move m(k in 1..=3) if k <= n -> if n % 2 == 0 then g(n - k) else g(n - k) + *1\n}\n\
         moves(g(9))\nmoves(g(8))\n",
        // A tuple binder over a comprehension, lifted into the move.
        "game f(n) {\n move pair((p, q) in [(a, n / a) for a in 1..n if n % a == 0]) -> f(p) + f(q - 1)\n}\n\
         moves(f(12))\n",
        // A list position, a helper function, a heap.
        "fn smaller(h, k) = h - k\ngame c(hs) {\n move take(i in 0..len(hs), k in 1..=hs[i]) \
         -> c(hs[:i] + [smaller(hs[i], k)] + hs[i + 1:]) + *(k % 2)\n}\nmoves(c([3, 4]))\n",
        // Binders over constants inside another binder's loop: the game's
        // kernel unrolls them (one move per constant, in another order),
        // the rules compiled to list its moves do not.
        "game d(n) {\n move cut(k in 1..=3, e in {2, 3}) if k <= n -> d((n - k) / e)\n}\nmoves(d(10))\n",
        "let DIRS = [(0, 1), (1, 0), (1, 1)]\ngame t(x, y) {\n move step(i in 1..=2, (dx, dy) in DIRS) \
         if x >= i * dx and y >= i * dy -> t(x - i * dx, y - i * dy)\n}\nmoves(t(3, 2))\n",
        // A heap past the linear forms' range: the rules' twin for
        // integers of any size lists it.
        "game h(n) {\n move half if n > 0 -> h(n / 2)\n move take(k in {1, 3}) if n % 4 == 3 -> h(n - k)\n}\n\
         moves(h(10 ** 12 + 7))\n",
        // A target of a game of no parameters.
        "game z() {\n}\ngame h(n) {\n move to(k in 0..n) -> z() + *k\n}\nmoves(h(4))\n",
        "game z() {\n}\ngame h(n) {\n move to(k in 0..n) -> z()\n}\nmoves(h(4))\n",
        // `line` and `play`'s options, unnamed.
        "game g(n) {\n move take(k in 1..=3) if k <= n -> g(n - k)\n move half if n > 0 and n % 2 == 0 -> g(n / 2)\n}\n\
         line(g(21) + g(4))\n",
    ] {
        assert!(listed(text), "{text}");
    }
}

#[test]
fn moves_the_compiled_rules_make_in_another_order_are_listed_by_the_interpreter() {
    for text in [
        // A computed target whose branch changes with the binder.
        "game g(n) {\n move m(k in 1..=3) if k <= n -> if k % 2 == 0 then g(n - k) else g(n - k) + *1\n}\n\
         moves(g(9))\n",
        // A sum with such a branch among its terms, made an `if` of sums.
        "game g(n) {\n move m(k in 1..=3) if k <= n -> g(n - k) + (if k == 2 then *1 else *0)\n}\n\
         moves(g(7))\n",
    ] {
        assert!(!listed(text), "{text}");
    }
}

#[test]
fn an_error_met_while_listing_is_the_interpreters_to_report() {
    same_error(
        "game g(n) {\n move m(k in 0..=2) if k <= n -> g(n / k)\n}\nmoves(g(5))\n",
        "division by zero",
    );
    same_error(
        "game g(n) {\n move m(k in 1..=3) -> g(n - k) + *(n - 2 * k)\n}\nmoves(g(3))\n",
        "a Nim heap cannot have",
    );
}

/// A binder over a set comprehension (`k in {k for k in [1, 3, 4] if k <=
/// n}`) is lifted into the move where its options are not listed (5x
/// the plain rule, a set made per position): its loops may make an
/// option twice, the set once. Listed, each move is there once, in the
/// set's order, as the interpreter lists it.
#[test]
fn a_binder_over_a_set_comprehension_lists_each_move_once() {
    for text in [
        "game g(n) {\n move t(p in {n % 3 for a in [3, 2, 1, 3] if a <= n}) -> g(n - p - 1)\n}\n\
         moves(g(5))\n[value(g(n)) for n in 0..40]\n",
        "game h(n) {\n move t((p, q) in {(n % 3, 1) for a in [3, 2, 1, 3] if a <= n}) \
         -> h(n - p - q)\n}\nmoves(h(5))\n[value(h(n)) for n in 0..40]\n",
    ] {
        let shown = agree(text);
        assert!(shown.contains("none of the 1 moves wins"), "{shown}");
    }
    let plain = "game s(n) {\n move take(k in [1, 3, 4]) if k <= n -> s(n - k)\n}\n\
                 [value(s(n)) for n in 0..60]\nmoves(s(9))\n";
    let written = "game s(n) {\n move take(k in {k for k in [4, 1, 3, 1] if k <= n}) -> s(n - k)\n}\n\
                   [value(s(n)) for n in 0..60]\nmoves(s(9))\n";
    assert_eq!(agree_big(written), agree_big(plain));
}
