//! The results of user functions that call themselves, remembered by
//! their arguments. `fn g(n) = mex([g(n - k) for k in [2, 5, 7] if k <=
//! n])`, the textbook Sprague–Grundy recursion, calls itself again and
//! again with the same arguments: without a memo its time grows
//! exponentially with `n` (1.2 s at n = 52, ten times that at 60), with
//! one it is linear, as the game written with `game` is.
//!
//! A function's result depends only on its arguments and on the
//! definitions it reaches, so it may be remembered when nothing it
//! reaches prints, plots or plays. Only functions that reach themselves
//! are remembered: a call of any other is as cheap to make again as to
//! look up, and keeping its results would only take memory. The memo is
//! emptied whenever a definition or a `let` changes (see `session`), and
//! holds at most [`MEMO_MOST`] results: past that, calls are made as
//! before, so memory stays bounded.

use crate::builtins::Builtin;
use crate::defs::{Defs, Global};
use crate::ir::{FnId, Ir, IrKind};
use crate::value::Value;
use rustc_hash::{FxHashMap, FxHashSet};

/// The most results the memo keeps (about 100 bytes each for a call of
/// one integer).
pub const MEMO_MOST: usize = 1 << 19;

/// Results of the calls of functions that call themselves.
#[derive(Default)]
pub struct FnMemo {
    /// For each function, once asked: whether its calls are remembered.
    kept: FxHashMap<FnId, bool>,
    results: FxHashMap<(FnId, Box<[Value]>), Value>,
}

impl FnMemo {
    /// Forgets every result, and which functions are remembered: for a
    /// definition or a `let` that changed.
    pub fn clear(&mut self) {
        self.kept.clear();
        self.results = FxHashMap::default();
    }

    /// Whether calls of `f` are remembered under `defs`.
    pub fn keeps(&mut self, defs: &Defs, f: FnId) -> bool {
        *self.kept.entry(f).or_insert_with(|| remembered(defs, f))
    }

    /// The result of `f` called with `args`, if remembered.
    pub fn get(&self, f: FnId, args: &[Value]) -> Option<Value> {
        // The key is built only to look it up: the map holds few enough
        // entries that the allocation is the smaller cost of a call.
        self.results.get(&(f, args.into())).cloned()
    }

    /// Remembers `result` of `f` called with `args`, while there is room.
    pub fn put(&mut self, f: FnId, args: &[Value], result: &Value) {
        if self.results.len() < MEMO_MOST {
            self.results.insert((f, args.into()), result.clone());
        }
    }

    /// How many results it holds.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }
}

/// Whether `f` reaches itself through the functions and games its body
/// refers to, and nothing it reaches prints, plots or plays.
fn remembered(defs: &Defs, f: FnId) -> bool {
    let mut seen = FxHashSet::default();
    let mut todo = vec![Global::Fn(f)];
    let mut recurs = false;
    while let Some(g) = todo.pop() {
        let (refs, bodies) = match g {
            Global::Fn(h) => match defs.fns.get(h as usize).and_then(|d| d.as_ref()) {
                Some(def) => (crate::deps::fn_refs(def), vec![&def.body]),
                None => return false,
            },
            Global::Game(id) => match defs.games.get(id as usize).and_then(|d| d.as_ref()) {
                Some(game) => (
                    crate::deps::game_refs(game),
                    game.moves.iter().flat_map(|m| m.exprs()).collect(),
                ),
                None => return false,
            },
            _ => continue,
        };
        if bodies.iter().any(|b| acts(b)) {
            return false;
        }
        for r in refs {
            recurs |= r == Global::Fn(f);
            if seen.insert(r) {
                todo.push(r);
            }
        }
    }
    recurs
}

/// Whether `ir` prints, plots or plays somewhere inside.
fn acts(ir: &Ir) -> bool {
    crate::runtime::normalize::any_node(ir, &|e| {
        matches!(
            e.kind,
            IrKind::CallBuiltin(Builtin::Print | Builtin::Plot | Builtin::Play, _)
        )
    })
}
