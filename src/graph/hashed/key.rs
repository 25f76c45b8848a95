//! The key of a hashed position: its arguments as compactly as they go
//! (one or two integers in the key itself, a flat run packed in bytes,
//! in the key when it is short, other arguments shared), and the hashes
//! a lookup computes from the arguments without making a key.

use crate::graph::flat::{self, in_run};
use crate::graph::packed::{self, with_packed};
use crate::value::Value;
use rustc_hash::FxHasher;
use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// A position's arguments. Laid out by its kind's byte, then each kind's
/// fields as C lays them out: the machine code reads the integers of
/// [`Key::One`] and [`Key::Two`] 8 and 16 bytes in
/// ([`super::KEY_AT`]).
#[derive(Clone, Debug)]
#[repr(u8)]
pub(super) enum Key {
    One(i64) = super::ONE_KIND,
    Two(i64, i64) = super::TWO_KIND,
    /// A flat run packed, of at most [`SHORT`] bytes: their number, and
    /// the bytes, the rest zero.
    Short(u8, [u8; SHORT]),
    /// A longer flat run, packed.
    Long(Box<[u8]>),
    Values(Rc<[Value]>),
}

/// The most bytes of a packed run kept in the key itself: what fits in a
/// key's 24 bytes beside its kind and length.
const SHORT: usize = 22;

/// `args` packed, when they are one or two integers. The empty position
/// equals `0` (see `Value`'s equality), so it packs as 0 too.
pub(super) fn packed(args: &[Value]) -> Option<Key> {
    let int = flat::int;
    match args {
        [a] if !in_run(a) => Some(Key::One(int(a)?)),
        [a, b] if !in_run(a) && !in_run(b) => Some(Key::Two(int(a)?, int(b)?)),
        _ if args.len() > 2 || args.iter().any(in_run) => {
            let mut run = Vec::new();
            flat::encode(args, &mut run).then(|| Key::flat(&run))
        }
        _ => None,
    }
}

/// The hash of a flat run packed in `bytes` ([`packed::pack`]): a lookup
/// packs the run it looks for (on the stack, a byte an item for most),
/// then hashes and compares bytes, a word at a time.
#[inline]
pub(super) fn hash_packed(bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(bytes);
    h.finish()
}

pub(super) fn hash_values(values: &[Value]) -> u64 {
    let mut h = FxHasher::default();
    (0u8, values).hash(&mut h);
    h.finish()
}

impl Key {
    pub(super) fn of(args: &[Value]) -> Key {
        packed(args).unwrap_or_else(|| Key::Values(Rc::from(args)))
    }

    /// The key of the flat run `run`.
    pub(super) fn flat(run: &[i64]) -> Key {
        with_packed(run, |bytes| match bytes.len() {
            len @ ..=SHORT => {
                let mut short = [0; SHORT];
                short[..len].copy_from_slice(bytes);
                Key::Short(len as u8, short)
            }
            _ => Key::Long(bytes.into()),
        })
    }

    /// The packed flat run this key is, if it is one.
    #[inline]
    pub(super) fn packed(&self) -> Option<&[u8]> {
        match self {
            Key::Short(len, bytes) => Some(&bytes[..*len as usize]),
            Key::Long(bytes) => Some(bytes),
            _ => None,
        }
    }

    pub(super) fn hash(&self) -> u64 {
        match self {
            Key::One(a) => super::hash_one(*a),
            Key::Two(a, b) => super::hash_two(*a, *b),
            Key::Short(..) | Key::Long(_) => hash_packed(self.packed().expect("a flat run")),
            Key::Values(values) => hash_values(values),
        }
    }

    /// Whether this key holds `args`, given `args` packed as `p`.
    pub(super) fn holds(&self, args: &[Value], p: &Option<Key>) -> bool {
        match (self, p) {
            (Key::Values(values), None) => **values == *args,
            (_, Some(packed)) => self.is(packed),
            _ => false,
        }
    }

    /// Whether this key is the packed key `packed`.
    pub(super) fn is(&self, packed: &Key) -> bool {
        match (self, packed) {
            (Key::One(a), Key::One(x)) => a == x,
            (Key::Two(a, b), Key::Two(x, y)) => a == x && b == y,
            (Key::Short(..) | Key::Long(_), _) => self.packed() == packed.packed(),
            _ => false,
        }
    }

    /// One or two integers, packed.
    pub(super) fn of_ints(args: &[i64]) -> Option<Key> {
        match *args {
            [a] => Some(Key::One(a)),
            [a, b] => Some(Key::Two(a, b)),
            _ => None,
        }
    }

    pub(super) fn values(&self) -> Cow<'_, [Value]> {
        match self {
            Key::One(a) => Cow::Owned(vec![Value::Int(*a)]),
            Key::Two(a, b) => Cow::Owned(vec![Value::Int(*a), Value::Int(*b)]),
            Key::Short(..) | Key::Long(_) => Cow::Owned(flat::decode(&self.run())),
            Key::Values(values) => Cow::Borrowed(values),
        }
    }

    /// The flat run of a packed key; empty for others.
    fn run(&self) -> Vec<i64> {
        let mut run = Vec::new();
        if let Some(bytes) = self.packed() {
            packed::unpack(bytes, &mut run);
        }
        run
    }

    /// The heap memory behind the key, beyond its own 24 bytes.
    pub(super) fn heap_bytes(&self) -> usize {
        match self {
            Key::Values(values) => 2 * size_of::<usize>() + values.len() * size_of::<Value>(),
            Key::Long(bytes) => bytes.len(),
            _ => 0,
        }
    }
}
