//! Published values that the baselines must reproduce, so that a wrong
//! baseline is caught before grundy is compared with it.

use crate::baselines;
use crate::pairs;
use rustc_hash::FxHashMap;

/// Kayles, OEIS A002186 (n = 0..=83; periodic with period 12 from 71 on).
pub const KAYLES: [u32; 84] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
];

/// Dawson's chess, OEIS A002187 (n = 0..=60).
pub const DAWSON: [u32; 61] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1,
];

/// Grundy's game, OEIS A002188 (n = 0..=60).
pub const GRUNDY_GAME: [u32; 61] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2,
];

/// Subtract a square: the P-positions up to 200, OEIS A030193.
pub const SQUARE_ZEROS: [usize; 38] = [
    0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109, 119, 124,
    127, 130, 132, 137, 142, 147, 150, 170, 177, 180, 182, 187, 192, 197,
];

/// Wythoff's game, (a, b) for a, b in 0..10 (Wythoff's table, OEIS A004481).
pub const WYTHOFF: [[u32; 10]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 0, 4, 5, 3, 7, 8, 6, 10],
    [2, 0, 1, 5, 3, 4, 8, 6, 7, 11],
    [3, 4, 5, 6, 2, 0, 1, 9, 10, 12],
    [4, 5, 3, 2, 7, 6, 9, 0, 1, 8],
    [5, 3, 4, 0, 6, 8, 10, 1, 2, 7],
    [6, 7, 8, 1, 9, 10, 3, 4, 5, 13],
    [7, 8, 6, 9, 0, 1, 4, 5, 3, 14],
    [8, 6, 7, 10, 1, 2, 5, 3, 4, 15],
    [9, 10, 11, 12, 8, 7, 13, 14, 15, 16],
];

/// Every way a baseline disagrees with what is known; empty when none does.
pub fn check() -> Vec<String> {
    let mut wrong = Vec::new();
    let mut expect = |what: &str, ok: bool| {
        if !ok {
            wrong.push(format!(
                "the baseline of {what} disagrees with known values"
            ));
        }
    };
    expect("kayles", baselines::kayles(83) == KAYLES);
    expect("dawson", baselines::dawson(60) == DAWSON);
    expect("grundy_game", baselines::grundy_game(60) == GRUNDY_GAME);
    let square = baselines::subtract_square(200);
    let zeros: Vec<usize> = (0..=200).filter(|&n| square[n] == 0).collect();
    expect("subtract_square", zeros == SQUARE_ZEROS);
    expect("wythoff", baselines::wythoff(10) == WYTHOFF);
    // {1, 2, 3}: the value of n is n mod 4.
    expect(
        "subtraction",
        (0..50).all(|n| baselines::subtraction(n) as usize == n % 4),
    );
    // One heap of each is worth its parity; all heaps even is a P-position.
    expect("take_from_each", baselines::take_from_each(0) == 0);
    expect("take_from_each", baselines::take_from_each(2) == 0);
    expect("take_from_each", baselines::take_from_each(1) != 0);
    // A coin is two heaps of "take 1 or 2": (x mod 3) xor (y mod 3). Coins
    // 0, 1, 2 are at (0, 0), (7, 11) and (14, 7): 0 ^ 3 ^ 3 = 0.
    expect("coins", !baselines::coins(3) && baselines::coins(2));
    // {1, 3, 4}: 0 1 0 1 2 3 2, period 7 (Ferguson, Game Theory, I.3).
    let s134 = baselines::subtraction_134(200);
    expect(
        "subtraction_let_set",
        (0..=200).all(|n| s134[n] == [0, 1, 0, 1, 2, 3, 2][n % 7]),
    );
    expect("knight", knight_zeros_are_known());
    expect("divisors", divisors_are_omega());
    expect("bitmask", bitmask_is_a_coin_turning_game());
    // The diagonal of Wythoff's table.
    expect(
        "wythoff_one",
        (0..10).all(|k| baselines::wythoff_one(k) == WYTHOFF[k][k]),
    );
    expect("wythoff", wythoff_zeros_are_known());
    expect("three_heaps", three_heaps_is_nim_off_the_diagonal());
    expect("euclid", euclid_zeros_are_known());
    expect("divide", divide_is_known());
    // {2}, {2, 3} and {2, 3, 4}, worked by hand: 1, 0 and 3.
    expect("multiples", (2..=4).map(baselines::multiples).eq([1, 0, 3]));
    // Worked by hand: 3, 4 and 5 reach 0, 1 and 2 (or 0); 6 reaches 3, 1, 0.
    expect("two_bits", baselines::two_bits(6) == [0, 0, 0, 1, 1, 1, 2]);
    // The heaps the second player wins are the multiples of 4 (from 4k + r
    // the first player takes r and leaves 4k; a direct search in Python
    // finds the same count to 10^6).
    expect(
        "last_move",
        (0..200).all(|n| baselines::last_move(n) == n as u32 / 4 + 1),
    );
    // With the pass spent the values are n mod 4; unspent, the second
    // player wins 0 and the heaps 4k + 1 from 5 on (a pass leaves 1 mod
    // 4, a take 4k, 4k - 1 or 4k - 2 with the pass: none lost). A search
    // in Python finds the same.
    expect(
        "one_pass",
        (0..200)
            .all(|n| baselines::one_pass(n) as usize == 1 + (5..=n).filter(|h| h % 4 == 1).count()),
    );
    // Two passes cancel (a pass answered by a pass), so three passes
    // leave the values of one: those of one_pass, worked out above. A
    // search in Python finds the same.
    expect(
        "passes",
        (0..200).all(|n| baselines::passes(n) == baselines::one_pass(n)),
    );
    // Worked by hand: 0 and 1 have no move; 2 to 8 reach 0 or 1 (8 - 7);
    // 9 and 10 reach only 2 to 8; 11 and 12 reach 9 (11 - 2, 12 - 3).
    expect(
        "prime_take",
        [1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 4, 4, 4]
            .iter()
            .enumerate()
            .all(|(n, &zeros)| baselines::prime_take(n) == zeros),
    );
    // A head alone at index k is worth k + 1 (it reaches no head or one
    // head below it): a row of n heads is worth 1 ^ 2 ^ ... ^ n.
    expect(
        "coin_row",
        (0..=10).all(|n| baselines::coin_row(n) == (1..=n as u32).fold(0, |v, k| v ^ k)),
    );
    // The same game with the coins as booleans; Northcott's game is Nim
    // of the gaps between each row's checkers (Winning Ways, ch. 2).
    expect(
        "coin_bools",
        (0..=10).all(|n| baselines::coin_bools(n) == (1..=n as u32).fold(0, |v, k| v ^ k)),
    );
    let gaps = |n: usize| {
        let rows = &baselines::NORTHCOTT_ROWS[..n];
        rows.iter().fold(0, |x, (w, b)| x ^ u32::from(b - w - 1))
    };
    expect(
        "northcott",
        (0..=4).all(|n| baselines::northcott(n) == gaps(n)),
    );
    // Cram on a strip is Dawson's Kayles (octal 0.07, OEIS A002187); on
    // boards of even sides the second player wins by symmetry.
    expect(
        "cram",
        (0..12)
            .map(|n| pairs::cram_board(n, 1))
            .eq([0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3])
            && [(2, 2), (2, 4), (4, 2), (4, 4)]
                .iter()
                .all(|&(w, h)| pairs::cram_board(w, h) == 0),
    );
    // One token is Nim on two heaps. Tokens at (0, 1) and (1, 0) both
    // reach (0, 0) and then are stuck: worth 1, where Nim's sum is 0.
    let memo = &mut Default::default();
    expect(
        "tokens",
        (0..6u8)
            .all(|x| (0..6u8).all(|y| pairs::tokens_value(vec![(x, y)], memo) == u32::from(x ^ y)))
            && pairs::tokens_value(vec![(0, 1), (1, 0)], memo) == 1,
    );
    held_out(&mut expect);
    wrong
}

/// The workloads written in another sitting, against the rules' moves
/// searched top-down (a memoized recursion written from the rule files,
/// not the baselines' loops) and facts worked by hand.
fn held_out(expect: &mut impl FnMut(&str, bool)) {
    let no_repeat = |h: usize| {
        let moves = |&(h, a, b): &(usize, usize, usize)| {
            let ks = (1..=h.min(4)).filter(move |k| *k != a && *k != b);
            ks.map(move |k| (h - k, k, a)).collect()
        };
        let memo = &mut FxHashMap::default();
        (0..=h)
            .filter(|x| search((*x, 0, 0), &moves, memo) == 0)
            .count() as u32
    };
    expect(
        "no_repeat",
        (0..40).all(|h| baselines::no_repeat(h) == no_repeat(h)),
    );
    // 0 is lost; 1 to 9 are won by taking all; 10 may take one only, to 9.
    expect(
        "digit_sum",
        baselines::digit_sum(9) == 1 && baselines::digit_sum(11) == 2,
    );
    // Both heaps empty: the second player wins.
    expect("sum_winner", baselines::sum_winner(0) == 1);
    // (game, heap, Nim heap beside): ping is 0, pong 1.
    let ping_pong = |n: usize| {
        let moves = |&(game, h, star): &(u8, usize, usize)| -> Vec<(u8, usize, usize)> {
            let mut to: Vec<_> = match game {
                0 => (1..=h.min(2)).map(|k| (1, h - k, star)).collect(),
                _ => (1..=h.min(3))
                    .filter(|k| (h - k) % 2 == 0)
                    .map(|k| (0, h - k, star))
                    .collect(),
            };
            if game == 1 && h > 0 {
                to.push((0, h - 1, star + 1));
            }
            // A move in the Nim heap beside.
            to.extend((0..star).map(|s| (game, h, s)));
            to
        };
        let memo = &mut FxHashMap::default();
        (0..=n)
            .filter(|x| search((0, *x, 0), &moves, memo) == 0)
            .count() as u32
    };
    expect(
        "ping_pong",
        (0..30).all(|n| baselines::ping_pong(n) == ping_pong(n)),
    );
    let four = |n: usize| {
        let moves = |p: &[usize; 4]| {
            let mut to = Vec::new();
            for (i, j) in [(0, 0), (1, 1), (2, 2), (3, 3), (0, 2), (1, 3)] {
                for k in 1..=p[i].min(p[j]) {
                    let mut q = *p;
                    q[i] -= k;
                    q[j] -= if i == j { 0 } else { k };
                    to.push(q);
                }
            }
            to
        };
        search([n; 4], &moves, &mut FxHashMap::default())
    };
    expect(
        "four_heaps",
        (0..5).all(|n| baselines::four_heaps(n) == four(n)),
    );
    // The strip as a string of '.' and 'X', its moves as the rule says.
    let no_three = |n: usize| {
        let moves = |s: &Vec<u8>| {
            let xs = s.iter().filter(|c| **c == b'X').count();
            let put = |i: usize| {
                let mut t = s.clone();
                t[i] = b'X';
                t
            };
            (0..s.len())
                .filter(|i| s[*i] == b'.' && xs < s.len().div_ceil(2))
                .map(put)
                .filter(|t| !t.windows(3).any(|w| w == b"XXX"))
                .collect()
        };
        let memo = &mut FxHashMap::default();
        (1..=n)
            .filter(|len| search(vec![b'.'; *len], &moves, memo) == 0)
            .count() as u32
    };
    expect(
        "no_three",
        (0..12).all(|n| baselines::no_three(n) == no_three(n)),
    );
    // Searched as the rule reads: `value(sub(k)) == 0` asked of the
    // subtraction game searched top-down too.
    let cold_take = |n: usize| {
        let sub_moves = |h: &usize| {
            [1, 3, 4]
                .iter()
                .filter(|k| **k <= *h)
                .map(|k| h - k)
                .collect()
        };
        let subs = &mut FxHashMap::default();
        let cold: Vec<bool> = (0..=n).map(|k| search(k, &sub_moves, subs) == 0).collect();
        let moves = |h: &usize| (1..=*h).filter(|k| cold[*k]).map(|k| h - k).collect();
        let memo = &mut FxHashMap::default();
        (0..=n)
            .map(|h| search(h, &moves, memo))
            .collect::<Vec<u32>>()
    };
    expect("cold_take", baselines::cold_take(80) == cold_take(80));
    // A king that steps down in any of x, y, z loses where all three are
    // even, as the 2-D king does where both are.
    expect(
        "king3d",
        (0..9).all(|n| baselines::king3d(n) as usize == n.div_ceil(2).pow(3)),
    );
}

/// The value of position `p` of the game whose options `moves` gives,
/// searched top-down and remembered in `memo`.
fn search<P: Clone + Eq + std::hash::Hash>(
    p: P,
    moves: &impl Fn(&P) -> Vec<P>,
    memo: &mut FxHashMap<P, u32>,
) -> u32 {
    if let Some(v) = memo.get(&p) {
        return *v;
    }
    let seen: Vec<u32> = moves(&p)
        .into_iter()
        .map(|q| search(q, moves, memo))
        .collect();
    let v = (0..).find(|v| !seen.contains(v)).unwrap_or(0);
    memo.insert(p, v);
    v
}

/// "A Chessboard Game" (HackerRank), on a 15 x 15 board: the squares of
/// value 0 are those with x mod 4 and y mod 4 both in {1, 2}; 64 of them.
fn knight_zeros_are_known() -> bool {
    let n = 15;
    let g = baselines::knight_board(n);
    let low = |x: usize| x % 4 == 1 || x % 4 == 2;
    (1..=n).all(|x| (1..=n).all(|y| (g[x * (n + 1) + y] == 0) == (low(x) && low(y))))
        && baselines::knight(n) == 64
}

/// The divisor game's value of m is the number of prime factors of m,
/// counted with multiplicity (OEIS A001222), found here by trial division.
fn divisors_are_omega() -> bool {
    let omega = |mut m: usize| {
        let mut count = 0;
        let mut p = 2;
        while p * p <= m {
            while m.is_multiple_of(p) {
                m /= p;
                count += 1;
            }
            p += 1;
        }
        count + u32::from(m > 1)
    };
    let g = baselines::divisor_values(1000);
    let xor = (1..=1000).fold(0, |acc, m| acc ^ omega(m));
    (1..=1000).all(|m| g[m] == omega(m)) && baselines::divisors(1000) == xor
}

/// In a coin-turning game each head counts alone, and the mask is worth
/// the nim-sum of its heads: a lone head at i is worth mex{0, value(i - 1)},
/// which is 1 for i even and 2 for i odd.
fn bitmask_is_a_coin_turning_game() -> bool {
    let g = baselines::bitmask(12);
    let head = |i: usize| if i.is_multiple_of(2) { 1 } else { 2 };
    (0..1 << 12).all(|m: usize| {
        let heads = (0..12).filter(|&i| (m >> i) & 1 == 1);
        g[m] == heads.fold(0, |acc, i| acc ^ head(i))
    })
}

/// Wythoff's P-positions are (floor(kφ), floor(kφ²)) and their mirror
/// images; floor(kφ) is (k + isqrt(5k²)) / 2.
fn wythoff_zeros_are_known() -> bool {
    let n = 100;
    let g = baselines::wythoff(n);
    let mut zeros = vec![vec![false; n]; n];
    for k in 0..n {
        let a = (k + (5 * k * k).isqrt()) / 2;
        let b = a + k;
        if b < n {
            zeros[a][b] = true;
            zeros[b][a] = true;
        }
    }
    (0..n).all(|a| (0..n).all(|b| (g[a][b] == 0) == zeros[a][b]))
}

/// Euclid's game (Cole and Davie, 1969): with both numbers positive, the
/// player to move loses exactly when they differ and the larger is less
/// than φ times the smaller; with a 0 there is no move. x < φy is
/// (2x - y)² < 5y² for x > y.
fn euclid_zeros_are_known() -> bool {
    let n = 100;
    let g = baselines::euclid(n);
    let losing = |a: usize, b: usize| {
        let (x, y) = (a.max(b), a.min(b));
        y == 0 || (x != y && (2 * x - y).pow(2) < 5 * y * y)
    };
    (0..n).all(|a| (0..n).all(|b| (g[a][b] == 0) == losing(a, b)))
}

/// Derived by hand, by induction on the heap: with q the largest power of
/// 12 not above m, the value of m depends only on m / q: 1 for 1, 2 for
/// 2..4, 3 for 4..6 and 0 for 6..12.
fn divide_is_known() -> bool {
    let known = |m: u64| {
        let mut q = 1;
        while q * 12 <= m {
            q *= 12;
        }
        [0, 1, 2, 2, 3, 3, 0, 0, 0, 0, 0, 0][(m / q) as usize]
    };
    let mut memo = FxHashMap::default();
    let twelve = 12u64.pow(14);
    let huge = [twelve - 1, twelve, 2 * twelve, 4 * twelve - 1, 4 * twelve];
    (0..=100_000).chain(huge).all(|m| baselines::divide_value(m, &mut memo) == known(m))
        // Every heap from 10^15 on is in 6 * 12^13 .. 12^14: worth 0.
        && baselines::divide(1000) == 0
}

/// The three-heap game with one heap empty is Nim of the other two: no
/// move takes from all three. With two empty it is one heap, and (1, 1, 1)
/// has the options (0, 1, 1) and (0, 0, 0), both of value 0.
fn three_heaps_is_nim_off_the_diagonal() -> bool {
    let m = 12;
    let g = baselines::three_heaps_table(m);
    let at = |a: usize, b: usize, c: usize| g[(a * m + b) * m + c];
    let nim = (0..m).all(|a| {
        (0..m).all(|b| {
            let v = (a ^ b) as u32;
            at(a, b, 0) == v && at(a, 0, b) == v && at(0, a, b) == v
        })
    });
    nim && at(1, 1, 1) == 1 && baselines::three_heaps(1) == 1
}
