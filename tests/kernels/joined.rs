//! Options written out as one list of positions, lists joined by `+`
//! (src/runtime/normalize/joined.rs): one move per list, each binder
//! then lifted into the move's loops (`lift.rs`), the positions made
//! terms. Lasker's Nim so written was interpreted, over 100 times slower
//! than its moves written as moves.

use super::*;

/// Lasker's Nim, every option in one list: take any number, or split a
/// heap in two.
const LASKER: &str = "game lk(n) {\n\
    move m(p in [lk(n - k) for k in 1..=n] + [lk(a) + lk(n - a) for a in 1..n]) -> p\n}\n";

/// Lasker's Nim's values (Winning Ways): `n` but for heaps 3 and 4 mod 4,
/// which swap.
fn lasker(n: u64) -> u64 {
    match n % 4 {
        3 => n + 1,
        0 if n > 0 => n - 1,
        _ => n,
    }
}

#[test]
fn options_as_one_list_of_positions_compile_and_agree() {
    let text = format!("{LASKER}[value(lk(n)) for n in 0..=40]\n");
    compiled_as(&text, &["lk(n): compiled", "loop over `p`"]);
    let want: Vec<String> = (0..=40).map(|n| lasker(n).to_string()).collect();
    assert_eq!(agree(&text), format!("[{}]\n", want.join(", ")));
    runs_compiled_throughout(&text);
    let far = format!("{LASKER}value(lk(1500))\n");
    assert_eq!(run_big(&far, Engine::Native), format!("{}\n", lasker(1500)));
}

/// The moves of a position listed in the written order, the first list's
/// options before the second's.
#[test]
fn options_as_one_list_are_listed_in_the_written_order() {
    let text = format!("{LASKER}moves(lk(4))\nmoves(lk(7) + lk(2))\n");
    let printed = agree(&text);
    let first = printed.find("p=lk(0)").expect("a move to lk(0)");
    let split = printed.find("p=lk(1) + lk(3)").expect("a split");
    assert!(first < split, "{printed}");
}

/// A list that fails (a division by zero in the second), a binder over
/// the lists inside another's loop (not split), and one before another
/// binder: every engine prints or reports what the interpreter does.
#[test]
fn options_as_one_list_fail_and_nest_as_the_interpreter_does() {
    let fails = "game lk(n) {\n move m(p in [lk(n - k) for k in 1..=n] + \
                 [lk(a) + lk(10 / (a - 3)) for a in 1..n]) -> p\n}\nvalue(lk(6))\n";
    same_error(fails, "zero");
    let nested = "game lk(n) {\n move m(j in 0..2, p in [lk(n - k) for k in 1..=n if k != j] + \
                  [lk(a) + lk(n - a) for a in 1..n] + [lk(n - 2 * k) for k in 1..=n / 2]) \
                  if n != 5 -> p\n}\n[value(lk(n)) for n in 0..30]\nmoves(lk(6))\n";
    agree(nested);
    // Split only as the first binder, where the order stays as written.
    let first = "game lk(n) {\n move m(p in [lk(n - k) for k in 1..=n if k != 2] + \
                 [lk(a) + lk(n - a) for a in 1..n] + [lk(n - 2 * k) for k in 1..=n / 2], \
                 j in 0..2) if n != 5 and j != n % 3 -> p\n}\n\
                 [value(lk(n)) for n in 0..30]\nmoves(lk(6))\n";
    agree(first);
    runs_compiled_throughout(first);
}

/// Sets of positions united by `|`, one making each position many times:
/// split and lifted where the moves are not listed, each position's
/// value read where the interpreter hashed it into a set; listed as the
/// sets hold them.
#[test]
fn options_as_sets_of_positions_compile_and_agree() {
    let sets = "game lk(n) {\n move m(p in {lk(n - k) for k in 1..=n} | \
                {lk(a) + lk(n - a) for a in 1..n}) -> p\n}\n";
    let text = format!("{sets}[value(lk(n)) for n in 0..=40]\nmoves(lk(5))\n");
    let want: Vec<String> = (0..=40).map(|n| lasker(n).to_string()).collect();
    assert!(agree(&text).starts_with(&format!("[{}]\n", want.join(", "))));
    runs_compiled_throughout(&format!("{sets}[value(lk(n)) for n in 0..=40]\n"));
    let many = "game r(n) {\n move m(p in {r(k % 3) for k in 0..n} | {r(n - 1) for j in 0..1 if n > 0}) -> p\n}\n\
                [value(r(n)) for n in 0..50]\n";
    agree(&format!("{many}moves(r(7))\n"));
    runs_compiled_throughout(many);
}

/// Lists of integers joined stay one binder, a loop the machine code
/// runs: split, the second part, cut by `x * x <= n`, is not machine
/// code, and took the game out of it (a review measured 4x).
#[test]
fn integers_joined_stay_one_loop() {
    let text = "game s(n) {\n move m(k in [x for x in 1..=n if x % 2 == 0] + \
                [x for x in 1..=n if x * x <= n]) -> s(n - k)\n}\n[value(s(n)) for n in 0..200]\n";
    agree(text);
    compiled_as(text, &["s(n): compiled to machine code"]);
}
