//! `--explain` and `:explain`: how each game's rules run, and where a
//! construct sends them down a slower path, with a spelling that does
//! not. The rules looked at are the normalised ones the compiled rules
//! are made from ([`crate::runtime::normalize`]), so what this says is what runs.
//!
//! Three speeds, fastest first: compiled rules, which run as machine code
//! or, for a long loop whose options are read from the tables by index,
//! as the fast loop; compiled rules without machine code, which compute
//! each option on their own (the general loop); and rules the compiled
//! form does not cover, which the interpreter expands, 10 to 100 times
//! slower.
//!
//! This file reports each game; `compiled.rs` reports a move the
//! compiled rules take, `interpreted.rs` one they do not, and
//! `render.rs` writes the reports out.

use crate::defs::Defs;
use crate::ir::{GameIr, TargetIr, TermIr};
use crate::runtime::kernel;
use crate::span::Span;
use crate::value::GameId;
use compiled::compiled_move;
use interpreted::interpreted_move;

mod compiled;
mod interpreted;
mod render;
pub use render::render;

/// How one game's rules run.
#[derive(Debug)]
pub struct GameReport {
    pub compiled: bool,
    /// The compiled rules run as machine code.
    pub native: bool,
    /// A board of constant shifts, swept level by level (see
    /// [`kernel::Levels`]).
    pub levels: Option<kernel::Levels>,
    /// A strip, swept row by row (see [`kernel::Strip`]).
    pub strip: Option<kernel::Strip>,
    /// Strips of triples, swept row by row of the argument that runs
    /// long (see [`kernel::strip3`]): it, and the box the other two keep
    /// to from 0 and 0.
    pub strip3: Option<(usize, [(i64, i64); 2])>,
    /// The number of integers its tuple parameters are split into, when
    /// they are (see `runtime/normalize/split.rs`).
    pub split: Option<usize>,
    pub moves: Vec<MoveReport>,
}

/// How one move runs: its rule's name, where it is, how it runs, and the
/// constructs that slow it down.
#[derive(Debug)]
pub struct MoveReport {
    pub name: String,
    pub span: Span,
    pub how: String,
    pub slow: Vec<Slow>,
}

/// A construct on a slower path: where, what it is, what to write instead.
#[derive(Debug, PartialEq)]
pub struct Slow {
    pub span: Span,
    pub what: String,
    pub instead: String,
}

/// How `game`'s rules run (see the module's doc).
pub fn game(game: &GameIr, defs: &Defs) -> GameReport {
    game_hinted(game, defs, &[])
}

/// [`game`], its parameters typed by the shapes of a position met, as
/// the machine compiles them once it met one ([`kernel::Hints`]).
pub fn game_hinted(
    game: &GameIr,
    defs: &Defs,
    hints: &[crate::runtime::kernel::Hints],
) -> GameReport {
    let id = match defs.lookup(&game.name) {
        Some(crate::defs::Global::Game(id)) => id,
        _ => GameId::MAX,
    };
    game_numbered(game, id, defs, hints)
}

/// [`game`] of the rules of game `id`.
pub(crate) fn game_numbered(
    game: &GameIr,
    id: GameId,
    defs: &Defs,
    hints: &[kernel::Hints],
) -> GameReport {
    use crate::runtime::normalize;
    // How deep calls may nest changes when the code bails, not what compiles.
    let max_depth = crate::runtime::Limits::default().max_depth;
    let none = kernel::Hints::default();
    let hints = hints.get(id as usize).unwrap_or(&none);
    let normal = normalize::rules(game, defs);
    let compiled = kernel::compile_game(&normal, (id, hints), defs, max_depth);
    let fixed = compiled.as_ref().map_or(Vec::new(), |c| c.2.clone());
    let (mut rules, kernel) = match compiled {
        Some((rules, kernel, _)) => (rules, Some(kernel)),
        // As the machine compiles them: `enumerate` read by index where
        // the rules do not compile otherwise.
        None => {
            let indexed = normalize::indexed_rules(game, defs);
            match kernel::compile_hinted(&indexed, (id, &hints.shapes), defs, max_depth) {
                Some(compiled) => (indexed, Some(compiled)),
                None => (normal, None),
            }
        }
    };
    // A tuple state run as integers: its moves as the kernel took them.
    if kernel
        .as_ref()
        .and_then(kernel::Kernel::split_ints)
        .is_some()
        && let Some(split) = normalize::split::tuples_with(&rules, id, &fixed)
    {
        rules = split.game;
    }
    let types = kernel::Types::hinted(&rules, id, &hints.shapes);
    let compiled = kernel.is_some();
    let native = kernel.as_ref().is_some_and(kernel::Kernel::is_native);
    let mut moves: Vec<MoveReport> = Vec::new();
    // A move unrolled from a tuple binder, or split by an `if` in its
    // target, is reported once: by its first copy that loops, if any
    // does (the first of Kayles's rows chosen by a helper, `k(n - 1)`,
    // makes one option; the last loops).
    let copies = rules.moves.chunk_by(|a, b| a.span == b.span);
    let reported =
        copies.map(|group| (group.iter().find(|m| !m.binders.is_empty())).unwrap_or(&group[0]));
    for rule in reported {
        let shape = match &kernel {
            Some(k) => k.move_shape(rule, &rules),
            None => kernel::move_shape(rule, &rules, id),
        };
        moves.push(match shape {
            Some(shape) if compiled => {
                let called = |f| kernel.as_ref().is_some_and(|k| k.calls_compiled(f));
                compiled_move(rule, &shape, (native, &called), defs)
            }
            Some(_) => MoveReport {
                name: rule.name.to_string(),
                span: rule.span,
                how: match kept_apart(&rules, id, defs) {
                    Some(name) => format!(
                        "interpreted: the rules make positions of `{name}` with a list, set or \
                         string where its moves pass it on, which are kept in games made for \
                         their values; at run time they compile where those are constants"
                    ),
                    None => "interpreted: this move compiles, but a game is compiled whole, and \
                             another of its moves does not"
                        .into(),
                },
                slow: Vec::new(),
            },
            None => interpreted_move(rule, defs, &types.in_move(rule)),
        });
    }
    GameReport {
        compiled,
        native,
        levels: kernel.as_ref().and_then(kernel::Kernel::levels),
        strip: kernel.as_ref().and_then(kernel::Kernel::strip),
        strip3: kernel
            .as_ref()
            .and_then(|k| Some((k.strip3()?, k.strip3_box([0, 0])?))),
        split: kernel.as_ref().and_then(kernel::Kernel::split_ints),
        moves,
    }
}

/// The name of a game other than `id` whose positions the rules make
/// with arguments at parameters its moves pass on (see
/// [`crate::runtime::instances`]), if there is one.
fn kept_apart(rules: &GameIr, id: GameId, defs: &Defs) -> Option<String> {
    rules.moves.iter().find_map(|m| {
        let TargetIr::Terms(terms) = &m.target else {
            return None;
        };
        terms.iter().find_map(|t| match t {
            TermIr::Node(g, ..) if *g != id => {
                let fixed = crate::runtime::normalize::instance::fixed(defs, *g)?;
                (!fixed.is_empty()).then(|| defs.game_name(*g).to_string())
            }
            _ => None,
        })
    })
}
