//! Games played through [`Game::respond`] on positions of the engine, and
//! the computer's moves checked against a brute force over Nim heaps that
//! knows nothing of nim-values.

use super::*;
use crate::play::remoteness::Remoteness;
use crate::session::{Session, loaded};
use crate::value::{Component, Value};
use rustc_hash::FxHashMap;

const NIM: &str = "game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\n";

fn session() -> Session {
    loaded(NIM).0
}

/// The position `nim(a) + nim(b) + ...`.
fn nims(m: &mut Machine, heaps: &[i64]) -> Position {
    let comps = heaps
        .iter()
        .map(|h| Component::Node(m.intern(0, &[Value::Int(*h)], Span::default()).unwrap()))
        .collect();
    Position::from_components(comps)
}

/// Remoteness of a sum of Nim heaps by Steinhaus's definition (won exactly
/// when some option has even remoteness), memoized on sorted heaps.
fn brute(heaps: &[i64], memo: &mut FxHashMap<Vec<i64>, u64>) -> u64 {
    let mut key = heaps.to_vec();
    key.retain(|h| *h > 0);
    key.sort_unstable();
    if let Some(r) = memo.get(&key) {
        return *r;
    }
    let mut rs = Vec::new();
    for i in 0..key.len() {
        for smaller in 0..key[i] {
            let mut next = key.clone();
            next[i] = smaller;
            rs.push(brute(&next, memo));
        }
    }
    let r = match (rs.iter().filter(|r| *r % 2 == 0).min(), rs.iter().max()) {
        (_, None) => 0,
        (Some(even), _) => even + 1,
        (None, Some(most)) => most + 1,
    };
    memo.insert(key, r);
    r
}

/// The heaps of a position made by [`nims`], read back from the engine.
fn heaps_of(m: &Machine, p: &Position) -> Vec<i64> {
    p.components()
        .iter()
        .map(|c| match c {
            Component::Node(n) => match m.graph.args(*n)[0] {
                Value::Int(h) => h,
                ref other => panic!("a heap size, not {other:?}"),
            },
            Component::Heap(k) => *k as i64,
        })
        .collect()
}

#[test]
fn remoteness_of_nim_sums_is_the_brute_force() {
    let mut s = session();
    let m = &mut s.machine;
    let mut memo = FxHashMap::default();
    let mut weighed = Remoteness::new(100_000, 10_000_000);
    for heaps in [
        [1, 2, 3],
        [2, 2, 0],
        [3, 5, 6],
        [4, 1, 0],
        [0, 0, 0],
        [2, 3, 4],
    ] {
        let p = nims(m, &heaps);
        let mut engine = Engine {
            m,
            span: Span::default(),
        };
        let r = weighed.of(&mut engine, &p).unwrap();
        assert_eq!(r, Some(brute(&heaps, &mut memo)), "{heaps:?}");
    }
}

#[test]
fn the_computer_plays_the_brute_force_best_move() {
    let mut memo = FxHashMap::default();
    for heaps in [
        [1, 2, 3],
        [3, 3, 0],
        [2, 4, 6],
        [3, 5, 7],
        [1, 4, 4],
        [2, 5, 1],
    ] {
        let mut s = session();
        let m = &mut s.machine;
        let start = nims(m, &heaps);
        let (game, _) = Game::start(m, start, Span::default()).unwrap();
        let mut game = game.unwrap();
        let Step::Stay(text) = game.respond(m, "c").unwrap() else {
            panic!("the game goes on");
        };
        assert!(text.starts_with("Me:  "), "{text}");
        let after = heaps_of(m, &game.at);
        let r = brute(&heaps, &mut memo);
        // One move shorter than the start: the fastest win, or the
        // longest resistance.
        assert_eq!(brute(&after, &mut memo) + 1, r, "{heaps:?} -> {after:?}");
        let won = heaps.iter().fold(0, |s, h| s ^ h) != 0;
        assert_eq!(after.iter().fold(0, |s, h| s ^ h) == 0, won, "{heaps:?}");
    }
}

#[test]
fn a_weak_player_loses_a_whole_game() {
    // nim(2) + nim(3) has value 1: the person could win, but always
    // plays the first move listed.
    let mut s = session();
    let m = &mut s.machine;
    let start = nims(m, &[2, 3]);
    let mut game = Game::start(m, start, Span::default()).unwrap().0.unwrap();
    let mut replies = 0;
    let last = loop {
        let Step::Stay(text) = game.respond(m, "1").unwrap() else {
            panic!("the game goes on until it is over");
        };
        replies += 1;
        if game.over() {
            break text;
        }
        // After each reply the person faces a position of value 0.
        assert_eq!(m.position_value(&game.at).unwrap(), 0, "{text}");
        assert!(replies < 10, "the game ends");
    };
    assert!(last.ends_with(OVER), "{last}");
    assert_eq!(
        game.respond(m, "1").unwrap(),
        Step::Stay(
            "There is no move 1: the game is over (u takes back your last move; anything \
             else goes back to the REPL)"
                .into()
        )
    );
    // A finished game takes its own commands only.
    assert!(game.takes("u") && game.takes(" W ") && game.takes("7") && game.takes(":q"));
    assert!(!game.takes("value(nim(3))") && !game.takes("c"));
    assert_eq!(
        game.respond(m, "q").unwrap(),
        Step::Leave("Back to the REPL.".into())
    );
}

#[test]
fn undo_goes_back_to_the_persons_last_turn() {
    let mut s = session();
    let m = &mut s.machine;
    let start = nims(m, &[2, 3]);
    let mut game = Game::start(m, start.clone(), Span::default())
        .unwrap()
        .0
        .unwrap();
    let Step::Stay(first) = game.respond(m, "m").unwrap() else {
        panic!("stays");
    };
    game.respond(m, "2").unwrap();
    assert_ne!(game.at, start);
    let Step::Stay(text) = game.respond(m, "u").unwrap() else {
        panic!("stays");
    };
    assert_eq!(game.at, start);
    assert!(text.ends_with(&first), "{text}");
    // Back at the start, the computer may still move first.
    let Step::Stay(text) = game.respond(m, "c").unwrap() else {
        panic!("stays");
    };
    assert!(text.starts_with("Me:  "), "{text}");
    let Step::Stay(text) = game.respond(m, "u").unwrap() else {
        panic!("stays");
    };
    assert_eq!(text, "Nothing to undo: you have not moved yet.");
}

#[test]
fn typed_lines_that_are_not_moves_are_answered() {
    let mut s = session();
    let m = &mut s.machine;
    let start = nims(m, &[1, 2]);
    let mut game = Game::start(m, start, Span::default()).unwrap().0.unwrap();
    let answers = [
        (
            "4",
            "There is no move 4: type a move's number, 1 to 3, or ? for the commands",
        ),
        (
            "0",
            "There is no move 0: type a move's number, 1 to 3, or ? for the commands",
        ),
        (
            "-1",
            "There is no move -1: type a move's number, 1 to 3, or ? for the commands",
        ),
        (
            "banana",
            "`banana` is neither a move nor a command: type a move's number, 1 to 3, \
             or ? for the commands",
        ),
        ("w", "I have not moved yet (or my move was taken back)."),
        ("?", COMMANDS),
    ];
    for (typed, answer) in answers {
        assert_eq!(
            game.respond(m, typed).unwrap(),
            Step::Stay(answer.into()),
            "{typed}"
        );
    }
    assert_eq!(
        game.respond(m, "give up").unwrap(),
        Step::Leave("You give up: I win. Back to the REPL.".into())
    );
}

#[test]
fn a_hint_names_the_winning_move() {
    let mut s = session();
    let m = &mut s.machine;
    // nim(1) + nim(3): the only winning move takes 2 from nim(3).
    let start = nims(m, &[1, 3]);
    let mut game = Game::start(m, start, Span::default()).unwrap().0.unwrap();
    let Step::Stay(text) = game.respond(m, "h").unwrap() else {
        panic!("stays");
    };
    assert_eq!(
        text,
        "Hint: 3 (nim(3): take(k=2) -> nim(1) + nim(1)) wins: it leaves a position of \
         value 0, lost for me whatever I play, and the game then lasts 2 more moves."
    );
}

#[test]
fn a_position_without_moves_is_not_played() {
    let mut s = session();
    let m = &mut s.machine;
    let start = nims(m, &[0]);
    let (game, text) = Game::start(m, start, Span::default()).unwrap();
    assert!(game.is_none());
    assert_eq!(
        text,
        "nim(0) has no moves: the player to move loses at once."
    );
}

#[test]
fn numbers_are_read_with_their_sign() {
    assert_eq!(number("12"), Some(12));
    assert_eq!(number("-3"), Some(-3));
    assert_eq!(
        number("99999999999999999999999999999999999999999"),
        Some(i128::MAX)
    );
    assert_eq!(number("1a"), None);
    assert_eq!(number("-"), None);
    assert_eq!(number(""), None);
}

#[test]
fn past_the_bound_the_computer_plays_on_and_says_what_it_does_not_know() {
    let mut s = session();
    let m = &mut s.machine;
    // Few positions may be kept: nim(5) + nim(5) has 21 sums.
    m.limits.max_states = 12;
    let start = nims(m, &[5, 5]);
    let mut game = Game::start(m, start, Span::default()).unwrap().0.unwrap();
    let Step::Stay(text) = game.respond(m, "h").unwrap() else {
        panic!("stays");
    };
    assert!(
        text.ends_with(
            "is as good as any (too many positions to find the one that holds out longest)."
        ),
        "{text}"
    );
    game.respond(m, "c").unwrap();
    let Step::Stay(text) = game.respond(m, "w").unwrap() else {
        panic!("stays");
    };
    assert!(
        text.ends_with("There were too many positions to weigh which move lasts longest."),
        "{text}"
    );
    // The computer still wins: whatever the person plays, it answers
    // with a move to value 0.
    let Step::Stay(text) = game.respond(m, "1").unwrap() else {
        panic!("stays");
    };
    assert_eq!(m.position_value(&game.at).unwrap(), 0, "{text}");
}
