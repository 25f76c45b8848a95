//! The built-in functions' implementations, as methods of the
//! [`Machine`]: the interpreter calls [`Machine::call_builtin`] with
//! evaluated arguments. Their names and arities are in
//! [`crate::builtins`].

use crate::builtins::Builtin;
use crate::diag::Phase;
use crate::ir::{ClauseIr, Ir};
use crate::runtime::{Collect, Machine, RtResult, error};
use crate::span::Span;
use crate::value::{Position, Report, Value};
use std::rc::Rc;

/// `play(P)` anywhere but as an entry of its own in the REPL, which takes
/// it before it is evaluated (`crate::play`): a game against a person
/// needs someone at the keyboard.
fn needs_the_repl(span: Span) -> Box<crate::diag::Diagnostic> {
    Box::new(
        (*error(
            span,
            "`play(P)` works only in the REPL, as an entry of its own",
            "a game to play is asked here",
        ))
        .help("start `grundy repl FILE` and type `play(P)` alone at its prompt")
        .note("`line(P)` shows a perfect game without anyone playing"),
    )
}

/// The elements of a comprehension that `all` or `any` reads, tallied.
#[derive(Default)]
struct Truths {
    count: usize,
    some_true: bool,
    some_false: bool,
    /// The first element that is no boolean.
    not_bool: Option<Value>,
}

impl Collect for Truths {
    fn count(&self) -> usize {
        self.count
    }

    fn push(&mut self, item: Value) {
        self.count += 1;
        match item {
            Value::Bool(true) => self.some_true = true,
            Value::Bool(false) => self.some_false = true,
            _ => {
                self.not_bool.get_or_insert(item);
            }
        }
    }
}

/// The elements of a list comprehension that `len` reads: counted, and
/// not kept, so that `len([1 for x in xs if p(x)])` needs no memory for
/// its elements.
#[derive(Default)]
struct Count(usize);

impl Collect for Count {
    fn count(&self) -> usize {
        self.0
    }

    fn push(&mut self, _item: Value) {
        self.0 += 1;
    }
}

/// A query that finds the position it asks about still being evaluated
/// (see `asks_about_itself`) learns of it far from the query: the error
/// is put where the query was asked.
pub(super) fn asked_here(
    e: Box<crate::diag::Diagnostic>,
    span: Span,
) -> Box<crate::diag::Diagnostic> {
    match e.span {
        None if e.phase == Phase::Runtime => Box::new(e.at(span, "asked here")),
        _ => e,
    }
}

/// What `value(P)` or `winner(P)` says of a position of value `v`.
pub(super) fn answer(b: Builtin, v: u64) -> Value {
    match b {
        Builtin::Winner => Value::str(if v == 0 { "second" } else { "first" }),
        _ => Value::Int(v as i64),
    }
}

impl Machine {
    /// Runs a built-in on evaluated arguments (`spans` are theirs, `span` the call's).
    pub fn call_builtin(
        &mut self,
        b: Builtin,
        args: &[Value],
        spans: &[Span],
        span: Span,
    ) -> RtResult<Value> {
        let result = self.run_builtin(b, args, spans, span);
        match b.is_query() {
            true => result.map_err(|e| asked_here(e, span)),
            false => result,
        }
    }

    fn run_builtin(
        &mut self,
        b: Builtin,
        args: &[Value],
        spans: &[Span],
        span: Span,
    ) -> RtResult<Value> {
        let (min, max) = b.arity();
        if args.len() < min || max.is_some_and(|max| args.len() > max) {
            return Err(error(
                span,
                format!("`{}` cannot take {} arguments", b.name(), args.len()),
                "this call",
            ));
        }
        let arg = |i: usize| (&args[i], spans[i]);
        Ok(match b {
            Builtin::Len => Value::Int(self.len_of(&args[0], spans[0])?),
            Builtin::Min | Builtin::Max => self.extremum(b, args, spans)?,
            Builtin::Abs => match &args[0] {
                Value::Int(n) => Value::Int(n.checked_abs().ok_or_else(|| {
                    error(
                        span,
                        "integer overflow",
                        "the absolute value does not fit in 64 bits",
                    )
                })?),
                other => return Err(self.expected(spans[0], "an integer", other)),
            },
            Builtin::Sum => self.sum(arg(0))?,
            Builtin::All | Builtin::Any => {
                let items = self.items(&args[0], spans[0])?;
                let mut truths = Vec::new();
                for item in items.iter() {
                    let Value::Bool(x) = item else {
                        return Err(self.expected(spans[0], "a collection of booleans", item));
                    };
                    truths.push(*x);
                }
                Value::Bool(if b == Builtin::All {
                    truths.iter().all(|x| *x)
                } else {
                    truths.iter().any(|x| *x)
                })
            }
            Builtin::Sorted => {
                let mut items: Vec<Value> =
                    self.items(&args[0], spans[0])?.iter().cloned().collect();
                items.sort();
                Value::list(items)
            }
            Builtin::Reversed => Value::list(
                self.items(&args[0], spans[0])?
                    .iter()
                    .rev()
                    .cloned()
                    .collect(),
            ),
            Builtin::Enumerate => Value::list(
                self.items(&args[0], spans[0])?
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Value::Tuple(Rc::from([Value::Int(i as i64), v.clone()])))
                    .collect(),
            ),
            Builtin::Zip => self.zip(args, spans)?,
            Builtin::List => Value::list(self.items(&args[0], spans[0])?.iter().cloned().collect()),
            Builtin::Set => Value::Set(Rc::new(
                self.items(&args[0], spans[0])?.iter().cloned().collect(),
            )),
            Builtin::Str => Value::str(&self.show_top(&args[0])),
            Builtin::Mex => {
                let mut seen = rustc_hash::FxHashSet::default();
                for v in self.items(&args[0], spans[0])?.iter() {
                    match v {
                        Value::Int(n) => seen.insert(*n),
                        other => {
                            return Err(self.expected(spans[0], "a collection of integers", other));
                        }
                    };
                }
                Value::Int(
                    (0..)
                        .find(|k| !seen.contains(k))
                        .expect("a finite set misses some integer"),
                )
            }
            Builtin::Print => {
                if let Some(printed) = &mut self.printed {
                    printed.push((span, args.to_vec()));
                } else {
                    let text: Vec<String> = args.iter().map(|a| self.show_top(a)).collect();
                    let _ = writeln!(self.out, "{}", text.join(" "));
                }
                Value::Tuple(Rc::from([]))
            }
            Builtin::Gcd
            | Builtin::Isqrt
            | Builtin::Divisors
            | Builtin::Popcount
            | Builtin::BitLength => self.integer_builtin(b, args, spans)?,
            Builtin::Join => self.join(args, spans)?,
            Builtin::Format => self.format(args, spans, span)?,
            Builtin::Csv => self.csv(arg(0))?,
            Builtin::Value | Builtin::Winner => answer(b, self.value_of(&args[0], spans[0])?),
            Builtin::Moves => self.moves_report(arg(0))?,
            Builtin::Options => {
                let p = self.to_position(&args[0], spans[0], "the argument of `options`")?;
                let moves = self.moves_of(&p, spans[0])?;
                Value::list(moves.into_iter().map(|m| Value::Pos(m.result)).collect())
            }
            Builtin::Table => self.table(args, spans)?,
            Builtin::Line => self.line(arg(0))?,
            Builtin::Play => return Err(needs_the_repl(span)),
            Builtin::Graph => self.graph_of(args, spans)?,
            Builtin::Plot => self.plot(args, spans, span)?,
        })
    }

    /// `all([...])` or `any([...])` of a list comprehension, without
    /// building the list. Every element is evaluated, in order, as for the
    /// list, so the same errors come out; `span` is the comprehension's.
    pub fn all_or_any(
        &mut self,
        b: Builtin,
        elem: &Ir,
        clauses: &[ClauseIr],
        frame: &mut [Value],
        span: Span,
    ) -> RtResult<Value> {
        let mut truths = Truths::default();
        self.comprehension(clauses, elem, frame, &mut truths)?;
        if let Some(item) = truths.not_bool {
            return Err(self.expected(span, "a collection of booleans", &item));
        }
        Ok(Value::Bool(if b == Builtin::All {
            !truths.some_false
        } else {
            truths.some_true
        }))
    }

    /// `len` of a list comprehension: its elements are evaluated in turn
    /// (and their errors reported) as when the list is made, but only
    /// counted.
    pub fn len_of_comprehension(
        &mut self,
        elem: &Ir,
        clauses: &[ClauseIr],
        frame: &mut [Value],
    ) -> RtResult<Value> {
        let mut count = Count::default();
        self.comprehension(clauses, elem, frame, &mut count)?;
        Ok(Value::Int(count.0 as i64))
    }

    /// `sorted(xs)` of a value the caller owns: a list no one else holds,
    /// such as a comprehension's, is sorted where it is.
    pub fn sorted_owned(&mut self, xs: Value, spans: &[Span], span: Span) -> RtResult<Value> {
        let xs = match xs {
            Value::List(mut items) => match Rc::get_mut(&mut items) {
                Some(list) => {
                    list.sort();
                    return Ok(Value::List(items));
                }
                None => Value::List(items),
            },
            other => other,
        };
        self.call_builtin(Builtin::Sorted, std::slice::from_ref(&xs), spans, span)
    }

    fn expected(&self, span: Span, what: &str, found: &Value) -> Box<crate::diag::Diagnostic> {
        error(
            span,
            format!("expected {what}, found {}", found.type_name()),
            format!("this contains {}", self.show(found)),
        )
    }

    fn extremum(&mut self, b: Builtin, args: &[Value], spans: &[Span]) -> RtResult<Value> {
        let items: Vec<Value> = if args.len() == 1 {
            self.items(&args[0], spans[0])?.iter().cloned().collect()
        } else {
            args.to_vec()
        };
        let best = if b == Builtin::Min {
            items.into_iter().min()
        } else {
            items.into_iter().max()
        };
        best.ok_or_else(|| {
            error(
                spans[0],
                format!("`{}` of an empty collection", b.name()),
                "this is empty",
            )
        })
    }

    /// `sum(xs)`: integers add up; positions form their disjunctive sum.
    fn sum(&mut self, (xs, span): (&Value, Span)) -> RtResult<Value> {
        let items = self.items(xs, span)?;
        if items.iter().any(|v| matches!(v, Value::Pos(_))) {
            let mut total = Vec::with_capacity(items.iter().len());
            for v in items.iter() {
                // A position is read in place; anything else is checked.
                match v {
                    Value::Pos(p) => total.extend_from_slice(p.components()),
                    _ => {
                        let p = self.to_position(v, span, "every item of a sum of positions")?;
                        total.extend_from_slice(p.components());
                    }
                }
                self.check_size(total.len() as i64, span)?;
            }
            return Ok(Value::Pos(Position::from_components(total)));
        }
        let mut total: i64 = 0;
        for v in items.iter() {
            let Value::Int(n) = v else {
                return Err(self.expected(span, "integers or positions to sum", v));
            };
            total = total.checked_add(*n).ok_or_else(|| {
                error(span, "integer overflow", "the sum does not fit in 64 bits")
            })?;
        }
        Ok(Value::Int(total))
    }

    fn zip(&mut self, args: &[Value], spans: &[Span]) -> RtResult<Value> {
        let lists: Vec<Vec<Value>> = args
            .iter()
            .zip(spans)
            .map(|(a, s)| Ok(self.items(a, *s)?.iter().cloned().collect()))
            .collect::<RtResult<_>>()?;
        let len = lists.iter().map(Vec::len).min().unwrap_or(0);
        Ok(Value::list(
            (0..len)
                .map(|i| Value::Tuple(lists.iter().map(|l| l[i].clone()).collect()))
                .collect(),
        ))
    }

    /// `moves(P)`: a list of (component, move, result, value) that prints
    /// as a table with the winning moves marked.
    fn moves_report(&mut self, (p, span): (&Value, Span)) -> RtResult<Value> {
        let p = self.to_position(p, span, "the argument of `moves`")?;
        let value = self.position_value(&p)?;
        let moves = self.moves_of(&p, span)?;
        // Each component's position made once, shared by its moves.
        let comps: Vec<Position> = (p.components().iter())
            .map(|c| Position::from_components(vec![*c]))
            .collect();
        let items = (moves.into_iter())
            .map(|m| {
                let comp = comps[m.component].clone();
                Value::Tuple(Rc::from([
                    Value::Pos(comp),
                    Value::str(&m.name),
                    Value::Pos(m.result),
                    Value::Int(m.value as i64),
                ]))
            })
            .collect();
        Ok(Value::Report(Rc::new(Report::moves(items, p, value))))
    }

    /// The text of `moves(P)`, whose value is `value` and whose moves
    /// are `items` (as [`Machine::moves_report`] makes them): a verdict
    /// line, then a line per move, the winning ones marked.
    pub(super) fn moves_text(&self, p: &Position, value: u64, items: &[Value]) -> String {
        let part = |m: &Value, i: usize| match m {
            Value::Tuple(parts) => parts[i].clone(),
            _ => unreachable!("a move is a tuple"),
        };
        let mut rows = vec![[
            "component".to_string(),
            "move".to_string(),
            "result".to_string(),
            "value".to_string(),
        ]];
        let mut values = Vec::with_capacity(items.len());
        for m in items {
            let (Value::Pos(comp), Value::Str(name), Value::Pos(result), Value::Int(v)) =
                (part(m, 0), part(m, 1), part(m, 2), part(m, 3))
            else {
                unreachable!("a move is (component, name, result, value)");
            };
            rows.push([
                self.show_position(&comp),
                name.to_string(),
                self.show_result(&result),
                v.to_string(),
            ]);
            values.push(v);
        }
        let winning = values.iter().filter(|v| **v == 0).count();
        let verdict = match (value, values.len()) {
            (_, 0) => "no moves: the player to move loses".to_string(),
            (0, n) => format!("the second player wins: none of the {n} moves wins"),
            (_, n) => format!("the first player wins with {winning} of {n} moves"),
        };
        let mut text = format!("{}: value {value}, {verdict}", self.show_position(p));
        if values.is_empty() {
            return text;
        }
        let widths: Vec<usize> = (0..4)
            .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
            .collect();
        for (i, row) in rows.iter().enumerate() {
            let line = format!(
                "\n  {:w0$}   {:w1$}   {:w2$}   {:>w3$}",
                row[0],
                row[1],
                row[2],
                row[3],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2],
                w3 = widths[3]
            );
            text.push_str(line.trim_end());
            if i > 0 && values[i - 1] == 0 {
                text.push_str("   <- wins");
            }
        }
        text
    }
}

use std::io::Write as _;
