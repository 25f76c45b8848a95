//! Phase 3b: a game's lowered rules normalised once, before they are
//! compiled, so that how a rule is spelled does not decide how fast it
//! runs. These rewrites, each exact:
//!
//! - **Constants folded:** a `let` holding an integer is read as that
//!   integer (`1 <= x <= N` becomes a linear condition), and operations on
//!   constant integers are done (`-2`, `2 * 3`).
//! - **Functions inlined:** a call of a function that does not reach
//!   itself becomes its body, whose own names (`let`s, comprehensions)
//!   get new slots in the caller's frame. An argument that cannot fail
//!   and costs nothing to repeat (locals, constants, and sums and
//!   constant multiples of them), or whose parameter is read once and
//!   for certain (`uses.rs`), is put in place of the parameter; any other
//!   is bound by a `let` around the body, which the compiled rules
//!   evaluate once, so a parameter used twice, or not at all, changes
//!   nothing.
//! - **A call both branches of an `if` make hoisted** (`hoist.rs`): in a
//!   function's body, `if c then 1 + f(x) else f(x)` becomes `let t =
//!   f(x) in if c then 1 + t else t` where `c` cannot fail, so that a
//!   function calling itself in both branches unrolls one call a level.
//! - **Local `let`s put in place:** `let m = VALUE in BODY` whose value
//!   is as cheap and safe to repeat as such an argument, or whose name is
//!   read once and for certain, becomes its body with the value in place
//!   of `m`. Any other `let` of one name stays, for the compiled rules
//!   hold it in a slot.
//! - **Computed targets made terms** (`targets.rs`): a target that, once
//!   calls are inlined, is a sum of games applied to arguments, or an
//!   `if` between such sums, becomes terms, one move per branch.
//! - **Binders over `list(...)`** run over the collection itself, and
//!   one over `reversed(lo..hi)` over a comprehension of the range, which
//!   the compiled rules make as a list.
//! - **Binders unrolled** (`unroll.rs`): `(dx, dy) in [(-2, 1), (1,
//!   -2)]` over constant items becomes one move per item, with the
//!   items' numbers in place of `dx` and `dy`; so does `d in {2, 3, 6}`
//!   over a few constants when `d` divides (`n / d`, `n % d`), for a
//!   division by a constant is a multiply, and a binder over a few
//!   constants that a condition on constants reads, or over strings;
//!   conditions on constants fold (`logic.rs`).
//! - **A range binder the guard first restricts to constants**
//!   (`member.rs`): `k in 1..=n if k in {1, 3, 4}` runs over the three
//!   constants, `1 <= k and k <= n` its condition; `k in 1..=min(n, 7)`
//!   runs over `1..=7`, `k <= n` its first condition.
//! - **A binder an equation fixes** (`solved.rs`): `b in 1..n if a + b
//!   == n` is the value `n - a`, its range a condition.
//! - **`zip` read by index** (`zip.rs`): `(a, b) in zip(hs, hs[1:])`, as
//!   a binder or a comprehension's `for`, becomes `i in 0..min(len(hs),
//!   len(hs[1:]))` with `hs[i]` and `hs[1:][i]` in place of `a` and `b`.
//! - **Tuple binders over comprehensions lifted** (`lift.rs`):
//!   `(p, q) in [(a, n / a) for a in 1..=n if n % a == 0]` becomes the
//!   binder `a in 1..=n`, the condition in the guard, and `a` and `n / a`
//!   in place of `p` and `q`.
//!
//! Each move keeps, through every rewrite, how to name its options as
//! `moves(P)` names them (`MoveIr::named`: each name the move shows as an
//! expression, which the rewrites carry along: a constant once its binder
//! is unrolled, `n - a` once an equation fixes it), unless the rewrites
//! put its options in another order than written; [`listing_rules`] keeps
//! that order wherever the compiled rules can.
//!
//! The rules normalised here are those the compiled rules run; the
//! interpreter, which reports errors, runs the rules as written, reading
//! of the normalised ones only which binders they unroll (`shares.rs`). A
//! normalised game depends on the functions and constants it inlined, so
//! the session compiles its games again after any redefinition.

use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::ir::{ClauseIr, FnId, GameIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};

pub mod callees;
mod choices;
mod digits;
mod displays;
mod divides;
mod downward;
mod either;
mod few;
mod fold;
use fold::fold;
mod hoist;
mod implied;
mod indexed;
mod inline;
pub mod instance;
mod joined;

pub(crate) use inline::reaches_itself;
use inline::{put_let, split_let};
pub mod lengths;
mod lift;
mod logic;
mod member;
mod names;
mod nested;
mod ordered;
mod quotient;
pub mod shares;
mod sifted;
mod solved;
pub mod split;
mod targets;
mod truths;
mod unroll;
mod uses;
mod walk;
pub use walk::and_parts;
use walk::binds_locals;
pub(crate) use walk::{
    Rewrite, any_node, each_child, map_children, map_move, put, rewrite_move, size,
};
mod zip;

/// How deep calls are inlined into calls: a function that calls itself
/// is unrolled this many levels (`fn digit_sum(n) = ... digit_sum(n /
/// 10)`), and a call left past them leaves the position it is reached
/// in to the interpreter.
pub(crate) const INLINE_DEPTH: usize = 20;
/// The most IR nodes of function bodies inlined into one game's rules,
/// or one top-level expression: a function that calls itself twice
/// (`fib(n - 1) + fib(n - 2)`) is unrolled as far as this allows.
const INLINE_BUDGET: usize = 20_000;
/// The most IR nodes of the body of a function that calls itself
/// unrolled for each call written in a game's rules, a top-level
/// expression or a function's own body, for each such function (the
/// whole game shares [`INLINE_BUDGET`]): a recursion that calls itself in both branches
/// of an `if` doubles at each level, and past these its calls stay calls
/// ([`callees`]), which the compiled rules make.
const RECURSION_BUDGET: usize = 200;

/// `game`'s rules, normalised (see the module's doc).
pub fn rules(game: &GameIr, defs: &Defs) -> GameIr {
    rules_as(game, defs, (false, false))
}

/// [`rules`] that make their options in the written order wherever the
/// compiled rules can (see [`MoveIr::named`]): a binder inside another's
/// loop is not unrolled. For listing a position's moves, where [`rules`]
/// would not.
pub fn listing_rules(game: &GameIr, defs: &Defs) -> GameIr {
    rules_as(game, defs, (true, false))
}

/// [`rules`] with `(i, x) in enumerate(xs)` read by index as well, `i in
/// 0..len(xs)` with `xs[i]` for `x` (see `zip.rs`), for the rules that do
/// not compile otherwise: a string's characters (`(i, c) in
/// enumerate(s)`), which the compiled rules read by index but do not
/// enumerate. Not for all rules: a list of integers enumerated is read
/// item by item, faster than by index.
pub fn indexed_rules(game: &GameIr, defs: &Defs) -> GameIr {
    rules_as(game, defs, (false, true))
}

/// `f`'s result, with every normalisation it makes (the rules, and the
/// bodies of the functions they call) for parameters of any size, the
/// twin kernels' (see `kernel::compile_wide`): a value is put in place
/// of its name, or a condition chained with `and`, only where it cannot
/// fail for any slots, where [`rules`] also put sums of names and small
/// constants, which cannot fail while slots are small.
pub fn wide<T>(f: impl FnOnce() -> T) -> T {
    let _wide = inline::Wide::enter();
    f()
}

fn rules_as(game: &GameIr, defs: &Defs, (in_order, by_index): (bool, bool)) -> GameIr {
    let n = Normalizer {
        slots: Cell::new(game.slots.max(game.arity)),
        remember: Some(game.arity),
        in_order,
        by_index,
        ..Normalizer::new(defs)
    };
    let mut moves = Vec::new();
    let rules: Vec<MoveIr> = game
        .moves
        .iter()
        .flat_map(|rule| {
            let mut rule = n.move_rule(&named(rule));
            for (_, domain) in &mut rule.binders {
                *domain = unordered(domain);
                *domain = n.range_listed(domain);
            }
            let rule = zip::binders(&rule, &n.slots, n.by_index).unwrap_or(rule);
            // `(r, (w, b)) in enumerate(rows)` as `(r, t) in
            // enumerate(rows), (w, b) in [t]`, whose first binder `zip`
            // may read by index then.
            let rule = match nested::binders(&rule, &n.slots) {
                Some(apart) => zip::binders(&apart, &n.slots, n.by_index).unwrap_or(apart),
                None => rule,
            };
            let rule = targets::let_bound(&rule).unwrap_or(rule);
            let rules = targets::split(&rule).unwrap_or_else(|| vec![rule]);
            rules
                .into_iter()
                .flat_map(|rule| joined::split(&rule, n.in_order).unwrap_or_else(|| vec![rule]))
                .map(|rule| match n.in_order {
                    true => rule,
                    false => few::pair(&rule).unwrap_or(rule),
                })
                .flat_map(|rule| match either::split(&rule) {
                    Some(two) => two.to_vec(),
                    None => vec![rule],
                })
                .flat_map(|rule| match n.in_order {
                    true => vec![rule],
                    false => choices::split(&rule).unwrap_or_else(|| vec![rule]),
                })
        })
        .collect();
    for rule in rules {
        let mut slots = n.slots.get();
        let lifted = lift::comprehensions(&rule, &mut slots, n.in_order);
        n.slots.set(slots);
        let rule = match lifted {
            // A position lifted into the target made terms.
            Some(lifted) => targets::made_terms(n.move_rule(&lifted)),
            None => rule,
        };
        let rule = member::less_items(&rule).unwrap_or(rule);
        let rule = member::capped(&rule).unwrap_or(rule);
        let rule = member::constants(&rule).unwrap_or(rule);
        let rule = sifted::binder(&rule).unwrap_or(rule);
        let rule = divides::spelled(&rule).unwrap_or(rule);
        let rule = digits::spelled(&rule).unwrap_or(rule);
        let rule = match n.in_order {
            true => rule,
            false => indexed::items(&rule, &n.slots).unwrap_or(rule),
        };
        let rule = implied::tests(&rule).map_or(rule, |shorter| n.move_rule(&shorter));
        let rule = solved::binder(&rule).unwrap_or(rule);
        let rule = quotient::binder(&rule).unwrap_or(rule);
        let mut rule = rule;
        // A tuple put in place is read by its items once folded; then
        // the binder before may be one of one value too (`nx in [x +
        // dx], ny in [y + dy]`).
        while let Some(single) = solved::single(&rule) {
            rule = n.move_rule(&single);
        }
        if moves.len() < unroll::UNROLL_MOVES {
            n.unroll(rule, 0, &mut moves);
        } else {
            moves.push(rule);
        }
    }
    for rule in &mut moves {
        if let Some(chained) = truths::chained_truths(rule, game.arity, defs) {
            *rule = chained;
        }
    }
    shares::leading(game, &mut moves);
    let moves = (moves.iter()).map(|m| names::fresh(m, &n.slots)).collect();
    GameIr {
        name: game.name.clone(),
        arity: game.arity,
        slots: n.slots.get(),
        moves,
        def: game.def.clone(),
    }
}

/// `rule` with each name it shows read from its slot (see
/// [`MoveIr::named`]), for the rewrites to carry along.
fn named(rule: &MoveIr) -> MoveIr {
    let read = |(name, slot): &(std::rc::Rc<str>, Slot)| {
        let span = rule.span;
        (
            name.clone(),
            Ir {
                kind: IrKind::Local(*slot),
                span,
            },
        )
    };
    MoveIr {
        named: Some(rule.shown.iter().map(read).collect()),
        ..rule.clone()
    }
}

/// A top-level expression whose frame has `slots` slots, normalised as
/// rules are (constants folded, calls inlined), with the slots its frame
/// has then: for a compiled query ([`crate::runtime::kernel::query`]).
pub fn expr(ir: &Ir, slots: usize, defs: &Defs) -> (Ir, usize) {
    let n = Normalizer {
        slots: Cell::new(slots),
        remember: Some(0),
        ..Normalizer::new(defs)
    };
    let ir = n.expr(ir, 0);
    (downward::ranges(&ir), n.slots.get())
}

struct Normalizer<'a> {
    defs: &'a Defs,
    /// The slots of the frame so far: an inlined function's own names
    /// and the arguments bound by `let` get new ones past them.
    slots: Cell<usize>,
    /// The IR nodes still to be inlined (see [`INLINE_BUDGET`]).
    budget: Cell<usize>,
    /// Those of each function that calls itself (see [`RECURSION_BUDGET`]):
    /// each its own, so that one recursion unrolled as far as it may be
    /// leaves the same room to another, which may need it to compile (a
    /// function of lists is not called but unrolled).
    recursion: RefCell<FxHashMap<FnId, usize>>,
    /// Whether each function met calls itself.
    recursive: RefCell<FxHashMap<FnId, bool>>,
    /// Each function's body with common calls hoisted (see `hoist.rs`).
    hoisted: RefCell<FxHashMap<FnId, std::rc::Rc<(Ir, usize)>>>,
    /// The most calls inlined one inside another: frames the
    /// interpreter would count towards `--max-depth`.
    deepest: Cell<usize>,
    /// Whether calls of a function of one or two integers that calls
    /// itself stay calls, which the machine code remembers (see
    /// `inline.rs`): in rules and queries, which call it again and
    /// again, but not in a function's own body. `Some` holds the number
    /// of the position's parameters (the frame's first slots): a call
    /// whose arguments read none of them is made again at every
    /// position with the same arguments, and is left a call.
    remember: Option<usize>,
    /// Whether to keep the options in the written order (see
    /// [`listing_rules`]).
    in_order: bool,
    /// Whether `enumerate(xs)` is read by index too (see
    /// [`indexed_rules`]).
    by_index: bool,
}

impl<'a> Normalizer<'a> {
    fn new(defs: &'a Defs) -> Normalizer<'a> {
        Normalizer {
            defs,
            slots: Cell::new(0),
            budget: Cell::new(INLINE_BUDGET),
            recursion: RefCell::default(),
            recursive: RefCell::default(),
            hoisted: RefCell::default(),
            deepest: Cell::new(0),
            remember: None,
            in_order: false,
            by_index: false,
        }
    }
}

impl Normalizer<'_> {
    /// The move with its expressions normalised.
    fn move_rule(&self, rule: &MoveIr) -> MoveIr {
        map_move(rule, 0, &mut |e| self.expr(e, 0))
    }

    /// An expression with constants folded and calls inlined, `depth`
    /// calls deep.
    fn expr(&self, ir: &Ir, depth: usize) -> Ir {
        // Bound here, not by a `let` normalised, which would put a value
        // read once back in place.
        if let Some((lets, body)) = zip::named(ir, &self.slots) {
            let body = self.expr(&body, depth);
            let bound = |body, (z, x): (Slot, Ir)| Ir {
                kind: IrKind::Let(
                    PatIr::Slot(z),
                    Box::new(self.expr(&x, depth)),
                    Box::new(body),
                ),
                span: ir.span,
            };
            return lets.into_iter().rev().fold(body, bound);
        }
        if let IrKind::Comprehension { set, elem, clauses } = &ir.kind
            && let Some((clauses, elem)) = zip::clauses(clauses, elem, (&self.slots, self.by_index))
        {
            let kind = IrKind::Comprehension {
                set: *set,
                elem: Box::new(elem),
                clauses,
            };
            return self.expr(
                &Ir {
                    kind,
                    span: ir.span,
                },
                depth,
            );
        }
        if let Some(list) = few::comprehension(ir) {
            return self.expr(&list, depth);
        }
        let kind = match &ir.kind {
            // A global's value is fixed until it is redefined, and then
            // every game's rules are compiled again; a collection is
            // shared, not copied.
            IrKind::Global(id) => match &self.defs.lets[*id as usize].value {
                Some(
                    v @ (Value::Int(_)
                    | Value::Bool(_)
                    | Value::Str(_)
                    | Value::List(_)
                    | Value::Tuple(_)
                    | Value::Set(_)
                    | Value::Range(..)
                    // A table: a list to the rules, text when printed.
                    | Value::Report(_)),
                ) => IrKind::Const(v.clone()),
                _ => IrKind::Global(*id),
            },
            IrKind::CallFn(f, args) => {
                let args: Vec<Ir> = args.iter().map(|a| self.expr(a, depth)).collect();
                match self.inline(*f, &args, depth) {
                    Some(body) => return body,
                    None => IrKind::CallFn(*f, args),
                }
            }
            IrKind::Let(pattern, value, body) => {
                let value = self.expr(value, depth);
                if let Some(lets) = split_let(pattern, &value, body) {
                    return self.expr(&lets, depth);
                }
                match put_let(pattern, &value, body) {
                    Some(body) => return self.expr(&body, depth),
                    None => IrKind::Let(
                        pattern.clone(),
                        Box::new(value),
                        Box::new(self.expr(body, depth)),
                    ),
                }
            }
            _ => {
                let ir = map_children(ir, &mut |e| self.expr(e, depth));
                if let Some(chain) = truths::any_all(&ir, self.defs) {
                    return self.expr(&chain, depth);
                }
                if let Some(choice) = ordered::extremum(&ir, &self.slots) {
                    return choice;
                }
                return fold(ir);
            }
        };
        Ir {
            kind,
            span: ir.span,
        }
    }
}

/// A binder's domain without `list(...)` around it, which keeps the
/// items and their order. (`reversed`, `sorted` and `set` would give the
/// same options in another order, but the order decides which failing
/// option an error names first, so they stay.)
fn unordered(domain: &Ir) -> Ir {
    match &domain.kind {
        IrKind::CallBuiltin(Builtin::List, args) if args.len() == 1 => unordered(&args[0]),
        _ => domain.clone(),
    }
}

impl Normalizer<'_> {
    /// A binder's domain `reversed(lo..hi)` as `reversed([x for x in
    /// lo..hi])`, with `x` a new slot: the same items in the same order,
    /// a list the compiled rules make (a range is not one of their lists).
    fn range_listed(&self, domain: &Ir) -> Ir {
        let IrKind::CallBuiltin(Builtin::Reversed, args) = &domain.kind else {
            return domain.clone();
        };
        let [range] = args.as_slice() else {
            return domain.clone();
        };
        if !matches!(
            range.kind,
            IrKind::Binary(BinOp::Range | BinOp::RangeIncl, ..)
        ) {
            return domain.clone();
        }
        let x = self.slots.get();
        self.slots.set(x + 1);
        let at = |kind| Ir {
            kind,
            span: range.span,
        };
        let listed = at(IrKind::Comprehension {
            set: false,
            elem: Box::new(at(IrKind::Local(x as Slot))),
            clauses: vec![ClauseIr::For(PatIr::Slot(x as Slot), range.clone())],
        });
        Ir {
            kind: IrKind::CallBuiltin(Builtin::Reversed, vec![listed]),
            span: domain.span,
        }
    }
}

#[cfg(test)]
mod tests;
