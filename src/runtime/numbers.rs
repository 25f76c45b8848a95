//! The everyday helpers among the built-ins: integer functions (`gcd`,
//! `isqrt`, `divisors`, `popcount`, `bit_length`) and string building
//! (`join`, `format`). [`Machine::call_builtin`] dispatches to them; every
//! bad input is a diagnostic at the argument that caused it.

use crate::builtins::{Builtin, FORMAT_HELP, format_mismatch, format_pieces};
use crate::runtime::{Machine, RtResult, error};
use crate::span::Span;
use crate::value::Value;

/// Trial divisions between two looks at Ctrl-C and the time limit.
const POLL_EVERY: u64 = 1 << 16;

impl Machine {
    /// `gcd`, `isqrt`, `divisors`, `popcount` or `bit_length`.
    pub(super) fn integer_builtin(
        &mut self,
        b: Builtin,
        args: &[Value],
        spans: &[Span],
    ) -> RtResult<Value> {
        let n = int_arg(b, &args[0], spans[0])?;
        Ok(match b {
            Builtin::Gcd => {
                let m = int_arg(b, &args[1], spans[1])?;
                Value::Int(gcd(n, m).ok_or_else(|| {
                    error(
                        spans[0].to(spans[1]),
                        "integer overflow",
                        "the greatest common divisor is 2^63, which does not fit in 64 bits",
                    )
                })?)
            }
            Builtin::Isqrt => Value::Int(natural(b, n, spans[0])?.isqrt()),
            Builtin::Popcount => Value::Int(natural(b, n, spans[0])?.count_ones().into()),
            Builtin::BitLength => {
                Value::Int((64 - natural(b, n, spans[0])?.leading_zeros()).into())
            }
            Builtin::Divisors => {
                if n < 1 {
                    return Err(Box::new(
                        error(
                            spans[0],
                            format!("`divisors` needs a positive integer, found {n}"),
                            "this is not positive",
                        )
                        .help("every integer divides 0, and the divisors of -n are those of n"),
                    ));
                }
                Value::list(self.divisors(n)?.into_iter().map(Value::Int).collect())
            }
            _ => unreachable!("`{}` is not an integer built-in", b.name()),
        })
    }

    /// The divisors of `n >= 1` in increasing order, by trial division up
    /// to √n: instant for the numbers of games, some seconds for a prime
    /// near 2^63 (3·10^9 divisions), and Ctrl-C or `--timeout` stop it on
    /// the way.
    fn divisors(&self, n: i64) -> RtResult<Vec<i64>> {
        let (mut small, mut large) = (Vec::new(), Vec::new());
        let root = n.isqrt();
        for d in 1..=root {
            if (d as u64).is_multiple_of(POLL_EVERY) {
                self.poll()?;
            }
            if n % d == 0 {
                small.push(d);
                if d != n / d {
                    large.push(n / d);
                }
            }
        }
        small.extend(large.into_iter().rev());
        Ok(small)
    }

    /// `join(strings, sep)`: the strings of a collection with `sep` between.
    pub(super) fn join(&mut self, args: &[Value], spans: &[Span]) -> RtResult<Value> {
        let Value::Str(sep) = &args[1] else {
            return Err(not_a_string("the separator of `join`", &args[1], spans[1]));
        };
        let items = self.items(&args[0], spans[0])?;
        let mut text = String::new();
        for (i, item) in items.iter().enumerate() {
            let Value::Str(s) = item else {
                return Err(Box::new(
                    error(
                        spans[0],
                        format!(
                            "`join` needs a collection of strings, but item {i} is {}",
                            item.type_name()
                        ),
                        format!("this contains {}", self.show(item)),
                    )
                    .help("make each item a string first: `join([str(x) for x in xs], sep)`"),
                ));
            };
            if i > 0 {
                text.push_str(sep);
            }
            text.push_str(s);
            self.check_size(text.len() as i64, spans[0])?;
        }
        Ok(Value::str(&text))
    }

    /// `format(template, args...)`: each `{}` of the template replaced by
    /// the next argument as `print` shows it; `{{` and `}}` are braces.
    pub(super) fn format(&mut self, args: &[Value], spans: &[Span], span: Span) -> RtResult<Value> {
        let Value::Str(template) = &args[0] else {
            return Err(not_a_string("the template of `format`", &args[0], spans[0]));
        };
        let pieces = format_pieces(template).map_err(|e| {
            let error = error(spans[0], e.message, "this template");
            Box::new(
                error
                    .note(format!("at character {} of the template", e.at + 1))
                    .help(FORMAT_HELP),
            )
        })?;
        let (holes, given) = (pieces.len() - 1, args.len() - 1);
        if holes != given {
            return Err(error(span, format_mismatch(holes, given), "this call"));
        }
        let mut text = pieces[0].clone();
        for (arg, piece) in args[1..].iter().zip(&pieces[1..]) {
            text.push_str(&self.show_top(arg));
            text.push_str(piece);
            self.check_size(text.len() as i64, span)?;
        }
        Ok(Value::str(&text))
    }
}

fn int_arg(b: Builtin, v: &Value, span: Span) -> RtResult<i64> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(error(
            span,
            format!(
                "`{}` needs an integer, found {}",
                b.name(),
                other.type_name()
            ),
            format!("this is {}", other.type_name()),
        )),
    }
}

/// `n` as a count of bits or a square: negative numbers have neither.
fn natural(b: Builtin, n: i64, span: Span) -> RtResult<i64> {
    if n < 0 {
        return Err(Box::new(
            error(
                span,
                format!("`{}` needs a non-negative integer, found {n}", b.name()),
                "this is negative",
            )
            .help(format!("`{}(abs(n))` takes the magnitude", b.name())),
        ));
    }
    Ok(n)
}

fn not_a_string(what: &str, v: &Value, span: Span) -> Box<crate::diag::Diagnostic> {
    error(
        span,
        format!("{what} must be a string, found {}", v.type_name()),
        format!("this is {}", v.type_name()),
    )
}

/// `gcd(a, b)` as the language has it: of the magnitudes, `gcd(0, 0) ==
/// 0`; `None` when it is 2⁶³, which does not fit (an overflow). The
/// compiled rules share it.
pub(crate) fn gcd(a: i64, b: i64) -> Option<i64> {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::loaded;

    fn call(b: Builtin, args: &[Value]) -> RtResult<Value> {
        let (mut session, _) = loaded("");
        let spans = vec![Span::default(); args.len()];
        session
            .machine
            .call_builtin(b, args, &spans, Span::default())
    }

    fn int(b: Builtin, args: &[i64]) -> RtResult<Value> {
        call(b, &args.iter().map(|n| Value::Int(*n)).collect::<Vec<_>>())
    }

    fn message(r: RtResult<Value>) -> String {
        r.expect_err("an error").message.clone()
    }

    #[test]
    fn gcd_takes_magnitudes_and_refuses_2_to_the_63() {
        assert_eq!(int(Builtin::Gcd, &[12, 18]).unwrap(), Value::Int(6));
        assert_eq!(int(Builtin::Gcd, &[-12, 18]).unwrap(), Value::Int(6));
        assert_eq!(int(Builtin::Gcd, &[0, 0]).unwrap(), Value::Int(0));
        assert_eq!(int(Builtin::Gcd, &[0, -7]).unwrap(), Value::Int(7));
        assert_eq!(
            int(Builtin::Gcd, &[i64::MIN, 6]).unwrap(),
            Value::Int(2),
            "2^63 and 6 share only 2"
        );
        assert_eq!(
            message(int(Builtin::Gcd, &[i64::MIN, 0])),
            "integer overflow"
        );
        assert_eq!(
            message(call(Builtin::Gcd, &[Value::Int(1), Value::str("2")])),
            "`gcd` needs an integer, found a string"
        );
    }

    #[test]
    fn isqrt_is_the_floor_of_the_square_root() {
        for n in 0..2000 {
            let Value::Int(r) = int(Builtin::Isqrt, &[n]).unwrap() else {
                panic!("an integer");
            };
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "isqrt({n}) = {r}");
        }
        assert_eq!(
            int(Builtin::Isqrt, &[i64::MAX]).unwrap(),
            Value::Int(3_037_000_499)
        );
        assert!(message(int(Builtin::Isqrt, &[-1])).contains("non-negative"));
    }

    #[test]
    fn divisors_match_every_candidate_checked() {
        for n in 1..300i64 {
            let brute: Vec<Value> = (1..=n).filter(|d| n % d == 0).map(Value::Int).collect();
            assert_eq!(int(Builtin::Divisors, &[n]).unwrap(), Value::list(brute));
        }
        // A perfect square lists its root once.
        assert_eq!(
            int(Builtin::Divisors, &[49]).unwrap(),
            Value::list([1, 7, 49].map(Value::Int).to_vec())
        );
        assert!(message(int(Builtin::Divisors, &[0])).contains("positive"));
        assert!(message(int(Builtin::Divisors, &[-6])).contains("positive"));
    }

    #[test]
    fn bits_are_counted_of_non_negative_integers() {
        assert_eq!(int(Builtin::Popcount, &[0]).unwrap(), Value::Int(0));
        assert_eq!(int(Builtin::Popcount, &[0b1011]).unwrap(), Value::Int(3));
        assert_eq!(int(Builtin::Popcount, &[i64::MAX]).unwrap(), Value::Int(63));
        assert_eq!(int(Builtin::BitLength, &[0]).unwrap(), Value::Int(0));
        assert_eq!(int(Builtin::BitLength, &[1]).unwrap(), Value::Int(1));
        assert_eq!(int(Builtin::BitLength, &[8]).unwrap(), Value::Int(4));
        assert_eq!(
            int(Builtin::BitLength, &[i64::MAX]).unwrap(),
            Value::Int(63)
        );
        assert!(message(int(Builtin::Popcount, &[-1])).contains("non-negative"));
        assert!(message(int(Builtin::BitLength, &[-1])).contains("non-negative"));
    }

    #[test]
    fn join_puts_the_separator_between_strings_only() {
        let words = Value::list(vec![Value::str("a"), Value::str("b"), Value::str("c")]);
        assert_eq!(
            call(Builtin::Join, &[words, Value::str(", ")]).unwrap(),
            Value::str("a, b, c")
        );
        assert_eq!(
            call(Builtin::Join, &[Value::list(vec![]), Value::str("-")]).unwrap(),
            Value::str("")
        );
        let numbers = Value::list(vec![Value::str("a"), Value::Int(1)]);
        assert!(message(call(Builtin::Join, &[numbers, Value::str("")])).contains("item 1"));
        let words = Value::list(vec![Value::str("a")]);
        assert!(message(call(Builtin::Join, &[words, Value::Int(0)])).contains("separator"));
    }

    #[test]
    fn format_fills_placeholders_and_counts_them() {
        let args = [
            Value::str("{} has value {}"),
            Value::str("x"),
            Value::Int(3),
        ];
        assert_eq!(
            call(Builtin::Format, &args).unwrap(),
            Value::str("x has value 3")
        );
        let braces = [Value::str("{{{}}}"), Value::list(vec![Value::str("a")])];
        assert_eq!(
            call(Builtin::Format, &braces).unwrap(),
            Value::str("{[\"a\"]}")
        );
        let short = [Value::str("{} and {}"), Value::Int(1)];
        assert_eq!(
            message(call(Builtin::Format, &short)),
            "the template has 2 placeholders `{}` but 1 argument follows it"
        );
        for bad in ["{", "}", "{x}", "a } b"] {
            let r = call(Builtin::Format, &[Value::str(bad), Value::Int(1)]);
            assert!(message(r).contains("template"), "{bad}");
        }
    }

    /// A guard calling `gcd` gives the values worked out here by hand,
    /// with the compiled rules and without.
    #[test]
    fn a_rule_guarded_by_gcd_has_the_right_values() {
        let src = "game g(n) {\n move m(k in 1..=n) if gcd(k, n) == 1 -> g(n - k)\n}\n";
        let mut expected: Vec<u64> = Vec::new();
        for n in 0..40u64 {
            let seen: Vec<u64> = (1..=n)
                .filter(|k| gcd(*k as i64, n as i64) == Some(1))
                .map(|k| expected[(n - k) as usize])
                .collect();
            expected.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        for kernels in [true, false] {
            let (mut session, _) = loaded(src);
            let m = &mut session.machine;
            m.use_kernels = kernels;
            let values: Vec<u64> = (0..40)
                .map(|n| {
                    let node = m.intern(0, &[Value::Int(n)], Span::default()).unwrap();
                    m.node_value(node).unwrap()
                })
                .collect();
            assert_eq!(values, expected, "kernels: {kernels}");
        }
    }
}
