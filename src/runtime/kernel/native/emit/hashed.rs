//! The read of a position of one or two integers among its game's hashed
//! positions (a heap of 10^15 divided by 2, 3 or 6), done by the machine
//! code itself: it probes the table of [`crate::graph::Probe`] as
//! `graph::hashed::ints` does, and only a position not there, or there
//! without a value, goes to the helper. A memoized recursion over huge
//! heaps finds most of its options there: the heap halved, and the heap
//! thirded, of consecutive heaps are mostly the same.

use super::super::VALUED;
use super::{Emit, trusted};
use crate::graph::{
    EMPTY_SLOT, KEY_AT, KIND_AT, MIX, NODE_BYTES, ONE_KIND, Probe, TURN, TWO_KIND, VALUE_AT, View,
};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};
use std::mem::offset_of;

impl Emit<'_, '_> {
    /// Looks for the position of target `target`'s game with arguments
    /// `given` (one or two) among its hashed positions: goes to `got`
    /// with its value if it is there with one, else on, in a block of its
    /// own. Every block is cold: a game whose options are dense comes
    /// here only for the few it has not valued yet.
    ///
    /// Only the mex function probes (see `Emit::probes`). Its probe is a
    /// loop to the position or an empty slot: four slots unrolled instead
    /// left more positions to the helper (divide: 365M instructions
    /// against 353M) and cost more to compile (the knight's board: 782M
    /// against 774M, where no position is hashed).
    pub(super) fn probe_hashed(&mut self, target: usize, given: &[Value], got: Block) {
        let miss = self.b.create_block();
        self.b.set_cold_block(miss);
        let probe = self.hashed_of(target);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, probe, 0);
        self.cold_unless(none, miss);
        let field = |e: &mut Self, at: usize| e.b.ins().load(I64, trusted(), probe, at as i32);
        let slots = field(self, offset_of!(Probe, slots));
        let mask = field(self, offset_of!(Probe, mask));
        let shift = field(self, offset_of!(Probe, shift));
        let nodes = field(self, offset_of!(Probe, nodes));
        let hash = self.hash_of(given);
        let tag = self.b.ins().ushr_imm_s(hash, 32);
        // Its first slot: the tag's top bits (`graph::hashed::ints`).
        let first = self.b.ins().ushr(tag, shift);
        let [head, compare, next] = self.blocks();
        for block in [head, compare, next] {
            self.b.set_cold_block(block);
        }
        self.b.append_block_param(head, I64);
        self.b.ins().jump(head, &[first.into()]);
        // A slot: empty (not there), another tag (on), or the position's
        // number, whose key then decides.
        self.b.switch_to_block(head);
        let at = self.b.block_params(head)[0];
        let offset = self.b.ins().ishl_imm_s(at, 3);
        let address = self.b.ins().iadd(slots, offset);
        let slot = self.b.ins().load(I64, trusted(), address, 0);
        let empty = (self.b.ins()).icmp_imm_s(IntCC::Equal, slot, EMPTY_SLOT as i64);
        self.cold_unless(empty, miss);
        let slot_tag = self.b.ins().ushr_imm_s(slot, 32);
        let same = self.b.ins().icmp(IntCC::Equal, slot_tag, tag);
        self.b.ins().brif(same, compare, &[], next, &[]);
        self.b.switch_to_block(compare);
        self.found(nodes, (slot, given), [got, next, miss]);
        self.b.switch_to_block(next);
        let after = self.b.ins().iadd_imm_s(at, 1);
        let after = self.b.ins().band(after, mask);
        self.b.ins().jump(head, &[after.into()]);
        self.b.switch_to_block(miss);
    }

    /// Where `slot` is a position whose arguments are `given`: to `got`
    /// with its value if it has one, to `next` if it is another
    /// position, else to `miss`, the helper.
    fn found(
        &mut self,
        nodes: Value,
        (slot, given): (Value, &[Value]),
        [got, next, miss]: [Block; 3],
    ) {
        // The position's number plus one: its node is a node further on.
        let number = self.b.ins().band_imm_s(slot, 0xffff_ffff);
        let offset = self.b.ins().imul_imm_s(number, NODE_BYTES as i64);
        let past = self.b.ins().iadd(nodes, offset);
        let node = self.b.ins().iadd_imm_s(past, -(NODE_BYTES as i64));
        // Its kind first: a game redefined with another arity keeps its
        // old positions beside the new.
        let kind = match given.len() {
            1 => ONE_KIND,
            _ => TWO_KIND,
        };
        let byte = (self.b.ins()).uload8(I64, trusted(), node, KIND_AT as i32);
        let mut same = Some(self.b.ins().icmp_imm_s(IntCC::Equal, byte, i64::from(kind)));
        for (i, arg) in given.iter().enumerate() {
            let key = (self.b.ins()).load(I64, trusted(), node, (KEY_AT + 8 * i) as i32);
            let equal = self.b.ins().icmp(IntCC::Equal, key, *arg);
            same = Some(match same {
                None => equal,
                Some(before) => self.b.ins().band(before, equal),
            });
        }
        let same = same.expect("one or two arguments");
        let hit = self.b.create_block();
        self.b.set_cold_block(hit);
        self.b.ins().brif(same, hit, &[], next, &[]);
        self.b.switch_to_block(hit);
        let v = (self.b.ins()).load(I64, trusted(), node, VALUE_AT as i32);
        let valued = (self.b.ins()).icmp_imm_u(IntCC::UnsignedLessThan, v, VALUED as i64);
        self.b.ins().brif(valued, got, &[v.into()], miss, &[]);
    }

    /// Goes to `elsewhere` where `c` holds, else on in a cold block.
    fn cold_unless(&mut self, c: Value, elsewhere: Block) {
        let go_on = self.b.create_block();
        self.b.set_cold_block(go_on);
        self.b.ins().brif(c, elsewhere, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
    }

    /// The hash of one or two integers (`graph::hashed::ints`).
    fn hash_of(&mut self, given: &[Value]) -> Value {
        let first = self.b.ins().imul_imm_s(given[0], MIX as i64);
        match given {
            [_, b] => {
                let turned = self.b.ins().rotl_imm_s(first, i64::from(TURN));
                let mixed = self.b.ins().bxor(turned, *b);
                self.b.ins().imul_imm_s(mixed, MIX as i64)
            }
            _ => first,
        }
    }

    /// The address of target `target`'s game's [`Probe`] (0 for none),
    /// read here from the context's views (see `Ctx::views`).
    fn hashed_of(&mut self, target: usize) -> Value {
        let at = offset_of!(super::super::Ctx, views) as i32;
        let views = self.b.ins().load(I64, trusted(), self.ctx, at);
        let at = target * size_of::<View>() + offset_of!(View, hashed);
        self.b.ins().load(I64, trusted(), views, at as i32)
    }
}

#[cfg(test)]
mod tests {
    use crate::graph::{
        EMPTY_SLOT, Graph, KEY_AT, KIND_AT, MIX, NODE_BYTES, ONE_KIND, Probe, TURN, TWO_KIND,
        VALUE_AT,
    };
    use crate::value::Value;

    /// What the machine code does (see `probe_hashed`), done in Rust
    /// from the same constants: the value of `args`, if found with one.
    #[allow(unsafe_code)]
    fn probed(probe: u64, args: &[i64]) -> Option<u64> {
        // SAFETY: `probe` is a live graph's, read as the machine code
        // reads it, with nothing changing the graph meanwhile.
        unsafe {
            let p = &*(probe as *const Probe);
            let mut hash = (args[0] as u64).wrapping_mul(MIX);
            if let [_, b] = args {
                hash = (hash.rotate_left(TURN) ^ *b as u64).wrapping_mul(MIX);
            }
            let tag = hash >> 32;
            let mut at = tag >> p.shift;
            loop {
                let slot = *((p.slots as *const u64).add(at as usize));
                if slot == EMPTY_SLOT {
                    return None;
                }
                let node = p.nodes + ((slot & 0xffff_ffff) as usize - 1) * NODE_BYTES;
                let key = |i: usize| *((node + KEY_AT + 8 * i) as *const i64);
                let kind = *((node + KIND_AT) as *const u8);
                let kind_is = if args.len() == 1 { ONE_KIND } else { TWO_KIND };
                if slot >> 32 == tag
                    && kind == kind_is
                    && (0..args.len()).all(|i| key(i) == args[i])
                {
                    let v = *((node + VALUE_AT) as *const u64);
                    return (v < super::VALUED).then_some(v);
                }
                at = (at + 1) & p.mask;
            }
        }
    }

    #[test]
    fn the_probe_finds_what_the_graph_holds_as_the_machine_code_reads_it() {
        let mut graph = Graph::default();
        let huge = 1_000_000_000_000_000i64;
        let (one, two) = (0, 1);
        for k in 0..3000 {
            let node = graph.insert(one, &[Value::Int(huge + 3 * k)]);
            if k % 5 != 0 {
                graph.set_value(node, (k % 7) as u64);
            }
            let node = graph.insert(two, &[Value::Int(huge - k), Value::Int(-huge + k)]);
            graph.set_value(node, (k % 11) as u64);
        }
        let (probe1, probe2) = (
            graph.target_view(one, 1).hashed,
            graph.target_view(two, 2).hashed,
        );
        assert!(probe1 != 0 && probe2 != 0);
        // A game with no hashed positions: one empty slot, found empty.
        let none = Probe::default();
        assert_eq!(probed(&none as *const Probe as u64, &[huge]), None);
        for k in 0..3000 {
            let want = (k % 5 != 0).then_some((k % 7) as u64);
            assert_eq!(probed(probe1, &[huge + 3 * k]), want, "{k}");
            let want = Some((k % 11) as u64);
            assert_eq!(probed(probe2, &[huge - k, -huge + k]), want, "{k}");
            assert_eq!(probed(probe1, &[huge + 3 * k + 1]), None);
            assert_eq!(probed(probe2, &[huge - k, -huge + k + 1]), None);
        }
    }
}
