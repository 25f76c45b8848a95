//! Lists of integers in machine code, as the kernel's run keeps them
//! ([`crate::runtime::kernel::seq`]): items in one arena of `i64`s (the
//! run's frame, past the slots), a list being the indices `start..end` of
//! its items. Making a list pushes its items at [`Emit::top`]; whoever
//! uses one sets `top` back after, so the arena is a stack. A push past
//! the arena's capacity bails, and the kernel's run does the position.
//!
//! This file makes the lists; beside it, `lists/walk.rs` goes over them
//! (comprehensions, `for` clauses, `enumerate`), `lists/made.rs` makes
//! those read from constants (rows, divisors) and `lists/flat.rs` the
//! flat runs of positions with list arguments.

use super::{Emit, trusted};
use crate::runtime::kernel::expr::{Cond, Num};
use crate::runtime::kernel::seq::{ITEMS_MAX, Seq, SetOp};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};

mod flat;
mod made;
mod walk;
mod words;
pub(super) use walk::Binding;

impl Emit<'_, '_> {
    /// The item at index `at` of the arena.
    pub(super) fn item(&mut self, at: Value) -> Value {
        let offset = self.b.ins().ishl_imm_s(at, 3);
        let addr = self.b.ins().iadd(self.arena, offset);
        self.b.ins().load(I64, trusted(), addr, 0)
    }

    /// Pushes `v` on the arena.
    fn push(&mut self, v: Value) {
        let top = self.b.use_var(self.top);
        let full = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, top, self.cap);
        self.bail_if(full);
        self.put(v);
    }

    /// Pushes `v` on the arena, whose room the caller has tested.
    fn put(&mut self, v: Value) {
        let top = self.b.use_var(self.top);
        let offset = self.b.ins().ishl_imm_s(top, 3);
        let addr = self.b.ins().iadd(self.arena, offset);
        self.b.ins().store(trusted(), v, addr, 0);
        let top = self.b.ins().iadd_imm_s(top, 1);
        self.b.def_var(self.top, top);
    }

    /// Pushes the items `from..to` (none where `to <= from`), which are
    /// below the arena's top: with one test of the room, and `memcpy`
    /// for more than two. A loop of items here would carry every value
    /// the function keeps through it, and the register allocator moves
    /// them in and out of the frame around each item.
    fn copy(&mut self, (from, to): (Value, Value)) -> Option<()> {
        let top = self.b.use_var(self.top);
        let len = self.b.ins().isub(to, from);
        let zero = self.int(0);
        let len = self.b.ins().smax(len, zero);
        let end = self.b.ins().iadd(top, len);
        let full = (self.b.ins()).icmp(IntCC::UnsignedGreaterThan, end, self.cap);
        self.bail_if(full);
        let dest = self.b.ins().ishl_imm_s(top, 3);
        let dest = self.b.ins().iadd(self.arena, dest);
        let src = self.b.ins().ishl_imm_s(from, 3);
        let src = self.b.ins().iadd(self.arena, src);
        // One or two items, the most a string's words or a short list's
        // slice takes, are copied here: a call of `memcpy` for them cost
        // more than the copy, and the registers it may change.
        let [short, first, second, more, done] = self.blocks();
        let few = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, len, 2);
        self.b.ins().brif(few, short, &[], more, &[]);
        self.b.switch_to_block(short);
        let none = self.b.ins().icmp_imm_u(IntCC::Equal, len, 0);
        self.b.ins().brif(none, done, &[], first, &[]);
        self.b.switch_to_block(first);
        let item = self.b.ins().load(I64, trusted(), src, 0);
        self.b.ins().store(trusted(), item, dest, 0);
        let one = self.b.ins().icmp_imm_u(IntCC::Equal, len, 1);
        self.b.ins().brif(one, done, &[], second, &[]);
        self.b.switch_to_block(second);
        let item = self.b.ins().load(I64, trusted(), src, 8);
        self.b.ins().store(trusted(), item, dest, 8);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(more);
        let bytes = self.b.ins().ishl_imm_s(len, 3);
        self.b.call_memcpy(self.config, dest, src, bytes);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        self.b.def_var(self.top, end);
        Some(())
    }

    /// `op` of the items `from..to`, as
    /// [`crate::runtime::kernel::seq::combine`] makes it: where the result
    /// is. It ends the arena.
    fn combine(&mut self, (from, to): (Value, Value), op: SetOp) -> (Value, Value) {
        self.combine3((from, to, to), op)
    }

    /// `op` of the sets `a0..a1` and `b0..b1`, wherever they are, made at
    /// the arena's top by a helper (`native::sets_apart`): where the
    /// result is. It ends the arena.
    fn combine_apart(
        &mut self,
        (a0, a1): (Value, Value),
        (b0, b1): (Value, Value),
        op: SetOp,
    ) -> (Value, Value) {
        let top = self.b.use_var(self.top);
        let la = self.b.ins().isub(a1, a0);
        let lb = self.b.ins().isub(b1, b0);
        let room = self.b.ins().iadd(la, lb);
        let end = self.b.ins().iadd(top, room);
        let full = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, self.cap);
        self.bail_if(full);
        let op = self.int(op as i64);
        let args = [self.arena, a0, a1, b0, b1, top, op];
        let call = self.b.ins().call(self.sets_apart, &args);
        let end = self.b.inst_results(call)[0];
        self.b.def_var(self.top, end);
        (top, end)
    }

    /// `op` of the sets `from..mid` and `mid..to`, as [`Emit::combine`].
    fn combine3(&mut self, (from, mid, to): (Value, Value, Value), op: SetOp) -> (Value, Value) {
        let op = self.int(op as i64);
        let call = self
            .b
            .ins()
            .call(self.sets, &[self.arena, from, mid, to, op]);
        let end = self.b.inst_results(call)[0];
        self.b.def_var(self.top, end);
        (from, end)
    }

    /// The list `xs`: where its items are.
    pub(super) fn seq(&mut self, xs: &Seq) -> Option<(Value, Value)> {
        let from = self.b.use_var(self.top);
        match xs {
            Seq::Slot(s) => {
                // See `seq::encode`.
                let v = self.slot_value(*s as usize);
                let start = self.b.ins().ushr_imm_s(v, 32);
                let len = self.b.ins().band_imm_s(v, 0xffff_ffff);
                let end = self.b.ins().iadd(start, len);
                return Some((start, end));
            }
            Seq::Items(_, items) => {
                for item in items {
                    let v = self.num(item)?;
                    self.push(v);
                }
            }
            Seq::Concat(a, b) => {
                let ra = self.seq(a)?;
                let rb = self.seq(b)?;
                let from = self.b.use_var(self.top);
                self.copy(ra)?;
                self.copy(rb)?;
                return Some((from, self.b.use_var(self.top)));
            }
            Seq::Repeat(xs, k) => {
                let k = self.num(k)?;
                let zero = self.int(0);
                let k = self.b.ins().smax(k, zero);
                let (a, b) = self.seq(xs)?;
                let len = self.b.ins().isub(b, a);
                let many = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::SignedGreaterThan, k, ITEMS_MAX as i64);
                self.bail_if(many);
                let total = self.b.ins().imul(len, k);
                let many =
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::SignedGreaterThan, total, ITEMS_MAX as i64);
                self.bail_if(many);
                let from = self.b.use_var(self.top);
                let zero = self.int(0);
                self.each(zero, k, |e, _, next| {
                    e.copy((a, b))?;
                    e.b.ins().jump(next, &[]);
                    Some(())
                })?;
                return Some((from, self.b.use_var(self.top)));
            }
            Seq::Slice(xs, lo, hi) => return self.slice(xs, lo.as_ref(), hi.as_ref()),
            Seq::Comp(c) | Seq::Kept(c) => {
                let from = self.comp_from(c, &mut |e, elem, next| {
                    let v = e.num(elem)?;
                    e.push(v);
                    e.b.ins().jump(next, &[]);
                    Some(())
                })?;
                return Some((from, self.b.use_var(self.top)));
            }
            Seq::Sorted(inner) | Seq::SetOf(inner) => {
                let op = match xs {
                    Seq::Sorted(_) => SetOp::Sort,
                    _ => SetOp::Of,
                };
                let mut range = self.seq(inner)?;
                // A list just made is sorted where it is; any other is
                // copied first.
                if !fresh(inner) {
                    let from = self.b.use_var(self.top);
                    self.copy(range)?;
                    range = (from, self.b.use_var(self.top));
                }
                return Some(self.combine(range, op));
            }
            Seq::SetOp(op, a, b) => {
                if *op == SetOp::Diff
                    && let Some(few) = few_items(b)
                {
                    return self.without_few(a, few);
                }
                let ra = self.seq(a)?;
                let rb = self.seq(b)?;
                return Some(self.combine_apart(ra, rb, *op));
            }
            Seq::Reversed(xs) => {
                let (a, b) = self.seq(xs)?;
                let from = self.b.use_var(self.top);
                self.each(a, b, |e, at, next| {
                    // The item as far from the end as `at` is from the start.
                    let back = e.b.ins().iadd(a, b);
                    let back = e.b.ins().isub(back, at);
                    let back = e.b.ins().iadd_imm_s(back, -1);
                    let v = e.item(back);
                    e.push(v);
                    e.b.ins().jump(next, &[]);
                    Some(())
                })?;
                return Some((from, self.b.use_var(self.top)));
            }
            Seq::Divisors(n) => {
                let n = self.num(n)?;
                return self.divisors(n);
            }
            Seq::Range(r) => return self.range_items(r),
            Seq::Let(s, value, body) => {
                let v = self.num(value)?;
                self.b.def_var(self.slot_var(*s as usize), v);
                return self.seq(body);
            }
            Seq::Bind(s, value, body) => {
                // As `seq::encode` says where a list slot's items are.
                let (a, b) = self.seq(value)?;
                let len = self.b.ins().isub(b, a);
                let start = self.b.ins().ishl_imm_s(a, 32);
                let v = self.b.ins().bor(start, len);
                self.b.def_var(self.slot_var(*s as usize), v);
                return self.seq(body);
            }
            Seq::If(c, a, b) => return self.seq_if(c, a, b),
            Seq::Row(rows, i) => {
                let i = self.num(i)?;
                return self.row(rows, i);
            }
            Seq::Word(w) => {
                let w = self.num(w)?;
                return Some(self.unpack_word(w));
            }
        }
        Some((from, self.b.use_var(self.top)))
    }

    /// `a - {x, y, ...}`, a set less a few items written out (`s - {x}`,
    /// `cells - {(x, y), (x + 1, y)}`): `a`'s items copied to the top,
    /// but those equal to one of them. A loop here rather than the set of
    /// the few made, sorted, and merged by a helper, which cost some 300
    /// instructions an option in Cram. Where the result is.
    fn without_few(&mut self, a: &Seq, few: &[Num]) -> Option<(Value, Value)> {
        let (from, to) = self.seq(a)?;
        let gone = few
            .iter()
            .map(|n| self.num(n))
            .collect::<Option<Vec<_>>>()?;
        // Room for every item of `a`, tested once.
        let start = self.b.use_var(self.top);
        let len = self.b.ins().isub(to, from);
        let end = self.b.ins().iadd(start, len);
        let full = (self.b.ins()).icmp(IntCC::UnsignedGreaterThan, end, self.cap);
        self.bail_if(full);
        self.each(from, to, |e, at, next| {
            let v = e.item(at);
            let kept = e.b.create_block();
            for &g in &gone {
                let same = e.b.ins().icmp(IntCC::Equal, v, g);
                let other = e.b.create_block();
                e.b.ins().brif(same, next, &[], other, &[]);
                e.b.switch_to_block(other);
            }
            e.b.ins().jump(kept, &[]);
            e.b.switch_to_block(kept);
            e.put(v);
            e.b.ins().jump(next, &[]);
            Some(())
        })?;
        Some((start, self.b.use_var(self.top)))
    }

    /// `if c then a else b`: where the list the condition chose is.
    fn seq_if(&mut self, c: &Cond, a: &Seq, b: &Seq) -> Option<(Value, Value)> {
        let holds = self.cond(c)?;
        let (start, end) = (self.b.declare_var(I64), self.b.declare_var(I64));
        let [then, other, join] = self.blocks();
        self.b.ins().brif(holds, then, &[], other, &[]);
        for (block, xs) in [(then, a), (other, b)] {
            self.b.switch_to_block(block);
            let (from, to) = self.seq(xs)?;
            self.b.def_var(start, from);
            self.b.def_var(end, to);
            self.b.ins().jump(join, &[]);
        }
        self.b.switch_to_block(join);
        Some((self.b.use_var(start), self.b.use_var(end)))
    }

    /// `xs[lo:hi]`, with the interpreter's bounds: negative ones counted
    /// from the end, both cut to the list.
    fn slice(&mut self, xs: &Seq, lo: Option<&Num>, hi: Option<&Num>) -> Option<(Value, Value)> {
        let (a, b) = self.seq(xs)?;
        let len = self.b.ins().isub(b, a);
        let zero = self.int(0);
        let from = self.slice_bound(lo, len, zero)?;
        let to = self.slice_bound(hi, len, len)?;
        let to = self.b.ins().smax(to, from);
        Some((self.b.ins().iadd(a, from), self.b.ins().iadd(a, to)))
    }

    /// An end of a slice of `len` items, `default` when not given: from
    /// the end when negative, and clamped to `0..=len`.
    pub(super) fn slice_bound(
        &mut self,
        n: Option<&Num>,
        len: Value,
        default: Value,
    ) -> Option<Value> {
        let Some(n) = n else { return Some(default) };
        let v = self.num(n)?;
        let zero = self.int(0);
        let from_end = self.b.ins().iadd(v, len);
        let from_end = self.b.ins().smax(from_end, zero);
        let plain = self.b.ins().smin(v, len);
        let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
        Some(self.b.ins().select(negative, from_end, plain))
    }
}

/// Whether making `xs` pushes exactly its items, from the top as it was:
/// then it can be made where it is wanted.
fn fresh(xs: &Seq) -> bool {
    match xs {
        Seq::Items(..) | Seq::Divisors(_) | Seq::Range(_) | Seq::Row(..) => true,
        // Not when its first clause's list is made first, below it.
        Seq::Comp(c) | Seq::Kept(c) => walk::made_first(c).is_none(),
        Seq::Sorted(inner) | Seq::SetOf(inner) => fresh(inner),
        _ => false,
    }
}

/// The items of `b`, a set written out with a few items (`{x}`, `{(x,
/// y), (x + 1, y)}`), which `a - b` leaves out of `a` one by one.
fn few_items(b: &Seq) -> Option<&[Num]> {
    const FEW: usize = 4;
    let items = match b {
        Seq::SetOf(inner) => match &**inner {
            Seq::Items(_, items) => items,
            _ => return None,
        },
        Seq::Items(shape, items) if shape.is_set() => items,
        _ => return None,
    };
    (items.len() <= FEW).then_some(items)
}
