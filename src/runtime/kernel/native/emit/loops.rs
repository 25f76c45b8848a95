//! The binders' loops: ranges, lists and constants copied out; the
//! innermost range narrowed by the guard; and each option marked.

use super::{Emit, trusted};
use crate::runtime::kernel::expr::Cond;
use crate::runtime::kernel::expr::{Num, SLOT_LIMIT};
use crate::runtime::kernel::narrow::solve;
use crate::runtime::kernel::run::Values;
use crate::runtime::kernel::{Domain, Held, Move, Term};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, InstBuilder, StackSlotData, StackSlotKind, Value,
    types::{I8, I64},
};
use cranelift_frontend::Variable;

use super::BUDGET;

/// The window `from..to` of offsets `t` in `0..len` where
/// `start + step * t  op  0` holds (see [`solve`]), packed as
/// `from | to << 32`; `op` is the index of the comparison in [`NARROWING`].
pub extern "C" fn narrow(op: i64, start: i64, step: i64, len: i64) -> u64 {
    let (from, to) = solve(NARROWING[op as usize], start, step, len);
    from as u64 | (to as u64) << 32
}

/// The comparisons that narrow a loop, numbered for [`narrow`].
pub(super) const NARROWING: [BinOp; 5] = [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Eq];

impl Emit<'_, '_> {
    /// Counts the iterations of a loop over `from..to` before it starts,
    /// leaving the position to the kernel's run past the budget. (Both
    /// ends are within the slots' limit: no overflow.)
    pub(super) fn charge(&mut self, from: Value, to: Value) {
        let len = self.b.ins().isub(to, from);
        let zero = self.int(0);
        let len = self.b.ins().smax(len, zero);
        let w = self.b.use_var(self.work);
        let w = self.b.ins().iadd(w, len);
        self.b.def_var(self.work, w);
        let over = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, w, BUDGET);
        self.bail_if(over);
    }

    /// `body` for each `k` in `from..to`, told the block that goes on to
    /// the next `k`; then goes on after the loop.
    pub(super) fn each(
        &mut self,
        from: Value,
        to: Value,
        mut body: impl FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        if self.tick.is_none() {
            self.charge(from, to);
        }
        let k = self.b.declare_var(I64);
        self.b.def_var(k, from);
        let [head, step, exit] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let v = self.b.use_var(k);
        let done = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, v, to);
        let inside = self.b.create_block();
        // The loop's body as the branch's second target, its exit the
        // first: Cranelift's hoisting of loop-invariant code out of a
        // loop walks the dominator tree, visiting a block's second
        // target before its first, and forgets the loop once it has
        // visited a block outside it. Visited before the body, the exit
        // kept anything from being hoisted out of the body (see
        // docs/architecture.md, item 18).
        self.b.ins().brif(done, exit, &[], inside, &[]);
        self.b.switch_to_block(inside);
        body(self, v, step)?;
        self.b.switch_to_block(step);
        self.tick();
        let v = self.b.use_var(k);
        let v = self.b.ins().iadd_imm_s(v, 1);
        self.b.def_var(k, v);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(exit);
        Some(())
    }

    /// The loops of binders `i..` of `rule`, then its options; jumps to
    /// `done` after.
    pub(super) fn binders(&mut self, rule: &Move, i: usize, done: Block) -> Option<()> {
        let Some((slot, domain)) = rule.binders.get(i) else {
            return self.option(rule, 0, done);
        };
        let index = *slot as usize;
        let slot = self.slot_var(index);
        if i + 1 == rule.binders.len()
            && !rule.large
            && let Some(values) = unrolled(domain)
        {
            // A few constants: one copy of the options per value, where
            // the constant folds into the guard and the targets (and is
            // known, so that a sweep's row read before its loop may name
            // it: `row_reads.rs`).
            let outer = self.known[index];
            let emitted = values.into_iter().try_for_each(|k| {
                let next = self.b.create_block();
                self.known[index] = Some((k, k));
                let k = self.int(k);
                self.b.def_var(slot, k);
                self.option(rule, 0, next)?;
                self.b.switch_to_block(next);
                Some(())
            });
            self.known[index] = outer;
            emitted?;
            self.b.ins().jump(done, &[]);
            return Some(());
        }
        let inner = |e: &mut Self, k: Value, next: Block| {
            e.b.def_var(slot, k);
            e.forget_held(rule, i);
            e.binders(rule, i + 1, next)
        };
        let outer = self.known[index];
        self.known[index] = constant_bounds(domain);
        self.enter_loop(vec![index]);
        let emitted = self.domain_loop(rule, i, domain, done, inner);
        self.leave_loop();
        self.known[index] = outer;
        emitted?;
        self.b.ins().jump(done, &[]);
        Some(())
    }

    /// The loop of binder `i` over `domain`, `inner` its body.
    fn domain_loop(
        &mut self,
        rule: &Move,
        i: usize,
        domain: &Domain,
        done: Block,
        inner: impl FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let slot = self.slot_var(rule.binders[i].0 as usize);
        let mut inner = inner;
        match domain {
            Domain::Range(lo, hi, inclusive) => {
                let (lo, hi) = self.range(lo, hi, *inclusive)?;
                // A short constant range tests its guard per value: cheaper
                // than narrowing it.
                let short = lo_hi_const(domain);
                if i + 1 < rule.binders.len() || short {
                    self.each(lo, hi, inner)?;
                } else {
                    let x = rule.binders[i].0;
                    let (lo, hi, tested) = self.narrowed(rule, x, (lo, hi), done)?;
                    if let Some(n) = rule.divides().filter(|_| tested + 1 == rule.narrow.len()) {
                        return self.divisor_loops(rule, n, (lo, hi), tested);
                    }
                    if let Some(e) = rule.multiple().filter(|_| tested + 1 == rule.narrow.len()) {
                        return self.multiple_loops(rule, e, (lo, hi), tested);
                    }
                    if let Some(kept) = rule.filter().filter(|_| tested + 1 == rule.narrow.len()) {
                        return self.filtered_loop(rule, kept, (lo, hi), tested);
                    }
                    self.each(lo, hi, |e, k, next| {
                        e.b.def_var(slot, k);
                        e.option(rule, tested, next)
                    })?;
                }
            }
            Domain::Fixed(Values::Range(lo, hi)) => {
                let (lo, hi) = (self.int(*lo), self.int(*hi));
                self.each(lo, hi, inner)?;
            }
            Domain::Fixed(values @ Values::List { .. }) => {
                let items = values.items();
                let at = self.int(items.as_ptr() as i64);
                self.items(at, items.len(), inner)?;
            }
            Domain::Items(items) => {
                let data =
                    StackSlotData::new(StackSlotKind::ExplicitSlot, 8 * items.len() as u32, 3);
                let stack = self.b.create_sized_stack_slot(data);
                for (j, item) in items.iter().enumerate() {
                    let v = self.num(item)?;
                    self.bail_unless_slot(v);
                    self.b.ins().stack_store(I64, v, stack, 8 * j as i32);
                }
                let at = self.b.ins().stack_addr(I64, stack, 0);
                self.items(at, items.len(), inner)?;
            }
            Domain::Seq(xs) => self.items_of(xs, &mut |e, k, next| inner(e, k, next))?,
            Domain::Split(how, xs, b) => {
                let binding = super::lists::Binding::Two(*how, rule.binders[i].0, *b);
                self.split_items(binding, xs, &mut |e, next| {
                    e.forget_held(rule, i);
                    e.binders(rule, i + 1, next)
                })?
            }
            Domain::Global(_) => return None,
        }
        Some(())
    }

    /// The ends `lo..hi` of a binder's or a clause's range. The kernel's
    /// run bails on a non-empty range reaching past the slots' limit: so
    /// does this.
    pub(super) fn range(&mut self, lo: &Num, hi: &Num, inclusive: bool) -> Option<(Value, Value)> {
        let lo = self.num(lo)?;
        let mut hi = self.num(hi)?;
        if inclusive {
            let one = self.int(1);
            hi = self.checked(BinOp::Add, hi, one);
        }
        let empty = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, lo, hi);
        let low = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedLessThanOrEqual, lo, -SLOT_LIMIT);
        let high = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThan, hi, SLOT_LIMIT);
        let out = self.b.ins().bor(low, high);
        let zero = self.b.ins().iconst(I8, 0);
        let bad = self.b.ins().select(empty, zero, out);
        self.bail_if(bad);
        Some((lo, hi))
    }

    /// `body` for each of the `n` integers at `at`, in order.
    pub(super) fn items(
        &mut self,
        at: Value,
        n: usize,
        mut body: impl FnMut(&mut Self, Value, Block) -> Option<()>,
    ) -> Option<()> {
        let (from, to) = (self.int(0), self.int(n as i64));
        self.each(from, to, |e, j, next| {
            let offset = e.b.ins().imul_imm_s(j, 8);
            let address = e.b.ins().iadd(at, offset);
            let k = e.b.ins().load(I64, trusted(), address, 0);
            body(e, k, next)
        })
    }

    /// One combination of binder values: the guard (past its first
    /// `tested` conjuncts, which hold), then the option's value marked;
    /// jumps to `next` either way.
    pub(super) fn option(&mut self, rule: &Move, tested: usize, next: Block) -> Option<()> {
        let mut j = tested;
        while let Some(c) = rule.guard.get(j) {
            // Two conjuncts that bound one expression: one test.
            let holds = match self.bounded_pair(rule, j) {
                Some(inside) => {
                    j += 1;
                    inside
                }
                None => match self.held.get(j).copied().flatten() {
                    Some(kept) => self.held_cond(c, kept)?,
                    None => self.cond(c)?,
                },
            };
            j += 1;
            let go_on = self.b.create_block();
            self.b.ins().brif(holds, go_on, &[], next, &[]);
            self.b.switch_to_block(go_on);
        }
        let mut value = self.int(0);
        let zero = self.int(0);
        self.b.def_var(self.option_missing, zero);
        let within = !self.bits && matches!(rule.terms.as_slice(), [Term::Node(..)]);
        self.within_marks = within;
        for term in &rule.terms {
            let v = self.term(term);
            self.within_marks = false;
            value = self.b.ins().bxor(value, v?);
        }
        if rule.sums() {
            // See `Move::sums`: the kernel's run bails here too.
            let missing = self.b.use_var(self.option_missing);
            self.bail_if(missing);
        }
        let count = self.b.use_var(self.count);
        let count = self.b.ins().iadd_imm_s(count, 1);
        self.b.def_var(self.count, count);
        // In the mex function, an option with a term that has no value yet
        // is counted, not marked: the marks of a run that misses some are
        // the values of the others (see `Marks::complete`). The sweeps
        // stop at such a position, whatever its marks.
        if self.keeps_marks {
            let missing = self.b.use_var(self.option_missing);
            let marked = self.b.create_block();
            self.b.ins().brif(missing, next, &[], marked, &[]);
            self.b.switch_to_block(marked);
        }
        self.mark(value, within, next);
        Some(())
    }
}

impl Emit<'_, '_> {
    /// A variable for each conjunct of `rule` that is held (see
    /// [`Held`]), none evaluated yet.
    pub(super) fn hold(&mut self, rule: &Move) {
        let zero = self.int(0);
        self.held = (rule.held.iter())
            .map(|h| {
                (*h != Held::PerOption).then(|| {
                    let v = self.b.declare_var(I64);
                    self.b.def_var(v, zero);
                    v
                })
            })
            .collect();
    }

    /// Forgets the truth of the conjuncts held for each value of binder
    /// `i`, which has just taken a new one.
    fn forget_held(&mut self, rule: &Move, i: usize) {
        let zero = self.int(0);
        for (h, v) in rule.held.iter().zip(&self.held) {
            if let (Held::PerValue(at), Some(v)) = (h, v)
                && *at == i
            {
                self.b.def_var(*v, zero);
            }
        }
    }

    /// The truth of the held conjunct `c`: evaluated the first time it is
    /// reached, and kept in `kept` for the times after.
    fn held_cond(&mut self, c: &Cond, kept: Variable) -> Option<Value> {
        let known = self.b.use_var(kept);
        let [eval, join] = [self.b.create_block(), self.b.create_block()];
        let unknown = self.b.ins().icmp_imm_s(IntCC::Equal, known, 0);
        self.b.ins().brif(unknown, eval, &[], join, &[]);
        self.b.switch_to_block(eval);
        let holds = self.cond(c)?;
        let (yes, no) = (self.int(2), self.int(1));
        let now = self.b.ins().select(holds, yes, no);
        self.b.def_var(kept, now);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        let known = self.b.use_var(kept);
        Some(self.b.ins().icmp_imm_s(IntCC::Equal, known, 2))
    }
}

/// The values of a domain of at most [`UNROLLED`] constants, in order.
fn unrolled(domain: &Domain) -> Option<Vec<i64>> {
    let values: Vec<i64> = match domain {
        Domain::Range(Num::Const(lo), Num::Const(hi), inclusive) => {
            let hi = hi.checked_add(i64::from(*inclusive))?;
            if hi.saturating_sub(*lo) > UNROLLED as i64 {
                return None;
            }
            (*lo..hi).collect()
        }
        Domain::Fixed(Values::Range(lo, hi)) if hi.saturating_sub(*lo) <= UNROLLED as i64 => {
            (*lo..*hi).collect()
        }
        Domain::Fixed(values @ Values::List { .. }) => values.items().to_vec(),
        _ => return None,
    };
    // Beyond the slots' limit the kernel's run bails: so does the loop.
    let small = values.iter().all(|v| v.abs() < SLOT_LIMIT);
    (values.len() <= UNROLLED && small).then_some(values)
}

/// The values of a binder over constants, as an inclusive interval.
fn constant_bounds(domain: &Domain) -> Option<(i64, i64)> {
    match domain {
        Domain::Range(lo, hi, inclusive) => range_bounds((lo, hi, *inclusive)),
        Domain::Fixed(values) => Some(values.bounds()),
        _ => None,
    }
}

/// The values of a range between constants (a binder's, or a `for`
/// clause's), as an inclusive interval.
pub(super) fn range_bounds((lo, hi, inclusive): (&Num, &Num, bool)) -> Option<(i64, i64)> {
    match (lo, hi) {
        (Num::Const(lo), Num::Const(hi)) => Some((*lo, hi.checked_sub(i64::from(!inclusive))?)),
        _ => None,
    }
}

/// The most values of an innermost binder copied out instead of looped.
const UNROLLED: usize = 16;

/// Whether a range's ends are both constants, at most 64 apart.
fn lo_hi_const(domain: &Domain) -> bool {
    match domain {
        Domain::Range(Num::Const(lo), Num::Const(hi), _) => hi.saturating_sub(*lo) <= 64,
        _ => false,
    }
}
