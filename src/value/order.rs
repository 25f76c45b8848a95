//! How values compare and hash: one total order over every kind, in which
//! a report equals the list it stands for, the empty position equals `0`
//! and all empty ranges are equal.

use super::Value;
use std::cmp::Ordering;

impl Value {
    /// What a value compares and hashes as: the empty position is the
    /// integer 0 (both are written `0`), every empty range is `0..0`.
    fn canonical(&self) -> std::borrow::Cow<'_, Value> {
        use std::borrow::Cow;
        match self {
            Value::Pos(p) if p.is_empty() => Cow::Owned(Value::Int(0)),
            Value::Range(lo, hi) if hi <= lo => Cow::Owned(Value::Range(0, 0)),
            _ => Cow::Borrowed(self),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Bool(_) => 0,
            Value::Int(_) => 1,
            Value::Str(_) => 2,
            Value::Tuple(_) => 3,
            Value::List(_) | Value::Report(_) => 4,
            Value::Set(_) => 5,
            Value::Range(..) => 6,
            Value::Pos(_) => 7,
            Value::Game(_) => 8,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// A total order: by kind first, then by contents. Within a kind it is
    /// the natural order (numbers, strings and sequences lexicographically).
    fn cmp(&self, other: &Value) -> Ordering {
        use Value::*;
        if let (Int(a), Int(b)) = (self, other) {
            return a.cmp(b);
        }
        let (a, b) = (self.canonical(), other.canonical());
        match (&*a, &*b) {
            (Int(a), Int(b)) => a.cmp(b),
            (Bool(a), Bool(b)) => a.cmp(b),
            (Str(a), Str(b)) => a.cmp(b),
            (Tuple(a), Tuple(b)) => a.iter().cmp(b.iter()),
            (Set(a), Set(b)) => a.iter().cmp(b.iter()),
            (Range(a, b), Range(c, d)) => (a, b).cmp(&(c, d)),
            (Pos(a), Pos(b)) => a.cmp(b),
            (Game(a), Game(b)) => a.cmp(b),
            (x, y) => match (x.rank(), y.rank()) {
                (4, 4) => {
                    let sequence = "values of rank 4 are sequences";
                    let (xs, ys) = (x.as_slice().expect(sequence), y.as_slice().expect(sequence));
                    xs.iter().cmp(ys.iter())
                }
                (r, q) => r.cmp(&q),
            },
        }
    }
}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let canonical = self.canonical();
        canonical.rank().hash(state);
        match &*canonical {
            Value::Int(n) => n.hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Str(s) => s.hash(state),
            Value::Tuple(items) => items.hash(state),
            Value::List(items) => items.hash(state),
            Value::Report(r) => r.items().hash(state),
            Value::Set(items) => items.hash(state),
            Value::Range(lo, hi) => (lo, hi).hash(state),
            Value::Pos(p) => p.hash(state),
            Value::Game(g) => g.hash(state),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::value::{Position, Report, Value};
    use std::collections::BTreeSet;
    use std::rc::Rc;

    #[test]
    fn lists_and_reports_compare_by_items() {
        let items = vec![Value::Int(1), Value::Int(2)];
        let report = Value::Report(Rc::new(Report::ready(items.clone(), "shown".into())));
        assert_eq!(report, Value::list(items));
        assert_ne!(Value::Int(1), Value::Bool(true));
    }

    fn hash_of(v: &Value) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault};
        BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(v)
    }

    #[test]
    fn empty_ranges_are_equal() {
        assert_eq!(Value::Range(5, 2), Value::Range(5, 5));
        assert_eq!(Value::Range(0, 0), Value::Range(1, 1));
        assert_eq!(hash_of(&Value::Range(7, 3)), hash_of(&Value::Range(0, 0)));
        assert_ne!(Value::Range(0, 2), Value::Range(0, 3));
    }

    #[test]
    fn the_empty_position_is_zero() {
        let empty = Value::Pos(Position::empty());
        assert_eq!(empty, Value::Int(0));
        assert_eq!(hash_of(&empty), hash_of(&Value::Int(0)));
        assert!(empty < Value::Int(1) && Value::Int(-1) < empty);
        let set: BTreeSet<Value> = [empty, Value::Int(0)].into_iter().collect();
        assert_eq!(set.len(), 1);
    }
}
