//! The intermediate representation that `lower` produces and the
//! interpreter runs. Names are gone: locals are slots in a frame, globals
//! are indices into the session's tables, built-ins are resolved.

use crate::builtins::Builtin;
use crate::span::Span;
use crate::syntax::ast::{BinOp, FnDef, GameDef, UnOp};
use crate::value::{GameId, Value};
use std::rc::Rc;

pub type FnId = u32;
pub type LetId = u32;
pub type Slot = u32;

#[derive(Clone, Debug)]
pub struct Ir {
    pub kind: IrKind,
    pub span: Span,
}

impl Ir {
    /// `all([elem for ...])` or `any(...)` of a list comprehension: which
    /// of the two, the element and the clauses.
    pub fn truths(&self) -> Option<(Builtin, &Ir, &[ClauseIr])> {
        let IrKind::CallBuiltin(b @ (Builtin::All | Builtin::Any), args) = &self.kind else {
            return None;
        };
        let [list] = args.as_slice() else {
            return None;
        };
        match &list.kind {
            IrKind::Comprehension {
                set: false,
                elem,
                clauses,
            } => Some((*b, elem, clauses)),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum IrKind {
    Const(Value),
    Local(Slot),
    Global(LetId),
    Tuple(Vec<Ir>),
    List(Vec<Ir>),
    Set(Vec<Ir>),
    Comprehension {
        set: bool,
        elem: Box<Ir>,
        clauses: Vec<ClauseIr>,
    },
    Unary(UnOp, Box<Ir>),
    /// `and` and `or` are here too; the interpreter short-circuits them.
    Binary(BinOp, Box<Ir>, Box<Ir>),
    If(Box<Ir>, Box<Ir>, Box<Ir>),
    /// `let PATTERN = VALUE in BODY`: the value stored in the pattern's
    /// slots, then the body evaluated.
    Let(PatIr, Box<Ir>, Box<Ir>),
    /// `a < b <= c`: each operand evaluated once, stopping at the first
    /// comparison that fails.
    Chain(Vec<Ir>, Vec<BinOp>),
    CallFn(FnId, Vec<Ir>),
    CallBuiltin(Builtin, Vec<Ir>),
    /// A game applied to arguments: a position with one component.
    Apply(GameId, Vec<Ir>),
    /// A call whose callee is only known at run time (a variable holding a
    /// game), with the function or built-in the variable hides, if any.
    CallValue(Box<Ir>, Vec<Ir>, Option<Rc<str>>),
    /// `table(g(a, _), xs)`: the table of a family of positions, with the
    /// game's arguments (`None` for each `_`) and the collections that
    /// fill the holes, in order.
    TableOf(GameId, Vec<Option<Ir>>, Vec<Ir>),
    Index(Box<Ir>, Box<Ir>),
    Slice(Box<Ir>, Option<Box<Ir>>, Option<Box<Ir>>),
}

#[derive(Clone, Debug)]
pub enum ClauseIr {
    For(PatIr, Ir),
    If(Ir),
}

/// Where a pattern stores what it binds.
#[derive(Clone, Debug)]
pub enum PatIr {
    Slot(Slot),
    Global(LetId),
    Tuple(Vec<PatIr>, Span),
}

impl PatIr {
    /// How many names the pattern binds.
    pub fn slots(&self) -> usize {
        match self {
            PatIr::Slot(_) | PatIr::Global(_) => 1,
            PatIr::Tuple(parts, _) => parts.iter().map(PatIr::slots).sum(),
        }
    }

    /// The slots of a tuple pattern of names, `(a, b)`, in order; `None`
    /// for any other pattern.
    pub fn tuple_slots(&self) -> Option<Vec<Slot>> {
        let PatIr::Tuple(parts, _) = self else {
            return None;
        };
        parts
            .iter()
            .map(|q| match q {
                PatIr::Slot(s) => Some(*s),
                _ => None,
            })
            .collect()
    }
}

impl MoveIr {
    /// Every expression of the move: its binders' domains, its guard and
    /// its target's, in that order.
    pub fn exprs(&self) -> impl Iterator<Item = &Ir> {
        let domains = self.binders.iter().map(|(_, d)| d);
        domains.chain(&self.guard).chain(self.target.exprs())
    }

    /// Whether the move's guard is the constant `false` (folded so by the
    /// normaliser): it makes no options, though its binders' ranges are
    /// still made.
    pub fn never_plays(&self) -> bool {
        let never = |g: &Ir| matches!(g.kind, IrKind::Const(crate::value::Value::Bool(false)));
        self.guard.as_ref().is_some_and(never)
    }

    /// The share of the options without values that a search waits for
    /// (up to 32 at first) that this move's count against: the move as
    /// written, by where its span starts, and for a copy unrolled from
    /// it, the items its leading binders took ([`MoveIr::unrolled`]).
    /// Each copy has a share of its own, as a move written out for each
    /// item would, and the interpreter, running the move as written,
    /// starts a new share at each item of those binders: both wait for
    /// the same options.
    pub fn share(&self) -> u64 {
        // Injective for the at most five binders of at most 64 items
        // each that name a copy (see `normalize/shares.rs`), so copies
        // one after another differ.
        let copy = (self.unrolled.iter()).fold(0u32, |acc, &(_, i)| {
            acc.wrapping_mul(65).wrapping_add(i.wrapping_add(1))
        });
        u64::from(self.span.start) | (u64::from(copy) << 32)
    }
}

impl TargetIr {
    /// The expressions of the target: each term's arguments, or the
    /// computed target.
    pub fn exprs(&self) -> Vec<&Ir> {
        match self {
            TargetIr::Terms(terms) => terms
                .iter()
                .flat_map(|t| match t {
                    TermIr::Node(_, args, _) => args.iter().collect::<Vec<_>>(),
                    TermIr::Heap(k) => vec![k],
                })
                .collect(),
            TargetIr::Dynamic(e) => vec![e],
        }
    }
}

impl GameIr {
    /// Whether the move whose span starts at `start` computes its target
    /// as a value (`TargetIr::Dynamic`): a sum made so has its positions
    /// sorted, so they wait in their order, not as written.
    pub fn computes_target(&self, start: u32) -> bool {
        (self.moves.iter())
            .any(|r| r.span.start == start && matches!(r.target, TargetIr::Dynamic(_)))
    }
}

/// A game definition, ready to expand positions.
#[derive(Clone, Debug)]
pub struct GameIr {
    pub name: Rc<str>,
    pub arity: usize,
    /// Frame size: parameters first, then binders and comprehension variables.
    pub slots: usize,
    pub moves: Vec<MoveIr>,
    pub def: Rc<GameDef>,
}

#[derive(Clone, Debug)]
pub struct MoveIr {
    pub name: Rc<str>,
    pub binders: Vec<(PatIr, Ir)>,
    /// Each binder name with its slot, to show which move was made.
    pub shown: Vec<(Rc<str>, Slot)>,
    /// In rules normalised for the compiled ones, each name of `shown`
    /// with the expression that gives its value (a slot, a constant an
    /// unrolled binder took, `n - a` for a binder an equation fixed), when
    /// the normalised moves make their options in the written order, so
    /// that the compiled rules can list and name them as `moves(P)` does;
    /// `None` otherwise, and in the rules as lowered.
    pub named: Option<Vec<(Rc<str>, Ir)>>,
    pub guard: Option<Ir>,
    pub target: TargetIr,
    pub span: Span,
    /// In rules normalised, for a copy of a move whose leading binders
    /// the normaliser unrolled (`(dx, dy) in [(1, 0), (0, 1)], k in
    /// ...`): each such binder's first slot and the index of the item
    /// it took, outermost first; empty otherwise, and in the rules as
    /// lowered. See [`MoveIr::share`].
    pub unrolled: Vec<(Slot, u32)>,
}

/// A move's target. Sums of game applications and heaps, the common case,
/// are kept as terms so the graph can produce components without building
/// intermediate position values.
#[derive(Clone, Debug)]
pub enum TargetIr {
    Terms(Vec<TermIr>),
    Dynamic(Ir),
}

#[derive(Clone, Debug)]
pub enum TermIr {
    Node(GameId, Vec<Ir>, Span),
    Heap(Ir),
}

#[derive(Clone, Debug)]
pub struct FnIr {
    pub name: Rc<str>,
    pub arity: usize,
    pub slots: usize,
    pub body: Ir,
    pub def: Rc<FnDef>,
}

/// A top-level statement ready to run.
#[derive(Clone, Debug)]
pub enum StmtIr {
    Let {
        pattern: PatIr,
        value: Ir,
        slots: usize,
    },
    Expect {
        cond: Ir,
        slots: usize,
    },
    Print {
        expr: Ir,
        slots: usize,
    },
}
