//! The loop of an innermost binder over the values a conjunct of its own
//! keeps ([`crate::runtime::kernel::filter`]): the helper evaluates the
//! conjunct where the window reaches values not evaluated yet, then the
//! loop runs over the set bits of the window's words, a word at a time
//! (`ctz`, then the bit cleared), as the kernel's run does.

use super::{Emit, trusted};
use crate::runtime::kernel::Move;
use crate::runtime::kernel::filter::{FILTER_END, Filter};
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
        let [fill, kept_some] = self.blocks();
        self.b.ins().brif(out, plain, &[lo.into()], fill, &[]);
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
        // The values kept are charged here, those tested by their loop.
        if self.tick.is_none() {
            self.charge(lo, kept_end);
        }
        // The values kept are those up to `kept_end`; the rest are tested.
        let none = self
            .b
            .ins()
            .icmp(IntCC::SignedLessThanOrEqual, kept_end, lo);
        self.b
            .ins()
            .brif(none, plain, &[kept_end.into()], kept_some, &[]);
        self.b.switch_to_block(kept_some);
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
}
