//! The dense half of the graph: positions of one, two or three small
//! non-negative integers, numbered by their arguments (`index.rs`:
//! Szudzik's pairing for two, its extension to cube shells for three),
//! with their values in pages of 4-byte slots. The compiled rules read
//! these tables directly.

use super::index::{dense2, dense3, unpair, untriple};
use super::index::{quad_index, quad_place};
use super::{ABSENT, IN_PROGRESS, UNKNOWN};
use places::{place3, unplace3};

/// A page of slots of a one-integer game: 2^16 of them.
const PAGE_BITS: u32 = 16;
const PAGE: usize = 1 << PAGE_BITS;
use rustc_hash::{FxHashMap, FxHashSet};

/// The values of a game's dense positions, in pages allocated as indices
/// are reached: a chain of positions from the top down, or one far-out
/// position, costs only the pages it touches. A page grows by doubling up
/// to its full size, so a game with a handful of positions takes a
/// handful of slots. The positions `(a, b)` of a two-parameter game are
/// kept by rows instead, row `a` holding column `b`: their Szudzik index
/// names them, but a board is read a row at a time. Those of a
/// three-parameter game, `(a, b, c)`, are kept as [`place3`] says: in
/// the cube, in row `(b, c)` (by its Szudzik number), column `a`; in a
/// strip, in the strip's row, by the long argument.
#[derive(Default)]
pub struct Dense {
    /// The number of arguments of the dense positions (1, 2 or 3), or 0
    /// while the game has none.
    pub(super) arity: usize,
    /// The pages (arity 1) or rows (arities 2 and 3), 4 bytes a slot: a nim-value
    /// below [`Dense::PLAIN`], or one of the `SLOT_` marks.
    pages: rows::Rows,
    /// The values too large for a slot (2³² - 4 and up), by slot index.
    spilled: FxHashMap<u32, u64>,
    pub(super) count: usize,
    pub(super) terminal: FxHashSet<u32>,
    /// The slots of all pages, used or not.
    slots: usize,
    /// For a board swept by levels (see `runtime/sweep/mod.rs`): which box and
    /// order (the sweep's key), the level below which every position of
    /// the box has its value, and the level below which its slots exist.
    pub(super) swept: Option<([i64; 6], i64, i64)>,
    /// The form of the list or tuple positions the table holds, if any
    /// (see `form.rs`): then its `arity` counts their free integers.
    pub(super) form: Option<super::form::Form>,
    /// For triples: which argument the cube's columns are along (see
    /// `places::place3`), and whether the table has turned to it already
    /// (`triples.rs`).
    axis: usize,
    turned: bool,
    /// The triple last located, `(z, p, i)`: a search asks a position's
    /// value, marks it in progress and sets its value, three times the
    /// cube root of [`untriple`] otherwise (a tenth of an ask's work in
    /// a query over every square of a cube).
    located: std::cell::Cell<Option<(u32, u32, u32)>>,
}

/// Slots a table may hold whatever its number of positions (16 MiB).
const FREE_SLOTS: usize = 1 << 22;
/// Past them, at most this many slots per position held: positions
/// scattered over the dense range (the divide-by-2/3/6 game from 10^14)
/// would otherwise take a page each.
const SLOTS_PER_POSITION: usize = 8;

/// What a page (or row) costs beside its slots, in slots: where it is,
/// its address and its length, 20 bytes.
const ROW_SLOTS: usize = 5;

const SLOT_UNKNOWN: u32 = u32::MAX;
const SLOT_IN_PROGRESS: u32 = u32::MAX - 1;
const SLOT_ABSENT: u32 = u32::MAX - 2;
/// The value is in [`Dense::spilled`].
const SLOT_SPILLED: u32 = u32::MAX - 3;

/// Which page (or row) and where in it slot `z` is, for positions of
/// `arity` arguments (triples with their cube's columns along `axis`).
#[inline]
fn locate(arity: usize, axis: usize, z: u32) -> (usize, usize) {
    match arity {
        2 => unpair(z),
        3 => locate3(axis, z),
        4 => quad_place(z),
        _ => ((z >> PAGE_BITS) as usize, z as usize & (PAGE - 1)),
    }
}

/// [`locate`] of a triple, out of line: the one-integer case is inlined
/// in the search's hottest loops.
#[inline(never)]
fn locate3(axis: usize, z: u32) -> (usize, usize) {
    let (a, b, c) = untriple(z);
    place3(axis, [a, b, c])
}

/// Where the position of integer arguments `ints`, of dense index `z`, is
/// in a table of `arity`: a pair or a triple by its arguments, with no
/// pairing to undo.
#[inline]
fn place(arity: usize, axis: usize, z: u32, ints: &[i64]) -> (usize, usize) {
    match (arity, ints) {
        (2, [a, b]) => (*a as usize, *b as usize),
        (3, [a, b, c]) => place3(axis, [*a as usize, *b as usize, *c as usize]),
        _ => locate(arity, axis, z),
    }
}

impl Dense {
    /// Which page (or row) and where in it slot `z` is.
    #[inline]
    fn locate(&self, z: u32) -> (usize, usize) {
        if self.arity != 3 {
            return locate(self.arity, self.axis, z);
        }
        if let Some((last, p, i)) = self.located.get()
            && last == z
        {
            return (p as usize, i as usize);
        }
        let (p, i) = locate3(self.axis, z);
        self.located.set(Some((z, p as u32, i as u32)));
        (p, i)
    }

    /// The value in slot `z`: a nim-value, [`UNKNOWN`], [`IN_PROGRESS`] or
    /// [`ABSENT`].
    #[inline]
    pub fn get(&self, z: u32) -> u64 {
        let (p, i) = self.locate(z);
        self.at(p, i)
    }

    /// [`Dense::get`] of slot `z`, which holds the position of arguments
    /// `ints` (of the table's arity): a pair is read by row and column,
    /// with no pairing to undo.
    #[inline]
    pub fn get_ints(&self, z: u32, ints: &[i64]) -> u64 {
        let (p, i) = place(self.arity, self.axis, z, ints);
        self.at(p, i)
    }

    /// The value of position `(a, b)` of a two-parameter game (both in
    /// the dense square), of `(a, b, c)` at row `p` and column `i` (see
    /// `place3`), or of slot `p * PAGE + i` of a one-parameter one.
    #[inline]
    pub fn at(&self, p: usize, i: usize) -> u64 {
        let slot = self.pages.get(p).get(i).copied().unwrap_or(SLOT_ABSENT);
        match slot {
            v if v < Dense::PLAIN => v.into(),
            SLOT_ABSENT => ABSENT,
            _ => self.unusual(p, i, slot),
        }
    }

    #[cold]
    fn unusual(&self, p: usize, i: usize, slot: u32) -> u64 {
        Dense::code_value(slot).unwrap_or_else(|| self.spilled[&self.index(p, i)])
    }

    /// The length page (or row) `p` grows to when place `i` is set, in a
    /// table of `arity`: a page holds at most [`PAGE`] slots, a row as many
    /// as its pairs' columns reach (a strip's, past the square).
    fn grown(arity: usize, i: usize) -> usize {
        let len = (i + 1).next_power_of_two();
        match arity {
            1 => len.clamp(16, PAGE),
            // A strip's row of a few columns takes a few slots (two for
            // a boolean).
            _ => len.max(2),
        }
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
        let (p, i) = locate(arity, self.axis, z);
        let len = self.pages.get(p).len();
        let made = (p + 1).saturating_sub(self.pages.len());
        let rows = self.pages.len() * ROW_SLOTS + made * self.pages.new_row_slots(ROW_SLOTS);
        let after = self.slots + rows + Dense::grown(arity, i).saturating_sub(len);
        i < len || after <= FREE_SLOTS.max(SLOTS_PER_POSITION * (self.count + 1))
    }

    /// Page (or row) `p` of a table of `arity`, grown to hold place `i`.
    fn grow(&mut self, arity: usize, p: usize, i: usize) -> &mut [u32] {
        self.slots += self.pages.grow(p, Dense::grown(arity, i), arity > 1);
        self.pages.get_mut(p)
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
        let (mut p, mut i) = place(arity, self.axis, z, ints);
        debug_assert_eq!((p, i), locate(arity, self.axis, z));
        if let Some(slot) = self.pages.get_mut(p).get_mut(i) {
            *slot = SLOT_UNKNOWN;
        } else if self.may_take(arity, z) {
            self.grow(arity, p, i)[i] = SLOT_UNKNOWN;
        } else if arity == 3 && self.turn_cube(z) {
            (p, i) = self.locate(z);
            self.grow(arity, p, i)[i] = SLOT_UNKNOWN;
        } else {
            return false;
        }
        self.arity = arity;
        self.count += 1;
        true
    }

    /// Whether the position `z` of `arity` integer arguments `ints` is
    /// held, looked up and made in one placing: `false` when it was
    /// there already; `true` when it was not, `add` is set and its
    /// page (or row) holds its slot, which now has no value (no page is
    /// made or grown); `None` otherwise. With it, its slot, for the
    /// machine code's recursion to mark the position in progress and set
    /// its value there ([`Dense::slot_code`]) with no lookup each time.
    pub(super) fn hold(
        &mut self,
        arity: usize,
        z: u32,
        ints: &[i64],
        add: bool,
    ) -> Option<(bool, *mut u32)> {
        if self.arity != arity || self.form.is_some() {
            return None;
        }
        let (p, i) = place(arity, self.axis, z, ints);
        let slot = self.pages.get_mut(p).get_mut(i)?;
        if *slot != SLOT_ABSENT {
            return Some((false, slot));
        }
        if !add {
            return None;
        }
        *slot = SLOT_UNKNOWN;
        self.count += 1;
        Some((true, slot))
    }

    /// Sets slot `z`. The search sets a slot two or three times per
    /// position (in progress, then its value), so a slot its page holds
    /// already, with no spilled value before or after, is written at once.
    #[inline]
    pub(super) fn set(&mut self, z: u32, value: u64) {
        let (p, i) = self.locate(z);
        let slot = Dense::slot_of(value);
        if slot != SLOT_SPILLED
            && let Some(old) = self.pages.get_mut(p).get_mut(i)
            && *old != SLOT_SPILLED
        {
            *old = slot;
            return;
        }
        self.set_slow(z, (p, i), value, slot);
    }

    /// What a slot holds for `value` when the slot alone holds it: a plain
    /// value, [`UNKNOWN`] or [`IN_PROGRESS`]; `None` for a value too large
    /// for a slot (kept in [`Dense::spilled`] by [`Dense::set`]) or
    /// [`ABSENT`].
    pub fn slot_code(value: u64) -> Option<u32> {
        let slot = Dense::slot_of(value);
        (slot != SLOT_SPILLED && slot != SLOT_ABSENT).then_some(slot)
    }

    /// The value a slot holding `code` says, as [`Dense::at`] reads it:
    /// `None` for a value spilled out of the slot, or no position.
    pub fn code_value(code: u32) -> Option<u64> {
        match code {
            v if v < Dense::PLAIN => Some(v.into()),
            SLOT_UNKNOWN => Some(UNKNOWN),
            SLOT_IN_PROGRESS => Some(IN_PROGRESS),
            _ => None,
        }
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
        let page = self.grow(self.arity, p, i);
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
                let [a, b, c] = unplace3(self.axis, p, i);
                dense3(a as i64, b as i64, c as i64).expect("rows hold dense triples")
            }
            4 => quad_index(p, i),
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

    /// The number of slots of a full page.
    pub const PAGE: usize = PAGE;

    /// Slots below this hold their nim-value; the others are read with
    /// [`Dense::get`].
    pub const PLAIN: u32 = SLOT_SPILLED;

    /// Row `a` of a two-parameter game's table: the slots of `(a, b)` for
    /// `b` from 0 on, as far as any is known.
    pub fn row(&self, a: usize) -> &[u32] {
        self.pages.get(a)
    }

    /// The page holding slot `z` (as far as it is allocated: slots past
    /// its end are absent) and `z`'s offset in it.
    #[inline]
    pub fn page_of(&self, z: u32) -> (&[u32], usize) {
        let page = self.pages.get((z >> PAGE_BITS) as usize);
        (page, z as usize & (PAGE - 1))
    }

    pub(super) fn slots(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        let mut slots: Vec<(u32, u64)> = (0..self.pages.len())
            .flat_map(|p| {
                self.pages
                    .get(p)
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v != SLOT_ABSENT)
                    .map(move |(i, _)| (self.index(p, i), self.at(p, i)))
            })
            .collect();
        slots.sort_unstable();
        slots.into_iter()
    }

    pub(super) fn forget_values(&mut self) {
        self.pages.each_mut(|page| {
            page.iter_mut()
                .filter(|v| **v != SLOT_ABSENT)
                .for_each(|v| *v = SLOT_UNKNOWN);
        });
        self.spilled.clear();
        self.terminal.clear();
        self.swept = None;
    }

    /// How many of its rows are a run's.
    pub(super) fn rows_in_run(&self) -> usize {
        self.pages.len() - self.pages.apart()
    }

    pub(super) fn bytes(&self) -> usize {
        self.pages.bytes()
            + self.spilled.capacity() * (size_of::<(u32, u64)>() + 1)
            + self.terminal.len() * (size_of::<u32>() + 1)
    }
}

mod claims;
mod gaps;
pub(super) mod places;
mod rows;
pub use rows::RUN_BLOCK;
mod view;
pub use view::View;
#[cfg(test)]
mod tests;
mod triples;
