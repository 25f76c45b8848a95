//! The machine code of a top-level query ([`Query`]): its comprehension's
//! loops, each element folded into one integer, which the function writes
//! into the context, or kept by a helper for a list; `value(g(...))` asks
//! the search through a helper.

use super::{Emit, trusted};
use crate::runtime::kernel::Arg;
use crate::runtime::kernel::expr::Num;
use crate::runtime::kernel::query::{Element, Fold, Query};
use crate::syntax::ast::BinOp;
use crate::value::GameId;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};
use std::mem::offset_of;

/// Loop iterations between two looks at the clock.
const TICKS: i64 = 1 << 12;

impl Emit<'_, '_> {
    /// The query function: returns 0 with the result in the context's
    /// `out`, or -1 ([`super::super::BAIL`]) for the interpreter to
    /// evaluate the query instead.
    pub(super) fn query(&mut self, q: &Query) -> Option<()> {
        let zero = self.int(0);
        for slot in self.slots.clone() {
            self.b.def_var(slot, zero);
        }
        for var in [self.count, self.missing, self.work] {
            self.b.def_var(var, zero);
        }
        self.b.def_var(self.top, self.top0);
        let (acc, seen) = (self.b.declare_var(I64), self.b.declare_var(I64));
        self.b.def_var(acc, zero);
        self.b.def_var(seen, zero);
        let (fold, collect) = (q.fold, q.collect);
        self.comp(&q.comp, 0, &mut |e, elem, next| {
            let v = match elem {
                Element::Num(n) => {
                    let v = e.num(n)?;
                    if collect {
                        let call = e.b.ins().call(e.collect, &[e.ctx, v]);
                        e.stop_unless_zero(call);
                    }
                    v
                }
                // Made on the arena, handed over, then gone: only
                // `collect` makes a query of such elements.
                Element::Items(xs, _) => {
                    let top = e.b.use_var(e.top);
                    let (from, to) = e.seq(xs)?;
                    let call = e.b.ins().call(e.collect_items, &[e.ctx, from, to]);
                    e.stop_unless_zero(call);
                    e.b.def_var(e.top, top);
                    e.int(0)
                }
            };
            let so_far = e.b.use_var(acc);
            let folded = match fold {
                Fold::Count => e.b.ins().iadd_imm_s(so_far, 1),
                Fold::Sum => e.checked(BinOp::Add, so_far, v),
                Fold::Xor => e.b.ins().bxor(so_far, v),
                // Whether an element came before: only these folds carry
                // it through the loops.
                Fold::Min | Fold::Max => {
                    let first = e.b.use_var(seen);
                    let best = match fold {
                        Fold::Min => e.b.ins().smin(so_far, v),
                        _ => e.b.ins().smax(so_far, v),
                    };
                    let one = e.int(1);
                    e.b.def_var(seen, one);
                    e.b.ins().select(first, best, v)
                }
            };
            e.b.def_var(acc, folded);
            e.b.ins().jump(next, &[]);
            Some(())
        })?;
        if matches!(fold, Fold::Min | Fold::Max) {
            // `min` or `max` of nothing: the interpreter's error.
            let seen = self.b.use_var(seen);
            let empty = self.b.ins().icmp_imm_s(IntCC::Equal, seen, 0);
            self.bail_if(empty);
        }
        let result = self.b.use_var(acc);
        let at = offset_of!(super::super::Ctx, out) as i32;
        self.b.ins().store(trusted(), result, self.ctx, at);
        let done = self.int(0);
        self.b.ins().return_(&[done]);
        self.b.switch_to_block(self.bail);
        let bail = self.int(-1);
        self.b.ins().return_(&[bail]);
        Some(())
    }

    /// Bails unless the helper call `call` returned 0.
    fn stop_unless_zero(&mut self, call: cranelift_codegen::ir::Inst) {
        let said = self.b.inst_results(call)[0];
        let stop = self.b.ins().icmp_imm_s(IntCC::NotEqual, said, 0);
        self.bail_if(stop);
    }

    /// `value(game(args))`: read from the game's dense table where it is
    /// there with a value (the table's view read afresh, as the search
    /// may have grown it since), else asked of the search by the query
    /// helper ([`super::super::query::value`]); bails where it cannot
    /// answer.
    pub(super) fn query_value(&mut self, game: GameId, args: &[Num]) -> Option<Value> {
        // Rules never ask: only a query's machine code has the helper.
        self.tick?;
        let index = self.targets.iter().position(|t| *t == (game, args.len()))?;
        let given = args
            .iter()
            .map(|a| self.num(a))
            .collect::<Option<Vec<_>>>()?;
        self.read_or_ask(index, (&given, 0), |e| {
            let at = e.on_stack(&given);
            let game = e.int(game.into());
            let n = e.int(given.len() as i64);
            let call = e.b.ins().call(e.query, &[e.ctx, game, at, n]);
            e.forget_pages();
            let v = e.b.inst_results(call)[0];
            let failed = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
            e.bail_if(failed);
            Some(v)
        })
    }

    /// The value at `ints` of the form `code` (0: integers) in the table
    /// of the query's target `index`, read inline where it is there with
    /// a value, else what `ask` gives on the cold path.
    fn read_or_ask(
        &mut self,
        index: usize,
        (ints, code): (&[Value], u64),
        ask: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> Option<Value> {
        let value = self.b.declare_var(I64);
        let [slow, join] = self.blocks();
        self.b.set_cold_block(slow);
        let table = self.table(self.views, index);
        let table = table.of_arity(self.targets[index].1);
        match (self.pages.get(index).copied().flatten(), ints, code) {
            (Some(cache), [n], 0) => self.read_kept(table, cache, *n, value, (slow, join)),
            _ => self.read_dense(table, (ints, code), value, (slow, join)),
        }
        self.b.switch_to_block(slow);
        let v = ask(self)?;
        self.b.def_var(value, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(value))
    }

    /// `value(g(args))` in a query, of a position with collection
    /// arguments: its flat run made on the arena and given to the
    /// query's helper, its length negated to tell it from integers.
    pub(super) fn query_flat(&mut self, game: GameId, header: i64, args: &[Arg]) -> Option<Value> {
        self.tick?;
        // A position of a fixed form (`g(n, false)`, `g([a, b])`): read
        // from the table where it holds that form, as one of integers is.
        let asked = (game, crate::runtime::kernel::expr::ASKED_FLAT);
        let index = self.targets.iter().position(|t| *t == asked);
        let form = crate::runtime::kernel::forms::static_form(header, args);
        if let (Some(index), Some(form)) = (index, form)
            && form.lets.is_empty()
        {
            let ints = (form.ints.iter())
                .map(|n| self.num(n))
                .collect::<Option<Vec<_>>>()?;
            return self.read_or_ask(index, (&ints, form.code), |e| {
                e.query_flat_asked(game, header, args)
            });
        }
        self.query_flat_asked(game, header, args)
    }

    /// [`Emit::query_flat`] by the query's helper.
    fn query_flat_asked(&mut self, game: GameId, header: i64, args: &[Arg]) -> Option<Value> {
        let top = self.b.use_var(self.top);
        let from = self.run_copied(header, args)?;
        let to = self.b.use_var(self.top);
        let len = self.b.ins().isub(from, to);
        let offset = self.b.ins().ishl_imm_s(from, 3);
        let run = self.b.ins().iadd(self.arena, offset);
        let game = self.int(game.into());
        let call = self.b.ins().call(self.query, &[self.ctx, game, run, len]);
        self.forget_pages();
        let v = self.b.inst_results(call)[0];
        let failed = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
        self.bail_if(failed);
        self.b.def_var(self.top, top);
        Some(v)
    }

    /// In a query, counts a loop iteration, and every [`TICKS`] of them
    /// asks the helper whether to stop (Ctrl-C, the time limit).
    pub(super) fn tick(&mut self) {
        let Some(tick) = self.tick else {
            return;
        };
        let w = self.b.use_var(self.work);
        let w = self.b.ins().iadd_imm_s(w, 1);
        self.b.def_var(self.work, w);
        let low = self.b.ins().band_imm_s(w, TICKS - 1);
        let due = self.b.ins().icmp_imm_s(IntCC::Equal, low, 0);
        let [look, on] = self.blocks();
        self.b.set_cold_block(look);
        self.b.ins().brif(due, look, &[], on, &[]);
        self.b.switch_to_block(look);
        let call = self.b.ins().call(tick, &[self.ctx]);
        let stop = self.b.inst_results(call)[0];
        let stop = self.b.ins().icmp_imm_s(IntCC::NotEqual, stop, 0);
        self.bail_if(stop);
        self.b.ins().jump(on, &[]);
        self.b.switch_to_block(on);
    }
}
