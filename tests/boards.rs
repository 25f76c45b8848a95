//! Differential tests of the board sweep (src/runtime/kernel/levels.rs,
//! src/runtime/sweep/mod.rs): random tokens that move by constant shifts, as a
//! knight does, inside a box their guards draw, with other conditions
//! beside; the count of losing squares and a table must be the same with
//! the machine code's sweep by levels as with the interpreter.

mod common;

use common::Engine;
use grundy::SharedBuffer;
use grundy::diag::Phase;
use grundy::session::Session;
use proptest::prelude::*;

fn run(text: &str, engine: Engine) -> (String, String, Option<Phase>) {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    engine.apply(&mut session.machine);
    session.machine.limits.timeout = Some(std::time::Duration::from_secs(20));
    session.machine.start_clock();
    let outcome = session.run("board.game", text);
    let text = |b: &SharedBuffer| String::from_utf8(b.0.borrow().clone()).unwrap();
    (text(&out), text(&err), outcome.error)
}

/// A token game on a board: shifts, the box, and another condition.
fn board() -> impl Strategy<Value = String> {
    let shift = (-3i64..=3, -3i64..=3).prop_filter("a move", |(dx, dy)| (*dx, *dy) != (0, 0));
    (
        prop::collection::vec(shift, 1..=4),
        (0i64..=3, 60i64..=90),
        prop::sample::select(vec![
            "true",
            "(x + y) % 3 != 1",
            "x * y % 5 < 4",
            "x != y",
            "100 / (x - 40 + dx) > -50",
        ]),
        0..4u8,
    )
        .prop_map(|(shifts, (lo, hi), extra, style)| {
            // Style 3 leaves out every bound above: the token may leave
            // the box upwards. Every move then lowers x + y, so that the
            // game stays finite.
            let shifts: Vec<(i64, i64)> = match style {
                3 => shifts
                    .into_iter()
                    .map(|(dx, dy)| match dx + dy {
                        0 => (dx - 1, dy),
                        s if s > 0 => (-dx, -dy),
                        _ => (dx, dy),
                    })
                    .collect(),
                _ => shifts,
            };
            let items: Vec<String> = shifts.iter().map(|(a, b)| format!("({a}, {b})")).collect();
            let rules = match style {
                // As a user writes it: a helper and a tuple binder.
                0 => format!(
                    "fn inside(x, y) = {lo} <= x <= {hi} and {lo} <= y <= {hi}\n\
                     game k(x, y) {{\n    move step((dx, dy) in [{}])\n        \
                     if inside(x + dx, y + dy) and {extra} -> k(x + dx, y + dy)\n}}\n",
                    items.join(", ")
                ),
                // One move per shift, written out: bounded only where it
                // goes (below for a coordinate it lowers, above for one it
                // raises), only below, or on both sides.
                _ => {
                    let side = |v: &str, d: i64| match (style, d) {
                        (1 | 3, d) if d < 0 => format!(" and {v} + {d} >= {lo}"),
                        (1, d) if d > 0 => format!(" and {v} + {d} <= {hi}"),
                        (1 | 3, _) => String::new(),
                        _ => format!(" and {lo} <= {v} + {d} <= {hi}"),
                    };
                    let moves: Vec<String> = shifts
                        .iter()
                        .enumerate()
                        .map(|(i, (dx, dy))| {
                            let extra = extra.replace("dx", &dx.to_string());
                            format!(
                                "    move m{i} if {extra}{}{} -> k(x + {dx}, y + {dy})\n",
                                side("x", *dx),
                                side("y", *dy)
                            )
                        })
                        .collect();
                    format!("game k(x, y) {{\n{}}}\n", moves.concat())
                }
            };
            format!(
                "{rules}len([1 for x in {lo}..={hi} for y in {lo}..={hi} if value(k(x, y)) == 0])\n\
                 value(k({hi}, {hi}))\ntable(k, {lo}..{lo} + 4, {lo}..{lo} + 4)\n"
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn boards_swept_by_levels_agree_with_the_interpreter(file in board()) {
        let interpreted = run(&file, Engine::Interpreter);
        prop_assert_eq!(&run(&file, Engine::Native), &interpreted, "{}", file);
    }
}

/// A query over every square, row after row, meets a level or two more
/// at each square near the end of a row: once the board has been swept,
/// those are swept too, a level at a time, rather than searched square
/// by square. (With a first sweep's threshold of 64 levels for all
/// sweeps, the kernel ran 30% of the squares one at a time.)
#[test]
fn a_query_over_a_swept_board_runs_few_squares_one_at_a_time() {
    let n = 300u64;
    let text = format!(
        "let N = {n}\nfn inside(x, y) = 1 <= x <= N and 1 <= y <= N\n\
         game knight(x, y) {{\n    move jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)])\n        \
         if inside(x + dx, y + dy) -> knight(x + dx, y + dy)\n}}\n\
         len([1 for x in 1..=N for y in 1..=N if value(knight(x, y)) == 0])\n"
    );
    let mut session = Session::new(
        Box::new(SharedBuffer::default()),
        Box::new(SharedBuffer::default()),
    );
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("board.game", &text).error, None);
    // About 1,900 here (the first 64 levels, then a square per new
    // level); 26,566 with the first sweep's threshold for every sweep.
    let runs = session.machine.kernel_runs;
    assert!(
        runs < n * n / 20,
        "{runs} of {} squares run one at a time",
        n * n
    );
}

/// The knight of BENCHMARKS.md on a small board, its losing squares
/// counted by hand: a square is lost when every jump leaves it lost-free.
#[test]
fn a_knights_losing_squares_match_a_direct_count() {
    let n = 120i64;
    let jumps = [(-2, 1), (-2, -1), (1, -2), (-1, -2)];
    let side = (n + 1) as usize;
    let mut lost = vec![false; side * side];
    for s in 2..=2 * n {
        for x in (s - n).max(1)..=(s - 1).min(n) {
            let y = s - x;
            let wins = jumps.iter().any(|(dx, dy)| {
                let (u, v) = (x + dx, y + dy);
                (1..=n).contains(&u) && (1..=n).contains(&v) && lost[u as usize * side + v as usize]
            });
            lost[x as usize * side + y as usize] = !wins;
        }
    }
    let expected = lost.iter().filter(|l| **l).count();
    let text = format!(
        "let N = {n}\nfn inside(x, y) = 1 <= x <= N and 1 <= y <= N\n\
         game knight(x, y) {{\n    move jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)])\n        \
         if inside(x + dx, y + dy) -> knight(x + dx, y + dy)\n}}\n\
         len([1 for x in 1..=N for y in 1..=N if value(knight(x, y)) == 0])\n"
    );
    for engine in Engine::ALL {
        let (out, err, phase) = run(&text, engine);
        assert_eq!(
            (out.trim(), phase),
            (expected.to_string().as_str(), None),
            "{engine:?}\n{err}"
        );
    }
}

/// A query over a board larger than the room `--max-states` leaves a
/// sweep: the machine code sweeps as much of the square as fits, and the
/// search the rest, one position at a time; the count is a direct one's.
#[test]
fn a_board_larger_than_the_sweeps_room_is_swept_as_far_as_it_fits() {
    let n = 150usize;
    let steps = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)];
    let mut lost = vec![false; n * n];
    for x in 0..n {
        for y in 0..n {
            let wins = steps
                .iter()
                .any(|&(dx, dy)| dx <= x && dy <= y && lost[(x - dx) * n + y - dy]);
            lost[x * n + y] = !wins;
        }
    }
    let expected = lost.iter().filter(|l| **l).count();
    let text = format!(
        "let N = {n}\n\
         let STEPS = [(dx, dy) for dx in 0..=2 for dy in 0..=2 if (dx, dy) != (0, 0) and dx != dy]\n\
         game hop(x, y) {{\n    move step((dx, dy) in STEPS) if dx <= x and dy <= y -> hop(x - dx, y - dy)\n}}\n\
         len([(x, y) for x in 0..N for y in 0..N if value(hop(x, y)) == 0])\n"
    );
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    session.machine.limits.max_states = 20_000;
    assert_eq!(session.run("hop.game", &text).error, None);
    let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
    assert_eq!(printed.trim(), expected.to_string());
    // The square of 141 swept (19,881 of the 22,500), the rest run
    // alone: about 2,600 runs (about 22,500 with no square claimed).
    let runs = session.machine.kernel_runs;
    assert!(
        runs < (n * n / 4) as u64,
        "{runs} squares run one at a time"
    );
}
