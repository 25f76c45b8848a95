//! Lists made from constants known when the kernel is compiled: a row
//! of a constant list of lists (pushed, or one item read in place) and
//! the divisors of an integer, each as the kernel's run makes it
//! ([`crate::runtime::kernel::seq::made`]).

use crate::runtime::kernel::ITEMS_MAX;
use crate::runtime::kernel::expr::Num;
use crate::runtime::kernel::native::emit::{Emit, trusted};
use crate::runtime::kernel::seq::{DIVISORS_MAX, Rows};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};

impl Emit<'_, '_> {
    /// Pushes row `i` of `rows` (from the end when negative), as the
    /// kernel's run does; bails outside.
    pub(super) fn row(&mut self, rows: &Rows, i: Value) -> Option<(Value, Value)> {
        let (lo, hi) = self.row_bounds(rows, i);
        let items = self.int(rows.items.as_ptr() as i64);
        let from = self.b.use_var(self.top);
        self.each(lo, hi, |e, j, next| {
            let at = e.b.ins().ishl_imm_s(j, 3);
            let at = e.b.ins().iadd(items, at);
            let v = e.b.ins().load(I64, trusted(), at, 0);
            e.push(v);
            e.b.ins().jump(next, &[]);
            Some(())
        })?;
        Some((from, self.b.use_var(self.top)))
    }

    /// Item `j` of row `row` of `rows` (each from the end when negative),
    /// read in place; bails outside.
    pub(in crate::runtime::kernel::native::emit) fn row_item(
        &mut self,
        rows: &Rows,
        row: &Num,
        j: &Num,
    ) -> Option<Value> {
        let (i, j) = (self.num(row)?, self.num(j)?);
        let (lo, hi) = self.row_bounds(rows, i);
        let len = self.b.ins().isub(hi, lo);
        let j = self.index_in(j, len);
        let at = self.b.ins().iadd(lo, j);
        let at = self.b.ins().ishl_imm_s(at, 3);
        let items = self.int(rows.items.as_ptr() as i64);
        let at = self.b.ins().iadd(items, at);
        Some(self.b.ins().load(I64, trusted(), at, 0))
    }

    /// Where row `i` of `rows` (from the end when negative) is among its
    /// items: the first and one past the last; bails outside.
    fn row_bounds(&mut self, rows: &Rows, i: Value) -> (Value, Value) {
        let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, i, 0);
        let from_end = self.b.ins().iadd_imm_s(i, rows.len());
        let i = self.b.ins().select(negative, from_end, i);
        self.bail_outside(i, 0, rows.len());
        // The rows live as long as the kernel, and so as its code.
        let offsets = self.int(rows.offsets.as_ptr() as i64);
        let at = self.b.ins().ishl_imm_s(i, 3);
        let at = self.b.ins().iadd(offsets, at);
        let lo = self.b.ins().load(I64, trusted(), at, 0);
        let hi = self.b.ins().load(I64, trusted(), at, 8);
        (lo, hi)
    }

    /// Pushes the integers of a range, as the kernel's run does (see
    /// [`Seq::Range`]); bails past [`ITEMS_MAX`] of them.
    pub(super) fn range_items(&mut self, r: &(Num, Num, bool)) -> Option<(Value, Value)> {
        let (lo, hi) = (self.num(&r.0)?, self.num(&r.1)?);
        let hi = match r.2 {
            true => {
                let one = self.int(1);
                self.checked(BinOp::Add, hi, one)
            }
            false => hi,
        };
        let len = self.checked(BinOp::Sub, hi, lo);
        let zero = self.int(0);
        let len = self.b.ins().smax(len, zero);
        self.bail_outside(len, 0, ITEMS_MAX as i64 + 1);
        let from = self.b.use_var(self.top);
        self.each(lo, hi, |e, k, next| {
            e.push(k);
            e.b.ins().jump(next, &[]);
            Some(())
        })?;
        Some((from, self.b.use_var(self.top)))
    }

    /// Pushes the divisors of `n`, as the kernel's run does (see
    /// `seq::divisors`); bails outside `1..=DIVISORS_MAX`.
    pub(super) fn divisors(&mut self, n: Value) -> Option<(Value, Value)> {
        self.bail_outside(n, 1, DIVISORS_MAX + 1);
        let root = self.checked_call(self.isqrt, &[n]);
        let (one, end) = (self.int(1), self.b.ins().iadd_imm_s(root, 1));
        let from = self.b.use_var(self.top);
        let push_if = |e: &mut Self, divides: Value, v: Value, next: Block| {
            let push = e.b.create_block();
            e.b.ins().brif(divides, push, &[], next, &[]);
            e.b.switch_to_block(push);
            e.push(v);
            e.b.ins().jump(next, &[]);
            Some(())
        };
        self.each(one, end, |e, a, next| {
            let rem = e.b.ins().srem(n, a);
            let divides = e.b.ins().icmp_imm_s(IntCC::Equal, rem, 0);
            push_if(e, divides, a, next)
        })?;
        let mid = self.b.use_var(self.top);
        self.each(from, mid, |e, at, next| {
            // The small divisors from the largest down.
            let back = e.b.ins().iadd(from, mid);
            let back = e.b.ins().isub(back, at);
            let back = e.b.ins().iadd_imm_s(back, -1);
            let a = e.item(back);
            let square = e.b.ins().imul(a, a);
            let other = e.b.ins().icmp(IntCC::NotEqual, square, n);
            let cofactor = e.b.ins().sdiv(n, a);
            push_if(e, other, cofactor, next)
        })?;
        Some((from, self.b.use_var(self.top)))
    }
}
