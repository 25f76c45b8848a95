//! Strips the search sweeps: a column kept by every option, walks down
//! to a strip's bottom that resume, and two strips that hand the search
//! to each other; a board too large to claim whole, claimed again only
//! for fewer levels.

use super::*;

#[test]
fn a_strip_too_long_to_sweep_is_walked_down_once() {
    // Rows 0 to 12,000 of three columns do not fit in half the room of
    // 60,000 positions: the search descends until they do. Each row's
    // walk down to the bottom resumes where the one above stopped (rows
    // without values), rather than walking six thousand rows again.
    let (mut session, _) = loaded(
        "game g(n, last) {\n move t(k in 1..=3) if k <= n and k != last -> g(n - k, k)\n}\n",
    );
    let m = &mut session.machine;
    m.limits.max_states = 60_000;
    let top = node2(m, 0, 12_000, 0);
    let brute = |n: usize| {
        let mut v = vec![[0u64; 4]; n + 1];
        for i in 0..=n {
            for last in 0..4 {
                let options = (1..=3).filter(|k| *k <= i && *k != last);
                let seen: Vec<u64> = options.map(|k| v[i - k][k]).collect();
                v[i][last] = (0..).find(|x| !seen.contains(x)).unwrap();
            }
        }
        v[n][0]
    };
    assert_eq!(m.node_value(top).unwrap(), brute(12_000));
    // Each row a few times (a walk per column the search asks), not
    // thousands.
    assert!(m.strip_rows_walked < 48_000, "{}", m.strip_rows_walked);
}

#[test]
fn two_strips_handing_the_search_to_each_other_each_resume_their_walk() {
    // Every 64 rows the column moves to the other game's, and neither's
    // rows fit in half the room: each game's walk down resumes its own,
    // not the one the other's last replaced (quadratic then).
    let half = "move t(k in 1..=c) if k <= n and n % 64 != 0 -> {0}(n - k, c)\n \
                move j if n % 64 == 0 and n > 0 -> {1}(n - 1, c)";
    let source = format!(
        "game a(n, c) {{\n {}\n}}\ngame b(n, c) {{\n {}\n}}\n",
        half.replace("{0}", "a").replace("{1}", "b"),
        half.replace("{0}", "b").replace("{1}", "a"),
    );
    let (mut session, _) = loaded(&source);
    let m = &mut session.machine;
    m.limits.max_states = 70_000;
    let top = node2(m, 0, 30_000, 3);
    // By induction over the stretches of 64: a multiple m > 0 of 64 moves
    // only to the other game's m - 1, whose value is 63 % 4 = 3, so m's
    // is 0 (as 0's is), and each heap above it in its stretch takes 1 to
    // 3 down to m: the value of every heap is n % 4, 0 at 30,000.
    assert_eq!(m.node_value(top).unwrap(), 0);
    assert!(m.strip_rows_walked < 200_000, "{}", m.strip_rows_walked);
}

#[test]
fn a_position_keeping_one_argument_sweeps_its_column_alone() {
    // `k` never changes: the square below s(3000, 3) is nine million
    // positions, of which the search reaches three thousand. The strip
    // has no columns of its own, and the sweep fills the column of the
    // position asked, past the square too.
    let (mut session, _) =
        loaded("game s(n, k) {\n move take(i in 1..=k) if i <= n -> s(n - i, k)\n}\n");
    let m = &mut session.machine;
    for ((n, k), valued_then) in [
        ((3000, 3), 3001),
        ((100_000, 5), 103_002),
        ((50_000, 9), 153_003),
    ] {
        let at = node2(m, 0, n, k);
        assert_eq!(m.node_value(at).unwrap(), (n % (k + 1)) as u64);
        assert_eq!(valued(m, 0), valued_then, "s({n}, {k})");
    }
}

#[test]
fn a_board_refused_for_room_is_claimed_again_only_for_fewer_levels() {
    // A knight's 200 x 200 board toward the corner, asked at its far
    // corner under a limit that the whole board does not fit in: each
    // level the search descends asked for a claim of the board below it,
    // refused after counting its slots (minutes at 4,700 x 4,700). A
    // claim refused is tried again only for an eighth fewer levels.
    let (mut session, _) = loaded(
        "game k(x, y) {\n move j((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) \
         if 1 <= x + dx <= 200 and 1 <= y + dy <= 200 -> k(x + dx, y + dy)\n}\n",
    );
    let m = &mut session.machine;
    m.limits.max_states = 42_000;
    let top = node2(m, 0, 200, 200);
    // The values by brute force, diagonal after diagonal.
    let mut v = vec![vec![0u64; 201]; 201];
    for s in 2..=400usize {
        for x in 1..=200usize {
            let Some(y) = s.checked_sub(x).filter(|y| (1..=200).contains(y)) else {
                continue;
            };
            let steps = [(-2i64, 1i64), (-2, -1), (1, -2), (-1, -2)];
            let seen: Vec<u64> = (steps.iter())
                .map(|(dx, dy)| (x as i64 + dx, y as i64 + dy))
                .filter(|(a, b)| (1..=200).contains(a) && (1..=200).contains(b))
                .map(|(a, b)| v[a as usize][b as usize])
                .collect();
            v[x][y] = (0..).find(|g| !seen.contains(g)).unwrap();
        }
    }
    assert_eq!(m.node_value(top).unwrap(), v[200][200]);
    assert!(m.levels_claimed < 60, "{}", m.levels_claimed);
}

#[test]
fn a_board_refused_for_room_sweeps_the_most_levels_that_fit() {
    // An 80 x 80 knight's board under a limit below its 6,400 squares:
    // the levels that fit are swept at once, found by halving, and the
    // search reaches only those above them (a claim tried again only for
    // an eighth fewer levels met the limit first, from 4,871 to 5,464).
    let (mut session, _) = loaded(
        "game k(x, y) {\n move j((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)]) \
         if 1 <= x + dx <= 80 and 1 <= y + dy <= 80 -> k(x + dx, y + dy)\n}\n",
    );
    let m = &mut session.machine;
    m.limits.max_states = 5_000;
    let top = node2(m, 0, 80, 80);
    assert_eq!(m.node_value(top).unwrap(), 0);
    assert!(m.levels_claimed < 40, "{}", m.levels_claimed);
}
