//! Binders and comprehensions over a list state of one length written
//! out item by item (src/runtime/normalize/lengths/): `enumerate` and
//! `zip` of the state, lists repeated (`[0] * i`), pairs of indices from
//! a set, a list of lists of steps, `all` of a comprehension, and a
//! state of four integers read from the table by its items.

use super::*;

/// A game of Nim written `nim(hs)` with the move `rules`, asking every
/// list of three heaps below `n`, as a function of the rules; and the
/// values Bouton's rule gives them, as printed.
pub(super) fn nim_cube(n: i64) -> (impl Fn(&str) -> String, String) {
    let game = move |rules: &str| {
        format!(
            "game nim(hs) {{\n{rules}\n}}\n\
             [value(nim([a, b, c])) for a in 0..{n} for b in 0..{n} for c in 0..{n}]\n"
        )
    };
    let xor: Vec<String> = (0..n)
        .flat_map(|a| (0..n).flat_map(move |b| (0..n).map(move |c| (a ^ b ^ c).to_string())))
        .collect();
    (game, format!("[{}]\n", xor.join(", ")))
}

/// Three heaps as integers, taking from one or from two at once, with
/// the query `ask` (its `ARGS` the heaps `a, b, c`).
fn one_or_two_heaps(ask: &str) -> String {
    format!(
        "game g(a, b, c) {{\n    \
         move one(k in 1..=a) -> g(a - k, b, c)\n    move two(k in 1..=b) -> g(a, b - k, c)\n    \
         move three(k in 1..=c) -> g(a, b, c - k)\n    \
         move ab(k in 1..=a, l in 1..=b) -> g(a - k, b - l, c)\n    \
         move ac(k in 1..=a, l in 1..=c) -> g(a - k, b, c - l)\n    \
         move bc(k in 1..=b, l in 1..=c) -> g(a, b - k, c - l)\n}}\n{}",
        ask.replace("ARGS", "a, b, c")
    )
}

/// Nim of three heaps as a list, with the heap taken from named by
/// `enumerate` or `zip`, or the option made by `zip` with a list of
/// zeros and one `k`: before, the binder over `enumerate(hs)` made every
/// option's list (8 times slower than three integers), and `zip` of
/// anything but names and slices left every position to the interpreter
/// (past the time limit). Bouton's rule gives the values.
#[test]
fn enumerate_and_zip_of_a_list_state_run_as_its_integers() {
    let (game, bouton) = nim_cube(12);
    for rules in [
        "    move take((i, h) in enumerate(hs), k in 1..=h) -> nim(hs[:i] + [h - k] + hs[i + 1:])",
        "    move take((i, h) in enumerate(hs), k in 1..=h)\n        \
         -> nim([if j == i then x - k else x for (j, x) in enumerate(hs)])",
        "    move take(i in 0..len(hs), k in 1..=hs[i])\n        \
         -> nim([x - (if j == i then k else 0) for (j, x) in zip(0..len(hs), hs)])",
        "    move take(i in 0..len(hs), k in 1..=hs[i])\n        \
         -> nim([h - d for (h, d) in zip(hs, [0] * i + [k] + [0] * (len(hs) - i - 1))])",
    ] {
        let text = game(rules);
        assert_eq!(agree_big(&text), bouton, "{text}");
        compiled_as(
            &text,
            &["run as 3 integers", "swept first, row by row of its cube"],
        );
    }
}

/// Two heaps lowered at once, the pair of heaps a tuple binder takes
/// from a set, the option made by `zip` with a list built of repeated
/// zeros: every position was the interpreter's (past the time limit);
/// now the values of three integers, compiled.
#[test]
fn pairs_of_indices_from_a_set_run_as_integers() {
    let ask = "[value(g(ARGS)) for a in 0..9 for b in 0..9 for c in 0..9]\n";
    let plain = one_or_two_heaps(ask);
    let listed = format!(
        "game g(hs) {{\n    \
         move one(i in 0..3, k in 1..=hs[i]) -> g(hs[:i] + [hs[i] - k] + hs[i + 1:])\n    \
         move two((i, j) in {{(0, 1), (0, 2), (1, 2)}}, k in 1..=hs[i], l in 1..=hs[j])\n        \
         -> g([h - d for (h, d) in zip(hs, [0] * i + [k] + [0] * (j - i - 1) + [l] + [0] * (2 - j))])\n}}\n{}",
        ask.replace("ARGS", "[a, b, c]")
    );
    let plain = agree_big(&plain);
    // The second index's range starts past the first's, empty for the
    // last heap: no move is left with a binder over it.
    let sliced = format!(
        "game g(hs) {{\n    \
         move one(i in 0..len(hs), k in 1..=hs[i]) -> g(hs[:i] + [hs[i] - k] + hs[i + 1:])\n    \
         move two(i in 0..len(hs), j in i + 1..len(hs), k in 1..=hs[i], l in 1..=hs[j])\n        \
         -> g(hs[:i] + [hs[i] - k] + hs[i + 1:j] + [hs[j] - l] + hs[j + 1:])\n}}\n{}",
        ask.replace("ARGS", "[a, b, c]")
    );
    for text in [listed, sliced] {
        assert_eq!(agree_big(&text), plain, "{text}");
        compiled_as(&text, &["run as 3 integers"]);
    }
}

/// A token's square a tuple, its step added by a helper (`fn add(p, d) =
/// (p[0] + d[0], p[1] + d[1])`) or picked by a helper's chain of `if`s
/// on a binder over a few constants: each option's tuple was made and
/// looked up (13 to 17 times slower than two integers); now the steps
/// are written out and the board swept as the plain spelling's.
#[test]
fn tuple_helpers_of_a_tuple_state_are_written_out() {
    let ask = "let W = 40\nGAME\n\
               len([1 for x in 0..W for y in 0..W if value(tok(ARGS)) == 0])\n\
               [value(tok(ARGS)) for x in 0..8 for y in 0..8]\n";
    let plain = agree_big(&ask.replace("ARGS", "x, y").replace(
        "GAME",
        "game tok(x, y) {\n    move step((dx, dy) in [(-1, 0), (0, -1), (-1, -1), (-2, 1), (1, -2)])\n        \
         if 0 <= x + dx < W and 0 <= y + dy < W -> tok(x + dx, y + dy)\n}",
    ));
    let added = "fn add(p, d) = (p[0] + d[0], p[1] + d[1])\n\
                 fn inside(p) = 0 <= p[0] < W and 0 <= p[1] < W\n\
                 game tok(p) {\n    move step(d in [(-1, 0), (0, -1), (-1, -1), (-2, 1), (1, -2)])\n        \
                 if inside(add(p, d)) -> tok(add(p, d))\n}";
    let picked = "fn go(x, y, m) = if m == 0 then (x - 1, y) else if m == 1 then (x, y - 1) \
                  else if m == 2 then (x - 1, y - 1) else if m == 3 then (x - 2, y + 1) else (x + 1, y - 2)\n\
                  game tok(p) {\n    move step(m in 0..5)\n        \
                  if (let (x, y) = go(p[0], p[1], m) in 0 <= x < W and 0 <= y < W) -> tok(go(p[0], p[1], m))\n}";
    for game in [added, picked] {
        let text = ask.replace("ARGS", "(x, y)").replace("GAME", game);
        assert_eq!(agree_big(&text), plain, "{text}");
        compiled_as(&text, &["run as 2 integers", "a board"]);
    }
}

/// A token stepping by one of a list of lists of steps, kept on the
/// board by `all` of a comprehension, its square a list: every position
/// was the interpreter's (200 times slower); now a board of two
/// integers swept as the plain spelling's.
#[test]
fn a_binder_over_a_list_of_steps_and_all_of_a_comprehension_compile() {
    let ask = "let W = 40\nGAME\n\
               len([1 for x in 0..W for y in 0..W if value(tok(ARGS)) == 0])\n\
               [value(tok(ARGS)) for x in 0..8 for y in 0..8]\n";
    let plain = ask.replace("ARGS", "x, y").replace(
        "GAME",
        "game tok(x, y) {\n    move step((dx, dy) in [(-1, 0), (0, -1), (-1, -1), (-2, 1), (1, -2)])\n        \
         if 0 <= x + dx < W and 0 <= y + dy < W -> tok(x + dx, y + dy)\n}",
    );
    let listed = ask.replace("ARGS", "[x, y]").replace(
        "GAME",
        "game tok(p) {\n    move step(d in [[-1, 0], [0, -1], [-1, -1], [-2, 1], [1, -2]])\n        \
         if all([0 <= p[i] + d[i] < W for i in 0..2]) -> tok([p[i] + d[i] for i in 0..2])\n}",
    );
    assert_eq!(agree_big(&listed), agree_big(&plain), "{listed}");
    compiled_as(&listed, &["run as 2 integers", "a board"]);
}

/// Chips moving left on a strip of four cells, the counts a list: each
/// option's list of four integers is read from the table by its items,
/// as one of three is (it was looked up by hashing, 4 times slower than
/// four integers).
#[test]
fn a_list_of_four_integers_is_read_from_the_table_by_its_items() {
    let ask = "[value(ch(ARGS)) for a in 0..5 for b in 0..5 for c in 0..5 for d in 0..5]\n";
    let plain = format!(
        "game ch(a, b, c, d) {{\n    move m0 if a > 0 -> ch(a - 1, b, c, d)\n    \
         move m1(e in 0..2) if b > 0 -> ch(a + e, b - 1, c, d)\n    \
         move m2(e in 0..2) if c > 0 -> ch(a, b + e, c - 1, d)\n    \
         move m3(e in 0..2) if d > 0 -> ch(a, b, c + e, d - 1)\n}}\n{}",
        ask.replace("ARGS", "a, b, c, d")
    );
    let listed = format!(
        "game ch(cs) {{\n    move m(i in 0..len(cs), e in 0..2) if cs[i] > 0\n        \
         -> ch([x - (if j == i then 1 else 0) + (if j == i - 1 then e else 0) for (j, x) in enumerate(cs)])\n}}\n{}",
        ask.replace("ARGS", "[a, b, c, d]")
    );
    assert_eq!(agree_big(&listed), agree_big(&plain), "{listed}");
    compiled_as(
        &listed,
        &["run as 4 integers", "read from the tables by its items"],
    );
}

/// What the rewrites must not change: an item of `all` that fails past a
/// false one (`hs[3]` of three heaps), `zip` of lists of two lengths,
/// a list repeated a negative number of times, and the same rules given
/// a list of another length: the interpreter's answers and errors.
#[test]
fn written_out_lists_keep_the_interpreters_answers_and_errors() {
    same_failure(
        "game g(hs) {\n    move m(i in 0..len(hs), k in 1..=hs[i]) if all([hs[j] > 0 for j in 0..4])\n        \
         -> g(hs[:i] + [hs[i] - k] + hs[i + 1:])\n}\nvalue(g([0, 2, 3]))\n",
    );
    let zipped = "game g(hs) {\n    move m(i in 0..len(hs), k in 1..=hs[i])\n        \
                  -> g([h - d for (h, d) in zip(hs, [0] * i + [k] + [0] * (5 - i))])\n}\n\
                  [value(g([a, b, c])) for a in 0..6 for b in 0..6 for c in 0..6]\n\
                  [value(g(h)) for h in [[3, 4], [1, 2, 3, 4], [5]]]\n";
    agree_big(zipped);
    // Lists of other lengths met after the first compile the rules for
    // any length: asked alone, three heaps run as integers.
    let cube = zipped.lines().take(5).collect::<Vec<_>>().join("\n");
    compiled_as(&cube, &["run as 3 integers"]);
    let negative = "game g(hs) {\n    move m(i in 0..len(hs), k in 1..=hs[i])\n        \
                    -> g([0] * (i - 5) + hs[:i] + [hs[i] - k] + hs[i + 1:])\n}\n\
                    [value(g([a, b, c])) for a in 0..6 for b in 0..6 for c in 0..6]\n";
    agree_big(negative);
    compiled_as(negative, &["run as 3 integers"]);
    // A name for something that fails, read nowhere: still evaluated.
    same_failure(
        "game g(hs) {\n    move take(i in 0..len(hs), k in 1..=hs[i])\n        \
         -> g(let d = hs - [k] in hs[:i] + [hs[i] - k] + hs[i + 1:])\n}\nvalue(g([1, 2, 3]))\n",
    );
    same_failure(
        "game g(hs) {\n    move take(i in 0..len(hs), k in 1..=hs[i])\n        \
         if all([hs[0] >= 0, [k] < 3]) -> g(hs[:i] + [hs[i] - k] + hs[i + 1:])\n}\nvalue(g([1, 2, 3]))\n",
    );
}

/// Helpers given lists written out: `sub(sub(hs, i, k), j, l)`, each
/// call slicing the list the other made, and `canon([...])` of `min`,
/// `max` and `sum` of such a list: each option's list was made and
/// looked up (5 to 10 times slower than integers); now read item by item.
#[test]
fn helpers_of_lists_written_out_run_as_integers() {
    let ask = "[value(g(ARGS)) for a in 0..8 for b in 0..8 for c in 0..8]\n";
    let nested = format!(
        "fn sub(hs, i, k) = hs[:i] + [hs[i] - k] + hs[i + 1:]\ngame g(hs) {{\n    \
         move one(i in 0..len(hs), k in 1..=hs[i]) -> g(sub(hs, i, k))\n    \
         move two(i in 0..len(hs), j in i + 1..len(hs), k in 1..=hs[i], l in 1..=hs[j])\n        \
         -> g(sub(sub(hs, i, k), j, l))\n}}\n{}",
        ask.replace("ARGS", "[a, b, c]")
    );
    let plain = one_or_two_heaps(ask);
    assert_eq!(agree_big(&nested), agree_big(&plain), "{nested}");
    compiled_as(&nested, &["run as 3 integers"]);
    let canon = "fn canon(hs) = [min(hs), sum(hs) - min(hs) - max(hs), max(hs)]\ngame g(hs) {\n    \
                 move take(k in 1..=max(hs)) -> g(canon([min(hs), sum(hs) - min(hs) - max(hs), max(hs) - k]))\n}\n\
                 [value(g(canon([a, b, c]))) for a in 0..8 for b in 0..8 for c in 0..8]\n";
    let sorted = "game g(a, b, c) {\n    move take(k in 1..=c) -> g(sorted([a, b, c - k])[0], sorted([a, b, c - k])[1], sorted([a, b, c - k])[2])\n}\n\
                  [value(g(sorted([a, b, c])[0], sorted([a, b, c])[1], sorted([a, b, c])[2])) for a in 0..8 for b in 0..8 for c in 0..8]\n";
    assert_eq!(agree_big(canon), agree_big(sorted), "{canon}");
    compiled_as(canon, &["run as 3 integers"]);
}

/// Coins on a strip of ten, a list of zeros and ones, each move turning
/// coins by `zip` with a list of zeros and ones made for the option:
/// longer than a state is split into, every position was the
/// interpreter's (past the time limit at eighteen coins); the list made
/// is now named first and read by index, and the rules compiled. The
/// values are those of the coins as a bit mask.
#[test]
fn zip_with_a_list_made_per_option_is_compiled_for_any_length() {
    let listed = "let L = 10\ngame tt(cs) {\n    \
                  move one(i in 0..len(cs)) if cs[i] == 1\n        \
                  -> tt([c ^ f for (c, f) in zip(cs, [0] * i + [1] + [0] * (len(cs) - i - 1))])\n    \
                  move two(i in 0..len(cs), j in 0..i) if cs[i] == 1\n        \
                  -> tt([c ^ f for (c, f) in zip(cs, [0] * j + [1] + [0] * (i - j - 1) + [1] + [0] * (len(cs) - i - 1))])\n}\n\
                  [value(tt([(m >> i) & 1 for i in 0..L])) for m in 0..1 << L]\n";
    let masked = "let L = 10\ngame tt(m) {\n    move one(i in 0..L) if (m >> i) & 1 == 1 -> tt(m ^ (1 << i))\n    \
                  move two(i in 0..L, j in 0..i) if (m >> i) & 1 == 1 -> tt(m ^ (1 << i) ^ (1 << j))\n}\n\
                  [value(tt(m)) for m in 0..1 << L]\n";
    assert_eq!(agree_big(listed), agree_big(masked));
    compiled_as(listed, &["tt(cs): compiled"]);
}

/// `zip` of ranges and of a list reversed, and `enumerate` of a `zip`
/// with a nested pattern, read by index (src/runtime/normalize/zip.rs):
/// before, each was a list of tuples made per position, interpreted.
#[test]
fn zip_of_ranges_and_enumerate_of_zip_are_read_by_index() {
    let zipped = "game grundy(n) {\n    \
                  move split((a, b) in zip(1..n, reversed(1..n))) if a < b -> grundy(a) + grundy(b)\n}\n\
                  table(grundy, 0..=300)\n";
    let plain = "game grundy(n) {\n    \
                 move split(a in 1..n) if 2 * a < n -> grundy(a) + grundy(n - a)\n}\n\
                 table(grundy, 0..=300)\n";
    assert_eq!(agree(zipped), agree(plain));
    compiled_as(zipped, &["grundy(n): compiled", "loop over `(a, b)`"]);
    // Inclusive ranges, of unequal lengths, one reversed; a list state
    // reversed against a range.
    let inclusive = "game g(n) {\n    \
                     move m((a, b) in zip(0..=n, reversed(2..=n))) if a + b <= n and a < b -> g(a) + g(b - 1)\n}\n\
                     table(g, 0..=60)\n";
    agree(inclusive);
    compiled_as(inclusive, &["g(n): compiled"]);
    let list = "game g(hs) {\n    \
                move m((h, k) in zip(reversed(hs), 1..4)) if h >= k -> g(sorted([x for x in hs if x != h] + [h - k]))\n}\n\
                [value(g([a, b, c])) for a in 0..6 for b in a..6 for c in b..6]\n";
    agree(list);
    compiled_as(list, &["g(hs): compiled", "loop over `(h, k)`"]);
    // A string, pairs of neighbours by `enumerate(zip(s, s[1:]))`.
    let row = "game row(s) {\n    \
               move two((i, (c, d)) in enumerate(zip(s, s[1:]))) if c == \"X\" and d == \"X\" \
               -> row(s[:i] + \"..\" + s[i + 2:])\n}\n\
               [value(row(\"X\" * n)) for n in 0..16]\n";
    let indexed = "game row(s) {\n    \
                   move two(i in 0..len(s) - 1) if s[i] == \"X\" and s[i + 1] == \"X\" \
                   -> row(s[:i] + \"..\" + s[i + 2:])\n}\n\
                   [value(row(\"X\" * n)) for n in 0..16]\n";
    assert_eq!(agree(row), agree(indexed));
    compiled_as(row, &["row(s): compiled", "loop over `(i, c, d)`"]);
    // Ranges past the items the compiled rules hold are the
    // interpreter's, which makes them and checks `--max-items`.
    let long = "game g(n) {\n    move m((a, b) in zip(0..n, reversed(0..n))) if a < 3 and a < b -> g(a)\n}\n\
                value(g(70000))\n";
    assert_eq!(agree_big(long), "2\n");
    let past = "game g(n) {\n    move m((a, b) in zip(0..n, reversed(0..n))) if a < 3 and a < b -> g(a)\n}\n\
                value(g(20000000))\n";
    same_error(past, "too large");
}

/// A binder of a tuple inside a tuple, taken apart into a binder of its
/// own over its one value (src/runtime/normalize/nested.rs): over the
/// pairs of a list state by `enumerate`, and over constants; an item
/// that does not match is the interpreter's error on every path.
#[test]
fn a_tuple_inside_a_binders_tuple_is_bound_apart_and_compiled() {
    let nested = "game nc(rs) {\n    \
                  move m((i, (w, b)) in enumerate(rs), d in 1..b - w) -> nc(rs[:i] + [(w + d, b)] + rs[i + 1:])\n}\n\
                  [value(nc([(0, a), (1, b), (2, 9)])) for a in 0..6 for b in 1..6]\n";
    let indexed = "game nc(rs) {\n    \
                   move m(i in 0..len(rs), d in 1..rs[i][1] - rs[i][0]) -> nc(rs[:i] + [(rs[i][0] + d, rs[i][1])] + rs[i + 1:])\n}\n\
                   [value(nc([(0, a), (1, b), (2, 9)])) for a in 0..6 for b in 1..6]\n";
    assert_eq!(agree(nested), agree(indexed));
    compiled_as(nested, &["nc(rs): compiled"]);
    // Steps and their costs as constants, nested either way (the second
    // step's cost rules it out).
    let steps = "game w(x, y) {\n    \
                 move m(((dx, dy), c) in [((1, 0), 1), ((0, 1), 1), ((1, 1), 2)], k in 1..=3) \
                 if k * dx <= x and k * dy <= y and k >= c -> w(x - k * dx, y - k * dy)\n    \
                 move n((c, (dx, (dy, e))) in [(1, (2, (1, 0))), (2, (0, (2, 1)))]) \
                 if dx <= x and dy <= y and c + e <= 2 -> w(x - dx, y - dy)\n}\n\
                 [value(w(a, b)) for a in 0..12 for b in 0..12]\n";
    let plain = "game w(x, y) {\n    \
                 move a(k in 1..=3) if k <= x -> w(x - k, y)\n    \
                 move b(k in 1..=3) if k <= y -> w(x, y - k)\n    \
                 move c(k in 2..=3) if k <= x and k <= y -> w(x - k, y - k)\n    \
                 move d if 2 <= x and 1 <= y -> w(x - 2, y - 1)\n}\n\
                 [value(w(a, b)) for a in 0..12 for b in 0..12]\n";
    assert_eq!(agree(steps), agree(plain));
    compiled_as(steps, &["w(x, y): compiled"]);
    let unmatched = "game nc(rs) {\n    \
                     move m((i, (w, b)) in enumerate(rs), d in 1..b - w) -> nc(rs[:i] + [(w + d, b)] + rs[i + 1:])\n}\n\
                     value(nc([(0, 5), (1, 2, 3)]))\n";
    same_error(unmatched, "(1, 2, 3)");
}

/// Tuples, strings and tuples of booleans compared item by item (`<`,
/// `<=`, `>`, `>=`: the first items that differ decide, else the shorter
/// is the less), negative items and prefixes among them, compiled and
/// agreeing with the interpreter; `min` and `max` of two of them.
#[test]
fn collections_compared_item_by_item_compile_and_agree() {
    let text = "game a(t) {\n    \
                move m(i in 0..len(t)) if t[i] > -2 and t[:i] < t[i + 1:] -> a(t[:i] + (t[i] - 1,) + t[i + 1:])\n    \
                move n(i in 0..len(t)) if t[i] > -2 and t >= (0, 1) -> a(max(t[:i] + (t[i] - 2,) + t[i + 1:], t[:i]))\n}\n\
                game s(w) {\n    \
                move m(i in 0..len(w)) if w[i] == \"b\" and w[:i] <= w[i + 1:] -> s(w[:i] + \"a\" + w[i + 1:])\n    \
                move n(i in 0..len(w)) if w[i] == \"c\" and w > \"ab\" -> s(min(w[:i] + \"b\" + w[i + 1:], w[i + 1:] + \"a\"))\n}\n\
                game b(p) {\n    \
                move m(i in 0..len(p)) if p[i] and p[:i] >= p[i + 1:] -> b(p[:i] + (false,) + p[i + 1:])\n}\n\
                [value(a(t)) for t in [(1, 0, 2), (0, 1), (2, -1, 1, 0), (1,), ()]]\n\
                [value(s(w)) for w in [\"bcb\", \"cab\", \"bbcc\", \"ab\", \"\"]]\n\
                [value(b(p)) for p in [(true, false, true), (true,) * 5, (false, true, true, true)]]\n";
    agree(text);
    compiled_as(
        text,
        &[
            "a(t): compiled to machine code",
            "s(w): compiled to machine code",
            "b(p): compiled to machine code",
        ],
    );
}

/// A knight's four steps written as a user might: zipped or enumerated
/// constant lists, an index into them, a comprehension of targets with a
/// tuple pattern, a binder of one tuple or of one integer per
/// coordinate, and the board's edge by `all` of chains. Each runs over
/// the constant steps unrolled, so the board is swept square by square,
/// as the plain spelling is, agreeing with the interpreter.
#[test]
fn a_knights_steps_however_written_sweep_the_board() {
    let plain = "(dx, dy) in J) if 1 <= x + dx <= N and 1 <= y + dy <= N -> kn(x + dx, y + dy)";
    let spellings = [
        plain,
        "(dx, dy) in zip([-2, -2, 1, -1], [1, -1, -2, -2])) if 1 <= x + dx <= N and 1 <= y + dy <= N -> kn(x + dx, y + dy)",
        "(dx, dy) in zip(DX, DY)) if 1 <= x + dx <= N and 1 <= y + dy <= N -> kn(x + dx, y + dy)",
        "i in 0..4) if 1 <= x + DX[i] <= N and 1 <= y + DY[i] <= N -> kn(x + DX[i], y + DY[i])",
        "(i, dx) in enumerate(DX)) if 1 <= x + dx <= N and 1 <= y + DY[i] <= N -> kn(x + dx, y + DY[i])",
        "(a, b) in [(x + dx, y + dy) for (dx, dy) in J if 1 <= x + dx <= N and 1 <= y + dy <= N]) -> kn(a, b)",
        "(a, b) in [(x + dx, y + dy) for (dx, dy) in J]) if 1 <= a <= N and 1 <= b <= N -> kn(a, b)",
        "(dx, dy) in J, p in [(x + dx, y + dy)]) if ok(p) -> kn(p[0], p[1])",
        "(dx, dy) in J, nx in [x + dx], ny in [y + dy]) if 1 <= nx <= N and 1 <= ny <= N -> kn(nx, ny)",
        "(dx, dy) in J) if all([1 <= c <= N for c in [x + dx, y + dy]]) -> kn(x + dx, y + dy)",
    ];
    let head = "let N = 9\nlet J = [(-2, 1), (-2, -1), (1, -2), (-1, -2)]\n\
                let DX = [-2, -2, 1, -1]\nlet DY = [1, -1, -2, -2]\n\
                fn ok(p) = 1 <= p[0] <= N and 1 <= p[1] <= N\n";
    let query = "[len([1 for x in 1..=N for y in 1..=N if value(kn(x, y)) == v]) for v in 0..4]\n";
    let expected = agree(&format!(
        "{head}game kn(x, y) {{ move j({plain} }}\n{query}"
    ));
    for rules in spellings {
        let text = format!("{head}game kn(x, y) {{ move j({rules} }}\n{query}");
        assert_eq!(agree(&text), expected, "{rules}");
        compiled_as(&text, &["a board: every move lowers x + y"]);
    }
}

/// `zip` and `enumerate` of constants folded as the interpreter makes
/// them (as long as the shortest, of lists and tuples, of three), a
/// binder over one tuple put in place, and `not (a or b)` split into
/// conjuncts where `b` fails: the interpreter's values, moves and errors.
#[test]
fn constants_zipped_and_tuples_put_in_place_agree() {
    let text = "game g(n) { move m((a, b) in zip([1, 2, 3], [4, 5])) if a + b <= n -> g(n - a - b) }\n\
                game h(n) { move m((a, b, c) in zip([1, 2, 3], (4, 5, 6), [0, 1, 2, 3])) if a + b + c <= n -> h(n - a - b - c) }\n\
                game e(n) { move m((i, d) in enumerate((2, 3, 5))) if d + i <= n -> e(n - d - i) }\n\
                game p(n) { move m(q in [(n, 1)]) if q[0] - q[1] >= 0 -> p(q[0] - q[1] - 1) }\n\
                game k(x, y) { move j((dx, dy) in [(-2, 1), (1, -2)], q in [(x + dx, y + dy)]) if q[0] >= 0 and q[1] >= 0 -> k(q[0], q[1]) }\n\
                [[value(f(n)) for n in 0..40] for f in [g, h, e, p]]\n\
                moves(h(12))\nmoves(e(9))\nmoves(k(5, 5))\noptions(k(5, 5))\n";
    let out = agree(text);
    assert!(out.contains("j(dx=-2, dy=1, q=(3, 6))"), "{out}");
    assert!(out.contains("m(i=1, d=3)"), "{out}");
    same_failure(
        "game g(n) { move m if not (n > 5 or 10 / (n - 3) > 0) -> g(n - 1) }\nvalue(g(3))\n",
    );
}
