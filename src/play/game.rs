//! One game between the person and the computer: the position, whose
//! turn it is, what can be taken back, and the answer to each line the
//! person types. Text in, text out, so that it runs the same on a
//! terminal, on a pipe and in the tests.

use super::explain;
use super::remoteness::{Choice, Remoteness};
use super::{Engine, live};
use crate::runtime::queries::MoveInfo;
use crate::runtime::{Machine, RtResult};
use crate::span::Span;
use crate::value::Position;
use std::fmt::Write as _;

/// Most positions (sums counted one each) whose remoteness one game may
/// keep, or `--max-states` if lower, and most options one move of the
/// computer (or one hint) may look at. Past either the computer still
/// plays perfectly for the win, but no longer knows which move lasts
/// longest or wins fastest.
pub const MAX_WEIGHED: usize = 1_000_000;
pub const MAX_OPTIONS: usize = 2_000_000;

/// The commands, printed at the start and on `?`.
pub const COMMANDS: &str = "\
Type a move's number to play it, or:
  h  a hint          u  undo your last move     w  why I played my last move
  m  the moves again c  let me move first       q  give up and leave
  ?  this list       Ctrl-D or Ctrl-C leaves the game too";

/// How the computer's winning move ends the game.
const OVER: &str = "You have no move: I win. (u takes back your last move; anything else \
                    goes back to the REPL)";

/// The commands a game that is over still answers.
const OVER_WORDS: [&str; 10] = [
    "?", "help", "h", "hint", "u", "undo", "w", "why", "m", "moves",
];

/// The ways to give up (or, once the game is over, to leave it).
const QUIT_WORDS: [&str; 6] = ["q", "quit", "give up", "resign", ":q", ":quit"];

/// What the REPL does after a line: stay in the game or leave it, with
/// the text to print either way.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    Stay(String),
    Leave(String),
}

/// The computer's last move, kept to be explained.
struct Reply {
    before: Position,
    chosen: MoveInfo,
    remoteness: Option<u64>,
}

pub struct Game {
    at: Position,
    /// Where `P` was written in `play(P)`: errors point there.
    span: Span,
    /// The positions before each of the person's moves, for `undo`.
    turns: Vec<Position>,
    /// The person's moves from `at`, as numbered; empty once over.
    moves: Vec<MoveInfo>,
    last: Option<Reply>,
    /// Whether the computer may still take the first move.
    fresh: bool,
    /// Whether it took it: then undo goes back to after that move.
    computer_started: bool,
    memo: Remoteness<Position>,
}

impl Game {
    /// A game from `start`, the person to move; with the text that opens
    /// it. `None` when `start` has no move to play.
    pub fn start(m: &mut Machine, start: Position, span: Span) -> RtResult<(Option<Game>, String)> {
        let shown = m.show_position(&start);
        let moves = moves_of(m, &start, span)?;
        let live_start = live(m, &start);
        let moves = match live_start == start {
            true => moves,
            // Components without moves were left out: the moves' components
            // are counted anew.
            false => moves_of(m, &live_start, span)?,
        };
        let start = live_start;
        if moves.is_empty() {
            let text = format!("{shown} has no moves: the player to move loses at once.");
            return Ok((None, text));
        }
        let bound = MAX_WEIGHED.min(m.limits.max_states);
        let game = Game {
            at: start,
            span,
            turns: Vec::new(),
            moves,
            last: None,
            fresh: true,
            computer_started: false,
            memo: Remoteness::new(bound, MAX_OPTIONS),
        };
        let text = format!(
            "Playing {shown}. You move first (c lets me start).\n{COMMANDS}\n{}",
            game.listed(m)
        );
        Ok((Some(game), text))
    }

    /// The answer to one line typed at the game's prompt.
    pub fn respond(&mut self, m: &mut Machine, line: &str) -> RtResult<Step> {
        let line = line.trim();
        let text = match line.to_lowercase().as_str() {
            "" => String::new(),
            "?" | "help" => COMMANDS.to_string(),
            word if QUIT_WORDS.contains(&word) => return Ok(self.leave()),
            "h" | "hint" => self.hint(m)?,
            "u" | "undo" => self.undo(m)?,
            "w" | "why" => self.why(m)?,
            "m" | "moves" => self.listed(m),
            "c" | "computer" => self.computer_first(m)?,
            _ => match number(line) {
                Some(n) => self.person(m, n)?,
                None => format!(
                    "`{line}` is neither a move nor a command: {}",
                    self.what_to_type()
                ),
            },
        };
        Ok(Step::Stay(text))
    }

    fn over(&self) -> bool {
        self.moves.is_empty()
    }

    /// Whether `line` is for the game: anything while it goes on; once it
    /// is over, only its commands, so that what else is typed goes back
    /// to the REPL.
    pub fn takes(&self, line: &str) -> bool {
        let word = line.trim().to_lowercase();
        let word = word.as_str();
        !self.over()
            || number(word).is_some()
            || OVER_WORDS.contains(&word)
            || QUIT_WORDS.contains(&word)
    }

    fn what_to_type(&self) -> String {
        match self.moves.len() {
            0 => "the game is over (u takes back your last move; anything else goes back \
                  to the REPL)"
                .into(),
            1 => "type 1 to play the only move, or ? for the commands".into(),
            n => format!("type a move's number, 1 to {n}, or ? for the commands"),
        }
    }

    fn leave(&self) -> Step {
        Step::Leave(match self.over() {
            true => "Back to the REPL.".into(),
            false => "You give up: I win. Back to the REPL.".into(),
        })
    }

    /// The person plays their move number `n` (counted from 1), and the
    /// computer answers.
    fn person(&mut self, m: &mut Machine, n: i128) -> RtResult<String> {
        let Some(chosen) = usize::try_from(n - 1).ok().and_then(|i| self.moves.get(i)) else {
            return Ok(format!("There is no move {n}: {}", self.what_to_type()));
        };
        let mut text = format!("You: {}\n", self.describe(m, chosen));
        self.turns.push(self.at.clone());
        self.at = live(m, &chosen.result);
        self.fresh = false;
        self.moves = moves_of(m, &self.at, self.span)?;
        if self.over() {
            text.push_str(
                "I have no move: you win! (u takes back your last move; anything else \
                 goes back to the REPL)",
            );
            return Ok(text);
        }
        text.push_str(&self.computer(m)?);
        Ok(text)
    }

    /// The computer moves from `at`, and says so.
    fn computer(&mut self, m: &mut Machine) -> RtResult<String> {
        let Choice { index, remoteness } = self.choose(m)?;
        let chosen = self.moves.swap_remove(index);
        let mut text = format!("Me:  {}   (w: why)\n", self.describe(m, &chosen));
        let before = std::mem::replace(&mut self.at, live(m, &chosen.result));
        self.last = Some(Reply {
            before,
            chosen,
            remoteness,
        });
        self.moves = moves_of(m, &self.at, self.span)?;
        match self.over() {
            true => text.push_str(OVER),
            false => text.push_str(&self.listed(m)),
        }
        Ok(text)
    }

    /// The move perfect play makes from `at` (which has moves).
    fn choose(&mut self, m: &mut Machine) -> RtResult<Choice> {
        let options: Vec<(Position, u64)> = self
            .moves
            .iter()
            .map(|mv| (live(m, &mv.result), mv.value))
            .collect();
        let mut engine = Engine { m, span: self.span };
        let choice = self.memo.choose(&mut engine, &options)?;
        Ok(choice.expect("a position with moves has a move to choose"))
    }

    fn computer_first(&mut self, m: &mut Machine) -> RtResult<String> {
        if !self.fresh {
            return Ok("c only works before the first move; u takes moves back.".into());
        }
        self.fresh = false;
        self.computer_started = true;
        self.computer(m)
    }

    fn undo(&mut self, m: &mut Machine) -> RtResult<String> {
        let Some(before) = self.turns.pop() else {
            return Ok("Nothing to undo: you have not moved yet.".into());
        };
        self.at = before;
        self.last = None;
        self.fresh = self.turns.is_empty() && !self.computer_started;
        self.moves = moves_of(m, &self.at, self.span)?;
        let shown = m.show_position(&self.at);
        Ok(format!("Taken back: {shown} again.\n{}", self.listed(m)))
    }

    fn hint(&mut self, m: &mut Machine) -> RtResult<String> {
        if self.over() {
            return Ok("The game is over: there is nothing to hint at.".into());
        }
        let Choice { index, remoteness } = self.choose(m)?;
        let chosen = &self.moves[index];
        let length = match remoteness {
            Some(r) => format!(", and the game then lasts {}", more(r)),
            None => String::new(),
        };
        let shown = self.describe(m, chosen);
        Ok(match chosen.value {
            0 => format!(
                "Hint: {} ({shown}) wins: it leaves a position of value 0, \
                 lost for me whatever I play{length}.",
                index + 1
            ),
            _ => format!(
                "Hint: every move leaves a position of nonzero value, which I can win; \
                 {} ({shown}) {}{length}.",
                index + 1,
                match remoteness {
                    Some(_) => "holds out longest",
                    None =>
                        "is as good as any (too many positions to find the one that \
                             holds out longest)",
                }
            ),
        })
    }

    fn why(&mut self, m: &mut Machine) -> RtResult<String> {
        match &self.last {
            None => Ok("I have not moved yet (or my move was taken back).".into()),
            Some(reply) => explain::reply(m, &reply.before, &reply.chosen, reply.remoteness),
        }
    }

    /// The person's moves, numbered, or the end of the game.
    fn listed(&self, m: &Machine) -> String {
        if self.over() {
            return "The game is over: there are no moves left.".into();
        }
        let mut text = String::from("Your moves:");
        for (i, mv) in self.moves.iter().enumerate() {
            let _ = write!(text, "\n  {:>2}. {}", i + 1, self.describe(m, mv));
        }
        text
    }

    /// A move as `component: name -> result`, the component left out
    /// when there is only one.
    fn describe(&self, m: &Machine, mv: &MoveInfo) -> String {
        let result = m.show_result(&mv.result);
        match self.at.components() {
            [_] => format!("{} -> {result}", mv.name),
            comps => {
                let part = Position::from_components(vec![comps[mv.component]]);
                format!("{}: {} -> {result}", m.show_position(&part), mv.name)
            }
        }
    }
}

/// The moves of `p` as the person sees them: a move made the same way in
/// equal components (`*2 + *2`) is one move, listed once.
fn moves_of(m: &mut Machine, p: &Position, span: Span) -> RtResult<Vec<MoveInfo>> {
    let mut moves = m.moves_of(p, span)?;
    let mut seen = rustc_hash::FxHashSet::default();
    moves.retain(|mv| seen.insert((mv.name.clone(), mv.result.clone())));
    Ok(moves)
}

/// A move's number as typed: digits, perhaps with a sign (so that `-1` or
/// `99999999999` is out of range rather than not a number).
fn number(line: &str) -> Option<i128> {
    let digits = line.strip_prefix('-').unwrap_or(line);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(line.parse().unwrap_or(i128::MAX))
}

/// `1 more move`, `3 more moves`.
pub fn more(n: u64) -> String {
    match n {
        1 => "1 more move".into(),
        n => format!("{n} more moves"),
    }
}

#[cfg(test)]
mod tests;
