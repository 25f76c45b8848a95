//! `--debug ir` and `--debug graph` for a [`Session`]: the rules and
//! statements of a source as lowered, and every position interned so far
//! with its value, written where text for people goes
//! ([`Session::human_out`]). `--debug ast` is one line, in `load_at`.
//! Also `--explain`: how the games were compiled.

use super::Session;
use crate::ir::StmtIr;
use crate::syntax::ast::StmtKind;

impl Session {
    /// `--explain` and the REPL's `:explain`: how each game (or the one
    /// named `only`) was compiled, and the queries run as machine code
    /// (see [`crate::explain::render`]); an error names what is unknown.
    pub fn explain(&self, only: Option<&str>) -> Result<String, String> {
        let m = &self.machine;
        let report = crate::explain::render(
            &m.defs,
            &self.sources,
            only,
            (&m.interpreted, &m.hints),
            &m.compiled_queries,
        )?;
        // A limit that turns every compiled rule off is said first: the
        // report below tells how the rules would run.
        Ok(match m.items_limit_off() {
            Some((limit, longest)) => format!(
                "compiled rules off: `--max-items {limit}` is below {longest}, the longest list \
                 they may make, so every position runs in the interpreter (about 10 to 100 \
                 times slower); how each game would run with them:\n{report}"
            ),
            None => report,
        })
    }

    /// `--debug ir`: the rules and statements of one source, as lowered.
    pub(super) fn dump_ir(&mut self, program: &crate::syntax::ast::Program, stmts: &[StmtIr]) {
        let m = &self.machine;
        let mut lines = Vec::new();
        for stmt in &program.stmts {
            let lowered = match &stmt.kind {
                StmtKind::Game(g) => m.defs.lookup(&g.name.node).and_then(|id| match id {
                    crate::defs::Global::Game(id) => m.defs.game(id).map(|g| format!("{g:#?}")),
                    _ => None,
                }),
                StmtKind::Fn(f) => m.defs.lookup(&f.name.node).and_then(|id| match id {
                    crate::defs::Global::Fn(id) => {
                        m.defs.fns[id as usize].as_ref().map(|f| format!("{f:#?}"))
                    }
                    _ => None,
                }),
                _ => None,
            };
            lines.extend(lowered);
        }
        lines.extend(stmts.iter().map(|stmt| format!("{stmt:#?}")));
        for line in lines {
            let _ = writeln!(self.human_out(), "{line}");
        }
    }

    /// `--debug graph`: every position interned so far and its value.
    pub(super) fn dump_graph(&mut self) {
        let m = &self.machine;
        let mut lines = Vec::new();
        for (game, count, known) in m.graph.stats().collect::<Vec<_>>() {
            lines.push(format!(
                "# {}: {count} positions, {known} with known values",
                m.defs.game_name(game)
            ));
            for (node, value) in m.graph.nodes(game) {
                let shown = if value < crate::graph::ABSENT {
                    value.to_string()
                } else {
                    "?".into()
                };
                lines.push(format!("{} = {shown}", m.show_node(node)));
            }
        }
        for line in lines {
            let _ = writeln!(self.human_out(), "{line}");
        }
    }
}
