//! Why the computer played its move, by the nim-sum: the values of the
//! position's components in binary, their xor, and which component a
//! winning move changes to what value, or, from a lost position, why no
//! move wins and what the chosen one is good for.

use super::game::more;
use crate::runtime::queries::MoveInfo;
use crate::runtime::{Machine, RtResult};
use crate::value::{Component, Position};
use std::fmt::Write as _;

/// The explanation of the computer's move `chosen` from `before`, whose
/// result has remoteness `remoteness` (when it was weighed).
pub fn reply(
    m: &mut Machine,
    before: &Position,
    chosen: &MoveInfo,
    remoteness: Option<u64>,
) -> RtResult<String> {
    let rows = components(m, before)?;
    let sum = rows.iter().fold(0, |s, (_, _, v)| s ^ v);
    let mut text = format!("Before my move: {}\n", m.show_result(before));
    text.push_str(&table(&rows, sum));
    let moved = Moved::of(m, before, chosen, rows.len() == 1)?;
    text.push_str(&match sum {
        0 => lost(&moved, rows.len() == 1, remoteness),
        _ => won(&moved, &rows, sum, chosen.component, remoteness),
    });
    Ok(text)
}

/// The component the computer moved in, and what became of it.
struct Moved {
    part_shown: String,
    part_value: u64,
    /// The value of what the component became.
    new_value: u64,
    /// The move as `name -> result`, or in a sum as `name in component,
    /// which becomes part`.
    played: String,
}

impl Moved {
    fn of(m: &mut Machine, before: &Position, chosen: &MoveInfo, alone: bool) -> RtResult<Moved> {
        let part = Position::from_components(vec![before.components()[chosen.component]]);
        let new_part = replaced(before, &chosen.result, chosen.component);
        let part_shown = m.show_position(&part);
        let played = match alone {
            true => format!("{} -> {}", chosen.name, m.show_result(&chosen.result)),
            false => {
                // `nim(0)` rather than `0` for a component emptied.
                let became = match m.show_result(&new_part).as_str() {
                    "0" => m.show_position(&new_part),
                    shown => shown.to_string(),
                };
                format!("{} in {part_shown}, which becomes {became}", chosen.name)
            }
        };
        Ok(Moved {
            part_value: m.position_value(&part)?,
            new_value: m.position_value(&new_part)?,
            part_shown,
            played,
        })
    }
}

/// Why a move from a position of nim-sum 0 was played: none wins.
fn lost(moved: &Moved, alone: bool, remoteness: Option<u64>) -> String {
    let sum_name = if alone { "value" } else { "nim-sum" };
    format!(
        "\nThe {sum_name} was 0: the position was lost for me against perfect \
         play. {}, so every move leaves a nonzero {sum_name}, a win for you.\n\
         I played {}. {}.",
        match alone {
            true => "A position of value 0 has no move to another of value 0",
            false => "A move changes the value of exactly one component",
        },
        moved.played,
        match remoteness {
            Some(r) => format!(
                "Of all my moves it makes the game last longest: if you play \
                 perfectly, the game ends in {}",
                more(r)
            ),
            None => "There were too many positions to weigh which move lasts longest".into(),
        }
    )
}

/// Why a move from a position of nim-sum `sum` (not 0) wins: it was made
/// in component `moved_in`, whose value has the nim-sum's highest bit.
fn won(
    moved: &Moved,
    rows: &[(usize, String, u64)],
    sum: u64,
    moved_in: usize,
    remoteness: Option<u64>,
) -> String {
    let Moved {
        part_shown,
        part_value,
        new_value,
        played,
    } = moved;
    let target = part_value ^ sum;
    debug_assert_eq!(target, *new_value, "a winning move zeroes the nim-sum");
    let (why, now, after) = match rows {
        [_] => (
            format!(
                "The value was {sum}, not 0: a win for the player to move, who has a \
                 move to a position of value 0 (a position has moves to positions \
                 of every value below its own)."
            ),
            "Now the value is 0".to_string(),
            "leads to a position of nonzero value",
        ),
        _ => {
            let values: Vec<String> = rows
                .iter()
                .map(|(i, _, v)| if *i == moved_in { target } else { *v }.to_string())
                .collect();
            (
                format!(
                    "The nim-sum was {sum}, not 0: a win for the player to move. \
                     {part_shown} has value {part_value}, which has the nim-sum's \
                     highest bit, so {part_value} xor {sum} = {target} is less than \
                     {part_value}; a position has moves to positions of every value \
                     below its own, so {part_shown} has a move to one of value {target}."
                ),
                format!("Now the nim-sum is {} = 0", values.join(" xor ")),
                "changes one component's value, which makes the nim-sum nonzero again",
            )
        }
    };
    let sum_name = if rows.len() == 1 { "value" } else { "nim-sum" };
    let end = match remoteness {
        Some(0) => ", and you have no move left.".to_string(),
        _ => format!(
            ", and a position of {sum_name} 0 is lost for the player to move: any \
             move you make {after}, and I answer the same way{}.",
            lasting(remoteness, "whatever you play, the game ends within")
        ),
    };
    format!("\n{why}\nI played {played} (value {target}).\n{now}{end}")
}

/// `: {saying} N more moves` when the remoteness is known.
fn lasting(remoteness: Option<u64>, saying: &str) -> String {
    match remoteness {
        Some(r) => format!(": {saying} {}", more(r)),
        None => String::new(),
    }
}

/// The components that have moves, each with its index in `p`, as shown,
/// and its value, in the order the sum is shown. A component with no
/// moves adds nothing to the nim-sum and is left out.
fn components(m: &mut Machine, p: &Position) -> RtResult<Vec<(usize, String, u64)>> {
    let mut rows = Vec::new();
    let mut order: Vec<usize> = (0..p.components().len()).collect();
    order.sort_by(|a, b| match (p.components()[*a], p.components()[*b]) {
        (Component::Node(x), Component::Node(y)) => m
            .defs
            .game_name(x.game)
            .cmp(m.defs.game_name(y.game))
            .then_with(|| m.node_args(x).cmp(&m.node_args(y))),
        (x, y) => x.cmp(&y),
    });
    for i in order {
        let c = p.components()[i];
        if matches!(c, Component::Node(n) if m.graph.is_terminal(n)) {
            continue;
        }
        let part = Position::from_components(vec![c]);
        rows.push((i, m.show_position(&part), m.position_value(&part)?));
    }
    Ok(rows)
}

/// What component `i` of `before` became in `after`: the components of
/// `after` that are not the others of `before`.
fn replaced(before: &Position, after: &Position, i: usize) -> Position {
    let mut others: Vec<Component> = before.components().to_vec();
    others.remove(i);
    let mut new = Vec::new();
    for c in after.components() {
        match others.iter().position(|o| o == c) {
            Some(j) => {
                others.swap_remove(j);
            }
            None => new.push(*c),
        }
    }
    Position::from_components(new)
}

/// The values in binary, one row per component, and their nim-sum.
fn table(rows: &[(usize, String, u64)], sum: u64) -> String {
    let bits = rows
        .iter()
        .map(|(_, _, v)| *v)
        .chain([sum, 1])
        .map(|v| 64 - v.leading_zeros() as usize)
        .max()
        .unwrap_or(1);
    let name = rows
        .iter()
        .map(|(_, s, _)| s.chars().count())
        .chain([7])
        .max()
        .unwrap_or(7);
    let digits = rows
        .iter()
        .map(|(_, _, v)| *v)
        .chain([sum])
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1);
    let mut text = String::new();
    for (_, shown, v) in rows {
        let _ = writeln!(text, "  {shown:<name$}  value {v:>digits$} = {v:0bits$b}");
    }
    if rows.len() > 1 {
        let _ = write!(
            text,
            "  {:<name$}        {sum:>digits$} = {sum:0bits$b}",
            "nim-sum"
        );
    }
    text.trim_end().to_string()
}
