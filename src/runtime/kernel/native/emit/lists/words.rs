//! Strings packed in one integer, the items of lists and sets of strings
//! ([`crate::graph::flat::pack_word`]), in machine code: a packed string
//! made into its characters on the arena, and characters packed.

use crate::graph::flat::{WORD_MAX, word_shift};
use crate::runtime::kernel::native::emit::{Emit, trusted};
use crate::runtime::kernel::seq::Seq;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};

impl Emit<'_, '_> {
    /// The characters of the string packed in `w`, pushed on the arena:
    /// where they are. Each of the [`WORD_MAX`] places is written, and the
    /// top moves past those that hold a character (a packed string's
    /// characters come first, zeros after).
    pub(in crate::runtime::kernel::native::emit) fn unpack_word(
        &mut self,
        w: Value,
    ) -> (Value, Value) {
        let from = self.b.use_var(self.top);
        let end = self.b.ins().iadd_imm_s(from, WORD_MAX as i64);
        let full = (self.b.ins()).icmp(IntCC::UnsignedGreaterThan, end, self.cap);
        self.bail_if(full);
        for k in 0..WORD_MAX {
            let c = self.b.ins().ushr_imm_s(w, word_shift(k) as i64);
            let c = self.b.ins().band_imm_s(c, 127);
            let top = self.b.use_var(self.top);
            let offset = self.b.ins().ishl_imm_s(top, 3);
            let addr = self.b.ins().iadd(self.arena, offset);
            self.b.ins().store(trusted(), c, addr, 0);
            let some = self.b.ins().icmp_imm_s(IntCC::NotEqual, c, 0);
            let some = self.b.ins().uextend(I64, some);
            let top = self.b.ins().iadd(top, some);
            self.b.def_var(self.top, top);
        }
        (from, self.b.use_var(self.top))
    }

    /// The string `xs` packed in one integer; one too long, or with a
    /// character that is no ASCII (or NUL), bails.
    pub(in crate::runtime::kernel::native::emit) fn pack_word(
        &mut self,
        xs: &Seq,
    ) -> Option<Value> {
        self.with_seq(xs, |e, (a, b)| {
            let len = e.b.ins().isub(b, a);
            let long =
                e.b.ins()
                    .icmp_imm_s(IntCC::UnsignedGreaterThan, len, WORD_MAX as i64);
            e.bail_if(long);
            let w = e.b.declare_var(I64);
            let zero = e.int(0);
            e.b.def_var(w, zero);
            e.each(a, b, |e, at, next| {
                let c = e.item(at);
                // 1 to 127: `c - 1` below 127, unsigned.
                let off = e.b.ins().iadd_imm_s(c, -1);
                let bad =
                    e.b.ins()
                        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, off, 127);
                e.bail_if(bad);
                let k = e.b.ins().isub(at, a);
                let k = e.b.ins().imul_imm_s(k, 7);
                let shift = e.int(word_shift(0) as i64);
                let shift = e.b.ins().isub(shift, k);
                let c = e.b.ins().ishl(c, shift);
                let so_far = e.b.use_var(w);
                let so_far = e.b.ins().bor(so_far, c);
                e.b.def_var(w, so_far);
                e.b.ins().jump(next, &[]);
                Some(())
            })?;
            Some(e.b.use_var(w))
        })
    }
}
