//! Lists of integers the kernels make from constants and built-ins
//! rather than from the rules' own lists: a row of a constant list of
//! lists (`ADJ[v]`), and `divisors(n)`.

use super::super::{Eval, Stop};
use crate::graph::Shape;
use crate::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// A constant list of lists (or of tuples, or of sets) of integers,
/// packed: row `i`
/// is `items[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, PartialEq)]
pub struct Rows {
    pub offsets: Box<[i64]>,
    pub items: Box<[i64]>,
    pub shape: Shape,
}

impl Rows {
    /// The rows of `v`, a list or tuple whose items are all lists, all
    /// tuples, or all sets, of integers.
    pub(super) fn of(v: &Value) -> Option<Rows> {
        let rows = v.as_slice()?;
        let shape = match rows.first() {
            Some(Value::Tuple(_)) => Shape::Tuple,
            Some(Value::Set(_)) => Shape::Set,
            _ => Shape::List,
        };
        let (mut offsets, mut items) = (vec![0], Vec::new());
        for row in rows {
            // A set's items come in increasing order, as a set's items
            // are kept in the runs.
            let row_items: Box<dyn Iterator<Item = &Value>> = match row {
                Value::List(xs) if shape == Shape::List => Box::new(xs.iter()),
                Value::Tuple(xs) if shape == Shape::Tuple => Box::new(xs.iter()),
                Value::Set(xs) if shape == Shape::Set => Box::new(xs.iter()),
                _ => return None,
            };
            for item in row_items {
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

    /// The code points of the characters of `v`, a string (one row) or a
    /// list of strings (a row each), made once for each such constant
    /// while it is one of the last few asked for: a grid of a million
    /// squares is read by each move and query that compares its
    /// characters (see `expr/compile.rs`).
    pub fn of_strings(v: &Value) -> Option<Rc<Rows>> {
        const KEPT: usize = 4;
        thread_local! {
            static MADE: RefCell<Vec<(Value, Rc<Rows>)>> = const { RefCell::new(Vec::new()) };
        }
        let address = |v: &Value| match v {
            Value::Str(s) => Some(s.as_ptr() as usize),
            Value::List(rows) => Some(Rc::as_ptr(rows) as usize),
            _ => None,
        };
        let at = address(v)?;
        if let Some(made) = MADE.with_borrow(|m| {
            (m.iter()).find_map(|(k, rows)| (address(k) == Some(at)).then(|| rows.clone()))
        }) {
            return Some(made);
        }
        let strings: Vec<&str> = match v {
            Value::Str(s) => vec![s],
            _ => (v.as_slice()?.iter())
                .map(|row| match row {
                    Value::Str(s) => Some(&**s),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        };
        let (mut offsets, mut items) = (vec![0], Vec::new());
        for s in strings {
            items.extend(s.chars().map(|c| i64::from(u32::from(c))));
            offsets.push(items.len() as i64);
        }
        let rows = Rc::new(Rows {
            offsets: offsets.into(),
            items: items.into(),
            shape: Shape::List,
        });
        MADE.with_borrow_mut(|m| {
            if m.len() == KEPT {
                m.remove(0);
            }
            m.push((v.clone(), rows.clone()));
        });
        Some(rows)
    }

    /// The items of a constant list or set of pairs or strings, packed
    /// (see `seq::constant_packed`), as one row of that shape.
    pub fn packed(shape: Shape, items: Vec<i64>) -> Rows {
        Rows {
            offsets: Box::new([0, items.len() as i64]),
            items: items.into(),
            shape,
        }
    }

    /// `v`, a list, tuple or set of integers (or a table's values), as
    /// one row: a long constant read in place wherever the rules use it
    /// (`W[i]`, `sum(W[:3])`, `x in W`) rather than made item by item.
    pub fn single(v: &Value) -> Option<Rows> {
        // The list holding `v` alone, read as any list of rows is: the
        // list shares `v`'s items, it copies none (a table's are copied
        // out of the report).
        Rows::of(&Value::list(vec![v.clone().into_list()]))
    }

    /// Item `j` of row `i` (each from the end when negative), as `xs[j]`
    /// of the row reads it; `None` outside.
    pub fn item(&self, i: i64, j: i64) -> Option<i64> {
        let (lo, hi) = self.row(i)?;
        let len = (hi - lo) as i64;
        let at = if j < 0 { j.checked_add(len)? } else { j };
        (0..len).contains(&at).then(|| self.items[lo + at as usize])
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
