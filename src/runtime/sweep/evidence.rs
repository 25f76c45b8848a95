//! Whether to sweep: the evidence that the positions below the one the
//! search waits at are reached (a chain of small steps down on the search
//! path, the options just below it), and the bounds a sweep keeps to
//! without it.

use crate::graph;
use crate::value::NodeId;

/// Whether `node`, `(a, b)` in the dense square of a two-integer game
/// (or `(a, b, c)` in the dense cube of a three-integer one, or a
/// four-integer position of the dense table, as `arity` says), waits for
/// a position a few below it in each argument: the rules step down in
/// every argument, so most of the positions of dense index below
/// `node`'s are likely reached. Not when that square (or cube) is much
/// larger than the box below `node`.
///
/// Four integers are swept by rows of their last three (see
/// [`quad_swept`]), each as far in the first as the search has been: the
/// largest first argument among the last positions on the search `path`
/// (their dense indices, the waiting one last) and its first, which is
/// returned. An
/// argument at 0 has nothing below it to wait for; once the game has
/// been `swept` so, a step down in one argument will do. Two or three
/// integers return 0.
pub(in crate::runtime) fn square_below(
    node: NodeId,
    waited: &[NodeId],
    (arity, swept): (usize, bool),
    path: &[u32],
) -> Option<usize> {
    const SMALLEST: usize = 64;
    if node.index >= graph::DENSE_END || (node.index as usize) < SMALLEST {
        return None;
    }
    if !matches!(arity, 2..=4) {
        return None;
    }
    let args = |z: u32| coordinates(z, arity);
    // Past the square, the strips are swept row by row (`strip.rs`).
    if arity == 2 && !graph::in_square(node.index) {
        return None;
    }
    let at = args(node.index)?;
    // Which arguments some waited position is just below `node` in, the
    // others equal.
    let mut down = [false; 4];
    for c in waited
        .iter()
        .filter(|c| c.game == node.game && c.index < node.index && c.index < graph::DENSE_END)
    {
        let Some(x) = args(c.index) else { continue };
        if let Some(i) = step_down(at, x) {
            down[i] = true;
        }
    }
    // Once a game's box has been swept, the search climbing back up
    // meets positions whose options below are partly valued already.
    let waits = |i: usize| down[i] || (arity == 4 && (at[i] == 0 || swept));
    if !(0..arity).all(waits) || !down.iter().any(|d| *d) {
        return None;
    }
    let (box_, covered, reach) = match arity {
        4 => {
            // The chain, and the position the search started from.
            let chain = &path[path.len().saturating_sub(CHAIN + 1)..];
            let top = path_box(at, path.first().into_iter().chain(chain));
            (top, quad_swept(node.index, top[0]), top[0])
        }
        _ => (at, node.index as usize, 0),
    };
    let volume: usize = box_[..arity].iter().map(|x| x + 1).product();
    (covered <= 4 * volume).then_some(reach)
}

/// The largest of each of four arguments among `at` and the positions of
/// dense indices `path`.
fn path_box<'a>(at: [usize; 4], path: impl Iterator<Item = &'a u32>) -> [usize; 4] {
    let mut top = at;
    for x in path.filter_map(|z| coordinates(*z, 4)) {
        for (t, x) in top.iter_mut().zip(x) {
            *t = (*t).max(x);
        }
    }
    top
}

/// How far below a position, in one argument, a position it waits for is
/// a step down a chain.
const GAP: usize = 4;

/// How many positions a sweep of a four-integer game below dense index
/// `end` runs at most: the rows of the positions `(_, b, c, d)` up to
/// `end`'s, each of first argument up to `reach` (see
/// [`super::Machine::sweep_square`]).
fn quad_swept(end: u32, reach: usize) -> usize {
    let (row, _) = graph::quad_place(end);
    (row + 1) * (reach + 1)
}

/// The arguments of the position of dense index `z` in a table of `free`
/// integers (one to four), padded with zeros.
fn coordinates(z: u32, free: usize) -> Option<[usize; 4]> {
    match free {
        1 => Some([z as usize, 0, 0, 0]),
        2 => {
            let (a, b) = graph::unpair(z);
            Some([a, b, 0, 0])
        }
        3 => {
            let (a, b, c) = graph::untriple(z);
            Some([a, b, c, 0])
        }
        4 => Some(graph::unquad(z)),
        _ => None,
    }
}

/// The argument in which `to` is a step down from `from` (at most
/// [`GAP`] below it, the others equal), if it is one.
fn step_down(from: [usize; 4], to: [usize; 4]) -> Option<usize> {
    let mut moved = (0..4).filter(|i| from[*i] != to[*i]);
    let i = moved.next()?;
    (moved.next().is_none() && to[i] < from[i] && from[i] - to[i] <= GAP).then_some(i)
}

/// The most positions a sweep down values with no evidence that the
/// rules reach them (a few milliseconds' work): a longer line, or a larger
/// square or cube, waits for the search to come down by a chain
/// ([`descended`]).
pub(super) const FREELY: u32 = 1 << 16;

/// How many steps down the search must have come, each to a position a
/// few below the one before in one argument, before the positions below
/// are swept: enough that a sparse game (a bitmask, a heap halved) never
/// shows such a chain, few enough that a dense one is searched only a
/// little before its sweep.
pub(in crate::runtime) const CHAIN: usize = 32;

/// Whether the last [`CHAIN`] steps of the search path `path` (the dense
/// indices of the positions of one game with `free` integer arguments,
/// outermost first, the waiting position last) each went to a position a
/// few below the one before in one argument, the others equal: the chain
/// that shows a game's positions below are dense, as a subtraction game's
/// or Wythoff's are.
pub(in crate::runtime) fn descended(path: &[u32], free: usize) -> bool {
    if path.len() <= CHAIN {
        return false;
    }
    let step = |w: &[u32]| match (coordinates(w[0], free), coordinates(w[1], free)) {
        (Some(from), Some(to)) => step_down(from, to).is_some(),
        _ => false,
    };
    let top = &path[path.len() - CHAIN - 1..];
    top.iter().all(|z| *z < graph::DENSE_END) && top.windows(2).all(step)
}

/// The highest of `waited` just below `node` (a few positions down) in
/// the dense table of a one-integer game: where a chain may begin.
pub(in crate::runtime) fn near_below(node: NodeId, waited: &[NodeId]) -> Option<NodeId> {
    const GAP: u32 = 4;
    if node.index >= graph::DENSE_END {
        return None;
    }
    waited
        .iter()
        .filter(|c| c.game == node.game && c.index < node.index && node.index - c.index <= GAP)
        .max_by_key(|c| c.index)
        .copied()
}

/// Whether the last [`CHAIN`] steps of a search path whose positions are
/// `pairs` (outermost first) each went a few rows down argument `long`,
/// the other argument the same: the chain of [`descended`], for a strip
/// whose positions past the square may be hashed.
pub(in crate::runtime) fn descended_along(pairs: &[[i64; 2]], long: usize) -> bool {
    let step = |w: &[[i64; 2]]| {
        let (from, to) = (w[0], w[1]);
        from[1 - long] == to[1 - long] && (1..=GAP as i64).contains(&(from[long] - to[long]))
    };
    pairs.len() > CHAIN && pairs[pairs.len() - CHAIN - 1..].windows(2).all(step)
}
