//! The mex's marks in the machine code: an option's value marked (as a
//! bit of a word for a position of a few options, else with the stamp in
//! the marks), the word written into the marks for the search, and the
//! mex found.

use super::{Emit, trusted};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, InstBuilder, StackSlotData, StackSlotKind, Value};

impl Emit<'_, '_> {
    /// Keeps the marks' address, their length and the stamp `stamp` in a
    /// slot of the frame, read at each use (a sweep goes on to the next
    /// stamp there for each position: [`Emit::next_stamp`]). Carried as
    /// values, they are live through every loop of the function: the
    /// register allocator then keeps them in registers at a loop's head
    /// and stores and reloads them around each item of a loop over a
    /// list's items, which does not use them.
    pub(super) fn keep_marks_in_frame(&mut self, stamp: Value) {
        let data = StackSlotData::new(StackSlotKind::ExplicitSlot, 24, 3);
        let slot = self.b.create_sized_stack_slot(data);
        self.b.ins().stack_store(I64, self.marks, slot, 0);
        self.b.ins().stack_store(I64, self.len, slot, 8);
        self.b.ins().stack_store(I64, stamp, slot, 16);
        self.marks_frame = Some(slot);
    }

    /// The marks' address (see [`Emit::keep_marks_in_frame`]).
    fn marks_base(&mut self) -> Value {
        match self.marks_frame {
            Some(slot) => self.b.ins().stack_load(I64, I64, slot, 0),
            None => self.marks,
        }
    }

    /// The marks' length, in values.
    pub(super) fn marks_len(&mut self) -> Value {
        match self.marks_frame {
            Some(slot) => self.b.ins().stack_load(I64, I64, slot, 8),
            None => self.len,
        }
    }

    /// The stamp that marks an option of the position being valued.
    fn stamp_now(&mut self) -> Value {
        match self.marks_frame {
            Some(slot) => self.b.ins().stack_load(I64, I64, slot, 16),
            None => self.b.use_var(self.stamp),
        }
    }

    /// Goes on to the stamp of the next position a sweep values.
    pub(super) fn next_stamp(&mut self) {
        let stamp = self.stamp_now();
        let stamp = self.b.ins().iadd_imm_s(stamp, 1);
        match self.marks_frame {
            Some(slot) => {
                self.b.ins().stack_store(I64, stamp, slot, 16);
            }
            None => self.b.def_var(self.stamp, stamp),
        }
    }

    /// The address of the mex's mark for value `v`; bails when `v` is
    /// past the marks.
    pub(super) fn mark_at(&mut self, v: Value) -> Value {
        let len = self.marks_len();
        let past = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, v, len);
        self.bail_if(past);
        self.mark_addr(v)
    }

    /// The address of the mex's mark for value `v`, known to be within
    /// the marks.
    fn mark_addr(&mut self, v: Value) -> Value {
        let at = self.b.ins().imul_imm_s(v, 4);
        let marks = self.marks_base();
        self.b.ins().iadd(marks, at)
    }

    /// Marks an option's value `v`, then goes on to `next`: a value below
    /// 64 as a bit of [`Emit::low`], kept in a register, when the
    /// position has few options
    /// ([`crate::runtime::kernel::Kernel::few_options`]): a larger value
    /// cannot be their mex, and is ignored. Otherwise in the marks, with
    /// the stamp; `within`: `v` is known to be below their length (see
    /// [`Emit::within_marks`]).
    pub(super) fn mark(&mut self, v: Value, within: bool, next: Block) {
        if !self.bits {
            let at = match within {
                true => self.mark_addr(v),
                false => self.mark_at(v),
            };
            let stamp = self.stamp_now();
            self.b.ins().istore32(trusted(), stamp, at, 0);
            self.b.ins().jump(next, &[]);
            return;
        }
        let small = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, v, 64);
        let one = self.int(1);
        let bit = self.b.ins().ishl(one, v);
        let zero = self.int(0);
        let bit = self.b.ins().select(small, bit, zero);
        let low = self.b.use_var(self.low);
        let low = self.b.ins().bor(low, bit);
        self.b.def_var(self.low, low);
        self.b.ins().jump(next, &[]);
    }

    /// Writes the values [`Emit::low`] holds into the marks, stamped, for
    /// the kernel's run to complete a position some of whose options had
    /// no value (see `Marks::complete`). The marks hold 1024 values at
    /// least (`Mex::start`).
    pub(super) fn store_low(&mut self) {
        if !self.bits {
            return;
        }
        let [head, store, done] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let low = self.b.use_var(self.low);
        self.b.ins().brif(low, store, &[], done, &[]);
        self.b.switch_to_block(store);
        let v = self.b.ins().ctz(low);
        let at = self.mark_at(v);
        let stamp = self.stamp_now();
        self.b.ins().istore32(trusted(), stamp, at, 0);
        let less = self.b.ins().iadd_imm_s(low, -1);
        let rest = self.b.ins().band(low, less);
        self.b.def_var(self.low, rest);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(done);
    }

    /// The mex of the marks: the lowest bit [`Emit::low`] lacks (of the
    /// few options kept as bits, it lacks one), or the first value the
    /// marks lack.
    pub(super) fn first_unmarked(&mut self) -> Value {
        if !self.bits {
            return self.scan_marks();
        }
        let low = self.b.use_var(self.low);
        let lacks = self.b.ins().bnot(low);
        self.b.ins().ctz(lacks)
    }

    /// The first value that the marks lack.
    fn scan_marks(&mut self) -> Value {
        let i = self.b.declare_var(I64);
        let zero = self.int(0);
        self.b.def_var(i, zero);
        let [head, next, found] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let v = self.b.use_var(i);
        let at = self.mark_at(v);
        let mark = self.b.ins().load(I32, trusted(), at, 0);
        let mark = self.b.ins().uextend(I64, mark);
        let stamp = self.stamp_now();
        let marked = self.b.ins().icmp(IntCC::Equal, mark, stamp);
        self.b.ins().brif(marked, next, &[], found, &[]);
        self.b.switch_to_block(next);
        let v1 = self.b.ins().iadd_imm_s(v, 1);
        self.b.def_var(i, v1);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(found);
        v
    }
}

impl Emit<'_, '_> {
    /// Stores the option being made (its count so far) in the context,
    /// for a helper that records an option without a value (see
    /// `Marks::option`).
    pub(super) fn note_option(&mut self) {
        self.note_rule();
        let count = match self.asking {
            true => self.int(crate::runtime::kernel::ASKED.into()),
            false => self.b.use_var(self.count),
        };
        let at = std::mem::offset_of!(super::super::Ctx, options) as i32;
        self.b.ins().store(trusted(), count, self.ctx, at);
    }

    /// Stores the move being made ([`Emit::share`]) in the context, for a
    /// helper that records an option without a value.
    pub(super) fn note_rule(&mut self) {
        let rule = self.int(self.share);
        let at = std::mem::offset_of!(super::super::Ctx, rule) as i32;
        self.b.ins().store(trusted(), rule, self.ctx, at);
    }
}
