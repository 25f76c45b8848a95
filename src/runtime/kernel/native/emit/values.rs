//! Integer expressions and conditions, checked as the interpreter
//! checks them.

use super::Emit;
use crate::runtime::kernel::Term;
use crate::runtime::kernel::calls::FnRef;
use crate::runtime::kernel::expr::{Cond, Lin, Num};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    FuncRef, Inst, InstBuilder, StackSlotData, StackSlotKind, Value,
    types::{I8, I64},
};
use std::mem::offset_of;

/// The smallest and largest value something can take.
type Bounds = (i64, i64);

/// `isqrt(n)`, or `i64::MIN` when `n` is negative (an error).
pub extern "C" fn isqrt(n: i64) -> i64 {
    if n < 0 { i64::MIN } else { n.isqrt() }
}

/// `gcd(a, b)`, or `i64::MIN` when it is 2⁶³ (an overflow, an error).
pub extern "C" fn gcd(a: i64, b: i64) -> i64 {
    crate::runtime::numbers::gcd(a, b).unwrap_or(i64::MIN)
}

/// `x ** y` as the interpreter computes it, or `i64::MIN` when that is an
/// error or overflows (or is `i64::MIN`: the kernel's run then decides).
pub extern "C" fn pow(x: i64, y: i64) -> i64 {
    use crate::runtime::ops::arith;
    arith(BinOp::Pow, x, y, crate::span::Span::default()).unwrap_or(i64::MIN)
}

impl Emit<'_, '_> {
    /// `a op b`, checked as the interpreter checks it.
    pub(super) fn checked(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let ins = self.b.ins();
        let (v, overflow) = match op {
            BinOp::Add => ins.sadd_overflow(a, b),
            BinOp::Sub => ins.ssub_overflow(a, b),
            _ => ins.smul_overflow(a, b),
        };
        self.bail_if(overflow);
        v
    }

    /// The value of frame slot `s`: a parameter of the position whose
    /// options are made (see [`Emit::params`]), or its variable.
    pub(super) fn slot_value(&mut self, s: usize) -> Value {
        match self.params.get(s) {
            Some(v) => *v,
            None => self.b.use_var(self.slots[s]),
        }
    }

    /// The variable of frame slot `s`, to bind: never one of the
    /// position's own parameters (see [`Emit::params`]).
    pub(super) fn slot_var(&self, s: usize) -> cranelift_frontend::Variable {
        debug_assert!(s >= self.params.len(), "a move rebinds parameter {s}");
        self.slots[s]
    }

    pub(super) fn lin(&mut self, lin: &Lin) -> Value {
        // Exact without checks: see `Lin`.
        let mut v = self.int(lin.c);
        for (slot, k) in &lin.terms {
            let s = self.slot_value(*slot as usize);
            let s = self.b.ins().imul_imm_s(s, *k);
            v = self.b.ins().iadd(v, s);
        }
        v
    }

    /// An integer expression's value.
    pub(super) fn num(&mut self, n: &Num) -> Option<Value> {
        Some(match n {
            Num::Const(c) => self.int(*c),
            Num::Slot(s) | Num::Named(s) => self.slot_value(*s as usize),
            Num::Bail => {
                let always = self.b.ins().iconst(I8, 1);
                self.bail_if(always);
                self.int(0)
            }
            Num::Let(s, value, body) => {
                let v = self.num(value)?;
                {
                    let slot = self.slot_var(*s as usize);
                    self.b.def_var(slot, v)
                };
                self.num(body)?
            }
            Num::Lin(l) => self.lin(l),
            Num::Global(_) => return None,
            Num::Len(xs) => self.seq_len(xs)?,
            Num::Pack(xs) => self.pack_word(xs)?,
            Num::Index(xs, i) => self.seq_index(xs, i)?,
            Num::Fold(fold, xs) => self.seq_fold(*fold, xs)?,
            Num::Neg(a) => {
                let zero = self.int(0);
                let a = self.num(a)?;
                self.checked(BinOp::Sub, zero, a)
            }
            Num::BitNot(a) => {
                let a = self.num(a)?;
                self.b.ins().bnot(a)
            }
            Num::Abs(a) => {
                let a = self.num(a)?;
                let min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
                self.bail_if(min);
                self.b.ins().iabs(a)
            }
            Num::Isqrt(a) => {
                let a = self.num(a)?;
                self.checked_call(self.isqrt, &[a])
            }
            Num::Bits(count, a) => {
                let a = self.num(a)?;
                let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, a, 0);
                self.bail_if(negative);
                match count {
                    true => self.b.ins().popcnt(a),
                    false => {
                        let zeros = self.b.ins().clz(a);
                        let all = self.int(64);
                        self.b.ins().isub(all, zeros)
                    }
                }
            }
            Num::Gcd(a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                self.checked_call(self.gcd, &[a, b])
            }
            Num::Pair(a, b) => {
                let (x, y) = (self.num(a)?, self.num(b)?);
                let min = crate::graph::flat::PAIR_MIN;
                self.bail_outside(x, min, -min);
                self.bail_outside(y, min, -min);
                let high = self.b.ins().ishl_imm_s(x, 32);
                let low = self.b.ins().iadd_imm_s(y, -min);
                self.b.ins().iadd(high, low)
            }
            Num::Bin(op @ (BinOp::Shl | BinOp::Shr), x, by) => {
                let (a, b) = (self.num(x)?, self.num(by)?);
                self.shift(*op, (a, b), (self.range_of(x), self.range_of(by)))
            }
            Num::Bin(op @ (BinOp::Div | BinOp::Rem), x, by)
                if super::floor::cheap_divisor(by).is_some() =>
            {
                let d = super::floor::cheap_divisor(by)?;
                let natural = self.range_of(x).is_some_and(|(lo, _)| lo >= 0);
                let a = self.num(x)?;
                self.floor_by(*op, (a, natural), d)
            }
            Num::Bin(op @ (BinOp::Div | BinOp::Rem), x, by) if self.invariant(by) => {
                let (a, d) = (self.num(x)?, self.num(by)?);
                let Num::Slot(s) = **by else { return None };
                self.floor_invariant(*op, a, (d, s as usize))
            }
            // No overflow where the operands' ranges rule it out.
            Num::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), x, y)
                if self.range_of(n).is_some() =>
            {
                let (a, b) = (self.num(x)?, self.num(y)?);
                let ins = self.b.ins();
                match op {
                    BinOp::Add => ins.iadd(a, b),
                    BinOp::Sub => ins.isub(a, b),
                    _ => ins.imul(a, b),
                }
            }
            Num::Bin(BinOp::Pow, x, by) if cheap_power(x, by) => self.power(x, by)?,
            Num::Bin(op, a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                self.binary(*op, a, b)?
            }
            Num::If(c, a, b) => {
                let c = self.cond(c)?;
                self.choose(I64, c, |e| e.num(a), |e| e.num(b))?
            }
            // A query asks the search; rules read the value as an
            // option's, a position without one yet missed as one.
            Num::Value(game, args) if self.tick.is_some() => self.query_value(*game, args)?,
            Num::Value(game, args) => {
                self.asking = true;
                let v = self.term(&Term::Node(*game, args.clone()));
                self.asking = false;
                v?
            }
            Num::Ask(game, asked) => self.query_flat(*game, asked.0, &asked.1)?,
            Num::Call(func, args) => self.call_fn(func, args)?,
            Num::Extremum(min, items) => {
                let mut best = self.num(&items[0])?;
                for item in &items[1..] {
                    let v = self.num(item)?;
                    best = match min {
                        true => self.b.ins().smin(best, v),
                        false => self.b.ins().smax(best, v),
                    };
                }
                best
            }
        })
    }

    /// `a << b` or `a >> b`, checked as the interpreter checks: a shift
    /// out of `0..64` or bits lost to the left bail. Where the operands'
    /// ranges (when known: see [`Emit::range_of`]) rule that out, the
    /// check is left out.
    fn shift(
        &mut self,
        op: BinOp,
        (a, b): (Value, Value),
        (ra, rb): (Option<Bounds>, Option<Bounds>),
    ) -> Value {
        if !rb.is_some_and(|(lo, hi)| 0 <= lo && hi < 64) {
            self.bail_outside(b, 0, 64);
        }
        if op == BinOp::Shr {
            return self.b.ins().sshr(a, b);
        }
        let v = self.b.ins().ishl(a, b);
        // Within ±2^(63 - most), no bit is lost (in 128 bits: a shift by
        // at most 0 leaves a limit of 2^63).
        let safe = match (ra, rb) {
            (Some((alo, ahi)), Some((0.., most @ 0..=62))) => {
                let limit = 1i128 << (63 - most);
                -limit < i128::from(alo) && i128::from(ahi) < limit
            }
            _ => false,
        };
        if !safe {
            let back = self.b.ins().sshr(v, b);
            let lost = self.b.ins().icmp(IntCC::NotEqual, back, a);
            self.bail_if(lost);
        }
        v
    }

    /// The values `n` can take, when its slots' are known (a binder over
    /// constants): an inclusive interval.
    pub(super) fn range_of(&self, n: &Num) -> Option<Bounds> {
        match n {
            Num::Const(c) => Some((*c, *c)),
            Num::Slot(s) => self.known[*s as usize],
            Num::Lin(l) => {
                let (mut lo, mut hi) = (l.c, l.c);
                for (s, k) in &l.terms {
                    let (a, b) = self.known[*s as usize]?;
                    let (x, y) = (a.checked_mul(*k)?, b.checked_mul(*k)?);
                    lo = lo.checked_add(x.min(y))?;
                    hi = hi.checked_add(x.max(y))?;
                }
                Some((lo, hi))
            }
            Num::Bin(op, x, y) => {
                let ((a, b), (c, d)) = (self.range_of(x)?, self.range_of(y)?);
                match op {
                    BinOp::Add => Some((a.checked_add(c)?, b.checked_add(d)?)),
                    BinOp::Sub => Some((a.checked_sub(d)?, b.checked_sub(c)?)),
                    BinOp::Mul => {
                        let corners = [
                            a.checked_mul(c)?,
                            a.checked_mul(d)?,
                            b.checked_mul(c)?,
                            b.checked_mul(d)?,
                        ];
                        Some((*corners.iter().min()?, *corners.iter().max()?))
                    }
                    // Bits shifted out of a non-negative number by less
                    // than 63: none lost where the largest keeps them.
                    // (Bounds the wrong way round, of an empty binder,
                    // give none.)
                    BinOp::Shl if 0 <= a && a <= b && 0 <= c && c <= d && d < 63 => {
                        Some((a << c, b.checked_mul(1 << d)?))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `x ** by` of a [`cheap_power`]: a square, a cube or a fourth power
    /// (`k ** 2`) as products, checked as the interpreter's power is; `2
    /// ** e` as a shift, for the exponents whose power fits (the others,
    /// negative or too large, bail: the interpreter's error).
    fn power(&mut self, x: &Num, by: &Num) -> Option<Value> {
        let square = |e: &mut Self, v| e.checked(BinOp::Mul, v, v);
        Some(match by {
            Num::Const(c @ 0..=4) => {
                let a = self.num(x)?;
                match c {
                    0 => self.int(1),
                    1 => a,
                    2 => square(self, a),
                    3 => {
                        let aa = square(self, a);
                        self.checked(BinOp::Mul, aa, a)
                    }
                    _ => {
                        let aa = square(self, a);
                        square(self, aa)
                    }
                }
            }
            _ => {
                let e = self.num(by)?;
                self.bail_outside(e, 0, 63);
                let one = self.int(1);
                self.b.ins().ishl(one, e)
            }
        })
    }

    pub(super) fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Option<Value> {
        use BinOp::*;
        Some(match op {
            Add | Sub | Mul => self.checked(op, a, b),
            BitAnd => self.b.ins().band(a, b),
            BitOr => self.b.ins().bor(a, b),
            BitXor => self.b.ins().bxor(a, b),
            Div | Rem => self.floor(op, a, b),
            Shl | Shr => self.shift(op, (a, b), (None, None)),
            Pow => self.checked_call(self.pow, &[a, b]),
            _ => return None,
        })
    }

    /// A call of a compiled function, by its helper ([`super::super::helpers::call`]):
    /// bails where the function's run does.
    fn call_fn(&mut self, func: &FnRef, args: &[Num]) -> Option<Value> {
        // The kernel or query owns the function while its code lives.
        let at = std::rc::Rc::as_ptr(&func.get()?);
        let given = args
            .iter()
            .map(|a| self.num(a))
            .collect::<Option<Vec<_>>>()?;
        let own = self.fns.iter().find(|(f, _)| *f == at).map(|(_, r)| *r);
        Some(match own {
            // SAFETY: `at` is alive (above).
            Some(code) if (1..=2).contains(&given.len()) => {
                self.remembered(unsafe { &*at }, code, &given)
            }
            Some(code) => self.call_own(code, &given),
            None => {
                let stack = self.on_stack(&given);
                let func = self.int(at as i64);
                let n = self.int(given.len() as i64);
                let call = self.b.ins().call(self.call, &[self.ctx, func, stack, n]);
                self.forget_pages();
                self.returned(call)
            }
        })
    }

    /// The call `code(given)` of a function with machine code of its own:
    /// its result; bails where it does.
    pub(super) fn call_own(&mut self, code: FuncRef, given: &[Value]) -> Value {
        let stack = self.on_stack(given);
        let zero = self.int(0);
        // The signature of every function (see `super::function`).
        let args = [stack, zero, zero, zero, zero, zero, zero, self.ctx];
        let call = self.b.ins().call(code, &args);
        self.forget_pages();
        self.returned(call)
    }

    /// What the function `call` called returned in the context's `ret`;
    /// bails where it failed.
    fn returned(&mut self, call: Inst) -> Value {
        let status = self.b.inst_results(call)[0];
        let failed = self.b.ins().icmp_imm_s(IntCC::NotEqual, status, 0);
        self.bail_if(failed);
        let ret = offset_of!(super::super::Ctx, ret) as i32;
        self.b.ins().load(I64, super::trusted(), self.ctx, ret)
    }

    /// The address of a stack slot holding `values`, for a helper.
    pub(super) fn on_stack(&mut self, values: &[Value]) -> Value {
        let size = 8 * values.len().max(1) as u32;
        let data = StackSlotData::new(StackSlotKind::ExplicitSlot, size, 3);
        let stack = self.b.create_sized_stack_slot(data);
        for (i, v) in values.iter().enumerate() {
            self.b.ins().stack_store(I64, *v, stack, 8 * i as i32);
        }
        self.b.ins().stack_addr(I64, stack, 0)
    }

    /// What an arithmetic helper (`pow`, `isqrt`) returns; bails on
    /// `i64::MIN`, its answer for an error.
    pub(super) fn checked_call(&mut self, helper: FuncRef, args: &[Value]) -> Value {
        let call = self.b.ins().call(helper, args);
        let v = self.b.inst_results(call)[0];
        let failed = self.b.ins().icmp_imm_s(IntCC::Equal, v, i64::MIN);
        self.bail_if(failed);
        v
    }

    /// `then` where `c` holds, else `otherwise`, each evaluated only
    /// where it is taken.
    pub(super) fn choose(
        &mut self,
        ty: cranelift_codegen::ir::Type,
        c: Value,
        then: impl FnOnce(&mut Self) -> Option<Value>,
        otherwise: impl FnOnce(&mut Self) -> Option<Value>,
    ) -> Option<Value> {
        let result = self.b.declare_var(ty);
        let [yes, no, join] = self.blocks();
        self.b.ins().brif(c, yes, &[], no, &[]);
        self.b.switch_to_block(yes);
        let v = then(self)?;
        self.b.def_var(result, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(no);
        let v = otherwise(self)?;
        self.b.def_var(result, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(result))
    }

    /// A condition's truth, as an 8-bit 0 or 1.
    pub(super) fn cond(&mut self, c: &Cond) -> Option<Value> {
        Some(match c {
            Cond::Const(b) => self.b.ins().iconst(I8, i64::from(*b)),
            Cond::Cmp(op, a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                self.b.ins().icmp(compare(*op)?, a, b)
            }
            Cond::And(a, b) => {
                if let Some(inside) = self.bounded(a, b) {
                    return Some(inside);
                }
                let a = self.cond(a)?;
                self.choose(I8, a, |e| e.cond(b), |e| Some(e.b.ins().iconst(I8, 0)))?
            }
            Cond::Or(a, b) => {
                let a = self.cond(a)?;
                self.choose(I8, a, |e| Some(e.b.ins().iconst(I8, 1)), |e| e.cond(b))?
            }
            Cond::Not(a) => {
                let a = self.cond(a)?;
                self.b.ins().bxor_imm_s(a, 1)
            }
            Cond::If(c, a, b) => {
                let c = self.cond(c)?;
                self.choose(I8, c, |e| e.cond(a), |e| e.cond(b))?
            }
            Cond::Quant(all, comp) => self.quant(*all, comp)?,
            Cond::In { yes, sorted, x, xs } => self.seq_contains((*yes, *sorted), x, xs)?,
            Cond::Member(yes, x, set) => self.member(*yes, x, set)?,
            Cond::Same(yes, xs, ys) => self.seq_same(*yes, xs, ys)?,
            Cond::Within(yes, t, s) => self.seq_within(*yes, t, s)?,
            Cond::Less(strict, xs, ys) => self.seq_less(*strict, xs, ys)?,
            Cond::Let(s, value, body) => {
                let v = self.num(value)?;
                {
                    let slot = self.slot_var(*s as usize);
                    self.b.def_var(slot, v)
                };
                self.cond(body)?
            }
            Cond::Bind(s, value, body) => self.with_seq(value, |e, (a, b)| {
                // As `seq::encode` says where a list slot's items are.
                let len = e.b.ins().isub(b, a);
                let start = e.b.ins().ishl_imm_s(a, 32);
                let v = e.b.ins().bor(start, len);
                e.b.def_var(e.slot_var(*s as usize), v);
                e.cond(body)
            })?,
        })
    }
}

fn compare(op: BinOp) -> Option<IntCC> {
    Some(match op {
        BinOp::Eq => IntCC::Equal,
        BinOp::Ne => IntCC::NotEqual,
        BinOp::Lt => IntCC::SignedLessThan,
        BinOp::Le => IntCC::SignedLessThanOrEqual,
        BinOp::Gt => IntCC::SignedGreaterThan,
        BinOp::Ge => IntCC::SignedGreaterThanOrEqual,
        _ => return None,
    })
}

/// Whether `x ** by` has machine code of its own ([`Emit::power`]): a
/// constant exponent up to 4, or a power of two.
fn cheap_power(x: &Num, by: &Num) -> bool {
    matches!(by, Num::Const(0..=4)) || matches!(x, Num::Const(2))
}
