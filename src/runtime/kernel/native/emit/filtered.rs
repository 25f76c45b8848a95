//! The loop of an innermost binder over the values a conjunct of its own
//! keeps ([`crate::runtime::kernel::filter`]): the helper evaluates the
//! conjunct where the window reaches values not evaluated yet, then the
//! loop runs over the set bits of the window's words, a word at a time
//! (`ctz`, then the bit cleared), as the kernel's run does.

use super::{Emit, trusted};
use crate::runtime::kernel::Move;
use crate::runtime::kernel::filter::{FILTER_END, Filter, LISTED_FROM};
use crate::runtime::kernel::native::helpers::FILTER_FAILED;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types::I64};

impl Emit<'_, '_> {
    /// The loop of `rule`'s innermost binder over `lo..hi`, the guard's
    /// conjuncts from `tested` on left to test, the first of them the
    /// filter `kept`: over the values it keeps where the window lies in
    /// `0..FILTER_END`, else over every value, each tested. Goes on after
    /// the loop.
    pub(super) fn filtered_loop(
        &mut self,
        rule: &Move,
        kept: &Filter,
        (lo, hi): (Value, Value),
        tested: usize,
    ) -> Option<()> {
        let window_end = hi;
        let slot = self.slot_var(rule.binders.last()?.0 as usize);
        let [work, plain, after] = self.blocks();
        // The values from `from` on are each tested.
        let from = self.b.append_block_param(plain, I64);
        let empty = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, lo, hi);
        self.b.ins().brif(empty, after, &[], work, &[]);
        self.b.switch_to_block(work);
        let below = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, lo, 0);
        let past = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThan, hi, FILTER_END);
        let out = self.b.ins().bor(below, past);
        let [check, fill, known, kept_some] = self.blocks();
        self.b.ins().brif(out, plain, &[lo.into()], check, &[]);
        // A window inside the last one the helper evaluated to its end
        // (`k in 1..=min(n, 7)`, the same at every position past 7) is
        // evaluated already: the helper is not called again.
        self.b.switch_to_block(check);
        let place = self.filled_place();
        let (done_hi, done_lo) = (
            self.b.ins().stack_load(I64, I64, place, 0),
            self.b.ins().stack_load(I64, I64, place, 8),
        );
        let above = self
            .b
            .ins()
            .icmp(IntCC::SignedGreaterThanOrEqual, lo, done_lo);
        let below = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, hi, done_hi);
        let inside = self.b.ins().band(above, below);
        self.b.ins().brif(inside, known, &[hi.into()], fill, &[]);
        self.b.switch_to_block(fill);
        let filter = self.int(kept as *const Filter as i64);
        let call = self.b.ins().call(self.filter, &[self.ctx, filter, lo, hi]);
        self.forget_pages();
        let kept_end = self.b.inst_results(call)[0];
        let failed = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, kept_end, FILTER_FAILED as i64);
        self.bail_if(failed);
        let whole = self.b.ins().icmp(IntCC::Equal, kept_end, hi);
        let [note, noted] = self.blocks();
        self.b.ins().brif(whole, note, &[], noted, &[]);
        self.b.switch_to_block(note);
        self.b.ins().stack_store(I64, hi, place, 0);
        self.b.ins().stack_store(I64, lo, place, 8);
        self.b.ins().jump(noted, &[]);
        self.b.switch_to_block(noted);
        self.b.ins().jump(known, &[kept_end.into()]);
        self.b.switch_to_block(known);
        let kept_end = self.b.append_block_param(known, I64);
        // The values kept are those up to `kept_end`; the rest are tested.
        let none = self
            .b
            .ins()
            .icmp(IntCC::SignedLessThanOrEqual, kept_end, lo);
        self.b
            .ins()
            .brif(none, plain, &[kept_end.into()], kept_some, &[]);
        self.b.switch_to_block(kept_some);
        self.listed_loop(rule, kept, (lo, kept_end), tested, plain)?;
        // The values kept are charged here, those tested by their loop
        // (those of a list, each as it is taken).
        if self.tick.is_none() {
            self.charge(lo, kept_end);
        }
        let hi = kept_end;
        // Words `first..=last`, each masked to the window.
        let first = self.b.ins().sshr_imm_s(lo, 6);
        let last = self.b.ins().iadd_imm_s(hi, -1);
        let last = self.b.ins().sshr_imm_s(last, 6);
        let end = self.b.ins().iadd_imm_s(last, 1);
        let words_at = self.int(kept.words_at() as i64);
        let bits = self.b.declare_var(I64);
        self.counted_loop((first, end), true, |e, w, next_word| {
            // Read again for each word: a run below this one may have
            // grown the words, and moved them.
            let words = e.b.ins().load(I64, trusted(), words_at, 0);
            let at = e.b.ins().ishl_imm_s(w, 3);
            let at = e.b.ins().iadd(words, at);
            let word = e.b.ins().load(I64, trusted(), at, 0);
            let all = e.int(-1);
            let low = e.b.ins().band_imm_s(lo, 63);
            let from = e.b.ins().ishl(all, low);
            let is_first = e.b.ins().icmp(IntCC::Equal, w, first);
            let from = e.b.ins().select(is_first, from, all);
            let top = e.b.ins().iadd_imm_s(hi, -1);
            let top = e.b.ins().band_imm_s(top, 63);
            let top = e.b.ins().bxor_imm_s(top, 63);
            let to = e.b.ins().ushr(all, top);
            let is_last = e.b.ins().icmp(IntCC::Equal, w, last);
            let to = e.b.ins().select(is_last, to, all);
            let word = e.b.ins().band(word, from);
            let word = e.b.ins().band(word, to);
            e.b.def_var(bits, word);
            let [head, take] = e.blocks();
            e.b.ins().jump(head, &[]);
            e.b.switch_to_block(head);
            let left = e.b.use_var(bits);
            e.b.ins().brif(left, take, &[], next_word, &[]);
            e.b.switch_to_block(take);
            let bit = e.b.ins().ctz(left);
            let rest = e.b.ins().iadd_imm_s(left, -1);
            let rest = e.b.ins().band(left, rest);
            e.b.def_var(bits, rest);
            let base = e.b.ins().ishl_imm_s(w, 6);
            let k = e.b.ins().bor(base, bit);
            e.b.def_var(slot, k);
            e.option(rule, tested + kept.conjuncts(), head)
        })?;
        self.b.ins().jump(plain, &[kept_end.into()]);
        self.tested_loop(rule, (from, window_end), tested, (plain, after))
    }

    /// Where the window `lo..hi`, all kept, is long and the filter's list
    /// of the values that hold covers it ([`Filter::list_from`]): a loop
    /// over those values, then on to `plain` at `hi`. The builder is left
    /// where it is not, for the loop over the window's words.
    fn listed_loop(
        &mut self,
        rule: &Move,
        kept: &Filter,
        (lo, hi): (Value, Value),
        tested: usize,
        plain: cranelift_codegen::ir::Block,
    ) -> Option<()> {
        let slot = self.slot_var(rule.binders.last()?.0 as usize);
        let [ask, listed, head, take, words] = self.blocks();
        let long = self.b.ins().isub(hi, lo);
        let long = (self.b.ins()).icmp_imm_s(IntCC::SignedGreaterThanOrEqual, long, LISTED_FROM);
        self.b.ins().brif(long, ask, &[], words, &[]);
        self.b.switch_to_block(ask);
        let filter = self.int(kept as *const Filter as i64);
        let call = self
            .b
            .ins()
            .call(self.filter_from, &[self.ctx, filter, lo, hi]);
        let first = self.b.inst_results(call)[0];
        let none = (self.b.ins()).icmp_imm_s(IntCC::Equal, first, FILTER_FAILED as i64);
        let at = self.b.declare_var(I64);
        self.b.def_var(at, first);
        self.b.ins().brif(none, words, &[], listed, &[]);
        self.b.switch_to_block(listed);
        self.b.ins().jump(head, &[]);
        // Each value, read again after each option: a run below this one
        // may have grown the list, and moved it.
        self.b.switch_to_block(head);
        let list_at = self.int(kept.list_at() as i64);
        let values = self.b.ins().load(I64, trusted(), list_at, 0);
        let i = self.b.use_var(at);
        let offset = self.b.ins().ishl_imm_s(i, 3);
        let place = self.b.ins().iadd(values, offset);
        let k = self.b.ins().load(I64, trusted(), place, 0);
        // The list ends with the largest integer, past every window.
        let past = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, k, hi);
        self.b.ins().brif(past, plain, &[hi.into()], take, &[]);
        self.b.switch_to_block(take);
        if self.tick.is_none() {
            let k1 = self.b.ins().iadd_imm_s(k, 1);
            self.charge(k, k1);
        }
        let next = self.b.ins().iadd_imm_s(i, 1);
        self.b.def_var(at, next);
        self.b.def_var(slot, k);
        self.option(rule, tested + kept.conjuncts(), head)?;
        self.b.switch_to_block(words);
        Some(())
    }
}
