//! Phase 4c: a kernel's moves compiled to machine code with Cranelift.
//! [`compile`] turns a [`Kernel`] (binders, guard conjuncts, terms) into
//! one function per game that computes the mex of a position whose
//! options all have values, reading the options' values straight from
//! the graph's dense tables (see [`crate::graph::View`]).
//!
//! The machine code never decides anything hard. Whenever a run meets
//! something unusual (an option without a value, one outside the dense
//! tables, an overflow, a division by zero, a value past the mex's
//! marks, or too much work for one call) it returns [`BAIL`], and the
//! kernel's own run ([`Kernel::mex`]) does the position over, as it did
//! before there was machine code. So the compiled code only has to agree
//! with the kernel on positions it finishes: the same options in the
//! same order, with checked arithmetic where the kernel checks.

pub mod deep;
mod emit;
pub(super) mod group;
mod helpers;
mod jit;
mod own;
pub(super) mod query;

use super::{Found, Kernel, Marks, Stop};
use crate::defs::Defs;
use crate::graph::{Graph, View};
use crate::value::{GameId, NodeId};
use cranelift_jit::JITModule;
use emit::Kind;
use jit::Jit;

/// What the compiled code returns when it leaves the position to the
/// kernel's run.
pub const BAIL: u64 = u64::MAX;

/// What the mex function returns when an option's position has no value
/// yet: the options without one are in [`Marks::missing`].
pub const MISSING: u64 = u64::MAX - 1;

/// Set in what the sweep returns when it paused after enough work.
pub const PAUSED: u64 = 1 << 63;

/// Set in what the sweep of one or two integers returns when it stopped
/// at a position without options: the caller values it 0, records it as
/// terminal and goes on after it, rather than leave it to the kernel's
/// run (Euclid's game kept in order, whose half of the square below the
/// diagonal is terminal, ran every one of those: 3.5x the sweep).
pub const TERMINAL: u64 = 1 << 62;

/// The graph's value slots below this are values; at or past it, the
/// graph's marks of a position without one ([`crate::graph::UNKNOWN`],
/// in progress, absent), which the helpers and the machine code leave to
/// the kernel's run.
const VALUED: u64 = 1 << 62;

/// What [`helpers::unusual`] needs: the graph, the marks (for the options without
/// a value), and the kernel's targets; and where the mex function says
/// how much work it did.
#[repr(C)]
pub(super) struct Ctx<'a> {
    work: u64,
    /// Read by the helpers during a kernel's call; null in a query's,
    /// whose helpers change the graph (see [`query`]).
    graph: *const Graph,
    marks: *mut Marks,
    targets: &'a [(GameId, usize)],
    /// The arena of lists (see `emit/lists.rs`): its base, its first free
    /// index, and its capacity, in `i64`s.
    arena: *mut i64,
    top: u64,
    cap: u64,
    /// The move being run, as its share of the options without values is
    /// named (see [`Marks::in_rule`]).
    rule: u64,
    /// The number of options, written by the mex function when it
    /// returns [`MISSING`].
    options: u64,
    /// A query's: who answers its `value(...)`s (a `*mut &mut dyn
    /// query::Asker`, null in a kernel's call), and where it writes its
    /// result.
    asker: *mut std::ffi::c_void,
    out: i64,
    /// A kernel's: the definitions its compiled functions read (null in
    /// a query's, whose asker has them); and where [`helpers::call`] writes what
    /// a function returned, and the trampolines that keep every register
    /// (`jit::kept`) what `unusual`, `unusual3` or `flat` returned.
    defs: *const Defs,
    ret: i64,
    /// How deep the machine code's calls of functions nest (see
    /// `emit/func.rs`), and the deepest they have nested since a call
    /// that is remembered started (see `emit/memo.rs`).
    depth: i64,
    deepest: i64,
    /// A kernel's mex run's: the recursion that evaluates the options of
    /// its own game in place (see [`deep`]); null in any other call.
    deep: *mut deep::Deep<'a>,
    /// Set by a sweep of one or two integers at each position, to 1 where
    /// it has no options, where the sweep then stops (see
    /// `emit::levels::valued`): what it returns is then flagged
    /// [`TERMINAL`].
    terminal: u64,
    /// The views of the targets, in their order: where the machine code
    /// finds a target's hashed positions (`emit/hashed.rs`). Read from
    /// here, rather than passed, so that the only value a read of them
    /// needs beside its arguments is the context, which every helper's
    /// call needs already.
    views: *const View,
}

/// `n` zeros, in memory whose pages the system gives when first used.
pub(in crate::runtime::kernel) fn zeroed(n: usize) -> Box<[std::cell::Cell<i64>]> {
    let zeros = vec![0i64; n].into_boxed_slice();
    // SAFETY: `Cell<i64>` has the layout of `i64`.
    unsafe { Box::from_raw(Box::into_raw(zeros) as *mut [std::cell::Cell<i64>]) }
}

/// The room the arena has for the lists a run makes, in `i64`s, beyond
/// the position's own.
const ARENA: usize = 1 << 12;

/// A compiled function: its arguments are (1) the position's arguments,
/// or the first position to sweep, (2) the end of the sweep, (3) the
/// mex's marks, (4) their number, (5) the first stamp to write (see
/// [`crate::runtime::mex::Mex::stamps`]), (6) a [`View`] of the dense
/// table of each of the kernel's targets, in its order, and (7) a view of
/// the game's own table, for a sweep, and (8) the context of [`helpers::unusual`].
/// The mex function returns the mex with the number of options in the
/// high 32 bits, [`MISSING`] or [`BAIL`]; the sweep, where it stopped.
type Code =
    unsafe extern "C" fn(u64, u64, *mut u32, u64, u64, *const View, *const View, *mut Ctx) -> u64;

/// A kernel's machine code, and the module that owns its memory.
pub struct Native {
    /// The function that runs one position: compiled with the others
    /// when the kernel has no other or calls functions of its own
    /// (compiled apart, it would compile them again), else when needed,
    /// in a module of its own ([`Native::mex_code`]). A game swept by dense index,
    /// by levels, rows or a cube seldom runs a position alone (King's
    /// moves in a box of 120³ never do), and its mex function cost about
    /// as much to compile as the sweep.
    mex: std::cell::OnceCell<Option<(Code, Memory)>>,
    /// The sweep by dense index: a game of one argument's, or of two
    /// (the square's: [`Kind::Square`]); of four, along a row
    /// ([`Kind::Quad`]).
    pub(super) sweep: Option<Code>,
    /// For a board swept by levels ([`Kernel::native_levels`]).
    levels: Option<Code>,
    /// For a strip swept by rows ([`Kernel::native_strip`]).
    strip: Option<Code>,
    /// For the rows of a three-integer game's cube ([`Kernel::native_cube`]).
    cube: Option<Code>,
    /// For the rows of its strips ([`Kernel::native_strip3`]).
    strip3: Option<Code>,
    _memory: Memory,
}

impl std::fmt::Debug for Native {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Native")
    }
}

/// The module that owns compiled functions' memory, freed with it.
struct Memory(Option<JITModule>);

impl Drop for Memory {
    fn drop(&mut self) {
        if let Some(module) = self.0.take() {
            // SAFETY: the functions point into this module's memory, and
            // they are dropped with it (fields of the same value): nothing
            // calls them any more.
            unsafe { module.free_memory() };
        }
    }
}

/// Compiles `kernel`, or `None` when some part of it is not one the code
/// generator knows (a global read when run, a position of more than two
/// arguments), or Cranelift is not available for this machine.
pub fn compile(kernel: &Kernel) -> Option<Native> {
    let mut jit = jit_of(kernel)?;
    let sweep = match (kernel.arity, &kernel.lists) {
        (1, None) => Some(jit.define(Kind::Sweep(kernel), "sweep")?),
        (2, None) => Some(jit.define(Kind::Square(kernel), "square")?),
        // A tuple of two split into integers: its square, read by its form.
        (2, Some(_)) if kernel.split_ints().is_some() => {
            Some(jit.define(Kind::Square(kernel), "square")?)
        }
        (4, None) => Some(jit.define(Kind::Quad(kernel), "quad")?),
        _ => None,
    };
    let levels = match kernel.levels {
        Some(_) => Some(jit.define(Kind::Levels(kernel), "levels")?),
        None => None,
    };
    let strip = match kernel.strip {
        Some(_) => Some(jit.define(Kind::Strip(kernel), "strip")?),
        None => None,
    };
    let cube = match kernel.cube() {
        true => Some(jit.define(Kind::Cube(kernel), "cube")?),
        false => None,
    };
    let strip3 = match kernel.strip3 {
        Some(_) => Some(jit.define(Kind::Strip3(kernel), "strip3")?),
        None => None,
    };
    // Compiled apart, the mex function would compile the rules' functions
    // again: with them, it is compiled here.
    let alone = [sweep, levels, strip, cube, strip3]
        .iter()
        .all(Option::is_none);
    let mex = match alone || kernel.calls.is_some() {
        true => Some(jit.define(Kind::Mex(kernel), "mex")?),
        false => None,
    };
    let (code, memory) = jit.finish()?;
    let mex_cell = std::cell::OnceCell::new();
    if let Some(mex) = mex {
        mex_cell.set(Some((code(mex), Memory(None)))).ok();
    }
    Some(Native {
        mex: mex_cell,
        sweep: sweep.map(&code),
        levels: levels.map(&code),
        strip: strip.map(&code),
        cube: cube.map(&code),
        strip3: strip3.map(code),
        _memory: memory,
    })
}

/// A module for `kernel`'s functions, the functions its rules call
/// compiled in it first.
fn jit_of(kernel: &Kernel) -> Option<Jit> {
    let mut jit = Jit::new()?;
    if let Some(calls) = &kernel.calls {
        jit.functions(&calls.made())?;
    }
    Some(jit)
}

/// The mex function of `kernel` alone, in a module of its own (see
/// [`Native::mex`]).
fn compile_mex(kernel: &Kernel) -> Option<(Code, Memory)> {
    let mut jit = jit_of(kernel)?;
    let mex = jit.define(Kind::Mex(kernel), "mex")?;
    let (code, memory) = jit.finish()?;
    Some((code(mex), memory))
}

impl Native {
    /// Whether the mex function was compiled, or tried and found not to
    /// compile (see [`Native::mex`]): nothing more to count towards it.
    pub fn has_mex(&self) -> bool {
        self.mex.get().is_some()
    }

    /// The mex function of `kernel`, whose machine code this is, compiled
    /// now if it was not; `None` where it does not compile.
    fn mex_code(&self, kernel: &Kernel) -> Option<Code> {
        let compiled = self.mex.get_or_init(|| compile_mex(kernel));
        compiled.as_ref().map(|(code, _)| *code)
    }

    /// The value of the position with arguments `args` and its number of
    /// options, when every option's value is in the dense tables or is
    /// found in place (given `room`: see [`deep`]); `None` leaves the
    /// position to [`Kernel::mex`]. `views` is a buffer.
    pub fn mex(
        &self,
        kernel: &Kernel,
        (defs, graph, room): (&Defs, &mut Graph, Option<deep::Room>),
        args: &[i64],
        (marks, views): (&mut Marks, &mut Vec<View>),
        poll: &mut dyn FnMut() -> bool,
    ) -> Option<Result<Found, Stop>> {
        if kernel.lists.is_none() && args.len() != kernel.arity {
            return None;
        }
        let mex = self.mex_code(kernel)?;
        if !views_of(&kernel.targets, (defs, graph), views) {
            return None;
        }
        // The arguments by address: the kernel's arity of them, checked;
        // for list arguments, the frame the kernel loads them into.
        let mut frame = std::mem::take(&mut marks.frame);
        frame.clear();
        if kernel.lists.is_some() && !kernel.load(args, &mut frame) {
            marks.frame = frame;
            return None;
        }
        frame.reserve(ARENA);
        let given = match kernel.lists {
            Some(_) => frame.as_ptr(),
            None => args.as_ptr(),
        };
        let graph: *mut Graph = graph;
        let views: &[View] = views;
        let mut deep =
            room.map(|room| deep::Deep::new(mex, (kernel, defs, graph, views), room, &mut *poll));
        let call = Call {
            targets: &kernel.targets,
            single: kernel.single,
            defs,
            graph,
            views,
            own: std::ptr::null(),
            deep: deep.as_mut().map_or(std::ptr::null_mut(), |d| d as *mut _),
        };
        let (found, work) = call.run(mex, (given as u64, 0), 1, (marks, &mut frame));
        marks.frame = frame;
        if let Some(deep::Deep {
            frontier: Some(frontier),
            ..
        }) = deep
            && found == MISSING
        {
            marks.play(kernel.game, kernel.takes_lists(), frontier);
        }
        if marks.charge(work as usize) && poll() {
            return Some(Err(Stop::Bail));
        }
        match found {
            BAIL => None,
            MISSING => Some(Err(Stop::Missing)),
            _ => Some(Ok((found & 0xffff_ffff, (found >> 32) as usize))),
        }
    }
}

impl Native {
    /// The value of `node`, a hashed position of the kernel's own game
    /// with the integer arguments `args` and no value yet, found as a
    /// recursion's first run (see [`deep`]): its options without values
    /// are evaluated in place, as below it. A query that asks hashed
    /// positions one after another (the divide-by-2/3/6 game from 10^15)
    /// so skips the search's set-up for each. `Some(None)` where the
    /// recursion leaves the position (an option it cannot evaluate, an
    /// error, a cycle, Ctrl-C): it and the positions whose runs were
    /// under way below it are left without values (those it finished
    /// keep theirs), for the search, which then runs it as before;
    /// `None` where it is not one to run so (lists, another arity).
    /// `views` is a buffer.
    pub fn value_in_place(
        &self,
        kernel: &Kernel,
        (defs, graph, room): (&Defs, &mut Graph, deep::Room),
        (node, args): (NodeId, &[i64]),
        views: &mut Vec<View>,
        poll: &mut dyn FnMut() -> bool,
    ) -> Option<Option<u64>> {
        if kernel.takes_lists() || args.len() != kernel.arity {
            return None;
        }
        let mex = self.mex_code(kernel)?;
        if !views_of(&kernel.targets, (defs, graph), views) {
            return None;
        }
        let graph: *mut Graph = graph;
        let views: &[View] = views;
        let mut deep = deep::Deep::new(mex, (kernel, defs, graph, views), room, poll);
        // SAFETY: the recursion is this frame's, and nothing borrows it
        // or the graph's hashed positions during the run; `node` is a
        // hashed position of the kernel's game, whose slot is not a
        // strip's.
        let found = unsafe { deep::run_at(&mut deep, (node, None), args)? };
        Some((found < VALUED).then_some(found))
    }
}

/// What a call of a kernel's machine code reads besides its arguments.
struct Call<'a> {
    /// The targets the code's views are of, in its order (the kernel's).
    targets: &'a [(GameId, usize)],
    /// The kernel's [`Kernel::single`].
    single: bool,
    defs: &'a Defs,
    graph: *const Graph,
    /// The views of the kernel's targets (see [`views_of`]).
    views: &'a [View],
    /// The game's own table, for a sweep; null for the mex function.
    own: *const View,
    /// The recursion a mex function's run is part of, if any.
    deep: *mut deep::Deep<'a>,
}

impl Call<'_> {
    /// [`Call::run`] of a function that writes values into tables (a
    /// sweep's), in a frame of the marks' own, cleared: what it returned,
    /// without [`PAUSED`], and whether that was set.
    fn run_writing(
        &self,
        code: Code,
        args: (u64, u64),
        positions: u32,
        marks: &mut Marks,
    ) -> (u64, bool) {
        let mut frame = std::mem::take(&mut marks.frame);
        frame.clear();
        frame.reserve(ARENA);
        let (stopped, _) = self.run(code, args, positions, (marks, &mut frame));
        marks.frame = frame;
        (stopped & !PAUSED, stopped & PAUSED != 0)
    }

    /// Calls `code` with its two integer arguments, for `positions`
    /// positions (one stamp each): what it returned, and the work it did.
    fn run(
        &self,
        code: Code,
        (first, second): (u64, u64),
        positions: u32,
        (marks, arena): (&mut Marks, &mut Vec<i64>),
    ) -> (u64, u64) {
        marks.start();
        let (at, len, stamp) = marks.mex.stamps(positions);
        let mut ctx = Ctx {
            work: 0,
            graph: self.graph,
            marks,
            targets: self.targets,
            arena: arena.as_mut_ptr(),
            top: arena.len() as u64,
            cap: arena.capacity() as u64,
            rule: 0,
            options: 0,
            asker: std::ptr::null_mut(),
            out: 0,
            defs: self.defs,
            ret: 0,
            depth: 0,
            deepest: 0,
            deep: self.deep,
            terminal: 0,
            views: self.views.as_ptr(),
        };
        // SAFETY: the arguments are what `code` was generated to take
        // (the mex function's point to the kernel's arity of integers);
        // the marks are `len` slots, with `positions` stamps from
        // `stamp` free; each view describes live pages of a table that
        // nothing else writes to during the call; the lists the code
        // reads belong to the kernel, which is alive; `ctx` outlives the
        // call; the arena is writable up to its capacity, and nothing
        // else touches it during the call.
        let result = unsafe {
            code(
                first,
                second,
                at,
                len as u64,
                stamp.into(),
                self.views.as_ptr(),
                self.own,
                &mut ctx,
            )
        };
        // A sweep stopped at a position without options.
        let result = match ctx.terminal != 0 && result & PAUSED == 0 {
            true => result | TERMINAL,
            false => result,
        };
        // The machine code counts every option, with a value or not.
        if result == MISSING {
            // SAFETY: the call is over; `ctx.marks` is the `marks` given.
            let marks = unsafe { &mut *ctx.marks };
            marks.complete = self.single && !marks.dropped;
            marks.options = ctx.options as usize;
        }
        (result, ctx.work)
    }
}

/// The views of `kernel`'s targets' dense tables, in its order; false
/// when a target has been redefined with another arity (which is the
/// interpreter's to report).
fn views_of(
    targets: &[(GameId, usize)],
    (defs, graph): (&Defs, &Graph),
    views: &mut Vec<View>,
) -> bool {
    views.clear();
    for (game, n) in targets {
        if defs.game(*game).map(|g| g.arity) != Some(*n) {
            return false;
        }
        // A table of list positions is read where a target has its form
        // (the machine code compares the forms' codes).
        views.push(graph.target_view(*game, *n));
    }
    true
}
