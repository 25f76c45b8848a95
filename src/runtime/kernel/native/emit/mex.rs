//! The mex function of a kernel's game: its arguments read and checked,
//! the options of the position marked, and the mex returned (or
//! [`super::super::MISSING`] with the marks kept); and the options of one
//! position, which every function that values positions marks.

use super::{Emit, Window, trusted};
use crate::runtime::kernel::Kernel;
use crate::runtime::kernel::expr::SLOT_LIMIT;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};
use std::mem::offset_of;

impl Emit<'_, '_> {
    /// The mex function: the arguments read from `args`, each within the
    /// kernel's [`SLOT_LIMIT`]; returns the mex with the count of options
    /// above it, or -1 ([`super::super::BAIL`]).
    pub(super) fn mex(&mut self, kernel: &Kernel, args: Value) -> Option<()> {
        let mut given = Vec::new();
        for i in 0..kernel.arity {
            let v = self.b.ins().load(I64, trusted(), args, 8 * i as i32);
            // A list parameter holds where its items are (checked by the
            // caller, which put them there).
            let list = self
                .lists
                .as_ref()
                .is_some_and(|l| l[i] != crate::graph::Shape::Int);
            // Rules without linear forms take integers of any size.
            if !list && !kernel.wide {
                self.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
            }
            given.push(v);
        }
        self.position(kernel, &given)?;
        let missing = self.b.use_var(self.missing);
        let [some, none] = self.blocks();
        self.b.ins().brif(missing, some, &[], none, &[]);
        self.b.switch_to_block(some);
        self.report_work();
        self.store_low();
        let count = self.b.use_var(self.count);
        let at = offset_of!(super::super::Ctx, options) as i32;
        self.b.ins().store(trusted(), count, self.ctx, at);
        let code = self.int(super::super::MISSING as i64);
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

    /// Tells the caller how many loop iterations the call made, so that
    /// it looks at the clock in time however short each call is.
    pub(super) fn report_work(&mut self) {
        let work = self.b.use_var(self.work);
        let at = offset_of!(super::super::Ctx, work) as i32;
        self.b.ins().store(trusted(), work, self.ctx, at);
    }

    /// [`Emit::position`] of the swept position `args`: options of the
    /// game's own target of as many arguments are read beside it, as
    /// `window` says.
    pub(super) fn position_beside(
        &mut self,
        kernel: &Kernel,
        args: &[Value],
        window: Window,
    ) -> Option<()> {
        let itself = (self.targets.iter()).position(|t| *t == (kernel.game, args.len()));
        self.window = itself.map(|t| (t, window));
        let done = self.position(kernel, args);
        self.window = None;
        done
    }

    /// The options of the position with arguments `args`, marked, with
    /// their count in [`Emit::count`] (and [`Emit::missing`] set if one
    /// has no value yet).
    pub(super) fn position(&mut self, kernel: &Kernel, args: &[Value]) -> Option<()> {
        for (i, slot) in self.slots.clone().into_iter().enumerate() {
            let v = match args.get(i) {
                Some(v) => *v,
                None => self.int(0),
            };
            self.b.def_var(slot, v);
        }
        self.params = args.to_vec();
        let zero = self.int(0);
        self.b.def_var(self.count, zero);
        self.b.def_var(self.missing, zero);
        self.b.def_var(self.low, zero);
        self.b.def_var(self.top, self.top0);
        // The position counts as work itself, whatever its loops (values
        // copied out count none): the clock is looked at in any case.
        let one = self.int(1);
        self.b.def_var(self.work, one);
        for rule in &kernel.moves {
            // For the helpers, which count options without values by the
            // move as written, or the copy unrolled from one: stored where
            // one is called.
            self.share = rule.share as i64;
            let done = self.b.create_block();
            self.hold(rule);
            self.binders(rule, 0, done)?;
            self.b.switch_to_block(done);
        }
        self.params.clear();
        Some(())
    }
}
