//! A game's rules made for fixed values of the parameters that every
//! move passes on unchanged: `game sub(S, n)` with `move take(k in S) if
//! k <= n -> sub(S, n - k)` keeps `S`, so the positions reached from
//! `sub({1, 3, 4}, n)` are those of a game of `n` alone whose rules read
//! `{1, 3, 4}` where they read `S`. Those rules are normalised and
//! compiled like any game's: the set becomes three constants, and the
//! positions one dense table of integers, rather than runs of a set and
//! an integer hashed. The runtime makes such a game on demand
//! (`crate::runtime::instances`).

use super::inline::rename;
use super::{Rewrite, each_child, map_children, rewrite_move};
use crate::defs::Defs;
use crate::ir::{GameIr, Ir, IrKind, Slot, TargetIr, TermIr};
use crate::span::Span;
use crate::value::{GameId, Value};
use std::rc::Rc;

/// The parameters of `game` (numbered `id`) that its rules pass on
/// unchanged: every application of the game in its rules has, at each
/// such place, the parameter itself. Empty when the rules never apply
/// the game (nothing is gained) or change every parameter.
pub fn invariant(game: &GameIr, id: GameId) -> Vec<usize> {
    let mut kept = vec![true; game.arity];
    let mut applied = false;
    let mut see = |args: &[Ir]| {
        applied = true;
        for (i, keep) in kept.iter_mut().enumerate() {
            *keep &=
                matches!(args.get(i), Some(Ir { kind: IrKind::Local(s), .. }) if *s as usize == i);
        }
    };
    for rule in &game.moves {
        rule.exprs().for_each(|e| applications(e, id, &mut see));
        if let TargetIr::Terms(terms) = &rule.target {
            for t in terms {
                if let TermIr::Node(g, args, _) = t
                    && *g == id
                {
                    see(args);
                }
            }
        }
    }
    match applied {
        true => (0..game.arity).filter(|i| kept[*i]).collect(),
        false => Vec::new(),
    }
}

/// The parameters of game `id` that positions are kept apart by: as
/// recorded in [`Defs::fixed`] while the game keeps its number of
/// parameters, else those its rules pass on unchanged.
pub fn fixed(defs: &Defs, id: GameId) -> Option<Rc<[usize]>> {
    let rules = defs.game(id)?;
    Some(match defs.fixed.get(&id) {
        Some((arity, at)) if *arity == rules.arity => at.clone(),
        _ => invariant(rules, id).into(),
    })
}

/// Calls `see` with the arguments of each application of game `id`
/// inside `ir`.
fn applications(ir: &Ir, id: GameId, see: &mut dyn FnMut(&[Ir])) {
    match &ir.kind {
        IrKind::Apply(g, args) if *g == id => see(args),
        IrKind::TableOf(g, ..) if *g == id => see(&[]),
        _ => {}
    }
    each_child(ir, &mut |c| applications(c, id, see));
}

/// The rules of `game` (numbered `of`) for the parameters `at` (in
/// increasing order) fixed to `values`, as the rules of game `id`, whose
/// parameters are the others, in order. An application of `of` that
/// passes the fixed parameters on becomes one of `id`; any other stays.
pub fn specialize(game: &GameIr, of: GameId, id: GameId, at: &[usize], values: &[Value]) -> GameIr {
    let fixed = |i: usize| at.iter().position(|a| *a == i);
    let kept = game.arity - at.len();
    let params: Vec<Ir> = (0..game.arity)
        .map(|i| Ir {
            kind: match fixed(i) {
                Some(k) => IrKind::Const(values[k].clone()),
                None => IrKind::Local((i - at.iter().filter(|a| **a < i).count()) as Slot),
            },
            span: game.def.name.span,
        })
        .collect();
    let base = kept as Slot;
    // Applications that keep the fixed parameters become the new game's,
    // first; then every slot moves.
    let retarget = |args: &[Ir]| -> Option<Vec<Ir>> {
        let keeps = at
            .iter()
            .all(|i| matches!(args.get(*i), Some(Ir { kind: IrKind::Local(s), .. }) if *s as usize == *i));
        keeps.then(|| {
            (args.iter().enumerate())
                .filter(|(i, _)| fixed(*i).is_none())
                .map(|(_, a)| a.clone())
                .collect()
        })
    };
    struct Specialize<'a> {
        of: GameId,
        id: GameId,
        params: &'a [Ir],
        base: Slot,
        arity: Slot,
        retarget: &'a dyn Fn(&[Ir]) -> Option<Vec<Ir>>,
    }
    impl Rewrite for Specialize<'_> {
        fn expr(&mut self, ir: &Ir) -> Ir {
            let applied = applied(ir, self.of, self.id, self.retarget);
            rename(&at_use(&applied, self.params), self.params, self.base)
        }
        fn node(&mut self, g: GameId, args: &[Ir], span: Span) -> TermIr {
            let (g, args) = match (self.retarget)(args) {
                Some(kept) if g == self.of => (self.id, kept),
                _ => (g, args.to_vec()),
            };
            TermIr::Node(g, args.iter().map(|a| self.expr(a)).collect(), span)
        }
        fn slot(&self, s: Slot) -> Slot {
            self.base + (s - self.arity)
        }
    }
    let mut spec = Specialize {
        of,
        id,
        params: &params,
        base,
        arity: game.arity as Slot,
        retarget: &retarget,
    };
    let moves = (game.moves.iter())
        .map(|rule| rewrite_move(rule, 0, &mut spec))
        .collect();
    GameIr {
        name: game.name.clone(),
        arity: kept,
        slots: game.slots.max(game.arity) - at.len(),
        moves,
        def: game.def.clone(),
    }
}

/// `ir` with each fixed parameter (a constant in `params`) read as its
/// value, where it is read: an error about the value points there, not
/// at the game's name.
fn at_use(ir: &Ir, params: &[Ir]) -> Ir {
    if let IrKind::Local(s) = ir.kind
        && let Some(Ir {
            kind: kind @ IrKind::Const(_),
            ..
        }) = params.get(s as usize)
    {
        return Ir {
            kind: kind.clone(),
            span: ir.span,
        };
    }
    map_children(ir, &mut |c| at_use(c, params))
}

/// `ir` with each application of `of` that `retarget` accepts made an
/// application of `id` to the arguments it gives.
fn applied(ir: &Ir, of: GameId, id: GameId, retarget: &dyn Fn(&[Ir]) -> Option<Vec<Ir>>) -> Ir {
    if let IrKind::Apply(g, args) = &ir.kind
        && *g == of
        && let Some(kept) = retarget(args)
    {
        return Ir {
            kind: IrKind::Apply(
                id,
                kept.iter().map(|a| applied(a, of, id, retarget)).collect(),
            ),
            span: ir.span,
        };
    }
    map_children(ir, &mut |c| applied(c, of, id, retarget))
}
