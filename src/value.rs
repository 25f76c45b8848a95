//! Run-time values. Positions are sums of components: Nim heaps and nodes
//! of the transition graph (a game applied to its arguments, interned to a
//! dense [`NodeId`]). Everything else is an ordinary immutable value shared
//! through `Rc`, so copying a value never copies its contents.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::rc::Rc;

/// Index of a game definition in the session.
pub type GameId = u32;

/// A position of one game: which game, and its index among that game's
/// interned argument lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    pub game: GameId,
    pub index: u32,
}

/// One summand of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    Node(NodeId),
    /// A Nim heap of the given size (`*k`); its value is k. Heaps sort after
    /// nodes, as they are shown.
    Heap(u64),
}

/// A disjunctive sum of components, kept sorted so that equal sums compare
/// and hash equal whatever order they were written in. Empty heaps are
/// dropped: `*0` is the empty position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(Rc<[Component]>);

impl Position {
    pub fn empty() -> Position {
        Position(Rc::from([]))
    }

    /// The position of a single game node.
    pub fn node(node: NodeId) -> Position {
        Position(Rc::from([Component::Node(node)]))
    }

    pub fn from_components(mut comps: Vec<Component>) -> Position {
        comps.retain(|c| *c != Component::Heap(0));
        comps.sort_unstable();
        Position(Rc::from(comps))
    }

    pub fn components(&self) -> &[Component] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn sum(&self, other: &Position) -> Position {
        if other.is_empty() {
            return self.clone();
        }
        if self.is_empty() {
            return other.clone();
        }
        let mut comps = Vec::with_capacity(self.0.len() + other.0.len());
        comps.extend_from_slice(&self.0);
        comps.extend_from_slice(&other.0);
        Position::from_components(comps)
    }

    /// This position with component `i` replaced by the components of `by`.
    pub fn replace(&self, i: usize, by: &[Component]) -> Position {
        let mut comps: Vec<Component> = Vec::with_capacity(self.0.len() + by.len());
        comps.extend(
            self.0
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, c)| *c),
        );
        comps.extend_from_slice(by);
        Position::from_components(comps)
    }
}

/// A list that also knows how to show itself: the results of `table` and
/// `moves`. It behaves as a list everywhere except printing.
#[derive(Debug)]
pub struct Report {
    /// The items as values, made from a table's nim-values the first time
    /// they are needed: a table of a million values that is only printed
    /// keeps 4 bytes a value, not 24.
    items: std::cell::OnceCell<Vec<Value>>,
    pub text: ReportText,
}

/// How a report prints.
#[derive(Debug)]
pub enum ReportText {
    Ready(String),
    /// A table, written out when it is shown (see `Machine::write_table`).
    Table(TableSpec),
}

impl Report {
    /// A report with its items and text made already.
    pub fn ready(items: Vec<Value>, text: String) -> Report {
        Report {
            items: items.into(),
            text: ReportText::Ready(text),
        }
    }

    pub fn table(spec: TableSpec) -> Report {
        Report {
            items: std::cell::OnceCell::new(),
            text: ReportText::Table(spec),
        }
    }

    /// The list the report stands for.
    pub fn items(&self) -> &[Value] {
        self.items.get_or_init(|| match &self.text {
            ReportText::Ready(_) => unreachable!("a ready report is made with its items"),
            ReportText::Table(spec) => spec.items(),
        })
    }
}

/// The positions of single nodes made lately, so that a node met again
/// shares the allocation of its position: a list of a hundred thousand
/// positions of a few nodes (a sum of many equal coins) then holds a few
/// allocations rather than a hundred thousand. Direct-mapped, so it stays
/// small: a node's slot is its index modulo [`NodePositions::SLOTS`].
#[derive(Debug, Default)]
pub struct NodePositions(Vec<Option<Position>>);

impl NodePositions {
    pub const SLOTS: usize = 256;

    /// The position of `node` alone, equal to [`Position::node`].
    pub fn get(&mut self, node: NodeId) -> Position {
        if self.0.is_empty() {
            self.0.resize(Self::SLOTS, None);
        }
        let slot = &mut self.0[node.index as usize % Self::SLOTS];
        match slot {
            Some(p) if p.components() == [Component::Node(node)] => p.clone(),
            _ => slot.insert(Position::node(node)).clone(),
        }
    }
}

/// What a table holds: its values, and what its text needs besides.
#[derive(Debug)]
pub struct TableSpec {
    /// `game(x, y)`.
    pub title: String,
    pub params: Vec<Rc<str>>,
    pub axes: Vec<Axis>,
    /// The nim-values, row by row for a grid.
    pub nims: Nims,
}

impl TableSpec {
    /// The values, or for a grid the rows of values, as a list holds them.
    fn items(&self) -> Vec<Value> {
        let int = |i: usize| Value::Int(self.nims.get(i) as i64);
        match &self.axes[..] {
            [_, ys] => {
                let width = ys.len();
                (0..self.nims.len() / width.max(1))
                    .map(|row| Value::list((row * width..(row + 1) * width).map(int).collect()))
                    .collect()
            }
            _ => (0..self.nims.len()).map(int).collect(),
        }
    }
}

/// Nim-values, each in the smallest of 1, 2, 4 or 8 bytes that holds
/// every value so far: most games' values stay below 256, so a table of a
/// million of them takes 1 MB rather than 4.
#[derive(Debug)]
pub enum Nims {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
}

impl Nims {
    pub fn with_capacity(n: usize) -> Nims {
        Nims::U8(Vec::with_capacity(n))
    }

    #[inline]
    pub fn push(&mut self, v: u64) {
        match self {
            Nims::U8(small) if v <= u8::MAX.into() => small.push(v as u8),
            Nims::U16(small) if v <= u16::MAX.into() => small.push(v as u16),
            Nims::U32(small) if v <= u32::MAX.into() => small.push(v as u32),
            Nims::U64(large) => large.push(v),
            _ => {
                self.widen(v);
                self.push(v);
            }
        }
    }

    /// Moves the values so far to slots wide enough for `v`, keeping the
    /// room reserved for the rest.
    #[cold]
    fn widen(&mut self, v: u64) {
        let room = self.capacity().max(self.len() + 1);
        let old = (0..self.len()).map(|i| self.get(i));
        let wider = if v <= u16::MAX.into() {
            let mut w = Vec::with_capacity(room);
            w.extend(old.map(|x| x as u16));
            Nims::U16(w)
        } else if v <= u32::MAX.into() {
            let mut w = Vec::with_capacity(room);
            w.extend(old.map(|x| x as u32));
            Nims::U32(w)
        } else {
            let mut w = Vec::with_capacity(room);
            w.extend(old);
            Nims::U64(w)
        };
        *self = wider;
    }

    pub fn get(&self, i: usize) -> u64 {
        match self {
            Nims::U8(small) => small[i].into(),
            Nims::U16(small) => small[i].into(),
            Nims::U32(small) => small[i].into(),
            Nims::U64(large) => large[i],
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Nims::U8(small) => small.len(),
            Nims::U16(small) => small.len(),
            Nims::U32(small) => small.len(),
            Nims::U64(large) => large.len(),
        }
    }

    fn capacity(&self) -> usize {
        match self {
            Nims::U8(small) => small.capacity(),
            Nims::U16(small) => small.capacity(),
            Nims::U32(small) => small.capacity(),
            Nims::U64(large) => large.capacity(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The arguments along one side of a table.
#[derive(Debug)]
pub enum Axis {
    /// The integers `lo..hi`, never made into a list.
    Range(i64, i64),
    Items(Vec<Value>),
}

impl Axis {
    pub fn len(&self) -> usize {
        match self {
            Axis::Range(lo, hi) => (hi - lo).max(0) as usize,
            Axis::Items(items) => items.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Value {
        match self {
            Axis::Range(lo, _) => Value::Int(lo + i as i64),
            Axis::Items(items) => items[i].clone(),
        }
    }

    pub fn values(&self) -> Vec<Value> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }
}

/// The tag is a whole word: with a one-byte tag, `Bool` and `Game` keep
/// their payloads in the bytes after it, and every move of a value copies
/// those bytes with overlapping loads that stall the CPU (a value returned
/// and read back in the next instruction, as in `eval`, is the common case).
/// The size is 24 bytes either way.
#[derive(Clone, Debug)]
#[repr(u64)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Str(Rc<str>),
    Tuple(Rc<[Value]>),
    List(Rc<Vec<Value>>),
    Set(Rc<BTreeSet<Value>>),
    /// The integers `lo..hi` (end excluded; empty when `hi <= lo`), kept as
    /// written. All empty ranges are equal.
    Range(i64, i64),
    Pos(Position),
    Game(GameId),
    Report(Rc<Report>),
}

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
    }

    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    /// A clone: an integer, the most common value, is copied inline, where
    /// `clone()` would make a call.
    #[inline(always)]
    pub fn copy(&self) -> Value {
        match self {
            Value::Int(n) => Value::Int(*n),
            other => other.clone(),
        }
    }

    /// Makes this value the integer `n`; when it already is an integer,
    /// without a call of the drop glue for the old value.
    #[inline(always)]
    pub fn set_int(&mut self, n: i64) {
        match self {
            Value::Int(old) => *old = n,
            other => *other = Value::Int(n),
        }
    }

    /// A report as the plain list it stands for; anything else unchanged.
    pub fn into_list(self) -> Value {
        match self {
            Value::Report(r) => Value::list(r.items().to_vec()),
            other => other,
        }
    }

    /// The name of the value's type, as error messages say it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::Tuple(_) => "a tuple",
            Value::List(_) | Value::Report(_) => "a list",
            Value::Set(_) => "a set",
            Value::Range(..) => "a range",
            Value::Pos(_) => "a position",
            Value::Game(_) => "a game",
        }
    }

    /// The items of a list-like value held in memory (not ranges or sets).
    pub fn as_slice(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            Value::Tuple(items) => Some(items),
            Value::Report(r) => Some(r.items()),
            _ => None,
        }
    }

    /// What a value compares and hashes as: the empty position is the
    /// integer 0 (both are written `0`), every empty range is `0..0`.
    fn canonical(&self) -> std::borrow::Cow<'_, Value> {
        use std::borrow::Cow;
        match self {
            Value::Pos(p) if p.is_empty() => Cow::Owned(Value::Int(0)),
            Value::Range(lo, hi) if hi <= lo => Cow::Owned(Value::Range(0, 0)),
            _ => Cow::Borrowed(self),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Bool(_) => 0,
            Value::Int(_) => 1,
            Value::Str(_) => 2,
            Value::Tuple(_) => 3,
            Value::List(_) | Value::Report(_) => 4,
            Value::Set(_) => 5,
            Value::Range(..) => 6,
            Value::Pos(_) => 7,
            Value::Game(_) => 8,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// A total order: by kind first, then by contents. Within a kind it is
    /// the natural order (numbers, strings and sequences lexicographically).
    fn cmp(&self, other: &Value) -> Ordering {
        use Value::*;
        if let (Int(a), Int(b)) = (self, other) {
            return a.cmp(b);
        }
        let (a, b) = (self.canonical(), other.canonical());
        match (&*a, &*b) {
            (Int(a), Int(b)) => a.cmp(b),
            (Bool(a), Bool(b)) => a.cmp(b),
            (Str(a), Str(b)) => a.cmp(b),
            (Tuple(a), Tuple(b)) => a.iter().cmp(b.iter()),
            (Set(a), Set(b)) => a.iter().cmp(b.iter()),
            (Range(a, b), Range(c, d)) => (a, b).cmp(&(c, d)),
            (Pos(a), Pos(b)) => a.cmp(b),
            (Game(a), Game(b)) => a.cmp(b),
            (x, y) => match (x.rank(), y.rank()) {
                (4, 4) => {
                    let sequence = "values of rank 4 are sequences";
                    let (xs, ys) = (x.as_slice().expect(sequence), y.as_slice().expect(sequence));
                    xs.iter().cmp(ys.iter())
                }
                (r, q) => r.cmp(&q),
            },
        }
    }
}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let canonical = self.canonical();
        canonical.rank().hash(state);
        match &*canonical {
            Value::Int(n) => n.hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Str(s) => s.hash(state),
            Value::Tuple(items) => items.hash(state),
            Value::List(items) => items.hash(state),
            Value::Report(r) => r.items().hash(state),
            Value::Set(items) => items.hash(state),
            Value::Range(lo, hi) => (lo, hi).hash(state),
            Value::Pos(p) => p.hash(state),
            Value::Game(g) => g.hash(state),
        }
    }
}

/// Calls `found` with the game of every position component and every game
/// value inside `v`, however deeply nested. Plain scalars cost one match.
pub fn games_in(v: &Value, found: &mut impl FnMut(GameId)) {
    match v {
        Value::Int(_) | Value::Bool(_) | Value::Str(_) | Value::Range(..) => {}
        Value::Game(id) => found(*id),
        Value::Pos(p) => {
            for c in p.components() {
                if let Component::Node(node) = c {
                    found(node.game);
                }
            }
        }
        Value::Tuple(items) => items.iter().for_each(|x| games_in(x, found)),
        Value::List(items) => items.iter().for_each(|x| games_in(x, found)),
        Value::Set(items) => items.iter().for_each(|x| games_in(x, found)),
        Value::Report(r) => r.items().iter().for_each(|x| games_in(x, found)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_equal_whatever_the_order() {
        let a = Component::Node(NodeId { game: 0, index: 4 });
        let b = Component::Node(NodeId { game: 0, index: 7 });
        let p = Position::from_components(vec![a, b]);
        let q = Position::from_components(vec![b, a, Component::Heap(0)]);
        assert_eq!(p, q);
        assert_eq!(Value::Pos(p), Value::Pos(q));
    }

    #[test]
    fn a_recurring_node_shares_its_position() {
        let mut cache = NodePositions::default();
        let a = NodeId { game: 0, index: 4 };
        // The same slot, another node: it takes the slot over.
        let b = NodeId {
            game: 1,
            index: 4 + NodePositions::SLOTS as u32,
        };
        let first = cache.get(a);
        assert_eq!(first, Position::node(a));
        assert!(Rc::ptr_eq(&first.0, &cache.get(a).0));
        assert_eq!(cache.get(b), Position::node(b));
        assert_eq!(
            cache.get(NodeId { game: 1, index: 4 }),
            Position::node(NodeId { game: 1, index: 4 })
        );
        let again = cache.get(a);
        assert_eq!(again, first);
        assert!(!Rc::ptr_eq(&first.0, &again.0));
    }

    #[test]
    fn lists_and_reports_compare_by_items() {
        let items = vec![Value::Int(1), Value::Int(2)];
        let report = Value::Report(Rc::new(Report::ready(items.clone(), "shown".into())));
        assert_eq!(report, Value::list(items));
        assert_ne!(Value::Int(1), Value::Bool(true));
    }

    fn hash_of(v: &Value) -> u64 {
        use std::hash::{BuildHasher, BuildHasherDefault};
        BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(v)
    }

    #[test]
    fn empty_ranges_are_equal() {
        assert_eq!(Value::Range(5, 2), Value::Range(5, 5));
        assert_eq!(Value::Range(0, 0), Value::Range(1, 1));
        assert_eq!(hash_of(&Value::Range(7, 3)), hash_of(&Value::Range(0, 0)));
        assert_ne!(Value::Range(0, 2), Value::Range(0, 3));
    }

    #[test]
    fn the_empty_position_is_zero() {
        let empty = Value::Pos(Position::empty());
        assert_eq!(empty, Value::Int(0));
        assert_eq!(hash_of(&empty), hash_of(&Value::Int(0)));
        assert!(empty < Value::Int(1) && Value::Int(-1) < empty);
        let set: BTreeSet<Value> = [empty, Value::Int(0)].into_iter().collect();
        assert_eq!(set.len(), 1);
    }
}
