//! `line(P)`: the game played out under perfect play in the sense of
//! Steinhaus's remoteness. The winner moves to a position of value 0 as
//! far from the end as little as possible; the loser makes the move that
//! keeps the game going longest. The remoteness of a terminal position is
//! 0; of a position of nonzero value, 1 + the least remoteness of its
//! options of value 0; of a position of value 0, 1 + the greatest
//! remoteness of its options. It is the number of moves the line lasts.
//!
//! A sum is played as one position: a move changes one component, and
//! remotenesses do not add up over components (a player may answer in
//! another component to lengthen or shorten the game), so the search runs
//! over the positions of the sum, as many as the product of the
//! components' positions at worst: they are bounded by [`MAX_POSITIONS`].

use crate::diag::{Diagnostic, Phase};
use crate::runtime::queries::MoveInfo;
use crate::runtime::{Machine, RtResult};
use crate::span::Span;
use crate::value::{Position, Report, Value};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Most positions (sums counted as one each) whose remoteness one
/// `line(...)` may work out, or `--max-states` if lower: each is kept in
/// a table while the line is found.
pub const MAX_POSITIONS: usize = 2_000_000;

/// A position whose remoteness is being worked out: the options that
/// count (all of them in a position of value 0, the winning ones in
/// any other), the next to look at, and the best remoteness so far.
struct Frame {
    position: Position,
    losing: bool,
    options: Vec<Position>,
    next: usize,
    best: Option<u64>,
}

impl Machine {
    /// `line(P)`: the moves of the play, each `(component, move, result,
    /// value)` as `moves(P)` lists them, printed with who moves.
    pub(super) fn line(&mut self, (p, span): (&Value, Span)) -> RtResult<Value> {
        let start = self.to_position(p, span, "the argument of `line`")?;
        let remoteness = self.remoteness(&start, span)?;
        let value = self.position_value(&start)?;
        let mut items = Vec::new();
        let mut rows = Vec::new();
        let length = remoteness[&start];
        let mut at = start.clone();
        for _ in 0..length {
            let m = self.best_move(&at, &remoteness, span)?;
            let component = Position::from_components(vec![at.components()[m.component]]);
            let player = if rows.len() % 2 == 0 {
                "first"
            } else {
                "second"
            };
            rows.push([
                format!("{}.", rows.len() + 1),
                player.to_string(),
                self.show_position(&component),
                m.name.clone(),
                self.show_result(&m.result),
                m.value.to_string(),
            ]);
            items.push(Value::Tuple(Rc::from([
                Value::Pos(component),
                Value::str(&m.name),
                Value::Pos(m.result.clone()),
                Value::Int(m.value as i64),
            ])));
            at = m.result;
        }
        debug_assert_eq!(
            length as usize,
            items.len(),
            "the line lasts its remoteness"
        );
        let moves = if length == 1 { "move" } else { "moves" };
        let verdict = match (value, length) {
            (_, 0) => "no moves: the player to move loses".to_string(),
            (0, n) => format!("the second player wins in {n} {moves}"),
            (_, n) => format!("the first player wins in {n} {moves}"),
        };
        let mut text = format!("{}: value {value}, {verdict}", self.show_position(&start));
        text.push_str(&aligned(&rows));
        Ok(Value::Report(Rc::new(Report::ready(items, text))))
    }

    /// The move perfect play makes from `at`, a position of remoteness > 0:
    /// the loser's to the greatest remoteness, the winner's to the least
    /// of value 0; the first of equals in the order of `moves(P)`.
    fn best_move(
        &mut self,
        at: &Position,
        remoteness: &FxHashMap<Position, u64>,
        span: Span,
    ) -> RtResult<MoveInfo> {
        let losing = self.position_value(at)? == 0;
        let best = self
            .moves_of(at, span)?
            .into_iter()
            .filter(|m| losing || m.value == 0)
            .map(|m| (remoteness[&m.result], m));
        let chosen = if losing {
            best.rev().max_by_key(|(r, _)| *r)
        } else {
            best.min_by_key(|(r, _)| *r)
        };
        Ok(chosen
            .expect("a position of remoteness > 0 has an option that counts")
            .1)
    }

    /// The remoteness of `start` and of every option its line may reach,
    /// by a depth-first search with its own stack (lines can be long).
    fn remoteness(&mut self, start: &Position, span: Span) -> RtResult<FxHashMap<Position, u64>> {
        let bound = MAX_POSITIONS.min(self.limits.max_states);
        let mut known: FxHashMap<Position, u64> = FxHashMap::default();
        let mut stack = vec![self.frame(start.clone(), span)?];
        while let Some(top) = stack.last_mut() {
            if let Some(option) = top.options.get(top.next).cloned() {
                top.next += 1;
                match known.get(&option) {
                    Some(r) => fold(top, *r),
                    None => {
                        if known.len() + stack.len() >= bound {
                            return Err(too_many(bound, bound < MAX_POSITIONS, span));
                        }
                        self.poll()?;
                        let frame = self.frame(option, span)?;
                        stack.push(frame);
                    }
                }
                continue;
            }
            let done = stack
                .pop()
                .expect("the loop runs while the stack has a frame");
            let r = done.best.map_or(0, |best| best + 1);
            known.insert(done.position, r);
            if let Some(parent) = stack.last_mut() {
                fold(parent, r);
            }
        }
        Ok(known)
    }

    fn frame(&mut self, position: Position, span: Span) -> RtResult<Frame> {
        let losing = self.position_value(&position)? == 0;
        let options = (self.options_where(&position, span, &|v| losing || v == 0)?)
            .into_iter()
            .map(|m| m.result)
            .collect();
        Ok(Frame {
            position,
            losing,
            options,
            next: 0,
            best: None,
        })
    }
}

/// An option's remoteness taken into its position's: the loser's longest,
/// the winner's shortest.
fn fold(frame: &mut Frame, r: u64) {
    frame.best = Some(match frame.best {
        None => r,
        Some(best) if frame.losing => best.max(r),
        Some(best) => best.min(r),
    });
}

fn too_many(bound: usize, flag: bool, span: Span) -> Box<Diagnostic> {
    let help = match flag {
        true => "raise the limit with --max-states, or ask about a smaller position",
        false => "ask about a smaller position, or about each component on its own",
    };
    Box::new(
        Diagnostic::new(
            Phase::Limit,
            format!("more than {bound} positions to play out this line"),
        )
        .at(span, "this position")
        .note(
            "`line` weighs every position of a sum, whose number is the product of its components'",
        )
        .help(help),
    )
}

/// Rows as lines of left-aligned columns, the last (the value) aligned
/// right, each line starting with a newline.
fn aligned(rows: &[[String; 6]]) -> String {
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..6).map(width).collect();
    let mut text = String::new();
    for row in rows {
        let mut line = String::from("\n");
        for (c, cell) in row.iter().enumerate() {
            let w = widths[c];
            match c {
                0 => line.push_str(&format!("  {cell:>w$}")),
                1 => line.push_str(&format!(" {cell:w$}")),
                5 => line.push_str(&format!("   value {cell}")),
                _ => line.push_str(&format!("   {cell:w$}")),
            }
        }
        text.push_str(line.trim_end());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::loaded;
    use crate::value::Component;

    const GAMES: &str = "game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n\
                         game sub(n) {\n move take(k in {1, 2}) if k <= n -> sub(n - k)\n}\n";

    /// The line of `game(n)`: each move's name and result, and the text.
    fn line_of(game: u32, n: i64) -> (Vec<(String, String)>, String) {
        let (mut session, _) = loaded(GAMES);
        let m = &mut session.machine;
        let node = m.intern(game, &[Value::Int(n)], Span::default()).unwrap();
        let line = m
            .line((&Value::Pos(Position::node(node)), Span::default()))
            .unwrap();
        let Value::Report(report) = &line else {
            panic!("a line is a report");
        };
        let moves = report
            .items()
            .iter()
            .map(|item| match item {
                Value::Tuple(t) => (m.show_top(&t[1]), m.show(&t[2])),
                other => panic!("a move is a tuple, not {other:?}"),
            })
            .collect();
        (moves, m.show_top(&line))
    }

    #[test]
    fn the_winner_of_nim_takes_the_whole_heap() {
        let (moves, text) = line_of(0, 3);
        assert_eq!(moves, [("take(k=3)".to_string(), "nim(0)".to_string())]);
        assert!(
            text.starts_with("nim(3): value 3, the first player wins in 1 move\n"),
            "{text}"
        );
    }

    #[test]
    fn the_loser_takes_one_at_a_time_and_the_winner_answers() {
        // Take 1 or 2: sub(6) has value 0; the loser takes 1 each time, the
        // winner then takes 2, so the game lasts 4 moves, not 3.
        let (moves, text) = line_of(1, 6);
        let names: Vec<&str> = moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(names, ["take(k=1)", "take(k=2)", "take(k=1)", "take(k=2)"]);
        assert!(text.contains("the second player wins in 4 moves"), "{text}");
        assert!(
            text.contains("\n  4. second   sub(2)   take(k=2)   0"),
            "{text}"
        );
    }

    #[test]
    fn a_terminal_position_has_an_empty_line() {
        let (moves, text) = line_of(1, 0);
        assert!(moves.is_empty());
        assert_eq!(text, "sub(0): value 0, no moves: the player to move loses");
    }

    #[test]
    fn a_sum_too_large_to_weigh_is_a_limit_error() {
        let (mut session, _) = loaded(GAMES);
        let m = &mut session.machine;
        m.limits.max_states = 50;
        let p = Position::from_components(vec![Component::Heap(20), Component::Heap(20)]);
        let e = m.line((&Value::Pos(p), Span::default())).unwrap_err();
        assert_eq!(e.phase, Phase::Limit);
        assert!(
            e.message.contains("more than 50 positions"),
            "{}",
            e.message
        );
    }
}
