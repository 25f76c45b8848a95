//! The language's operators on values: unary and binary operators,
//! membership, indexing, length and slicing, and the integer arithmetic
//! under them ([`arith`]: checked, with Python's floor division), which
//! the kernels and constant folding share so that every path computes
//! the same numbers and reports the same errors.

use super::{Machine, RtResult, error, type_error};
use crate::diag::{Diagnostic, count};
use crate::ir::Ir;
use crate::span::Span;
use crate::syntax::ast::{BinOp, UnOp};
use crate::value::{Component, Position, Value};
use std::collections::BTreeSet;
use std::rc::Rc;

impl Machine {
    pub(super) fn unary(&mut self, op: UnOp, v: Value, span: Span) -> RtResult<Value> {
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
                let mut joined = String::with_capacity(x.len() + y.len());
                joined.push_str(x);
                joined.push_str(y);
                Value::str(&joined)
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
            (Mul, Value::Str(x), Int(n)) | (Mul, Int(n), Value::Str(x)) => {
                let n = (*n).max(0);
                self.check_size((x.len() as i64).saturating_mul(n), span)?;
                Value::str(&x.repeat(n as usize))
            }
            (Mul, Value::Tuple(x), Int(n)) | (Mul, Int(n), Value::Tuple(x)) => {
                Value::Tuple(self.repeated(x, *n, span)?.into())
            }
            (Mul, Value::List(x), Int(n)) | (Mul, Int(n), Value::List(x)) => {
                Value::list(self.repeated(x, *n, span)?)
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

    /// The items `xs` repeated `n` times (none for `n <= 0`), within the
    /// size limit: `xs * n` of a list or a tuple.
    fn repeated(&self, xs: &[Value], n: i64, span: Span) -> RtResult<Vec<Value>> {
        let n = n.max(0);
        self.check_size((xs.len() as i64).saturating_mul(n), span)?;
        Ok(xs
            .iter()
            .cloned()
            .cycle()
            .take(xs.len() * n as usize)
            .collect())
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

    pub(super) fn index(&self, x: &Value, i: Value, span: Span) -> RtResult<Value> {
        let Value::Int(i) = i else {
            return Err(type_error(span, "an integer index", &i));
        };
        // Lists and tuples first, the common case; out of range falls
        // through to the error below.
        if let Some(item) = x.as_slice().and_then(|items| item_at(items, i)) {
            return Ok(item.copy());
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
            // A character: by byte where every one is a byte.
            Value::Str(s) if s.is_ascii() => Value::str(&s[at as usize..at as usize + 1]),
            Value::Str(s) => {
                let c = s.chars().nth(at as usize).expect("`at` is below len_of");
                Value::str(&c.to_string())
            }
            Value::Set(s) => s
                .iter()
                .nth(at as usize)
                .expect("`at` is below len_of")
                .clone(),
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
            Value::Str(s) if s.is_ascii() => s.len() as i64,
            Value::Str(s) => s.chars().count() as i64,
            Value::Set(s) => s.len() as i64,
            Value::Pos(p) => p.components().len() as i64,
            other => match other.as_slice() {
                Some(items) => items.len() as i64,
                None => return Err(type_error(span, "something with a length", other)),
            },
        })
    }

    pub(super) fn slice(
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
            Value::Str(st) if st.is_ascii() => Value::str(&st[s..e]),
            Value::Str(st) => Value::str(&st.chars().skip(s).take(e - s).collect::<String>()),
            Value::Tuple(items) => Value::Tuple(items[s..e].into()),
            Value::Set(_) | Value::Pos(_) => {
                return Err(type_error(
                    span,
                    "a list, tuple, string or range to slice",
                    &x,
                ));
            }
            other => Value::list(other.as_slice().expect("len_of accepted it")[s..e].to_vec()),
        })
    }
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
pub(super) fn int_binary(op: BinOp, x: i64, y: i64, span: Span) -> RtResult<Value> {
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

/// Item `i` of `items` as indexing takes it, from the end for a negative
/// `i`: `None` out of range.
pub(crate) fn item_at<T>(items: &[T], i: i64) -> Option<&T> {
    let at = if i < 0 { i + items.len() as i64 } else { i };
    usize::try_from(at).ok().and_then(|at| items.get(at))
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
