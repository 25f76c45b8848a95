//! The index of the hashed positions of one or two integers (a heap of
//! 10^15 divided by 2, 3 or 6), laid out for the machine code to probe
//! as well as Rust: a table of 8-byte slots, each a position's number
//! plus one in its low half (0: an empty slot, so that a new table is
//! the system's zeroed pages) and the high half of its hash (its tag)
//! in its high half. A probe goes on linearly from the slot the tag's
//! top bits name: those of a product, mixed from every bit of the key
//! (keys that differ only in their high bits would share the tag's low
//! bits). The machine code finds a position's value without leaving its
//! loop: the table's address and size, and the address of the positions
//! themselves, are kept in a [`Probe`] at a fixed address, which the
//! views of the compiled rules point to ([`crate::graph::View::hashed`]).
//!
//! A tag is kept whole, so a lookup compares a position's arguments only
//! where 32 bits of their hash agree, and the table grows without
//! hashing its keys again: a slot's place comes from its tag.

/// An empty slot.
pub const EMPTY: u64 = 0;

/// The multiplier of the hashes: odd, its bits mixed (the golden ratio's).
pub const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// How far [`hash_two`] turns the first integer's product before mixing
/// in the second.
pub const TURN: u32 = 26;

/// No empty slot: the table has none (see [`Ints::find_or_room`]).
const NO_ROOM: usize = usize::MAX;

/// The slots of an empty table, for the machine code to find nothing in.
static NONE: [u64; 1] = [EMPTY];

/// The hash of the one integer `a`: the product's top bits are mixed
/// from all of `a`'s, and the tag is the high half.
#[inline]
pub fn hash_one(a: i64) -> u64 {
    (a as u64).wrapping_mul(MIX)
}

/// The hash of the two integers `a` and `b`.
#[inline]
pub fn hash_two(a: i64, b: i64) -> u64 {
    (hash_one(a).rotate_left(TURN) ^ b as u64).wrapping_mul(MIX)
}

/// The slot of position `node`, whose hash is `hash`: the tag, and the
/// number plus one (see the module's doc).
fn slot(hash: u64, node: u32) -> u64 {
    debug_assert!(node < u32::MAX, "a slot holds the number plus one");
    (hash >> 32) << 32 | (u64::from(node) + 1)
}

/// What the machine code reads to probe the table (see the module's
/// doc): the slots' address, one less than their number, how far a tag
/// is shifted to name its first slot, and the address of the positions
/// (`Node`s), which a slot's number indexes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub slots: usize,
    pub mask: u64,
    pub shift: u64,
    pub nodes: usize,
}

impl Default for Probe {
    fn default() -> Probe {
        let (slots, mask, shift) = Ints::default().place();
        Probe {
            slots,
            mask,
            shift,
            nodes: 0,
        }
    }
}

/// The table itself.
#[derive(Default)]
pub struct Ints {
    slots: Vec<u64>,
    len: usize,
}

impl Ints {
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The slots, one less than their number, and the shift of a tag
    /// to its first slot, as [`Probe`] gives them.
    pub fn place(&self) -> (usize, u64, u64) {
        match self.slots.is_empty() {
            true => (NONE.as_ptr() as usize, 0, 32),
            false => (
                self.slots.as_ptr() as usize,
                self.slots.len() as u64 - 1,
                self.shift(),
            ),
        }
    }

    /// How far a tag is shifted to name its first slot: its top bits,
    /// as many as number the slots.
    fn shift(&self) -> u64 {
        32 - u64::from(self.slots.len().trailing_zeros())
    }

    /// The number of the position whose hash is `hash` and for which
    /// `same` holds, if there is one.
    #[inline]
    pub fn find(&self, hash: u64, same: impl Fn(u32) -> bool) -> Option<u32> {
        self.find_or_room(hash, same).ok()
    }

    /// [`Ints::find`], or where the position would go: the empty slot
    /// that ended the probe ([`NO_ROOM`] in a table with no slots), for
    /// [`Ints::insert_at`].
    #[inline]
    pub fn find_or_room(&self, hash: u64, same: impl Fn(u32) -> bool) -> Result<u32, usize> {
        if self.slots.is_empty() {
            return Err(NO_ROOM);
        }
        let tag = hash >> 32;
        let mask = self.slots.len() - 1;
        let mut at = (tag >> self.shift()) as usize;
        loop {
            let slot = self.slots[at];
            if slot == EMPTY {
                return Err(at);
            }
            let node = (slot as u32).wrapping_sub(1);
            if slot >> 32 == tag && same(node) {
                return Ok(node);
            }
            at = (at + 1) & mask;
        }
    }

    /// [`Ints::insert`] into `room`, where [`Ints::find_or_room`] found no
    /// such position just now: one probe for both, unless the table grows.
    pub fn insert_at(&mut self, room: usize, hash: u64, node: u32) {
        if room == NO_ROOM || self.must_grow() {
            return self.insert(hash, node);
        }
        self.slots[room] = slot(hash, node);
        self.len += 1;
    }

    /// Adds position `node`, whose hash is `hash` (the caller has checked
    /// it is new).
    pub fn insert(&mut self, hash: u64, node: u32) {
        if self.must_grow() {
            self.grow();
        }
        self.place_slot(slot(hash, node));
        self.len += 1;
    }

    /// Whether one more position would fill the table past three
    /// quarters: a miss then looks at about 8.5 slots on average, a find
    /// at 2.5, all in a line or two.
    fn must_grow(&self) -> bool {
        4 * (self.len + 1) > 3 * self.slots.len()
    }

    fn place_slot(&mut self, slot: u64) {
        let mask = self.slots.len() - 1;
        let mut at = (slot >> 32 >> self.shift()) as usize;
        while self.slots[at] != EMPTY {
            at = (at + 1) & mask;
        }
        self.slots[at] = slot;
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(16);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
        for slot in old.into_iter().filter(|s| *s != EMPTY) {
            self.place_slot(slot);
        }
    }

    /// The bytes the slots take.
    pub fn bytes(&self) -> usize {
        self.slots.capacity() * size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_found_by_hash_and_key_as_the_table_grows() {
        let mut t = Ints::default();
        assert_eq!(t.place().1, 0, "an empty table is one empty slot");
        assert_eq!(t.find(hash_one(5), |_| true), None);
        // Keys 10^15 + 7k and a few whose tags collide on purpose.
        let keys: Vec<i64> = (0..5000).map(|k| 1_000_000_000_000_000 + 7 * k).collect();
        for (n, k) in keys.iter().enumerate() {
            t.insert(hash_one(*k), n as u32);
        }
        assert_eq!(t.len(), keys.len());
        let (_, mask, _) = t.place();
        assert!(
            (mask + 1) as usize * 3 >= 4 * keys.len(),
            "at most 3/4 full"
        );
        for (n, k) in keys.iter().enumerate() {
            let found = t.find(hash_one(*k), |i| keys[i as usize] == *k);
            assert_eq!(found, Some(n as u32), "{k}");
        }
        assert_eq!(t.find(hash_one(3), |i| keys[i as usize] == 3), None);
        // Same hash, another key: the key decides.
        let mut u = Ints::default();
        u.insert(42 << 32, 0);
        u.insert(42 << 32, 1);
        assert_eq!(u.find(42 << 32, |i| i == 1), Some(1));
        assert_eq!(u.find(42 << 32, |_| false), None);
        // Found, or added where the probe ended.
        let room = u.find_or_room(7 << 32, |_| false).unwrap_err();
        u.insert_at(room, 7 << 32, 2);
        assert_eq!(u.find_or_room(7 << 32, |i| i == 2), Ok(2));
        // Added where a probe ended, when the table must grow first: the
        // room found is not used, and every key is still found.
        let mut full = Ints::default();
        for k in 0..12 {
            full.insert(hash_one(k), k as u32);
        }
        assert_eq!(full.place().1, 15, "16 slots, 12 of them full");
        let room = full.find_or_room(hash_one(12), |_| false).unwrap_err();
        full.insert_at(room, hash_one(12), 12);
        assert_eq!(full.place().1, 31, "grown to 32");
        for k in 0..13 {
            assert_eq!(full.find(hash_one(k), |i| i == k as u32), Some(k as u32));
        }
        let mut empty = Ints::default();
        let room = empty.find_or_room(7 << 32, |_| true).unwrap_err();
        empty.insert_at(room, 7 << 32, 0);
        assert_eq!(empty.find(7 << 32, |i| i == 0), Some(0));
        assert_ne!(hash_two(1, 2), hash_two(2, 1));
        // Keys apart only in their high bits start at slots far apart.
        let mut high = Ints::default();
        let keys: Vec<i64> = (0..1000).map(|k| k << 48).collect();
        for (n, k) in keys.iter().enumerate() {
            high.insert(hash_one(*k), n as u32);
        }
        let firsts: std::collections::HashSet<u64> = keys
            .iter()
            .map(|k| hash_one(*k) >> 32 >> high.shift())
            .collect();
        assert!(firsts.len() > 500, "{} first slots", firsts.len());
    }
}
