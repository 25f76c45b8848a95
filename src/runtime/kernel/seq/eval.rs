//! Running the compiled lists: a list's items pushed on the frame's
//! arena (or found in a parameter), and the integers and conditions read
//! from them (`len`, `xs[i]`, `sum`/`min`/`max`, `in`).

use super::super::expr::{Num, SLOT_LIMIT};
use super::super::{Eval, Stop};
use super::{Clause, Comp, Fold, ITEMS_MAX, Seq, SetOp, Split, combine, decode, divisors};
use crate::defs::Defs;
use crate::ir::Slot;

impl Seq {
    /// Evaluates the list: its items are `f[start..end]`, at the end of the
    /// frame or inside a parameter. The caller truncates the frame back.
    pub fn eval(&self, f: &mut Vec<i64>, defs: &Defs) -> Eval<(usize, usize)> {
        let start = f.len();
        match self {
            Seq::Slot(s) => return Ok(decode(f[*s as usize])),
            Seq::Items(_, items) => {
                for item in items {
                    let v = item.eval(f, defs)?;
                    f.push(v);
                }
            }
            Seq::Concat(a, b) => {
                let ra = a.eval(f, defs)?;
                let rb = b.eval(f, defs)?;
                let from = f.len();
                f.extend_from_within(ra.0..ra.1);
                f.extend_from_within(rb.0..rb.1);
                too_many(f.len() - from)?;
                return Ok((from, f.len()));
            }
            Seq::Repeat(xs, k) => {
                let k = k.eval(f, defs)?.max(0) as usize;
                let (a, b) = xs.eval(f, defs)?;
                if (b - a).saturating_mul(k) > ITEMS_MAX {
                    return Err(Stop::Bail);
                }
                let from = f.len();
                for _ in 0..k {
                    f.extend_from_within(a..b);
                }
                return Ok((from, f.len()));
            }
            Seq::Slice(xs, lo, hi) => {
                let (a, b) = xs.eval(f, defs)?;
                let len = (b - a) as i64;
                let mut bound = |n: &Option<Num>, default: i64| -> Eval<i64> {
                    Ok(match n {
                        None => default,
                        Some(n) => match n.eval(f, defs)? {
                            n if n < 0 => (n + len).max(0),
                            n => n.min(len),
                        },
                    })
                };
                let from = bound(lo, 0)?;
                let to = bound(hi, len)?.max(from);
                return Ok((a + from as usize, a + to as usize));
            }
            Seq::Comp(c) | Seq::Kept(c) => return comprehension(c, f, defs),
            Seq::Sorted(xs) | Seq::Reversed(xs) => {
                let (a, b) = xs.eval(f, defs)?;
                let from = f.len();
                f.extend_from_within(a..b);
                match self {
                    Seq::Sorted(_) => f[from..].sort_unstable(),
                    _ => f[from..].reverse(),
                }
                return Ok((from, f.len()));
            }
            Seq::Divisors(n) => return divisors(n.eval(f, defs)?, f),
            Seq::Range(r) => {
                let (lo, hi) = (r.0.eval(f, defs)?, r.1.eval(f, defs)?);
                let hi = hi.checked_add(i64::from(r.2)).ok_or(Stop::Bail)?;
                too_many(hi.saturating_sub(lo).max(0) as usize)?;
                let from = f.len();
                f.extend(lo..hi);
                return Ok((from, f.len()));
            }
            Seq::Let(s, value, body) => {
                f[*s as usize] = value.eval(f, defs)?;
                return body.eval(f, defs);
            }
            Seq::Bind(s, value, body) => {
                let (a, b) = value.eval(f, defs)?;
                f[*s as usize] = super::encode(a, b);
                return body.eval(f, defs);
            }
            Seq::If(c, a, b) => {
                return match c.eval(f, defs)? {
                    true => a.eval(f, defs),
                    false => b.eval(f, defs),
                };
            }
            Seq::Row(rows, i) => {
                let (a, b) = rows.row(i.eval(f, defs)?).ok_or(Stop::Bail)?;
                f.extend_from_slice(&rows.items[a..b]);
            }
            Seq::SetOf(xs) => {
                let (a, b) = xs.eval(f, defs)?;
                return Ok(combined(f, (a, b), (b, b), SetOp::Of));
            }
            Seq::SetOp(op, a, b) => {
                let ra = a.eval(f, defs)?;
                let rb = b.eval(f, defs)?;
                return Ok(combined(f, ra, rb, *op));
            }
            Seq::Word(w) => {
                let w = w.eval(f, defs)?;
                f.extend(crate::graph::flat::word_chars(w));
            }
        }
        Ok((start, f.len()))
    }
}

/// `op` of the items `a` and then `b`, copied to the end of the frame.
fn combined(f: &mut Vec<i64>, a: (usize, usize), b: (usize, usize), op: SetOp) -> (usize, usize) {
    let from = f.len();
    f.extend_from_within(a.0..a.1);
    f.extend_from_within(b.0..b.1);
    let kept = combine(&mut f[from..], a.1 - a.0, op);
    f.truncate(from + kept);
    (from, f.len())
}

/// Calls `each` with slots `a` and `b` set as `how` splits each item of
/// `xs`: to its index and the item, or to the two halves of the pair
/// (each within [`SLOT_LIMIT`], as for any binder), or `a` to the pair
/// whole. The caller truncates the frame back if `xs` pushed.
pub(in crate::runtime::kernel) fn split_each(
    how: Split,
    xs: &Seq,
    f: &mut Vec<i64>,
    defs: &Defs,
    each: &mut dyn FnMut(&mut Vec<i64>) -> Eval<()>,
    (a, b): (Slot, Slot),
) -> Eval<()> {
    let (from, to) = xs.eval(f, defs)?;
    (from..to).try_for_each(|at| {
        let item = f[at];
        let (x, y) = match how {
            Split::Whole => {
                f[a as usize] = item;
                return each(f);
            }
            Split::Enumerate => ((at - from) as i64, item),
            Split::Pair => crate::graph::flat::unpack(item),
        };
        if x.abs() >= SLOT_LIMIT || y.abs() >= SLOT_LIMIT {
            return Err(Stop::Bail);
        }
        f[a as usize] = x;
        f[b as usize] = y;
        each(f)
    })
}

/// What [`items`] calls per item: with its index, the item, the frame.
type Item<'a> = dyn FnMut(i64, i64, &mut Vec<i64>) -> Eval<()> + 'a;

/// Calls `each` with every index of `xs` and the item there, each item
/// within [`SLOT_LIMIT`] (it becomes a slot). The caller truncates the
/// frame back if `xs` pushed.
pub(super) fn items(xs: &Seq, f: &mut Vec<i64>, defs: &Defs, each: &mut Item<'_>) -> Eval<()> {
    let (a, b) = xs.eval(f, defs)?;
    (a..b).try_for_each(|at| match f[at] {
        k if k.abs() < SLOT_LIMIT => each((at - a) as i64, k, f),
        _ => Err(Stop::Bail),
    })
}

/// A list comprehension's items, pushed in order. When a `for` clause
/// runs over a list it pushes, the items go through a buffer, so as not
/// to interleave with that list.
fn comprehension(c: &Comp<Num>, f: &mut Vec<i64>, defs: &Defs) -> Eval<(usize, usize)> {
    let buffered = c.clauses.iter().any(|c| match c {
        Clause::For(_, src) => src.pushes(),
        Clause::Split(.., xs) => xs.pushes(),
        Clause::If(_) | Clause::While(..) => false,
    });
    let from = f.len();
    if buffered {
        let mut items = Vec::new();
        c.run(0, f, defs, &mut |e, f| {
            items.push(e.eval(f, defs)?);
            too_many(items.len())
        })?;
        f.extend_from_slice(&items);
    } else {
        c.run(0, f, defs, &mut |e, f| {
            let v = e.eval(f, defs)?;
            f.push(v);
            too_many(f.len() - from)
        })?;
    }
    Ok((from, f.len()))
}

fn too_many(n: usize) -> Eval<()> {
    match n > ITEMS_MAX {
        true => Err(Stop::Bail),
        false => Ok(()),
    }
}

/// The integer built-ins over a list.
pub fn fold(fold: Fold, xs: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let items = &f[a..b];
    let result = match fold {
        Fold::Sum => items
            .iter()
            .try_fold(0i64, |acc, x| acc.checked_add(*x))
            .ok_or(Stop::Bail),
        Fold::Min => items.iter().copied().min().ok_or(Stop::Bail),
        Fold::Max => items.iter().copied().max().ok_or(Stop::Bail),
    };
    f.truncate(mark);
    result
}

/// `xs[i]`, with a negative index counted from the end.
pub fn index(xs: &Seq, i: &Num, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
    // A row of constants is read in place, not copied out first.
    if let Seq::Row(rows, row) = xs {
        let row = row.eval(f, defs)?;
        return rows.item(row, i.eval(f, defs)?).ok_or(Stop::Bail);
    }
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let i = i.eval(f, defs)?;
    let len = (b - a) as i64;
    let at = if i < 0 { i + len } else { i };
    let result = match (0..len).contains(&at) {
        true => Ok(f[a + at as usize]),
        false => Err(Stop::Bail),
    };
    f.truncate(mark);
    result
}

/// `len(xs)`.
pub fn len(xs: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    f.truncate(mark);
    Ok((b - a) as i64)
}

/// `xs == ys`: the same items in the same order.
pub fn same(xs: &Seq, ys: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<bool> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let (c, d) = ys.eval(f, defs)?;
    let found = f[a..b] == f[c..d];
    f.truncate(mark);
    Ok(found)
}

/// `xs < ys` (`strict`) or `xs <= ys`, item by item, as the
/// interpreter compares lists, tuples and strings.
pub fn less(strict: bool, xs: &Seq, ys: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<bool> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let (c, d) = ys.eval(f, defs)?;
    let order = f[a..b].cmp(&f[c..d]);
    f.truncate(mark);
    Ok(order.is_lt() || (!strict && order.is_eq()))
}

/// The string `xs` packed in one integer
/// ([`crate::graph::flat::pack_word`]); bails where it does not fit.
pub fn pack(xs: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let fits =
        b - a <= crate::graph::flat::WORD_MAX && f[a..b].iter().all(|c| (1..128).contains(c));
    // Packed only where it fits: a character past the word has no place.
    let w = fits.then(|| {
        (f[a..b].iter().enumerate()).fold(0, |w, (k, c)| w | c << crate::graph::flat::word_shift(k))
    });
    f.truncate(mark);
    w.ok_or(Stop::Bail)
}

/// `t in s` of two strings: whether `t` runs somewhere in `s` (the
/// empty string runs everywhere).
pub fn within(t: &Seq, s: &Seq, f: &mut Vec<i64>, defs: &Defs) -> Eval<bool> {
    let mark = f.len();
    let (a, b) = t.eval(f, defs)?;
    let (c, d) = s.eval(f, defs)?;
    let found = a == b || f[c..d].windows(b - a).any(|w| w == &f[a..b]);
    f.truncate(mark);
    Ok(found)
}

/// `x in xs`.
pub fn contains(x: i64, (xs, sorted): (&Seq, bool), f: &mut Vec<i64>, defs: &Defs) -> Eval<bool> {
    let mark = f.len();
    let (a, b) = xs.eval(f, defs)?;
    let found = match sorted {
        true => f[a..b].binary_search(&x).is_ok(),
        false => f[a..b].contains(&x),
    };
    f.truncate(mark);
    Ok(found)
}
