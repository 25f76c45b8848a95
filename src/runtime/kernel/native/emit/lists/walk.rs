//! Going over lists in machine code: a comprehension's clauses, a `for`
//! clause's range or list, `enumerate`, and each item of a list (within
//! the slots' limit), each told the block that goes on to the next.

use crate::runtime::kernel::expr::SLOT_LIMIT;
use crate::runtime::kernel::native::emit::Emit;
use crate::runtime::kernel::seq::{Clause, Comp, Seq, Source};
use cranelift_codegen::ir::{Block, InstBuilder, Value};

impl Emit<'_, '_> {
    /// The clauses `i..` of a comprehension, then `elem` on each element,
    /// told the block that goes on to the next; goes on after. A clause
    /// over a list it makes has no machine code (the kernel's run buffers
    /// the elements there).
    pub(in crate::runtime::kernel::native::emit) fn comp<E>(
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

    /// [`Emit::comp`], where the first clause may go over a list it
    /// makes (`[x for x in xs[:i] + xs[i + 1:] if x > 0]`, a helper's
    /// filter inlined): that list is made first and stays below what
    /// `elem` pushes. Returns where the arena's top was once it was made:
    /// where the elements begin.
    pub(in crate::runtime::kernel::native::emit) fn comp_from<E>(
        &mut self,
        comp: &Comp<E>,
        elem: &mut dyn FnMut(&mut Self, &E, Block) -> Option<()>,
    ) -> Option<Value> {
        let Some((index, x, xs)) = made_first(comp) else {
            let from = self.b.use_var(self.top);
            self.comp(comp, 0, elem)?;
            return Some(from);
        };
        let (a, b) = self.seq(xs)?;
        let from = self.b.use_var(self.top);
        let index_var = index.map(|i| self.slot_var(i as usize));
        let x_var = self.slot_var(x as usize);
        self.loops
            .push(index.into_iter().chain([x]).map(|s| s as usize).collect());
        let emitted = self.each(a, b, |e, at, next| {
            let v = e.item(at);
            e.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
            if let Some(var) = index_var {
                let i = e.b.ins().isub(at, a);
                e.b.def_var(var, i);
            }
            e.b.def_var(x_var, v);
            e.clauses(comp, 1, elem, next)
        });
        self.loops.pop();
        emitted?;
        Some(from)
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
                self.loops.push(vec![*index as usize, *x as usize]);
                let emitted = self.enumerate(xs, (*index, *x), &mut |e, step| {
                    e.clauses(comp, i + 1, elem, step)
                });
                self.loops.pop();
                emitted?;
                self.b.ins().jump(next, &[]);
                Some(())
            }
            Clause::For(s, src) => {
                let slot = self.slot_var(*s as usize);
                self.loops.push(vec![*s as usize]);
                let emitted = self.source(src, &mut |e, k, step| {
                    e.b.def_var(slot, k);
                    e.clauses(comp, i + 1, elem, step)
                });
                self.loops.pop();
                emitted?;
                self.b.ins().jump(next, &[]);
                Some(())
            }
        }
    }

    /// `body` on each value of a `for` clause's range or list (values
    /// past the slots' limit bail, as in the kernel's run); the arena is
    /// set back after.
    pub(in crate::runtime::kernel::native::emit) fn source(
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
    pub(in crate::runtime::kernel::native::emit) fn enumerate(
        &mut self,
        xs: &Seq,
        (index, x): (crate::ir::Slot, crate::ir::Slot),
        body: &mut dyn FnMut(&mut Self, Block) -> Option<()>,
    ) -> Option<()> {
        let (index, x) = (self.slot_var(index as usize), self.slot_var(x as usize));
        self.items_at(xs, &mut |e, i, v, next| {
            e.b.def_var(index, i);
            e.b.def_var(x, v);
            body(e, next)
        })
    }

    /// `body` on each item of `xs`, as [`Emit::items_at`].
    pub(in crate::runtime::kernel::native::emit) fn items_of(
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
}

/// The first clause of `comp` when it goes over a list it makes (the
/// slot of `enumerate`'s index, if any, the item's slot and the list):
/// [`Emit::comp_from`] makes that list first.
pub(in crate::runtime::kernel::native::emit) fn made_first<E>(
    comp: &Comp<E>,
) -> Option<(Option<crate::ir::Slot>, crate::ir::Slot, &Seq)> {
    match comp.clauses.first()? {
        Clause::For(x, Source::Seq(xs)) if xs.pushes() => Some((None, *x, xs)),
        Clause::Enumerate(i, x, xs) if xs.pushes() => Some((Some(*i), *x, xs)),
        _ => None,
    }
}
