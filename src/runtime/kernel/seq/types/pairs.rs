//! Which collections of a game hold pairs of integers, packed one an
//! item ([`crate::graph::flat::pack`]): parameters whose items the rules
//! read as pairs, what the rules make of pairs, and, in each move, the
//! slots that hold one pair.

use super::Types;
use crate::builtins::Builtin;
use crate::graph::Shape;
use crate::ir::{ClauseIr, GameIr, Ir, IrKind, MoveIr, PatIr, Slot};
use crate::runtime::normalize::each_child;
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// Makes each list parameter among `shapes` whose items the rules of
/// `game` read as pairs (`ps[i][0]`, `(x, y) in ps`, `p in ps` then
/// `p[1]`) a list of pairs.
pub(super) fn params(game: &GameIr, shapes: &mut [Shape]) {
    let mut pairs = Vec::new();
    for rule in &game.moves {
        for (pattern, domain) in &rule.binders {
            two_names_over(pattern, domain, &mut pairs);
        }
        rule.exprs().for_each(|e| pair_reads(e, &mut pairs));
        items_indexed(rule, &mut pairs);
    }
    for s in pairs {
        if shapes.get(s as usize) == Some(&Shape::List) && (s as usize) < game.arity {
            shapes[s as usize] = Shape::Pairs;
        }
    }
}

impl Types {
    /// `rule` with each `let (x, y) = p in body` of a pair `p` (a slot
    /// holding a packed pair, `ps[i]`, `(a, b)`) made `body` with `p[0]` and `p[1]`
    /// read for `x` and `y`: a pair has two items, always, so the two
    /// read the same, and the compiled rules read the halves of a pair.
    pub fn pair_lets(&self, rule: &MoveIr) -> MoveIr {
        crate::runtime::normalize::map_move(rule, 0, &mut |e| self.halves(e))
    }

    fn halves(&self, ir: &Ir) -> Ir {
        let ir = crate::runtime::normalize::map_children(ir, &mut |e| self.halves(e));
        let IrKind::Let(PatIr::Tuple(names, _), value, body) = &ir.kind else {
            return ir;
        };
        let ([PatIr::Slot(x), PatIr::Slot(y)], Some(_)) = (
            names.as_slice(),
            crate::runtime::kernel::expr::pair_in(value, self),
        ) else {
            return ir;
        };
        // A tuple parameter may hold other than two items, where the
        // pattern fails: its halves read by index would not (a tuple
        // state taken apart is split into integers instead, and loaded
        // only when it has two: see `normalize/split.rs`).
        if matches!(value.kind, IrKind::Local(s) if !self.is_pair(s)) {
            return ir;
        }
        let half = |k: i64| Ir {
            kind: IrKind::Index(
                value.clone(),
                Box::new(Ir {
                    kind: IrKind::Const(Value::Int(k)),
                    span: value.span,
                }),
            ),
            span: value.span,
        };
        let (hx, hy) = (half(0), half(1));
        crate::runtime::normalize::put(body, &|s| match s {
            s if s == *x => Some(hx.clone()),
            s if s == *y => Some(hy.clone()),
            _ => None,
        })
    }
    /// These types in move `rule`: with the slots of its binders and
    /// `for`s of one name over lists or sets of pairs holding pairs, over
    /// lists or sets of strings strings, over strings characters, and
    /// over lists of booleans (or their items by `enumerate`) booleans.
    /// Per move, for another move may give the same slot an integer.
    pub fn in_move(&self, rule: &MoveIr) -> Types {
        let mut t = self.clone();
        let mut over = Vec::new();
        for (pattern, domain) in &rule.binders {
            if let PatIr::Slot(s) = pattern {
                over.push((*s, domain.clone()));
            }
        }
        rule.exprs().for_each(|e| one_name_fors(e, &mut over));
        let enumerated = super::bools::enumerated(rule);
        // A `for` over what another makes is typed once that one is.
        for _ in 0..over.len() + enumerated.len() {
            let before = t.pairs.len();
            let changed = t.bool_items(over.iter().chain(&enumerated));
            for (s, domain) in &over {
                let plain = t.shape(*s) == Shape::Int && !t.is_named(*s);
                let shape = t.shape_of(domain).map(|(shape, _)| shape);
                if plain && shape.is_some_and(Shape::of_pairs) && !t.pairs.contains(s) {
                    t.pairs.push(*s);
                }
                if plain && shape == Some(Shape::Str) && !t.chars.contains(s) {
                    t.chars.push(*s);
                }
                if plain && shape.is_some_and(Shape::of_words) && !t.words.contains(s) {
                    t.words.push(*s);
                }
            }
            if t.pairs.len() == before && !changed {
                break;
            }
        }
        t
    }

    /// Whether `ir` makes a list or set of pairs, as far as its form
    /// says: a display or a comprehension of pairs, a constant of them,
    /// or such a list sorted, joined or combined.
    pub(super) fn pairs_made(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Local(s) => self.shape(*s).of_pairs(),
            IrKind::List(items) | IrKind::Set(items) | IrKind::Tuple(items) => {
                items.first().is_some_and(|x| self.pair_valued(x))
            }
            IrKind::Const(v @ (Value::List(_) | Value::Set(_) | Value::Tuple(_))) => {
                super::super::constant_packed(v).is_some_and(|(s, _)| s.of_pairs())
            }
            IrKind::Comprehension { elem, .. } => self.pair_valued(elem),
            IrKind::CallBuiltin(Builtin::Sorted | Builtin::Reversed | Builtin::Set, args) => {
                args.len() == 1 && self.pairs_made(&args[0])
            }
            IrKind::Binary(_, a, b) => self.pairs_made(a) || self.pairs_made(b),
            IrKind::Slice(x, ..) | IrKind::Let(_, _, x) => self.pairs_made(x),
            IrKind::If(_, a, b) => self.pairs_made(a) || self.pairs_made(b),
            _ => false,
        }
    }

    /// Whether `ir` is a pair: written out, a slot holding one, or an
    /// item of a list of pairs.
    fn pair_valued(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Local(s) => self.is_pair(*s),
            IrKind::Index(ps, _) => self.pairs_made(ps),
            _ => is_pair(ir),
        }
    }
}

/// Whether `ir` is a pair written out: `(a, b)`.
fn is_pair(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Tuple(items) => items.len() == 2,
        IrKind::Const(v) => is_pair_value(v),
        _ => false,
    }
}

fn is_pair_value(v: &Value) -> bool {
    matches!(v, Value::Tuple(xy) if xy.len() == 2)
}

/// Pushes on `out` the list a binder or a `for` of two names, `(x, y) in
/// ps`, goes over, when it is a slot.
fn two_names_over(pattern: &PatIr, domain: &Ir, out: &mut Vec<Slot>) {
    if let (PatIr::Tuple(names, _), IrKind::Local(s)) = (pattern, &domain.kind)
        && names.len() == 2
    {
        out.push(*s);
    }
}

/// Pushes on `out` each slot whose items a binder or a `for` of one name
/// in `rule` takes and the rule indexes (`p in cells` and `p[0]`): they
/// are collections, pairs as far as the compiled rules go.
fn items_indexed(rule: &MoveIr, out: &mut Vec<Slot>) {
    let mut indexed = Vec::new();
    let mut over = Vec::new();
    for e in rule.exprs() {
        indexed_slots(e, &mut indexed);
        one_name_fors(e, &mut over);
    }
    for (pattern, domain) in &rule.binders {
        if let PatIr::Slot(s) = pattern {
            over.push((*s, domain.clone()));
        }
    }
    for (s, domain) in over {
        if let IrKind::Local(xs) = domain.kind
            && indexed.contains(&s)
        {
            out.push(xs);
        }
    }
}

/// Pushes on `out` every slot `ir` indexes, `s[i]`, or takes apart into
/// two names, `let (x, y) = s in ...`.
fn indexed_slots(ir: &Ir, out: &mut Vec<Slot>) {
    match &ir.kind {
        IrKind::Index(x, _) | IrKind::Let(PatIr::Tuple(..), x, _) if is_two_names(ir) => {
            if let IrKind::Local(s) = x.kind {
                out.push(s);
            }
        }
        _ => {}
    }
    each_child(ir, &mut |c| indexed_slots(c, out));
}

/// Whether `ir` is an index, or a `let` of two names.
fn is_two_names(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Let(PatIr::Tuple(names, _), ..) => names.len() == 2,
        _ => true,
    }
}

/// Pushes on `out` the slot and the list of every `for` of one name in
/// `ir`.
pub(super) fn one_name_fors(ir: &Ir, out: &mut Vec<(Slot, Ir)>) {
    if let IrKind::Comprehension { clauses, .. } = &ir.kind {
        for c in clauses {
            if let ClauseIr::For(PatIr::Slot(s), xs) = c {
                out.push((*s, xs.clone()));
            }
        }
    }
    each_child(ir, &mut |c| one_name_fors(c, out));
}

/// Pushes on `out` each slot whose items `ir` reads as pairs: `ps[i][j]`,
/// `(a, b) in ps`, and `for (x, y) in ps`.
fn pair_reads(ir: &Ir, out: &mut Vec<Slot>) {
    match &ir.kind {
        // `let (x, y) = ps[i] in ...`.
        IrKind::Let(PatIr::Tuple(names, _), value, _) if names.len() == 2 => {
            if let IrKind::Index(ps, _) = &value.kind
                && let IrKind::Local(s) = ps.kind
            {
                out.push(s);
            }
        }
        IrKind::Index(inner, _) => {
            if let IrKind::Index(ps, _) = &inner.kind
                && let IrKind::Local(s) = ps.kind
            {
                out.push(s);
            }
        }
        IrKind::Binary(BinOp::In | BinOp::NotIn, x, ps) if is_pair(x) => {
            if let IrKind::Local(s) = ps.kind {
                out.push(s);
            }
        }
        IrKind::Comprehension { clauses, .. } => {
            for c in clauses {
                if let ClauseIr::For(pattern, xs) = c {
                    two_names_over(pattern, xs, out);
                }
            }
        }
        _ => {}
    }
    each_child(ir, &mut |c| pair_reads(c, out));
}
