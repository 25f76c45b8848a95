//! Which parameters of a game hold booleans (`game g(n, first)`): those
//! its rules read as conditions (`if first`, `not first`, `first or k <
//! 3`) and those its own moves pass a condition (`g(n - 1, not first)`,
//! `g(n, k == 2)`, or a boolean parameter). A condition must be `true`
//! or `false`, nothing else counts as one, so a parameter read as one
//! holds a boolean or the rules fail there (which the interpreter
//! reports: a position whose run says otherwise is no kernel's). The
//! compiled rules hold a boolean as 0 or 1, a flat run too
//! ([`crate::graph::flat::is_bool`]).
//!
//! So with lists of booleans ([`Shape::Bools`]: coins, lamps): a list
//! parameter whose items the rules read as conditions (`if cs[i]`, `not
//! cs[j]`), or that the game's own moves pass a list of conditions
//! (`cs[:i] + [not cs[i]] + cs[i + 1:]`), holds booleans; so does a
//! `for` over one (`[not c for c in cs]`).

use super::Types;
use crate::builtins::Builtin;
use crate::graph::Shape;
use crate::graph::flat::BOOLS_MAX;
use crate::ir::{ClauseIr, GameIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::runtime::kernel::seq::Seq;
use crate::runtime::normalize::each_child;
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::Value;

impl Types {
    /// Whether `slot` holds a boolean (see the module).
    pub fn is_bool(&self, slot: Slot) -> bool {
        self.bools.contains(&slot)
    }

    /// Whether `ir` makes a boolean, as far as its form says (see
    /// `types/bools.rs`): an item of a list of booleans among them.
    pub fn makes_bool(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Index(xs, _) => self.holds_bools(xs),
            // `^` of two booleans is theirs, `a != b`.
            IrKind::If(_, a, b) | IrKind::Binary(BinOp::BitXor, a, b) => {
                self.makes_bool(a) && self.makes_bool(b)
            }
            _ => boolean(ir, &self.bools),
        }
    }

    /// Whether `xs` compiles to a list of booleans.
    pub fn holds_bools(&self, xs: &Ir) -> bool {
        self.bools_of(xs).is_some()
    }

    /// `xs` compiled, where it is a list (or tuple) of booleans.
    pub fn bools_of(&self, xs: &Ir) -> Option<Seq> {
        Seq::compile(xs, self).filter(|xs| xs.shape(self).of_bools())
    }

    /// The bits of a flat run's header that say which parameters hold
    /// booleans ([`crate::graph::flat::bool_bit`]).
    pub fn bool_bits(&self) -> i64 {
        (self.bools.iter())
            .filter(|s| (**s as usize) < self.arity.min(BOOLS_MAX))
            .fold(0, |h, s| h | crate::graph::flat::bool_bit(*s as usize))
    }

    /// Whether `ir` makes a list of booleans, as far as its form says: a
    /// display or a comprehension of conditions, or a constant one.
    pub(super) fn bools_made(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::List(items) | IrKind::Tuple(items) => {
                items.first().is_some_and(|x| self.makes_bool(x))
            }
            IrKind::Comprehension {
                set: false, elem, ..
            } => self.makes_bool(elem),
            IrKind::Const(v @ (Value::List(_) | Value::Tuple(_))) => {
                super::super::constant_packed(v).is_some_and(|(s, _)| s.of_bools())
            }
            // A row of coins reversed, as its mirror image is.
            IrKind::CallBuiltin(Builtin::Reversed, args) => {
                (self.shape_of(&args[0])).is_some_and(|(s, _)| s.of_bools())
            }
            _ => false,
        }
    }

    /// Makes each name of `items` that takes the items of a list of
    /// booleans (a binder's or a `for`'s, each with what it goes over)
    /// hold one: whether one was new.
    pub(super) fn bool_items<'a>(&mut self, items: impl Iterator<Item = &'a (Slot, Ir)>) -> bool {
        let mut changed = false;
        for (s, xs) in items {
            let plain = self.shape(*s) == Shape::Int && !self.is_named(*s);
            let over_bools = self.shape_of(xs).is_some_and(|(s, _)| s.of_bools());
            if plain && over_bools && !self.bools.contains(s) {
                self.bools.push(*s);
                changed = true;
            }
        }
        changed
    }
}

/// Makes each list parameter among `shapes` whose items the rules of
/// `game` read as conditions (`if cs[i]`, `not cs[i]`) a list of
/// booleans.
pub(super) fn item_params(game: &GameIr, shapes: &mut [Shape]) {
    let mut read = Vec::new();
    for rule in &game.moves {
        if let Some(guard) = &rule.guard {
            item_condition(guard, &mut read);
        }
        let mut each = |c: &Ir| item_condition(c, &mut read);
        rule.exprs().for_each(|e| conditions(e, &mut each));
        rule.exprs().for_each(|e| compared_with_bools(e, &mut read));
    }
    for s in read {
        if shapes.get(s as usize) == Some(&Shape::List) && (s as usize) < game.arity {
            shapes[s as usize] = Shape::Bools;
        }
    }
}

/// The item names of the `(i, x) in enumerate(xs)` binders and `for`s
/// of `rule`, each with its `xs`: a list of booleans makes its `x` one.
pub(super) fn enumerated(rule: &MoveIr) -> Vec<(Slot, Ir)> {
    fn item(pattern: &PatIr, domain: &Ir, out: &mut Vec<(Slot, Ir)>) {
        if let (PatIr::Tuple(parts, _), IrKind::CallBuiltin(Builtin::Enumerate, args)) =
            (pattern, &domain.kind)
            && let ([_, PatIr::Slot(x)], [xs]) = (parts.as_slice(), args.as_slice())
        {
            out.push((*x, xs.clone()));
        }
    }
    fn fors(ir: &Ir, out: &mut Vec<(Slot, Ir)>) {
        if let IrKind::Comprehension { clauses, .. } = &ir.kind {
            for c in clauses {
                if let ClauseIr::For(pattern, xs) = c {
                    item(pattern, xs, out);
                }
            }
        }
        each_child(ir, &mut |c| fors(c, out));
    }
    let mut out = Vec::new();
    for (pattern, domain) in &rule.binders {
        item(pattern, domain, &mut out);
    }
    rule.exprs().for_each(|e| fors(e, &mut out));
    out
}

/// Pushes on `out` each parameter whose item `ir` compares with a
/// boolean written out: `cs[i] == true`.
fn compared_with_bools(ir: &Ir, out: &mut Vec<Slot>) {
    if let IrKind::Binary(BinOp::Eq | BinOp::Ne, a, b) = &ir.kind {
        for (x, y) in [(a, b), (b, a)] {
            if matches!(y.kind, IrKind::Const(Value::Bool(_))) {
                item_condition(x, out);
            }
        }
    }
    each_child(ir, &mut |c| compared_with_bools(c, out));
}

/// Pushes on `out` the parameter `ir` is an item of (`cs[i]`), read as a
/// condition.
fn item_condition(ir: &Ir, out: &mut Vec<Slot>) {
    if let IrKind::Index(xs, _) = &ir.kind
        && let IrKind::Local(s) = xs.kind
    {
        out.push(s);
    }
}

/// The parameters of `game` (id `id`) that hold booleans, among the
/// first [`BOOLS_MAX`] (a flat run marks no others) and those `ints` (the
/// parameters not used as collections).
pub(super) fn params(game: &GameIr, own: &[&[Ir]], ints: impl Fn(Slot) -> bool) -> Vec<Slot> {
    let mut out = Vec::new();
    for rule in &game.moves {
        if let Some(guard) = &rule.guard {
            condition(guard, &mut out);
        }
        rule.exprs()
            .for_each(|e| conditions(e, &mut |c| condition(c, &mut out)));
    }
    // Passed a condition, or a parameter found to hold one.
    for _ in 0..=game.arity {
        let before = out.len();
        for args in own {
            for (i, a) in args.iter().enumerate().take(game.arity) {
                if boolean(a, &out) && !out.contains(&(i as Slot)) {
                    out.push(i as Slot);
                }
            }
        }
        if out.len() == before {
            break;
        }
    }
    out.retain(|s| (*s as usize) < game.arity.min(BOOLS_MAX) && ints(*s));
    out.sort_unstable();
    out.dedup();
    out
}

/// Pushes on `out` the local `ir` is, read as a condition.
fn condition(ir: &Ir, out: &mut Vec<Slot>) {
    if let IrKind::Local(s) = ir.kind
        && !out.contains(&s)
    {
        out.push(s);
    }
}

/// Calls `each` on every expression `ir` reads as a condition: an
/// operand of `not`, `and` or `or`, or the test of an `if`.
fn conditions(ir: &Ir, each: &mut impl FnMut(&Ir)) {
    match &ir.kind {
        IrKind::Unary(UnOp::Not, a) => each(a),
        IrKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            each(a);
            each(b);
        }
        IrKind::If(c, _, _) => each(c),
        _ => {}
    }
    each_child(ir, &mut |c| conditions(c, each));
}

/// Whether `ir` makes a boolean, as far as its form says: `true` or
/// `false`, a comparison, `not`, `and`, `or`, `in`, a local of `bools`,
/// or an `if` of two such.
fn boolean(ir: &Ir, bools: &[Slot]) -> bool {
    match &ir.kind {
        IrKind::Const(Value::Bool(_)) | IrKind::Unary(UnOp::Not, _) | IrKind::Chain(..) => true,
        IrKind::Binary(op, _, _) => {
            !op.is_arithmetic() && !matches!(op, BinOp::Range | BinOp::RangeIncl)
        }
        IrKind::Local(s) => bools.contains(s),
        IrKind::If(_, a, b) => boolean(a, bools) && boolean(b, bools),
        _ => false,
    }
}
