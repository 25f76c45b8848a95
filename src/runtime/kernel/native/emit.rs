//! The Cranelift IR of one kernel: the binders' loops, nested in the
//! order written; each guard conjunct tested in turn, short-circuiting
//! as the interpreter does; the terms' values read from the dense tables
//! and xored; each option's value marked with the stamp; then the mex.
//! Every check that fails jumps to one cold block that returns
//! [`super::BAIL`].

use super::super::expr::{Cond, Lin, Num, SLOT_LIMIT};
use super::super::narrow::{Affine, solve};
use super::super::run::Values;
use super::super::{Domain, Kernel, Move, Narrow, Term};
use crate::graph::{DENSE_END, Dense, View};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, FuncRef, Function, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value,
    types::{I8, I32, I64},
};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use std::mem::offset_of;

/// Loop iterations one call may make before it leaves the position to
/// the kernel's run, which looks at the clock as it goes.
const BUDGET: i64 = 1 << 24;

/// `x ** y` as the interpreter computes it, or `i64::MIN` when that is an
/// error or overflows (or is `i64::MIN`: the kernel's run then decides).
pub extern "C" fn pow(x: i64, y: i64) -> i64 {
    use crate::runtime::ops::arith;
    arith(BinOp::Pow, x, y, crate::span::Span::default()).unwrap_or(i64::MIN)
}

/// Which function to build: the mex of one position, or a sweep that
/// finds the values of a one-integer game's positions `from..to` in turn
/// and writes each into the game's own dense table.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Mex,
    Sweep,
}

/// The window `from..to` of offsets `t` in `0..len` where
/// `start + step * t  op  0` holds (see [`solve`]), packed as
/// `from | to << 32`; `op` is the index of the comparison in [`NARROWING`].
pub extern "C" fn narrow(op: i64, start: i64, step: i64, len: i64) -> u64 {
    let (from, to) = solve(NARROWING[op as usize], start, step, len);
    from as u64 | (to as u64) << 32
}

/// The comparisons that narrow a loop, numbered for [`narrow`].
const NARROWING: [BinOp; 5] = [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Eq];

/// Builds the function of `kernel` into `func`; `None` when some part of
/// it has no machine code here.
pub fn function(
    kernel: &Kernel,
    kind: Kind,
    (func, fctx): (&mut Function, &mut FunctionBuilderContext),
    (pow, narrow, unusual): (FuncRef, FuncRef, FuncRef),
    config: TargetFrontendConfig,
) -> Option<()> {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let bail = b.create_block();
    b.set_cold_block(bail);
    let mut e = Emit {
        slots: (0..kernel.slots.max(kernel.arity))
            .map(|_| b.declare_var(I64))
            .collect(),
        count: b.declare_var(I64),
        work: b.declare_var(I64),
        stamp: b.declare_var(I64),
        missing: b.declare_var(I64),
        b,
        bail,
        marks: params[2],
        len: params[3],
        tables: Vec::new(),
        targets: &kernel.targets,
        pow,
        narrow,
        unusual,
        ctx: params[7],
    };
    e.b.def_var(e.stamp, params[4]);
    e.tables = (0..kernel.targets.len())
        .map(|t| e.table(params[5], t))
        .collect();
    match kind {
        Kind::Mex => e.mex(kernel, params[0])?,
        Kind::Sweep => e.sweep(kernel, (params[0], params[1]), params[6])?,
    }
    e.b.seal_all_blocks();
    e.b.finalize(config);
    Some(())
}

/// Where a dense table's pages are: their addresses, their lengths, and
/// their number (see [`View`]).
#[derive(Clone, Copy)]
struct Table {
    pages: Value,
    lens: Value,
    count: Value,
}

struct Emit<'a, 'f> {
    b: FunctionBuilder<'f>,
    /// The frame's integer slots.
    slots: Vec<Variable>,
    /// Options marked so far, loop iterations made, and the stamp that
    /// marks an option of the position.
    count: Variable,
    work: Variable,
    stamp: Variable,
    bail: Block,
    marks: Value,
    len: Value,
    /// The dense table of each target, read once per call.
    tables: Vec<Table>,
    targets: &'a [(crate::value::GameId, usize)],
    pow: FuncRef,
    narrow: FuncRef,
    /// The helper that reads an option's value the code does not read
    /// itself ([`super::unusual`]), and its context.
    unusual: FuncRef,
    ctx: Value,
    /// Set when an option's position has no value yet: the position's
    /// marks no longer count, and it ends with [`super::MISSING`].
    missing: Variable,
}

fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl Emit<'_, '_> {
    fn int(&mut self, n: i64) -> Value {
        self.b.ins().iconst(I64, n)
    }

    /// Goes on only where `failed` is false.
    fn bail_if(&mut self, failed: Value) {
        let go_on = self.b.create_block();
        self.b.ins().brif(failed, self.bail, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
    }

    /// Goes on only where `v` is in `lo..hi`.
    fn bail_outside(&mut self, v: Value, lo: i64, hi: i64) {
        let shifted = self.b.ins().iadd_imm_s(v, lo.wrapping_neg());
        let out = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, shifted, hi - lo);
        self.bail_if(out);
    }

    fn table(&mut self, views: Value, t: usize) -> Table {
        let at = |field: usize| (t * size_of::<View>() + field) as i32;
        let mut load = |field| self.b.ins().load(I64, trusted(), views, at(field));
        Table {
            pages: load(offset_of!(View, pages)),
            lens: load(offset_of!(View, lens)),
            count: load(offset_of!(View, count)),
        }
    }

    /// The mex function: the arguments read from `args`, each within the
    /// kernel's [`SLOT_LIMIT`]; returns the mex with the count of options
    /// above it, or -1 ([`super::BAIL`]).
    fn mex(&mut self, kernel: &Kernel, args: Value) -> Option<()> {
        let mut given = Vec::new();
        for i in 0..kernel.arity {
            let v = self.b.ins().load(I64, trusted(), args, 8 * i as i32);
            self.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
            given.push(v);
        }
        self.position(kernel, &given)?;
        let missing = self.b.use_var(self.missing);
        let (some, none) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(missing, some, &[], none, &[]);
        self.b.switch_to_block(some);
        self.report_work();
        let code = self.int(super::MISSING as i64);
        self.b.ins().return_(&[code]);
        self.b.switch_to_block(none);
        let value = self.first_unmarked();
        let count = self.b.use_var(self.count);
        let high = self.b.ins().ishl_imm_s(count, 32);
        let result = self.b.ins().bor(value, high);
        self.report_work();
        self.b.ins().return_(&[result]);
        self.b.switch_to_block(self.bail);
        let bail = self.int(-1);
        self.b.ins().return_(&[bail]);
        Some(())
    }

    /// The sweep function: for `n` from `from` (0 or more) to `to` (below
    /// 2³¹), the value of position `n`, written into the game's own table
    /// `own` (whose slots for them the caller has made); the stamps go up
    /// by one per position. Returns where it stopped: `to`, a position
    /// it left to the kernel's run (one without options among them), or,
    /// with [`super::PAUSED`] set, where it paused after enough work.
    fn sweep(&mut self, kernel: &Kernel, (from, to): (Value, Value), own: Value) -> Option<()> {
        let own = self.table(own, 0);
        let n = self.b.declare_var(I64);
        self.b.def_var(n, from);
        let total = self.b.declare_var(I64);
        let zero = self.int(0);
        self.b.def_var(total, zero);
        let (head, body, stop) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let at = self.b.use_var(n);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, at, to);
        self.b.ins().brif(more, body, &[], stop, &[]);
        self.b.switch_to_block(body);
        self.position(kernel, &[at])?;
        let missing = self.b.use_var(self.missing);
        self.bail_if(missing);
        let value = self.first_unmarked();
        let count = self.b.use_var(self.count);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, count, 0);
        self.bail_if(none);
        let page = self
            .b
            .ins()
            .ushr_imm_s(at, Dense::PAGE.trailing_zeros() as i64);
        let place = self.b.ins().band_imm_s(at, Dense::PAGE as i64 - 1);
        let slot = self.slot(own, page, place);
        self.b.ins().istore32(trusted(), value, slot, 0);
        let stamp = self.b.use_var(self.stamp);
        let stamp = self.b.ins().iadd_imm_s(stamp, 1);
        self.b.def_var(self.stamp, stamp);
        let next = self.b.ins().iadd_imm_s(at, 1);
        self.b.def_var(n, next);
        // A pause after enough work, for the caller to look at the clock.
        let work = self.b.use_var(self.work);
        let sum = self.b.use_var(total);
        let sum = self.b.ins().iadd(sum, work);
        self.b.def_var(total, sum);
        let enough = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThan, sum, BUDGET / 4);
        let pause = self.b.create_block();
        self.b.ins().brif(enough, pause, &[], head, &[]);
        self.b.switch_to_block(pause);
        let paused = self.b.ins().bor_imm_s(next, super::PAUSED as i64);
        self.b.ins().return_(&[paused]);
        self.b.switch_to_block(stop);
        self.b.ins().return_(&[to]);
        self.b.switch_to_block(self.bail);
        let at = self.b.use_var(n);
        self.b.ins().return_(&[at]);
        Some(())
    }

    /// Tells the caller how many loop iterations the call made, so that
    /// it looks at the clock in time however short each call is.
    fn report_work(&mut self) {
        let work = self.b.use_var(self.work);
        let at = offset_of!(super::Ctx, work) as i32;
        self.b.ins().store(trusted(), work, self.ctx, at);
    }

    /// The options of the position with arguments `args`, marked, with
    /// their count in [`Emit::count`] (and [`Emit::missing`] set if one
    /// has no value yet).
    fn position(&mut self, kernel: &Kernel, args: &[Value]) -> Option<()> {
        for (i, slot) in self.slots.clone().into_iter().enumerate() {
            let v = match args.get(i) {
                Some(v) => *v,
                None => self.int(0),
            };
            self.b.def_var(slot, v);
        }
        let zero = self.int(0);
        self.b.def_var(self.count, zero);
        self.b.def_var(self.work, zero);
        self.b.def_var(self.missing, zero);
        for rule in &kernel.moves {
            let done = self.b.create_block();
            self.binders(rule, 0, done)?;
            self.b.switch_to_block(done);
        }
        Some(())
    }

    /// The mex of the marks.
    fn first_unmarked(&mut self) -> Value {
        let i = self.b.declare_var(I64);
        let zero = self.int(0);
        self.b.def_var(i, zero);
        let (head, next, found) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let v = self.b.use_var(i);
        let past = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, v, self.len);
        self.bail_if(past);
        let at = self.b.ins().imul_imm_s(v, 4);
        let at = self.b.ins().iadd(self.marks, at);
        let mark = self.b.ins().load(I32, trusted(), at, 0);
        let mark = self.b.ins().uextend(I64, mark);
        let stamp = self.b.use_var(self.stamp);
        let marked = self.b.ins().icmp(IntCC::Equal, mark, stamp);
        self.b.ins().brif(marked, next, &[], found, &[]);
        self.b.switch_to_block(next);
        let v1 = self.b.ins().iadd_imm_s(v, 1);
        self.b.def_var(i, v1);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(found);
        v
    }

    /// Counts a loop iteration, leaving the position to the kernel's run
    /// past the budget.
    fn tick(&mut self) {
        let w = self.b.use_var(self.work);
        let w = self.b.ins().iadd_imm_s(w, 1);
        self.b.def_var(self.work, w);
        let over = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, w, BUDGET);
        self.bail_if(over);
    }

    /// `body` for each `k` in `from..to`, told the block that goes on to
    /// the next `k`; then goes on after the loop.
    fn each(
        &mut self,
        from: Value,
        to: Value,
        mut body: impl FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let k = self.b.declare_var(I64);
        self.b.def_var(k, from);
        let (head, step, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let v = self.b.use_var(k);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, v, to);
        let inside = self.b.create_block();
        self.b.ins().brif(more, inside, &[], exit, &[]);
        self.b.switch_to_block(inside);
        self.tick();
        body(self, v, step)?;
        self.b.switch_to_block(step);
        let v = self.b.use_var(k);
        let v = self.b.ins().iadd_imm_s(v, 1);
        self.b.def_var(k, v);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(exit);
        Some(())
    }

    /// The loops of binders `i..` of `rule`, then its options; jumps to
    /// `done` after.
    fn binders(&mut self, rule: &Move, i: usize, done: Block) -> Option<()> {
        let Some((slot, domain)) = rule.binders.get(i) else {
            return self.option(rule, 0, done);
        };
        let slot = self.slots[*slot as usize];
        if i + 1 == rule.binders.len()
            && let Some(values) = unrolled(domain)
        {
            // A few constants: one copy of the options per value, where
            // the constant folds into the guard and the targets.
            for k in values {
                let next = self.b.create_block();
                let k = self.int(k);
                self.b.def_var(slot, k);
                self.option(rule, 0, next)?;
                self.b.switch_to_block(next);
            }
            self.b.ins().jump(done, &[]);
            return Some(());
        }
        let inner = |e: &mut Self, k: Value, next: Block| {
            e.b.def_var(slot, k);
            e.binders(rule, i + 1, next)
        };
        match domain {
            Domain::Range(lo, hi, inclusive) => {
                let lo = self.num(lo)?;
                let mut hi = self.num(hi)?;
                if *inclusive {
                    let one = self.int(1);
                    hi = self.checked(BinOp::Add, hi, one);
                }
                // The kernel's run bails on a range reaching past the slots'
                // limit: so does this.
                let empty = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, lo, hi);
                let low = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::SignedLessThanOrEqual, lo, -SLOT_LIMIT);
                let high = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::SignedGreaterThan, hi, SLOT_LIMIT);
                let out = self.b.ins().bor(low, high);
                let zero = self.b.ins().iconst(I8, 0);
                let bad = self.b.ins().select(empty, zero, out);
                self.bail_if(bad);
                // A short constant range tests its guard per value: cheaper
                // than narrowing it.
                let short = lo_hi_const(domain);
                if i + 1 < rule.binders.len() || short {
                    self.each(lo, hi, inner)?;
                } else {
                    let x = rule.binders[i].0;
                    let (lo, hi, tested) = self.narrowed(rule, x, (lo, hi), done)?;
                    self.each(lo, hi, |e, k, next| {
                        e.b.def_var(slot, k);
                        e.option(rule, tested, next)
                    })?;
                }
            }
            Domain::Fixed(Values::Range(lo, hi)) => {
                let (lo, hi) = (self.int(*lo), self.int(*hi));
                self.each(lo, hi, inner)?;
            }
            Domain::Fixed(values @ Values::List { .. }) => {
                let items = values.items();
                let at = self.int(items.as_ptr() as i64);
                self.items(at, items.len(), inner)?;
            }
            Domain::Items(items) => {
                let data =
                    StackSlotData::new(StackSlotKind::ExplicitSlot, 8 * items.len() as u32, 3);
                let stack = self.b.create_sized_stack_slot(data);
                for (j, item) in items.iter().enumerate() {
                    let v = self.num(item)?;
                    self.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
                    self.b.ins().stack_store(I64, v, stack, 8 * j as i32);
                }
                let at = self.b.ins().stack_addr(I64, stack, 0);
                self.items(at, items.len(), inner)?;
            }
            Domain::Global(_) => return None,
        }
        self.b.ins().jump(done, &[]);
        Some(())
    }

    /// The innermost binder `x`'s range `lo..hi` cut to where the guard's
    /// leading conjuncts hold: those that do not mention `x`, tested once, jumping to `done` where one fails; and
    /// linear or affine comparisons, solved for the window, as the
    /// kernel's run does. Returns the window and how many conjuncts it
    /// took.
    fn narrowed(
        &mut self,
        rule: &Move,
        x: crate::ir::Slot,
        (mut lo, mut hi): (Value, Value),
        done: Block,
    ) -> Option<(Value, Value, usize)> {
        let mut tested = 0;
        for (j, narrow) in rule.narrow.iter().enumerate() {
            let (op, d0, step) = match narrow {
                // Evaluated once: it holds for every value of `x` or for
                // none (an error bails, and the kernel's run decides).
                Narrow::Once => {
                    let holds = self.cond(&rule.guard[j])?;
                    let go_on = self.b.create_block();
                    self.b.ins().brif(holds, go_on, &[], done, &[]);
                    self.b.switch_to_block(go_on);
                    tested = j + 1;
                    continue;
                }
                Narrow::Linear(op, d) if *op != BinOp::Ne => {
                    let mut free = d.clone();
                    free.terms.retain(|(s, _)| *s != x);
                    (*op, self.lin(&free), self.int(d.coef(x)))
                }
                Narrow::Affine(op, d) if *op != BinOp::Ne => {
                    let (c0, c1) = self.affine(d)?;
                    (*op, c0, c1)
                }
                _ => break,
            };
            let at_lo = self.checked(BinOp::Mul, step, lo);
            let start = self.checked(BinOp::Add, at_lo, d0);
            let len = self.b.ins().isub(hi, lo);
            let zero = self.int(0);
            let len = self.b.ins().smax(len, zero);
            let op = self.int(NARROWING.iter().position(|o| *o == op)? as i64);
            let call = self.b.ins().call(self.narrow, &[op, start, step, len]);
            let window = self.b.inst_results(call)[0];
            let from = self.b.ins().band_imm_s(window, 0xffff_ffff);
            let to = self.b.ins().ushr_imm_s(window, 32);
            hi = self.b.ins().iadd(lo, to);
            lo = self.b.ins().iadd(lo, from);
            tested = j + 1;
        }
        Some((lo, hi, tested))
    }

    /// The coefficients `(c0, c1)` of an affine comparison, each part
    /// below [`SLOT_LIMIT`] in magnitude (as the kernel's run checks).
    fn affine(&mut self, d: &Affine) -> Option<(Value, Value)> {
        let part = |e: &mut Self, sign: i64, n: Option<&Num>| -> Option<Value> {
            let v = match n {
                Some(n) => e.num(n)?,
                None => e.int(1),
            };
            e.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
            Some(e.b.ins().imul_imm_s(v, sign))
        };
        let mut c0 = self.int(0);
        for (sign, n) in &d.free {
            let v = part(self, *sign, Some(n))?;
            c0 = self.b.ins().iadd(c0, v);
        }
        let mut c1 = self.int(0);
        for (sign, n) in &d.coefs {
            let v = part(self, *sign, n.as_ref())?;
            c1 = self.b.ins().iadd(c1, v);
        }
        Some((c0, c1))
    }

    /// `body` for each of the `n` integers at `at`, in order.
    fn items(
        &mut self,
        at: Value,
        n: usize,
        mut body: impl FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let (from, to) = (self.int(0), self.int(n as i64));
        self.each(from, to, |e, j, next| {
            let offset = e.b.ins().imul_imm_s(j, 8);
            let address = e.b.ins().iadd(at, offset);
            let k = e.b.ins().load(I64, trusted(), address, 0);
            body(e, k, next)
        })
    }

    /// One combination of binder values: the guard (past its first
    /// `tested` conjuncts, which hold), then the option's value marked;
    /// jumps to `next` either way.
    fn option(&mut self, rule: &Move, tested: usize, next: Block) -> Option<()> {
        for c in &rule.guard[tested..] {
            let holds = self.cond(c)?;
            let go_on = self.b.create_block();
            self.b.ins().brif(holds, go_on, &[], next, &[]);
            self.b.switch_to_block(go_on);
        }
        let mut value = self.int(0);
        for term in &rule.terms {
            let v = self.term(term)?;
            value = self.b.ins().bxor(value, v);
        }
        let past = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, value, self.len);
        self.bail_if(past);
        let at = self.b.ins().imul_imm_s(value, 4);
        let at = self.b.ins().iadd(self.marks, at);
        let stamp = self.b.use_var(self.stamp);
        self.b.ins().istore32(trusted(), stamp, at, 0);
        let count = self.b.use_var(self.count);
        let count = self.b.ins().iadd_imm_s(count, 1);
        self.b.def_var(self.count, count);
        self.b.ins().jump(next, &[]);
        Some(())
    }

    /// A term's nim-value: a heap's size, or a position's value read from
    /// its game's dense table.
    fn term(&mut self, term: &Term) -> Option<Value> {
        let (game, args) = match term {
            Term::Heap(k) => {
                let v = self.num(k)?;
                let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
                self.bail_if(negative);
                return Some(v);
            }
            Term::Node(game, args) => (*game, args),
        };
        let index = self.targets.iter().position(|t| *t == (game, args.len()))?;
        let (slow, join) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(slow);
        let value = self.b.declare_var(I64);
        let (a, b, page, place) = match args.as_slice() {
            [n] => {
                let n = self.num(n)?;
                self.outside_to(n, (0, DENSE_END.into()), slow);
                let shift = Dense::PAGE.trailing_zeros() as i64;
                let page = self.b.ins().ushr_imm_s(n, shift);
                let place = self.b.ins().band_imm_s(n, Dense::PAGE as i64 - 1);
                (n, self.int(0), page, place)
            }
            [a, b] => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                self.outside_to(a, (0, 46_340), slow);
                self.outside_to(b, (0, 46_340), slow);
                (a, b, a, b)
            }
            _ => return None,
        };
        let at = self.slot_or(self.tables[index], (page, place), slow);
        let slot = self.b.ins().load(I32, trusted(), at, 0);
        let slot = self.b.ins().uextend(I64, slot);
        let plain = i64::from(Dense::PLAIN);
        let unusual = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, slot, plain);
        let fast = self.b.create_block();
        self.b.ins().brif(unusual, slow, &[], fast, &[]);
        self.b.switch_to_block(fast);
        self.b.def_var(value, slot);
        self.b.ins().jump(join, &[]);
        // Anything else is the helper's: a hashed position, a large value,
        // one without a value yet (then 0 here, and the position's marks
        // no longer count), one on the search path (bail).
        self.b.switch_to_block(slow);
        let target = self.int(index as i64);
        let call = self.b.ins().call(self.unusual, &[self.ctx, target, a, b]);
        let v = self.b.inst_results(call)[0];
        let bail = self.b.ins().icmp_imm_s(IntCC::Equal, v, super::BAIL as i64);
        self.bail_if(bail);
        let missing = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, v, super::MISSING as i64);
        let flag = self.b.ins().uextend(I64, missing);
        let before = self.b.use_var(self.missing);
        let after = self.b.ins().bor(before, flag);
        self.b.def_var(self.missing, after);
        let zero = self.int(0);
        let v = self.b.ins().select(missing, zero, v);
        self.b.def_var(value, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(value))
    }

    /// Goes on only where `v` is in `lo..hi`, else to `elsewhere`.
    fn outside_to(&mut self, v: Value, (lo, hi): (i64, i64), elsewhere: Block) {
        let shifted = self.b.ins().iadd_imm_s(v, lo.wrapping_neg());
        let out = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, shifted, hi - lo);
        let go_on = self.b.create_block();
        self.b.ins().brif(out, elsewhere, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
    }

    /// The address of slot `place` of page `page` of `table`, checked to
    /// be inside it (else the code bails).
    fn slot(&mut self, table: Table, page: Value, place: Value) -> Value {
        self.slot_or(table, (page, place), self.bail)
    }

    /// [`Emit::slot`], going to `elsewhere` when it is not inside.
    fn slot_or(&mut self, table: Table, (page, place): (Value, Value), elsewhere: Block) -> Value {
        let out = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, page, table.count);
        let go_on = self.b.create_block();
        self.b.ins().brif(out, elsewhere, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
        let at = self.b.ins().imul_imm_s(page, 4);
        let at = self.b.ins().iadd(table.lens, at);
        let len = self.b.ins().load(I32, trusted(), at, 0);
        let len = self.b.ins().uextend(I64, len);
        let out = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, place, len);
        let go_on = self.b.create_block();
        self.b.ins().brif(out, elsewhere, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
        let at = self.b.ins().imul_imm_s(page, 8);
        let at = self.b.ins().iadd(table.pages, at);
        let slots = self.b.ins().load(I64, trusted(), at, 0);
        let at = self.b.ins().imul_imm_s(place, 4);
        self.b.ins().iadd(slots, at)
    }

    /// `a op b`, checked as the interpreter checks it.
    fn checked(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ins = self.b.ins();
        let (v, overflow) = match op {
            BinOp::Add => ins.sadd_overflow(a, b),
            BinOp::Sub => ins.ssub_overflow(a, b),
            _ => ins.smul_overflow(a, b),
        };
        self.bail_if(overflow);
        v
    }

    fn lin(&mut self, lin: &Lin) -> Value {
        // Exact without checks: see `Lin`.
        let mut v = self.int(lin.c);
        for (slot, k) in &lin.terms {
            let s = self.b.use_var(self.slots[*slot as usize]);
            let s = self.b.ins().imul_imm_s(s, *k);
            v = self.b.ins().iadd(v, s);
        }
        v
    }

    /// An integer expression's value.
    fn num(&mut self, n: &Num) -> Option<Value> {
        Some(match n {
            Num::Const(c) => self.int(*c),
            Num::Slot(s) => self.b.use_var(self.slots[*s as usize]),
            Num::Lin(l) => self.lin(l),
            Num::Global(_) => return None,
            Num::Neg(a) => {
                let zero = self.int(0);
                let a = self.num(a)?;
                self.checked(BinOp::Sub, zero, a)
            }
            Num::BitNot(a) => {
                let a = self.num(a)?;
                self.b.ins().bnot(a)
            }
            Num::Abs(a) => {
                let a = self.num(a)?;
                let min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
                self.bail_if(min);
                self.b.ins().iabs(a)
            }
            Num::Bin(op, a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                self.binary(*op, a, b)?
            }
            Num::If(c, a, b) => {
                let c = self.cond(c)?;
                self.choose(I64, c, |e| e.num(a), |e| e.num(b))?
            }
            Num::Extremum(min, items) => {
                let mut best = self.num(&items[0])?;
                for item in &items[1..] {
                    let v = self.num(item)?;
                    best = match min {
                        true => self.b.ins().smin(best, v),
                        false => self.b.ins().smax(best, v),
                    };
                }
                best
            }
        })
    }

    fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Option<Value> {
        use BinOp::*;
        Some(match op {
            Add | Sub | Mul => self.checked(op, a, b),
            BitAnd => self.b.ins().band(a, b),
            BitOr => self.b.ins().bor(a, b),
            BitXor => self.b.ins().bxor(a, b),
            Div | Rem => self.floor(op, a, b),
            Shl | Shr => {
                self.bail_outside(b, 0, 64);
                match op {
                    Shr => self.b.ins().sshr(a, b),
                    _ => {
                        let v = self.b.ins().ishl(a, b);
                        let back = self.b.ins().sshr(v, b);
                        let lost = self.b.ins().icmp(IntCC::NotEqual, back, a);
                        self.bail_if(lost);
                        v
                    }
                }
            }
            Pow => {
                let call = self.b.ins().call(self.pow, &[a, b]);
                let v = self.b.inst_results(call)[0];
                let failed = self.b.ins().icmp_imm_s(IntCC::Equal, v, i64::MIN);
                self.bail_if(failed);
                v
            }
            _ => return None,
        })
    }

    /// Python's floor division or modulo, as the interpreter has them.
    fn floor(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        self.bail_if(zero);
        let minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
        if op == BinOp::Div {
            let min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
            let overflow = self.b.ins().band(min, minus_one);
            self.bail_if(overflow);
        }
        // `x % -1` is 0, and the hardware would trap on `MIN % -1`: the
        // remainder divides by 1 instead (`MIN / -1` bailed above).
        let d = match op {
            BinOp::Div => b,
            _ => {
                let one = self.int(1);
                self.b.ins().select(minus_one, one, b)
            }
        };
        let q = self.b.ins().sdiv(a, d);
        let r = self.b.ins().srem(a, d);
        // Rounded towards zero: one step down when the signs differ.
        let inexact = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
        let signs = self.b.ins().bxor(r, b);
        let differ = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, signs, 0);
        let fix = self.b.ins().band(inexact, differ);
        match op {
            BinOp::Div => {
                let fix = self.b.ins().uextend(I64, fix);
                self.b.ins().isub(q, fix)
            }
            _ => {
                let zero = self.int(0);
                let add = self.b.ins().select(fix, b, zero);
                let r = self.b.ins().iadd(r, add);
                self.b.ins().select(minus_one, zero, r)
            }
        }
    }

    /// `then` where `c` holds, else `otherwise`, each evaluated only
    /// where it is taken.
    fn choose(
        &mut self,
        ty: cranelift_codegen::ir::Type,
        c: Value,
        then: impl FnOnce(&mut Self) -> Option<Value>,
        otherwise: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> Option<Value> {
        let result = self.b.declare_var(ty);
        let (yes, no, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(c, yes, &[], no, &[]);
        self.b.switch_to_block(yes);
        let v = then(self)?;
        self.b.def_var(result, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(no);
        let v = otherwise(self)?;
        self.b.def_var(result, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(result))
    }

    /// A condition's truth, as an 8-bit 0 or 1.
    fn cond(&mut self, c: &Cond) -> Option<Value> {
        Some(match c {
            Cond::Const(b) => self.b.ins().iconst(I8, i64::from(*b)),
            Cond::Cmp(op, a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                self.b.ins().icmp(compare(*op)?, a, b)
            }
            Cond::And(a, b) => {
                let a = self.cond(a)?;
                self.choose(I8, a, |e| e.cond(b), |e| Some(e.b.ins().iconst(I8, 0)))?
            }
            Cond::Or(a, b) => {
                let a = self.cond(a)?;
                self.choose(I8, a, |e| Some(e.b.ins().iconst(I8, 1)), |e| e.cond(b))?
            }
            Cond::Not(a) => {
                let a = self.cond(a)?;
                self.b.ins().bxor_imm_s(a, 1)
            }
            Cond::If(c, a, b) => {
                let c = self.cond(c)?;
                self.choose(I8, c, |e| e.cond(a), |e| e.cond(b))?
            }
        })
    }
}

/// The values of a domain of at most [`UNROLLED`] constants, in order.
fn unrolled(domain: &Domain) -> Option<Vec<i64>> {
    let values: Vec<i64> = match domain {
        Domain::Range(Num::Const(lo), Num::Const(hi), inclusive) => {
            let hi = hi.checked_add(i64::from(*inclusive))?;
            if hi.saturating_sub(*lo) > UNROLLED as i64 {
                return None;
            }
            (*lo..hi).collect()
        }
        Domain::Fixed(Values::Range(lo, hi)) if hi.saturating_sub(*lo) <= UNROLLED as i64 => {
            (*lo..*hi).collect()
        }
        Domain::Fixed(values @ Values::List { .. }) => values.items().to_vec(),
        _ => return None,
    };
    // Beyond the slots' limit the kernel's run bails: so does the loop.
    let small = values.iter().all(|v| v.abs() < SLOT_LIMIT);
    (values.len() <= UNROLLED && small).then_some(values)
}

/// The most values of an innermost binder copied out instead of looped.
const UNROLLED: usize = 16;

/// Whether a range's ends are both constants, at most 64 apart.
fn lo_hi_const(domain: &Domain) -> bool {
    match domain {
        Domain::Range(Num::Const(lo), Num::Const(hi), _) => hi.saturating_sub(*lo) <= 64,
        _ => false,
    }
}

fn compare(op: BinOp) -> Option<IntCC> {
    Some(match op {
        BinOp::Eq => IntCC::Equal,
        BinOp::Ne => IntCC::NotEqual,
        BinOp::Lt => IntCC::SignedLessThan,
        BinOp::Le => IntCC::SignedLessThanOrEqual,
        BinOp::Gt => IntCC::SignedGreaterThan,
        BinOp::Ge => IntCC::SignedGreaterThanOrEqual,
        _ => return None,
    })
}
