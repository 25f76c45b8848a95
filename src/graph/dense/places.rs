//! Where a dense table keeps the slot of a position of three or four
//! integers: its row and column, from its arguments or its dense index
//! (`index.rs` numbers them), and back.

use crate::graph::index::{SIDE3_MAX, STRIP3_WIDTH, unpair};

/// The rows of a table of triples that hold the strips: one for each
/// long argument and pair of short ones. The cube's rows come after.
pub const STRIP3_ROWS: usize = 3 * (STRIP3_WIDTH * STRIP3_WIDTH) as usize;

/// Where a dense triple `(a, b, c)` is kept in a table whose cube has
/// its columns along argument `axis`: in the cube, row [`STRIP3_ROWS`]
/// plus the Szudzik number of the two other arguments, column the one
/// along `axis`; in a strip, the strip's row for its short arguments,
/// column its long one less [`SIDE3_MAX`]. A game of a heap and two small
/// counters, `g(n, a, b)` with `axis` 0, so takes a few long rows, in the
/// cube as in its strip, rather than a row for each heap (20 bytes of
/// bookkeeping each).
#[inline]
pub(in crate::graph) fn place3(axis: usize, [a, b, c]: [usize; 3]) -> (usize, usize) {
    let side = SIDE3_MAX as usize;
    if a < side && b < side && c < side {
        let (x, y, col) = match axis {
            0 => (b, c, a),
            1 => (a, c, b),
            _ => (a, b, c),
        };
        return (STRIP3_ROWS + row3(x, y), col);
    }
    let w = STRIP3_WIDTH as usize;
    match (a >= side, b >= side) {
        (true, _) => (b * w + c, a - side),
        (_, true) => (w * w + a * w + c, b - side),
        _ => (2 * w * w + a * w + b, c - side),
    }
}

/// [`place3`] undone: the triple at row `p`, column `i`.
pub(in crate::graph) fn unplace3(axis: usize, p: usize, i: usize) -> [usize; 3] {
    if p >= STRIP3_ROWS {
        let (x, y) = unpair((p - STRIP3_ROWS) as u32);
        return match axis {
            0 => [i, x, y],
            1 => [x, i, y],
            _ => [x, y, i],
        };
    }
    let w = STRIP3_WIDTH as usize;
    let (long, s, t, l) = (p / (w * w), p / w % w, p % w, i + SIDE3_MAX as usize);
    match long {
        0 => [l, s, t],
        1 => [s, l, t],
        _ => [s, t, l],
    }
}

/// The Szudzik number of `(a, b)`: the row, among the cube's rows, of
/// the triples whose arguments off the columns' axis are `(a, b)`.
#[inline]
pub(in crate::graph) fn row3(a: usize, b: usize) -> usize {
    if a >= b { a * a + a + b } else { b * b + a }
}
