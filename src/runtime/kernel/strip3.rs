//! Strips of triples: a three-integer game two of whose arguments stay
//! among a few small values, as in `g(n - k, k, a)` with `k in 1..=4`
//! (a heap and the sizes of the last two moves). Past the dense cube its
//! positions lie in the strips of the dense table (`graph/index.rs`,
//! `STRIP3_WIDTH`), a row for each pair of small values and the long
//! argument along it; the hand-written program fills them heap after
//! heap, every pair of the box at each, and so does the sweep these
//! allow (`runtime/sweep/strip3.rs`).

use super::expr::Num;
use super::strip::{Bound, binder_bounds, guarded, shift, span};
use super::{Move, Term};
use crate::graph::STRIP3_WIDTH;
use crate::ir::Slot;
use crate::value::GameId;

/// The most rounds the box is grown in before it is given up.
const ROUNDS: usize = 2 * STRIP3_WIDTH as usize;

/// The argument of `game`'s three-integer positions that runs long, when
/// the other two keep to a box of small values from the smallest pair
/// (see [`close`]), and whether a row's pairs are swept second short
/// argument first (`swapped`): where only that order meets an option in
/// the same row before its position (`g(n, 1 - turn, passes - 1)`).
pub(super) fn strip3(moves: &[Move], game: GameId) -> Option<(usize, bool)> {
    let orders = (0..3).flat_map(|long| [(long, false), (long, true)]);
    orders
        .into_iter()
        .find(|&order| close(moves, game, order, [0, 0]).is_some())
}

/// The arguments other than `long`, in order.
pub fn shorts(long: usize) -> [usize; 2] {
    match long {
        0 => [1, 2],
        1 => [0, 2],
        _ => [0, 1],
    }
}

/// The box (each short argument's least and greatest value, in the order
/// of [`shorts`]) that the positions of `game` reached from one whose
/// short arguments are `seed` keep to, whatever their long argument: the
/// least box holding the seed that every option of a position in it is
/// in, grown round by round from the seed. `None` when an option's short
/// argument is not known to keep to a few values (it depends on the long
/// one, or on a binder over a range that is not constant), one leaves
/// `0..STRIP3_WIDTH`, or a target is a position of `game` that is not
/// three integers, a sum or a list.
pub(super) fn close(
    moves: &[Move],
    game: GameId,
    (long, swapped): (usize, bool),
    seed: [i64; 2],
) -> Option<[(i64, i64); 2]> {
    let shorts = shorts(long);
    let inside = |v: i64| (0..STRIP3_WIDTH).contains(&v);
    if !seed.iter().all(|v| inside(*v)) {
        return None;
    }
    let mut cols = seed.map(|v| (v, v));
    for _ in 0..ROUNDS {
        let mut found = cols;
        for m in moves {
            let Some(bounds) = move_bounds(m, (game, long, swapped), cols) else {
                continue;
            };
            for term in &m.terms {
                let Some(args) = own_args(term, game)? else {
                    continue;
                };
                for (k, s) in shorts.iter().enumerate() {
                    let (lo, hi) = span(&args[*s], &bounds)?;
                    if !inside(lo) || !inside(hi) {
                        return None;
                    }
                    found[k] = (found[k].0.min(lo), found[k].1.max(hi));
                }
            }
        }
        if found == cols {
            return Some(cols);
        }
        cols = found;
    }
    None
}

/// The bounds of move `m`'s binders and of the short arguments of the
/// positions in the box `cols` that have it: those its guard allows
/// (`passes > 0`), or `None` when no position does. The sweep takes a
/// row's pairs in order (the first short argument, then the second, or
/// the other way round when `swapped`), so a box narrowed so must see
/// every option in the same row before its position (`g(n, passes - 1,
/// 0)` from `g(n, passes, last)`); else the box is the whole (a counter
/// that an option in the same row takes past it would leave that
/// position to the search).
fn move_bounds(
    m: &Move,
    (game, long, swapped): (GameId, usize, bool),
    cols: [(i64, i64); 2],
) -> Option<Vec<Bound>> {
    let shorts = shorts(long).map(|s| s as Slot);
    let whole: Vec<Bound> = shorts.into_iter().zip(cols).collect();
    let held: Option<Vec<Bound>> = (shorts.into_iter().zip(cols))
        .map(|(s, col)| Some((s, guarded(&m.guard, s, col)?)))
        .collect();
    if held.as_ref() == Some(&whole) {
        return Some(binder_bounds(m, whole));
    }
    let bounds = binder_bounds(m, held.clone().unwrap_or_else(|| whole.clone()));
    let before = |args: &[Num]| {
        let row = shift(&args[long], long as Slot, &bounds);
        let [mut s, mut t] = shorts.map(|x| shift(&args[x as usize], x, &bounds));
        if swapped {
            (s, t) = (t, s);
        }
        // A lower row is swept before; in the same row, the first swept
        // short argument lower, or the same and the other lower.
        let same = row.is_some_and(|(_, hi)| hi <= 0);
        row.is_some_and(|(_, hi)| hi < 0)
            || (same
                && (s.is_some_and(|(_, hi)| hi < 0)
                    || (s == Some((0, 0)) && t.is_some_and(|(_, hi)| hi < 0))))
    };
    let ordered = (m.terms.iter()).all(|term| match own_args(term, game) {
        Some(Some(args)) => before(args),
        _ => true,
    });
    match (ordered, held) {
        (true, Some(_)) => Some(bounds),
        // No position in the box has the move. The order is checked
        // first even so: from the box of `[0, 0]`, where no counter is
        // spent yet, that check is what picks the order (`strip3`).
        (true, None) => None,
        (false, _) => Some(binder_bounds(m, whole)),
    }
}

/// The arguments of `term` when it is a position of `game` of three
/// integers; `Some(None)` for a term of another game or a heap, which the
/// strip does not hold; `None` for anything else of `game`'s, a sum or a
/// list position.
fn own_args(term: &Term, game: GameId) -> Option<Option<&[super::expr::Num]>> {
    match term {
        Term::Node(g, args) if *g == game => (args.len() == 3).then_some(Some(args.as_slice())),
        Term::Node(..) | Term::Heap(_) => Some(None),
        Term::Flat(..) | Term::Sum(_) => None,
    }
}
