//! The positions of a game that are not dense (negative or huge integers,
//! three parameters, lists...), interned by their arguments. Each key is
//! kept once, in `nodes` beside its value, which a lookup then reads in
//! the same cache line; the hash tables hold only the positions' indices.
//! One or two integers, the common case (the divide-by-2/3/6 game from
//! 10^15), are packed in the key itself, with no allocation, and indexed
//! by a table of their own that the machine code probes too ([`ints`]:
//! 8 bytes a slot, the index and the hash's high half); the others by
//! hashbrown's (4 bytes and a control byte a slot). Three or more
//! integers, and integers with lists or tuples of integers (list
//! states), are one flat run of integers ([`super::flat`]), packed in
//! bytes ([`super::packed`]) and kept in the key itself when short;
//! other arguments are shared values.

mod ints;
mod key;

use super::flat::{self, in_run};
use super::packed;
use crate::value::Value;
use hashbrown::HashTable;
use ints::{Ints, hash_one, hash_two};
use key::{Key, hash_packed, hash_values, packed};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};

pub use ints::{EMPTY as EMPTY_SLOT, MIX, Probe, TURN};

/// A hashed position: its key and its value slot (see
/// [`crate::graph::UNKNOWN`]). Laid out as C lays it out, for the
/// machine code to read a key of one or two integers and the value
/// ([`NODE_BYTES`], [`KEY_AT`], [`VALUE_AT`]).
#[repr(C)]
struct Node {
    key: Key,
    value: u64,
}

impl Node {
    fn new(key: Key) -> Node {
        Node {
            key,
            value: super::UNKNOWN,
        }
    }
}

/// The bytes of a hashed position, for the machine code.
pub const NODE_BYTES: usize = size_of::<Node>();
/// Where a position's first integer is, for the machine code: a key of
/// one or two integers is its kind's byte, then the integers (see
/// [`Key`]'s layout).
pub const KEY_AT: usize = std::mem::offset_of!(Node, key) + 8;
/// Where a position's key's kind is, for the machine code: a byte,
/// [`ONE_KIND`] or [`TWO_KIND`] for one or two integers.
pub const KIND_AT: usize = std::mem::offset_of!(Node, key);
pub const ONE_KIND: u8 = 0;
pub const TWO_KIND: u8 = 1;
/// Where a position's value slot is, for the machine code.
pub const VALUE_AT: usize = std::mem::offset_of!(Node, value);

/// The hashed positions of one game, numbered from 0 in the order made.
#[derive(Default)]
pub struct Hashed {
    nodes: Vec<Node>,
    /// The positions of one or two integers (see [`ints`]).
    ints: Ints,
    /// Where the machine code finds `ints` and `nodes`: kept up to date
    /// as they grow, in a cell at an address that does not move, so that
    /// the address given out stays good for as long as the positions.
    probe: Box<Cell<Probe>>,
    /// The other positions.
    index: HashTable<u32>,
    /// The numbers of the positions of one negative integer `n`, by
    /// `-n - 1` ([`NO_NODE`] where there is none), kept apart from the
    /// hash table: a game played on both sides of 0 (a token on the
    /// number line) has about as many negative positions as dense ones,
    /// and hashing each cost 30 times what a dense read does. A negative
    /// position far below the others is hashed instead (see
    /// [`Hashed::negative_slot`]); lookups look in both.
    negatives: Vec<u32>,
}

/// No position, in [`Hashed::negatives`].
const NO_NODE: u32 = u32::MAX;
/// How far below the lowest negative position so far another is still
/// numbered in [`Hashed::negatives`], which then grows to it: at most
/// about 4 MB more for one position.
const NEGATIVE_REACH: usize = 1 << 20;

impl Hashed {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The number of the position with arguments `args`, if it exists.
    pub fn find(&self, args: &[Value]) -> Option<u32> {
        if args.len() > 2 || args.iter().any(in_run) {
            // A flat run, made in a buffer kept for the purpose: a query
            // asked over every square of a board makes one per square.
            thread_local!(static RUN: RefCell<Vec<i64>> = const { RefCell::new(Vec::new()) });
            let found =
                RUN.with_borrow_mut(|run| flat::encode(args, run).then(|| self.find_flat(run)));
            if let Some(found) = found {
                return found;
            }
        }
        let p = packed(args);
        match p {
            Some(Key::One(a)) => return self.find_ints(&[a]),
            Some(Key::Two(a, b)) => return self.find_ints(&[a, b]),
            _ => {}
        }
        let hash = match &p {
            Some(key) => key.hash(),
            None => hash_values(args),
        };
        self.index
            .find(hash, |i| self.nodes[*i as usize].key.holds(args, &p))
            .copied()
    }

    /// Adds the position with arguments `args` (the caller has checked it
    /// is new) and returns its number.
    pub fn insert(&mut self, args: &[Value]) -> u32 {
        self.insert_key(Key::of(args))
    }

    /// The number of the position of the one negative integer `a`, if it
    /// is in [`Hashed::negatives`].
    #[inline]
    fn find_negative(&self, a: i64) -> Option<u32> {
        let at = usize::try_from(-(a as i128) - 1).ok()?;
        self.negatives.get(at).copied().filter(|i| *i != NO_NODE)
    }

    /// Where in [`Hashed::negatives`] a new position of the one negative
    /// integer `a` goes, if it goes there: within [`NEGATIVE_REACH`] of
    /// those so far.
    fn negative_slot(&self, a: i64) -> Option<usize> {
        let at = usize::try_from(-(a as i128) - 1).ok()?;
        (at < self.negatives.len() + NEGATIVE_REACH).then_some(at)
    }

    /// Numbers the new position `i`, of the one negative integer `a`, in
    /// [`Hashed::negatives`], if it goes there.
    fn number_negative(&mut self, a: i64, i: u32) -> bool {
        let Some(at) = self.negative_slot(a) else {
            return false;
        };
        if self.negatives.len() <= at {
            self.negatives.resize(at + 1, NO_NODE);
        }
        self.negatives[at] = i;
        true
    }

    /// [`Hashed::find`] of one or two integers, packed as `find` packs
    /// them, with no values made.
    #[inline]
    pub fn find_ints(&self, args: &[i64]) -> Option<u32> {
        let nodes = &self.nodes;
        match *args {
            [a] if a < 0
                && let Some(i) = self.find_negative(a) =>
            {
                Some(i)
            }
            [a] => self.ints.find(
                hash_one(a),
                |i| matches!(nodes[i as usize].key, Key::One(x) if x == a),
            ),
            [a, b] => self.ints.find(
                hash_two(a, b),
                |i| matches!(nodes[i as usize].key, Key::Two(x, y) if x == a && y == b),
            ),
            _ => None,
        }
    }

    /// The number of the position of one or two integers `args`, added
    /// if it is new and `add` (true with the number when it was added):
    /// one hash and one probe for both.
    pub fn intern_ints(&mut self, args: &[i64], add: bool) -> Option<(u32, bool)> {
        let (hash, key) = match *args {
            // Negative ones may be numbered apart (see `negatives`).
            [a] if a < 0 => {
                if let Some(i) = self.find_ints(args) {
                    return Some((i, false));
                }
                return add.then(|| (self.insert_ints(args), true));
            }
            [a] => (hash_one(a), Key::One(a)),
            [a, b] => (hash_two(a, b), Key::Two(a, b)),
            _ => return None,
        };
        let nodes = &self.nodes;
        // One probe for both: found, or added where the probe ended.
        match self
            .ints
            .find_or_room(hash, |i| nodes[i as usize].key.is(&key))
        {
            Ok(i) => Some((i, false)),
            Err(room) if add => {
                let i = self.nodes.len() as u32;
                self.ints.insert_at(room, hash, i);
                self.nodes.push(Node::new(key));
                self.sync_probe();
                Some((i, true))
            }
            Err(_) => None,
        }
    }

    /// [`Hashed::insert`] of one or two integers (the caller has checked
    /// it is new).
    pub fn insert_ints(&mut self, args: &[i64]) -> u32 {
        self.insert_key(Key::of_ints(args).expect("one or two integers"))
    }

    fn insert_key(&mut self, key: Key) -> u32 {
        let i = self.nodes.len() as u32;
        let numbered = match key {
            Key::One(a) if a < 0 => self.number_negative(a, i),
            _ => false,
        };
        match key {
            _ if numbered => {}
            Key::One(a) => self.ints.insert(hash_one(a), i),
            Key::Two(a, b) => self.ints.insert(hash_two(a, b), i),
            _ => {
                let nodes = &self.nodes;
                self.index
                    .insert_unique(key.hash(), i, |j| nodes[*j as usize].key.hash());
            }
        }
        self.nodes.push(Node::new(key));
        self.sync_probe();
        i
    }

    /// Points the [`Probe`] at the table and the positions where they are now.
    fn sync_probe(&mut self) {
        let (slots, mask, shift) = self.ints.place();
        self.probe.set(Probe {
            slots,
            mask,
            shift,
            nodes: self.nodes.as_ptr() as usize,
        });
    }

    /// The address of the [`Probe`] of the positions of one or two
    /// integers, fixed for as long as these positions are.
    pub fn probe(&self) -> usize {
        self.probe.as_ptr() as usize
    }

    /// [`Hashed::find`] of arguments given as a flat run.
    pub fn find_flat(&self, run: &[i64]) -> Option<u32> {
        let nodes = &self.nodes;
        packed::with_packed(run, |bytes| {
            let same = |i: &u32| nodes[*i as usize].key.packed() == Some(bytes);
            self.index.find(hash_packed(bytes), same).copied()
        })
    }

    /// [`Hashed::insert`] of arguments given as a flat run (the caller
    /// has checked it is new).
    pub fn insert_flat(&mut self, run: &[i64]) -> u32 {
        self.insert_key(Key::flat(run))
    }

    /// The arguments of position `i` as a flat run, into `out`, if they
    /// are one.
    pub fn flat_args(&self, i: u32, out: &mut Vec<i64>) -> bool {
        out.clear();
        let bytes = self.nodes[i as usize].key.packed();
        bytes.map(|bytes| packed::unpack(bytes, out)).is_some()
    }

    /// The value slot of position `i`.
    #[inline]
    pub fn value(&self, i: u32) -> u64 {
        self.nodes[i as usize].value
    }

    #[inline]
    pub fn set_value(&mut self, i: u32, value: u64) {
        self.nodes[i as usize].value = value;
    }

    /// Every position's value slot, by number.
    pub fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.nodes.iter().map(|n| n.value)
    }

    /// Forgets every value.
    pub fn forget_values(&mut self) {
        self.nodes.iter_mut().for_each(|n| n.value = super::UNKNOWN);
    }

    /// The arguments of position `i`.
    pub fn args(&self, i: u32) -> Cow<'_, [Value]> {
        self.nodes[i as usize].key.values()
    }

    /// The arguments of position `i` as integers, into `out`, if they all are.
    pub fn int_args(&self, i: u32, out: &mut Vec<i64>) -> bool {
        match &self.nodes[i as usize].key {
            Key::One(a) => out.push(*a),
            Key::Two(a, b) => out.extend([*a, *b]),
            key @ (Key::Short(..) | Key::Long(_)) => {
                // Unpacked in place, header first, with no run made apart.
                let start = out.len();
                packed::unpack(key.packed().expect("a flat run"), out);
                if flat::only_ints(&out[start..]).is_none() {
                    out.truncate(start);
                    return false;
                }
                out.remove(start);
            }
            Key::Values(values) => {
                for v in values.iter() {
                    let Value::Int(n) = v else { return false };
                    out.push(*n);
                }
            }
        }
        true
    }

    /// About how many bytes the positions take: each key with its value,
    /// its place in its table, and what a key holds apart.
    pub fn bytes(&self) -> usize {
        let heap: usize = self.nodes.iter().map(|n| n.key.heap_bytes()).sum();
        self.nodes.capacity() * size_of::<Node>()
            + self.index.capacity() * (size_of::<u32>() + 1)
            + self.ints.bytes()
            + self.negatives.capacity() * size_of::<u32>()
            + heap
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Position;

    #[test]
    fn negative_positions_are_numbered_apart_and_found_every_way() {
        let mut h = Hashed::default();
        // Near ones numbered in the array, one far below them hashed.
        let far = -(1i64 << 40);
        let made: Vec<(i64, u32)> = [-1, -3, far, -2, 5, -(1 << 19)]
            .into_iter()
            .map(|a| (a, h.insert_ints(&[a])))
            .collect();
        assert_eq!(h.ints.len(), 2, "the far one and 5 are hashed");
        for (a, i) in &made {
            assert_eq!(h.find_ints(&[*a]), Some(*i), "{a}");
            assert_eq!(h.find(&[Value::Int(*a)]), Some(*i), "{a}");
            assert_eq!(h.intern_ints(&[*a], true), Some((*i, false)), "{a}");
            assert_eq!(&*h.args(*i), &[Value::Int(*a)][..]);
        }
        for a in [-4, -(1 << 19) - 1, far + 1, i64::MIN] {
            assert_eq!(h.find_ints(&[a]), None, "{a}");
            assert_eq!(h.intern_ints(&[a], false), None, "{a}");
        }
        // Added by intern_ints, in the array where it reaches.
        let (i, added) = h.intern_ints(&[-4], true).unwrap();
        assert!(added);
        assert_eq!((h.find_ints(&[-4]), h.ints.len()), (Some(i), 2));
        let (j, _) = h.intern_ints(&[i64::MIN], true).unwrap();
        assert_eq!(
            (h.find(&[Value::Int(i64::MIN)]), h.ints.len()),
            (Some(j), 3)
        );
    }

    #[test]
    fn packed_and_shared_keys_find_their_positions() {
        let int = Value::Int;
        let list = Value::list(vec![int(1), int(2)]);
        let argss: Vec<Vec<Value>> = vec![
            vec![int(-1)],
            vec![int(1 << 40)],
            vec![int(-1), int(5)],
            vec![int(5), int(-1)],
            vec![list.clone()],
            vec![int(1), int(2), int(3)],
            vec![int(7), list],
        ];
        let mut h = Hashed::default();
        for (n, args) in argss.iter().enumerate() {
            assert_eq!(h.find(args), None, "{args:?} before it is added");
            assert_eq!(h.insert(args), n as u32);
        }
        for (n, args) in argss.iter().enumerate() {
            assert_eq!(h.find(args), Some(n as u32), "{args:?}");
            assert_eq!(&*h.args(n as u32), &args[..]);
        }
        assert_eq!(h.find(&[int(-2)]), None);
        assert_eq!(h.find_ints(&[-1, 5]), Some(2));
        assert_eq!(h.find_ints(&[1 << 40]), Some(1));
        assert_eq!(h.find_ints(&[5, 5]), None);
        let made = h.insert_ints(&[6, 6]);
        assert_eq!(h.find(&[int(6), int(6)]), Some(made));
        assert_eq!(h.find_ints(&[6, 6]), Some(made));
        assert_eq!(&*h.args(made), &[int(6), int(6)][..]);
        assert_eq!(h.find(&[int(5), int(5)]), None);
        // Found or added in one probe, with its value beside it.
        assert_eq!(h.intern_ints(&[6, 6], true), Some((made, false)));
        assert_eq!(h.intern_ints(&[9, 9], false), None);
        let nine = h.len() as u32;
        assert_eq!(h.intern_ints(&[9, 9], true), Some((nine, true)));
        assert_eq!(h.intern_ints(&[9, 9], true), Some((nine, false)));
        assert_eq!(h.intern_ints(&[-9], true), Some((nine + 1, true)));
        assert_eq!(h.find_ints(&[-9]), Some(nine + 1));
        assert_eq!(h.find(&[int(9), int(9)]), Some(nine));
        assert_eq!(h.value(nine), crate::graph::UNKNOWN);
        h.set_value(nine, 4);
        assert_eq!((h.value(nine), h.value(made)), (4, crate::graph::UNKNOWN));
        let mut out = Vec::new();
        assert!(h.int_args(2, &mut out) && out == [-1, 5]);
        out.clear();
        assert!(!h.int_args(4, &mut out));
        // The empty position is 0, as Value's equality says.
        let zero = h.insert(&[int(0), int(-3)]);
        let empty = Value::Pos(Position::empty());
        assert_eq!(h.find(&[empty, int(-3)]), Some(zero));
        assert_eq!(h.len(), 11);
        h.forget_values();
        assert!(h.values().all(|v| v == crate::graph::UNKNOWN));
    }

    #[test]
    fn list_positions_are_found_by_their_flat_run_and_by_their_values() {
        let int = Value::Int;
        let mut h = Hashed::default();
        let by_values = [int(2), Value::list(vec![int(3), int(1)])];
        let i = h.insert(&by_values);
        let mut run = Vec::new();
        assert!(flat::encode(&by_values, &mut run));
        assert_eq!(h.find_flat(&run), Some(i));
        let mut out = Vec::new();
        assert!(h.flat_args(i, &mut out) && out == run);
        // Made by its run, found by its values; a tuple is another position.
        let tuple = [Value::Tuple(vec![int(3), int(1)].into())];
        assert!(flat::encode(&tuple, &mut run));
        assert_eq!(h.find(&tuple), None);
        let j = h.insert_flat(&run);
        assert_eq!(h.find(&tuple), Some(j));
        assert_eq!(&*h.args(j), &tuple[..]);
        assert!(!h.int_args(j, &mut out));
    }

    #[test]
    fn short_runs_are_kept_in_the_key_and_long_ones_apart() {
        assert_eq!(size_of::<Key>(), 24, "a key and its value: 32 bytes");
        let int = Value::Int;
        let mut h = Hashed::default();
        // The header, the length and n items a byte each: 2 + 1 + n
        // bytes, up to n = 19 in the key, longer apart; items far apart
        // take more bytes each.
        let lists: Vec<Vec<Value>> = [19, 20, 300]
            .into_iter()
            .map(|n| vec![Value::list((0..n).map(int).collect())])
            .chain([vec![Value::list(vec![int(-1 << 40), int(i64::MIN)])]])
            .collect();
        for (n, args) in lists.iter().enumerate() {
            assert_eq!(h.insert(args), n as u32);
        }
        assert!(matches!(h.nodes[0].key, Key::Short(22, _)));
        assert!(matches!(h.nodes[1].key, Key::Long(_)));
        let mut run = Vec::new();
        for (n, args) in lists.iter().enumerate() {
            assert_eq!(h.find(args), Some(n as u32));
            assert_eq!(&*h.args(n as u32), &args[..]);
            assert!(flat::encode(args, &mut run));
            assert_eq!(h.find_flat(&run), Some(n as u32));
        }
        // Three integers are a flat run too, and come back as integers.
        let three = h.insert(&[int(1), int(-200), int(1 << 50)]);
        let mut out = Vec::new();
        assert!(h.int_args(three, &mut out) && out == [1, -200, 1 << 50]);
        assert_eq!(h.find_ints(&[1, -200]), None);
    }

    #[test]
    fn many_positions_keep_their_numbers_as_the_table_grows() {
        let mut h = Hashed::default();
        for n in 0..50_000i64 {
            h.insert(&[Value::Int(-n)]);
        }
        for n in (0..50_000i64).step_by(997) {
            assert_eq!(h.find(&[Value::Int(-n)]), Some(n as u32));
        }
        // A packed key and its value: 32 bytes, and its place in the table.
        assert!(h.bytes() < 50_000 * 48, "{}", h.bytes());
    }
}
