//! A top-level statement's expression, compiled when it is a query over
//! a comprehension long enough, or with loops long enough inside its
//! elements ([`kernel::query`]): `len([... if value(g(x, y)) == 0])` over
//! a board, `winner(sum([g(i) for i in 0..N]))`, `{p for p in 2..=N if
//! all([p % q != 0 for q in 2..=isqrt(p)])}`. Everything else, and any
//! query the machine code leaves, the interpreter evaluates.

use super::kernel::query::{self, Asker};
use super::kernel::{Func, Stop};
use super::{Machine, RtResult, builtins::answer, normalize};
use crate::builtins::Builtin;
use crate::graph::{STRIP3_WIDTH, Shape, View, flat};
use crate::ir::{ClauseIr, Ir, IrKind};
use crate::value::{GameId, Value};
use std::cell::Cell;
use std::rc::Rc;

mod inner;

/// `all([c for ...])` as `len([1 for ... if not c])` (the elements
/// where `c` is false), and whether it was `all`; `any([c for ...])` as
/// `len([1 for ... if c])`; and whether either was negated (`not
/// any(...)`). The interpreter makes every element and then tests each;
/// the count evaluates each `c` in the same order, and is compiled only
/// where `c` compiles as a condition, a boolean.
fn counted_truths(ir: &Ir) -> Option<(Ir, bool, bool)> {
    if let IrKind::Unary(crate::syntax::ast::UnOp::Not, inner) = &ir.kind {
        let (count, all, not) = counted_truths(inner)?;
        return Some((count, all, !not));
    }
    let (b, elem, clauses) = ir.truths()?;
    let all = b == Builtin::All;
    let test = match all {
        true => Ir {
            kind: IrKind::Unary(crate::syntax::ast::UnOp::Not, Box::new(elem.clone())),
            span: elem.span,
        },
        false => elem.clone(),
    };
    let mut clauses = clauses.to_vec();
    clauses.push(ClauseIr::If(test));
    let one = Ir {
        kind: IrKind::Const(Value::Int(1)),
        span: elem.span,
    };
    let counted = Ir {
        kind: IrKind::Comprehension {
            set: false,
            elem: Box::new(one),
            clauses,
        },
        span: ir.span,
    };
    let count = Ir {
        kind: IrKind::CallBuiltin(Builtin::Len, vec![counted]),
        span: ir.span,
    };
    Some((count, all, false))
}

impl Machine {
    /// Evaluates a top-level statement's expression `ir`, with `frame`
    /// its slots.
    pub fn eval_top(&mut self, ir: &Ir, frame: &mut [Value]) -> RtResult<Value> {
        let slots = frame.len();
        match self.compiled_query(&inner::as_set(ir), slots) {
            Some(Some(v)) => return Ok(v),
            // Left by the code: the interpreter meets what stopped it.
            Some(None) => return self.eval(ir, frame),
            None => {}
        }
        // `print(len([...]))`: each argument as a statement's, in order,
        // then the printing.
        if let IrKind::CallBuiltin(Builtin::Print, args) = &ir.kind {
            let mut values = Vec::with_capacity(args.len());
            for a in args {
                values.push(self.eval_top(a, frame)?);
            }
            let spans: Vec<_> = args.iter().map(|a| a.span).collect();
            return self.call_builtin(Builtin::Print, &values, &spans, ir.span);
        }
        if let Some(answered) = self.inner_queries(ir, frame.len()) {
            return self.eval(&answered, frame);
        }
        self.eval(ir, frame)
    }

    /// `ir`'s value by its machine code, when it is a query worth
    /// compiling ([`Machine::worth_compiling`]) and the code finishes it;
    /// `Some(None)` where the code ran and left it to the interpreter,
    /// `None` where it is no such query.
    fn compiled_query(&mut self, ir: &Ir, slots: usize) -> Option<Option<Value>> {
        use Builtin::{Len, Max, Min, Sum, Winner};
        // `all([c for ...])` as the count of the elements where `c` is
        // false (`any`: true), each still evaluated, in order.
        let (ir, truth) = match counted_truths(ir) {
            Some((count, all, not)) => (count, Some((all, not))),
            None => (ir.clone(), None),
        };
        let ir = &ir;
        match ir.kind {
            IrKind::CallBuiltin(Len | Sum | Min | Max | Builtin::Value | Winner, _) => {}
            IrKind::Comprehension { .. } => {}
            _ => return None,
        }
        let max_depth = self.limits.max_depth;
        if !self.compiled_rules()
            || !self.use_native
            || normalize::callees::nest_in_expr(ir, max_depth)
        {
            return None;
        }
        let (ir, slots) = normalize::expr(ir, slots, &self.defs);
        let ir = self.made_applications(&ir);
        let q = query::compile(&ir, slots, &self.defs, max_depth)?;
        let iterations = q.iterations(&self.defs);
        if !self.worth_compiling(&q, iterations) {
            return None;
        }
        let code = q.native()?;
        let swept = self.swept_first(&q)?;
        let views: Vec<Cell<View>> = vec![Cell::new(View::EMPTY); q.targets.len()];
        let max_items = self.limits.max_items;
        let mut searcher = Searcher {
            machine: self,
            targets: &q.targets,
            views: &views,
            turns: Turns {
                bound: q.outer_range().map(|(_, hi)| hi),
                each: Vec::new(),
            },
            collected: Vec::new(),
            rows: Vec::new(),
            shape: q.items(),
            max_items,
        };
        searcher.refresh();
        let Some(result) = code.run(&mut searcher, &views) else {
            return Some(None);
        };
        let collected = std::mem::take(&mut searcher.collected);
        let rows = std::mem::take(&mut searcher.rows);
        self.queries_compiled += 1;
        if self.compiled_queries.len() == QUERIES_KEPT {
            self.compiled_queries.pop_front();
        }
        self.compiled_queries.push_back(CompiledQuery {
            span: ir.span,
            iterations,
            swept,
        });
        let items = match q.items() {
            Some(_) => rows,
            None => integers(collected, q.collect && q.set),
        };
        Some(Some(match (q.collect, q.winner) {
            _ if let Some((all, not)) = truth => Value::Bool(((result == 0) == all) != not),
            (true, _) if q.set => Value::Set(Rc::new(items.into_iter().collect())),
            (true, _) => Value::list(items),
            (false, true) => answer(Winner, result as u64),
            (false, false) => Value::Int(result),
        }))
    }

    /// Whether compiling query `q`, whose outer loops run `iterations`
    /// times, pays: it asks positions of as many elements as
    /// [`Machine::native_after`]; or its work as arithmetic
    /// ([`query::Query::work`]: its elements, with the loops and calls
    /// inside each) is [`ARITHMETIC_COST`] times that, the interpreter
    /// running an iteration of arithmetic in a fraction of a position's
    /// time.
    fn worth_compiling(&self, q: &query::Query, iterations: u64) -> bool {
        let positions = u64::from(self.native_after);
        let arithmetic = positions * ARITHMETIC_COST;
        (!q.targets.is_empty() && iterations >= positions) || q.work(&self.defs) >= arithmetic
    }

    /// Sweeps what query `q` asks in order, as a table's is, before it
    /// runs: each position would otherwise be run alone. The games and
    /// ranges swept; `None` where a sweep stopped on an error.
    fn swept_first(&mut self, q: &query::Query) -> Option<Vec<(GameId, Vec<query::Ends>)>> {
        // A board asked square by square (a board of constant shifts is
        // swept by levels as the search meets it, which suits its moves
        // better).
        let mut swept = Vec::new();
        for (game, [xs, ys], items) in q.rectangles(&self.defs) {
            let levels = self.kernel(game).is_some_and(|k| k.levels().is_some());
            if !levels && xs.0 < xs.1 && ys.0 < ys.1 && self.corner(game, &[xs.0, ys.0], items) {
                self.sweep_rectangle(game, xs, ys).ok()?;
                swept.push((game, vec![xs, ys]));
            }
        }
        // A box of three integers, row by row of its cube.
        for (game, ends, items) in q.boxes(&self.defs) {
            if self.sweep_box(game, ends, items).ok()? {
                swept.push((game, ends.to_vec()));
            }
        }
        Some(swept)
    }
}

/// The integers a query collected, as values: each once, in order, for
/// a set (a set of a million of them is made far faster of a few
/// values than of every element).
fn integers(mut collected: Vec<i64>, set: bool) -> Vec<Value> {
    if set {
        collected.sort_unstable();
        collected.dedup();
    }
    collected.into_iter().map(Value::Int).collect()
}

/// How many of the last compiled queries [`Machine::compiled_queries`]
/// keeps: a script of a few hundred lines is told whole, a long REPL
/// session its last ones.
pub const QUERIES_KEPT: usize = 100;

/// A top-level query its machine code answered, as `--explain` tells it:
/// where it is, how many elements its loops make (as
/// [`query::Query::iterations`] counts them), and the rectangles of
/// two-integer games and boxes of three swept before it, each a game and
/// its ranges.
#[derive(Clone, Debug)]
pub struct CompiledQuery {
    pub span: crate::span::Span,
    pub iterations: u64,
    pub swept: Vec<(GameId, Vec<query::Ends>)>,
}

/// The search, answering a query's machine code, and the views of the
/// tables of the games it asks about, which the code reads itself.
struct Searcher<'a> {
    machine: &'a mut Machine,
    targets: &'a [(GameId, usize)],
    views: &'a [Cell<View>],
    turns: Turns,
    /// The elements of the list a query makes, so far: integers, or
    /// values of `shape`.
    collected: Vec<i64>,
    rows: Vec<Value>,
    shape: Option<Shape>,
    /// `--max-items`, which no list made may pass.
    max_items: usize,
}

/// How many times [`Machine::native_after`] the work of a query, counted
/// in iterations of arithmetic, is at least to be compiled by it alone:
/// the interpreter runs an iteration of arithmetic in a fraction of a
/// position's time.
const ARITHMETIC_COST: u64 = 16;

/// The positions of a one-integer game a query asks in turn (`[n for n
/// in 0..N if value(g(n)) == 0]`, or every other one, `g(2 * n)`), or of
/// a two-integer game's strip in one column (`value(g(n, 0))`): each is
/// asked once every one below it has a value, so each would be run
/// alone. After [`Turn::AFTER`] asks in a row, the positions ahead are
/// swept as a table's are, as many as the run has covered so far, and
/// never past the end of the query's outermost range (times the step
/// between asks: positions past it may cost more than all those asked,
/// as the proper-divisor game's grow with `n`): positions the query asks
/// in any case, so a game whose loops are long (`k in 1..=dsum(n)`) is
/// swept too. (A strip's column is swept only for rules whose loops are
/// short, [`crate::runtime::kernel::Kernel::short`].) The first position
/// past a sweep, the next the query asks, goes on with the run. A query asking about a few games at once (`winner(a(n) +
/// b(2 * n))`) keeps a run for each.
struct Turns {
    /// The end of the query's outermost range: nothing at or past it (or
    /// its multiple by a run's step) is swept, and nothing at all
    /// without one.
    bound: Option<i64>,
    each: Vec<Turn>,
}

impl Turns {
    /// The most games (and columns) whose runs are kept.
    const KEPT: usize = 4;

    /// Notes an ask of `game(n)` (of column `col`); the positions to
    /// sweep from `n` on, if it is time.
    fn ask(&mut self, (game, col): (GameId, i64), n: i64) -> Option<(i64, i64)> {
        let at = match self
            .each
            .iter()
            .position(|t| (t.game, t.col) == (game, col))
        {
            Some(at) => at,
            None => {
                if self.each.len() == Self::KEPT {
                    self.each.remove(0);
                }
                self.each.push(Turn {
                    game,
                    col,
                    ..Turn::default()
                });
                self.each.len() - 1
            }
        };
        self.each[at].ask(n, self.bound?)
    }

    /// Notes where the sweep of `game`'s (and `col`'s) run stopped.
    fn reached(&mut self, (game, col): (GameId, i64), end: i64) {
        if let Some(turn) = self
            .each
            .iter_mut()
            .find(|t| (t.game, t.col) == (game, col))
        {
            turn.reached = end;
        }
    }
}

/// The run of one game's (and column's) asks: see [`Turns`].
#[derive(Default)]
struct Turn {
    /// The game, and for a game of two integers whose positions lie in a
    /// strip (see [`crate::runtime::kernel::Strip`]), the column asked:
    /// then `n` is the long argument.
    game: GameId,
    col: i64,
    /// The last position asked, where the run began, the step between
    /// its asks (0 before its second), where the last sweep was to end,
    /// and where it did.
    last: Option<i64>,
    start: i64,
    step: i64,
    swept: i64,
    reached: i64,
}

impl Turn {
    const AFTER: i64 = 64;
    /// The longest step between asks of one run.
    const STEP_MOST: i64 = 8;

    /// Notes an ask of `n`; the positions to sweep from `n` on, if it is
    /// time, within `bound` times the step.
    fn ask(&mut self, n: i64, bound: i64) -> Option<(i64, i64)> {
        let step = self.last.map_or(0, |last| n.wrapping_sub(last));
        let stepped =
            (1..=Self::STEP_MOST).contains(&step) && (self.step == 0 || step == self.step);
        if stepped {
            self.step = step;
        } else if self.last.is_none() || n != self.swept {
            (self.start, self.swept, self.step, self.reached) = (n, n, 0, n);
        }
        self.last = Some(n);
        let run = n.saturating_sub(self.start);
        let bound = bound.saturating_mul(self.step.max(1));
        if run < Self::AFTER || n < self.swept || n >= bound {
            return None;
        }
        // With a step, from the positions skipped since where the last
        // sweep reached (or the run's start): a sweep goes no further
        // than a position whose options have no values.
        let from = if self.step > 1 {
            self.reached.max(self.start)
        } else {
            n
        };
        self.swept = n.saturating_add(run).min(bound);
        Some((from, self.swept))
    }
}

impl Searcher<'_> {
    /// The views as the graph is now.
    fn refresh(&self) {
        for ((game, n), view) in self.targets.iter().zip(self.views) {
            // A table of list positions is read where a position asked
            // has its form (the machine code compares the forms' codes).
            view.set(self.machine.graph.target_view(*game, *n));
        }
    }

    /// The strip's rows ahead of the position `args` of `game` asked now,
    /// of the kind `form` says (see [`crate::runtime::kernel::Strip`]),
    /// swept when the asks go up its rows one at a time.
    fn strip_ahead(&mut self, game: GameId, args: [i64; 2], form: Option<u64>) -> Option<()> {
        let kernel = self.machine.kernel(game).filter(|k| k.short());
        if let Some(strip) = kernel.and_then(|k| k.strip()).filter(|s| s.form == form)
            && let (n, col) = (args[strip.long], args[1 - strip.long])
            && let Some(ahead) = self.turns.ask((game, col), n)
        {
            self.machine.sweep_strip_range((game, col), ahead).ok()?;
        }
        Some(())
    }

    /// The rows of the strips of triples ahead of the position `args` of
    /// `game` asked now (see [`crate::runtime::kernel::strip3`]), swept
    /// when the asks go up the long argument one at a time with the
    /// same short ones.
    fn strip3_ahead(&mut self, game: GameId, args: [i64; 3]) -> Option<()> {
        let kernel = self.machine.kernel(game).filter(|k| k.short());
        if let Some(long) = kernel.and_then(|k| k.strip3())
            && let [i, j] = crate::runtime::kernel::strip3::shorts(long)
            && let seed = [args[i], args[j]]
            && (0..STRIP3_WIDTH).contains(&seed[0])
            && (0..STRIP3_WIDTH).contains(&seed[1])
            && let Some(ahead) =
                (self.turns).ask((game, seed[0] * STRIP3_WIDTH + seed[1]), args[long])
        {
            self.machine.sweep_strip3_range((game, seed), ahead).ok()?;
        }
        Some(())
    }
}

impl Asker for Searcher<'_> {
    fn value(&mut self, game: GameId, args: &[i64]) -> Option<u64> {
        let node = self.machine.intern_ints(game, args)?;
        // A hashed position (no sweep reaches it) of a game with machine
        // code: valued by it directly. The recursion changes no dense
        // table, but interning the position may have (a cube turned to
        // another axis before the triple was hashed).
        if let Some(value) = self.machine.value_in_place(node, args) {
            self.refresh();
            return Some(value);
        }
        match *args {
            [n] => {
                if let Some(ahead) = self.turns.ask((game, 0), n)
                    && self.machine.kernel(game).is_some()
                {
                    let reached = self.machine.sweep_range(game, ahead).ok()?;
                    self.turns.reached((game, 0), reached);
                }
            }
            [a, b] => self.strip_ahead(game, [a, b], None)?,
            [a, b, c] => self.strip3_ahead(game, [a, b, c])?,
            _ => {}
        }
        let value = self.machine.node_value(node).ok();
        // The search may have grown the tables.
        self.refresh();
        value
    }

    fn value_flat(&mut self, game: GameId, run: &[i64]) -> Option<u64> {
        flat::well_formed(run).then_some(())?;
        let node = self.machine.intern_flat(game, run)?;
        // A position with a boolean, of a game whose positions lie in a
        // strip (`heap(n, false)` for n = 0, 1, 2, ...).
        let mut ints = Vec::new();
        if let Some(form) = self.machine.kernel(game).and_then(|k| k.strip()?.form)
            && self.machine.graph.free_args((node, form), &mut ints)
            && let [a, b] = ints[..]
        {
            self.strip_ahead(game, [a, b], Some(form))?;
        }
        let value = self.machine.node_value(node).ok();
        self.refresh();
        value
    }

    fn stop(&mut self) -> bool {
        self.machine.poll().is_err()
    }

    fn call(&mut self, func: &Func, frame: &mut Vec<i64>) -> Result<i64, Stop> {
        func.run(frame, &self.machine.defs)
    }

    fn collect(&mut self, element: i64) -> bool {
        self.collected.push(element);
        self.collected.len() <= self.max_items
    }

    fn collect_items(&mut self, items: &[i64]) -> bool {
        if items.len() > self.max_items || self.rows.len() >= self.max_items {
            return false;
        }
        let Some(shape) = self.shape else {
            return false;
        };
        self.rows.push(flat::collection(shape, items));
        true
    }
}
