//! The innermost binder's window cut by the guard's leading conjuncts
//! (see [`crate::runtime::kernel::Narrow`]): tested once, solved for
//! linear and affine comparisons (by a helper, or in place for a
//! coefficient of 1 or -1), or ended where a rising condition first
//! fails, as the kernel's run does.

use super::Emit;
use super::loops::NARROWING;
use crate::runtime::kernel::expr::{Num, SLOT_LIMIT};
use crate::runtime::kernel::narrow::Affine;
use crate::runtime::kernel::{Move, Narrow};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};

impl Emit<'_, '_> {
    /// The innermost binder `x`'s range `lo..hi` cut to where the guard's
    /// leading conjuncts hold: those that do not mention `x`, tested once, jumping to `done` where one fails; and
    /// linear or affine comparisons, solved for the window, as the
    /// kernel's run does. Returns the window and how many conjuncts it
    /// took.
    pub(super) fn narrowed(
        &mut self,
        rule: &Move,
        x: crate::ir::Slot,
        (mut lo, mut hi): (Value, Value),
        done: Block,
    ) -> Option<(Value, Value, usize)> {
        let mut tested = 0;
        for (j, narrow) in rule.narrow.iter().enumerate() {
            // A coefficient of 1 or -1 (`k <= n`, `n - k >= 2`): the
            // window solved here, with no call.
            let unit = match narrow {
                Narrow::Linear(_, d) => Some(d.coef(x)).filter(|c| c.abs() == 1),
                _ => None,
            };
            let (op, d0, step) = match narrow {
                // Evaluated once: it holds for every value of `x` or for
                // none (an error bails, and the kernel's run decides).
                Narrow::Once => {
                    let holds = self.cond(&rule.guard[j])?;
                    let go_on = self.b.create_block();
                    self.b.ins().brif(holds, go_on, &[], done, &[]);
                    self.b.switch_to_block(go_on);
                    tested = j + 1;
                    continue;
                }
                Narrow::Linear(op, d) if *op != BinOp::Ne => {
                    let mut free = d.clone();
                    free.terms.retain(|(s, _)| *s != x);
                    (*op, self.lin(&free), self.int(d.coef(x)))
                }
                Narrow::Affine(op, d) if *op != BinOp::Ne => {
                    let (c0, c1) = self.affine(d)?;
                    (*op, c0, c1)
                }
                Narrow::Monotone(strict, fx, g) => {
                    hi = self.rising_end(x, (lo, hi), (*strict, fx, g))?;
                    tested = j + 1;
                    continue;
                }
                _ => break,
            };
            let at_lo = self.checked(BinOp::Mul, step, lo);
            let start = self.checked(BinOp::Add, at_lo, d0);
            let len = self.b.ins().isub(hi, lo);
            let zero = self.int(0);
            let len = self.b.ins().smax(len, zero);
            let (from, to) = match unit {
                Some(s) => self.unit_window(op, start, s, len)?,
                None => {
                    let op = self.int(NARROWING.iter().position(|o| *o == op)? as i64);
                    let call = self.b.ins().call(self.narrow, &[op, start, step, len]);
                    let window = self.b.inst_results(call)[0];
                    let from = self.b.ins().band_imm_s(window, 0xffff_ffff);
                    (from, self.b.ins().ushr_imm_s(window, 32))
                }
            };
            hi = self.b.ins().iadd(lo, to);
            lo = self.b.ins().iadd(lo, from);
            tested = j + 1;
        }
        Some((lo, hi, tested))
    }

    /// [`solve`] of a step of `s`, 1 or -1, as machine code: the offsets
    /// `from..to` in `0..len` where `start + s * t  op  0`.
    fn unit_window(
        &mut self,
        op: BinOp,
        start: Value,
        s: i64,
        len: Value,
    ) -> Option<(Value, Value)> {
        let zero = self.int(0);
        let clamp = |e: &mut Self, v: Value| {
            let v = e.b.ins().smax(v, zero);
            e.b.ins().smin(v, len)
        };
        // `sign * (start + s * t) <= c`: with `sign * s` 1, the offsets
        // up to `c - sign * start`; with -1, those from `sign * start - c`.
        let le = |e: &mut Self, sign: i64, c: i64| {
            let d = match sign {
                1 => start,
                _ => e.b.ins().ineg(start),
            };
            if sign * s == 1 {
                let minus = e.b.ins().ineg(d);
                let to = e.b.ins().iadd_imm_s(minus, c + 1);
                (zero, clamp(e, to))
            } else {
                let from = e.b.ins().iadd_imm_s(d, -c);
                (clamp(e, from), len)
            }
        };
        let (a, b) = match op {
            BinOp::Lt => le(self, 1, -1),
            BinOp::Le => le(self, 1, 0),
            BinOp::Gt => le(self, -1, -1),
            BinOp::Ge => le(self, -1, 0),
            BinOp::Eq => {
                let ((a, b), (c, d)) = (le(self, 1, 0), le(self, -1, 0));
                (self.b.ins().smax(a, c), self.b.ins().smin(b, d))
            }
            _ => return None,
        };
        Some((a, self.b.ins().smax(b, a)))
    }

    /// Where `fx(x) < g` (or `<=`), with `fx` non-decreasing for `x >= 0`,
    /// stops holding in `lo..hi`: the new `hi`, found by testing both
    /// ends, then by bisection, as the kernel's run does (which takes a
    /// range reaching below 0: the code bails there).
    pub(in crate::runtime::kernel::native::emit) fn rising_end(
        &mut self,
        x: crate::ir::Slot,
        (lo, hi): (Value, Value),
        (strict, fx, g): (bool, &Num, &Num),
    ) -> Option<Value> {
        let slot = self.slot_var(x as usize);
        let end = self.b.declare_var(I64);
        self.b.def_var(end, hi);
        let [work, after] = self.blocks();
        let empty = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, lo, hi);
        self.b.ins().brif(empty, after, &[], work, &[]);
        self.b.switch_to_block(work);
        let below = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, lo, 0);
        self.bail_if(below);
        // `g` once when it is free of `x`; else at each probe, first.
        let free = match g.uses(x) {
            false => Some(self.num(g)?),
            true => None,
        };
        let holds = |e: &mut Self, k: Value| -> Option<Value> {
            e.b.def_var(slot, k);
            let g = match free {
                Some(g) => g,
                None => e.num(g)?,
            };
            let v = e.num(fx)?;
            let cc = match strict {
                true => IntCC::SignedLessThan,
                false => IntCC::SignedLessThanOrEqual,
            };
            Some(e.b.ins().icmp(cc, v, g))
        };
        // Both ends first: an overflow is met at one of them if anywhere
        // (see `narrow::rising_last`), and bails.
        let last = self.b.ins().iadd_imm_s(hi, -1);
        let bottom = holds(self, lo)?;
        let top = holds(self, last)?;
        let not_whole = self.b.create_block();
        self.b.ins().brif(top, after, &[], not_whole, &[]);
        self.b.switch_to_block(not_whole);
        let [none, search] = self.blocks();
        self.b.ins().brif(bottom, search, &[], none, &[]);
        self.b.switch_to_block(none);
        self.b.def_var(end, lo);
        self.b.ins().jump(after, &[]);
        // It holds at `a` and not at `b`.
        self.b.switch_to_block(search);
        let (a, b) = (self.b.declare_var(I64), self.b.declare_var(I64));
        self.b.def_var(a, lo);
        self.b.def_var(b, last);
        let [head, body, found] = self.blocks();
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let (va, vb) = (self.b.use_var(a), self.b.use_var(b));
        let gap = self.b.ins().isub(vb, va);
        let more = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, gap, 1);
        self.b.ins().brif(more, body, &[], found, &[]);
        self.b.switch_to_block(body);
        let half = self.b.ins().sshr_imm_s(gap, 1);
        let mid = self.b.ins().iadd(va, half);
        let at_mid = holds(self, mid)?;
        let [up, down] = self.blocks();
        self.b.ins().brif(at_mid, up, &[], down, &[]);
        self.b.switch_to_block(up);
        self.b.def_var(a, mid);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(down);
        self.b.def_var(b, mid);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(found);
        let va = self.b.use_var(a);
        let next = self.b.ins().iadd_imm_s(va, 1);
        self.b.def_var(end, next);
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
        Some(self.b.use_var(end))
    }

    /// The coefficients `(c0, c1)` of an affine comparison, each part
    /// below [`SLOT_LIMIT`] in magnitude (as the kernel's run checks).
    pub(super) fn affine(&mut self, d: &Affine) -> Option<(Value, Value)> {
        let part = |e: &mut Self, sign: i64, n: Option<&Num>| -> Option<Value> {
            let v = match n {
                Some(n) => e.num(n)?,
                None => e.int(1),
            };
            e.bail_outside(v, 1 - SLOT_LIMIT, SLOT_LIMIT);
            Some(e.b.ins().imul_imm_s(v, sign))
        };
        let mut c0 = self.int(0);
        for (sign, n) in &d.free {
            let v = part(self, *sign, Some(n))?;
            c0 = self.b.ins().iadd(c0, v);
        }
        let mut c1 = self.int(0);
        for (sign, n) in &d.coefs {
            let v = part(self, *sign, n.as_ref())?;
            c1 = self.b.ins().iadd(c1, v);
        }
        Some((c0, c1))
    }
}
