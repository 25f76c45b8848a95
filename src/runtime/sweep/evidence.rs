//! Whether to sweep: the evidence that the positions below the one the
//! search waits at are reached (a chain of small steps down on the search
//! path, the options just below it), and the bounds a sweep keeps to
//! without it.

use crate::graph;
use crate::value::NodeId;

/// Whether `node`, `(a, b)` in the dense square of a two-integer game
/// (or `(a, b, c)` in the dense cube of a three-integer one, as `arity`
/// says), waits for a position a few below it in each argument: the rules
/// step down in every argument, so most of the positions of dense index
/// below `node`'s are likely reached. Not when that square (or cube) is
/// much larger than the box below `node`.
pub(in crate::runtime) fn square_below(node: NodeId, waited: &[NodeId], arity: usize) -> bool {
    const SMALLEST: usize = 64;
    if node.index >= graph::DENSE_END || (node.index as usize) < SMALLEST {
        return false;
    }
    if !matches!(arity, 2 | 3) {
        return false;
    }
    let args = |z: u32| coordinates(z, arity);
    // Past the square, the strips are swept row by row (`strip.rs`).
    if arity == 2 && !graph::in_square(node.index) {
        return false;
    }
    let Some(at) = args(node.index) else {
        return false;
    };
    let volume: usize = at[..arity].iter().map(|x| x + 1).product();
    if node.index as usize > 4 * volume {
        return false;
    }
    // Which arguments some waited position is just below `node` in, the
    // others equal.
    let mut down = [false; 3];
    for c in waited
        .iter()
        .filter(|c| c.game == node.game && c.index < node.index && c.index < graph::DENSE_END)
    {
        let Some(x) = args(c.index) else { continue };
        if let Some(i) = step_down(at, x) {
            down[i] = true;
        }
    }
    down[..arity].iter().all(|d| *d)
}

/// How far below a position, in one argument, a position it waits for is
/// a step down a chain.
const GAP: usize = 4;

/// The arguments of the position of dense index `z` in a table of `free`
/// integers (one, two or three), padded with zeros.
fn coordinates(z: u32, free: usize) -> Option<[usize; 3]> {
    match free {
        1 => Some([z as usize, 0, 0]),
        2 => {
            let (a, b) = graph::unpair(z);
            Some([a, b, 0])
        }
        3 => {
            let (a, b, c) = graph::untriple(z);
            Some([a, b, c])
        }
        _ => None,
    }
}

/// The argument in which `to` is a step down from `from` (at most
/// [`GAP`] below it, the others equal), if it is one.
fn step_down(from: [usize; 3], to: [usize; 3]) -> Option<usize> {
    let mut moved = (0..3).filter(|i| from[*i] != to[*i]);
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
const CHAIN: usize = 32;

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
