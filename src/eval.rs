//! Phase 5: Sprague–Grundy values and the queries built on them.
//!
//! The value of a node is the mex of its options' values; an option's value
//! is the xor of its components' values (heaps count as their size). The
//! walk is an explicit depth-first search with its own stack, so a chain of
//! millions of positions needs no Rust stack, and every value is kept in the
//! graph: a node is evaluated once per session.

use crate::diag::{Diagnostic, Phase};
use crate::graph::{self, ABSENT, IN_PROGRESS, MoveSink, UNKNOWN, cycle_error};
use crate::interp::{Machine, RtResult, Scratch};
use crate::ir::MoveIr;
use crate::kernel::{self, Kernel, Stop};
use crate::span::Span;
use crate::value::GameId;
use crate::value::{Component, NodeId, Position, Value};
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Options of the nodes on the search path, stored flat: each option is a
/// constant (the xor of its heaps) and a run of node components.
#[derive(Default)]
struct Arena {
    nodes: Vec<NodeId>,
    /// Per option: (xor of its heaps, end of its nodes in `nodes`).
    options: Vec<(u64, u32)>,
}

impl MoveSink for Arena {
    fn option(&mut self, _rule: &MoveIr, _frame: &[Value], target: &[Component]) {
        let mut heaps = 0;
        for c in target {
            match c {
                Component::Heap(k) => heaps ^= k,
                Component::Node(n) => self.nodes.push(*n),
            }
        }
        self.options.push((heaps, self.nodes.len() as u32));
    }
}

/// The search path: the positions being evaluated, innermost last. Most
/// are evaluated by their game's kernel, which is simply run again once
/// the option it missed has a value, so they take only their node here;
/// the ones the interpreter expands also have an [`Opened`] frame.
#[derive(Default)]
struct Search {
    path: Path,
    opened: Vec<Opened>,
    /// Set once a sweep (see [`Machine::sweep`]) found nothing: a chain
    /// blocked low down is then descended as any search does, rather than
    /// scanned again at every step.
    no_sweep: bool,
}

/// A stack of nodes, 4 bytes each: their indices, with the game changes
/// kept apart (a chain of ten million positions of one game is 40 MB).
#[derive(Default)]
struct Path {
    indices: Vec<u32>,
    /// `(depth, game)`: from `depth` on, the nodes are of `game`.
    games: Vec<(usize, GameId)>,
}

impl Path {
    fn len(&self) -> usize {
        self.indices.len()
    }

    fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    fn push(&mut self, node: NodeId) {
        if self.games.last().is_none_or(|(_, g)| *g != node.game) {
            self.games.push((self.indices.len(), node.game));
        }
        self.indices.push(node.index);
    }

    fn pop(&mut self) {
        self.indices.pop();
        if self
            .games
            .last()
            .is_some_and(|(depth, _)| *depth == self.indices.len())
        {
            self.games.pop();
        }
    }

    fn get(&self, depth: usize) -> NodeId {
        let at = self.games.partition_point(|(d, _)| *d <= depth) - 1;
        NodeId {
            game: self.games[at].1,
            index: self.indices[depth],
        }
    }

    fn last(&self) -> NodeId {
        self.get(self.len() - 1)
    }

    /// Every node, outermost first: for errors.
    fn nodes(&self) -> Vec<NodeId> {
        (0..self.len()).map(|d| self.get(d)).collect()
    }
}

/// A position expanded by the interpreter: where its options start in the
/// arena, and the next of its components to make sure of.
struct Opened {
    /// Its place in the path.
    at: usize,
    first_option: usize,
    first_node: usize,
    cursor: usize,
}

/// The smallest value not marked, over reusable stamped marks.
#[derive(Default)]
struct Mex {
    marks: Vec<u32>,
    stamp: u32,
}

impl Mex {
    fn of(&mut self, values: impl Iterator<Item = u64>, count: usize) -> u64 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
        if self.marks.len() < count + 1 {
            self.marks.resize(count + 1, 0);
        }
        for v in values {
            // A value above the number of options cannot be the mex.
            if v <= count as u64 {
                self.marks[v as usize] = self.stamp;
            }
        }
        (0..).find(|&v| self.marks[v] != self.stamp).unwrap() as u64
    }
}

/// What running a position's kernel said.
enum Ran {
    Value(u64),
    /// This option has no value yet.
    Missing(NodeId),
    /// No kernel, or it bailed: the interpreter must expand the position.
    Interpret,
}

impl Machine {
    /// The nim-value of one node, evaluating whatever it depends on.
    pub fn node_value(&mut self, root: NodeId) -> RtResult<u64> {
        let known = self.graph.value(root);
        if known < ABSENT {
            return Ok(known);
        }
        if known == IN_PROGRESS {
            // Only a query asked from inside a rule finds a node in progress here.
            return Err(self.asks_about_itself(root));
        }
        // The common case of a table: every option is known already.
        if let Ran::Value(v) = self.run_kernel(root)? {
            return Ok(v);
        }
        let mut arena = Arena::default();
        let mut search = Search::default();
        let mut mex = Mex::default();
        let result = self.search(root, &mut arena, &mut search, &mut mex);
        result.map_err(|mut e| {
            // Leave no node marked as in progress behind an error.
            let path = search.path.nodes();
            for node in &path {
                self.graph.set_value(*node, UNKNOWN);
            }
            // Say how the search got to the position it was expanding (a
            // cycle's note already shows its path).
            let cycle = e
                .notes
                .iter()
                .any(|n| n.starts_with("cycle:") || n.starts_with("by moves:"));
            if search.path.len() > 1 && !cycle {
                e.notes
                    .push(format!("reached by the play {}", self.show_path(&path)));
            }
            e
        })
    }

    /// Runs the kernel of `node`'s game, if it has one and the node's
    /// arguments are integers. A value found is stored.
    fn run_kernel(&mut self, node: NodeId) -> RtResult<Ran> {
        let Some(kernel) = self.kernel(node.game) else {
            return Ok(Ran::Interpret);
        };
        let Scratch { args, marks } = &mut self.scratch;
        if !self.graph.int_args(node, args) {
            return Ok(Ran::Interpret);
        }
        // Ctrl-C or the time limit: the interpreter's own poll, below,
        // then says which.
        let (cancel, deadline) = (&self.cancel, self.deadline);
        let mut stop =
            || cancel.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
        let result = kernel.mex(&self.defs, &self.graph, args, marks, &mut stop);
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
            Err(Stop::Missing(game, args)) => match self.graph.find(game, &args) {
                Some(child) => Ran::Missing(child),
                // Interned here only when that cannot fail: otherwise the
                // interpreter reports the error in its own order.
                None if self.graph.len() < self.limits.max_states
                    && self.defs.game(game).is_some_and(|g| g.arity == args.len()) =>
                {
                    Ran::Missing(self.graph.insert(game, &args))
                }
                None => Ran::Interpret,
            },
            Err(Stop::Bail) => Ran::Interpret,
        })
    }

    /// The kernel of `game`, compiled on first use and again after the
    /// game is redefined; `None` for rules the kernel cannot run.
    fn kernel(&mut self, game: GameId) -> Option<Rc<Kernel>> {
        if !self.use_kernels {
            return None;
        }
        let rules = self.defs.game(game)?;
        let slot = game as usize;
        if self.kernels.len() <= slot {
            self.kernels.resize(slot + 1, None);
        }
        match &self.kernels[slot] {
            Some((compiled, kernel)) if Rc::ptr_eq(compiled, rules) => kernel.clone(),
            _ => {
                let kernel = kernel::compile(rules).map(Rc::new);
                self.kernels[slot] = Some((rules.clone(), kernel.clone()));
                kernel
            }
        }
    }

    /// Puts `node` on the search path, expanding it with the interpreter
    /// unless its kernel will evaluate it.
    fn enter(&mut self, node: NodeId, arena: &mut Arena, search: &mut Search) -> RtResult<()> {
        self.graph.set_value(node, IN_PROGRESS);
        search.path.push(node);
        if self.kernel(node.game).is_some() {
            return Ok(());
        }
        self.open(arena, search)
    }

    /// Expands the node at the top of the path with the interpreter.
    fn open(&mut self, arena: &mut Arena, search: &mut Search) -> RtResult<()> {
        let at = search.path.len() - 1;
        let node = search.path.last();
        let first_node = arena.nodes.len();
        search.opened.push(Opened {
            at,
            first_option: arena.options.len(),
            first_node,
            cursor: first_node,
        });
        graph::expand(self, node, arena)?;
        // Look for a move back onto the path before descending anywhere, so
        // a short cycle is named even when another move leads on forever.
        let back = arena.nodes[first_node..]
            .iter()
            .find(|c| self.graph.value(**c) == IN_PROGRESS);
        match back {
            Some(&child) => Err(self.cycle(&search.path.nodes(), child)),
            None => Ok(()),
        }
    }

    fn search(
        &mut self,
        root: NodeId,
        arena: &mut Arena,
        search: &mut Search,
        mex: &mut Mex,
    ) -> RtResult<u64> {
        self.enter(root, arena, search)?;
        loop {
            let at = search.path.len() - 1;
            let node = search.path.last();
            let value = if search.opened.last().is_some_and(|o| o.at == at) {
                match self.next_child(arena, search)? {
                    Some(child) => {
                        self.enter(child, arena, search)?;
                        continue;
                    }
                    None => self.close(arena, search, mex),
                }
            } else {
                match self.run_kernel(node)? {
                    Ran::Value(value) => value,
                    Ran::Missing(child) => {
                        let swept = match search.no_sweep {
                            true => None,
                            false => self.sweep(node, child)?,
                        };
                        search.no_sweep |= swept == Some(false);
                        if swept != Some(true) {
                            self.enter(child, arena, search)?;
                        }
                        continue;
                    }
                    Ran::Interpret => {
                        self.open(arena, search)?;
                        continue;
                    }
                }
            };
            search.path.pop();
            if search.path.is_empty() {
                return Ok(value);
            }
        }
    }

    /// A chain: `node` of a one-integer game misses the value of `child`
    /// just below it, and the positions below `child` have no values
    /// either, as when `value(g(10000000))` is asked first. Rather than
    /// descend the chain one position at a time (two kernel runs and a
    /// path entry each), their kernels are run from the bottom up, while
    /// each finds all its options known. Returns whether it found any
    /// value, or `None` when this is no such chain.
    ///
    /// A position swept is one the search would most likely have reached
    /// (the rules move from one position to another a few below); its
    /// value is right in any case. The sweep stops short of the
    /// `--max-states` limit, so it never makes a query fail.
    fn sweep(&mut self, node: NodeId, child: NodeId) -> RtResult<Option<bool>> {
        const GAP: u32 = 4;
        const SHORTEST: u32 = 64;
        let near = node.game == child.game
            && child.index < node.index
            && node.index - child.index <= GAP
            && node.index < graph::DENSE_END;
        let Some(dense) = self
            .graph
            .dense(child.game)
            .filter(|d| near && d.arity() == 1)
        else {
            return Ok(None);
        };
        // The lowest of the positions below `child` that have no value.
        let mut bottom = child.index;
        while bottom > 0 && matches!(dense.get(bottom - 1), UNKNOWN | ABSENT) {
            bottom -= 1;
        }
        if child.index - bottom < SHORTEST {
            return Ok(None);
        }
        let room = self
            .limits
            .max_states
            .saturating_sub(self.limits.max_states / 8);
        let mut found = false;
        for index in bottom..=child.index {
            if index % 1024 == 0 {
                self.poll()?;
            }
            let at = NodeId {
                game: node.game,
                index,
            };
            let fresh = self.graph.value(at) == graph::ABSENT;
            if fresh && self.graph.len() >= room {
                break;
            }
            if fresh {
                self.graph.insert_dense(at.game, 1, index);
            }
            if !matches!(self.run_kernel(at)?, Ran::Value(_)) {
                break;
            }
            found = true;
        }
        Ok(Some(found))
    }

    /// The next option of the expanded node on top that has no value yet.
    fn next_child(&mut self, arena: &Arena, search: &mut Search) -> RtResult<Option<NodeId>> {
        let frame = search.opened.last_mut().expect("the top node is expanded");
        while frame.cursor < arena.nodes.len() {
            let child = arena.nodes[frame.cursor];
            match self.graph.value(child) {
                UNKNOWN => return Ok(Some(child)),
                IN_PROGRESS => return Err(self.cycle(&search.path.nodes(), child)),
                _ => frame.cursor += 1,
            }
        }
        Ok(None)
    }

    /// The value of the expanded node on top, all of whose options are known.
    fn close(&mut self, arena: &mut Arena, search: &mut Search, mex: &mut Mex) -> u64 {
        let frame = search.opened.pop().expect("the top node is expanded");
        let node = search.path.get(frame.at);
        let value = self.mex_of(frame.first_option, arena, mex);
        self.graph.set_value(node, value);
        if arena.options.len() == frame.first_option {
            self.graph.set_terminal(node);
        }
        arena.options.truncate(frame.first_option);
        arena.nodes.truncate(frame.first_node);
        value
    }

    fn mex_of(&self, first_option: usize, arena: &Arena, mex: &mut Mex) -> u64 {
        let options = &arena.options[first_option..];
        let mut start = match first_option {
            0 => 0,
            i => arena.options[i - 1].1 as usize,
        };
        let graph = &self.graph;
        let values = options.iter().map(|&(heaps, end)| {
            let run = &arena.nodes[start..end as usize];
            start = end as usize;
            run.iter().fold(heaps, |acc, n| acc ^ graph.value(*n))
        });
        mex.of(values, options.len())
    }

    fn cycle(&self, stack: &[NodeId], repeated: NodeId) -> Box<Diagnostic> {
        let Some(from) = stack.iter().rposition(|n| *n == repeated) else {
            // In progress in an outer search: a query asked from inside the
            // rules of a node on that search's path reached the path again.
            let mut path: Vec<NodeId> = stack.to_vec();
            path.push(repeated);
            let (first, last) = (self.show_node(path[0]), self.show_node(repeated));
            let asker = self.running.innermost().unwrap_or(repeated);
            let message = if asker == repeated {
                format!("the rules of {last} ask about {first}, which leads back to {last}")
            } else {
                format!(
                    "the rules of {} ask about {first}, which leads to {last}, still being evaluated",
                    self.show_node(asker),
                )
            };
            let e = depends_on_itself(message);
            return Box::new(e.note(format!("by moves: {}", self.show_path(&path))));
        };
        let mut path: Vec<NodeId> = stack[from..].to_vec();
        path.push(repeated);
        let rules = self.game_ir(repeated.game);
        let err = cycle_error(self, &path);
        Box::new(err.at(rules.def.name.span, "positions of this game repeat"))
    }

    /// The error for a query, asked from inside the rules of a node, that
    /// needs `asked`, whose value is still being computed: the rules would
    /// depend on their own result. The query places it (see `call_builtin`).
    pub fn asks_about_itself(&self, asked: NodeId) -> Box<Diagnostic> {
        let running = self.running.innermost().unwrap_or(asked);
        let message = if running == asked {
            format!(
                "the rules of {} ask about {0} itself",
                self.show_node(asked)
            )
        } else {
            format!(
                "the rules of {} ask about {}, which is still being evaluated",
                self.show_node(running),
                self.show_node(asked)
            )
        };
        Box::new(depends_on_itself(message))
    }

    /// The nim-value of a position: the xor of its components' values.
    pub fn position_value(&mut self, p: &Position) -> RtResult<u64> {
        let mut total = 0;
        for c in p.components() {
            total ^= match c {
                Component::Heap(k) => *k,
                Component::Node(n) => self.node_value(*n)?,
            };
        }
        Ok(total)
    }

    /// Every move of a position, in rule order for each component. They
    /// are a sequence for the size limit: `span` is the query asking.
    pub fn moves_of(&mut self, p: &Position, span: Span) -> RtResult<Vec<MoveInfo>> {
        let mut out = Vec::new();
        for (i, c) in p.components().iter().enumerate() {
            let moves: Vec<_> = match c {
                Component::Heap(k) => {
                    // As many moves as tokens: counted before they are listed.
                    let total = (out.len() as i64).saturating_add(*k as i64);
                    self.check_size(total, span)?;
                    (0..*k)
                        .map(|j| (format!("take({})", k - j), vec![Component::Heap(j)]))
                        .collect()
                }
                Component::Node(n) => {
                    let mut recorder = Recorder::default();
                    graph::expand(self, *n, &mut recorder)?;
                    recorder.named(self)
                }
            };
            self.check_size((out.len() + moves.len()) as i64, span)?;
            for (name, by) in moves {
                let result = p.replace(i, &by);
                let value = self.position_value(&result)?;
                out.push(MoveInfo {
                    component: i,
                    name,
                    result,
                    value,
                });
            }
        }
        Ok(out)
    }

    /// The result of `value(P)` on anything that is a position.
    pub fn value_of(&mut self, v: &Value, span: Span) -> RtResult<u64> {
        let p = self.to_position(v, span, "the argument of a query")?;
        self.position_value(&p)
    }
}

/// A rule that needs the value or moves of a position still being worked
/// out; the query that asked places it (see `Machine::call_builtin`).
fn depends_on_itself(message: String) -> Diagnostic {
    Diagnostic::new(Phase::Runtime, message).help(
        "the value of a position is computed from its moves, so the rules that make \
         those moves may only ask about positions that do not lead back to it",
    )
}

/// One move of a position, as `moves(P)` reports it.
pub struct MoveInfo {
    /// Which component of the sum the move is made in.
    pub component: usize,
    /// The rule's name with its bindings, e.g. `knock(k=1, a=2)`.
    pub name: String,
    pub result: Position,
    pub value: u64,
}

/// Keeps each move's rule, binder values and target, to name it later.
#[derive(Default)]
struct Recorder {
    moves: Vec<RecordedMove>,
}

/// A rule's name, its binders' values, and the target's components.
type RecordedMove = (Rc<str>, Vec<(Rc<str>, Value)>, Vec<Component>);

impl MoveSink for Recorder {
    fn option(&mut self, rule: &MoveIr, frame: &[Value], target: &[Component]) {
        let bindings = rule
            .shown
            .iter()
            .map(|(name, slot)| (name.clone(), frame[*slot as usize].clone()))
            .collect();
        self.moves
            .push((rule.name.clone(), bindings, target.to_vec()));
    }
}

impl Recorder {
    /// Each move as `name(x=1, y=2)` with its target.
    fn named(self, m: &Machine) -> Vec<(String, Vec<Component>)> {
        self.moves
            .into_iter()
            .map(|(name, bindings, target)| {
                let pairs = bindings.iter().map(|(n, v)| (&**n, v));
                (m.show_move(&name, pairs, "="), target)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::loaded;

    fn node(m: &mut Machine, game: u32, n: i64) -> NodeId {
        m.intern(game, &[Value::Int(n)], Span::default()).unwrap()
    }

    #[test]
    fn the_path_keeps_each_nodes_game_across_changes() {
        let n = |game, index| NodeId { game, index };
        let nodes = [n(0, 5), n(0, 4), n(1, 9), n(1, 8), n(0, 3)];
        let mut path = Path::default();
        for node in nodes {
            path.push(node);
        }
        assert_eq!(path.nodes(), nodes);
        assert_eq!((path.get(2), path.last()), (n(1, 9), n(0, 3)));
        path.pop();
        path.pop();
        assert_eq!(path.last(), n(1, 9));
        path.push(n(2, 1));
        assert_eq!(path.nodes(), [n(0, 5), n(0, 4), n(1, 9), n(2, 1)]);
        (0..4).for_each(|_| path.pop());
        assert!(path.is_empty() && path.games.is_empty());
    }

    #[test]
    fn mex_is_the_smallest_missing_value() {
        let mut mex = Mex::default();
        assert_eq!(mex.of([0, 1, 3].into_iter(), 3), 2);
        assert_eq!(mex.of([].into_iter(), 0), 0);
        assert_eq!(mex.of([1, 2].into_iter(), 2), 0);
        // Marks from an earlier call do not leak into the next.
        assert_eq!(mex.of([0, 1, 2, 9].into_iter(), 4), 3);
        assert_eq!(mex.of([0].into_iter(), 1), 1);
    }

    #[test]
    fn kayles_values_match_the_published_sequence() {
        let (mut session, _) = loaded(
            "game kayles(n) {\n move knock(k in 1..=2, a in 0..=n - k) -> kayles(a) + kayles(n - k - a)\n}\n",
        );
        let m = &mut session.machine;
        let values: Vec<u64> = (0..24)
            .map(|n| {
                let id = node(m, 0, n);
                m.node_value(id).unwrap()
            })
            .collect();
        assert_eq!(
            values,
            [
                0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7
            ]
        );
    }

    #[test]
    fn values_are_memoized_in_the_graph() {
        let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
        let m = &mut session.machine;
        let top = node(m, 0, 30);
        assert_eq!(m.node_value(top).unwrap(), 30);
        let below = node(m, 0, 17);
        assert_eq!(
            m.graph.value(below),
            17,
            "evaluating nim(30) evaluated nim(17)"
        );
        assert_eq!(m.graph.len(), 31);
    }

    #[test]
    fn sums_xor_their_components_and_heaps() {
        let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
        let m = &mut session.machine;
        let (a, b) = (node(m, 0, 3), node(m, 0, 5));
        let p = Position::from_components(vec![
            Component::Node(a),
            Component::Node(b),
            Component::Heap(7),
        ]);
        assert_eq!(m.position_value(&p).unwrap(), 3 ^ 5 ^ 7);
    }

    #[test]
    fn a_cycle_is_an_error_naming_it_and_leaves_nothing_in_progress() {
        let (mut session, _) =
            loaded("game g(n) {\n move a -> g(n + 1)\n move b if n == 3 -> g(1)\n}\n");
        let m = &mut session.machine;
        let start = node(m, 0, 1);
        let err = m.node_value(start).unwrap_err();
        assert_eq!(err.message, "the position g(1) can be reached from itself");
        assert_eq!(err.notes[0], "cycle: g(1) -> g(2) -> g(3) -> g(1)");
        assert_eq!(m.graph.value(start), crate::graph::UNKNOWN);
        assert!(
            m.node_value(start).is_err(),
            "asking again reports the cycle again"
        );
    }

    #[test]
    fn a_rule_may_ask_through_a_function_about_smaller_positions() {
        let (mut session, _) = loaded(
            "fn lost(n) = value(g(n)) == 0\n\
             game g(n) {\n move m(k in 1..=2) if k <= n and lost(n - k) -> g(n - k)\n}\n",
        );
        let m = &mut session.machine;
        let top = node(m, 0, 4);
        assert_eq!(m.node_value(top).unwrap(), 1);
    }

    #[test]
    fn a_rule_asking_about_its_own_position_is_an_error_at_the_query() {
        let src = "fn v(n) = value(g(n))\n\
                   fn o(n) = options(h(n))\n\
                   fn w(n) = value(f(n))\n\
                   game g(n) {\n move m(k in 1..=n) if v(n) == 0 -> g(n - k)\n}\n\
                   game h(n) {\n move m(p in o(n)) -> p\n}\n\
                   game e(n) {\n move m if w(n) == 0 -> e(n - 1)\n}\n\
                   game f(n) {\n move back -> e(n)\n}\n";
        let (mut session, _) = loaded(src);
        let m = &mut session.machine;
        let g3 = node(m, 0, 3);
        let err = m.node_value(g3).unwrap_err();
        assert_eq!(err.message, "the rules of g(3) ask about g(3) itself");
        assert_eq!(err.label, "asked here");
        let span = err.span.expect("placed at the query");
        assert_eq!(&src[span.start as usize..span.end as usize], "value(g(n))");
        assert_eq!(err.notes, ["while expanding g(3), move m(k = 1)"]);
        assert_eq!(m.graph.value(g3), UNKNOWN);
        assert_eq!(m.running.innermost(), None);
        // Asking for the moves instead would never end.
        let h2 = node(m, 1, 2);
        let p = Position::node(h2);
        let err = m
            .moves_of(&p, Span::default())
            .err()
            .expect("an error, not an endless recursion");
        assert_eq!(err.message, "the rules of h(2) ask about h(2) itself");
        // Asking about a position that leads back by moves.
        let e2 = node(m, 2, 2);
        let err = m.node_value(e2).unwrap_err();
        assert_eq!(
            err.message,
            "the rules of e(2) ask about f(2), which leads back to e(2)"
        );
        assert_eq!(err.notes[0], "by moves: f(2) -> e(2)");
    }

    #[test]
    fn a_rule_asking_about_a_position_leading_to_the_search_path_names_the_asker() {
        let (mut session, _) = loaded(
            "fn v(n) = value(h(n))\n\
             game g(n) {\n move m(k in 1..=n) if n != 4 or v(n) == 0 -> g(n - k)\n}\n\
             game h(n) {\n move x -> g(n + 1)\n}\n",
        );
        let m = &mut session.machine;
        let g5 = node(m, 0, 5);
        let err = m.node_value(g5).unwrap_err();
        assert_eq!(
            err.message,
            "the rules of g(4) ask about h(4), which leads to g(5), still being evaluated"
        );
        assert_eq!(
            err.notes,
            [
                "by moves: h(4) -> g(5)",
                "while expanding g(4), move m(k = 1)"
            ]
        );
    }

    #[test]
    fn moves_of_a_sum_replace_one_component_each() {
        let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
        let m = &mut session.machine;
        let a = node(m, 0, 1);
        let p = Position::from_components(vec![Component::Node(a), Component::Heap(2)]);
        let moves = m.moves_of(&p, Span::default()).unwrap();
        let shown: Vec<(String, String, u64)> = moves
            .iter()
            .map(|mv| (mv.name.clone(), m.show_position(&mv.result), mv.value))
            .collect();
        assert_eq!(
            shown,
            [
                ("take(k=1)".to_string(), "nim(0) + *2".to_string(), 2),
                ("take(2)".to_string(), "nim(1)".to_string(), 1),
                ("take(1)".to_string(), "nim(1) + *1".to_string(), 0),
            ]
        );
    }
}
