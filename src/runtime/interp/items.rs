//! What the interpreter iterates over and collects into: the items of a
//! list, tuple or set without copying them, and the sinks of a
//! comprehension.

use crate::value::Value;

/// Where a comprehension puts its elements, one by one.
pub trait Collect {
    /// How many elements it has received.
    fn count(&self) -> usize;
    fn push(&mut self, item: Value);
    /// Exactly `n` elements come next, unless an error stops them.
    fn expect(&mut self, _n: usize) {}
}

impl Collect for Vec<Value> {
    fn count(&self) -> usize {
        self.len()
    }

    fn push(&mut self, item: Value) {
        Vec::push(self, item);
    }

    /// Room for them at once, instead of growing by doubling from 4 (up
    /// to a bound: the size limit is checked item by item).
    fn expect(&mut self, n: usize) {
        self.reserve(n.min(1024));
    }
}

/// A sequence to iterate over, held as a list, or as the set it is: a
/// binder over a constant set, run once per position, makes no list.
pub struct Items(pub(super) Value);

impl Items {
    pub fn iter(&self) -> ItemsIter<'_> {
        match &self.0 {
            Value::Set(set) => ItemsIter::Set(set.iter()),
            other => ItemsIter::Slice(other.as_slice().unwrap_or(&[]).iter()),
        }
    }
}

/// The items of [`Items`], in order.
pub enum ItemsIter<'a> {
    Slice(std::slice::Iter<'a, Value>),
    Set(std::collections::btree_set::Iter<'a, Value>),
}

impl<'a> Iterator for ItemsIter<'a> {
    type Item = &'a Value;

    fn next(&mut self) -> Option<&'a Value> {
        match self {
            ItemsIter::Slice(it) => it.next(),
            ItemsIter::Set(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ItemsIter::Slice(it) => it.size_hint(),
            ItemsIter::Set(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for ItemsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            ItemsIter::Slice(it) => it.next_back(),
            ItemsIter::Set(it) => it.next_back(),
        }
    }
}

impl ExactSizeIterator for ItemsIter<'_> {}
