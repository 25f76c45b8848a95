//! The REPL: a session fed one entry at a time, from a terminal (with line
//! editing, history, completion and highlighting) or from a pipe (plain
//! text in, results out). An entry is a `:` command or grundy source; an
//! error in one entry is reported and the session goes on with everything
//! defined and memoized before it.

mod commands;
pub mod editor;
mod play;

pub use commands::{COMMANDS, nearest};

use crate::session::{Outcome, Session, exit};
use editor::{ContinueLine, GrundyHelper, PROMPT, history_path, strip_continuations};
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Config, Editor, EventHandler, KeyCode, KeyEvent, Modifiers};
use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The start of the message for an entry abandoned because of a bug (a
/// panic); the fuzz tests look for it.
pub const INTERNAL_ERROR: &str = "internal error: grundy failed on this entry";

/// Whether the REPL goes on after an entry.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Repl {
    pub session: Session,
    /// Files loaded so far, in order, for `:reload`.
    files: Vec<PathBuf>,
    /// Print how long each entry took.
    time: bool,
    /// Everything that went wrong so far; it makes a piped run's exit code.
    pub outcome: Outcome,
    /// A command went wrong (an unknown command, a file that cannot be read).
    misused: bool,
    /// Print the results of loaded files (`grundy repl --verbose`); they
    /// are run quietly otherwise, as `:load --verbose` can override.
    pub verbose: bool,
    /// The game under way, if `play(P)` started one: lines go to it.
    game: Option<crate::play::Game>,
}

impl Repl {
    pub fn new(session: Session) -> Repl {
        Repl {
            session,
            files: Vec::new(),
            time: false,
            outcome: Outcome::default(),
            misused: false,
            verbose: false,
            game: None,
        }
    }

    /// Runs one entry: a `:` command, or source named `name` whose first
    /// line is line `first_line` of what the user typed or piped.
    pub fn submit(&mut self, entry: &str, name: &str, first_line: usize) -> Flow {
        if entry.trim().is_empty() {
            return Flow::Continue;
        }
        // A bug that panics must not end the session and lose what the
        // user typed: the entry is abandoned and the session goes on.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if self.game_takes(entry) {
                self.play_line(entry);
                return Flow::Continue;
            }
            self.leave_play("the game is over");
            if entry.trim_start().starts_with(':') {
                return self.command(entry);
            }
            if let Some(flow) = self.bare_command(entry) {
                return flow;
            }
            self.run_typed(name, entry, first_line);
            Flow::Continue
        }));
        ran.unwrap_or_else(|_| {
            self.session.machine.recover_from_panic();
            let diag = crate::diag::Diagnostic::new(
                crate::diag::Phase::Runtime,
                format!("{INTERNAL_ERROR} (a bug; please report it)"),
            )
            .note("definitions stay; memoized values were forgotten and will be computed again");
            self.session.report(&diag);
            self.outcome.merge(Outcome {
                failed_expects: 0,
                error: Some(crate::diag::Phase::Runtime),
            });
            Flow::Continue
        })
    }

    /// A command typed without its `:`, as in Python's REPL or a shell
    /// (`quit`, `exit()`, `help`, `clear`), when nothing of that name is
    /// defined: `help`, `quit` and `exit` run with a note saying how they
    /// are spelled; `clear` only gets a hint, since a user typing it more
    /// likely wants a clear screen than values forgotten.
    fn bare_command(&mut self, entry: &str) -> Option<Flow> {
        let word = entry.trim();
        let word = word.strip_suffix("()").unwrap_or(word);
        let defined = self.session.machine.defs.names.contains_key(word);
        if defined || !matches!(word, "quit" | "exit" | "help" | "clear") {
            return None;
        }
        if word == "clear" {
            self.say(
                "`clear` is not defined: the command `:clear` forgets every memoized value; \
                 Ctrl-L clears the screen",
            );
            return Some(Flow::Continue);
        }
        self.say(&format!(
            "`{word}` is the command `:{word}` (commands start with `:`)"
        ));
        Some(self.command(word))
    }

    /// Runs source (`what` follows the time if `:time` is on).
    fn run(&mut self, name: &str, text: &str, first_line: usize, what: &str) {
        self.timed(what, |session| session.run_at(name, text, first_line));
    }

    /// Runs `f` on the session, timed if `:time` is on, with a Ctrl-C
    /// pressed before it forgotten; what went wrong joins the outcome.
    fn timed(&mut self, what: &str, f: impl FnOnce(&mut Session) -> Outcome) {
        self.session.machine.cancel.store(false, Ordering::Relaxed);
        self.session.machine.start_clock();
        let start = Instant::now();
        let outcome = f(&mut self.session);
        self.session.machine.pulse.end();
        if self.time {
            self.say(&format!("time: {}{what}", elapsed(start)));
        }
        self.outcome.merge(outcome);
    }

    /// Runs files in order, printing the values of their bare expressions
    /// only if `verbose`; each is remembered for `:reload`. Definitions,
    /// `print(...)`, failed `expect`s and errors come out either way.
    pub fn load(&mut self, files: &[PathBuf], verbose: bool) {
        self.session.quiet = !verbose;
        self.load_files(files);
        self.session.quiet = false;
    }

    fn load_files(&mut self, files: &[PathBuf]) {
        for path in files {
            let text = match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) => {
                    self.problem(&format!("cannot read `{}`: {e}", path.display()));
                    continue;
                }
            };
            if !self.files.contains(path) {
                self.files.push(path.clone());
            }
            let name = path.display().to_string();
            self.run(&name, &text, 1, &format!(" for {name}"));
        }
    }

    /// The names defined so far, for completion.
    pub fn names(&self) -> Vec<String> {
        self.session
            .machine
            .defs
            .names
            .keys()
            .map(|n| n.to_string())
            .collect()
    }

    /// A problem with a command (not with grundy source): one line.
    fn problem(&mut self, message: &str) {
        self.misused = true;
        let diag = crate::diag::Diagnostic::new(crate::diag::Phase::Check, message);
        self.session.report_with_code(&diag, exit::USAGE);
    }

    /// The exit code of a piped run: the worst that happened. An error in
    /// grundy source counts over a misused command, and that over a
    /// failed `expect`.
    pub fn exit_code(&self) -> i32 {
        if self.misused && self.outcome.error.is_none() {
            exit::USAGE
        } else {
            self.outcome.exit_code()
        }
    }
}

fn elapsed(start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64();
    if secs < 1e-3 {
        format!("{:.1} µs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else {
        format!("{secs:.2} s")
    }
}

/// Reads entries from a pipe: lines gather until the parser finds them
/// complete, then run. No prompts, no colors, no history.
pub fn piped(repl: &mut Repl, input: impl BufRead) -> i32 {
    let mut entry = String::new();
    let mut first_line = 1;
    for (number, line) in input.lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                repl.problem(&format!("cannot read standard input: {e}"));
                break;
            }
        };
        if repl.game_takes(&line) {
            // A game's lines are commands of their own, never continued.
            repl.submit(&line, "<stdin>", number + 1);
            continue;
        }
        if entry.is_empty() {
            first_line = number + 1;
        }
        entry.push_str(&line);
        entry.push('\n');
        if !editor::entry_is_complete(&entry) {
            continue;
        }
        let text = std::mem::take(&mut entry);
        if repl.submit(&text, "<stdin>", first_line) == Flow::Quit {
            return repl.exit_code();
        }
    }
    if !entry.trim().is_empty() {
        // Input ended inside an entry: run it for the parser to say why.
        repl.submit(&entry, "<stdin>", first_line);
    }
    repl.leave_play("the input ended");
    repl.exit_code()
}

/// The interactive REPL on a terminal. Returns the exit code.
pub fn interactive(repl: &mut Repl, color: bool) -> i32 {
    let config = Config::builder()
        .auto_add_history(false)
        .max_history_size(10_000)
        .and_then(|c| c.history_ignore_dups(true))
        .map(|c| c.completion_type(rustyline::CompletionType::List).build());
    let editor = config.and_then(Editor::<GrundyHelper, FileHistory>::with_config);
    let mut editor = match editor {
        Ok(editor) => editor,
        Err(e) => {
            warn(format!("error: cannot start line editing: {e}"));
            return exit::USAGE;
        }
    };
    let names = Rc::new(RefCell::new(repl.names()));
    editor.set_helper(Some(GrundyHelper::new(names.clone(), color)));
    editor.bind_sequence(
        KeyEvent(KeyCode::Enter, Modifiers::NONE),
        EventHandler::Conditional(Box::new(ContinueLine)),
    );
    let history = history_path();
    if let Some(path) = &history {
        // A missing file is the first session; anything else is worth a word.
        if path.exists()
            && let Err(e) = editor.load_history(path)
        {
            warn(format!(
                "warning: cannot read history `{}`: {e}",
                path.display()
            ));
        }
    }
    let cancel = repl.session.machine.cancel.clone();
    let handler = move || {
        // The evaluation notices the first Ctrl-C within microseconds; a
        // second one while the first is still unseen means it is stuck
        // somewhere that does not look (hashing a huge value, say).
        if cancel.swap(true, Ordering::Relaxed) {
            eprintln!("grundy: the evaluation did not stop at Ctrl-C; quitting");
            std::process::exit(exit::INTERRUPTED);
        }
    };
    if let Err(e) = ctrlc::set_handler(handler) {
        warn(format!("warning: Ctrl-C will not cancel evaluations: {e}"));
    }
    repl.say(&format!(
        "grundy {}: type :help for help, :quit or Ctrl-D to leave",
        env!("CARGO_PKG_VERSION")
    ));
    let mut number = 0;
    let mut game_editor = None;
    // A line typed after a game ended, which was not for it: an entry.
    let mut given_back: Option<String> = None;
    loop {
        if repl.playing() {
            given_back = play::on_terminal(repl, &mut game_editor);
            continue;
        }
        let read = match given_back.take() {
            Some(line) if editor::entry_is_complete(&line) => Ok(line),
            // The start of a longer entry: the user goes on typing it on
            // a continuation line, as if it had been typed here.
            Some(line) => {
                let started = format!("{line}\n{}", editor::INDENT);
                editor.readline_with_initial(PROMPT, (&started, ""))
            }
            None => editor.readline(PROMPT),
        };
        match read {
            Ok(line) => {
                if line.trim().is_empty() {
                    continue;
                }
                let _ = editor.add_history_entry(line.as_str());
                if let Some(path) = &history {
                    save_history(&mut editor, path);
                }
                number += 1;
                let entry = strip_continuations(&line);
                let flow = repl.submit(&entry, &format!("<input {number}>"), 1);
                *names.borrow_mut() = repl.names();
                if flow == Flow::Quit {
                    break;
                }
            }
            // Ctrl-C while typing: rustyline has dropped the line.
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                warn(format!("error: cannot read input: {e}"));
                return exit::USAGE;
            }
        }
    }
    let _ = std::io::stdout().flush();
    exit::OK
}

/// A message about the REPL itself, on stderr. Unlike `eprintln!`, it
/// does not panic when the terminal has gone away.
fn warn(message: String) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// Appends the newest entry to the history file, creating its folder.
fn save_history(editor: &mut Editor<GrundyHelper, FileHistory>, path: &Path) {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = editor.append_history(path) {
        warn(format!(
            "warning: cannot write history `{}`: {e}",
            path.display()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SharedBuffer;

    /// A writer that panics at its first write, as a bug would.
    struct PanicsOnce(bool, SharedBuffer);

    impl Write for PanicsOnce {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if !std::mem::replace(&mut self.0, true) {
                panic!("a bug");
            }
            self.1.write(buf)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_panic_abandons_the_entry_and_the_session_goes_on() {
        let (out, err) = (SharedBuffer::default(), SharedBuffer::default());
        let session = Session::new(
            Box::new(out.clone()),
            Box::new(PanicsOnce(false, err.clone())),
        );
        let mut repl = Repl::new(session);
        repl.submit("game g(n) {\n move m if n > 0 -> g(n - 1)\n}\n", "a", 1);
        // Reporting the error panics.
        repl.submit("value(g(3)) / 0", "b", 1);
        let printed = String::from_utf8_lossy(&err.0.borrow()).into_owned();
        assert!(
            printed.starts_with(&format!("Error: {INTERNAL_ERROR}")),
            "{printed}"
        );
        assert_eq!(repl.exit_code(), exit::SCRIPT_ERROR);
        repl.submit("value(g(4))", "c", 1);
        assert_eq!(String::from_utf8_lossy(&out.0.borrow()), "0\n", "{printed}");
    }
}
