//! The Cranelift IR of one kernel: the binders' loops, nested in the
//! order written; each guard conjunct tested in turn, short-circuiting
//! as the interpreter does (two that bound one expression as one test,
//! in `bounds`); the terms' values read from the dense tables and xored;
//! each option's value marked; then the mex. Every check that fails
//! jumps to one cold block that returns [`super::BAIL`]. The loops are in
//! `loops`, the expressions and the reads of the options' values in
//! `values`, the marks and the mex in `marks`, the mex function and the
//! options of one position in `mex`, the sweeps in `sweep`; which
//! function to build in `kind`.

mod bounds;
mod divisors;
mod filtered;
mod floor;
mod forms;
mod func;
mod hashed;
mod kind;
mod levels;
mod lists;
mod loops;
mod marks;
mod memo;
mod mex;
mod narrowing;
mod over;
mod pages;
mod query;
mod reads;
mod row_reads;
mod rows;
mod strips;
mod sweep;
mod tables;
mod values;

pub use func::scalar;
pub use kind::Kind;
pub use loops::narrow;
pub use values::{gcd, isqrt, pow};

use tables::{OwnRead, Table, reads_runs};

use crate::runtime::kernel::Kernel;
use crate::runtime::kernel::calls::Func;
use cranelift_codegen::ir::{
    Block, FuncRef, Function, InstBuilder, MemFlagsData, Value, types::I64,
};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use std::mem::offset_of;

/// Loop iterations one call may make before it leaves the position to
/// the kernel's run, which looks at the clock as it goes.
const BUDGET: i64 = 1 << 24;

/// The helpers the code calls: see [`super::compile`].
pub struct Helpers {
    pub pow: FuncRef,
    pub isqrt: FuncRef,
    pub gcd: FuncRef,
    pub narrow: FuncRef,
    pub unusual: FuncRef,
    pub unusual3: FuncRef,
    pub sets: FuncRef,
    pub flat: FuncRef,
    pub query: FuncRef,
    pub tick: FuncRef,
    pub call: FuncRef,
    pub collect: FuncRef,
    pub collect_items: FuncRef,
    pub sets_apart: FuncRef,
    pub filter: FuncRef,
    pub filter_from: FuncRef,
    /// Whether `unusual`, `unusual3` and `flat` are trampolines that keep
    /// every register and return through the context's `ret` (see
    /// [`keeps_registers`]).
    pub kept: bool,
}

impl From<[FuncRef; 16]> for Helpers {
    /// The helpers in the order [`super::jit`] declares them.
    fn from(refs: [FuncRef; 16]) -> Helpers {
        Helpers {
            pow: refs[0],
            isqrt: refs[1],
            gcd: refs[2],
            narrow: refs[3],
            unusual: refs[4],
            unusual3: refs[5],
            sets: refs[6],
            flat: refs[7],
            query: refs[8],
            tick: refs[9],
            call: refs[10],
            collect: refs[11],
            collect_items: refs[12],
            sets_apart: refs[13],
            filter: refs[14],
            filter_from: refs[15],
            kept: false,
        }
    }
}

/// Whether the function `kind` calls `unusual`, `unusual3` and `flat`
/// through trampolines that keep every register. A function over dense
/// tables (a sweep, a board's levels, a square, a strip) calls them for
/// the rare options outside the tables: without the trampolines, the
/// values its loops carry across those calls are spilled around every
/// item. The mex function of a hashed game calls them for most options,
/// where the trampoline's saves would cost more than they save.
pub fn keeps_registers(kind: &Kind) -> bool {
    !matches!(kind, Kind::Mex(_) | Kind::Query(_) | Kind::Func(_))
}

/// Builds the function `kind` into `func`; `None` when some part of it
/// has no machine code here.
pub fn function(
    kind: Kind,
    (func, fctx): (&mut Function, &mut FunctionBuilderContext),
    (helpers, fns): (Helpers, Vec<(*const Func, FuncRef)>),
    config: TargetFrontendConfig,
) -> Option<()> {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let bail = b.create_block();
    b.set_cold_block(bail);
    let ctx = params[7];
    let field = |b: &mut FunctionBuilder, at: usize| b.ins().load(I64, trusted(), ctx, at as i32);
    let arena = field(&mut b, offset_of!(super::Ctx, arena));
    let top0 = field(&mut b, offset_of!(super::Ctx, top));
    let cap = field(&mut b, offset_of!(super::Ctx, cap));
    let (slots, targets, lists): (usize, &[_], _) = match kind {
        Kind::Mex(k)
        | Kind::Sweep(k)
        | Kind::Levels(k)
        | Kind::Square(k)
        | Kind::Strip(k)
        | Kind::Cube(k)
        | Kind::Strip3(k)
        | Kind::Quad(k) => (k.slots.max(k.arity), &k.targets, k.lists.clone()),
        Kind::Query(q) => (q.slots, &q.targets, None),
        Kind::Group(m) => {
            let most = m.kernels.iter().map(|k| k.slots.max(k.arity)).max();
            (most.unwrap_or(1), m.targets, None)
        }
        Kind::Func(f) => (f.slots(), &[], None),
    };
    let mut e = Emit {
        slots: (0..slots).map(|_| b.declare_var(I64)).collect(),
        params: Vec::new(),
        count: b.declare_var(I64),
        work: b.declare_var(I64),
        stamp: b.declare_var(I64),
        low: b.declare_var(I64),
        missing: b.declare_var(I64),
        option_missing: b.declare_var(I64),
        keeps_marks: matches!(kind, Kind::Mex(_)),
        probes: matches!(kind, Kind::Mex(_)),
        runs: reads_runs(&kind),
        bits: kind.kernel().is_some_and(Kernel::few_options),
        within_marks: false,
        top: b.declare_var(I64),
        known: vec![None; slots],
        loops: Vec::new(),
        wide: kind.kernel().is_some_and(|k| k.wide),
        window: None,
        b,
        bail,
        terminal: false,
        marks: params[2],
        len: params[3],
        marks_frame: None,
        views: params[5],
        tables: Vec::new(),
        share: 0,
        targets,
        pow: helpers.pow,
        isqrt: helpers.isqrt,
        gcd: helpers.gcd,
        narrow: helpers.narrow,
        unusual: helpers.unusual,
        unusual3: helpers.unusual3,
        kept: helpers.kept,
        asking: false,
        sets: helpers.sets,
        sets_apart: helpers.sets_apart,
        filter: helpers.filter,
        filter_from: helpers.filter_from,
        flat: helpers.flat,
        query: helpers.query,
        tick: matches!(kind, Kind::Query(_)).then_some(helpers.tick),
        collect: helpers.collect,
        collect_items: helpers.collect_items,
        call: helpers.call,
        fns,
        in_func: matches!(kind, Kind::Func(_)),
        ctx,
        arena,
        top0,
        cap,
        lists,
        divisor_slot: None,
        divisors: 0,
        filled: Vec::new(),
        held: Vec::new(),
        pages: Vec::new(),
        row_reads: None,
        own_read: None,
        config,
    };
    e.b.def_var(e.stamp, params[4]);
    if !matches!(kind, Kind::Query(_) | Kind::Func(_)) {
        e.keep_marks_in_frame(params[4]);
    }
    let none = e.int(0);
    e.b.def_var(e.low, none);
    // A query's tables change as it asks the search: it reads their views
    // afresh at each use (see `query`).
    if !matches!(kind, Kind::Query(_)) {
        let once = tables::read_once(&kind);
        e.tables = (0..targets.len())
            .map(|t| {
                let table = e.table(params[5], t).of_arity(targets[t].1);
                match once {
                    true => e.loaded(table),
                    false => table,
                }
            })
            .collect();
    }
    // A mex function values one position a call: a page kept would
    // rarely be read again before the call ends.
    if !matches!(kind, Kind::Func(_) | Kind::Mex(_)) {
        e.keep_pages();
    }
    match kind {
        Kind::Mex(kernel) => e.mex(kernel, params[0])?,
        Kind::Sweep(kernel) => e.sweep(kernel, (params[0], params[1]), params[6])?,
        Kind::Levels(kernel) => e.levels(kernel, (params[0], params[1]), params[6])?,
        Kind::Square(kernel) => e.square(kernel, (params[0], params[1]), params[6])?,
        Kind::Strip(kernel) => e.strip(kernel, (params[0], params[1]), params[6])?,
        Kind::Cube(kernel) => e.cube(kernel, (params[0], params[1]), params[6])?,
        Kind::Strip3(kernel) => e.strip3(kernel, (params[0], params[1]), params[6])?,
        Kind::Quad(kernel) => e.quad_row(kernel, (params[0], params[1]), params[6])?,
        Kind::Group(m) => e.group_sweep(m.kernels, (params[0], params[1]), params[6])?,
        Kind::Query(query) => e.query(query)?,
        Kind::Func(f) => e.func(f, params[0])?,
    }
    e.zero_divisors(entry);
    e.b.seal_all_blocks();
    e.b.finalize(config);
    Some(())
}

struct Emit<'a, 'f> {
    b: FunctionBuilder<'f>,
    /// The frame's integer slots.
    slots: Vec<Variable>,
    /// The values of the position's own parameters, the first slots, while
    /// its options are made: no move rebinds them, and read as values
    /// rather than variables they are the same value in every block, so
    /// that `n - (n - 3)` folds to 3.
    params: Vec<Value>,
    /// Options marked so far, loop iterations made, and the stamp that
    /// marks an option of the position.
    count: Variable,
    work: Variable,
    stamp: Variable,
    /// The values below 64 marked, a bit each, when `bits`: they need no
    /// store and no scan (see [`Emit::mark`]).
    low: Variable,
    bits: bool,
    /// Set while the one term of an option is read, marks not `bits`:
    /// its value is tested against the marks' length where it is read
    /// (a value the dense table holds is plain when it is below that
    /// length, as every plain value marked must be), so that marking it
    /// needs no test of its own (see [`Emit::mark`]).
    within_marks: bool,
    bail: Block,
    /// In a sweep of one or two integers: whether a position without
    /// options is recorded in the context before the bail (see
    /// [`Emit::valued`]).
    terminal: bool,
    marks: Value,
    len: Value,
    /// Where the marks' address, their length and the stamp are kept in
    /// the frame, read at each use, rather than carried in registers
    /// through every loop (see [`Emit::keep_marks_in_frame`]).
    marks_frame: Option<cranelift_codegen::ir::StackSlot>,
    /// The dense table of each target, read once per call, and where
    /// their views are.
    tables: Vec<Table>,
    /// The move being emitted, as its share of the options without values
    /// is named ([`super::Ctx::rule`]): stored in the context before a
    /// helper that records one is called, not once per move.
    share: i64,
    views: Value,
    targets: &'a [(crate::value::GameId, usize)],
    pow: FuncRef,
    isqrt: FuncRef,
    gcd: FuncRef,
    narrow: FuncRef,
    /// The helper that evaluates a [`crate::runtime::kernel::Narrow::Filter`]
    /// over a window ([`super::helpers::filter`]).
    filter: FuncRef,
    filter_from: FuncRef,
    /// The helper that reads an option's value the code does not read
    /// itself ([`super::helpers::unusual`]), and its context.
    unusual: FuncRef,
    /// The same for a position of three integers (a helper of its own,
    /// so that the common call passes no unused argument).
    unusual3: FuncRef,
    /// Whether `unusual`, `unusual3` and `flat` are the trampolines that
    /// keep every register, and return through the context's `ret`: in a
    /// function over dense tables ([`keeps_registers`]), which also bails
    /// at the first option without a value.
    kept: bool,
    /// Whether the value being read is one a guard asks (`value(sub(k))`),
    /// no option: one without a value yet is recorded as such (see
    /// `kernel::marks::ASKED`).
    asking: bool,
    ctx: Value,
    /// Set when an option's position has no value yet: the position's
    /// marks no longer count, and it ends with [`super::MISSING`].
    missing: Variable,
    /// Set when the option being made has such a position: it is not
    /// marked, where the marks outlive the run (`keeps_marks`: the mex
    /// function's).
    option_missing: Variable,
    keeps_marks: bool,
    /// Whether reads of hashed positions probe their table here
    /// (`hashed.rs`): in the mex function only, which runs one position
    /// and is what a memoized recursion over huge heaps runs. In a
    /// sweep's loop, the probe's code made Cranelift's register allocator
    /// spill the sweep's own values around every position (the
    /// subtraction game: 20% more instructions), for options that are
    /// nearly all dense.
    probes: bool,
    /// Whether its reads of dense tables read a run's rows too (see
    /// `tables::reads_runs`).
    runs: bool,
    /// The helpers that sort a list or make a set, and read a position
    /// with list arguments.
    sets: FuncRef,
    /// The helper that makes `|`, `&`, `-` or `^` of two sets where they
    /// are, at the arena's top.
    sets_apart: FuncRef,
    flat: FuncRef,
    /// A query's helpers: the one that asks the search for a position's
    /// value, and the one that looks at the clock, called every so many
    /// loop iterations (`Some` in a query only: see `query`).
    query: FuncRef,
    tick: Option<FuncRef>,
    /// A query's helpers that keep each element of a list it makes: an
    /// integer, or a list of integers on the arena.
    collect: FuncRef,
    collect_items: FuncRef,
    /// The helper that runs a compiled function ([`super::helpers::call`]), and
    /// the functions compiled to machine code of their own (`func`).
    call: FuncRef,
    fns: Vec<(*const Func, FuncRef)>,
    /// Whether this is a function's code, whose calls may be nested.
    in_func: bool,
    /// The arena of lists (see `lists`): its base, its first free index
    /// when a position starts, its top now, and its capacity.
    arena: Value,
    top0: Value,
    top: Variable,
    cap: Value,
    /// Which parameters are lists, if any.
    lists: Option<Vec<crate::graph::Shape>>,
    /// The stack slot of the divisors loops keep, and how many places it
    /// holds, 16 bytes each (see [`Emit::divisor_place`]).
    divisor_slot: Option<cranelift_codegen::ir::StackSlot>,
    divisors: u32,
    /// The places of the windows filters were evaluated over (see
    /// [`Emit::filled_place`]).
    filled: Vec<cranelift_codegen::ir::StackSlot>,
    /// The target's pointer size and calling convention, for `memcpy`.
    config: TargetFrontendConfig,
    /// The values each slot can take, where known while its loop is
    /// emitted (a binder over constants): an inclusive interval.
    known: Vec<Option<(i64, i64)>>,
    /// The loops being emitted, the innermost last (see [`Loop`]).
    loops: Vec<Loop>,
    /// Whether the slots may hold integers of any size (a kernel with no
    /// linear form: see `kernel::wide`): then an item bound to a slot
    /// needs no test against [`SLOT_LIMIT`](crate::runtime::kernel::expr::SLOT_LIMIT).
    wide: bool,
    /// In a sweep: the target that is the game's own one-integer
    /// position, and the position being swept (see [`Window`]).
    window: Option<(usize, Window)>,
    /// For each conjunct of the move being made, the variable that keeps
    /// its truth where it is held (see [`Held`]): 0 not yet evaluated,
    /// 1 false, 2 true.
    held: Vec<Option<Variable>>,
    /// For each target of one integer, the page of its table read last
    /// (see [`pages::PageCache`]).
    pages: Vec<Option<pages::PageCache>>,
    /// In a cube's or a strip's row loop, the rows found before it
    /// (`row_reads`).
    row_reads: Option<row_reads::RowReads>,
    /// In a function that writes the game's own table, that table as its
    /// options of the same game read it (see [`OwnRead`]).
    own_read: Option<OwnRead>,
}

/// A loop being emitted: the slots it binds (a divisor bound outside the
/// innermost loop stays while it runs: see [`Emit::floor_invariant`]),
/// the block it is entered from, the values of the outer loops' slots
/// there, and what was computed there for the divisors it keeps.
struct Loop {
    slots: Vec<usize>,
    before: Block,
    outer: Vec<(usize, Value)>,
    divisors: Vec<(usize, floor::Hoisted)>,
}

/// The position a sweep is at: for one integer `n`, `at` is `n` and
/// `place` its place in its page; for two `(a, b)`, `row` is `a` and
/// both `at` and `place` are `b`, its place in its row. `slot` is the
/// address of its slot, checked inside the page or row. An option `n`
/// (or `(a, n)`) with `at - place <= n < at` is in the same page or row,
/// before it: its slot is read at `slot - 4 * (at - n)` with no check of
/// pages or lengths.
#[derive(Clone, Copy)]
struct Window {
    row: Option<Value>,
    at: Value,
    place: Value,
    slot: Value,
}

fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl Emit<'_, '_> {
    /// Starts emitting a loop that binds `slots`, entered from the
    /// current block (see [`Loop`]).
    fn enter_loop(&mut self, slots: Vec<usize>) {
        let outer: Vec<usize> = self.loops.iter().flat_map(|l| l.slots.clone()).collect();
        let outer = outer
            .into_iter()
            .map(|s| (s, self.b.use_var(self.slots[s])))
            .collect();
        // In the layout, for `Emit::hoisted` to put code at its end: a
        // block just switched to (the next move's, after the last) holds
        // no instruction yet.
        self.b.ensure_inserted_block();
        let before = self.b.current_block().expect("a loop entered from a block");
        self.loops.push(Loop {
            slots,
            before,
            outer,
            divisors: Vec::new(),
        });
    }

    fn leave_loop(&mut self) {
        self.loops.pop();
    }

    /// `N` new blocks.
    fn blocks<const N: usize>(&mut self) -> [Block; N] {
        std::array::from_fn(|_| self.b.create_block())
    }

    fn int(&mut self, n: i64) -> Value {
        self.b.ins().iconst(I64, n)
    }

    /// Goes on only where `failed` is false.
    fn bail_if(&mut self, failed: Value) {
        self.leave_if(failed, self.bail);
    }

    /// Goes to `elsewhere` where `c` holds, else on.
    fn leave_if(&mut self, c: Value, elsewhere: Block) {
        let go_on = self.b.create_block();
        self.b.ins().brif(c, elsewhere, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
    }

    /// Goes on only where `v` is in `lo..hi`.
    fn bail_outside(&mut self, v: Value, lo: i64, hi: i64) {
        self.outside_to(v, (lo, hi), self.bail);
    }

    /// Bails where `v`, bound to a slot, is outside the slots' limit, as
    /// the kernel's run does, unless the slots take any integer.
    fn bail_unless_slot(&mut self, v: Value) {
        use crate::runtime::kernel::expr::SLOT_LIMIT;
        if !self.wide {
            self.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
        }
    }
}
