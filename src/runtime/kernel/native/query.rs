//! A top-level query's machine code ([`crate::runtime::kernel::query`]):
//! one function that runs the query's loops and returns its result, and
//! the helpers it calls back. Its `value(g(...))`s are answered by an
//! [`Asker`] (the evaluator's search), which may add positions to the
//! graph: so the query's code reads no table itself, and the context it
//! is given holds no graph.

use super::{ARENA, Code, Ctx, Jit, Memory, VALUED};
use crate::graph::View;
use crate::runtime::kernel::Stop;
use crate::runtime::kernel::calls::Func;
use crate::runtime::kernel::query::Query;
use crate::value::GameId;
use std::cell::Cell;
use std::ffi::c_void;

/// Who answers a query's questions.
pub trait Asker {
    /// The value of `game(args)`, searched for if need be; `None` when it
    /// cannot be had here (an error, a limit), for the interpreter to
    /// evaluate the query and report it.
    fn value(&mut self, game: GameId, args: &[i64]) -> Option<u64>;
    /// [`Asker::value`] of a position given by its flat run
    /// ([`crate::graph::flat`]): one with list, tuple, set or string
    /// arguments.
    fn value_flat(&mut self, game: GameId, run: &[i64]) -> Option<u64>;
    /// Whether to stop now (Ctrl-C, the time limit).
    fn stop(&mut self) -> bool;
    /// Runs `func` in `frame`, with the definitions the asker has.
    fn call(&mut self, func: &Func, frame: &mut Vec<i64>) -> Result<i64, Stop>;
    /// Keeps the next element of the list the query makes; `false` to
    /// stop (the list would pass `--max-items`: the interpreter then
    /// reports it).
    fn collect(&mut self, element: i64) -> bool;
    /// Keeps the next element of the list the query makes, a list, tuple
    /// or set of `items` (see [`crate::runtime::kernel::query::Query::items`]);
    /// `false` to stop, as for [`Asker::collect`].
    fn collect_items(&mut self, items: &[i64]) -> bool;
}

/// A query's machine code, and the memory that holds it.
pub struct NativeQuery {
    code: Code,
    /// How many games' tables it reads.
    targets: usize,
    _memory: Memory,
}

/// Compiles `query`, or `None` when some part of it has no machine code.
pub fn compile(query: &Query) -> Option<NativeQuery> {
    let mut jit = Jit::new()?;
    if let Some(calls) = &query.calls {
        jit.functions(&calls.made())?;
    }
    let id = jit.define(super::Kind::Query(query), "query")?;
    let (code, memory) = jit.finish()?;
    Some(NativeQuery {
        code: code(id),
        targets: query.targets.len(),
        _memory: memory,
    })
}

impl NativeQuery {
    /// The query's result, or `None` where it left the query to the
    /// interpreter. `views` are those of its targets' dense tables, in
    /// the order of [`Query::targets`]; the asker keeps them up to date
    /// as it changes the graph.
    pub fn run(&self, mut asker: &mut dyn Asker, views: &[Cell<View>]) -> Option<i64> {
        if views.len() != self.targets {
            return None;
        }
        let mut arena: Vec<i64> = Vec::with_capacity(ARENA);
        let asker: *mut &mut dyn Asker = &mut asker;
        let mut ctx = Ctx {
            work: 0,
            graph: std::ptr::null(),
            marks: std::ptr::null_mut(),
            targets: &[],
            arena: arena.as_mut_ptr(),
            top: 0,
            cap: arena.capacity() as u64,
            rule: 0,
            options: 0,
            asker: asker.cast::<c_void>(),
            out: 0,
            defs: std::ptr::null(),
            ret: 0,
            depth: 0,
            deepest: 0,
            deep: std::ptr::null_mut(),
            terminal: 0,
            // A `Cell<View>` is laid out as a `View`.
            views: views.as_ptr().cast::<View>(),
        };
        // SAFETY: a query's function reads its context (`ctx`, which
        // outlives the call), the arena (writable up to its capacity,
        // touched by nothing else during the call), and the tables
        // `views` describe, which change only while it calls the helpers
        // below, and whose views the asker then updates; it calls only
        // those helpers and the arithmetic ones, never those that read
        // the graph or the marks, which are null here.
        let done = unsafe {
            (self.code)(
                0,
                0,
                std::ptr::null_mut(),
                0,
                0,
                views.as_ptr().cast::<View>(),
                std::ptr::null(),
                &mut ctx,
            )
        };
        (done == 0).then_some(ctx.out)
    }
}

/// The asker of the query running with context `ctx`.
///
/// # Safety
/// `ctx` is the context [`NativeQuery::run`] made, alive for the call.
pub(super) unsafe fn asker<'a>(ctx: *mut Ctx) -> &'a mut dyn Asker {
    // SAFETY: as the caller promises; `asker` points to the `&mut dyn
    // Asker` that `run` holds, which nothing else uses during the call.
    unsafe { &mut **(*ctx).asker.cast::<&mut dyn Asker>() }
}

/// `value(game(args))` for the query's code: the value, or -1 to leave
/// the query to the interpreter. A negative `n` says that `args` is the
/// position's flat run, `-n` integers long (see [`Asker::value_flat`]).
pub(super) extern "C" fn value(ctx: *mut Ctx, game: i64, args: *const i64, n: i64) -> i64 {
    // SAFETY: the code passes the context it was called with, and `|n|`
    // integers it stored at `args`.
    let (asker, args) = unsafe {
        let len = n.unsigned_abs() as usize;
        (asker(ctx), std::slice::from_raw_parts(args, len))
    };
    let Ok(game) = GameId::try_from(game) else {
        return -1;
    };
    let value = match n < 0 {
        true => asker.value_flat(game, args),
        false => asker.value(game, args),
    };
    match value {
        Some(v) if v < VALUED => v as i64,
        _ => -1,
    }
}

/// Keeps an element of the list the query's code makes; returns 0 to go
/// on, 1 to stop.
pub(super) extern "C" fn collect(ctx: *mut Ctx, element: i64) -> i64 {
    // SAFETY: as in `value`.
    i64::from(!unsafe { asker(ctx) }.collect(element))
}

/// Keeps an element of the list the query's code makes, the list of the
/// arena's items `from..to`; returns 0 to go on, 1 to stop.
pub(super) extern "C" fn collect_items(ctx: *mut Ctx, from: i64, to: i64) -> i64 {
    // SAFETY: as in `value`; the code made the items `from..to` on the
    // arena, within its capacity, just before the call.
    let items = unsafe {
        let len = usize::try_from(to - from).unwrap_or(0);
        std::slice::from_raw_parts((*ctx).arena.add(from as usize), len)
    };
    // SAFETY: as in `value`.
    i64::from(!unsafe { asker(ctx) }.collect_items(items))
}

/// Whether the query's code should stop (1) or go on (0).
pub(super) extern "C" fn tick(ctx: *mut Ctx) -> i64 {
    // SAFETY: as in `value`.
    i64::from(unsafe { asker(ctx) }.stop())
}
