//! Sweeps of the machine code: races swept down from the top, DAGs from
//! their last row, and options read beside the swept position across
//! pages and rows.

use super::*;

/// A race up to a bound, asked at 0: the search climbs, each position
/// waiting for the one above it, and once it has climbed 64 the positions
/// from a top found above down to it are run instead
/// (src/runtime/sweep/mod.rs, `sweep_up`). The values agree with the
/// interpreter and with the definition; an error partway up is the
/// interpreter's, met on the same play; and the search itself reaches
/// only a few of the positions.
#[test]
fn a_race_up_to_a_bound_is_swept_down_from_the_top() {
    const N: usize = 100_000;
    let mut g = vec![0u8; N + 4];
    for t in (0..=N).rev() {
        let options: Vec<u8> = [1, 2, 5]
            .iter()
            .filter(|&&k| t + k <= N)
            .map(|k| g[t + k])
            .collect();
        g[t] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let race =
        format!("game race(t) {{ move add(k in [1, 2, 5]) if t + k <= {N} -> race(t + k) }}\n");
    let text = format!("{race}value(race(0))\nvalue(race(7))\n");
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("race.game", &text).error, None);
    let reached = session.machine.graph.reached();
    assert!(reached < 1_000, "{reached} positions reached by the search");
    // The machine code sweeps them down, not the kernel's run one at a
    // time (100,000 runs).
    let runs = session.machine.kernel_runs;
    assert!(runs < 1_000, "{runs} positions run one at a time");
    let values = format!("{}\n{}\n", g[0], g[7]);
    assert_eq!(run_big(&text, Engine::Native), values);
    let small = "game race(t) { move add(k in [1, 2, 5]) if t + k <= 300 -> race(t + k) }\n\
                 [value(race(t)) for t in [0, 150, 299, 300]]\nvalue(race(0) + race(1))\n";
    agree(small);
    // Races whose moves the machine code sweeps down from a top, with
    // conditions beside the bound, a bound met in the middle, and a sum.
    for rules in [
        "move add(k in 1..=3) if t + k <= 3000 and (t + k) % 7 != 3 -> race(t + k)",
        "move add(k in [1, 4]) if t + k <= 3000 -> race(t + k)\n move jump if t % 5 == 0 and t + 9 <= 3000 -> race(t + 9)",
        "move add(k in 1..=2) if t + k <= 3000 -> race(t + k) + *(t % 3)",
        "move add(k in 1..=3) if t + k <= 3000 and t != 1700 -> race(t + k)",
    ] {
        agree(&format!(
            "game race(t) {{\n {rules}\n}}\n[value(race(t)) for t in [0, 1, 1000, 2999]]\n"
        ));
    }
    // A division by zero at 200, met on the play up from 0.
    let error = "game race(t) { move add(k in [1, 2]) if t + k <= 300 -> race(t + k + 0 / (t - 200)) }\n\
                 value(race(0))\n";
    same_error(error, "division by zero");
}

/// Tokens on a DAG given by adjacency lists that a `let` makes, the
/// edges going up: the search climbs from 0, and the probes for a top
/// past the last row (`ADJ[v]` out of range, which the compiled rules
/// leave to the interpreter) bound the search for it rather than end the
/// sweep. The `let` itself is made by machine code, and the values agree
/// with the definition and with the interpreter.
#[test]
fn a_dag_of_adjacency_lists_is_swept_down_from_its_last_row() {
    const N: usize = 30_000;
    let edge = |i: usize, j: usize| (i * 31 + j * 17) % 5 < 2;
    let mut g = vec![0u8; N];
    for v in (0..N).rev() {
        let options: Vec<u8> = (v + 1..N.min(v + 25))
            .filter(|&w| edge(v, w))
            .map(|w| g[w])
            .collect();
        g[v] = (0..).find(|x| !options.contains(x)).unwrap();
    }
    let rules = |n: usize| {
        format!(
            "let ADJ = [[j for j in i + 1..min({n}, i + 25) if (i * 31 + j * 17) % 5 < 2] for i in 0..{n}]\n\
             game walk(v) {{ move go(w in ADJ[v]) -> walk(w) }}\n"
        )
    };
    let text = format!("{}value(walk(0))\nvalue(walk(1) + walk(2))\n", rules(N));
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("dag.game", &text).error, None);
    assert_eq!(session.machine.queries_compiled, 1, "the `let` of ADJ");
    let reached = session.machine.graph.reached();
    assert!(reached < 2_000, "{reached} positions reached by the search");
    let runs = session.machine.kernel_runs;
    assert!(runs < 2_000, "{runs} positions run one at a time");
    let values = format!("{}\n{}\n", g[0], g[1] ^ g[2]);
    assert_eq!(run_big(&text, Engine::Native), values);
    agree(&format!(
        "{}[value(walk(v)) for v in [0, 5, 299]]\n",
        rules(300)
    ));
}

#[test]
fn a_sweep_reads_the_options_beside_its_position_across_page_boundaries() {
    // The dense table's pages hold 65,536 slots; a sweep reads an option
    // in its position's page directly, and one in the page before
    // through the table. Values straight from the definition: options
    // n - k for k in {1, 2, 5, 9}, and n / 3 when n is odd.
    let top = 3 * 65_536 + 100;
    let mut v = vec![0usize; top + 1];
    for n in 0..=top {
        let mut seen = [false; 8];
        for k in [1, 2, 5, 9] {
            if k <= n {
                seen[v[n - k]] = true;
            }
        }
        if n % 2 == 1 {
            seen[v[n / 3]] = true;
        }
        v[n] = seen.iter().position(|s| !s).unwrap();
    }
    let weighted: usize = (0..=top).map(|n| v[n] * (n % 11 + 1)).sum();
    let near = |from: usize| {
        let items: Vec<String> = (from..from + 12).map(|n| v[n].to_string()).collect();
        format!("[{}]", items.join(", "))
    };
    let text = format!(
        "game g(n) {{\n move take(k in [1, 2, 5, 9]) if k <= n -> g(n - k)\n \
         move third if n % 2 == 1 -> g(n / 3)\n}}\nvalue(g({top}))\n\
         sum([value(g(n)) * (n % 11 + 1) for n in 0..={top}])\n\
         [value(g(n)) for n in 65530..65542]\n[value(g(n)) for n in 131066..131078]\n"
    );
    let expected = format!(
        "{}\n{weighted}\n{}\n{}\n",
        v[top],
        near(65_530),
        near(131_066)
    );
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_big(&text, engine), expected, "{engine:?}");
    }
}

#[test]
fn a_square_swept_reads_the_options_beside_its_position_in_its_row_only() {
    // A position (a, b) reads (a, b - 1) in its own row directly, and
    // (a - 1, b - 1) and (a - 2, b) through the table. Values straight
    // from the definition.
    let side = 400;
    let mut v = vec![vec![0usize; side + 1]; side + 1];
    for a in 0..=side {
        for b in 0..=side {
            let mut seen = [false; 4];
            if b > 0 {
                seen[v[a][b - 1]] = true;
            }
            if a > 0 && b > 0 {
                seen[v[a - 1][b - 1]] = true;
            }
            if a > 1 {
                seen[v[a - 2][b]] = true;
            }
            v[a][b] = seen.iter().position(|s| !s).unwrap();
        }
    }
    let weighted: usize = (0..=side)
        .flat_map(|a| (0..=side).map(move |b| (a, b)))
        .map(|(a, b)| v[a][b] * (a + 2 * b + 1))
        .sum();
    let text = format!(
        "game g(a, b) {{\n move r if b > 0 -> g(a, b - 1)\n \
         move d if a > 0 and b > 0 -> g(a - 1, b - 1)\n move u if a > 1 -> g(a - 2, b)\n}}\n\
         value(g({side}, {side}))\n\
         sum([value(g(a, b)) * (a + 2 * b + 1) for a in 0..={side} for b in 0..={side}])\n"
    );
    let expected = format!("{}\n{weighted}\n", v[side][side]);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run_big(&text, engine), expected, "{engine:?}");
    }
}

/// A cube swept row by row finds, before each row, the rows of the
/// options whose last two arguments do not change along it
/// (src/runtime/kernel/native/emit/row_reads.rs). Every option here is
/// one: read from its own row (before the position, or past the box),
/// from a row swept before it (below, the arguments swapped, a constant
/// row, a row of linear forms), from a row past the cube's side or of a
/// negative argument, or at a negative column; only the box's last
/// position reads a row not swept yet. The positions outside the cube
/// are valued first, so that the sweep runs the whole box (a run of the
/// kernel a position would mean it stopped), and every value agrees
/// with the interpreter's. The same for a king whose square is one
/// tuple, read by its form.
#[test]
fn a_cubes_rows_read_along_a_row_are_found_once_per_row() {
    // Every move but `past` and `first` lowers `a`, `past` goes where no
    // move is left (`a < 9` in every guard), and `first` to the one
    // position of the cube without a move (a position without one ends
    // the sweep, for the kernel's run to value it): the game is finite.
    let game = "game g(a, b, c) {\n\
                move own(k in 1..=2) if a < 9 and a >= k -> g(a - k, b, c)\n\
                move below() if a < 9 and a > 0 and c > 0 -> g(a - 1, b, c - 1)\n\
                move swapped() if a < 9 and a > 1 and b > c -> g(a - 2, c, b)\n\
                move corner() if a < 9 and a > 0 and b + c > 0 -> g(a - 1, 0, 0)\n\
                move back() if a < 9 and a > 6 and b > c and c > 0 -> g(a - 7, c - 1, b)\n\
                move far() if a == 5 -> g(a - 1, b + 2000, c)\n\
                move under() if a == 4 and b < 2 -> g(a - 1, b - 2, c)\n\
                move negative() if a == 2 and c > 0 -> g(a - 5, b, c - 1)\n\
                move past() if a == 1 -> g(a + 12, b, c)\n\
                move after() if a == 8 and b == 8 and c == 8 -> g(a - 3, b + 1, c)\n\
                move first() if a == 0 and b + c > 0 -> g(a, 0, 0)\n}\n";
    let outside = "[value(g(4, b + 2000, c)) for b in 0..9 for c in 0..9]\n\
                   [value(g(3, b - 2, c)) for b in 0..2 for c in 0..9]\n\
                   [value(g(-3, b, c)) for b in 0..9 for c in 0..9]\n\
                   [value(g(13, b, c)) for b in 0..9 for c in 0..9]\n\
                   value(g(5, 9, 8))\n";
    let cube = "len([1 for a in 0..9 for b in 0..9 for c in 0..9 if value(g(a, b, c)) == 0])\n\
                [value(g(a, b, c)) for a in 0..9 for b in 0..9 for c in 0..9]\n";
    let text = format!("{game}{outside}{cube}");
    assert!(machine_code_for(&text, "g"), "{text}");
    let printed = agree(&text);
    assert_eq!(printed.lines().count(), 7, "{printed}");
    // The cube swept whole: of its 729 positions, only (0, 0, 0) and the
    // last, which reads a row not swept yet, run one at a time.
    let runs = |text: &str| Engine::Native.run("cube.game", text).0.machine.kernel_runs;
    let before = runs(&format!("{game}{outside}"));
    let swept = runs(&text) - before;
    assert!(swept < 8, "{swept} positions of the cube run one at a time");
    let king = "let N = 9\n\
                let DIRS = [(dx, dy, dz) for dx in 0..=1 for dy in 0..=1 for dz in 0..=1 if dx + dy + dz > 0]\n\
                game king(p) {\n move step((dx, dy, dz) in DIRS) if p[0] >= dx and p[1] >= dy \
                and p[2] >= dz -> king((p[0] - dx, p[1] - dy, p[2] - dz))\n}\n\
                len([1 for x in 0..N for y in 0..N for z in 0..N if value(king((x, y, z))) == 0])\n\
                [value(king((x, y, z))) for x in 0..N for y in 0..N for z in 0..N]\n";
    let printed = agree(king);
    // The lost squares: all three coordinates even (each step changes
    // one to three of them by one, and the king can always restore
    // evenness), as the king's on a board of any dimension.
    assert_eq!(printed.lines().next(), Some("125"), "{printed}");
    runs_compiled_throughout(king);
}

/// A strip of two integers whose options read rows below at constant
/// columns (the last one past the columns of the other moves), at the
/// binder's and at the position's own, a negative row, and the position's
/// own row; the game `g(n, s)`, or `h(s, n)` where `turned`, `n` the long
/// argument. Its column 0 asked in order by a query, the strip is swept
/// ahead of the asks in chunks that double (`Searcher::strip_ahead`),
/// its rows past 2,048 in the table's run (`graph/dense/rows/run.rs`).
fn strip_game(turned: bool) -> String {
    let (name, params) = if turned {
        ("h", "(s, n)")
    } else {
        ("g", "(n, s)")
    };
    let g = |n: &str, s: &str| match turned {
        false => format!("{name}({n}, {s})"),
        true => format!("{name}({s}, {n})"),
    };
    [
        format!("game {name}{params} {{\n"),
        format!(
            "move last(k in 1..=3) if s < 4 and k <= n and k != s -> {}\n",
            g("n - k", "k")
        ),
        format!(
            "move same(k in 1..=2) if s < 4 and k <= n -> {}\n",
            g("n - k", "s")
        ),
        format!("move wide() if s == 0 and n >= 4 -> {}\n", g("n - 4", "7")),
        format!(
            "move zero() if s < 4 and n >= 5 and n % 3 == 0 -> {}\n",
            g("n - 5", "0")
        ),
        format!(
            "move negative() if s < 4 and n == 1 -> {}\n",
            g("n - 3", "s")
        ),
        format!("move reset() if s > 0 and s < 8 -> {}\n}}\n", g("n", "0")),
        // The positions outside the strip valued first, so that the
        // sweep runs the whole strip.
        format!("[value({}) for s in 0..8]\n", g("-2", "s")),
        format!(
            "len([n for n in 0..=5000 if value({}) == 0])\n",
            g("n", "0")
        ),
        format!("[value({}) for n in 0..=5000 for s in 0..8]\n", g("n", "s")),
    ]
    .concat()
}

/// The most of a strip's 40,008 positions the kernel's run may take one
/// at a time: those of its first rows, asked before the query's asks
/// start a sweep (310: 62 rows of 5 positions).
const ALONE: u64 = 400;

/// How many positions of `text`'s strip the kernel's run took one at a
/// time when its query asking column 0 in order ran (the positions the
/// machine code left), and whether the strip's rows reached the table's
/// run.
fn strip_runs_alone(text: &str) -> (u64, bool) {
    let at = text
        .find("len([n for n in 0..=5000")
        .expect("the strip's query");
    let top = at + text[at..].find('\n').expect("a line") + 1;
    let runs = |text: &str| Engine::Native.run("strip.game", text).0.machine.kernel_runs;
    let (session, _) = Engine::Native.run("strip.game", &text[..top]);
    let view = session.machine.graph.dense(0).map(|d| d.view());
    let in_run = view.is_some_and(|v| v.run_count > 0);
    (session.machine.kernel_runs - runs(&text[..at]), in_run)
}

/// A strip swept row by row (the long first argument fixed along a row,
/// the short second one running along it) finds, before each row, the
/// rows of the options whose first argument does not change along it
/// (src/runtime/kernel/native/emit/row_reads.rs), a binder unrolled over
/// constants counting as a constant, and its own row, and moves them on
/// from the row before: every value agrees with the interpreter's, and
/// the sweep takes the whole strip.
#[test]
fn a_strips_rows_read_along_a_row_are_found_once_per_row() {
    let text = strip_game(false);
    assert!(machine_code_for(&text, "g"), "{text}");
    let printed = agree_big(&text);
    assert_eq!(printed.lines().count(), 3, "{printed}");
    let (alone, in_run) = strip_runs_alone(&text);
    assert!(in_run, "{text}");
    assert!(
        alone < ALONE,
        "{alone} positions of the strip run one at a time"
    );
}

/// The same strip turned, the long argument second: the table's rows are
/// the strip's columns, each option's read at a row the option names (a
/// constant), found once per row of the sweep. Its values are the first
/// strip's.
#[test]
fn a_turned_strips_rows_are_found_once_per_row() {
    let text = strip_game(true);
    assert_eq!(agree_big(&text), agree_big(&strip_game(false)), "{text}");
    let (alone, _) = strip_runs_alone(&text);
    assert!(
        alone < ALONE,
        "{alone} positions of the turned strip run one at a time"
    );
}

/// The heaps `0..=3000` of value 0 under `value`, as the first line
/// printed says.
fn lost(value: impl Fn(usize) -> usize) -> String {
    (0..=3000).filter(|n| value(*n) == 0).count().to_string()
}

/// Strips read by their form: a heap and a boolean, and a pair in one
/// tuple. Their values agree with the interpreter's, and the count of
/// lost heaps with one computed from the definition.
#[test]
fn strips_of_a_form_read_their_rows_once_per_row() {
    let pass = "game heap(n, spent) {\n\
                move take(k in 1..=3) if k <= n -> heap(n - k, spent)\n\
                move pass() if not spent and n > 0 -> heap(n, true)\n}\n\
                len([n for n in 0..=3000 if value(heap(n, false)) == 0])\n\
                [value(heap(n, b)) for n in 0..=3000 for b in [false, true]]\n";
    // Spent, `n % 4`; unspent, the mex of the heaps below, unspent, and
    // of the pass's.
    let mut unspent = vec![0; 3001];
    for n in 1..=3000 {
        let mut seen: Vec<usize> = (1..=3.min(n)).map(|k| unspent[n - k]).collect();
        seen.push(n % 4);
        unspent[n] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    let printed = agree_big(pass);
    assert_eq!(printed.lines().next(), Some(&*lost(|n| unspent[n])));
    runs_compiled_throughout(pass);
    let tuple = "game t(p) {\n\
                 move last(k in 1..=3) if k <= p[0] and k != p[1] -> t((p[0] - k, k))\n}\n\
                 len([n for n in 0..=3000 if value(t((n, 0))) == 0])\n\
                 [value(t((n, s))) for n in 0..=3000 for s in 0..4]\n";
    // By heap and the last move's size.
    let mut last = vec![[0; 4]; 3001];
    for n in 0..=3000 {
        for s in 0..4 {
            let options = (1..=3.min(n)).filter(|k| *k != s);
            let seen: Vec<usize> = options.map(|k| last[n - k][k]).collect();
            last[n][s] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    let printed = agree_big(tuple);
    assert_eq!(printed.lines().next(), Some(&*lost(|n| last[n][0])));
    runs_compiled_throughout(tuple);
}

/// A strip of a game of one tuple, asked in order by a query, is swept
/// ahead of the asks in chunks that double, its rows past 2,048 in the
/// table's run; the machine code reads those rows of its pairs itself, as
/// it does a strip's of two integers (`Table::formed`), rather than
/// looking each option up by its list (`helpers::flat`). Once, every
/// option in the run's rows was looked up so: 26,736 lookups, against 186
/// now (the first rows, before a sweep), and 8x the time of two integers.
#[test]
fn a_tuple_strip_asked_in_order_reads_its_runs_rows() {
    let tuple = "game t(p) {\n\
                 move last(k in 1..=3) if k <= p[0] and k != p[1] -> t((p[0] - k, k))\n}\n\
                 len([n for n in 0..=5000 if value(t((n, 0))) == 0])\n";
    assert_eq!(agree_big(tuple), "1251\n");
    let (session, _) = Engine::Native.run("tuple.game", tuple);
    let looked_up = session.machine.lists_looked_up();
    assert!(
        looked_up < 1000,
        "{looked_up} options looked up by their lists"
    );
}

const HEAP: &str = "game heap(n, spent) {\n\
                    move take(k in 1..=3) if k <= n -> heap(n - k, spent)\n\
                    move pass() if not spent and n > 0 -> heap(n, true)\n}\n";
const LAST: &str = "game last(n, s) {\n\
                    move take(k in 1..=3) if k <= n and k != s -> last(n - k, k)\n}\n";

/// A table of a strip's positions along its long argument, for each value
/// of its short one (an axis of integers or booleans, or a fixed
/// argument, the long one first or second), is swept a column at a time
/// from the bottom (src/runtime/table/mod.rs, `sweep_strip_cells`): the
/// positions run one at a time are a handful, not every cell (6,002
/// without the sweep), and the tables are the interpreter's.
#[test]
fn a_table_of_a_strip_is_swept_a_column_at_a_time() {
    let turned = "game turned(s, n) {\n\
                  move take(k in 1..=3) if k <= n and k != s -> turned(k, n - k)\n}\n";
    for (game, table) in [
        (HEAP, "table(heap, 0..=3000, [false, true])"),
        (HEAP, "table(heap(_, false), 0..=3000)"),
        (LAST, "table(last, 0..=3000, 0..4)"),
        (LAST, "table(last, 0..=3000, [0])"),
        (turned, "table(turned, [0, 2], 0..=3000)"),
    ] {
        let text = format!("{game}{table}\n");
        agree_big(&text);
        let runs = Engine::Native
            .run("table.game", &text)
            .0
            .machine
            .kernel_runs;
        assert!(runs < 16, "{table}: {runs} positions run one at a time");
    }
}

/// A table of a strip game that asks no row of the strip (rows below 0,
/// a column of the other kind) or of a game of one tuple whose strip is
/// its pair's: the same table, or the same error, on every path (the
/// sweep once panicked on the first and the last).
#[test]
fn a_table_sweeps_only_the_strip_it_asks() {
    let tuple = "game t(p) {\n\
                 move last(k in 1..=3) if k <= p[0] and k != p[1] -> t((p[0] - k, k))\n}\n";
    for text in [
        format!("{LAST}table(last, -10..-5, 0..4)\n"),
        format!("{LAST}table(last, 0..=12, [true])\n"),
        format!("{HEAP}table(heap, 0..=12, [0, 1])\n"),
        format!("{tuple}table(t, 0..10)\n"),
    ] {
        let interpreted = run(&text, Engine::Interpreter);
        for engine in [Engine::Kernels, Engine::Native] {
            assert_eq!(run(&text, engine), interpreted, "{engine:?}: {text}");
        }
    }
}

/// Wythoff's game kept in order, `w(min(a, b), max(a, b))`: the play
/// never reaches `(a, b)` with `a > b`, whose `both` moves run below 0
/// (hashed positions the square's sweep cannot value). The sweep leaves
/// those and goes on past them (src/runtime/sweep/mod.rs, `Skips`), so
/// the search runs a few positions rather than every one with `a <= b`;
/// the values are the textbook game's, and agree with the
/// interpreter; an error at a position the play reaches is the
/// interpreter's, and one at a position it never reaches is none.
#[test]
fn a_square_swept_goes_on_past_positions_it_cannot_value() {
    const N: usize = 300;
    let mut g = vec![vec![0usize; N + 1]; N + 1];
    for a in 0..=N {
        for b in 0..=N {
            let mut seen = vec![false; 3 * N + 3];
            (0..a).for_each(|x| seen[g[x][b]] = true);
            (0..b).for_each(|y| seen[g[a][y]] = true);
            (1..=a.min(b)).for_each(|k| seen[g[a - k][b - k]] = true);
            g[a][b] = seen.iter().position(|s| !s).unwrap();
        }
    }
    let rules = |extra: &str| {
        format!(
            "game w(a, b) {{\n move left(k in 1..=a) -> w(min(a - k, b), max(a - k, b)){extra}\n \
             move right(k in 1..=b) -> w(min(a, b - k), max(a, b - k))\n \
             move both(k in 1..=a) -> w(a - k, b - k)\n}}\n"
        )
    };
    let text = format!("{}value(w({N}, {N}))\nvalue(w(17, {N}))\n", rules(""));
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("w.game", &text).error, None);
    // The machine code values them, not the kernel's run one at a time
    // (72,000 runs when the sweep stopped at the first it could not).
    let runs = session.machine.kernel_runs;
    assert!(runs < 1_000, "{runs} positions run one at a time");
    // Redefined, as in the REPL: the new game's first sweep goes on past
    // them too.
    let again = format!("{}value(w({N}, {N}))\n", rules(" + *(a - a)"));
    assert_eq!(session.run("again.game", &again).error, None);
    let more = session.machine.kernel_runs - runs;
    assert!(
        more < 1_000,
        "{more} positions run one at a time once redefined"
    );
    let want = format!("{}\n{}\n", g[N][N], g[17][N]);
    assert_eq!(run_big(&text, Engine::Native), want);
    agree(&format!(
        "{}[value(w(a, 60)) for a in 0..=60]\nvalue(w(60, 60) + w(3, 9))\n",
        rules("")
    ));
    // A division by zero at (7, 40), which the play reaches, and at
    // (40, 7), which it never does.
    let error = rules(" + *(0 / (a * 1000 + b - 7040))");
    same_error(&format!("{error}value(w(60, 60))\n"), "division by zero");
    let unreached = rules(" + *(0 / (a * 1000 + b - 40007))");
    agree(&format!("{unreached}value(w(60, 60))\n"));
    let big = format!("{unreached}value(w({N}, {N}))\n");
    assert_eq!(run_big(&big, Engine::Native), format!("{}\n", g[N][N]));
}

/// The amounts a move may take looked up by the last move's size in a
/// constant list of lists (`k in NEXT[last]`), or bounded by one
/// (`k in 1..=LIM[last]`), or picked by an `if`: the strip of the game
/// is found (`kernel/strip.rs`: `seq_span`), and the query that asks
/// column 0 in turn sweeps it ahead (`Kernel::short`), as the same game
/// with the amounts tested in its guard is, rather than searching each
/// position (2,000,000 heaps: 1.4 s to 0.1 s). The values are those of
/// the definition, and agree with the interpreter.
#[test]
fn amounts_looked_up_by_the_last_move_sweep_a_strip() {
    const N: usize = 30_000;
    let next: [&[usize]; 4] = [&[1, 2, 3], &[2, 3], &[1, 3], &[1, 2]];
    let mut g = vec![[0usize; 4]; N + 1];
    for n in 0..=N {
        for last in 0..4 {
            let options: Vec<usize> = (next[last].iter())
                .filter(|&&k| k <= n)
                .map(|&k| g[n - k][k])
                .collect();
            g[n][last] = (0..).find(|v| !options.contains(v)).unwrap();
        }
    }
    let lost = (0..=N).filter(|&n| g[n][0] == 0).count();
    for rules in [
        "let NEXT = [[1, 2, 3], [2, 3], [1, 3], [1, 2]]\n\
         game f(n, last) { move take(k in NEXT[last]) if k <= n -> f(n - k, k) }\n",
        "game f(n, last) { move take(k in (if last == 0 then [1, 2, 3] else if last == 1 \
         then [2, 3] else if last == 2 then [1, 3] else [1, 2])) if k <= n -> f(n - k, k) }\n",
    ] {
        let text = format!("{rules}len([n for n in 0..={N} if value(f(n, 0)) == 0])\n");
        let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
        Engine::Native.apply(&mut session.machine);
        assert_eq!(session.run("f.game", &text).error, None);
        let runs = session.machine.kernel_runs;
        assert!(runs < 1_000, "{runs} positions run one at a time: {rules}");
        assert_eq!(run_big(&text, Engine::Native), format!("{lost}\n"));
        agree(&format!(
            "{rules}[value(f(n, last)) for n in 0..40 for last in 0..4]\n"
        ));
    }
    // Bounded by an item: the amounts 1..=LIM[last].
    let lim = [3, 2, 3, 1];
    let mut h = vec![[0usize; 4]; N + 1];
    for n in 0..=N {
        for last in 0..4 {
            let options: Vec<usize> = (1..=lim[last].min(n)).map(|k| h[n - k][k]).collect();
            h[n][last] = (0..).find(|v| !options.contains(v)).unwrap();
        }
    }
    let rules = "let LIM = [3, 2, 3, 1]\n\
                 game f(n, last) { move take(k in 1..=LIM[last]) if k <= n -> f(n - k, k) }\n";
    let text = format!("{rules}len([n for n in 0..={N} if value(f(n, 0)) == 0])\n");
    let lost = (0..=N).filter(|&n| h[n][0] == 0).count();
    assert_eq!(run_big(&text, Engine::Native), format!("{lost}\n"));
    agree(&format!(
        "{rules}[value(f(n, last)) for n in 0..40 for last in 0..4]\n"
    ));
}

/// Euclid's game kept in order: every `(a, b)` with `a < b` has no
/// option. The machine code's sweep of the square values those 0 and
/// records them as terminal itself, rather than stop at each for the
/// kernel's run (45,000 runs at 300 x 300); a result's display leaves
/// them out of a sum, as the interpreter's does, and the values agree.
#[test]
fn a_square_swept_values_its_positions_without_options() {
    let rules = "game e(a, b) {\n move sub(k in 1..=(if b == 0 then 0 else a / b)) \
                 -> e(max(a - k * b, b), min(a - k * b, b))\n}\n";
    let text = format!("{rules}len([1 for a in 1..=300 for b in 1..=a if value(e(a, b)) == 0])\n");
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("e.game", &text).error, None);
    let runs = session.machine.kernel_runs;
    assert!(runs < 1_000, "{runs} positions run one at a time");
    let shown = agree(&format!(
        "{rules}[value(e(a, b)) for a in 0..40 for b in 0..40]\nmoves(e(9, 4) + e(3, 5))\n"
    ));
    let results = shown.lines().filter(|l| l.contains("sub(k="));
    assert!(results.clone().count() == 2, "{shown}");
    assert!(results.clone().all(|l| !l.contains("e(3, 5)")), "{shown}");
}
