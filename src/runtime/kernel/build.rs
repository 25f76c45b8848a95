//! A game's rules compiled into a [`Kernel`]: its moves, the games its
//! targets apply, and what its machine code needs to know of them (the
//! order of a board, a strip); a tuple state read item by item compiled
//! as integers (see `normalize/split.rs`).

use super::moves::compile_move;
use super::{Calls, Kernel, Move, Term, Types, callees, flat, frame, levels, strip, strip3, wide};
use crate::defs::Defs;
use crate::graph::Shape;
use crate::ir::GameIr;
use crate::value::GameId;
use std::cell::{Cell, OnceCell};

/// Compiles `game`'s rules (normalised: see [`crate::runtime::normalize`]), or
/// says `None` when some part of them is not integer arithmetic the
/// kernel knows. Their calls of functions nest at most `max_depth` deep
/// (the session's `--max-depth`).
pub fn compile(game: &GameIr, id: GameId, defs: &Defs, max_depth: usize) -> Option<Kernel> {
    compile_hinted(game, (id, &[]), defs, max_depth)
}

/// [`compile`], the parameters typed as [`Types::hinted`] says.
pub fn compile_hinted(
    game: &GameIr,
    (id, hints): (GameId, &[Shape]),
    defs: &Defs,
    max_depth: usize,
) -> Option<Kernel> {
    compile_typed(game, (id, hints), defs, (max_depth, false))
}

/// [`compile_hinted`], for parameters of any size when `wide` (see
/// [`wide::compile_wide`]).
pub(super) fn compile_typed(
    game: &GameIr,
    (id, hints): (GameId, &[Shape]),
    defs: &Defs,
    (max_depth, wide): (usize, bool),
) -> Option<Kernel> {
    if game.arity > flat::ARITY_MAX {
        return None;
    }
    // A tuple state read item by item: the same rules of integers.
    if hints.is_empty()
        && !wide
        && let Some(split) = crate::runtime::normalize::split::tuples(game, id)
        && let Some(kernel) = compile_split(&split, id, defs, max_depth)
    {
        return Some(kernel);
    }
    let kernel = compile_rules(game, (id, hints), defs, (max_depth, wide))?;
    Some(finish(kernel, wide))
}

/// [`compile`] for positions whose parameter `p` is a list or tuple of
/// the shape and length `fixed[p]` says, where it says one: the rules
/// made for those (see `normalize/lengths/`), and those compiled as
/// integers. `None` unless each such parameter is split into integers,
/// so that the kernel loads positions of those lengths only.
pub fn compile_fixed(
    game: &GameIr,
    (id, fixed): (GameId, &[Option<(Shape, usize)>]),
    defs: &Defs,
    max_depth: usize,
) -> Option<(GameIr, Kernel)> {
    let rules = crate::runtime::normalize::lengths::fixed(game, fixed);
    let split = crate::runtime::normalize::split::tuples_with(&rules, id, fixed)?;
    let all = (fixed.iter().zip(&split.params)).all(|(f, p)| f.is_none_or(|f| f == *p));
    all.then_some(())?;
    let kernel = compile_split(&split, id, defs, max_depth)?;
    Some((rules, kernel))
}

/// A game's rules (normalised) compiled as the machine compiles them,
/// typed by `hints`: for the lengths met, else the shapes met, else as
/// the rules alone say. The rules the kernel was compiled from (before
/// any tuple is split), the kernel, and the lengths it is compiled for
/// (the lengths met, or a tuple's the rules split; then the rules split
/// by them; empty for none); `None` where they do not compile
/// (the caller tries a string's `enumerate` read by index then, see
/// [`crate::runtime::normalize::indexed_rules`]).
pub fn compile_game(
    rules: &GameIr,
    (id, hints): (GameId, &super::Hints),
    defs: &Defs,
    max_depth: usize,
) -> Option<(GameIr, Kernel, super::Lengths)> {
    use crate::runtime::normalize::split;
    if !hints.lengths.is_empty()
        && let Some((fixed, kernel)) = compile_fixed(rules, (id, &hints.lengths), defs, max_depth)
    {
        return Some((fixed, kernel, hints.lengths.clone()));
    }
    let shapes = &hints.shapes[..];
    // A tuple the rules alone split, written out for its length too
    // (`m in 0..5` picking a step by `if m == 0 then (x - 1, y) ...`).
    if shapes.is_empty()
        && let Some(tuples) = split::tuples(rules, id)
    {
        let fixed: super::Lengths = (tuples.params.iter())
            .map(|&(shape, n)| matches!(shape, Shape::List | Shape::Tuple).then_some((shape, n)))
            .collect();
        if let Some((written, kernel)) = compile_fixed(rules, (id, &fixed), defs, max_depth) {
            return Some((written, kernel, fixed));
        }
    }
    let kernel = (!shapes.is_empty())
        .then(|| compile_hinted(rules, (id, shapes), defs, max_depth))
        .flatten()
        .or_else(|| compile(rules, id, defs, max_depth))?;
    Some((rules.clone(), kernel, Vec::new()))
}

/// The kernel of a game whose tuple parameters are split into integers
/// (see `normalize/split.rs`): the split rules compiled as integer
/// rules, then told the shapes of the positions they load.
fn compile_split(
    split: &crate::runtime::normalize::split::Split,
    id: GameId,
    defs: &Defs,
    max_depth: usize,
) -> Option<Kernel> {
    let mut kernel = compile_rules(&split.game, (id, &[]), defs, (max_depth, false))?;
    if kernel.lists.is_some() || kernel.arity != split.game.arity {
        return None;
    }
    kernel.lists = Some(vec![Shape::Int; kernel.arity]);
    kernel.split = Some(frame::Split::new(&split.params));
    Some(finish(kernel, false))
}

/// The rules of `game` compiled, before the shapes of its boards are
/// found.
fn compile_rules(
    game: &GameIr,
    (id, hints): (GameId, &[Shape]),
    defs: &Defs,
    (max_depth, wide): (usize, bool),
) -> Option<Kernel> {
    let calls = Calls::new(callees::of_rules(game, defs), max_depth);
    let mut types = Types::hinted(game, id, hints).with_calls(calls.clone());
    types.wide = wide;
    let moves: Vec<Move> = game
        .moves
        .iter()
        .map(|m| compile_move(m, &types))
        .collect::<Option<_>>()?;
    if (moves.iter().flat_map(|m| &m.terms)).any(|t| t.made_apart(id, defs)) {
        return None;
    }
    let mut targets = Vec::new();
    moves
        .iter()
        .flat_map(|m| &m.terms)
        .for_each(|t| t.targets(&mut targets));
    // The positions a guard asks the value of (`value(sub(k)) == 0`),
    // read as options are: of another game, which calls nothing that
    // could ask in turn. A game that asks about itself, or about one that
    // asks, is the interpreter's, whose `--max-depth` bounds the nesting.
    let asked = types.asked.take();
    if asked
        .iter()
        .any(|(g, _)| *g == id || !asks_nothing(defs, *g))
    {
        return None;
    }
    let asks = !asked.is_empty();
    targets.extend(asked);
    targets.sort_unstable();
    targets.dedup();
    let sorted = sorted_waits(&moves, id, defs);
    let mut kernel = Kernel {
        game: id,
        arity: game.arity,
        slots: game.slots,
        moves,
        targets,
        lists: types.has_lists().then(|| types.params(game.arity).to_vec()),
        bools: types.bool_bits(),
        split: None,
        wide: false,
        single: false,
        sorted,
        levels: None,
        strip: None,
        strip3: None,
        strip3_swapped: false,
        native: OnceCell::new(),
        spent: Cell::new(0),
        alone: Cell::new(0),
        calls,
        hints: hints.to_vec(),
        asks,
    };
    kernel.wide = wide::linear_free(&kernel.moves) && !types.folded.get();
    Some(kernel)
}

/// The moves of `moves` whose options' positions wait in their order
/// (see [`Kernel`]'s `sorted`): a target computed as written, made of
/// more than one position.
fn sorted_waits(moves: &[Move], id: GameId, defs: &Defs) -> Vec<u32> {
    let Some(written) = defs.game(id) else {
        return Vec::new();
    };
    let positions = |m: &Move| {
        (m.terms.iter())
            .filter(|t| !matches!(t, Term::Heap(_)))
            .count()
    };
    let mut sorted: Vec<u32> = (moves.iter())
        .filter(|m| positions(m) > 1 && written.computes_target(m.share as u32))
        .map(|m| m.share as u32)
        .collect();
    sorted.dedup();
    sorted
}

/// `kernel` with what its machine code needs to know of its moves: the
/// order of its board, its strip.
fn finish(mut kernel: Kernel, wide: bool) -> Kernel {
    if wide {
        return kernel;
    }
    let id = kernel.game;
    // A position missed by a guard that asks its value is no option: a
    // run that misses one is run again once it has a value.
    kernel.single = (kernel.moves.iter())
        .all(|m| matches!(m.terms.as_slice(), [Term::Node(..) | Term::Flat(..)]))
        && !kernel.asks;
    let form = kernel.split.as_ref().map(frame::Split::form);
    if kernel.arity == 2 && (kernel.lists.is_none() || form.is_some()) {
        kernel.levels = levels::levels(&kernel.moves, (id, form));
    }
    // Two integers, or an integer and a boolean (held as 0 or 1).
    let ints = (kernel.lists.iter().flatten()).all(|s| *s == Shape::Int);
    if kernel.arity == 2 && ints && kernel.levels.is_none() {
        kernel.strip = strip::strip(&kernel.moves, id);
    }
    if kernel.arity == 3 && kernel.lists.is_none() {
        let order = strip3::strip3(&kernel.moves, id);
        kernel.strip3 = order.map(|(long, _)| long);
        kernel.strip3_swapped = order.is_some_and(|(_, swapped)| swapped);
    }
    if kernel.moves.iter().any(Move::plan_wins) {
        kernel.native.set(None).ok();
    }
    kernel
}

/// Whether the rules of `game` call no function and ask no query: a
/// position of it asked by another game's guard is evaluated without
/// asking anything in turn.
fn asks_nothing(defs: &Defs, game: GameId) -> bool {
    use crate::ir::IrKind;
    let asks = |ir: &crate::ir::Ir| match &ir.kind {
        IrKind::CallFn(..) => true,
        IrKind::CallBuiltin(b, _) => b.is_query(),
        _ => false,
    };
    let rules = defs.game(game);
    rules.is_some_and(|rules| {
        (rules.moves.iter().flat_map(|m| m.exprs()))
            .all(|e| !crate::runtime::normalize::any_node(e, &asks))
    })
}
