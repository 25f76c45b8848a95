//! A position's options listed by the compiled rules, each with its
//! move's name and the values of the names the move shows: what
//! `moves(P)`, `line(P)`, `play(P)` and `graph(P)` ask of a position.
//! The same options in the same order as the rules written make them,
//! for the normalisation keeps, with each move, how to name its options
//! and whether they come in the written order ([`MoveIr::named`]).

use super::expr::{Num, num_in};
use super::run::Run;
use super::{Arg, Eval, ITEMS_MAX, Kernel, Marks, Move, Stop, Term, Types};
use crate::defs::Defs;
use crate::graph::Graph;
use crate::ir::{IrKind, MoveIr};
use crate::value::{GameId, Value};
use std::ops::Range;
use std::rc::Rc;

/// How the value of a name a move shows is found.
#[derive(Debug)]
pub enum Shown {
    /// An integer the compiled rules compute: a binder's slot, a constant
    /// an unrolled binder took, `n - a` for a binder an equation fixed.
    Num(Num),
    /// A constant of another kind: a string an unrolled binder took.
    Value(Value),
}

/// How to name the options of `rule` (normalised), when it makes them in
/// the written order and every name it shows is an integer these `types`
/// hold, or a constant.
pub(super) fn named(rule: &MoveIr, types: &Types) -> Option<Vec<(Rc<str>, Shown)>> {
    let shown = |(name, e): &(Rc<str>, crate::ir::Ir)| {
        let shown = match &e.kind {
            IrKind::Const(v) if !matches!(v, Value::Int(_)) => Shown::Value(v.clone()),
            _ => Shown::Num(num_in(e, types)?),
        };
        Some((name.clone(), shown))
    };
    rule.named.as_ref()?.iter().map(shown).collect()
}

/// The options a listing run found (see [`Kernel::list`]).
#[derive(Debug, Default)]
pub struct Listing {
    /// The move being run.
    rule: u32,
    options: Vec<Listed>,
    /// The integers of every option: the names' values, the arguments of
    /// its positions.
    ints: Vec<i64>,
    parts: Vec<Part>,
    /// How many options to keep at most ([`Listing::keep_at_most`]), and
    /// how many more there were, counted but not kept: a position of a
    /// hundred million moves is too large a list, and says so without
    /// being held.
    room: usize,
    beyond: usize,
}

/// One option: its move, and where its names' values and its target's
/// parts are kept.
#[derive(Debug)]
struct Listed {
    rule: u32,
    shown: Range<usize>,
    parts: Range<usize>,
}

/// A part of an option's target; the arguments in [`Listing::ints`].
#[derive(Debug)]
enum Part {
    Heap(u64),
    Node(GameId, Range<usize>),
    /// A position keyed by its flat run ([`crate::graph::flat`]).
    Flat(GameId, Range<usize>),
}

/// A part of an option's target, as [`Listing::targets`] gives it.
pub enum Target<'a> {
    /// A Nim heap of that many tokens, never 0.
    Heap(u64),
    /// A position of a game with integer arguments.
    Node(GameId, &'a [i64]),
    /// A position of a game with list arguments, as its flat run.
    Flat(GameId, &'a [i64]),
}

impl Listing {
    /// How many options were found.
    pub fn len(&self) -> usize {
        self.options.len()
    }

    pub fn is_empty(&self) -> bool {
        self.options.is_empty()
    }

    /// The next listing keeps at most `room` options and counts the rest.
    pub fn keep_at_most(&mut self, room: usize) {
        self.room = room;
    }

    /// How many options there were past the room.
    pub fn beyond(&self) -> usize {
        self.beyond
    }

    /// Option `i`'s move name and the values of the names it shows, in
    /// the order written (as `MoveIr::shown` has them).
    pub fn name(&self, kernel: &Kernel, i: usize) -> (Rc<str>, Vec<(Rc<str>, Value)>) {
        let option = &self.options[i];
        let rule = &kernel.moves[option.rule as usize];
        let named = rule.named.as_deref().unwrap_or_default();
        let mut ints = self.ints[option.shown.clone()].iter();
        let values = (named.iter())
            .map(|(name, shown)| {
                let value = match shown {
                    Shown::Num(_) => Value::Int(*ints.next().expect("one an integer name")),
                    Shown::Value(v) => v.clone(),
                };
                (name.clone(), value)
            })
            .collect();
        (rule.name.clone(), values)
    }

    /// The parts of option `i`'s target, in the order its terms make them.
    pub fn targets(&self, i: usize) -> impl Iterator<Item = Target<'_>> {
        self.parts[self.options[i].parts.clone()]
            .iter()
            .map(|p| match p {
                Part::Heap(k) => Target::Heap(*k),
                Part::Node(game, at) => Target::Node(*game, &self.ints[at.clone()]),
                Part::Flat(game, at) => Target::Flat(*game, &self.ints[at.clone()]),
            })
    }

    fn clear(&mut self) {
        self.options.clear();
        self.ints.clear();
        self.parts.clear();
        self.beyond = 0;
    }
}

impl Kernel {
    /// Whether [`Kernel::list`] can list these rules' options: every move
    /// makes them in the written order, with names it can show, and none
    /// asks a position's value (which only the machine code reads).
    pub fn lists_moves(&self) -> bool {
        !self.asks && self.moves.iter().all(|m| m.named.is_some())
    }

    /// Lists in `out` every option of the position with arguments `args`
    /// (as for [`Kernel::mex`]): in the order the written rules make them,
    /// each with what names it. `Err(Stop::Bail)` where the interpreter
    /// must list them (an error to report, an argument these rules do not
    /// take); `poll` as for [`Kernel::mex`].
    pub fn list(
        &self,
        (defs, graph): (&Defs, &Graph),
        args: &[i64],
        marks: &mut Marks,
        poll: &mut dyn FnMut() -> bool,
        out: &mut Listing,
    ) -> Result<(), Stop> {
        out.clear();
        if !self.lists_moves() {
            return Err(Stop::Bail);
        }
        self.run_moves((defs, graph), args, (marks, poll), Some(out))
    }
}

impl Run<'_> {
    /// Lists one option of `rule`, whose guard holds for the binders'
    /// values in `f`.
    pub(super) fn list_option(&mut self, rule: &Move, f: &mut Vec<i64>) -> Eval<()> {
        let (defs, list) = self.listed();
        let list = list.ok_or(Stop::Bail)?;
        let named = rule.named.as_deref().ok_or(Stop::Bail)?;
        let (ints, parts) = (list.ints.len(), list.parts.len());
        let found = (|| {
            for (_, shown) in named {
                if let Shown::Num(n) = shown {
                    list.ints.push(n.eval(f, defs)?);
                }
            }
            let shown = ints..list.ints.len();
            for term in &rule.terms {
                part(term, f, defs, list)?;
            }
            Ok(shown)
        })();
        let Ok(shown) = found else {
            list.ints.truncate(ints);
            list.parts.truncate(parts);
            return found.map(|_| ());
        };
        if list.options.len() >= list.room {
            list.ints.truncate(ints);
            list.parts.truncate(parts);
            list.beyond += 1;
            return Ok(());
        }
        list.options.push(Listed {
            rule: list.rule,
            shown,
            parts: parts..list.parts.len(),
        });
        Ok(())
    }
}

impl Listing {
    pub(super) fn set_rule(&mut self, rule: u32) {
        self.rule = rule;
    }
}

/// Pushes on `list` the parts `term` makes, as the interpreter would
/// make them: a heap of 0 tokens is none.
fn part(term: &Term, f: &mut Vec<i64>, defs: &Defs, list: &mut Listing) -> Eval<()> {
    match term {
        Term::Heap(k) => {
            let k = u64::try_from(k.eval(f, defs)?).map_err(|_| Stop::Bail)?;
            if k > 0 {
                list.parts.push(Part::Heap(k));
            }
        }
        Term::Node(game, exprs) => {
            let start = list.ints.len();
            for a in exprs {
                list.ints.push(a.eval(f, defs)?);
            }
            list.parts.push(Part::Node(*game, start..list.ints.len()));
        }
        Term::Flat(game, header, exprs) => {
            let start = list.ints.len();
            list.ints.push(*header);
            let mark = f.len();
            for a in exprs {
                let made = match a {
                    Arg::Int(n) => n.eval(f, defs).map(|n| list.ints.push(n)),
                    Arg::Seq(xs) => xs.eval(f, defs).map(|(a, b)| {
                        list.ints.push((b - a) as i64);
                        list.ints.extend_from_slice(&f[a..b]);
                    }),
                };
                f.truncate(mark);
                made?;
            }
            list.parts.push(Part::Flat(*game, start..list.ints.len()));
        }
        Term::Sum(comp) => {
            let mut items = 0;
            comp.run(0, f, defs, &mut |terms, f| {
                items += 1;
                if items > ITEMS_MAX {
                    return Err(Stop::Bail);
                }
                terms.iter().try_for_each(|t| part(t, f, defs, list))
            })?;
        }
    }
    Ok(())
}
