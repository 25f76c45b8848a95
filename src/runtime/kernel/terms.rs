//! The value of one option's terms in the kernel's run: games applied
//! to integers or to lists, heaps, and sums of comprehensions of those.

use super::run::Run;
use super::seq::Comp;
use super::{Arg, Eval, ITEMS_MAX, Stop, Term};
use crate::value::GameId;

/// Node terms with at most this many arguments have them evaluated on
/// the stack.
const ARGS_INLINE: usize = 4;

impl Run<'_> {
    /// A term's value, if known (see [`super::Marks::known`]).
    pub(super) fn term(&mut self, term: &Term, f: &mut Vec<i64>) -> Eval<Option<u64>> {
        Ok(match term {
            Term::Heap(k) => Some(u64::try_from(k.eval(f, self.defs)?).map_err(|_| Stop::Bail)?),
            Term::Node(game, exprs) => {
                let mut buf = [0i64; ARGS_INLINE];
                let mut heap = Vec::new();
                let args: &mut [i64] = match exprs.len() {
                    n if n <= ARGS_INLINE => &mut buf[..n],
                    n => {
                        heap.resize(n, 0);
                        &mut heap
                    }
                };
                for (slot, a) in args.iter_mut().zip(exprs) {
                    *slot = a.eval(f, self.defs)?;
                }
                let v = self.graph.int_value(*game, args);
                self.marks.known(v, *game, args)?
            }
            Term::Flat(game, header, exprs) => self.flat(*game, *header, exprs, f)?,
            Term::Sum(comp) => self.sum(comp, f)?,
        })
    }

    /// The xor of the values of the terms of every item of `comp`, if all
    /// are known. Every item is looked at, as [`Run::each`] looks at every
    /// term; past [`ITEMS_MAX`] items, the interpreter's, as a list that
    /// long is.
    fn sum(&mut self, comp: &Comp<Vec<Term>>, f: &mut Vec<i64>) -> Eval<Option<u64>> {
        let (mut value, mut items) = (Some(0), 0);
        let defs = self.defs;
        comp.run(0, f, defs, &mut |terms, f| {
            items += 1;
            if items > ITEMS_MAX {
                return Err(Stop::Bail);
            }
            for t in terms {
                let v = self.term(t, f)?;
                value = value.zip(v).map(|(a, b)| a ^ b);
            }
            Ok(())
        })?;
        Ok(value)
    }

    /// The value of a node term with list arguments, if known: its
    /// arguments made as a flat run ([`crate::graph::flat`]), then looked
    /// up.
    fn flat(
        &mut self,
        game: GameId,
        header: i64,
        exprs: &[Arg],
        f: &mut Vec<i64>,
    ) -> Eval<Option<u64>> {
        let mut run = std::mem::take(&mut self.marks.run);
        run.clear();
        run.push(header);
        let mark = f.len();
        let made = exprs.iter().try_for_each(|a| {
            match a {
                Arg::Int(n) => run.push(n.eval(f, self.defs)?),
                Arg::Seq(xs) => {
                    let (a, b) = xs.eval(f, self.defs)?;
                    run.push((b - a) as i64);
                    run.extend_from_slice(&f[a..b]);
                }
            }
            f.truncate(mark);
            Ok(())
        });
        f.truncate(mark);
        let found = made.and_then(|()| {
            let v = self.graph.flat_value(game, &run);
            self.marks.known_flat(v, game, &run)
        });
        self.marks.run = run;
        found
    }
}
