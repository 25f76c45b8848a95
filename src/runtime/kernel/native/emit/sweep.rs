//! The sweep function of a one-integer game: its positions from the
//! bottom up (or from the top down), each value written into the game's
//! own table; and a four-integer game's, along a row of its table.

use super::trusted;
use super::{Emit, Window};
use crate::graph::{DENSE_END, SIDE4_MAX};
use crate::runtime::kernel::Kernel;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::Variable;

impl Emit<'_, '_> {
    /// The sweep function: for `n` from `from` (0 or more) up to `to`
    /// (below 2³¹), or, when `from > to`, down from `from` to `to + 1`
    /// (the chain up, `runtime/sweep/up.rs`, whose options lie above), the
    /// value of position `n`, written into the game's own table `own`
    /// (whose slots for them the caller has made); the stamps go up by one
    /// per position. Returns where it stopped: `to`, a position it left to
    /// the kernel's run (one without options: the context's `terminal`
    /// set, see [`Emit::valued`]), or, with [`super::PAUSED`] set, where
    /// it paused after enough work.
    pub(super) fn sweep(
        &mut self,
        kernel: &Kernel,
        (from, to): (Value, Value),
        own: Value,
    ) -> Option<()> {
        let own = self.table(own, 0);
        self.terminal = true;
        let n = self.b.declare_var(I64);
        self.b.def_var(n, from);
        let total = self.b.declare_var(I64);
        let zero = self.int(0);
        self.b.def_var(total, zero);
        // One loop each way, each with its step a constant: a step the
        // loop reads made the sweep up 13% longer (subtract_square).
        let [up, down, stop] = self.blocks();
        let upwards = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, from, to);
        self.b.ins().brif(upwards, up, &[], down, &[]);
        for (start, step) in [(up, 1), (down, -1)] {
            self.b.switch_to_block(start);
            self.sweep_loop(kernel, (to, own), (n, total, step), stop)?;
        }
        self.sweep_returns(stop, to, n);
        Some(())
    }

    /// The loop of [`Emit::sweep`] by `step` from `n` to `to`, on to
    /// `stop` after it: a page of the table at a time, its address and
    /// length read once, then the positions of the page that the run
    /// covers, each slot at its place in the page.
    fn sweep_loop(
        &mut self,
        kernel: &Kernel,
        (to, own): (Value, super::Table),
        (n, total, step): (Variable, Variable, i64),
        stop: Block,
    ) -> Option<()> {
        let [head, page, inner, body] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let at = self.b.use_var(n);
        // The exit first, the body second: see `Emit::each`.
        let done = self.b.ins().icmp(IntCC::Equal, at, to);
        self.b.ins().brif(done, stop, &[], page, &[]);
        self.b.switch_to_block(page);
        let (index, place) = self.page_place(at);
        let (slots, len) = self.row_or(own, (index, place), self.bail);
        // Where this page's run ends: up, at the page's length (its
        // places past it are the next look's, which bails on them);
        // down, below its first place. Every place between is inside.
        let first = self.b.ins().isub(at, place);
        let end = match step {
            1 => {
                let past = self.b.ins().iadd(first, len);
                self.b.ins().smin(to, past)
            }
            _ => {
                let below = self.b.ins().iadd_imm_s(first, -1);
                self.b.ins().smax(to, below)
            }
        };
        self.b.ins().jump(inner, &[]);
        self.b.switch_to_block(inner);
        let at = self.b.use_var(n);
        let done = self.b.ins().icmp(IntCC::Equal, at, end);
        self.b.ins().brif(done, head, &[], body, &[]);
        self.b.switch_to_block(body);
        // The position's own slot first: the options just below it are
        // read beside it.
        let (_, place) = self.page_place(at);
        let slot = self.slot_at(slots, place);
        let window = Window {
            row: None,
            at,
            place,
            slot,
        };
        self.valued_at(kernel, window, total)?;
        let next = self.b.ins().iadd_imm_s(at, step);
        self.b.def_var(n, next);
        // A pause after enough work, for the caller to look at the clock.
        self.pause_or(total, inner, next);
        Some(())
    }
}

impl Emit<'_, '_> {
    /// [`Emit::valued`] for the one-integer position `window.at` of a
    /// sweep, known to be in `0..DENSE_END` while its options are made:
    /// `n - k` with `k` a small binder then needs no test of overflow.
    fn valued_at(&mut self, kernel: &Kernel, window: Window, total: Variable) -> Option<()> {
        let outer = self.known[0];
        self.known[0] = Some((0, i64::from(DENSE_END) - 1));
        let valued = self.valued(kernel, &[window.at], window, total);
        self.known[0] = outer;
        valued
    }
}

impl Emit<'_, '_> {
    /// The row function of a four-integer game: the positions `(a, b, c,
    /// d)` of the row `(b, c, d)` (`first`'s three low 16-bit fields), for
    /// `a` from `second`'s low half up to its high half, each valued when
    /// its slot in the game's own table `own` (whose slots for them the
    /// caller has made) is unknown. Returns the high half when done; the
    /// `a` it left to the kernel's run; or, with [`super::super::PAUSED`]
    /// set, where it paused after enough work.
    pub(super) fn quad_row(
        &mut self,
        kernel: &Kernel,
        (first, second): (Value, Value),
        own: Value,
    ) -> Option<()> {
        let own = self.table_once(own, 0);
        let field = |e: &mut Self, v: Value, shift: i64, mask: i64| {
            let v = e.b.ins().ushr_imm_s(v, shift);
            e.b.ins().band_imm_s(v, mask)
        };
        // Each below SIDE4_MAX, as every argument of the table's
        // positions is: the reads of options need not check them.
        let side = SIDE4_MAX - 1;
        let b = field(self, first, 0, side);
        let c = field(self, first, 16, side);
        let d = field(self, first, 32, side);
        let from = field(self, second, 0, 0xffff_ffff);
        let to = self.b.ins().ushr_imm_s(second, 32);
        let row = self.cube_index(b, c, d);
        self.counted((from, to), |e, a, (total, next)| {
            let params = e.known.len().min(4);
            e.known[..params].fill(Some((0, side)));
            e.value_unknown(kernel, (own, (row, a)), &[a, b, c, d], (total, next))?;
            e.known[..params].fill(None);
            Some(())
        })
    }

    /// A sweep's loop of a counter from `from` up to `to`: `body` emits a
    /// turn, given the counter, the variable its work is added to and the
    /// block it ends by going to; the loop pauses after enough work, and
    /// returns as [`Emit::sweep_returns`] says.
    fn counted(
        &mut self,
        (from, to): (Value, Value),
        body: impl FnOnce(&mut Self, Value, (Variable, Block)) -> Option<()>,
    ) -> Option<()> {
        let (n, total) = (self.b.declare_var(I64), self.b.declare_var(I64));
        self.b.def_var(n, from);
        let zero = self.int(0);
        self.b.def_var(total, zero);
        let [head, turn, next, stop] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let at = self.b.use_var(n);
        let done = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, at, to);
        self.b.ins().brif(done, stop, &[], turn, &[]);
        self.b.switch_to_block(turn);
        let at = self.b.use_var(n);
        body(self, at, (total, next))?;
        self.b.switch_to_block(next);
        let at = self.b.use_var(n);
        let at1 = self.b.ins().iadd_imm_s(at, 1);
        self.b.def_var(n, at1);
        self.pause_or(total, head, at1);
        self.sweep_returns(stop, to, n);
        Some(())
    }
}

impl Emit<'_, '_> {
    /// The sweep of a group of one-integer games (see
    /// [`crate::runtime::kernel::native::group`]): for `n` from `from` up
    /// to `to`, the position `n` of each of `kernels`' games in turn,
    /// valued where its slot in that game's table (the `i`th of the views
    /// at `owns`, whose slots the caller has made) is unknown. Returns
    /// `to`; the `n` at which it left a position to the kernels' runs; or,
    /// with [`super::super::PAUSED`] set, where it paused after enough work.
    pub(super) fn group_sweep(
        &mut self,
        kernels: &[std::rc::Rc<Kernel>],
        (from, to): (Value, Value),
        owns: Value,
    ) -> Option<()> {
        let owns: Vec<super::Table> = (0..kernels.len())
            .map(|i| self.table_once(owns, i))
            .collect();
        self.counted((from, to), |e, at, (total, next)| {
            let (page, place) = e.page_place(at);
            for (kernel, own) in kernels.iter().zip(owns) {
                let [inside, after] = e.blocks();
                let slot = e.slot(own, page, place);
                let value = e.b.ins().load(I32, trusted(), slot, 0);
                let value = e.b.ins().uextend(I64, value);
                let unknown = (e.b.ins()).icmp_imm_s(IntCC::Equal, value, i64::from(u32::MAX));
                e.b.ins().brif(unknown, inside, &[], after, &[]);
                e.b.switch_to_block(inside);
                (e.bits, e.wide) = (kernel.few_options(), kernel.wide);
                let window = Window {
                    row: None,
                    at,
                    place,
                    slot,
                };
                e.valued_at(kernel, window, total)?;
                e.b.ins().jump(after, &[]);
                e.b.switch_to_block(after);
            }
            e.b.ins().jump(next, &[]);
            Some(())
        })
    }
}
