//! Baselines of the workloads whose positions are sets and lists of
//! pairs, written as a contest programmer would: a board's empty cells as
//! a bitmask, tokens as a sorted array of coordinates, each position's
//! value memoized in an `FxHashMap`.

use crate::baselines::Mex;
use rustc_hash::FxHashMap;

/// The height of the Cram workload's board.
pub const CRAM_HEIGHT: usize = 3;

/// Cram on an empty board `n` wide and 3 high.
pub fn cram(n: usize) -> u32 {
    cram_board(n, CRAM_HEIGHT)
}

/// Cram on an empty board `w` wide and `h` high: a move covers two
/// adjacent empty cells. Cell (x, y) is bit `x * h + y`.
pub fn cram_board(w: usize, h: usize) -> u32 {
    assert!(w * h < 64, "at most 63 cells");
    let empty = (1u64 << (w * h)) - 1;
    cram_value(empty, (w, h), &mut FxHashMap::default())
}

fn cram_value(empty: u64, (w, h): (usize, usize), memo: &mut FxHashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&empty) {
        return v;
    }
    let mut options = Vec::new();
    for x in 0..w {
        for y in 0..h {
            let at = x * h + y;
            if empty >> at & 1 == 0 {
                continue;
            }
            for (fits, next) in [(x + 1 < w, at + h), (y + 1 < h, at + 1)] {
                if fits && empty >> next & 1 == 1 {
                    let left = empty & !(1 << at) & !(1 << next);
                    options.push(cram_value(left, (w, h), memo));
                }
            }
        }
    }
    let v = mex_of(&options);
    memo.insert(empty, v);
    v
}

/// Three tokens at (n, n + 2), (n + 1, n + 2) and (n + 2, n + 1); a move
/// slides one any distance left or down, never onto another.
pub fn tokens(n: usize) -> u32 {
    let n = u8::try_from(n).expect("a board of at most 253");
    let at = vec![(n, n + 2), (n + 1, n + 2), (n + 2, n + 1)];
    tokens_value(at, &mut FxHashMap::default())
}

/// The value of tokens at `ts`, sorted.
pub fn tokens_value(ts: Vec<(u8, u8)>, memo: &mut FxHashMap<Vec<(u8, u8)>, u32>) -> u32 {
    if let Some(&v) = memo.get(&ts) {
        return v;
    }
    let mut options = Vec::new();
    for i in 0..ts.len() {
        let (x, y) = ts[i];
        let slides = (1..=x)
            .map(|d| (x - d, y))
            .chain((1..=y).map(|d| (x, y - d)));
        for to in slides.filter(|to| !ts.contains(to)) {
            let mut next = ts.clone();
            next[i] = to;
            next.sort_unstable();
            options.push(tokens_value(next, memo));
        }
    }
    let v = mex_of(&options);
    memo.insert(ts, v);
    v
}

fn mex_of(options: &[u32]) -> u32 {
    let mut mex = Mex::new();
    mex.clear();
    options.iter().for_each(|v| mex.insert(*v));
    mex.value()
}
