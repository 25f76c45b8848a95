//! The last rows of a table, all of one length, laid one after another
//! in blocks of their own: a strip's million rows of a heap and a flag
//! (`heap(n, spent)`: two slots a row) or of a heap and the last move's
//! size (four). Made a row at a time by [`Rows`], each row
//! would also take its place, address and length, 20 bytes beside its 8
//! or 16 of slots; in a run, row `first + d` is found from `d` alone, and
//! the machine code reads it so (see [`crate::graph::View::run_pages`]).
//!
//! A run is the table's last rows. A row of another length pushed after
//! it, or a row of it that grows, ends it: its rows become rows of their
//! own where they are ([`Rows::end_run`]), so that no
//! address changes.

use super::{At, Rows, SLOT_ABSENT};

/// The slots of a run's block (64 KiB).
pub const RUN_BLOCK: usize = 1 << 14;

/// The fewest rows pushed at once that start a run: fewer are carved as
/// rows of their own, so that a small table takes no block of 64 KiB.
pub(super) const RUN_FEWEST: usize = 1 << 10;

pub(super) struct Run {
    /// The number of its first row.
    pub first: usize,
    /// Each row holds `1 << shift` slots.
    pub shift: u32,
    /// How many rows it holds.
    pub rows: usize,
    /// Its blocks in order, as numbered among the table's blocks, and
    /// their addresses, for the machine code.
    pub blocks: Vec<u32>,
    pub addrs: Vec<usize>,
}

impl Run {
    pub fn new(first: usize, len: usize) -> Run {
        debug_assert!(len.is_power_of_two() && len <= RUN_BLOCK);
        Run {
            first,
            shift: len.trailing_zeros(),
            rows: 0,
            blocks: Vec::new(),
            addrs: Vec::new(),
        }
    }

    /// The slots each row holds.
    pub fn width(&self) -> usize {
        1 << self.shift
    }

    /// The number past its last row.
    pub fn end(&self) -> usize {
        self.first + self.rows
    }

    /// Where row `p` is: the table's number of its block, and its first
    /// slot there; `None` for a row not in the run.
    #[inline]
    pub fn place(&self, p: usize) -> Option<(usize, usize)> {
        let d = p.checked_sub(self.first).filter(|d| *d < self.rows)?;
        let slot = d << self.shift;
        Some((self.blocks[slot / RUN_BLOCK] as usize, slot % RUN_BLOCK))
    }

    /// The slots of its blocks used: where its next row goes.
    pub fn used(&self) -> usize {
        self.rows << self.shift
    }

    /// The memory it takes beside its blocks, in bytes.
    pub fn bytes(&self) -> usize {
        self.blocks.capacity() * size_of::<u32>() + self.addrs.capacity() * size_of::<usize>()
    }
}

impl Rows {
    /// The run, for machine code: the addresses of its blocks, its rows'
    /// length's power of two, and its number of rows (all 0 for none).
    pub(in crate::graph::dense) fn run_view(&self) -> (usize, u64, u64) {
        match &self.run {
            Some(run) => (
                run.addrs.as_ptr() as usize,
                run.shift.into(),
                run.rows as u64,
            ),
            None => (0, 0, 0),
        }
    }

    /// Where row `p` of the run is: its block, first slot and length.
    #[inline]
    pub(super) fn run_place(&self, p: usize) -> Option<(usize, usize, usize)> {
        let run = self.run.as_ref()?;
        let (block, start) = run.place(p)?;
        Some((block, start, run.width()))
    }

    /// The run's rows made up to `to` (exclusive), in new blocks of its
    /// own as it needs them, the first `cols` slots of each holding
    /// `fill` and the others absent: the slots the table gained.
    pub(super) fn extend_run(&mut self, to: usize, (fill, cols): (u32, usize)) -> usize {
        let Some(mut run) = self.run.take() else {
            return 0;
        };
        let before = run.rows;
        while run.end() < to {
            let used = run.used() % RUN_BLOCK;
            if used == 0 {
                let at = self.new_block(RUN_BLOCK);
                run.blocks.push(at.block);
                run.addrs
                    .push(self.blocks[at.block as usize].as_ptr() as usize);
            }
            let block = *run.blocks.last().expect("a block") as usize;
            let rows = ((RUN_BLOCK - used) >> run.shift).min(to - run.end());
            // A block's slots past its rows are absent already.
            let slots = &mut self.blocks[block][used..used + (rows << run.shift)];
            let width = run.width();
            match fill != SLOT_ABSENT && cols > 0 {
                true if cols >= width => slots.fill(fill),
                true => slots
                    .chunks_exact_mut(width)
                    .for_each(|row| row[..cols].fill(fill)),
                false => {}
            }
            self.live[block] += rows as u32;
            run.rows += rows;
        }
        let gained = (run.rows - before) << run.shift;
        self.run = Some(run);
        gained
    }

    /// Ends the run: its rows become rows of their own, where they are.
    pub(super) fn end_run(&mut self) {
        let Some(run) = self.run.take() else { return };
        self.at.reserve(run.rows);
        self.addrs.reserve(run.rows);
        self.lens
            .resize(self.lens.len() + run.rows, run.width() as u32);
        for p in run.first..run.end() {
            let (block, start) = run.place(p).expect("a row of the run");
            let at = At {
                block: block as u32,
                start: start as u32,
            };
            self.at.push(at);
            self.addrs
                .push(self.blocks[block][start..].as_ptr() as usize);
        }
    }
}
