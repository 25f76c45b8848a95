//! `graph(P)`: the positions reachable from `P`, found breadth first and
//! handed to [`crate::render::dot`] to draw. Only positions of one
//! component are played: a move into a sum leads to a node for the sum,
//! which is split into its components, and those are played on their own
//! (a sum's moves are its components' moves). Components without moves
//! are left out of a move's result, as `moves(P)` shows it.

use crate::render::dot::{Edge, Node, TransitionGraph};
use crate::runtime::{Machine, RtResult};
use crate::span::Span;
use crate::value::{Component, Position, Value};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// How far a graph is drawn: moves from the start, and nodes in all.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub depth: usize,
    pub nodes: usize,
}

impl Default for Bounds {
    /// Enough for the whole graph of a small position, and few enough
    /// nodes that Graphviz lays them out readably.
    fn default() -> Self {
        Bounds {
            depth: 12,
            nodes: 100,
        }
    }
}

/// The graph being found: nodes by position, arrows by their ends, and
/// the positions still to play with their depth.
struct Found {
    graph: TransitionGraph,
    ids: FxHashMap<Position, usize>,
    arrows: FxHashMap<(usize, usize), usize>,
    /// Whether each component met has moves.
    has_moves: FxHashMap<Component, bool>,
    queue: VecDeque<(Position, usize)>,
    bounds: Bounds,
}

impl Machine {
    /// The transition graph from `p`, within `bounds`; `span` is the
    /// position's, for errors.
    pub fn transition_graph(
        &mut self,
        p: &Value,
        span: Span,
        bounds: Bounds,
    ) -> RtResult<TransitionGraph> {
        let start = self.to_position(p, span, "the argument of `graph`")?;
        let mut found = Found {
            graph: TransitionGraph {
                title: self.show_position(&start),
                ..Default::default()
            },
            ids: FxHashMap::default(),
            arrows: FxHashMap::default(),
            has_moves: FxHashMap::default(),
            queue: VecDeque::new(),
            bounds,
        };
        // The start is drawn whatever the node limit.
        found.bounds.nodes = found.bounds.nodes.max(1 + start.components().len());
        self.node_for(&mut found, &start, 0)?;
        while let Some((at, depth)) = found.queue.pop_front() {
            self.play(&mut found, &at, depth, span)?;
        }
        Ok(found.graph)
    }

    /// Draws the moves of `at`, a position of one component at `depth`.
    fn play(&mut self, found: &mut Found, at: &Position, depth: usize, span: Span) -> RtResult<()> {
        let from = found.ids[at];
        let moves = self.moves_of(at, span)?;
        if depth >= found.bounds.depth {
            if !moves.is_empty() {
                found.graph.nodes[from].open = true;
                found.graph.cut.depth = Some(found.bounds.depth);
            }
            return Ok(());
        }
        for m in moves {
            let target = self.live(found, &m.result, span)?;
            let Some(to) = self.node_for(found, &target, depth + 1)? else {
                found.graph.nodes[from].open = true;
                found.graph.cut.nodes = Some(found.bounds.nodes);
                continue;
            };
            match found.arrows.get(&(from, to)) {
                Some(&i) => {
                    if let Edge::Move { moves, .. } = &mut found.graph.edges[i] {
                        moves.push(m.name);
                    }
                }
                None => {
                    found.arrows.insert((from, to), found.graph.edges.len());
                    found.graph.edges.push(Edge::Move {
                        from,
                        to,
                        moves: vec![m.name],
                    });
                }
            }
        }
        Ok(())
    }

    /// The node of `p`, made (with its components' nodes, for a sum) if
    /// it is new and the node limit leaves room for it: `None` if not.
    fn node_for(
        &mut self,
        found: &mut Found,
        p: &Position,
        depth: usize,
    ) -> RtResult<Option<usize>> {
        if let Some(&id) = found.ids.get(p) {
            return Ok(Some(id));
        }
        let parts = self.parts(p);
        let mut new: Vec<&Position> = Vec::new();
        if parts.len() > 1 {
            for part in &parts {
                if !found.ids.contains_key(part) && !new.contains(&part) {
                    new.push(part);
                }
            }
        }
        if found.graph.nodes.len() + 1 + new.len() > found.bounds.nodes {
            return Ok(None);
        }
        let id = self.add_node(found, p, depth)?;
        if parts.len() > 1 {
            let mut values = Vec::with_capacity(parts.len());
            for part in &parts {
                let component = match found.ids.get(part) {
                    Some(&c) => c,
                    None => self.add_node(found, part, depth)?,
                };
                values.push(found.graph.nodes[component].value);
                found.graph.edges.push(Edge::Part { sum: id, component });
            }
            let node = &mut found.graph.nodes[id];
            node.parts = values;
            node.position = parts
                .iter()
                .map(|part| self.show_position(part))
                .collect::<Vec<_>>()
                .join(" + ");
        }
        Ok(Some(id))
    }

    /// A new node for `p`; one of one component is queued to be played.
    fn add_node(&mut self, found: &mut Found, p: &Position, depth: usize) -> RtResult<usize> {
        let id = found.graph.nodes.len();
        found.graph.nodes.push(Node {
            position: self.show_position(p),
            value: self.position_value(p)?,
            parts: Vec::new(),
            open: false,
        });
        found.ids.insert(p.clone(), id);
        if p.components().len() <= 1 {
            found.queue.push_back((p.clone(), depth));
        }
        Ok(id)
    }

    /// A move's result without its components that have no moves, as
    /// `moves(P)` shows it; if none has any, one of them stands for all
    /// (they play as the empty position).
    fn live(&mut self, found: &mut Found, p: &Position, span: Span) -> RtResult<Position> {
        let mut live = Vec::new();
        for c in p.components() {
            let has_moves = match found.has_moves.get(c) {
                Some(&known) => known,
                None => {
                    // A value other than 0 needs a move; a position of
                    // value 0 may or may not have some.
                    let alone = Position::from_components(vec![*c]);
                    let known = match (self.position_value(&alone)?, c) {
                        (0, Component::Node(n)) if self.graph.is_terminal(*n) => false,
                        (0, _) => !self.moves_of(&alone, span)?.is_empty(),
                        _ => true,
                    };
                    found.has_moves.insert(*c, known);
                    known
                }
            };
            if has_moves {
                live.push(*c);
            }
        }
        Ok(match (live.is_empty(), p.components().first()) {
            (false, _) => Position::from_components(live),
            (true, Some(c)) => Position::from_components(vec![*c]),
            (true, None) => p.clone(),
        })
    }

    /// The components of `p` each as a position, in the order a sum is
    /// shown: games by name and arguments, then heaps.
    fn parts(&self, p: &Position) -> Vec<Position> {
        let mut comps = p.components().to_vec();
        comps.sort_by(|a, b| self.shown_order(a, b));
        comps
            .into_iter()
            .map(|c| Position::from_components(vec![c]))
            .collect()
    }
}

impl Machine {
    /// `graph(P[, depth[, nodes]])`: the DOT text of the transition graph.
    pub(super) fn graph_of(&mut self, args: &[Value], spans: &[Span]) -> RtResult<Value> {
        let mut bounds = Bounds::default();
        if let Some(depth) = args.get(1) {
            bounds.depth = self.bound(depth, spans[1], 0, "the depth")?;
        }
        if let Some(nodes) = args.get(2) {
            bounds.nodes = self.bound(nodes, spans[2], 1, "the number of nodes")?;
        }
        let graph = self.transition_graph(&args[0], spans[0], bounds)?;
        // Printed, the string gets its line break back.
        let text = crate::render::dot::to_dot(&graph);
        Ok(Value::str(text.trim_end()))
    }

    /// A limit given to `graph`: an integer of at least `least`.
    fn bound(&self, v: &Value, span: Span, least: i64, what: &str) -> RtResult<usize> {
        match v {
            Value::Int(n) if *n >= least => Ok(*n as usize),
            Value::Int(n) => Err(crate::runtime::error(
                span,
                format!("{what} of a graph must be at least {least}, not {n}"),
                "this limit",
            )),
            other => Err(crate::runtime::error(
                span,
                format!(
                    "{what} of a graph must be an integer, found {}",
                    other.type_name()
                ),
                format!("this is {}", self.show(other)),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::loaded;

    const NIM: &str = "game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n";

    fn graph_of(src: &str, p: &str, bounds: Bounds) -> TransitionGraph {
        let (mut session, _) = loaded(src);
        let (v, span) = session.value(p).unwrap_or_else(|_| panic!("{p}"));
        session.machine.transition_graph(&v, span, bounds).unwrap()
    }

    #[test]
    fn a_nim_heap_reaches_every_smaller_heap_once() {
        let g = graph_of(NIM, "nim(6)", Bounds::default());
        assert_eq!(g.nodes.len(), 7);
        // Node i is nim(6 - i): met in the order of the moves.
        for (i, node) in g.nodes.iter().enumerate() {
            assert_eq!(node.position, format!("nim({})", 6 - i));
            assert_eq!(node.value, 6 - i as u64);
            assert!(!node.open);
        }
        let moves = g
            .edges
            .iter()
            .filter(|e| matches!(e, Edge::Move { .. }))
            .count();
        assert_eq!(
            moves,
            6 * 7 / 2,
            "an arrow from each heap to each smaller one"
        );
        assert_eq!((g.cut.depth, g.cut.nodes), (None, None));
    }

    #[test]
    fn the_limits_cut_the_graph_and_mark_where() {
        let bounds = Bounds {
            depth: 1,
            nodes: 100,
        };
        let g = graph_of(NIM, "nim(6)", bounds);
        assert_eq!(g.cut.depth, Some(1));
        let open: Vec<&str> = g
            .nodes
            .iter()
            .filter(|n| n.open)
            .map(|n| &*n.position)
            .collect();
        // Every heap but the start and nim(0) has moves left to draw.
        assert_eq!(open, ["nim(5)", "nim(4)", "nim(3)", "nim(2)", "nim(1)"]);
        let bounds = Bounds {
            depth: 12,
            nodes: 3,
        };
        let g = graph_of(NIM, "nim(6)", bounds);
        assert_eq!((g.nodes.len(), g.cut.nodes), (3, Some(3)));
    }

    #[test]
    fn a_sum_is_split_into_its_components_and_played_from_them() {
        let g = graph_of(NIM, "nim(2) + nim(2) + *3", Bounds::default());
        let start = &g.nodes[0];
        assert_eq!(start.position, "nim(2) + nim(2) + *3");
        assert_eq!((start.value, &start.parts[..]), (3, &[2, 2, 3][..]));
        let parts: Vec<&Edge> = g
            .edges
            .iter()
            .filter(|e| matches!(e, Edge::Part { .. }))
            .collect();
        assert_eq!(parts.len(), 3, "one line per component, copies included");
        // nim(2) -> nim(0): the component without moves stands alone.
        assert!(g.nodes.iter().any(|n| n.position == "nim(0)"));
        assert!(
            g.nodes
                .iter()
                .all(|n| n.parts.is_empty() || n.parts.len() > 1)
        );
    }
}
