//! The queries on positions: `value(P)` of any sum, and `moves(P)`, every
//! move of a sum with its value. They ask the search
//! ([`super::search`]) for the values of the positions they meet.

use super::moves::{self, MoveSink};
use crate::diag::{Diagnostic, Phase};
use crate::ir::MoveIr;
use crate::runtime::kernel::listing::{Listing, Target};
use crate::runtime::kernel::{self, Kernel};
use crate::runtime::normalize;
use crate::runtime::{Machine, RtResult, Scratch, compiled_for, keep_compiled, stop_asked};
use crate::span::Span;
use crate::value::GameId;
use crate::value::{Component, NodeId, Position, Value};
use std::mem::take;
use std::rc::Rc;

impl Machine {
    /// The nim-value of a position: the xor of its components' values.
    ///
    /// A sum's components are sorted, so copies of a node come together:
    /// each node is evaluated once, and an even number of copies cancels
    /// out. A sum of a hundred thousand positions of a few hundred kinds
    /// asks the graph a few hundred times.
    pub fn position_value(&mut self, p: &Position) -> RtResult<u64> {
        let mut total = 0;
        let comps = p.components();
        let mut i = 0;
        while let Some(c) = comps.get(i) {
            let copies = comps[i..].iter().take_while(|d| *d == c).count();
            let v = match c {
                Component::Heap(k) => *k,
                Component::Node(n) => self.node_value(*n)?,
            };
            if copies % 2 == 1 {
                total ^= v;
            }
            i += copies;
        }
        Ok(total)
    }

    /// Every move of a position, in rule order for each component. They
    /// are a sequence for the size limit: `span` is the query asking.
    pub fn moves_of(&mut self, p: &Position, span: Span) -> RtResult<Vec<MoveInfo>> {
        self.all_moves(p, span, (true, &|_| true))
            .map_err(|e| self.blame_argument(e, p, span))
    }

    /// [`Machine::moves_of`] without the moves' names (each empty), and
    /// only those whose value `keep` keeps: for a search over the options,
    /// which names none of them (`line`'s, which follows the winning
    /// ones from a winning position).
    pub fn options_where(
        &mut self,
        p: &Position,
        span: Span,
        keep: &dyn Fn(u64) -> bool,
    ) -> RtResult<Vec<MoveInfo>> {
        self.all_moves(p, span, (false, keep))
            .map_err(|e| self.blame_argument(e, p, span))
    }

    fn all_moves(
        &mut self,
        p: &Position,
        span: Span,
        (named, keep): (bool, &dyn Fn(u64) -> bool),
    ) -> RtResult<Vec<MoveInfo>> {
        let mut out = Vec::new();
        for (i, c) in p.components().iter().enumerate() {
            let moves: Vec<_> = match c {
                Component::Heap(k) => {
                    // As many moves as tokens: counted before they are listed.
                    let total = (out.len() as i64).saturating_add(*k as i64);
                    self.check_size(total, span)?;
                    let name = |j: u64| match named {
                        true => format!("take({})", k - j),
                        false => String::new(),
                    };
                    (0..*k)
                        .map(|j| (name(j), vec![Component::Heap(j)]))
                        .collect()
                }
                Component::Node(n) => self.node_moves(*n, named, (out.len(), span))?,
            };
            self.check_size((out.len() + moves.len()) as i64, span)?;
            for (name, by) in moves {
                // A position alone moving to one of a node and heaps: its
                // value read before the position is made, which one that
                // is not kept then never is.
                let alone = p.components().len() == 1
                    && by
                        .iter()
                        .filter(|c| matches!(c, Component::Node(_)))
                        .count()
                        <= 1;
                let (result, value) = if alone {
                    let value = self.components_value(&by)?;
                    if !keep(value) {
                        continue;
                    }
                    (p.replace(i, &by), value)
                } else {
                    let result = p.replace(i, &by);
                    let value = self.position_value(&result)?;
                    if !keep(value) {
                        continue;
                    }
                    (result, value)
                };
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

    /// The moves of `node`, each named when `named` (else with an empty
    /// name): listed by its compiled rules where they list them, else by
    /// the interpreter's move generation. More than `--max-items` less
    /// the `before` listed already is the error that their number is too
    /// large, which `span` asks: they are counted, not held.
    fn node_moves(
        &mut self,
        node: NodeId,
        named: bool,
        (before, span): (usize, Span),
    ) -> RtResult<Vec<(String, Vec<Component>)>> {
        let (moves, beyond) = match self.listed_moves(node, named, before) {
            Some(listed) => listed,
            None => {
                let room = self.limits.max_items.saturating_sub(before);
                let mut recorder = Recorder::new(named, room);
                moves::expand(self, node, &mut recorder)?;
                let beyond = recorder.beyond;
                (recorder.named(self), beyond)
            }
        };
        if beyond > 0 {
            self.check_size((before + moves.len() + beyond) as i64, span)?;
        }
        Ok(moves)
    }

    /// The moves of `node`, each named when `named` (else with an empty
    /// name), as its compiled rules list them: the moves the
    /// interpreter's move generation would make, in its order, with its
    /// names (see [`crate::runtime::kernel::listing`]). `None` where the
    /// interpreter must make them: rules that do not compile or do not
    /// list, arguments they do not take, an error to report (which the
    /// interpreter reports in its own words), a position past
    /// `--max-states`, or one whose rules are running (a query about
    /// itself). Beside them, how many more moves there were than the
    /// `--max-items` left after `before` others: counted, not kept.
    fn listed_moves(&mut self, node: NodeId, named: bool, before: usize) -> Option<Listed> {
        if !self.use_kernels
            || self.running.contains(node)
            || self.stale_instance(node.game).is_some()
        {
            return None;
        }
        let kernel = match self.kernel(node.game)? {
            kernel if kernel.lists_moves() => kernel,
            _ => self.listing_kernel(node.game)?,
        };
        let mut args = take(&mut self.scratch.args);
        let found = match kernel.takes_lists() {
            true => self.graph.flat_args(node, &mut args),
            false => self.graph.int_args(node, &mut args),
        };
        // Integers past what its linear forms take: the twin lists them.
        let kernel = match found && kernel.too_wide(&args) {
            true => self.wide_kernel(node.game).filter(|k| k.lists_moves()),
            false => Some(kernel).filter(|_| found),
        };
        let Scratch { marks, listing, .. } = &mut self.scratch;
        listing.keep_at_most(self.limits.max_items.saturating_sub(before));
        let mut stop = stop_asked(&self.cancel, self.deadline);
        let graph = (&self.defs, &self.graph);
        let listed = (kernel.as_ref())
            .is_some_and(|k| k.list(graph, &args, marks, &mut stop, listing).is_ok());
        drop(stop);
        self.scratch.args = args;
        let kernel = kernel.filter(|_| listed)?;
        let listing = take(&mut self.scratch.listing);
        let moves = self.listed(&kernel, &listing, named);
        let beyond = listing.beyond();
        self.scratch.listing = listing;
        self.moves_listed += moves.is_some() as u64;
        Some((moves?, beyond))
    }

    /// The rules of `game` compiled to list its positions' moves in the
    /// written order, where its own kernel does not (it unrolled a
    /// binder inside another's loop: see [`normalize::listing_rules`]);
    /// compiled on first need.
    fn listing_kernel(&mut self, game: GameId) -> Option<Rc<Kernel>> {
        if let Some(kernel) = compiled_for(&self.listing_kernels, &self.defs, game) {
            return kernel.clone();
        }
        let rules = self.game_ir(game);
        let normal = normalize::listing_rules(&rules, &self.defs);
        let normal = self.made_rules(&normal);
        let hints = (self.hints.get(game as usize))
            .map(|h| h.shapes.clone())
            .unwrap_or_default();
        let max_depth = self.limits.max_depth;
        let kernel = kernel::compile_hinted(&normal, (game, &hints), &self.defs, max_depth)
            .filter(Kernel::lists_moves)
            .map(Rc::new);
        keep_compiled(&mut self.listing_kernels, game, (rules, kernel.clone()));
        kernel
    }

    /// The moves `listing` holds, their positions interned: `None` when
    /// one is past `--max-states`.
    fn listed(
        &mut self,
        kernel: &Kernel,
        listing: &Listing,
        named: bool,
    ) -> Option<Vec<(String, Vec<Component>)>> {
        let mut moves = Vec::with_capacity(listing.len());
        for i in 0..listing.len() {
            let target = (listing.targets(i))
                .map(|t| match t {
                    Target::Heap(k) => Some(Component::Heap(k)),
                    Target::Node(game, args) => self.intern_ints(game, args).map(Component::Node),
                    Target::Flat(game, run) => self.intern_flat(game, run).map(Component::Node),
                })
                .collect::<Option<Vec<_>>>()?;
            let name = match named {
                true => {
                    let (name, values) = listing.name(kernel, i);
                    self.show_move(&name, values.iter().map(|(n, v)| (&**n, v)), "=")
                }
                false => String::new(),
            };
            moves.push((name, target));
        }
        Some(moves)
    }

    /// The xor of the values of `comps`, which hold at most one node
    /// (no copies to cancel): the value of their sum.
    fn components_value(&mut self, comps: &[Component]) -> RtResult<u64> {
        comps.iter().try_fold(0, |x, c| {
            Ok(x ^ match c {
                Component::Heap(k) => *k,
                Component::Node(n) => self.node_value(*n)?,
            })
        })
    }

    /// The result of `value(P)` on anything that is a position.
    pub fn value_of(&mut self, v: &Value, span: Span) -> RtResult<u64> {
        let p = self.to_position(v, span, "the argument of a query")?;
        self.position_value(&p)
            .map_err(|e| self.blame_argument(e, &p, span))
    }

    /// [`Machine::value_of`] of the position of one node, `node`.
    pub fn value_of_node(&mut self, node: NodeId, span: Span) -> RtResult<u64> {
        self.node_value(node)
            .map_err(|e| self.blame_argument(e, &Position::node(node), span))
    }

    /// A type error raised by the rules of a position that the query was
    /// given (not one reached by moves), about a value of the type of one
    /// of its non-integer arguments, is about what was passed there: it is
    /// reported at the query's argument, `arg`, with the place in the rule
    /// where it failed as a second label.
    fn blame_argument(&self, mut e: Box<Diagnostic>, p: &Position, arg: Span) -> Box<Diagnostic> {
        let Some(first) = e.notes.iter().find(|n| n.starts_with("while expanding ")) else {
            return e;
        };
        // What the message says was wrong: `... applied to an integer and a
        // string`, `expected ..., found a list`.
        let culprit = ["applied to ", "found "]
            .iter()
            .find_map(|w| e.message.split_once(w).map(|(_, rest)| rest.to_string()));
        let given = p.components().iter().find_map(|c| match c {
            Component::Node(n) => {
                let shown = self.show_node(*n);
                let own = first["while expanding ".len()..].starts_with(&format!("{shown}, "));
                let odd = self.node_args(*n).iter().any(|a| {
                    !matches!(a, Value::Int(_))
                        && culprit.as_ref().is_some_and(|c| c.contains(a.type_name()))
                });
                (own && odd).then_some(shown)
            }
            Component::Heap(_) => None,
        });
        let (Some(shown), Some(failed), Phase::Runtime) = (given, e.span, e.phase) else {
            return e;
        };
        let given = match p.components().len() {
            1 => format!("{shown} is given here"),
            _ => format!("this sum includes {shown}"),
        };
        let label = std::mem::replace(&mut e.label, given);
        e.extra.insert(0, (failed, label));
        e.span = Some(arg);
        e
    }
}

/// A position's moves as its compiled rules list them, each named or
/// not, and how many more there were than the room left for them.
type Listed = (Vec<(String, Vec<Component>)>, usize);

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
struct Recorder {
    moves: Vec<RecordedMove>,
    /// Whether to keep the binders' values, to name the moves.
    named: bool,
    /// How many moves to keep at most, and how many more there were.
    room: usize,
    beyond: usize,
}

/// A rule's name, its binders' values, and the target's components.
type RecordedMove = (Rc<str>, Vec<(Rc<str>, Value)>, Vec<Component>);

impl MoveSink for Recorder {
    fn option(&mut self, _m: &Machine, rule: &MoveIr, frame: &[Value], target: &[Component]) {
        if self.moves.len() >= self.room {
            self.beyond += 1;
            return;
        }
        let bindings = match self.named {
            true => (rule.shown.iter())
                .map(|(name, slot)| (name.clone(), frame[*slot as usize].clone()))
                .collect(),
            false => Vec::new(),
        };
        self.moves
            .push((rule.name.clone(), bindings, target.to_vec()));
    }
}

impl Recorder {
    fn new(named: bool, room: usize) -> Recorder {
        Recorder {
            moves: Vec::new(),
            named,
            room,
            beyond: 0,
        }
    }

    /// Each move as `name(x=1, y=2)` (or unnamed) with its target.
    fn named(self, m: &Machine) -> Vec<(String, Vec<Component>)> {
        let named = self.named;
        self.moves
            .into_iter()
            .map(|(name, bindings, target)| {
                let pairs = bindings.iter().map(|(n, v)| (&**n, v));
                match named {
                    true => (m.show_move(&name, pairs, "="), target),
                    false => (String::new(), target),
                }
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
    fn copies_of_a_component_cancel_in_pairs() {
        let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
        let m = &mut session.machine;
        let (a, b) = (node(m, 0, 3), node(m, 0, 5));
        let p = |comps: &[Component]| Position::from_components(comps.to_vec());
        let (na, nb, h) = (Component::Node(a), Component::Node(b), Component::Heap(6));
        // Unsorted on purpose: a sum is sorted when made.
        let cases = [
            (p(&[na, nb, na]), 5),
            (p(&[na, na, nb, na]), 3 ^ 5),
            (p(&[h, na, h, nb, nb, h, na]), 6),
            (p(&[na, na, nb, nb, h, h]), 0),
            (p(&[na]), 3),
        ];
        for (sum, value) in cases {
            assert_eq!(m.position_value(&sum).unwrap(), value);
        }
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

    #[test]
    fn options_are_the_moves_unnamed() {
        let (mut session, _) = loaded(
            "game g(n) {\n move take(k in 1..=n) if k != 2 -> g(n - k)\n move split if n >= 3 -> g(1) + g(n - 2)\n}\n",
        );
        let m = &mut session.machine;
        let (a, b) = (node(m, 0, 5), node(m, 0, 3));
        let p = Position::from_components(vec![
            Component::Node(a),
            Component::Node(b),
            Component::Heap(2),
        ]);
        let moves = m.moves_of(&p, Span::default()).unwrap();
        let options = m.options_where(&p, Span::default(), &|_| true).unwrap();
        let results = |ms: &[MoveInfo]| -> Vec<(usize, Position, u64)> {
            ms.iter()
                .map(|m| (m.component, m.result.clone(), m.value))
                .collect()
        };
        assert_eq!(moves.len(), 4 + 1 + 2 + 1 + 2);
        assert_eq!(results(&options), results(&moves));
        assert!(options.iter().all(|m| m.name.is_empty()));
        assert!(moves.iter().all(|m| !m.name.is_empty()));
    }
}
