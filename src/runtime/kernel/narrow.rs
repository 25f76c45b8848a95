//! How a guard condition narrows the innermost binder's loop, beyond the
//! linear forms of [`super::expr::Lin`]: comparisons affine in the binder
//! with coefficients free of it (`k * min(a, b) <= max(a, b)`), conditions
//! that only grow with it (`k * k <= n`), divisibility (`n % d == 0`),
//! the interval a comparison leaves of a window, and the point `!=` cuts
//! out of it.

use super::expr::{Cond, Num, SLOT_LIMIT};
use super::{Eval, Stop};
use crate::defs::Defs;
use crate::ir::Slot;
use crate::syntax::ast::BinOp;

/// `c0 + c1 * x` for one binder `x`, from a comparison whose sides each
/// have at most one term in `x`: `x`, `x * e` or `e * x`, perhaps negated,
/// plus or minus an `e`, where no `e` mentions `x`. Evaluated only while
/// every `e` is below 2³¹ in magnitude (else the kernel bails), so that
/// no intermediate value of the comparison as written can overflow for
/// any `x` of a binder: the narrowed loop skips only options whose guard
/// fails, never one whose guard would report an error.
#[derive(Debug)]
pub struct Affine {
    /// The terms free of `x`, with their signs.
    pub(super) free: Vec<(i64, Num)>,
    /// The coefficients of `x`, with their signs (`None` for 1).
    pub(super) coefs: Vec<(i64, Option<Num>)>,
}

impl Affine {
    /// `(c0, c1)`, or `None` (the kernel bails) when a part is too large.
    pub fn eval(&self, f: &mut Vec<i64>, defs: &Defs) -> Eval<(i64, i64)> {
        let small = |v: i64| match v.unsigned_abs() < SLOT_LIMIT as u64 {
            true => Ok(v),
            false => Err(Stop::Bail),
        };
        let mut c0 = 0i64;
        for (sign, e) in &self.free {
            c0 += sign * small(e.eval(f, defs)?)?;
        }
        let mut c1 = 0i64;
        for (sign, e) in &self.coefs {
            c1 += sign * e.as_ref().map_or(Ok(1), |e| small(e.eval(f, defs)?))?;
        }
        Ok((c0, c1))
    }

    /// One side of the comparison, with `sign`, added in.
    fn side(&mut self, n: &Num, sign: i64, x: Slot) -> Option<()> {
        match n {
            _ if !n.uses(x) => self.free.push((sign, n.clone())),
            Num::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) if !b.uses(x) => {
                self.term(a, sign, x)?;
                let s = if *op == BinOp::Sub { -sign } else { sign };
                self.free.push((s, (**b).clone()));
            }
            Num::Bin(BinOp::Add, a, b) if !a.uses(x) => {
                self.free.push((sign, (**a).clone()));
                self.term(b, sign, x)?;
            }
            Num::Bin(BinOp::Sub, a, b) if !a.uses(x) => {
                self.free.push((sign, (**a).clone()));
                self.term(b, -sign, x)?;
            }
            _ => self.term(n, sign, x)?,
        }
        Some(())
    }

    /// A term in `x`: `x`, `x * e`, `e * x` or a negation of one.
    fn term(&mut self, n: &Num, sign: i64, x: Slot) -> Option<()> {
        match n {
            Num::Slot(s) if *s == x => self.coefs.push((sign, None)),
            Num::Neg(a) => self.term(a, -sign, x)?,
            Num::Bin(BinOp::Mul, a, b) => match (&**a, &**b) {
                (Num::Slot(s), e) | (e, Num::Slot(s)) if *s == x && !e.uses(x) => {
                    self.coefs.push((sign, Some(e.clone())))
                }
                _ => return None,
            },
            _ => return None,
        }
        Some(())
    }
}

impl Cond {
    /// `f(x) < g` (`true`) or `f(x) <= g` (`false`), written either way
    /// round, with `f` non-decreasing in `x` for `x >= 0` and `g` free of
    /// `x`, or `f` free of it and `g` non-increasing (`0 <= n - k * k`):
    /// the condition holds on an initial part of any window of
    /// non-negative values, so the loop can end where it first fails.
    pub fn as_monotone(&self, x: Slot) -> Option<(bool, Num, Num)> {
        let Cond::Cmp(op, a, b) = self else {
            return None;
        };
        let (strict, f, g) = match op {
            BinOp::Lt => (true, a, b),
            BinOp::Le => (false, a, b),
            BinOp::Gt => (true, b, a),
            BinOp::Ge => (false, b, a),
            _ => return None,
        };
        let rises = f.uses(x) && !g.uses(x) && f.rising(x);
        let falls = !f.uses(x) && g.falling(x);
        (rises || falls).then(|| (strict, f.clone(), g.clone()))
    }

    /// `n % x == 0` (or `0 == n % x`) with `n` free of `x`: `n`. The
    /// values of `x` where it holds are the divisors of `n`, which a loop
    /// finds in about `2√n` steps ([`divisors`]) rather than testing each.
    pub fn as_divides(&self, x: Slot) -> Option<Num> {
        let (n, d) = self.remainder_zero()?;
        (is_slot(d, x) && !n.uses(x)).then(|| n.clone())
    }

    /// `x % e == 0` (or `0 == x % e`) with `e` free of `x`: `e`. The
    /// values of `x` where it holds are the multiples of `e`, which a loop
    /// steps through ([`multiples`]) rather than testing each: Euclid's
    /// game, `m in 1..=a if m % b == 0`, takes `a / b` steps, not `a`.
    pub fn as_multiple(&self, x: Slot) -> Option<Num> {
        let (m, e) = self.remainder_zero()?;
        (is_slot(m, x) && !e.uses(x)).then(|| e.clone())
    }

    /// `(a, b)` where this is `a % b == 0` or `0 == a % b`.
    fn remainder_zero(&self) -> Option<(&Num, &Num)> {
        let Cond::Cmp(BinOp::Eq, a, b) = self else {
            return None;
        };
        let rem = match (a, b) {
            (r, Num::Const(0)) | (Num::Const(0), r) => r,
            _ => return None,
        };
        match rem {
            Num::Bin(BinOp::Rem, a, b) => Some((a, b)),
            _ => None,
        }
    }

    /// A comparison affine in slot `x`, as `a - b  op  0` (see [`Affine`]).
    pub fn as_affine(&self, x: Slot) -> Option<(BinOp, Affine)> {
        let Cond::Cmp(
            op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
            a,
            b,
        ) = self
        else {
            return None;
        };
        let mut d = Affine {
            free: Vec::new(),
            coefs: Vec::new(),
        };
        d.side(a, 1, x)?;
        d.side(b, -1, x)?;
        Some((*op, d))
    }
}

impl Num {
    /// Whether the expression is non-decreasing in `x` for `x >= 0`.
    fn rising(&self, x: Slot) -> bool {
        match self {
            Num::Bin(BinOp::Add, a, b) => a.rising(x) && b.rising(x),
            Num::Bin(BinOp::Sub, a, b) => a.rising(x) && !b.uses(x),
            _ if !self.uses(x) => true,
            _ => self.rising_from_zero(x),
        }
    }

    /// Whether the expression is `e - r` with `e` free of `x` and `r`
    /// non-negative and non-decreasing in `x` for `x >= 0` (`n - k * k`):
    /// non-increasing, and failing, where it fails, only as `r` grows
    /// (an overflow of `r`, or of `e - r` below the least integer).
    fn falling(&self, x: Slot) -> bool {
        match self {
            Num::Bin(BinOp::Sub, e, r) => !e.uses(x) && r.uses(x) && r.rising_from_zero(x),
            _ => false,
        }
    }

    /// Whether the expression is non-negative and non-decreasing in `x`
    /// for `x >= 0`, whatever the other slots hold: products and powers
    /// of such terms stay so.
    fn rising_from_zero(&self, x: Slot) -> bool {
        match self {
            Num::Slot(s) => *s == x,
            Num::Const(c) => *c >= 0,
            Num::Lin(l) => l.c >= 0 && l.terms.iter().all(|(s, k)| *s == x && *k >= 0),
            Num::Bin(BinOp::Add | BinOp::Mul, a, b) => {
                a.rising_from_zero(x) && b.rising_from_zero(x)
            }
            Num::Bin(BinOp::Pow, a, b) => {
                a.rising_from_zero(x) && matches!(**b, Num::Const(c) if c >= 1)
            }
            // `a · 2^b`, both non-negative and non-decreasing (a shift
            // that overflows fails, as a product does).
            Num::Bin(BinOp::Shl, a, b) => a.rising_from_zero(x) && b.rising_from_zero(x),
            _ => false,
        }
    }
}

/// The last value of `lo..=hi` (`0 <= lo <= hi`) where `fx(x) < g` (or
/// `<=`) holds, with `fx` non-decreasing for `x >= 0` and `g` free of
/// `x`, or `fx` free of it and `g` non-increasing (see
/// [`Cond::as_monotone`]), or `lo - 1` where it holds nowhere: tested at
/// both ends first, then by bisection. Each part of `fx` only grows with
/// `x` (of `g`, only what it takes away), so an overflow is met at the
/// top if anywhere, and one below the least integer (`x * x - K`) at the
/// bottom or the top: either is the interpreter's to report, and the
/// values between meet none. `g` is evaluated before `fx`, as before
/// any probe when it is free of `x`.
pub fn rising_last(
    x: usize,
    (lo, hi): (i64, i64),
    (strict, fx, g): (bool, &Num, &Num),
    (f, defs): (&mut Vec<i64>, &Defs),
) -> Eval<i64> {
    let free = match g.uses(x as Slot) {
        false => Some(g.eval(f, defs)?),
        true => None,
    };
    let mut holds = |k: i64| -> Eval<bool> {
        f[x] = k;
        let g = match free {
            Some(g) => g,
            None => g.eval(f, defs)?,
        };
        let v = fx.eval(f, defs)?;
        Ok(if strict { v < g } else { v <= g })
    };
    let (bottom, top) = (holds(lo)?, holds(hi)?);
    if top {
        return Ok(hi);
    }
    if !bottom {
        return Ok(lo - 1);
    }
    // holds(a) and not holds(b)
    let (mut a, mut b) = (lo, hi);
    while b - a > 1 {
        let mid = a + (b - a) / 2;
        match holds(mid)? {
            true => a = mid,
            false => b = mid,
        }
    }
    Ok(a)
}

/// Whether `n` is slot `x` itself (or its linear form of weight 1).
fn is_slot(n: &Num, x: Slot) -> bool {
    matches!(*n, Num::Slot(s) if s == x)
        || matches!(n, Num::Lin(l) if l.c == 0 && l.terms.as_slice() == [(x, 1)])
}

/// The multiples of `e` in `lo..hi`, in increasing order, for `1 <= e
/// <= MULTIPLE_MOST` (else `Ok(false)`, the window left to test value by
/// value); the window's ends are a slot's, below 2³¹ either way, so no
/// step overflows.
pub fn multiples(e: i64, (lo, hi): (i64, i64), each: impl FnMut(i64) -> Eval<()>) -> Eval<bool> {
    if !(1..=MULTIPLE_MOST).contains(&e) {
        return Ok(false);
    }
    let first = lo + (e - lo.rem_euclid(e)) % e;
    (first..hi).step_by(e as usize).try_for_each(each)?;
    Ok(true)
}

/// The largest step [`multiples`] takes, so that the machine code's
/// steps from a window's first multiple (its ends below 2³¹ in size)
/// cannot overflow. A larger step is tested value by value, as written:
/// as slow as before loops over multiples were made, over a window of
/// up to 2³¹ values.
pub const MULTIPLE_MOST: i64 = 1 << 32;

/// The divisors of `n >= 1` in `lo..hi` (`1 <= lo`), in increasing
/// order, as `each` is given them, when finding them costs fewer steps
/// than the window is long; `false` (and no call) when it does not.
/// Those up to `s = isqrt(n)` are tested one by one; each larger one is
/// `n / q` for a divisor `q < s`, found by testing the `q` from `s` down
/// (the quotients rising), between the `q` whose quotients reach into the
/// window.
pub fn divisors(n: i64, (lo, hi): (i64, i64), mut each: impl FnMut(i64) -> Eval<()>) -> Eval<bool> {
    debug_assert!(n >= 1 && lo >= 1);
    let s = n.isqrt();
    let (small, q_hi, q_lo) = divisor_steps(n, s, (lo, hi));
    if (small.1 - small.0).max(0) + (q_hi - q_lo + 1).max(0) >= hi - lo {
        return Ok(false);
    }
    for d in small.0..small.1 {
        if n % d == 0 {
            each(d)?;
        }
    }
    for q in (q_lo..=q_hi).rev() {
        if n % q == 0 && n / q > s {
            each(n / q)?;
        }
    }
    Ok(true)
}

/// The steps of [`divisors`]: the small divisors' window `lo..min(hi, s +
/// 1)`, and the `q` from `min(s, n / lo)` down to `n / hi + 1`, whose
/// quotients `n / q` of the divisors `q` lie in `lo..hi`.
pub fn divisor_steps(n: i64, s: i64, (lo, hi): (i64, i64)) -> ((i64, i64), i64, i64) {
    ((lo, hi.min(s + 1)), s.min(n / lo), n / hi + 1)
}

/// The most points `!=` conjuncts may cut out of a binder's window; a
/// conjunct past them is tested per option.
pub const HOLES: usize = 4;

/// Where `d0 + step * k != 0` fails, for integers `k`.
pub enum Hole {
    Nowhere,
    Everywhere,
    At(i64),
}

pub fn hole(d0: i64, step: i64) -> Hole {
    match (d0, step) {
        (0, 0) => Hole::Everywhere,
        (_, 0) => Hole::Nowhere,
        _ if d0 % step == 0 => Hole::At(-d0 / step),
        _ => Hole::Nowhere,
    }
}

/// The offsets `t` in `[0, len)` with `d0 + step * t  op  0`: an interval.
/// Every quantity is below 2⁶² in magnitude (see [`super::expr::Lin`]).
pub fn solve(op: BinOp, d0: i64, step: i64, len: i64) -> (i64, i64) {
    // d0 + step * t <= c, times `sign`: an interval of t.
    let le = |sign: i64, c: i64| -> (i64, i64) {
        let (d, s) = (sign * d0, sign * step);
        match s.cmp(&0) {
            std::cmp::Ordering::Equal if d <= c => (0, len),
            std::cmp::Ordering::Equal => (0, 0),
            std::cmp::Ordering::Greater => (0, ((c - d).div_euclid(s) + 1).clamp(0, len)),
            // t >= (d - c) / -s, rounded up
            std::cmp::Ordering::Less => ((d - c + (-s) - 1).div_euclid(-s).clamp(0, len), len),
        }
    };
    let (a, b) = match op {
        BinOp::Lt => le(1, -1),
        BinOp::Le => le(1, 0),
        BinOp::Gt => le(-1, -1),
        BinOp::Ge => le(-1, 0),
        _ => {
            let ((a, b), (c, d)) = (le(1, 0), le(-1, 0));
            (a.max(c), b.min(d))
        }
    };
    (a, b.max(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::kernel::expr::compare;

    /// The offsets, found one by one.
    fn brute(op: BinOp, d0: i64, step: i64, len: i64) -> Vec<i64> {
        (0..len).filter(|t| compare(op, d0 + step * t, 0)).collect()
    }

    #[test]
    fn solve_finds_the_interval_of_a_linear_condition() {
        use BinOp::*;
        for op in [Lt, Le, Gt, Ge, Eq] {
            for d0 in -7..=7 {
                for step in -3..=3 {
                    for len in 0..6 {
                        let (a, b) = solve(op, d0, step, len);
                        let found: Vec<i64> = (a..b).collect();
                        assert_eq!(found, brute(op, d0, step, len), "{op:?} {d0} {step} {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn divisors_are_found_in_order_in_any_window() {
        for n in 1..=300 {
            for lo in 1..=40 {
                for hi in lo..=n + 3 {
                    let want: Vec<i64> = (lo..hi).filter(|d| n % d == 0).collect();
                    let mut found = Vec::new();
                    let enumerated = divisors(n, (lo, hi), |d| {
                        found.push(d);
                        Ok(())
                    });
                    match enumerated {
                        Ok(true) => assert_eq!(found, want, "{n} {lo}..{hi}"),
                        Ok(false) => assert!(found.is_empty()),
                        Err(_) => panic!("no error"),
                    }
                }
            }
        }
        // Long windows take the enumeration.
        assert_eq!(divisors(1 << 20, (1, 1 << 20), |_| Ok(())), Ok(true));
        assert_eq!(divisors(7, (1, 3), |_| Ok(())), Ok(false));
    }

    #[test]
    fn divisibility_by_the_binder_is_recognised() {
        let (x, n) = (Num::Slot(0), Num::Slot(1));
        let rem = |a: Num, b: Num| bin(BinOp::Rem, a, b);
        let eq0 = |r: Num| Cond::Cmp(BinOp::Eq, r, Num::Const(0));
        assert!(eq0(rem(n.clone(), x.clone())).as_divides(0).is_some());
        let zero_first = Cond::Cmp(BinOp::Eq, Num::Const(0), rem(n.clone(), x.clone()));
        assert!(zero_first.as_divides(0).is_some());
        // `x % n`, `(n + x) % x`, `n % x == 1`: no.
        assert!(eq0(rem(x.clone(), n.clone())).as_divides(0).is_none());
        let mixed = bin(BinOp::Add, n.clone(), x.clone());
        assert!(eq0(rem(mixed, x.clone())).as_divides(0).is_none());
        let one = Cond::Cmp(BinOp::Eq, rem(n.clone(), x.clone()), Num::Const(1));
        assert!(one.as_divides(0).is_none());
    }

    #[test]
    fn multiples_of_the_step_are_found_in_order_in_any_window() {
        for e in 1..=12 {
            for lo in -30..=30 {
                for hi in lo - 1..=40 {
                    let want: Vec<i64> = (lo..hi).filter(|k| k % e == 0).collect();
                    let mut found = Vec::new();
                    let stepped = multiples(e, (lo, hi), |k| {
                        found.push(k);
                        Ok(())
                    });
                    assert_eq!(stepped, Ok(true));
                    assert_eq!(found, want, "{e} {lo}..{hi}");
                }
            }
        }
        // A step of 0, below 0 or past the most: tested value by value.
        for e in [0, -3, MULTIPLE_MOST + 1] {
            assert_eq!(multiples(e, (0, 10), |_| panic!("none")), Ok(false));
        }
    }

    #[test]
    fn multiples_of_a_step_free_of_the_binder_are_recognised() {
        let (x, b) = (Num::Slot(0), Num::Slot(1));
        let rem = |a: Num, b: Num| bin(BinOp::Rem, a, b);
        let eq0 = |r: Num| Cond::Cmp(BinOp::Eq, r, Num::Const(0));
        let step = eq0(rem(x.clone(), b.clone())).as_multiple(0);
        assert!(matches!(step, Some(Num::Slot(1))));
        let zero_first = Cond::Cmp(BinOp::Eq, Num::Const(0), rem(x.clone(), b.clone()));
        assert!(zero_first.as_multiple(0).is_some());
        // `b % x`, `x % (x + b)`, `x % b == 1`: no.
        assert!(eq0(rem(b.clone(), x.clone())).as_multiple(0).is_none());
        let mixed = bin(BinOp::Add, b.clone(), x.clone());
        assert!(eq0(rem(x.clone(), mixed)).as_multiple(0).is_none());
        let one = Cond::Cmp(BinOp::Eq, rem(x.clone(), b.clone()), Num::Const(1));
        assert!(one.as_multiple(0).is_none());
    }

    fn bin(op: BinOp, a: Num, b: Num) -> Num {
        Num::Bin(op, Box::new(a), Box::new(b))
    }

    #[test]
    fn shifts_and_powers_of_the_binder_are_monotone_guards() {
        let (x, n) = (Num::Slot(0), Num::Slot(1));
        let le = |f: Num| Cond::Cmp(BinOp::Le, f, n.clone());
        // `1 << k <= n`, `3 << (k + 1) <= n`, `k ** 3 <= n`: the loop ends
        // where each first fails.
        for f in [
            bin(BinOp::Shl, Num::Const(1), x.clone()),
            bin(
                BinOp::Shl,
                Num::Const(3),
                bin(BinOp::Add, x.clone(), Num::Const(1)),
            ),
            bin(BinOp::Pow, x.clone(), Num::Const(3)),
        ] {
            assert!(le(f.clone()).as_monotone(0).is_some(), "{f:?}");
        }
        // `n >> k` falls as k grows; `-1 << k` too; a shift of another
        // slot by k says nothing.
        for f in [
            bin(BinOp::Shr, n.clone(), x.clone()),
            bin(BinOp::Shl, Num::Const(-1), x.clone()),
            bin(BinOp::Shl, Num::Slot(2), x.clone()),
        ] {
            assert!(le(f.clone()).as_monotone(0).is_none(), "{f:?}");
        }
    }
}
