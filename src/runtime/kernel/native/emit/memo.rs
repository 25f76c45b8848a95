//! Calls of a function of one or two integers, remembered: the machine
//! code looks the arguments up in the function's memo (see
//! [`Func::memo`]) where it calls it, and only on a miss makes the call,
//! then writes the result in. So a helper that counts the ones of `k` by
//! halving it, called for every option, costs a few instructions once
//! each `k` has been seen.
//!
//! The memo is direct-mapped: entry `(a + b * M) mod` [`MEMO_ENTRIES`]
//! holds `[a, b, result, height]`, and a newer result replaces an older.
//! Functions are pure (their bodies read nothing but their arguments), and
//! only results computed without an error are written.
//!
//! The height is how deep the call nested, in the interpreter's frames:
//! the deepest the code went while it ran (`Ctx::deepest`, which every
//! function's code raises on entry) less the depth it started at. A
//! result is taken from the memo only where `depth + height` is within
//! the function's limit, where the call itself would have gone as deep
//! without stopping: so the memo never gives a value where the call
//! would have left the position to the slower paths (and, past
//! `--max-depth`, to the interpreter's error).

use super::func::limit;
use super::{Emit, trusted};
use crate::runtime::kernel::calls::{Func, MEMO_ENTRIES};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{FuncRef, InstBuilder, Value, types::I64};
use std::mem::offset_of;

/// What the second argument is multiplied by in the entry's index.
const MIX: i64 = 0x9E37_79B1;

impl Emit<'_, '_> {
    /// The value of the call of `func`, whose machine code is `code`,
    /// with the one or two integers `given`.
    pub(super) fn remembered(&mut self, func: &Func, code: FuncRef, given: &[Value]) -> Value {
        let depth_at = offset_of!(super::super::Ctx, depth) as i32;
        let deepest_at = offset_of!(super::super::Ctx, deepest) as i32;
        // The rules' own code runs at depth 0.
        let depth = match self.in_func {
            true => self.b.ins().load(I64, trusted(), self.ctx, depth_at),
            false => self.int(0),
        };
        let mut key = given[0];
        if let Some(b) = given.get(1) {
            let mixed = self.b.ins().imul_imm_s(*b, MIX);
            key = self.b.ins().iadd(key, mixed);
        }
        let index = (self.b.ins()).band_imm_s(key, MEMO_ENTRIES as i64 - 1);
        let offset = self.b.ins().ishl_imm_s(index, 5);
        let table = self.int(func.memo() as i64);
        let entry = self.b.ins().iadd(table, offset);
        // Found: the same arguments, and 1 <= height <= limit - depth.
        let height = self.b.ins().load(I64, trusted(), entry, 24);
        let room = self.int(limit(func));
        let room = self.b.ins().isub(room, depth);
        let below = self.b.ins().iadd_imm_s(height, -1);
        let mut found = (self.b.ins()).icmp(IntCC::UnsignedLessThan, below, room);
        for (i, arg) in given.iter().enumerate() {
            let kept = self.b.ins().load(I64, trusted(), entry, 8 * i as i32);
            let same = self.b.ins().icmp(IntCC::Equal, kept, *arg);
            found = self.b.ins().band(found, same);
        }
        let result = self.b.declare_var(I64);
        let [hit, miss, done] = self.blocks();
        self.b.set_cold_block(miss);
        self.b.ins().brif(found, hit, &[], miss, &[]);

        self.b.switch_to_block(hit);
        let v = self.b.ins().load(I64, trusted(), entry, 16);
        self.b.def_var(result, v);
        if self.in_func {
            let reached = self.b.ins().iadd(depth, height);
            let deepest = self.b.ins().load(I64, trusted(), self.ctx, deepest_at);
            let deepest = self.b.ins().smax(deepest, reached);
            (self.b.ins()).store(trusted(), deepest, self.ctx, deepest_at);
        }
        self.b.ins().jump(done, &[]);

        self.b.switch_to_block(miss);
        let before = self.b.ins().load(I64, trusted(), self.ctx, deepest_at);
        self.b.ins().store(trusted(), depth, self.ctx, deepest_at);
        let v = self.call_own(code, given);
        let reached = self.b.ins().load(I64, trusted(), self.ctx, deepest_at);
        let height = self.b.ins().isub(reached, depth);
        for (i, arg) in given.iter().enumerate() {
            self.b.ins().store(trusted(), *arg, entry, 8 * i as i32);
        }
        self.b.ins().store(trusted(), v, entry, 16);
        self.b.ins().store(trusted(), height, entry, 24);
        let deepest = self.b.ins().smax(before, reached);
        (self.b.ins()).store(trusted(), deepest, self.ctx, deepest_at);
        self.b.def_var(result, v);
        self.b.ins().jump(done, &[]);

        self.b.switch_to_block(done);
        self.b.use_var(result)
    }
}
