//! Run-time values. Positions are sums of components: Nim heaps and nodes
//! of the transition graph (a game applied to its arguments, interned to a
//! dense [`NodeId`]). Everything else is an ordinary immutable value shared
//! through `Rc`, so copying a value never copies its contents.

mod order;
mod position;
mod report;

pub use position::{Component, GameId, NodeId, NodePositions, Position};
pub use report::{Axis, Nims, Report, ReportText, TableSpec};
use std::collections::BTreeSet;
use std::rc::Rc;

/// The tag is a whole word: with a one-byte tag, `Bool` and `Game` keep
/// their payloads in the bytes after it, and every move of a value copies
/// those bytes with overlapping loads that stall the CPU (a value returned
/// and read back in the next instruction, as in `eval`, is the common case).
/// The size is 24 bytes either way.
#[derive(Clone, Debug)]
#[repr(u64)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Str(Rc<str>),
    Tuple(Rc<[Value]>),
    List(Rc<Vec<Value>>),
    Set(Rc<BTreeSet<Value>>),
    /// The integers `lo..hi` (end excluded; empty when `hi <= lo`), kept as
    /// written. All empty ranges are equal.
    Range(i64, i64),
    Pos(Position),
    Game(GameId),
    Report(Rc<Report>),
}

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
    }

    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    /// A clone: an integer, the most common value, is copied inline, where
    /// `clone()` would make a call.
    #[inline(always)]
    pub fn copy(&self) -> Value {
        match self {
            Value::Int(n) => Value::Int(*n),
            other => other.clone(),
        }
    }

    /// Makes this value the integer `n`; when it already is an integer,
    /// without a call of the drop glue for the old value.
    #[inline(always)]
    pub fn set_int(&mut self, n: i64) {
        match self {
            Value::Int(old) => *old = n,
            other => *other = Value::Int(n),
        }
    }

    /// A report as the plain list it stands for; anything else unchanged.
    pub fn into_list(self) -> Value {
        match self {
            Value::Report(r) => Value::list(r.items().to_vec()),
            other => other,
        }
    }

    /// The name of the value's type, as error messages say it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::Tuple(_) => "a tuple",
            Value::List(_) | Value::Report(_) => "a list",
            Value::Set(_) => "a set",
            Value::Range(..) => "a range",
            Value::Pos(_) => "a position",
            Value::Game(_) => "a game",
        }
    }

    /// The items of a list-like value held in memory (not ranges or sets).
    pub fn as_slice(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            Value::Tuple(items) => Some(items),
            Value::Report(r) => Some(r.items()),
            _ => None,
        }
    }
}

/// Calls `found` with the game of every position component and every game
/// value inside `v`, however deeply nested. Plain scalars cost one match.
pub fn games_in(v: &Value, found: &mut impl FnMut(GameId)) {
    match v {
        Value::Int(_) | Value::Bool(_) | Value::Str(_) | Value::Range(..) => {}
        Value::Game(id) => found(*id),
        Value::Pos(p) => {
            for c in p.components() {
                if let Component::Node(node) = c {
                    found(node.game);
                }
            }
        }
        Value::Tuple(items) => items.iter().for_each(|x| games_in(x, found)),
        Value::List(items) => items.iter().for_each(|x| games_in(x, found)),
        Value::Set(items) => items.iter().for_each(|x| games_in(x, found)),
        Value::Report(r) => r.items().iter().for_each(|x| games_in(x, found)),
    }
}
