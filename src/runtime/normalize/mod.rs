//! Phase 3b: a game's lowered rules normalised once, before they are
//! compiled, so that how a rule is spelled does not decide how fast it
//! runs. Three rewrites, each exact:
//!
//! - **Constants folded:** a `let` holding an integer is read as that
//!   integer (`1 <= x <= N` becomes a linear condition), and operations on
//!   constant integers are done (`-2`, `2 * 3`).
//! - **Functions inlined:** a call of a function that does not reach
//!   itself, whose body is one expression over its parameters, becomes its
//!   body with the arguments in place of the parameters. Only arguments
//!   that cannot fail and cost nothing to repeat are put in place (locals,
//!   constants, and sums and constant multiples of them), so a parameter
//!   used twice, or not at all, changes nothing.
//! - **Local `let`s put in place:** `let m = VALUE in BODY` whose value
//!   is as cheap and safe to repeat as an inlined argument becomes its
//!   body with the value in place of `m`; a function whose body's `let`s
//!   all go this way is inlined like any other.
//! - **Tuple binders unrolled:** `(dx, dy) in [(-2, 1), (1, -2)]` over
//!   constant items becomes one move per item, with the items' numbers in
//!   place of `dx` and `dy`.
//! - **A range binder the guard first restricts to constants**
//!   (`member.rs`): `k in 1..=n if k in {1, 3, 4}` runs over the three
//!   constants, `1 <= k and k <= n` its condition.
//! - **Tuple binders over comprehensions lifted** (`lift.rs`):
//!   `(p, q) in [(a, n / a) for a in 1..=n if n % a == 0]` becomes the
//!   binder `a in 1..=n`, the condition in the guard, and `a` and `n / a`
//!   in place of `p` and `q`.
//!
//! The rules normalised here are those the compiled rules run; the
//! interpreter, which reports errors, runs the rules as written. A
//! normalised game depends on the functions and constants it inlined, so
//! the session compiles its games again after any redefinition.

use crate::defs::{Defs, Global};
use crate::ir::{FnId, GameIr, Ir, IrKind, MoveIr, PatIr, Slot, TargetIr, TermIr};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;
use rustc_hash::FxHashSet;

mod lift;
mod member;

/// The most items a tuple binder is unrolled over, and the most moves a
/// game's rules may grow to by unrolling.
const UNROLL_ITEMS: usize = 64;
const UNROLL_MOVES: usize = 256;
/// How deep calls are inlined into calls.
const INLINE_DEPTH: usize = 8;

/// `game`'s rules, normalised (see the module's doc).
pub fn rules(game: &GameIr, defs: &Defs) -> GameIr {
    let n = Normalizer { defs };
    let mut moves = Vec::new();
    let mut slots = game.slots;
    for rule in &game.moves {
        let rule = n.move_rule(rule);
        let rule = match lift::comprehensions(&rule, &mut slots) {
            Some(lifted) => n.move_rule(&lifted),
            None => rule,
        };
        let rule = member::constants(&rule).unwrap_or(rule);
        if moves.len() < UNROLL_MOVES {
            n.unroll(rule, 0, &mut moves);
        } else {
            moves.push(rule);
        }
    }
    GameIr {
        name: game.name.clone(),
        arity: game.arity,
        slots,
        moves,
        def: game.def.clone(),
    }
}

/// A top-level expression normalised as rules are (constants folded,
/// calls inlined): for a compiled query ([`crate::runtime::kernel::query`]).
pub fn expr(ir: &Ir, defs: &Defs) -> Ir {
    Normalizer { defs }.expr(ir, 0)
}

struct Normalizer<'a> {
    defs: &'a Defs,
}

impl Normalizer<'_> {
    /// The move with its expressions normalised.
    fn move_rule(&self, rule: &MoveIr) -> MoveIr {
        map_move(rule, 0, &mut |e| self.expr(e, 0))
    }

    /// Unrolls the tuple binders of `rule` from binder `from` on, pushing
    /// the moves it becomes on `out`.
    fn unroll(&self, rule: MoveIr, from: usize, out: &mut Vec<MoveIr>) {
        let found = rule
            .binders
            .iter()
            .enumerate()
            .skip(from)
            .find_map(|(i, (p, d))| {
                let PatIr::Tuple(parts, _) = p else {
                    return None;
                };
                let slots: Option<Vec<Slot>> = parts
                    .iter()
                    .map(|q| match q {
                        PatIr::Slot(s) => Some(*s),
                        _ => None,
                    })
                    .collect();
                Some((i, slots?, constant_items(d, self.defs, parts.len())?))
            });
        let Some((i, slots, items)) = found else {
            out.push(rule);
            return;
        };
        if items.len() > UNROLL_ITEMS || out.len() + items.len() > UNROLL_MOVES {
            out.push(rule);
            return;
        }
        for item in items {
            let bind = |slot: Slot| {
                let k = slots.iter().position(|s| *s == slot)?;
                Some(Ir {
                    kind: IrKind::Const(item[k].clone()),
                    span: rule.span,
                })
            };
            let mut copy = rule.clone();
            copy.binders.remove(i);
            let copy = map_move(&copy, i, &mut |e| self.expr(&put(e, &bind), 0));
            self.unroll(copy, i, out);
        }
    }

    /// An expression with constants folded and calls inlined, `depth`
    /// calls deep.
    fn expr(&self, ir: &Ir, depth: usize) -> Ir {
        let kind = match &ir.kind {
            // A global's value is fixed until it is redefined, and then
            // every game's rules are compiled again; a collection is
            // shared, not copied.
            IrKind::Global(id) => match &self.defs.lets[*id as usize].value {
                Some(
                    v @ (Value::Int(_)
                    | Value::Bool(_)
                    | Value::List(_)
                    | Value::Tuple(_)
                    | Value::Set(_)
                    | Value::Range(..)),
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
                match put_let(pattern, &value, body) {
                    Some(body) => return self.expr(&body, depth),
                    None => IrKind::Let(
                        pattern.clone(),
                        Box::new(value),
                        Box::new(self.expr(body, depth)),
                    ),
                }
            }
            _ => return fold(map_children(ir, &mut |e| self.expr(e, depth))),
        };
        Ir {
            kind,
            span: ir.span,
        }
    }

    /// The body of function `f` with `args` in place of its parameters,
    /// if it may be inlined.
    fn inline(&self, f: FnId, args: &[Ir], depth: usize) -> Option<Ir> {
        let func = self.defs.fns.get(f as usize)?.as_ref()?;
        let inlinable = depth < INLINE_DEPTH
            && func.arity == args.len()
            && args.iter().all(repeatable)
            && !reaches_itself(self.defs, f);
        if !inlinable {
            return None;
        }
        // Slots past the parameters belong to the function's own frame:
        // inlined, they would clash with the caller's, so every `let` must
        // be put in place first, and no comprehension may remain.
        let body = if func.slots == func.arity {
            func.body.clone()
        } else {
            let flat = put_lets(&func.body);
            if binds_locals(&flat) {
                return None;
            }
            flat
        };
        let body = put(&body, &|slot: Slot| args.get(slot as usize).cloned());
        Some(self.expr(&body, depth + 1))
    }
}

/// `ir` with an operation on constant integers replaced by its result,
/// where it has one (an overflow or a division by zero is left for the
/// interpreter to report), and a tuple of constants made one constant.
fn fold(ir: Ir) -> Ir {
    let int = |e: &Ir| match e.kind {
        IrKind::Const(Value::Int(n)) => Some(n),
        _ => None,
    };
    let value = match &ir.kind {
        IrKind::Unary(UnOp::Neg, a) => int(a).and_then(i64::checked_neg).map(Value::Int),
        IrKind::Unary(UnOp::BitNot, a) => int(a).map(|n| Value::Int(!n)),
        IrKind::Binary(op, a, b) if op.is_arithmetic() => match (int(a), int(b)) {
            (Some(x), Some(y)) => crate::runtime::ops::arith(*op, x, y, ir.span)
                .ok()
                .map(Value::Int),
            _ => None,
        },
        IrKind::Tuple(items) => items
            .iter()
            .map(|e| match &e.kind {
                IrKind::Const(v) => Some(v.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(|items| Value::Tuple(items.into())),
        _ => None,
    };
    match value {
        Some(v) => Ir {
            kind: IrKind::Const(v),
            span: ir.span,
        },
        None => ir,
    }
}

/// A copy of `rule` with `f` applied to the domains of its binders from
/// binder `from` on, to its guard and to every expression of its target.
fn map_move(rule: &MoveIr, from: usize, f: &mut dyn FnMut(&Ir) -> Ir) -> MoveIr {
    let binders = rule.binders.iter().enumerate();
    MoveIr {
        name: rule.name.clone(),
        binders: binders
            .map(|(i, (p, d))| (p.clone(), if i < from { d.clone() } else { f(d) }))
            .collect(),
        shown: rule.shown.clone(),
        guard: rule.guard.as_ref().map(&mut *f),
        target: match &rule.target {
            TargetIr::Terms(terms) => TargetIr::Terms(
                terms
                    .iter()
                    .map(|t| match t {
                        TermIr::Node(g, args, span) => {
                            TermIr::Node(*g, args.iter().map(&mut *f).collect(), *span)
                        }
                        TermIr::Heap(k) => TermIr::Heap(f(k)),
                    })
                    .collect(),
            ),
            TargetIr::Dynamic(e) => TargetIr::Dynamic(f(e)),
        },
        span: rule.span,
    }
}

/// A copy of `ir` with `bind(slot)`, where it says something, in place of
/// each local.
fn put(ir: &Ir, bind: &dyn Fn(Slot) -> Option<Ir>) -> Ir {
    if let IrKind::Local(slot) = ir.kind
        && let Some(e) = bind(slot)
    {
        return e;
    }
    map_children(ir, &mut |e| put(e, bind))
}

/// The body of `let PATTERN = value in body` with the value in place of
/// the name, when the pattern is one name and the value is
/// [`repeatable`].
fn put_let(pattern: &PatIr, value: &Ir, body: &Ir) -> Option<Ir> {
    let PatIr::Slot(slot) = *pattern else {
        return None;
    };
    repeatable(value).then(|| put(body, &|s| (s == slot).then(|| value.clone())))
}

/// `ir` with every local `let` that [`put_let`] can remove removed.
fn put_lets(ir: &Ir) -> Ir {
    if let IrKind::Let(pattern, value, body) = &ir.kind {
        let value = put_lets(value);
        if let Some(body) = put_let(pattern, &value, body) {
            return put_lets(&body);
        }
    }
    map_children(ir, &mut put_lets)
}

/// Whether `ir` binds a local anywhere: a `let` or a comprehension.
fn binds_locals(ir: &Ir) -> bool {
    let mut found = matches!(ir.kind, IrKind::Let(..) | IrKind::Comprehension { .. });
    if !found {
        map_children(ir, &mut |e| {
            found = found || binds_locals(e);
            e.clone()
        });
    }
    found
}

/// An argument that can neither fail nor cost anything to evaluate twice:
/// a local, a constant, or sums, differences, negations and constant
/// multiples of small such terms (which cannot overflow).
fn repeatable(ir: &Ir) -> bool {
    fn small(ir: &Ir, budget: &mut u32) -> bool {
        *budget = budget.saturating_sub(1);
        if *budget == 0 {
            return false;
        }
        match &ir.kind {
            IrKind::Local(_) => true,
            IrKind::Const(Value::Int(n)) => n.unsigned_abs() < 1 << 20,
            IrKind::Unary(UnOp::Neg, a) => small(a, budget),
            IrKind::Binary(BinOp::Add | BinOp::Sub, a, b) => small(a, budget) && small(b, budget),
            IrKind::Binary(BinOp::Mul, a, b) => {
                let konst = |e: &Ir| matches!(e.kind, IrKind::Const(Value::Int(n)) if n.unsigned_abs() < 1 << 10);
                (konst(a) || konst(b)) && small(a, budget) && small(b, budget)
            }
            _ => false,
        }
    }
    match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) => true,
        _ => small(ir, &mut 12),
    }
}

/// Whether function `f` calls itself, directly or through others.
pub(crate) fn reaches_itself(defs: &Defs, f: FnId) -> bool {
    let mut seen = FxHashSet::default();
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        let Some(Some(func)) = defs.fns.get(g as usize) else {
            continue;
        };
        for r in crate::deps::fn_refs(func) {
            if let Global::Fn(h) = r {
                if h == f {
                    return true;
                }
                if seen.insert(h) {
                    todo.push(h);
                }
            }
        }
    }
    false
}

/// The items of a constant domain whose items are all tuples or lists of
/// `width` values.
fn constant_items(domain: &Ir, defs: &Defs, width: usize) -> Option<Vec<Vec<Value>>> {
    let value = match &domain.kind {
        IrKind::Const(v) => v.clone(),
        IrKind::Global(id) => defs.lets[*id as usize].value.clone()?,
        IrKind::List(items) | IrKind::Tuple(items) => {
            let rows = items.iter().map(|item| match &item.kind {
                IrKind::Const(v) => Some(v.clone()),
                IrKind::Tuple(parts) | IrKind::List(parts) => {
                    let parts = parts.iter().map(|p| match &p.kind {
                        IrKind::Const(v) => Some(v.clone()),
                        _ => None,
                    });
                    Some(Value::Tuple(parts.collect::<Option<Vec<_>>>()?.into()))
                }
                _ => None,
            });
            Value::list(rows.collect::<Option<_>>()?)
        }
        _ => return None,
    };
    let items: Vec<Value> = match &value {
        Value::Set(s) => s.iter().cloned().collect(),
        v => v.as_slice()?.to_vec(),
    };
    items
        .iter()
        .map(|item| match item.as_slice() {
            Some(parts) if parts.len() == width && !matches!(item, Value::Report(_)) => {
                Some(parts.to_vec())
            }
            _ => None,
        })
        .collect()
}

/// A copy of `ir` with `f` applied to each of its direct children.
fn map_children(ir: &Ir, f: &mut dyn FnMut(&Ir) -> Ir) -> Ir {
    let all = |items: &[Ir], f: &mut dyn FnMut(&Ir) -> Ir| items.iter().map(f).collect::<Vec<_>>();
    let kind = match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) | IrKind::Global(_) => ir.kind.clone(),
        IrKind::Tuple(items) => IrKind::Tuple(all(items, f)),
        IrKind::List(items) => IrKind::List(all(items, f)),
        IrKind::Set(items) => IrKind::Set(all(items, f)),
        IrKind::Comprehension { set, elem, clauses } => IrKind::Comprehension {
            set: *set,
            elem: Box::new(f(elem)),
            clauses: clauses
                .iter()
                .map(|c| match c {
                    crate::ir::ClauseIr::For(p, d) => crate::ir::ClauseIr::For(p.clone(), f(d)),
                    crate::ir::ClauseIr::If(c) => crate::ir::ClauseIr::If(f(c)),
                })
                .collect(),
        },
        IrKind::Unary(op, a) => IrKind::Unary(*op, Box::new(f(a))),
        IrKind::Binary(op, a, b) => IrKind::Binary(*op, Box::new(f(a)), Box::new(f(b))),
        IrKind::If(c, a, b) => IrKind::If(Box::new(f(c)), Box::new(f(a)), Box::new(f(b))),
        IrKind::Let(p, value, body) => {
            IrKind::Let(p.clone(), Box::new(f(value)), Box::new(f(body)))
        }
        IrKind::Chain(items, ops) => IrKind::Chain(all(items, f), ops.clone()),
        IrKind::CallFn(id, args) => IrKind::CallFn(*id, all(args, f)),
        IrKind::CallBuiltin(b, args) => IrKind::CallBuiltin(*b, all(args, f)),
        IrKind::Apply(g, args) => IrKind::Apply(*g, all(args, f)),
        IrKind::CallValue(c, args, hides) => {
            IrKind::CallValue(Box::new(f(c)), all(args, f), hides.clone())
        }
        IrKind::TableOf(g, args, axes) => IrKind::TableOf(
            *g,
            args.iter().map(|a| a.as_ref().map(&mut *f)).collect(),
            all(axes, f),
        ),
        IrKind::Index(x, i) => IrKind::Index(Box::new(f(x)), Box::new(f(i))),
        IrKind::Slice(x, lo, hi) => IrKind::Slice(
            Box::new(f(x)),
            lo.as_ref().map(|e| Box::new(f(e))),
            hi.as_ref().map(|e| Box::new(f(e))),
        ),
    };
    Ir {
        kind,
        span: ir.span,
    }
}

#[cfg(test)]
mod tests;
