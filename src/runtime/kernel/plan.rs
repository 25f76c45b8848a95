//! The fast loop: every node term's arguments linear in the innermost
//! binder and dense at both ends of its values, so everywhere between;
//! nothing on the way can fail. The options' values are read from the
//! graph's dense pages by index.

use super::expr::{Lin, Num};
use super::marks::POLL_EVERY;
use super::run::{Run, Values};
use super::{Eval, LinearNode, Marks, Stop};
use crate::graph::{ABSENT, Dense, Graph, dense1, dense2};
use crate::ir::Slot;
use crate::value::GameId;

/// Slots from here on are read through [`Dense::get`].
const PLAIN: u32 = Dense::PLAIN;

/// The most node terms the fast loop takes; a target with more goes
/// through the general loop.
pub const PLAN_NODES: usize = 2;

/// A node term of the fast loop: its game, its dense table, its arity,
/// and per argument `(value at x = lo, step)`.
type PlanNode<'g> = (GameId, &'g Dense, usize, [(i64, i64); 2]);

pub struct Plan<'g> {
    graph: &'g Graph,
    nodes: [Option<PlanNode<'g>>; PLAN_NODES],
    heaps: u64,
    lo: i64,
}

impl<'g> Plan<'g> {
    /// The plan for `x` over `values`, if every node term is dense at both
    /// ends (else the general loop, which also reads positions that are
    /// not dense, makes the options).
    pub fn new(
        nodes: &[LinearNode],
        heaps: &[Num],
        x: Slot,
        values: &Values,
        f: &mut Vec<i64>,
        run: &Run<'g>,
    ) -> Eval<Option<Plan<'g>>> {
        let (lo, hi) = values.bounds();
        let mut plan = Plan {
            graph: run.graph,
            nodes: [None; PLAN_NODES],
            heaps: 0,
            lo,
        };
        for k in heaps {
            plan.heaps ^= u64::try_from(k.eval(f, run.defs)?).map_err(|_| Stop::Bail)?;
        }
        for (slot, node) in plan.nodes.iter_mut().zip(nodes) {
            let arity = node.args.len();
            let Some(dense) = run.graph.dense(node.game).filter(|d| d.arity() == arity) else {
                return Ok(None);
            };
            let mut lines = [(0, 0); 2];
            for (line, arg) in lines.iter_mut().zip(&node.args) {
                match line_of(arg, x, (lo, hi), arity, f) {
                    Some(l) => *line = l,
                    None => return Ok(None),
                }
            }
            *slot = Some((node.game, dense, arity, lines));
        }
        Ok(Some(plan))
    }

    /// Marks the value of every option, for `x` over `values`, looking at
    /// the clock between blocks. Kept out of line: inlined into the
    /// kernel's binder loop, its own loop took 15% more instructions
    /// (Kayles to 5,000: 852M against 982M).
    #[inline(never)]
    pub fn run(
        &self,
        values: &Values,
        marks: &mut Marks,
        poll: &mut dyn FnMut() -> bool,
    ) -> Eval<()> {
        let (lo, hi) = match values {
            Values::Range(lo, hi) => (*lo, *hi),
            Values::List { sorted, .. } => {
                let items = self.list(values, *sorted, marks)?;
                return match marks.charge(items) && poll() {
                    true => Err(Stop::Bail),
                    false => Ok(()),
                };
            }
        };
        let linear = self.nodes.iter().flatten().all(|n| n.2 == 1);
        let mut from = lo;
        while from < hi {
            let to = match linear {
                true => self.block(from, hi, marks)?,
                false => {
                    let to = from.saturating_add(POLL_EVERY as i64).min(hi);
                    self.pairs(from, to, marks)?;
                    to
                }
            };
            let done = (to - from) as usize;
            from = to;
            if marks.charge(done) && poll() {
                return Err(Stop::Bail);
            }
        }
        Ok(())
    }

    /// The options for `x` from `from` on, as far as every node's index
    /// stays in one page of its table (and a block at most): there the
    /// values are read from slices, at `offset + step * u`. Returns where
    /// it stopped.
    fn block(&self, from: i64, hi: i64, marks: &mut Marks) -> Eval<i64> {
        let t0 = from - self.lo;
        let mut len = (hi - from).min(POLL_EVERY as i64);
        let mut runs: [(&[u32], i64, i64); PLAN_NODES] = [(&[], 0, 0); PLAN_NODES];
        let nodes = self.nodes.iter().flatten().count();
        for (run, (_, dense, _, lines)) in runs.iter_mut().zip(self.nodes.iter().flatten()) {
            let (first, step) = lines[0];
            let (page, offset) = dense.page_of((first + step * t0) as u32);
            let room = match step {
                0 => len,
                s if s > 0 => (Dense::PAGE as i64 - 1 - offset as i64) / s + 1,
                s => offset as i64 / -s + 1,
            };
            len = len.min(room);
            *run = (page, offset as i64, step);
        }
        // A slot's value, or PLAIN and above for the slow path to read.
        let read = |(page, offset, step): (&[u32], i64, i64), u: i64| {
            page.get((offset + step * u) as usize)
                .copied()
                .unwrap_or(PLAIN)
        };
        let slow = |u: i64, marks: &mut Marks| self.option(from + u, marks);
        match nodes {
            1 => {
                let r = runs[0];
                for u in 0..len {
                    match read(r, u) {
                        v if v < PLAIN => marks.mark(u64::from(v) ^ self.heaps),
                        _ => slow(u, marks)?,
                    }
                }
            }
            2 if let (Some(a), Some(b)) = (slice_of(runs[0], len), slice_of(runs[1], len)) => {
                // Both runs whole inside their pages, a step of one each
                // way (Kayles' `g(a) + g(n - k - a)`): slices, with no
                // index checked per option.
                match (a, b) {
                    ((a, false), (b, false)) => self.pair::<false, false>((a, b), from, marks)?,
                    ((a, false), (b, true)) => self.pair::<false, true>((a, b), from, marks)?,
                    ((a, true), (b, false)) => self.pair::<true, false>((a, b), from, marks)?,
                    ((a, true), (b, true)) => self.pair::<true, true>((a, b), from, marks)?,
                }
            }
            2 => {
                let (r, q) = (runs[0], runs[1]);
                for u in 0..len {
                    let (a, b) = (read(r, u), read(q, u));
                    if a < PLAIN && b < PLAIN {
                        marks.mark(u64::from(a ^ b) ^ self.heaps);
                    } else {
                        slow(u, marks)?;
                    }
                }
            }
            _ => (0..len).try_for_each(|u| slow(u, marks))?,
        }
        Ok(from + len)
    }
}

/// The `len` slots a run of step 1 or -1 reads, as a slice of its page,
/// and whether it reads them backwards; `None` for other steps, or when
/// the page ends before them.
fn slice_of((page, offset, step): (&[u32], i64, i64), len: i64) -> Option<(&[u32], bool)> {
    let (from, back) = match step {
        1 => (offset, false),
        -1 => (offset - len + 1, true),
        _ => return None,
    };
    let from = usize::try_from(from).ok()?;
    Some((page.get(from..from + len as usize)?, back))
}

impl Plan<'_> {
    /// The options from `from` on, their two nodes' values read from the
    /// slices `ab` in turn (each backwards where its flag says).
    #[inline(always)]
    fn pair<const A_BACK: bool, const B_BACK: bool>(
        &self,
        ab: (&[u32], &[u32]),
        from: i64,
        marks: &mut Marks,
    ) -> Eval<()> {
        let mut at = 0;
        loop {
            let how = (self.heaps, PLAIN);
            match marks.mex.mark_xors::<A_BACK, B_BACK>(ab, at, how) {
                (marked, true) => {
                    at += marked;
                    self.option(from + at as i64, marks)?;
                    at += 1;
                }
                (_, false) => return Ok(()),
            }
        }
    }

    /// The options for `x` in `from..to` when some node has two
    /// arguments: one such node, the board games' common case, has its own
    /// loop.
    fn pairs(&self, from: i64, to: i64, marks: &mut Marks) -> Eval<()> {
        let [Some((_, dense, 2, [(fa, sa), (fb, sb)])), None] = &self.nodes else {
            return (from..to).try_for_each(|k| self.option(k, marks));
        };
        if *sa == 0 {
            // Along a row (`g(x, y - k)`): one slice.
            let row = dense.row(*fa as usize);
            for k in from..to {
                let b = fb + sb * (k - self.lo);
                match row.get(b as usize).copied().unwrap_or(PLAIN) {
                    v if v < PLAIN => marks.mark(u64::from(v) ^ self.heaps),
                    _ => self.option(k, marks)?,
                }
            }
            return Ok(());
        }
        for k in from..to {
            let t = k - self.lo;
            let (a, b) = (fa + sa * t, fb + sb * t);
            match dense.at(a as usize, b as usize) {
                v if v < ABSENT => marks.mark(v ^ self.heaps),
                _ => self.option(k, marks)?,
            }
        }
        Ok(())
    }

    /// The options for the items of a list.
    /// Returns how many items it went through.
    fn list(&self, values: &Values, sorted: bool, marks: &mut Marks) -> Eval<usize> {
        let items = values.items();
        match (&self.nodes, sorted) {
            // One dense node with one argument: the common subtraction game.
            ([Some((_, dense, 1, lines)), None, ..], true) if !items.is_empty() => {
                let (first, step) = lines[0];
                let at = |k: i64| first + step * (k - self.lo);
                // The slots of the first and last item, hence of all: when
                // they are in one page, the items index its slice.
                let (a, b) = (at(items[0]), at(items[items.len() - 1]));
                let (page, offset) = dense.page_of(a.min(b) as u32);
                let one_page = offset + ((a - b).unsigned_abs() as usize) < Dense::PAGE;
                let base = offset as i64 - a.min(b);
                for k in items {
                    let v = match one_page {
                        true => match page.get((base + at(*k)) as usize) {
                            Some(&v) if v < PLAIN => v.into(),
                            _ => ABSENT,
                        },
                        false => dense.get(at(*k) as u32),
                    };
                    match v {
                        v if v < ABSENT => marks.mark(v ^ self.heaps),
                        _ => self.option(*k, marks)?,
                    }
                }
            }
            _ => items
                .iter()
                .filter(|k| values.holds(**k))
                .try_for_each(|k| self.option(*k, marks))?,
        }
        Ok(items.len())
    }

    /// The value slot of a position absent from the dense table: hashed,
    /// if the table had no room for it. Out of the loops' way.
    #[cold]
    #[inline(never)]
    fn hashed_value(&self, game: GameId, args: &[i64]) -> u64 {
        self.graph
            .find_hashed_ints(game, args)
            .map_or(ABSENT, |node| self.graph.value(node))
    }

    /// The option for `x = k`: the loops' slow path (a position absent
    /// from the dense table, or one not yet valued), kept out of them.
    #[inline(never)]
    fn option(&self, k: i64, marks: &mut Marks) -> Eval<()> {
        let t = k - self.lo;
        let (mut value, mut complete) = (self.heaps, true);
        marks.next_option();
        for (game, dense, arity, lines) in self.nodes.iter().flatten() {
            let at = |(first, step): (i64, i64)| first + step * t;
            let (a, b) = (at(lines[0]), at(lines[1]));
            let v = match arity {
                1 => dense.get(a as u32),
                _ => dense.at(a as usize, b as usize),
            };
            // Not in the dense table: perhaps hashed.
            let v = match v {
                ABSENT => self.hashed_value(*game, &[a, b][..*arity]),
                v => v,
            };
            match v {
                v if v < ABSENT => value ^= v,
                v => {
                    // Looked at all the same, as in `Run::each`.
                    marks.known(v, *game, &[a, b][..*arity])?;
                    complete = false;
                }
            }
        }
        if complete {
            marks.mark(value);
        }
        Ok(())
    }
}

/// `(a(lo), step)` with `a(x) = a(lo) + step * (x - lo)`, when `a` is a
/// dense argument for a game of `arity` at `x = lo` and at `x = hi`.
fn line_of(a: &Lin, x: Slot, (lo, hi): (i64, i64), arity: usize, f: &[i64]) -> Option<(i64, i64)> {
    let (base, step) = (a.eval_without(x, f), a.coef(x));
    let (first, last) = (base + step * lo, base + step * hi);
    let dense = |v: i64| match arity {
        1 => dense1(v).is_some(),
        _ => dense2(v, 0).is_some(),
    };
    (dense(first) && dense(last)).then_some((first, step))
}
