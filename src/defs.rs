//! The definitions a session has accumulated: games, functions and
//! constants, by name and by dense index. Lowering fills it; the
//! interpreter reads it. It also says what `check` may know of names an
//! earlier unit defined ([`Earlier`]), so that `check` needs nothing of
//! the later phases. A later definition of the same name replaces the
//! earlier one in place, so every reference to it sees the new rules.

use crate::ir::{FnId, FnIr, GameIr, LetId};
use crate::span::Span;
use crate::value::{GameId, Value};
use rustc_hash::FxHashMap;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Global {
    Game(GameId),
    Fn(FnId),
    Let(LetId),
}

#[derive(Debug)]
pub struct LetSlot {
    pub name: Rc<str>,
    pub value: Option<Value>,
    pub span: Span,
}

#[derive(Default, Debug)]
pub struct Defs {
    pub names: FxHashMap<Rc<str>, Global>,
    /// `None` only between declaring a game and lowering its rules.
    pub games: Vec<Option<Rc<GameIr>>>,
    pub fns: Vec<Option<Rc<FnIr>>>,
    pub lets: Vec<LetSlot>,
    /// For each game, with its number of parameters then: the parameters
    /// positions are kept apart by (`crate::runtime::instances`), as first
    /// found. They stay while the game keeps its number of parameters, so
    /// that a position is kept where it was whatever the game is
    /// redefined to.
    pub fixed: FxHashMap<GameId, (usize, Rc<[usize]>)>,
}

impl Defs {
    pub fn lookup(&self, name: &str) -> Option<Global> {
        self.names.get(name).copied()
    }
}

/// What an earlier unit of the session (a previously loaded file or REPL input) defined under a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    Game { arity: usize },
    Fn { arity: usize },
    Let,
}

/// What the earlier units of a session defined, as `check` sees them:
/// asked for each name used, and listed for "did you mean" suggestions.
pub trait Earlier {
    fn known(&self, name: &str) -> Option<Known>;
    fn names(&self) -> Vec<String>;
}

impl Earlier for Defs {
    fn names(&self) -> Vec<String> {
        self.names.keys().map(|n| n.to_string()).collect()
    }

    /// What `check` needs to know of a name defined by an earlier unit.
    fn known(&self, name: &str) -> Option<Known> {
        Some(match self.lookup(name)? {
            Global::Game(g) => Known::Game {
                arity: self.game(g).map_or(0, |g| g.arity),
            },
            Global::Fn(f) => Known::Fn {
                arity: self.fns[f as usize].as_ref().map_or(0, |f| f.arity),
            },
            Global::Let(_) => Known::Let,
        })
    }
}

impl Defs {
    pub fn game(&self, id: GameId) -> Option<&Rc<GameIr>> {
        self.games.get(id as usize).and_then(|g| g.as_ref())
    }

    pub fn game_name(&self, id: GameId) -> &str {
        self.game(id).map_or("?", |g| &g.name)
    }

    /// The id for a game named `name`: the existing one if the name already
    /// is a game (so references to it follow the new rules), else a new one.
    pub fn declare_game(&mut self, name: &Rc<str>) -> GameId {
        if let Some(Global::Game(id)) = self.lookup(name) {
            return id;
        }
        self.games.push(None);
        let id = self.games.len() as GameId - 1;
        self.names.insert(name.clone(), Global::Game(id));
        id
    }

    pub fn declare_fn(&mut self, name: &Rc<str>) -> FnId {
        if let Some(Global::Fn(id)) = self.lookup(name) {
            return id;
        }
        self.fns.push(None);
        let id = self.fns.len() as FnId - 1;
        self.names.insert(name.clone(), Global::Fn(id));
        id
    }

    pub fn declare_let(&mut self, name: &Rc<str>, span: Span) -> LetId {
        if let Some(Global::Let(id)) = self.lookup(name) {
            self.lets[id as usize].span = span;
            return id;
        }
        self.lets.push(LetSlot {
            name: name.clone(),
            value: None,
            span,
        });
        let id = self.lets.len() as LetId - 1;
        self.names.insert(name.clone(), Global::Let(id));
        id
    }
}
