//! The interpreter of lowered expressions: [`Machine::eval`] evaluates IR
//! in a frame of slots. Move generation ([`super::moves`]) and the queries
//! ([`super::search`]) call into it; it calls back into them for
//! `value(...)`.

use super::ops::int_binary;
use super::{Machine, RtResult, error, type_error};
use crate::builtins::Builtin;
use crate::diag::{Diagnostic, Phase, count};
use crate::ir::*;
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::{Component, GameId, NodeId, Position, Value};
use std::rc::Rc;

/// When less stack than this is left, a function call continues on a new
/// segment of [`STACK_SEGMENT`] bytes.
const STACK_RED_ZONE: usize = 256 << 10;
const STACK_SEGMENT: usize = 16 << 20;

/// Where a comprehension puts its elements, one by one.
pub trait Collect {
    /// How many elements it has received.
    fn count(&self) -> usize;
    fn push(&mut self, item: Value);
    /// Exactly `n` elements come next, unless an error stops them.
    fn expect(&mut self, _n: usize) {}
}

impl Collect for Vec<Value> {
    fn count(&self) -> usize {
        self.len()
    }

    fn push(&mut self, item: Value) {
        Vec::push(self, item);
    }

    /// Room for them at once, instead of growing by doubling from 4 (up
    /// to a bound: the size limit is checked item by item).
    fn expect(&mut self, n: usize) {
        self.reserve(n.min(1024));
    }
}

/// A sequence to iterate over, held as a list, or as the set it is: a
/// binder over a constant set, run once per position, makes no list.
pub struct Items(Value);

impl Items {
    pub fn iter(&self) -> ItemsIter<'_> {
        match &self.0 {
            Value::Set(set) => ItemsIter::Set(set.iter()),
            other => ItemsIter::Slice(other.as_slice().unwrap_or(&[]).iter()),
        }
    }
}

/// The items of [`Items`], in order.
pub enum ItemsIter<'a> {
    Slice(std::slice::Iter<'a, Value>),
    Set(std::collections::btree_set::Iter<'a, Value>),
}

impl<'a> Iterator for ItemsIter<'a> {
    type Item = &'a Value;

    fn next(&mut self) -> Option<&'a Value> {
        match self {
            ItemsIter::Slice(it) => it.next(),
            ItemsIter::Set(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            ItemsIter::Slice(it) => it.size_hint(),
            ItemsIter::Set(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for ItemsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            ItemsIter::Slice(it) => it.next_back(),
            ItemsIter::Set(it) => it.next_back(),
        }
    }
}

impl ExactSizeIterator for ItemsIter<'_> {}

impl Machine {
    pub fn eval(&mut self, ir: &Ir, frame: &mut [Value]) -> RtResult<Value> {
        // Every loop of the interpreter evaluates expressions, so this is
        // where a cancelled or timed-out evaluation notices, within
        // microseconds.
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(1024) {
            self.poll()?;
        }
        Ok(match &ir.kind {
            IrKind::Const(v) => v.copy(),
            IrKind::Local(slot) => frame[*slot as usize].clone(),
            IrKind::Global(id) => self.global(*id, ir.span)?,
            IrKind::Tuple(items) => Value::Tuple(self.eval_all(items, frame)?.into()),
            IrKind::List(items) => Value::list(self.eval_all(items, frame)?),
            IrKind::Set(items) => {
                Value::Set(Rc::new(self.eval_all(items, frame)?.into_iter().collect()))
            }
            IrKind::Comprehension { set, elem, clauses } => {
                let mut out = Vec::new();
                self.comprehension(clauses, elem, frame, &mut out)?;
                if *set {
                    Value::Set(Rc::new(out.into_iter().collect()))
                } else {
                    Value::list(out)
                }
            }
            IrKind::Unary(op, x) => {
                let v = self.operand(x, frame)?;
                self.unary(*op, v, ir.span)?
            }
            IrKind::Binary(BinOp::And, l, r) => {
                Value::Bool(self.truth(l, frame)? && self.truth(r, frame)?)
            }
            IrKind::Binary(BinOp::Or, l, r) => {
                Value::Bool(self.truth(l, frame)? || self.truth(r, frame)?)
            }
            IrKind::Binary(op, l, r) => {
                let a = self.operand(l, frame)?;
                let b = self.operand(r, frame)?;
                match (&a, &b) {
                    // The common case, inline: two integers.
                    (&Value::Int(x), &Value::Int(y)) if !matches!(op, BinOp::In | BinOp::NotIn) => {
                        // Integers own nothing: forgetting them spares two
                        // out-of-line calls of their drop glue.
                        std::mem::forget((a, b));
                        int_binary(*op, x, y, ir.span)?
                    }
                    _ => self.binary(*op, a, b, ir.span)?,
                }
            }
            IrKind::If(c, a, b) => {
                let branch = if self.truth(c, frame)? { a } else { b };
                return self.operand(branch, frame);
            }
            IrKind::Chain(operands, ops) => self.chain(operands, ops, frame)?,
            IrKind::Let(pattern, value, body) => {
                let value = self.eval(value, frame)?;
                self.bind(pattern, value, frame)?;
                return self.operand(body, frame);
            }
            IrKind::CallFn(f, args) => {
                // Frames are reused: a call allocates nothing once the
                // pool holds as many as calls nest.
                let mut callee = self.frames.pop().unwrap_or_default();
                let result = self.call_fn(*f, args, frame, &mut callee, ir.span);
                callee.clear();
                self.frames.push(callee);
                result?
            }
            IrKind::CallBuiltin(b, args) => self.builtin_call(*b, args, frame, ir.span)?,
            IrKind::Apply(game, args) => {
                let node = self.apply(*game, args, frame, ir.span)?;
                Value::Pos(self.positions.get(node))
            }
            IrKind::CallValue(callee, args, hides) => {
                let callee_value = self.eval(callee, frame)?;
                let Value::Game(game) = callee_value else {
                    return Err(self.not_callable(&callee_value, callee.span, hides.as_deref()));
                };
                let node = self.apply(game, args, frame, ir.span)?;
                Value::Pos(self.positions.get(node))
            }
            IrKind::Index(x, i) => {
                if let IrKind::Local(slot) = x.kind {
                    // Reading a local can neither fail nor change anything,
                    // so it may come second, and be borrowed, not cloned.
                    let i = self.operand(i, frame)?;
                    return self.index(&frame[slot as usize], i, ir.span);
                }
                let x = self.eval(x, frame)?;
                let i = self.eval(i, frame)?;
                self.index(&x, i, ir.span)?
            }
            IrKind::Slice(x, lo, hi) => self.slice(x, lo.as_deref(), hi.as_deref(), frame)?,
            IrKind::TableOf(game, args, axes) => {
                let mut fixed = Vec::with_capacity(args.len());
                for arg in args {
                    fixed.push(match arg {
                        Some(a) => Some(self.eval(a, frame)?),
                        None => None,
                    });
                }
                let ranges = self.eval_all(axes, frame)?;
                let spans: Vec<Span> = axes.iter().map(|a| a.span).collect();
                self.table_of(*game, &fixed, &ranges, &spans, ir.span)
                    .map_err(|e| super::builtins::asked_here(e, ir.span))?
            }
        })
    }

    /// Evaluates an operand: a local or a constant, the most common ones,
    /// is read without a round through [`Machine::eval`].
    #[inline(always)]
    fn operand(&mut self, ir: &Ir, frame: &mut [Value]) -> RtResult<Value> {
        match &ir.kind {
            IrKind::Local(slot) => Ok(frame[*slot as usize].copy()),
            IrKind::Const(v) => Ok(v.copy()),
            _ => self.eval(ir, frame),
        }
    }

    /// A call of something that is no game: functions are called by
    /// name, so a callee that is a value can only be a game. `hides` is
    /// the function or built-in the callee, a local, hides.
    fn not_callable(&self, v: &Value, span: Span, hides: Option<&str>) -> Box<Diagnostic> {
        let e = error(
            span,
            format!("{} cannot be called", v.type_name()),
            format!("this is {}", self.show(v)),
        );
        Box::new(match hides {
            Some(name) => {
                let what = match crate::builtins::Builtin::from_name(name) {
                    Some(_) => "built-in",
                    None => "function",
                };
                e.help(format!(
                    "this `{name}` is a parameter or local variable, which hides the {what} \
                     `{name}`: give it another name"
                ))
            }
            None => e.help("only games and functions can be called"),
        })
    }

    fn chain(&mut self, operands: &[Ir], ops: &[BinOp], frame: &mut [Value]) -> RtResult<Value> {
        let mut left = self.operand(&operands[0], frame)?;
        for (op, operand) in ops.iter().zip(&operands[1..]) {
            let right = self.operand(operand, frame)?;
            let span = operands[0].span.to(operand.span);
            if self.binary(*op, left, right.clone(), span)? != Value::Bool(true) {
                return Ok(Value::Bool(false));
            }
            left = right;
        }
        Ok(Value::Bool(true))
    }

    /// Evaluates the arguments of a built-in and runs it. A single
    /// argument, the common case, needs no vectors, and a local variable
    /// is passed without being cloned.
    fn builtin_call(
        &mut self,
        b: Builtin,
        args: &[Ir],
        frame: &mut [Value],
        span: Span,
    ) -> RtResult<Value> {
        let [arg] = args else {
            let values = self.eval_all(args, frame)?;
            let spans: Vec<Span> = args.iter().map(|a| a.span).collect();
            return self.call_builtin(b, &values, &spans, span);
        };
        let spans = [arg.span];
        match (b, &arg.kind) {
            // The commonest query, of one position: its node is asked
            // about directly, with no position made for it.
            (Builtin::Value | Builtin::Winner, IrKind::Apply(game, game_args)) => {
                let node = self.apply(*game, game_args, frame, arg.span)?;
                let v = self
                    .value_of_node(node, arg.span)
                    .map_err(|e| super::builtins::asked_here(e, span))?;
                Ok(super::builtins::answer(b, v))
            }
            (
                Builtin::All | Builtin::Any,
                IrKind::Comprehension {
                    set: false,
                    elem,
                    clauses,
                },
            ) => self.all_or_any(b, elem, clauses, frame, arg.span),
            (
                Builtin::Len,
                IrKind::Comprehension {
                    set: false,
                    elem,
                    clauses,
                },
            ) => self.len_of_comprehension(elem, clauses, frame),
            (_, IrKind::Local(slot)) => self.call_builtin(
                b,
                std::slice::from_ref(&frame[*slot as usize]),
                &spans,
                span,
            ),
            (Builtin::Sorted, _) => {
                let value = self.eval(arg, frame)?;
                self.sorted_owned(value, &spans, span)
            }
            _ => {
                let value = self.eval(arg, frame)?;
                self.call_builtin(b, std::slice::from_ref(&value), &spans, span)
            }
        }
    }

    fn eval_all(&mut self, items: &[Ir], frame: &mut [Value]) -> RtResult<Vec<Value>> {
        items.iter().map(|e| self.eval(e, frame)).collect()
    }

    fn global(&self, id: LetId, span: Span) -> RtResult<Value> {
        let slot = &self.defs.lets[id as usize];
        slot.value
            .clone()
            .ok_or_else(|| {
                error(
                    span,
                    format!("`{}` is used before its definition has run", slot.name),
                    "not defined yet",
                )
                .also(slot.span, "defined here")
                .help(format!(
                    "statements run from top to bottom: move the `let` of `{}` above the first \
                     statement that uses it, directly or through a game or function",
                    slot.name
                ))
                .into()
            })
            .map_err(|e: Box<Diagnostic>| e)
    }

    /// Evaluates a condition, which must be a boolean.
    pub fn truth(&mut self, ir: &Ir, frame: &mut [Value]) -> RtResult<bool> {
        match self.eval(ir, frame)? {
            Value::Bool(b) => Ok(b),
            other => {
                let e = type_error(ir.span, "a boolean (true or false)", &other);
                Err(Box::new(e.help(
                    "a condition must be `true` or `false`, nothing else counts as true: \
                     compare, as in `x != 0` or `len(xs) > 0`",
                )))
            }
        }
    }

    pub fn comprehension(
        &mut self,
        clauses: &[ClauseIr],
        elem: &Ir,
        frame: &mut [Value],
        out: &mut impl Collect,
    ) -> RtResult<()> {
        match clauses.split_first() {
            None => {
                self.check_size(out.count() as i64 + 1, elem.span)?;
                out.push(self.eval(elem, frame)?);
            }
            Some((ClauseIr::If(cond), rest)) => {
                if self.truth(cond, frame)? {
                    self.comprehension(rest, elem, frame, out)?;
                }
            }
            Some((ClauseIr::For(pattern, domain), rest)) => {
                let d = self.eval(domain, frame)?;
                if let (PatIr::Slot(slot), Value::Range(lo, hi)) = (pattern, &d) {
                    if rest.is_empty() {
                        out.expect(hi.saturating_sub(*lo).max(0) as usize);
                    }
                    for k in *lo..*hi {
                        frame[*slot as usize].set_int(k);
                        self.comprehension(rest, elem, frame, out)?;
                    }
                    return Ok(());
                }
                for item in self.items(&d, domain.span)?.iter() {
                    self.bind(pattern, item.clone(), frame)?;
                    self.comprehension(rest, elem, frame, out)?;
                }
            }
        }
        Ok(())
    }

    /// The elements of anything that can be iterated over.
    pub fn items(&self, v: &Value, span: Span) -> RtResult<Items> {
        Ok(Items(match v {
            Value::List(_) | Value::Tuple(_) | Value::Report(_) | Value::Set(_) => v.clone(),
            Value::Range(lo, hi) => {
                self.check_size(self.len_of(v, span)?, span)?;
                Value::list((*lo..*hi).map(Value::Int).collect())
            }
            Value::Str(s) => Value::list(s.chars().map(|c| Value::str(&c.to_string())).collect()),
            other => {
                let e = type_error(span, "a range, list, set, tuple or string", other);
                return Err(match other {
                    Value::Int(n) if *n > 0 => Box::new(e.help(format!(
                        "for the integers from 0 to {}, write `0..{n}`; from 1 to {n}, `1..={n}`",
                        n - 1
                    ))),
                    _ => e,
                });
            }
        }))
    }

    #[inline]
    pub fn check_size(&self, len: i64, span: Span) -> RtResult<()> {
        if len > self.limits.max_items as i64 {
            return Err(self.too_large(len, span));
        }
        Ok(())
    }

    #[cold]
    fn too_large(&self, len: i64, span: Span) -> Box<Diagnostic> {
        let max = self.limits.max_items;
        Box::new(
            Diagnostic::new(
                Phase::Limit,
                format!("a sequence of {len} items is too large"),
            )
            .at(span, "this sequence")
            .help("raise the limit with --max-items, or build smaller sequences")
            .note(format!("sequences are limited to {max} items")),
        )
    }

    /// Stores `value` where `pattern` says, destructuring tuples and lists.
    pub fn bind(&mut self, pattern: &PatIr, value: Value, frame: &mut [Value]) -> RtResult<()> {
        match pattern {
            PatIr::Slot(slot) => frame[*slot as usize] = value,
            PatIr::Global(id) => self.defs.lets[*id as usize].value = Some(value),
            PatIr::Tuple(parts, span) => {
                let items = match value.as_slice() {
                    Some(items) if items.len() == parts.len() => items.to_vec(),
                    Some(items) => {
                        let e = error(
                            *span,
                            format!(
                                "cannot unpack {} items into a pattern of {}",
                                items.len(),
                                parts.len()
                            ),
                            "this pattern",
                        );
                        // Which item of a domain or list did not fit, when it is short enough to read.
                        let shown = self.show(&value);
                        return Err(if shown.chars().count() <= 60 {
                            Box::new(e.note(format!("the value to unpack is {shown}")))
                        } else {
                            e
                        });
                    }
                    None => return Err(type_error(*span, "a tuple or list to unpack", &value)),
                };
                for (p, v) in parts.iter().zip(items) {
                    self.bind(p, v, frame)?;
                }
            }
        }
        Ok(())
    }

    /// Calls function `f`: its arguments, evaluated in `frame`, fill
    /// `callee`, an empty frame the function then runs in.
    fn call_fn(
        &mut self,
        f: FnId,
        args: &[Ir],
        frame: &mut [Value],
        callee: &mut Vec<Value>,
        span: Span,
    ) -> RtResult<Value> {
        for a in args {
            callee.push(self.operand(a, frame)?);
        }
        let func = self.defs.fns[f as usize]
            .clone()
            .expect("lowering defines every function it declares");
        if callee.len() != func.arity {
            return Err(arity_error(
                &func.name,
                func.arity,
                callee.len(),
                span,
                "this call",
            ));
        }
        if self.depth >= self.limits.max_depth {
            return Err(Box::new(
                Diagnostic::new(
                    Phase::Limit,
                    format!(
                        "calls of `{}` nest deeper than {} levels",
                        func.name, self.limits.max_depth
                    ),
                )
                .at(span, "this call")
                .help(
                    "look for a recursion without a base case, or raise the limit with --max-depth",
                ),
            ));
        }
        // Room for the function's own locals, if it has any.
        if func.slots > callee.len() {
            callee.resize(func.slots, Value::Int(0));
        }
        self.depth += 1;
        // Deep recursion runs on stack segments allocated as needed, so the
        // depth limit, not the thread's stack, decides how deep it may go.
        let result = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.eval(&func.body, callee)
        });
        self.depth -= 1;
        result
    }

    /// Interns `game(args)` as a node of the graph.
    pub fn apply(
        &mut self,
        game: GameId,
        args: &[Ir],
        frame: &mut [Value],
        span: Span,
    ) -> RtResult<NodeId> {
        // The arguments go in a frame of the pool, as a call's do: a
        // position made allocates nothing.
        let mut values = self.frames.pop().unwrap_or_default();
        let mut result = Ok(());
        for a in args {
            match self.operand(a, frame) {
                Ok(v) => values.push(v),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let node = result.and_then(|()| self.intern(game, &values, span));
        values.clear();
        self.frames.push(values);
        node
    }

    /// The node of `game(args)`, added to the graph if it is new.
    pub fn intern(&mut self, game: GameId, args: &[Value], span: Span) -> RtResult<NodeId> {
        // The arity first: the graph may hold nodes made under an earlier
        // definition of the game with another number of parameters, and
        // those are no positions of the current one.
        let rules = self
            .defs
            .game(game)
            .expect("lowering defines every game it declares");
        if args.len() != rules.arity {
            return Err(arity_error(
                &rules.name,
                rules.arity,
                args.len(),
                span,
                "this position",
            ));
        }
        if let Some(node) = self.graph.find(game, args) {
            return Ok(node);
        }
        if self.graph.len() >= self.limits.max_states {
            return Err(Box::new(
                Diagnostic::new(
                    Phase::Limit,
                    format!(
                        "more than {} positions while expanding `{}`",
                        self.limits.max_states, rules.name
                    ),
                )
                .at(span, "this position is one too many")
                .help("raise the limit with --max-states, or check that the rules make positions smaller"),
            ));
        }
        Ok(self.graph.insert(game, args))
    }

    pub fn heap(&mut self, k: &Ir, frame: &mut [Value]) -> RtResult<Component> {
        match self.eval(k, frame)? {
            Value::Int(n) if n >= 0 => Ok(Component::Heap(n as u64)),
            Value::Int(n) => Err(error(
                k.span,
                format!("a Nim heap cannot have {n} tokens"),
                "negative",
            )),
            other => Err(type_error(k.span, "an integer heap size", &other)),
        }
    }

    /// A value used where a position is needed: a position, or `0`.
    pub fn to_position(&self, v: &Value, span: Span, what: &str) -> RtResult<Position> {
        match v {
            Value::Pos(p) => Ok(p.clone()),
            Value::Int(0) => Ok(Position::empty()),
            other => {
                let mut e = *error(
                    span,
                    format!("{what} must be a position, found {}", other.type_name()),
                    format!("this is {}", self.show(other)),
                );
                if let Value::Game(game) = other {
                    let name = self.defs.game_name(*game);
                    e = e.help(match self.defs.game(*game).map(|g| g.arity) {
                        Some(0) => format!("apply the game, as in `{name}()`"),
                        _ => format!("apply the game to arguments, as in `{name}(...)`"),
                    });
                }
                let all_positions = |items: &[Value]| {
                    !items.is_empty() && items.iter().all(|v| matches!(v, Value::Pos(_)))
                };
                if other.as_slice().is_some_and(all_positions) {
                    e = e.help("to play these positions side by side, add them up with `sum(...)`");
                }
                Err(Box::new(e.note(
                    "a position is a game applied to arguments such as `g(3)`, a sum `P + Q`, `*k`, or `0`",
                )))
            }
        }
    }
}

/// A game or function applied to the wrong number of arguments (possible
/// at run time when the callee is a variable holding a game).
fn arity_error(name: &str, arity: usize, given: usize, span: Span, label: &str) -> Box<Diagnostic> {
    let given = if given == 1 {
        "1 was".into()
    } else {
        format!("{given} were")
    };
    let takes = count(arity, "argument");
    error(
        span,
        format!("`{name}` takes {takes} but {given} given"),
        label,
    )
}

#[cfg(test)]
mod tests {

    /// What running `src` reports on standard error.
    fn errors(src: &str) -> String {
        let err = crate::SharedBuffer::default();
        let mut session =
            crate::session::Session::new(Box::new(std::io::sink()), Box::new(err.clone()));
        session.run("test.game", src);
        String::from_utf8(err.0.borrow().clone()).unwrap()
    }

    #[test]
    fn a_wrong_condition_domain_or_callee_says_what_is_needed() {
        let err = errors("game g(n) { move m(k in 1..=n) if k % 2 -> g(n - k) }\nvalue(g(2))");
        assert!(err.contains("compare, as in `x != 0`"), "{err}");
        let err = errors("game g(n) { move m(k in n) -> g(n - k) }\nvalue(g(3))");
        assert!(err.contains("write `0..3`; from 1 to 3, `1..=3`"), "{err}");
        let err = errors("fn f(xs, len) = len(xs)\nf([1], 3)");
        assert!(err.contains("an integer cannot be called"), "{err}");
        assert!(err.contains("this is 3"), "{err}");
        assert!(err.contains("hides the built-in `len`"), "{err}");
        let err = errors("let f = 1\nf(2)");
        assert!(
            err.contains("only games and functions can be called"),
            "{err}"
        );
    }

    #[test]
    fn a_wrong_operand_says_what_was_probably_meant() {
        let game = "game nim(n) { move take(k in 1..=n) -> nim(n - k) }\n";
        let err = errors(&format!("{game}value(nim(3) + 1)"));
        assert!(err.contains("the right side is 1"), "{err}");
        assert!(
            err.contains("a Nim heap of 1 token is written `*1`"),
            "{err}"
        );
        let err = errors(&format!("{game}value(nim)"));
        assert!(err.contains("as in `nim(...)`"), "{err}");
        let err = errors(&format!("{game}nim(3) < 2"));
        assert!(err.contains("as in `value(P) < 2`"), "{err}");
        let err = errors(&format!("{game}value([nim(1), nim(2)])"));
        assert!(err.contains("add them up with `sum(...)`"), "{err}");
        let err = errors(&format!("{game}table(nim(3), 0..3)"));
        assert!(err.contains("`table(nim, ...)`"), "{err}");
        let err = errors("\"n = \" + 3");
        assert!(err.contains("str(n)"), "{err}");
        assert!(!errors("[1] + \"a\"").contains("Help"));
    }
}
