//! Pages kept: the page of a one-integer target's table that the code
//! read last, so that reading the same page again is one comparison and
//! a load (see [`PageCache`]).

use super::{Emit, Table};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, InstBuilder, StackSlot, StackSlotData, StackSlotKind, Value, types::I64,
};
use cranelift_frontend::Variable;

/// The page of a one-integer target's table that the code read last, in
/// a slot of the frame: its first position, its length (0 when none is
/// kept) and the address of its first slot. A query reading `value(g(n))`
/// for `n` in a range, or a rule reading another game's `value(g(k))`
/// for `k` in a range, reads the same page again and again; with it
/// kept, each read is a comparison and a load, not the page's lookup
/// afresh (and, in a query, the table's view). Any helper that may run
/// the search (which may grow the tables and move their pages) forgets
/// every kept page ([`Emit::forget_pages`]): in a query, its helper that
/// asks the search. Elsewhere the helpers read a graph they cannot
/// change; the pages are forgotten after them all the same, so that a
/// helper that one day changes it cannot leave a page read after it
/// moved. In the frame rather than in variables, the three are not
/// carried through the loops, whose other values already take the
/// registers a call keeps.
#[derive(Clone, Copy)]
pub(super) struct PageCache {
    slot: StackSlot,
}

/// Where [`PageCache`]'s fields are in its slot.
const FIRST: i32 = 0;
const LEN: i32 = 8;
const SLOTS: i32 = 16;

impl Emit<'_, '_> {
    /// Keeps a page ([`PageCache`]) for each target of one integer, none
    /// kept yet.
    pub(super) fn keep_pages(&mut self) {
        let targets = self.targets;
        self.pages = (targets.iter())
            .map(|(_, arity)| {
                (*arity == 1).then(|| {
                    let data = StackSlotData::new(StackSlotKind::ExplicitSlot, 24, 3);
                    PageCache {
                        slot: self.b.create_sized_stack_slot(data),
                    }
                })
            })
            .collect();
        self.forget_pages();
    }

    /// After a helper that may have run the search: no page is kept.
    pub(super) fn forget_pages(&mut self) {
        if self.pages.iter().all(Option::is_none) {
            return;
        }
        let none = self.int(0);
        for cache in self.pages.clone().into_iter().flatten() {
            self.b.ins().stack_store(I64, none, cache.slot, LEN);
        }
    }

    /// Reads the value of `n` in `table`, the table of a target, into
    /// `value` and goes to `join`, from the page kept where it is `n`'s,
    /// else from the table's view, keeping `n`'s page; goes to `slow`
    /// where the table holds no plain value for it.
    pub(super) fn read_kept(
        &mut self,
        table: Table,
        cache: PageCache,
        n: Value,
        value: Variable,
        (slow, join): (Block, Block),
    ) {
        let first = self.b.ins().stack_load(I64, I64, cache.slot, FIRST);
        let len = self.b.ins().stack_load(I64, I64, cache.slot, LEN);
        // Past the kept page's first position by less than its length,
        // as one unsigned comparison: another page, or a negative `n`, is
        // below it (a huge difference) or at least a page past it.
        let place = self.b.ins().isub(n, first);
        let hit = (self.b.ins()).icmp(IntCC::UnsignedLessThan, place, len);
        let [near, far] = self.blocks();
        self.b.ins().brif(hit, near, &[], far, &[]);
        self.b.switch_to_block(near);
        let slots = self.b.ins().stack_load(I64, I64, cache.slot, SLOTS);
        let at = self.slot_at(slots, place);
        self.read_slot(at, value, (slow, join));
        self.b.switch_to_block(far);
        self.outside_to(n, (0, crate::graph::DENSE_END.into()), slow);
        let (page, place) = self.page_place(n);
        let (slots, len) = self.row_or(table, (page, place), slow);
        let first = self.b.ins().isub(n, place);
        self.b.ins().stack_store(I64, first, cache.slot, FIRST);
        self.b.ins().stack_store(I64, len, cache.slot, LEN);
        self.b.ins().stack_store(I64, slots, cache.slot, SLOTS);
        let at = self.slot_at(slots, place);
        self.read_slot(at, value, (slow, join));
    }
}
