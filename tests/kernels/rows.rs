//! Games whose state is a tuple of pairs (`game nc(rs)` over `((0, 9),
//! (3, 12))`: rows of two checkers kept as tuples), which the graph keys
//! by a flat run of packed pairs (`Shape::PairTuple`,
//! src/graph/flat/mod.rs) and the compiled rules read and write as a
//! list of pairs: random ones against the interpreter, and Northcott's
//! game spelled three ways against its theory.

use super::{agree_big, cases, compiled_as, guarded_moves};
use crate::common::differ::compare;
use proptest::prelude::*;

/// A condition on row `i` of `rs` and the step `d`.
fn row_cond() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "true",
        "rs[i][0] < rs[i][1]",
        "d % 2 == 1",
        "(rs[i][0] + d, rs[i][1]) not in rs",
        "len(rs) > 1 and rs[0][1] >= d",
    ])
}

/// What a move leaves, spelled as users spell it.
fn row_target() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "rs[:i] + ((rs[i][0] + d, rs[i][1]),) + rs[i + 1:]",
        "put(rs, i, (rs[i][0], rs[i][1] - d))",
        "rs[:i] + rs[i + 1:]",
        "rs[:i] + ((rs[i][1] - d, rs[i][0]),) + rs[i + 1:]",
    ])
}

/// A file of one or two moves over rows, asked for values, a sum and the
/// moves listed.
fn row_file() -> impl Strategy<Value = String> {
    let rule = (row_cond(), row_target());
    prop::collection::vec(rule, 1..=2).prop_map(|rules| {
        let body = guarded_moves(
            &rules,
            "i in 0..len(rs), d in 1..rs[i][1] - rs[i][0]",
            "",
            "nc",
        );
        format!(
            "fn put(rs, i, r) = rs[:i] + (r,) + rs[i + 1:]\n\
             game nc(rs) {{\n{body}}}\n\
             value(nc(((0, 6), (2, 7), (1, 3))))\n\
             value(nc(((0, 4),)) + nc(((1, 5), (0, 2))))\n\
             moves(nc(((0, 3), (1, 4))))\n"
        )
    })
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn games_of_rows_of_pairs_agree_with_the_interpreter(file in row_file()) {
        compare(&file)?;
    }
}

/// Northcott's game: either checker of a row moves toward the other.
/// Its value is the nim-sum of the gaps between them (Winning Ways,
/// ch. 2): checked on rows of tuples, spelled with slices, with a
/// helper, with a binder picking the checker, and with a binder over
/// the rows by `enumerate`, each compiled throughout.
#[test]
fn northcott_on_a_tuple_of_rows_is_nim_of_its_gaps_compiled_throughout() {
    let spellings = [
        "game nc(rs) {\n\
         move white(i in 0..len(rs), d in 1..rs[i][1] - rs[i][0]) -> nc(rs[:i] + ((rs[i][0] + d, rs[i][1]),) + rs[i + 1:])\n\
         move black(i in 0..len(rs), d in 1..rs[i][1] - rs[i][0]) -> nc(rs[:i] + ((rs[i][0], rs[i][1] - d),) + rs[i + 1:])\n}\n",
        "fn put(rs, i, r) = rs[:i] + (r,) + rs[i + 1:]\n\
         game nc(rs) {\n\
         move white(i in 0..len(rs), d in 1..rs[i][1] - rs[i][0]) -> nc(put(rs, i, (rs[i][0] + d, rs[i][1])))\n\
         move black(i in 0..len(rs), d in 1..rs[i][1] - rs[i][0]) -> nc(put(rs, i, (rs[i][0], rs[i][1] - d)))\n}\n",
        "game nc(rs) {\n\
         move slide(i in 0..len(rs), d in 1..rs[i][1] - rs[i][0], white in [0, 1]) -> \
         nc(rs[:i] + ((rs[i][0] + d * white, rs[i][1] - d * (1 - white)),) + rs[i + 1:])\n}\n",
        // A binder of a tuple inside a tuple.
        "game nc(rs) {\n\
         move white((i, (w, b)) in enumerate(rs), d in 1..b - w) -> nc(rs[:i] + ((w + d, b),) + rs[i + 1:])\n\
         move black((i, (w, b)) in enumerate(rs), d in 1..b - w) -> nc(rs[:i] + ((w, b - d),) + rs[i + 1:])\n}\n",
    ];
    let rows: [&[(i64, i64)]; 4] = [
        &[(0, 7), (3, 10), (1, 6), (2, 9)],
        &[(0, 1), (4, 9)],
        &[(2, 12)],
        &[(0, 5), (1, 4), (2, 9), (0, 3)],
    ];
    let tuple = |rs: &[(i64, i64)]| {
        let items: Vec<String> = rs.iter().map(|(w, b)| format!("({w}, {b}), ")).collect();
        format!("({})", items.concat().trim_end_matches(' '))
    };
    let asked: String = (rows.iter())
        .map(|rs| format!("value(nc({}))\n", tuple(rs)))
        .collect();
    let want: String = (rows.iter())
        .map(|rs| format!("{}\n", rs.iter().fold(0, |x, (w, b)| x ^ (b - w - 1))))
        .collect();
    for rules in spellings {
        let text = format!("{rules}{asked}");
        compiled_as(&text, &["nc(rs): compiled to machine code"]);
        assert_eq!(agree_big(&text), want, "{rules}");
    }
}
