//! Games made on demand for fixed values of the parameters a game's rules
//! pass on unchanged (see [`crate::runtime::normalize::instance`]).
//!
//! `game sub(S, n)` whose every move goes to `sub(S, ...)`: the position
//! `sub({1, 3, 4}, 10)` is kept as position `(10)` of a game made for `S
//! = {1, 3, 4}`, whose rules read the set as a constant. Every position
//! of `sub` with that set maps to the same made game, whichever path
//! makes it (a query, a move of another game, a sum), so positions stay
//! equal exactly when their games and arguments are. Positions show their
//! arguments in full ([`Machine::node_args`]). Only values that are not
//! integers are made games of: integers are dense positions already, and
//! a table over many of them would compile many games.

use super::Machine;
use super::normalize::instance::{invariant, specialize};
use super::normalize::{Rewrite, map_children, rewrite_move};
use crate::ir::GameIr;
use crate::ir::{Ir, IrKind, TermIr};
use crate::span::Span;
use crate::value::NodeId;
use crate::value::{GameId, Value};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::rc::Rc;

/// The most games made from one game; positions with other values stay
/// positions of the game itself.
pub const MOST: usize = 64;

/// A game made from game `of` for the parameters `at` fixed to `values`.
#[derive(Debug)]
pub struct Instance {
    pub of: GameId,
    pub at: Rc<[usize]>,
    pub values: Rc<[Value]>,
    /// The rules of `of` it was made from.
    from: Rc<GameIr>,
}

/// A game, parameters of it, and values for them.
type Fixed = (GameId, Rc<[usize]>, Rc<[Value]>);

#[derive(Default)]
pub struct Instances {
    /// By game: what a made game was made from.
    made: Vec<Option<Instance>>,
    /// The game made for a game and the values of its fixed parameters;
    /// `None` once [`MOST`] were made from it.
    by_values: FxHashMap<Fixed, Option<GameId>>,
    count: FxHashMap<GameId, usize>,
}

impl Instances {
    /// What game `game` was made from, if it was made.
    pub fn of(&self, game: GameId) -> Option<&Instance> {
        self.made.get(game as usize)?.as_ref()
    }
}

impl Machine {
    /// The made game and the arguments that `game(args)` is a position
    /// of, when it is kept in one (see the module's doc).
    pub(crate) fn instance_of(
        &mut self,
        game: GameId,
        args: &[Value],
    ) -> Option<(GameId, Vec<Value>)> {
        let (made, at) = self.instance_at(game, args)?;
        Some((made, without(args, &at).cloned().collect()))
    }

    /// The made game that `game(args)` is a position of, and the
    /// parameters it fixes.
    fn instance_at(&mut self, game: GameId, args: &[Value]) -> Option<(GameId, Rc<[usize]>)> {
        let at = self.fixed_at(game, args)?;
        let values: Rc<[Value]> = at.iter().map(|i| args[*i].clone()).collect();
        let key = (game, at.clone(), values.clone());
        let made = match self.instances.by_values.get(&key) {
            Some(made) => *made,
            None => {
                let made = self.make_instance(game, &at, values);
                self.instances.by_values.insert(key, made);
                made
            }
        };
        Some((made?, at))
    }

    /// The parameters of `game` that its rules pass on unchanged and
    /// that are not integers in `args`: those a made game fixes. `None`
    /// for a made game itself.
    fn fixed_at(&mut self, game: GameId, args: &[Value]) -> Option<Rc<[usize]>> {
        if self.instances.of(game).is_some() {
            return None;
        }
        let fixed = self.fixed_params(game)?;
        let at: Rc<[usize]> = (fixed.iter().copied())
            .filter(|i| args.get(*i).is_some_and(|a| !integer(a)))
            .collect();
        (!at.is_empty()).then_some(at)
    }

    /// The family `template` of `game` (holes at `holes`) as a family of
    /// the game made for its fixed arguments, when they are not holes:
    /// the game, the template and the holes.
    pub(crate) fn family_instance(
        &mut self,
        game: GameId,
        template: &[Option<Value>],
        holes: &[usize],
    ) -> Option<(GameId, Vec<Option<Value>>, Vec<usize>)> {
        let fixed = self.fixed_params(game)?;
        if holes.iter().any(|h| fixed.contains(h)) {
            return None;
        }
        let args: Vec<Value> = (template.iter())
            .map(|a| a.clone().unwrap_or(Value::Int(0)))
            .collect();
        let (made, at) = self.instance_at(game, &args)?;
        let kept = without(template, &at).cloned().collect();
        let below = |h: usize| h - at.iter().filter(|a| **a < h).count();
        Some((made, kept, holes.iter().map(|h| below(*h)).collect()))
    }

    /// `ir` with each application of a game to constants at the
    /// parameters its rules pass on unchanged made an application of the
    /// game made for them, which a compiled query reads as any game of
    /// integers: `value(sub({1, 3, 4}, n))`.
    pub(crate) fn made_applications(&mut self, ir: &Ir) -> Ir {
        if let IrKind::Apply(game, args) = &ir.kind
            && let Some(fixed) = self.fixed_params(*game)
            && fixed.iter().all(|i| {
                matches!(
                    args.get(*i),
                    Some(Ir {
                        kind: IrKind::Const(_),
                        ..
                    })
                )
            })
        {
            let values: Vec<Value> = (args.iter())
                .map(|a| match &a.kind {
                    IrKind::Const(v) => v.clone(),
                    _ => Value::Int(0),
                })
                .collect();
            if args.len() == self.defs.game(*game).map_or(0, |g| g.arity)
                && let Some((made, at)) = self.instance_at(*game, &values)
            {
                let kept = without(args, &at).map(|a| self.made_applications(a));
                return Ir {
                    kind: IrKind::Apply(made, kept.collect()),
                    span: ir.span,
                };
            }
        }
        map_children(ir, &mut |c| self.made_applications(c))
    }

    /// `rules` with each position they make of a game at constants where
    /// the game's moves pass them on made a position of the game made for
    /// them ([`Machine::made_applications`]), which compiled rules make
    /// as any game's: `move to(k in 0..n) -> sub({1, 3, 4}, k)`.
    pub(crate) fn made_rules(&mut self, rules: &GameIr) -> GameIr {
        struct Made<'a>(&'a mut Machine);
        impl Rewrite for Made<'_> {
            fn expr(&mut self, ir: &Ir) -> Ir {
                self.0.made_applications(ir)
            }
            fn node(&mut self, g: GameId, args: &[Ir], span: Span) -> TermIr {
                let apply = Ir {
                    kind: IrKind::Apply(g, args.to_vec()),
                    span,
                };
                match self.0.made_applications(&apply).kind {
                    IrKind::Apply(g, args) => TermIr::Node(g, args, span),
                    _ => TermIr::Node(g, args.to_vec(), span),
                }
            }
        }
        let moves = (rules.moves.iter())
            .map(|m| rewrite_move(m, 0, &mut Made(self)))
            .collect();
        GameIr {
            moves,
            ..rules.clone()
        }
    }

    /// The parameters of `game` its rules pass on unchanged, if any.
    fn fixed_params(&mut self, game: GameId) -> Option<Rc<[usize]>> {
        let rules = self.defs.game(game)?;
        let arity = rules.arity;
        match self.defs.fixed.get(&game) {
            Some((n, at)) if *n == arity => return (!at.is_empty()).then(|| at.clone()),
            _ => {}
        }
        // Found for the first time, or the game takes another number of
        // parameters now: the games made for the earlier ones keep their
        // positions, which are stale (see `stale_instance`).
        let at: Rc<[usize]> = invariant(rules, game).into();
        self.defs.fixed.insert(game, (arity, at.clone()));
        self.instances.by_values.retain(|(g, ..), _| *g != game);
        if at.is_empty() {
            return None;
        }
        // Positions the game holds itself with values there (made before
        // its rules passed them on: the game was redefined) stay its own,
        // and so does every position with those values.
        let held: Vec<Vec<Value>> = (self.graph.nodes(game))
            .filter(|(node, _)| node.index >= crate::graph::DENSE_END)
            .map(|(node, _)| self.graph.args(node).into_owned())
            .collect();
        for args in held {
            let fixed: Rc<[usize]> = (at.iter().copied())
                .filter(|i| args.get(*i).is_some_and(|a| !integer(a)))
                .collect();
            if !fixed.is_empty() {
                let values = fixed.iter().map(|i| args[*i].clone()).collect();
                self.instances
                    .by_values
                    .entry((game, fixed, values))
                    .or_insert(None);
            }
        }
        Some(at)
    }

    fn make_instance(
        &mut self,
        of: GameId,
        at: &Rc<[usize]>,
        values: Rc<[Value]>,
    ) -> Option<GameId> {
        let count = self.instances.count.entry(of).or_default();
        if *count >= MOST {
            return None;
        }
        *count += 1;
        let from = self.game_ir(of);
        let id = self.defs.games.len() as GameId;
        let rules = specialize(&from, of, id, at, &values);
        self.defs.games.push(Some(Rc::new(rules)));
        let made = &mut self.instances.made;
        made.resize_with(id as usize + 1, || None);
        made[id as usize] = Some(Instance {
            of,
            at: at.clone(),
            values,
            from,
        });
        Some(id)
    }

    /// The arguments of `node` as positions show them: those of the game
    /// it was made from, for a made game.
    pub fn node_args(&self, node: NodeId) -> Cow<'_, [Value]> {
        let args = self.graph.args(node);
        let Some(inst) = self.instances.of(node.game) else {
            return args;
        };
        let mut kept = args.iter();
        let full =
            (0..args.len() + inst.at.len()).map(|i| match inst.at.iter().position(|a| *a == i) {
                Some(k) => inst.values[k].clone(),
                None => kept.next().cloned().unwrap_or(Value::Int(0)),
            });
        Cow::Owned(full.collect())
    }

    /// After the games `stale` were redefined (or what they read was):
    /// each game made from one of them is made again from its current
    /// rules, and forgets its values. One whose game now takes another
    /// number of parameters keeps its rules; its positions are reported
    /// as made under an earlier definition ([`Machine::stale_instance`]).
    pub(crate) fn remake_instances(&mut self) {
        for id in 0..self.instances.made.len() {
            let Some(inst) = &self.instances.made[id] else {
                continue;
            };
            let Some(rules) = self.defs.game(inst.of) else {
                continue;
            };
            if Rc::ptr_eq(rules, &inst.from) {
                continue;
            }
            self.graph.clear_games(&[id as GameId]);
            if rules.arity != inst.from.arity {
                continue;
            }
            let made = specialize(rules, inst.of, id as GameId, &inst.at, &inst.values);
            let rules = rules.clone();
            self.defs.games[id] = Some(Rc::new(made));
            if let Some(Some(inst)) = self.instances.made.get_mut(id) {
                inst.from = rules;
            }
        }
    }

    /// For a position of a made game whose game now takes another number
    /// of parameters: that game's current rules, and the number of
    /// arguments the position was made with.
    pub(crate) fn stale_instance(&self, game: GameId) -> Option<(Rc<GameIr>, usize)> {
        let inst = self.instances.of(game)?;
        let rules = self.defs.game(inst.of)?;
        (rules.arity != inst.from.arity).then(|| (rules.clone(), inst.from.arity))
    }
}

/// Whether `v` is an integer, as positions compare it: the empty
/// position is 0 (see `Value`'s equality).
fn integer(v: &Value) -> bool {
    match v {
        Value::Int(_) => true,
        Value::Pos(p) => p.is_empty(),
        _ => false,
    }
}

/// The items of `items` but those at `at`, in order.
fn without<'a, T>(items: &'a [T], at: &'a [usize]) -> impl Iterator<Item = &'a T> {
    (items.iter().enumerate())
        .filter(|(i, _)| !at.contains(i))
        .map(|(_, a)| a)
}
