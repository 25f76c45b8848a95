//! The interpreter of lowered expressions: the [`Machine`] holds the
//! session's definitions and transition graph, and evaluates IR in a frame
//! of slots. Move generation ([`crate::graph::expand`]) and the queries
//! ([`crate::eval`]) call into it; it calls back into them for `value(...)`.

use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::diag::{Diagnostic, Phase, count};
use crate::graph::{Graph, Running};
use crate::ir::*;
use crate::span::Span;
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::{Component, GameId, NodeId, Position, Value};
use std::collections::BTreeSet;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When less stack than this is left, a function call continues on a new
/// segment of [`STACK_SEGMENT`] bytes.
const STACK_RED_ZONE: usize = 256 << 10;
const STACK_SEGMENT: usize = 16 << 20;

/// Errors are boxed so that `Result<Value, _>` stays small on hot paths.
pub type RtResult<T> = Result<T, Box<Diagnostic>>;

/// Limits that turn runaway rule sets into errors instead of hangs. Each
/// has a command-line flag of the same name (`--max-states`, ...).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Positions interned over the whole session.
    pub max_states: usize,
    /// Nested calls of user functions.
    pub max_depth: usize,
    /// Items in one list, set, tuple, string or range made into a list.
    pub max_items: usize,
    /// Wall-clock time of one run (a command, or one REPL entry).
    pub timeout: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: 25_000_000,
            max_depth: 100_000,
            max_items: 10_000_000,
            timeout: None,
        }
    }
}

pub struct Machine {
    pub defs: Defs,
    pub graph: Graph,
    pub limits: Limits,
    depth: usize,
    /// The nodes whose rules are running.
    pub running: Running,
    /// Set from another thread (the REPL's Ctrl-C handler) to stop the
    /// evaluation under way; memoized values stay.
    pub cancel: Arc<AtomicBool>,
    /// When the run under way must stop: set by [`Machine::start_clock`].
    pub(crate) deadline: Option<Instant>,
    /// Evaluation steps, to look at `cancel` only every so often.
    ticks: u32,
    /// Emptied frames of finished function calls, to be reused.
    frames: Vec<Vec<Value>>,
    /// Where `print(...)` writes.
    pub out: Box<dyn Write>,
    /// Each game's compiled rules, with the rules they were compiled
    /// from (see [`crate::kernel`]); `None` inside when they cannot be.
    pub(crate) kernels: Vec<Option<Compiled>>,
    /// Whether to run kernels at all (`--debug no-kernels` turns them off).
    pub use_kernels: bool,
    /// Buffers the kernels reuse from one position to the next.
    pub(crate) scratch: Scratch,
}

/// A game's rules and their kernel, if they compile.
pub(crate) type Compiled = (Rc<GameIr>, Option<Rc<crate::kernel::Kernel>>);

/// Buffers reused by every kernel run.
#[derive(Default)]
pub(crate) struct Scratch {
    pub args: Vec<i64>,
    pub marks: crate::kernel::Marks,
}

pub fn error(span: Span, message: impl Into<String>, label: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Phase::Runtime, message).at(span, label))
}

/// The error that unwinds a cancelled evaluation.
fn interrupted() -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(Phase::Interrupted, "evaluation cancelled (Ctrl-C)")
            .note("every definition and every value memoized so far is kept"),
    )
}

/// The error that unwinds an evaluation past its time limit.
fn timed_out(limit: Duration) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(
            Phase::Limit,
            format!("the time limit of {} was reached", show_duration(limit)),
        )
        .help("raise the limit with --timeout, or ask about smaller positions first")
        .note("every value computed so far is kept in the session"),
    )
}

/// `1.5s`, `250ms`, `2m`: how `--timeout` is written back to the user.
pub fn show_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms.is_multiple_of(60_000) {
        format!("{}m", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

fn type_error(span: Span, expected: &str, found: &Value) -> Box<Diagnostic> {
    error(
        span,
        format!("expected {expected}, found {}", found.type_name()),
        format!("this is {}", found.type_name()),
    )
}

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

/// A sequence to iterate over, held as a list.
pub struct Items(Value);

impl Items {
    pub fn iter(&self) -> std::slice::Iter<'_, Value> {
        self.0.as_slice().unwrap_or(&[]).iter()
    }
}

impl Machine {
    pub fn new(out: Box<dyn Write>) -> Machine {
        Machine {
            defs: Defs::default(),
            graph: Graph::default(),
            limits: Limits::default(),
            depth: 0,
            running: Running::default(),
            cancel: Arc::default(),
            deadline: None,
            ticks: 0,
            frames: Vec::new(),
            out,
            kernels: Vec::new(),
            use_kernels: true,
            scratch: Scratch::default(),
        }
    }

    /// Starts the time limit, if there is one, for the run about to begin.
    pub fn start_clock(&mut self) {
        self.deadline = self.limits.timeout.map(|t| Instant::now() + t);
    }

    /// Stops the evaluation if Ctrl-C was pressed or time is up.
    pub(crate) fn poll(&self) -> RtResult<()> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(interrupted());
        }
        match (self.deadline, self.limits.timeout) {
            (Some(deadline), Some(limit)) if Instant::now() >= deadline => Err(timed_out(limit)),
            _ => Ok(()),
        }
    }

    pub fn game_ir(&self, id: GameId) -> Rc<GameIr> {
        self.defs
            .game(id)
            .cloned()
            .expect("lowering defines every game it declares")
    }

    pub fn eval(&mut self, ir: &Ir, frame: &mut [Value]) -> RtResult<Value> {
        // Every loop of the interpreter evaluates expressions, so this is
        // where a cancelled or timed-out evaluation notices, within
        // microseconds.
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(1024) {
            self.poll()?;
        }
        Ok(match &ir.kind {
            IrKind::Const(v) => v.clone(),
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
                Value::Pos(Position::node(node))
            }
            IrKind::CallValue(callee, args, hides) => {
                let callee_value = self.eval(callee, frame)?;
                let Value::Game(game) = callee_value else {
                    return Err(self.not_callable(&callee_value, callee.span, hides.as_deref()));
                };
                let node = self.apply(game, args, frame, ir.span)?;
                Value::Pos(Position::node(node))
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
        })
    }

    /// Evaluates an operand: a local or a constant, the most common ones,
    /// is read without a round through [`Machine::eval`].
    #[inline(always)]
    fn operand(&mut self, ir: &Ir, frame: &mut [Value]) -> RtResult<Value> {
        match &ir.kind {
            IrKind::Local(slot) => Ok(frame[*slot as usize].copy()),
            IrKind::Const(v) => Ok(v.clone()),
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
            (
                Builtin::All | Builtin::Any,
                IrKind::Comprehension {
                    set: false,
                    elem,
                    clauses,
                },
            ) => self.all_or_any(b, elem, clauses, frame, arg.span),
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
            Value::List(_) | Value::Tuple(_) | Value::Report(_) => v.clone(),
            Value::Set(s) => Value::list(s.iter().cloned().collect()),
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
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.eval(a, frame)?);
        }
        self.intern(game, &values, span)
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

    fn unary(&mut self, op: UnOp, v: Value, span: Span) -> RtResult<Value> {
        Ok(match (op, &v) {
            (UnOp::Neg, Value::Int(n)) => {
                Value::Int(n.checked_neg().ok_or_else(|| overflow(span))?)
            }
            (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
            (UnOp::BitNot, Value::Int(n)) => Value::Int(!n),
            (UnOp::Heap, Value::Int(n)) if *n >= 0 => {
                Value::Pos(Position::from_components(vec![Component::Heap(*n as u64)]))
            }
            (UnOp::Heap, Value::Int(n)) => {
                return Err(error(
                    span,
                    format!("a Nim heap cannot have {n} tokens"),
                    "negative",
                ));
            }
            (UnOp::Not, _) => return Err(type_error(span, "a boolean after `not`", &v)),
            (UnOp::Heap, _) => return Err(type_error(span, "an integer heap size after `*`", &v)),
            _ => return Err(type_error(span, "an integer", &v)),
        })
    }

    pub fn binary(&mut self, op: BinOp, a: Value, b: Value, span: Span) -> RtResult<Value> {
        use BinOp::*;
        use Value::{Bool, Int};
        if let (Int(x), Int(y)) = (&a, &b)
            && !matches!(op, In | NotIn)
        {
            return int_binary(op, *x, *y, span);
        }
        // A table or moves report is a list to every operator.
        let (a, b) = (a.into_list(), b.into_list());
        Ok(match (op, &a, &b) {
            (Eq, _, _) => Bool(a == b),
            (Ne, _, _) => Bool(a != b),
            (Lt | Le | Gt | Ge, Value::Str(_), Value::Str(_))
            | (Lt | Le | Gt | Ge, Value::Tuple(_), Value::Tuple(_))
            | (Lt | Le | Gt | Ge, Value::List(_), Value::List(_)) => {
                let ord = a.cmp(&b);
                Bool(match op {
                    Lt => ord.is_lt(),
                    Le => ord.is_le(),
                    Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                })
            }
            (In, _, _) => Bool(self.contains(&b, &a, span)?),
            (NotIn, _, _) => Bool(!self.contains(&b, &a, span)?),
            (BitXor, Bool(x), Bool(y)) => Bool(x ^ y),
            (Add, Value::Pos(_), _) | (Add, _, Value::Pos(_)) => {
                let p = self.summand(&a, "left", span)?;
                let q = self.summand(&b, "right", span)?;
                let parts = p.components().len() + q.components().len();
                self.check_size(parts as i64, span)?;
                Value::Pos(p.sum(&q))
            }
            (Add, Value::Str(x), Value::Str(y)) => {
                self.check_size((x.len() + y.len()) as i64, span)?;
                Value::str(&format!("{x}{y}"))
            }
            (Add, Value::List(x), Value::List(y)) => {
                self.check_size((x.len() + y.len()) as i64, span)?;
                Value::list(x.iter().chain(y.iter()).cloned().collect())
            }
            (Add, Value::Tuple(x), Value::Tuple(y)) => {
                self.check_size((x.len() + y.len()) as i64, span)?;
                Value::Tuple(x.iter().chain(y.iter()).cloned().collect())
            }
            (BitOr | BitAnd | Sub | BitXor, Value::Set(x), Value::Set(y)) => {
                let set: BTreeSet<Value> = match op {
                    BitOr => x.union(y).cloned().collect(),
                    BitAnd => x.intersection(y).cloned().collect(),
                    Sub => x.difference(y).cloned().collect(),
                    _ => x.symmetric_difference(y).cloned().collect(),
                };
                self.check_size(set.len() as i64, span)?;
                Value::Set(Rc::new(set))
            }
            (Mul, Value::List(x), Int(n)) | (Mul, Int(n), Value::List(x)) => {
                let n = (*n).max(0);
                self.check_size((x.len() as i64).saturating_mul(n), span)?;
                Value::list(
                    x.iter()
                        .cloned()
                        .cycle()
                        .take(x.len() * n as usize)
                        .collect(),
                )
            }
            _ => {
                let e = error(
                    span,
                    format!(
                        "`{}` cannot be applied to {} and {}",
                        op.symbol(),
                        a.type_name(),
                        b.type_name()
                    ),
                    format!("{} {} {}", a.type_name(), op.symbol(), b.type_name()),
                );
                return Err(match operator_help(op, &a, &b) {
                    Some(help) => Box::new(e.help(help)),
                    None => e,
                });
            }
        })
    }

    /// One side of a sum of positions; a number there was most likely
    /// meant as a Nim heap.
    fn summand(&self, v: &Value, side: &str, span: Span) -> RtResult<Position> {
        self.to_position(v, span, "each side of `+`")
            .map_err(|mut e| {
                e.label = format!("the {side} side is {}", self.show(v));
                if let Value::Int(k) = v
                    && *k > 0
                {
                    let heap = count(*k as usize, "token");
                    e.help = Some(format!("a Nim heap of {heap} is written `*{k}`"));
                }
                e
            })
    }

    fn contains(&self, container: &Value, item: &Value, span: Span) -> RtResult<bool> {
        Ok(match container {
            Value::Set(s) => s.contains(item),
            Value::Range(lo, hi) => matches!(item, Value::Int(n) if lo <= n && n < hi),
            Value::Str(s) => match item {
                Value::Str(sub) => s.contains(&**sub),
                other => return Err(type_error(span, "a string to look for in a string", other)),
            },
            other => match other.as_slice() {
                Some(items) => items.contains(item),
                None => return Err(type_error(span, "a collection after `in`", other)),
            },
        })
    }

    fn index(&self, x: &Value, i: Value, span: Span) -> RtResult<Value> {
        let Value::Int(i) = i else {
            return Err(type_error(span, "an integer index", &i));
        };
        // Lists and tuples first, the common case; out of range falls
        // through to the error below.
        if let Some(items) = x.as_slice() {
            let at = if i < 0 { i + items.len() as i64 } else { i };
            if let Some(item) = usize::try_from(at).ok().and_then(|at| items.get(at)) {
                return Ok(item.copy());
            }
        }
        let len = self.len_of(x, span)?;
        let at = if i < 0 { i + len } else { i };
        if at < 0 || at >= len {
            return Err(error(
                span,
                format!(
                    "index {i} is out of range for {} of length {len}",
                    x.type_name()
                ),
                "this index",
            ));
        }
        Ok(match x {
            Value::Range(lo, _) => Value::Int(lo + at),
            Value::Str(s) => Value::str(&s.chars().nth(at as usize).unwrap().to_string()),
            Value::Set(s) => s.iter().nth(at as usize).unwrap().clone(),
            Value::Pos(p) => {
                Value::Pos(Position::from_components(vec![p.components()[at as usize]]))
            }
            other => other.as_slice().expect("len_of accepted it")[at as usize].clone(),
        })
    }

    pub fn len_of(&self, x: &Value, span: Span) -> RtResult<i64> {
        Ok(match x {
            Value::Range(lo, hi) if hi <= lo => 0,
            Value::Range(lo, hi) => hi.checked_sub(*lo).ok_or_else(|| {
                error(
                    span,
                    format!("the range {lo}..{hi} has more than 2^63 items"),
                    "this range",
                )
            })?,
            Value::Str(s) => s.chars().count() as i64,
            Value::Set(s) => s.len() as i64,
            Value::Pos(p) => p.components().len() as i64,
            other => match other.as_slice() {
                Some(items) => items.len() as i64,
                None => return Err(type_error(span, "something with a length", other)),
            },
        })
    }

    fn slice(
        &mut self,
        x: &Ir,
        lo: Option<&Ir>,
        hi: Option<&Ir>,
        frame: &mut [Value],
    ) -> RtResult<Value> {
        let span = x.span;
        let x = self.eval(x, frame)?;
        let len = self.len_of(&x, span)?;
        let mut bound = |b: Option<&Ir>, default: i64| -> RtResult<i64> {
            let Some(b) = b else { return Ok(default) };
            match self.eval(b, frame)? {
                Value::Int(n) if n < 0 => Ok((n + len).max(0)),
                Value::Int(n) => Ok(n.min(len)),
                other => Err(type_error(b.span, "an integer slice bound", &other)),
            }
        };
        let start = bound(lo, 0)?;
        let end = bound(hi, len)?.max(start);
        let (s, e) = (start as usize, end as usize);
        Ok(match &x {
            Value::Range(a, _) => Value::Range(a + start, a + end),
            Value::Str(st) => Value::str(&st.chars().skip(s).take(e - s).collect::<String>()),
            Value::Tuple(items) => Value::Tuple(items[s..e].into()),
            Value::Set(_) | Value::Pos(_) => {
                return Err(type_error(
                    span,
                    "a list, tuple, string or range to slice",
                    &x,
                ));
            }
            other => Value::list(other.as_slice().unwrap()[s..e].to_vec()),
        })
    }

    /// Adds "while expanding ..." to an error raised by a move rule.
    /// `bound` is how many of the rule's binder names hold values yet.
    pub fn while_expanding(
        &self,
        mut e: Box<Diagnostic>,
        node: NodeId,
        rule: &MoveIr,
        frame: &[Value],
        bound: usize,
    ) -> Box<Diagnostic> {
        const MAX_TRACE: usize = 6;
        let bindings = rule.shown[..bound]
            .iter()
            .map(|(name, slot)| (&**name, &frame[*slot as usize]));
        let line = format!(
            "while expanding {}, move {}",
            self.show_node(node),
            self.show_move(&rule.name, bindings, " = ")
        );
        let trace = e
            .notes
            .iter()
            .filter(|n| n.starts_with("while expanding"))
            .count();
        if trace < MAX_TRACE {
            e.notes.push(line);
        } else if trace == MAX_TRACE {
            e.notes
                .push("while expanding ... (more positions omitted)".into());
        }
        e
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

/// What was probably meant by an operator applied to values it does not take.
fn operator_help(op: BinOp, a: &Value, b: &Value) -> Option<&'static str> {
    use BinOp::*;
    let either = |f: fn(&Value) -> bool| f(a) || f(b);
    match op {
        Lt | Le | Gt | Ge if either(|v| matches!(v, Value::Pos(_))) => {
            Some("positions are not ordered: compare their nim-values, as in `value(P) < 2`")
        }
        Add if either(|v| matches!(v, Value::Str(_))) && either(|v| matches!(v, Value::Int(_))) => {
            Some("to join them as text, convert the number first, as in `\"n = \" + str(n)`")
        }
        _ => None,
    }
}

fn overflow(span: Span) -> Box<Diagnostic> {
    error(
        span,
        "integer overflow",
        "the result does not fit in 64 bits",
    )
}

/// An operator on two integers, as [`Machine::binary`] applies it, without
/// the cases for other values (`in` is never one of these).
#[inline(always)]
fn int_binary(op: BinOp, x: i64, y: i64, span: Span) -> RtResult<Value> {
    use BinOp::*;
    Ok(match op {
        Eq => Value::Bool(x == y),
        Ne => Value::Bool(x != y),
        Lt => Value::Bool(x < y),
        Le => Value::Bool(x <= y),
        Gt => Value::Bool(x > y),
        Ge => Value::Bool(x >= y),
        Range => Value::Range(x, y),
        RangeIncl => Value::Range(x, y.checked_add(1).ok_or_else(|| overflow(span))?),
        _ => Value::Int(arith(op, x, y, span)?),
    })
}

/// Integer arithmetic: checked, with Python's floor division and modulo.
pub(crate) fn arith(op: BinOp, x: i64, y: i64, span: Span) -> RtResult<i64> {
    use BinOp::*;
    let by_zero = || error(span, "division by zero", "the right side is 0");
    let result = match op {
        Add => x.checked_add(y),
        Sub => x.checked_sub(y),
        Mul => x.checked_mul(y),
        Div if y == 0 => return Err(by_zero()),
        Rem if y == 0 => return Err(by_zero()),
        Div => x.checked_div_euclid(y).map(|q| {
            if y < 0 && x.rem_euclid(y) != 0 {
                q - 1
            } else {
                q
            }
        }),
        Rem if y == -1 => Some(0),
        Rem => x
            .checked_rem_euclid(y)
            .map(|r| if y < 0 && r != 0 { r + y } else { r }),
        Pow if y < 0 => {
            return Err(error(
                span,
                "negative exponent",
                "integers have no negative powers",
            ));
        }
        // Powers of -1, 0 and 1 never overflow, whatever the exponent.
        Pow if matches!(x, -1..=1) => Some(match (x, y) {
            (_, 0) => 1,
            (-1, y) if y % 2 == 0 => 1,
            (x, _) => x,
        }),
        Pow => u32::try_from(y).ok().and_then(|y| x.checked_pow(y)),
        BitAnd => Some(x & y),
        BitOr => Some(x | y),
        BitXor => Some(x ^ y),
        Shl | Shr if !(0..64).contains(&y) => {
            return Err(error(
                span,
                format!("a shift by {y} is out of range"),
                "shifts go from 0 to 63",
            ));
        }
        Shl => i64::try_from(i128::from(x) << y).ok(),
        Shr => Some(x >> y),
        _ => unreachable!("{op:?} is not arithmetic"),
    };
    result.ok_or_else(|| overflow(span))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor(op: BinOp, x: i64, y: i64) -> i64 {
        arith(op, x, y, Span::default()).unwrap()
    }

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

    #[test]
    fn division_and_modulo_floor_like_python() {
        assert_eq!(floor(BinOp::Div, 7, 2), 3);
        assert_eq!(floor(BinOp::Div, -7, 2), -4);
        assert_eq!(floor(BinOp::Div, 7, -2), -4);
        assert_eq!(floor(BinOp::Div, -7, -2), 3);
        assert_eq!(floor(BinOp::Rem, -7, 2), 1);
        assert_eq!(floor(BinOp::Rem, 7, -2), -1);
        assert_eq!(floor(BinOp::Rem, -7, -2), -1);
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        assert!(arith(BinOp::Add, i64::MAX, 1, Span::default()).is_err());
        assert!(arith(BinOp::Mul, i64::MAX / 2 + 1, 2, Span::default()).is_err());
        assert!(arith(BinOp::Pow, 2, 63, Span::default()).is_err());
        assert!(arith(BinOp::Shl, 1, 63, Span::default()).is_err());
        assert_eq!(floor(BinOp::Shl, -1, 63), i64::MIN);
        assert_eq!(floor(BinOp::Rem, i64::MIN, -1), 0);
        assert_eq!(floor(BinOp::Shl, 3, 2), 12);
        assert!(arith(BinOp::Div, i64::MIN, -1, Span::default()).is_err());
        let e = arith(BinOp::Shl, 1, -1, Span::default()).unwrap_err();
        assert_eq!(e.message, "a shift by -1 is out of range");
    }
}
