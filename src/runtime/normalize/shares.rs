//! Which binders of each move as written start a new share of the
//! options a search waits for (see [`MoveIr::share`]): the leading ones
//! the normaliser unrolled (`unroll.rs`), each of whose copies is a move
//! of its own in the compiled rules. The interpreter, running the move
//! as written, starts a new share at each item of those binders
//! ([`depths`]), so that both wait for the same options.

use crate::defs::Defs;
use crate::ir::{GameIr, MoveIr, PatIr, Slot};
use rustc_hash::FxHashMap;

/// Keeps of each normalised move's [`MoveIr::unrolled`] only what the
/// interpreter can follow running the move as written in `written`: the
/// binders that are its leading ones, in their order, and as many as
/// every copy of that move keeps, so that all copies of one move as
/// written start their shares at the same binders.
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
    for rule in moves {
        rule.unrolled.truncate(depths[&rule.span.start]);
    }
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
