//! Which collections of a game hold strings, each packed in one item
//! ([`crate::graph::flat::pack_word`]): rows of a board (`rows[y][x] ==
//! "."`), a set of words (`w in ws` then `w[0]`); what the rules make of
//! them; and, in each move, the slots that hold one such string.

use super::Types;
use crate::graph::Shape;
use crate::ir::{ClauseIr, GameIr, Ir, IrKind, PatIr, Slot};
use crate::value::Value;

/// Makes each list parameter among `shapes` whose items the rules of
/// `game` read as strings a list of strings: `rows[y][x]` compared with
/// a character, or `w in ws` (a binder or a `for`) with `w[i]` compared
/// with one (`texts`: the slots read so, as `characters` finds them).
pub(super) fn params(game: &GameIr, texts: &[Slot], shapes: &mut [Shape]) {
    let mut words = Vec::new();
    for rule in &game.moves {
        rule.exprs().for_each(|e| rows_read(e, &mut words));
        let mut over = Vec::new();
        for (pattern, domain) in &rule.binders {
            if let PatIr::Slot(s) = pattern {
                over.push((*s, domain.clone()));
            }
        }
        rule.exprs()
            .for_each(|e| super::pairs::one_name_fors(e, &mut over));
        for (s, domain) in over {
            if let IrKind::Local(xs) = domain.kind
                && texts.contains(&s)
            {
                words.push(xs);
            }
        }
    }
    for s in words {
        if shapes.get(s as usize) == Some(&Shape::List) && (s as usize) < game.arity {
            shapes[s as usize] = Shape::Words;
        }
    }
}

/// Pushes on `out` each slot `s` that `ir` reads as `s[i][j]` compared
/// with a string of one character.
fn rows_read(ir: &Ir, out: &mut Vec<Slot>) {
    let row_of = |e: &Ir| match &e.kind {
        IrKind::Index(row, _) => match &row.kind {
            IrKind::Index(rows, _) => match rows.kind {
                IrKind::Local(s) => Some(s),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    super::walks::beside_characters(ir, &row_of, out);
}

impl Types {
    /// Whether `ir` makes a list or set of strings, as far as its form
    /// says: a display or a comprehension of strings, a constant of them,
    /// or such a list sorted, joined or combined.
    pub(super) fn words_made(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Local(s) => self.shape(*s).of_words(),
            IrKind::List(items) | IrKind::Set(items) => {
                items.first().is_some_and(|x| self.word_valued(x))
            }
            IrKind::Const(v @ (Value::List(_) | Value::Set(_))) => {
                super::super::constant_packed(v).is_some_and(|(s, _)| s.of_words())
            }
            IrKind::Comprehension { elem, clauses, .. } => {
                self.word_valued(elem) || self.word_over(elem, clauses)
            }
            IrKind::CallBuiltin(
                crate::builtins::Builtin::Sorted
                | crate::builtins::Builtin::Reversed
                | crate::builtins::Builtin::Set,
                args,
            ) => args.len() == 1 && self.words_made(&args[0]),
            IrKind::Binary(_, a, b) => self.words_made(a) || self.words_made(b),
            IrKind::Slice(x, ..) | IrKind::Let(_, _, x) => self.words_made(x),
            IrKind::If(_, a, b) => self.words_made(a) || self.words_made(b),
            _ => false,
        }
    }

    /// Whether `ir` is a string as an item of a list: a slot holding one,
    /// an item of a list of strings, or what makes a string.
    fn word_valued(&self, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Local(s) => self.is_word(*s),
            IrKind::Index(xs, _) => self.words_made(xs),
            _ => self.shape_of(ir).is_some_and(|(s, _)| s == Shape::Str),
        }
    }

    /// Whether `elem` is the name a `for` among `clauses` binds to each
    /// item of a list or set of strings (`{v for v in ws if ...}`).
    fn word_over(&self, elem: &Ir, clauses: &[ClauseIr]) -> bool {
        let IrKind::Local(v) = elem.kind else {
            return false;
        };
        clauses.iter().any(
            |c| matches!(c, ClauseIr::For(PatIr::Slot(s), xs) if *s == v && self.words_made(xs)),
        )
    }
}
