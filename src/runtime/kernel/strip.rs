//! Strips: a two-integer game one of whose arguments stays among a few
//! small values, as in `g(n - k, k)` with `k in 1..=3` (the heap and the
//! last move's size) or `g(n - 1, 1 - turn)`. Its positions below a large
//! one fill a strip, long in the other argument and a few columns wide,
//! which the hand-written program fills row after row; so does the sweep
//! that [`Strip`] allows (`runtime/sweep/strip.rs`).

use super::expr::Num;
use super::{Domain, Move, Term, run};
use crate::graph::flat;
use crate::ir::Slot;
use crate::syntax::ast::BinOp;
use crate::value::GameId;

/// The widest strip swept: more columns than that, and a strip holds
/// too many positions the search would never reach.
const WIDEST: i64 = 32;

/// How a two-integer game's positions lie (see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strip {
    /// The argument that runs long (0: the first).
    pub long: usize,
    /// Every option's other argument is in these (inclusive) ...
    pub cols: (i64, i64),
    /// ... or, when this is set, the position's own.
    pub keeps: bool,
    /// The code of the form of the game's positions
    /// ([`crate::graph::form_code`]) when they hold a boolean
    /// (`g(n, spent)`): the dense table keeps them by their integers, a
    /// boolean as 0 or 1, as it keeps a pair's. `None` for two integers.
    pub form: Option<u64>,
    /// Whether the short argument is a boolean (its columns 0 and 1).
    pub flag: bool,
}

impl Strip {
    /// The arguments of the position in row `row` (of the long argument)
    /// and column `col`.
    pub fn place(&self, row: i64, col: i64) -> [i64; 2] {
        match self.long {
            0 => [row, col],
            _ => [col, row],
        }
    }

    /// The strip's columns, then `extra` if any.
    pub fn columns(&self, extra: Option<i64>) -> Vec<i64> {
        (self.cols.0..=self.cols.1).chain(extra).collect()
    }

    /// Whether column `col` is one of the strip's own.
    pub fn holds(&self, col: i64) -> bool {
        (self.cols.0..=self.cols.1).contains(&col)
    }
}

/// The strip of `game`'s positions, whose rules are `moves`, when every
/// option of the game's own has one argument that is a constant, a
/// binder over constants, the position's own, or an expression of these
/// that stays among a few values (see the module).
pub(super) fn strip(moves: &[Move], game: GameId) -> Option<Strip> {
    (0..2).find_map(|narrow| columns(moves, game, narrow))
}

/// [`strip`] with argument `narrow` the short one. The columns are found
/// as a fixed point: those of the options of positions in the columns
/// found so far (at first none; `0` if every option's column depends on
/// the position's, as `1 - t` does), until no option leaves them.
fn columns(moves: &[Move], game: GameId, narrow: usize) -> Option<Strip> {
    let mut cols: Option<(i64, i64)> = None;
    let mut keeps = false;
    // The code and header of the positions' form, when they hold a
    // boolean or are a tuple split into two integers (`Some(None)` once a
    // target of two integers was met).
    let mut form: Option<Option<(u64, i64)>> = None;
    for _ in 0..WIDEST {
        let mut found = cols;
        let mut pending = false;
        for m in moves {
            let mut bounds = binder_bounds(m);
            if let Some(cols) = cols {
                bounds.insert(0, (narrow as Slot, cols));
            }
            for term in &m.terms {
                let arg = match own_arg(term, game, narrow, &mut form)? {
                    Some(arg) => arg,
                    None => continue,
                };
                if matches!(arg, Num::Slot(s) if *s as usize == narrow) {
                    keeps = true;
                    continue;
                }
                match span(arg, &bounds) {
                    Some((lo, hi)) => {
                        found = Some(found.map_or((lo, hi), |(l, h)| (l.min(lo), h.max(hi))));
                    }
                    None if arg.uses(narrow as Slot) && cols.is_none() => pending = true,
                    None => return None,
                }
            }
        }
        if pending && found.is_none() {
            found = Some((0, 0));
        }
        let (lo, hi) = found?;
        if lo < 0 || hi.checked_sub(lo)? >= WIDEST {
            return None;
        }
        if found == cols && !pending {
            return Some(Strip {
                long: 1 - narrow,
                cols: (lo, hi),
                keeps,
                form: form.flatten().map(|(code, _)| code),
                flag: form
                    .flatten()
                    .is_some_and(|(_, h)| flat::is_bool(h, narrow)),
            });
        }
        cols = found;
    }
    None
}

/// The argument `narrow` of `term`, when it is a position of `game`
/// (`Some(None)` for a term of another game, which the strip does not
/// hold). Every position of `game` the rules make must be of the same
/// kind, two integers or the same form of two free integers (a run
/// with a boolean, or a pair split into integers: `form`, the code and
/// header of those met so far): `None` otherwise, and for a sum or a
/// position with other lists.
fn own_arg<'a>(
    term: &'a Term,
    game: GameId,
    narrow: usize,
    form: &mut Option<Option<(u64, i64)>>,
) -> Option<Option<&'a Num>> {
    let (header, arg) = match term {
        Term::Node(g, args) if *g == game => match args.as_slice() {
            [_, _] => (None, &args[narrow]),
            _ => return None,
        },
        Term::Flat(g, header, args) if *g == game => {
            let formed = super::forms::static_form(*header, args)?;
            match (formed.ints.as_slice(), formed.lets.is_empty()) {
                ([a, b], true) => (Some((formed.code, *header)), [*a, *b][narrow]),
                _ => return None,
            }
        }
        Term::Node(..) | Term::Heap(_) => return Some(None),
        Term::Flat(..) | Term::Sum(_) => return None,
    };
    if *form.get_or_insert(header) != header {
        return None;
    }
    Some(Some(arg))
}

/// The lowest and highest value of each of `m`'s binders whose domain
/// has constant ends, outermost first, by slot.
pub(super) fn binder_bounds(m: &Move) -> Vec<(Slot, (i64, i64))> {
    let mut bounds: Vec<(Slot, (i64, i64))> = Vec::new();
    for (slot, domain) in &m.binders {
        let span = match domain {
            Domain::Range(lo, hi, inclusive) => {
                let lo = lower(lo, &bounds);
                let hi = upper(hi, &bounds).map(|h| h - i64::from(!inclusive));
                lo.zip(hi)
            }
            Domain::Items(items) => items.iter().try_fold((i64::MAX, i64::MIN), |(l, h), n| {
                let (lo, hi) = span(n, &bounds)?;
                Some((l.min(lo), h.max(hi)))
            }),
            Domain::Fixed(run::Values::Range(lo, hi)) => Some((*lo, *hi - 1)),
            Domain::Fixed(run::Values::List { lo, hi, .. }) => Some((*lo, *hi)),
            _ => None,
        };
        if let Some(span) = span.filter(|(lo, hi)| lo <= hi) {
            bounds.push((*slot, span));
        }
    }
    bounds
}

/// The lowest and highest value `n` takes, when both are known.
pub(super) fn span(n: &Num, bounds: &[(Slot, (i64, i64))]) -> Option<(i64, i64)> {
    lower(n, bounds).zip(upper(n, bounds))
}

/// A value `n` never goes below, if one is known.
fn lower(n: &Num, bounds: &[(Slot, (i64, i64))]) -> Option<i64> {
    ends(n, bounds, false)
}

/// A value `n` never goes above, if one is known.
fn upper(n: &Num, bounds: &[(Slot, (i64, i64))]) -> Option<i64> {
    ends(n, bounds, true)
}

/// [`lower`] or, when `high`, [`upper`]: of constants, binders over
/// constants, their linear forms, and the least and greatest of such
/// (`min(3, n)` is at most 3 whatever `n`).
fn ends(n: &Num, bounds: &[(Slot, (i64, i64))], high: bool) -> Option<i64> {
    match n {
        Num::Const(c) => Some(*c),
        Num::Slot(s) => {
            let (_, (lo, hi)) = bounds.iter().find(|(b, _)| b == s)?;
            Some(if high { *hi } else { *lo })
        }
        Num::Lin(l) => l.terms.iter().try_fold(l.c, |sum, (s, k)| {
            // A positive weight takes the end asked, a negative the other.
            let end = ends(&Num::Slot(*s), bounds, high == (*k > 0))?;
            sum.checked_add(k.checked_mul(end)?)
        }),
        // The least of items is at most any one's highest, and at least
        // the lowest of all; the greatest the other way around.
        Num::Extremum(min, items) => {
            let each = items.iter().map(|i| ends(i, bounds, high));
            match *min == high {
                true => each
                    .flatten()
                    .reduce(|a, b| if high { a.min(b) } else { a.max(b) }),
                false => {
                    let all: Option<Vec<i64>> = each.collect();
                    all?.into_iter()
                        .reduce(|a, b| if high { a.max(b) } else { a.min(b) })
                }
            }
        }
        Num::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let a = ends(a, bounds, high)?;
            // A difference takes the other end of what it takes away.
            let b = ends(b, bounds, high == (*op == BinOp::Add))?;
            match op {
                BinOp::Add => a.checked_add(b),
                _ => a.checked_sub(b),
            }
        }
        // Either branch: a boolean passed as `k == 2` is 0 or 1.
        Num::If(_, a, b) => {
            let (a, b) = (ends(a, bounds, high)?, ends(b, bounds, high)?);
            Some(if high { a.max(b) } else { a.min(b) })
        }
        // A remainder by a positive constant, rounded down: from 0 to
        // the constant less one, whatever the number divided.
        Num::Bin(BinOp::Rem, _, c) => match **c {
            Num::Const(c) if c > 0 => Some(if high { c - 1 } else { 0 }),
            _ => None,
        },
        _ => None,
    }
}
