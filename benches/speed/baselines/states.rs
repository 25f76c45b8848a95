//! Baselines of the workloads whose state is a collection a hand-written
//! program would keep as a vector: booleans, pairs. Positions memoized
//! in an `FxHashMap` keyed by the vector, every option of every position
//! made, as the rule file makes them.

use super::Mex;
use rustc_hash::FxHashMap;

/// A row of `n` coins, all heads (`true`) at first: turn a head to
/// tails, and perhaps any one coin to its left.
pub fn coin_bools(n: usize) -> u32 {
    coins(&vec![true; n], &mut FxHashMap::default())
}

fn coins(cs: &[bool], memo: &mut FxHashMap<Vec<bool>, u32>) -> u32 {
    if let Some(&v) = memo.get(cs) {
        return v;
    }
    let mut options = Vec::new();
    for i in (0..cs.len()).filter(|&i| cs[i]) {
        let mut one = cs.to_vec();
        one[i] = false;
        options.push(coins(&one, memo));
        for j in 0..i {
            let mut two = one.clone();
            two[j] = !two[j];
            options.push(coins(&two, memo));
        }
    }
    remember(memo, cs, &options)
}

/// The rows of the `northcott` workload, each (white, black).
pub const NORTHCOTT_ROWS: [(u8, u8); 6] = [(0, 7), (3, 10), (1, 6), (2, 9), (0, 4), (5, 8)];

/// Northcott's game on the first `n` rows: either checker of a row moves
/// towards the other.
pub fn northcott(n: usize) -> u32 {
    rows(&NORTHCOTT_ROWS[..n], &mut FxHashMap::default())
}

fn rows(rs: &[(u8, u8)], memo: &mut FxHashMap<Vec<(u8, u8)>, u32>) -> u32 {
    if let Some(&v) = memo.get(rs) {
        return v;
    }
    let mut options = Vec::new();
    for (i, &(w, b)) in rs.iter().enumerate() {
        for d in 1..b - w {
            for moved in [(w + d, b), (w, b - d)] {
                let mut next = rs.to_vec();
                next[i] = moved;
                options.push(rows(&next, memo));
            }
        }
    }
    remember(memo, rs, &options)
}

/// The mex of `options`, kept in `memo` as the value of `key`.
fn remember<T: Clone + Eq + std::hash::Hash>(
    memo: &mut FxHashMap<Vec<T>, u32>,
    key: &[T],
    options: &[u32],
) -> u32 {
    let mut mex = Mex::new();
    mex.clear();
    options.iter().for_each(|&v| mex.insert(v));
    let v = mex.value();
    memo.insert(key.to_vec(), v);
    v
}
