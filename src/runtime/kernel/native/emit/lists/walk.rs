//! Going over lists in machine code: a comprehension's clauses, a `for`
//! clause's range or list, `enumerate`, and each item of a list (within
//! the slots' limit), each told the block that goes on to the next.

use crate::runtime::kernel::native::emit::Emit;
use crate::runtime::kernel::native::emit::loops::range_bounds;
use crate::runtime::kernel::seq::{Clause, Comp, Seq, Source, Split};
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use cranelift_frontend::Variable;

/// How a `for` clause binds each item of a list: to one slot, or to two
/// as [`Split`] says.
#[derive(Clone, Copy)]
pub(in crate::runtime::kernel::native::emit) enum Binding {
    One(crate::ir::Slot),
    Two(Split, crate::ir::Slot, crate::ir::Slot),
}

impl Binding {
    fn slots(self) -> Vec<usize> {
        match self {
            Binding::One(x) => vec![x as usize],
            Binding::Two(Split::Whole, p, _) => vec![p as usize],
            Binding::Two(_, a, b) => vec![a as usize, b as usize],
        }
    }
}

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
        let Some((binding, xs)) = made_first(comp) else {
            let from = self.b.use_var(self.top);
            self.comp(comp, 0, elem)?;
            return Some(from);
        };
        let (a, b) = self.seq(xs)?;
        let from = self.b.use_var(self.top);
        self.enter_loop(binding.slots());
        let emitted = self.each(a, b, |e, at, next| {
            let v = e.item(at);
            let i = e.b.ins().isub(at, a);
            e.bind(binding, i, v);
            e.clauses(comp, 1, elem, next)
        });
        self.leave_loop();
        emitted?;
        Some(from)
    }

    /// Sets the slots of `binding` from the item `v` at index `i`: each
    /// within the slots' limit, as the kernel's run binds them.
    fn bind(&mut self, binding: Binding, i: Value, v: Value) {
        let (a, b) = match binding {
            Binding::Two(Split::Whole, p, _) => {
                let var: Variable = self.slot_var(p as usize);
                self.b.def_var(var, v);
                return;
            }
            Binding::One(x) => (None, (x, v)),
            Binding::Two(Split::Enumerate, index, x) => (Some((index, i)), (x, v)),
            Binding::Two(Split::Pair, x, y) => {
                let hi = self.b.ins().sshr_imm_s(v, 32);
                let lo = self.b.ins().band_imm_u(v, 0xffff_ffff);
                let lo = self.b.ins().iadd_imm_s(lo, crate::graph::flat::PAIR_MIN);
                self.bail_unless_slot(hi);
                (Some((x, hi)), (y, lo))
            }
        };
        self.bail_unless_slot(b.1);
        for (slot, value) in a.into_iter().chain([b]) {
            let var: Variable = self.slot_var(slot as usize);
            self.b.def_var(var, value);
        }
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
            Clause::If(c) | Clause::While(c, _) => {
                let holds = self.cond(c)?;
                let go_on = self.b.create_block();
                self.b.ins().brif(holds, go_on, &[], next, &[]);
                self.b.switch_to_block(go_on);
                self.clauses(comp, i + 1, elem, next)
            }
            Clause::For(_, src) if src.pushes() => None,
            Clause::Split(.., xs) if xs.pushes() => None,
            Clause::Split(how, a, b, xs) => {
                let binding = Binding::Two(*how, *a, *b);
                self.enter_loop(binding.slots());
                let emitted = self.split_items(binding, xs, &mut |e, step| {
                    e.clauses(comp, i + 1, elem, step)
                });
                self.leave_loop();
                emitted?;
                self.b.ins().jump(next, &[]);
                Some(())
            }
            Clause::For(s, src) => {
                let slot = self.slot_var(*s as usize);
                self.enter_loop(vec![*s as usize]);
                // A range between constants bounds the slot in the body
                // (`7 * i % 15` then divides unsigned, reads skip checks).
                let outer = self.known[*s as usize];
                self.known[*s as usize] = match src {
                    Source::Range(lo, hi, inclusive) => range_bounds((lo, hi, *inclusive)),
                    Source::Seq(_) => None,
                };
                let emitted = match (src, comp.clauses.get(i + 1)) {
                    // Up to where the `while` after it first fails.
                    (Source::Range(lo, hi, inclusive), Some(Clause::While(_, rising))) => {
                        let (lo, hi) = self.range(lo, hi, *inclusive)?;
                        let (strict, fx, g) = &**rising;
                        let hi = self.rising_end(*s, (lo, hi), (*strict, fx, g))?;
                        self.each(lo, hi, |e, k, step| {
                            e.b.def_var(slot, k);
                            e.clauses(comp, i + 2, elem, step)
                        })
                    }
                    _ => self.source(src, &mut |e, k, step| {
                        e.b.def_var(slot, k);
                        e.clauses(comp, i + 1, elem, step)
                    }),
                };
                self.known[*s as usize] = outer;
                self.leave_loop();
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

    /// `body` with the slots of `binding` set from each item of `xs`
    /// (see [`Emit::bind`]), as [`Emit::items_at`] goes over them.
    pub(in crate::runtime::kernel::native::emit) fn split_items(
        &mut self,
        binding: Binding,
        xs: &Seq,
        body: &mut dyn FnMut(&mut Self, Block) -> Option<()>,
    ) -> Option<()> {
        self.items_at(xs, &mut |e, i, v, next| {
            e.bind(binding, i, v);
            body(e, next)
        })
    }

    /// `body` on each item of `xs`, each within the slots' limit, as
    /// [`Emit::items_at`].
    pub(in crate::runtime::kernel::native::emit) fn items_of(
        &mut self,
        xs: &Seq,
        body: &mut dyn FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        self.items_at(xs, &mut |e, _, v, next| {
            e.bail_unless_slot(v);
            body(e, v, next)
        })
    }

    /// `body` on each index of `xs` and the item there. A list `xs`
    /// pushed is dropped after; otherwise what `body` pushed stays (a
    /// comprehension's elements).
    fn items_at(
        &mut self,
        xs: &Seq,
        body: &mut dyn FnMut(&mut Self, Value, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let mut over = |e: &mut Self, (a, b): (Value, Value)| {
            e.each(a, b, |e, at, next| {
                let v = e.item(at);
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

/// The first clause of `comp` when it goes over a list it makes (how it
/// binds each item, and the list): [`Emit::comp_from`] makes that list
/// first.
pub(in crate::runtime::kernel::native::emit) fn made_first<E>(
    comp: &Comp<E>,
) -> Option<(Binding, &Seq)> {
    match comp.clauses.first()? {
        Clause::For(x, Source::Seq(xs)) if xs.pushes() => Some((Binding::One(*x), xs)),
        Clause::Split(how, a, b, xs) if xs.pushes() => Some((Binding::Two(*how, *a, *b), xs)),
        _ => None,
    }
}
