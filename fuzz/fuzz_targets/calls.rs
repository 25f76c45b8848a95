//! Programs built from the fuzz input by `grundy::sandbox::calls`: every
//! built-in called with arguments of every type (samples of each, nested
//! collections, results of other calls), and the REPL's commands with
//! arguments, piped to the REPL within `grundy::sandbox::small_limits()`.
//! Random text seldom parses far enough to reach the built-ins' corners;
//! these programs always do. A panic, a stack overflow, an undocumented exit
//! code, or an error without a diagnostic is a crash.

#![no_main]

use grundy::sandbox::calls::program;
use grundy::sandbox::{Mode, on_interpreter_stack, run};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = program(data);
    on_interpreter_stack(move || {
        let ran = run(&text, &Mode::Repl);
        if let Some(problem) = ran.problem(&Mode::Repl) {
            panic!("{problem}\n{text}\n{ran:#?}");
        }
    });
});
