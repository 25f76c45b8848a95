//! What a limit error says about the rules that ran into it. A rule without
//! a guard (`move take(k in [1, 3, 4]) -> sub(n - k)`) makes positions
//! without end, and the search follows one play down until a limit stops
//! it: the newest position on that play, and the way its arguments were
//! going, show the user which rule runs away and in which direction.

use super::Machine;
use crate::diag::{Diagnostic, Phase};
use crate::value::{NodeId, Value};

/// How many positions at the end of the play are read for a trend: enough
/// that a rule with a few moves is seen going one way, few enough to cost
/// nothing next to the error.
const RECENT: usize = 16;

/// Which way an argument went along the end of a play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Trend {
    Decreasing,
    Increasing,
}

impl Trend {
    fn word(self) -> &'static str {
        match self {
            Trend::Decreasing => "decreasing",
            Trend::Increasing => "increasing",
        }
    }
}

/// The trend of a sequence of integers: every step goes one way or stays,
/// and the last is past the first.
fn trend(xs: &[i64]) -> Option<Trend> {
    let (first, last) = (*xs.first()?, *xs.last()?);
    let steps = || xs.windows(2);
    if last < first && steps().all(|w| w[1] <= w[0]) {
        Some(Trend::Decreasing)
    } else if last > first && steps().all(|w| w[1] >= w[0]) {
        Some(Trend::Increasing)
    } else {
        None
    }
}

impl Machine {
    /// Adds to a limit error (`--max-states`, `--max-memory`, ...) met while
    /// the search followed `play` the newest position reached and, when
    /// some of its integer arguments kept going one way along the end of
    /// the play, that they did, with a hint to bound them with a guard
    /// where one kept growing or went below 0.
    pub(crate) fn describe_runaway(&self, play: &[NodeId], e: &mut Diagnostic) {
        if e.phase != Phase::Limit || play.len() < 2 {
            return;
        }
        let last = play[play.len() - 1];
        let recent: Vec<NodeId> = play[play.len().saturating_sub(RECENT)..]
            .iter()
            .copied()
            .filter(|n| n.game == last.game)
            .collect();
        let rules = self.game_ir(last.game);
        let moving: Vec<(String, Trend, i64)> = (0..rules.def.params.len())
            .filter_map(|i| {
                let xs: Option<Vec<i64>> = recent
                    .iter()
                    .map(|n| match self.node_args(*n).get(i) {
                        Some(Value::Int(x)) => Some(*x),
                        _ => None,
                    })
                    .collect();
                let name = rules.def.params.get(i)?.node.to_string();
                let xs = xs?;
                Some((name, trend(&xs)?, *xs.last()?))
            })
            .collect();
        let reached = format!(
            "positions reached {} after a play of {} moves",
            self.show_node(last),
            play.len() - 1
        );
        if moving.is_empty() {
            e.notes.push(reached);
            return;
        }
        let shown: Vec<String> = moving
            .iter()
            .map(|(name, t, _)| format!("`{name}` was still {}", t.word()))
            .collect();
        e.notes.push(format!("{reached}, and {}", shown.join(", ")));
        // An argument going down that is still 0 or more may be a large
        // game played out slowly (a time limit met by rules that end):
        // only one past 0 is surely running away.
        let away = moving.iter().find(|(_, t, last)| match t {
            Trend::Decreasing => *last < 0,
            Trend::Increasing => true,
        });
        let Some((name, t, _)) = away else {
            return;
        };
        let guard = match t {
            Trend::Decreasing => format!("stops `{name}` going below 0 (such as `if k <= {name}`)"),
            Trend::Increasing => format!("bounds `{name}` (such as `if {name} < 100`)"),
        };
        // The limit's own help names its flag: keep it.
        let flag = e
            .help
            .as_deref()
            .and_then(|h| h.split([' ', ',']).find(|w| w.starts_with("--max-")))
            .map_or(String::new(), |f| format!(" with {f}"));
        e.help = Some(format!(
            "a move of `{}` seems to make positions without end: give it a guard that \
             {guard}, so that every play ends; if the game really is this large, raise the \
             limit{flag}",
            rules.name
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::{Trend, trend};

    #[test]
    fn a_trend_is_one_way_from_first_to_last() {
        assert_eq!(trend(&[10, 9, 9, 5]), Some(Trend::Decreasing));
        assert_eq!(trend(&[0, 1, 2]), Some(Trend::Increasing));
        assert_eq!(trend(&[3, 3]), None);
        assert_eq!(trend(&[3, 1, 2]), None);
        assert_eq!(trend(&[]), None);
    }
}
