//! Running a kernel over one position: the binders' loops, the narrowing
//! of the innermost one, and the general loop for what the fast one
//! ([`super::plan`]) does not take.

use super::expr::{Cond, Num, SLOT_LIMIT};
use super::filter::Filter;
use super::listing::Listing;
use super::narrow::{self, HOLES, Hole, hole, solve};
use super::plan::Plan;
use super::{Domain, Eval, Marks, Move, Narrow, Stop};
use crate::defs::Defs;
use crate::graph::Graph;
use crate::ir::LetId;
use crate::syntax::ast::BinOp;
use crate::value::Value;
use std::rc::Rc;

pub use super::values::Values;

/// One run of a kernel over one position.
pub struct Run<'a> {
    pub defs: &'a Defs,
    pub graph: &'a Graph,
    pub(super) marks: &'a mut Marks,
    poll: &'a mut dyn FnMut() -> bool,
    /// Where a listing run puts each option (see [`super::listing`]);
    /// `None` in a run that marks their values.
    list: Option<&'a mut Listing>,
}

impl<'a> Run<'a> {
    pub fn new(
        defs: &'a Defs,
        graph: &'a Graph,
        marks: &'a mut Marks,
        poll: &'a mut dyn FnMut() -> bool,
    ) -> Run<'a> {
        Run {
            defs,
            graph,
            marks,
            poll,
            list: None,
        }
    }

    /// This run made a listing run, putting each option in `out`.
    pub fn listing(self, out: &'a mut Listing) -> Run<'a> {
        Run {
            list: Some(out),
            ..self
        }
    }

    /// Notes that a listing run is in move `rule`, counted from 0.
    pub fn list_rule(&mut self, rule: u32) {
        if let Some(list) = self.list.as_deref_mut() {
            list.set_rule(rule);
        }
    }

    /// The definitions and, in a listing run, its listing.
    pub(super) fn listed(&mut self) -> (&'a Defs, Option<&mut Listing>) {
        (self.defs, self.list.as_deref_mut())
    }

    /// Counts a step, and every so often asks `poll` whether to stop.
    fn tick(&mut self) -> Eval<()> {
        if self.marks.charge(1) && (self.poll)() {
            return Err(Stop::Bail);
        }
        Ok(())
    }
    /// Notes that the run is in move `rule` (see [`Marks::in_rule`]).
    pub fn in_rule(&mut self, rule: u64) {
        self.marks.in_rule(rule);
    }

    pub fn binders(&mut self, rule: &Move, i: usize, f: &mut Vec<i64>) -> Eval<()> {
        self.tick()?;
        if let Some((slot, Domain::Split(how, xs, x))) = rule.binders.get(i) {
            let mark = f.len();
            let result = super::seq::split_each(
                *how,
                xs,
                f,
                self.defs,
                &mut |f| match i + 1 == rule.binders.len() {
                    true => self.each(rule, &rule.guard, f),
                    false => self.binders(rule, i + 1, f),
                },
                (*slot, *x),
            );
            f.truncate(mark);
            return result;
        }
        match rule.binders.len() {
            0 => return self.each(rule, &rule.guard, f),
            n if i + 1 == n => return self.innermost(rule, f),
            _ => {}
        }
        let (slot, domain) = &rule.binders[i];
        self.values(domain, f)?.try_each(|k| {
            f[*slot as usize] = k;
            self.binders(rule, i + 1, f)
        })
    }

    fn values(&mut self, domain: &Domain, f: &mut Vec<i64>) -> Eval<Values> {
        let values = match domain {
            Domain::Range(lo, hi, inclusive) => {
                let (lo, hi) = range((lo, hi, *inclusive), f, self.defs)?;
                Values::Range(lo, hi)
            }
            Domain::Items(items) => Values::list(
                items
                    .iter()
                    .map(|n| n.eval(f, self.defs))
                    .collect::<Eval<_>>()?,
            )?,
            Domain::Global(id) => self.global(*id)?,
            Domain::Fixed(values) => values.clone(),
            // Run by `binders` itself.
            Domain::Split(..) => return Err(Stop::Bail),
            Domain::Seq(xs) => {
                let mark = f.len();
                let (a, b) = xs.eval(f, self.defs)?;
                let items = f[a..b].to_vec();
                f.truncate(mark);
                Values::list(items)?
            }
        };
        // A global range is held to the slots' limit as a written one is.
        if let Values::Range(lo, hi) = values {
            within_slots(lo, hi)?;
        }
        Ok(values)
    }

    /// The integers of a global, converted once per value the global takes.
    fn global(&mut self, id: LetId) -> Eval<Values> {
        let value = self.defs.lets[id as usize].value.as_ref();
        let value = value.ok_or(Stop::Bail)?;
        if let Value::Range(lo, hi) = value {
            return Ok(Values::Range(*lo, *hi));
        }
        let cached = self
            .marks
            .lists
            .iter()
            .find(|(g, v, _)| *g == id && same(v, value));
        if let Some((.., values)) = cached {
            return Ok(values.clone());
        }
        let int = |v: &Value| match v {
            Value::Int(n) => Ok(*n),
            _ => Err(Stop::Bail),
        };
        let ints = match value {
            // A set's items, in its order: increasing.
            Value::Set(items) => items.iter().map(int).collect::<Eval<Vec<_>>>()?,
            _ => value
                .as_slice()
                .ok_or(Stop::Bail)?
                .iter()
                .map(int)
                .collect::<Eval<Vec<_>>>()?,
        };
        let values = Values::list(ints)?;
        self.marks.lists.retain(|(g, ..)| *g != id);
        self.marks.lists.push((id, value.clone(), values.clone()));
        Ok(values)
    }

    /// The innermost binder: the guard's leading conjuncts narrow it, then
    /// the fast loop or the general one makes the options.
    fn innermost(&mut self, rule: &Move, f: &mut Vec<i64>) -> Eval<()> {
        let (x, domain) = &rule.binders[rule.binders.len() - 1];
        let x = *x as usize;
        let mut values = self.values(domain, f)?;
        // Points cut out of the window by `!=`, as many as there is room for.
        let mut holes = [0i64; HOLES];
        let mut hole_count = 0;
        let mut rest = rule.narrow.len();
        for (i, narrow) in rule.narrow.iter().enumerate() {
            if values.is_empty() {
                return Ok(());
            }
            if let Narrow::Monotone(strict, fx, g) = narrow {
                match self.rising_window(&values, x, (*strict, fx, g), f)? {
                    Some(end) => values.narrow((0, end - values.bounds().0 + 1)),
                    None => {
                        rest = i;
                        break;
                    }
                }
                continue;
            }
            // d(k) = d0 + step * k, or a conjunct tested once.
            let (op, d0, step) = match narrow {
                Narrow::Once => {
                    // It holds for every value of x or for none.
                    f[x] = values.first();
                    match rule.guard[i].eval(f, self.defs) {
                        Ok(true) => continue,
                        Ok(false) if rule.guard[i].total() => return Ok(()),
                        _ => {
                            rest = i;
                            break;
                        }
                    }
                }
                Narrow::Linear(op, d) => (*op, d.eval_without(x as u32, f), d.coef(x as u32)),
                // Each part below 2³¹, as are the window's ends: no overflow.
                Narrow::Affine(op, d) => {
                    let (d0, step) = d.eval(f, self.defs)?;
                    (*op, d0, step)
                }
                Narrow::Monotone(..) => unreachable!("taken above"),
                // The loop itself, over the window left (see `window`).
                Narrow::Divides(_) | Narrow::Multiple(_) | Narrow::Filter(_) => {
                    rest = i;
                    break;
                }
            };
            if op != BinOp::Ne {
                let (lo, hi) = values.bounds();
                let start = step.checked_mul(lo).and_then(|v| v.checked_add(d0));
                values.narrow(solve(op, start.ok_or(Stop::Bail)?, step, hi - lo + 1));
                continue;
            }
            match hole(d0, step) {
                Hole::Nowhere => {}
                Hole::Everywhere => return Ok(()),
                Hole::At(_) if hole_count == HOLES => {
                    rest = i;
                    break;
                }
                Hole::At(k) => {
                    holes[hole_count] = k;
                    hole_count += 1;
                }
            }
        }
        if values.is_empty() {
            return Ok(());
        }
        let holes = &mut holes[..hole_count];
        holes.sort_unstable();
        // The windows between the holes, each made by the fast loop or
        // the general one.
        let (lo, hi) = values.bounds();
        let mut from = lo;
        for end in holes.iter().copied().chain([hi + 1]) {
            if from < end.min(hi + 1) {
                self.window(rule, &values.window(from, end.min(hi + 1) - 1), rest, f)?;
            }
            from = from.max(end + 1);
        }
        Ok(())
    }

    /// Where `fx(x) < g` (or `<=`), `fx` non-decreasing for `x >= 0`,
    /// first fails in the window of `values`: the end of the part where it
    /// holds (one before the window's start when it holds nowhere). `None`
    /// when the window reaches below 0, where nothing is known.
    fn rising_window(
        &self,
        values: &Values,
        x: usize,
        (strict, fx, g): (bool, &Num, &Num),
        f: &mut Vec<i64>,
    ) -> Eval<Option<i64>> {
        let (lo, hi) = values.bounds();
        if lo < 0 {
            return Ok(None);
        }
        narrow::rising_last(x, (lo, hi), (strict, fx, g), (f, self.defs)).map(Some)
    }

    /// The options for the innermost binder `x` over `values`, after the
    /// narrowing conjuncts: the guard's other conjuncts start at `rest`.
    fn window(&mut self, rule: &Move, values: &Values, rest: usize, f: &mut Vec<i64>) -> Eval<()> {
        let x = rule.binders[rule.binders.len() - 1].0;
        let guard = &rule.guard[rest..];
        if guard.is_empty()
            && self.list.is_none()
            && let Some((nodes, heaps)) = &rule.fast
            && let Some(plan) = Plan::new(nodes, heaps, x, values, f, self)?
        {
            return plan.run(values, self.marks, self.poll);
        }
        if let (Some(Narrow::Filter(kept)), Values::Range(lo, hi)) = (rule.narrow.get(rest), values)
            && Filter::covers((*lo, *hi))
        {
            // Values past where it stopped ask positions' values, which
            // only the machine code asks.
            if kept.fill((*lo, *hi), self.defs, None)? < *hi {
                return Err(Stop::Bail);
            }
            let after = &rule.guard[rest + kept.conjuncts()..];
            return kept.each((*lo, *hi), |k| {
                f[x as usize] = k;
                self.each(rule, after, f)
            });
        }
        if let (Some(Narrow::Divides(n)), Values::Range(lo, hi)) = (rule.narrow.get(rest), values)
            && *lo >= 1
        {
            let n = n.eval(f, self.defs)?;
            let after = &rule.guard[rest + 1..];
            let each = |d: i64| {
                f[x as usize] = d;
                self.each(rule, after, f)
            };
            // `n % x` holds for every `x` where `n` is 0, and a negative
            // `n` has the divisors of `-n`: those windows are tested
            // value by value.
            if n >= 1 && narrow::divisors(n, (*lo, *hi), each)? {
                return Ok(());
            }
        }
        if let (Some(Narrow::Multiple(e)), Values::Range(lo, hi)) = (rule.narrow.get(rest), values)
        {
            let e = e.eval(f, self.defs)?;
            let after = &rule.guard[rest + 1..];
            let each = |k: i64| {
                f[x as usize] = k;
                self.each(rule, after, f)
            };
            // A step of 0 (`x % 0` fails) or below: tested value by value.
            if narrow::multiples(e, (*lo, *hi), each)? {
                return Ok(());
            }
        }
        values.try_each(|k| {
            f[x as usize] = k;
            self.each(rule, guard, f)
        })
    }

    /// One combination of binder values: the conjuncts of `guard` (those
    /// of the rule's guard not used to narrow), then the option.
    fn each(&mut self, rule: &Move, guard: &[Cond], f: &mut Vec<i64>) -> Eval<()> {
        self.tick()?;
        for c in guard {
            if !c.eval(f, self.defs)? {
                return Ok(());
            }
        }
        if self.list.is_some() {
            return self.list_option(rule, f);
        }
        // Every term is looked at, even after one without a value: a later
        // one may be on the search path.
        self.marks.next_option();
        let mut value = Some(0);
        for term in &rule.terms {
            let v = self.term(term, f)?;
            value = value.zip(v).map(|(a, b)| a ^ b);
        }
        match value {
            Some(value) => self.marks.mark(value),
            // See `Move::sums`.
            None if rule.sums() => return Err(Stop::Bail),
            None => {}
        }
        Ok(())
    }
}

/// The ends of `lo..hi` (`lo..=hi` when `inclusive`), as a binder or a
/// comprehension's `for` takes it: a non-empty range reaching past the
/// slots' limit bails, for the values become slots.
pub(super) fn range(
    (lo, hi, inclusive): (&Num, &Num, bool),
    f: &mut Vec<i64>,
    defs: &Defs,
) -> Eval<(i64, i64)> {
    let (lo, hi) = (lo.eval(f, defs)?, hi.eval(f, defs)?);
    let hi = match inclusive {
        true => hi.checked_add(1).ok_or(Stop::Bail)?,
        false => hi,
    };
    within_slots(lo, hi)?;
    Ok((lo, hi))
}

fn within_slots(lo: i64, hi: i64) -> Eval<()> {
    match lo < hi && (lo <= -SLOT_LIMIT || hi > SLOT_LIMIT) {
        true => Err(Stop::Bail),
        false => Ok(()),
    }
}

/// Whether two values of a global are the same value, not just equal.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::List(x), Value::List(y)) => Rc::ptr_eq(x, y),
        (Value::Tuple(x), Value::Tuple(y)) => Rc::ptr_eq(x, y),
        (Value::Set(x), Value::Set(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}
