//! Games of one integer that move to one another (`ping(n)` to `pong(n -
//! k)`, `pong(n)` back to `ping(n - k)`): neither can be swept alone, for
//! each waits for the other's values. Their sweep is one function that
//! values, for each `n` in turn, the position `n` of each game of the
//! group, in the group's order, as a hand-written program fills its
//! tables side by side.

use super::{Call, Code, Memory, views_of};
use crate::defs::Defs;
use crate::graph::{Dense, Graph, View};
use crate::runtime::kernel::{Kernel, Marks};
use crate::value::GameId;
use std::rc::Rc;

/// The games of a group, for the code generator: their kernels, in the
/// group's order, and every target any of them reads.
pub(in crate::runtime::kernel::native) struct Members<'a> {
    pub kernels: &'a [Rc<Kernel>],
    pub targets: &'a [(GameId, usize)],
}

/// A group's sweep in machine code, with the kernels it was compiled from.
pub struct Group {
    kernels: Vec<Rc<Kernel>>,
    targets: Vec<(GameId, usize)>,
    code: Code,
    _memory: Memory,
}

impl std::fmt::Debug for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.kernels.iter().map(|k| k.game))
            .finish()
    }
}

/// The group sweep of `kernels`' games, when each is a one-integer game
/// whose rules compile to machine code without calling functions or
/// asking values; `None` otherwise.
pub fn compile(kernels: Vec<Rc<Kernel>>) -> Option<Group> {
    let plain = |k: &Rc<Kernel>| {
        k.arity == 1 && k.lists.is_none() && k.calls.is_none() && !k.asks && k.is_native()
    };
    if kernels.len() < 2 || !kernels.iter().all(plain) {
        return None;
    }
    let mut targets: Vec<(GameId, usize)> = (kernels.iter())
        .flat_map(|k| k.targets.iter().copied())
        .collect();
    targets.sort_unstable();
    targets.dedup();
    let mut jit = super::jit::Jit::new()?;
    let members = Members {
        kernels: &kernels,
        targets: &targets,
    };
    let id = jit.define(super::emit::Kind::Group(&members), "group")?;
    let (code, memory) = jit.finish()?;
    Some(Group {
        code: code(id),
        kernels,
        targets,
        _memory: memory,
    })
}

impl Group {
    /// The games, in the group's order.
    pub fn games(&self) -> Vec<GameId> {
        self.kernels.iter().map(|k| k.game).collect()
    }

    /// The positions `from..to` of every game of the group, for each `n`
    /// in turn those of the games in order, valued where they have no
    /// value yet and written into their dense tables, whose slots for
    /// them the caller has made. Returns where it stopped: `to`, or the
    /// `n` at which it left a position to the kernels' runs (the group's
    /// positions of that `n` before it have their values); or where it
    /// paused after enough work (true). `None` when a game's table is
    /// not one of single integers, or a target changed its arity.
    pub fn sweep(
        &self,
        (defs, graph): (&Defs, &Graph),
        (from, to): (u32, u32),
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> Option<(u32, bool)> {
        if from >= to || !views_of(&self.targets, (defs, graph), views) {
            return Some((from, false));
        }
        // The tables have the slots the function writes (the caller made
        // them), and nothing else writes them during the call.
        let owns: Vec<View> = (self.kernels.iter())
            .map(|k| {
                graph
                    .dense(k.game)
                    .filter(|d| d.arity() == 1)
                    .map(Dense::view)
            })
            .collect::<Option<_>>()?;
        let call = Call {
            targets: &self.targets,
            single: false,
            defs,
            graph,
            views,
            own: owns.as_ptr(),
            deep: std::ptr::null_mut(),
        };
        let positions = (to - from).saturating_mul(self.kernels.len() as u32);
        let (stopped, paused) =
            call.run_writing(self.code, (from.into(), to.into()), positions, marks);
        Some((stopped as u32, paused))
    }
}
