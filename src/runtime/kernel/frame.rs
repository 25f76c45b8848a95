//! A position's arguments loaded into a kernel's frame, and every move
//! run over it: for its value ([`Kernel::mex`]) or to list its options
//! ([`Kernel::list`]).

use super::{Defs, Graph, Kernel, Marks, Shape, Stop, expr, flat, listing, run, seq};
use crate::value::GameId;

impl Kernel {
    /// Runs every move at the position with arguments `args`: marking its
    /// options' values, or, given a listing, listing them (see
    /// [`Kernel::list`]).
    pub(super) fn run_moves(
        &self,
        (defs, graph): (&Defs, &Graph),
        args: &[i64],
        (marks, poll): (&mut Marks, &mut dyn FnMut() -> bool),
        list: Option<&mut listing::Listing>,
    ) -> Result<(), Stop> {
        let arity = |g: GameId| defs.game(g).map(|g| g.arity);
        if self.targets.iter().any(|(g, n)| arity(*g) != Some(*n)) {
            return Err(Stop::Bail);
        }
        let mut frame = std::mem::take(&mut marks.frame);
        if !self.load(args, &mut frame) {
            marks.frame = frame;
            return Err(Stop::Bail);
        }
        marks.start();
        let mut run = run::Run::new(defs, graph, marks, poll);
        if let Some(list) = list {
            run = run.listing(list);
        }
        let result = self.moves.iter().enumerate().try_for_each(|(i, rule)| {
            // A copy whose guard folded to `false` makes no options, and
            // starts no share: the copies around it of the same item
            // share one, as the interpreter's item does (and as the
            // machine code, which names a share only for an option, has
            // it).
            if !rule
                .guard
                .iter()
                .any(|c| matches!(c, expr::Cond::Const(false)))
            {
                run.in_rule(rule.share);
            }
            run.list_rule(i as u32);
            run.binders(rule, 0, &mut frame)
        });
        marks.frame = frame;
        result
    }

    /// The frame of a position with arguments `args` (integers, or a flat
    /// run), if they are what the rules were compiled for: every integer
    /// below [`expr::SLOT_LIMIT`], each list where the rules take one.
    pub(super) fn load(&self, args: &[i64], frame: &mut Vec<i64>) -> bool {
        frame.clear();
        frame.resize(self.slots.max(self.arity), 0);
        let small = |a: &i64| self.wide || a.abs() < expr::SLOT_LIMIT;
        let Some(shapes) = &self.lists else {
            frame[..args.len().min(self.arity)]
                .copy_from_slice(&args[..args.len().min(self.arity)]);
            return args.len() == self.arity && args.iter().all(small);
        };
        let Some((&header, mut rest)) = args.split_first() else {
            return false;
        };
        if let Some(split) = &self.split {
            return split.load(header, rest, frame) && frame[..self.arity].iter().all(small);
        }
        // An empty list or set is one of pairs where the rules take one.
        let expected = flat::header(shapes.iter().copied()) | self.bools;
        let exact = header == expected;
        // The same arity, and booleans where the rules hold them (`g(cs[i],
        // ...)` of a list of booleans is no `g(1, ...)`).
        let same_arity = flat::arity(header) == flat::arity(expected)
            && header & flat::BOOL_BITS == expected & flat::BOOL_BITS;
        if !(exact || flat::has_packed(expected) && same_arity) {
            return false;
        }
        for (i, shape) in shapes.iter().enumerate() {
            if !exact
                && flat::shape(header, i) != *shape
                && (flat::shape(header, i) != shape.without_pairs() || rest[0] != 0)
            {
                return false;
            }
            match shape {
                Shape::Int => {
                    let Some((a, tail)) = rest.split_first().filter(|(a, _)| small(a)) else {
                        return false;
                    };
                    frame[i] = *a;
                    rest = tail;
                }
                _ => {
                    let len = rest[0] as usize;
                    let start = frame.len();
                    frame.extend_from_slice(&rest[1..1 + len]);
                    frame[i] = seq::encode(start, frame.len());
                    rest = &rest[1 + len..];
                }
            }
        }
        true
    }
}

/// How a position's tuples are split into a kernel's integer parameters
/// (see `normalize/split.rs`): the header of its flat run, and how many
/// integers each argument holds (a tuple's length, or 1 for an integer).
#[derive(Clone, Debug)]
pub(super) struct Split {
    header: i64,
    widths: Vec<(Shape, usize)>,
    /// The code of the form of the positions the kernel loads.
    form: u64,
}

impl Split {
    pub(super) fn new(params: &[(Shape, usize)]) -> Split {
        let header = flat::header(params.iter().map(|(s, _)| *s));
        let lens: Vec<usize> = (params.iter())
            .filter(|(s, _)| *s != Shape::Int)
            .map(|(_, n)| *n)
            .collect();
        Split {
            header,
            widths: params.to_vec(),
            form: crate::graph::form_code(header, &lens),
        }
    }

    /// The code of the form of the positions the kernel loads.
    pub(super) fn form(&self) -> u64 {
        self.form
    }

    /// The flat run of the position whose integers are `ints`, into `out`.
    pub(super) fn run(&self, mut ints: &[i64], out: &mut Vec<i64>) {
        out.push(self.header);
        for (shape, n) in &self.widths {
            let n = (*n).min(ints.len());
            if *shape != Shape::Int {
                out.push(n as i64);
            }
            out.extend_from_slice(&ints[..n]);
            ints = &ints[n..];
        }
    }

    /// Loads the flat run of header `header` and arguments `rest` into
    /// the integer slots at the start of `frame`: when it has this
    /// header, and each tuple its length.
    fn load(&self, header: i64, mut rest: &[i64], frame: &mut [i64]) -> bool {
        if header != self.header {
            return false;
        }
        let mut at = 0;
        for (shape, n) in &self.widths {
            let items = match shape {
                Shape::Int => rest.get(..1),
                _ => rest
                    .split_first()
                    .filter(|(len, _)| **len == *n as i64)
                    .and_then(|(_, tail)| {
                        rest = tail;
                        tail.get(..*n)
                    }),
            };
            let Some(items) = items else {
                return false;
            };
            frame[at..at + items.len()].copy_from_slice(items);
            at += items.len();
            rest = &rest[items.len()..];
        }
        rest.is_empty()
    }
}
