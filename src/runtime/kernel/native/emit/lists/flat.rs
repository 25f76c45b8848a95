//! Positions with list arguments in machine code: the position's flat
//! run (a header, then each integer, or each list's length and items)
//! made on the arena, in place when its lists can be made where they go,
//! and looked up by a helper.

use super::fresh;
use crate::graph::{SIDE4_MAX, flat};
use crate::runtime::kernel::Arg;
use crate::runtime::kernel::native::emit::{Emit, trusted};
use crate::value::GameId;
use cranelift_codegen::ir::{Block, InstBuilder, Value, types::I64};

impl Emit<'_, '_> {
    /// The value of a position with list arguments: its flat run made on
    /// the arena (the lists first, then the run), looked up by the helper
    /// ([`crate::runtime::kernel::native::helpers::flat`]).
    pub(in crate::runtime::kernel::native::emit) fn flat_term(
        &mut self,
        game: GameId,
        header: i64,
        args: &[Arg],
    ) -> Option<Value> {
        let index = self.targets.iter().position(|t| *t == (game, args.len()))?;
        if let Some(form) = crate::runtime::kernel::forms::static_form(header, args) {
            return self.form_term(index, form, (header, args));
        }
        if header == flat::ints_header(4) {
            return self.quad_term(index, header, args);
        }
        self.flat_looked_up(index, header, args)
    }

    /// The value of a position of four integers: read from its game's
    /// dense table (see [`crate::graph::dense4`]) where it is there with
    /// a plain value, else by the helper. An argument known to be inside
    /// the table (a parameter of a row's position: see `Emit::quad_row`)
    /// is not checked.
    fn quad_term(&mut self, index: usize, header: i64, args: &[Arg]) -> Option<Value> {
        let mut given = Vec::new();
        let mut checked = Vec::new();
        for a in args {
            let Arg::Int(n) = a else { return None };
            given.push(self.num(n)?);
            let inside = self
                .range_of(n)
                .is_some_and(|(lo, hi)| lo >= 0 && hi < SIDE4_MAX);
            checked.push(!inside);
        }
        self.read_or_looked_up(index, (header, args), |e, value, (slow, join)| {
            for (v, _) in given.iter().zip(&checked).filter(|(_, c)| **c) {
                e.outside_to(*v, (0, SIDE4_MAX), slow);
            }
            // Row: the cube index of the last three; column: the first.
            let row = e.cube_index(given[1], given[2], given[3]);
            let at = e.slot_or(e.tables[index], (row, given[0]), slow);
            e.read_slot(at, value, (slow, join));
        })
    }

    /// A target's value as `read` reads it from its table (into `value`,
    /// then to `join`), or where it goes to `slow`, by the helper
    /// ([`Emit::flat_looked_up`]).
    pub(in crate::runtime::kernel::native::emit) fn read_or_looked_up(
        &mut self,
        index: usize,
        (header, args): (i64, &[Arg]),
        read: impl FnOnce(&mut Self, cranelift_frontend::Variable, (Block, Block)),
    ) -> Option<Value> {
        let [slow, join] = self.blocks();
        self.b.set_cold_block(slow);
        let value = self.b.declare_var(I64);
        read(self, value, (slow, join));
        self.b.switch_to_block(slow);
        let v = self.flat_looked_up(index, header, args)?;
        self.b.def_var(value, v);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        Some(self.b.use_var(value))
    }

    /// [`Emit::flat_term`] by the helper: the run made in the arena and
    /// looked up.
    pub(in crate::runtime::kernel::native::emit) fn flat_looked_up(
        &mut self,
        index: usize,
        header: i64,
        args: &[Arg],
    ) -> Option<Value> {
        let top = self.b.use_var(self.top);
        let in_place = args.iter().all(|a| match a {
            Arg::Int(_) => true,
            Arg::Seq(xs) => fresh(xs),
        });
        let from = match in_place {
            true => self.run_in_place(header, args)?,
            false => self.run_copied(header, args)?,
        };
        let to = self.b.use_var(self.top);
        let v = match self.made_form(index, header, args, from) {
            Some((value, join)) => {
                let v = self.run_looked_up(index, (from, to));
                self.b.def_var(value, v);
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(join);
                self.b.use_var(value)
            }
            None => self.run_looked_up(index, (from, to)),
        };
        self.b.def_var(self.top, top);
        Some(v)
    }

    /// The value of the position whose flat run is the arena's `from..to`,
    /// by the helper.
    fn run_looked_up(&mut self, index: usize, (from, to): (Value, Value)) -> Value {
        let len = self.b.ins().isub(to, from);
        let offset = self.b.ins().ishl_imm_s(from, 3);
        let run = self.b.ins().iadd(self.arena, offset);
        let target = self.int(index as i64);
        self.note_rule();
        let call = self.b.ins().call(self.flat, &[self.ctx, target, run, len]);
        self.forget_pages();
        let v = self.helper_result(call);
        self.helper_value(v)
    }

    /// A flat run pushed from the top, each list made where it goes, after
    /// a place for its length: returns where the run starts.
    fn run_in_place(&mut self, header: i64, args: &[Arg]) -> Option<Value> {
        let from = self.b.use_var(self.top);
        let h = self.int(header);
        self.push(h);
        for a in args {
            match a {
                Arg::Int(n) => {
                    let v = self.num(n)?;
                    self.push(v);
                }
                Arg::Seq(xs) => {
                    let at = self.b.use_var(self.top);
                    let zero = self.int(0);
                    self.push(zero);
                    let (a, b) = self.seq(xs)?;
                    let len = self.b.ins().isub(b, a);
                    let offset = self.b.ins().ishl_imm_s(at, 3);
                    let addr = self.b.ins().iadd(self.arena, offset);
                    self.b.ins().store(trusted(), len, addr, 0);
                }
            }
        }
        Some(from)
    }

    /// A flat run made after its lists, which are copied into it.
    pub(in crate::runtime::kernel::native::emit) fn run_copied(
        &mut self,
        header: i64,
        args: &[Arg],
    ) -> Option<Value> {
        let mut lists = Vec::new();
        for a in args {
            if let Arg::Seq(xs) = a {
                lists.push(self.seq(xs)?);
            }
        }
        let from = self.b.use_var(self.top);
        let h = self.int(header);
        self.push(h);
        let mut lists = lists.into_iter();
        for a in args {
            match a {
                Arg::Int(n) => {
                    let v = self.num(n)?;
                    self.push(v);
                }
                Arg::Seq(_) => {
                    let (a, b) = lists.next()?;
                    let len = self.b.ins().isub(b, a);
                    self.push(len);
                    self.copy((a, b))?;
                }
            }
        }
        Some(from)
    }
}
