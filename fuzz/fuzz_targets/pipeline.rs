//! The whole pipeline on arbitrary text, as the binary runs it: `check`,
//! `run` (or, when a line `#--- eval` splits the input, `run` of the part
//! before it and `eval -e` of the part after), the REPL on a pipe, and the
//! REPL's highlighting. Every input runs on a thread with the binary's
//! stack, within `grundy::sandbox::small_limits()`. A panic, a
//! stack overflow, an undocumented exit code, an error without a
//! diagnostic, `check` and `run` disagreeing, or the compiled rules and the
//! interpreter alone printing different things is a crash.

#![no_main]

use grundy::diag::Phase;
use grundy::repl::editor::{GrundyHelper, classify, entry_is_complete, matching_bracket};
use grundy::sandbox::{Mode, Ran, engines_disagree, on_interpreter_stack, run};
use libfuzzer_sys::fuzz_target;
use rustyline::highlight::Highlighter;

/// A line that splits an input into a script and an expression to `eval`.
const EVAL_MARKER: &str = "#--- eval\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = text.to_string();
    // A thread per input: faster than feeding one long-lived thread through
    // channels (by 3% on the seed corpus, 15% on tiny inputs). A panic
    // there is raised again here; a stack overflow aborts the process.
    on_interpreter_stack(move || exercise(&text));
});

fn exercise(text: &str) {
    let (script, expr) = match text.split_once(EVAL_MARKER) {
        Some((script, expr)) => (script, Some(expr)),
        None => (text, None),
    };
    let checked = ran(script, Mode::Check);
    let run_mode = match expr {
        Some(expr) => Mode::Eval(expr.to_string()),
        None => Mode::Run,
    };
    let eval_follows = matches!(run_mode, Mode::Eval(_));
    let done = ran(script, run_mode);
    // `run` loads a script as `check` does, then runs it.
    if checked.code != 0 {
        assert_eq!(done, checked, "`check` failed, so `run` must fail alike");
    } else if !eval_follows {
        assert!(
            !matches!(done.error, Some(Phase::Syntax | Phase::Check)),
            "`check` passed but `run` did not load:\n{}",
            done.diagnostics
        );
    }
    if !eval_follows && let Some(difference) = engines_disagree(script) {
        panic!("the compiled rules and the interpreter disagree:\n{difference}");
    }
    ran(text, Mode::Repl);
    editing(text);
}

/// Runs `text` in a new session, checking how it ended.
fn ran(text: &str, mode: Mode) -> Ran {
    let ran = run(text, &mode);
    if let Some(problem) = ran.problem(&mode) {
        panic!("{problem}\n{ran:#?}");
    }
    ran
}

/// What the REPL does with a line as it is typed. Highlighting reads the
/// whole line each time: a few cursor places are enough.
fn editing(text: &str) {
    entry_is_complete(text);
    let pieces = classify(text);
    assert_eq!(pieces.iter().map(|(_, p)| *p).collect::<String>(), text);
    let helper = GrundyHelper::new(Default::default(), true);
    let brackets = text
        .char_indices()
        .filter(|(_, c)| "()[]{}".contains(*c))
        .map(|(i, _)| i)
        .take(4);
    for pos in brackets {
        if let Some(other) = matching_bracket(text, pos) {
            assert_eq!(matching_bracket(text, other), Some(pos), "at {pos}");
        }
        helper.highlight(text, pos + 1);
    }
    helper.highlight(text, text.len());
}
