//! The sweep of one-integer games that move to one another (`ping(n)` to
//! `pong(n - k)` and back): each waits for the other's values, so neither
//! can be swept alone, and asked in turn each position would be run
//! alone, twice. Their group is swept together, each `n` of every game
//! before the next `n` (see [`crate::runtime::kernel::Group`]).

use super::CHUNK;
use super::evidence::{CHAIN, FREELY};
use crate::graph::{self, UNKNOWN};
use crate::runtime::kernel::{self, Group, Kernel};
use crate::runtime::{Machine, RtResult, Scratch};
use crate::value::{GameId, NodeId};
use std::rc::Rc;

/// The most games a group holds, and the most games looked through to
/// find them.
const MEMBERS_MOST: usize = 4;
const LOOKED_MOST: usize = 8;
/// How many groups [`Machine::groups`] keeps.
const KEPT: usize = 8;

impl Machine {
    /// The group of `game`: it and the one-integer games its moves lead
    /// to, directly or through one another, that lead back to it, `game`
    /// first; compiled for `positions` positions. `None` when there are no
    /// others, or too many, or one of them has no machine code for a group.
    pub(super) fn group_of(&mut self, game: GameId, positions: u32) -> Option<Rc<Group>> {
        let members = self.members(game)?;
        let kernels = (members.iter())
            .map(|g| self.sweeping(*g, positions))
            .collect::<Option<Vec<Rc<Kernel>>>>();
        let kernels = level_order(kernels?);
        let same = |(ks, _): &&(Vec<Rc<Kernel>>, Option<Rc<Group>>)| {
            ks.len() == kernels.len() && ks.iter().zip(&kernels).all(|(a, b)| Rc::ptr_eq(a, b))
        };
        if let Some((_, group)) = self.groups.iter().find(same) {
            return group.clone();
        }
        let group = kernel::compile_group(kernels.clone()).map(Rc::new);
        if self.groups.len() == KEPT {
            self.groups.remove(0);
        }
        self.groups.push((kernels, group.clone()));
        group
    }

    /// The positions below `node`, of a one-integer game, of its group,
    /// when the search waits at it for a position of another game of the
    /// group a few below it (`ping(n)` for `pong(n - 1)`), as when
    /// `value(ping(2000000))` is asked first: swept together from the
    /// lowest without a value. Past [`FREELY`] positions, only once the
    /// search has come down to `node` by a chain of small steps (the
    /// dense `indices` of the path's last positions, of any game, the
    /// waiting one last). Returns as [`Machine::sweep`] does.
    pub(in crate::runtime) fn sweep_group_below(
        &mut self,
        node: NodeId,
        waited: &[NodeId],
        indices: &[u32],
    ) -> RtResult<Option<bool>> {
        const GAP: u32 = 4;
        const SHORTEST: u32 = 64;
        let below = |c: &&NodeId| {
            c.game != node.game && c.index < node.index && node.index - c.index <= GAP
        };
        if node.index >= graph::DENSE_END
            || node.index < SHORTEST
            || !waited.iter().any(|c| below(&c))
        {
            return Ok(None);
        }
        if self.graph.dense(node.game).is_none_or(|d| d.arity() != 1) {
            return Ok(None);
        }
        let chain = || {
            let top = &indices[indices.len().saturating_sub(CHAIN + 1)..];
            top.len() > CHAIN && top.windows(2).all(|w| w[1] < w[0] && w[0] - w[1] <= GAP)
        };
        if node.index > FREELY && !chain() {
            return Ok(None);
        }
        let Some(group) = self.group_of(node.game, node.index) else {
            return Ok(None);
        };
        let bottom = (group.games().iter())
            .filter_map(|g| self.graph.dense(*g).filter(|d| d.arity() == 1))
            .map(|d| d.unvalued_below(node.index))
            .min()
            .unwrap_or(node.index);
        if node.index - bottom < SHORTEST {
            return Ok(None);
        }
        let stopped = self.sweep_group(&group, (node.index, node.index))?;
        Ok(Some(stopped > bottom))
    }

    /// The games of `game`'s group (see [`Machine::group_of`]), `game`
    /// first, when it has others.
    fn members(&mut self, game: GameId) -> Option<Vec<GameId>> {
        // The one-integer games reached from `game`, each with those it reads.
        let mut reached: Vec<(GameId, Vec<GameId>)> = Vec::new();
        let mut next = vec![game];
        while let Some(g) = next.pop() {
            if reached.iter().any(|(h, _)| *h == g) {
                continue;
            }
            if reached.len() == LOOKED_MOST {
                return None;
            }
            let reads: Vec<GameId> = match self.kernel(g) {
                Some(k) => (k.reads().iter())
                    .filter(|(_, n)| *n == 1)
                    .map(|(h, _)| *h)
                    .collect(),
                None => Vec::new(),
            };
            next.extend(reads.iter().copied());
            reached.push((g, reads));
        }
        // Those from which `game` is reached back.
        let mut back = vec![game];
        loop {
            let before = back.len();
            for (g, reads) in &reached {
                if !back.contains(g) && reads.iter().any(|h| back.contains(h)) {
                    back.push(*g);
                }
            }
            if back.len() == before {
                break;
            }
        }
        (2..=MEMBERS_MOST).contains(&back.len()).then_some(back)
    }

    /// The positions `lo..hi` of each game of `group`, swept together
    /// (from below `lo`, where they have none just below it); the games
    /// they read outside the group first. Returns where it
    /// stopped: `hi`, or the first `n` at which a position of the group
    /// could not be valued.
    pub(super) fn sweep_group(&mut self, group: &Group, (lo, hi): (u32, u32)) -> RtResult<u32> {
        let room = self.sweep_room();
        let games = group.games();
        for g in &games {
            if self.graph.dense(*g).is_none_or(|d| d.arity() == 0) {
                self.intern_ints(*g, &[0]);
            }
            if self.graph.dense(*g).is_none_or(|d| d.arity() != 1) {
                return Ok(lo);
            }
        }
        // From the lowest position without a value just below `lo` of
        // any of them: asked at `lo`, a game waits for those of another.
        let mut from = lo;
        for g in &games {
            self.sweep_read(*g, hi, room, (0, &games))?;
            let bottom = self.graph.dense(*g).map_or(lo, |d| d.unvalued_below(lo));
            from = from.min(bottom);
        }
        while from < hi {
            let chunk = hi.min(from.saturating_add(CHUNK));
            let mut end = chunk;
            for g in &games {
                end = end.min(self.graph.claim_dense(*g, from, chunk, room));
            }
            if end <= from {
                return Ok(from);
            }
            // The slots made, the chunk is swept; a position the machine
            // code leaves is the kernels' runs', and it goes on after it.
            while from < end {
                self.poll()?;
                let Scratch { marks, views, .. } = &mut self.scratch;
                let graph = (&self.defs, &self.graph);
                let Some((stopped, paused)) = group.sweep(graph, (from, end), marks, views) else {
                    return Ok(from);
                };
                from = stopped;
                if paused || stopped >= end {
                    continue;
                }
                if !self.group_at(&games, stopped)? {
                    return Ok(stopped);
                }
                from = stopped + 1;
            }
        }
        Ok(from)
    }

    /// The position `n` of each of `games` (a group's) valued by the
    /// kernels' runs, in order, then again for any left: whether each has
    /// a value.
    fn group_at(&mut self, games: &[GameId], n: u32) -> RtResult<bool> {
        let mut ignored = Vec::new();
        for _ in 0..2 {
            let mut left = false;
            for g in games {
                let Some(node) = self.graph.find_ints(*g, &[n.into()]) else {
                    return Ok(false);
                };
                if self.graph.value(node) == UNKNOWN
                    && !self.kernel_finds_value(node, &mut ignored)?
                {
                    left = true;
                }
            }
            if !left {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// `kernels` in an order where a game whose position `n` moves to
/// another's position `n` comes after it (see [`Kernel::reads_level`]),
/// else as given: each `n` of the group is then valued in one pass.
fn level_order(mut kernels: Vec<Rc<Kernel>>) -> Vec<Rc<Kernel>> {
    let mut ordered: Vec<Rc<Kernel>> = Vec::with_capacity(kernels.len());
    while !kernels.is_empty() {
        let games: Vec<GameId> = kernels.iter().map(|k| k.game()).collect();
        // The first whose level reads are all placed (or, in a cycle of
        // them, which no order helps, the first).
        let ready = kernels.iter().position(|k| {
            k.reads_level()
                .iter()
                .all(|g| *g == k.game() || !games.contains(g))
        });
        ordered.push(kernels.remove(ready.unwrap_or(0)));
    }
    ordered
}
