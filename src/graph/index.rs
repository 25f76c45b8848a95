//! Dense indices: a position of one, two or three small non-negative
//! integers numbered by its arguments (the integer itself, Szudzik's
//! pairing for two, its extension to cube shells for three), and those
//! numbers undone. The dense tables (`dense/`) keep values by them.

use crate::value::Value;

/// Node indices below this are dense: the index is the game's integer
/// argument itself, or the Szudzik number of its two arguments. Indices
/// from here on count the positions kept in a hash table.
pub const DENSE_END: u32 = 1 << 31;

/// The dense index of a game's arguments, when they are one, two or
/// three non-negative integers small enough: `n`, Szudzik's pairing of
/// `(a, b)`, which numbers the pairs of the square `[0, m)²` by `[0, m²)`
/// so that a rectangle of positions fills a block of indices, or
/// [`dense3`] of `(a, b, c)`, which does the same for cubes.
/// The empty position is 0, as `Value`'s equality says (and the hashed
/// positions' keys).
pub fn dense_index(args: &[Value]) -> Option<u32> {
    let int = super::flat::int;
    match args {
        [n] => dense1(int(n)?),
        [a, b] => dense2(int(a)?, int(b)?),
        [a, b, c] => dense3(int(a)?, int(b)?, int(c)?),
        [a, b, c, d] => dense4(int(a)?, int(b)?, int(c)?, int(d)?),
        _ => None,
    }
}

/// [`dense_index`] of integer arguments.
#[inline]
pub fn int_index(args: &[i64]) -> Option<u32> {
    match args {
        [n] => dense1(*n),
        [a, b] => dense2(*a, *b),
        [a, b, c] => dense3(*a, *b, *c),
        [a, b, c, d] => dense4(*a, *b, *c, *d),
        _ => None,
    }
}

#[inline]
pub fn dense1(n: i64) -> Option<u32> {
    u32::try_from(n).ok().filter(|n| *n < DENSE_END)
}

/// The side of the dense square of pairs: every pair of `[0, 32768)²` is
/// dense, numbered by Szudzik's pairing below 2³⁰.
pub const SIDE_MAX: i64 = 1 << 15;
/// Beyond the square, a pair is dense when one argument is below this
/// and the other below [`LONG_MAX`]: the strips of a game whose positions
/// keep one argument small, as `g(n, last)` with `last` the last move's
/// size. Each strip is numbered by rows of this width, from 2³⁰ (the long
/// first argument) and from 3 · 2²⁹ (the long second one).
pub const STRIP_WIDTH: i64 = 64;
/// Each argument of a dense pair is below this.
pub const LONG_MAX: i64 = SIDE_MAX + (1 << 23);
const STRIP_A: i64 = 1 << 30;
const STRIP_B: i64 = STRIP_A + (1 << 29);

#[inline]
pub fn dense2(a: i64, b: i64) -> Option<u32> {
    let z = if a < SIDE_MAX && b < SIDE_MAX {
        if a < 0 || b < 0 {
            return None;
        }
        if a >= b { a * a + a + b } else { b * b + a }
    } else if (0..STRIP_WIDTH).contains(&b) && a < LONG_MAX {
        STRIP_A + (a - SIDE_MAX) * STRIP_WIDTH + b
    } else if (0..STRIP_WIDTH).contains(&a) && b < LONG_MAX {
        STRIP_B + (b - SIDE_MAX) * STRIP_WIDTH + a
    } else {
        return None;
    };
    Some(z as u32)
}

/// Each argument of a triple of the dense cube is below this: the cube
/// is numbered below 2³⁰.
pub const SIDE3_MAX: i64 = 1 << 10;
/// Beyond the cube, a triple is dense when two of its arguments are
/// below this and the third below [`LONG3_MAX`]: the strips of a game
/// whose positions keep two arguments small, as `g(n, a, b)` with `a` and
/// `b` the sizes of the last two moves.
pub const STRIP3_WIDTH: i64 = 8;
/// The long argument of a triple in a strip is below this.
pub const LONG3_MAX: i64 = SIDE3_MAX + (1 << STRIP3_LONG_BITS);
const STRIP3_LONG_BITS: u32 = 22;
/// The strips' indices: from 2³⁰, one block of 2²⁸ for each argument
/// that may be long, in it the triples by their long argument, then by
/// their short ones (a sweep by index meets every triple of a lower long
/// argument first, as it does in a strip of pairs).
const STRIP3: i64 = 1 << 30;
const STRIP3_BLOCK: i64 = (STRIP3_WIDTH * STRIP3_WIDTH) << STRIP3_LONG_BITS;

/// The dense index of `(a, b, c)`: in the cube `[0, SIDE3_MAX)³`, the
/// triples of the cube `[0, m)³` numbered by `[0, m³)`, shell by shell
/// (the triples of largest argument `s` after those of the smaller
/// ones), and within a shell in the order of `(a, b, c)` read as a word.
/// So lowering any argument lowers the index, as Szudzik's pairing does
/// for pairs: a sweep by index meets a position after every one below
/// it. Past the cube, a triple of a strip (see [`STRIP3_WIDTH`]) is
/// numbered from 2³⁰, by which argument is long, then by the long one,
/// then by its short ones, which keeps that order too.
#[inline]
pub fn dense3(a: i64, b: i64, c: i64) -> Option<u32> {
    let inside = |x: i64| (0..SIDE3_MAX).contains(&x);
    if !inside(a) || !inside(b) || !inside(c) {
        return strip3(a, b, c);
    }
    let s = a.max(b).max(c);
    // Below `a = s`, each `a` holds the `2s + 1` pairs `(b, c)` of the
    // square shell `s` in word order: `(b, s)` for `b < s`, then `(s, c)`;
    // at `a = s`, the whole square `[0, s]²`.
    let within = if a < s {
        a * (2 * s + 1) + if b < s { b } else { s + c }
    } else {
        s * (2 * s + 1) + b * (s + 1) + c
    };
    Some((s * s * s + within) as u32)
}

/// Each argument of a dense position of four integers is below this.
pub const SIDE4_MAX: i64 = 1 << SIDE4_BITS;
pub(super) const SIDE4_BITS: u32 = 7;

/// The dense index of `(a, b, c, d)`, each in `[0, SIDE4_MAX)`: the cube
/// index of `(b, c, d)` (see [`dense3`]) times [`SIDE4_MAX`], plus `a`.
/// Lowering any argument lowers the index. Kept in row `(b, c, d)`,
/// column `a`: a board of two tokens, `g(x1, y1, x2, y2)`, or four heaps.
#[inline]
pub fn dense4(a: i64, b: i64, c: i64, d: i64) -> Option<u32> {
    if (a | b | c | d) as u64 >= SIDE4_MAX as u64 {
        return None;
    }
    Some(dense3(b, c, d)? << SIDE4_BITS | a as u32)
}

/// The row of dense index `z` of four integers (the cube index of its
/// last three) and its column (its first): where its table keeps it.
#[inline]
pub fn quad_place(z: u32) -> (usize, usize) {
    (
        (z >> SIDE4_BITS) as usize,
        (z & ((1 << SIDE4_BITS) - 1)) as usize,
    )
}

/// The dense index of four integers in row `row`, column `a` (see
/// [`quad_place`]).
pub fn quad_index(row: usize, a: usize) -> u32 {
    ((row as u32) << SIDE4_BITS) | a as u32
}

/// [`dense4`] undone.
pub fn unquad(z: u32) -> [usize; 4] {
    let (b, c, d) = untriple(z >> SIDE4_BITS);
    [(z & ((1 << SIDE4_BITS) - 1)) as usize, b, c, d]
}

/// [`dense3`] of a triple outside the cube: its index in a strip, if it
/// is in one.
fn strip3(a: i64, b: i64, c: i64) -> Option<u32> {
    let short = |x: i64| (0..STRIP3_WIDTH).contains(&x);
    let long = |x: i64| (SIDE3_MAX..LONG3_MAX).contains(&x);
    let (axis, l, s, t) = match (long(a), long(b), long(c)) {
        (true, _, _) if short(b) && short(c) => (0, a, b, c),
        (_, true, _) if short(a) && short(c) => (1, b, a, c),
        (_, _, true) if short(a) && short(b) => (2, c, a, b),
        _ => return None,
    };
    let pairs = STRIP3_WIDTH * STRIP3_WIDTH;
    let at = (l - SIDE3_MAX) * pairs + s * STRIP3_WIDTH + t;
    Some((STRIP3 + axis * STRIP3_BLOCK + at) as u32)
}

/// Whether dense index `z` of a triple is in a strip (past the cube).
pub fn in_strip3(z: u32) -> bool {
    i64::from(z) >= STRIP3
}

/// [`strip3`] undone, for `z` from 2³⁰ (see [`STRIP3`]).
fn unstrip3(z: u32) -> (usize, usize, usize) {
    let r = i64::from(z) - STRIP3;
    let (axis, r) = (r / STRIP3_BLOCK, r % STRIP3_BLOCK);
    let pairs = STRIP3_WIDTH * STRIP3_WIDTH;
    let (l, pair) = (r / pairs + SIDE3_MAX, r % pairs);
    let (s, t) = (pair / STRIP3_WIDTH, pair % STRIP3_WIDTH);
    let (a, b, c) = match axis {
        0 => (l, s, t),
        1 => (s, l, t),
        _ => (s, t, l),
    };
    (a as usize, b as usize, c as usize)
}

/// The integer cube root of `z`, below 2³²: three Newton steps from a
/// guess made of `z`'s floating-point exponent, then set right by one
/// either way (checked against the bit-by-bit root for every `z` of the
/// cube). A library `cbrt` is a slow call, and the bit-by-bit root ten
/// rounds of two multiplications: a triple's table is read by it at every
/// look-up of a position by its index.
#[inline]
pub(super) fn cube_root(z: u64) -> u64 {
    if z == 0 {
        return 0;
    }
    let x = z as f64;
    // The exponent divided by three, the mantissa roughly so.
    let mut y = f64::from_bits(x.to_bits() / 3 + 0x2A9F_7893_782D_A1CE);
    for _ in 0..3 {
        y -= (y * y * y - x) / (3.0 * y * y);
    }
    let mut s = y as u64;
    if s * s * s > z {
        s -= 1;
    }
    if (s + 1) * (s + 1) * (s + 1) <= z {
        s += 1;
    }
    s
}

/// [`dense3`] undone: the `(a, b, c)` of index `z`.
pub fn untriple(z: u32) -> (usize, usize, usize) {
    if i64::from(z) >= STRIP3 {
        return unstrip3(z);
    }
    let z = z as u64;
    let s = cube_root(z);
    let r = z - s * s * s;
    let lower = s * (2 * s + 1);
    let (a, b, c) = if r < lower {
        let (a, t) = (r / (2 * s + 1), r % (2 * s + 1));
        if t < s { (a, t, s) } else { (a, s, t - s) }
    } else {
        let r = r - lower;
        (s, r / (s + 1), r % (s + 1))
    };
    (a as usize, b as usize, c as usize)
}

/// The integers of a dense index of arity `arity` (one to four), in
/// the first `arity` of four: no allocation, as a kernel's run of a
/// position of a list or tuple of integers reads them each time.
pub(super) fn index_ints(arity: usize, z: u32) -> [i64; 4] {
    match arity {
        1 => [z as i64, 0, 0, 0],
        2 => {
            let (a, b) = unpair(z);
            [a as i64, b as i64, 0, 0]
        }
        3 => {
            let (a, b, c) = untriple(z);
            [a as i64, b as i64, c as i64, 0]
        }
        _ => unquad(z).map(|x| x as i64),
    }
}

/// The arguments of a dense index of arity `arity`.
pub(super) fn dense_args(arity: usize, z: u32) -> Vec<Value> {
    let n = if (1..=3).contains(&arity) { arity } else { 4 };
    index_ints(arity, z)[..n]
        .iter()
        .map(|n| Value::Int(*n))
        .collect()
}

/// [`dense2`] undone: the `(a, b)` of index `z`.
pub fn unpair(z: u32) -> (usize, usize) {
    let (side, width) = (SIDE_MAX as usize, STRIP_WIDTH as usize);
    match i64::from(z) {
        z if z >= STRIP_B => {
            let r = (z - STRIP_B) as usize;
            (r % width, side + r / width)
        }
        z if z >= STRIP_A => {
            let r = (z - STRIP_A) as usize;
            (side + r / width, r % width)
        }
        _ => unsquare(z),
    }
}

/// Szudzik's pairing undone, for `z` below 2³⁰.
fn unsquare(z: u32) -> (usize, usize) {
    let z = z as u64;
    // The square root in floating point is exact enough: below 2³¹ every
    // integer is a double, the root is correctly rounded, and the root of
    // a square's predecessor, s - 1/(2s) and more, lies far more than an
    // ulp below s, so it truncates to s - 1 (the test tries every square's
    // neighbours).
    let s = (z as f64).sqrt() as u64;
    debug_assert!(s * s <= z && z < (s + 1) * (s + 1), "isqrt of {z}");
    let r = z - s * s;
    let (a, b) = if r < s { (r, s) } else { (s, r - s) };
    (a as usize, b as usize)
}

/// Whether dense index `z` of a pair lies in the square, where a sweep by
/// index goes shell by shell.
pub fn in_square(z: u32) -> bool {
    i64::from(z) < STRIP_A
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::dense::places::{STRIP3_ROWS, place3, row3, unplace3};

    #[test]
    fn the_cube_root_is_the_largest_whose_cube_is_not_above() {
        // Around every cube of the dense cube's sides (where a root is
        // off by one if anywhere), and a spread of others; below 2^32.
        let around = (0..=1625u64).flat_map(|s| {
            let c = s * s * s;
            [c.saturating_sub(1), c, c + 1]
        });
        let spread = (0..1u64 << 32).step_by(65_537);
        for z in around.chain(spread).filter(|z| *z < 1 << 32) {
            let s = cube_root(z);
            assert!(s * s * s <= z && (s + 1).pow(3) > z, "{z}: {s}");
        }
    }

    #[test]
    fn unpairing_undoes_the_pairing() {
        let side = SIDE_MAX;
        let ends = (0..side).step_by(997).chain(side - 10..side);
        for a in ends.clone() {
            for b in ends.clone() {
                let z = dense2(a, b).unwrap();
                assert_eq!(unpair(z), (a as usize, b as usize));
                // The indices on either side of a square's.
                for z in [z.saturating_sub(1), z + 1]
                    .into_iter()
                    .filter(|z| i64::from(*z) < side * side)
                {
                    let (a, b) = unpair(z);
                    assert_eq!(dense2(a as i64, b as i64), Some(z));
                }
            }
        }
        // Every square and its predecessor: the floating-point root
        // needs no correction.
        for s in 1..side as u32 {
            for z in [s * s - 1, s * s] {
                let (a, b) = unpair(z);
                assert_eq!(dense2(a as i64, b as i64), Some(z));
            }
        }
    }

    #[test]
    fn the_strips_beyond_the_square_are_numbered_apart_and_undone() {
        let mut seen = std::collections::HashSet::new();
        let longs = [SIDE_MAX, SIDE_MAX + 1, 1_000_000, LONG_MAX - 1];
        for long in longs {
            for short in [0, 1, STRIP_WIDTH - 1] {
                for (a, b) in [(long, short), (short, long)] {
                    let z = dense2(a, b).unwrap();
                    assert!(z < DENSE_END && !in_square(z), "{a}, {b}");
                    assert!(seen.insert(z), "{a}, {b} numbered twice");
                    assert_eq!(unpair(z), (a as usize, b as usize));
                }
            }
            // Lowering either argument lowers the index.
            let z = dense2(long, 5).unwrap();
            assert!(dense2(long, 4).unwrap() < z);
            assert!(long == SIDE_MAX || dense2(long - 1, 5).unwrap() < z);
        }
        for (a, b) in [
            (SIDE_MAX, STRIP_WIDTH),
            (STRIP_WIDTH, SIDE_MAX),
            (LONG_MAX, 0),
            (0, LONG_MAX),
            (-1, SIDE_MAX),
            (SIDE_MAX, -1),
            (-1, 0),
        ] {
            assert_eq!(dense2(a, b), None, "{a}, {b}");
        }
        assert!(in_square(dense2(SIDE_MAX - 1, SIDE_MAX - 1).unwrap()));
    }

    #[test]
    fn tripling_numbers_each_cube_by_its_indices_and_is_undone() {
        // Every triple of the cube [0, 20)³ takes an index below 20³, each
        // once, and lowering any argument lowers the index.
        let m = 20;
        let mut seen = vec![false; (m * m * m) as usize];
        for (a, b, c) in
            (0..m).flat_map(|a| (0..m).flat_map(move |b| (0..m).map(move |c| (a, b, c))))
        {
            let z = dense3(a, b, c).unwrap();
            assert!(!std::mem::replace(&mut seen[z as usize], true), "{z} twice");
            assert_eq!(untriple(z), (a as usize, b as usize, c as usize));
            for lower in [(a - 1, b, c), (a, b - 1, c), (a, b, c - 1)] {
                if let Some(y) = dense3(lower.0, lower.1, lower.2) {
                    assert!(y < z, "{lower:?} after {:?}", (a, b, c));
                }
            }
        }
        assert!(seen.iter().all(|s| *s));
        // The corners of the largest cube, and the cubes' neighbours.
        let top = SIDE3_MAX - 1;
        let z = dense3(top, top, top).unwrap();
        assert!(z < DENSE_END);
        assert_eq!(untriple(z), (top as usize, top as usize, top as usize));
        for s in [1u32, 2, 77, 1000, 1023] {
            for z in [s * s * s - 1, s * s * s, s * s * s + 1] {
                let (a, b, c) = untriple(z);
                assert_eq!(dense3(a as i64, b as i64, c as i64), Some(z));
            }
        }
        assert!(z < STRIP3 as u32);
        assert_eq!(dense3(0, -1, 0), None);
    }

    #[test]
    fn quadruples_are_numbered_by_the_cube_of_the_last_three_and_undone() {
        let mut seen = std::collections::HashSet::new();
        let m = 9;
        for q in (0..m * m * m * m).map(|z| [z / (m * m * m), z / (m * m) % m, z / m % m, z % m]) {
            let [a, b, c, d] = q.map(|x| x as i64);
            let z = dense4(a, b, c, d).unwrap();
            assert!(seen.insert(z), "{q:?} numbered twice");
            assert_eq!(unquad(z), q);
            assert_eq!(quad_index(quad_place(z).0, quad_place(z).1), z);
            for (i, lower) in [
                [a - 1, b, c, d],
                [a, b - 1, c, d],
                [a, b, c - 1, d],
                [a, b, c, d - 1],
            ]
            .into_iter()
            .enumerate()
            {
                if q[i] > 0 {
                    assert!(dense4(lower[0], lower[1], lower[2], lower[3]).unwrap() < z);
                }
            }
        }
        let top = SIDE4_MAX - 1;
        assert_eq!(
            unquad(dense4(top, top, top, top).unwrap()),
            [top as usize; 4]
        );
        assert_eq!(dense4(SIDE4_MAX, 0, 0, 0), None);
        assert_eq!(dense4(0, 0, -1, 0), None);
        assert_eq!(int_index(&[1, 2, 3, 4]), dense4(1, 2, 3, 4));
    }

    #[test]
    fn the_strips_of_triples_are_numbered_apart_placed_and_undone() {
        let mut seen = std::collections::HashSet::new();
        let mut places = std::collections::HashSet::new();
        let (w, side) = (STRIP3_WIDTH, SIDE3_MAX);
        for long in [side, side + 1, 1_000_000, LONG3_MAX - 1] {
            for (s, t) in [(0, 0), (0, 1), (1, 0), (w - 1, w - 2), (w - 1, w - 1)] {
                for (a, b, c) in [(long, s, t), (s, long, t), (s, t, long)] {
                    let z = dense3(a, b, c).unwrap();
                    assert!(z >= STRIP3 as u32 && z < DENSE_END, "{a}, {b}, {c}");
                    assert!(seen.insert(z), "{a}, {b}, {c} numbered twice");
                    let abc = (a as usize, b as usize, c as usize);
                    assert_eq!(untriple(z), abc);
                    let (p, i) = place3(0, [abc.0, abc.1, abc.2]);
                    assert!(p < STRIP3_ROWS && places.insert((p, i)));
                    assert_eq!(place3(2, [abc.0, abc.1, abc.2]), (p, i));
                    assert_eq!(unplace3(1, p, i), [abc.0, abc.1, abc.2]);
                }
            }
            // Lowering any argument lowers the index.
            let z = dense3(long, 3, 5).unwrap();
            for lower in [(long - 1, 3, 5), (long, 2, 5), (long, 3, 4)] {
                assert!(dense3(lower.0, lower.1, lower.2).unwrap() < z, "{lower:?}");
            }
        }
        // The cube's places come after the strips' rows, the column along
        // the axis asked, the row by the two others.
        for abc in [[0, 0, 0], [1023, 0, 5], [7, 1023, 1023], [3, 900, 2]] {
            for axis in 0..3 {
                let (p, i) = place3(axis, abc);
                assert!(p >= STRIP3_ROWS && i == abc[axis], "{abc:?}");
                assert_eq!(unplace3(axis, p, i), abc);
            }
        }
        assert_eq!(place3(1, [3, 900, 2]).0, STRIP3_ROWS + row3(3, 2));
        for (a, b, c) in [
            (LONG3_MAX, 0, 0),
            (side, w, 0),
            (0, side, w),
            (side, side, 0),
            (side, -1, 0),
            (-1, 0, side),
        ] {
            assert_eq!(dense3(a, b, c), None, "{a}, {b}, {c}");
        }
    }
}
