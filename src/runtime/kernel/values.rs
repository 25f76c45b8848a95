//! The values a binder's domain takes, as the kernel's run and the
//! machine code loop over them: a range, or the items of a list within a
//! window that the guard narrows.

use super::expr::SLOT_LIMIT;
use super::{Eval, Stop};
use std::rc::Rc;

/// The values of a binder's domain, every one below [`SLOT_LIMIT`] in
/// magnitude (but for [`Values::any`]'s, until a move's compiling drops
/// the others).
#[derive(Clone, Debug)]
pub enum Values {
    /// `lo..hi`.
    Range(i64, i64),
    /// The items of a list in the window `lo..=hi` (the smallest and
    /// largest item, until a guard narrows it).
    List {
        items: Rc<[i64]>,
        sorted: bool,
        lo: i64,
        hi: i64,
    },
}

impl Values {
    /// How many values there are at most (before a guard narrows a
    /// list's window).
    pub fn len(&self) -> usize {
        match self {
            Values::Range(lo, hi) => hi.saturating_sub(*lo).max(0) as usize,
            Values::List { items, .. } => items.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Values::Range(lo, hi) => hi <= lo,
            Values::List { items, lo, hi, .. } => items.is_empty() || hi < lo,
        }
    }

    pub(super) fn first(&self) -> i64 {
        match self {
            Values::Range(lo, _) => *lo,
            Values::List { items, .. } => items[0],
        }
    }

    /// The window: every value is in `lo..=hi` (for a non-empty domain).
    pub fn bounds(&self) -> (i64, i64) {
        match self {
            Values::Range(lo, hi) => (*lo, hi - 1),
            Values::List { lo, hi, .. } => (*lo, *hi),
        }
    }

    /// Narrows the window to the offsets `from..to` from its start.
    pub(super) fn narrow(&mut self, (from, to): (i64, i64)) {
        match self {
            Values::Range(lo, hi) => (*lo, *hi) = (*lo + from, *lo + to),
            Values::List { lo, hi, .. } => (*lo, *hi) = (*lo + from, *lo + to - 1),
        }
    }

    /// The same values, in the window `lo..=hi` only (inside the current one).
    pub(super) fn window(&self, lo: i64, hi: i64) -> Values {
        match self {
            Values::Range(..) => Values::Range(lo, hi + 1),
            Values::List { items, sorted, .. } => Values::List {
                items: items.clone(),
                sorted: *sorted,
                lo,
                hi,
            },
        }
    }

    /// Calls `each` on every value, in order.
    pub fn try_each(&self, mut each: impl FnMut(i64) -> Eval<()>) -> Eval<()> {
        match self {
            Values::Range(lo, hi) => (*lo..*hi).try_for_each(each),
            Values::List { .. } => self.items().iter().try_for_each(|k| match self.holds(*k) {
                true => each(*k),
                false => Ok(()),
            }),
        }
    }

    /// The items of a list, as few as the window allows: a sorted list is
    /// cut to the window, any other is left to [`Values::holds`].
    pub fn items(&self) -> &[i64] {
        match self {
            Values::Range(..) => &[],
            Values::List {
                items,
                sorted: true,
                lo,
                hi,
            } => {
                let from = items.partition_point(|k| k < lo);
                let to = items.partition_point(|k| k <= hi);
                &items[from..to.max(from)]
            }
            Values::List { items, .. } => items,
        }
    }

    /// Whether `k`, an item of the list, is in the window.
    #[inline]
    pub fn holds(&self, k: i64) -> bool {
        let (lo, hi) = self.bounds();
        lo <= k && k <= hi
    }

    pub fn list(items: Vec<i64>) -> Eval<Values> {
        let values = Values::any(items);
        values.small().then_some(values).ok_or(Stop::Bail)
    }

    /// The items, of any size: a move's compiling drops those past
    /// [`SLOT_LIMIT`] that its guard rules out, or gives up.
    pub(super) fn any(items: Vec<i64>) -> Values {
        let lo = items.iter().copied().min().unwrap_or(0);
        let hi = items.iter().copied().max().unwrap_or(0);
        Values::List {
            sorted: items.is_sorted(),
            items: items.into(),
            lo,
            hi,
        }
    }

    /// Whether every value is below [`SLOT_LIMIT`] in magnitude.
    pub(super) fn small(&self) -> bool {
        let (lo, hi) = match self {
            Values::Range(lo, hi) if hi <= lo => return true,
            _ => self.bounds(),
        };
        -SLOT_LIMIT < lo && hi < SLOT_LIMIT
    }

    /// The items within `lo..=hi` only, in their order.
    pub(super) fn kept(&self, lo: i64, hi: i64) -> Option<Values> {
        match self {
            Values::Range(..) => None,
            Values::List { items, .. } => Some(Values::any(
                items
                    .iter()
                    .copied()
                    .filter(|k| lo <= *k && *k <= hi)
                    .collect(),
            )),
        }
    }
}
