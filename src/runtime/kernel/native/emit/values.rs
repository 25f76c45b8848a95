//! Integer expressions and conditions, checked as the interpreter
//! checks them, and the reads of the options' values.

use super::{Emit, Table, trusted};
use crate::graph::{DENSE_END, Dense, SIDE_MAX, SIDE3_MAX};
use crate::runtime::kernel::Term;
use crate::runtime::kernel::expr::{Cond, Lin, Num};
use crate::syntax::ast::BinOp;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, FuncRef, InstBuilder, Value,
    types::{I8, I32, I64},
};

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
    /// A term's nim-value: a heap's size, or a position's value read from
    /// its game's dense table.
    pub(super) fn term(&mut self, term: &Term) -> Option<Value> {
        let (game, args) = match term {
            Term::Heap(k) => {
                let v = self.num(k)?;
                let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
                self.bail_if(negative);
                return Some(v);
            }
            Term::Node(game, args) => (*game, args),
            Term::Flat(game, header, args) => return self.flat_term(*game, *header, args),
        };
        let index = self.targets.iter().position(|t| *t == (game, args.len()))?;
        let [slow, join] = self.blocks();
        self.b.set_cold_block(slow);
        let value = self.b.declare_var(I64);
        let given = args
            .iter()
            .map(|a| self.num(a))
            .collect::<Option<Vec<_>>>()?;
        // Made before any branch to `slow`, which reads it.
        let zero = self.int(0);
        let (a, b, c) = match given.as_slice() {
            [n] => (*n, zero, zero),
            [a, b] => (*a, *b, zero),
            [a, b, c] => (*a, *b, *c),
            _ => return None,
        };
        // In a row only where the target names the row itself: elsewhere
        // the test would cost each option and never pass.
        if let Some((own, window)) = self.window
            && own == index
            && (window.row.is_none() || matches!(args[0], Num::Slot(0)))
        {
            self.read_below(window, &given, value, (slow, join));
        }
        self.read_dense(self.tables[index], (&given, 0), value, (slow, join));
        // Anything else is the helper's: a hashed position, a large value,
        // one without a value yet (then 0 here, and the position's marks
        // no longer count), one on the search path (bail).
        self.b.switch_to_block(slow);
        let target = self.int(index as i64);
        let call = match given.len() {
            3 => self
                .b
                .ins()
                .call(self.unusual3, &[self.ctx, target, a, b, c]),
            _ => self.b.ins().call(self.unusual, &[self.ctx, target, a, b]),
        };
        let v = self.b.inst_results(call)[0];
        let v = self.helper_value(v);
        self.b.def_var(value, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(value))
    }

    /// Reads the value of the position of one to three integers `args`,
    /// of the form of code `form` (0 for integer arguments), from
    /// `table` into `value`, then goes to `join`; goes to `slow` where
    /// the table holds no plain value for it (outside the table, or one
    /// of its marks), or for other arguments.
    pub(super) fn read_dense(
        &mut self,
        table: Table,
        (args, form): (&[Value], u64),
        value: cranelift_frontend::Variable,
        (slow, join): (Block, Block),
    ) {
        // A table of positions of another form is the helper's; one of
        // list positions shows integer arguments no pages.
        let table = match form {
            0 => table,
            _ => {
                let other = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::NotEqual, table.form, form as i64);
                self.leave_if(other, slow);
                Table {
                    count: table.form_count,
                    ..table
                }
            }
        };
        let place = match args {
            [n] => {
                self.outside_to(*n, (0, DENSE_END.into()), slow);
                let shift = Dense::PAGE.trailing_zeros() as i64;
                let page = self.b.ins().ushr_imm_s(*n, shift);
                let place = self.b.ins().band_imm_s(*n, Dense::PAGE as i64 - 1);
                (page, place)
            }
            [a, b] => {
                self.outside_to(*a, (0, SIDE_MAX), slow);
                self.outside_to(*b, (0, SIDE_MAX), slow);
                (*a, *b)
            }
            [a, b, c] => {
                for x in [a, b, c] {
                    self.outside_to(*x, (0, SIDE3_MAX), slow);
                }
                (self.szudzik(*a, *b), *c)
            }
            _ => {
                self.b.ins().jump(slow, &[]);
                return;
            }
        };
        let at = self.slot_or(table, place, slow);
        let slot = self.b.ins().load(I32, trusted(), at, 0);
        let slot = self.b.ins().uextend(I64, slot);
        let plain = i64::from(Dense::PLAIN);
        let unusual = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, slot, plain);
        let fast = self.b.create_block();
        self.b.ins().brif(unusual, slow, &[], fast, &[]);
        self.b.switch_to_block(fast);
        self.b.def_var(value, slot);
        self.b.ins().jump(join, &[]);
    }

    /// In a sweep, reads the value of the game's own position `args`
    /// into `value` and goes to `join` when it is in the swept position's
    /// page or row, before it (see [`super::Window`]); goes on in a new
    /// block otherwise, and to `slow` where the slot holds no plain value.
    fn read_below(
        &mut self,
        window: super::Window,
        args: &[Value],
        value: cranelift_frontend::Variable,
        (slow, join): (Block, Block),
    ) {
        let n = *args.last().expect("a position of one or two integers");
        // 1 <= at - n <= place, as one unsigned comparison.
        let below = self.b.ins().isub(window.at, n);
        let less = self.b.ins().iadd_imm_s(below, -1);
        let mut near = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, less, window.place);
        if let (Some(row), [a, _]) = (window.row, args) {
            let same = self.b.ins().icmp(IntCC::Equal, *a, row);
            near = self.b.ins().band(near, same);
        }
        let [fast, far, plain] = self.blocks();
        self.b.ins().brif(near, fast, &[], far, &[]);
        self.b.switch_to_block(fast);
        let back = self.b.ins().imul_imm_s(below, 4);
        let at = self.b.ins().isub(window.slot, back);
        let slot = self.b.ins().load(I32, trusted(), at, 0);
        let slot = self.b.ins().uextend(I64, slot);
        let unusual = self.b.ins().icmp_imm_s(
            IntCC::UnsignedGreaterThanOrEqual,
            slot,
            i64::from(Dense::PLAIN),
        );
        self.b.ins().brif(unusual, slow, &[], plain, &[]);
        self.b.switch_to_block(plain);
        self.b.def_var(value, slot);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(far);
    }

    /// Szudzik's number of the pair `(a, b)`, both non-negative and small
    /// enough: `a² + a + b` where `a >= b`, else `b² + a`. The row of a
    /// triple `(a, b, _)` in its table (see [`Dense`]).
    fn szudzik(&mut self, a: Value, b: Value) -> Value {
        let ge = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, a, b);
        let (big, small) = (self.b.ins().smax(a, b), self.b.ins().smin(a, b));
        let square = self.b.ins().imul(big, big);
        // a >= b: a² + a + b = big² + big + small; else b² + a = big² + small.
        let zero = self.int(0);
        let extra = self.b.ins().select(ge, big, zero);
        let sum = self.b.ins().iadd(square, extra);
        self.b.ins().iadd(sum, small)
    }

    /// What a helper that reads an option's value returned, as a value:
    /// bails on [`super::super::BAIL`]; on [`super::super::MISSING`]
    /// notes that the position's marks no longer count, and gives 0.
    pub(super) fn helper_value(&mut self, v: Value) -> Value {
        let bail = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, v, super::super::BAIL as i64);
        self.bail_if(bail);
        let missing = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, v, super::super::MISSING as i64);
        let flag = self.b.ins().uextend(I64, missing);
        for var in [self.missing, self.option_missing] {
            let before = self.b.use_var(var);
            let after = self.b.ins().bor(before, flag);
            self.b.def_var(var, after);
        }
        let zero = self.int(0);
        self.b.ins().select(missing, zero, v)
    }

    /// Goes on only where `v` is in `lo..hi`, else to `elsewhere`.
    pub(super) fn outside_to(&mut self, v: Value, (lo, hi): (i64, i64), elsewhere: Block) {
        let shifted = self.b.ins().iadd_imm_s(v, lo.wrapping_neg());
        let out = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, shifted, hi - lo);
        self.leave_if(out, elsewhere);
    }

    /// The address of slot `place` of page `page` of `table`, checked to
    /// be inside it (else the code bails).
    pub(super) fn slot(&mut self, table: Table, page: Value, place: Value) -> Value {
        self.slot_or(table, (page, place), self.bail)
    }

    /// [`Emit::slot`], going to `elsewhere` when it is not inside.
    pub(super) fn slot_or(
        &mut self,
        table: Table,
        (page, place): (Value, Value),
        elsewhere: Block,
    ) -> Value {
        let out = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, page, table.count);
        self.leave_if(out, elsewhere);
        let at = self.b.ins().imul_imm_s(page, 4);
        let at = self.b.ins().iadd(table.lens, at);
        let len = self.b.ins().load(I32, trusted(), at, 0);
        let len = self.b.ins().uextend(I64, len);
        let out = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, place, len);
        self.leave_if(out, elsewhere);
        let at = self.b.ins().imul_imm_s(page, 8);
        let at = self.b.ins().iadd(table.pages, at);
        let slots = self.b.ins().load(I64, trusted(), at, 0);
        let at = self.b.ins().imul_imm_s(place, 4);
        self.b.ins().iadd(slots, at)
    }

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

    pub(super) fn lin(&mut self, lin: &Lin) -> Value {
        // Exact without checks: see `Lin`.
        let mut v = self.int(lin.c);
        for (slot, k) in &lin.terms {
            let s = self.b.use_var(self.slots[*slot as usize]);
            let s = self.b.ins().imul_imm_s(s, *k);
            v = self.b.ins().iadd(v, s);
        }
        v
    }

    /// An integer expression's value.
    pub(super) fn num(&mut self, n: &Num) -> Option<Value> {
        Some(match n {
            Num::Const(c) => self.int(*c),
            Num::Slot(s) | Num::Named(s) => self.b.use_var(self.slots[*s as usize]),
            Num::Bail => {
                let always = self.b.ins().iconst(I8, 1);
                self.bail_if(always);
                self.int(0)
            }
            Num::Let(s, value, body) => {
                let v = self.num(value)?;
                self.b.def_var(self.slots[*s as usize], v);
                self.num(body)?
            }
            Num::Lin(l) => self.lin(l),
            Num::Global(_) => return None,
            Num::Len(xs) => self.seq_len(xs)?,
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
            Num::Bin(op @ (BinOp::Shl | BinOp::Shr), x, by) => {
                let (a, b) = (self.num(x)?, self.num(by)?);
                self.shift(*op, (a, b), (self.range_of(x), self.range_of(by)))
            }
            Num::Bin(op, a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                self.binary(*op, a, b)?
            }
            Num::If(c, a, b) => {
                let c = self.cond(c)?;
                self.choose(I64, c, |e| e.num(a), |e| e.num(b))?
            }
            Num::Value(game, args) => self.query_value(*game, args)?,
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
        // Within ±2^(63 - most), no bit is lost.
        let safe = match (ra, rb) {
            (Some((alo, ahi)), Some((0.., most @ 0..=62))) => {
                let limit = 1i64 << (63 - most);
                -limit < alo && ahi < limit
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
            _ => None,
        }
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

    /// What an arithmetic helper (`pow`, `isqrt`) returns; bails on
    /// `i64::MIN`, its answer for an error.
    pub(super) fn checked_call(&mut self, helper: FuncRef, args: &[Value]) -> Value {
        let call = self.b.ins().call(helper, args);
        let v = self.b.inst_results(call)[0];
        let failed = self.b.ins().icmp_imm_s(IntCC::Equal, v, i64::MIN);
        self.bail_if(failed);
        v
    }

    /// Python's floor division or modulo, as the interpreter has them.
    /// Operands that are both non-negative and below 2³² (the common
    /// case: `n % d`, `n / k`) take a 32-bit unsigned division, several
    /// times faster than a 64-bit one, and exact there.
    pub(super) fn floor(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        self.bail_if(zero);
        let result = self.b.declare_var(I64);
        let [small, large, join] = self.blocks();
        let both = self.b.ins().bor(a, b);
        let fits = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, both, 1 << 32);
        self.b.ins().brif(fits, small, &[], large, &[]);
        self.b.switch_to_block(small);
        let (x, y) = (self.b.ins().ireduce(I32, a), self.b.ins().ireduce(I32, b));
        let r = match op {
            BinOp::Div => self.b.ins().udiv(x, y),
            _ => self.b.ins().urem(x, y),
        };
        let r = self.b.ins().uextend(I64, r);
        self.b.def_var(result, r);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(large);
        let r = self.floor_wide(op, a, b);
        self.b.def_var(result, r);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.use_var(result)
    }

    /// [`Emit::floor`] of any operands, the divisor not 0.
    fn floor_wide(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
        if op == BinOp::Div {
            let min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
            let overflow = self.b.ins().band(min, minus_one);
            self.bail_if(overflow);
        }
        // `x % -1` is 0, and the hardware would trap on `MIN % -1`: the
        // remainder divides by 1 instead (`MIN / -1` bailed above).
        let d = match op {
            BinOp::Div => b,
            _ => {
                let one = self.int(1);
                self.b.ins().select(minus_one, one, b)
            }
        };
        match op {
            BinOp::Div => {
                // One hardware division: the remainder by a multiply.
                let q = self.b.ins().sdiv(a, d);
                let back = self.b.ins().imul(q, d);
                let r = self.b.ins().isub(a, back);
                let fix = self.rounded_to_zero(r, b);
                let fix = self.b.ins().uextend(I64, fix);
                self.b.ins().isub(q, fix)
            }
            _ => {
                let r = self.b.ins().srem(a, d);
                let fix = self.rounded_to_zero(r, b);
                let zero = self.int(0);
                let add = self.b.ins().select(fix, b, zero);
                let r = self.b.ins().iadd(r, add);
                self.b.ins().select(minus_one, zero, r)
            }
        }
    }

    /// Whether a division rounded towards zero where Python's floors: a
    /// remainder `r` of another sign than the divisor `b`.
    fn rounded_to_zero(&mut self, r: Value, b: Value) -> Value {
        let inexact = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
        let signs = self.b.ins().bxor(r, b);
        let differ = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, signs, 0);
        self.b.ins().band(inexact, differ)
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
            Cond::In(yes, x, xs) => self.seq_contains(*yes, x, xs)?,
            Cond::Let(s, value, body) => {
                let v = self.num(value)?;
                self.b.def_var(self.slots[*s as usize], v);
                self.cond(body)?
            }
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
