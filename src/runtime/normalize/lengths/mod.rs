//! A list or tuple state of the length the positions met give it. Nim
//! written with its heaps as a list, `nim(hs)` with `i in 0..len(hs)`
//! and `nim(hs[:i] + [hs[i] - k] + hs[i + 1:])`, makes only positions
//! as long as the one it is given: for positions of one length, its
//! rules are those of as many integers. Given that length, the rules
//! here say so in words `normalize/split.rs` splits:
//!
//! - `len(hs)` is the length;
//! - the move's first binder, where it runs over a few items written out
//!   (a range of constants, the state's items, their `enumerate`, `zip`
//!   of such, constant tuples or lists of steps) and reads the state,
//!   indexes or slices it, counts a repetition (`[0] * i`) or picks a
//!   list or tuple by an `if` (`if m == 0 then (x - 1, y) else ...`), is
//!   one move per item, the item in place of its names;
//! - a slice of the state with constant ends is its items (`hs[1:]` is
//!   `[hs[1], hs[2]]`), as slicing takes the ends (from the end where
//!   negative, cut to the length), and so is an index or a slice of a
//!   list written out whose dropped items cannot fail; lists or tuples
//!   written out and added are one, `[0] * 3` is `[0, 0, 0]`, and
//!   `min`, `max`, `sum`, `all` and `any` of the state or of items
//!   written out are of its items (`items.rs`);
//! - a list comprehension of one `for` over such items, with no `if`
//!   (`[if j == i then hs[j] - k else hs[j] for j in 0..len(hs)]`, `[h -
//!   d for (h, d) in zip(hs, [0] * i + [k] + [0] * (2 - i))]`), is its
//!   elements written out, and `sorted` of a few items written out is
//!   those items in order, by `min` and `max`;
//! - a `let` of values that cannot fail (a helper given `p[0]` binds it)
//!   is its values put in place, and `x + 0` of an integer is `x`.
//!
//! Nothing that could fail is left unevaluated: an item dropped must be
//! a constant, a name, an item of the state, or a few sums of such,
//! which the rewrites take not to overflow (as `inline::repeatable`).
//!
//! The rules are exact for positions of that length and shape only:
//! [`fixed`] says which, and the compiled rules load no other (see
//! `kernel/frame.rs`).

mod items;

use super::walk::{map_children, map_move, put};
use crate::builtins::Builtin;
use crate::graph::Shape;
use crate::ir::{ClauseIr, GameIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::Value;
use items::{ITEMS_MAX, collection, constant, int, item, items_of, range_values};

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

    /// Whether evaluating `ir` cannot fail: a constant, a local, an item
    /// of a fixed parameter within its length, or a list or tuple of
    /// such written out.
    fn safe(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Const(_) | IrKind::Local(_) => true,
            IrKind::List(items) | IrKind::Tuple(items) => items.iter().all(|e| self.safe(e)),
            IrKind::Index(x, i) => match (self.param(x), &i.kind) {
                (Some((_, _, len)), IrKind::Const(Value::Int(k))) => (0..len as i64).contains(k),
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether leaving `ir` unevaluated loses nothing: it cannot fail
    /// ([`Fixed::safe`]), or is a few sums and small multiples of such,
    /// which the rewrites take not to overflow (see `inline::repeatable`),
    /// or a list or tuple of such written out.
    fn harmless(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::List(items) | IrKind::Tuple(items) => items.iter().all(|e| self.harmless(e)),
            _ => self.safe(ir) || items::small(ir, &|e| self.safe(e), &mut { items::SMALL_NODES }),
        }
    }

    /// The items of `ir` written out one by one, where each can be read
    /// again in place of a name: a fixed parameter's (`hs[0]`, `hs[1]`,
    /// ...), those of a list or tuple written out whose items cannot
    /// fail, or a range of a few constants.
    fn written(&self, ir: &Ir) -> Option<Vec<Ir>> {
        if let Some((p, _, len)) = self.param(ir) {
            return Some((0..len).map(|k| item(p, k, ir.span)).collect());
        }
        if let Some((_, items)) = items_of(ir) {
            return items
                .iter()
                .all(|e| self.safe(e))
                .then(|| items.into_owned());
        }
        let values = range_values(ir)?;
        Some(values.into_iter().map(|v| int(v, ir.span)).collect())
    }

    /// What a binder or a comprehension's `for` of `pattern` over
    /// `domain` binds in turn, its slots with their values, where it runs
    /// over items written out ([`Fixed::written`]), their `enumerate`,
    /// `zip` of a few such, or constant tuples (`(i, j) in {(0, 1), (1,
    /// 2)}`): one binding for each of its items, in the order it takes them.
    fn each(&self, pattern: &PatIr, domain: &Ir) -> Option<Vec<Vec<(Slot, Ir)>>> {
        let span = domain.span;
        let rows: Vec<Vec<Ir>> = match (&domain.kind, pattern) {
            (IrKind::CallBuiltin(Builtin::Enumerate, args), PatIr::Tuple(..)) => {
                match args.as_slice() {
                    [xs] => (self.written(xs)?.into_iter().enumerate())
                        .map(|(k, x)| vec![int(k as i64, span), x])
                        .collect(),
                    _ => return None,
                }
            }
            (IrKind::CallBuiltin(Builtin::Zip, args), PatIr::Tuple(..)) => {
                items::zipped(args, &|e| self.written(e), &|e| self.safe(e))?
            }
            (_, PatIr::Slot(_)) => self.written(domain)?.into_iter().map(|x| vec![x]).collect(),
            (_, PatIr::Tuple(..)) => constant_rows(domain)?,
            _ => return None,
        };
        let slots = slots_of(pattern)?;
        let fits = |row: &Vec<Ir>| row.len() == slots.len();
        (rows.len() <= ITEMS_MAX as usize && rows.iter().all(fits)).then_some(())?;
        let bind = |row: Vec<Ir>| slots.iter().copied().zip(row).collect();
        Some(rows.into_iter().map(bind).collect())
    }

    /// `rule`, its first binder unrolled where it runs over a few items
    /// ([`Fixed::each`]) and either reads a fixed parameter or binds what
    /// indexes or slices one or counts a repetition, onto `out`.
    fn unroll(&self, rule: MoveIr, out: &mut Vec<MoveIr>) {
        let first = rule.binders.first().and_then(|(p, d)| {
            let rows = self.each(p, d)?;
            let reads = super::any_node(d, &|e| self.param(e).is_some());
            // A constant list or tuple a name stands for is read item by item.
            let listed = |row: &Vec<(Slot, Ir)>| row.iter().any(|b| items_of(&b.1).is_some());
            let reads = reads || rows.iter().any(listed);
            let slots = slots_of(p)?;
            (reads || slots.iter().any(|s| self.indexes(&rule, *s))).then_some(rows)
        });
        let Some(rows) = first.filter(|rows| out.len() + rows.len() <= MOVES_MAX) else {
            out.push(rule);
            return;
        };
        for row in rows {
            let bind = |s: Slot| row.iter().find(|(n, _)| *n == s).map(|(_, e)| e.clone());
            let mut copy = rule.clone();
            copy.binders.remove(0);
            let copy = map_move(&copy, 0, &mut |e| self.expr(&put(e, &bind)));
            self.unroll(copy, out);
        }
    }

    /// Whether `slot` is read in an index or a slice bound of a fixed
    /// parameter or a list written out, counts the repetitions of one
    /// (`[0] * i`), or picks one by an `if` (`if m == 0 then (x - 1, y)
    /// else ...`), anywhere in `rule`.
    fn indexes(&self, rule: &MoveIr, slot: Slot) -> bool {
        let reads =
            |e: &Ir| super::any_node(e, &|x| matches!(x.kind, IrKind::Local(s) if s == slot));
        let listed = |x: &Ir| self.param(x).is_some() || items_of(x).is_some();
        let pick = |e: &Ir| match &e.kind {
            IrKind::Index(x, i) => listed(x) && reads(i),
            IrKind::Slice(x, lo, hi) => {
                listed(x) && [lo, hi].iter().any(|b| b.as_deref().is_some_and(reads))
            }
            IrKind::Binary(BinOp::Mul, a, b) => {
                (items_of(a).is_some() && reads(b)) || (items_of(b).is_some() && reads(a))
            }
            IrKind::If(c, a, b) => reads(c) && (chooses(a) || chooses(b)),
            _ => false,
        };
        rule.exprs().any(|e| super::any_node(e, &pick))
    }

    /// `ir` with the rewrites of the module, bottom up.
    fn expr(&self, ir: &Ir) -> Ir {
        let ir = map_children(ir, &mut |e| self.expr(e));
        match self.rewrite(&ir) {
            Some(kind) => Ir {
                kind,
                span: ir.span,
            },
            // The unrolled binders' constants folded.
            None => super::fold(ir),
        }
    }

    /// The rewrite of the module at the root of `ir`, whose children are
    /// rewritten, where one applies.
    fn rewrite(&self, ir: &Ir) -> Option<IrKind> {
        let safe = |e: &Ir| self.safe(e);
        match &ir.kind {
            IrKind::CallBuiltin(Builtin::Len, args) => {
                let [x] = args.as_slice() else { return None };
                if let Some((_, _, len)) = self.param(x) {
                    return Some(IrKind::Const(Value::Int(len as i64)));
                }
                // Items that cannot fail: not evaluated, nothing lost.
                let harmless = |e: &Ir| self.harmless(e);
                let (_, items) = items_of(x).filter(|(_, items)| items.iter().all(harmless))?;
                Some(IrKind::Const(Value::Int(items.len() as i64)))
            }
            IrKind::CallBuiltin(
                b @ (Builtin::Min | Builtin::Max | Builtin::Sum | Builtin::All | Builtin::Any),
                args,
            ) => {
                let [x] = args.as_slice() else { return None };
                let items = match self.param(x) {
                    Some((s, _, len)) => (0..len).map(|k| item(s, k, ir.span)).collect(),
                    None => items_of(x)?.1.into_owned(),
                };
                Some(items::folded(*b, &items, &safe, ir.span)?.kind)
            }
            IrKind::Index(x, i) => self.index(x, i),
            IrKind::Slice(x, lo, hi) => self.slice(x, lo, hi, ir.span),
            IrKind::CallBuiltin(Builtin::Sorted, args) => match args.as_slice() {
                [xs] => match items_of(xs) {
                    Some((_, items)) if (2..=VALUES_MAX as usize).contains(&items.len()) => {
                        Some(self.sorted(&items, ir.span).kind)
                    }
                    _ => None,
                },
                _ => None,
            },
            IrKind::Comprehension {
                set: false,
                elem,
                clauses,
            } => {
                let [ClauseIr::For(pattern, domain)] = clauses.as_slice() else {
                    return None;
                };
                let rows = self.each(pattern, domain)?;
                let each = |names: Vec<(Slot, Ir)>| {
                    let bind = |s| names.iter().find(|(n, _)| *n == s).map(|(_, e)| e.clone());
                    self.expr(&put(elem, &bind))
                };
                Some(IrKind::List(rows.into_iter().map(each).collect()))
            }
            IrKind::Binary(BinOp::Add, a, b) => match (items_of(a), items_of(b)) {
                (Some((sa, xs)), Some((sb, ys))) if sa == sb => Some(collection(
                    sa,
                    xs.iter().chain(ys.iter()).cloned().collect(),
                )),
                _ => items::identity(BinOp::Add, a, b, &safe),
            },
            IrKind::Binary(BinOp::Mul, a, b) => {
                items::repeated(a, b, &safe).or_else(|| items::identity(BinOp::Mul, a, b, &safe))
            }
            IrKind::Binary(BinOp::Sub, a, b) => items::identity(BinOp::Sub, a, b, &safe),
            IrKind::Let(pattern, value, body) => Some(self.put_let(pattern, value, body)?.kind),
            _ => None,
        }
    }

    /// `let x = v in body` or `let (a, b) = (u, v) in body` of values
    /// that cannot fail or a few sums of such ([`Fixed::harmless`]):
    /// `body` with the values in place of the names, rewritten again (a
    /// helper given `p[0]` binds it so).
    fn put_let(&self, pattern: &PatIr, value: &Ir, body: &Ir) -> Option<Ir> {
        let names: Vec<(Slot, Ir)> = match pattern {
            PatIr::Slot(s) if self.harmless(value) => vec![(*s, value.clone())],
            PatIr::Tuple(..) => {
                let slots = pattern.tuple_slots()?;
                let (_, items) = items_of(value)?;
                let fits = slots.len() == items.len() && items.iter().all(|e| self.harmless(e));
                fits.then(|| slots.into_iter().zip(items.iter().cloned()).collect())?
            }
            _ => return None,
        };
        let bind = |s: Slot| names.iter().find(|(n, _)| *n == s).map(|(_, e)| e.clone());
        Some(self.expr(&put(body, &bind)))
    }

    /// `x[i]` of a fixed parameter by a constant index, from the end
    /// where negative, as indexing takes it; or of items written out that
    /// cannot fail, within their number.
    fn index(&self, x: &Ir, i: &Ir) -> Option<IrKind> {
        let k = constant(i)?;
        if let Some((s, _, len)) = self.param(x) {
            if matches!(i.kind, IrKind::Const(_)) && k >= 0 {
                return None;
            }
            let k = if k < 0 { k + len as i64 } else { k };
            let k = usize::try_from(k).ok().filter(|k| *k < len)?;
            return Some(item(s, k, x.span).kind);
        }
        let harmless = |e: &Ir| self.harmless(e);
        let (_, items) = items_of(x).filter(|(_, items)| items.iter().all(harmless))?;
        let k = if k < 0 { k + items.len() as i64 } else { k };
        let k = usize::try_from(k).ok().filter(|k| *k < items.len())?;
        Some(items[k].kind.clone())
    }

    /// `x[lo:hi]` with constant ends of a fixed parameter, or of items
    /// written out that cannot fail, as its items: slicing takes the ends
    /// from the end where negative, cut to the length.
    fn slice(
        &self,
        x: &Ir,
        lo: &Option<Box<Ir>>,
        hi: &Option<Box<Ir>>,
        span: Span,
    ) -> Option<IrKind> {
        let (shape, items) = match self.param(x) {
            Some((s, shape, len)) => (shape, (0..len).map(|k| item(s, k, span)).collect()),
            None => {
                let (shape, items) = items_of(x)?;
                items.iter().all(|e| self.harmless(e)).then_some(())?;
                (shape, items.into_owned())
            }
        };
        let len = items.len() as i64;
        let bound = |b: &Option<Box<Ir>>, default: i64| match b {
            None => Some(default),
            Some(b) => constant(b).map(|n| match n < 0 {
                true => (n + len).max(0),
                false => n.min(len),
            }),
        };
        let (start, end) = (bound(lo, 0)?, bound(hi, len)?);
        let kept = items[start as usize..end.max(start) as usize].to_vec();
        Some(collection(shape, kept))
    }
}

/// The slots a binder's pattern binds: its name's, or those of a tuple
/// of names.
fn slots_of(pattern: &PatIr) -> Option<Vec<Slot>> {
    match pattern {
        PatIr::Slot(s) => Some(vec![*s]),
        _ => pattern.tuple_slots(),
    }
}

/// Whether `ir` is a list or tuple written out, or an `if` with one as a
/// branch.
fn chooses(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::If(_, a, b) => chooses(a) || chooses(b),
        _ => items_of(ir).is_some(),
    }
}

/// The rows of a constant collection of tuples or lists (a set's in
/// increasing order), as constants.
fn constant_rows(domain: &Ir) -> Option<Vec<Vec<Ir>>> {
    let at = |v: &Value| Ir {
        kind: IrKind::Const(v.clone()),
        span: domain.span,
    };
    let rows: Vec<Value> = match &domain.kind {
        IrKind::Const(Value::Set(s)) => s.iter().cloned().collect(),
        IrKind::Const(v) => v.as_slice()?.to_vec(),
        _ => return None,
    };
    let row = |v: &Value| match v {
        Value::Tuple(_) | Value::List(_) => Some(v.as_slice()?.iter().map(at).collect()),
        _ => None,
    };
    rows.iter().map(row).collect()
}
