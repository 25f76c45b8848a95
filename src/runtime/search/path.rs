//! The search path: the positions being evaluated, innermost last, kept
//! as their dense or hashed indices with the changes of game apart.

use crate::value::{GameId, NodeId};

/// A stack of nodes, 4 bytes each: their indices, with the game changes
/// kept apart (a chain of ten million positions of one game is 40 MB).
#[derive(Default)]
pub(super) struct Path {
    pub(super) indices: Vec<u32>,
    /// `(depth, game)`: from `depth` on, the nodes are of `game`.
    pub(super) games: Vec<(usize, GameId)>,
}

impl Path {
    pub(super) fn len(&self) -> usize {
        self.indices.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    pub(super) fn push(&mut self, node: NodeId) {
        if self.games.last().is_none_or(|(_, g)| *g != node.game) {
            self.games.push((self.indices.len(), node.game));
        }
        self.indices.push(node.index);
    }

    pub(super) fn pop(&mut self) {
        self.indices.pop();
        if self
            .games
            .last()
            .is_some_and(|(depth, _)| *depth == self.indices.len())
        {
            self.games.pop();
        }
    }

    pub(super) fn get(&self, depth: usize) -> NodeId {
        let at = self.games.partition_point(|(d, _)| *d <= depth) - 1;
        NodeId {
            game: self.games[at].1,
            index: self.indices[depth],
        }
    }

    pub(super) fn last(&self) -> NodeId {
        self.get(self.len() - 1)
    }

    /// The indices of the nodes at the top of the path that are of the
    /// top node's game, outermost first.
    pub(super) fn same_game_top(&self) -> &[u32] {
        let from = self.games.last().map_or(0, |(depth, _)| *depth);
        &self.indices[from..]
    }

    /// The positions of [`Path::same_game_top`], the last
    /// [`sweep::CHAIN`](crate::runtime::sweep) and one, outermost first.
    pub(super) fn same_game_top_nodes(&self) -> Vec<NodeId> {
        let top = self.same_game_top();
        let game = self.last().game;
        let from = top.len().saturating_sub(crate::runtime::sweep::CHAIN + 1);
        let index = |index: &u32| NodeId {
            game,
            index: *index,
        };
        top[from..].iter().map(index).collect()
    }

    /// Every node, outermost first: for errors.
    pub(super) fn nodes(&self) -> Vec<NodeId> {
        (0..self.len()).map(|d| self.get(d)).collect()
    }
}
