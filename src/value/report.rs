//! Reports: the lists `table` and `moves` return, which know how to show
//! themselves, and what a table keeps to be shown (its axes and its
//! nim-values, packed as small as they fit).

use super::Value;
use std::rc::Rc;

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
    /// The moves of a position of this value, written out from the items
    /// when they are shown (see `Machine::moves_text`): a script that
    /// only reads them never formats them.
    Moves(super::Position, u64),
}

impl Report {
    /// A report with its items and text made already.
    pub fn ready(items: Vec<Value>, text: String) -> Report {
        Report {
            items: items.into(),
            text: ReportText::Ready(text),
        }
    }

    /// The report of `moves(P)`: its items, `P` and `P`'s value.
    pub fn moves(items: Vec<Value>, p: super::Position, value: u64) -> Report {
        Report {
            items: items.into(),
            text: ReportText::Moves(p, value),
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
            ReportText::Ready(_) | ReportText::Moves(..) => {
                unreachable!("a ready report is made with its items")
            }
            ReportText::Table(spec) => spec.items(),
        })
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
            _ => self.widen_push(v),
        }
    }

    /// [`Nims::push`] of a value wider than the slots so far.
    #[cold]
    fn widen_push(&mut self, v: u64) {
        self.widen(v);
        self.push(v);
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

    /// The `i`-th argument, if it is an integer.
    pub fn int(&self, i: usize) -> Option<i64> {
        match self {
            Axis::Range(lo, _) => Some(lo + i as i64),
            Axis::Items(items) => match items[i] {
                Value::Int(n) => Some(n),
                _ => None,
            },
        }
    }

    /// Whether every argument is an integer.
    pub fn all_ints(&self) -> bool {
        match self {
            Axis::Range(..) => true,
            Axis::Items(items) => items.iter().all(|v| matches!(v, Value::Int(_))),
        }
    }
}
