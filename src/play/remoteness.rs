//! Steinhaus's remoteness, memoized over a whole game, and the move the
//! computer makes by it. Remoteness is how many moves remain when the
//! winner wins as fast as possible and the loser holds out as long as
//! possible: 0 for a position with no moves; for a position with an
//! option of value 0 (a win for the player to move), 1 + the least
//! remoteness of those options; for any other, 1 + the greatest
//! remoteness of all its options. It is well defined on any finite
//! acyclic game, and cheap: each position is weighed once, and only the
//! winning options of a won position count.
//!
//! The computation knows positions only through [`Rules`], so that the
//! tests can compare it with a brute force on small made-up games.

use crate::runtime::RtResult;
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// What remoteness needs of a game.
pub trait Rules {
    type Position: Clone + Eq + Hash;

    /// Every option of `p` with its nim-value, in a fixed order.
    fn options(&mut self, p: &Self::Position) -> RtResult<Vec<(Self::Position, u64)>>;

    /// Stops a long computation (Ctrl-C, a time limit).
    fn poll(&mut self) -> RtResult<()>;
}

/// The remoteness of every position weighed so far in one game.
pub struct Remoteness<P> {
    known: FxHashMap<P, u64>,
    /// Most positions kept (those known and those under way): memory.
    bound: usize,
    /// Most options looked at to answer one question (one [`Remoteness::of`]
    /// or [`Remoteness::choose`]): time, so that a position with thousands
    /// of moves does not keep the person waiting.
    budget: usize,
    spent: usize,
}

/// A position being weighed: the options that count, the next to look
/// at, and the best remoteness among them so far.
struct Frame<P> {
    position: P,
    losing: bool,
    options: Vec<P>,
    next: usize,
    best: Option<u64>,
}

/// The computer's move: which option, and its remoteness when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub index: usize,
    pub remoteness: Option<u64>,
}

impl<P: Clone + Eq + Hash> Remoteness<P> {
    pub fn new(bound: usize, budget: usize) -> Self {
        Remoteness {
            known: FxHashMap::default(),
            bound,
            budget,
            spent: 0,
        }
    }

    /// The remoteness of `start`, or `None` if weighing it would keep more
    /// positions than the bound or look at more options than the budget.
    pub fn of<R: Rules<Position = P>>(
        &mut self,
        rules: &mut R,
        start: &P,
    ) -> RtResult<Option<u64>> {
        self.spent = 0;
        self.weigh(rules, start)
    }

    /// [`Remoteness::of`] within what is left of the budget. Depth-first
    /// with its own stack: games can be long.
    fn weigh<R: Rules<Position = P>>(&mut self, rules: &mut R, start: &P) -> RtResult<Option<u64>> {
        if let Some(r) = self.known.get(start) {
            return Ok(Some(*r));
        }
        let mut stack = vec![self.frame(rules, start.clone())?];
        while let Some(top) = stack.last_mut() {
            if let Some(option) = top.options.get(top.next).cloned() {
                top.next += 1;
                match self.known.get(&option) {
                    Some(r) => fold(top, *r),
                    None if self.known.len() + stack.len() >= self.bound
                        || self.spent >= self.budget =>
                    {
                        return Ok(None);
                    }
                    None => {
                        rules.poll()?;
                        stack.push(self.frame(rules, option)?);
                    }
                }
                continue;
            }
            let done = stack.pop().expect("the loop runs while there is a frame");
            let r = done.best.map_or(0, |best| best + 1);
            self.known.insert(done.position, r);
            if let Some(parent) = stack.last_mut() {
                fold(parent, r);
            }
        }
        Ok(self.known.get(start).copied())
    }

    /// The move of perfect play from `at`, among `options` (its options
    /// with their values, as [`Rules::options`] gives them), or `None`
    /// if there is none. A won position is left for an option of value 0
    /// of least remoteness (the fastest win); a lost one for the option of
    /// greatest remoteness (the longest resistance). Equals go to the
    /// first. Past the bound, remoteness is not known: the first option of
    /// value 0 wins all the same, and a lost position takes its first.
    pub fn choose<R: Rules<Position = P>>(
        &mut self,
        rules: &mut R,
        options: &[(P, u64)],
    ) -> RtResult<Option<Choice>> {
        self.spent = 0;
        let winning = options.iter().any(|(_, v)| *v == 0);
        let mut best: Option<Choice> = None;
        for (index, (option, value)) in options.iter().enumerate() {
            if winning && *value != 0 {
                continue;
            }
            let remoteness = self.weigh(rules, option)?;
            let better = match (best, remoteness) {
                (None, _) => true,
                (
                    Some(Choice {
                        remoteness: Some(b),
                        ..
                    }),
                    Some(r),
                ) => {
                    if winning {
                        r < b
                    } else {
                        r > b
                    }
                }
                _ => false,
            };
            if better {
                best = Some(Choice { index, remoteness });
            }
            if remoteness.is_none() {
                // Past the bound nothing more is weighed.
                return Ok(best.map(|b| Choice {
                    remoteness: None,
                    ..b
                }));
            }
        }
        Ok(best)
    }

    /// A frame for `position`, its options counted against the budget.
    fn frame<R: Rules<Position = P>>(&mut self, rules: &mut R, position: P) -> RtResult<Frame<P>> {
        let options = rules.options(&position)?;
        self.spent += options.len();
        Ok(frame(position, options))
    }
}

/// A position with its options, ready to be weighed.
fn frame<P>(position: P, options: Vec<(P, u64)>) -> Frame<P> {
    let losing = options.iter().all(|(_, v)| *v != 0);
    let options = options
        .into_iter()
        .filter(|(_, v)| losing || *v == 0)
        .map(|(p, _)| p)
        .collect();
    Frame {
        position,
        losing,
        options,
        next: 0,
        best: None,
    }
}

/// An option's remoteness taken into its position's: the loser's
/// longest, the winner's shortest.
fn fold<P>(frame: &mut Frame<P>, r: u64) {
    frame.best = Some(match frame.best {
        None => r,
        Some(best) if frame.losing => best.max(r),
        Some(best) => best.min(r),
    });
}

#[cfg(test)]
mod tests;
