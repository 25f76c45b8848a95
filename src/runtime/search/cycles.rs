//! The search's errors about positions that lead back to themselves: a
//! cycle of moves, and a rule asking about a position still being
//! worked out.

use crate::diag::{Diagnostic, Phase};
use crate::runtime::Machine;
use crate::runtime::moves::cycle_error;
use crate::value::NodeId;

impl Machine {
    pub(super) fn cycle(&self, stack: &[NodeId], repeated: NodeId) -> Box<Diagnostic> {
        let Some(from) = stack.iter().rposition(|n| *n == repeated) else {
            // In progress in an outer search: a query asked from inside the
            // rules of a node on that search's path reached the path again.
            let mut path: Vec<NodeId> = stack.to_vec();
            path.push(repeated);
            let (first, last) = (self.show_node(path[0]), self.show_node(repeated));
            let asker = self.running.innermost().unwrap_or(repeated);
            let message = if asker == repeated {
                format!("the rules of {last} ask about {first}, which leads back to {last}")
            } else {
                format!(
                    "the rules of {} ask about {first}, which leads to {last}, still being evaluated",
                    self.show_node(asker),
                )
            };
            let e = depends_on_itself(message);
            return Box::new(e.note(format!("by moves: {}", self.show_path(&path))));
        };
        // The cycle is told from its least position, so that the same
        // cycle reads the same whatever order the search met it in (the
        // compiled rules and sweeps meet positions in another order).
        let mut path: Vec<NodeId> = stack[from..].to_vec();
        let key = |n: &NodeId| (n.game, self.node_args(*n).to_vec());
        let least = (0..path.len()).min_by_key(|i| key(&path[*i])).unwrap_or(0);
        path.rotate_left(least);
        path.push(path[0]);
        let rules = self.game_ir(path[0].game);
        let err = cycle_error(self, &path);
        Box::new(err.at(rules.def.name.span, "positions of this game repeat"))
    }

    /// The error for a query, asked from inside the rules of a node, that
    /// needs `asked`, whose value is still being computed: the rules would
    /// depend on their own result. The query places it (see `call_builtin`).
    pub fn asks_about_itself(&self, asked: NodeId) -> Box<Diagnostic> {
        let running = self.running.innermost().unwrap_or(asked);
        let message = if running == asked {
            format!(
                "the rules of {} ask about {0} itself",
                self.show_node(asked)
            )
        } else {
            format!(
                "the rules of {} ask about {}, which is still being evaluated",
                self.show_node(running),
                self.show_node(asked)
            )
        };
        Box::new(depends_on_itself(message))
    }
}

/// A rule that needs the value or moves of a position still being worked
/// out; the query that asked places it (see `Machine::call_builtin`).
fn depends_on_itself(message: String) -> Diagnostic {
    Diagnostic::new(Phase::Runtime, message).help(
        "the value of a position is computed from its moves, so the rules that make \
         those moves may only ask about positions that do not lead back to it",
    )
}
