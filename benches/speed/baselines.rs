//! Hand-written programs that do the same naive computation as the
//! workloads' rules: every option of every position is generated, its value
//! looked up in a `Vec` of the values found so far, and the value of the
//! position is the mex of its options, found with a stamped array. Each is
//! a pure function of the workload's size.

use rustc_hash::FxHashMap;

#[path = "baselines/held_out.rs"]
mod held_out;
pub use held_out::{
    cold_take, digit_sum, four_heaps, king3d, no_repeat, no_three, ping_pong, sum_winner,
};
#[path = "baselines/states.rs"]
mod states;
pub use states::{NORTHCOTT_ROWS, coin_bools, northcott};

/// The mex of a set of small integers, kept as an array of stamps: a value
/// is in the set when its slot holds the current stamp, so starting a new
/// set costs nothing.
pub struct Mex {
    seen: Vec<u32>,
    stamp: u32,
}

impl Mex {
    pub fn new() -> Self {
        Mex {
            seen: vec![0; 64],
            stamp: 0,
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.stamp += 1;
    }

    pub fn insert(&mut self, value: u32) {
        let i = value as usize;
        if i >= self.seen.len() {
            self.seen.resize(2 * i + 1, 0);
        }
        self.seen[i] = self.stamp;
    }

    /// The smallest value not in the set.
    pub fn value(&self) -> u32 {
        let mut i = 0;
        while i < self.seen.len() && self.seen[i] == self.stamp {
            i += 1;
        }
        i as u32
    }
}

/// The values of a heap game for heaps 0..=n; `options(m, g, mex)` inserts
/// the values of the options of heap `m` into `mex`, reading `g[..m]`.
fn heap_values(n: usize, options: impl Fn(usize, &[u32], &mut Mex)) -> Vec<u32> {
    let mut g = Vec::with_capacity(n + 1);
    let mut mex = Mex::new();
    for m in 0..=n {
        mex.clear();
        options(m, &g, &mut mex);
        g.push(mex.value());
    }
    g
}

/// Kayles (0.77): knock down one pin or two adjacent ones, anywhere.
pub fn kayles(n: usize) -> Vec<u32> {
    heap_values(n, |m, g, mex| {
        for k in 1..=2 {
            if k <= m {
                for a in 0..=m - k {
                    mex.insert(g[a] ^ g[m - k - a]);
                }
            }
        }
    })
}

/// Grundy's game: split a heap into two unequal non-empty heaps.
pub fn grundy_game(n: usize) -> Vec<u32> {
    heap_values(n, |m, g, mex| {
        for a in 1..m.div_ceil(2) {
            mex.insert(g[a] ^ g[m - a]);
        }
    })
}

/// Dawson's chess (0.137): take a lone pawn, two from an end, or any three.
pub fn dawson(n: usize) -> Vec<u32> {
    heap_values(n, |m, g, mex| {
        if m == 1 {
            mex.insert(0);
        }
        if m >= 2 {
            mex.insert(g[m - 2]);
        }
        if m >= 3 {
            for a in 0..=m - 3 {
                mex.insert(g[a] ^ g[m - 3 - a]);
            }
        }
    })
}

/// The subtraction game {1, 2, 3}: the value of one heap of n.
pub fn subtraction(n: usize) -> u32 {
    let g = heap_values(n, |m, g, mex| {
        for k in 1..=3.min(m) {
            mex.insert(g[m - k]);
        }
    });
    g[n]
}

/// Take 1 to `c` tokens: the value of one heap of n.
pub fn take_up_to(n: usize, c: usize) -> u32 {
    let g = heap_values(n, |m, g, mex| {
        for k in 1..=c.min(m) {
            mex.insert(g[m - k]);
        }
    });
    g[n]
}

/// Subtract a square, with the squares 1, 4, ..., 2500.
pub fn subtract_square(n: usize) -> Vec<u32> {
    let squares: Vec<usize> = (1..=50).map(|k| k * k).collect();
    heap_values(n, |m, g, mex| {
        for &s in squares.iter().take_while(|&&s| s <= m) {
            mex.insert(g[m - s]);
        }
    })
}

/// Take k tokens, k with exactly two ones in binary: every k tried, as
/// the rules do.
pub fn two_bits(n: usize) -> Vec<u32> {
    heap_values(n, |m, g, mex| {
        for k in 1..=m {
            if k.count_ones() == 2 {
                mex.insert(g[m - k]);
            }
        }
    })
}

/// Wythoff's game: the values of (a, b) for a, b in 0..n, row by row.
pub fn wythoff(n: usize) -> Vec<Vec<u32>> {
    let g = wythoff_table(n);
    g.chunks(n.max(1)).map(<[u32]>::to_vec).collect()
}

/// Wythoff's game: the value of the one position (n, n).
pub fn wythoff_one(n: usize) -> u32 {
    let g = wythoff_table(n + 1);
    g[n * (n + 1) + n]
}

/// The values of Wythoff's game for a, b in 0..n, in one flat `Vec`.
fn wythoff_table(n: usize) -> Vec<u32> {
    let mut g = vec![0u32; n * n];
    let mut mex = Mex::new();
    for a in 0..n {
        for b in 0..n {
            mex.clear();
            for k in 1..=a {
                mex.insert(g[(a - k) * n + b]);
            }
            for k in 1..=b {
                mex.insert(g[a * n + b - k]);
            }
            for k in 1..=a.min(b) {
                mex.insert(g[(a - k) * n + b - k]);
            }
            g[a * n + b] = mex.value();
        }
    }
    g
}

/// Three heaps, taking any number from one or the same number from all
/// three: the value of the one position (n, n, n).
pub fn three_heaps(n: usize) -> u32 {
    let m = n + 1;
    three_heaps_table(m)[(n * m + n) * m + n]
}

/// The values of the three-heap game for a, b, c in 0..m, in one flat
/// `Vec`, (a, b, c) at `(a * m + b) * m + c`.
pub fn three_heaps_table(m: usize) -> Vec<u32> {
    let at = |a: usize, b: usize, c: usize| (a * m + b) * m + c;
    let mut g = vec![0u32; m * m * m];
    let mut mex = Mex::new();
    for a in 0..m {
        for b in 0..m {
            for c in 0..m {
                mex.clear();
                for k in 1..=a {
                    mex.insert(g[at(a - k, b, c)]);
                }
                for k in 1..=b {
                    mex.insert(g[at(a, b - k, c)]);
                }
                for k in 1..=c {
                    mex.insert(g[at(a, b, c - k)]);
                }
                for k in 1..=a.min(b).min(c) {
                    mex.insert(g[at(a - k, b - k, c - k)]);
                }
                g[at(a, b, c)] = mex.value();
            }
        }
    }
    g
}

/// Take one token from each of a non-empty set of non-empty heaps: the
/// value of six heaps of n, positions memoized as sorted lists.
pub fn take_from_each(n: usize) -> u32 {
    let heap = u8::try_from(n).expect("heaps of at most 255");
    each(&[heap; 6], &mut FxHashMap::default())
}

fn each(heaps: &[u8], memo: &mut FxHashMap<Vec<u8>, u32>) -> u32 {
    if let Some(&v) = memo.get(heaps) {
        return v;
    }
    let mut options = Vec::new();
    for mask in 1..1u32 << heaps.len() {
        let picked = |i: usize| (mask >> i) & 1 == 1;
        if (0..heaps.len()).all(|i| !picked(i) || heaps[i] > 0) {
            let mut next: Vec<u8> = (0..heaps.len())
                .map(|i| heaps[i] - u8::from(picked(i)))
                .collect();
            next.sort_unstable();
            options.push(each(&next, memo));
        }
    }
    let mut mex = Mex::new();
    mex.clear();
    for v in options {
        mex.insert(v);
    }
    let v = mex.value();
    memo.insert(heaps.to_vec(), v);
    v
}

/// The board side of the coins workload.
pub const SIDE: usize = 15;

/// A sum of n coins on a 15 x 15 board, coin i at (7i mod 15, 11i mod 15),
/// each moving 1 or 2 squares left or down: whether the first player wins.
pub fn coins(n: usize) -> bool {
    let mut g = [[0u32; SIDE]; SIDE];
    let mut mex = Mex::new();
    for x in 0..SIDE {
        for y in 0..SIDE {
            mex.clear();
            for d in 1..=2 {
                if d <= x {
                    mex.insert(g[x - d][y]);
                }
                if d <= y {
                    mex.insert(g[x][y - d]);
                }
            }
            g[x][y] = mex.value();
        }
    }
    let total = (0..n).fold(0, |acc, i| acc ^ g[7 * i % SIDE][11 * i % SIDE]);
    total != 0
}

/// The subtraction game {1, 3, 4}: the values of heaps 0..=n.
pub fn subtraction_134(n: usize) -> Vec<u32> {
    heap_values(n, |m, g, mex| {
        for k in [1, 3, 4] {
            if k <= m {
                mex.insert(g[m - k]);
            }
        }
    })
}

/// A knight on an n x n board (squares 1..=n each way) that moves by
/// (-2, +1), (-2, -1), (+1, -2) or (-1, -2): the number of squares of
/// value 0.
pub fn knight(n: usize) -> u64 {
    let g = knight_board(n);
    let mut zeros = 0;
    for x in 1..=n {
        for y in 1..=n {
            zeros += u64::from(g[x * (n + 1) + y] == 0);
        }
    }
    zeros
}

/// The values of the knight's squares, (x, y) at `x * (n + 1) + y`. Every
/// move lowers x + y, so the squares are filled in by increasing x + y.
pub fn knight_board(n: usize) -> Vec<u32> {
    let side = n + 1;
    let mut g = vec![0u32; side * side];
    let mut mex = Mex::new();
    let n = n as i64;
    for s in 2..=2 * n {
        for x in (s - n).max(1)..=(s - 1).min(n) {
            let y = s - x;
            mex.clear();
            for (dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)] {
                let (u, v) = (x + dx, y + dy);
                if 1 <= u && u <= n && 1 <= v && v <= n {
                    mex.insert(g[u as usize * side + v as usize]);
                }
            }
            g[x as usize * side + y as usize] = mex.value();
        }
    }
    g
}

/// Move a heap of m to any proper divisor of m: the nim-sum of the heaps
/// 1..=n. Every d in 1..m is tried, as the rules do: O(n²) divisions. (A
/// sieve, adding g[d] to the multiples of d, would take O(n log n).)
pub fn divisors(n: usize) -> u32 {
    let g = divisor_values(n);
    (1..=n).fold(0, |acc, m| acc ^ g[m])
}

/// The values of the divisor game for heaps 0..=n.
pub fn divisor_values(n: usize) -> Vec<u32> {
    heap_values(n, |m, g, mex| {
        for (d, &v) in g.iter().enumerate().skip(1) {
            if m.is_multiple_of(d) {
                mex.insert(v);
            }
        }
    })
}

/// n coins in a row, mask bit i set when coin i shows heads: turn a head
/// to tails, and maybe the coin just below it too. The values of every
/// mask, 0..2^n; each move lowers the mask.
pub fn bitmask(n: usize) -> Vec<u32> {
    heap_values((1 << n) - 1, |m, g, mex| {
        for i in 0..n {
            if (m >> i) & 1 == 1 {
                mex.insert(g[m ^ (1 << i)]);
                if i >= 1 {
                    mex.insert(g[m ^ (1 << i) ^ (1 << (i - 1))]);
                }
            }
        }
    })
}

/// Euclid's game: take a positive multiple of the smaller number from the
/// larger. The values of (a, b) for a, b in 0..n, row by row; every move
/// lowers a + b, so the table is filled in by increasing a + b.
pub fn euclid(n: usize) -> Vec<Vec<u32>> {
    let mut g = vec![0u32; n * n];
    let mut mex = Mex::new();
    for s in 0..(2 * n).saturating_sub(1) {
        for a in s.saturating_sub(n - 1)..=s.min(n - 1) {
            let b = s - a;
            let (hi, lo) = (a.max(b), a.min(b));
            mex.clear();
            if lo > 0 {
                let mut k = 1;
                while k * lo <= hi {
                    mex.insert(g[(hi - k * lo) * n + lo]);
                    k += 1;
                }
            }
            g[a * n + b] = mex.value();
        }
    }
    g.chunks(n.max(1)).map(<[u32]>::to_vec).collect()
}

/// Divide a heap by 2, 3 or 6, rounding down: the nim-sum of the heaps
/// 10^15, ..., 10^15 + n - 1. The heaps are huge and sparse, so their
/// values are memoized in a hash map.
pub fn divide(n: usize) -> u32 {
    let mut memo = FxHashMap::default();
    let heaps = (0..n as u64).map(|i| 1_000_000_000_000_000 + i);
    heaps.fold(0, |acc, heap| acc ^ divide_value(heap, &mut memo))
}

/// The value of one heap of the divide game.
pub fn divide_value(heap: u64, memo: &mut FxHashMap<u64, u32>) -> u32 {
    if heap == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&heap) {
        return v;
    }
    let options = [2, 3, 6].map(|d| divide_value(heap / d, memo));
    let v = (0..).find(|v| !options.contains(v)).unwrap();
    memo.insert(heap, v);
    v
}

/// Pick a number from a set; it and its multiples leave the set: the
/// value of {2, ..., n}. A set is a bitmask (bit k for the number k), its
/// values memoized in a hash map.
pub fn multiples(n: usize) -> u32 {
    assert!(n < 64, "numbers below 64");
    let all = (2..=n).fold(0u64, |mask, k| mask | 1 << k);
    multiples_value(all, &mut FxHashMap::default())
}

fn multiples_value(set: u64, memo: &mut FxHashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&set) {
        return v;
    }
    let mut seen = 0u64;
    for x in (0..64).filter(|x| (set >> x) & 1 == 1) {
        let gone = (x..64).step_by(x).fold(0u64, |m, y| m | 1 << y);
        let v = multiples_value(set & !gone, memo);
        if v < 64 {
            seen |= 1 << v;
        }
    }
    let v = seen.trailing_ones();
    memo.insert(set, v);
    v
}

/// A heap from which a move takes 1, 2 or 3 tokens, never as many as the
/// move before it: how many heaps `0..=n`, with no move made yet, the
/// second player wins. The values are kept by heap and last move.
pub fn last_move(n: usize) -> u32 {
    let mut g = vec![[0u32; 4]; n + 1];
    let mut mex = Mex::new();
    let mut zeros = 0;
    for h in 0..=n {
        for last in 0..4 {
            mex.clear();
            for k in (1..=h.min(3)).filter(|k| *k != last) {
                mex.insert(g[h - k][k]);
            }
            g[h][last] = mex.value();
        }
        zeros += u32::from(g[h][0] == 0);
    }
    zeros
}

/// Take 1 to 3 tokens, or pass once in the game while tokens are left:
/// how many heaps `0..=n`, the pass unspent, the second player wins. The
/// values are kept by heap and by whether the pass is spent (the spent
/// one first: the unspent position's pass reads it).
pub fn one_pass(n: usize) -> u32 {
    let mut g = vec![[0u32; 2]; n + 1];
    let mut mex = Mex::new();
    let mut zeros = 0;
    for h in 0..=n {
        for spent in [1, 0] {
            mex.clear();
            for k in 1..=h.min(3) {
                mex.insert(g[h - k][spent]);
            }
            if spent == 0 && h > 0 {
                mex.insert(g[h][1]);
            }
            g[h][spent] = mex.value();
        }
        zeros += u32::from(g[h][0] == 0);
    }
    zeros
}

/// Take 1 to 3 tokens, or spend one of the passes left while tokens are
/// left: how many heaps `0..=n`, with three passes, the second player
/// wins. The values are kept by heap and by the passes left, fewest
/// first (a pass reads the heap's value with one fewer).
pub fn passes(n: usize) -> u32 {
    const PASSES: usize = 3;
    let mut g = vec![[0u32; PASSES + 1]; n + 1];
    let mut mex = Mex::new();
    let mut zeros = 0;
    for h in 0..=n {
        for p in 0..=PASSES {
            mex.clear();
            for k in 1..=h.min(3) {
                mex.insert(g[h - k][p]);
            }
            if p > 0 && h > 0 {
                mex.insert(g[h][p - 1]);
            }
            g[h][p] = mex.value();
        }
        zeros += u32::from(g[h][PASSES] == 0);
    }
    zeros
}

/// Take a prime number of tokens: the heaps up to `n` the second player
/// wins, each heap's options every `k` up to it that is prime (the primes
/// sieved once, tested with a look-up).
pub fn prime_take(n: usize) -> u32 {
    let mut prime = vec![true; n + 1];
    prime[..2.min(n + 1)].fill(false);
    for p in 2..=n {
        if prime[p] {
            (p * p..=n).step_by(p).for_each(|m| prime[m] = false);
        }
    }
    let mut g = vec![0u32; n + 1];
    let mut mex = Mex::new();
    for h in 0..=n {
        mex.clear();
        for k in (1..=h).filter(|&k| prime[k]) {
            mex.insert(g[h - k]);
        }
        g[h] = mex.value();
    }
    g.iter().filter(|&&v| v == 0).count() as u32
}

/// A row of `n` coins, all heads at first: turn a head to tails, and
/// perhaps any one coin to its left. Positions memoized as strings in an
/// `FxHashMap`, as the rule file keeps them.
pub fn coin_row(n: usize) -> u32 {
    row(&"H".repeat(n), &mut FxHashMap::default())
}

fn row(s: &str, memo: &mut FxHashMap<String, u32>) -> u32 {
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let flip = |t: &str, i: usize| {
        let mut b = t.as_bytes().to_vec();
        b[i] = if b[i] == b'H' { b'T' } else { b'H' };
        String::from_utf8(b).expect("ASCII")
    };
    let mut options = Vec::new();
    for i in (0..s.len()).filter(|&i| s.as_bytes()[i] == b'H') {
        let one = flip(s, i);
        options.push(row(&one, memo));
        for j in 0..i {
            options.push(row(&flip(&one, j), memo));
        }
    }
    let mut mex = Mex::new();
    mex.clear();
    options.into_iter().for_each(|v| mex.insert(v));
    let v = mex.value();
    memo.insert(s.to_string(), v);
    v
}
