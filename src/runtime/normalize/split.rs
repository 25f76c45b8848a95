//! Tuple parameters split into integers. A game whose state is a tuple
//! of a fixed length, `king(p)` with moves to `king((p[0] - dx, p[1] -
//! dy))`, reads it only item by item: its rules are the same rules of
//! as many integer parameters, `p[0]` and `p[1]` read as two slots. The
//! compiled rules then run it as a game of integers (with its sweeps,
//! boards and strips), while its positions stay tuples: the game's own
//! targets still make `king((x, y))`, and a position is loaded into the
//! integer slots only when it is a tuple of that length (see
//! `kernel/frame.rs`); any other is the interpreter's.
//!
//! A parameter is split when every read of it is `p[i]` with a constant
//! `i` in `0..len`, and every position of the game its rules make passes
//! a tuple (or a list) of `len` items written out there, `len` at least
//! two, or the parameter itself on unchanged (`g(n - k, p)`, which
//! becomes the tuple of its items). The parameters that are not split
//! keep one slot each.

use super::inline::map_pattern;
use super::walk::{Rewrite, each_child, map_children, rewrite_move};
use crate::graph::Shape;
use crate::ir::{GameIr, Ir, IrKind, MoveIr, PatIr, Slot, TargetIr, TermIr};
use crate::value::{GameId, Value};

/// The most integers a game's parameters are split into.
pub const SPLIT_MAX: usize = 8;

/// A game's rules with its tuple parameters split: the rules, whose
/// parameters are integers, and for each parameter as written its shape
/// and how many integers it holds (1 for an integer).
pub struct Split {
    pub game: GameIr,
    pub params: Vec<(Shape, usize)>,
}

/// `game` (of id `id`) with its tuple parameters split (see the
/// module), or `None` when none can be.
pub fn tuples(game: &GameIr, id: GameId) -> Option<Split> {
    tuples_with(game, id, &[])
}

/// [`tuples`], each parameter `p` that `fixed[p]` says a shape and length
/// of taken to hold that (see `lengths/`), as if the rules made such a
/// position: split unless it is read otherwise than by item.
pub fn tuples_with(game: &GameIr, id: GameId, fixed: &[Option<(Shape, usize)>]) -> Option<Split> {
    let mut params: Vec<Option<(Shape, usize)>> = (0..game.arity)
        .map(|p| fixed.get(p).copied().flatten())
        .collect();
    let mut apart = vec![false; game.arity];
    // The lengths the game's own positions give each parameter.
    let mut fits = true;
    let arity = (game.arity, id);
    for rule in &game.moves {
        for e in rule.exprs() {
            own(e, id, &mut |args| fits &= passed(args, &mut params));
        }
        for (p, domain) in &rule.binders {
            reads(domain, arity, &mut apart);
            binds_param(p, game.arity, &mut apart);
        }
        if let Some(guard) = &rule.guard {
            reads(guard, arity, &mut apart);
        }
        for (_, e) in rule.named.iter().flatten() {
            reads(e, arity, &mut apart);
        }
        match &rule.target {
            TargetIr::Terms(terms) => {
                for t in terms {
                    match t {
                        TermIr::Node(g, args, _) if *g == id => {
                            fits &= passed(args, &mut params);
                            own_args(args, arity, &mut apart);
                        }
                        TermIr::Node(_, args, _) => {
                            args.iter().for_each(|a| reads(a, arity, &mut apart))
                        }
                        TermIr::Heap(k) => reads(k, arity, &mut apart),
                    }
                }
            }
            TargetIr::Dynamic(e) => reads(e, arity, &mut apart),
        }
    }
    let widths: Vec<(Shape, usize)> = (params.iter().zip(&apart))
        .map(|(p, apart)| match p {
            Some((shape, len)) if *shape != Shape::Int && !apart => (*shape, *len),
            _ => (Shape::Int, 1),
        })
        .collect();
    let total: usize = widths.iter().map(|(_, n)| n).sum();
    if !fits || total == game.arity || total > SPLIT_MAX {
        return None;
    }
    let mut bases = Vec::with_capacity(game.arity);
    let mut at = 0;
    for (_, n) in &widths {
        bases.push(at as Slot);
        at += n;
    }
    let mut moved = Moved {
        arity: game.arity as Slot,
        total: total as Slot,
        split: (widths.iter().zip(&bases))
            .map(|((s, n), b)| (*s != Shape::Int).then_some((*s, *b, *n)))
            .collect(),
        bases,
        id,
        failed: false,
    };
    // A target computed as a value only for its `let (x, y) = p` is
    // terms once the names are the items' slots.
    let moves: Vec<MoveIr> = (game.moves.iter())
        .map(|m| rewrite_move(m, 0, &mut moved))
        .flat_map(|m| super::targets::split(&m).unwrap_or_else(|| vec![m]))
        .collect();
    if moved.failed {
        return None;
    }
    Some(Split {
        game: GameIr {
            name: game.name.clone(),
            arity: total,
            slots: game.slots.max(game.arity) - game.arity + total,
            moves,
            def: game.def.clone(),
        },
        params: widths,
    })
}

/// Calls `f` on the arguments of each position of game `id` that `ir`
/// makes.
fn own(ir: &Ir, id: GameId, f: &mut dyn FnMut(&[Ir])) {
    if let IrKind::Apply(g, args) = &ir.kind
        && *g == id
    {
        f(args);
    }
    each_child(ir, &mut |c| own(c, id, f));
}

/// Records the collections `args`, a position of the game, passes:
/// whether each parameter still has one shape and length of items
/// written out (a parameter given anything else is not split).
fn passed(args: &[Ir], params: &mut [Option<(Shape, usize)>]) -> bool {
    if args.len() != params.len() {
        return false;
    }
    for (i, (a, p)) in args.iter().zip(params.iter_mut()).enumerate() {
        // Passed on unchanged (`g(n - k, p)`): as long as it is.
        if matches!(a.kind, IrKind::Local(s) if s as usize == i) {
            continue;
        }
        // A tuple made inside `let`s (`let (x, y) = p in (x - 1, y)`).
        let mut a = a;
        while let IrKind::Let(_, _, body) = &a.kind {
            a = body;
        }
        let here = written(a);
        let here = here.filter(|(_, n)| *n >= 2);
        match (here, &p) {
            (Some(h), None) => *p = Some(h),
            (Some(h), Some(was)) if h == *was => {}
            // Marked as not to be split, for good.
            _ => *p = Some((Shape::Int, 0)),
        }
    }
    true
}

/// The shape and length of a tuple or list written out (or constant),
/// or of both branches of an `if` between two such of one shape and
/// length (made one move per branch once split, see `targets.rs`).
fn written(a: &Ir) -> Option<(Shape, usize)> {
    match &a.kind {
        IrKind::Tuple(items) => Some((Shape::Tuple, items.len())),
        IrKind::List(items) => Some((Shape::List, items.len())),
        IrKind::Const(Value::Tuple(items)) => Some((Shape::Tuple, items.len())),
        IrKind::Const(Value::List(items)) => Some((Shape::List, items.len())),
        IrKind::If(_, x, y) => written(x).filter(|w| written(y) == Some(*w)),
        _ => None,
    }
}

/// Marks in `apart` each parameter that `ir` reads otherwise than as
/// `p[i]` with a constant `i`, or binds again.
fn reads(ir: &Ir, (arity, id): (usize, GameId), apart: &mut [bool]) {
    let param = |x: &Ir| matches!(x.kind, IrKind::Local(s) if (s as usize) < arity);
    match &ir.kind {
        IrKind::Index(x, i) if param(x) && item(i).is_some() => return,
        IrKind::Apply(g, args) if *g == id => return own_args(args, (arity, id), apart),
        // `let (x, y) = p in body`: the items named.
        IrKind::Let(p, value, body) if param(value) && p.tuple_slots().is_some() => {
            binds_param(p, arity, apart);
            return reads(body, (arity, id), apart);
        }
        IrKind::Local(s) if (*s as usize) < arity => apart[*s as usize] = true,
        IrKind::Let(p, ..) => binds_param(p, arity, apart),
        IrKind::Comprehension { clauses, .. } => {
            for c in clauses {
                if let crate::ir::ClauseIr::For(p, _) = c {
                    binds_param(p, arity, apart);
                }
            }
        }
        _ => {}
    }
    each_child(ir, &mut |c| reads(c, (arity, id), apart));
}

/// [`reads`] of the arguments of a position of the game itself, where a
/// parameter passed on unchanged (`g(n - k, p)`) keeps it whole no more
/// than a tuple of its items would.
fn own_args(args: &[Ir], arity: (usize, GameId), apart: &mut [bool]) {
    for (i, a) in args.iter().enumerate() {
        if !matches!(a.kind, IrKind::Local(s) if s as usize == i) {
            reads(a, arity, apart);
        }
    }
}

/// A pattern that binds a parameter's slot again keeps it whole.
fn binds_param(p: &PatIr, arity: usize, apart: &mut [bool]) {
    let mut bound = rustc_hash::FxHashSet::default();
    super::inline::pattern_slots(p, &mut bound);
    for s in bound {
        if (s as usize) < arity {
            apart[s as usize] = true;
        }
    }
}

/// The constant index `i`, when it is a non-negative integer.
fn item(i: &Ir) -> Option<usize> {
    match i.kind {
        IrKind::Const(Value::Int(k)) if k >= 0 => usize::try_from(k).ok(),
        _ => None,
    }
}

/// The rewrite: parameter `j` at slots `bases[j]..`, the item `p[i]` of a
/// split one at `bases[j] + i`, every other slot after the `total`
/// parameters' slots.
struct Moved {
    arity: Slot,
    total: Slot,
    bases: Vec<Slot>,
    /// For each parameter split, its shape, first slot and length.
    split: Vec<Option<(Shape, Slot, usize)>>,
    /// The game, whose positions pass a split parameter on as its items.
    id: GameId,
    /// Set when an item's index is past its tuple's length.
    failed: bool,
}

impl Moved {
    /// The arguments of a position of the game itself: a split parameter
    /// passed on unchanged becomes the tuple (or list) of its items.
    fn own_args(&mut self, args: &[Ir]) -> Vec<Ir> {
        let whole = |i: usize, a: &Ir| match (&a.kind, self.split.get(i)) {
            (IrKind::Local(s), Some(Some((shape, base, len)))) if *s as usize == i => {
                let items = (0..*len as Slot)
                    .map(|k| Ir {
                        kind: IrKind::Local(base + k),
                        span: a.span,
                    })
                    .collect();
                Some(match shape {
                    Shape::List => IrKind::List(items),
                    _ => IrKind::Tuple(items),
                })
            }
            _ => None,
        };
        let made: Vec<Option<IrKind>> = (args.iter().enumerate())
            .map(|(i, a)| whole(i, a))
            .collect();
        (args.iter().zip(made))
            .map(|(a, made)| match made {
                Some(kind) => Ir { kind, span: a.span },
                None => self.moved(a),
            })
            .collect()
    }

    /// For `let PATTERN = value` with `value` a split parameter and the
    /// pattern one level of names: each name's slot (moved) and its
    /// item's, or `None` inside when the lengths differ.
    fn named_items(&self, p: &PatIr, value: &Ir) -> Option<Option<Vec<(Slot, Slot)>>> {
        let IrKind::Local(s) = value.kind else {
            return None;
        };
        let (_, base, len) = (*self.split.get(s as usize)?)?;
        let names = p.tuple_slots()?;
        Some((names.len() == len).then(|| {
            (names.iter().enumerate())
                .map(|(k, n)| (self.to(*n), base + k as Slot))
                .collect()
        }))
    }

    fn to(&self, s: Slot) -> Slot {
        match s < self.arity {
            true => self.bases[s as usize],
            false => s - self.arity + self.total,
        }
    }

    fn moved(&mut self, ir: &Ir) -> Ir {
        let kind = match &ir.kind {
            IrKind::Index(x, i) => match (&x.kind, item(i)) {
                (IrKind::Local(s), Some(k)) if *s < self.arity => match self.split[*s as usize] {
                    Some((_, base, len)) if k < len => IrKind::Local(base + k as Slot),
                    Some(_) => {
                        self.failed = true;
                        return ir.clone();
                    }
                    None => return map_children(ir, &mut |e| self.moved(e)),
                },
                _ => return map_children(ir, &mut |e| self.moved(e)),
            },
            IrKind::Local(s) => IrKind::Local(self.to(*s)),
            IrKind::Apply(g, args) if *g == self.id => IrKind::Apply(*g, self.own_args(args)),
            IrKind::Let(p, value, body) if let Some(lets) = self.named_items(p, value) => {
                // `let (x, y) = p in body`: each name bound to its item's
                // slot, in order, as the pattern would bind them (a
                // pattern of another length fails on every tuple the
                // split rules take: they are not split).
                let Some(lets) = lets else {
                    self.failed = true;
                    return ir.clone();
                };
                let body = self.moved(body);
                return (lets.into_iter().rev()).fold(body, |body, (name, item)| {
                    let (name, item) = (
                        PatIr::Slot(name),
                        Ir {
                            kind: IrKind::Local(item),
                            span: ir.span,
                        },
                    );
                    // A name for a slot: the slot read in its place.
                    super::inline::put_let(&name, &item, &body).unwrap_or_else(|| Ir {
                        kind: IrKind::Let(name, Box::new(item), Box::new(body)),
                        span: ir.span,
                    })
                });
            }
            IrKind::Let(p, value, body) => {
                let (p, value) = (map_pattern(p, &|s| self.to(s)), self.moved(value));
                let body = self.moved(body);
                // A name bound to an item so as not to read it twice
                // (`inside(p[0] + dx, ...)` inlined) is as cheap as a
                // slot now: put in place, as the normaliser does.
                if let Some(put) = super::inline::put_let(&p, &value, &body) {
                    return put;
                }
                IrKind::Let(p, Box::new(value), Box::new(body))
            }
            IrKind::Comprehension { set, elem, clauses } => IrKind::Comprehension {
                set: *set,
                elem: Box::new(self.moved(elem)),
                clauses: (clauses.iter())
                    .map(|c| match c {
                        crate::ir::ClauseIr::For(p, d) => {
                            crate::ir::ClauseIr::For(map_pattern(p, &|s| self.to(s)), self.moved(d))
                        }
                        crate::ir::ClauseIr::If(c) => crate::ir::ClauseIr::If(self.moved(c)),
                    })
                    .collect(),
            },
            _ => return map_children(ir, &mut |e| self.moved(e)),
        };
        Ir {
            kind,
            span: ir.span,
        }
    }
}

impl Rewrite for Moved {
    fn expr(&mut self, ir: &Ir) -> Ir {
        self.moved(ir)
    }

    fn node(&mut self, game: GameId, args: &[Ir], span: crate::span::Span) -> TermIr {
        match game == self.id {
            true => TermIr::Node(game, self.own_args(args), span),
            false => TermIr::Node(game, args.iter().map(|a| self.moved(a)).collect(), span),
        }
    }

    fn slot(&self, slot: Slot) -> Slot {
        self.to(slot)
    }
}
