//! A position's arguments as one run of integers, when they are integers,
//! lists, tuples or sets of integers, and strings: the key the graph
//! stores list positions under, and the form compiled rules read and
//! write without building values.
//!
//! The run starts with a header (the number of arguments in the low 4
//! bits, then a bit for each of the first four arguments that is a
//! boolean, then 4 bits per argument for its [`Shape`]); an integer
//! argument, or a boolean (0 or 1, its shape an integer's), follows as
//! itself, a list, tuple or set as its length and then its
//! items (a set's in increasing order, as [`Value::Set`] keeps them), a
//! string as its length in characters and then their code points.
//! `each([3, 1])` is `[1 | LIST << 8, 2, 3, 1]`. A list, set or tuple of
//! pairs of integers (`[(0, 1), (2, 3)]`, `{(x, y), ...}`: tokens, a
//! board's cells) holds each pair as one item, [`pack`]ed, a list or set
//! of short strings each string, and a list of booleans each as 0 or 1;
//! an empty one is an empty list, set or tuple, whatever it held (see
//! [`canonical`]).

use crate::value::Value;

mod word;
pub use word::{WORD_BITS, WORD_MAX, pack_word, word_chars, word_len, word_shift};

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
    /// A non-empty list of pairs of integers, each item a pair [`pack`]ed.
    Pairs = 5,
    /// A non-empty set of pairs, in increasing order (packing keeps it).
    PairSet = 6,
    /// A non-empty list of strings, each of at most [`WORD_MAX`] ASCII
    /// characters and [`pack_word`]ed into one item: rows of a board.
    Words = 7,
    /// A non-empty set of such strings, in increasing order (packing
    /// keeps it).
    WordSet = 8,
    /// A non-empty list of booleans, each 0 or 1: coins heads up, cells
    /// lit.
    Bools = 9,
    /// A non-empty tuple of pairs of integers, each item a pair
    /// [`pack`]ed: rows of (white, black) kept as tuples.
    PairTuple = 10,
    /// A non-empty tuple of booleans, each 0 or 1.
    BoolTuple = 11,
}

impl Shape {
    /// A set, of integers, pairs or strings: kept in increasing order.
    pub fn is_set(self) -> bool {
        matches!(self, Shape::Set | Shape::PairSet | Shape::WordSet)
    }

    /// Whether its items are packed strings.
    pub fn of_words(self) -> bool {
        matches!(self, Shape::Words | Shape::WordSet)
    }

    /// The shape of the same collection holding strings (a list or a set).
    pub fn with_words(self) -> Shape {
        match self {
            Shape::List => Shape::Words,
            Shape::Set => Shape::WordSet,
            s => s,
        }
    }

    /// Whether its items are booleans (a list or a tuple of them).
    pub fn of_bools(self) -> bool {
        matches!(self, Shape::Bools | Shape::BoolTuple)
    }

    /// Whether its items are packed pairs.
    pub fn of_pairs(self) -> bool {
        matches!(self, Shape::Pairs | Shape::PairSet | Shape::PairTuple)
    }

    /// A list, tuple or set whose items are integers.
    pub fn holds_ints(self) -> bool {
        matches!(self, Shape::List | Shape::Tuple | Shape::Set)
    }

    /// The shape of the same collection holding pairs.
    pub fn with_pairs(self) -> Shape {
        match self {
            Shape::List => Shape::Pairs,
            Shape::Set => Shape::PairSet,
            Shape::Tuple => Shape::PairTuple,
            s => s,
        }
    }

    /// The shape of the same collection holding integers (the shape of
    /// an empty one, whatever it would hold).
    pub fn without_pairs(self) -> Shape {
        match self {
            Shape::Pairs | Shape::Words | Shape::Bools => Shape::List,
            Shape::PairSet | Shape::WordSet => Shape::Set,
            Shape::PairTuple | Shape::BoolTuple => Shape::Tuple,
            s => s,
        }
    }
}

/// The least half of a packed pair; the greatest is `-PAIR_MIN - 1`.
pub const PAIR_MIN: i64 = -(1 << 31);

/// The pair `(x, y)` as one integer, when both are 32-bit: `x` in the
/// high half, `y + 2³¹` in the low, so that packed pairs order as the
/// pairs do (by `x`, then by `y`), and a sorted list or a set of them
/// stays one when packed.
pub fn pack(x: i64, y: i64) -> Option<i64> {
    let half = PAIR_MIN..-PAIR_MIN;
    (half.contains(&x) && half.contains(&y)).then(|| (x << 32) + (y - PAIR_MIN))
}

/// The pair a packed integer holds.
pub fn unpack(p: i64) -> (i64, i64) {
    (p >> 32, (p & 0xffff_ffff) + PAIR_MIN)
}

/// The lowest bit of each argument's field of a header.
const FIELD_ONES: i64 = {
    let (mut m, mut i) = (0, 0);
    while i < ARITY_MAX {
        m |= 1 << (8 + BITS * i);
        i += 1;
    }
    m
};

/// Whether the header `h` has a list, set or tuple of pairs, a list or
/// set of strings, or a list or tuple of booleans: an argument whose
/// empty value is written another way ([`canonical`]).
#[inline]
pub fn has_packed(h: i64) -> bool {
    // A field of 5 to 11: its highest bit, or its second and one of its
    // low two.
    ((h >> 3) | ((h >> 2) & (h | (h >> 1)))) & FIELD_ONES != 0
}

/// Whether the header `h` has a list or set of strings.
#[inline]
pub fn has_words(h: i64) -> bool {
    // A field of 7 or 8: its highest bit alone, or its low three all set.
    (((h >> 3) & !(h | (h >> 1) | (h >> 2))) | (h & (h >> 1) & (h >> 2))) & FIELD_ONES != 0
}

/// Whether `run` is a flat run: its header's arguments, each list's
/// items as many as its length says, and nothing after.
pub fn well_formed(run: &[i64]) -> bool {
    let Some(&h) = run.first() else {
        return false;
    };
    let mut at = 1;
    for i in 0..arity(h) {
        at += match (shape(h, i), run.get(at)) {
            (_, None) => return false,
            (Shape::Int, _) => 1,
            (_, Some(&len)) => match usize::try_from(len) {
                Ok(len) => 1 + len,
                Err(_) => return false,
            },
        };
    }
    at == run.len()
}

/// The header of `run` with every empty collection of pairs, strings or
/// booleans made an empty list, set or tuple, as [`encode`] makes it from the value (which cannot
/// tell what an empty one holds): `None` when it is already so. Compiled
/// rules write the shapes they expect; the graph looks them up by this.
#[inline]
pub fn canonical(run: &[i64]) -> Option<i64> {
    let h = run[0];
    match has_packed(h) {
        // One argument, of pairs (tokens, a board's cells), not empty:
        // the common case, as it is.
        true if arity(h) == 1 && run.get(1).is_some_and(|&len| len != 0) => None,
        true => canonical_pairs(run),
        false => None,
    }
}

#[cold]
fn canonical_pairs(run: &[i64]) -> Option<i64> {
    let h = run[0];
    let fixed = (arguments(run).enumerate())
        .filter(|(_, (s, items))| s.without_pairs() != *s && items.is_empty())
        .fold(h, |fixed, (i, (s, _))| {
            let field = 8 + BITS * i;
            (fixed & !(15 << field)) | ((s.without_pairs() as i64) << field)
        });
    (fixed != h).then_some(fixed)
}

/// The bits of the header that say an argument's shape.
const BITS: usize = 4;

/// The most arguments a flat run describes in its header.
pub const ARITY_MAX: usize = 14;

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
    match (h >> (8 + BITS * i)) & 15 {
        0 => Shape::Int,
        1 => Shape::List,
        2 => Shape::Tuple,
        3 => Shape::Set,
        4 => Shape::Str,
        5 => Shape::Pairs,
        6 => Shape::PairSet,
        7 => Shape::Words,
        8 => Shape::WordSet,
        9 => Shape::Bools,
        10 => Shape::PairTuple,
        _ => Shape::BoolTuple,
    }
}

/// The number of arguments in a run with header `h`.
pub fn arity(h: i64) -> usize {
    (h & 0xf) as usize
}

/// How many of a run's first arguments may be booleans (`g(n, true)`:
/// a player's turn, a flag), each a bit of the header above the arity,
/// held as 0 or 1 with an integer's shape. Arguments with a boolean
/// further on make no flat run.
pub const BOOLS_MAX: usize = 4;

/// The bit of a header that says argument `i` (below [`BOOLS_MAX`]) is
/// a boolean.
pub fn bool_bit(i: usize) -> i64 {
    debug_assert!(i < BOOLS_MAX);
    1 << (4 + i)
}

/// The bits of a header that say which arguments are booleans.
pub const BOOL_BITS: i64 = ((1 << BOOLS_MAX) - 1) << 4;

/// Whether argument `i` of a run with header `h` is a boolean.
pub fn is_bool(h: i64, i: usize) -> bool {
    i < BOOLS_MAX && h & bool_bit(i) != 0
}

/// Whether a run with header `h` holds integers only (and booleans
/// none): the header of [`ints`].
pub fn plain(h: i64) -> bool {
    h >> 4 == 0
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

/// Whether `v` makes the arguments it is among a flat run (when
/// [`encode`] takes them): a list, tuple, set or string of integers, or
/// a boolean.
pub fn in_run(v: &Value) -> bool {
    holds_items(v) || matches!(v, Value::Bool(_))
}

/// Pushes `v` when it is an integer.
fn push_int(v: &Value, out: &mut Vec<i64>) -> bool {
    int(v).map(|n| out.push(n)).is_some()
}

/// `args` as a flat run, into `out`, when they are integers, booleans
/// (among the first [`BOOLS_MAX`]), strings, and lists, tuples or sets
/// of integers or pairs (lists and sets of short strings, lists of
/// booleans): at
/// least one of them a list, tuple or boolean, or three or more integers
/// (one or two integers have keys of their own).
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
            Value::Bool(b) if i < BOOLS_MAX => {
                out.push(i64::from(*b));
                h |= bool_bit(i);
                continue;
            }
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
        let shape = match ints {
            true => shape,
            // A list, set or tuple of pairs: each pair one item.
            false if pairs(a, len, out) => shape.with_pairs(),
            // Of short strings: each string one item.
            false if shape != Shape::Tuple && words(a, len, out) => shape.with_words(),
            // A list or tuple of booleans, each 0 or 1.
            false if shape == Shape::List && bools(a, len, out) => Shape::Bools,
            false if shape == Shape::Tuple && bools(a, len, out) => Shape::BoolTuple,
            false => return false,
        };
        out[len] = (out.len() - len - 1) as i64;
        h |= (shape as i64) << (8 + BITS * i);
    }
    out[0] = h;
    args.len() > 2 || !plain(h)
}

/// Pushes after `out[..=len]` the items of the list, set or tuple `v`, each a
/// pair of 32-bit integers, [`pack`]ed: whether they all are.
fn pairs(v: &Value, len: usize, out: &mut Vec<i64>) -> bool {
    packed(v, len, out, |v| match v {
        Value::Tuple(xy) => match xy.as_ref() {
            [x, y] => pack(int(x)?, int(y)?),
            _ => None,
        },
        _ => None,
    })
}

/// Pushes after `out[..=len]` the items of the list or set `v`, each a
/// string [`pack_word`] packs: whether they all are.
fn words(v: &Value, len: usize, out: &mut Vec<i64>) -> bool {
    packed(v, len, out, |v| match v {
        Value::Str(s) => pack_word(s),
        _ => None,
    })
}

/// Pushes after `out[..=len]` the items of the list or tuple `v`, each a boolean
/// as 0 or 1: whether they all are.
fn bools(v: &Value, len: usize, out: &mut Vec<i64>) -> bool {
    packed(v, len, out, |v| match v {
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    })
}

/// Pushes after `out[..=len]` the items of the list or set `v`, each as
/// `item` packs it: whether there are some and `item` packs them all.
fn packed(v: &Value, len: usize, out: &mut Vec<i64>, item: impl Fn(&Value) -> Option<i64>) -> bool {
    out.truncate(len + 1);
    let mut push = |v: &Value| item(v).map(|p| out.push(p)).is_some();
    let all = match v {
        Value::Set(items) => items.iter().all(&mut push),
        _ => (v.as_slice().expect("a list")).iter().all(&mut push),
    };
    all && out.len() > len + 1
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
    (arguments(run).enumerate())
        .map(|(i, (s, items))| match s {
            Shape::Int if is_bool(h, i) => Value::Bool(items[0] != 0),
            Shape::Int => Value::Int(items[0]),
            Shape::Str => Value::str(&string(items)),
            s => collection(s, items),
        })
        .collect()
}

/// The list, tuple or set of shape `s` (of integers, of packed pairs or
/// of packed strings) whose items are `items`, as a flat run holds them.
pub fn collection(s: Shape, items: &[i64]) -> Value {
    let items: Vec<Value> = (items.iter())
        .map(|n| match s {
            _ if s.of_pairs() => {
                let (x, y) = unpack(*n);
                Value::Tuple(vec![Value::Int(x), Value::Int(y)].into())
            }
            _ if s.of_words() => Value::str(&string(&word_chars(*n).collect::<Vec<_>>())),
            _ if s.of_bools() => Value::Bool(*n != 0),
            _ => Value::Int(*n),
        })
        .collect();
    match s.without_pairs() {
        Shape::List => Value::list(items),
        Shape::Set => Value::Set(std::rc::Rc::new(items.into_iter().collect())),
        _ => Value::Tuple(items.into()),
    }
}

/// Each argument of the flat run `run`, in order: its shape, and the one
/// integer it is or the items it holds (its length read, not given).
pub fn arguments(run: &[i64]) -> impl Iterator<Item = (Shape, &[i64])> {
    let h = run[0];
    let mut at = 1;
    (0..arity(h)).map(move |i| {
        let s = shape(h, i);
        let (from, len) = match s {
            Shape::Int => (at, 1),
            _ => (at + 1, run[at] as usize),
        };
        at = from + len;
        (s, &run[from..at])
    })
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
mod tests;
