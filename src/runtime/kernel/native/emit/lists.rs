//! Lists of integers in machine code, as the kernel's run keeps them
//! ([`crate::runtime::kernel::seq`]): items in one arena of `i64`s (the
//! run's frame, past the slots), a list being the indices `start..end` of
//! its items. Making a list pushes its items at [`Emit::top`]; whoever
//! uses one sets `top` back after, so the arena is a stack. A push past
//! the arena's capacity bails, and the kernel's run does the position.

use super::{Emit, trusted};
use crate::runtime::kernel::Arg;
use crate::runtime::kernel::expr::{Cond, Num, SLOT_LIMIT};
use crate::runtime::kernel::seq::{
    Clause, Comp, DIVISORS_MAX, ITEMS_MAX, Rows, Seq, SetOp, Source,
};
use crate::value::GameId;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};

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
        let offset = self.b.ins().ishl_imm_s(top, 3);
        let addr = self.b.ins().iadd(self.arena, offset);
        self.b.ins().store(trusted(), v, addr, 0);
        let top = self.b.ins().iadd_imm_s(top, 1);
        self.b.def_var(self.top, top);
    }

    /// Pushes the items `from..to`.
    fn copy(&mut self, (from, to): (Value, Value)) -> Option<()> {
        self.each(from, to, |e, at, next| {
            let v = e.item(at);
            e.push(v);
            e.b.ins().jump(next, &[]);
            Some(())
        })
    }

    /// `op` of the items `from..to`, as
    /// [`crate::runtime::kernel::seq::combine`] makes it: where the result
    /// is. It ends the arena.
    fn combine(&mut self, (from, to): (Value, Value), op: SetOp) -> (Value, Value) {
        self.combine3((from, to, to), op)
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
                let v = self.b.use_var(self.slots[*s as usize]);
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
                self.comp(c, 0, &mut |e, elem, next| {
                    let v = e.num(elem)?;
                    e.push(v);
                    e.b.ins().jump(next, &[]);
                    Some(())
                })?;
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
                let ra = self.seq(a)?;
                let rb = self.seq(b)?;
                let from = self.b.use_var(self.top);
                self.copy(ra)?;
                let mid = self.b.use_var(self.top);
                self.copy(rb)?;
                let to = self.b.use_var(self.top);
                return Some(self.combine3((from, mid, to), *op));
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
            Seq::Let(s, value, body) => {
                let v = self.num(value)?;
                self.b.def_var(self.slots[*s as usize], v);
                return self.seq(body);
            }
            Seq::If(c, a, b) => return self.seq_if(c, a, b),
            Seq::Row(rows, i) => {
                let i = self.num(i)?;
                return self.row(rows, i);
            }
        }
        Some((from, self.b.use_var(self.top)))
    }

    /// Pushes row `i` of `rows` (from the end when negative), as the
    /// kernel's run does; bails outside.
    fn row(&mut self, rows: &Rows, i: Value) -> Option<(Value, Value)> {
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
    pub(super) fn row_item(&mut self, rows: &Rows, row: &Num, j: &Num) -> Option<Value> {
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

    /// Pushes the divisors of `n`, as the kernel's run does (see
    /// `seq::divisors`); bails outside `1..=DIVISORS_MAX`.
    fn divisors(&mut self, n: Value) -> Option<(Value, Value)> {
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

impl Emit<'_, '_> {
    /// `xs[lo:hi]`, with the interpreter's bounds: negative ones counted
    /// from the end, both cut to the list.
    fn slice(&mut self, xs: &Seq, lo: Option<&Num>, hi: Option<&Num>) -> Option<(Value, Value)> {
        let (a, b) = self.seq(xs)?;
        let len = self.b.ins().isub(b, a);
        let bound = |e: &mut Self, n: Option<&Num>, default: Value| -> Option<Value> {
            let Some(n) = n else { return Some(default) };
            let v = e.num(n)?;
            let zero = e.int(0);
            let from_end = e.b.ins().iadd(v, len);
            let from_end = e.b.ins().smax(from_end, zero);
            let plain = e.b.ins().smin(v, len);
            let negative = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
            Some(e.b.ins().select(negative, from_end, plain))
        };
        let zero = self.int(0);
        let from = bound(self, lo, zero)?;
        let to = bound(self, hi, len)?;
        let to = self.b.ins().smax(to, from);
        Some((self.b.ins().iadd(a, from), self.b.ins().iadd(a, to)))
    }

    /// The clauses `i..` of a comprehension, then `elem` on each element,
    /// told the block that goes on to the next; goes on after. A clause
    /// over a list it makes has no machine code (the kernel's run buffers
    /// the elements there).
    pub(super) fn comp<E>(
        &mut self,
        comp: &Comp<E>,
        i: usize,
        elem: &mut dyn FnMut(&mut Self, &E, Block) -> Option<()>,
    ) -> Option<()> {
        let done = self.b.create_block();
        self.clauses(comp, i, elem, done)?;
        self.b.switch_to_block(done);
        Some(())
    }

    fn clauses<E>(
        &mut self,
        comp: &Comp<E>,
        i: usize,
        elem: &mut dyn FnMut(&mut Self, &E, Block) -> Option<()>,
        next: Block,
    ) -> Option<()> {
        let Some(clause) = comp.clauses.get(i) else {
            return elem(self, &comp.elem, next);
        };
        match clause {
            Clause::If(c) => {
                let holds = self.cond(c)?;
                let go_on = self.b.create_block();
                self.b.ins().brif(holds, go_on, &[], next, &[]);
                self.b.switch_to_block(go_on);
                self.clauses(comp, i + 1, elem, next)
            }
            Clause::For(_, src) if src.pushes() => None,
            Clause::Enumerate(.., xs) if xs.pushes() => None,
            Clause::Enumerate(index, x, xs) => {
                self.enumerate(xs, (*index, *x), &mut |e, step| {
                    e.clauses(comp, i + 1, elem, step)
                })?;
                self.b.ins().jump(next, &[]);
                Some(())
            }
            Clause::For(slot, src) => {
                let slot = self.slots[*slot as usize];
                self.source(src, &mut |e, k, step| {
                    e.b.def_var(slot, k);
                    e.clauses(comp, i + 1, elem, step)
                })?;
                self.b.ins().jump(next, &[]);
                Some(())
            }
        }
    }

    /// `body` on each value of a `for` clause's range or list (values
    /// past the slots' limit bail, as in the kernel's run); the arena is
    /// set back after.
    pub(super) fn source(
        &mut self,
        src: &Source,
        body: &mut dyn FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        match src {
            Source::Range(lo, hi, inclusive) => {
                let (lo, hi) = self.range(lo, hi, *inclusive)?;
                self.each(lo, hi, |e, k, next| body(e, k, next))
            }
            Source::Seq(xs) => self.items_of(xs, body),
        }
    }

    /// `body` with slot `index` set to each index of `xs` and slot `x` to
    /// the item there (within the slots' limit), as [`Emit::items_at`].
    pub(super) fn enumerate(
        &mut self,
        xs: &Seq,
        (index, x): (crate::ir::Slot, crate::ir::Slot),
        body: &mut dyn FnMut(&mut Self, Block) -> Option<()>,
    ) -> Option<()> {
        let (index, x) = (self.slots[index as usize], self.slots[x as usize]);
        self.items_at(xs, &mut |e, i, v, next| {
            e.b.def_var(index, i);
            e.b.def_var(x, v);
            body(e, next)
        })
    }

    /// `body` on each item of `xs`, as [`Emit::items_at`].
    pub(super) fn items_of(
        &mut self,
        xs: &Seq,
        body: &mut dyn FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        self.items_at(xs, &mut |e, _, v, next| body(e, v, next))
    }

    /// `body` on each index of `xs` and the item there, each item within
    /// the slots' limit. A list `xs` pushed is dropped after; otherwise
    /// what `body` pushed stays (a comprehension's elements).
    fn items_at(
        &mut self,
        xs: &Seq,
        body: &mut dyn FnMut(&mut Self, Value, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let mut over = |e: &mut Self, (a, b): (Value, Value)| {
            e.each(a, b, |e, at, next| {
                let v = e.item(at);
                e.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
                let i = e.b.ins().isub(at, a);
                body(e, i, v, next)
            })
        };
        match xs.pushes() {
            true => self.with_seq(xs, over),
            false => {
                let range = self.seq(xs)?;
                over(self, range)
            }
        }
    }

    /// The value of a position with list arguments: its flat run made on
    /// the arena (the lists first, then the run), looked up by the helper
    /// ([`super::super::helpers::flat`]).
    pub(super) fn flat_term(&mut self, game: GameId, header: i64, args: &[Arg]) -> Option<Value> {
        let index = self.targets.iter().position(|t| *t == (game, args.len()))?;
        if let Some(form) = crate::runtime::kernel::forms::static_form(header, args) {
            return self.form_term(index, form, (header, args));
        }
        self.flat_looked_up(index, header, args)
    }

    /// [`Emit::flat_term`] by the helper: the run made in the arena and
    /// looked up.
    pub(super) fn flat_looked_up(
        &mut self,
        index: usize,
        header: i64,
        args: &[Arg],
    ) -> Option<Value> {
        let top = self.b.use_var(self.top);
        let in_place = args.iter().all(|a| match a {
            Arg::Int(_) => true,
            Arg::Seq(xs) => fresh(xs),
        });
        let from = match in_place {
            true => self.run_in_place(header, args)?,
            false => self.run_copied(header, args)?,
        };
        let to = self.b.use_var(self.top);
        let len = self.b.ins().isub(to, from);
        let offset = self.b.ins().ishl_imm_s(from, 3);
        let run = self.b.ins().iadd(self.arena, offset);
        let target = self.int(index as i64);
        let call = self.b.ins().call(self.flat, &[self.ctx, target, run, len]);
        let v = self.b.inst_results(call)[0];
        self.b.def_var(self.top, top);
        Some(self.helper_value(v))
    }

    /// A flat run pushed from the top, each list made where it goes, after
    /// a place for its length: returns where the run starts.
    fn run_in_place(&mut self, header: i64, args: &[Arg]) -> Option<Value> {
        let from = self.b.use_var(self.top);
        let h = self.int(header);
        self.push(h);
        for a in args {
            match a {
                Arg::Int(n) => {
                    let v = self.num(n)?;
                    self.push(v);
                }
                Arg::Seq(xs) => {
                    let at = self.b.use_var(self.top);
                    let zero = self.int(0);
                    self.push(zero);
                    let (a, b) = self.seq(xs)?;
                    let len = self.b.ins().isub(b, a);
                    let offset = self.b.ins().ishl_imm_s(at, 3);
                    let addr = self.b.ins().iadd(self.arena, offset);
                    self.b.ins().store(trusted(), len, addr, 0);
                }
            }
        }
        Some(from)
    }

    /// A flat run made after its lists, which are copied into it.
    fn run_copied(&mut self, header: i64, args: &[Arg]) -> Option<Value> {
        let mut lists = Vec::new();
        for a in args {
            if let Arg::Seq(xs) = a {
                lists.push(self.seq(xs)?);
            }
        }
        let from = self.b.use_var(self.top);
        let h = self.int(header);
        self.push(h);
        let mut lists = lists.into_iter();
        for a in args {
            match a {
                Arg::Int(n) => {
                    let v = self.num(n)?;
                    self.push(v);
                }
                Arg::Seq(_) => {
                    let (a, b) = lists.next()?;
                    let len = self.b.ins().isub(b, a);
                    self.push(len);
                    self.copy((a, b))?;
                }
            }
        }
        Some(from)
    }
}

/// Whether making `xs` pushes exactly its items, from the top as it was:
/// then it can be made where it is wanted.
fn fresh(xs: &Seq) -> bool {
    match xs {
        Seq::Items(..) | Seq::Comp(_) | Seq::Kept(_) | Seq::Divisors(_) | Seq::Row(..) => true,
        Seq::Sorted(inner) | Seq::SetOf(inner) => fresh(inner),
        _ => false,
    }
}
