//! How values look when printed. Positions need the graph to show their
//! arguments, so showing is a method of the [`Machine`].

use crate::runtime::Machine;
use crate::value::{Component, NodeId, Position, ReportText, Value};

/// Bytes of text after which a value is shown no further.
const MAX_SHOWN: usize = 256 << 20;

impl Machine {
    /// The value as it would be written in the language (strings quoted).
    pub fn show(&self, v: &Value) -> String {
        let mut out = String::new();
        self.write_value(v, &mut out);
        out
    }

    /// The value as a result is printed: a string shows without quotes.
    pub fn show_top(&self, v: &Value) -> String {
        match v {
            Value::Str(s) => s.to_string(),
            Value::Report(r) => match &r.text {
                ReportText::Ready(text) => text.clone(),
                ReportText::Moves(p, value) => self.moves_text(p, *value, r.items()),
                ReportText::Table(spec) => {
                    let mut text = Vec::new();
                    self.write_table(spec, &mut text)
                        .expect("a Vec takes any text");
                    String::from_utf8(text).expect("a table is text")
                }
            },
            other => self.show(other),
        }
    }

    /// Writes `v` as a result is printed, and a newline. A table goes out
    /// row by row: its text is never held whole.
    pub fn write_top(&self, v: &Value, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if let Value::Report(r) = v
            && let ReportText::Table(spec) = &r.text
        {
            self.write_table(spec, out)?;
            return writeln!(out);
        }
        writeln!(out, "{}", self.show_top(v))
    }

    pub fn show_node(&self, node: NodeId) -> String {
        let mut out = String::new();
        self.write_node(node, &mut out);
        out
    }

    /// `a -> b -> c`: positions along a play, the middle of a long one
    /// left out.
    pub fn show_path(&self, nodes: &[NodeId]) -> String {
        const HEAD: usize = 6;
        const TAIL: usize = 5;
        let show = |part: &[NodeId]| part.iter().map(|n| self.show_node(*n)).collect::<Vec<_>>();
        let parts = if nodes.len() > HEAD + TAIL + 1 {
            let mut parts = show(&nodes[..HEAD]);
            parts.push(format!("... {} more ...", nodes.len() - HEAD - TAIL));
            parts.extend(show(&nodes[nodes.len() - TAIL..]));
            parts
        } else {
            show(nodes)
        };
        parts.join(" -> ")
    }

    pub fn show_position(&self, p: &Position) -> String {
        let mut out = String::new();
        self.write_position(p, &mut out);
        out
    }

    /// A position without its components that have no moves (they change
    /// nothing): how a move's result reads best, `kayles(2) + kayles(7)`
    /// rather than `kayles(0) + kayles(2) + kayles(7)`.
    pub fn show_result(&self, p: &Position) -> String {
        let live = p
            .components()
            .iter()
            .filter(|c| !matches!(c, Component::Node(n) if self.graph.is_terminal(*n)))
            .copied()
            .collect();
        self.show_position(&Position::from_components(live))
    }

    /// A move as `name(x=1, y=2)`, or just `name` without binders; `eq` is
    /// what stands between a binder and its value.
    pub fn show_move<'a>(
        &self,
        name: &str,
        bindings: impl Iterator<Item = (&'a str, &'a Value)>,
        eq: &str,
    ) -> String {
        // Written in one string: `moves(P)` names every move of every
        // position it is asked.
        let mut out = String::from(name);
        for (i, (n, v)) in bindings.enumerate() {
            out.push_str(if i == 0 { "(" } else { ", " });
            out.push_str(n);
            out.push_str(eq);
            self.write_value(v, &mut out);
        }
        if out.len() > name.len() {
            out.push(')');
        }
        out
    }

    fn write_node(&self, node: NodeId, out: &mut String) {
        out.push_str(self.defs.game_name(node.game));
        self.write_seq("(", ")", &self.node_args(node), out);
    }

    /// The order a sum's components are shown in: games first, by name
    /// and then arguments, then heaps by size.
    pub(crate) fn shown_order(&self, a: &Component, b: &Component) -> std::cmp::Ordering {
        use std::cmp::Ordering::{Greater, Less};
        match (a, b) {
            (Component::Node(x), Component::Node(y)) => self
                .defs
                .game_name(x.game)
                .cmp(self.defs.game_name(y.game))
                .then_with(|| self.node_args(*x).cmp(&self.node_args(*y))),
            (Component::Node(_), Component::Heap(_)) => Less,
            (Component::Heap(_), Component::Node(_)) => Greater,
            (Component::Heap(x), Component::Heap(y)) => x.cmp(y),
        }
    }

    fn write_position(&self, p: &Position, out: &mut String) {
        if p.is_empty() {
            out.push('0');
            return;
        }
        let mut comps: Vec<&Component> = p.components().iter().collect();
        comps.sort_by(|a, b| self.shown_order(a, b));
        for (i, c) in comps.into_iter().enumerate() {
            if i > 0 {
                out.push_str(" + ");
            }
            match c {
                Component::Heap(k) => out.push_str(&format!("*{k}")),
                Component::Node(n) => self.write_node(*n, out),
            }
        }
    }

    fn write_seq(&self, open: &str, close: &str, items: &[Value], out: &mut String) {
        out.push_str(open);
        for (i, item) in items.iter().enumerate() {
            // Values share their parts, so a small one can be astronomically
            // long written out: stop at a length nobody would read.
            if out.len() > MAX_SHOWN {
                out.push('…');
                return;
            }
            if i > 0 {
                out.push_str(", ");
            }
            self.write_value(item, out);
        }
        out.push_str(close);
    }

    fn write_value(&self, v: &Value, out: &mut String) {
        match v {
            Value::Int(n) => out.push_str(&n.to_string()),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Str(s) => out.push_str(&format!("{:?}", &**s)),
            Value::Tuple(items) if items.len() == 1 => {
                out.push('(');
                self.write_value(&items[0], out);
                out.push_str(",)");
            }
            Value::Tuple(items) => self.write_seq("(", ")", items, out),
            Value::List(items) => self.write_seq("[", "]", items, out),
            Value::Report(r) => self.write_seq("[", "]", r.items(), out),
            Value::Set(items) if items.is_empty() => out.push_str("{}"),
            Value::Set(items) => {
                let items: Vec<Value> = items.iter().cloned().collect();
                self.write_seq("{", "}", &items, out)
            }
            Value::Range(lo, hi) => out.push_str(&format!("{lo}..{hi}")),
            Value::Pos(p) => self.write_position(p, out),
            Value::Game(g) => out.push_str(self.defs.game_name(*g)),
        }
    }
}
