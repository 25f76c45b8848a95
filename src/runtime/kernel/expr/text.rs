//! Conditions and numbers on text compiled: characters compared as
//! their code points, and strings sought in strings or lists of them.

use super::compile::{cond_in, member, num_in};
use super::{Cond, Num};
use crate::graph::Shape;
use crate::ir::{Ir, IrKind};
use crate::runtime::kernel::seq::{Rows, Seq, Types};
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// `a op b` of two characters, as their code points: `s[j] == "c"` of a
/// string `s` (a constant one, a row of a constant list of strings, a
/// grid: `B[x][y] == "."`, or a string the position holds), or of two
/// characters of strings. One-character strings compare as their code
/// points do. Indexing counts characters, and from the end, for strings
/// as for lists, and fails outside both, which bails: the comparison
/// holds where it held.
pub(super) fn characters(op: BinOp, a: &Ir, b: &Ir, t: &Types) -> Option<Cond> {
    Some(Cond::Cmp(op, character(a, t)?, character(b, t)?))
}

/// `c in s` (or `not in`) of a character `c` as [`characters`] reads it,
/// and a string `s`: one character is in a string where it is one of its
/// characters.
pub(super) fn character_in(yes: bool, x: &Ir, xs: &Ir, t: &Types) -> Option<Cond> {
    let string = match &xs.kind {
        IrKind::Const(Value::Str(s)) => {
            let codes = s.chars().map(|c| Num::Const(u32::from(c).into())).collect();
            Seq::Items(crate::graph::Shape::List, codes)
        }
        _ => Seq::compile(xs, t).filter(|s| s.shape(t) == crate::graph::Shape::Str)?,
    };
    Some(member(yes, character(x, t)?, string, t))
}

/// `w in ws` (or `not in`) of a string and a list or set of strings.
pub(super) fn word_member(yes: bool, w: &Ir, ws: &Ir, t: &Types) -> Option<Cond> {
    let ws = Seq::words(ws, t)?;
    Some(member(
        yes,
        crate::runtime::kernel::seq::word_in(w, t)?,
        ws,
        t,
    ))
}

/// `t in s` (or `not in`) of two strings, `t` of any length: whether it
/// runs somewhere in `s` (`"XXX" in s`).
pub(super) fn within(yes: bool, t: &Ir, s: &Ir, types: &Types) -> Option<Cond> {
    let string = |e: &Ir| Seq::compile(e, types).filter(|s| s.shape(types) == Shape::Str);
    Some(Cond::Within(
        yes,
        Box::new(string(t)?),
        Box::new(string(s)?),
    ))
}

/// The code point of a one-character literal, of a name that holds a
/// character (`for c in s`), of `s[j]`, a character of a string (a
/// constant string or a row of a constant list of strings, read in
/// place, or a string the rules make), or of `if c then a else b` of
/// those.
pub fn character(e: &Ir, t: &Types) -> Option<Num> {
    let (string, j) = match &e.kind {
        IrKind::If(c, a, b) => {
            let (a, b) = (character(a, t)?, character(b, t)?);
            return Some(Num::If(Box::new(cond_in(c, t)?), Box::new(a), Box::new(b)));
        }
        IrKind::Const(Value::Str(s)) => {
            let mut chars = s.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return None;
            };
            return Some(Num::Const(u32::from(c).into()));
        }
        IrKind::Index(string, j) => (string, j),
        IrKind::Local(c) if t.is_char(*c) => return Some(Num::Slot(*c)),
        _ => return None,
    };
    let made = || Seq::compile(string, t).filter(|s| s.shape(t) == crate::graph::Shape::Str);
    let row = match &string.kind {
        IrKind::Const(s @ Value::Str(_)) => Seq::Row(Rows::of_strings(s)?, Box::new(Num::Const(0))),
        IrKind::Index(rows, i) => match &rows.kind {
            IrKind::Const(v @ Value::List(_)) => {
                Seq::Row(Rows::of_strings(v)?, Box::new(num_in(i, t)?))
            }
            _ => made()?,
        },
        _ => made()?,
    };
    Some(Num::Index(Box::new(row), Box::new(num_in(j, t)?)))
}
