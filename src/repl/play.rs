//! `play(P)` at the REPL: while a game is under way each line goes to it
//! ([`crate::play::Game`]) instead of being run, at a prompt of its own.
//! An error ends the game and keeps the session; Ctrl-D and Ctrl-C leave
//! the game, not the REPL.

use super::{Repl, warn};
use crate::play::{Game, Step};
use crate::session::{Entry, Outcome};
use crate::span::Span;
use crate::value::Position;
use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;
use std::sync::atomic::Ordering;

/// The prompt of a game, as wide as the REPL's.
pub const PROMPT: &str = "  play> ";

impl Repl {
    /// Whether a game is under way.
    pub fn playing(&self) -> bool {
        self.game.is_some()
    }

    /// Whether `line` goes to the game under way (a game that is over
    /// takes only its own commands).
    pub fn game_takes(&self, line: &str) -> bool {
        self.game.as_ref().is_some_and(|g| g.takes(line))
    }

    /// Runs a typed entry; `play(P)` on its own starts a game.
    pub(super) fn run_typed(&mut self, name: &str, text: &str, first_line: usize) {
        let mut asked = None;
        self.timed("", |session| {
            match session.run_entry(name, text, first_line) {
                Entry::Ran(outcome) => outcome,
                Entry::Play(start, span) => {
                    asked = Some((start, span));
                    Outcome::default()
                }
            }
        });
        if let Some((start, span)) = asked {
            self.start_play(start, span);
        }
    }

    fn start_play(&mut self, start: Position, span: Span) {
        let started = self.in_game(|game, m| match game {
            None => Game::start(m, start, span).map(|(game, text)| (game, Step::Stay(text))),
            Some(_) => unreachable!("a game starts from the REPL's prompt"),
        });
        if let Some(text) = started {
            self.say(&text);
        }
    }

    /// One line typed during a game.
    pub(super) fn play_line(&mut self, line: &str) {
        let said = self.in_game(|game, m| {
            let mut game = game.expect("lines go to a game only while there is one");
            let step = game.respond(m, line)?;
            Ok((matches!(step, Step::Stay(_)).then_some(game), step))
        });
        if let Some(text) = said.filter(|t| !t.is_empty()) {
            self.say(&text);
        }
    }

    /// Runs a step of the game, which gives back the game to go on with
    /// (if any) and what to say; an error is reported and ends the game.
    fn in_game(
        &mut self,
        step: impl FnOnce(
            Option<Game>,
            &mut crate::runtime::Machine,
        ) -> crate::runtime::RtResult<(Option<Game>, Step)>,
    ) -> Option<String> {
        let game = self.game.take();
        let m = &mut self.session.machine;
        m.cancel.store(false, Ordering::Relaxed);
        m.start_clock();
        let result = step(game, m);
        m.pulse.end();
        match result {
            Ok((game, Step::Stay(text) | Step::Leave(text))) => {
                self.game = game;
                Some(text)
            }
            Err(e) => {
                self.session.report(&e);
                self.outcome.merge(Outcome {
                    failed_expects: 0,
                    error: Some(e.phase),
                });
                Some("The game ends here; everything defined is kept.".into())
            }
        }
    }

    /// Leaves the game under way, if any, saying why.
    pub(super) fn leave_play(&mut self, why: &str) {
        if self.game.take().is_some() {
            self.say(&format!("{why}: left the game, back to the REPL."));
        }
    }
}

/// Reads a game's lines on the terminal until it ends, with a line
/// editor of its own (no history file, no completion): a move's number is
/// not grundy source. A line typed after the game is over that is not for
/// it ends the game and is given back, to be run as an entry.
pub(super) fn on_terminal(repl: &mut Repl, editor: &mut Option<DefaultEditor>) -> Option<String> {
    if editor.is_none() {
        match DefaultEditor::new() {
            Ok(made) => *editor = Some(made),
            Err(e) => {
                warn(format!("error: cannot read the game's moves: {e}"));
                repl.leave_play("no line editor");
                return None;
            }
        }
    }
    let editor = editor.as_mut().expect("made above");
    while repl.playing() {
        match editor.readline(PROMPT) {
            Ok(line) if !line.trim().is_empty() && !repl.game_takes(&line) => {
                repl.leave_play("the game is over");
                return Some(line);
            }
            Ok(line) => {
                let _ = editor.add_history_entry(line.as_str());
                repl.submit(&line, "<play>", 1);
            }
            Err(ReadlineError::Interrupted) => repl.leave_play("Ctrl-C"),
            Err(ReadlineError::Eof) => repl.leave_play("Ctrl-D"),
            Err(e) => {
                warn(format!("error: cannot read input: {e}"));
                repl.leave_play("no input");
            }
        }
    }
    None
}
