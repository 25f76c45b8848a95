//! Positions made by the interpreter: a game applied to arguments
//! (interned in the graph, within `--max-states`), a Nim heap, and a
//! value used where a position is needed.

use super::arity_error;
use crate::diag::{Diagnostic, Phase};
use crate::ir::Ir;
use crate::runtime::{Machine, RtResult, error, type_error};
use crate::span::Span;
use crate::value::{Component, GameId, NodeId, Position, Value};

impl Machine {
    /// Interns `game(args)` as a node of the graph.
    pub fn apply(
        &mut self,
        game: GameId,
        args: &[Ir],
        frame: &mut [Value],
        span: Span,
    ) -> RtResult<NodeId> {
        // The arguments go in a frame of the pool, as a call's do: a
        // position made allocates nothing.
        let mut values = self.frames.pop().unwrap_or_default();
        let mut result = Ok(());
        for a in args {
            match self.operand(a, frame) {
                Ok(v) => values.push(v),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let node = result.and_then(|()| self.intern(game, &values, span));
        values.clear();
        self.frames.push(values);
        node
    }

    /// The node of `game(args)`, added to the graph if it is new.
    pub fn intern(&mut self, game: GameId, args: &[Value], span: Span) -> RtResult<NodeId> {
        // The arity first: the graph may hold nodes made under an earlier
        // definition of the game with another number of parameters, and
        // those are no positions of the current one.
        let rules = self
            .defs
            .game(game)
            .expect("lowering defines every game it declares");
        if args.len() != rules.arity {
            return Err(arity_error(
                &rules.name,
                rules.arity,
                args.len(),
                span,
                "this position",
            ));
        }
        // A position kept in a game made for its fixed arguments.
        if let Some((made, kept)) = self.instance_of(game, args) {
            return self.intern(made, &kept, span);
        }
        let rules = self.defs.game(game).expect("checked above");
        if let Some(node) = self.graph.find(game, args) {
            return Ok(node);
        }
        if self.graph.reached() >= self.limits.max_states {
            return Err(Box::new(
                Diagnostic::new(
                    Phase::Limit,
                    format!(
                        "more than {} positions while expanding `{}`",
                        self.limits.max_states, rules.name
                    ),
                )
                .at(span, "this position is one too many")
                .help("raise the limit with --max-states, or check that the rules make positions smaller"),
            ));
        }
        Ok(self.graph.insert(game, args))
    }

    pub fn heap(&mut self, k: &Ir, frame: &mut [Value]) -> RtResult<Component> {
        match self.eval(k, frame)? {
            Value::Int(n) if n >= 0 => Ok(Component::Heap(n as u64)),
            Value::Int(n) => Err(error(
                k.span,
                format!("a Nim heap cannot have {n} tokens"),
                "negative",
            )),
            other => Err(type_error(k.span, "an integer heap size", &other)),
        }
    }

    /// A value used where a position is needed: a position, or `0`.
    pub fn to_position(&self, v: &Value, span: Span, what: &str) -> RtResult<Position> {
        match v {
            Value::Pos(p) => Ok(p.clone()),
            Value::Int(0) => Ok(Position::empty()),
            other => {
                let mut e = *error(
                    span,
                    format!("{what} must be a position, found {}", other.type_name()),
                    format!("this is {}", self.show(other)),
                );
                if let Value::Game(game) = other {
                    let name = self.defs.game_name(*game);
                    e = e.help(match self.defs.game(*game).map(|g| g.arity) {
                        Some(0) => format!("apply the game, as in `{name}()`"),
                        _ => format!("apply the game to arguments, as in `{name}(...)`"),
                    });
                }
                let all_positions = |items: &[Value]| {
                    !items.is_empty() && items.iter().all(|v| matches!(v, Value::Pos(_)))
                };
                if other.as_slice().is_some_and(all_positions) {
                    e = e.help("to play these positions side by side, add them up with `sum(...)`");
                }
                Err(Box::new(e.note(
                    "a position is a game applied to arguments such as `g(3)`, a sum `P + Q`, `*k`, or `0`",
                )))
            }
        }
    }
}
