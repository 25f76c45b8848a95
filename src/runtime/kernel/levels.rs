//! Boards swept level by level. A two-integer game whose every move
//! shifts the position by constants, as a token moves on a board
//! (`knight(x + dx, y + dy)` once the tuple binder is unrolled), and whose
//! guards keep every option inside a box of rows and columns (`1 <= x +
//! dx <= N`; a move that lowers a coordinate needs a bound below), has an
//! order in which each option comes before its position: by the level
//! `p * x + q * y`, for weights that every shift lowers. A coordinate that
//! some move raises with no bound above (`coin(x + 1, y - 2)` guarded by
//! `y - 2 >= 0` alone) is bounded by the level itself: an option of a
//! level below `s` lies in the rows and columns that positions of levels
//! below `s` fill, so the box reaches to the end of the dense tables. The hand-written program fills the board in that order; so
//! does the sweep that [`Levels`] allows (`runtime/sweep/mod.rs`), one level
//! after another, each position once, every option already valued.

use super::expr::{Cond, Num};
use super::{Move, Term};
use crate::graph::SIDE_MAX;
use crate::ir::Slot;
use crate::syntax::ast::BinOp;
use crate::value::GameId;

/// The weights tried, in order: the first that every move's shift lowers
/// is taken.
const WEIGHTS: [(i64, i64); 7] = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (2, 3), (3, 2)];

/// How a two-integer game's positions can be swept (see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Levels {
    /// Every move lowers `p * x + q * y`, the position's level.
    pub weights: (i64, i64),
    /// Every option lies in these rows (`x`) and columns (`y`), inclusive,
    /// save beyond the dense tables' last row or column (see the module).
    pub rows: (i64, i64),
    pub cols: (i64, i64),
    /// The code of the form of the game's positions when they are tuples
    /// split into the two integers (`king((x, y))`: see
    /// `normalize/split.rs`), whose table is a form's.
    pub form: Option<u64>,
}

impl Levels {
    /// The level of position `(x, y)`.
    pub fn of(&self, (x, y): (i64, i64)) -> i64 {
        self.weights.0 * x + self.weights.1 * y
    }

    /// The levels of the box's corners: its lowest and its highest.
    pub fn span(&self) -> (i64, i64) {
        (
            self.of((self.rows.0, self.cols.0)),
            self.of((self.rows.1, self.cols.1)),
        )
    }

    /// What tells one sweep's box and order from another's.
    pub fn key(&self) -> [i64; 6] {
        let Levels {
            weights: (p, q),
            rows: (r0, r1),
            cols: (c0, c1),
            ..
        } = *self;
        [p, q, r0, r1, c0, c1]
    }
}

/// The levels of `game`'s positions, whose rules are `moves`, when every
/// move is a shift by constants inside a box of non-negative rows and
/// columns (within the dense tables), and some weights make every shift
/// lower the level. The positions of a game whose tuples are split into
/// two integers are those of the form of code `form`.
pub(super) fn levels(moves: &[Move], (game, form): (GameId, Option<u64>)) -> Option<Levels> {
    let mut shifts = Vec::new();
    // Each coordinate's lowest and highest value an option can take.
    let mut ends = [(i64::MAX, i64::MIN); 2];
    for m in moves {
        if !m.binders.is_empty() {
            return None;
        }
        let bounds = [bound(&m.guard, 0), bound(&m.guard, 1)];
        for term in &m.terms {
            let [x, y] = own_pair(term, (game, form))?;
            let shift = [shift(x, 0)?, shift(y, 1)?];
            for (i, (lo, hi)) in ends.iter_mut().enumerate() {
                let (d, (below, above)) = (shift[i], bounds[i]);
                // A move that lowers a coordinate must say how far down it
                // may go, one that raises it how far up; one that does
                // neither keeps it where the position has it.
                match below {
                    Some(b) => *lo = (*lo).min(b.checked_add(d)?),
                    None if d < 0 => return None,
                    None => {}
                }
                match above {
                    Some(b) => *hi = (*hi).max(b.checked_add(d)?),
                    // Unbounded above: the levels bound it instead.
                    None if d > 0 => *hi = SIDE_MAX - 1,
                    None => {}
                }
            }
            shifts.push((shift[0], shift[1]));
        }
    }
    // A coordinate no move bounds below starts where the tables do.
    let [rows, cols] = ends.map(|(lo, hi)| (if lo == i64::MAX { 0 } else { lo }, hi));
    let inside = |(lo, hi): Span| 0 <= lo && lo <= hi && hi < SIDE_MAX;
    if !inside(rows) || !inside(cols) {
        return None;
    }
    let weights = *WEIGHTS
        .iter()
        .find(|(p, q)| shifts.iter().all(|(dx, dy)| p * dx + q * dy < 0))?;
    Some(Levels {
        weights,
        rows,
        cols,
        form,
    })
}

/// The two integers of `term`, a position of `game`: its arguments, or
/// the items of its tuple when its form is `form`.
fn own_pair(term: &Term, (game, form): (GameId, Option<u64>)) -> Option<[&Num; 2]> {
    match (term, form) {
        (Term::Node(g, args), None) if *g == game => match args.as_slice() {
            [x, y] => Some([x, y]),
            _ => None,
        },
        (Term::Flat(g, header, args), Some(code)) if *g == game => {
            let formed = super::forms::static_form(*header, args)?;
            match (formed.ints.as_slice(), formed.lets.is_empty()) {
                ([x, y], true) if formed.code == code => Some([*x, *y]),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An interval of integers, both ends included.
type Span = (i64, i64);

/// `d` when `n` is parameter `slot` plus the constant `d`.
fn shift(n: &Num, slot: Slot) -> Option<i64> {
    match n {
        Num::Slot(s) if *s == slot => Some(0),
        Num::Lin(l) if l.terms == [(slot, 1)] => Some(l.c),
        _ => None,
    }
}

/// The bounds below and above that the guard's conjuncts hold parameter
/// `slot` to, from those that compare it alone with a constant
/// (`x - 2 >= 1`), each `None` when none bounds it that way.
pub(super) fn bound(guard: &[Cond], slot: Slot) -> (Option<i64>, Option<i64>) {
    let (mut lo, mut hi) = (None::<i64>, None::<i64>);
    for c in guard {
        let Some((op, lin)) = c.as_linear() else {
            continue;
        };
        let [(s, k)] = lin.terms.as_slice() else {
            continue;
        };
        if *s != slot || k.abs() != 1 {
            continue;
        }
        // `c + k * x  op  0`: `x  op  -c` for k = 1; `x  op'  c` for k = -1,
        // the comparison turned around.
        let Some((op, v)) = (match k {
            1 => Some((op, -lin.c)),
            _ => flip(op).map(|op| (op, lin.c)),
        }) else {
            continue;
        };
        let mut at_least = |v: i64| lo = Some(lo.map_or(v, |l| l.max(v)));
        match op {
            BinOp::Ge => at_least(v),
            BinOp::Gt => at_least(v.saturating_add(1)),
            BinOp::Eq => at_least(v),
            _ => {}
        }
        let mut at_most = |v: i64| hi = Some(hi.map_or(v, |h| h.min(v)));
        match op {
            BinOp::Le => at_most(v),
            BinOp::Lt => at_most(v.saturating_sub(1)),
            BinOp::Eq => at_most(v),
            _ => {}
        }
    }
    (lo, hi)
}

/// The comparison with its sides swapped.
fn flip(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Le => BinOp::Ge,
        BinOp::Lt => BinOp::Gt,
        BinOp::Ge => BinOp::Le,
        BinOp::Gt => BinOp::Lt,
        BinOp::Eq => BinOp::Eq,
        BinOp::Ne => BinOp::Ne,
        _ => return None,
    })
}
