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
use crate::value::Value;
use std::rc::Rc;

mod items;
mod memo;
mod positions;

pub use items::{Collect, Items, ItemsIter};
pub use memo::FnMemo;

/// When less stack than this is left, a function call continues on a new
/// segment of [`STACK_SEGMENT`] bytes.
const STACK_RED_ZONE: usize = 256 << 10;
const STACK_SEGMENT: usize = 16 << 20;

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
        // A function that calls itself on integers: its result, kept
        // (see `memo.rs`).
        let key = self.fn_memo.key(&self.defs, f, callee);
        let most = self.limits.max_depth;
        if let Some(v) = key.and_then(|k| self.fn_memo.get(&k, self.depth, most)) {
            return Ok(v);
        }
        // Room for the function's own locals, if it has any.
        if func.slots > callee.len() {
            callee.resize(func.slots, Value::Int(0));
        }
        let before = self.fn_memo.enter(self.depth);
        self.depth += 1;
        // Deep recursion runs on stack segments allocated as needed, so the
        // depth limit, not the thread's stack, decides how deep it may go.
        let result = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            self.eval(&func.body, callee)
        });
        self.depth -= 1;
        if let Ok(v) = &result {
            self.fn_memo.leave((self.depth, before), key, v);
        }
        result
    }
}

/// A game or function applied to the wrong number of arguments (possible
/// at run time when the callee is a variable holding a game).
pub(super) fn arity_error(
    name: &str,
    arity: usize,
    given: usize,
    span: Span,
    label: &str,
) -> Box<Diagnostic> {
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
mod tests;
