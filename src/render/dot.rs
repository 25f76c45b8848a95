//! A transition graph as Graphviz DOT text, and that text drawn as SVG or
//! PNG by Graphviz's own `dot` program when it is installed.
//!
//! Positions are boxes labelled with their value; those of value 0 (the
//! player to move loses: P-positions) are shaded. An arrow is a move,
//! labelled with the moves that lead there. A move into a sum points to
//! an ellipse for the sum, with dashed lines to its components, which are
//! drawn (and played) on their own. A graph cut short by its limits says
//! so in a comment and in its title, and its positions with moves not
//! drawn have dashed borders.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// What the runtime found out from a position, ready to draw.
#[derive(Debug, Default)]
pub struct TransitionGraph {
    /// The position drawn from, as shown.
    pub title: String,
    /// In the order met, the first being where the graph starts.
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub cut: Cut,
}

#[derive(Debug)]
pub struct Node {
    /// The position as shown, e.g. `kayles(3)` or `kayles(1) + kayles(2)`.
    pub position: String,
    pub value: u64,
    /// A sum's components' values (their xor is `value`); empty for a
    /// position of one component.
    pub parts: Vec<u64>,
    /// Whether it has moves that are not drawn (the graph was cut there).
    pub open: bool,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Edge {
    /// Moves from one node to another, by name; several moves may lead to
    /// the same position.
    Move {
        from: usize,
        to: usize,
        moves: Vec<String>,
    },
    /// A sum and one of its components.
    Part { sum: usize, component: usize },
}

/// The limits a graph was drawn within, and which of them cut it.
#[derive(Debug, Default)]
pub struct Cut {
    /// The depth limit, if some position at that depth had moves.
    pub depth: Option<usize>,
    /// The node limit, if some position's moves led past it.
    pub nodes: Option<usize>,
}

/// Moves listed on one arrow before the rest are counted.
const MOVES_SHOWN: usize = 4;

/// The fill of positions of value 0.
const P_FILL: &str = "#fde2a7";

/// The graph as DOT text. The same graph gives the same text, byte for
/// byte: nodes and arrows come in the order the runtime met them.
pub fn to_dot(g: &TransitionGraph) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// The transition graph of {}, drawn by grundy.",
        g.title
    );
    out.push_str(
        "// Shaded boxes are positions of value 0: the player to move loses.\n\
         // Ellipses are sums, with dashed lines to their components.\n",
    );
    let note = cut_note(g);
    if let Some(note) = &note {
        let _ = writeln!(out, "// {note}");
    }
    let _ = writeln!(out, "digraph {} {{", quote(&g.title));
    let mut title = format!("transition graph of {}", g.title);
    if let Some(note) = &note {
        title.push('\n');
        title.push_str(note);
    }
    let _ = writeln!(out, "  label={};\n  labelloc=t;", quote(&title));
    out.push_str("  fontname=\"Helvetica\";\n");
    out.push_str("  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n");
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=10];\n");
    for (i, node) in g.nodes.iter().enumerate() {
        let _ = writeln!(out, "  n{i} [{}];", node_attributes(node));
    }
    for edge in &g.edges {
        let _ = match edge {
            Edge::Move { from, to, moves } => {
                writeln!(
                    out,
                    "  n{from} -> n{to} [label={}];",
                    quote(&move_label(moves))
                )
            }
            Edge::Part { sum, component } => writeln!(
                out,
                "  n{sum} -> n{component} [style=dashed, arrowhead=none];"
            ),
        };
    }
    out.push_str("}\n");
    out
}

/// What the title says of a graph cut short, if it was.
fn cut_note(g: &TransitionGraph) -> Option<String> {
    let limits: Vec<String> = [
        g.cut.depth.map(|d| format!("at depth {d}")),
        g.cut.nodes.map(|n| format!("at {n} nodes")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if limits.is_empty() {
        return None;
    }
    let open = g.nodes.iter().filter(|n| n.open).count();
    let these = match open {
        1 => "the position with a dashed border has moves not drawn".to_string(),
        n => format!("the {n} positions with dashed borders have moves not drawn"),
    };
    Some(format!("cut {}: {these}", limits.join(" and ")))
}

fn node_attributes(node: &Node) -> String {
    let value = match node.parts.as_slice() {
        [] => format!("value {}", node.value),
        parts => {
            let parts: Vec<String> = parts.iter().map(u64::to_string).collect();
            format!("value {} = {}", node.value, parts.join(" ^ "))
        }
    };
    let mut attrs = format!("label={}", quote(&format!("{}\n{value}", node.position)));
    let mut style = vec!["rounded"];
    if !node.parts.is_empty() {
        attrs.push_str(", shape=ellipse");
        style.clear();
    }
    if node.open {
        style.push("dashed");
    }
    if node.value == 0 {
        style.push("filled");
        let _ = write!(attrs, ", fillcolor=\"{P_FILL}\"");
    }
    if !style.is_empty() && style != ["rounded"] {
        let _ = write!(attrs, ", style={}", quote(&style.join(",")));
    }
    attrs
}

/// The moves on one arrow, one a line, the tail of a long list counted.
fn move_label(moves: &[String]) -> String {
    let mut lines: Vec<String> = moves.iter().take(MOVES_SHOWN).cloned().collect();
    if moves.len() > MOVES_SHOWN {
        lines.push(format!("... {} more", moves.len() - MOVES_SHOWN));
    }
    lines.join("\n")
}

/// A DOT string: quoted, with its quotes and backslashes escaped and its
/// line breaks as `\n`.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Why DOT text could not be drawn.
#[derive(Debug)]
pub enum DrawError {
    /// `dot` is not on the `PATH`.
    NotInstalled,
    /// `dot` could not run, or failed; what it said.
    Failed(String),
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawError::NotInstalled => f.write_str(
                "drawing the graph needs Graphviz's `dot` program, which is not on the PATH: \
                 install Graphviz (`apt-get install graphviz` on Debian and Ubuntu, \
                 `brew install graphviz` on macOS, or see https://graphviz.org/download/), \
                 or write the graph as `.dot`",
            ),
            DrawError::Failed(why) => write!(f, "Graphviz's `dot` failed: {why}"),
        }
    }
}

/// The DOT text drawn by Graphviz's `dot` as `format` (`svg` or `png`).
pub fn draw(dot: &str, format: &str) -> Result<Vec<u8>, DrawError> {
    let child = Command::new("dot")
        .arg(format!("-T{format}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(DrawError::NotInstalled),
        Err(e) => return Err(DrawError::Failed(e.to_string())),
    };
    // The graph is written from another thread, so that a large drawing
    // coming back cannot block `dot` while it still reads.
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let text = dot.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child
        .wait_with_output()
        .map_err(|e| DrawError::Failed(e.to_string()))?;
    let written = writer.join().unwrap_or(Ok(()));
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr).trim().to_string();
        return Err(DrawError::Failed(match said.is_empty() {
            true => format!("it ended with {}", output.status),
            false => said,
        }));
    }
    written.map_err(|e| DrawError::Failed(e.to_string()))?;
    Ok(output.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(position: &str, value: u64) -> Node {
        Node {
            position: position.into(),
            value,
            parts: Vec::new(),
            open: false,
        }
    }

    #[test]
    fn labels_are_escaped() {
        assert_eq!(quote("f(\"a\\b\")\nx"), "\"f(\\\"a\\\\b\\\")\\nx\"");
    }

    #[test]
    fn long_lists_of_moves_are_counted() {
        let moves: Vec<String> = (1..=6).map(|k| format!("take(k={k})")).collect();
        assert_eq!(
            move_label(&moves),
            "take(k=1)\ntake(k=2)\ntake(k=3)\ntake(k=4)\n... 2 more"
        );
    }

    #[test]
    fn a_cut_graph_says_where_and_marks_open_positions() {
        let mut open = node("nim(1)", 1);
        open.open = true;
        let g = TransitionGraph {
            title: "nim(2)".into(),
            nodes: vec![node("nim(2)", 2), open],
            edges: vec![Edge::Move {
                from: 0,
                to: 1,
                moves: vec!["take(k=1)".into()],
            }],
            cut: Cut {
                depth: Some(1),
                nodes: None,
            },
        };
        let dot = to_dot(&g);
        let note = "cut at depth 1: the position with a dashed border has moves not drawn";
        assert!(dot.contains(&format!("// {note}\n")), "{dot}");
        assert!(dot.contains(&format!("nim(2)\\n{note}")), "{dot}");
        assert!(dot.contains("n1 [label=\"nim(1)\\nvalue 1\", style=\"rounded,dashed\"];"));
    }

    #[test]
    fn a_whole_graph_has_no_cut_note() {
        let g = TransitionGraph {
            title: "nim(0)".into(),
            nodes: vec![node("nim(0)", 0)],
            ..Default::default()
        };
        let dot = to_dot(&g);
        assert!(!dot.contains("cut"), "{dot}");
        assert!(
            dot.contains("fillcolor=\"#fde2a7\", style=\"rounded,filled\""),
            "{dot}"
        );
    }
}
