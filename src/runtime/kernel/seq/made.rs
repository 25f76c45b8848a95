//! Lists of integers the kernels make from constants and built-ins
//! rather than from the rules' own lists: a row of a constant list of
//! lists (`ADJ[v]`), and `divisors(n)`.

use super::super::{Eval, Stop};
use crate::graph::Shape;
use crate::value::Value;

/// A constant list of lists (or of tuples) of integers, packed: row `i`
/// is `items[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, PartialEq)]
pub struct Rows {
    pub offsets: Box<[i64]>,
    pub items: Box<[i64]>,
    pub shape: Shape,
}

impl Rows {
    /// The rows of `v`, a list or tuple whose items are all lists, or all
    /// tuples, of integers.
    pub(super) fn of(v: &Value) -> Option<Rows> {
        let rows = v.as_slice()?;
        let shape = match rows.first() {
            Some(Value::Tuple(_)) => Shape::Tuple,
            _ => Shape::List,
        };
        let (mut offsets, mut items) = (vec![0], Vec::new());
        for row in rows {
            let same = match row {
                Value::List(_) => shape == Shape::List,
                Value::Tuple(_) => shape == Shape::Tuple,
                _ => false,
            };
            same.then_some(())?;
            for item in row.as_slice()? {
                let Value::Int(n) = item else { return None };
                items.push(*n);
            }
            offsets.push(items.len() as i64);
        }
        Some(Rows {
            offsets: offsets.into(),
            items: items.into(),
            shape,
        })
    }

    pub fn len(&self) -> i64 {
        self.offsets.len() as i64 - 1
    }

    /// Where row `i` is, counted from the end when negative, as indexing
    /// counts; `None` outside.
    pub fn row(&self, i: i64) -> Option<(usize, usize)> {
        let i = if i < 0 { i.checked_add(self.len())? } else { i };
        (0..self.len()).contains(&i).then(|| {
            let at = i as usize;
            (self.offsets[at] as usize, self.offsets[at + 1] as usize)
        })
    }
}

/// The largest `n` whose divisors a kernel finds: at most 2^20 trial
/// divisions.
pub const DIVISORS_MAX: i64 = 1 << 40;

/// Pushes the divisors of `n` in increasing order: those up to its square
/// root, then their cofactors.
pub(super) fn divisors(n: i64, f: &mut Vec<i64>) -> Eval<(usize, usize)> {
    if !(1..=DIVISORS_MAX).contains(&n) {
        return Err(Stop::Bail);
    }
    let from = f.len();
    f.extend((1..=n.isqrt()).filter(|a| n % a == 0));
    for i in (from..f.len()).rev() {
        let a = f[i];
        if a * a != n {
            f.push(n / a);
        }
    }
    Ok((from, f.len()))
}
