//! Integer and boolean expressions over a frame of integer slots, and the
//! linear forms that make the fast loops possible; `compile.rs` makes
//! them from the IR, and `cond.rs` evaluates the conditions.

use super::calls::FnRef;
use super::seq::{self, Comp, Fold, Seq};
use super::{Eval, Stop};
use crate::defs::Defs;
use crate::ir::{LetId, Slot};
use crate::runtime::ops::arith;
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::{GameId, Value};

mod bools;
mod compile;
mod cond;
mod length;
mod members;
pub(super) mod spelled;
mod text;
pub use bools::bool_in;
pub(super) use compile::value_of;
pub use compile::{ASKED_FLAT, cond_in, conjuncts, num_in, pair_in};
pub use members::Members;
use std::rc::Rc;
pub use text::character;

/// A slot no frame has, which every [`Num::Value`] and [`Num::Ask`]
/// reads: `c.uses(ASKS)` tells whether `c` asks a position's value.
pub const ASKS: Slot = Slot::MAX;

/// Slots read by a [`Lin`] must hold less than this in magnitude; the
/// kernel checks parameters and binder values against it.
pub const SLOT_LIMIT: i64 = 1 << 31;
/// The most a [`Lin`] or any of its parts may weigh (see [`Lin`]).
const WEIGHT_LIMIT: i64 = 1 << 30;

/// `c + Σ coef · slot`, for an expression of `+`, `-` and products by
/// constants. Its weight, `|c| + Σ |coef|`, and that of every part it was
/// built from, is at most 2³⁰, so with slots below 2³¹ in magnitude no
/// part of the expression can reach 2⁶¹: the interpreter, whatever order
/// it adds in, never overflows, and neither does `eval`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lin {
    pub c: i64,
    pub terms: Vec<(Slot, i64)>,
}

impl Lin {
    /// Its weight, as an unsigned number: `|i64::MIN|` is one past the
    /// largest `i64`, and must weigh that much, not wrap to a negative.
    fn weight(&self) -> u64 {
        self.terms.iter().fold(self.c.unsigned_abs(), |w, (_, k)| {
            w.saturating_add(k.unsigned_abs())
        })
    }

    /// `self + k * other`, if it weighs little enough.
    fn plus(mut self, k: i64, other: &Lin) -> Option<Lin> {
        self.c = self.c.checked_add(k.checked_mul(other.c)?)?;
        for (slot, coef) in &other.terms {
            let add = k.checked_mul(*coef)?;
            match self.terms.iter_mut().find(|(s, _)| s == slot) {
                Some((_, c)) => *c = c.checked_add(add)?,
                None => self.terms.push((*slot, add)),
            }
        }
        self.terms.retain(|(_, c)| *c != 0);
        (self.weight() <= WEIGHT_LIMIT as u64).then_some(self)
    }

    #[inline]
    pub fn eval(&self, f: &[i64]) -> i64 {
        self.terms
            .iter()
            .fold(self.c, |acc, (s, k)| acc + k * f[*s as usize])
    }

    /// The coefficient of `slot`.
    pub fn coef(&self, slot: Slot) -> i64 {
        self.terms
            .iter()
            .find(|(s, _)| *s == slot)
            .map_or(0, |(_, k)| *k)
    }

    /// The value with `slot` taken as 0.
    pub fn eval_without(&self, slot: Slot, f: &[i64]) -> i64 {
        self.eval(f) - self.coef(slot) * f[slot as usize]
    }

    /// `num` as a linear form, where it is one (sums, differences and
    /// constant multiples of slots and linear forms).
    pub(crate) fn of(num: &Num) -> Option<Lin> {
        let lin = match num {
            Num::Const(c) => Lin {
                c: *c,
                terms: Vec::new(),
            },
            Num::Slot(s) => Lin {
                c: 0,
                terms: vec![(*s, 1)],
            },
            Num::Lin(l) => l.clone(),
            Num::Neg(a) => Lin::default().plus(-1, &Lin::of(a)?)?,
            Num::Bin(BinOp::Add, a, b) => Lin::of(a)?.plus(1, &Lin::of(b)?)?,
            Num::Bin(BinOp::Sub, a, b) => Lin::of(a)?.plus(-1, &Lin::of(b)?)?,
            Num::Bin(BinOp::Mul, a, b) => {
                let (a, b) = (Lin::of(a)?, Lin::of(b)?);
                match (a.terms.is_empty(), b.terms.is_empty()) {
                    (true, _) => Lin::default().plus(a.c, &b)?,
                    (_, true) => Lin::default().plus(b.c, &a)?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        (lin.weight() <= WEIGHT_LIMIT as u64).then_some(lin)
    }
}

/// An integer expression over the frame's integer slots.
#[derive(Clone, Debug)]
pub enum Num {
    Const(i64),
    Slot(Slot),
    /// A slot a `let` binds: any integer, so never read by a linear form
    /// (whose slots must be small).
    Named(Slot),
    /// `let slot = value in body`.
    Let(Slot, Box<Num>, Box<Num>),
    /// A call left after inlining (a function that calls itself, past
    /// the levels unrolled): the run bails where it is reached, and the
    /// interpreter evaluates the position.
    Bail,
    /// A call of a function that calls itself, past the levels unrolled
    /// (see [`super::calls`]).
    Call(FnRef, Vec<Num>),
    /// A linear form: exact without checks (see [`Lin`]).
    Lin(Lin),
    /// A global constant, read when evaluated (it must hold an integer).
    Global(LetId),
    Neg(Box<Num>),
    BitNot(Box<Num>),
    Bin(BinOp, Box<Num>, Box<Num>),
    If(Box<Cond>, Box<Num>, Box<Num>),
    Extremum(bool, Vec<Num>),
    Abs(Box<Num>),
    /// `isqrt(n)`: the floor of the square root, of `n >= 0`.
    Isqrt(Box<Num>),
    /// `popcount(n)` (true) or `bit_length(n)`, of `n >= 0`.
    Bits(bool, Box<Num>),
    /// `gcd(a, b)`.
    Gcd(Box<Num>, Box<Num>),
    /// The pair `(a, b)` packed ([`crate::graph::flat::pack`]), each half
    /// 32-bit: an item of a list or set of pairs.
    Pair(Box<Num>, Box<Num>),
    /// A string as one integer, an item of a list or set of strings
    /// ([`crate::graph::flat::pack_word`]); a string too long for it, or
    /// of other than ASCII, bails.
    Pack(Box<Seq>),
    /// `len(xs)`.
    Len(Box<Seq>),
    /// `xs[i]`.
    Index(Box<Seq>, Box<Num>),
    /// `sum(xs)`, `min(xs)`, `max(xs)`.
    Fold(Fold, Box<Seq>),
    /// `value(g(args))`, the position's value: in a top-level query,
    /// searched for if need be by the machine code through a helper (see
    /// [`super::query`]); in a guard, read from the game's table as an
    /// option's value is, a position without one recorded as asked (see
    /// [`super::ASKED`]).
    Value(GameId, Vec<Num>),
    /// `value(g(args))` of a position with list, tuple, set or string
    /// arguments (`value(king((x, y, z)))`), asked by its flat run: the
    /// game, the run's header and the arguments. Only in a query, as
    /// [`Num::Value`].
    Ask(GameId, Box<(i64, Vec<super::Arg>)>),
}

/// A boolean expression over the frame's integer slots.
#[derive(Clone, Debug)]
pub enum Cond {
    Const(bool),
    Cmp(BinOp, Num, Num),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    If(Box<Cond>, Box<Cond>, Box<Cond>),
    /// `all(...)` (true) or `any(...)` of a comprehension.
    Quant(bool, Box<Comp<Cond>>),
    /// `x in xs`, or `x not in xs` (`yes` false); `sorted` where `xs`
    /// is a set, whose items are in increasing order: a search stops at
    /// the first item not below `x`.
    In {
        yes: bool,
        sorted: bool,
        x: Num,
        xs: Box<Seq>,
    },
    /// `x in S` (or `not in`, false) of a constant collection `S` of
    /// integers: a bit of [`Members`].
    Member(bool, Num, Rc<Members>),
    /// `xs == ys`, or `xs != ys` (false), of two lists, two tuples or two
    /// sets (each kept in increasing order, so equal when their items are).
    Same(bool, Box<Seq>, Box<Seq>),
    /// `xs < ys` (strict), or `xs <= ys`, of two lists, tuples or strings
    /// of the same shape, item by item: the first items that differ
    /// decide, else the shorter is the less.
    Less(bool, Box<Seq>, Box<Seq>),
    /// `t in s`, or `t not in s` (false), of two strings: whether `t`
    /// runs somewhere in `s` (`"XXX" in s`).
    Within(bool, Box<Seq>, Box<Seq>),
    /// `let slot = value in body`.
    Let(Slot, Box<Num>, Box<Cond>),
    /// `let slot = value in body` of a list (or tuple, set or string)
    /// `value`, as [`Seq::Bind`]: `ok(hs[:i] + [hs[i] - k] + hs[i + 1:])`
    /// once `ok` is inlined.
    Bind(Slot, Box<Seq>, Box<Cond>),
}

impl Num {
    pub fn eval(&self, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
        Ok(match self {
            Num::Const(c) => *c,
            Num::Slot(s) | Num::Named(s) => f[*s as usize],
            Num::Bail => return Err(Stop::Bail),
            Num::Call(func, args) => func.call(args, f, defs)?,
            Num::Let(s, value, body) => {
                f[*s as usize] = value.eval(f, defs)?;
                body.eval(f, defs)?
            }
            Num::Lin(l) => l.eval(f),
            Num::Bin(op, a, b) => {
                let (x, y) = (a.operand(f, defs)?, b.operand(f, defs)?);
                match op {
                    BinOp::Add => x.checked_add(y).ok_or(Stop::Bail)?,
                    BinOp::Sub => x.checked_sub(y).ok_or(Stop::Bail)?,
                    BinOp::Mul => x.checked_mul(y).ok_or(Stop::Bail)?,
                    BinOp::BitAnd => x & y,
                    BinOp::BitXor => x ^ y,
                    _ => arith(*op, x, y, Span::default()).map_err(|_| Stop::Bail)?,
                }
            }
            Num::If(c, a, b) => match c.eval(f, defs)? {
                true => a.eval(f, defs)?,
                false => b.eval(f, defs)?,
            },
            _ => self.eval_other(f, defs)?,
        })
    }

    /// [`Num::eval`] of the other forms: apart, so that the frame of the
    /// recursion through the common ones stays small (a function unrolled
    /// nests them thousands deep).
    #[inline(never)]
    fn eval_other(&self, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
        Ok(match self {
            Num::Global(id) => match defs.lets[*id as usize].value {
                Some(Value::Int(n)) => n,
                _ => return Err(Stop::Bail),
            },
            Num::Neg(a) => a.eval(f, defs)?.checked_neg().ok_or(Stop::Bail)?,
            Num::BitNot(a) => !a.eval(f, defs)?,
            Num::Extremum(min, items) => {
                let mut best = items[0].eval(f, defs)?;
                for item in &items[1..] {
                    let v = item.eval(f, defs)?;
                    best = if *min { best.min(v) } else { best.max(v) };
                }
                best
            }
            Num::Abs(a) => a.eval(f, defs)?.checked_abs().ok_or(Stop::Bail)?,
            Num::Isqrt(a) => match a.eval(f, defs)? {
                n if n < 0 => return Err(Stop::Bail),
                n => n.isqrt(),
            },
            Num::Bits(count, a) => match (a.eval(f, defs)?, count) {
                (n, _) if n < 0 => return Err(Stop::Bail),
                (n, true) => n.count_ones().into(),
                (n, false) => (64 - n.leading_zeros()).into(),
            },
            Num::Gcd(a, b) => {
                let (a, b) = (a.eval(f, defs)?, b.eval(f, defs)?);
                crate::runtime::numbers::gcd(a, b).ok_or(Stop::Bail)?
            }
            Num::Pack(xs) => seq::pack(xs, f, defs)?,
            Num::Pair(a, b) => {
                let (a, b) = (a.eval(f, defs)?, b.eval(f, defs)?);
                crate::graph::flat::pack(a, b).ok_or(Stop::Bail)?
            }
            Num::Len(xs) => seq::len(xs, f, defs)?,
            Num::Index(xs, i) => seq::index(xs, i, f, defs)?,
            Num::Fold(fold, xs) => seq::fold(*fold, xs, f, defs)?,
            // Only machine code asks the search.
            Num::Value(..) | Num::Ask(..) => return Err(Stop::Bail),
            _ => unreachable!("`Num::eval` takes the common forms"),
        })
    }

    /// [`Num::eval`], with a slot or a constant, the most common
    /// operands, read without a call.
    #[inline(always)]
    fn operand(&self, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
        match self {
            Num::Slot(s) => Ok(f[*s as usize]),
            Num::Const(c) => Ok(*c),
            _ => self.eval(f, defs),
        }
    }

    /// Whether the expression is a constant.
    pub fn is_const(&self) -> bool {
        matches!(self, Num::Const(_))
    }

    /// Whether `slot` occurs in the expression.
    pub fn uses(&self, slot: Slot) -> bool {
        match self {
            Num::Const(_) | Num::Global(_) | Num::Bail => false,
            Num::Slot(s) | Num::Named(s) => *s == slot,
            Num::Let(_, a, b) => a.uses(slot) || b.uses(slot),
            Num::Lin(l) => l.coef(slot) != 0,
            Num::Neg(a) | Num::BitNot(a) | Num::Abs(a) | Num::Isqrt(a) | Num::Bits(_, a) => {
                a.uses(slot)
            }
            Num::Gcd(a, b) | Num::Pair(a, b) => a.uses(slot) || b.uses(slot),
            Num::Bin(_, a, b) => a.uses(slot) || b.uses(slot),
            Num::If(c, a, b) => c.uses(slot) || a.uses(slot) || b.uses(slot),
            Num::Extremum(_, items) => items.iter().any(|i| i.uses(slot)),
            Num::Len(xs) | Num::Fold(_, xs) | Num::Pack(xs) => xs.uses(slot),
            Num::Index(xs, i) => xs.uses(slot) || i.uses(slot),
            Num::Value(..) | Num::Ask(..) if slot == ASKS => true,
            Num::Value(_, args) | Num::Call(_, args) => args.iter().any(|a| a.uses(slot)),
            Num::Ask(_, asked) => asked.1.iter().any(|a| a.uses(slot)),
        }
    }

    /// Whether the expression calls a function (a call the kernel's run
    /// evaluates by walking the function's body, recursion and all).
    pub fn calls(&self) -> bool {
        match self {
            Num::Call(..) => true,
            Num::Const(_) | Num::Global(_) | Num::Bail | Num::Slot(_) | Num::Named(_) => false,
            Num::Lin(_) | Num::Len(_) | Num::Fold(..) | Num::Index(..) | Num::Pack(_) => false,
            Num::Value(..) | Num::Ask(..) => false,
            Num::Neg(a) | Num::BitNot(a) | Num::Abs(a) | Num::Isqrt(a) | Num::Bits(_, a) => {
                a.calls()
            }
            Num::Let(_, a, b) | Num::Gcd(a, b) | Num::Pair(a, b) | Num::Bin(_, a, b) => {
                a.calls() || b.calls()
            }
            Num::If(_, a, b) => a.calls() || b.calls(),
            Num::Extremum(_, items) => items.iter().any(Num::calls),
        }
    }

    /// Whether evaluating can fail only by overflowing (which `eval`
    /// detects, so the kernel bails) or by reading a global that is no
    /// integer (likewise).
    pub fn total(&self) -> bool {
        match self {
            Num::Const(_) | Num::Slot(_) | Num::Named(_) | Num::Lin(_) | Num::Global(_) => true,
            Num::Let(_, a, b) => a.total() && b.total(),
            Num::Neg(a) | Num::BitNot(a) => a.total(),
            Num::Bin(
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor,
                a,
                b,
            ) => a.total() && b.total(),
            _ => false,
        }
    }

    /// The expression as a linear form, if it is one.
    pub fn as_lin(&self) -> Option<Lin> {
        match self {
            Num::Lin(_) | Num::Const(_) | Num::Slot(_) => Lin::of(self),
            _ => None,
        }
    }
}

pub fn compare(op: BinOp, x: i64, y: i64) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        _ => x >= y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lin(c: i64, terms: &[(Slot, i64)]) -> Num {
        Num::Lin(Lin {
            c,
            terms: terms.to_vec(),
        })
    }

    #[test]
    fn sums_and_constant_products_are_linear() {
        // n - k - a with n, k, a in slots 0, 1, 2
        let n = Num::Bin(
            BinOp::Sub,
            Box::new(Num::Bin(
                BinOp::Sub,
                Box::new(Num::Slot(0)),
                Box::new(Num::Slot(1)),
            )),
            Box::new(Num::Slot(2)),
        );
        let l = Lin::of(&n).unwrap();
        assert_eq!(l.eval(&[10, 2, 3]), 5);
        assert_eq!((l.coef(2), l.eval_without(2, &[10, 2, 3])), (-1, 8));
        let twice = Num::Bin(
            BinOp::Mul,
            Box::new(Num::Const(2)),
            Box::new(lin(1, &[(0, 3)])),
        );
        assert_eq!(
            Lin::of(&twice).unwrap(),
            Lin {
                c: 2,
                terms: vec![(0, 6)]
            }
        );
    }

    #[test]
    fn products_of_slots_and_heavy_forms_are_not_linear() {
        let square = Num::Bin(BinOp::Mul, Box::new(Num::Slot(0)), Box::new(Num::Slot(0)));
        assert_eq!(Lin::of(&square), None);
        let heavy = Num::Bin(
            BinOp::Mul,
            Box::new(Num::Const(1 << 31)),
            Box::new(Num::Slot(0)),
        );
        assert_eq!(Lin::of(&heavy), None, "would overflow with slots near 2^31");
        let cancel = Num::Bin(BinOp::Sub, Box::new(Num::Slot(0)), Box::new(Num::Slot(0)));
        assert_eq!(Lin::of(&cancel).unwrap(), Lin::default());
    }
}
