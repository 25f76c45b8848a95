//! Strings packed in one integer, the items of lists and sets of strings
//! ([`crate::graph::flat::pack_word`]), in machine code: a packed string
//! made into its characters on the arena, and characters packed. A
//! string made of packed strings, characters, slices and `+` (a row with
//! a cell written: `rows[y][:x] + "#" + rows[y][x + 1:]`) is made in a
//! register, shifted and masked, never on the arena ([`in_word`]).

use crate::graph::flat::{WORD_MAX, word_shift};
use crate::runtime::kernel::expr::Num;
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
        if in_word(xs) {
            return Some(self.word_of(xs)?.0);
        }
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

impl Emit<'_, '_> {
    /// The string `xs`, which [`in_word`] takes, packed in one integer,
    /// and its length: made longer than [`WORD_MAX`], or with a character
    /// that is no ASCII (or NUL), it bails.
    pub(in crate::runtime::kernel::native::emit) fn word_of(
        &mut self,
        xs: &Seq,
    ) -> Option<(Value, Value)> {
        Some(match xs {
            Seq::Word(w) => {
                let w = self.num(w)?;
                (w, self.word_len(w))
            }
            Seq::Items(_, items) => {
                let mut w = self.int(0);
                for (k, item) in items.iter().enumerate() {
                    let c = match item {
                        Num::Const(c) => self.int(c << word_shift(k)),
                        _ => {
                            let c = self.num(item)?;
                            let off = self.b.ins().iadd_imm_s(c, -1);
                            let bad = (self.b.ins()).icmp_imm_s(
                                IntCC::UnsignedGreaterThanOrEqual,
                                off,
                                127,
                            );
                            self.bail_if(bad);
                            self.b.ins().ishl_imm_s(c, word_shift(k) as i64)
                        }
                    };
                    w = self.b.ins().bor(w, c);
                }
                (w, self.int(items.len() as i64))
            }
            Seq::Concat(a, b) => {
                let (wa, la) = self.word_of(a)?;
                let (wb, lb) = self.word_of(b)?;
                let len = self.b.ins().iadd(la, lb);
                let long =
                    (self.b.ins()).icmp_imm_s(IntCC::SignedGreaterThan, len, WORD_MAX as i64);
                self.bail_if(long);
                let shift = self.b.ins().imul_imm_s(la, WORD_BITS);
                let wb = self.b.ins().ushr(wb, shift);
                (self.b.ins().bor(wa, wb), len)
            }
            Seq::Slice(a, lo, hi) => {
                let (w, len) = self.word_of(a)?;
                let zero = self.int(0);
                let from = self.slice_bound(lo.as_ref(), len, zero)?;
                let to = self.slice_bound(hi.as_ref(), len, len)?;
                let n = self.b.ins().isub(to, from);
                let n = self.b.ins().smax(n, zero);
                // Past the first `from` characters, the next `n` kept.
                let shift = self.b.ins().imul_imm_s(from, WORD_BITS);
                let w = self.b.ins().ishl(w, shift);
                let rest = self.b.ins().imul_imm_s(n, -WORD_BITS);
                let rest = self.b.ins().iadd_imm_s(rest, FIELD);
                let one = self.int(1);
                let below = self.b.ins().ishl(one, rest);
                let below = self.b.ins().iadd_imm_s(below, -1);
                let keep = self.b.ins().bnot(below);
                let keep = self.b.ins().band_imm_s(keep, i64::MAX);
                (self.b.ins().band(w, keep), n)
            }
            _ => return None,
        })
    }

    /// The length of the string packed in `w`: its characters are
    /// nonzero, zeros after the last, so the trailing zeros tell
    /// (`ctz / 7` as `ctz * 37 >> 8`, exact up to 64, which `w = 0` gives).
    pub(in crate::runtime::kernel::native::emit) fn word_len(&mut self, w: Value) -> Value {
        let tz = self.b.ins().ctz(w);
        let tz = self.b.ins().imul_imm_s(tz, 37);
        let empty = self.b.ins().ushr_imm_s(tz, 8);
        let most = self.int(WORD_MAX as i64);
        self.b.ins().isub(most, empty)
    }

    /// The character at index `i` (from the end when negative) of the
    /// string packed in `w`; outside it bails.
    pub(in crate::runtime::kernel::native::emit) fn word_char(
        &mut self,
        w: Value,
        i: Value,
    ) -> Value {
        let len = self.word_len(w);
        let at = self.index_in(i, len);
        let shift = self.b.ins().imul_imm_s(at, -WORD_BITS);
        let shift = self.b.ins().iadd_imm_s(shift, word_shift(0) as i64);
        let c = self.b.ins().ushr(w, shift);
        self.b.ins().band_imm_s(c, 127)
    }
}

/// Whether the string `xs` is made of packed strings (`rows[y]`), at most
/// [`WORD_MAX`] characters written out, slices of those, and `+`: made
/// in a register by [`Emit::word_of`].
pub(in crate::runtime::kernel::native::emit) fn in_word(xs: &Seq) -> bool {
    match xs {
        Seq::Word(_) => true,
        Seq::Items(crate::graph::Shape::Str, items) => {
            items.len() <= WORD_MAX
                && items.iter().all(|i| match i {
                    Num::Const(c) => (1..128).contains(c),
                    _ => true,
                })
        }
        Seq::Concat(a, b) => in_word(a) && in_word(b),
        Seq::Slice(a, ..) => in_word(a),
        _ => false,
    }
}

/// The bits of one character of a packed string.
const WORD_BITS: i64 = crate::graph::flat::WORD_BITS as i64;

/// The bits of a packed string's characters.
const FIELD: i64 = WORD_BITS * WORD_MAX as i64;
