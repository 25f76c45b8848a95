//! A game's state written as a tuple or a list where integers would do
//! (`q((x, y))` for `q(x, y)`), as users write it: the values of the
//! integers' spelling, and as fast, the tuple split into the integers
//! (src/runtime/normalize/split.rs) and swept as they are
//! (src/runtime/sweep/mod.rs).

use super::written::nim_cube;
use super::*;

/// A lame queen moving left, down or diagonally, 1 to 5 squares, with
/// its state in `STATE`, moves written in `RULES`, and a query asking
/// each square of a 60 x 60 board as `ASK`.
fn queen(state: &str, rules: &str, ask: &str) -> String {
    format!(
        "let N = 60\ngame q({state}) {{\n{rules}\n}}\n\
         len([1 for x in 0..N for y in 0..N if value(q({ask})) == 0])\n\
         [value(q({ask})) for x in 0..6 for y in 0..6]\n"
    )
}

/// The queen's state as a tuple read item by item, taken apart by `let
/// (x, y) = p` in its guard or its target: before, a `let` of a pattern
/// in a target left every position to the interpreter (125 times slower,
/// past the time limit on a 3000 x 3000 board), and a query asking
/// `q((x, y))` ran each position alone (5 times slower), and so did an
/// `if` between two tuples for the position (4 times slower). Now each
/// is swept by machine code as the integers are, no position run alone.
#[test]
fn a_tuple_state_taken_apart_is_swept_as_its_integers() {
    let plain = agree_big(&queen(
        "x, y",
        "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
         if k * dx <= x and k * dy <= y -> q(x - k * dx, y - k * dy)",
        "x, y",
    ));
    let tuple = |rules: &str| queen("p", rules, "(x, y)");
    let spellings = [
        tuple(
            "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
             if k * dx <= p[0] and k * dy <= p[1] -> q((p[0] - k * dx, p[1] - k * dy))",
        ),
        tuple(
            "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
             if (let (x, y) = p in k * dx <= x and k * dy <= y)\n        \
             -> (let (x, y) = p in q((x - k * dx, y - k * dy)))",
        ),
        tuple(
            "    move left(k in 1..=5) if k <= p[0] -> (let (x, y) = p in q((x - k, y)))\n    \
             move down(k in 1..=5) if k <= p[1] -> (let (x, y) = p in q((x, y - k)))\n    \
             move diag(k in 1..=5) if (let (x, y) = p in k <= min(x, y)) -> q((p[0] - k, p[1] - k))",
        ),
        tuple(
            "    move slide(i in 0..2, k in 1..=5) if (i == 0 and k <= p[0]) or (i == 1 and k <= p[1])\n        \
             -> q(if i == 0 then (p[0] - k, p[1]) else (p[0], p[1] - k))\n    \
             move diag(k in 1..=5) if k <= p[0] and k <= p[1] -> q((p[0] - k, p[1] - k))",
        ),
    ];
    for text in &spellings {
        assert_eq!(agree_big(text), plain, "{text}");
        let (session, _) = Engine::Native.run("tuple.game", text);
        let told = session.explain(None).unwrap();
        assert!(told.contains("run as 2 integers"), "{told}");
        assert!(told.contains("swept first, as a table is"), "{told}");
        assert_eq!(
            session.machine.interpreted.first().copied().unwrap_or(0),
            0,
            "{told}"
        );
        let runs = session.machine.kernel_runs;
        assert!(runs < 100, "{runs} positions run one at a time: {told}");
    }
}

/// The edges: a tuple of three among the pairs, or a list, given to the
/// game that splits pairs; a pattern that does not fit its tuple: the
/// interpreter's answers and errors, every engine.
#[test]
fn a_tuple_state_of_another_length_keeps_the_interpreters_answers() {
    let rules = "    move slide((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=5)\n        \
                 if k * dx <= p[0] and k * dy <= p[1] -> (let (x, y) = p in q((x - k * dx, y - k * dy)))";
    let text = format!(
        "game q(p) {{\n{rules}\n}}\n\
         [value(q((x, y))) for x in 0..30 for y in 0..30]\n\
         value(q([7, 9]))\nvalue(q((7, 9, 2)))\n"
    );
    same_failure(&text);
}

/// Nim with its heaps as a list, `nim(hs)` moving to `hs[:i] + [hs[i] -
/// k] + hs[i + 1:]` for `i in 0..len(hs)`, or in other words the rules
/// keep the list's length (a comprehension over its indices or items,
/// or the list sorted): compiled for the length of the positions met, as
/// that many integers (src/runtime/normalize/lengths/), and a query
/// asking `nim([a, b, c])` swept as a box is. Before, each option's list
/// was made and looked up (3 to 8 times slower than three integers).
/// Bouton's rule gives the values.
#[test]
fn a_list_state_of_one_length_runs_as_its_integers() {
    let (game, bouton) = nim_cube(14);
    for rules in [
        "    move take(i in 0..len(hs), k in 1..=hs[i]) -> nim(hs[:i] + [hs[i] - k] + hs[i + 1:])",
        "    move take(i in 0..3, k in 1..=hs[i]) -> nim(hs[:i] + [hs[i] - k] + hs[i + 1:])",
        "    move take(i in 0..len(hs), k in 1..=max(hs)) if k <= hs[i]\n        \
         -> nim(hs[0:i] + [hs[i] - k] + hs[i + 1:len(hs)])",
        "    move take(i in 0..len(hs), k in 1..=hs[i])\n        \
         -> nim([if j == i then hs[j] - k else hs[j] for j in 0..len(hs)])",
        "    move take(i in 0..len(hs), k in 1..=hs[i])\n        \
         -> nim([x - (if j == i then k else 0) for (j, x) in enumerate(hs)])",
        "    move take(i in 0..len(hs), k in 1..=hs[i]) -> nim(sorted(hs[:i] + [hs[i] - k] + hs[i + 1:]))",
        "    move first(k in 1..=hs[0]) -> nim([hs[0] - k] + hs[1:])\n    \
         move middle(k in 1..=hs[1]) -> nim(hs[:1] + [hs[1] - k] + hs[-1:])\n    \
         move last(k in 1..=hs[-1]) -> nim(hs[:-1] + [hs[-1] - k])",
    ] {
        let text = game(rules);
        assert_eq!(agree_big(&text), bouton, "{text}");
        let (session, _) = Engine::Native.run("nim.game", &text);
        let told = session.explain(None).unwrap();
        assert!(told.contains("run as 3 integers"), "{told}");
        assert!(
            told.contains("swept first, row by row of its cube"),
            "{told}"
        );
        assert_eq!(
            session.machine.interpreted.first().copied().unwrap_or(0),
            0,
            "{told}"
        );
        // Sorted, an option's items are `min`s and `max`es, which the
        // cube's sweep does not read: its positions run one at a time.
        let runs = session.machine.kernel_runs;
        assert!(
            runs < 100 || rules.contains("sorted"),
            "{runs} positions run one at a time: {told}"
        );
    }
}

/// Lists of several lengths given to rules compiled for the first
/// length met, tuples after lists, a list of one heap or none, and the
/// state read whole (`sum(hs)`, `min(hs)`): Bouton's values and the
/// interpreter's answers and errors, every engine.
#[test]
fn a_list_state_of_many_lengths_keeps_the_interpreters_answers() {
    let nim = "game nim(hs) {\n    move take(i in 0..len(hs), k in 1..=hs[i]) if sum(hs) >= min(hs)\n        \
               -> nim(hs[:i] + [hs[i] - k] + hs[i + 1:])\n}\n";
    let starts = "[[3, 5], [3, 5, 6], [1, 2, 3, 4], [7], [], [2, 2], [6, 5, 3], [9, 1, 4, 4, 2]]";
    let text = format!("{nim}[value(nim(h)) for h in {starts}]\n");
    assert_eq!(agree_big(&text), "[6, 0, 4, 7, 0, 0, 0, 10]\n");
    let sorted = text.replace(
        "nim(hs[:i] + [hs[i] - k] + hs[i + 1:])",
        "nim(sorted([hs[j] - (if j == i then k else 0) for j in 0..len(hs)]))",
    );
    assert_eq!(agree_big(&sorted), "[6, 0, 4, 7, 0, 0, 0, 10]\n");
    let tuples = format!("{nim}[value(nim(h)) for h in [[3, 5, 6], [1, 2]]]\nvalue(nim((3, 5)))\n");
    same_failure(&tuples);
    let negative = format!("{nim}[value(nim(h)) for h in [[3, 5], [4, -1]]]\n");
    agree_big(&negative);
    // A list written out whose item fails, its length asked: the error.
    same_failure(
        "game g(hs) {\n    move m(i in 0..len(hs), k in 1..=hs[i]) if len([hs[i + 1]]) == 1\n        \
         -> g(hs[:i] + [hs[i] - k] + hs[i + 1:])\n}\nvalue(g([1, 2, 3]))\n",
    );
    // A list first, then the tuples the rules make; long lists, which
    // do not split; a list asked by a query of a game that makes tuples.
    let tuple_rules = "game q(p) {\n    move left(k in 1..=3) if k <= p[0] -> q((p[0] - k, p[1]))\n    \
                       move down(k in 1..=3) if k <= p[1] -> q((p[0], p[1] - k))\n}\n";
    agree_big(&format!(
        "{tuple_rules}value(q([7, 9]))\nvalue(q((7, 9)))\n\
         [value(q([x, y])) for x in 0..20 for y in 0..20]\n"
    ));
    agree_big(&format!(
        "{nim}value(nim([1] * 9 + [3]))\nvalue(nim([2, 3] * 3 + [1, 1, 1]))\nvalue(nim([4, 5]))\n"
    ));
}

/// A string state lowered a letter at a time, the letters a binder takes
/// written as one string (`c in "abcd"`) or a `let` of one, rather than
/// a list of one-letter strings: every position was the interpreter's
/// (12 times slower); now compiled as the list's, with its values.
#[test]
fn a_binder_over_a_strings_letters_is_over_its_letters() {
    let game = |letters: &str, swap: &str| {
        format!(
            "let L = \"abcd\"\ngame w(s) {{\n    move swap(i in 0..len(s) - 1) if s[i] > s[i + 1] -> w({swap})\n    \
             move lower(i in 0..len(s), c in {letters}) if c < s[i] -> w(s[:i] + c + s[i + 1:])\n}}\n\
             [value(w(s)) for s in [\"dcbad\", \"ddddd\", \"dadad\", \"cdcdc\", \"bdbdb\", \"\", \"a\", \"dé\"]]\n"
        )
    };
    let slices = "s[:i] + s[i + 1:i + 2] + s[i:i + 1] + s[i + 2:]";
    let plain = agree_big(&game("[\"a\", \"b\", \"c\", \"d\"]", slices));
    for text in [
        game("\"abcd\"", slices),
        game("L", slices),
        game("\"abcd\"", "s[:i] + s[i + 1] + s[i] + s[i + 2:]"),
    ] {
        assert_eq!(agree_big(&text), plain, "{text}");
        let (session, _) = Engine::Native.run("letters.game", &text);
        let told = session.explain(None).unwrap();
        assert!(told.starts_with("w(s): compiled"), "{told}");
        let interpreted = session.machine.interpreted.first().copied().unwrap_or(0);
        assert!(interpreted < 5, "{interpreted}: {told}");
    }
}

/// A tuple state read whole beside its pattern (`min(p)` and `let (a, b)
/// = p`), or taken apart into an `if` between two tuples: the rules for
/// its length compile where those for any length did not (every
/// position was the interpreter's, 10 to 140 times slower).
#[test]
fn a_tuple_state_read_whole_or_picked_by_an_if_compiles_for_its_length() {
    let whole = "game w(p) {\n    move left(k in 1..=p[0]) -> w(let (a, b) = p in (a - k, b))\n    \
                 move both(k in 1..=min(p)) -> w((p[0] - k, p[1] - k))\n}\n\
                 sum([value(w((a, b))) for a in 0..40 for b in 0..40])\n";
    let picked = "game w(t) {\n    move left(k in 1..=t[0])\n        \
                  -> w(let (a, b, c) = t in if k % 2 == 1 then (a - k, b, c) else (a - k, b + 1, c - 1))\n}\n\
                  [value(w((a, b, c))) for a in 0..12 for b in 0..4 for c in 0..4]\n";
    for text in [whole, picked] {
        agree_big(text);
        let (session, _) = Engine::Native.run("whole.game", text);
        let told = session.explain(None).unwrap();
        assert!(told.contains("integers"), "{told}");
        let interpreted = session.machine.interpreted.first().copied().unwrap_or(0);
        assert!(interpreted < 5, "{interpreted}: {told}");
    }
}
