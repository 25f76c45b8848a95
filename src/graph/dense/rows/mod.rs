//! The slots of a dense table, row by row (a page of a one-integer game
//! is a row too). A row of a few slots is carved from a block it shares
//! with others, so that a strip of a million rows of four slots (a heap
//! and the last move's size) takes a million carves of 16 bytes rather
//! than a million allocations of their own, each with its `Vec` and the
//! allocator's header. A long row has a block of its own.
//!
//! Blocks are never reallocated: a row's address, which machine code
//! reads (`View`), changes only when the row itself grows.
//!
//! A table's last rows, when many of one length are pushed at once, are
//! a [`Run`] instead: laid one after another, with no place, address or
//! length of their own.

/// The most slots of a shared block (64 KiB), as a run's.
const BLOCK: usize = run::RUN_BLOCK;
/// Rows longer than this have a block of their own.
const SHARED_MOST: usize = 1 << 4;
/// What a fresh slot holds.
use super::SLOT_ABSENT;
mod run;

pub use run::RUN_BLOCK;
use run::{RUN_FEWEST, Run};

/// Where a row is: its block (`NONE` for a row without slots) and its
/// first slot there.
#[derive(Clone, Copy)]
struct At {
    block: u32,
    start: u32,
}

const NONE: At = At {
    block: u32::MAX,
    start: 0,
};

#[derive(Default)]
pub(super) struct Rows {
    blocks: Vec<Box<[u32]>>,
    at: Vec<At>,
    /// Each row's address and length, for machine code (see `View`).
    pub(super) addrs: Vec<usize>,
    pub(super) lens: Vec<u32>,
    /// Carves left by rows that grew, by the power of two of their length.
    free: Vec<Vec<At>>,
    /// The shared block carved last, and its first slot not carved.
    tail: Option<At>,
    /// How many rows each block holds.
    live: Vec<u32>,
    /// The slots of every block, carved or not, and of the shared ones.
    held: usize,
    shared: usize,
    /// The last rows, when they are a run: then `at`, `addrs` and `lens`
    /// are the rows before it.
    run: Option<Run>,
}

impl Rows {
    /// The number of rows, with or without slots.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.at.len() + self.run.as_ref().map_or(0, |r| r.rows)
    }

    /// The rows with a place, address and length of their own: all those
    /// before the run, if there is one.
    pub(super) fn apart(&self) -> usize {
        self.at.len()
    }

    /// The slots a row made past the last costs, beside its own: a run's
    /// length (its slots, absent, are made with it), else a row's place,
    /// address and length, `apart` slots' worth.
    pub(super) fn new_row_slots(&self, apart: usize) -> usize {
        self.run.as_ref().map_or(apart, |r| r.width().max(apart))
    }

    /// What `made` new rows of `len` slots cost, in slots, pushed as
    /// [`Rows::push`] pushes them: a run's rows their slots alone (at
    /// least the run's width), others each also `apart` slots' worth
    /// (its place, address and length).
    pub(super) fn new_rows_cost(&self, made: usize, len: usize, run: bool, apart: usize) -> usize {
        let per_row = match &self.run {
            Some(r) if len <= r.width() => r.width(),
            Some(_) => len + apart,
            None if run
                && made >= RUN_FEWEST
                && (1..=SHARED_MOST).contains(&len)
                && len.is_power_of_two() =>
            {
                len
            }
            None => len + apart,
        };
        made * per_row
    }

    /// Row `p`'s length, in slots.
    pub(super) fn row_len(&self, p: usize) -> usize {
        match self.lens.get(p) {
            Some(len) => *len as usize,
            None => self.run_place(p).map_or(0, |(_, _, len)| len),
        }
    }

    /// Row `p`'s slots (none past the last row).
    #[inline]
    pub(super) fn get(&self, p: usize) -> &[u32] {
        match self.at.get(p) {
            Some(at) => match self.blocks.get(at.block as usize) {
                Some(block) => {
                    let start = at.start as usize;
                    &block[start..start + self.lens[p] as usize]
                }
                None => &[],
            },
            None => match self.run_place(p) {
                Some((block, start, len)) => &self.blocks[block][start..start + len],
                None => &[],
            },
        }
    }

    /// Row `p`'s slots, to write.
    #[inline]
    pub(super) fn get_mut(&mut self, p: usize) -> &mut [u32] {
        match self.at.get(p) {
            Some(at) => match self.blocks.get_mut(at.block as usize) {
                Some(block) => {
                    let start = at.start as usize;
                    &mut block[start..start + self.lens[p] as usize]
                }
                None => &mut [],
            },
            None => match self.run_place(p) {
                Some((block, start, len)) => &mut self.blocks[block][start..start + len],
                None => &mut [],
            },
        }
    }

    /// Every row's slots, to write.
    pub(super) fn each_mut(&mut self, mut f: impl FnMut(&mut [u32])) {
        for p in 0..self.len() {
            f(self.get_mut(p));
        }
    }

    /// `f` of the slots `cols` of each row of `rows` that holds them all
    /// (rows without them are passed over): one pass over the rows' places
    /// and lengths, for a strip's million rows of four slots.
    pub(super) fn span_mut(
        &mut self,
        rows: std::ops::Range<usize>,
        cols: std::ops::RangeInclusive<usize>,
        mut f: impl FnMut(&mut [u32]),
    ) {
        let (c0, c1) = (*cols.start(), *cols.end());
        let apart = rows.start.min(self.apart())..rows.end.min(self.apart());
        if let (Some(at), Some(lens)) = (self.at.get(apart.clone()), self.lens.get(apart)) {
            for (at, &len) in at.iter().zip(lens) {
                if c1 < len as usize
                    && let Some(block) = self.blocks.get_mut(at.block as usize)
                {
                    let start = at.start as usize;
                    f(&mut block[start + c0..=start + c1]);
                }
            }
        }
        let Some(run) = &self.run else { return };
        if c1 >= run.width() {
            return;
        }
        for p in rows.start.max(run.first)..rows.end.min(run.end()) {
            let (block, start) = run.place(p).expect("a row of the run");
            f(&mut self.blocks[block][start + c0..=start + c1]);
        }
    }

    /// Room for `rows` rows in all, made at once.
    pub(super) fn reserve(&mut self, rows: usize) {
        if self.run.is_some() {
            return;
        }
        let more = rows.saturating_sub(self.len());
        self.at.reserve(more);
        self.addrs.reserve(more);
        self.lens.reserve(more);
    }

    /// New rows up to `to` (exclusive), each of `len` slots (a power of
    /// two, or none) that hold `fill`: what the table gained, in slots. A
    /// strip makes a million rows this way, each carved with no other
    /// work, and a run of them filled at once; as a [`Run`] where `run`
    /// and they are many and short, or the last rows are a run already
    /// of that length.
    pub(super) fn push(&mut self, to: usize, len: usize, fill: u32, run: bool) -> usize {
        let made = to.saturating_sub(self.len());
        if made == 0 {
            return 0;
        }
        if let Some(run) = &self.run {
            // A shorter row (or one without slots) is one of the run's,
            // its slots past `len` absent; a longer one ends it.
            match len <= run.width() {
                true => return self.extend_run(to, (fill, len)),
                false => self.end_run(),
            }
        }
        if run && made >= RUN_FEWEST && (1..=SHARED_MOST).contains(&len) && len.is_power_of_two() {
            self.run = Some(Run::new(self.len(), len));
            return self.extend_run(to, (fill, len));
        }
        self.reserve(to);
        let mut left = made;
        while left > 0 {
            left -= match self.push_run(left, len, fill) {
                0 => self.push_one(len, fill),
                run => run,
            };
        }
        made * len
    }

    /// One new row of `len` slots holding `fill`, carved as
    /// [`Rows::carve`] carves: 1.
    fn push_one(&mut self, len: usize, fill: u32) -> usize {
        let (at, addr) = match len {
            0 => (NONE, 0),
            _ => {
                let at = self.carve(len, true);
                let block = &mut self.blocks[at.block as usize];
                let slots = &mut block[at.start as usize..];
                // A carve's slots are absent already (see `place`).
                if fill != SLOT_ABSENT {
                    slots[..len].fill(fill);
                }
                (at, slots.as_ptr() as usize)
            }
        };
        self.addrs.push(addr);
        self.at.push(at);
        self.lens.push(len as u32);
        1
    }

    /// Up to `most` new rows of `len` slots carved one after another from
    /// the shared block's end, as [`Rows::carve`] would carve them when
    /// no freed carve of their length is left: how many. A strip's
    /// million rows are made a block at a time.
    fn push_run(&mut self, most: usize, len: usize, fill: u32) -> usize {
        let class = len.trailing_zeros() as usize;
        let freed = self.free.get(class).is_some_and(|f| !f.is_empty());
        let Some(tail) = self
            .tail
            .filter(|_| (1..=SHARED_MOST).contains(&len) && !freed)
        else {
            return 0;
        };
        let block = &mut self.blocks[tail.block as usize];
        let start = tail.start as usize;
        let run = (block.len().saturating_sub(start) / len).min(most);
        // The block's end past its last carve is absent (`new_block`).
        if fill != SLOT_ABSENT {
            block[start..start + run * len].fill(fill);
        }
        let base = block[start..].as_ptr() as usize;
        for i in 0..run {
            self.at.push(At {
                start: (start + i * len) as u32,
                ..tail
            });
            self.addrs.push(base + i * len * size_of::<u32>());
        }
        self.lens.resize(self.lens.len() + run, len as u32);
        self.live[tail.block as usize] += run as u32;
        self.tail = Some(At {
            start: (start + run * len) as u32,
            ..tail
        });
        run
    }

    /// Row `p` grown to `len` slots (a power of two), the new ones
    /// absent, in a shared block if `share` (a row of pairs or triples)
    /// and it is short; rows up to `p` are made without slots. Returns
    /// the slots the table gained.
    pub(super) fn grow(&mut self, p: usize, len: usize, share: bool) -> usize {
        if let Some(run) = &self.run
            && p >= run.first
        {
            match len <= run.width() {
                // Rows up to `p` made in the run, as rows without slots
                // would be before it.
                true if p >= run.end() => return self.extend_run(p + 1, (SLOT_ABSENT, 0)),
                true => return 0,
                false => self.end_run(),
            }
        }
        if self.at.len() <= p {
            self.at.resize(p + 1, NONE);
            self.addrs.resize(p + 1, 0);
            self.lens.resize(p + 1, 0);
        }
        let old = self.lens[p] as usize;
        if old >= len {
            return 0;
        }
        debug_assert!(len.is_power_of_two());
        let (from, to) = (self.at[p], self.carve(len, share));
        if from.block != NONE.block {
            let (a, b) = (from.start as usize, to.start as usize);
            if from.block == to.block {
                self.blocks[to.block as usize].copy_within(a..a + old, b);
            } else {
                let [src, dst] = self
                    .blocks
                    .get_disjoint_mut([from.block as usize, to.block as usize])
                    .expect("a row moves to another block");
                dst[b..b + old].copy_from_slice(&src[a..a + old]);
            }
            self.release(from, old);
        }
        let block = &self.blocks[to.block as usize];
        self.addrs[p] = block[to.start as usize..].as_ptr() as usize;
        self.at[p] = to;
        self.lens[p] = len as u32;
        len - old
    }

    /// `len` absent slots, carved from a shared block (one left by a row
    /// that grew, or the last block's end, or a new block), or a block of
    /// their own for a long row.
    fn carve(&mut self, len: usize, share: bool) -> At {
        let at = self.place(len, share);
        self.live[at.block as usize] += 1;
        at
    }

    /// Where [`Rows::carve`] takes `len` slots from.
    fn place(&mut self, len: usize, share: bool) -> At {
        if len > SHARED_MOST || !share {
            return self.new_block(len);
        }
        let class = len.trailing_zeros() as usize;
        // Carves of blocks freed since are passed over.
        while let Some(at) = self.free.get_mut(class).and_then(Vec::pop) {
            let start = at.start as usize;
            if let Some(slots) = self.blocks[at.block as usize].get_mut(start..start + len) {
                slots.fill(SLOT_ABSENT);
                return at;
            }
        }
        match self.tail {
            Some(at) if at.start as usize + len <= self.blocks[at.block as usize].len() => {
                self.tail = Some(At {
                    start: at.start + len as u32,
                    ..at
                });
                at
            }
            _ => {
                // Blocks grow with the rows: a table of a few rows takes
                // a few slots.
                let at = self.new_block(self.shared.clamp(len, BLOCK));
                self.shared += self.blocks[at.block as usize].len();
                self.tail = Some(At {
                    start: len as u32,
                    ..at
                });
                at
            }
        }
    }

    fn new_block(&mut self, len: usize) -> At {
        self.blocks.push(vec![SLOT_ABSENT; len].into_boxed_slice());
        self.live.push(0);
        self.held += len;
        At {
            block: (self.blocks.len() - 1) as u32,
            start: 0,
        }
    }

    /// Gives back the `len` slots of a row that moved. A block none of
    /// whose rows is left is freed (unless more rows are to be carved
    /// from it): when every row of a strip grows, the blocks of the
    /// shorter rows go. Otherwise the carve is kept for the next row of
    /// its length.
    fn release(&mut self, at: At, len: usize) {
        let b = at.block as usize;
        self.live[b] -= 1;
        if self.live[b] == 0 && self.tail.is_none_or(|t| t.block != at.block) {
            self.held -= self.blocks[b].len();
            self.blocks[b] = Box::default();
            return;
        }
        let class = len.trailing_zeros() as usize;
        if self.free.len() <= class {
            self.free.resize_with(class + 1, Vec::new);
        }
        self.free[class].push(at);
    }

    #[cfg(test)]
    fn grow_shared(&mut self, p: usize, len: usize) -> usize {
        self.grow(p, len, true)
    }

    /// The memory the rows take, in bytes.
    pub(super) fn bytes(&self) -> usize {
        let free: usize = self.free.iter().map(Vec::capacity).sum();
        self.run.as_ref().map_or(0, Run::bytes)
            + self.held * size_of::<u32>()
            + self.blocks.capacity() * size_of::<Box<[u32]>>()
            + self.live.capacity() * size_of::<u32>()
            + self.at.capacity() * size_of::<At>()
            + self.addrs.capacity() * size_of::<usize>()
            + self.lens.capacity() * size_of::<u32>()
            + free * size_of::<At>()
    }
}

#[cfg(test)]
mod tests;
