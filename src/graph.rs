//! Phase 4: the transition graph. Positions of each game are interned to
//! dense [`NodeId`]s (a game's arguments are its state, so equal argument
//! lists are the same node), and each node's nim-value, once known, is kept
//! in a flat array beside it. [`expand`] produces a node's moves by running
//! its game's lowered rules; the evaluator walks the graph through it, so
//! the graph is generated lazily, only as far as a query needs.

use crate::diag::{Diagnostic, Phase};
use crate::interp::{Machine, RtResult};
use crate::ir::{MoveIr, PatIr, TargetIr, TermIr};
use crate::value::{Component, GameId, NodeId, Value};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// A node's value slot before its value is known.
pub const UNKNOWN: u64 = u64::MAX;
/// A node whose value is being computed: it is on the evaluator's path.
pub const IN_PROGRESS: u64 = u64::MAX - 1;

#[derive(Default)]
struct NodeTable {
    index: FxHashMap<Rc<[Value]>, u32>,
    args: Vec<Rc<[Value]>>,
    values: Vec<u64>,
    /// Nodes evaluated and found to have no moves at all.
    terminal: Vec<bool>,
}

/// Every node interned so far, by game.
#[derive(Default)]
pub struct Graph {
    games: Vec<NodeTable>,
    total: usize,
}

impl Graph {
    pub fn len(&self) -> usize {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The node of `game` with these arguments, if it exists already.
    pub fn find(&self, game: GameId, args: &[Value]) -> Option<NodeId> {
        let table = self.games.get(game as usize)?;
        let index = *table.index.get(args)?;
        Some(NodeId { game, index })
    }

    /// Adds a node (the caller has checked it is new and within limits).
    pub fn insert(&mut self, game: GameId, args: &[Value]) -> NodeId {
        if self.games.len() <= game as usize {
            self.games
                .resize_with(game as usize + 1, NodeTable::default);
        }
        let table = &mut self.games[game as usize];
        let index = table.args.len() as u32;
        let key: Rc<[Value]> = Rc::from(args);
        table.index.insert(key.clone(), index);
        table.args.push(key);
        table.values.push(UNKNOWN);
        table.terminal.push(false);
        self.total += 1;
        NodeId { game, index }
    }

    pub fn args(&self, node: NodeId) -> &Rc<[Value]> {
        &self.games[node.game as usize].args[node.index as usize]
    }

    pub fn value(&self, node: NodeId) -> u64 {
        self.games[node.game as usize].values[node.index as usize]
    }

    pub fn set_value(&mut self, node: NodeId, value: u64) {
        self.games[node.game as usize].values[node.index as usize] = value;
    }

    pub fn set_terminal(&mut self, node: NodeId) {
        self.games[node.game as usize].terminal[node.index as usize] = true;
    }

    /// True for a node known to have no moves (it plays like the empty position).
    pub fn is_terminal(&self, node: NodeId) -> bool {
        self.games[node.game as usize].terminal[node.index as usize]
    }

    /// Positions memoized per game: (game, nodes, nodes with a known value).
    pub fn stats(&self) -> impl Iterator<Item = (GameId, usize, usize)> + '_ {
        self.games.iter().enumerate().map(|(g, t)| {
            let known = t.values.iter().filter(|v| **v < IN_PROGRESS).count();
            (g as GameId, t.args.len(), known)
        })
    }

    /// Forgets every value (nodes stay interned, so positions held in
    /// variables stay valid); they are recomputed under the current rules.
    pub fn clear_values(&mut self) {
        for table in &mut self.games {
            table.values.fill(UNKNOWN);
            table.terminal.fill(false);
        }
    }
}

/// Receives the moves of a node as [`expand`] finds them.
pub trait MoveSink {
    /// One move: the rule, the frame (binder values), the resulting components.
    fn option(&mut self, rule: &MoveIr, frame: &[Value], target: &[Component]);
}

/// Runs the rules of `node`'s game and hands each legal move to `sink`.
pub fn expand(m: &mut Machine, node: NodeId, sink: &mut dyn MoveSink) -> RtResult<()> {
    let game = m.game_ir(node.game);
    let mut frame = vec![Value::Int(0); game.slots];
    frame[..game.arity].clone_from_slice(m.graph.args(node));
    let mut target = Vec::new();
    for rule in &game.moves {
        let mut ctx = Expansion {
            rule,
            target: &mut target,
            sink: &mut *sink,
        };
        ctx.binders(m, 0, &mut frame)
            .map_err(|e| m.while_expanding(e, node, rule, &frame))?;
    }
    Ok(())
}

struct Expansion<'a> {
    rule: &'a MoveIr,
    target: &'a mut Vec<Component>,
    sink: &'a mut dyn MoveSink,
}

impl Expansion<'_> {
    /// Enumerates binder `i` and the ones after it, then the guard and target.
    fn binders(&mut self, m: &mut Machine, i: usize, frame: &mut [Value]) -> RtResult<()> {
        let Some((pattern, domain)) = self.rule.binders.get(i) else {
            return self.emit(m, frame);
        };
        let domain_value = m.eval(domain, frame)?;
        if let (PatIr::Slot(slot), Value::Range(lo, hi)) = (pattern, &domain_value) {
            // The common case, without building the list of the range.
            for k in *lo..*hi {
                frame[*slot as usize] = Value::Int(k);
                self.binders(m, i + 1, frame)?;
            }
            return Ok(());
        }
        for item in m.items(&domain_value, domain.span)?.iter() {
            m.bind(pattern, item.clone(), frame)?;
            self.binders(m, i + 1, frame)?;
        }
        Ok(())
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
        self.sink.option(self.rule, frame, self.target);
        Ok(())
    }
}

/// The error for a node that can reach itself.
pub fn cycle_error(path: Vec<String>) -> Diagnostic {
    let shown = if path.len() > 12 {
        let mut p = path[..6].to_vec();
        p.push(format!("... {} more ...", path.len() - 11));
        p.extend_from_slice(&path[path.len() - 5..]);
        p
    } else {
        path.clone()
    };
    Diagnostic::new(
        Phase::Runtime,
        format!("the position {} can be reached from itself", path[0]),
    )
    .note(format!("cycle: {}", shown.join(" -> ")))
    .note("games whose positions repeat (loopy games) are not supported yet: every play must end")
}
