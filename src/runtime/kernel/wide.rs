//! Whether a kernel may take parameters of any size. Linear forms
//! ([`super::expr::Lin`]) are evaluated without overflow checks, which is
//! exact only while the slots they read are below [`SLOT_LIMIT`]; every
//! other expression is checked as the interpreter checks it. So a kernel
//! with no linear form anywhere (the divide-by-2/3/6 game: `n / d`,
//! `n > 0`) runs positions from 10^15 as well as small ones.
//!
//! [`SLOT_LIMIT`]: super::expr::SLOT_LIMIT

use super::expr::{Cond, Num};
use super::seq::{Clause, Comp, Seq, Source};
use super::{Arg, Domain, Move, Narrow, Term};
use super::{Kernel, compile_typed};
use crate::defs::Defs;
use crate::ir::GameIr;
use crate::value::GameId;

/// A twin of a game's kernel for positions whose integer parameters are
/// past [`SLOT_LIMIT`] (heaps from 10^12), where its own evaluates linear
/// forms: the same rules compiled with none (`n - 1` an expression
/// checked as the interpreter checks it, no loop narrowed by a linear
/// condition, no fast loop). `None` when they still have one, or take
/// lists.
pub fn compile_wide(game: &GameIr, id: GameId, defs: &Defs, max_depth: usize) -> Option<Kernel> {
    let kernel = compile_typed(game, (id, &[]), defs, (max_depth, true))?;
    (kernel.wide && kernel.lists.is_none()).then_some(kernel)
}

/// Whether no part of `moves` evaluates a linear form.
pub(super) fn linear_free(moves: &[Move]) -> bool {
    moves.iter().all(|m| {
        m.fast.is_none()
            && m.binders.iter().all(|(_, d)| domain(d))
            && m.guard.iter().all(cond)
            && m.narrow.iter().all(|n| match n {
                Narrow::Once => true,
                Narrow::Linear(..) => false,
                // Its parts are checked against the limit when evaluated.
                Narrow::Affine(..) => true,
                Narrow::Monotone(_, f, g) => num(f) && num(g),
                Narrow::Divides(n) | Narrow::Multiple(n) => num(n),
                Narrow::Filter(f) => cond(f.cond()),
            })
            && m.terms.iter().all(term)
    })
}

fn arg(a: &Arg) -> bool {
    match a {
        Arg::Int(n) => num(n),
        Arg::Seq(xs) => seq(xs),
    }
}

fn term(t: &Term) -> bool {
    match t {
        Term::Node(_, args) => args.iter().all(num),
        Term::Heap(k) => num(k),
        Term::Flat(_, _, args) => args.iter().all(arg),
        Term::Sum(c) => clauses(c) && c.elem.iter().all(term),
    }
}

fn domain(d: &Domain) -> bool {
    match d {
        Domain::Range(lo, hi, _) => num(lo) && num(hi),
        Domain::Items(items) => items.iter().all(num),
        Domain::Global(_) | Domain::Fixed(_) => true,
        Domain::Seq(xs) | Domain::Split(_, xs, _) => seq(xs),
    }
}

fn num(n: &Num) -> bool {
    match n {
        Num::Lin(_) => false,
        Num::Const(_) | Num::Slot(_) | Num::Named(_) | Num::Global(_) | Num::Bail => true,
        Num::Let(_, a, b) => num(a) && num(b),
        Num::Neg(a) | Num::BitNot(a) | Num::Abs(a) | Num::Isqrt(a) | Num::Bits(_, a) => num(a),
        Num::Gcd(a, b) | Num::Pair(a, b) => num(a) && num(b),
        Num::Bin(_, a, b) => num(a) && num(b),
        Num::If(c, a, b) => cond(c) && num(a) && num(b),
        Num::Extremum(_, items) => items.iter().all(num),
        Num::Len(xs) | Num::Fold(_, xs) | Num::Pack(xs) => seq(xs),
        Num::Index(xs, i) => seq(xs) && num(i),
        Num::Value(_, args) | Num::Call(_, args) => args.iter().all(num),
        Num::Ask(_, asked) => asked.1.iter().all(arg),
    }
}

fn cond(c: &Cond) -> bool {
    match c {
        Cond::Quant(_, comp) => clauses(comp) && cond(&comp.elem),
        Cond::In { x, xs, .. } => num(x) && seq(xs),
        Cond::Member(_, x, _) => num(x),
        Cond::Same(_, xs, ys) | Cond::Less(_, xs, ys) | Cond::Within(_, xs, ys) => {
            seq(xs) && seq(ys)
        }
        Cond::Bind(_, xs, body) => seq(xs) && cond(body),
        _ => c
            .parts()
            .is_some_and(|(nums, conds)| nums.into_iter().all(num) && conds.into_iter().all(cond)),
    }
}

fn seq(xs: &Seq) -> bool {
    match xs {
        Seq::Slot(_) => true,
        Seq::Items(_, items) => items.iter().all(num),
        Seq::Concat(a, b) => seq(a) && seq(b),
        Seq::Repeat(a, k) => seq(a) && num(k),
        Seq::Slice(a, lo, hi) => seq(a) && lo.iter().chain(hi).all(num),
        Seq::Comp(c) | Seq::Kept(c) => clauses(c) && num(&c.elem),
        Seq::Sorted(a) | Seq::Reversed(a) => seq(a),
        Seq::Divisors(n) => num(n),
        Seq::Range(r) => num(&r.0) && num(&r.1),
        Seq::Let(_, n, xs) => num(n) && seq(xs),
        Seq::If(c, a, b) => cond(c) && seq(a) && seq(b),
        Seq::Bind(_, value, body) => seq(value) && seq(body),
        Seq::Row(_, i) | Seq::Word(i) => num(i),
        Seq::SetOf(a) => seq(a),
        Seq::SetOp(_, a, b) => seq(a) && seq(b),
    }
}

fn clauses<E>(comp: &Comp<E>) -> bool {
    comp.clauses.iter().all(|c| match c {
        Clause::For(_, Source::Range(lo, hi, _)) => num(lo) && num(hi),
        Clause::For(_, Source::Seq(xs)) | Clause::Split(.., xs) => seq(xs),
        Clause::If(c) | Clause::While(c, _) => cond(c),
    })
}
