//! A position's arguments as one run of integers, when they are integers,
//! lists, tuples or sets of integers, and strings: the key the graph
//! stores list positions under, and the form compiled rules read and
//! write without building values.
//!
//! The run starts with a header (the number of arguments in the low 8
//! bits, then 3 bits per argument for its [`Shape`]); an integer argument
//! follows as itself, a list, tuple or set as its length and then its
//! items (a set's in increasing order, as [`Value::Set`] keeps them), a
//! string as its length in characters and then their code points.
//! `each([3, 1])` is `[1 | LIST << 8, 2, 3, 1]`.

use crate::value::Value;

/// What an argument of a flat run is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    #[default]
    Int = 0,
    List = 1,
    Tuple = 2,
    Set = 3,
    /// A string, its characters' code points as the items.
    Str = 4,
}

/// The bits of the header that say an argument's shape.
const BITS: usize = 3;

/// The most arguments a flat run describes in its header.
pub const ARITY_MAX: usize = 18;

/// The header of a run of arguments of these shapes.
pub fn header(shapes: impl ExactSizeIterator<Item = Shape>) -> i64 {
    let n = shapes.len();
    debug_assert!(n <= ARITY_MAX);
    shapes
        .enumerate()
        .fold(n as i64, |h, (i, s)| h | ((s as i64) << (8 + BITS * i)))
}

/// The shape of argument `i` in a run with header `h`.
pub fn shape(h: i64, i: usize) -> Shape {
    match (h >> (8 + BITS * i)) & 7 {
        0 => Shape::Int,
        1 => Shape::List,
        2 => Shape::Tuple,
        3 => Shape::Set,
        _ => Shape::Str,
    }
}

/// The number of arguments in a run with header `h`.
pub fn arity(h: i64) -> usize {
    (h & 0xff) as usize
}

/// An integer as a flat run (and every key of the graph) reads it: the
/// empty position is 0, as `Value`'s equality says.
pub(super) fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        Value::Pos(p) if p.is_empty() => Some(0),
        _ => None,
    }
}

/// Whether `v` is a list, tuple, set or string: an argument that, when
/// its items are integers (a string's always are), makes the arguments a
/// flat run.
pub fn holds_items(v: &Value) -> bool {
    matches!(
        v,
        Value::List(_) | Value::Tuple(_) | Value::Set(_) | Value::Str(_)
    )
}

/// Pushes `v` when it is an integer.
fn push_int(v: &Value, out: &mut Vec<i64>) -> bool {
    int(v).map(|n| out.push(n)).is_some()
}

/// `args` as a flat run, into `out`, when they are integers and lists or
/// tuples of integers: at least one of them a list or tuple, or three or
/// more integers (one or two integers have keys of their own).
pub fn encode(args: &[Value], out: &mut Vec<i64>) -> bool {
    out.clear();
    if args.len() > ARITY_MAX {
        return false;
    }
    // The header's shapes are added as the arguments are read.
    let mut h = args.len() as i64;
    out.push(0);
    for (i, a) in args.iter().enumerate() {
        let shape = match a {
            Value::List(_) => Shape::List,
            Value::Tuple(_) => Shape::Tuple,
            Value::Set(_) => Shape::Set,
            Value::Str(_) => Shape::Str,
            other => {
                let Some(n) = int(other) else { return false };
                out.push(n);
                continue;
            }
        };
        let len = out.len();
        out.push(0);
        let ints = match a {
            Value::Set(items) => items.iter().all(|v| push_int(v, out)),
            Value::Str(s) => {
                out.extend(s.chars().map(|c| i64::from(u32::from(c))));
                true
            }
            _ => a
                .as_slice()
                .expect("a list or tuple")
                .iter()
                .all(|v| push_int(v, out)),
        };
        if !ints {
            return false;
        }
        out[len] = (out.len() - len - 1) as i64;
        h |= (shape as i64) << (8 + BITS * i);
    }
    out[0] = h;
    args.len() > 2 || h >> 8 != 0
}

/// The header of a run of `n` integers.
pub fn ints_header(n: usize) -> i64 {
    header((0..n).map(|_| Shape::Int))
}

/// The flat run of three or more integers, into `out`, as [`encode`]
/// makes it; false when there are more than [`ARITY_MAX`] (then, as for
/// `encode`, they are no flat run).
pub fn ints(args: &[i64], out: &mut Vec<i64>) -> bool {
    out.clear();
    if args.len() > ARITY_MAX {
        return false;
    }
    out.push(ints_header(args.len()));
    out.extend_from_slice(args);
    true
}

/// The integers a flat run holds, when it holds integers only.
pub fn only_ints(run: &[i64]) -> Option<&[i64]> {
    let h = run[0];
    (h == ints_header(arity(h))).then(|| &run[1..])
}

/// The arguments a flat run holds.
pub fn decode(run: &[i64]) -> Vec<Value> {
    let h = run[0];
    let mut at = 1;
    (0..arity(h))
        .map(|i| match shape(h, i) {
            Shape::Int => {
                at += 1;
                Value::Int(run[at - 1])
            }
            Shape::Str => {
                let len = run[at] as usize;
                let codes = &run[at + 1..at + 1 + len];
                at += 1 + len;
                Value::str(&string(codes))
            }
            s => {
                let len = run[at] as usize;
                let items: Vec<Value> = run[at + 1..at + 1 + len]
                    .iter()
                    .map(|n| Value::Int(*n))
                    .collect();
                at += 1 + len;
                match s {
                    Shape::List => Value::list(items),
                    Shape::Set => Value::Set(std::rc::Rc::new(items.into_iter().collect())),
                    _ => Value::Tuple(items.into()),
                }
            }
        })
        .collect()
}

/// The string of these code points (each one a flat run of a string
/// holds, so a valid one).
pub fn string(codes: &[i64]) -> String {
    codes
        .iter()
        .map(|&c| {
            u32::try_from(c)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or(char::REPLACEMENT_CHARACTER)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_hold_integers_lists_and_tuples_and_give_them_back() {
        let int = Value::Int;
        let args = vec![
            int(-4),
            Value::list(vec![int(3), int(1)]),
            Value::Tuple(vec![int(7)].into()),
            Value::list(Vec::new()),
        ];
        let mut run = Vec::new();
        assert!(encode(&args, &mut run));
        assert_eq!(run[1..], [-4, 2, 3, 1, 1, 7, 0]);
        assert_eq!(arity(run[0]), 4);
        assert_eq!(decode(&run), args);
        let each = [Value::list(vec![int(3), int(1)])];
        assert!(encode(&each, &mut run));
        assert_eq!(run, [1 | (1 << 8), 2, 3, 1], "the doc's example");
        // One or two integers alone, and lists of anything else, are not
        // flat; three integers are, as `ints` makes them.
        assert!(!encode(&[int(1), int(2)], &mut run));
        assert!(encode(&[int(1), int(-2), int(3)], &mut run));
        let mut packed = Vec::new();
        assert!(ints(&[1, -2, 3], &mut packed));
        assert_eq!((&run, only_ints(&run)), (&packed, Some(&[1, -2, 3][..])));
        assert!(encode(&[int(4), Value::list(vec![int(3)])], &mut run));
        assert_eq!(only_ints(&run), None);
        assert!(!encode(&[Value::list(vec![Value::Bool(true)])], &mut run));
        assert_ne!(
            {
                encode(&[Value::Tuple(vec![int(1)].into())], &mut run);
                run.clone()
            },
            {
                let mut other = Vec::new();
                encode(&[Value::list(vec![int(1)])], &mut other);
                other
            },
            "a tuple is not the list of its items"
        );
        // A set holds its items in increasing order, and is neither the
        // list nor the tuple of them.
        let set = Value::Set(std::rc::Rc::new(
            [int(9), int(-1), int(4)].into_iter().collect(),
        ));
        assert!(encode(std::slice::from_ref(&set), &mut run));
        assert_eq!(run, [1 | (3 << 8), 3, -1, 4, 9]);
        assert_eq!(decode(&run), [set]);
        let empty = Value::Set(Default::default());
        assert!(encode(&[int(2), empty.clone()], &mut run));
        assert_eq!(decode(&run), [int(2), empty]);
    }

    #[test]
    fn a_string_is_its_code_points_and_no_list_of_them() {
        let word = Value::str("Hé!");
        let mut run = Vec::new();
        assert!(encode(std::slice::from_ref(&word), &mut run));
        assert_eq!(run, [1 | (4 << 8), 3, 72, 233, 33]);
        assert_eq!(decode(&run), [word]);
        let codes = Value::list(vec![Value::Int(72), Value::Int(233), Value::Int(33)]);
        let mut other = Vec::new();
        assert!(encode(&[codes], &mut other));
        assert_ne!(run, other);
        // The last argument a header holds keeps its shape.
        let mut many = vec![Value::Int(0); ARITY_MAX - 1];
        many.push(Value::str(""));
        assert!(encode(&many, &mut run));
        assert_eq!(shape(run[0], ARITY_MAX - 1), Shape::Str);
        assert_eq!(decode(&run), many);
    }
}
