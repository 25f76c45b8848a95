//! Strips: a two-integer game one of whose arguments stays among a few
//! small values, as in `g(n - k, k)` with `k in 1..=3` (the heap and the
//! last move's size) or `g(n - 1, 1 - turn)`. Its positions below a large
//! one fill a strip, long in the other argument and a few columns wide,
//! which the hand-written program fills row after row; so does the sweep
//! that [`Strip`] allows (`runtime/sweep/strip.rs`).

pub(super) use super::bounds::{Bound, binder_bounds, span};
use super::expr::{Lin, Num};
use super::{Cond, Domain, Move, Term};
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
    /// Whether an option's other argument may also be below the
    /// position's own, and not below the strip's columns: a counter that
    /// moves count down to 0 (`g(n, passes - 1)` if `passes > 0`). A
    /// position in column 3 of a strip of column 0 reads columns 1 and 2.
    pub down: bool,
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

    /// The strip's columns, then those of `extra` (an inclusive range)
    /// if any.
    pub fn columns(&self, extra: Option<(i64, i64)>) -> Vec<i64> {
        let extra = extra.into_iter().flat_map(|(lo, hi)| lo..=hi);
        (self.cols.0..=self.cols.1).chain(extra).collect()
    }

    /// Whether the strip has no columns of its own: every option keeps
    /// the position's (`s(n - k, c)` with `k in 1..=c`), so that the
    /// positions below one lie in its column alone, which the sweep
    /// fills as an extra one ([`Strip::extras`]).
    pub fn kept(&self) -> bool {
        self.cols.1 < self.cols.0
    }

    /// Whether column `col` is one of the strip's own.
    pub fn holds(&self, col: i64) -> bool {
        (self.cols.0..=self.cols.1).contains(&col)
    }

    /// The columns past the strip's own (an inclusive range) that a
    /// sweep toward a position in column `own` fills, after the strip's
    /// in each row: none when `own` is the strip's. A counter counted
    /// down (`down`) needs each column from the strip's last to `own`,
    /// whose options are in those before, and none when there are too
    /// many; else `own` alone, where an option may keep it (`keeps`) or
    /// `any` asks for it. The first is always [`Strip::first`] of the
    /// last.
    pub fn extras(&self, own: i64, any: bool) -> Option<(i64, i64)> {
        if self.holds(own) {
            return None;
        }
        if self.down && own > self.cols.1 {
            return (own - self.cols.0 < WIDEST).then_some((self.cols.1 + 1, own));
        }
        (any || self.keeps).then_some((own, own))
    }

    /// The first of the extra columns whose last is `last` (see
    /// [`Strip::extras`]).
    pub fn first(&self, last: i64) -> i64 {
        match self.down && last > self.cols.1 {
            true => self.cols.1 + 1,
            false => last,
        }
    }
}

/// The strip of `game`'s positions, whose rules are `moves`, when every
/// option of the game's own has one argument that is a constant, a
/// binder over constants, the position's own, or an expression of these
/// that stays among a few values (see the module).
pub(super) fn strip(moves: &[Move], game: GameId) -> Option<Strip> {
    // A counter counted down in one argument may be a few values kept by
    // the other (`g(a - 1, 1 - b)` if `a >= 1`): the strip of those first.
    // Both counted down are a board's (a rook's `r(x - dx, y - dy)`),
    // whose arguments may both be large.
    let [a, b] = [0, 1].map(|narrow| columns(moves, game, narrow));
    match (a, b) {
        (Some(a), Some(b)) if a.down && b.down => None,
        (Some(a), Some(b)) if a.down => Some(b),
        (a, b) => a.or(b),
    }
}

/// [`strip`] with argument `narrow` the short one. The columns are found
/// as a fixed point: those of the options of positions in the columns
/// found so far (at first none; `0` if every option's column depends on
/// the position's, as `1 - t` does), until no option leaves them.
fn columns(moves: &[Move], game: GameId, narrow: usize) -> Option<Strip> {
    let mut cols: Option<(i64, i64)> = None;
    let mut seen = Seen::default();
    for _ in 0..WIDEST {
        let mut round = Round {
            found: cols,
            pending: false,
            applies: false,
        };
        for m in moves {
            move_columns(m, (game, narrow), cols, &mut round, &mut seen)?;
        }
        if round.pending && round.found.is_none() {
            round.found = Some((0, 0));
        }
        // Every option keeps the column: a strip of none of its own.
        if round.found.is_none() && seen.keeps && !seen.down {
            return Some(Strip {
                long: 1 - narrow,
                cols: (0, -1),
                keeps: true,
                form: seen.form.flatten().map(|(code, _)| code),
                flag: false,
                down: false,
            });
        }
        let (lo, hi) = round.found?;
        if lo < 0 || hi.checked_sub(lo)? >= WIDEST || (seen.down && seen.rises) {
            return None;
        }
        // A strip whose positions have no move at all (`min(a, b) > 0`
        // in every guard, for column 0) is no strip: each position of
        // the board is the search's or its square's.
        if round.found == cols && !round.pending && !round.applies {
            return None;
        }
        if round.found == cols && !round.pending {
            let form = seen.form.flatten();
            return Some(Strip {
                long: 1 - narrow,
                cols: (lo, hi),
                keeps: seen.keeps,
                form: form.map(|(code, _)| code),
                flag: form.is_some_and(|(_, h)| flat::is_bool(h, narrow)),
                down: seen.down,
            });
        }
        cols = round.found;
    }
    None
}

/// The columns one round of [`columns`] finds.
struct Round {
    /// Those of the options so far, from those of the round before.
    found: Option<(i64, i64)>,
    /// Whether an option's column depends on its position's, and no
    /// columns are known yet.
    pending: bool,
    /// Whether some move may be made from a position of the columns
    /// found so far.
    applies: bool,
}

impl Round {
    fn include(&mut self, (lo, hi): (i64, i64)) {
        self.found = Some(self.found.map_or((lo, hi), |(l, h)| (l.min(lo), h.max(hi))));
    }
}

/// What [`columns`] learns of the options, whatever the round.
#[derive(Default)]
struct Seen {
    /// Some option keeps the position's column.
    keeps: bool,
    /// Some option counts the column down (see [`Strip::down`]).
    down: bool,
    /// Some option's long argument may be above the position's: no
    /// counter counted down then, the rows of the other argument not
    /// swept from the bottom (`g(a - 1, b + 1)`).
    rises: bool,
    /// The code and header of the positions' form, when they hold a
    /// boolean or are a tuple split into two integers (`Some(None)` once
    /// a target of two integers was met).
    form: Option<Option<(u64, i64)>>,
}

/// The columns of move `m`'s options of positions in the columns `cols`
/// found so far (`None` at first), into `round`; `None` when some leave
/// every few columns.
fn move_columns(
    m: &Move,
    (game, narrow): (GameId, usize),
    cols: Option<(i64, i64)>,
    round: &mut Round,
    seen: &mut Seen,
) -> Option<()> {
    let slot = narrow as Slot;
    // The columns of the positions with this move: those the guard
    // allows (`passes > 0`) among the strip's found so far.
    let least = least(&m.guard, slot);
    let held = cols.map(|cols| guarded(&m.guard, slot, cols));
    let seed = match held {
        Some(Some(held)) => vec![(slot, held)],
        _ => Vec::new(),
    };
    round.applies |= !matches!(held, Some(None));
    let bounds = binder_bounds(m, seed);
    for term in &m.terms {
        let Some(args) = own_arg(term, game, &mut seen.form)? else {
            continue;
        };
        let (arg, long) = (args[narrow], args[1 - narrow]);
        let long_slot = (1 - narrow) as Slot;
        seen.rises |= shift(long, long_slot, &bounds).is_none_or(|(_, hi)| hi > 0);
        if matches!(arg, Num::Slot(s) if *s == slot) {
            seen.keeps = true;
            continue;
        }
        // A counter counting down: options below the position's column,
        // down to the lowest the guard lets them reach (those of the
        // strip's columns are among them and the columns found).
        if let Some(floor) = descent(arg, (m, slot), least, &bounds) {
            seen.down = true;
            round.include((floor, floor));
            continue;
        }
        match (span(arg, &bounds), held) {
            (Some(span), _) => round.include(span),
            // No position of the strip's columns has this move.
            (None, Some(None)) => {}
            (None, None) if arg.uses(slot) => round.pending = true,
            (None, _) => return None,
        }
    }
    Some(())
}

/// The values among `cols` of argument `slot` (a strip's short one) of
/// the positions that may have a move of guard `guard`: those its
/// conjuncts comparing the argument alone with a constant allow; `None`
/// when none.
pub(super) fn guarded(guard: &[Cond], slot: Slot, (lo, hi): (i64, i64)) -> Option<(i64, i64)> {
    let lo = lo.max(least(guard, slot));
    let hi = super::levels::bound(guard, slot)
        .1
        .map_or(hi, |g| g.min(hi));
    (lo <= hi).then_some((lo, hi))
}

/// The least column of a position with a move of guard `guard`: 0 (a
/// strip has no column below it), or more where a conjunct compares the
/// argument `slot` alone with a constant (`passes > 0`, `passes != 0`).
fn least(guard: &[Cond], slot: Slot) -> i64 {
    let mut least = super::levels::bound(guard, slot).0.unwrap_or(0).max(0);
    let unequal: Vec<i64> = (guard.iter())
        .filter_map(|c| match c.as_linear()? {
            (BinOp::Ne, lin) => match lin.terms.as_slice() {
                [(s, 1)] if *s == slot => Some(-lin.c),
                [(s, -1)] if *s == slot => Some(lin.c),
                _ => None,
            },
            _ => None,
        })
        .collect();
    while unequal.contains(&least) {
        least += 1;
    }
    least
}

/// The lowest column an option of argument `arg` reaches, when `arg` is
/// the position's own argument `slot` less what the binders of `bounds`
/// or of move `m` take away (0 or more, and not always 0), from a
/// position of column `least` or more: a counter
/// counted down (`passes - 1` with `passes > 0`, or `passes - k` with
/// `k in 1..=passes`), never below column 0.
fn descent(arg: &Num, (m, slot): (&Move, Slot), least: i64, bounds: &[Bound]) -> Option<i64> {
    let lin = Lin::of(arg)?;
    if lin.coef(slot) != 1 {
        return None;
    }
    let (floor, hi) = match up_to_own(&lin, (m, slot)) {
        Some(found) => found,
        None => {
            let (lo, hi) = shift(arg, slot, bounds)?;
            // Never below the position's own: at most the column kept.
            if lo >= 0 {
                return None;
            }
            (least.checked_add(lo)?, hi)
        }
    };
    (hi <= 0 && floor >= 0).then_some(floor)
}

/// For `arg`, the position's argument `slot` less a binder of move `m`
/// over a range from a constant up to that argument plus a constant
/// (`passes - k` with `k in 1..=passes`), the lowest value `arg` takes
/// whatever the argument, and the most it is above it. A binder held
/// below the argument by the guard instead (`k <= passes`) is not one:
/// that is how a heap is written (`k <= n`), and every heap would count
/// down.
fn up_to_own(arg: &Lin, (m, slot): (&Move, Slot)) -> Option<(i64, i64)> {
    let [(k, -1)] = (arg.terms.iter())
        .filter(|(s, _)| *s != slot)
        .copied()
        .collect::<Vec<_>>()[..]
    else {
        return None;
    };
    let (_, Domain::Range(Num::Const(lo), hi, inclusive)) =
        m.binders.iter().find(|(s, _)| *s == k)?
    else {
        return None;
    };
    let hi = Lin::of(hi)?;
    let [(s, 1)] = hi.terms[..] else {
        return None;
    };
    // `k` runs up to the argument plus `top`: `arg` is at least
    // `arg.c - top`.
    let top = hi.c - i64::from(!inclusive);
    (s == slot).then_some((arg.c.checked_sub(top)?, arg.c.checked_sub(*lo)?))
}

/// The least and most `arg` is above the position's own argument `slot`,
/// when it is that argument plus what the binders of `bounds` make.
pub(super) fn shift(arg: &Num, slot: Slot, bounds: &[Bound]) -> Option<(i64, i64)> {
    let lin = Lin::of(arg)?;
    if lin.coef(slot) != 1 {
        return None;
    }
    let rest = Lin {
        c: lin.c,
        terms: lin.terms.into_iter().filter(|(s, _)| *s != slot).collect(),
    };
    span(&Num::Lin(rest), bounds)
}

/// The two arguments of `term`, when it is a position of `game`
/// (`Some(None)` for a term of another game, which the strip does not
/// hold). Every position of `game` the rules make must be of the same
/// kind, two integers or the same form of two free integers (a run
/// with a boolean, or a pair split into integers: `form`, the code and
/// header of those met so far): `None` otherwise, and for a sum or a
/// position with other lists.
fn own_arg<'a>(
    term: &'a Term,
    game: GameId,
    form: &mut Option<Option<(u64, i64)>>,
) -> Option<Option<[&'a Num; 2]>> {
    let (header, args) = match term {
        Term::Node(g, args) if *g == game => match args.as_slice() {
            [a, b] => (None, [a, b]),
            _ => return None,
        },
        Term::Flat(g, header, args) if *g == game => {
            let formed = super::forms::static_form(*header, args)?;
            match (formed.ints.as_slice(), formed.lets.is_empty()) {
                ([a, b], true) => (Some((formed.code, *header)), [*a, *b]),
                _ => return None,
            }
        }
        Term::Node(..) | Term::Heap(_) => return Some(None),
        Term::Flat(..) | Term::Sum(_) => return None,
    };
    if *form.get_or_insert(header) != header {
        return None;
    }
    Some(Some(args))
}
