//! Games whose state is a tuple read item by item (`game g(p)` moving to
//! `g((p[0] - 1, p[1]))`), which the compiled rules run as games of
//! integers, the tuple split into its items (src/runtime/normalize/split.rs):
//! random ones against the interpreter, and a board of tuples swept by
//! levels as a board of two integers is.

use super::{cases, cond, expr};
use crate::common::Engine;
use crate::common::differ::{agree, compare, machine_code_for};
use grundy::SharedBuffer;
use grundy::session::Session;
use proptest::prelude::*;

/// The items of the state, as the rules read them: a tuple's, or the
/// game's integer parameters.
const ITEMS: [&str; 3] = ["p[0]", "p[1]", "p[2]"];
const INTS: [&str; 3] = ["a", "b", "c"];

/// A move of a game of `len` items (a tuple's, or integers when not
/// `tuple`): a shift by constants over a few tuples (a board's), or a
/// binder `k` taken from one item; a random guard over the items; the
/// target a tuple or (one in a few) a list written out, or integers.
fn state_move(len: usize, tuple: bool) -> impl Strategy<Value = String> {
    (prop::bool::weighted(0.3), 0..len).prop_flat_map(move |(unpacked, at)| {
        let names = match (tuple, unpacked) {
            (true, true) => UNPACKED,
            (true, false) => ITEMS,
            _ => INTS,
        };
        state_move_of(len, tuple, names, at)
    })
}

/// The names a pattern gives a tuple's items: `let (i0, i1) = p in ...`.
const UNPACKED: [&str; 3] = ["i0", "i1", "i2"];

/// [`state_move`] with its items read as `names` (taken apart by a
/// pattern in the guard and in the target where they are
/// [`UNPACKED`]), `k` lowering item `at`.
fn state_move_of(
    len: usize,
    tuple: bool,
    names: [&'static str; 3],
    at: usize,
) -> impl Strategy<Value = String> {
    let mut vars = names[..len].to_vec();
    vars.push("k");
    let shape = prop::sample::select(vec!["(", "(", "(", "["]);
    (
        prop::collection::vec(-2i64..=1, len),
        prop::option::weighted(0.6, cond(vars.clone())),
        shape,
        prop::option::weighted(0.2, expr(vars)),
        prop::bool::ANY,
    )
        .prop_map(move |(shift, guard, open, odd, helper)| {
            let (open, close) = match (tuple, open) {
                (false, _) => ("", ""),
                (true, "(") => ("(", ")"),
                _ => ("[", "]"),
            };
            // Either `k` lowers one item, or the state shifts by constants.
            let args: Vec<String> = (0..len)
                .map(|i| match (i == at, &odd) {
                    (true, Some(e)) => format!("{} - ({e}) % 3 - k", names[i]),
                    (true, None) => format!("{} - k", names[i]),
                    _ => format!("{} + {}", names[i], shift[i]),
                })
                .collect();
            let guard = guard.map_or(String::new(), |g| format!(" and {g}"));
            // Written out, or by a function (`inside(p[0] - k)`, its
            // argument bound by a `let` when inlined).
            let bounds: Vec<String> = (0..len)
                .map(|i| match helper {
                    true => format!("inside({})", args[i]),
                    false => format!("0 <= {} < 12", args[i]),
                })
                .collect();
            let apart = match names == UNPACKED {
                true => format!("let ({}) = p in ", names[..len].join(", ")),
                false => String::new(),
            };
            format!(
                "    move m(k in 1..=2) if {apart}({}{guard}) -> g({apart}{open}{}{close})\n",
                bounds.join(" and "),
                args.join(", ")
            )
        })
}

/// A file of such a game of `len` items, asked over a box of states by
/// a query (which may sweep it first), along a line, in a sum, for a
/// state of another length and a list for the tuple, and its moves
/// listed.
fn state_file(len: usize, tuple: bool) -> impl Strategy<Value = String> {
    (
        prop::collection::vec(state_move(len, tuple), 1..=3),
        prop::bool::weighted(0.2),
    )
        .prop_map(move |(moves, whole)| {
            // One in a few reads the state whole too: left as a tuple.
            let whole = match (whole, tuple) {
                (true, true) => "    move w if len(p) > 9 -> g(p)\n",
                _ => "",
            };
            let body: String = moves.concat();
            let names = &["x", "y", "z"][..len];
            let state = |xs: &[&str]| match tuple {
                true => format!("({})", xs.join(", ")),
                false => xs.join(", "),
            };
            let at = |x: &str| state(&[&[x, "5", "3"][..len]].concat());
            let loops: String = names.iter().map(|x| format!(" for {x} in 0..9")).collect();
            let params = if tuple { "p" } else { &INTS[..len].join(", ") };
            let other = match tuple {
                true => "value(g((4, 4, 4, 4)))\nvalue(g([4, 4]))\n",
                false => "",
            };
            format!(
                "fn inside(v) = 0 <= v < 12\ngame g({params}) {{\n{body}{whole}}}\n\
                 len([1{loops} if value(g({})) == 0])\n\
                 [value(g({})) for x in 0..12]\n\
                 value(g({}) + g({}))\nwinner(g({}))\nmoves(g({}))\n{other}",
                state(names),
                at("x"),
                at("7"),
                at("11"),
                at("9"),
                at("6")
            )
        })
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn games_of_a_pair_agree_with_the_interpreter(file in state_file(2, true)) {
        compare(&file)?;
    }

    #[test]
    fn games_of_a_triple_agree_with_the_interpreter(file in state_file(3, true)) {
        compare(&file)?;
    }

    #[test]
    fn boxes_of_three_integers_agree_with_the_interpreter(file in state_file(3, false)) {
        compare(&file)?;
    }
}

/// A knight on a board, its square one tuple, moving towards the corner.
/// Its bounds a function's, as knight.game's are: inlined, its arguments
/// (items) bound by `let`s, which the split puts in place.
const KNIGHT: &str = "let N = 300\nlet JUMPS = [(-2, 1), (-2, -1), (1, -2), (-1, -2)]\n\
    fn inside(x, y) = 0 <= x < N and 0 <= y < N\n\
    game knight(p) {\n    move jump((dx, dy) in JUMPS) if inside(p[0] + dx, p[1] + dy)\n        \
    -> knight((p[0] + dx, p[1] + dy))\n}\n";

/// The same board, its square two integers.
const KNIGHT_INTS: &str = "let N = 300\nlet JUMPS = [(-2, 1), (-2, -1), (1, -2), (-1, -2)]\n\
    game knight(x, y) {\n    move jump((dx, dy) in JUMPS) if 0 <= x + dx < N and 0 <= y + dy < N\n        \
    -> knight(x + dx, y + dy)\n}\n";

/// Asked square by square, a board of tuples is swept level by level by
/// the machine code, each square run once, as the same board of two
/// integers is; not searched square by square. Its values are those of
/// the board of integers, and the interpreter's.
#[test]
fn a_board_of_tuples_asked_square_by_square_is_swept_by_levels() {
    assert!(machine_code_for(KNIGHT, "knight"));
    let run = |text: &str| {
        let out = SharedBuffer::default();
        let mut session = Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
        Engine::Native.apply(&mut session.machine);
        assert_eq!(session.run("knight.game", text).error, None);
        let printed = String::from_utf8(out.0.borrow().clone()).expect("text");
        (printed, session.machine.kernel_runs)
    };
    let lost = "len([1 for x in 0..N for y in 0..N if value(knight(({x}, {y}))) == 0])\n";
    let (tuples, runs) = run(&format!("{KNIGHT}{}", lost.replace("({x}, {y})", "(x, y)")));
    let (ints, _) = run(&format!(
        "{KNIGHT_INTS}{}",
        lost.replace("({x}, {y})", "x, y")
    ));
    assert_eq!(tuples, ints);
    // 90,000 squares: a search of each would run every one.
    assert!(runs < 5_000, "{runs} squares run one at a time");
    let asked = "[value(knight((x, 7))) for x in 0..40]\nvalue(knight((30, 29)))\n\
                 moves(knight((5, 5)))\nvalue(knight((3, 3)) + knight((8, 1)))\n";
    agree(&format!("{KNIGHT}{asked}"));
}

/// A tuple of another length, or a list where the rules make tuples, is
/// another position: the interpreter's, with its errors, in both.
#[test]
fn a_state_of_another_shape_is_the_interpreters() {
    let game = "game g(p) {\n    move a(k in 1..=2) if p[0] >= k -> g((p[0] - k, p[1]))\n    \
                move b if p[1] > 0 -> g((p[0], p[1] - 1))\n}\n";
    let printed = agree(&format!(
        "{game}value(g((6, 2)))\nvalue(g([6, 2]))\nvalue(g((6, 2, 9)))\nvalue(g((7, 1)))\n"
    ));
    // By hand: heaps of 6 (take 1 or 2) and 2 (take 1) are *0 and *0,
    // and a triple moves as its first two items do; 7 and 1 are *1 and *1.
    assert_eq!(printed, "0\n0\n0\n0\n");
    crate::common::differ::same_error(&format!("{game}value(g((1,)))\n"), "out of range");
}

/// A tuple taken apart by a pattern, `let (x, y) = p in ...` (in a
/// guard, in a target, in a helper that takes the square), is read item
/// by item as `p[0]` and `p[1]` are: split into integers and run as
/// machine code, with the interpreter's values; a pattern of another
/// length fails on every square, so the rules stay whole and the error
/// is the interpreter's, as it is for a state some moves make a list.
#[test]
fn a_tuple_taken_apart_by_a_pattern_is_split_too() {
    let game = "let N = 40\nfn inside(q) = let (x, y) = q in 0 <= x < N and 0 <= y < N\n\
                game king(p) {\n    move step((dx, dy) in [(1, 0), (0, 1), (1, 1), (2, 1)])\n        \
                if let (x, y) = p in inside((x - dx, y - dy)) and inside(p)\n        \
                -> king(let (x, y) = p in (x - dx, y - dy))\n}\n";
    assert!(machine_code_for(game, "king"));
    let printed = agree(&format!(
        "{game}len([1 for x in 0..N for y in 0..N if value(king((x, y))) == 0])\n\
         [value(king((x, 5))) for x in 0..12]\nmoves(king((4, 4)))\nvalue(king([3, 3]))\n"
    ));
    // King steps of (1, 0), (0, 1), (1, 1) and the knight-like (2, 1):
    // the corner is lost, its neighbours won.
    assert!(
        printed.starts_with(&format!("{}\n", lost_squares(40))),
        "{printed}"
    );
    crate::common::differ::same_error(&format!("{game}value(king((3, 4, 5)))\n"), "cannot unpack");
    // A state made a list by one move and a tuple by another is not
    // split: a pattern of two names fails on four items there too (the
    // compiled rules once read the first two).
    let mixed = "game g(p) {\n    move m(k in 1..=2) if p[0] >= k -> g([p[0] - k, p[1]])\n    \
                 move n(k in 1..=2) if let (x, y) = p in x >= k -> g(let (x, y) = p in (x - k, y))\n}\n";
    agree(&format!(
        "{mixed}[value(g((x, 3))) for x in 0..9]\nvalue(g([5, 1]))\n"
    ));
    crate::common::differ::same_error(
        &format!("{mixed}value(g((6, 5)))\nvalue(g((4, 4, 4, 4)))\n"),
        "cannot unpack",
    );
    let wrong = game.replace("if let (x, y) = p", "if let (x, y, z) = p");
    assert!(!machine_code_for(&wrong, "king"));
    crate::common::differ::same_error(&format!("{wrong}value(king((3, 4)))\n"), "cannot unpack");
}

/// The squares of an `n` by `n` board lost for a king stepping `(1, 0)`,
/// `(0, 1)`, `(1, 1)` or `(2, 1)` towards the corner, by direct search.
fn lost_squares(n: usize) -> usize {
    let mut lost = vec![vec![false; n]; n];
    let mut count = 0;
    for x in 0..n {
        for y in 0..n {
            let steps = [(1, 0), (0, 1), (1, 1), (2, 1)];
            let wins = steps
                .iter()
                .any(|&(dx, dy)| x >= dx && y >= dy && lost[x - dx][y - dy]);
            lost[x][y] = !wins;
            count += usize::from(!wins);
        }
    }
    count
}

/// A king in a box stepping towards the corner, its square a tuple or
/// three integers.
fn king(tuple: bool) -> String {
    let (params, x, y, z, to) = match tuple {
        true => (
            "p",
            "p[0]",
            "p[1]",
            "p[2]",
            "king((p[0] - dx, p[1] - dy, p[2] - dz))",
        ),
        false => ("x, y, z", "x", "y", "z", "king(x - dx, y - dy, z - dz)"),
    };
    format!(
        "let N = 40\n\
         let DIRS = [(dx, dy, dz) for dx in 0..=1 for dy in 0..=1 for dz in 0..=1 if dx + dy + dz > 0]\n\
         game king({params}) {{\n    move step((dx, dy, dz) in DIRS) if {x} >= dx and {y} >= dy and {z} >= dz\n        \
         -> {to}\n}}\n"
    )
}

/// Asked square by square over a box, the king's cube is swept row by row
/// by the machine code first, each square run once, whether its square is
/// a tuple or three integers; not searched square by square. A square is
/// lost exactly when its three coordinates are even (the king's game is
/// Nim-like in each coordinate mod 2), so (N / 2)³ of them.
#[test]
fn a_box_of_three_integers_or_a_triple_asked_square_by_square_is_swept_as_a_cube() {
    for (tuple, square) in [(true, "(x, y, z)"), (false, "x, y, z")] {
        let game = king(tuple);
        assert!(machine_code_for(&game, "king"));
        let text = format!(
            "{game}len([1 for x in 0..N for y in 0..N for z in 0..N if value(king({square})) == 0])\n"
        );
        let (session, printed) = Engine::Native.run("king.game", &text);
        assert_eq!(printed, format!("{}\n", 20 * 20 * 20));
        // 64,000 squares: a search of each would run every one.
        let runs = session.machine.kernel_runs;
        assert!(runs < 1_000, "{runs} squares run one at a time");
        let asked = format!(
            "[value(king({})) for x in 0..6]\nmoves(king({}))\n",
            square.replace('y', "3").replace('z', "2"),
            square.replace('x', "5").replace('y', "4").replace('z', "1")
        );
        agree(&format!("{game}{asked}"));
    }
}

/// A heap beside a pair, the pair passed on unchanged by one move
/// (`g(n - k, p)`) and read item by item by the others: split all the
/// same (three integers), the positions still pairs, the values the
/// interpreter's.
#[test]
fn a_tuple_passed_on_unchanged_is_split_beside_an_integer() {
    let game = "game g(n, p) {\n    move a(k in 1..=2) if k <= n -> g(n - k, p)\n    \
                move b(k in 1..=3) if k <= p[0] -> g(n, (p[0] - k, p[1]))\n    \
                move c if p[1] > 0 and n > 0 -> g(n - 1, (p[0], p[1] - 1))\n}\n";
    let explained = crate::common::explained(&format!("{game}value(g(3, (2, 2)))\n"));
    assert!(explained.contains("run as 3 integers"), "{explained}");
    agree(&format!(
        "{game}[value(g(n, (4, 3))) for n in 0..12]\n\
         len([1 for n in 0..12 for x in 0..12 if value(g(n, (x, 5))) == 0])\nmoves(g(5, (2, 2)))\n"
    ));
}

/// Take 1 to 3, or pass once while tokens are left: the heap and whether
/// the pass is spent kept as one pair.
const ONE_PASS: &str = "game g(s) {\n    move take(k in 1..=3) if k <= s[0] -> g((s[0] - k, s[1]))\n    \
    move pass if s[1] == 0 and s[0] > 0 -> g((s[0], 1))\n}\n";

/// Asked heap after heap, the pairs lie in a strip (the heap long, the
/// pass a column of two) swept row by row by the machine code, as the same
/// game of two integers is; the values agree with the interpreter, and
/// with the definition (by hand: with the pass unspent, a heap of 1 mod 4
/// from 5 on is lost, as are 0 and nothing else).
#[test]
fn a_pair_of_a_heap_and_a_flag_asked_heap_after_heap_is_swept_as_a_strip() {
    const N: i64 = 3_000;
    let text = format!("{ONE_PASS}len([n for n in 0..{N} if value(g((n, 0))) == 0])\n");
    let (session, printed) = Engine::Native.run("one_pass.game", &text);
    let runs = session.machine.kernel_runs;
    assert!(runs < 1_000, "{runs} positions run one at a time");
    let lost = 1 + (5..N).filter(|h| h % 4 == 1).count();
    assert_eq!(printed, format!("{lost}\n"));
    agree(&format!(
        "{ONE_PASS}[value(g((n, 0))) for n in 0..200]\n[value(g((n, 1))) for n in 0..200]\n"
    ));
}
