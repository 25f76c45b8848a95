//! Running a rule file on each of the evaluator's paths in a session of
//! its own, and comparing what they print and report: the differential
//! tests' harness.
#![allow(dead_code)] // not every test file uses every helper

use super::Engine;
use grundy::SharedBuffer;
use grundy::diag::Phase;
use grundy::session::Session;
use proptest::prelude::*;

/// Runs `text` on one of the engine's paths: what it printed, what it
/// reported, and the phase of the error that stopped it.
pub fn run(text: &str, engine: Engine) -> (String, String, Option<Phase>) {
    run_counting(text, engine).0
}

/// [`run`], with the number of top-level queries machine code answered.
pub fn run_counting(text: &str, engine: Engine) -> ((String, String, Option<Phase>), u64) {
    run_with(text, engine, |_| {})
}

/// [`run_counting`] with room for `max_states` positions.
pub fn run_counting_among(
    text: &str,
    engine: Engine,
    max_states: usize,
) -> ((String, String, Option<Phase>), u64) {
    run_with(text, engine, |m| {
        m.limits.max_states = max_states;
        m.limits.timeout = None;
    })
}

/// [`run`] under `--max-depth max_depth`.
pub fn run_at_depth(
    text: &str,
    engine: Engine,
    max_depth: usize,
) -> (String, String, Option<Phase>) {
    run_with(text, engine, |m| m.limits.max_depth = max_depth).0
}

fn run_with(
    text: &str,
    engine: Engine,
    set: impl FnOnce(&mut grundy::runtime::Machine),
) -> ((String, String, Option<Phase>), u64) {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    engine.apply(&mut session.machine);
    session.machine.limits.max_states = 3_000;
    // A random range can be long; such a file is not worth waiting for.
    session.machine.limits.timeout = Some(std::time::Duration::from_secs(2));
    set(&mut session.machine);
    session.machine.start_clock();
    let outcome = session.run("random.game", text);
    let text = |b: &SharedBuffer| String::from_utf8(b.0.borrow().clone()).unwrap();
    let counted = session.machine.queries_compiled;
    ((text(&out), text(&err), outcome.error), counted)
}

/// Runs `file` with the interpreter, the kernels and the machine code,
/// and checks that they agree, as far as they must.
pub fn compare(file: &str) -> Result<(), TestCaseError> {
    compare_among(file, 3_000)
}

/// [`compare`] with room for `max_states` positions.
pub fn compare_among(file: &str, max_states: usize) -> Result<(), TestCaseError> {
    let run = |file: &str, engine| run_with(file, engine, |m| m.limits.max_states = max_states).0;
    let interpreted = run(file, Engine::Interpreter);
    for compiled in [run(file, Engine::Kernels), run(file, Engine::Native)] {
        if interpreted.2 == Some(Phase::Limit) {
            // The kernels make positions in another order, so the position
            // that is one too many may differ; the limit is still met (or,
            // for the time limit, may not be: the kernels are faster).
            // A game that is both large and cyclic: the interpreter makes
            // every option's position as it expands one, the kernels only
            // those without values they record (32 a move), so they may
            // go deeper before the limit and meet the cycle first.
            if interpreted.1.contains("time limit") {
                // Faster, the compiled rules may get further (and then
                // meet anything): what the interpreter printed in time,
                // they printed too. Out of time as well (compiling takes
                // long in a debug build), either may have got further.
                let (long, short) = match compiled.1.contains("time limit")
                    && compiled.0.len() < interpreted.0.len()
                {
                    true => (&interpreted.0, &compiled.0),
                    false => (&compiled.0, &interpreted.0),
                };
                prop_assert!(
                    long.starts_with(short.as_str()),
                    "{}\n{}\n{}",
                    file,
                    compiled.0,
                    interpreted.0
                );
            } else if is_cycle(&compiled) {
                prop_assert_eq!(&compiled.0, &interpreted.0, "{}", file);
            } else if compiled.2 == Some(Phase::Runtime) {
                error_before_the_limit(file, &compiled, 10 * max_states)?;
            } else {
                prop_assert_eq!(compiled.2, Some(Phase::Limit), "{}\n{}", file, compiled.1);
            }
        } else if is_cycle(&interpreted) && is_cycle(&compiled) {
            // A game with several cycles: the compiled rules meet options in
            // another order (a binder over `reversed(...)` runs forwards),
            // so the search may meet another cycle first. Each is told from
            // its least position; what was printed before is the same.
            prop_assert_eq!(&compiled.0, &interpreted.0, "{}", file);
        } else if compiled.1.contains("time limit") {
            // Too slow even compiled; nothing to compare.
        } else if another_play(&compiled, &interpreted) {
            // The same error at the same position and move, reached by
            // another play: where the compiled rules meet options in
            // another order (a binder over `reversed(...)` runs forwards;
            // docs/architecture.md, "Not done yet"), the search may reach
            // the failing position through another of its ancestors.
            // What was printed before is the same.
            prop_assert_eq!(&compiled.0, &interpreted.0, "{}", file);
        } else {
            prop_assert_eq!(&compiled, &interpreted, "{}", file);
        }
    }
    Ok(())
}

/// The compiled rules stopped on an error where the interpreter met the
/// limit of positions first: it makes the positions of all a position's
/// options as it expands it, the compiled rules one option at a time, so
/// they may go deeper before the limit (by `g(9) -> g(3600)`, whose 17,000
/// options are one too many for the interpreter) and meet an error there
/// (at `g(204947856)`). With room for ten times the positions, the
/// interpreter must meet the same error and print the same, or meet the
/// limit or time limit again, having printed no more than the compiled rules.
fn error_before_the_limit(
    file: &str,
    compiled: &(String, String, Option<Phase>),
    roomy: usize,
) -> Result<(), TestCaseError> {
    let roomy = run_with(file, Engine::Interpreter, |m| m.limits.max_states = roomy).0;
    if roomy.2 == Some(Phase::Limit) {
        prop_assert!(compiled.0.starts_with(roomy.0.as_str()), "{}", file);
    } else {
        prop_assert_eq!(compiled, &roomy, "{}", file);
    }
    Ok(())
}

/// Whether two runs stopped on the same error, reported alike but for the
/// play that reached the failing position.
fn another_play(a: &(String, String, Option<Phase>), b: &(String, String, Option<Phase>)) -> bool {
    let without = |report: &str| -> Vec<String> {
        (report.lines())
            .filter(|l| !l.contains("reached by the play"))
            .map(str::to_owned)
            .collect()
    };
    a.2 == Some(Phase::Runtime) && b.2 == Some(Phase::Runtime) && without(&a.1) == without(&b.1)
}

/// Whether a run stopped at a position that can be reached from itself.
pub fn is_cycle(run: &(String, String, Option<Phase>)) -> bool {
    run.2 == Some(Phase::Runtime) && run.1.contains("can be reached from itself")
}

/// [`run`] with time enough for a file written by hand, which must
/// finish: a minute (the interpreter of a debug build on a busy machine
/// can take seconds over a deep recursion).
pub fn run_patiently(text: &str, engine: Engine) -> (String, String, Option<Phase>) {
    let minute = std::time::Duration::from_secs(60);
    run_with(text, engine, |m| m.limits.timeout = Some(minute)).0
}

/// Runs `text` both ways and checks that they agree; returns what it printed.
pub fn agree(text: &str) -> String {
    let interpreted = run_patiently(text, Engine::Interpreter);
    assert_eq!(run_patiently(text, Engine::Kernels), interpreted, "{text}");
    assert_eq!(run_patiently(text, Engine::Native), interpreted, "{text}");
    assert_eq!(interpreted.2, None, "{}", interpreted.1);
    interpreted.0
}

/// Runs `text`, which must stop on an error whose report contains
/// `needle`, and checks that every path reports it alike.
pub fn same_error(text: &str, needle: &str) {
    let interpreted = run_patiently(text, Engine::Interpreter);
    assert!(interpreted.1.contains(needle), "{}", interpreted.1);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_patiently(text, engine), interpreted, "{text}");
    }
}

/// Runs `text` with machine code: compiled rules ran (a kernel's run of
/// a position, or a machine-code sweep, which may value every position
/// with no kernel run), and no position of a compiled game goes to the
/// interpreter.
pub fn runs_compiled_throughout(text: &str) {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("compiled.game", text).error, None, "{text}");
    let ran = session.machine.kernel_runs + session.machine.native_swept;
    assert!(ran > 0, "{text}");
    assert_eq!(session.machine.interpreted.iter().sum::<u64>(), 0, "{text}");
}

/// Runs `text` (which must run cleanly) with machine code: what it
/// printed, and how many positions' moves the compiled rules listed for
/// `moves(...)` and the other queries that name moves.
pub fn moves_listed(text: &str) -> (String, u64) {
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("listed.game", text).error, None, "{text}");
    let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
    (printed, session.machine.moves_listed)
}

/// Whether game `name`, as `text` (which must run cleanly) defines it,
/// compiles to machine code, as `--explain` says.
pub fn machine_code_for(text: &str, name: &str) -> bool {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    assert_eq!(session.run("rules.game", text).error, None, "{text}");
    let defs = &session.machine.defs;
    let Some(grundy::defs::Global::Game(id)) = defs.lookup(name) else {
        panic!("no game {name} in {text}");
    };
    grundy::explain::game(defs.game(id).expect("the rules"), defs).native
}

/// Runs `text`, which makes more than 3,000 positions, on the interpreter
/// and the machine code: each stops at the limit of positions.
pub fn meets_the_position_limit(text: &str) {
    for engine in [Engine::Interpreter, Engine::Native] {
        let (_, err, phase) = run(text, engine);
        assert_eq!(phase, Some(Phase::Limit), "{err}");
        assert!(err.contains("positions"), "{err}");
    }
}

/// Runs `text`, which must run cleanly and reach more than `least`
/// positions, with the interpreter and with machine code: both reach as
/// many, and a limit of one fewer stops the machine code.
pub fn counts_every_position(text: &str, least: usize) {
    let reached = |engine: Engine, max_states: usize| {
        let mut session = Session::new(
            Box::new(SharedBuffer::default()),
            Box::new(SharedBuffer::default()),
        );
        engine.apply(&mut session.machine);
        session.machine.limits.max_states = max_states;
        session.machine.start_clock();
        let outcome = session.run("counted.game", text);
        (session.machine.graph.reached(), outcome.error)
    };
    let (all, error) = reached(Engine::Interpreter, 1_000_000);
    assert_eq!(error, None);
    assert!(all > least, "{all} positions");
    assert_eq!(reached(Engine::Native, 1_000_000), (all, None));
    let (_, error) = reached(Engine::Native, all - 1);
    assert_eq!(
        error,
        Some(Phase::Limit),
        "{all} positions, a limit of one fewer"
    );
}
