//! The evaluator, after lowering. The [`Machine`] holds what a session has
//! accumulated (definitions, the graph of positions and values, compiled
//! kernels) and everything a run needs (limits, the clock, Ctrl-C). Its
//! behaviour is spread over one submodule per job, each an `impl Machine`
//! block or a helper the others use:
//!
//! - [`interp`]: the expression interpreter (`eval`, calls, patterns,
//!   comprehensions, interning positions);
//! - [`ops`]: operators and integer arithmetic, indexing and slicing;
//! - [`builtins`]: the built-in functions' implementations, with
//!   `numbers` (integer and string helpers), `line` (a game played out)
//!   and `csv` (tables as CSV text);
//! - [`moves`]: move generation, running a game's rules for one position;
//! - [`search`]: the Sprague–Grundy search and the queries built on it;
//! - [`normalize`], [`kernel`], [`mex`]: a game's rules normalised,
//!   compiled to integer loops, and the mex they share with the search;
//! - `show` and `table`: values as text, and the `table(...)` query;
//! - `runaway`: what a limit error says of the play that ran into it.
//!
//! The entry points are [`Machine::eval`] (an expression) and
//! [`Machine::node_value`] (a position's nim-value).

pub mod builtins;
mod csv;
pub mod instances;
pub mod interp;
pub mod kernel;
mod line;
pub mod mex;
pub mod moves;
pub mod normalize;
mod numbers;
pub mod ops;
mod plot;
pub mod queries;
mod runaway;
pub mod search;
mod show;
mod sweep;
mod table;
mod toplevel;
pub mod transitions;

pub use interp::{Collect, Items};
pub use moves::{MoveSink, Running};
pub use toplevel::CompiledQuery;

use crate::defs::Defs;
use crate::diag::{Diagnostic, Phase};
use crate::graph::Graph;
use crate::ir::GameIr;
use crate::progress::{Pulse, human};
use crate::span::Span;
use crate::value::{GameId, Value};
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Errors are boxed so that `Result<Value, _>` stays small on hot paths.
pub type RtResult<T> = Result<T, Box<Diagnostic>>;

/// Limits that turn runaway rule sets into errors instead of hangs. Each
/// has a command-line flag of the same name (`--max-states`, ...).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Positions interned over the whole session.
    pub max_states: usize,
    /// Nested calls of user functions.
    pub max_depth: usize,
    /// Items in one list, set, tuple, string or range made into a list.
    pub max_items: usize,
    /// Wall-clock time of one run (a command, or one REPL entry).
    pub timeout: Option<Duration>,
    /// Resident memory of the process, in bytes: a watcher thread
    /// ([`crate::progress::watch`]) measures it and stops the run.
    pub max_memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: 25_000_000,
            max_depth: 100_000,
            max_items: 10_000_000,
            timeout: None,
            max_memory: None,
        }
    }
}

/// See [`Machine::native_after`]: compiling machine code costs about as
/// much as running this many positions without it.
pub const NATIVE_AFTER: u32 = 4096;

pub struct Machine {
    pub defs: Defs,
    pub graph: Graph,
    pub limits: Limits,
    depth: usize,
    /// The nodes whose rules are running.
    pub running: Running,
    /// Set from another thread (the REPL's Ctrl-C handler) to stop the
    /// evaluation under way; memoized values stay.
    pub cancel: Arc<AtomicBool>,
    /// Counters a watcher thread reads for the progress line, and the
    /// memory limit it measured, if it was exceeded.
    pub pulse: Arc<Pulse>,
    /// When the run under way must stop: set by [`Machine::start_clock`].
    pub(crate) deadline: Option<Instant>,
    /// Evaluation steps, to look at `cancel` only every so often.
    ticks: u32,
    /// The results of functions that call themselves (see
    /// `interp/memo.rs`); emptied when a definition or a `let` changes.
    pub fn_memo: interp::FnMemo,
    /// Emptied frames of finished function calls, to be reused (also by
    /// the arguments of a position being made, and by move generation).
    frames: Vec<Vec<Value>>,
    /// Positions of single nodes, shared while a node recurs.
    positions: crate::value::NodePositions,
    /// The buffer of a move's target, reused by move generation.
    target: Vec<crate::value::Component>,
    /// Where `print(...)` writes.
    pub out: Box<dyn Write>,
    /// When set, `print(...)` keeps its arguments here, with the call's
    /// span, instead of writing them: `--format json` shows them as values.
    pub printed: Option<Vec<(Span, Vec<Value>)>>,
    /// Each game's compiled rules, with the rules they were compiled
    /// from (see [`kernel`]); `None` inside when they cannot be.
    pub(crate) kernels: Vec<Option<Compiled>>,
    /// Each game's kernel for positions whose integers are past what its
    /// own takes (see `kernel::compile_wide`), compiled on first need.
    pub(crate) wide_kernels: Vec<Option<Compiled>>,
    /// Each game's rules compiled to list its moves in the written order
    /// where its kernel does not (see `queries.rs`), on first need.
    pub(crate) listing_kernels: Vec<Option<Compiled>>,
    /// For each game, with the rules it is for: how many leading binders
    /// of each move start a new share of the options the interpreter's
    /// search waits for (see `normalize/shares.rs`), found on first need.
    pub(crate) share_depths: Vec<Option<ShareDepths>>,
    /// For each game, the shapes of a position met with lists or sets of
    /// strings where its rules alone said integers, or a string or tuple
    /// where they said a list, and the lengths of its lists where its
    /// rules keep them: what its rules are compiled again for (see
    /// `search::typing`). Cleared when a game is redefined.
    pub(crate) hints: Vec<kernel::Hints>,
    /// For each game whose rules did not compile, how many of its
    /// positions were looked at for shapes that would type them (a few:
    /// see `search::kernels`).
    pub(crate) typing_tries: Vec<u8>,
    /// Whether to run kernels at all (tests compare runs without them).
    pub use_kernels: bool,
    /// Whether kernels run their machine code, when they have some
    /// (tests compare runs without it).
    pub use_native: bool,
    /// The fewest positions a board, a table's range or a query must have
    /// for machine code to be compiled for it; tests set 0, to run the
    /// machine code on every position (a game's kernel then compiles at
    /// once, rather than after [`kernel::COMPILE_AFTER`]).
    pub native_after: u32,
    /// How many top-level queries their machine code answered (see
    /// `toplevel`): for tests, and `--debug`.
    pub queries_compiled: u64,
    /// How many positions' moves their compiled rules listed for the
    /// queries that name moves (`moves`, `line`, `play`, `graph`; see
    /// `queries.rs`): for tests.
    pub moves_listed: u64,
    /// The last [`toplevel::QUERIES_KEPT`] queries their machine code
    /// answered, for `--explain`.
    pub compiled_queries: std::collections::VecDeque<toplevel::CompiledQuery>,
    /// How many positions a kernel ran one at a time (not in a sweep):
    /// for tests.
    pub kernel_runs: u64,
    /// How many positions the machine code's sweeps of one or two
    /// integers valued (`sweep/mod.rs`): for tests.
    pub native_swept: u64,
    /// How many rows of strips the walks down to their bottom looked at
    /// (see `sweep/strip.rs`): for tests.
    pub strip_rows_walked: u64,
    /// The claims of a board's levels tried (`sweep/mod.rs`:
    /// `claim_levels`), for tests.
    pub levels_claimed: u64,
    /// For each game, how many hashed positions a query asked were
    /// valued in place ([`Machine::value_in_place`]), and how many the
    /// recursion left to the search: for tests, and for when to stop
    /// trying.
    pub in_place: Vec<(u64, u64)>,
    /// For each game with compiled rules, how many of its positions the
    /// interpreter ran instead (arguments the compiled rules do not take,
    /// such as strings, or a value or an error only the interpreter
    /// has), since the rules were compiled: for `--explain`.
    pub interpreted: Vec<u64>,
    /// The games made for fixed values of parameters their rules pass on
    /// unchanged (see [`instances`]).
    pub instances: instances::Instances,
    /// The group sweeps compiled lately, of one-integer games that move
    /// to one another (see `sweep/group.rs`), each with the kernels it
    /// was compiled from: a group whose rules changed is compiled again.
    #[allow(clippy::type_complexity)] // a cache, read in one place
    pub(crate) groups: Vec<(Vec<Rc<kernel::Kernel>>, Option<Rc<kernel::Group>>)>,
    /// Buffers the kernels reuse from one position to the next.
    pub(crate) scratch: Scratch,
    /// Searches' buffers, reused from one query to the next (one per
    /// query nested in rules, which searches inside a search).
    /// Boxed: one is taken out and put back for every position a query
    /// asks, and moving a pointer costs less than moving its buffers.
    #[allow(clippy::vec_box)] // see above
    searches: Vec<Box<search::Search>>,
    /// The rows of strips the walks down from a position last found
    /// without all their values, one entry for each strip and its extra
    /// columns (see `sweep/strip.rs`).
    strip_walked: Vec<sweep::Walked>,
    /// The games whose square a sweep has gone on past positions it
    /// could not value (see `sweep::Skips`): a later sweep stops at the
    /// first, as the search values them, rather than walk them again.
    pub(crate) squares_skipped: rustc_hash::FxHashSet<crate::value::GameId>,
    /// The board whose levels a claim last refused for want of room,
    /// the level it asked up to, and the graph's size then (see
    /// `sweep/mod.rs`: `claim_levels`).
    levels_refused: Option<((GameId, [i64; 6]), i64, usize)>,
    /// Whether `plot(...)` may write files (not in the sandbox, which
    /// runs untrusted source).
    pub write_files: bool,
}

/// A game's rules, and how many leading binders of each move start a
/// new share of the options a search waits for (see `normalize/shares.rs`).
pub(crate) type ShareDepths = (Rc<GameIr>, Rc<[usize]>);

/// A game's rules and their kernel, if they compile.
pub(crate) type Compiled = (Rc<GameIr>, Option<Rc<kernel::Kernel>>);

/// What `cache` holds for `game` (its kernel, or `None` inside when its
/// rules do not compile so), when compiled from the rules `defs` has for
/// it now; `None` when not compiled yet, or from rules since redefined.
pub(crate) fn compiled_for<'a>(
    cache: &'a [Option<Compiled>],
    defs: &Defs,
    game: GameId,
) -> Option<&'a Option<Rc<kernel::Kernel>>> {
    match cache.get(game as usize) {
        Some(Some((rules, kernel))) if defs.game(game).is_some_and(|r| Rc::ptr_eq(rules, r)) => {
            Some(kernel)
        }
        _ => None,
    }
}

/// Keeps in `cache` what `game`'s `rules` compiled to.
pub(crate) fn keep_compiled(cache: &mut Vec<Option<Compiled>>, game: GameId, compiled: Compiled) {
    let slot = game as usize;
    if cache.len() <= slot {
        cache.resize(slot + 1, None);
    }
    cache[slot] = Some(compiled);
}

/// Whether to stop a compiled run: Ctrl-C, or past `deadline` (the
/// interpreter's own poll then says which).
pub(crate) fn stop_asked(
    cancel: &AtomicBool,
    deadline: Option<Instant>,
) -> impl FnMut() -> bool + '_ {
    move || cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)
}

/// Buffers reused by every kernel run.
#[derive(Default)]
pub(crate) struct Scratch {
    pub args: Vec<i64>,
    pub marks: kernel::Marks,
    /// The dense tables of a kernel's targets, for its machine code.
    pub views: Vec<crate::graph::View>,
    /// The values of the options a run found, when it found others
    /// without values and [`kernel::Marks::complete`] holds: what the
    /// position's mex will need besides theirs.
    pub known: Vec<u64>,
    /// The marks of the runs a kernel's machine code nests, one per
    /// depth (see [`kernel::Room`]).
    #[allow(clippy::vec_box)] // boxed: marks added must not move those in use
    pub deep: Vec<Box<kernel::Marks>>,
    /// A position's options as the compiled rules list them, for the
    /// queries that name moves (see `queries.rs`).
    pub listing: kernel::listing::Listing,
}

pub fn error(span: Span, message: impl Into<String>, label: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Phase::Runtime, message).at(span, label))
}

/// The error that unwinds a cancelled evaluation.
fn interrupted() -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(Phase::Interrupted, "evaluation cancelled (Ctrl-C)")
            .note("every definition and every value memoized so far is kept"),
    )
}

/// The error that unwinds an evaluation that went over `--max-memory`.
fn out_of_memory(used: u64, limit: u64) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(
            Phase::Limit,
            format!(
                "the memory limit of {} was reached ({} in use)",
                human(limit),
                human(used)
            ),
        )
        .help("raise the limit with --max-memory, or check that the rules make positions smaller")
        .note("every value computed so far is kept in the session"),
    )
}

/// The error that unwinds an evaluation past its time limit.
fn timed_out(limit: Duration) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(
            Phase::Limit,
            format!("the time limit of {} was reached", show_duration(limit)),
        )
        .help("raise the limit with --timeout, or ask about smaller positions first")
        .note("every value computed so far is kept in the session"),
    )
}

/// `1.5s`, `250ms`, `2m`: how `--timeout` is written back to the user.
pub fn show_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms.is_multiple_of(60_000) {
        format!("{}m", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

fn type_error(span: Span, expected: &str, found: &Value) -> Box<Diagnostic> {
    error(
        span,
        format!("expected {expected}, found {}", found.type_name()),
        format!("this is {}", found.type_name()),
    )
}

impl Machine {
    /// How many list positions the machine code has looked up by a helper
    /// rather than read from a dense table itself (see
    /// `kernel/native/emit/forms.rs`): for tests.
    pub fn lists_looked_up(&self) -> u64 {
        self.scratch.marks.looked_up
    }

    /// Whether compiled rules may run: unless the tests turned them off, or
    /// `--max-items` is below the length of the lists they make (up to
    /// [`kernel::ITEMS_MAX`], past which they leave a position to the
    /// interpreter): a list that the limit forbids must get its error
    /// from the interpreter, as it would have without them.
    pub(crate) fn compiled_rules(&self) -> bool {
        self.use_kernels && self.items_limit_off().is_none()
    }

    /// `--max-items` and the longest list the compiled rules make, when
    /// the limit is below it and so turns them off (see
    /// [`Machine::compiled_rules`]): for `--explain` to say so.
    pub fn items_limit_off(&self) -> Option<(usize, usize)> {
        let (limit, longest) = (self.limits.max_items, kernel::ITEMS_MAX);
        (self.use_kernels && limit < longest).then_some((limit, longest))
    }
}

impl Machine {
    pub fn new(out: Box<dyn Write>) -> Machine {
        Machine {
            defs: Defs::default(),
            graph: Graph::default(),
            limits: Limits::default(),
            depth: 0,
            running: Running::default(),
            cancel: Arc::default(),
            pulse: Arc::default(),
            deadline: None,
            ticks: 0,
            fn_memo: interp::FnMemo::default(),
            frames: Vec::new(),
            positions: Default::default(),
            target: Vec::new(),
            out,
            printed: None,
            kernels: Vec::new(),
            wide_kernels: Vec::new(),
            listing_kernels: Vec::new(),
            share_depths: Vec::new(),
            groups: Vec::new(),
            hints: Vec::new(),
            typing_tries: Vec::new(),
            use_kernels: true,
            use_native: true,
            native_after: NATIVE_AFTER,
            queries_compiled: 0,
            moves_listed: 0,
            compiled_queries: Default::default(),
            kernel_runs: 0,
            native_swept: 0,
            strip_rows_walked: 0,
            levels_claimed: 0,
            in_place: Vec::new(),
            interpreted: Vec::new(),
            instances: Default::default(),
            scratch: Scratch::default(),
            searches: Vec::new(),
            strip_walked: Vec::new(),
            squares_skipped: Default::default(),
            levels_refused: None,
            write_files: true,
        }
    }

    /// Starts the time limit, if there is one, and the progress line's
    /// clock for the run about to begin.
    pub fn start_clock(&mut self) {
        self.deadline = self.limits.timeout.map(|t| Instant::now() + t);
        self.pulse.begin();
    }

    /// Stops the evaluation if Ctrl-C was pressed, the memory limit was
    /// met, or time is up. Every few thousand steps: it also tells the
    /// progress line how far the run got.
    pub(crate) fn poll(&self) -> RtResult<()> {
        self.pulse.positions(self.graph.len());
        if self.cancel.load(Ordering::Relaxed) {
            return Err(match (self.pulse.over_memory(), self.limits.max_memory) {
                (Some(used), Some(limit)) => out_of_memory(used, limit),
                _ => interrupted(),
            });
        }
        match (self.deadline, self.limits.timeout) {
            (Some(deadline), Some(limit)) if Instant::now() >= deadline => Err(timed_out(limit)),
            _ => Ok(()),
        }
    }

    /// Makes the machine usable again after a bug panicked in the middle
    /// of an evaluation: nothing is running, and no value is trusted (a
    /// search may have left positions marked as in progress). Definitions
    /// and positions stay.
    pub fn recover_from_panic(&mut self) {
        self.depth = 0;
        self.running = Running::default();
        self.scratch = Scratch::default();
        self.searches.clear();
        self.graph.clear_values();
        self.pulse.end();
    }

    pub fn game_ir(&self, id: GameId) -> Rc<GameIr> {
        self.defs
            .game(id)
            .cloned()
            .expect("lowering defines every game it declares")
    }
}
