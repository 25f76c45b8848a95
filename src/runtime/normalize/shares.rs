//! Which binders of each move as written start a new share of the
//! options a search waits for (see [`MoveIr::share`]): the leading ones
//! the normaliser unrolled (`unroll.rs`), each of whose copies is a move
//! of its own in the compiled rules. The interpreter, running the move
//! as written, starts a new share at each item of those binders
//! ([`depths`]), so that both wait for the same options.

use crate::defs::Defs;
use crate::ir::{GameIr, MoveIr, PatIr, Slot};
use rustc_hash::FxHashMap;

/// The most leading binders that name a copy: [`MoveIr::share`] tells
/// apart the copies of up to five binders of up to 64 items (`unroll.rs`).
const LEADS_MAX: usize = 5;

/// Keeps of each normalised move's [`MoveIr::unrolled`] only what the
/// interpreter can follow running the move as written in `written`: the
/// binders that are its leading ones, in their order, and as many as
/// every copy of that move keeps, so that all copies of one move as
/// written start their shares at the same binders; and only as many as
/// keep the copies of each item together and in the items' order (a
/// move split before it is unrolled, by a choice in its guard or an
/// `if` in its target, may make the first item's options again after
/// the second's: then its parts share as the move as written did).
pub(super) fn leading(written: &GameIr, moves: &mut [MoveIr]) {
    let mut depths: FxHashMap<u32, usize> = FxHashMap::default();
    for rule in moves.iter() {
        let leads = match written.moves.iter().find(|w| w.span == rule.span) {
            Some(w) => (rule.unrolled.iter().zip(&w.binders))
                .take_while(|((slot, _), (pattern, _))| first_slot(pattern) == Some(*slot))
                .count(),
            None => 0,
        };
        let depth = depths.entry(rule.span.start).or_insert(leads);
        *depth = (*depth).min(leads);
    }
    for group in moves.chunk_by_mut(|a, b| a.span == b.span) {
        let mut depth = depths[&group[0].span.start].min(LEADS_MAX);
        while depth > 0 && !in_order(group, depth) {
            depth -= 1;
        }
        group
            .iter_mut()
            .for_each(|rule| rule.unrolled.truncate(depth));
    }
}

/// Whether the copies of `group`, of one move as written, come item by
/// item in the items' order, read by their first `depth` binders: each
/// item's copies one after another, an item after those before it. A
/// copy whose guard folds to `false` makes no options (it stays for its
/// binders' ranges, which may fail), so waits for none wherever it comes.
fn in_order(group: &[MoveIr], depth: usize) -> bool {
    let items =
        |rule: &MoveIr| -> Vec<u32> { rule.unrolled[..depth].iter().map(|t| t.1).collect() };
    let made: Vec<Vec<u32>> = (group.iter())
        .filter(|rule| !rule.never_plays())
        .map(items)
        .collect();
    made.windows(2).all(|w| w[0] <= w[1])
}

/// The first slot a binder's pattern binds, if it is a name or a tuple of
/// names: as [`MoveIr::unrolled`] names the binder.
pub(super) fn first_slot(pattern: &PatIr) -> Option<Slot> {
    match pattern {
        PatIr::Slot(s) => Some(*s),
        PatIr::Tuple(..) => pattern.tuple_slots()?.first().copied(),
        PatIr::Global(_) => None,
    }
}

/// For each move of `game` as written, how many of its leading binders
/// start a new share at each item they take (see the module): those its
/// normalised rules unrolled. None where its calls nest past `max_depth`,
/// whose rules are never compiled.
pub fn depths(game: &GameIr, defs: &Defs, max_depth: usize) -> Vec<usize> {
    if super::callees::nest_in_rules(game, max_depth) {
        return vec![0; game.moves.len()];
    }
    of(game, &super::rules(game, defs))
}

/// [`depths`] read from `normal`, `game`'s rules normalised by
/// [`super::rules`].
pub fn of(game: &GameIr, normal: &GameIr) -> Vec<usize> {
    (game.moves.iter())
        .map(|w| {
            let copy = normal.moves.iter().find(|m| m.span == w.span);
            copy.map_or(0, |m| m.unrolled.len())
        })
        .collect()
}
