//! `--explain` and `:explain`: how each game's rules run, and where a
//! construct sends them down a slower path, with a spelling that does
//! not. The rules looked at are the normalised ones the compiled rules
//! are made from ([`crate::runtime::normalize`]), so what this says is what runs.
//!
//! Three speeds, fastest first: compiled rules, which run as machine code
//! or, for a long loop whose options are read from the tables by index,
//! as the fast loop; compiled rules without machine code, which compute
//! each option on their own (the general loop); and rules the compiled
//! form does not cover, which the interpreter expands, 10 to 100 times
//! slower.

use crate::builtins::Builtin;
use crate::defs::Defs;
use crate::ir::{GameIr, Ir, IrKind, MoveIr, PatIr, TargetIr, TermIr};
use crate::runtime::kernel::{
    self, Types, compiles_as_cond, compiles_as_domain, compiles_as_num, compiles_as_target,
};
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::GameId;

mod render;
pub use render::render;

/// How one game's rules run.
#[derive(Debug)]
pub struct GameReport {
    pub compiled: bool,
    /// The compiled rules run as machine code.
    pub native: bool,
    /// A board of constant shifts, swept level by level (see
    /// [`kernel::Levels`]).
    pub levels: Option<kernel::Levels>,
    /// A strip, swept row by row (see [`kernel::Strip`]).
    pub strip: Option<kernel::Strip>,
    pub moves: Vec<MoveReport>,
}

/// How one move runs: its rule's name, where it is, how it runs, and the
/// constructs that slow it down.
#[derive(Debug)]
pub struct MoveReport {
    pub name: String,
    pub span: Span,
    pub how: String,
    pub slow: Vec<Slow>,
}

/// A construct on a slower path: where, what it is, what to write instead.
#[derive(Debug, PartialEq)]
pub struct Slow {
    pub span: Span,
    pub what: String,
    pub instead: String,
}

/// How `game`'s rules run (see the module's doc).
pub fn game(game: &GameIr, defs: &Defs) -> GameReport {
    let id = match defs.lookup(&game.name) {
        Some(crate::defs::Global::Game(id)) => id,
        _ => GameId::MAX,
    };
    game_numbered(game, id, defs)
}

/// [`game`] of the rules of game `id`.
pub(crate) fn game_numbered(game: &GameIr, id: GameId, defs: &Defs) -> GameReport {
    let rules = crate::runtime::normalize::rules(game, defs);
    // How deep calls may nest changes when the code bails, not what compiles.
    let max_depth = crate::runtime::Limits::default().max_depth;
    let kernel = kernel::compile(&rules, id, defs, max_depth);
    let types = kernel::Types::of(&rules, id);
    let compiled = kernel.is_some();
    let native = kernel.as_ref().is_some_and(kernel::Kernel::is_native);
    let mut moves: Vec<MoveReport> = Vec::new();
    for rule in &rules.moves {
        // A move unrolled from a tuple binder is reported once.
        if moves.last().is_some_and(|m| m.span == rule.span) {
            continue;
        }
        let shape = match &kernel {
            Some(k) => k.move_shape(rule, &rules),
            None => kernel::move_shape(rule, &rules, id),
        };
        moves.push(match shape {
            Some(shape) if compiled => {
                let called = |f| kernel.as_ref().is_some_and(|k| k.calls_compiled(f));
                compiled_move(rule, &shape, (native, &called), defs)
            }
            Some(_) => MoveReport {
                name: rule.name.to_string(),
                span: rule.span,
                how: match kept_apart(&rules, id, defs) {
                    Some(name) => format!(
                        "interpreted: the rules make positions of `{name}` with a list, set or \
                         string where its moves pass it on, which are kept in games made for \
                         their values; at run time they compile where those are constants"
                    ),
                    None => "interpreted: this move compiles, but a game is compiled whole, and \
                             another of its moves does not"
                        .into(),
                },
                slow: Vec::new(),
            },
            None => interpreted_move(rule, defs, &types),
        });
    }
    GameReport {
        compiled,
        native,
        levels: kernel.as_ref().and_then(kernel::Kernel::levels),
        strip: kernel.as_ref().and_then(kernel::Kernel::strip),
        moves,
    }
}

fn compiled_move(
    rule: &MoveIr,
    shape: &kernel::MoveShape,
    (native, called): (bool, &dyn Fn(crate::ir::FnId) -> bool),
    defs: &Defs,
) -> MoveReport {
    let x = match rule.binders.last() {
        Some((PatIr::Slot(slot), _)) => rule
            .shown
            .iter()
            .find(|(_, s)| s == slot)
            .map(|(name, _)| name.to_string()),
        _ => None,
    };
    let mut slow = Vec::new();
    let how = match (&x, shape.fast) {
        (None, _) if native => "machine code: no binder, one option".to_string(),
        (None, _) => "compiled: no binder, one option".to_string(),
        (Some(x), _) if native && shape.lists && shape.formed => {
            format!(
                "machine code: loop over `{x}`, each option's list of a few integers read from the \
                 tables by its items"
            )
        }
        (Some(x), _) if native && shape.lists => {
            format!(
                "machine code: loop over `{x}`, each option's list or set made in place and looked up"
            )
        }
        (Some(x), _) if native && shape.packed => {
            format!(
                "machine code: loop over `{x}`, each option's arguments packed in place and looked up"
            )
        }
        (Some(x), _) if native => {
            format!("machine code: loop over `{x}`, each option's value read from the tables")
        }
        (Some(x), true) => format!("compiled: fast loop over `{x}`, options read by index"),
        (Some(x), false) => format!("compiled: general loop over `{x}`, each option computed"),
    };
    // A loop named by a tuple (the index of a `zip`, a lifted
    // comprehension's) has no name to write a narrowing condition in.
    let named = x.as_deref().is_some_and(|x| !x.starts_with('('));
    if let Some(guard) = rule.guard.as_ref().filter(|_| named) {
        let mut parts = Vec::new();
        ir_conjuncts(guard, &mut parts);
        for (span, _) in parts.iter().skip(shape.narrowed) {
            slow.push(Slow {
                span: *span,
                what: "a condition tested for every option".into(),
                instead: format!(
                    "a condition linear in the last binder (`2 * {0} < n`, `{0} != n - {0}`) or of \
                     the form `{0} * e <= f` cuts the loop short instead",
                    x.as_deref().unwrap_or("k")
                ),
            });
        }
    }
    if x.is_some() && !native && !shape.fast && shape.narrowed == shape.conjuncts {
        slow.push(Slow {
            span: rule.span,
            what: "a target not read from the tables by index".into(),
            instead: "targets of one or two games whose arguments are sums and constant \
                      multiples of the binders (`g(n - k)`, `g(a) + g(n - a)`) are read by index"
                .into(),
        });
    }
    slow.extend(unrolled_calls(rule, defs, called));
    MoveReport {
        name: rule.name.to_string(),
        span: rule.span,
        how,
        slow,
    }
}

/// The calls left in a compiled move that the compiled rules cannot make
/// (`called` says which they can): of functions that call themselves, of
/// lists, past the levels unrolled, where the run leaves the position to
/// the interpreter.
fn unrolled_calls(
    rule: &MoveIr,
    defs: &Defs,
    called: &dyn Fn(crate::ir::FnId) -> bool,
) -> Vec<Slow> {
    fn find(
        ir: &Ir,
        out: &mut Vec<(Span, crate::ir::FnId)>,
        called: &dyn Fn(crate::ir::FnId) -> bool,
    ) {
        if let IrKind::CallFn(f, _) = ir.kind
            && !called(f)
            && !out.iter().any(|(_, g)| *g == f)
        {
            out.push((ir.span, f));
        }
        crate::runtime::normalize::each_child(ir, &mut |e| find(e, out, called));
    }
    let mut calls = Vec::new();
    let targets = rule.target.exprs();
    let domains = rule.binders.iter().map(|(_, d)| d);
    for e in domains.chain(rule.guard.iter()).chain(targets) {
        find(e, &mut calls, called);
    }
    calls
        .into_iter()
        .map(|(span, f)| {
            let name = defs.fns[f as usize]
                .as_ref()
                .map_or("?".into(), |f| f.name.clone());
            let what = match crate::runtime::normalize::reaches_itself(defs, f) {
                true => format!(
                    "`{name}` calls itself, and takes or returns something other than \
                     integers and conditions: unrolled at most {} levels deep",
                    crate::runtime::normalize::INLINE_DEPTH
                ),
                false => {
                    format!("`{name}` is not inlined: the rules grew as large as inlining allows")
                }
            };
            Slow {
                span,
                what,
                instead: "a position that needs it deeper is evaluated by the interpreter, \
                          with the same result; a function of integers that returns an \
                          integer or a condition is called by the compiled rules instead"
                    .into(),
            }
        })
        .collect()
}

fn interpreted_move(rule: &MoveIr, defs: &Defs, t: &Types) -> MoveReport {
    let mut slow = Vec::new();
    for (pattern, domain) in &rule.binders {
        if let PatIr::Tuple(_, span) = pattern {
            slow.push(Slow {
                span: *span,
                what: "a tuple binder over items computed while playing".into(),
                instead: "a tuple binder is compiled when its items are constants, written out \
                          or in a `let`: `(dx, dy) in [(1, 2), (2, 1)]`, or a comprehension of \
                          tuples written in place: `(p, q) in [(a, n / a) for a in 1..n if n % a == 0]`"
                    .into(),
            });
        } else if !compiles_as_domain(domain, t) {
            slow.push(domain_culprit(domain, defs, t));
        }
    }
    if let Some(guard) = &rule.guard
        && !compiles_as_cond(guard, t)
    {
        slow.push(cond_culprit(guard, defs, t));
    }
    match &rule.target {
        TargetIr::Dynamic(e) if !compiles_as_target(e, t) => slow.push(Slow {
            span: e.span,
            what: "a target computed as a value".into(),
            instead: "write the target as a sum of games applied to arguments and heaps, \
                      such as `g(a) + g(b) + *k`, or a `sum` of a comprehension of those, \
                      such as `sum([g(p) for p in parts])`"
                .into(),
        }),
        TargetIr::Dynamic(_) => {}
        TargetIr::Terms(terms) => {
            for term in terms {
                let exprs: &[Ir] = match term {
                    TermIr::Node(_, args, _) => args,
                    TermIr::Heap(k) => std::slice::from_ref(k),
                };
                for e in exprs.iter().filter(|e| !compiles_as_num(e, t)) {
                    slow.push(num_culprit(e, defs, t));
                }
            }
        }
    }
    MoveReport {
        name: rule.name.to_string(),
        span: rule.span,
        how: "interpreted: about 10 to 100 times slower than compiled rules".into(),
        slow,
    }
}

/// The conjuncts of a guard as the compiled rules split it, with spans.
fn ir_conjuncts<'a>(ir: &'a Ir, out: &mut Vec<(Span, &'a Ir)>) {
    match &ir.kind {
        IrKind::Binary(BinOp::And, a, b) => {
            ir_conjuncts(a, out);
            ir_conjuncts(b, out);
        }
        IrKind::Chain(_, ops) => {
            // Each comparison of the chain, shown as the whole chain: an
            // inlined operand's span is where it was written, elsewhere.
            out.extend(ops.iter().map(|_| (ir.span, ir)));
        }
        _ => out.push((ir.span, ir)),
    }
}

fn domain_culprit(domain: &Ir, defs: &Defs, t: &Types) -> Slow {
    match &domain.kind {
        IrKind::Binary(BinOp::Range | BinOp::RangeIncl, lo, hi) => {
            let bad = [lo, hi].into_iter().find(|e| !compiles_as_num(e, t));
            num_culprit(bad.map_or(domain, |e| &**e), defs, t)
        }
        IrKind::List(items) | IrKind::Tuple(items) | IrKind::Set(items) => {
            match items.iter().find(|e| !compiles_as_num(e, t)) {
                Some(e) => num_culprit(e, defs, t),
                None => unexpected(domain),
            }
        }
        _ => Slow {
            span: domain.span,
            what: "a binder over a collection computed while playing".into(),
            instead: "a binder over a range (`1..=n`), over constant integers (`[1, 3, 4]`, \
                      `{1, 3, 4}`, a `let`), or over lists and sets of integers and what `+`, \
                      `|`, `&`, `-` and `^` make of them (`h in heaps`, `set(divisors(n)) - {n}`) \
                      is compiled"
                .into(),
        },
    }
}

/// The smallest part of a condition that does not compile.
fn cond_culprit(ir: &Ir, defs: &Defs, t: &Types) -> Slow {
    let children: Vec<&Ir> = match &ir.kind {
        IrKind::Binary(BinOp::And | BinOp::Or, a, b) => vec![a, b],
        IrKind::Unary(_, a) => vec![a],
        IrKind::If(c, a, b) => {
            if !compiles_as_cond(c, t) {
                return cond_culprit(c, defs, t);
            }
            vec![a, b]
        }
        IrKind::Binary(
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            a,
            b,
        ) => return first_num_culprit([&**a, &**b], ir, defs, t),
        IrKind::Chain(operands, _) => return first_num_culprit(operands.iter(), ir, defs, t),
        _ => return construct(ir, defs),
    };
    match children.into_iter().find(|c| !compiles_as_cond(c, t)) {
        Some(c) => cond_culprit(c, defs, t),
        None => construct(ir, defs),
    }
}

fn first_num_culprit<'a>(
    operands: impl IntoIterator<Item = &'a Ir>,
    whole: &Ir,
    defs: &Defs,
    t: &Types,
) -> Slow {
    match operands.into_iter().find(|e| !compiles_as_num(e, t)) {
        Some(e) => num_culprit(e, defs, t),
        None => construct(whole, defs),
    }
}

/// The smallest part of an integer expression that does not compile.
fn num_culprit(ir: &Ir, defs: &Defs, t: &Types) -> Slow {
    let children: Vec<&Ir> = match &ir.kind {
        IrKind::Unary(_, a) => vec![a],
        IrKind::Binary(_, a, b) => vec![a, b],
        IrKind::If(c, a, b) => {
            if !compiles_as_cond(c, t) {
                return cond_culprit(c, defs, t);
            }
            vec![a, b]
        }
        // `len(str(k))`: the collection is what does not compile.
        IrKind::CallBuiltin(Builtin::Len | Builtin::Sum | Builtin::Min | Builtin::Max, args)
            if args.len() == 1 && !compiles_as_domain(&args[0], t) =>
        {
            return construct(&args[0], defs);
        }
        IrKind::CallBuiltin(Builtin::Min | Builtin::Max | Builtin::Abs, args) => {
            args.iter().collect()
        }
        _ => return construct(ir, defs),
    };
    match children.into_iter().find(|c| !compiles_as_num(c, t)) {
        Some(c) => num_culprit(c, defs, t),
        None => construct(ir, defs),
    }
}

/// What `ir`, a construct the compiled rules do not take, is, and what
/// to write instead.
fn construct(ir: &Ir, defs: &Defs) -> Slow {
    let collections = "strings, and lists, tuples and sets of anything but integers, are \
                       evaluated by the interpreter; the compiled rules take integer \
                       arithmetic, comparisons, `if`, `let`, `min`, `max`, `abs`, `isqrt`, \
                       `gcd`, `popcount`, `bit_length`, `divisors`, lists and tuples of \
                       integers (`len`, indexing, slices, `+`, comprehensions, `sorted`, \
                       `reversed`, `sum`, `all`, `any`, `==`, `!=`, and `zip` of names and \
                       slices of them) and sets of integers \
                       (`{a, b}`, `set(...)`, `|`, `&`, `-`, `^`, `in`, `len`, indexing, \
                       `==`, `!=`)";
    let (what, instead): (String, String) = match &ir.kind {
        IrKind::CallFn(f, _) => {
            let name = defs.fns[*f as usize]
                .as_ref()
                .map_or("?".into(), |f| f.name.clone());
            let recursive = crate::runtime::normalize::reaches_itself(defs, *f);
            let instead = match recursive {
                true => format!(
                    "`{name}` calls itself, so it is not inlined: write the condition without \
                     the recursion, or make the recursion a game"
                ),
                false => format!(
                    "calls are inlined {} deep: call `{name}` from fewer nested functions, or \
                     write its body in the rule",
                    crate::runtime::normalize::INLINE_DEPTH
                ),
            };
            (format!("a call of `{name}` that is not inlined"), instead)
        }
        IrKind::TableOf(..) => (
            "a query, `table`, inside a rule".into(),
            "the search computes the options' values itself: make the position the target \
             of a move rather than asking for its value"
                .into(),
        ),
        IrKind::CallBuiltin(b, _) if b.is_query() => (
            format!("a query, `{}`, inside a rule", b.name()),
            "the search computes the options' values itself: make the position the target \
             of a move rather than asking for its value"
                .into(),
        ),
        IrKind::CallBuiltin(b, _) => (format!("the built-in `{}`", b.name()), collections.into()),
        IrKind::Const(v) => (format!("a constant {}", v.type_name()), collections.into()),
        IrKind::Binary(BinOp::In | BinOp::NotIn, ..) => (
            "a membership test".into(),
            "`x in S` is compiled as a binder, `k in S`, not as a condition".into(),
        ),
        IrKind::Apply(..) | IrKind::CallValue(..) => (
            "a position made inside an expression".into(),
            "positions are compiled as the targets of moves".into(),
        ),
        IrKind::Index(..)
        | IrKind::Slice(..)
        | IrKind::List(_)
        | IrKind::Tuple(_)
        | IrKind::Set(_)
        | IrKind::Comprehension { .. } => ("a collection".into(), collections.into()),
        _ => return unexpected(ir),
    };
    Slow {
        span: ir.span,
        what,
        instead,
    }
}

fn unexpected(ir: &Ir) -> Slow {
    Slow {
        span: ir.span,
        what: "an expression the compiled rules do not take".into(),
        instead:
            "integer arithmetic, comparisons, `if`, `let`, the built-ins `min`, `max`, `abs`, \
                  `isqrt`, `gcd`, `popcount` and `bit_length`, and lists, tuples and sets of \
                  integers compile"
                .into(),
    }
}

/// The name of a game other than `id` whose positions the rules make
/// with arguments at parameters its moves pass on (see
/// [`crate::runtime::instances`]), if there is one.
fn kept_apart(rules: &GameIr, id: GameId, defs: &Defs) -> Option<String> {
    rules.moves.iter().find_map(|m| {
        let TargetIr::Terms(terms) = &m.target else {
            return None;
        };
        terms.iter().find_map(|t| match t {
            TermIr::Node(g, ..) if *g != id => {
                let fixed = crate::runtime::normalize::instance::fixed(defs, *g)?;
                (!fixed.is_empty()).then(|| defs.game_name(*g).to_string())
            }
            _ => None,
        })
    })
}
