//! What a kernel run keeps between runs ([`Marks`]): the mex of the
//! position, the options it found without a value (each move its own
//! share of them), and reusable buffers.

use super::native::deep::Frontier;
use super::{Eval, Stop, run};
use crate::graph::{ABSENT, IN_PROGRESS};
use crate::ir::LetId;
use crate::runtime::mex::Mex;
use crate::value::{GameId, Value};

/// How many of the last options found without a value a new one is
/// compared with, to keep each once.
pub const RECENT: usize = 8;

/// The [`Missing::option`] of a position a guard asks the value of
/// (`value(sub(k)) == 0`), no option: the search evaluates it apart, as
/// the interpreter's query does, and runs the position again.
pub const ASKED: u32 = u32::MAX;

/// What a kernel run keeps between runs: the mex of the position, the
/// options found without a value, and reusable buffers.
#[derive(Default)]
pub struct Marks {
    pub mex: Mex,
    /// The frame of integer slots, kept between runs.
    pub(super) frame: Vec<i64>,
    /// The options found without a value, each once, in the order they
    /// were met, up to [`MISSING_MAX`] from each move. The run goes on
    /// after them, looking for an option on the search path (a cycle), as
    /// the interpreter looks for one before it descends anywhere.
    pub missing: Vec<Missing>,
    /// The move being run, and where its options in `missing` begin: each
    /// move has its own share, so a search waits for options of every
    /// move of a position with many (and may see the rules step down in
    /// each argument), not only of its first.
    pub(super) rule: u64,
    pub(super) rule_missing: usize,
    /// The option being made, counted from the run's start: recorded
    /// with each option found without a value, so that the search has a
    /// sum's components wait in the order of their positions, as the
    /// interpreter does (see [`Missing::option`]).
    pub(super) option: u32,
    /// How many times the run met an option's position without a value
    /// (each a place in `missing`, or one past its share), and whether it
    /// met one past its share.
    pub(super) missed: usize,
    pub(super) dropped: bool,
    /// Set by a run that found options without values when each of
    /// those is in `missing` and every option is one position (see
    /// [`super::Kernel`]'s `single`): the position's value is then the mex of the
    /// values its run found and of those `missing` will have, with no run
    /// again.
    pub complete: bool,
    /// The run's options, with a value or not.
    pub options: usize,
    /// How many of the first `missing` are a play rather than options:
    /// set when the machine code evaluated options in place and a run
    /// under way there missed values (see [`Marks::play`]).
    pub play: usize,
    /// The arguments of the `missing` positions, one after another.
    pub missing_args: Vec<i64>,
    /// `missing` holds up to [`MISSING_MAX`] times two to this power: the
    /// search raises it for a position run again and again (see
    /// `runtime/search/`).
    pub missing_shift: u32,
    /// The integers of the globals used as binder domains, converted once
    /// for each value they hold.
    pub(super) lists: Vec<(LetId, Value, run::Values)>,
    /// The flat run of a position with list arguments, made per option.
    pub(super) run: Vec<i64>,
    /// Work done by all runs so far, in options or binder values, and when
    /// to look at the clock next: kept across runs, since a search may do
    /// millions of small ones.
    pub(super) work: usize,
    pub(super) next_poll: usize,
    /// How many list positions the machine code has looked up by its
    /// helper rather than read from a dense table itself: for tests.
    pub looked_up: u64,
}

/// An option's position found without a value: its game and where its
/// arguments are in [`Marks::missing_args`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Missing {
    pub game: GameId,
    pub args: (u32, u32),
    /// Whether the arguments are a flat run ([`flat`]) rather than
    /// integers.
    pub flat: bool,
    /// Which option of the run it is a component of (the components of
    /// one option come one after another), and of which move as written
    /// (where its span starts: the low half of its `share`).
    pub option: u32,
    pub rule: u32,
}

impl Marks {
    /// The value in a slot, if known. An option on the search path stops
    /// the run; the others without a value are remembered, each once.
    #[cold]
    #[inline(never)]
    pub fn known(&mut self, v: u64, game: GameId, args: &[i64]) -> Eval<Option<u64>> {
        self.known_as(v, game, args, false)
    }

    /// [`Marks::known`] of a position whose arguments are a flat run.
    #[cold]
    #[inline(never)]
    pub fn known_flat(&mut self, v: u64, game: GameId, run: &[i64]) -> Eval<Option<u64>> {
        self.known_as(v, game, run, true)
    }

    fn known_as(&mut self, v: u64, game: GameId, args: &[i64], flat: bool) -> Eval<Option<u64>> {
        match v {
            v if v < ABSENT => Ok(Some(v)),
            IN_PROGRESS => Err(Stop::Bail),
            _ => {
                self.missed += 1;
                // Repeats come close together (the same position in two
                // options in a row); one that slips through costs a place.
                if self.missing.len() - self.rule_missing
                    >= super::MISSING_MAX << self.missing_shift
                {
                    self.dropped = true;
                    return Ok(None);
                }
                let from = self.missing.len().saturating_sub(RECENT);
                let same = |m: &super::Missing| {
                    let a = self.args(m);
                    m.game == game
                        && m.flat == flat
                        && a.len() == args.len()
                        && a.iter().zip(args).all(|(x, y)| x == y)
                };
                let seen = self.missing[from..].iter().any(same);
                if !seen {
                    let start = self.missing_args.len() as u32;
                    self.missing_args.extend_from_slice(args);
                    let end = self.missing_args.len() as u32;
                    self.missing.push(super::Missing {
                        game,
                        args: (start, end),
                        flat,
                        option: self.option,
                        rule: self.rule as u32,
                    });
                }
                Ok(None)
            }
        }
    }

    /// Replaces what the run missed with where a recursion of the machine
    /// code ended: the play from an option of this position down to the
    /// position whose run missed values (each of `game`, of `arity`
    /// integers), then the options that run missed. The search puts the
    /// play on its path, evaluates those options, and runs the positions
    /// again, this one last.
    pub(super) fn play(&mut self, game: GameId, flat: bool, frontier: Frontier) {
        let Frontier {
            missing,
            args,
            play,
            lengths,
        } = frontier;
        self.missing.clear();
        self.missing_args.clear();
        // The positions lie in `play` the deepest first: taken from the
        // shallowest, at its end.
        let mut end = play.len();
        for &len in lengths.iter().rev() {
            let position = &play[end - len as usize..end];
            end -= len as usize;
            let start = self.missing_args.len() as u32;
            self.missing_args.extend_from_slice(position);
            let end = self.missing_args.len() as u32;
            // Each link of the play an option of its own.
            let option = self.missing.len() as u32;
            self.missing.push(Missing {
                game,
                args: (start, end),
                flat,
                option,
                rule: u32::MAX,
            });
        }
        self.play = self.missing.len();
        let base = self.missing_args.len() as u32;
        self.missing_args.extend_from_slice(&args);
        self.missing.extend(missing.into_iter().map(|m| Missing {
            args: (m.args.0 + base, m.args.1 + base),
            ..m
        }));
        self.complete = false;
    }

    /// The arguments of one of the positions in `missing`.
    pub fn args(&self, m: &Missing) -> &[i64] {
        &self.missing_args[m.args.0 as usize..m.args.1 as usize]
    }
}

/// The most options without a value that one run of a position's rules
/// collects. The search evaluates them all before it runs the position
/// again, so a position with many options to evaluate first (the divisors
/// of a large number) is run a few times, not once per option, while the
/// search path keeps at most this many waiting options per position, and
/// a run that meets thousands of them (a board asked top-down) does not
/// pay to record them all.
pub const MISSING_MAX: usize = 32;

impl Marks {
    /// The units of work counted so far (see [`Marks::charge`]): a count
    /// that runs on, the same for the same runs whatever the clock says.
    pub fn work(&self) -> usize {
        self.work
    }

    /// Counts `n` units of work; whether it is time to look at the clock.
    pub(super) fn charge(&mut self, n: usize) -> bool {
        self.work = self.work.wrapping_add(n);
        if self.work.wrapping_sub(self.next_poll) > usize::MAX / 2 {
            return false;
        }
        self.next_poll = self.work.wrapping_add(POLL_EVERY);
        true
    }

    pub(super) fn start(&mut self) {
        self.mex.start();
        self.missing.clear();
        self.missing_args.clear();
        (self.rule, self.option) = (u64::MAX, 0);
        (self.missed, self.dropped, self.complete) = (0, false, false);
        (self.options, self.play) = (0, 0);
    }

    /// Notes that the run is in the move named `rule`, a move as written
    /// or a copy unrolled from one (see [`super::Move`]'s `share`): a new
    /// one starts a new share of `missing`.
    #[inline(always)]
    pub(super) fn in_rule(&mut self, rule: u64) {
        if rule != self.rule {
            self.rule = rule;
            self.rule_missing = self.missing.len();
        }
    }

    /// Notes that the run makes its next option.
    #[inline(always)]
    pub(crate) fn next_option(&mut self) {
        self.option = self.option.wrapping_add(1);
    }

    #[inline(always)]
    pub(super) fn mark(&mut self, v: u64) {
        self.mex.mark(v);
    }
}

/// How many options the kernel makes between looks at the clock.
pub(super) const POLL_EVERY: usize = 1 << 16;
