//! The dense half of the graph: positions of one, two or three small
//! non-negative integers, numbered by their arguments (Szudzik's pairing
//! for two, its extension to cube shells for three), with their values in
//! pages of 4-byte slots. The compiled rules read these tables directly.

use super::{ABSENT, IN_PROGRESS, UNKNOWN};
use crate::value::Value;
use rustc_hash::{FxHashMap, FxHashSet};

/// Node indices below this are dense: the index is the game's integer
/// argument itself, or the Szudzik number of its two arguments. Indices
/// from here on count the positions kept in a hash table.
pub const DENSE_END: u32 = 1 << 31;

const PAGE_BITS: u32 = 16;
const PAGE: usize = 1 << PAGE_BITS;

/// The dense index of a game's arguments, when they are one, two or
/// three non-negative integers small enough: `n`, Szudzik's pairing of
/// `(a, b)`, which numbers the pairs of the square `[0, m)²` by `[0, m²)`
/// so that a rectangle of positions fills a block of indices, or
/// [`dense3`] of `(a, b, c)`, which does the same for cubes.
/// The empty position is 0, as `Value`'s equality says (and the hashed
/// positions' keys).
pub fn dense_index(args: &[Value]) -> Option<u32> {
    let int = super::flat::int;
    match args {
        [n] => dense1(int(n)?),
        [a, b] => dense2(int(a)?, int(b)?),
        [a, b, c] => dense3(int(a)?, int(b)?, int(c)?),
        _ => None,
    }
}

/// [`dense_index`] of integer arguments.
#[inline]
pub fn int_index(args: &[i64]) -> Option<u32> {
    match args {
        [n] => dense1(*n),
        [a, b] => dense2(*a, *b),
        [a, b, c] => dense3(*a, *b, *c),
        _ => None,
    }
}

#[inline]
pub fn dense1(n: i64) -> Option<u32> {
    u32::try_from(n).ok().filter(|n| *n < DENSE_END)
}

/// Each argument of a dense pair is below this: 46340² < 2³¹, so every
/// pair of the square `[0, 46340)²` is dense.
pub const SIDE_MAX: i64 = 46_340;

#[inline]
pub fn dense2(a: i64, b: i64) -> Option<u32> {
    if !(0..SIDE_MAX).contains(&a) || !(0..SIDE_MAX).contains(&b) {
        return None;
    }
    let z = if a >= b { a * a + a + b } else { b * b + a };
    Some(z as u32)
}

/// Each argument of a dense triple is below this: 1290³ < 2³¹.
pub const SIDE3_MAX: i64 = 1290;

/// The dense index of `(a, b, c)`, each in `[0, SIDE3_MAX)`: the triples
/// of the cube `[0, m)³` numbered by `[0, m³)`, shell by shell (the
/// triples of largest argument `s` after those of the smaller ones), and
/// within a shell in the order of `(a, b, c)` read as a word. So lowering
/// any argument lowers the index, as Szudzik's pairing does for pairs:
/// a sweep by index meets a position after every one below it.
#[inline]
pub fn dense3(a: i64, b: i64, c: i64) -> Option<u32> {
    let inside = |x: i64| (0..SIDE3_MAX).contains(&x);
    if !inside(a) || !inside(b) || !inside(c) {
        return None;
    }
    let s = a.max(b).max(c);
    // Below `a = s`, each `a` holds the `2s + 1` pairs `(b, c)` of the
    // square shell `s` in word order: `(b, s)` for `b < s`, then `(s, c)`;
    // at `a = s`, the whole square `[0, s]²`.
    let within = if a < s {
        a * (2 * s + 1) + if b < s { b } else { s + c }
    } else {
        s * (2 * s + 1) + b * (s + 1) + c
    };
    Some((s * s * s + within) as u32)
}

/// [`dense3`] undone: the `(a, b, c)` of index `z`.
pub fn untriple(z: u32) -> (usize, usize, usize) {
    let z = z as u64;
    // The integer cube root, bit by bit (below 2¹¹ since z < 2³¹): a
    // floating-point `cbrt` is a slow library call.
    let mut s = 0u64;
    for bit in (0..11).rev() {
        let t = s | 1 << bit;
        if t * t * t <= z {
            s = t;
        }
    }
    let r = z - s * s * s;
    let lower = s * (2 * s + 1);
    let (a, b, c) = if r < lower {
        let (a, t) = (r / (2 * s + 1), r % (2 * s + 1));
        if t < s { (a, t, s) } else { (a, s, t - s) }
    } else {
        let r = r - lower;
        (s, r / (s + 1), r % (s + 1))
    };
    (a as usize, b as usize, c as usize)
}

/// The integers of a dense index of arity `arity`.
pub(super) fn index_ints(arity: usize, z: u32) -> Vec<i64> {
    match arity {
        1 => vec![z as i64],
        2 => {
            let (a, b) = unpair(z);
            vec![a as i64, b as i64]
        }
        _ => {
            let (a, b, c) = untriple(z);
            vec![a as i64, b as i64, c as i64]
        }
    }
}

/// The arguments of a dense index of arity `arity`.
pub(super) fn dense_args(arity: usize, z: u32) -> Vec<Value> {
    index_ints(arity, z).into_iter().map(Value::Int).collect()
}

/// The row of a triple `(a, b, _)` in its table: the Szudzik number of
/// `(a, b)`.
#[inline]
fn row3(a: usize, b: usize) -> usize {
    if a >= b { a * a + a + b } else { b * b + a }
}

/// The values of a game's dense positions, in pages allocated as indices
/// are reached: a chain of positions from the top down, or one far-out
/// position, costs only the pages it touches. A page grows by doubling up
/// to its full size, so a game with a handful of positions takes a
/// handful of slots. The positions `(a, b)` of a two-parameter game are
/// kept by rows instead, row `a` holding column `b`: their Szudzik index
/// names them, but a board is read a row at a time. Those of a
/// three-parameter game, `(a, b, c)`, are kept in row `(a, b)` (by its
/// Szudzik number), column `c`.
#[derive(Default)]
pub struct Dense {
    /// The number of arguments of the dense positions (1, 2 or 3), or 0
    /// while the game has none.
    pub(super) arity: usize,
    /// The pages (arity 1) or rows (arities 2 and 3), 4 bytes a slot: a nim-value
    /// below [`Dense::PLAIN`], or one of the `SLOT_` marks.
    pages: Vec<Vec<u32>>,
    /// The values too large for a slot (2³² - 4 and up), by slot index.
    spilled: FxHashMap<u32, u64>,
    pub(super) count: usize,
    pub(super) terminal: FxHashSet<u32>,
    /// The slots of all pages, used or not.
    slots: usize,
    /// Each page's address and length, kept beside `pages` for compiled
    /// rules, which read the slots directly (see [`View`]).
    addrs: Vec<usize>,
    lens: Vec<u32>,
    /// For a board swept by levels (see `runtime/sweep.rs`): which box and
    /// order (the sweep's key), the level below which every position of
    /// the box has its value, and the level below which its slots exist.
    pub(super) swept: Option<([i64; 6], i64, i64)>,
    /// The form of the list or tuple positions the table holds, if any
    /// (see `form.rs`): then its `arity` counts their free integers.
    pub(super) form: Option<super::form::Form>,
}

/// Where a game's dense slots are, for machine code to read: page (or
/// row) `p` starts at `pages[p]` and holds `lens[p]` slots, for `p` below
/// `count`. Valid until the table next changes shape: while the graph is
/// not written to.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub pages: usize,
    pub lens: usize,
    /// The pages positions of integers may be read from: 0 in a table of
    /// list positions (see `form.rs`), so that code reading integer
    /// targets checks nothing else.
    pub count: u64,
    /// The code of the table's form (`form::code`), or 0 for positions
    /// of integers.
    pub form: u64,
    /// The pages of a table of list positions, read where a target's
    /// form is the table's; 0 in a table of integers.
    pub form_count: u64,
}

impl View {
    /// A table without slots: every read finds none.
    pub const EMPTY: View = View {
        pages: 0,
        lens: 0,
        count: 0,
        form: 0,
        form_count: 0,
    };
}

/// Slots a table may hold whatever its number of positions (16 MiB).
const FREE_SLOTS: usize = 1 << 22;
/// Past them, at most this many slots per position held: positions
/// scattered over the dense range (the divide-by-2/3/6 game from 10^14)
/// would otherwise take a page each.
const SLOTS_PER_POSITION: usize = 8;

/// What a page (or row) costs beside its slots, in slots: its `Vec`, its
/// address and its length, 36 bytes.
const ROW_SLOTS: usize = 9;

const SLOT_UNKNOWN: u32 = u32::MAX;
const SLOT_IN_PROGRESS: u32 = u32::MAX - 1;
const SLOT_ABSENT: u32 = u32::MAX - 2;
/// The value is in [`Dense::spilled`].
const SLOT_SPILLED: u32 = u32::MAX - 3;

/// Which page (or row) and where in it slot `z` is, for positions of
/// `arity` arguments.
#[inline]
fn locate(arity: usize, z: u32) -> (usize, usize) {
    match arity {
        2 => unpair(z),
        3 => locate3(z),
        _ => ((z >> PAGE_BITS) as usize, z as usize & (PAGE - 1)),
    }
}

/// [`locate`] of a triple, out of line: the one-integer case is inlined
/// in the search's hottest loops.
#[inline(never)]
fn locate3(z: u32) -> (usize, usize) {
    let (a, b, c) = untriple(z);
    (row3(a, b), c)
}

/// Where the position of integer arguments `ints`, of dense index `z`, is
/// in a table of `arity`: a pair or a triple by its arguments, with no
/// pairing to undo.
#[inline]
fn place(arity: usize, z: u32, ints: &[i64]) -> (usize, usize) {
    match (arity, ints) {
        (2, [a, b]) => (*a as usize, *b as usize),
        (3, [a, b, c]) => (row3(*a as usize, *b as usize), *c as usize),
        _ => locate(arity, z),
    }
}

/// Szudzik's pairing undone: the `(a, b)` of index `z`.
pub fn unpair(z: u32) -> (usize, usize) {
    let z = z as u64;
    // The square root in floating point is exact enough: below 2³¹ every
    // integer is a double, the root is correctly rounded, and the root of
    // a square's predecessor, s - 1/(2s) and more, lies far more than an
    // ulp below s, so it truncates to s - 1 (the test tries every square's
    // neighbours).
    let s = (z as f64).sqrt() as u64;
    debug_assert!(s * s <= z && z < (s + 1) * (s + 1), "isqrt of {z}");
    let r = z - s * s;
    let (a, b) = if r < s { (r, s) } else { (s, r - s) };
    (a as usize, b as usize)
}

impl Dense {
    /// Which page (or row) and where in it slot `z` is.
    #[inline]
    fn locate(&self, z: u32) -> (usize, usize) {
        locate(self.arity, z)
    }

    /// The value in slot `z`: a nim-value, [`UNKNOWN`], [`IN_PROGRESS`] or
    /// [`ABSENT`].
    #[inline]
    pub fn get(&self, z: u32) -> u64 {
        let (p, i) = self.locate(z);
        self.at(p, i)
    }

    /// In a table of one-integer positions, the lowest `b <= z` such that
    /// no slot of `b..z` holds a value ([`UNKNOWN`] or [`ABSENT`] all):
    /// a page without slots is passed over whole, a page's slots are
    /// scanned as a slice.
    pub fn unvalued_below(&self, z: u32) -> u32 {
        debug_assert!(self.arity <= 1, "slots by page");
        let mut b = z;
        while b > 0 {
            let (p, i) = locate(1, b - 1);
            let page = self.pages.get(p).map_or(&[][..], Vec::as_slice);
            let held = &page[..(i + 1).min(page.len())];
            let valued = held
                .iter()
                .rposition(|s| !matches!(*s, SLOT_UNKNOWN | SLOT_ABSENT));
            let start = (p << PAGE_BITS) as u32;
            match valued {
                Some(j) => return start + j as u32 + 1,
                None => b = start,
            }
        }
        0
    }

    /// [`Dense::get`] of slot `z`, which holds the position of arguments
    /// `ints` (of the table's arity): a pair is read by row and column,
    /// with no pairing to undo.
    #[inline]
    pub fn get_ints(&self, z: u32, ints: &[i64]) -> u64 {
        let (p, i) = place(self.arity, z, ints);
        self.at(p, i)
    }

    /// The value of position `(a, b)` of a two-parameter game (both in
    /// the dense square), of `(a, b, c)` for `p` the Szudzik number of
    /// `(a, b)` and `i = c`, or of slot `p * PAGE + i` of a one-parameter
    /// one.
    #[inline]
    pub fn at(&self, p: usize, i: usize) -> u64 {
        let slot = match self.pages.get(p) {
            Some(page) => page.get(i).copied().unwrap_or(SLOT_ABSENT),
            None => SLOT_ABSENT,
        };
        match slot {
            v if v < Dense::PLAIN => v.into(),
            SLOT_ABSENT => ABSENT,
            _ => self.unusual(p, i, slot),
        }
    }

    #[cold]
    fn unusual(&self, p: usize, i: usize, slot: u32) -> u64 {
        match slot {
            SLOT_UNKNOWN => UNKNOWN,
            SLOT_IN_PROGRESS => IN_PROGRESS,
            _ => self.spilled[&self.index(p, i)],
        }
    }

    /// The length page (or row) `p` grows to when place `i` is set.
    fn grown(i: usize) -> usize {
        (i + 1).next_power_of_two().clamp(16, PAGE)
    }

    /// Whether a position of `arity` arguments may take slot `z` here:
    /// when its page holds the slot already, or the slots stay within
    /// [`FREE_SLOTS`], or [`SLOTS_PER_POSITION`] per position. Otherwise
    /// the position is hashed. The pages (or rows) up to the slot's count
    /// too, [`ROW_SLOTS`] each: one far-out triple would otherwise make a
    /// million empty rows.
    pub(super) fn may_take(&self, arity: usize, z: u32) -> bool {
        if self.arity != 0 && self.arity != arity {
            return false;
        }
        let (p, i) = locate(arity, z);
        let len = self.pages.get(p).map_or(0, Vec::len);
        let rows = self.pages.len().max(p + 1) * ROW_SLOTS;
        let after = self.slots + rows + Dense::grown(i).saturating_sub(len);
        i < len || after <= FREE_SLOTS.max(SLOTS_PER_POSITION * (self.count + 1))
    }

    /// Page (or row) `p`, grown to hold place `i`.
    fn grow(&mut self, p: usize, i: usize) -> &mut Vec<u32> {
        if self.pages.len() <= p {
            self.pages.resize_with(p + 1, Vec::new);
            self.addrs.resize(p + 1, 0);
            self.lens.resize(p + 1, 0);
        }
        let page = &mut self.pages[p];
        if page.len() <= i {
            let len = Dense::grown(i);
            self.slots += len - page.len();
            page.resize(len, SLOT_ABSENT);
            self.addrs[p] = page.as_ptr() as usize;
            self.lens[p] = len as u32;
        }
        &mut self.pages[p]
    }

    /// Whether positions of `arity` integer arguments may be dense here:
    /// the table holds none yet, or ones of that arity.
    pub(super) fn fits(&self, arity: usize) -> bool {
        self.form.is_none() && (self.arity == 0 || self.arity == arity)
    }

    /// Makes the new position `z` of `arity` arguments, `ints` (or none,
    /// or any one of them for one argument), without a value yet, if the table
    /// may take it (see [`Dense::may_take`]); says whether it did. A
    /// search makes a position per step: a pair or a triple is placed by
    /// row and column, and a slot its page holds is written at once.
    #[inline]
    pub(super) fn take(&mut self, arity: usize, z: u32, ints: &[i64]) -> bool {
        if self.arity != 0 && self.arity != arity {
            return false;
        }
        let (p, i) = place(arity, z, ints);
        debug_assert_eq!((p, i), locate(arity, z));
        if let Some(slot) = self.pages.get_mut(p).and_then(|page| page.get_mut(i)) {
            *slot = SLOT_UNKNOWN;
        } else if self.may_take(arity, z) {
            self.grow(p, i)[i] = SLOT_UNKNOWN;
        } else {
            return false;
        }
        self.arity = arity;
        self.count += 1;
        true
    }

    /// Makes the absent slots of `from..to` (one-argument positions)
    /// unknown, a page at a time while the table may take a page's worth,
    /// and at most `most` of them. Returns where it stopped and how many
    /// it made.
    pub(super) fn claim(&mut self, from: u32, to: u32, most: usize) -> (u32, usize) {
        let (mut z, mut made) = (from, 0);
        while z < to {
            let (p, i) = locate(1, z);
            let end = to.min(((p + 1) << PAGE_BITS) as u32);
            if !self.may_take(1, end - 1) {
                break;
            }
            let last = (end - 1) as usize & (PAGE - 1);
            let page = self.grow(p, last);
            for slot in &mut page[i..=last] {
                if *slot == SLOT_ABSENT {
                    if made == most {
                        self.count += made;
                        return (z, made);
                    }
                    *slot = SLOT_UNKNOWN;
                    made += 1;
                }
                z += 1;
            }
        }
        self.count += made;
        (z, made)
    }

    /// Makes the absent slots of rows `a0..=a1`, columns `b0..=b1`
    /// (two-argument positions) unknown, if the table may take them all
    /// (see [`Dense::may_take`]) and they are at most `most`: how many it
    /// made.
    pub(super) fn claim_rect(
        &mut self,
        (a0, a1): (usize, usize),
        (b0, b1): (usize, usize),
        most: usize,
    ) -> Option<usize> {
        if !self.fits(2) || a0 > a1 || b0 > b1 {
            return None;
        }
        let row = |a: usize| self.pages.get(a).map_or(&[][..], Vec::as_slice);
        let grown: usize = (a0..=a1)
            .map(|a| Dense::grown(b1).saturating_sub(row(a).len()))
            .sum();
        let absent: usize = (a0..=a1)
            .map(|a| {
                (b0..=b1)
                    .filter(|b| row(a).get(*b).is_none_or(|s| *s == SLOT_ABSENT))
                    .count()
            })
            .sum();
        let most_slots = FREE_SLOTS.max(SLOTS_PER_POSITION * (self.count + absent));
        if absent > most || self.slots + grown > most_slots {
            return None;
        }
        for a in a0..=a1 {
            for slot in &mut self.grow(a, b1)[b0..=b1] {
                if *slot == SLOT_ABSENT {
                    *slot = SLOT_UNKNOWN;
                }
            }
        }
        self.arity = 2;
        self.count += absent;
        Some(absent)
    }

    /// Sets slot `z`. The search sets a slot two or three times per
    /// position (in progress, then its value), so a slot its page holds
    /// already, with no spilled value before or after, is written at once.
    #[inline]
    pub(super) fn set(&mut self, z: u32, value: u64) {
        let (p, i) = self.locate(z);
        let slot = Dense::slot_of(value);
        if slot != SLOT_SPILLED
            && let Some(old) = self.pages.get_mut(p).and_then(|page| page.get_mut(i))
            && *old != SLOT_SPILLED
        {
            *old = slot;
            return;
        }
        self.set_slow(z, (p, i), value, slot);
    }

    /// What slot `z` holds for `value`.
    #[inline]
    fn slot_of(value: u64) -> u32 {
        match value {
            UNKNOWN => SLOT_UNKNOWN,
            IN_PROGRESS => SLOT_IN_PROGRESS,
            ABSENT => SLOT_ABSENT,
            v => match u32::try_from(v) {
                Ok(v) if v < Dense::PLAIN => v,
                _ => SLOT_SPILLED,
            },
        }
    }

    /// [`Dense::set`] of a slot past its page's end, or a spilled value.
    #[inline(never)]
    fn set_slow(&mut self, z: u32, (p, i): (usize, usize), value: u64, slot: u32) {
        let page = self.grow(p, i);
        let old = std::mem::replace(&mut page[i], slot);
        if old == SLOT_SPILLED {
            self.spilled.remove(&z);
        }
        if slot == SLOT_SPILLED {
            self.spilled.insert(z, value);
        }
    }

    /// The slot index of page (or row) `p`, place `i`.
    fn index(&self, p: usize, i: usize) -> u32 {
        match self.arity {
            2 => dense2(p as i64, i as i64).expect("rows hold dense pairs"),
            3 => {
                let (a, b) = unpair(p as u32);
                dense3(a as i64, b as i64, i as i64).expect("rows hold dense triples")
            }
            _ => ((p << PAGE_BITS) + i) as u32,
        }
    }

    /// The number of integer arguments of the positions held: 0 for a
    /// table of list or tuple positions (see [`Dense::free`]), which the
    /// compiled rules do not read as integers.
    pub fn arity(&self) -> usize {
        match self.form {
            Some(_) => 0,
            None => self.arity,
        }
    }

    /// Whether the table holds list or tuple positions (see `form.rs`).
    pub fn is_formed(&self) -> bool {
        self.form.is_some()
    }

    /// The number of integers that index the table's positions: their
    /// arguments, or the free integers of their form.
    pub fn free(&self) -> usize {
        self.arity
    }

    /// Where the slots are, for compiled rules to read.
    pub fn view(&self) -> View {
        let (count, form) = (self.addrs.len() as u64, self.form.as_ref());
        View {
            pages: self.addrs.as_ptr() as usize,
            lens: self.lens.as_ptr() as usize,
            count: if form.is_some() { 0 } else { count },
            form: form.map_or(0, super::form::Form::code),
            form_count: if form.is_some() { count } else { 0 },
        }
    }

    /// The number of slots of a full page.
    pub const PAGE: usize = PAGE;

    /// Slots below this hold their nim-value; the others are read with
    /// [`Dense::get`].
    pub const PLAIN: u32 = SLOT_SPILLED;

    /// Row `a` of a two-parameter game's table: the slots of `(a, b)` for
    /// `b` from 0 on, as far as any is known.
    pub fn row(&self, a: usize) -> &[u32] {
        self.pages.get(a).map_or(&[], Vec::as_slice)
    }

    /// The page holding slot `z` (as far as it is allocated: slots past
    /// its end are absent) and `z`'s offset in it.
    #[inline]
    pub fn page_of(&self, z: u32) -> (&[u32], usize) {
        let page = self.pages.get((z >> PAGE_BITS) as usize);
        (page.map_or(&[], Vec::as_slice), z as usize & (PAGE - 1))
    }

    pub(super) fn slots(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let mut slots: Vec<(u32, u64)> = self
            .pages
            .iter()
            .enumerate()
            .flat_map(|(p, page)| {
                page.iter()
                    .enumerate()
                    .filter(|(_, v)| **v != SLOT_ABSENT)
                    .map(move |(i, _)| (self.index(p, i), self.at(p, i)))
            })
            .collect();
        slots.sort_unstable();
        slots.into_iter()
    }

    pub(super) fn forget_values(&mut self) {
        for page in &mut self.pages {
            page.iter_mut()
                .filter(|v| **v != SLOT_ABSENT)
                .for_each(|v| *v = SLOT_UNKNOWN);
        }
        self.spilled.clear();
        self.terminal.clear();
        self.swept = None;
    }

    pub(super) fn bytes(&self) -> usize {
        let slots: usize = self.pages.iter().map(Vec::capacity).sum();
        self.pages.capacity() * size_of::<Vec<u32>>()
            + slots * size_of::<u32>()
            + self.spilled.capacity() * (size_of::<(u32, u64)>() + 1)
            + self.terminal.len() * (size_of::<u32>() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claiming_makes_the_absent_slots_unknown_and_counts_them() {
        let mut dense = Dense {
            arity: 1,
            ..Dense::default()
        };
        dense.set(70_001, 5);
        dense.count = 1;
        // Across a page boundary, past a slot with a value.
        assert_eq!(dense.claim(65_530, 70_010, usize::MAX), (70_010, 4479));
        assert_eq!(
            (dense.count, dense.get(70_001), dense.get(65_535)),
            (4480, 5, UNKNOWN)
        );
        assert_eq!((dense.get(65_529), dense.get(70_010)), (ABSENT, ABSENT));
        // At most `most` made: it stops at the first slot past them.
        assert_eq!(dense.claim(0, 100, 10), (10, 10));
        assert_eq!(
            (dense.get(9), dense.get(10), dense.count),
            (UNKNOWN, ABSENT, 4490)
        );
        let view = dense.view();
        assert_eq!(view.count, 2, "two pages");
    }

    #[test]
    fn the_unvalued_run_below_a_slot_passes_over_pages_and_stops_at_a_value() {
        let mut dense = Dense {
            arity: 1,
            ..Dense::default()
        };
        let slow = |dense: &Dense, z: u32| {
            let mut b = z;
            while b > 0 && matches!(dense.get(b - 1), UNKNOWN | ABSENT) {
                b -= 1;
            }
            b
        };
        // No pages at all; then a value in page 0, slots claimed across
        // pages 1 and 2, a page 3 without slots, and one in progress.
        assert_eq!(dense.unvalued_below(300_000), 0);
        dense.set(1_000, 3);
        dense.claim(65_000, 140_000, usize::MAX);
        dense.set(150_000, IN_PROGRESS);
        dense.set(66_000, 0);
        dense.set(262_200, 1);
        for z in [
            0, 1, 999, 1_000, 1_001, 1_002, 65_536, 66_000, 66_001, 66_002, 131_072, 140_001,
            150_000, 150_001, 196_608, 262_144, 262_200, 262_201, 262_202, 300_000,
        ] {
            assert_eq!(dense.unvalued_below(z), slow(&dense, z), "below {z}");
        }
        assert_eq!(dense.unvalued_below(140_000), 66_001);
        assert_eq!(dense.unvalued_below(66_000), 1_001);
    }

    #[test]
    fn taking_a_position_makes_it_unknown_once_of_one_arity() {
        let mut dense = Dense::default();
        let (a, b) = (300, 7);
        let z = dense2(a, b).unwrap();
        assert!(dense.take(2, z, &[a, b]));
        let w = dense2(7, 300).unwrap();
        assert!(dense.take(2, w, &[]), "placed by unpairing");
        assert_eq!(
            (dense.get(z), dense.get(w), dense.count),
            (UNKNOWN, UNKNOWN, 2)
        );
        assert_eq!((dense.at(300, 7), dense.at(7, 300)), (UNKNOWN, UNKNOWN));
        assert!(!dense.take(1, 5, &[]), "a table holds one arity");
        // Set and read back through either place.
        dense.set(z, 4);
        assert_eq!(dense.get_ints(z, &[a, b]), 4);
        assert_eq!(dense.get_ints(w, &[7, 300]), UNKNOWN);
    }

    #[test]
    fn unpairing_undoes_the_pairing() {
        let ends = (0..46_340).step_by(997).chain(46_330..46_340);
        for a in ends.clone() {
            for b in ends.clone() {
                let z = dense2(a, b).unwrap();
                assert_eq!(unpair(z), (a as usize, b as usize));
                // The indices on either side of a square's.
                for z in [z.saturating_sub(1), z + 1]
                    .into_iter()
                    .filter(|z| *z < 46_340 * 46_340)
                {
                    let (a, b) = unpair(z);
                    assert_eq!(dense2(a as i64, b as i64), Some(z));
                }
            }
        }
        // Every square and its predecessor: the floating-point root
        // needs no correction.
        for s in 1..46_340u32 {
            for z in [s * s - 1, s * s] {
                let (a, b) = unpair(z);
                assert_eq!(dense2(a as i64, b as i64), Some(z));
            }
        }
    }

    #[test]
    fn tripling_numbers_each_cube_by_its_indices_and_is_undone() {
        // Every triple of the cube [0, 20)³ takes an index below 20³, each
        // once, and lowering any argument lowers the index.
        let m = 20;
        let mut seen = vec![false; (m * m * m) as usize];
        for (a, b, c) in
            (0..m).flat_map(|a| (0..m).flat_map(move |b| (0..m).map(move |c| (a, b, c))))
        {
            let z = dense3(a, b, c).unwrap();
            assert!(!std::mem::replace(&mut seen[z as usize], true), "{z} twice");
            assert_eq!(untriple(z), (a as usize, b as usize, c as usize));
            for lower in [(a - 1, b, c), (a, b - 1, c), (a, b, c - 1)] {
                if let Some(y) = dense3(lower.0, lower.1, lower.2) {
                    assert!(y < z, "{lower:?} after {:?}", (a, b, c));
                }
            }
        }
        assert!(seen.iter().all(|s| *s));
        // The corners of the largest cube, and the cubes' neighbours.
        let top = SIDE3_MAX - 1;
        let z = dense3(top, top, top).unwrap();
        assert!(z < DENSE_END);
        assert_eq!(untriple(z), (top as usize, top as usize, top as usize));
        for s in [1u32, 2, 77, 1000, 1289] {
            for z in [s * s * s - 1, s * s * s, s * s * s + 1] {
                let (a, b, c) = untriple(z);
                assert_eq!(dense3(a as i64, b as i64, c as i64), Some(z));
            }
        }
        assert_eq!(dense3(SIDE3_MAX, 0, 0), None);
        assert_eq!(dense3(0, -1, 0), None);
    }

    #[test]
    fn a_triple_is_placed_by_its_arguments_or_its_index() {
        let mut dense = Dense::default();
        let (a, b, c) = (40, 3, 17);
        let z = dense3(a, b, c).unwrap();
        assert!(dense.take(3, z, &[a, b, c]));
        let w = dense3(3, 40, 17).unwrap();
        assert!(dense.take(3, w, &[]), "placed by untripling");
        dense.set(z, 6);
        assert_eq!((dense.get(z), dense.get_ints(z, &[a, b, c])), (6, 6));
        assert_eq!(dense.get_ints(w, &[3, 40, 17]), UNKNOWN);
        assert!(!dense.take(2, 5, &[]), "a table holds one arity");
        let mut both = vec![(w, UNKNOWN), (z, 6)];
        both.sort_unstable();
        assert_eq!(dense.slots().collect::<Vec<_>>(), both);
    }

    #[test]
    fn a_dense_slot_holds_any_value_and_every_mark() {
        for arity in [1, 2] {
            let mut dense = Dense {
                arity,
                ..Dense::default()
            };
            let z = if arity == 1 {
                70_000
            } else {
                dense2(5, 9).unwrap()
            };
            assert_eq!(dense.get(z), ABSENT);
            let large = u64::from(Dense::PLAIN);
            for value in [
                0,
                7,
                large - 1,
                large,
                1 << 40,
                UNKNOWN,
                IN_PROGRESS,
                ABSENT,
                3,
            ] {
                dense.set(z, value);
                assert_eq!(dense.get(z), value, "arity {arity}");
            }
            assert!(
                dense.spilled.is_empty(),
                "a spilled value is dropped once replaced"
            );
            dense.set(z, 1 << 40);
            assert_eq!(dense.slots().collect::<Vec<_>>(), [(z, 1 << 40)]);
            dense.forget_values();
            assert_eq!((dense.get(z), dense.spilled.len()), (UNKNOWN, 0));
        }
    }
}
