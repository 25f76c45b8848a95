//! Games whose state is a list of booleans (`game tt(cs)`, coins heads
//! up or lamps lit), which the graph keys by a flat run of 0s and 1s
//! (`Shape::Bools`, src/graph/flat/mod.rs) and the compiled rules read
//! and write as such: random ones against the interpreter, the usual
//! spellings compiled throughout, and Turning Turtles against its theory.

use super::{agree_big, cases, compiled_as, guarded_moves};
use crate::common::Engine;
use crate::common::differ::{agree, compare, same_error};
use grundy::session::Session;
use proptest::prelude::*;

/// A condition on the coins `cs` at `i` and at `j < i`.
fn coin_cond() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "cs[i]",
        "not cs[j]",
        "cs[i] and not cs[j]",
        "cs[i] or cs[j]",
        "cs[i] == cs[j]",
        "cs[i] != true",
        "if cs[j] then cs[i] else not cs[i]",
        "any(cs[j:i])",
        "all(cs[:i])",
        "true in cs[j + 1:i]",
        "false not in cs",
        "cs[i] ^ cs[j]",
        "i - j < 3",
        // Rows compared whole, item by item.
        "cs < reversed(cs)",
        "cs[:j] >= cs[i:]",
    ])
}

/// What a move leaves: coins flipped, set or taken away, spelled as
/// users spell it.
fn coin_target() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "cs[:i] + [not cs[i]] + cs[i + 1:]",
        "cs[:j] + [not cs[j]] + cs[j + 1:i] + [false] + cs[i + 1:]",
        "[if k == i or k == j then not c else c for (k, c) in enumerate(cs)]",
        "[c for (k, c) in enumerate(cs) if k != i]",
        "cs[:i] + cs[i + 1:]",
        "cs[:j] + [true] * (i - j) + cs[i + 1:]",
        "[not c for c in cs[:i]] + cs[i:]",
        "flip(cs, j)[:i] + [false] + cs[i + 1:]",
        "[c ^ (k == i) for (k, c) in enumerate(cs)]",
        // A row or its mirror image, whichever is the less.
        "canon(cs[:i] + [false] + cs[i + 1:])",
        "max(cs[:j] + [false] + cs[j + 1:], reversed(cs[:j] + [false] + cs[j + 1:]))",
    ])
}

/// A file of one to three moves over coins, asked for values, a sum, a
/// winner and the moves listed.
fn coin_file() -> impl Strategy<Value = String> {
    let rule = (coin_cond(), coin_target());
    prop::collection::vec(rule, 1..=3).prop_map(|rules| {
        let body = guarded_moves(&rules, "i in 0..len(cs), j in 0..=i", "j < i and ", "g");
        format!(
            "fn flip(cs, k) = cs[:k] + [not cs[k]] + cs[k + 1:]\n\
             fn canon(cs) = min(cs, reversed(cs))\n\
             game g(cs) {{\n{body}}}\n\
             [value(g([true] * n)) for n in 0..7]\n\
             value(g([true, false, true, true, false, true]))\n\
             value(g([false, true, true]) + g([true, true]))\n\
             winner(g([true, false, false, true, true]))\n\
             moves(g([false, true, true, false]))\n"
        )
    })
}

/// How many positions of `file` the machine code left to the
/// interpreter, when it ran without an error (a cycle, which the
/// interpreter reports, or a position too many).
fn interpreted(file: &str) -> Option<u64> {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    let failed = session.run("coins.game", file).error.is_some();
    (!failed).then(|| session.machine.interpreted.iter().sum())
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn games_of_coins_agree_with_the_interpreter(file in coin_file()) {
        prop_assert!(matches!(interpreted(&file), None | Some(0)), "{}", file);
        compare(&file)?;
    }
}

/// Turning Turtles: turn a head to tails, and perhaps one coin to its
/// left over too.
const TURTLES: &str = "game tt(cs) {\n\
    move one(i in 0..len(cs)) if cs[i] -> tt(cs[:i] + [false] + cs[i + 1:])\n\
    move two(i in 0..len(cs), j in 0..i) if cs[i] -> \
    tt(cs[:j] + [not cs[j]] + cs[j + 1:i] + [false] + cs[i + 1:])\n}\n";

/// A row of coins, heads where `heads` has a bit, as the rules take it.
fn row(heads: u32, len: usize) -> String {
    let coins: Vec<&str> = (0..len)
        .map(|k| if heads >> k & 1 == 1 { "true" } else { "false" })
        .collect();
    format!("[{}]", coins.join(", "))
}

/// Its value is that of Nim with a heap of `k + 1` for each head at `k`
/// (Winning Ways, ch. 14): checked on every row of 7 coins, and on 14
/// heads, by the compiled rules with no position interpreted.
#[test]
fn turning_turtles_is_nim_of_the_heads_places_compiled_throughout() {
    let rows: Vec<String> = (0..128u32)
        .map(|h| format!("value(tt({}))", row(h, 7)))
        .collect();
    let text = format!("{TURTLES}[{}]\nvalue(tt([true] * 14))\n", rows.join(", "));
    compiled_as(
        &text,
        &[
            "tt(cs): compiled to machine code",
            "list or set made in place",
        ],
    );
    let printed = agree_big(&text);
    let nim = |h: u32| {
        (0..7)
            .filter(|k| h >> k & 1 == 1)
            .fold(0, |x, k| x ^ (k + 1))
    };
    let want: Vec<String> = (0..128).map(|h| nim(h).to_string()).collect();
    let fourteen = (1..=14).fold(0, |x, k| x ^ k);
    assert_eq!(printed, format!("[{}]\n{fourteen}\n", want.join(", ")));
}

/// The same game spelled with a helper that flips one coin by
/// `enumerate`, a comprehension of a `for` over the coins, `any` and
/// `in`: each compiles, and gives the same values.
#[test]
fn helpers_comprehensions_any_and_in_over_coins_compile() {
    let spellings = [
        "fn flip(cs, i) = [if j == i then not c else c for (j, c) in enumerate(cs)]\n\
         game tt(cs) {\n\
         move one(i in 0..len(cs)) if cs[i] -> tt(flip(cs, i))\n\
         move two(i in 0..len(cs), j in 0..len(cs)) if cs[i] and j < i -> tt(flip(flip(cs, i), j))\n}\n",
        "game tt(cs) {\n\
         move one(i in 0..len(cs)) if cs[i] == true -> tt([c and k != i for (k, c) in enumerate(cs)])\n\
         move two(i in 0..len(cs), j in 0..i) if cs[i] and true in cs[i:] -> \
         tt([if k == j then not c else c and k != i for (k, c) in enumerate(cs)])\n}\n",
    ];
    for rules in spellings {
        let text = format!(
            "{rules}value(tt([]))\nvalue(tt([true] * 12))\nvalue(tt({}))\n",
            row(0b1011_0110, 8)
        );
        compiled_as(&text, &["tt(cs): compiled to machine code"]);
        // 12 heads: 1 ^ 2 ^ ... ^ 12 is 12; heads at 1, 2, 4, 5 and 7 of 8:
        // 2 ^ 3 ^ 5 ^ 6 ^ 8 is 10.
        assert_eq!(agree_big(&text), "0\n12\n10\n", "{rules}");
    }
}

/// Kayles on a row of pins kept as a tuple of booleans: knock down one
/// pin or two side by side. A row of `n` standing pins is worth Kayles'
/// value of `n` (octal 0.77, OEIS A002186), compiled throughout.
#[test]
fn kayles_on_a_tuple_of_pins_has_the_kayles_values_compiled_throughout() {
    let text = "game ky(ps) {\n\
        move one(i in 0..len(ps)) if ps[i] -> ky(ps[:i] + (false,) + ps[i + 1:])\n\
        move two(i in 0..len(ps) - 1) if ps[i] and ps[i + 1] -> ky(ps[:i] + (false, false) + ps[i + 2:])\n}\n\
        [value(ky((true,) * n)) for n in 0..=13]\nvalue(ky((false, true, true, false, true)))\n";
    compiled_as(text, &["ky(ps): compiled to machine code"]);
    // K(2) ^ K(1) = 2 ^ 1.
    assert_eq!(
        agree_big(text),
        "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1]\n3\n"
    );
}

/// A boolean is no integer: coins read as numbers (`cs[i] + 1`,
/// `sum(cs)`, `cs[i] < cs[j]`, `0 in cs`) are the interpreter's errors
/// or answers, whichever path runs them; and an item passed for another
/// parameter is a boolean there, never 1 (the interpreter's `true == 1`
/// is false, so `k` below never moves and the value is 1).
#[test]
fn coins_read_as_numbers_are_the_interpreters_to_answer() {
    for (guard, needle) in [
        ("cs[i] + 1 > 1", "`+` cannot be applied to a boolean"),
        ("sum(cs) > 0", "to sum, found a boolean"),
        ("cs[i] < cs[0]", "`<` cannot be applied to a boolean"),
        ("(cs[i] ^ 1) == 0", "`^` cannot be applied to a boolean"),
    ] {
        same_error(
            &format!(
                "game g(cs) {{\n move m(i in 0..len(cs)) if {guard} -> g(cs[:i] + cs[i + 1:])\n}}\n\
                 value(g([true, false]))\n"
            ),
            needle,
        );
    }
    let answered = [
        "if cs[i] == 1 or 0 in cs",
        "if sorted(cs)[0] == cs[i]",
        "if cs[i] in [1, true]",
    ];
    for guard in answered {
        agree(&format!(
            "game g(cs) {{\n move m(i in 0..len(cs)) {guard} -> g(cs[:i] + cs[i + 1:])\n}}\n\
             [value(g(cs)) for cs in [[true, false, true], [false], [true] * 5]]\n"
        ));
    }
    let flag = "game g(b, cs) {\n\
                move m(i in 0..len(cs)) if cs[i] -> g(cs[i], cs[:i] + [false] + cs[i + 1:])\n\
                move k if b == 1 -> g(0, [])\n}\n\
                value(g(0, [true]))\n";
    assert_eq!(agree(flag), "1\n");
}

/// The moves of a position and its options print as lists of booleans,
/// and a list of integers where the rules read conditions is the
/// interpreter's error, reported alike.
#[test]
fn coins_print_as_booleans_and_integers_are_the_interpreters_error() {
    let listed = agree(&format!("{TURTLES}moves(tt([false, true, true]))\n"));
    assert!(listed.contains("tt([false, false, true])"), "{listed}");
    assert!(listed.contains("tt([true, true, false])"), "{listed}");
    same_error(
        &format!("{TURTLES}value(tt([false, true]))\nvalue(tt([0, 1]))\n"),
        "expected a boolean",
    );
}
