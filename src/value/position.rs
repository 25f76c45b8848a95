//! Positions: sums of components, each a Nim heap or a node of the
//! transition graph, and the small cache that lets positions of one node
//! share their allocation.

use std::rc::Rc;

/// Index of a game definition in the session.
pub type GameId = u32;

/// A position of one game: which game, and its index among that game's
/// interned argument lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    pub game: GameId,
    pub index: u32,
}

/// One summand of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    Node(NodeId),
    /// A Nim heap of the given size (`*k`); its value is k. Heaps sort after
    /// nodes, as they are shown.
    Heap(u64),
}

/// A disjunctive sum of components, kept sorted so that equal sums compare
/// and hash equal whatever order they were written in. Empty heaps are
/// dropped: `*0` is the empty position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(Rc<[Component]>);

impl Position {
    pub fn empty() -> Position {
        Position(Rc::from([]))
    }

    /// The position of a single game node.
    pub fn node(node: NodeId) -> Position {
        Position(Rc::from([Component::Node(node)]))
    }

    pub fn from_components(mut comps: Vec<Component>) -> Position {
        comps.retain(|c| *c != Component::Heap(0));
        comps.sort_unstable();
        Position(Rc::from(comps))
    }

    pub fn components(&self) -> &[Component] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn sum(&self, other: &Position) -> Position {
        if other.is_empty() {
            return self.clone();
        }
        if self.is_empty() {
            return other.clone();
        }
        let mut comps = Vec::with_capacity(self.0.len() + other.0.len());
        comps.extend_from_slice(&self.0);
        comps.extend_from_slice(&other.0);
        Position::from_components(comps)
    }

    /// This position with component `i` replaced by the components of `by`.
    pub fn replace(&self, i: usize, by: &[Component]) -> Position {
        let mut comps: Vec<Component> = Vec::with_capacity(self.0.len() + by.len());
        comps.extend(
            self.0
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, c)| *c),
        );
        comps.extend_from_slice(by);
        Position::from_components(comps)
    }
}

/// The positions of single nodes made lately, so that a node met again
/// shares the allocation of its position: a list of a hundred thousand
/// positions of a few nodes (a sum of many equal coins) then holds a few
/// allocations rather than a hundred thousand. Direct-mapped, so it stays
/// small: a node's slot is its index modulo [`NodePositions::SLOTS`].
#[derive(Debug, Default)]
pub struct NodePositions(Vec<Option<Position>>);

impl NodePositions {
    pub const SLOTS: usize = 256;

    /// The position of `node` alone, equal to [`Position::node`].
    pub fn get(&mut self, node: NodeId) -> Position {
        if self.0.is_empty() {
            self.0.resize(Self::SLOTS, None);
        }
        let slot = &mut self.0[node.index as usize % Self::SLOTS];
        match slot {
            Some(p) if p.components() == [Component::Node(node)] => p.clone(),
            _ => slot.insert(Position::node(node)).clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn sums_are_equal_whatever_the_order() {
        let a = Component::Node(NodeId { game: 0, index: 4 });
        let b = Component::Node(NodeId { game: 0, index: 7 });
        let p = Position::from_components(vec![a, b]);
        let q = Position::from_components(vec![b, a, Component::Heap(0)]);
        assert_eq!(p, q);
        assert_eq!(Value::Pos(p), Value::Pos(q));
    }

    #[test]
    fn a_recurring_node_shares_its_position() {
        let mut cache = NodePositions::default();
        let a = NodeId { game: 0, index: 4 };
        // The same slot, another node: it takes the slot over.
        let b = NodeId {
            game: 1,
            index: 4 + NodePositions::SLOTS as u32,
        };
        let first = cache.get(a);
        assert_eq!(first, Position::node(a));
        assert!(Rc::ptr_eq(&first.0, &cache.get(a).0));
        assert_eq!(cache.get(b), Position::node(b));
        assert_eq!(
            cache.get(NodeId { game: 1, index: 4 }),
            Position::node(NodeId { game: 1, index: 4 })
        );
        let again = cache.get(a);
        assert_eq!(again, first);
        assert!(!Rc::ptr_eq(&first.0, &again.0));
    }
}
