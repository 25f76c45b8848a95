//! Move generation: [`expand`] runs the lowered rules of a position's
//! game, binder by binder, and hands each legal move to a [`MoveSink`].
//! The search collects options through it, the `moves(...)` query records
//! them; [`Running`] keeps a rule that asks a query about its own position
//! from looping.

use super::normalize::shares;
use super::{Machine, RtResult};
use crate::diag::{Diagnostic, Phase, count};
use crate::ir::{GameIr, MoveIr, PatIr, TargetIr, TermIr};
use crate::value::{Component, GameId, NodeId, Value};
use rustc_hash::FxHashSet;
use std::rc::Rc;

/// Receives the moves of a node as [`expand`] finds them.
pub trait MoveSink {
    /// One move: the rule, the frame (binder values), the resulting
    /// components; `m` to read what is known of them.
    fn option(&mut self, m: &Machine, rule: &MoveIr, frame: &[Value], target: &[Component]);

    /// One of the move's leading binders that the compiled rules unroll
    /// takes its next item: the options from here on are a copy's, a
    /// move of its own there (see `normalize/shares.rs`).
    fn next_copy(&mut self) {}
}

/// Runs the rules of `node`'s game and hands each legal move to `sink`.
pub fn expand(m: &mut Machine, node: NodeId, sink: &mut dyn MoveSink) -> RtResult<()> {
    // A rule may call a function that asks a query, which expands other
    // nodes; asking for the moves of a node whose rules are running would
    // never end.
    if m.running.contains(node) {
        return Err(m.asks_about_itself(node));
    }
    m.running.enter(node);
    let result = run_rules(m, node, sink);
    m.running.leave();
    result
}

/// The nodes whose rules are running: more than one when a rule calls a
/// function that asks a query. Nearly always a few, looked through in
/// place; a hash set joins in only when queries nest deeper than
/// [`Running::FEW`].
#[derive(Default)]
pub struct Running {
    stack: Vec<NodeId>,
    /// Every node of `stack` while it holds more than [`Running::FEW`];
    /// empty otherwise.
    set: FxHashSet<NodeId>,
}

impl Running {
    const FEW: usize = 16;

    pub fn contains(&self, node: NodeId) -> bool {
        match self.stack.len() <= Running::FEW {
            true => self.stack.contains(&node),
            false => self.set.contains(&node),
        }
    }

    /// The node whose rules asked the query under way.
    pub fn innermost(&self) -> Option<NodeId> {
        self.stack.last().copied()
    }

    pub(super) fn enter(&mut self, node: NodeId) {
        self.stack.push(node);
        if self.stack.len() > Running::FEW {
            match self.set.is_empty() {
                true => self.set.extend(self.stack.iter().copied()),
                false => _ = self.set.insert(node),
            }
        }
    }

    pub(super) fn leave(&mut self) {
        let Some(node) = self.stack.pop() else {
            return;
        };
        if !self.set.is_empty() {
            match self.stack.len() <= Running::FEW {
                true => self.set.clear(),
                false => _ = self.set.remove(&node),
            }
        }
    }
}

fn run_rules(m: &mut Machine, node: NodeId, sink: &mut dyn MoveSink) -> RtResult<()> {
    let game = m.game_ir(node.game);
    if let Some((rules, made)) = m.stale_instance(node.game) {
        return Err(stale_node(m, node, made, &rules));
    }
    let args = m.graph.args(node);
    if args.len() != game.arity {
        return Err(stale_node(m, node, args.len(), &game));
    }
    // The frame and the target's buffer come from the machine's pools: a
    // search expands a position per step.
    let mut frame = m.frames.pop().unwrap_or_default();
    frame.extend_from_slice(&args);
    frame.resize(game.slots.max(game.arity), Value::Int(0));
    drop(args);
    let mut target = std::mem::take(&mut m.target);
    let result = run_moves(m, node, &game, &mut frame, &mut target, sink);
    frame.clear();
    m.frames.push(frame);
    target.clear();
    m.target = target;
    result
}

fn run_moves(
    m: &mut Machine,
    node: NodeId,
    game: &GameIr,
    frame: &mut [Value],
    target: &mut Vec<Component>,
    sink: &mut dyn MoveSink,
) -> RtResult<()> {
    let depths = m.share_depths(node.game);
    for (rule, &leads) in game.moves.iter().zip(depths.iter()) {
        let mut ctx = Expansion {
            rule,
            target: &mut *target,
            sink: &mut *sink,
            reached: 0,
            leads,
        };
        let result = ctx.binders(m, 0, frame);
        let bound = rule.binders[..ctx.reached]
            .iter()
            .map(|(p, _)| p.slots())
            .sum();
        result.map_err(|e| m.while_expanding(e, node, rule, &frame[..], bound))?;
    }
    Ok(())
}

struct Expansion<'a> {
    rule: &'a MoveIr,
    target: &'a mut Vec<Component>,
    sink: &'a mut dyn MoveSink,
    /// The binder being enumerated; those before it hold values.
    reached: usize,
    /// How many leading binders the compiled rules unroll (see
    /// [`MoveSink::next_copy`]).
    leads: usize,
}

impl Expansion<'_> {
    /// Enumerates binder `i` and the ones after it, then the guard and target.
    fn binders(&mut self, m: &mut Machine, i: usize, frame: &mut [Value]) -> RtResult<()> {
        self.reached = i;
        let Some((pattern, domain)) = self.rule.binders.get(i) else {
            return self.emit(m, frame);
        };
        let domain_value = m
            .eval(domain, frame)
            .map_err(|e| self.before_the_guard(e))?;
        if let (PatIr::Slot(slot), Value::Range(lo, hi)) = (pattern, &domain_value) {
            // The common case, without building the list of the range.
            for k in *lo..*hi {
                frame[*slot as usize] = Value::Int(k);
                if i < self.leads {
                    self.sink.next_copy();
                }
                self.binders(m, i + 1, frame)?;
            }
            return Ok(());
        }
        for item in m.items(&domain_value, domain.span)?.iter() {
            // Back from the later binders: a failed match shows only those before this one.
            self.reached = i;
            m.bind(pattern, item.clone(), frame)?;
            if i < self.leads {
                self.sink.next_copy();
            }
            self.binders(m, i + 1, frame)?;
        }
        Ok(())
    }

    /// An error made by a binder's range, in a rule with a guard, with
    /// no help of its own (a division by zero, an index out of range): the
    /// guard is tested only once every range is made, so it never
    /// protects one (`k in 1..=a / b` beside `if b > 0`).
    fn before_the_guard(&self, e: Box<Diagnostic>) -> Box<Diagnostic> {
        match (&self.rule.guard, e.phase, &e.help) {
            (Some(_), Phase::Runtime, None) => Box::new(e.help(
                "the move's guard (`if ...`) is tested only after its binders' ranges are made, \
                 so it does not protect this one: make the range empty where it would fail, \
                 for example `1..=(if b == 0 then 0 else a / b)`",
            )),
            _ => e,
        }
    }

    fn emit(&mut self, m: &mut Machine, frame: &mut [Value]) -> RtResult<()> {
        if let Some(guard) = &self.rule.guard
            && !m.truth(guard, frame)?
        {
            return Ok(());
        }
        self.target.clear();
        match &self.rule.target {
            TargetIr::Terms(terms) => {
                for term in terms {
                    let comp = match term {
                        TermIr::Node(game, args, span) => {
                            Component::Node(m.apply(*game, args, frame, *span)?)
                        }
                        TermIr::Heap(k) => m.heap(k, frame)?,
                    };
                    if comp != Component::Heap(0) {
                        self.target.push(comp);
                    }
                }
            }
            TargetIr::Dynamic(e) => {
                let value = m.eval(e, frame)?;
                let pos = m.to_position(&value, e.span, "a move target")?;
                self.target.extend_from_slice(pos.components());
            }
        }
        self.sink.option(m, self.rule, frame, self.target);
        Ok(())
    }
}

/// The error for a node made under an earlier definition of its game with
/// another number of parameters: its arguments do not fit the current rules.
fn stale_node(m: &Machine, node: NodeId, made: usize, game: &GameIr) -> Box<Diagnostic> {
    let name = &game.name;
    Box::new(
        Diagnostic::new(
            Phase::Runtime,
            format!(
                "this position of `{name}` was made under an earlier definition with {}; `{name}` now takes {}",
                count(made, "parameter"),
                game.arity
            ),
        )
        .at(
            game.def.name.span,
            format!(
                "`{name}` is redefined here with {}",
                count(game.arity, "parameter")
            ),
        )
        .note(format!("the position is {}", m.show_node(node)))
        .help(format!(
            "make the position again under the new definition, as `{name}(...)` with {}",
            count(game.arity, "argument")
        )),
    )
}

/// The error for a node that can reach itself.
/// The error for a cycle through `path`, which starts and ends at the
/// same position.
pub fn cycle_error(m: &Machine, path: &[NodeId]) -> Diagnostic {
    Diagnostic::new(
        Phase::Runtime,
        format!(
            "the position {} can be reached from itself",
            m.show_node(path[0])
        ),
    )
    .note(format!("cycle: {}", m.show_path(path)))
    .note("games whose positions repeat (loopy games) are not supported yet: every play must end")
}

impl Machine {
    /// How many leading binders of each move of `game`'s rules start a new
    /// share of the options a search waits for ([`MoveSink::next_copy`]),
    /// found once for the rules.
    pub(super) fn share_depths(&mut self, game: GameId) -> Rc<[usize]> {
        let rules = self.game_ir(game);
        match self.share_depths.get(game as usize) {
            Some(Some((of, depths))) if Rc::ptr_eq(of, &rules) => depths.clone(),
            _ => {
                let max_depth = self.limits.max_depth;
                let depths: Rc<[usize]> = shares::depths(&rules, &self.defs, max_depth).into();
                self.keep_share_depths(game, &rules, depths.clone());
                depths
            }
        }
    }

    /// Keeps the share depths of `game`'s `rules` (see [`Machine::share_depths`]).
    pub(super) fn keep_share_depths(
        &mut self,
        game: GameId,
        rules: &Rc<GameIr>,
        depths: Rc<[usize]>,
    ) {
        let slot = game as usize;
        if self.share_depths.len() <= slot {
            self.share_depths.resize(slot + 1, None);
        }
        self.share_depths[slot] = Some((rules.clone(), depths));
    }

    /// Adds "while expanding ..." to an error raised by a move rule.
    /// `bound` is how many of the rule's binder names hold values yet.
    pub fn while_expanding(
        &self,
        mut e: Box<Diagnostic>,
        node: NodeId,
        rule: &MoveIr,
        frame: &[Value],
        bound: usize,
    ) -> Box<Diagnostic> {
        const MAX_TRACE: usize = 6;
        let bindings = rule.shown[..bound]
            .iter()
            .map(|(name, slot)| (&**name, &frame[*slot as usize]));
        let line = format!(
            "while expanding {}, move {}",
            self.show_node(node),
            self.show_move(&rule.name, bindings, " = ")
        );
        let trace = e
            .notes
            .iter()
            .filter(|n| n.starts_with("while expanding"))
            .count();
        if trace < MAX_TRACE {
            e.notes.push(line);
        } else if trace == MAX_TRACE {
            e.notes
                .push("while expanding ... (more positions omitted)".into());
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::loaded;
    use crate::span::Span;

    struct Collect(Vec<(String, Vec<Component>)>);

    impl MoveSink for Collect {
        fn option(&mut self, _m: &Machine, rule: &MoveIr, _frame: &[Value], target: &[Component]) {
            self.0.push((rule.name.to_string(), target.to_vec()));
        }
    }

    #[test]
    fn running_nodes_are_known_however_deep_queries_nest() {
        let node = |index| NodeId { game: 1, index };
        let mut running = Running::default();
        let deep = 2 * Running::FEW as u32 + 3;
        for i in 0..deep {
            assert!(!running.contains(node(i)));
            running.enter(node(i));
            assert!((0..=i).all(|j| running.contains(node(j))), "after {i}");
            assert!(!running.contains(node(i + 1)));
        }
        for i in (0..deep).rev() {
            assert_eq!(running.innermost(), Some(node(i)));
            running.leave();
            assert!(!running.contains(node(i)), "left {i}");
            assert!((0..i).all(|j| running.contains(node(j))), "below {i}");
        }
        assert!(running.set.is_empty() && running.innermost().is_none());
    }

    #[test]
    fn equal_arguments_are_the_same_node() {
        let (mut session, _) = loaded("game g(xs) {\n move m -> 0\n}\n");
        let m = &mut session.machine;
        let list = |v: &[i64]| Value::list(v.iter().map(|n| Value::Int(*n)).collect());
        let a = m.intern(0, &[list(&[1, 2])], Span::default()).unwrap();
        let b = m.intern(0, &[list(&[1, 2])], Span::default()).unwrap();
        let c = m.intern(0, &[list(&[2, 1])], Span::default()).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(m.graph.len(), 2);
    }

    #[test]
    fn expand_yields_each_legal_move_with_its_components() {
        let src = "game k(n) {\n move knock(a in 0..n) -> k(a) + k(n - 1 - a)\n move heap if n == 2 -> *3\n move none if n > 5 -> 0\n}\n";
        let (mut session, _) = loaded(src);
        let m = &mut session.machine;
        let node = m.intern(0, &[Value::Int(2)], Span::default()).unwrap();
        let mut sink = Collect(Vec::new());
        expand(m, node, &mut sink).unwrap();
        let names: Vec<&str> = sink.0.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["knock", "knock", "heap"]);
        assert_eq!(sink.0[0].1.len(), 2);
        assert_eq!(sink.0[2].1, [Component::Heap(3)]);
    }

    #[test]
    fn a_range_ending_below_its_start_gives_no_moves() {
        let (mut session, _) = loaded("game g(n) {\n move m(k in 1..=n - 3) -> g(n - k)\n}\n");
        let m = &mut session.machine;
        let node = m.intern(0, &[Value::Int(2)], Span::default()).unwrap();
        let mut sink = Collect(Vec::new());
        expand(m, node, &mut sink).unwrap();
        assert!(sink.0.is_empty());
    }

    #[test]
    fn an_error_in_a_rule_names_the_position_and_move() {
        let (mut session, _) = loaded("game g(n) {\n move m(d in [1, 0]) -> g(n / d)\n}\n");
        let m = &mut session.machine;
        let node = m.intern(0, &[Value::Int(4)], Span::default()).unwrap();
        let err = expand(m, node, &mut Collect(Vec::new())).unwrap_err();
        assert_eq!(err.message, "division by zero");
        assert_eq!(err.notes, ["while expanding g(4), move m(d = 0)"]);
    }

    #[test]
    fn a_binder_whose_pattern_fails_shows_no_stale_values() {
        let (mut session, _) = loaded(
            "game h(x, y) {\n move m((a, b) in [(1, 0), (0, 1, 2)]) -> h(x + a, y + b)\n}\n",
        );
        let m = &mut session.machine;
        let node = m
            .intern(0, &[Value::Int(0), Value::Int(0)], Span::default())
            .unwrap();
        let err = expand(m, node, &mut Collect(Vec::new())).unwrap_err();
        assert_eq!(err.message, "cannot unpack 3 items into a pattern of 2");
        assert_eq!(
            err.notes,
            [
                "the value to unpack is (0, 1, 2)",
                "while expanding h(0, 0), move m"
            ]
        );
    }

    #[test]
    fn a_binder_not_bound_yet_is_not_shown() {
        let (mut session, _) = loaded("game h(n) {\n move m(j in 0..2, k in n) -> h(k)\n}\n");
        let m = &mut session.machine;
        let node = m.intern(0, &[Value::Int(2)], Span::default()).unwrap();
        let err = expand(m, node, &mut Collect(Vec::new())).unwrap_err();
        assert_eq!(err.notes, ["while expanding h(2), move m(j = 0)"]);
    }
}
