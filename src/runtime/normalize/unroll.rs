//! Binders unrolled over constant items: one move per item, the item's
//! numbers put in place of the binder's names.
//!
//! - A tuple binder, `(dx, dy) in [(-2, 1), (1, -2)]`: the compiled rules
//!   loop over integers, not over tuples.
//! - A binder of one name over a few constant integers that divides,
//!   `d in {2, 3, 6}` with `n / d` or `n % d`: a division by a constant
//!   is a multiply by its reciprocal in machine code, a division by a
//!   name the slowest instruction there is.
//! - A binder of one name over a few constants, a list or set of them or
//!   a short range, that a condition of the guard reads with nothing but
//!   constants and other such binders (`dx in -2..=2, dy in -2..=2 if
//!   abs(dx) + abs(dy) == 3`), or whose items are not integers (`kind in
//!   ["a", "b"]`, which the compiled rules do not loop over): each copy's
//!   condition folds (`logic.rs`), and a copy whose guard folds to
//!   `false` has no options and is left out.
//! - A binder of one name over a few constant tuples of integers, `d in
//!   [(1, 2), (2, 1)]` read as `d[0]` and `d[1]`: as a tuple binder.

use super::{Normalizer, any_node, map_move, put};
use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::ir::{Ir, IrKind, MoveIr, PatIr, Slot};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// The most items a tuple binder is unrolled over, and the most moves a
/// game's rules may grow to by unrolling.
const UNROLL_ITEMS: usize = 64;
pub(super) const UNROLL_MOVES: usize = 256;
/// The most items a binder of one name that divides is unrolled over.
const DIVISOR_ITEMS: usize = 8;
/// The most items a binder of one name read by a condition on constants
/// is unrolled over.
const FILTER_ITEMS: usize = 16;
/// The most items a leading binder an `if` picks by is unrolled over
/// (`i in 0..2` picking a heap): each copy is the whole move again.
const PICK_ITEMS: usize = 4;
/// The most lists of steps over a state's items a leading binder is
/// unrolled over (`d in [[1, 0, 0], [0, 1, 0], ...]`).
const STEP_ITEMS: usize = 8;
/// The most items of a state a leading binder picking one is unrolled
/// over (`i in 0..3` read as `p[i]`): each copy is machine code compiled
/// (a few milliseconds each), which a game of eight heaps of a few
/// tokens, with moves picking one, two and three, paid for 24 copies.
const ITEM_PICKS: usize = 4;
// `MoveIr::share` names a copy by its items' indices in base 65.
const _: () = assert!(
    UNROLL_ITEMS <= 64
        && DIVISOR_ITEMS <= 64
        && FILTER_ITEMS <= 64
        && STEP_ITEMS <= 64
        && ITEM_PICKS <= 64
);

impl Normalizer<'_> {
    /// Unrolls the binders of `rule` from binder `from` on (see the
    /// module's doc), pushing the moves it becomes on `out`.
    pub(super) fn unroll(&self, rule: MoveIr, from: usize, out: &mut Vec<MoveIr>) {
        let found = rule
            .binders
            .iter()
            .enumerate()
            .skip(from)
            .find_map(|(i, (p, d))| self.unrolled(&rule, i, p, d));
        // Rules kept in the written order unroll no binder inside
        // another's loop (see below).
        let found = found.filter(|(i, ..)| *i == 0 || !self.in_order);
        let Some((i, slots, items)) = found else {
            // A move whose guard folded to `false` has no options; it is
            // left out once no binder is left, whose domain, evaluated
            // before the guard, might fail.
            if !(rule.binders.is_empty() && rule.never_plays()) {
                out.push(rule);
            }
            return;
        };
        // No items, no copies: the binders before this one, whose domains
        // may fail, would go with them.
        if items.is_empty() || out.len() + items.len() > UNROLL_MOVES {
            out.push(rule);
            return;
        }
        for (k, item) in items.into_iter().enumerate() {
            let bind = |slot: Slot| {
                let k = slots.iter().position(|s| *s == slot)?;
                Some(Ir {
                    kind: IrKind::Const(item[k].clone()),
                    span: rule.span,
                })
            };
            let mut copy = rule.clone();
            copy.binders.remove(i);
            // A leading binder's item: the copy waits for options of its
            // own (see `MoveIr::share`).
            if i == 0 {
                copy.unrolled.push((slots[0], k as u32));
            }
            // A binder unrolled inside another's loop: its copies make
            // the options of the first item for every value of the outer
            // binder, then of the next, not in the written order.
            if i > 0 {
                copy.named = None;
            }
            let copy = map_move(&copy, i, &mut |e| self.expr(&put(e, &bind), 0));
            let copy = super::digits::spelled(&copy).unwrap_or(copy);
            self.unroll(copy, i, out);
        }
    }

    /// The slots binder `i` (`pattern in domain`) binds and the items it
    /// is unrolled over, if it is.
    fn unrolled(
        &self,
        rule: &MoveIr,
        i: usize,
        pattern: &PatIr,
        domain: &Ir,
    ) -> Option<(usize, Vec<Slot>, Vec<Vec<Value>>)> {
        match pattern {
            PatIr::Tuple(..) => {
                let slots = pattern.tuple_slots()?;
                let items = constant_items(domain, self.defs, slots.len())?;
                (items.len() <= UNROLL_ITEMS).then_some((i, slots, items))
            }
            PatIr::Slot(s) if divides(rule, i, *s) => {
                let items = constant_ints(domain, self.defs)?;
                let items: Vec<Vec<Value>> = items.into_iter().map(|n| vec![n]).collect();
                Some((i, vec![*s], items)).filter(|(_, _, v)| v.len() <= DIVISOR_ITEMS)
            }
            PatIr::Slot(s) => {
                let items = match few_constants(domain, self.defs) {
                    Some(items) => {
                        let words = items.iter().any(|v| !matches!(v, Value::Int(_)));
                        // An `if` picking by the leading binder: unrolled
                        // only there, where the copies keep the written
                        // order, and over a few items.
                        let picks =
                            i == 0 && items.len() <= PICK_ITEMS && picks(rule, *s, self.defs);
                        let read = words || filters(rule, *s, self.defs) || indexes(rule, *s);
                        let item = items.len() <= ITEM_PICKS && self.picks_item(rule, i, *s);
                        (read || picks || item).then_some(items)?
                    }
                    None => (self.picks_item(rule, i, *s) || self.steps_items(rule, i, *s))
                        .then(|| steps(domain, self.defs))
                        .flatten()
                        .or_else(|| tuples(domain, self.defs))?,
                };
                Some((i, vec![*s], items.into_iter().map(|v| vec![v]).collect()))
            }
            _ => None,
        }
    }
}

impl Normalizer<'_> {
    /// The number of the position's parameters, where binder `i` of
    /// `rule` is its first binder as written, none unrolled before it (a
    /// second, `j in i + 1..3`, would multiply the copies), in a game's
    /// rules.
    fn first_written(&self, rule: &MoveIr, i: usize) -> Option<usize> {
        self.remember.filter(|_| i == 0 && rule.unrolled.is_empty())
    }

    /// Whether binder `i` of `rule`, binding `slot`, is the leading one
    /// and picks an item of the position's list or tuple state (`p[i]`,
    /// `p[:i]`): unrolled, each copy reads its own item, and a state of
    /// one length is its integers (`lengths/`, `split.rs`). Its copies
    /// keep the written order, each with its share of the options waited
    /// for, as the interpreter's (`shares.rs`).
    fn picks_item(&self, rule: &MoveIr, i: usize, slot: Slot) -> bool {
        let Some(params) = self.first_written(rule, i) else {
            return false;
        };
        let reads = |e: &Ir| any_node(e, &|x| matches!(x.kind, IrKind::Local(t) if t == slot));
        let state = |x: &Ir| matches!(x.kind, IrKind::Local(p) if (p as usize) < params);
        let pick = |e: &Ir| match &e.kind {
            IrKind::Index(x, at) => state(x) && reads(at),
            IrKind::Slice(x, lo, hi) => {
                state(x) && [lo, hi].iter().any(|b| b.as_deref().is_some_and(reads))
            }
            _ => false,
        };
        rule.exprs().any(|e| any_node(e, &pick))
    }

    /// Whether binder `i` of `rule`, binding `slot`, is the leading one,
    /// is read item by item (`d[t]`), and `rule` reads an item of the
    /// position's list or tuple state: steps over its items, as in
    /// `[p[t] - k * d[t] for t in 0..3]`, unrolled as
    /// [`Normalizer::picks_item`] says.
    fn steps_items(&self, rule: &MoveIr, i: usize, slot: Slot) -> bool {
        let Some(params) = self.first_written(rule, i) else {
            return false;
        };
        let of = |x: &Ir, f: &dyn Fn(Slot) -> bool| matches!(x.kind, IrKind::Local(t) if f(t));
        let step = |e: &Ir| matches!(&e.kind, IrKind::Index(x, _) if of(x, &|t| t == slot));
        let item =
            |e: &Ir| matches!(&e.kind, IrKind::Index(x, _) if of(x, &|t| (t as usize) < params));
        rule.exprs().any(|e| any_node(e, &step)) && rule.exprs().any(|e| any_node(e, &item))
    }
}

/// The items of a constant domain of at most [`STEP_ITEMS`] lists or
/// tuples of integers of one length (`d in [[1, 0, 0], [0, 1, 0]]`, steps
/// over a state's items), which the compiled rules do not loop over.
fn steps(domain: &Ir, defs: &Defs) -> Option<Vec<Value>> {
    let items = constant_collection(domain, defs)?;
    let len = items.first()?.as_slice()?.len();
    let ints = |v: &Value| {
        matches!(v, Value::List(_) | Value::Tuple(_))
            && v.as_slice()
                .is_some_and(|p| p.len() == len && p.iter().all(|x| matches!(x, Value::Int(_))))
    };
    (items.len() <= STEP_ITEMS && items.iter().all(ints)).then_some(items)
}

/// Whether `slot`, bound by binder `i` of `rule`, divides anywhere after
/// it: `x / slot` or `x % slot`.
fn divides(rule: &MoveIr, i: usize, slot: Slot) -> bool {
    let by_slot = |ir: &Ir| match &ir.kind {
        IrKind::Binary(BinOp::Div | BinOp::Rem, _, by) => {
            matches!(by.kind, IrKind::Local(s) if s == slot)
        }
        _ => false,
    };
    let later = rule.binders[i + 1..].iter().map(|(_, d)| d);
    later
        .chain(&rule.guard)
        .chain(rule.target.exprs())
        .any(|e| any_node(e, &by_slot))
}

/// The items of a constant domain of at most [`FILTER_ITEMS`] integers,
/// strings or booleans, in the order a binder runs over them: a list's,
/// a set's (increasing), or a range's with constant ends.
pub(super) fn few_constants(domain: &Ir, defs: &Defs) -> Option<Vec<Value>> {
    let int = |e: &Ir| match e.kind {
        IrKind::Const(Value::Int(n)) => Some(n),
        _ => None,
    };
    let items: Vec<Value> = match &domain.kind {
        IrKind::Binary(op @ (BinOp::Range | BinOp::RangeIncl), lo, hi) => {
            let (lo, hi) = (int(lo)?, int(hi)?);
            let hi = if *op == BinOp::RangeIncl {
                hi.checked_add(1)?
            } else {
                hi
            };
            if hi.saturating_sub(lo) > FILTER_ITEMS as i64 {
                return None;
            }
            (lo..hi).map(Value::Int).collect()
        }
        _ => constant_collection(domain, defs)?,
    };
    let simple = |v: &Value| matches!(v, Value::Int(_) | Value::Str(_) | Value::Bool(_));
    (items.len() <= FILTER_ITEMS && items.iter().all(simple)).then_some(items)
}

/// The items of a constant domain of at most [`UNROLL_ITEMS`] tuples of
/// integers (`d in [(1, 2), (2, 1)]`, read as `d[0]` and `d[1]`), which
/// the compiled rules do not loop over: unrolled, each copy reads its
/// own constant tuple, as a tuple binder's copies read its numbers.
fn tuples(domain: &Ir, defs: &Defs) -> Option<Vec<Value>> {
    let items = constant_collection(domain, defs)?;
    let ints = |v: &Value| match v {
        Value::Tuple(parts) => parts.iter().all(|p| matches!(p, Value::Int(_))),
        _ => false,
    };
    (!items.is_empty() && items.len() <= UNROLL_ITEMS && items.iter().all(ints)).then_some(items)
}

/// The items of a list or set written of constants, or of a constant
/// collection, in the order a binder runs over them (a set's
/// increasing).
fn constant_collection(domain: &Ir, defs: &Defs) -> Option<Vec<Value>> {
    Some(match &domain.kind {
        IrKind::List(items) | IrKind::Set(items) => {
            let mut items: Vec<Value> = (items.iter())
                .map(|e| match &e.kind {
                    IrKind::Const(v) => Some(v.clone()),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            if matches!(domain.kind, IrKind::Set(_)) {
                items.sort();
                items.dedup();
            }
            items
        }
        IrKind::Const(v) => collection(v).or_else(|| characters(v))?,
        IrKind::Global(id) => {
            let v = defs.lets[*id as usize].value.as_ref()?;
            collection(v).or_else(|| characters(v))?
        }
        _ => return None,
    })
}

/// The characters of a constant string, each a string, as a binder runs
/// over them (`c in "abcd"`).
fn characters(v: &Value) -> Option<Vec<Value>> {
    let Value::Str(s) = v else { return None };
    Some(
        s.chars()
            .map(|c| Value::str(c.encode_utf8(&mut [0; 4])))
            .collect(),
    )
}

/// The items of a constant list, tuple or set, in a binder's order.
fn collection(v: &Value) -> Option<Vec<Value>> {
    match v {
        Value::Set(s) => Some(s.iter().cloned().collect()),
        Value::List(_) | Value::Tuple(_) | Value::Report(_) => Some(v.as_slice()?.to_vec()),
        _ => None,
    }
}

/// Whether a conjunct of `rule`'s guard reads `slot` with nothing but
/// constants and binders over a few constants: unrolled, it folds.
fn filters(rule: &MoveIr, slot: Slot, defs: &Defs) -> bool {
    let mut conjuncts = Vec::new();
    if let Some(guard) = &rule.guard {
        conjuncts_of(guard, &mut conjuncts);
    }
    conjuncts.into_iter().any(|c| folds(c, rule, slot, defs))
}

/// Whether `rule` reads an item of a constant list or tuple at `slot`
/// (`DX[i]`): unrolled, the item is a constant.
fn indexes(rule: &MoveIr, slot: Slot) -> bool {
    let at = |e: &Ir| match &e.kind {
        IrKind::Index(xs, i) => {
            matches!(xs.kind, IrKind::Const(Value::List(_) | Value::Tuple(_)))
                && matches!(i.kind, IrKind::Local(t) if t == slot)
        }
        _ => false,
    };
    rule.exprs().any(|e| any_node(e, &at))
}

/// Whether the condition of an `if` anywhere in `rule` (`k in 1..=(if i
/// == 0 then a else b)`) reads `slot` as [`filters`] reads it.
fn picks(rule: &MoveIr, slot: Slot, defs: &Defs) -> bool {
    let picks = |e: &Ir| matches!(&e.kind, IrKind::If(c, ..) if folds(c, rule, slot, defs));
    rule.exprs().any(|e| any_node(e, &picks))
}

/// Whether `c` reads `slot` with nothing but constants and binders of
/// `rule` over a few constants.
fn folds(c: &Ir, rule: &MoveIr, slot: Slot, defs: &Defs) -> bool {
    let fixed: Vec<Slot> = (rule.binders.iter())
        .filter_map(|(p, d)| match p {
            PatIr::Slot(t) if few_constants(d, defs).is_some() => Some(*t),
            _ => None,
        })
        .collect();
    let reads = |e: &Ir| matches!(e.kind, IrKind::Local(t) if t == slot);
    any_node(c, &reads) && on_constants(c, &fixed)
}

/// The conjuncts of a condition, the operands of its `and`s.
fn conjuncts_of<'a>(c: &'a Ir, out: &mut Vec<&'a Ir>) {
    match &c.kind {
        IrKind::Binary(BinOp::And, a, b) => {
            conjuncts_of(a, out);
            conjuncts_of(b, out);
        }
        _ => out.push(c),
    }
}

/// Whether `e` is made of constants and the slots `fixed` by operators,
/// indexing and `abs` alone.
fn on_constants(e: &Ir, fixed: &[Slot]) -> bool {
    let on = |e: &Ir| on_constants(e, fixed);
    match &e.kind {
        IrKind::Local(t) => fixed.contains(t),
        IrKind::Const(_) => true,
        IrKind::Binary(_, a, b) => on(a) && on(b),
        IrKind::Unary(_, a) => on(a),
        IrKind::If(c, a, b) => on(c) && on(a) && on(b),
        IrKind::CallBuiltin(Builtin::Abs, args) => args.iter().all(on),
        // An item of a constant (`CODE[k]`), which folds once `k` is put.
        IrKind::Index(a, b) => on(a) && on(b),
        _ => false,
    }
}

/// The items of a constant domain of integers, a list's in its order and
/// a set's in increasing order, as the binder runs over them.
fn constant_ints(domain: &Ir, defs: &Defs) -> Option<Vec<Value>> {
    let items = match &domain.kind {
        IrKind::Const(v) => collection(v)?,
        IrKind::Global(id) => collection(defs.lets[*id as usize].value.as_ref()?)?,
        IrKind::List(items) => {
            let items = items.iter().map(|item| match &item.kind {
                IrKind::Const(v @ Value::Int(_)) => Some(v.clone()),
                _ => None,
            });
            return items.collect();
        }
        _ => return None,
    };
    items
        .into_iter()
        .map(|v| matches!(v, Value::Int(_)).then_some(v))
        .collect()
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
