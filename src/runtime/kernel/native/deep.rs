//! Options of a kernel's own game evaluated where the machine code meets
//! them. A position of one or two integers outside the dense tables (a
//! heap of 10^15 divided by 2, 3 or 6), or a position with list, set or
//! string arguments (a set of numbers left, a row of coins), is otherwise
//! handed back to the search when it has no value yet: interned there,
//! pushed on the search path, run, and its parent run again. Here
//! [`unusual`](super::helpers::unusual) and [`flat`](super::helpers::flat)
//! run the option's machine code themselves, with marks of their own, as
//! a hand-written memoized recursion would, and the parent's run goes on
//! with the value.
//!
//! Only the hashed positions are interned this way, and the triples of
//! a strip (`graph::index::STRIP3_WIDTH`) whose slots exist: the dense
//! tables the running code reads through its views do not change under
//! it. Anything the recursion cannot finish leaves no trace but
//! interned positions without values:
//! - an option the machine code leaves (an error, a cycle, Ctrl-C) makes
//!   every run up the recursion leave its position too, each reset to
//!   having no value, and the search takes the first position over as it
//!   did before;
//! - an option that is missing a value the recursion does not find
//!   itself (another game's, or one past [`DEPTH`]) ends the recursion:
//!   the positions on its way are reset, and the options that run missed
//!   are what the first position reports as missing (see [`Deep::frontier`]).
//!   The search evaluates those, which recurse again below them, and
//!   then runs the first position again. So a chain of any length is run
//!   about twice per position, and the Rust stack stays [`DEPTH`] runs
//!   deep.

use super::{BAIL, Call, Code, MISSING, VALUED};
use crate::defs::Defs;
use crate::graph::{DENSE_END, Dense, Graph, IN_PROGRESS, UNKNOWN, View};
use crate::runtime::kernel::marks::POLL_EVERY;
use crate::runtime::kernel::{Kernel, Marks, Missing};
use crate::value::{GameId, NodeId};

/// How many runs the recursion nests at most.
pub const DEPTH: usize = 96;

/// What the search lends a run to evaluate options in place: the marks
/// of each depth (boxed, so that a deeper one added does not move those
/// in use), and the `--max-states` limit the positions interned respect.
pub struct Room<'a> {
    #[allow(clippy::vec_box)] // see above
    pub pool: &'a mut Vec<Box<Marks>>,
    pub max_states: usize,
}

/// One recursion, shared by every run in it through the context's
/// pointer; only ever borrowed for a moment, never across a run.
pub(super) struct Deep<'a> {
    pub code: Code,
    pub kernel: &'a Kernel,
    pub defs: &'a Defs,
    pub graph: *mut Graph,
    pub views: &'a [View],
    pub room: Room<'a>,
    pub poll: &'a mut dyn FnMut() -> bool,
    /// How many runs are under way below the first.
    pub depth: usize,
    /// Work done by the runs below the first, and when to poll next.
    pub work: usize,
    pub next_poll: usize,
    /// Set by the first run below that ended missing values: see
    /// [`Frontier`].
    pub frontier: Option<Frontier>,
}

/// Where a recursion ended: the options the run that missed values
/// missed (and their arguments, one after another), and the positions
/// whose runs were under way down to it, the deepest first: the play the
/// first position reports, for the search to put on its path as it is
/// (so that a cycle or an error is told along the moves made).
pub struct Frontier {
    pub missing: Vec<Missing>,
    pub args: Vec<i64>,
    /// The arguments of each position on the play, the deepest first.
    pub play: Vec<i64>,
    /// How many arguments each has (a flat run's length).
    pub lengths: Vec<u32>,
}

/// The value of `game(args)`, whose slot held no value, found by running
/// its machine code here; [`MISSING`] or [`BAIL`] when that run left it;
/// `None` when the position is not one to run here (another game, a
/// dense position, no room in the graph, too deep). `absent`: the graph
/// has no such position (its slot was [`crate::graph::ABSENT`]).
///
/// # Safety
/// `deep` is the recursion's, alive for the whole call, with no borrow
/// of it live in the caller; no run reads the graph's hashed positions
/// through a reference held across this call.
pub(super) unsafe fn evaluate(
    deep: *mut Deep,
    game: GameId,
    args: &[i64],
    absent: bool,
) -> Option<u64> {
    // SAFETY: as the caller promises; dropped before the run below.
    let d = unsafe { &mut *deep };
    if d.frontier.is_some() {
        // The recursion is ending: nothing more is run.
        return Some(MISSING);
    }
    if !d.runs(game, false) {
        return None;
    }
    // SAFETY: the graph outlives the recursion; its hashed positions
    // change here only, between runs, and no view reads them.
    let graph = unsafe { &mut *d.graph };
    let room = graph.reached() < d.room.max_states;
    // A position not there a moment ago is added with no second probe.
    let (node, slot) = match graph.intern_in_strip(game, args, room) {
        Some(found) => found.map(|(node, slot)| (node, Some(slot))),
        None if absent && room => graph.add_hashed_ints(game, args)?.map(|node| (node, None)),
        None => graph
            .intern_hashed_ints(game, args, room)?
            .map(|node| (node, None)),
    }?;
    // SAFETY: as the caller promises.
    unsafe { run_at(deep, (node, slot), args) }
}

/// [`evaluate`] of one or two integers too large to be dense, asked
/// before anything has looked them up: found, or made, in one probe of
/// the hashed positions, and its value read there or run. The usual
/// path looked the position up (a probe), then made it (another), then
/// marked it in progress: the divide-by-2/3/6 game's recursion spent a
/// quarter of its instructions on those. `None` where the usual path
/// decides: not such a position (dense, or of a kernel that takes
/// lists), in progress, no room for it, the recursion ending or out of
/// depth, another game's.
///
/// # Safety
/// As for [`evaluate`].
pub(super) unsafe fn evaluate_ints(deep: *mut Deep, game: GameId, args: &[i64]) -> Option<u64> {
    // SAFETY: as the caller promises; dropped before the run below.
    let d = unsafe { &mut *deep };
    if d.frontier.is_some() || !d.runs(game, false) {
        return None;
    }
    // SAFETY: as in `evaluate`.
    let graph = unsafe { &mut *d.graph };
    let room = graph.reached() < d.room.max_states;
    match graph.claim_hashed_ints(game, args, room)?? {
        // SAFETY: as the caller promises.
        (node, UNKNOWN) => unsafe { run_marked(deep, (node, None), args, true) },
        (_, value) if value < VALUED => Some(value),
        _ => None,
    }
}

/// [`evaluate`] of a triple in a strip of the game's dense table, asked
/// before anything has looked it up: its slot is found (the position
/// made, if it is new) in one placing, and read. Its value, if it has
/// one; else it is run as [`evaluate`] runs it. `None` where the usual
/// path decides: not such a triple, in progress, a value too large for
/// its slot, the recursion ending or out of room, or a triple hashed
/// before its strip's row reached it. A recursion's option
/// of three integers took two placings (its value looked up, then the
/// position made): a heap and two counters spent a seventh of their
/// instructions on the first.
///
/// # Safety
/// As for [`evaluate`].
pub(super) unsafe fn evaluate_strip(deep: *mut Deep, game: GameId, args: &[i64]) -> Option<u64> {
    // SAFETY: as the caller promises; dropped before the run below.
    let d = unsafe { &mut *deep };
    if d.frontier.is_some() || !d.runs(game, false) {
        return None;
    }
    // SAFETY: as in `evaluate`.
    let graph = unsafe { &mut *d.graph };
    // A triple hashed before its strip's row reached it is the usual
    // lookup's, not made again in the row.
    if graph.find_hashed_ints(game, args).is_some() {
        return None;
    }
    let room = graph.reached() < d.room.max_states;
    let (node, slot) = graph.intern_in_strip(game, args, room)??;
    // SAFETY: the slot of `node`, as `intern_in_strip` gives it; nothing
    // else borrows the graph's rows.
    match Dense::code_value(unsafe { *slot })? {
        UNKNOWN => unsafe { run_at(deep, (node, Some(slot)), args) },
        IN_PROGRESS => None,
        value => Some(value),
    }
}

/// [`evaluate`] of a position whose arguments are the flat run `run`
/// ([`crate::graph::flat`]), of a kernel that takes lists.
///
/// # Safety
/// As for [`evaluate`].
pub(super) unsafe fn evaluate_flat(deep: *mut Deep, game: GameId, run: &[i64]) -> Option<u64> {
    // SAFETY: as the caller promises; dropped before the run below.
    let d = unsafe { &mut *deep };
    if d.frontier.is_some() {
        return Some(MISSING);
    }
    if !d.runs(game, true) {
        return None;
    }
    // SAFETY: as in `evaluate`.
    let graph = unsafe { &mut *d.graph };
    let room = graph.reached() < d.room.max_states;
    let node = graph.intern_hashed_flat(game, run, room)??;
    // SAFETY: as the caller promises.
    unsafe { run_at(deep, (node, None), run) }
}

/// Runs the kernel's machine code on `node`, a position of its game
/// with arguments `args` (integers, or a flat run for a kernel that
/// takes lists) and no value yet, one depth down: as [`evaluate`] says.
/// `slot`: its slot, where the caller has it already.
///
/// # Safety
/// As for [`evaluate`]; `slot` is `node`'s, as [`Graph::intern_in_strip`]
/// gives it.
pub(super) unsafe fn run_at(
    deep: *mut Deep,
    (node, slot): (NodeId, Option<*mut u32>),
    args: &[i64],
) -> Option<u64> {
    // SAFETY: as the caller promises.
    unsafe { run_marked(deep, (node, slot), args, false) }
}

/// [`run_at`], of a position already marked [`IN_PROGRESS`] when
/// `marked` ([`Graph::claim_hashed_ints`] marks it as it finds it).
///
/// # Safety
/// As for [`run_at`].
unsafe fn run_marked(
    deep: *mut Deep,
    (node, slot): (NodeId, Option<*mut u32>),
    args: &[i64],
    marked: bool,
) -> Option<u64> {
    // SAFETY: as the caller promises; dropped before the run below.
    let d = unsafe { &mut *deep };
    if d.room.pool.len() <= d.depth {
        d.room.pool.push(Box::default());
    }
    let marks: *mut Marks = &mut *d.room.pool[d.depth];
    // SAFETY: the marks are this depth's, used by no run under way.
    let marks = unsafe { &mut *marks };
    let mut arena = std::mem::take(&mut marks.frame);
    arena.clear();
    // A triple of a strip is marked and set in its slot, found when it
    // was made: the recursion makes no position where a row would grow,
    // so the slot stays where it is for the whole run (as the rows the
    // running code reads do). A hashed position is set by its number.
    let set = |graph: &mut Graph, value: u64| set_value(graph, (node, slot), value);
    // A kernel that takes lists reads its arguments from the arena's
    // start, as its first run does (see `Native::mex`).
    if d.kernel.takes_lists() && !d.kernel.load(args, &mut arena) {
        // Never a position marked already: only integers are claimed.
        debug_assert!(!marked, "a claimed position left in progress");
        marks.frame = arena;
        return None;
    }
    arena.reserve(super::ARENA);
    let given = match d.kernel.takes_lists() {
        true => arena.as_ptr(),
        false => args.as_ptr(),
    };
    if !marked {
        // SAFETY: as in `evaluate`.
        set(unsafe { &mut *d.graph }, IN_PROGRESS);
    }
    d.depth += 1;
    let call = Call {
        targets: &d.kernel.targets,
        single: d.kernel.single,
        defs: d.defs,
        graph: d.graph,
        views: d.views,
        own: std::ptr::null(),
        deep,
    };
    let code = d.code;
    let (found, work) = call.run(code, (given as u64, 0), 1, (marks, &mut arena));
    marks.frame = arena;
    // SAFETY: the run is over; nothing else borrows the recursion.
    let d = unsafe { &mut *deep };
    d.depth -= 1;
    let stop = d.charge(work as usize);
    // SAFETY: as above.
    let graph = unsafe { &mut *d.graph };
    Some(d.ended(graph, ((node, slot), args), found, (stop, marks)))
}

impl Deep<'_> {
    /// What a run of `node` (its slot `slot`, its arguments `args`) that
    /// returned `found` leaves: its value set, or the position reset to
    /// no value where the run left it to the search (`stop`: Ctrl-C or
    /// the time limit), the recursion ending where it missed values
    /// (`marks`: the options it missed). The run's result for its caller.
    fn ended(
        &mut self,
        graph: &mut Graph,
        ((node, slot), args): ((NodeId, Option<*mut u32>), &[i64]),
        found: u64,
        (stop, marks): (bool, &mut Marks),
    ) -> u64 {
        let set = |graph: &mut Graph, value: u64| set_value(graph, (node, slot), value);
        match found {
            // Left to the kernel's run (an error, a cycle), or Ctrl-C or the
            // time limit: this position is the search's again.
            _ if stop || found == BAIL => {
                set(graph, UNKNOWN);
                BAIL
            }
            MISSING => {
                set(graph, UNKNOWN);
                if self.frontier.is_none() {
                    if marks.missing.is_empty() {
                        return BAIL;
                    }
                    self.frontier = Some(Frontier {
                        missing: std::mem::take(&mut marks.missing),
                        args: std::mem::take(&mut marks.missing_args),
                        play: Vec::new(),
                        lengths: Vec::new(),
                    });
                }
                // This position's run was under way when the recursion ended.
                let frontier = self.frontier.as_mut().expect("set above");
                frontier.play.extend_from_slice(args);
                frontier.lengths.push(args.len() as u32);
                MISSING
            }
            found => {
                let (value, options) = (found & 0xffff_ffff, found >> 32);
                set(graph, value);
                if options == 0 {
                    graph.set_terminal(node);
                }
                value
            }
        }
    }
}

/// Writes `value` as `node`'s: in `slot`, where the run has it and the
/// value fits there, else by the node's number. Inlined: a closure for
/// it was a call of 43 instructions, twice a position.
#[inline(always)]
fn set_value(graph: &mut Graph, (node, slot): (NodeId, Option<*mut u32>), value: u64) {
    match slot.zip(Dense::slot_code(value)) {
        // SAFETY: the slot of `node`, in place for the run (see
        // `run_marked`); nothing else borrows the graph's rows while it
        // is written.
        Some((slot, code)) => unsafe { *slot = code },
        None if node.index >= DENSE_END => graph.set_hashed_value(node, value),
        None => graph.set_value(node, value),
    }
}

impl<'a> Deep<'a> {
    /// A recursion whose first run is of `code`, the mex function of
    /// `kernel`, reading the graph through `views`.
    pub(super) fn new(
        code: Code,
        (kernel, defs, graph, views): (&'a Kernel, &'a Defs, *mut Graph, &'a [View]),
        room: Room<'a>,
        poll: &'a mut dyn FnMut() -> bool,
    ) -> Deep<'a> {
        Deep {
            code,
            kernel,
            defs,
            graph,
            views,
            room,
            poll,
            depth: 0,
            work: 0,
            next_poll: POLL_EVERY,
            frontier: None,
        }
    }

    /// Whether a position of `game` is one this recursion runs itself:
    /// of the kernel's own game, with list arguments where the kernel
    /// takes lists (`lists`) and integers where not, and not too deep.
    fn runs(&self, game: GameId, lists: bool) -> bool {
        game == self.kernel.game && self.depth < DEPTH && self.kernel.takes_lists() == lists
    }

    /// Counts `work` done by a run below; whether to stop (Ctrl-C, the
    /// time limit), looked at every [`POLL_EVERY`] units.
    fn charge(&mut self, work: usize) -> bool {
        self.work = self.work.wrapping_add(work);
        if self.work < self.next_poll {
            return false;
        }
        self.next_poll = self.work.saturating_add(POLL_EVERY);
        (self.poll)()
    }
}
