//! Published values that the baselines must reproduce, so that a wrong
//! baseline is caught before grundy is compared with it.

use crate::baselines;

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
    wrong
}
