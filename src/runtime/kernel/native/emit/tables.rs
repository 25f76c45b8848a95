//! Where the machine code finds a dense table: the address of its view
//! ([`View`]), and its fields, read once for the whole function or where
//! each is used.
//!
//! Read once, a field is a value live through every loop of the
//! function. Where the loops hold more values than registers, Cranelift's
//! register allocator spills such values, and stores them again around
//! every turn of a loop that does not use them: a one-integer sweep,
//! whose options are mostly read beside the position's own slot, ran its
//! option loops with four such stores and loads an option. Read where
//! used, a field costs a load from the view each time it is used: a
//! board's options, read a row or a level away at nearly every option,
//! ran up to 15% slower so (wythoff, three_heaps).

use super::{Emit, Kind, trusted};
use crate::graph::View;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};
use std::mem::offset_of;

/// Whether the function `kind` reads its targets' tables' fields once:
/// all but a one-integer sweep (and a group's). A mex function, called
/// once a position, reads them once too: read where used, they cost a
/// hashed game of sets (multiples) 3% more instructions.
pub(super) fn read_once(kind: &Kind) -> bool {
    !matches!(kind, Kind::Sweep(_) | Kind::Group(_))
}

/// Whether the function `kind` reads the rows of tables' runs (see
/// [`View`]): the functions of a game whose pairs lie in a strip, whose
/// sweeps make runs (`runtime/sweep/strip.rs`: a strip of triples has
/// long rows, by its long argument), and
/// queries and functions, which may read any game's. Elsewhere a read
/// past a table's rows of their own goes where a read outside the table
/// goes (the helper), and a board's reads, which are most of its
/// sweep's work, keep their registers: each read of a run costs a branch
/// and a path beside it, around which the register allocator kept the
/// table's fields on the stack (the knight's board: 8% more
/// instructions).
pub(super) fn reads_runs(kind: &Kind) -> bool {
    match kind.kernel() {
        Some(k) => k.strip().is_some(),
        None => !matches!(kind, Kind::Group(_)),
    }
}

/// Where a dense table's view is ([`View`]: its pages' addresses, their
/// lengths, their number), and its fields where they were read once.
#[derive(Clone, Copy)]
pub(super) struct Table {
    /// The address of the view.
    view: Value,
    /// Its fields, where read once for the whole function.
    loaded: Option<Loaded>,
    /// Whether the pages counted are those of a table's list positions
    /// ([`View::form_count`]), rather than its integers' ([`View::count`]).
    formed: bool,
    /// Whether its reads read its run's rows too (see [`reads_runs`]).
    pub(super) runs: bool,
    /// Whether reads of its list positions' rows do: as the function's
    /// reads do, whatever the target's arity, since a game of one tuple
    /// or of a heap and a boolean keeps its positions as rows of two or
    /// three integers (`g((n - k, k))`, a strip of pairs).
    runs_formed: bool,
    /// The form code its caller has checked the table holds, for the
    /// game's own table (see [`OwnRead`]): reads of that form need
    /// no test of it.
    pub(super) checked: Option<u64>,
}

/// The fields of a table's view, read once (see [`View`]).
#[derive(Clone, Copy)]
struct Loaded {
    count: Value,
    form_count: Value,
    lens: Value,
    pages: Value,
    form: Value,
    /// The run's fields (`run_count`, `form_run_count`, `run_shift`,
    /// `run_pages`), in a function that reads runs.
    run: Option<[Value; 4]>,
}

impl Table {
    /// The table, its pages counted as its list positions' where
    /// `formed`.
    pub(super) fn formed(self, formed: bool) -> Table {
        let runs = match formed {
            true => self.runs_formed,
            false => self.runs,
        };
        Table {
            formed,
            runs,
            ..self
        }
    }

    /// The table of a target of `arity` integers: a run's rows are a
    /// strip's, of two or three; a one-integer game's pages are long.
    pub(super) fn of_arity(self, arity: usize) -> Table {
        Table {
            runs: self.runs && arity >= 2,
            ..self
        }
    }
}

impl Emit<'_, '_> {
    /// Table `t` of the views at `views`, its fields read where used.
    pub(super) fn table(&mut self, views: Value, t: usize) -> Table {
        let view = match t {
            0 => views,
            _ => self
                .b
                .ins()
                .iadd_imm_s(views, (t * size_of::<View>()) as i64),
        };
        Table {
            view,
            loaded: None,
            formed: false,
            runs: self.runs,
            runs_formed: self.runs,
            checked: None,
        }
    }

    /// `table` with its view's fields read here, once.
    pub(super) fn loaded(&mut self, table: Table) -> Table {
        let mut field = |offset| self.view_field(table, offset);
        let fields = Loaded {
            count: field(offset_of!(View, count)),
            form_count: field(offset_of!(View, form_count)),
            lens: field(offset_of!(View, lens)),
            pages: field(offset_of!(View, pages)),
            form: field(offset_of!(View, form)),
            run: None,
        };
        let run = table.runs.then(|| {
            [
                offset_of!(View, run_count),
                offset_of!(View, form_run_count),
                offset_of!(View, run_shift),
                offset_of!(View, run_pages),
            ]
            .map(|offset| self.view_field(table, offset))
        });
        let fields = Loaded { run, ..fields };
        Table {
            loaded: Some(fields),
            ..table
        }
    }

    /// Table `t` of the views at `views`, its fields read here, once.
    pub(super) fn table_once(&mut self, views: Value, t: usize) -> Table {
        let table = self.table(views, t);
        self.loaded(table)
    }

    /// The field at `offset` of `table`'s view.
    fn view_field(&mut self, table: Table, offset: usize) -> Value {
        (self.b.ins()).load(I64, trusted(), table.view, offset as i32)
    }

    /// A field of `table`'s view: `kept` of the fields read once, else
    /// the one at `offset`, read here.
    fn field_of(&mut self, table: Table, kept: fn(&Loaded) -> Value, offset: usize) -> Value {
        match &table.loaded {
            Some(loaded) => kept(loaded),
            None => self.view_field(table, offset),
        }
    }

    /// The addresses of `table`'s pages.
    pub(super) fn pages_of(&mut self, table: Table) -> Value {
        self.field_of(table, |l| l.pages, offset_of!(View, pages))
    }

    /// The lengths of `table`'s pages.
    pub(super) fn lens_of(&mut self, table: Table) -> Value {
        self.field_of(table, |l| l.lens, offset_of!(View, lens))
    }

    /// The number of `table`'s pages (of its list positions where it is
    /// `formed`).
    pub(super) fn count_of(&mut self, table: Table) -> Value {
        match table.formed {
            true => self.field_of(table, |l| l.form_count, offset_of!(View, form_count)),
            false => self.field_of(table, |l| l.count, offset_of!(View, count)),
        }
    }

    /// The number of rows of `table`'s run (of its list positions' where
    /// it is `formed`), the power of two of their length, and the
    /// addresses of its blocks: read once with its other fields where it
    /// reads runs, else where used.
    pub(super) fn run_of(&mut self, table: Table) -> [Value; 3] {
        if let Some([ints, lists, shift, pages]) = table.loaded.and_then(|l| l.run) {
            return [if table.formed { lists } else { ints }, shift, pages];
        }
        let rows = match table.formed {
            true => offset_of!(View, form_run_count),
            false => offset_of!(View, run_count),
        };
        [
            rows,
            offset_of!(View, run_shift),
            offset_of!(View, run_pages),
        ]
        .map(|offset| self.view_field(table, offset))
    }

    /// `table` as read for positions of form `form` (0: integers): its
    /// list positions' pages, where it holds that form; on to
    /// `elsewhere` where it holds another.
    pub(super) fn of_form(&mut self, table: Table, form: u64, elsewhere: Block) -> Table {
        if form == 0 {
            return table;
        }
        if table.checked == Some(form) {
            return table.formed(true);
        }
        let code = self.form_of(table);
        let other = (self.b.ins()).icmp_imm_s(IntCC::NotEqual, code, form as i64);
        self.leave_if(other, elsewhere);
        table.formed(true)
    }

    /// The code of `table`'s form (0: positions of integers).
    pub(super) fn form_of(&mut self, table: Table) -> Value {
        self.field_of(table, |l| l.form, offset_of!(View, form))
    }
}

/// The game's own table, loaded once, in a function that writes it (a
/// board's levels, a square, a strip, a cube): the options of the same
/// game read it rather than the target's view of the same table, so the
/// loops keep one set of its fields in registers, not two (the knight
/// kept as a tuple spilled them, 20% more instructions), and a table of
/// tuples or of positions with a boolean needs no test of its form at
/// each option: the call checked it (`native/own.rs`).
#[derive(Clone, Copy)]
pub(super) struct OwnRead {
    /// The target that is the game itself.
    pub(super) target: usize,
    /// The form code of its positions (0: integers).
    pub(super) code: u64,
    /// The number of integers they are read by.
    pub(super) ints: usize,
    pub(super) table: Table,
}
