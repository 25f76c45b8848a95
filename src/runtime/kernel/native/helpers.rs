//! The functions the machine code calls (declared in `jit.rs`): an
//! option's value that it does not read itself, a position with list
//! arguments, a set made, a compiled function run.

use super::{BAIL, Ctx, MISSING, VALUED, deep, query};
use crate::graph::{ABSENT, IN_PROGRESS};
use crate::runtime::kernel::Stop;
use crate::runtime::kernel::calls::Func;
use crate::runtime::kernel::filter::Filter;
use crate::runtime::kernel::seq;
use crate::value::GameId;

/// A call of a compiled function with the `n` arguments at `args`, run
/// as the kernel's run runs it: 0 with the result in the context's
/// `ret`, or [`BAIL`].
pub(super) extern "C" fn call(ctx: *mut Ctx, func: *const Func, args: *const i64, n: u64) -> u64 {
    // SAFETY: the machine code passes the context it was called with, a
    // function that the kernel or query it was compiled from owns (so
    // alive), and `n` integers it stored at `args`.
    let (ctx, func) = unsafe { (&mut *ctx, &*func) };
    let mut frame = func.frame();
    frame.extend_from_slice(unsafe { std::slice::from_raw_parts(args, n as usize) });
    // The machine code's calls nest `ctx.depth` deep already.
    let frames = u32::try_from(ctx.depth).unwrap_or(u32::MAX);
    let result = crate::runtime::kernel::calls::nested(frames, || match ctx.defs.is_null() {
        // SAFETY: a kernel's call sets `defs`, which outlive it.
        false => func.run(&mut frame, unsafe { &*ctx.defs }),
        // SAFETY: as in `query::value`.
        true => unsafe { query::asker(ctx) }.call(func, &mut frame),
    });
    // How deep that went is not known: a result that depends on it is
    // not found in a memo again.
    ctx.deepest = i64::MAX / 4;
    match result {
        Ok(v) => {
            ctx.ret = v;
            0
        }
        Err(_) => BAIL,
    }
}

/// Sorts the arena's items `from..to`, or makes a set of them, or of
/// the two sets `from..mid` and `mid..to`, as [`seq::combine`] does with
/// the operation coded `op`; returns where the result ends (see
/// `emit/lists.rs`).
pub(super) extern "C" fn sets(arena: *mut i64, from: i64, mid: i64, to: i64, op: i64) -> i64 {
    // SAFETY: the machine code passes the arena it was given and a range
    // of items it pushed, inside the arena's capacity.
    let items =
        unsafe { std::slice::from_raw_parts_mut(arena.add(from as usize), (to - from) as usize) };
    let kept = seq::combine(items, (mid - from) as usize, seq::SetOp::from_code(op));
    from + kept as i64
}

/// `op` of the sets `a0..a1` and `b0..b1` of the arena, written from
/// `top` on (the arena has room for both there, and both lie below it),
/// as [`seq::merge_into`] makes it; returns where the result ends.
pub(super) extern "C" fn sets_apart(
    arena: *mut i64,
    a0: i64,
    a1: i64,
    b0: i64,
    b1: i64,
    top: i64,
    op: i64,
) -> i64 {
    // SAFETY: the machine code passes the arena it was given, two ranges
    // of items below `top`, and `top` with room for both after it, so the
    // three do not overlap.
    let (a, b, out) = unsafe {
        let part = |from: i64, to: i64| {
            std::slice::from_raw_parts(arena.add(from as usize), (to - from) as usize)
        };
        let room = (a1 - a0 + b1 - b0) as usize;
        (
            part(a0, a1),
            part(b0, b1),
            std::slice::from_raw_parts_mut(arena.add(top as usize), room),
        )
    };
    top + seq::merge_into(a, b, seq::SetOp::from_code(op), out) as i64
}

/// The value of a position with list arguments, given as the flat run
/// `run[..len]` ([`crate::graph::flat`]), read as the kernel's run reads
/// it: [`MISSING`] when it has none yet, [`BAIL`] as [`unusual`] says.
pub(super) extern "C" fn flat(ctx: *mut Ctx, target: u64, run: *const i64, len: u64) -> u64 {
    // SAFETY: as in `unusual`; `run` is the arena's items the machine
    // code just pushed.
    let ctx = unsafe { &mut *ctx };
    let run = unsafe { std::slice::from_raw_parts(run, len as usize) };
    let (game, _) = ctx.targets[target as usize];
    // SAFETY: a kernel's call sets the graph, which outlives it.
    let v = unsafe { &*ctx.graph }.flat_value(game, run);
    // SAFETY: as in `unusual3`.
    if v >= VALUED
        && in_place(ctx, v)
        && let Some(found) = unsafe { deep::evaluate_flat(ctx.deep, game, run) }
    {
        return found;
    }
    // SAFETY: as in `unusual`.
    let marks = unsafe { &mut *ctx.marks };
    marks.in_rule(ctx.rule);
    marks.looked_up += 1;
    // The machine code does not say which option a list position is of
    // (a store per lookup cost a list game 18%): each is one of its own,
    // so a sum of them waits as written (see `Marks::option`).
    marks.next_option();
    code(marks.known_flat(v, game, run))
}

/// What a helper returns for what [`crate::runtime::kernel::Marks::known`] said of an option:
/// its value, [`MISSING`], or [`BAIL`] (on the search path, or too large
/// to xor safely).
fn code(known: Result<Option<u64>, Stop>) -> u64 {
    match known {
        Ok(Some(v)) if v < VALUED => v,
        Ok(None) => MISSING,
        _ => BAIL,
    }
}

/// The value of an option's position that the machine code does not read
/// itself, read as the kernel's run reads it: [`MISSING`] when it has
/// none yet (remembered in the marks), [`BAIL`] when it is on the search
/// path or too large to xor safely.
pub(super) extern "C" fn unusual(ctx: *mut Ctx, target: u64, a: i64, b: i64) -> u64 {
    unusual3(ctx, target, a, b, 0)
}

/// [`unusual`] of a position of three integers.
pub(super) extern "C" fn unusual3(ctx: *mut Ctx, target: u64, a: i64, b: i64, c: i64) -> u64 {
    // SAFETY: the machine code passes on the context it was called with,
    // which lives on the caller's stack for the whole call; it reads and
    // writes nothing of it itself.
    let ctx = unsafe { &mut *ctx };
    let (game, n) = ctx.targets[target as usize];
    let all = [a, b, c];
    let args = &all[..n];
    // SAFETY: as in `deep::evaluate` below.
    if n == 3
        && in_recursion(ctx)
        && let Some(found) = unsafe { deep::evaluate_strip(ctx.deep, game, args) }
    {
        return found;
    }
    // SAFETY: as in `deep::evaluate` below.
    if n <= 2
        && in_recursion(ctx)
        && let Some(found) = unsafe { deep::evaluate_ints(ctx.deep, game, args) }
    {
        return found;
    }
    // SAFETY: as in `flat`.
    let v = unsafe { &*ctx.graph }.int_value(game, args);
    if v < VALUED {
        return v;
    }
    if in_place(ctx, v) {
        // SAFETY: a recursion's runs share it, and borrow it only for a
        // moment; the graph reference above is gone.
        if let Some(found) = unsafe { deep::evaluate(ctx.deep, game, args, v == ABSENT) } {
            return found;
        }
    }
    // SAFETY: as above.
    let marks = unsafe { &mut *ctx.marks };
    marks.in_rule(ctx.rule);
    marks.option = ctx.options as u32;
    code(marks.known(v, game, args))
}

/// Whether an option whose slot holds `v`, no value, may be evaluated in
/// place ([`deep`]): in a recursion, not on the search path, and only
/// while the run has met no option without a value. The search
/// evaluates the options a run missed in the order it met them, each
/// before the next, so an option met after one that is missing is
/// evaluated after it, as the interpreter's search does, and the first
/// error is met on the same play.
fn in_place(ctx: &Ctx, v: u64) -> bool {
    v != IN_PROGRESS && in_recursion(ctx)
}

/// Whether the run is a recursion's that has met no option without a
/// value (see [`in_place`]), in a move whose options' positions wait as
/// met (not one of the kernel's `sorted`, whose the search sorts).
fn in_recursion(ctx: &Ctx) -> bool {
    // SAFETY: the marks outlive the call; the machine code only writes
    // the mex's marks, which `missed` is not.
    if ctx.deep.is_null() || unsafe { (*ctx.marks).missed } != 0 {
        return false;
    }
    // SAFETY: a recursion's runs share it and borrow it only for a
    // moment, none across this call; its kernel outlives the recursion.
    let kernel = unsafe { (*ctx.deep).kernel };
    !kernel.waits_sorted(ctx.rule as u32)
}

/// [`Filter::fill`] of the window `lo..hi`, for the machine code: where
/// the values evaluated end (`hi`, or where a value the conjunct asks has
/// none yet: the loop tests it from there), or [`FILTER_FAILED`] when it
/// failed at one (the run bails, and the interpreter meets the error).
/// The values asked are read from the graph, which a kernel's call has
/// (a query's has no definitions either: its filters fail, and it bails).
pub(super) extern "C" fn filter(ctx: *mut Ctx, filter: *const Filter, lo: i64, hi: i64) -> u64 {
    // SAFETY: the machine code passes on the context it was called with,
    // and a filter of the kernel whose code it is, which owns the code.
    let (ctx, filter) = unsafe { (&*ctx, &*filter) };
    if ctx.defs.is_null() {
        return FILTER_FAILED;
    }
    // SAFETY: the definitions outlive the call; so does the graph, which
    // nothing changes during it.
    let (defs, graph) = unsafe { (&*ctx.defs, ctx.graph.as_ref()) };
    let read = |game: GameId, args: &[i64]| {
        let v = graph?.int_value(game, args);
        (v < VALUED).then_some(v as i64)
    };
    match filter.fill((lo, hi), defs, Some(&read)) {
        Ok(end) => end as u64,
        Err(_) => FILTER_FAILED,
    }
}

/// The place in `filter`'s list of values that hold ([`Filter::list_from`])
/// of the first at or past `lo`, where the list covers `lo..hi`, for the
/// machine code to run over them; [`FILTER_FAILED`] where it does not.
pub(super) extern "C" fn filter_from(_: *mut Ctx, filter: *const Filter, lo: i64, hi: i64) -> u64 {
    // SAFETY: as in `filter`.
    let filter = unsafe { &*filter };
    filter
        .list_from((lo, hi))
        .map_or(FILTER_FAILED, |at| at as u64)
}

/// What [`filter`] returns when the conjunct failed at a value.
pub(super) const FILTER_FAILED: u64 = u64::MAX;
