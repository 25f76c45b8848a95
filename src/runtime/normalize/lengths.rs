//! A list or tuple state of the length the positions met give it. Nim
//! written with its heaps as a list, `nim(hs)` with `i in 0..len(hs)`
//! and `nim(hs[:i] + [hs[i] - k] + hs[i + 1:])`, makes only positions
//! as long as the one it is given: for positions of one length, its
//! rules are those of as many integers. Given that length, the rules
//! here say so in words `normalize/split.rs` splits:
//!
//! - `len(hs)` is the length;
//! - a binder over a range of constants that indexes or slices the state
//!   (`i in 0..len(hs)`), the first of its move's binders, is one move per
//!   value, the value in place of its name;
//! - a slice of the state with constant ends is its items (`hs[1:]` is
//!   `[hs[1], hs[2]]`), as slicing takes the ends (from the end where
//!   negative, cut to the length); lists or tuples written out and added
//!   are one, and `min`, `max` and `sum` of the state are of its items;
//! - a list comprehension of one `for` over a few constants or over the
//!   state, with no `if` (`[if j == i then hs[j] - k else hs[j] for j in
//!   0..len(hs)]`), is its elements written out, and `sorted` of a few
//!   items written out is those items in order, by `min` and `max`.
//!
//! The rules are exact for positions of that length and shape only:
//! [`fixed`] says which, and the compiled rules load no other (see
//! `kernel/frame.rs`).

use super::walk::{map_children, map_move, put};
use crate::builtins::Builtin;
use crate::graph::Shape;
use crate::ir::{ClauseIr, GameIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;

/// The most values a binder is unrolled over.
const VALUES_MAX: i64 = 8;
/// The most moves the binders unrolled make of a game's rules.
const MOVES_MAX: usize = 64;

/// `game`'s rules (normalised) for positions whose parameter `p` is a
/// collection of shape and length `lengths[p]` where it says one (a list
/// or a tuple): see the module.
pub fn fixed(game: &GameIr, lengths: &[Option<(Shape, usize)>]) -> GameIr {
    let fixed = Fixed {
        lengths,
        slots: std::cell::Cell::new(game.slots.max(game.arity)),
    };
    let mut moves = Vec::new();
    for rule in &game.moves {
        fixed.unroll(map_move(rule, 0, &mut |e| fixed.expr(e)), &mut moves);
    }
    GameIr {
        moves,
        slots: fixed.slots.get(),
        ..game.clone()
    }
}

struct Fixed<'a> {
    lengths: &'a [Option<(Shape, usize)>],
    /// The frame's size: the next slot a name of its own takes.
    slots: std::cell::Cell<usize>,
}

impl Fixed<'_> {
    /// A new slot of the frame.
    fn fresh(&self) -> Slot {
        let s = self.slots.get();
        self.slots.set(s + 1);
        s as Slot
    }

    /// `sorted([a, b, ...])` of a few items written out, as the items in
    /// increasing order written out: each item bound to a name in turn,
    /// then a network of `min` and `max` of pairs (odd-even
    /// transposition, as many rounds as items) in `let`s.
    fn sorted(&self, items: &[Ir], span: crate::span::Span) -> Ir {
        let at = |kind| Ir { kind, span };
        let local = |s: Slot| at(IrKind::Local(s));
        let mut names: Vec<Slot> = Vec::new();
        let mut lets: Vec<(Slot, Ir)> = Vec::new();
        for item in items {
            let name = self.fresh();
            names.push(name);
            lets.push((name, item.clone()));
        }
        let n = names.len();
        for round in 0..n {
            for a in (round % 2..n - 1).step_by(2) {
                let pair = vec![local(names[a]), local(names[a + 1])];
                let (lo, hi) = (self.fresh(), self.fresh());
                lets.push((lo, at(IrKind::CallBuiltin(Builtin::Min, pair.clone()))));
                lets.push((hi, at(IrKind::CallBuiltin(Builtin::Max, pair))));
                (names[a], names[a + 1]) = (lo, hi);
            }
        }
        let body = at(IrKind::List(names.into_iter().map(local).collect()));
        (lets.into_iter().rev()).fold(body, |body, (s, value)| {
            at(IrKind::Let(PatIr::Slot(s), Box::new(value), Box::new(body)))
        })
    }

    /// The shape and length of `ir` where it is a parameter of fixed
    /// length.
    fn param(&self, ir: &Ir) -> Option<(Slot, Shape, usize)> {
        let IrKind::Local(s) = ir.kind else {
            return None;
        };
        let (shape, len) = (*self.lengths.get(s as usize)?)?;
        Some((s, shape, len))
    }

    /// Whether evaluating `ir` cannot fail: a constant, a local, or an
    /// item of a fixed parameter within its length.
    fn safe(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Const(_) | IrKind::Local(_) => true,
            IrKind::Index(x, i) => match (self.param(x), &i.kind) {
                (Some((_, _, len)), IrKind::Const(Value::Int(k))) => (0..len as i64).contains(k),
                _ => false,
            },
            _ => false,
        }
    }

    /// What a list comprehension's one `for` binds in turn, its slots
    /// with their values, where it runs over a range of a few constants
    /// (`j in 0..len(hs)`), the items of a fixed parameter (`x in hs`) or
    /// their `enumerate` (`(j, x) in enumerate(hs)`), with no `if`: the
    /// list is then its element for each, written out.
    fn each_item(&self, clauses: &[ClauseIr]) -> Option<Vec<Vec<(Slot, Ir)>>> {
        let [ClauseIr::For(pattern, domain)] = clauses else {
            return None;
        };
        let span = domain.span;
        let int = |v: i64| Ir {
            kind: IrKind::Const(Value::Int(v)),
            span,
        };
        let enumerated = match &domain.kind {
            IrKind::CallBuiltin(Builtin::Enumerate, args) => match args.as_slice() {
                [xs] => self.param(xs),
                _ => None,
            },
            _ => None,
        };
        match (pattern, self.param(domain), enumerated) {
            (PatIr::Slot(x), Some((p, _, len)), _) => {
                Some((0..len).map(|k| vec![(*x, item(p, k, span))]).collect())
            }
            (PatIr::Tuple(parts, _), None, Some((p, _, len))) => {
                let [PatIr::Slot(j), PatIr::Slot(x)] = parts.as_slice() else {
                    return None;
                };
                let each = |k: usize| vec![(*j, int(k as i64)), (*x, item(p, k, span))];
                Some((0..len).map(each).collect())
            }
            (PatIr::Slot(j), None, None) => {
                let values = range_values(domain)?;
                Some(values.into_iter().map(|v| vec![(*j, int(v))]).collect())
            }
            _ => None,
        }
    }

    /// `rule`, its first binder unrolled where it is a range of a few
    /// constants that indexes or slices a fixed parameter, onto `out`.
    fn unroll(&self, rule: MoveIr, out: &mut Vec<MoveIr>) {
        let first = rule.binders.first().and_then(|(p, d)| match p {
            PatIr::Slot(slot) if self.indexes(&rule, *slot) => Some((*slot, range_values(d)?)),
            _ => None,
        });
        let Some((slot, values)) = first.filter(|(_, v)| out.len() + v.len() <= MOVES_MAX) else {
            out.push(rule);
            return;
        };
        for v in values {
            let bind = |s: Slot| {
                (s == slot).then_some(Ir {
                    kind: IrKind::Const(Value::Int(v)),
                    span: rule.span,
                })
            };
            let mut copy = rule.clone();
            copy.binders.remove(0);
            let copy = map_move(&copy, 0, &mut |e| self.expr(&put(e, &bind)));
            self.unroll(copy, out);
        }
    }

    /// Whether `slot` is read in an index or a slice bound of a fixed
    /// parameter anywhere in `rule`.
    fn indexes(&self, rule: &MoveIr, slot: Slot) -> bool {
        let reads =
            |e: &Ir| super::any_node(e, &|x| matches!(x.kind, IrKind::Local(s) if s == slot));
        let pick = |e: &Ir| match &e.kind {
            IrKind::Index(x, i) => self.param(x).is_some() && reads(i),
            IrKind::Slice(x, lo, hi) => {
                self.param(x).is_some() && [lo, hi].iter().any(|b| b.as_deref().is_some_and(reads))
            }
            _ => false,
        };
        rule.exprs().any(|e| super::any_node(e, &pick))
    }

    /// `ir` with the rewrites of the module, bottom up.
    fn expr(&self, ir: &Ir) -> Ir {
        let ir = map_children(ir, &mut |e| self.expr(e));
        let kind = match &ir.kind {
            IrKind::CallBuiltin(Builtin::Len, args) => match args.as_slice() {
                [x] => match (self.param(x), items_of(x)) {
                    (Some((_, _, len)), _) => int(len as i64),
                    // Items that cannot fail: not evaluated, nothing lost.
                    (None, Some((_, items))) if items.iter().all(|e| self.safe(e)) => {
                        int(items.len() as i64)
                    }
                    _ => return ir,
                },
                _ => return ir,
            },
            IrKind::CallBuiltin(b @ (Builtin::Min | Builtin::Max | Builtin::Sum), args) => {
                let [x] = args.as_slice() else { return ir };
                let Some((s, _, len)) = self.param(x).filter(|p| p.2 > 0) else {
                    return ir;
                };
                let items: Vec<Ir> = (0..len).map(|k| item(s, k, ir.span)).collect();
                match b {
                    Builtin::Sum => return added(items, ir.span),
                    _ => IrKind::CallBuiltin(*b, items),
                }
            }
            // From the end where negative, as indexing takes it.
            IrKind::Index(x, i) => {
                let Some((s, _, len)) = self.param(x) else {
                    return ir;
                };
                match constant(i) {
                    Some(k) if !matches!(i.kind, IrKind::Const(_)) || k < 0 => {
                        let k = if k < 0 { k + len as i64 } else { k };
                        match usize::try_from(k).ok().filter(|k| *k < len) {
                            Some(k) => return item(s, k, ir.span),
                            None => return ir,
                        }
                    }
                    _ => return ir,
                }
            }
            IrKind::Slice(x, lo, hi) => {
                let Some((s, shape, len)) = self.param(x) else {
                    return ir;
                };
                let bound = |b: &Option<Box<Ir>>, default: i64| match b {
                    None => Some(default),
                    Some(b) => constant(b).map(|n| match n < 0 {
                        true => (n + len as i64).max(0),
                        false => n.min(len as i64),
                    }),
                };
                let (Some(start), Some(end)) = (bound(lo, 0), bound(hi, len as i64)) else {
                    return ir;
                };
                let items = (start..end.max(start)).map(|k| item(s, k as usize, ir.span));
                collection(shape, items.collect())
            }
            IrKind::CallBuiltin(Builtin::Sorted, args) => match args.as_slice() {
                [xs] => match items_of(xs) {
                    Some((_, items)) if (2..=VALUES_MAX as usize).contains(&items.len()) => {
                        return self.sorted(items, ir.span);
                    }
                    _ => return ir,
                },
                _ => return ir,
            },
            IrKind::Comprehension {
                set: false,
                elem,
                clauses,
            } => match self.each_item(clauses) {
                Some(items) => IrKind::List(
                    (items.into_iter())
                        .map(|names| {
                            let bind =
                                |s| names.iter().find(|(n, _)| *n == s).map(|(_, e)| e.clone());
                            self.expr(&put(elem, &bind))
                        })
                        .collect(),
                ),
                None => return ir,
            },
            IrKind::Binary(BinOp::Add, a, b) => match (items_of(a), items_of(b)) {
                (Some((sa, xs)), Some((sb, ys))) if sa == sb => {
                    collection(sa, xs.iter().chain(ys).cloned().collect())
                }
                _ => return ir,
            },
            _ => return ir,
        };
        Ir {
            kind,
            span: ir.span,
        }
    }
}

/// The values of a binder's domain `lo..hi` or `lo..=hi` with constant
/// ends, where there are at most [`VALUES_MAX`].
fn range_values(domain: &Ir) -> Option<Vec<i64>> {
    let IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) = &domain.kind else {
        return None;
    };
    let (lo, hi) = (constant(lo)?, constant(hi)?);
    let hi = match op {
        BinOp::RangeIncl => hi.checked_add(1)?,
        _ => hi,
    };
    (hi.saturating_sub(lo) <= VALUES_MAX).then(|| (lo..hi).collect())
}

/// The value of `ir` where it is integer arithmetic on constants that
/// cannot fail.
fn constant(ir: &Ir) -> Option<i64> {
    match &ir.kind {
        IrKind::Const(Value::Int(n)) => Some(*n),
        IrKind::Unary(UnOp::Neg, x) => constant(x)?.checked_neg(),
        IrKind::Binary(op, a, b) => {
            let (a, b) = (constant(a)?, constant(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The items of a list or tuple written out, with its shape.
fn items_of(ir: &Ir) -> Option<(Shape, &[Ir])> {
    match &ir.kind {
        IrKind::List(items) => Some((Shape::List, items)),
        IrKind::Tuple(items) => Some((Shape::Tuple, items)),
        _ => None,
    }
}

/// A list or tuple (by `shape`) of `items` written out.
fn collection(shape: Shape, items: Vec<Ir>) -> IrKind {
    match shape {
        Shape::Tuple => IrKind::Tuple(items),
        _ => IrKind::List(items),
    }
}

/// `p[k]`.
fn item(p: Slot, k: usize, span: crate::span::Span) -> Ir {
    let at = |kind| Ir { kind, span };
    at(IrKind::Index(
        Box::new(at(IrKind::Local(p))),
        Box::new(at(IrKind::Const(Value::Int(k as i64)))),
    ))
}

/// `a + b + ...` of `items`, at least one.
fn added(items: Vec<Ir>, span: crate::span::Span) -> Ir {
    (items.into_iter())
        .reduce(|a, b| Ir {
            kind: IrKind::Binary(BinOp::Add, Box::new(a), Box::new(b)),
            span,
        })
        .expect("at least one item")
}

fn int(n: i64) -> IrKind {
    IrKind::Const(Value::Int(n))
}
