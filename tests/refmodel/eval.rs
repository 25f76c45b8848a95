//! The reference evaluator: slow and plain, written from the definitions
//! in docs/language.md, sharing nothing with grundy's engine.
//!
//! * The options of a game position are found by running each rule in
//!   order: the binders' domains are evaluated left to right, one nested
//!   loop per binder; the guard, then the target, are evaluated for every
//!   combination.
//! * The value of a game position is the mex of its options' values; the
//!   value of a heap `*k` is `k`; the value of a sum is the xor of its
//!   components' values.
//! * `winner` is found independently of values, by a plain win/lose search
//!   over the sum's own game tree (a move is a move in one component).

use super::{Builtin, Cmp, Expr, Op, Pattern, Query, Rule, Spec};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

/// A value. Ranges and sets are only ever iterated by the specs, so they
/// are kept as the lists of their items (sets sorted, without duplicates).
/// The derived order (booleans < integers < tuples < lists < positions)
/// is the language's order on these types.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    Bool(bool),
    Int(i64),
    Tuple(Vec<Val>),
    List(Vec<Val>),
    Pos(Vec<Component>),
}

/// A component of a sum: a game position or a non-empty Nim heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    Game(String, Vec<Val>),
    Heap(i64),
}

/// A sum of components; the empty sum is the position `0`.
pub type Position = Vec<Component>;

/// Any error: grundy must report one too (the messages are not compared).
#[derive(Clone, Debug, PartialEq)]
pub struct RefError(pub String);

pub type Res<T> = Result<T, RefError>;

fn fail<T>(msg: impl Into<String>) -> Res<T> {
    Err(RefError(msg.into()))
}

/// What one query prints: a line, or the numbers of a table (one row for
/// a one-parameter game).
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Line(String),
    Table(Vec<Vec<u64>>),
}

type Env = HashMap<String, Val>;

/// Ranges longer than this mean a generator bug, not a test case.
const MAX_RANGE: i64 = 100_000;

pub struct Reference<'a> {
    spec: &'a Spec,
    lets: Env,
    values: RefCell<HashMap<Component, u64>>,
    in_progress: RefCell<HashSet<Component>>,
    wins: RefCell<HashMap<Position, bool>>,
}

impl<'a> Reference<'a> {
    /// Runs the spec's `let`s, in order.
    pub fn new(spec: &'a Spec) -> Res<Reference<'a>> {
        let mut reference = Reference {
            spec,
            lets: Env::new(),
            values: RefCell::default(),
            in_progress: RefCell::default(),
            wins: RefCell::default(),
        };
        for (name, e) in &spec.lets {
            let v = reference.eval(e, &Env::new())?;
            reference.lets.insert(name.clone(), v);
        }
        Ok(reference)
    }

    // ---- expressions ----

    fn eval(&self, e: &Expr, env: &Env) -> Res<Val> {
        Ok(match e {
            Expr::Int(n) => Val::Int(*n),
            Expr::Var(name) => match env.get(name).or_else(|| self.lets.get(name)) {
                Some(v) => v.clone(),
                None => return fail(format!("unknown name {name}")),
            },
            Expr::Neg(a) => Val::Int(checked(self.int(a, env)?.checked_neg())?),
            Expr::Bin(op, a, b) => binary(*op, self.eval(a, env)?, self.eval(b, env)?)?,
            Expr::Chain(first, rest) => Val::Bool(self.chain(first, rest, env)?),
            Expr::And(a, b) => Val::Bool(self.boolean(a, env)? && self.boolean(b, env)?),
            Expr::Or(a, b) => Val::Bool(self.boolean(a, env)? || self.boolean(b, env)?),
            Expr::Not(a) => Val::Bool(!self.boolean(a, env)?),
            Expr::If(c, a, b) => match self.boolean(c, env)? {
                true => self.eval(a, env)?,
                false => self.eval(b, env)?,
            },
            Expr::Builtin(b, args) => {
                let args: Vec<Val> = self.eval_all(args, env)?;
                builtin(*b, args)?
            }
            Expr::Call(name, args) => {
                let args = self.eval_all(args, env)?;
                self.call(name, args)?
            }
            Expr::Range(a, b, inclusive) => {
                let (a, b) = (self.int(a, env)?, self.int(b, env)?);
                let end = if *inclusive {
                    checked(b.checked_add(1))?
                } else {
                    b
                };
                assert!(end - a <= MAX_RANGE, "the generator made a huge range {e}");
                Val::List((a..end).map(Val::Int).collect())
            }
            Expr::List(items) => Val::List(self.eval_all(items, env)?),
            Expr::Set(items) => {
                let set: BTreeSet<Val> = self.eval_all(items, env)?.into_iter().collect();
                Val::List(set.into_iter().collect())
            }
            Expr::Tuple(items) => Val::Tuple(self.eval_all(items, env)?),
            Expr::Slice(xs, a, b) => self.slice(xs, a.as_deref(), b.as_deref(), env)?,
            Expr::Comprehension {
                elem,
                var,
                over,
                cond,
            } => self.comprehension(elem, var, over, cond.as_deref(), env)?,
            Expr::Game(name, args) => {
                let args = self.eval_all(args, env)?;
                Val::Pos(vec![Component::Game(name.clone(), args)])
            }
            Expr::Heap(k) => match self.int(k, env)? {
                k if k < 0 => return fail("a negative heap"),
                0 => Val::Pos(vec![]),
                k => Val::Pos(vec![Component::Heap(k)]),
            },
            Expr::Value(p) => Val::Int(self.value(&self.position(p, env)?)? as i64),
            Expr::Let {
                pattern,
                value,
                body,
            } => {
                let mut inner = env.clone();
                bind(pattern, self.eval(value, env)?, &mut inner)?;
                self.eval(body, &inner)?
            }
        })
    }

    fn eval_all(&self, es: &[Expr], env: &Env) -> Res<Vec<Val>> {
        es.iter().map(|e| self.eval(e, env)).collect()
    }

    fn int(&self, e: &Expr, env: &Env) -> Res<i64> {
        match self.eval(e, env)? {
            Val::Int(n) => Ok(n),
            v => fail(format!("not an integer: {v:?}")),
        }
    }

    fn boolean(&self, e: &Expr, env: &Env) -> Res<bool> {
        match self.eval(e, env)? {
            Val::Bool(b) => Ok(b),
            v => fail(format!("not a boolean: {v:?}")),
        }
    }

    /// `a < b <= c` is `a < b and b <= c`, each operand evaluated at most
    /// once, stopping at the first false comparison.
    fn chain(&self, first: &Expr, rest: &[(Cmp, Expr)], env: &Env) -> Res<bool> {
        let mut left = self.eval(first, env)?;
        for (cmp, e) in rest {
            let right = self.eval(e, env)?;
            if !compare(*cmp, &left, &right)? {
                return Ok(false);
            }
            left = right;
        }
        Ok(true)
    }

    /// Python slicing: negative bounds count from the end; bounds are
    /// clamped to the list.
    fn slice(&self, xs: &Expr, a: Option<&Expr>, b: Option<&Expr>, env: &Env) -> Res<Val> {
        let Val::List(items) = self.eval(xs, env)? else {
            return fail("slicing a non-list");
        };
        let len = items.len() as i64;
        let bound = |e: Option<&Expr>, default: i64| -> Res<usize> {
            let i = match e {
                Some(e) => self.int(e, env)?,
                None => default,
            };
            let i = if i < 0 { i + len } else { i };
            Ok(i.clamp(0, len) as usize)
        };
        let (a, b) = (bound(a, 0)?, bound(b, len)?);
        Ok(Val::List(if a < b { items[a..b].to_vec() } else { vec![] }))
    }

    fn comprehension(
        &self,
        elem: &Expr,
        var: &str,
        over: &Expr,
        cond: Option<&Expr>,
        env: &Env,
    ) -> Res<Val> {
        let mut out = Vec::new();
        for item in self.items(over, env)? {
            let mut inner = env.clone();
            inner.insert(var.to_string(), item);
            if cond.map_or(Ok(true), |c| self.boolean(c, &inner))? {
                out.push(self.eval(elem, &inner)?);
            }
        }
        Ok(Val::List(out))
    }

    /// The items a binder or `for` ranges over.
    fn items(&self, e: &Expr, env: &Env) -> Res<Vec<Val>> {
        match self.eval(e, env)? {
            Val::List(items) | Val::Tuple(items) => Ok(items),
            v => fail(format!("cannot iterate over {v:?}")),
        }
    }

    /// A user function: its parameters are bound to the arguments, and
    /// nothing else of the caller is visible.
    fn call(&self, name: &str, args: Vec<Val>) -> Res<Val> {
        let Some(f) = self.spec.functions.iter().find(|f| f.name == name) else {
            return fail(format!("unknown function {name}"));
        };
        if f.params.len() != args.len() {
            return fail(format!("{name} takes {} arguments", f.params.len()));
        }
        let env: Env = f.params.iter().cloned().zip(args).collect();
        self.eval(&f.body, &env)
    }

    // ---- moves ----

    /// The options of `name(args)`, rule by rule, in order.
    pub fn options(&self, name: &str, args: &[Val]) -> Res<Vec<Position>> {
        let Some(game) = self.spec.games.iter().find(|g| g.name == name) else {
            return fail(format!("unknown game {name}"));
        };
        if game.params.len() != args.len() {
            return fail(format!("{name} takes {} arguments", game.params.len()));
        }
        let env: Env = game
            .params
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect();
        let mut out = Vec::new();
        for rule in &game.rules {
            self.expand(rule, 0, &env, &mut out)?;
        }
        Ok(out)
    }

    /// Binds binder `i` of `rule` to each item of its domain in turn (the
    /// domain evaluated with the binders before it bound), then the next
    /// one; with all bound, tests the guard and makes the target.
    fn expand(&self, rule: &Rule, i: usize, env: &Env, out: &mut Vec<Position>) -> Res<()> {
        let Some(binder) = rule.binders.get(i) else {
            let allowed = match &rule.guard {
                Some(guard) => self.boolean(guard, env)?,
                None => true,
            };
            if allowed {
                out.push(self.position(&rule.target, env)?);
            }
            return Ok(());
        };
        for item in self.items(&binder.domain, env)? {
            let mut inner = env.clone();
            bind(&binder.pattern, item, &mut inner)?;
            self.expand(rule, i + 1, &inner, out)?;
        }
        Ok(())
    }

    /// A move's target: a position, or the integer 0 (the empty position).
    fn position(&self, e: &Expr, env: &Env) -> Res<Position> {
        match self.eval(e, env)? {
            Val::Pos(p) => Ok(p),
            Val::Int(0) => Ok(vec![]),
            v => fail(format!("a target that is not a position: {v:?}")),
        }
    }

    /// Evaluates an expression that uses no local names.
    pub fn evaluate(&self, e: &Expr) -> Res<Val> {
        self.eval(e, &Env::new())
    }

    // ---- values ----

    /// The value of a sum: the xor of its components' values.
    pub fn value(&self, p: &[Component]) -> Res<u64> {
        let mut x = 0;
        for c in p {
            x ^= self.component_value(c)?;
        }
        Ok(x)
    }

    /// `*k` is worth k; a game position the mex of its options' values.
    pub fn component_value(&self, c: &Component) -> Res<u64> {
        let Component::Game(name, args) = c else {
            let Component::Heap(k) = c else {
                unreachable!()
            };
            return Ok(*k as u64);
        };
        if let Some(v) = self.values.borrow().get(c) {
            return Ok(*v);
        }
        if !self.in_progress.borrow_mut().insert(c.clone()) {
            return fail(format!("{c:?} can be reached from itself"));
        }
        let mut seen = BTreeSet::new();
        for option in self.options(name, args)? {
            seen.insert(self.value(&option)?);
        }
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        self.in_progress.borrow_mut().remove(c);
        self.values.borrow_mut().insert(c.clone(), v);
        Ok(v)
    }

    /// The positions one move away from a sum: one component replaced by
    /// one of its options.
    pub fn sum_options(&self, p: &[Component]) -> Res<Vec<Position>> {
        let mut out = Vec::new();
        for (i, c) in p.iter().enumerate() {
            let replacements: Vec<Position> = match c {
                Component::Heap(k) => (0..*k)
                    .map(|j| {
                        if j == 0 {
                            vec![]
                        } else {
                            vec![Component::Heap(j)]
                        }
                    })
                    .collect(),
                Component::Game(name, args) => self.options(name, args)?,
            };
            for r in replacements {
                let mut next: Position = p[..i].iter().chain(&p[i + 1..]).cloned().collect();
                next.extend(r);
                out.push(next);
            }
        }
        Ok(out)
    }

    /// Whether the player to move wins the sum (normal play): some move
    /// leads to a sum the other player loses. No values, no xor.
    pub fn first_player_wins(&self, p: Position) -> Res<bool> {
        let mut key = p;
        key.sort();
        if let Some(w) = self.wins.borrow().get(&key) {
            return Ok(*w);
        }
        let mut wins = false;
        for next in self.sum_options(&key)? {
            if !self.first_player_wins(next)? {
                wins = true;
                break;
            }
        }
        self.wins.borrow_mut().insert(key, wins);
        Ok(wins)
    }

    // ---- queries ----

    pub fn answer(&self, q: &Query) -> Res<Answer> {
        let env = Env::new();
        Ok(match q {
            Query::Value(p) => Answer::Line(self.value(&self.position(p, &env)?)?.to_string()),
            Query::Winner(p) => {
                let p = self.position(p, &env)?;
                // The value explores every position grundy explores (so
                // errors are met alike); the win/lose search checks it.
                let by_value = self.value(&p)? != 0;
                let wins = self.first_player_wins(p)?;
                assert_eq!(by_value, wins, "the reference contradicts itself on {q}");
                Answer::Line(if wins { "first" } else { "second" }.to_string())
            }
            Query::Values { var, over, pos } => {
                let mut values = Vec::new();
                for item in self.items(over, &env)? {
                    let inner: Env = [(var.clone(), item)].into_iter().collect();
                    values.push(self.value(&self.position(pos, &inner)?)?.to_string());
                }
                Answer::Line(format!("[{}]", values.join(", ")))
            }
            Query::Lost { var, over, pos } | Query::NimSum { var, over, pos } => {
                let (mut lost, mut sum) = (0, 0);
                for item in self.items(over, &env)? {
                    let inner: Env = [(var.clone(), item)].into_iter().collect();
                    let value = self.value(&self.position(pos, &inner)?)?;
                    lost += u64::from(value == 0);
                    sum ^= value;
                }
                let shown = if matches!(q, Query::Lost { .. }) {
                    lost
                } else {
                    sum
                };
                Answer::Line(shown.to_string())
            }
            Query::Table(name, axes) => Answer::Table(self.table(name, axes)?),
        })
    }

    /// `table(g, xs)`: one row; `table(g, xs, ys)`: a row per x.
    fn table(&self, name: &str, axes: &[Expr]) -> Res<Vec<Vec<u64>>> {
        let env = Env::new();
        let value = |args: Vec<Val>| self.component_value(&Component::Game(name.to_string(), args));
        let xs = self.items(&axes[0], &env)?;
        if axes.len() == 1 {
            let row = xs.into_iter().map(|x| value(vec![x])).collect::<Res<_>>()?;
            return Ok(vec![row]);
        }
        let ys = self.items(&axes[1], &env)?;
        let mut rows = Vec::new();
        for x in xs {
            let row = ys
                .iter()
                .map(|y| value(vec![x.clone(), y.clone()]))
                .collect::<Res<_>>()?;
            rows.push(row);
        }
        Ok(rows)
    }
}

fn checked(n: Option<i64>) -> Res<i64> {
    n.map_or_else(|| fail("integer overflow"), Ok)
}

/// Binds a name, or takes apart a tuple or list of the same length.
fn bind(pattern: &Pattern, v: Val, env: &mut Env) -> Res<()> {
    match (pattern, v) {
        (Pattern::Name(name), v) => {
            env.insert(name.clone(), v);
        }
        (Pattern::Tuple(names), Val::Tuple(items) | Val::List(items))
            if names.len() == items.len() =>
        {
            for (name, item) in names.iter().zip(items) {
                env.insert(name.clone(), item);
            }
        }
        (_, v) => return fail(format!("pattern {pattern} does not match {v:?}")),
    }
    Ok(())
}

fn binary(op: Op, a: Val, b: Val) -> Res<Val> {
    match (op, a, b) {
        (_, Val::Int(a), Val::Int(b)) => Ok(Val::Int(arith(op, a, b)?)),
        (Op::Add, Val::List(a), Val::List(b)) => Ok(Val::List([a, b].concat())),
        (Op::Add, Val::Tuple(a), Val::Tuple(b)) => Ok(Val::Tuple([a, b].concat())),
        (Op::Add, a, b) => Ok(Val::Pos([as_position(a)?, as_position(b)?].concat())),
        (op, a, b) => fail(format!("{op:?} of {a:?} and {b:?}")),
    }
}

fn as_position(v: Val) -> Res<Position> {
    match v {
        Val::Pos(p) => Ok(p),
        Val::Int(0) => Ok(vec![]),
        v => fail(format!("not a position: {v:?}")),
    }
}

/// Integer arithmetic; `/` and `%` round toward minus infinity, so the
/// remainder has the sign of the divisor.
fn arith(op: Op, a: i64, b: i64) -> Res<i64> {
    match op {
        Op::Add => checked(a.checked_add(b)),
        Op::Sub => checked(a.checked_sub(b)),
        Op::Mul => checked(a.checked_mul(b)),
        Op::Div | Op::Mod if b == 0 => fail("division by zero"),
        Op::Div => {
            let q = checked(a.checked_div(b))?;
            let inexact = q * b != a;
            Ok(if inexact && (a < 0) != (b < 0) {
                q - 1
            } else {
                q
            })
        }
        Op::Mod => {
            let q = arith(Op::Div, a, b)?;
            Ok(a - q * b)
        }
        Op::BitAnd => Ok(a & b),
        Op::BitOr => Ok(a | b),
        Op::BitXor => Ok(a ^ b),
        Op::Shl | Op::Shr if !(0..=63).contains(&b) => fail("shift out of range"),
        Op::Shl => {
            let wide = (a as i128) << b;
            i64::try_from(wide).or_else(|_| fail("integer overflow"))
        }
        Op::Shr => Ok(a >> b),
    }
}

/// `==` and `!=` compare anything; the orderings need two integers, or two
/// lists or two tuples.
fn compare(cmp: Cmp, a: &Val, b: &Val) -> Res<bool> {
    match cmp {
        Cmp::Eq => return Ok(a == b),
        Cmp::Ne => return Ok(a != b),
        _ => {}
    }
    let ordered = matches!(
        (a, b),
        (Val::Int(_), Val::Int(_)) | (Val::List(_), Val::List(_)) | (Val::Tuple(_), Val::Tuple(_))
    );
    if !ordered {
        return fail(format!("cannot order {a:?} and {b:?}"));
    }
    Ok(match cmp {
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Eq | Cmp::Ne => unreachable!(),
    })
}

fn builtin(b: Builtin, args: Vec<Val>) -> Res<Val> {
    // min and max of several arguments, or of one collection.
    let collection = |args: Vec<Val>| -> Res<Vec<Val>> {
        match <[Val; 1]>::try_from(args) {
            Ok([Val::List(items) | Val::Tuple(items)]) => Ok(items),
            Ok([v]) => fail(format!("not a collection: {v:?}")),
            Err(args) => Ok(args),
        }
    };
    match b {
        Builtin::Min => collection(args)?
            .into_iter()
            .min()
            .map_or_else(|| fail("min of nothing"), Ok),
        Builtin::Max => collection(args)?
            .into_iter()
            .max()
            .map_or_else(|| fail("max of nothing"), Ok),
        Builtin::Abs => match &args[..] {
            [Val::Int(n)] => Ok(Val::Int(checked(n.checked_abs())?)),
            _ => fail("abs of a non-integer"),
        },
        Builtin::Len => Ok(Val::Int(collection(args)?.len() as i64)),
        Builtin::Sum => {
            let mut total = 0i64;
            for v in collection(args)? {
                let Val::Int(n) = v else {
                    return fail("sum of a non-integer");
                };
                total = checked(total.checked_add(n))?;
            }
            Ok(Val::Int(total))
        }
        Builtin::Sorted => {
            let mut items = collection(args)?;
            items.sort();
            Ok(Val::List(items))
        }
        Builtin::Enumerate => Ok(Val::List(
            collection(args)?
                .into_iter()
                .enumerate()
                .map(|(i, v)| Val::Tuple(vec![Val::Int(i as i64), v]))
                .collect(),
        )),
    }
}
