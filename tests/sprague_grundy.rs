//! Property tests of the evaluator against brute force.
//!
//! Random subtraction games and take-and-break games (octal games with
//! digits for removing 1 to 3 tokens) are written as grundy rule files.
//! For random sums of their positions, the value grundy computes (the xor
//! of component values, by the Sprague–Grundy theorem) must equal the value
//! found by a brute-force search over the sum's own game tree, which never
//! uses xor, and the winners must agree with a plain win/lose search.

use grundy::SharedBuffer;
use grundy::session::Session;
use proptest::prelude::*;
use std::collections::HashMap;

/// A take-and-break rule: for each number of tokens s removed (1..=3),
/// which of "leave no heap", "leave one heap", "leave two heaps" is allowed.
#[derive(Clone, Debug)]
struct Octal {
    digits: Vec<u8>,
}

impl Octal {
    fn rules(&self) -> String {
        let mut src = String::from("game g(n) {\n");
        for (i, d) in self.digits.iter().enumerate() {
            let s = i + 1;
            if d & 1 != 0 {
                src += &format!("    move all{s} if n == {s} -> 0\n");
            }
            if d & 2 != 0 {
                src += &format!("    move some{s} if n > {s} -> g(n - {s})\n");
            }
            if d & 4 != 0 {
                src += &format!("    move split{s}(a in 1..n - {s}) -> g(a) + g(n - {s} - a)\n");
            }
        }
        src + "}\n"
    }

    /// The heaps one move on a heap of `n` can leave.
    fn options(&self, n: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for (i, d) in self.digits.iter().enumerate() {
            let s = i as u32 + 1;
            if d & 1 != 0 && n == s {
                out.push(vec![]);
            }
            if d & 2 != 0 && n > s {
                out.push(vec![n - s]);
            }
            if d & 4 != 0 && n > s + 1 {
                for a in 1..n - s {
                    out.push(vec![a, n - s - a]);
                }
            }
        }
        out
    }
}

/// Every sum one move away: one heap replaced by what the move leaves.
fn successors(game: &Octal, heaps: &[u32]) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for (i, heap) in heaps.iter().enumerate() {
        for replacement in game.options(*heap) {
            let mut next: Vec<u32> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
            next.extend(replacement);
            out.push(next);
        }
    }
    out
}

/// The nim-value of a whole sum (a multiset of heaps), by mex over the
/// options of the sum itself.
fn brute_value(game: &Octal, heaps: Vec<u32>, memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    let mut key = heaps;
    key.sort_unstable();
    if let Some(v) = memo.get(&key) {
        return *v;
    }
    let seen: Vec<u32> = successors(game, &key)
        .into_iter()
        .map(|next| brute_value(game, next, memo))
        .collect();
    let value = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert(key, value);
    value
}

/// Whether the player to move wins the sum, by plain minimax.
fn brute_wins(game: &Octal, heaps: Vec<u32>, memo: &mut HashMap<Vec<u32>, bool>) -> bool {
    let mut key = heaps;
    key.sort_unstable();
    if let Some(w) = memo.get(&key) {
        return *w;
    }
    let wins = successors(game, &key)
        .into_iter()
        .any(|next| !brute_wins(game, next, memo));
    memo.insert(key, wins);
    wins
}

/// Runs `queries` after the rules and returns what was printed, line by line.
fn grundy_says(rules: &str, queries: &str) -> Vec<String> {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    let outcome = session.run("prop.game", &format!("{rules}{queries}"));
    let stderr = String::from_utf8(err.0.borrow().clone()).unwrap();
    assert_eq!(outcome.exit_code(), 0, "{rules}{queries}\n{stderr}");
    let stdout = String::from_utf8(out.0.borrow().clone()).unwrap();
    stdout.lines().map(str::to_string).collect()
}

fn sum_of(heaps: &[u32]) -> String {
    if heaps.is_empty() {
        return "0".into();
    }
    heaps
        .iter()
        .map(|h| format!("g({h})"))
        .collect::<Vec<_>>()
        .join(" + ")
}

fn octal() -> impl Strategy<Value = Octal> {
    prop::collection::vec(0u8..8, 1..=3).prop_map(|digits| Octal { digits })
}

/// Subtraction games are octal games whose digits are 3 (take s from a heap).
fn subtraction() -> impl Strategy<Value = Octal> {
    prop::collection::vec(prop::bool::ANY, 3).prop_map(|set| Octal {
        digits: set.into_iter().map(|b| if b { 3 } else { 0 }).collect(),
    })
}

fn check_sums(game: &Octal, sums: &[Vec<u32>]) -> Result<(), TestCaseError> {
    let queries: String = sums
        .iter()
        .map(|s| format!("value({0})\nwinner({0})\n", sum_of(s)))
        .collect();
    let lines = grundy_says(&game.rules(), &queries);
    let mut values = HashMap::new();
    let mut wins = HashMap::new();
    for (i, heaps) in sums.iter().enumerate() {
        let expected = brute_value(game, heaps.clone(), &mut values);
        prop_assert_eq!(
            &lines[2 * i],
            &expected.to_string(),
            "value of {}",
            sum_of(heaps)
        );
        let winner = if brute_wins(game, heaps.clone(), &mut wins) {
            "first"
        } else {
            "second"
        };
        prop_assert_eq!(&lines[2 * i + 1], winner, "winner of {}", sum_of(heaps));
    }
    Ok(())
}

fn sums() -> impl Strategy<Value = Vec<Vec<u32>>> {
    prop::collection::vec(prop::collection::vec(0u32..9, 0..=3), 1..=6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn take_and_break_sums_agree_with_brute_force(game in octal(), sums in sums()) {
        check_sums(&game, &sums)?;
    }

    #[test]
    fn subtraction_sums_agree_with_brute_force(game in subtraction(), sums in sums()) {
        check_sums(&game, &sums)?;
    }
}

#[test]
fn a_long_chain_of_positions_runs_on_the_test_threads_small_stack() {
    // The test harness runs this on a thread with a 2 MiB stack; an
    // evaluator that recursed once per position would overflow it after a
    // few thousand positions, far below the 300,000 here.
    let rules = "game sub(n) {\n    move take(k in 1..=3) if k <= n -> sub(n - k)\n}\n";
    let lines = grundy_says(rules, "value(sub(300000))\nvalue(sub(300001))\n");
    assert_eq!(lines, ["0", "1"]);
}

/// Steinhaus's remoteness of a sum, from its definition: 0 with no move;
/// a winner's least remoteness of a losing option, plus one; a loser's
/// greatest remoteness of any option, plus one.
fn brute_remoteness(
    game: &Octal,
    heaps: Vec<u32>,
    wins: &mut HashMap<Vec<u32>, bool>,
    memo: &mut HashMap<Vec<u32>, u32>,
) -> u32 {
    let mut key = heaps;
    key.sort_unstable();
    if let Some(r) = memo.get(&key) {
        return *r;
    }
    let winning = brute_wins(game, key.clone(), wins);
    let mut options = Vec::new();
    for next in successors(game, &key) {
        if !winning || !brute_wins(game, next.clone(), wins) {
            options.push(brute_remoteness(game, next, wins, memo));
        }
    }
    let best = if winning {
        options.iter().min()
    } else {
        options.iter().max()
    };
    let r = best.map_or(0, |r| r + 1);
    memo.insert(key, r);
    r
}

/// `line(P)` lasts the remoteness of `P`, every move in it is a move of
/// the position before, the winner always moves to value 0, and it ends
/// where no move is left.
fn check_lines(game: &Octal, sums: &[Vec<u32>]) -> Result<(), TestCaseError> {
    let rules = format!(
        "{}fn before(P, L, i) = if i == 0 then P else L[i - 1][2]\n\
         fn legal(P, L) = all([L[i][2] in options(before(P, L, i)) for i in 0..len(L)])\n\
         fn ends(P, L) = options(before(P, L, len(L))) == []\n\
         fn wins_to_zero(P, L) = all([L[i][3] == 0 for i in 0..len(L) if value(before(P, L, i)) != 0])\n",
        game.rules()
    );
    let queries: String = sums
        .iter()
        .map(|s| {
            let p = sum_of(s);
            format!(
                "len(line({p}))\nlegal({p}, line({p})) and ends({p}, line({p})) and wins_to_zero({p}, line({p}))\n"
            )
        })
        .collect();
    let lines = grundy_says(&rules, &queries);
    let (mut wins, mut memo) = (HashMap::new(), HashMap::new());
    for (i, heaps) in sums.iter().enumerate() {
        let expected = brute_remoteness(game, heaps.clone(), &mut wins, &mut memo);
        prop_assert_eq!(
            &lines[2 * i],
            &expected.to_string(),
            "remoteness of {}",
            sum_of(heaps)
        );
        prop_assert_eq!(&lines[2 * i + 1], "true", "the line of {}", sum_of(heaps));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn lines_last_the_brute_force_remoteness(game in octal(), sums in sums()) {
        check_lines(&game, &sums)?;
    }
}
