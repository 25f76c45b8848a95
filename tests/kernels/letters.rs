//! Games whose state is a list of one-character strings (`["H", "T",
//! "H"]`, pins as `"I"` and `"."`): the rules compare its items with a
//! character, which says a string, and the positions met say a list of
//! strings, which the compiled rules take (`Shape::Words`, each string
//! packed in one item): random ones against the interpreter, and Kayles
//! and Turning Turtles compiled throughout.

use super::{agree_big, cases, compiled_as, guarded_moves};
use crate::common::differ::compare;
use proptest::prelude::*;

/// A condition on the letters `cs` at `i` and at `j < i`.
fn letter_cond() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "cs[i] == \"H\"",
        "cs[j] != \"T\"",
        "cs[i] == \"H\" and cs[j] == cs[i]",
        "cs[i] < \"I\"",
        "\"H\" in cs[j:i]",
        "cs[j] >= \"H\" or i - j > 2",
    ])
}

/// What a move leaves: letters turned, set or taken away.
fn letter_target() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "cs[:i] + [\"T\"] + cs[i + 1:]",
        "cs[:j] + [if cs[j] == \"H\" then \"T\" else \"H\"] + cs[j + 1:i] + [\"T\"] + cs[i + 1:]",
        "cs[:i] + cs[i + 1:]",
        "[if k == i then \"T\" else c for (k, c) in enumerate(cs)]",
    ])
}

/// A file of one or two moves over letters, asked for values (some of
/// positions with longer strings among the letters), a sum and the
/// moves listed.
fn letter_file() -> impl Strategy<Value = String> {
    let rule = (letter_cond(), letter_target());
    prop::collection::vec(rule, 1..=2).prop_map(|rules| {
        let body = guarded_moves(&rules, "i in 0..len(cs), j in 0..=i", "j < i and ", "g");
        format!(
            "game g(cs) {{\n{body}}}\n\
             [value(g([\"H\"] * n)) for n in 0..7]\n\
             value(g([\"H\", \"T\", \"H\", \"H\", \"T\"]))\n\
             value(g([\"HT\", \"H\", \"A\", \"H\"]) + g([\"H\", \"H\"]))\n\
             moves(g([\"T\", \"H\", \"H\"]))\n"
        )
    })
}

proptest! {
    #![proptest_config(cases(32))]

    #[test]
    fn games_of_letters_agree_with_the_interpreter(file in letter_file()) {
        compare(&file)?;
    }
}

/// Kayles on a row of pins `"I"` (knocked down: `"."`), against the
/// Kayles values (octal 0.77, Winning Ways ch. 4), and Turning Turtles
/// on letters against the same game on a string.
#[test]
fn kayles_and_turtles_on_letters_are_compiled_throughout() {
    let kayles = "game k(ps) {\n\
                  move one(i in 0..len(ps)) if ps[i] == \"I\" -> k(ps[:i] + [\".\"] + ps[i + 1:])\n\
                  move two(i in 0..len(ps) - 1) if ps[i] == \"I\" and ps[i + 1] == \"I\" \
                  -> k(ps[:i] + [\".\", \".\"] + ps[i + 2:])\n}\n\
                  [value(k([\"I\"] * n)) for n in 0..16]\n";
    compiled_as(kayles, &["k(ps): compiled to machine code"]);
    assert_eq!(
        agree_big(kayles),
        "[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]\n"
    );
    let turtles = |row: &str, turn: &str| {
        format!(
            "game tw(cs) {{\n\
             move two(i in 0..len(cs), j in 0..i) if cs[i] == \"H\" -> {turn}\n}}\n\
             [value(tw({row}[:n])) for n in 0..12]\n"
        )
    };
    let letters = turtles(
        "[\"H\", \"T\", \"H\", \"H\", \"T\", \"H\", \"H\", \"H\", \"T\", \"H\", \"H\", \"T\"]",
        "tw(cs[:j] + [if cs[j] == \"H\" then \"T\" else \"H\"] + cs[j + 1:i] + [\"T\"] + cs[i + 1:])",
    );
    let string = turtles(
        "\"HTHHTHHHTHHT\"",
        "tw(cs[:j] + (if cs[j] == \"H\" then \"T\" else \"H\") + cs[j + 1:i] + \"T\" + cs[i + 1:])",
    );
    compiled_as(&letters, &["tw(cs): compiled to machine code"]);
    assert_eq!(agree_big(&letters), agree_big(&string));
}
