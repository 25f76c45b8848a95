//! The search's side of the compiled rules: a position's kernel run (its
//! machine code where it has some), the options it found without values
//! interned, and the kernels compiled on first use.

use super::Ran;
use crate::runtime::kernel::{self, Kernel, Missing, Stop};
use crate::runtime::normalize;
use crate::runtime::{Machine, RtResult, Scratch, compiled_for, keep_compiled, stop_asked};
use crate::value::{GameId, NodeId};

use std::mem::take;
use std::rc::Rc;

impl Machine {
    /// Whether [`Machine::run_kernel`] finds `node`'s value.
    pub(in crate::runtime) fn kernel_finds_value(
        &mut self,
        node: NodeId,
        pending: &mut Vec<NodeId>,
    ) -> RtResult<bool> {
        Ok(self.kernel_probe(node, pending)? == Some(true))
    }

    /// [`Machine::kernel_finds_value`], `None` where the compiled rules
    /// left the position (to the interpreter: an error to report, an
    /// argument they do not take), as a position past a game's end does
    /// (`ADJ[v]` past the last row).
    pub(in crate::runtime) fn kernel_probe(
        &mut self,
        node: NodeId,
        pending: &mut Vec<NodeId>,
    ) -> RtResult<Option<bool>> {
        Ok(match self.run_kernel(node, pending)? {
            Ran::Value(_) => Some(true),
            Ran::Interpret | Ran::Asked => None,
            Ran::Missing(..) | Ran::Play(..) => Some(false),
        })
    }

    /// Runs the kernel of `node`'s game, if it has one and the node's
    /// arguments are integers. A value found is stored; options found
    /// without one are interned and pushed on `pending`.
    pub(super) fn run_kernel(&mut self, node: NodeId, pending: &mut Vec<NodeId>) -> RtResult<Ran> {
        loop {
            match self.run_kernel_once(node, pending)? {
                Ran::Asked => continue,
                ran => return Ok(ran),
            }
        }
    }

    /// The value of `node`, a hashed position with the integer arguments
    /// `args` that a query asks, found by its game's machine code as a
    /// recursion's first run, without the search's set-up (see
    /// [`kernel::Native::value_in_place`]); `None` leaves it to
    /// [`Machine::node_value`]. A game whose recursions end short (chains
    /// deeper than the recursion goes) 64 times, and more than once in
    /// nine tries, is not tried again, so that its positions are not
    /// each run twice.
    pub(in crate::runtime) fn value_in_place(&mut self, node: NodeId, args: &[i64]) -> Option<u64> {
        let game = node.game as usize;
        let (done, left) = self.in_place.get(game).copied().unwrap_or_default();
        let hopeless = left >= 64 && left > done / 8;
        if !self.use_native || node.index < crate::graph::DENSE_END || hopeless {
            return None;
        }
        if self.graph.value(node) != crate::graph::UNKNOWN || !self.ready_kernel(node.game) {
            return None;
        }
        let Some((_, Some(kernel))) = &self.kernels[node.game as usize] else {
            return None;
        };
        // Arguments past the kernel's linear forms: its twin's, once
        // compiled (see `run_kernel_once`).
        let kernel = match kernel.too_wide(args) {
            false => kernel,
            true => compiled_for(&self.wide_kernels, &self.defs, node.game)?.as_ref()?,
        };
        // Before it is compiled, the search's runs count the work that
        // decides it.
        if !kernel.compiled() {
            return None;
        }
        let Scratch { views, deep, .. } = &mut self.scratch;
        let mut stop = stop_asked(&self.cancel, self.deadline);
        let room = kernel::Room {
            pool: deep,
            max_states: self.limits.max_states,
        };
        let graph = (&self.defs, &mut self.graph, room);
        let found = kernel.native_in_place(graph, (node, args), views, &mut stop)?;
        if self.in_place.len() <= game {
            self.in_place.resize(game + 1, (0, 0));
        }
        match found {
            Some(_) => self.in_place[game].0 += 1,
            None => self.in_place[game].1 += 1,
        }
        found
    }

    /// One run of [`Machine::run_kernel`]; [`Ran::Asked`] when it missed
    /// only values its guards ask, which are found now.
    fn run_kernel_once(&mut self, node: NodeId, pending: &mut Vec<NodeId>) -> RtResult<Ran> {
        if !self.ready_kernel(node.game) && !self.typed_by_position(node) {
            return Ok(Ran::Interpret);
        }
        let untried = self.lengths_untried(node.game);
        // Borrowed beside the scratch buffers rather than shared: no count to keep.
        let Some((_, Some(kernel))) = &self.kernels[node.game as usize] else {
            unreachable!("`ready_kernel` compiled it");
        };
        let Scratch {
            args,
            marks,
            views,
            deep,
            ..
        } = &mut self.scratch;
        let found = match kernel.takes_lists() {
            true => self.graph.flat_args(node, args),
            false => self.graph.int_args(node, args),
        };
        if !found {
            return Ok(Ran::Interpret);
        }
        // Lists of a length the rules keep: compiled for it, once.
        if kernel.takes_lists() && kernel.split_ints().is_none() && untried {
            let run = args.clone();
            self.fixed_by_position(node.game, &run);
            return self.run_kernel_once(node, pending);
        }
        // Arguments past what the kernel's linear forms take: its twin
        // for parameters of any size, compiled on first need.
        let kernel = match kernel.too_wide(args) {
            false => kernel,
            true => match compiled_for(&self.wide_kernels, &self.defs, node.game) {
                Some(Some(twin)) => twin,
                Some(None) => return Ok(Ran::Interpret),
                None => return Ok(self.compile_wide(node.game)),
            },
        };
        self.kernel_runs += 1;
        // Ctrl-C or the time limit: the interpreter's own poll, below,
        // then says which.
        let mut stop = stop_asked(&self.cancel, self.deadline);
        // The machine code first, when there is some; the kernel's own run
        // where it leaves the position. Either answers alike.
        let eager = self.native_after == 0;
        let native = match self.use_native {
            true => {
                // Options of the same game outside the dense tables are
                // evaluated in place, within `--max-states`.
                let room = kernel::Room {
                    pool: deep,
                    max_states: self.limits.max_states,
                };
                let graph = (&self.defs, &mut self.graph, Some(room));
                kernel.native_mex(graph, args, (marks, views), &mut stop, eager)
            }
            false => None,
        };
        let result = match native {
            Some(result) => result,
            None if self.use_native && kernel.counts_work() => {
                let before = marks.work();
                let result = kernel.mex(&self.defs, &self.graph, args, marks, &mut stop);
                // A step of rules over lists walks them: it weighs as
                // many steps as the position's flat run is long (up to
                // 64: a game of long lists still runs a few positions).
                let weight = match kernel.takes_lists() {
                    true => args.len().clamp(1, 64) as u64,
                    false => 1,
                };
                let steps = 1 + marks.work().wrapping_sub(before) as u64;
                kernel.ran(steps.saturating_mul(weight));
                result
            }
            None => kernel.mex(&self.defs, &self.graph, args, marks, &mut stop),
        };
        drop(stop);
        if result == Err(Stop::Bail) {
            self.poll()?;
        }
        Ok(match result {
            Ok((value, options)) => {
                self.graph.set_value(node, value);
                if options == 0 {
                    self.graph.set_terminal(node);
                }
                Ran::Value(value)
            }
            Err(Stop::Missing) => match self.asked_missing() {
                Some(asked) => self.evaluate_asked(node, &asked),
                None => self.intern_missing(node.game, pending),
            },
            Err(Stop::Bail) => return self.retyped(node, pending),
        })
    }

    /// The positions the last run's guards asked the value of and found
    /// without one (see [`kernel::ASKED`]), if any.
    fn asked_missing(&self) -> Option<Vec<(GameId, Vec<i64>)>> {
        let marks = &self.scratch.marks;
        let asked: Vec<_> = (marks.missing.iter())
            .filter(|m| m.option == kernel::ASKED)
            .map(|m| (m.game, marks.args(m).to_vec()))
            .collect();
        (!asked.is_empty()).then_some(asked)
    }

    /// Evaluates the positions `node`'s guards asked, each in a search of
    /// its own, as the interpreter's `value(...)` does inside the rules of
    /// `node`: [`Ran::Asked`], for the position to run again, or, when one
    /// of them fails (a position that leads back to `node`, a limit), the
    /// interpreter's, which then reports it in its own words.
    #[cold]
    fn evaluate_asked(&mut self, node: NodeId, asked: &[(GameId, Vec<i64>)]) -> Ran {
        for (game, args) in asked {
            let Some(at) = self.intern_ints(*game, args) else {
                return Ran::Interpret;
            };
            // A one-integer game asked heap after heap is swept ahead, as
            // far again as the heap asked: the next asks find values.
            if let [n] = args[..]
                && n >= 0
                && self.kernel(*game).is_some_and(|k| k.short())
                && self
                    .sweep_range(*game, (n, n + n.clamp(1024, 1 << 20)))
                    .is_err()
            {
                return Ran::Interpret;
            }
            self.running.enter(node);
            let found = self.node_value(at);
            self.running.leave();
            if found.is_err() {
                return Ran::Interpret;
            }
        }
        Ran::Asked
    }

    /// Counts a position of `game` that the interpreter runs, when the
    /// game's rules are compiled (see [`Machine::interpreted`]).
    #[cold]
    pub(super) fn left_to_interpreter(&mut self, game: crate::value::GameId) {
        if !matches!(self.kernels.get(game as usize), Some(Some((_, Some(_))))) {
            return;
        }
        let game = game as usize;
        if self.interpreted.len() <= game {
            self.interpreted.resize(game + 1, 0);
        }
        self.interpreted[game] += 1;
    }

    /// Interns the options the kernel found without a value and pushes
    /// them on `pending`. Only when that cannot fail: otherwise the
    /// interpreter reports the error in its own order.
    fn intern_missing(&mut self, game: GameId, pending: &mut Vec<NodeId>) -> Ran {
        let start = pending.len();
        // Only the lists are taken out: the marks are some hundred bytes.
        let marks = &mut self.scratch.marks;
        let (missing, args) = (take(&mut marks.missing), take(&mut marks.missing_args));
        let all = missing.iter().all(|m| {
            let args = &args[m.args.0 as usize..m.args.1 as usize];
            let node = match m.flat {
                true => self.intern_flat(m.game, args),
                false => self.intern_ints(m.game, args),
            };
            node.map(|node| pending.push(node)).is_some()
        });
        if all {
            self.sort_computed(game, &missing, &mut pending[start..]);
        }
        (self.scratch.marks.missing, self.scratch.marks.missing_args) = (missing, args);
        if !all {
            pending.truncate(start);
            return Ran::Interpret;
        }
        let Scratch { marks, known, .. } = &mut self.scratch;
        if marks.play > 0 {
            return Ran::Play(start, marks.play);
        }
        known.clear();
        if marks.complete {
            // The mex is at most the number of options: larger values
            // cannot change it.
            marks.mex.marked(marks.options, known);
        }
        Ran::Missing(start, marks.complete)
    }

    /// The components of an option of a move whose target is computed as
    /// a value (`g(n - 2) + (if c then g(1) else *n)`, its `if` split
    /// into moves by the normalisation) in the order of their positions,
    /// as the interpreter has them wait (a sum made as a value keeps them
    /// sorted); a sum written as terms waits as written on every path.
    /// `missing` are the options a run of `game` missed, `waiting` their
    /// nodes; past the play, if any.
    fn sort_computed(&self, game: GameId, missing: &[Missing], waiting: &mut [NodeId]) {
        let Some(rules) = self.defs.game(game) else {
            return;
        };
        let play = self.scratch.marks.play.min(missing.len());
        let mut at = play;
        for group in missing[play..].chunk_by(|a, b| a.option == b.option && a.rule == b.rule) {
            if group.len() > 1 && rules.computes_target(group[0].rule) {
                waiting[at..at + group.len()].sort_unstable();
            }
            at += group.len();
        }
    }

    /// The node of `game(args)`, interned if need be, when that cannot
    /// fail: within `--max-states` and of the game's arity.
    pub(in crate::runtime) fn intern_ints(&mut self, game: GameId, args: &[i64]) -> Option<NodeId> {
        let room = self.graph.reached() < self.limits.max_states;
        if self.defs.game(game)?.arity == args.len()
            && let Some(node) = self.graph.intern_hashed_ints(game, args, room)
        {
            return node;
        }
        // Dense or hashed, as the graph decides.
        let found = self.graph.find_ints(game, args);
        self.intern_with((game, args.len()), found, |g| g.insert_ints(game, args))
    }

    /// [`Machine::intern_ints`] of arguments given as a flat run.
    pub(in crate::runtime) fn intern_flat(&mut self, game: GameId, run: &[i64]) -> Option<NodeId> {
        let found = self.graph.find_flat(game, run);
        let arity = crate::graph::flat::arity(run[0]);
        self.intern_with((game, arity), found, |g| g.insert_flat(game, run))
    }

    /// The node `found`, or the one `make` makes, when the game has
    /// `arity` parameters and the graph room for it.
    fn intern_with(
        &mut self,
        (game, arity): (GameId, usize),
        found: Option<NodeId>,
        make: impl FnOnce(&mut crate::graph::Graph) -> NodeId,
    ) -> Option<NodeId> {
        if self.defs.game(game)?.arity != arity {
            return None;
        }
        if found.is_some() {
            return found;
        }
        if self.graph.reached() >= self.limits.max_states {
            return None;
        }
        Some(make(&mut self.graph))
    }

    /// The kernel of `game`, compiled on first use and again after the
    /// game is redefined; `None` for rules the kernel cannot run.
    pub(in crate::runtime) fn kernel(&mut self, game: GameId) -> Option<Rc<Kernel>> {
        match self.ready_kernel(game) {
            true => self.kernels[game as usize].as_ref()?.1.clone(),
            false => None,
        }
    }

    /// Whether `game` has a kernel, compiled from its current rules (and
    /// compiled now if need be): then `kernels` holds it.
    #[inline]
    pub(super) fn ready_kernel(&mut self, game: GameId) -> bool {
        if !self.compiled_rules() || self.stale_instance(game).is_some() {
            return false;
        }
        let Some(rules) = self.defs.game(game) else {
            return false;
        };
        match self.kernels.get(game as usize) {
            Some(Some((compiled, kernel))) if Rc::ptr_eq(compiled, rules) => kernel.is_some(),
            _ => self.compile_kernel(game),
        }
    }

    /// The twin of `game`'s kernel for parameters of any size, compiled
    /// on first need; `None` where there is none.
    pub(in crate::runtime) fn wide_kernel(&mut self, game: GameId) -> Option<Rc<Kernel>> {
        if compiled_for(&self.wide_kernels, &self.defs, game).is_none() {
            self.compile_wide(game);
        }
        compiled_for(&self.wide_kernels, &self.defs, game)?.clone()
    }

    /// Compiles the twin of `game`'s kernel for parameters of any size
    /// ([`kernel::compile_wide`]), or notes that there is none; then
    /// [`Ran::Asked`], for the position to be run again.
    #[cold]
    fn compile_wide(&mut self, game: GameId) -> Ran {
        let rules = self.game_ir(game);
        let max_depth = self.limits.max_depth;
        // The interpreter waits for options in the shares the rules for
        // small slots unroll (`normalize::shares`): a twin whose rules
        // unroll otherwise would wait for others, and meet another error
        // first.
        let depths = self.share_depths(game);
        let twin = normalize::wide(|| {
            let normal = normalize::rules(&rules, &self.defs);
            if *normalize::shares::of(&rules, &normal) != *depths {
                return None;
            }
            let normal = self.made_rules(&normal);
            kernel::compile_wide(&normal, game, &self.defs, max_depth)
        });
        keep_compiled(&mut self.wide_kernels, game, (rules, twin.map(Rc::new)));
        Ran::Asked
    }

    #[cold]
    pub(super) fn compile_kernel(&mut self, game: GameId) -> bool {
        let rules = self.game_ir(game);
        let slot = game as usize;
        if self.kernels.len() <= slot {
            self.kernels.resize(slot + 1, None);
        }
        let max_depth = self.limits.max_depth;
        let kernel = match normalize::callees::nest_in_rules(&rules, max_depth) {
            true => None,
            false => {
                // Positions of games at constants their moves pass on are
                // made as positions of the games made for those.
                let normal = normalize::rules(&rules, &self.defs);
                let depths = normalize::shares::of(&rules, &normal);
                self.keep_share_depths(game, &rules, depths.into());
                let normal = self.made_rules(&normal);
                let hints = self.hints.get(slot).cloned().unwrap_or_default();
                // Typed by the lengths or shapes met, or, where those do
                // not compile, as the rules alone say.
                match kernel::compile_game(&normal, (game, &hints), &self.defs, max_depth) {
                    Some((_, kernel, _)) => Some(kernel),
                    // `enumerate` of a string, read by index instead.
                    None => {
                        let indexed = normalize::indexed_rules(&rules, &self.defs);
                        let indexed = self.made_rules(&indexed);
                        let shapes = &hints.shapes[..];
                        kernel::compile_hinted(&indexed, (game, shapes), &self.defs, max_depth)
                    }
                }
            }
        };
        let kernel = kernel.map(Rc::new);
        let ready = kernel.is_some();
        // Counted afresh for the rules compiled now.
        if let Some(count) = self.interpreted.get_mut(slot) {
            *count = 0;
        }
        self.kernels[slot] = Some((rules, kernel));
        ready
    }
}
