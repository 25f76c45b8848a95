//! Sets of integers in kernels: a set is a list whose items are
//! increasing, as [`crate::value::Value::Set`] keeps them, so a set
//! parameter, `len`, `in`, indexing and binders read it as a list. Making
//! a set, and `|`, `&`, `-` and `^` on two of them, is [`combine`]: the
//! kernel's run and the machine code both call it on items they pushed.

use crate::syntax::ast::BinOp;

/// What [`combine`] makes of its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i64)]
pub enum SetOp {
    /// Sorts them (`sorted(xs)`: a list, duplicates kept).
    Sort = 0,
    /// The set of them (`{a, b}`, `set(xs)`, a set comprehension).
    Of = 1,
    Union = 2,
    Inter = 3,
    Diff = 4,
    Xor = 5,
}

impl SetOp {
    /// The operator on two sets.
    pub fn of(op: BinOp) -> Option<SetOp> {
        Some(match op {
            BinOp::BitOr => SetOp::Union,
            BinOp::BitAnd => SetOp::Inter,
            BinOp::Sub => SetOp::Diff,
            BinOp::BitXor => SetOp::Xor,
            _ => return None,
        })
    }

    /// The operation coded `code` (as the machine code passes it).
    pub fn from_code(code: i64) -> SetOp {
        match code {
            1 => SetOp::Of,
            2 => SetOp::Union,
            3 => SetOp::Inter,
            4 => SetOp::Diff,
            5 => SetOp::Xor,
            _ => SetOp::Sort,
        }
    }
}

/// Makes `op` of `items` in place and returns how many of them the
/// result keeps, at the front. For the operators on two sets, the sets
/// are `items[..mid]` and `items[mid..]`, each increasing; the result is
/// increasing too.
pub fn combine(items: &mut [i64], mid: usize, op: SetOp) -> usize {
    match op {
        SetOp::Diff => {
            // Both increasing: one walk through each. Each kept item is
            // written at or before where it was read, so the second set is
            // never overwritten.
            let (mut kept, mut j) = (0, mid);
            for i in 0..mid {
                let x = items[i];
                while j < items.len() && items[j] < x {
                    j += 1;
                }
                if j == items.len() || items[j] != x {
                    items[kept] = x;
                    kept += 1;
                }
            }
            kept
        }
        SetOp::Sort => {
            items.sort_unstable();
            items.len()
        }
        // Sorted together, an item of both sets appears twice in a row.
        SetOp::Of | SetOp::Union => {
            items.sort_unstable();
            keep_runs(items, |_| true)
        }
        SetOp::Inter => {
            items.sort_unstable();
            keep_runs(items, |n| n == 2)
        }
        SetOp::Xor => {
            items.sort_unstable();
            keep_runs(items, |n| n == 1)
        }
    }
}

/// `op` (`|`, `&`, `-` or `^`) of the increasing sets `a` and `b`, into
/// `out` (room for both), by one pass over both; returns how many items
/// the result has. The machine code's set operations on two sets where
/// they are (a parameter, a row of constants), without copying both to
/// the arena's top first.
pub fn merge_into(a: &[i64], b: &[i64], op: SetOp, out: &mut [i64]) -> usize {
    if op == SetOp::Diff {
        // `a`'s items in turn, each looked for among `b`'s from where the
        // last one was: the common `s - {x}`, `s - ROWS[v]`.
        let (mut j, mut n) = (0, 0);
        for &x in a {
            while j < b.len() && b[j] < x {
                j += 1;
            }
            if j == b.len() || b[j] != x {
                out[n] = x;
                n += 1;
            }
        }
        return n;
    }
    let (left, both, right) = match op {
        SetOp::Union => (true, true, true),
        SetOp::Inter => (false, true, false),
        _ => (true, false, true),
    };
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        let (keep, item) = match x.cmp(&y) {
            std::cmp::Ordering::Less => (left, x),
            std::cmp::Ordering::Greater => (right, y),
            std::cmp::Ordering::Equal => (both, x),
        };
        out[n] = item;
        n += usize::from(keep);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    for (rest, keep) in [(&a[i..], left), (&b[j..], right)] {
        if keep {
            out[n..n + rest.len()].copy_from_slice(rest);
            n += rest.len();
        }
    }
    n
}

/// Keeps one of each run of equal items of the sorted `items` whose
/// length `keep` accepts, at the front; returns how many.
fn keep_runs(items: &mut [i64], keep: impl Fn(usize) -> bool) -> usize {
    let (mut kept, mut i) = (0, 0);
    while i < items.len() {
        let run = items[i..].iter().take_while(|x| **x == items[i]).count();
        if keep(run) {
            items[kept] = items[i];
            kept += 1;
        }
        i += run;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// `combine` of two sets, as a list.
    fn of_two(a: &BTreeSet<i64>, b: &BTreeSet<i64>, op: SetOp) -> Vec<i64> {
        let mut items: Vec<i64> = a.iter().chain(b).copied().collect();
        let kept = combine(&mut items, a.len(), op);
        items.truncate(kept);
        items
    }

    #[test]
    fn the_operators_on_two_sets_agree_with_btreeset() {
        let sets: Vec<BTreeSet<i64>> = [
            &[][..],
            &[3],
            &[-2, 3, 5],
            &[1, 2, 3, 4, 5, 6],
            &[5, 9, 11],
            &[-7, 0, 3],
            &[-7, 3, 4, 5, 6, 8, 11, 12],
        ]
        .iter()
        .map(|s| s.iter().copied().collect())
        .collect();
        for a in &sets {
            for b in &sets {
                let want = |s: BTreeSet<i64>| s.into_iter().collect::<Vec<_>>();
                assert_eq!(of_two(a, b, SetOp::Union), want(a | b), "{a:?} | {b:?}");
                assert_eq!(of_two(a, b, SetOp::Inter), want(a & b), "{a:?} & {b:?}");
                assert_eq!(of_two(a, b, SetOp::Diff), want(a - b), "{a:?} - {b:?}");
                assert_eq!(of_two(a, b, SetOp::Xor), want(a ^ b), "{a:?} ^ {b:?}");
            }
        }
    }

    proptest::proptest! {
        /// The operators on random sets, small and large, as `BTreeSet`
        /// says, on sets side by side or apart.
        #[test]
        fn random_sets_agree_with_btreeset(
            a in proptest::collection::btree_set(-40i64..40, 0..90),
            b in proptest::collection::btree_set(-40i64..40, 0..90),
        ) {
            let want = |s: BTreeSet<i64>| s.into_iter().collect::<Vec<_>>();
            proptest::prop_assert_eq!(of_two(&a, &b, SetOp::Union), want(&a | &b));
            proptest::prop_assert_eq!(of_two(&a, &b, SetOp::Inter), want(&a & &b));
            proptest::prop_assert_eq!(of_two(&a, &b, SetOp::Diff), want(&a - &b));
            proptest::prop_assert_eq!(of_two(&a, &b, SetOp::Xor), want(&a ^ &b));
            let (xs, ys): (Vec<i64>, Vec<i64>) = (a.iter().copied().collect(), b.iter().copied().collect());
            for op in [SetOp::Union, SetOp::Inter, SetOp::Diff, SetOp::Xor] {
                let mut out = vec![0; xs.len() + ys.len()];
                let n = merge_into(&xs, &ys, op, &mut out);
                proptest::prop_assert_eq!(&out[..n], &of_two(&a, &b, op)[..], "{:?}", op);
            }
        }
    }

    #[test]
    fn a_set_is_made_of_items_in_any_order_and_a_sort_keeps_duplicates() {
        let mut items = vec![4, -1, 4, 2, -1, 9];
        let kept = combine(&mut items, 0, SetOp::Of);
        assert_eq!(items[..kept], [-1, 2, 4, 9]);
        let mut items = vec![4, -1, 4, 2];
        assert_eq!(combine(&mut items, 0, SetOp::Sort), 4);
        assert_eq!(items, [-1, 2, 4, 4]);
        for code in 0..6 {
            assert_eq!(SetOp::from_code(code) as i64, code);
        }
    }
}
