//! The results of user functions that call themselves on integers,
//! remembered by their arguments. `fn g(n) = mex([g(n - k) for k in [2,
//! 5, 7] if k <= n])`, the textbook Sprague–Grundy recursion, calls
//! itself again and again with the same arguments: without a memo its
//! time grows exponentially with `n` (1.2 s at n = 52, ten times that at
//! 60), with one it is linear, as the game written with `game` is.
//!
//! Only what cannot change a run's outcome is kept:
//! - functions that reach themselves, and reach no game and no `let`
//!   holding one, nothing that prints, plots or plays, and no value
//!   called (a game in a variable): their result is a function of their
//!   arguments and of the definitions, and the memo is emptied when a
//!   definition or a `let` changes (see `session`);
//! - calls whose arguments are all integers (at most [`ARGS_MOST`]),
//!   compared exactly, whose result is an integer or a boolean: a key
//!   and a result of a few words, and equality that is identity (a
//!   range, a table or the position `*0` could equal what prints
//!   otherwise);
//! - with each result, how deep the calls it made went: a call deeper
//!   than `--max-depth` fails as it did without the memo, since a result
//!   is used only where its own calls would have stayed within the
//!   limit;
//! - at most [`MEMO_MOST`] results: past that, calls are made as
//!   before, so memory stays bounded (about 15 MB, twice that while the
//!   table grows); and none of a
//!   function whose results are seldom found again ([`FnMemo::tried`]).
//!
//! A failed call keeps nothing, so it fails each time, with its own
//! report.

use crate::builtins::Builtin;
use crate::defs::{Defs, Global};
use crate::ir::{FnId, Ir, IrKind};
use crate::value::Value;
use rustc_hash::{FxHashMap, FxHashSet};

/// The most results kept.
const MEMO_MOST: usize = 1 << 17;
/// How many results of a function are kept before it is asked whether
/// they are found again (see [`FnMemo::tried`]).
const TRIAL: u32 = 1 << 12;
/// The most arguments of a call kept.
const ARGS_MOST: usize = 3;

/// A call's key: the function, then its integer arguments.
type Key = (FnId, [i64; ARGS_MOST]);

/// Results of the calls of functions that call themselves.
#[derive(Default)]
pub struct FnMemo {
    /// For each function, once asked: whether its calls are remembered.
    kept: Vec<Option<bool>>,
    /// For each function, its results kept and its results found again.
    uses: Vec<(u32, u32)>,
    /// Each result, with the levels of calls it took (itself included).
    results: FxHashMap<Key, (Value, u32)>,
    /// The deepest level of calls reached since the call under way
    /// started (see [`FnMemo::enter`]).
    peak: usize,
}

impl FnMemo {
    /// Forgets every result, and which functions are remembered: for a
    /// definition or a `let` that changed.
    pub fn clear(&mut self) {
        self.kept.clear();
        self.uses.clear();
        self.results = FxHashMap::default();
    }

    /// The key of `f` called with `args` under `defs`, when such calls
    /// are remembered.
    pub fn key(&mut self, defs: &Defs, f: FnId, args: &[Value]) -> Option<Key> {
        if args.len() > ARGS_MOST {
            return None;
        }
        let mut key = (f, [0; ARGS_MOST]);
        for (k, a) in key.1.iter_mut().zip(args) {
            let Value::Int(n) = a else { return None };
            *k = *n;
        }
        let at = f as usize;
        if self.kept.len() <= at {
            self.kept.resize(at + 1, None);
            self.uses.resize(at + 1, (0, 0));
        }
        let kept = *self.kept[at].get_or_insert_with(|| remembered(defs, f));
        kept.then_some(key)
    }

    /// The result kept for `key`, if its calls made at `depth` stay
    /// within `most` levels: a call at `depth` of `height` levels
    /// reaches `depth + height`.
    pub fn get(&mut self, key: &Key, depth: usize, most: usize) -> Option<Value> {
        let (v, height) = self.results.get(key)?;
        let reached = depth + *height as usize;
        if reached > most {
            return None;
        }
        self.peak = self.peak.max(reached);
        self.uses[key.0 as usize].1 += 1;
        Some(v.clone())
    }

    /// Starts measuring a call made at `depth`: what to give
    /// [`FnMemo::leave`].
    pub fn enter(&mut self, depth: usize) -> usize {
        std::mem::replace(&mut self.peak, depth + 1)
    }

    /// Ends the call made at `depth` that [`FnMemo::enter`] started,
    /// keeping `result` by `key` if there is one and room.
    pub fn leave(&mut self, (depth, before): (usize, usize), key: Option<Key>, result: &Value) {
        let height = self.peak - depth;
        self.peak = self.peak.max(before);
        let small = matches!(result, Value::Int(_) | Value::Bool(_));
        // (A call under way when its function stopped being remembered
        // keeps nothing either.)
        let still = |k: &Key| self.kept[k.0 as usize] == Some(true);
        if let Some(key) = key.filter(|k| small && still(k) && self.results.len() < MEMO_MOST) {
            self.results.insert(key, (result.clone(), height as u32));
            self.tried(key.0);
        }
    }

    /// Counts a result of `f` kept. A recursion that rarely meets a call
    /// again (one that halves a range, or counts down a chain) would pay
    /// for each call's key and keep memory for nothing: after
    /// [`TRIAL`] results with fewer than one found again for eight kept,
    /// `f` is no longer remembered.
    fn tried(&mut self, f: FnId) {
        let (kept, found) = &mut self.uses[f as usize];
        *kept += 1;
        if *kept == TRIAL && *found < TRIAL / 8 {
            self.kept[f as usize] = Some(false);
            self.results.retain(|(g, _), _| *g != f);
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

/// Whether `f` reaches itself through the functions its body calls, and
/// nothing it reaches is a game, a `let` holding one, or an expression
/// that prints, plots, plays or calls a value.
fn remembered(defs: &Defs, f: FnId) -> bool {
    let mut seen = FxHashSet::default();
    let mut todo = vec![Global::Fn(f)];
    let mut recurs = false;
    while let Some(g) = todo.pop() {
        let refs = match g {
            Global::Fn(h) => match defs.fns.get(h as usize).and_then(|d| d.as_ref()) {
                Some(def) if !acts(&def.body) => crate::deps::fn_refs(def),
                _ => return false,
            },
            Global::Let(id) => match defs.lets.get(id as usize) {
                Some(slot) if crate::deps::let_refs(slot.value.as_ref()).is_empty() => continue,
                _ => return false,
            },
            Global::Game(_) => return false,
        };
        for r in refs {
            recurs |= r == Global::Fn(f);
            if seen.insert(r) {
                todo.push(r);
            }
        }
    }
    recurs
}

/// Whether `ir` prints, plots, plays, calls a value or makes a position
/// somewhere inside.
fn acts(ir: &Ir) -> bool {
    crate::runtime::normalize::any_node(ir, &|e| {
        matches!(
            e.kind,
            IrKind::CallBuiltin(Builtin::Print | Builtin::Plot | Builtin::Play, _)
                | IrKind::CallValue(..)
                | IrKind::Apply(..)
        )
    })
}
