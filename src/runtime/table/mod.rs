//! `table(game, rows[, columns])`: the nim-values of a one-parameter game
//! as a sequence printed in rows of ten, or of a two-parameter game as a
//! grid. The result is also a list (of values, or of rows).

use crate::builtins::Builtin;
use crate::diag::Diagnostic;
use crate::graph::ABSENT;
use crate::runtime::{Machine, RtResult, error};
use crate::span::Span;
use crate::value::{Axis, Component, Nims, Report, TableSpec, Value};
use std::rc::Rc;

mod text;

/// Values per printed row of a one-parameter table.
const ROW: usize = 10;

impl Machine {
    pub fn table(&mut self, args: &[Value], spans: &[Span]) -> RtResult<Value> {
        let Value::Game(game) = args[0] else {
            return Err(self.not_a_game(Builtin::Table, &args[0], spans[0]));
        };
        let rules = self.game_ir(game);
        let ranges = &args[1..];
        if rules.arity != ranges.len() {
            return Err(error(
                spans[0],
                format!(
                    "`{}` has {} parameters, so `table` needs {} ranges but got {}",
                    rules.name,
                    rules.arity,
                    rules.arity,
                    ranges.len()
                ),
                "this game",
            ));
        }
        let all_holes = vec![None; rules.arity];
        self.table_of(game, &all_holes, ranges, &spans[1..], spans[0])
    }

    /// The error of `table(x, ...)` or `plot(x, ...)` (`query`) when `x`
    /// is no game; for `table`, which takes families, with how to write
    /// one.
    pub(super) fn not_a_game(&self, query: Builtin, x: &Value, span: Span) -> Box<Diagnostic> {
        let query = query.name();
        let e = error(
            span,
            format!(
                "the first argument of `{query}` must be a game, found {}",
                x.type_name()
            ),
            format!("this is {}", self.show(x)),
        );
        // `table(nim(3), 0..10)`: the game was meant, or `w(1, _)` for `w(1, 2)`.
        let Value::Pos(p) = x else { return e };
        let [Component::Node(node)] = p.components() else {
            return e;
        };
        let name = self.defs.game_name(node.game);
        let args = self.node_args(*node);
        let family = match args.split_last() {
            Some((_, fixed)) if !fixed.is_empty() && query == "table" => {
                let shown: Vec<String> = fixed.iter().map(|a| self.show(a)).collect();
                format!(
                    ", or write `_` for the parameter that varies: `table({name}({}, _), ...)`",
                    shown.join(", ")
                )
            }
            _ => String::new(),
        };
        Box::new(e.help(format!(
            "give the game itself, not one of its positions: `{query}({name}, ...)`{family}"
        )))
    }

    /// `table(g(a, _), xs)`: the table of `game` with the arguments of
    /// `template`, each `None` in it (a hole) taken from its collection of
    /// `ranges`; `span` is the whole call's. `table(g, xs)` is the family
    /// whose arguments are all holes.
    pub fn table_of(
        &mut self,
        game: u32,
        template: &[Option<Value>],
        ranges: &[Value],
        spans: &[Span],
        span: Span,
    ) -> RtResult<Value> {
        let rules = self.game_ir(game);
        let holes: Vec<usize> = (0..template.len())
            .filter(|i| template[*i].is_none())
            .collect();
        if rules.arity != template.len()
            || holes.len() != ranges.len()
            || !(1..=2).contains(&holes.len())
        {
            // The game was redefined since the call was written.
            return Err(error(
                span,
                format!(
                    "`{}` now has {}, which this table does not match",
                    rules.name,
                    crate::diag::count(rules.arity, "parameter")
                ),
                "this table",
            ));
        }
        let axes = self.axes(ranges, spans)?;
        let names: Vec<Rc<str>> = rules.def.params.iter().map(|p| p.node.clone()).collect();
        let params: Vec<Rc<str>> = holes.iter().map(|i| names[*i].clone()).collect();
        let shown: Vec<String> = template
            .iter()
            .zip(&names)
            .map(|(arg, name)| arg.as_ref().map_or(name.to_string(), |v| self.show(v)))
            .collect();
        let title = format!("{}({})", rules.name, shown.join(", "));
        let nims = self.family_nims(game, template, &holes, &axes, span)?;
        let spec = TableSpec {
            title,
            params,
            axes,
            nims,
        };
        Ok(Value::Report(Rc::new(Report::table(spec))))
    }

    fn axes(&self, ranges: &[Value], spans: &[Span]) -> RtResult<Vec<Axis>> {
        ranges
            .iter()
            .zip(spans)
            .map(|(r, s)| match r {
                Value::Range(lo, hi) => {
                    self.check_size(self.len_of(r, *s)?, *s)?;
                    Ok(Axis::Range(*lo, *hi))
                }
                _ => Ok(Axis::Items(self.items(r, *s)?.iter().cloned().collect())),
            })
            .collect()
    }

    /// The values of the positions of a family, row by row: the holes of
    /// `template` (at `holes`) filled from the axes.
    fn family_nims(
        &mut self,
        game: u32,
        template: &[Option<Value>],
        holes: &[usize],
        axes: &[Axis],
        span: Span,
    ) -> RtResult<Nims> {
        // `table(sub({1, 3, 4}, _), ...)`: the family of a game made for
        // the fixed arguments, when no hole is one of them.
        if let Some((made, template, holes)) = self.family_instance(game, template, holes) {
            return self.family_nims(made, &template, &holes, axes, span);
        }
        if let ([Axis::Range(lo, hi)], [None]) = (axes, template) {
            // The sequence of a one-integer game: from the bottom up at once.
            let first = [Value::Int(*lo)];
            if *lo < *hi && self.graph.find(game, &first).is_none() {
                self.intern(game, &first, span)?;
            }
            self.sweep_range(game, (*lo, *hi))?;
        }
        self.sweep_strip_cells(game, (template, holes), axes, span)?;
        if let ([Axis::Range(a0, a1), Axis::Range(b0, b1)], [None, None]) = (axes, template) {
            // A two-integer game's: square shell by square shell.
            let first = [Value::Int(*a0), Value::Int(*b0)];
            if *a0 < *a1 && *b0 < *b1 && self.graph.find(game, &first).is_none() {
                self.intern(game, &first, span)?;
            }
            self.sweep_rectangle(game, (*a0, *a1), (*b0, *b1))?;
        }
        let (rows, columns) = (axes[0].len(), axes.get(1).map_or(1, Axis::len));
        let mut nims = Nims::with_capacity(rows.saturating_mul(columns));
        let mut args: Vec<Value> = template
            .iter()
            .map(|a| a.clone().unwrap_or(Value::Int(0)))
            .collect();
        // Integers, the common case: the arguments filled in as such,
        // each cell's value read where the sweep above left it.
        let mut ints = int_template(template, axes);
        let total = rows.saturating_mul(columns);
        for i in 0..rows {
            self.pulse.table(i * columns, total);
            if let Some(ints) = &mut ints {
                self.int_row(game, (ints, holes), (axes, i), &mut nims, span)?;
                continue;
            }
            args[holes[0]] = axes[0].get(i);
            for j in 0..columns {
                if let Some(ys) = axes.get(1) {
                    args[holes[1]] = ys.get(j);
                }
                let node = match self.graph.find(game, &args) {
                    Some(node) => node,
                    None => self.intern(game, &args, span)?,
                };
                nims.push(self.node_value(node)?);
            }
        }
        self.pulse.table(0, 0);
        Ok(nims)
    }

    /// The cells of a table of a game whose positions lie in a strip (see
    /// [`crate::runtime::kernel::Strip`]), asked along its long argument
    /// by a range, each of its short argument's values asked (an axis, or
    /// a fixed argument: `table(heap, 0..=N, [false])`, `table(heap(_,
    /// false), 0..=N)`): swept from the bottom up, a column at a time, as
    /// a query asking them in order sweeps them (`Searcher::strip_ahead`);
    /// else each cell would be searched alone. Its first cell is made
    /// first: it gives the game's table its form, if any. Each column's
    /// sweep also values the strip's own columns in the rows it passes
    /// (within half the room left, as any strip's sweep); after the first
    /// column they are found valued.
    fn sweep_strip_cells(
        &mut self,
        game: u32,
        (template, holes): (&[Option<Value>], &[usize]),
        axes: &[Axis],
        span: Span,
    ) -> RtResult<()> {
        // A strip of a game of two parameters (not a pair split into its
        // two integers, whose strip counts the pair's).
        if template.len() != 2 {
            return Ok(());
        }
        let Some(strip) = self.kernel(game).and_then(|k| k.strip()) else {
            return Ok(());
        };
        let (long, short) = (strip.long, 1 - strip.long);
        let Some(Axis::Range(lo, hi)) = holes.iter().position(|h| *h == long).map(|i| &axes[i])
        else {
            return Ok(());
        };
        // A strip's rows are of a long argument from 0.
        if lo >= hi || *lo < 0 {
            return Ok(());
        }
        let cols = match (holes.iter().position(|h| *h == short), &template[short]) {
            (Some(i), _) => axes[i].values(),
            (None, Some(fixed)) => vec![fixed.clone()],
            (None, None) => return Ok(()),
        };
        for col in cols {
            // Only the strip's own kind of column: another is no position
            // the strip holds (`heap(n, 0)` of a strip of booleans).
            let at = match col {
                Value::Int(n) if !strip.flag => n,
                Value::Bool(b) if strip.flag => i64::from(b),
                _ => continue,
            };
            let mut args = [Value::Int(*lo), col];
            if long == 1 {
                args.swap(0, 1);
            }
            // A first cell that cannot be made (no room) is met again
            // below, where its error is reported.
            let made =
                self.graph.find(game, &args).is_some() || self.intern(game, &args, span).is_ok();
            if made {
                self.sweep_strip_range((game, at), (*lo, *hi))?;
            }
        }
        Ok(())
    }

    /// The values of row `i` of a table of a family of integer positions,
    /// `ints` its arguments with the holes to fill: each found or made as
    /// integers, with no values.
    fn int_row(
        &mut self,
        game: u32,
        (ints, holes): (&mut [i64], &[usize]),
        (axes, i): (&[Axis], usize),
        nims: &mut Nims,
        span: Span,
    ) -> RtResult<()> {
        ints[holes[0]] = axes[0].int(i).expect("an axis of integers");
        let columns = axes.get(1).map_or(1, Axis::len);
        for j in 0..columns {
            if let Some(ys) = axes.get(1) {
                ints[holes[1]] = ys.int(j).expect("an axis of integers");
            }
            // Most often the sweep above valued it already.
            let v = self.graph.int_value(game, ints);
            if v < ABSENT {
                nims.push(v);
                continue;
            }
            let node = match self.intern_ints(game, ints) {
                Some(node) => node,
                None => {
                    let args: Vec<Value> = ints.iter().map(|n| Value::Int(*n)).collect();
                    self.intern(game, &args, span)?
                }
            };
            nims.push(self.node_value(node)?);
        }
        Ok(())
    }
}

/// The arguments of a family's positions as integers, the holes 0, when
/// the fixed ones and every axis's items are integers.
fn int_template(template: &[Option<Value>], axes: &[Axis]) -> Option<Vec<i64>> {
    if !axes.iter().all(Axis::all_ints) {
        return None;
    }
    template
        .iter()
        .map(|a| match a {
            None => Some(0),
            Some(Value::Int(n)) => Some(*n),
            Some(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::session::loaded;
    use crate::span::Span;
    use crate::value::{Nims, ReportText, Value};

    #[test]
    fn a_table_keeps_nim_values_and_makes_its_items_when_asked() {
        let (mut session, _) = loaded("game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n");
        let m = &mut session.machine;
        let args = [Value::Game(0), Value::Range(0, 12)];
        let table = m.table(&args, &[Span::default(); 2]).unwrap();
        let Value::Report(report) = &table else {
            panic!("a table is a report");
        };
        let ReportText::Table(spec) = &report.text else {
            panic!("a table is written out when shown");
        };
        assert!(matches!(&spec.nims, Nims::U8(v) if *v == (0..12).collect::<Vec<u8>>()));
        assert_eq!(report.items(), (0..12).map(Value::Int).collect::<Vec<_>>());
        let shown = m.show_top(&table);
        assert!(shown.starts_with("nim(n), n = 0..=11\n"), "{shown}");
        let mut written = Vec::new();
        m.write_top(&table, &mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), shown + "\n");
    }

    #[test]
    fn nim_values_move_to_wider_slots_as_they_grow() {
        let mut nims = Nims::with_capacity(5);
        nims.push(7);
        assert!(matches!(&nims, Nims::U8(v) if v.capacity() >= 5));
        nims.push(300);
        assert!(matches!(&nims, Nims::U16(v) if v.capacity() >= 5));
        nims.push(70_000);
        assert!(matches!(&nims, Nims::U32(v) if v.capacity() >= 5));
        nims.push(255);
        nims.push(1 << 40);
        assert!(matches!(&nims, Nims::U64(v) if v.capacity() >= 5));
        let all: Vec<u64> = (0..nims.len()).map(|i| nims.get(i)).collect();
        assert_eq!(all, [7, 300, 70_000, 255, 1 << 40]);
    }

    #[test]
    fn any_value_may_label_a_table_row() {
        let (mut session, _) = loaded("game g(a) { }\n");
        let m = &mut session.machine;
        let items = [
            Value::str("x"),
            Value::Bool(true),
            Value::list(vec![Value::Int(1)]),
        ];
        for item in items {
            let axis = Value::list(vec![item.clone()]);
            let table = m.table(&[Value::Game(0), axis], &[Span::default(); 2]);
            let shown = m.show_top(&table.unwrap());
            assert!(
                shown.ends_with(&format!("{} | 0", m.show(&item))),
                "{shown}"
            );
        }
    }
}
