//! Baselines of the workloads written in another sitting, as users write
//! rules, to find where the engine falls behind (see BENCHMARKS.md): the
//! same naive computation as the others, values in a `Vec` indexed by the
//! position's arguments.

use super::Mex;
use rustc_hash::FxHashMap;

/// Take 1 to 4, never as many as either of the last two moves: how many
/// heaps `0..=n`, with no move made yet, the second player wins. The
/// values are kept by heap and the two last moves' sizes (0: none).
pub fn no_repeat(n: usize) -> u32 {
    let at = |h: usize, a: usize, b: usize| h * 25 + a * 5 + b;
    let mut g = vec![0u32; (n + 1) * 25];
    let mut mex = Mex::new();
    for h in 0..=n {
        for (a, b) in (0..5).flat_map(|a| (0..5).map(move |b| (a, b))) {
            mex.clear();
            for k in (1..=h.min(4)).filter(|k| *k != a && *k != b) {
                mex.insert(g[at(h - k, k, a)]);
            }
            g[at(h, a, b)] = mex.value();
        }
    }
    (0..=n).filter(|h| g[at(*h, 0, 0)] == 0).count() as u32
}

/// The values of the subtraction game with subtraction set `moves`, for
/// heaps `0..=n`.
fn subtraction(n: usize, moves: &[usize]) -> Vec<u32> {
    let mut g = vec![0u32; n + 1];
    let mut mex = Mex::new();
    for h in 0..=n {
        mex.clear();
        for k in moves.iter().filter(|k| **k <= h) {
            mex.insert(g[h - k]);
        }
        g[h] = mex.value();
    }
    g
}

/// A heap of `k` in "take 1, 2 or 5" beside a heap of `2k` in "take a
/// power of two": for how many `k` in `0..=n` the second player wins.
pub fn sum_winner(n: usize) -> u32 {
    let a = subtraction(n, &[1, 2, 5]);
    let powers: Vec<usize> = (0..20).map(|i| 1 << i).collect();
    let b = subtraction(2 * n, &powers);
    (0..=n).filter(|k| a[*k] == b[2 * k]).count() as u32
}

/// The sum of the decimal digits of `n`.
fn digits(mut n: usize) -> usize {
    let mut sum = 0;
    while n > 0 {
        (sum, n) = (sum + n % 10, n / 10);
    }
    sum
}

/// Take up to the digit sum of the heap: the heaps `0..=n` the second
/// player wins.
pub fn digit_sum(n: usize) -> u32 {
    let mut g = vec![0u32; n + 1];
    let mut mex = Mex::new();
    for h in 0..=n {
        mex.clear();
        for k in 1..=digits(h).min(h) {
            mex.insert(g[h - k]);
        }
        g[h] = mex.value();
    }
    g.iter().filter(|v| **v == 0).count() as u32
}

/// Two games that hand a heap back and forth (ping takes 1 or 2; pong
/// takes 1 to 3 leaving an even heap, or passes with a Nim heap of one
/// beside): the heaps `0..=n` from which ping's player loses.
pub fn ping_pong(n: usize) -> u32 {
    let (mut ping, mut pong) = (vec![0u32; n + 1], vec![0u32; n + 1]);
    let mut mex = Mex::new();
    for h in 0..=n {
        mex.clear();
        for k in (1..=h.min(3)).filter(|k| (h - k) % 2 == 0) {
            mex.insert(ping[h - k]);
        }
        if h > 0 {
            mex.insert(ping[h - 1] ^ 1);
        }
        pong[h] = mex.value();
        mex.clear();
        for k in 1..=h.min(2) {
            mex.insert(pong[h - k]);
        }
        ping[h] = mex.value();
    }
    ping.iter().filter(|v| **v == 0).count() as u32
}

/// Four heaps: take from one, or the same from the first and third, or
/// from the second and fourth. The value of four heaps of `n`.
pub fn four_heaps(n: usize) -> u32 {
    let m = n + 1;
    let at = |[a, b, c, d]: [usize; 4]| ((a * m + b) * m + c) * m + d;
    let mut g = vec![0u32; m * m * m * m];
    let mut mex = Mex::new();
    let all = (0..m * m * m * m).map(|z| [z / (m * m * m), z / (m * m) % m, z / m % m, z % m]);
    for p @ [a, b, c, d] in all {
        mex.clear();
        let mut take = |q: [usize; 4]| mex.insert(g[at(q)]);
        (1..=a).for_each(|k| take([a - k, b, c, d]));
        (1..=b).for_each(|k| take([a, b - k, c, d]));
        (1..=c).for_each(|k| take([a, b, c - k, d]));
        (1..=d).for_each(|k| take([a, b, c, d - k]));
        (1..=a.min(c)).for_each(|k| take([a - k, b, c - k, d]));
        (1..=b.min(d)).for_each(|k| take([a, b - k, c, d - k]));
        g[at(p)] = mex.value();
    }
    g[at([n; 4])]
}

/// Write an X on an empty cell of a strip of `len`, never making three
/// in a row nor more X's than half the cells (rounded up): the value of
/// the strip `x` (a bit per X), memoized in `memo`.
fn no_three_value(x: u32, len: usize, memo: &mut FxHashMap<u32, u32>) -> u32 {
    if let Some(v) = memo.get(&x) {
        return *v;
    }
    let mut seen = Vec::new();
    if (x.count_ones() as usize) < len.div_ceil(2) {
        for i in (0..len).filter(|i| x >> i & 1 == 0) {
            let y = x | 1 << i;
            if y & (y >> 1) & (y >> 2) == 0 {
                seen.push(no_three_value(y, len, memo));
            }
        }
    }
    let mut mex = Mex::new();
    mex.clear();
    seen.into_iter().for_each(|v| mex.insert(v));
    let v = mex.value();
    memo.insert(x, v);
    v
}

/// For how many strip lengths `1..=n` the second player wins (see
/// [`no_three_value`]).
pub fn no_three(n: usize) -> u32 {
    (1..=n)
        .filter(|len| no_three_value(0, *len, &mut FxHashMap::default()) == 0)
        .count() as u32
}

/// A king stepping towards the corner of an `n` x `n` x `n` box (each
/// coordinate down by 0 or 1, not all 0): how many squares are lost.
pub fn king3d(n: usize) -> u32 {
    let at = |x: usize, y: usize, z: usize| (x * n + y) * n + z;
    let mut g = vec![0u32; n * n * n];
    let mut mex = Mex::new();
    for (x, y, z) in (0..n).flat_map(|x| (0..n).flat_map(move |y| (0..n).map(move |z| (x, y, z)))) {
        mex.clear();
        for d in 1..8usize {
            let (dx, dy, dz) = (d >> 2, d >> 1 & 1, d & 1);
            if x >= dx && y >= dy && z >= dz {
                mex.insert(g[at(x - dx, y - dy, z - dz)]);
            }
        }
        g[at(x, y, z)] = mex.value();
    }
    g.iter().filter(|v| **v == 0).count() as u32
}

/// Take `k` only if a heap of `k` is lost in the subtraction game {1, 3,
/// 4}: the values of heaps `0..=n`, every `k` tested as the rule does.
pub fn cold_take(n: usize) -> Vec<u32> {
    let sub = subtraction(n, &[1, 3, 4]);
    let mut g = vec![0u32; n + 1];
    let mut mex = Mex::new();
    for h in 0..=n {
        mex.clear();
        for k in (1..=h).filter(|k| sub[*k] == 0) {
            mex.insert(g[h - k]);
        }
        g[h] = mex.value();
    }
    g
}
