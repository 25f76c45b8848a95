//! Remoteness and the computer's choice against a brute force that knows
//! nothing of nim-values: Steinhaus's own definition by parity (a
//! position is won exactly when some option has even remoteness), over
//! small random games and over sums of Nim heaps played in the engine.

use super::*;
use crate::runtime::RtResult;

/// A made-up game: position `i` moves to each of `edges[i]`, all below `i`.
struct Dag {
    edges: Vec<Vec<usize>>,
    values: Vec<u64>,
}

impl Dag {
    /// A random game of `n` positions from a seed (a small xorshift).
    fn random(n: usize, seed: u64) -> Dag {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut edges = Vec::new();
        for i in 0..n {
            let targets: Vec<usize> = (0..i).filter(|_| next() % 3 == 0).collect();
            edges.push(targets);
        }
        let mut values = Vec::new();
        for targets in &edges {
            let seen: Vec<u64> = targets.iter().map(|t| values[*t]).collect();
            values.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        Dag { edges, values }
    }

    /// Remoteness by Steinhaus's definition, recursively, with no memo.
    fn brute(&self, i: usize) -> u64 {
        let rs: Vec<u64> = self.edges[i].iter().map(|t| self.brute(*t)).collect();
        let even = rs.iter().filter(|r| *r % 2 == 0).min();
        match (even, rs.iter().max()) {
            (_, None) => 0,
            (Some(r), _) => r + 1,
            (None, Some(r)) => r + 1,
        }
    }
}

impl Rules for Dag {
    type Position = usize;

    fn options(&mut self, p: &usize) -> RtResult<Vec<(usize, u64)>> {
        Ok(self.edges[*p]
            .iter()
            .map(|t| (*t, self.values[*t]))
            .collect())
    }

    fn poll(&mut self) -> RtResult<()> {
        Ok(())
    }
}

#[test]
fn remoteness_is_steinhaus_on_random_games() {
    for seed in 0..40 {
        let mut dag = Dag::random(14, seed);
        let mut memo = Remoteness::new(1_000, 1_000_000);
        for i in (0..14).rev() {
            let r = memo.of(&mut dag, &i).unwrap();
            assert_eq!(r, Some(dag.brute(i)), "seed {seed}, position {i}");
            // Even remoteness is exactly a lost position.
            assert_eq!(r.unwrap() % 2 == 0, dag.values[i] == 0, "seed {seed}, {i}");
        }
    }
}

#[test]
fn the_choice_is_the_best_option_by_brute_force() {
    for seed in 0..40 {
        let mut dag = Dag::random(12, seed);
        let mut memo = Remoteness::new(1_000, 1_000_000);
        for i in 0..12 {
            let options = dag.options(&i).unwrap();
            let choice = memo.choose(&mut dag, &options).unwrap();
            if options.is_empty() {
                assert_eq!(choice, None);
                continue;
            }
            let choice = choice.unwrap();
            let target = options[choice.index].0;
            // The move keeps the game exactly one move shorter than the
            // position's remoteness: the winner's fastest, the loser's longest.
            assert_eq!(choice.remoteness, Some(dag.brute(target)));
            assert_eq!(dag.brute(target) + 1, dag.brute(i), "seed {seed}, {i}");
            let won = dag.values[i] != 0;
            assert_eq!(dag.values[target] == 0, won, "seed {seed}, {i}");
            // No earlier option is as good: equals go to the first.
            for (p, v) in &options[..choice.index] {
                let counts = !won || *v == 0;
                assert!(
                    !counts || dag.brute(*p) != dag.brute(target),
                    "seed {seed}, {i}"
                );
            }
        }
    }
}

#[test]
fn past_the_bound_or_the_budget_the_winner_still_moves_to_value_zero() {
    let mut dag = Dag::random(30, 7);
    let start = (0..30).rev().find(|i| dag.values[*i] != 0).unwrap();
    // Too few positions kept, then too few options looked at.
    for (bound, budget) in [(2, 1_000), (1_000, 3)] {
        let mut memo = Remoteness::new(bound, budget);
        assert_eq!(memo.of(&mut dag, &start).unwrap(), None);
        let options = dag.options(&start).unwrap();
        let choice = memo.choose(&mut dag, &options).unwrap().unwrap();
        assert_eq!(choice.remoteness, None);
        assert_eq!(options[choice.index].1, 0);
    }
    // The budget is per question: small ones are answered later.
    let mut memo = Remoteness::new(1_000, 3);
    assert_eq!(memo.of(&mut dag, &start).unwrap(), None);
    assert_eq!(memo.of(&mut dag, &0).unwrap(), Some(0));
}

#[test]
fn a_long_game_needs_no_deep_recursion() {
    // A line of a million positions, each moving to the one below.
    struct Line;
    impl Rules for Line {
        type Position = u64;
        fn options(&mut self, p: &u64) -> RtResult<Vec<(u64, u64)>> {
            Ok(if *p == 0 {
                vec![]
            } else {
                vec![(p - 1, (p - 1) % 2)]
            })
        }
        fn poll(&mut self) -> RtResult<()> {
            Ok(())
        }
    }
    let mut memo = Remoteness::new(2_000_000, 2_000_000);
    assert_eq!(memo.of(&mut Line, &1_000_000).unwrap(), Some(1_000_000));
}
