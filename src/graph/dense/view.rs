//! What the machine code reads of a dense table: its [`View`].

use super::{Dense, places};

/// Where a game's dense slots are, for machine code to read: page (or
/// row) `p` starts at `pages[p]` and holds `lens[p]` slots, for `p` below
/// `count`; row `count + d`, for `d` below `run_count`, is the run's (see
/// `run.rs`): it holds `1 << run_shift` slots, from slot `s % RUN_BLOCK`
/// of block `s / RUN_BLOCK` (at `run_pages`), where `s = d << run_shift`.
/// Valid until the table next changes shape: while the graph is not
/// written to.
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
    /// The address of the [`crate::graph::Probe`] of the game's hashed
    /// positions of one or two integers, for a target of that many; 0
    /// for none.
    pub hashed: u64,
    /// The addresses of the run's blocks, its rows' length's power of
    /// two, and its rows read as integers' and as list positions' (0 for
    /// the kind the table does not hold, as `count` and `form_count`).
    pub run_pages: usize,
    pub run_shift: u64,
    pub run_count: u64,
    pub form_run_count: u64,
}

impl View {
    /// A table without slots: every read finds none.
    pub const EMPTY: View = View {
        pages: 0,
        lens: 0,
        count: 0,
        form: 0,
        form_count: 0,
        hashed: 0,
        run_pages: 0,
        run_shift: 0,
        run_count: 0,
        form_run_count: 0,
    };
}

impl Dense {
    /// Where the slots are, for compiled rules to read.
    pub fn view(&self) -> View {
        let form = self.form.as_ref();
        let (apart, (run_pages, run_shift, run)) = (self.pages.apart(), self.pages.run_view());
        // The machine code reads a cube's triples by columns along the
        // first argument only; others take the slow path. The strips'
        // rows, which come first, are where they are whatever the axis.
        let most = match self.axis {
            0 => u64::MAX,
            _ => places::STRIP3_ROWS as u64,
        };
        let count = (apart as u64).min(most);
        let run = run.min(most - count);
        let (ints, formed) = match form {
            Some(_) => (0, 1),
            None => (1, 0),
        };
        View {
            pages: self.pages.addrs.as_ptr() as usize,
            lens: self.pages.lens.as_ptr() as usize,
            count: count * ints,
            form: form.map_or(0, crate::graph::form::Form::code),
            form_count: count * formed,
            hashed: 0,
            run_pages,
            run_shift,
            run_count: run * ints,
            form_run_count: run * formed,
        }
    }
}
