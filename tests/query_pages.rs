//! A query reading `value(g(n))` in machine code keeps the page of `g`'s
//! table it read last (`emit/query.rs`, `PageCache`), and forgets it
//! whenever a helper may have run the search, which grows the tables and
//! moves their pages. This test binary's allocator writes over every block
//! it frees, so that a page read after it moved gives wrong counts (or
//! faults) rather than the values it held. The counts agree with a direct
//! computation.

mod common;

use common::Engine;
use common::differ::run_counting_among;
use std::alloc::{GlobalAlloc, Layout, System};

/// The system's allocator, writing 1 into every byte it frees: a slot
/// read there holds 0x01010101, a plain value no game here has.
struct Scribbling;

// SAFETY: every call is passed on to the system's allocator unchanged;
// `dealloc` writes only the block it is given, before freeing it.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Scribbling {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` holds `layout.size()` bytes until freed.
        unsafe {
            std::ptr::write_bytes(ptr, 1, layout.size());
            System.dealloc(ptr, layout);
        }
    }
}

#[global_allocator]
static SCRIBBLING: Scribbling = Scribbling;

/// Runs the query `query` after `games` in machine code, and checks its
/// count and that the query was compiled.
fn check(games: &str, query: &str, expected: usize) {
    let text = format!("{games}{query}\n");
    let ((out, err, phase), compiled) = run_counting_among(&text, Engine::Native, 1 << 20);
    let expected = expected.to_string();
    assert_eq!(
        (out.trim(), phase),
        (expected.as_str(), None),
        "{query}\n{err}"
    );
    assert_eq!(compiled, 1, "{query}: not compiled");
}

/// Take 1 to 3 is `n % 4`, take 1 to 4 is `n % 5`: read up, down, across
/// pages at random, from two games in turn (each answer of the search for
/// one coming between two reads of the other's page), and through a
/// function that asks the search itself, past the first pages (65,536
/// positions each).
#[test]
fn pages_of_a_query_are_read_up_down_and_across() {
    let games = "game g(n) {\n move take(k in 1..=3) if k <= n -> g(n - k)\n}\n\
                 game h(n) {\n move take(k in 1..=4) if k <= n -> h(n - k)\n}\n\
                 fn lost(n) = value(h(n)) == 0\n";
    const N: usize = 200_000;
    let count = |f: &dyn Fn(usize) -> bool| (0..N).filter(|n| f(*n)).count();
    let queries: [(String, usize); 5] = [
        (
            format!("len([n for n in 0..{N} if value(g(n)) == 0])"),
            count(&|n| n % 4 == 0),
        ),
        (
            format!("len([n for n in 0..{N} if value(g({N} - 1 - n)) == 1])"),
            count(&|n| (N - 1 - n) % 4 == 1),
        ),
        (
            format!("len([n for n in 0..{N} if value(g(n * 7919 % {N})) == 2])"),
            count(&|n| n * 7919 % N % 4 == 2),
        ),
        (
            format!("len([n for n in 0..{N} if value(g(n)) == value(h({N} - 1 - n))])"),
            count(&|n| n % 4 == (N - 1 - n) % 5),
        ),
        (
            format!("len([n for n in 0..{N} if value(g(n)) == 0 and lost(n)])"),
            count(&|n| n % 20 == 0),
        ),
    ];
    for (query, expected) in queries {
        check(games, &query, expected);
    }
}

/// A game whose options are far below (`n / 2`, `n / 3`): asked for
/// `d(3m)`, the search makes only the positions it reaches, and the page
/// grows, moving, as `m` does, between two reads of `d(1)`, whose page
/// the query keeps.
#[test]
fn a_page_that_moves_under_a_query_is_read_where_it_went() {
    let games =
        "game d(n) {\n move half if n > 0 -> d(n / 2)\n move third if n > 0 -> d(n / 3)\n}\n";
    const M: usize = 20_000;
    let mut memo = std::collections::HashMap::new();
    let one = divided(1, &mut memo);
    let expected = (1..=M).filter(|m| divided(3 * m, &mut memo) == one).count();
    check(
        games,
        &format!("len([m for m in 1..={M} if value(d(m * 3)) == value(d(1))])"),
        expected,
    );
}

/// The rules keep a page too: a loop over `k` asking `value(d(k))` of
/// another game reads `d`'s page, kept. (They forget it after an
/// option's helper as well; a sweep's helper does not run the search,
/// the sweep stops at an option without a value, so no page moves under
/// it here.)
#[test]
fn the_rules_keep_the_page_of_another_game_and_forget_it_when_it_moves() {
    let games = "game d(n) {\n move half if n > 0 -> d(n / 2)\n move third if n > 0 -> d(n / 3)\n}\n\
                 fn cold(k) = value(d(k)) == 0\n\
                 game picky(n) {\n move take(k in 1..=n) if cold(k) -> picky(n - k)\n}\n";
    const N: usize = 3_000;
    let mut memo = std::collections::HashMap::new();
    let cold: Vec<bool> = (0..=N).map(|k| divided(k, &mut memo) == 0).collect();
    let mut picky = vec![0u64; N + 1];
    for n in 0..=N {
        let options: Vec<u64> = (1..=n).filter(|k| cold[*k]).map(|k| picky[n - k]).collect();
        picky[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let sum: u64 = (0..=N).map(|n| picky[n] * n as u64).sum();
    check(
        games,
        &format!("sum([value(picky(n)) * n for n in 0..={N}])"),
        sum as usize,
    );
}

/// The value of `d(n)`, whose moves go to `n / 2` and `n / 3`.
fn divided(n: usize, memo: &mut std::collections::HashMap<usize, u64>) -> u64 {
    if n == 0 {
        return 0;
    }
    if let Some(v) = memo.get(&n) {
        return *v;
    }
    let options = [divided(n / 2, memo), divided(n / 3, memo)];
    let v = (0..).find(|v| !options.contains(v)).unwrap();
    memo.insert(n, v);
    v
}
