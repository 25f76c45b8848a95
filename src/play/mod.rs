//! `play(P)` in the REPL: a game between the person at the keyboard and
//! the computer, which plays perfectly. The computer wins whenever it can,
//! by a move to a position of value 0, and as fast as possible; from a
//! lost position it makes the move that keeps the game going longest.
//! Both use Steinhaus's remoteness ([`remoteness`]), weighed through the
//! engine's public queries (`moves_of`, `position_value`) and memoized for
//! the whole game. [`Game`] holds the game and answers each typed line
//! with text; the REPL (`repl::play`) only reads lines and prints.

mod explain;
mod game;
pub mod remoteness;

pub use game::{COMMANDS, Game, MAX_OPTIONS, MAX_WEIGHED, Step};

use crate::runtime::{Machine, RtResult};
use crate::span::Span;
use crate::value::{Component, Position};
use remoteness::Rules;

/// The engine's positions, as remoteness sees them.
struct Engine<'m> {
    m: &'m mut Machine,
    span: Span,
}

impl Rules for Engine<'_> {
    type Position = Position;

    fn options(&mut self, p: &Position) -> RtResult<Vec<(Position, u64)>> {
        let moves = self.m.moves_of(p, self.span)?;
        Ok(moves
            .into_iter()
            .map(|mv| (live(self.m, &mv.result), mv.value))
            .collect())
    }

    fn poll(&mut self) -> RtResult<()> {
        self.m.poll()
    }
}

/// A position without the components known to have no moves: they change
/// nothing in play, and would pile up in a game whose moves split
/// positions (Kayles leaves `kayles(0)` behind).
fn live(m: &Machine, p: &Position) -> Position {
    let kept = p
        .components()
        .iter()
        .filter(|c| !matches!(c, Component::Node(n) if m.graph.is_terminal(*n)))
        .copied()
        .collect();
    Position::from_components(kept)
}
