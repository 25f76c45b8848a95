//! Which slots of a game's frame hold lists: the parameters its rules use
//! as collections, lists unless the game's own moves pass tuples there.

use crate::builtins::Builtin;
use crate::graph::Shape;
use crate::ir::{GameIr, Ir, IrKind, Slot, TargetIr, TermIr};
use crate::runtime::kernel::calls::Calls;
use crate::runtime::normalize::each_child;
use crate::syntax::ast::BinOp;
use crate::value::{GameId, Value};
use std::rc::Rc;

mod bools;
mod pairs;
mod walks;
mod words;

use walks::{characters, compared_with_text, lets, set_made, values, walk};

/// A `value(...)` a query asks of names: the game, the names' slots,
/// and the shape of the one tuple or list it gives them as, if it does.
pub(in crate::runtime::kernel) type Asked = (GameId, Vec<Slot>, Option<Shape>);

/// What each slot of a game's frame holds: an integer, or (for a
/// parameter used as a collection) a list or tuple.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Types {
    shapes: Vec<Shape>,
    /// The slots a `let` binds (one name each): integers of any size,
    /// read as [`super::Num::Named`], never in a linear form.
    named: Vec<Slot>,
    /// The slots of the move being compiled that hold a pair, packed: a
    /// binder or a `for` of one name over a list or set of pairs (see
    /// [`Types::in_move`]).
    pairs: Vec<Slot>,
    /// The slots of the move being compiled that hold a character, its
    /// code point: a `for` of one name over a string, read only as a
    /// character (see [`Types::in_move`]).
    chars: Vec<Slot>,
    /// The slots of the move being compiled that hold a string, packed:
    /// a binder or a `for` of one name over a list or set of strings.
    words: Vec<Slot>,
    /// The parameters that hold booleans, 0 or 1, and in the move being
    /// compiled the names that take the items of a list of booleans (see
    /// `types/bools.rs`).
    bools: Vec<Slot>,
    /// Whether `value(g(...))` compiles to a call of the search
    /// ([`super::Num::Value`], [`super::Num::Ask`]): in a top-level query
    /// ([`crate::runtime::kernel::query`]).
    pub(in crate::runtime::kernel) queries: bool,
    /// Whether `value(g(...))` of integer arguments compiles to a read of
    /// the game's table, as an option's value is read: in a game's rules
    /// (a guard that asks another game, `value(sub(k)) == 0`), never in
    /// the body of a function compiled apart.
    pub(in crate::runtime::kernel) rules: bool,
    /// The games and numbers of arguments of the `value(...)`s compiled,
    /// shared by the types of every move.
    pub(in crate::runtime::kernel) asked: Rc<std::cell::RefCell<Vec<(GameId, usize)>>>,
    /// Those whose arguments are names, with the names' slots (`value(g(x,
    /// y))`), or one tuple or list of names (`value(g((x, y, z)))`, with
    /// its shape): what a query asks of the rectangle or box its loops go
    /// over.
    pub(in crate::runtime::kernel) asked_at: std::cell::RefCell<Vec<Asked>>,
    /// Whether a comparison of a linear form with itself was folded (see
    /// `expr/spelled.rs`): it holds only while the slots are small, so
    /// the rules are not for parameters of any size, linear forms left or
    /// not.
    pub(in crate::runtime::kernel) folded: Rc<std::cell::Cell<bool>>,
    /// The functions the rules call, compiled as calls (see
    /// [`crate::runtime::kernel::calls`]).
    pub(in crate::runtime::kernel) calls: Option<Rc<Calls>>,
    /// Whether the rules are compiled for parameters of any size: then
    /// no expression is a linear form, which is evaluated unchecked (see
    /// [`crate::runtime::kernel::compile_wide`]).
    pub(in crate::runtime::kernel) wide: bool,
    /// The game's number of parameters: slots `0..arity`.
    pub(in crate::runtime::kernel) arity: usize,
}

impl Types {
    /// The parameters of `game` that its rules use as collections
    /// (`len(p)`, `p[i]`, `p[a:b]`, `x in p`, `for x in p`, `sorted(p)`, …)
    /// are lists; every other slot is an integer. A parameter given a
    /// tuple or a list of another shape at run time makes the kernel bail
    /// (see [`Types::admits`]).
    pub fn of(game: &GameIr, id: GameId) -> Types {
        Types::hinted(game, id, &[])
    }

    /// [`Types::of`], with the parameters that `hints` (the shapes of a
    /// position met) gives strings, where the rules take a list or a set
    /// and could not tell what of: `w in ws` and `w[0] != v[0]` read
    /// integers as well as strings, until a set of words comes.
    pub fn hinted(game: &GameIr, id: GameId, hints: &[Shape]) -> Types {
        let mut types = Types {
            shapes: vec![Shape::Int; game.slots.max(game.arity)],
            named: Vec::new(),
            pairs: Vec::new(),
            chars: Vec::new(),
            words: Vec::new(),
            bools: Vec::new(),
            queries: false,
            rules: true,
            asked: Default::default(),
            asked_at: Default::default(),
            folded: Default::default(),
            calls: None,
            wide: false,
            arity: game.arity,
        };
        let mut named = Vec::new();
        for rule in &game.moves {
            rule.exprs().for_each(|e| lets(e, &mut named));
        }
        types.named = named;
        let mut bound = Vec::new();
        for rule in &game.moves {
            rule.exprs().for_each(|e| values(e, &mut bound));
        }
        let mut mark = |ir: &Ir| {
            if let IrKind::Local(s) = ir.kind
                && (s as usize) < game.arity
            {
                types.shapes[s as usize] = Shape::List;
            }
        };
        for rule in &game.moves {
            for (_, domain) in &rule.binders {
                mark(domain);
            }
            rule.exprs().for_each(|e| walk(e, &mut mark));
        }
        // A collection parameter whose items are compared with a string
        // of one character holds a string (or strings, which the
        // compiled rules do not take either way).
        let mut texts = Vec::new();
        for rule in &game.moves {
            rule.exprs().for_each(|e| characters(e, &mut texts));
        }
        for s in &texts {
            if types.shapes.get(*s as usize) == Some(&Shape::List) && (*s as usize) < game.arity {
                types.shapes[*s as usize] = Shape::Str;
            }
        }
        // A parameter compared whole with a string (`s == "up"`), as a
        // state's name, holds a string.
        let mut named_states = Vec::new();
        for rule in &game.moves {
            rule.exprs()
                .for_each(|e| compared_with_text(e, &mut named_states));
        }
        for s in named_states
            .into_iter()
            .filter(|s| (*s as usize) < game.arity)
        {
            if types.shapes[s as usize] == Shape::Int {
                types.shapes[s as usize] = Shape::Str;
            }
        }
        // One whose items the rules read as strings (`rows[y][x] ==
        // "."`, `w in ws` and `w[0] == "a"`) holds strings.
        words::params(game, &texts, &mut types.shapes);
        // One whose items the rules read as pairs (`ps[i][0]`, `(x, y)
        // in ps`) holds pairs.
        pairs::params(game, &mut types.shapes);
        // One whose items the rules read as conditions (`if cs[i]`)
        // holds booleans.
        bools::item_params(game, &mut types.shapes);
        // Where the rules read items by index (`w[0]`, read as pairs
        // above) or could not tell, the position met says.
        for (now, hint) in types.shapes.iter_mut().zip(hints) {
            let taken = match now {
                Shape::List | Shape::Pairs => true,
                Shape::Set | Shape::PairSet => *hint == Shape::WordSet,
                // Items compared with a character (`cs[i] == "H"`) said
                // a string; a list of one-character strings met.
                Shape::Str => *hint == Shape::Words,
                _ => false,
            };
            if (hint.of_words() && taken) || crate::runtime::kernel::typed(*now, *hint) {
                *now = *hint;
            }
        }
        // A collection parameter that the game's own moves pass tuples
        // for is a tuple (`t[:i] + (x,) + t[i + 1:]`), one they pass
        // sets for a set (`xs - {x}`), and one they pass strings for a
        // string (`s[:i] + "T" + s[i + 1:]`). A `let` of a collection
        // (a function's argument bound once, `set_at(set_at(hs, i, a), j,
        // b)`) holds what its value is.
        let passed = own_positions(game, id);
        for _ in 0..=2 * (game.arity + bound.len()) {
            let mut changed = types.bind_collections(&bound);
            for args in &passed {
                for (i, a) in args.iter().enumerate().take(game.arity) {
                    let passed = types.shape_of(a);
                    // A string written out passed where nothing else
                    // said: a state's name (`st("down", n - 1)`).
                    let named = |(s, sure): &(Shape, bool)| {
                        *sure && *s == Shape::Str && types.shapes[i] == Shape::Int
                    };
                    let passed = passed.filter(|p| named(p) || refines(types.shapes[i], p.0));
                    if let Some((s, _)) = passed {
                        types.shapes[i] = s;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let ints = |s: Slot| types.shapes[s as usize] == Shape::Int && !types.is_named(s);
        types.bools = bools::params(game, &passed, ints);
        types
    }

    /// Gives the slot of each `let` in `bound` whose value is a
    /// collection that collection's shape: whether any slot changed.
    fn bind_collections(&mut self, bound: &[(Slot, Ir)]) -> bool {
        let mut changed = false;
        for (slot, value) in bound {
            let Some((shape, _)) = self.shape_of(value) else {
                continue;
            };
            // An integer or a list so far (a list: its value is a list
            // parameter's, whose shape may still be found).
            let now = &mut self.shapes[*slot as usize];
            if *now == Shape::Int || refines(*now, shape) {
                *now = shape;
                self.named.retain(|s| s != slot);
                changed = true;
            }
        }
        changed
    }

    /// Whether `ir` makes a list, a tuple or a set, as far as its form says:
    /// `(shape, true)` when a literal or a built-in says so, rather than
    /// what is assumed of a parameter.
    fn shape_of(&self, ir: &Ir) -> Option<(Shape, bool)> {
        let (shape, sure) = self.form_of(ir)?;
        match shape {
            Shape::List | Shape::Set | Shape::Tuple if self.pairs_made(ir) => {
                Some((shape.with_pairs(), sure))
            }
            Shape::List | Shape::Set if self.words_made(ir) => Some((shape.with_words(), sure)),
            Shape::List if self.bools_made(ir) => Some((Shape::Bools, sure)),
            Shape::Tuple if self.bools_made(ir) => Some((Shape::BoolTuple, sure)),
            _ => Some((shape, sure)),
        }
    }

    /// [`Types::shape_of`], pairs aside.
    fn form_of(&self, ir: &Ir) -> Option<(Shape, bool)> {
        match &ir.kind {
            _ if set_made(ir) => Some((Shape::Set, true)),
            IrKind::Local(s) if self.is_list(*s) => Some((self.shapes[*s as usize], false)),
            IrKind::Tuple(_) | IrKind::Const(Value::Tuple(_)) => Some((Shape::Tuple, true)),
            IrKind::Const(Value::Str(_)) | IrKind::CallBuiltin(Builtin::Join, _) => {
                Some((Shape::Str, true))
            }
            IrKind::List(_)
            | IrKind::Const(Value::List(_) | Value::Report(_))
            | IrKind::Comprehension { set: false, .. } => Some((Shape::List, true)),
            IrKind::CallBuiltin(Builtin::Sorted | Builtin::Reversed, _) => {
                Some((Shape::List, true))
            }
            IrKind::Binary(BinOp::Add | BinOp::Mul, a, b) => {
                let (a, b) = (self.shape_of(a), self.shape_of(b));
                match (a, b) {
                    (Some((_, false)), Some((s, true))) => Some((s, true)),
                    _ => a.or(b),
                }
            }
            IrKind::Slice(x, ..) => self.shape_of(x),
            IrKind::Let(_, _, body) => self.shape_of(body),
            IrKind::If(_, a, b) => match (self.shape_of(a), self.shape_of(b)) {
                (Some((_, false)), Some((s, true))) => Some((s, true)),
                (a, b) => a.or(b),
            },
            _ => None,
        }
    }

    /// The slots of the top-level expression `ir`: all integers, with
    /// queries.
    pub fn top_level(ir: &Ir) -> Types {
        let mut named = Vec::new();
        lets(ir, &mut named);
        Types {
            named,
            queries: true,
            ..Types::default()
        }
    }

    /// The frame of a function's body with `slots` slots: every slot (its
    /// parameters, and the names its `let`s bind) is an integer of any
    /// size, never read by a linear form (nothing bounds a function's
    /// arguments).
    pub fn frame(slots: usize, calls: Rc<Calls>) -> Types {
        Types {
            shapes: vec![Shape::Int; slots],
            named: (0..slots as Slot).collect(),
            calls: Some(calls),
            ..Types::default()
        }
    }

    /// These types, for rules that call `calls`.
    pub fn with_calls(mut self, calls: Option<Rc<Calls>>) -> Types {
        self.calls = calls;
        self
    }

    /// Whether `slot` holds a pair, packed (see [`Types::in_move`]).
    pub fn is_pair(&self, slot: Slot) -> bool {
        self.pairs.contains(&slot)
    }

    /// Whether `slot` holds a character (see [`Types::in_move`]).
    pub fn is_char(&self, slot: Slot) -> bool {
        self.chars.contains(&slot)
    }

    /// Whether `slot` holds a string, packed (see [`Types::in_move`]).
    pub fn is_word(&self, slot: Slot) -> bool {
        self.words.contains(&slot)
    }

    /// Whether `slot` is bound by a `let`.
    pub fn is_named(&self, slot: Slot) -> bool {
        self.named.contains(&slot)
    }

    /// Whether any slot holds a list, or a parameter a boolean: then a
    /// position's arguments come as a flat run.
    pub fn has_lists(&self) -> bool {
        self.shapes.iter().any(|s| *s != Shape::Int) || !self.bools.is_empty()
    }

    /// What slot `slot` holds.
    pub fn shape(&self, slot: Slot) -> Shape {
        self.shapes.get(slot as usize).copied().unwrap_or_default()
    }

    pub fn is_list(&self, slot: Slot) -> bool {
        self.shapes
            .get(slot as usize)
            .is_some_and(|s| *s != Shape::Int)
    }

    /// The shapes of the parameters.
    /// The number of slots of the game's frame.
    pub fn slots(&self) -> usize {
        self.shapes.len()
    }

    pub fn params(&self, arity: usize) -> &[Shape] {
        &self.shapes[..arity]
    }
}

/// Whether a slot of shape `now` takes `passed` for what the game's
/// moves pass it: a list found to be a tuple, a set, a string or of
/// pairs or strings, or a list or set of pairs (or strings) found to be
/// a set of them.
fn refines(now: Shape, passed: Shape) -> bool {
    match now {
        Shape::List => passed != Shape::List && passed != Shape::Int,
        Shape::Pairs => passed == Shape::PairSet || passed == Shape::PairTuple,
        Shape::Bools => passed == Shape::BoolTuple,
        Shape::Words => passed == Shape::WordSet,
        Shape::Set => passed == Shape::PairSet || passed == Shape::WordSet,
        _ => false,
    }
}

/// The arguments of every position of game `id` its own moves make: in
/// targets written out, and in those computed (`let (x, y) = c in
/// g(cells - {(x, y)})`, a sum).
fn own_positions(game: &GameIr, id: GameId) -> Vec<&[Ir]> {
    fn applied<'a>(ir: &'a Ir, id: GameId, out: &mut Vec<&'a [Ir]>) {
        if let IrKind::Apply(g, args) = &ir.kind
            && *g == id
        {
            out.push(args);
        }
        each_child(ir, &mut |c| applied(c, id, out));
    }
    let mut out = Vec::new();
    for rule in &game.moves {
        match &rule.target {
            TargetIr::Terms(terms) => out.extend(terms.iter().filter_map(|t| match t {
                TermIr::Node(g, args, _) if *g == id => Some(args.as_slice()),
                _ => None,
            })),
            TargetIr::Dynamic(e) => applied(e, id, &mut out),
        }
    }
    out
}
