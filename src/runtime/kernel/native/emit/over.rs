//! Integers and conditions over lists in machine code: `len`, `xs[i]`,
//! `sum`, `min` and `max`, `in`, `==` and `!=` of two lists, and `all` and
//! `any` of a comprehension. Each makes its list on the arena (see
//! `lists.rs`) and sets the arena back after.

use super::{Emit, trusted};
use crate::runtime::kernel::expr::{Cond, Members, Num};
use crate::runtime::kernel::seq::{Comp, Fold, Seq};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    InstBuilder, Value,
    types::{I8, I64},
};
use cranelift_frontend::Variable;

impl Emit<'_, '_> {
    /// Runs `body` on the list `xs`'s items, then sets the arena back.
    pub(super) fn with_seq<T>(
        &mut self,
        xs: &Seq,
        body: impl FnOnce(&mut Self, (Value, Value)) -> Option<T>,
    ) -> Option<T> {
        let top = self.b.use_var(self.top);
        let range = self.seq(xs)?;
        let result = body(self, range)?;
        self.b.def_var(self.top, top);
        Some(result)
    }

    /// `len(xs)`.
    pub(super) fn seq_len(&mut self, xs: &Seq) -> Option<Value> {
        if let Seq::Word(w) = xs {
            let w = self.num(w)?;
            return Some(self.word_len(w));
        }
        self.with_seq(xs, |e, (a, b)| Some(e.b.ins().isub(b, a)))
    }

    /// `xs[i]`, a negative index counted from the end; out of range bails.
    pub(super) fn seq_index(&mut self, xs: &Seq, i: &Num) -> Option<Value> {
        if let Seq::Row(rows, row) = xs {
            return self.row_item(rows, row, i);
        }
        if let Seq::Word(w) = xs {
            let w = self.num(w)?;
            let i = self.num(i)?;
            return Some(self.word_char(w, i));
        }
        self.with_seq(xs, |e, (a, b)| {
            let i = e.num(i)?;
            let len = e.b.ins().isub(b, a);
            let at = e.index_in(i, len);
            let at = e.b.ins().iadd(a, at);
            Some(e.item(at))
        })
    }

    /// Index `i` of a list of `len` items, counted from the end when
    /// negative, as indexing counts; bails outside.
    pub(super) fn index_in(&mut self, i: Value, len: Value) -> Value {
        let from_end = self.b.ins().iadd(i, len);
        let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, i, 0);
        let at = self.b.ins().select(negative, from_end, i);
        let out = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, at, len);
        self.bail_if(out);
        at
    }

    /// `sum(xs)`, `min(xs)` or `max(xs)`; an overflow or an empty list
    /// for `min` and `max` bails.
    pub(super) fn seq_fold(&mut self, fold: Fold, xs: &Seq) -> Option<Value> {
        self.with_seq(xs, |e, (a, b)| {
            let acc = e.b.declare_var(I64);
            let start = match fold {
                Fold::Sum => e.int(0),
                _ => {
                    let empty = e.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, a, b);
                    e.bail_if(empty);
                    e.item(a)
                }
            };
            e.b.def_var(acc, start);
            e.each(a, b, |e, at, next| {
                let v = e.item(at);
                let so_far = e.b.use_var(acc);
                let v = match fold {
                    Fold::Sum => e.checked(BinOp::Add, so_far, v),
                    Fold::Min => e.b.ins().smin(so_far, v),
                    Fold::Max => e.b.ins().smax(so_far, v),
                };
                e.b.def_var(acc, v);
                e.b.ins().jump(next, &[]);
                Some(())
            })?;
            Some(e.b.use_var(acc))
        })
    }

    /// `x in xs` (or `not in`, when `!yes`), as an `I8`.
    /// A set's items are in increasing order (`sorted`): the search
    /// stops at the first not below `x`.
    pub(super) fn seq_contains(
        &mut self,
        (yes, sorted): (bool, bool),
        x: &Num,
        xs: &Seq,
    ) -> Option<Value> {
        let x = self.num(x)?;
        if sorted {
            return self.with_seq(xs, |e, range| e.sorted_contains(yes, x, range));
        }
        self.with_seq(xs, |e, (a, b)| {
            let no = e.b.ins().iconst(I8, 0);
            e.flag_over((a, b), (no, false, yes), |e, at| {
                let v = e.item(at);
                e.b.ins().icmp(IntCC::Equal, v, x)
            })
        })
    }

    /// `x in xs` (or `not in`) of the increasing items `a..b`, as an
    /// `I8`: the items below `x` passed over, then the first other one
    /// compared with it.
    fn sorted_contains(&mut self, yes: bool, x: Value, (a, b): (Value, Value)) -> Option<Value> {
        let found = self.b.declare_var(I8);
        let no = self.b.ins().iconst(I8, 0);
        self.b.def_var(found, no);
        let join = self.b.create_block();
        self.each(a, b, |e, at, next| {
            let v = e.item(at);
            let reached = e.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, v, x);
            let stop = e.b.create_block();
            // The loop's next step as the second target (see `Emit::each`).
            e.b.ins().brif(reached, stop, &[], next, &[]);
            e.b.switch_to_block(stop);
            let same = e.b.ins().icmp(IntCC::Equal, v, x);
            e.b.def_var(found, same);
            e.b.ins().jump(join, &[]);
            Some(())
        })?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        let found = self.b.use_var(found);
        Some(self.negated_unless(found, yes))
    }

    /// `x in set` (or `not in`, when `!yes`) of a constant set, as an
    /// `I8`: its bit, read from the bits in place (they live as long as
    /// the kernel, and so as its code), when `x` is in their span.
    pub(super) fn member(&mut self, yes: bool, x: &Num, set: &Members) -> Option<Value> {
        let x = self.num(x)?;
        if let Some(items) = set.sorted() {
            let found = self.sorted_has(items, x);
            return Some(self.negated_unless(found, yes));
        }
        let (lo, span, bits) = set.bits();
        let at = self.b.ins().iadd_imm_s(x, lo.wrapping_neg());
        // Below `lo`, a difference that wraps round could look inside.
        let above = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, x, lo);
        let inside = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, at, span);
        let inside = self.b.ins().band(inside, above);
        let zero = self.int(0);
        let at = self.b.ins().select(inside, at, zero);
        let word = self.b.ins().ushr_imm_s(at, 6);
        let word = self.b.ins().ishl_imm_s(word, 3);
        let base = self.int(bits.as_ptr() as i64);
        let addr = self.b.ins().iadd(base, word);
        let word = self.b.ins().load(I64, trusted(), addr, 0);
        let bit = self.b.ins().band_imm_s(at, 63);
        let bit = self.b.ins().ushr(word, bit);
        let bit = self.b.ins().ireduce(I8, bit);
        let inside = self.b.ins().band(inside, bit);
        let found = self.b.ins().band_imm_s(inside, 1);
        Some(match yes {
            true => found,
            false => self.b.ins().bxor_imm_s(found, 1),
        })
    }

    /// Whether `x` is among `items`, in increasing order, as an `I8`: the
    /// first item not below `x` found by halves, read in place (the items
    /// live as long as the kernel, and so as its code).
    fn sorted_has(&mut self, items: &[i64], x: Value) -> Value {
        let base = self.int(items.as_ptr() as i64);
        let item = |e: &mut Self, at: Value| {
            let at = e.b.ins().ishl_imm_s(at, 3);
            let at = e.b.ins().iadd(base, at);
            e.b.ins().load(I64, trusted(), at, 0)
        };
        // Items `lo..hi` are left; those below `lo` are below `x`.
        let (lo, hi) = (self.b.declare_var(I64), self.b.declare_var(I64));
        let (zero, len) = (self.int(0), self.int(items.len() as i64));
        self.b.def_var(lo, zero);
        self.b.def_var(hi, len);
        let [head, body, done] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let (l, h) = (self.b.use_var(lo), self.b.use_var(hi));
        let more = self.b.ins().icmp(IntCC::SignedLessThan, l, h);
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(body);
        let sum = self.b.ins().iadd(l, h);
        let mid = self.b.ins().ushr_imm_s(sum, 1);
        let v = item(self, mid);
        let below = self.b.ins().icmp(IntCC::SignedLessThan, v, x);
        let past = self.b.ins().iadd_imm_s(mid, 1);
        let l = self.b.ins().select(below, past, l);
        let h = self.b.ins().select(below, h, mid);
        self.b.def_var(lo, l);
        self.b.def_var(hi, h);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(done);
        let at = self.b.use_var(lo);
        let inside = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedLessThan, at, items.len() as i64);
        let last = self.int(items.len() as i64 - 1);
        let at = self.b.ins().smin(at, last);
        let v = item(self, at);
        let same = self.b.ins().icmp(IntCC::Equal, v, x);
        self.b.ins().band(inside, same)
    }

    /// `xs == ys` (or `!=`, when `!yes`), as an `I8`: the same length, and
    /// the items compared as far as both go.
    pub(super) fn seq_same(&mut self, yes: bool, xs: &Seq, ys: &Seq) -> Option<Value> {
        self.with_seq(xs, |e, (a, b)| {
            let (c, d) = e.seq(ys)?;
            let (n, m) = (e.b.ins().isub(b, a), e.b.ins().isub(d, c));
            let len_eq = e.b.ins().icmp(IntCC::Equal, n, m);
            let shorter = e.b.ins().smin(n, m);
            let end = e.b.ins().iadd(a, shorter);
            e.flag_over((a, end), (len_eq, true, yes), |e, at| {
                let x = e.item(at);
                let other = e.b.ins().isub(at, a);
                let other = e.b.ins().iadd(c, other);
                let y = e.item(other);
                e.b.ins().icmp(IntCC::Equal, x, y)
            })
        })
    }

    /// `xs < ys` (`strict`) or `xs <= ys` of two lists, tuples or
    /// strings, as an `I8`: the first items that differ decide, else the
    /// lengths do.
    pub(super) fn seq_less(&mut self, strict: bool, xs: &Seq, ys: &Seq) -> Option<Value> {
        self.with_seq(xs, |e, (a, b)| {
            let (c, d) = e.seq(ys)?;
            let (n, m) = (e.b.ins().isub(b, a), e.b.ins().isub(d, c));
            let by_length = match strict {
                true => IntCC::SignedLessThan,
                false => IntCC::SignedLessThanOrEqual,
            };
            let by_length = e.b.ins().icmp(by_length, n, m);
            let flag = e.b.declare_var(I8);
            e.b.def_var(flag, by_length);
            let shorter = e.b.ins().smin(n, m);
            let end = e.b.ins().iadd(a, shorter);
            let join = e.b.create_block();
            e.each(a, end, |e, at, next| {
                let x = e.item(at);
                let other = e.b.ins().isub(at, a);
                let other = e.b.ins().iadd(c, other);
                let y = e.item(other);
                let differ = e.b.ins().icmp(IntCC::NotEqual, x, y);
                let decided = e.b.create_block();
                e.b.ins().brif(differ, decided, &[], next, &[]);
                e.b.switch_to_block(decided);
                let less = e.b.ins().icmp(IntCC::SignedLessThan, x, y);
                e.b.def_var(flag, less);
                e.b.ins().jump(join, &[]);
                Some(())
            })?;
            e.b.ins().jump(join, &[]);
            e.b.switch_to_block(join);
            Some(e.b.use_var(flag))
        })
    }

    /// `t in s` (or `not in`, when `!yes`) of two strings, as an `I8`:
    /// `t` compared item by item at each place of `s` it fits (an empty
    /// `t` fits everywhere, once even in an empty `s`).
    pub(super) fn seq_within(&mut self, yes: bool, t: &Seq, s: &Seq) -> Option<Value> {
        if let Some(needle) = constant_needle(t) {
            return self.with_seq(s, |e, (c, d)| {
                let end = e.b.ins().iadd_imm_s(d, 1 - needle.len() as i64);
                let no = e.b.ins().iconst(I8, 0);
                e.flag_over((c, end), (no, false, yes), |e, at| {
                    e.matches_at(at, &needle)
                })
            });
        }
        self.with_seq(t, |e, (a, b)| {
            let (c, d) = e.seq(s)?;
            let len = e.b.ins().isub(b, a);
            let end = e.b.ins().isub(d, len);
            let end = e.b.ins().iadd_imm_s(end, 1);
            let no = e.b.ins().iconst(I8, 0);
            e.flag_over_with((c, end), (no, false, yes), |e, at| {
                let yes = e.b.ins().iconst(I8, 1);
                e.flag_over((a, b), (yes, true, true), |e, k| {
                    let x = e.item(k);
                    let there = e.b.ins().isub(k, a);
                    let there = e.b.ins().iadd(at, there);
                    let y = e.item(there);
                    e.b.ins().icmp(IntCC::Equal, x, y)
                })
            })
        })
    }

    /// Whether the items from `at` on are `needle`'s, as an `I8`: compared
    /// in order up to the first that differs.
    fn matches_at(&mut self, at: Value, needle: &[i64]) -> Value {
        let done = self.b.create_block();
        self.b.append_block_param(done, I8);
        for (k, want) in needle.iter().enumerate() {
            let there = self.b.ins().iadd_imm_s(at, k as i64);
            let x = self.item(there);
            let same = self.b.ins().icmp_imm_s(IntCC::Equal, x, *want);
            if k + 1 == needle.len() {
                self.b.ins().jump(done, &[same.into()]);
            } else {
                let more = self.b.create_block();
                self.b.ins().brif(same, more, &[], done, &[same.into()]);
                self.b.switch_to_block(more);
            }
        }
        self.b.switch_to_block(done);
        self.b.block_params(done)[0]
    }

    /// [`Emit::flag_over`] with a `test` that may emit loops of its own,
    /// or fail. The loop stops at the first test that decides the flag
    /// (a false one for `all`, a true one for any).
    fn flag_over_with(
        &mut self,
        (from, to): (Value, Value),
        (start, all, yes): (Value, bool, bool),
        mut test: impl FnMut(&mut Self, Value) -> Option<Value>,
    ) -> Option<Value> {
        let flag = self.b.declare_var(I8);
        self.b.def_var(flag, start);
        let join = self.b.create_block();
        self.each(from, to, |e, at, next| {
            let t = test(e, at)?;
            let decided = e.b.create_block();
            // The loop's next step as the second target (see `Emit::each`).
            let stops = match all {
                true => e.b.ins().icmp_imm_s(IntCC::Equal, t, 0),
                false => t,
            };
            e.b.ins().brif(stops, decided, &[], next, &[]);
            e.b.switch_to_block(decided);
            e.b.def_var(flag, t);
            e.b.ins().jump(join, &[]);
            Some(())
        })?;
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        let flag = self.b.use_var(flag);
        Some(self.negated_unless(flag, yes))
    }

    /// An `I8` flag over the items `from..to`: `start`, and then `test` of
    /// each item's place, all of them (`all`: and) or any (or); negated
    /// unless `yes`.
    fn flag_over(
        &mut self,
        range: (Value, Value),
        how: (Value, bool, bool),
        mut test: impl FnMut(&mut Self, Value) -> Value,
    ) -> Option<Value> {
        self.flag_over_with(range, how, |e, at| Some(test(e, at)))
    }

    /// `flag` and-ed (`all`) or or-ed with `t`.
    fn fold_flag(&mut self, flag: Variable, t: Value, all: bool) {
        let so_far = self.b.use_var(flag);
        let so_far = match all {
            true => self.b.ins().band(so_far, t),
            false => self.b.ins().bor(so_far, t),
        };
        self.b.def_var(flag, so_far);
    }

    /// `flag`, negated unless `yes`.
    fn negated_unless(&mut self, flag: Value, yes: bool) -> Value {
        match yes {
            true => flag,
            false => self.b.ins().bxor_imm_s(flag, 1),
        }
    }

    /// `all(...)` (or `any`) of a comprehension, as an `I8`: every
    /// element evaluated, as the kernel's run does.
    pub(super) fn quant(&mut self, all: bool, comp: &Comp<Cond>) -> Option<Value> {
        let found = self.b.declare_var(I8);
        let no = self.b.ins().iconst(I8, 0);
        self.b.def_var(found, no);
        // A list the first clause makes is dropped after.
        let top = self.b.use_var(self.top);
        self.comp_from(comp, &mut |e, c, next| {
            let c = e.cond(c)?;
            let other = e.negated_unless(c, !all);
            e.fold_flag(found, other, false);
            e.b.ins().jump(next, &[]);
            Some(())
        })?;
        self.b.def_var(self.top, top);
        let found = self.b.use_var(found);
        Some(self.negated_unless(found, !all))
    }
}

/// The items of a needle written out as constants (`"XXX" in s`), when
/// they are at most [`NEEDLE_MAX`] and at least one: compared in place,
/// with no loop over them.
fn constant_needle(t: &Seq) -> Option<Vec<i64>> {
    let Seq::Items(_, items) = t else { return None };
    let needle = (items.iter())
        .map(|i| match i {
            Num::Const(k) => Some(*k),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    (1..=NEEDLE_MAX).contains(&needle.len()).then_some(needle)
}

/// The longest constant needle compared in place.
const NEEDLE_MAX: usize = 8;
