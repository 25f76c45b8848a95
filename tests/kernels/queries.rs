//! Top-level queries run as machine code: comprehensions, folds, lists
//! of values, and the boards and positions they ask swept first.

use super::*;

#[test]
fn queries_over_comprehensions_run_as_machine_code_and_agree() {
    let games = "game g(n) {\n move take(k in 1..=3) if k <= n -> g(n - k)\n}\n\
                 game w(x, y) {\n move a(k in 1..=x) -> w(x - k, y)\n move b(k in 1..=y) -> w(x, y - k)\n}\n\
                 game d(n) {\n move m if n > 0 -> d(n / (n - 5))\n}\n";
    // Values by theory: g(n) is n % 4 (subtraction of 1 to 3), w(x, y)
    // is x ^ y (two Nim heaps).
    for (query, expected) in [
        ("value(sum([g(i) for i in 0..100]))", "0"),
        ("winner(sum([g(n) for n in 0..5]))", "second"),
        ("winner(sum([g(n) for n in 0..6]))", "first"),
        (
            "len([1 for x in 0..40 for y in 0..40 if value(w(x, y)) == 0])",
            "40",
        ),
        ("sum([value(g(n)) for n in 0..100])", "150"),
        ("max([value(w(x, y)) for x in 0..8 for y in x..8])", "7"),
        ("min([value(g(n)) - n for n in 0..10])", "-8"),
        // Other spellings of a count of losing positions.
        (
            "len([(x, y) for x in 0..40 for y in 0..40 if value(w(x, y)) == 0])",
            "40",
        ),
        (
            "sum([1 for x in 0..40 for y in 0..40 if winner(w(x, y)) == \"second\"])",
            "40",
        ),
        (
            "len([x for x in 0..40 for y in 0..40 if \"first\" != winner(w(x, y))])",
            "40",
        ),
        (
            "len([1 for x in 0..40 for y in 0..40 if winner(w(x, y)) == \"first\"])",
            "1560",
        ),
        // A query printed, alone or beside other values.
        ("print(len([1 for n in 0..400 if value(g(n)) == 0]))", "100"),
        (
            "print(\"losing:\", sum([1 for n in 0..400 if value(g(n)) == 0]), 7)",
            "losing: 100 7",
        ),
        // A list made, alone, printed, or kept by a `let`.
        ("[value(g(n)) for n in 0..9]", "[0, 1, 2, 3, 0, 1, 2, 3, 0]"),
        (
            "print([n for n in 0..20 if value(g(n)) == 0])",
            "[0, 4, 8, 12, 16]",
        ),
        (
            "let P = [x * 100 + y for x in 0..40 for y in 0..40 if winner(w(x, y)) == \"second\"]\n\
             print(len(P), P[1], P[-1])",
            "40 101 3939",
        ),
        // Lists of tuples, of lists and of sets, and arithmetic alone (a
        // `let` of adjacency lists).
        (
            "[(n, value(g(n))) for n in 0..5]",
            "[(0, 0), (1, 1), (2, 2), (3, 3), (4, 0)]",
        ),
        (
            "let A = [[j for j in i..9 if value(g(j)) == i] for i in 0..3]\nprint(A)",
            "[[0, 4, 8], [1, 5], [2, 6]]",
        ),
        (
            "[{j % 3 for j in 0..i} for i in 0..4]",
            "[{}, {0}, {0, 1}, {0, 1, 2}]",
        ),
        ("sum([n * n for n in 0..100 if n % 3 == 1])", "106161"),
        // Floor division and modulo of a binder of a range between
        // constants: unsigned where it is not negative, else floored.
        (
            "sum([7 * i % 15 + (3 * i + 2) / 5 for i in 0..100])",
            "3675",
        ),
        (
            "sum([(i - 50) % 7 * 10 + (i - 50) / 7 for i in 0..100])",
            "2950",
        ),
        ("[x % 5 + x / 4 for x in 3..=9]", "[3, 5, 1, 2, 3, 5, 6]"),
        // Sets made: of integers, of pairs, of lists, kept by a `let`.
        (
            "{(x * y) % 7 for x in 0..30 for y in 0..30}",
            "{0, 1, 2, 3, 4, 5, 6}",
        ),
        (
            "{(x % 3, value(g(x))) for x in 0..30 if x % 2 == 0}",
            "{(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)}",
        ),
        ("{[x % 2, x % 3] for x in 0..0}", "{}"),
        (
            "{[x % 2, x % 3] for x in 0..12}",
            "{[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]}",
        ),
        (
            "{{j % 3 for j in 0..i} for i in 0..6}",
            "{{}, {0}, {0, 1}, {0, 1, 2}}",
        ),
        (
            "let L = {n % 12 for n in 0..40 if value(g(n)) == 0}\nprint(L, len(L))",
            "{0, 4, 8} 3",
        ),
        (
            "let ADJ = [[j for j in i + 1..min(50, i + 4) if (i + j) % 3 != 0] for i in 0..50]\n\
             print(len(ADJ), ADJ[0], ADJ[48], ADJ[49])",
            "50 [1, 2] [49] []",
        ),
    ] {
        let text = format!("{games}{query}\n");
        let ((out, err, phase), compiled) = run_counting(&text, Engine::Native);
        assert_eq!((out.trim(), phase), (expected, None), "{query}\n{err}");
        assert_eq!(compiled, 1, "{query}");
        assert_eq!(
            run(&text, Engine::Interpreter),
            (out, err, phase),
            "{query}"
        );
    }
    // Whatever the machine code cannot finish, the interpreter evaluates
    // and reports as it always does: the minimum of nothing, an overflow,
    // a division by zero in the rules (at d(5)).
    for query in [
        "min([value(g(n)) for n in 0..0])",
        "sum([value(g(n)) * 4611686018427387904 for n in 0..10])",
        "len([1 for n in 0..10 if value(d(n)) == 0])",
        "[value(d(n)) for n in 0..10]",
    ] {
        let text = format!("{games}{query}\n");
        let (compiled, counted) = run_counting(&text, Engine::Native);
        assert_eq!(counted, 0, "{query}");
        assert_eq!(compiled.2, Some(Phase::Runtime), "{query}");
        assert_eq!(compiled, run(&text, Engine::Interpreter), "{query}");
    }
    // Not a query the machine code takes (a winner that is never "draw"
    // in finite games, a list of strings): the interpreter's answer.
    for query in [
        "len([1 for x in 0..9 if winner(g(x)) == \"draw\"])",
        "[winner(g(n)) for n in 0..9]",
    ] {
        let text = format!("{games}{query}\n");
        let (interpreted, counted) = run_counting(&text, Engine::Native);
        assert_eq!((counted, &interpreted.2), (0, &None), "{query}");
        assert_eq!(interpreted, run(&text, Engine::Interpreter), "{query}");
    }
}

/// A query that asks no position but loops inside each element (`all([p %
/// q != 0 for q in ...])`, or a function's call) is compiled as `grundy
/// run` weighs it, by the work of those loops too: the primes below
/// 5,000 made by trial division, as a list, a set or through a function,
/// are compiled, though the outer loop alone (4,999 elements) is not
/// long enough; the same below 50 are not worth compiling. Each agrees
/// with the interpreter and with a sieve.
#[test]
fn a_query_is_weighed_by_the_loops_inside_its_elements() {
    let sieve = |n: usize| {
        (2..=n)
            .filter(|p| (2..*p).all(|q| q * q > *p || p % q != 0))
            .count()
    };
    let test = "all([p % q != 0 for q in 2..=isqrt(p)])";
    for (n, compiled) in [(5_000, 1), (50, 0)] {
        for make in [
            format!("let P = [p for p in 2..={n} if {test}]\n"),
            format!("let P = {{p for p in 2..={n} if {test}}}\n"),
            format!("fn is_prime(p) = {test}\nlet P = [p for p in 2..={n} if is_prime(p)]\n"),
        ] {
            let text = format!("{make}print(len(P))\n");
            let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
            Engine::Native.apply(&mut session.machine);
            session.machine.native_after = grundy::runtime::NATIVE_AFTER;
            assert_eq!(session.run("primes.game", &text).error, None);
            assert_eq!(session.machine.queries_compiled, compiled, "{text}");
            let printed = run(&text, Engine::Interpreter);
            assert_eq!(printed, (format!("{}\n", sieve(n)), String::new(), None));
            assert_eq!(run(&text, Engine::Native), printed, "{text}");
        }
    }
}

/// A query over every square of a board, `value(g(x, y))` with `x` and
/// `y` its loops' names (or turned, `g(y, x)`, or over a triangle): the
/// query is compiled, however its inner range is written, and the
/// rectangle is swept first, as a table's is, rather than each square
/// run alone once the ones below it have values. The counts agree with
/// a direct computation and with the interpreter.
#[test]
fn a_query_over_a_rectangle_sweeps_it_first() {
    const N: usize = 300;
    let steps = [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)];
    let mut g = vec![[0u8; N]; N];
    for x in 0..N {
        for y in 0..N {
            let options: Vec<u8> = (steps.iter())
                .filter(|(dx, dy)| *dx <= x && *dy <= y)
                .map(|(dx, dy)| g[x - dx][y - dy])
                .collect();
            g[x][y] = (0..).find(|v| !options.contains(v)).unwrap();
        }
    }
    let game = "let DIRS = [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)]\n\
                game kk(x, y) { move go((dx, dy) in DIRS) if dx <= x and dy <= y -> kk(x - dx, y - dy) }\n";
    for (query, count) in [
        (
            format!("len([1 for x in 0..{N} for y in 0..{N} if value(kk(x, y)) == 0])"),
            (0..N)
                .flat_map(|x| (0..N).map(move |y| (x, y)))
                .filter(|(x, y)| g[*x][*y] == 0)
                .count(),
        ),
        (
            format!(
                "len([1 for y in 0..{N} for x in 0..{} if value(kk(x, y)) == 1])",
                N / 2
            ),
            (0..N)
                .flat_map(|y| (0..N / 2).map(move |x| (x, y)))
                .filter(|(x, y)| g[*x][*y] == 1)
                .count(),
        ),
        // A triangle: the inner range ends where the outer name is.
        (
            format!("len([1 for x in 0..{N} for y in 0..=x if value(kk(x, y)) == 0])"),
            (0..N)
                .flat_map(|x| (0..=x).map(move |y| (x, y)))
                .filter(|(x, y)| g[*x][*y] == 0)
                .count(),
        ),
    ] {
        let text = format!("{game}{query}\n");
        let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
        Engine::Native.apply(&mut session.machine);
        // Compiled as `grundy run` compiles it: when it is long enough.
        session.machine.native_after = grundy::runtime::NATIVE_AFTER;
        assert_eq!(session.run("board.game", &text).error, None);
        let runs = session.machine.kernel_runs;
        assert!(
            runs < (N * N / 20) as u64,
            "{runs} squares run one at a time: {query}"
        );
        assert_eq!(session.machine.queries_compiled, 1, "{query}");
        assert_eq!(
            run_big(&text, Engine::Native),
            format!("{count}\n"),
            "{query}"
        );
    }
    agree(&format!(
        "{game}len([1 for y in 0..40 for x in 0..30 if value(kk(x, y)) == 0])\n"
    ));
}

/// A query asking a game's positions in turn, each once those below it
/// have values, sweeps the positions ahead rather than run each alone:
/// under 2,000 runs for 200,000 positions (every one of them before),
/// and nothing past the query's range.
#[test]
fn a_query_over_positions_in_turn_sweeps_ahead() {
    let game = "game g(n) {\n move take(k in {1, 3, 4}) if n - k >= 0 -> g(n - k)\n}\n";
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    let first = format!("{game}print(len([n for n in 0..200000 if value(g(n)) == 0]))\n");
    assert_eq!(session.run("turn.game", &first).error, None);
    let runs = session.machine.kernel_runs;
    assert!(runs < 2_000, "{runs} positions run one at a time");
    // Nothing past the range is swept (the proper-divisor game's
    // positions grow dearer with n: sweeping twice as far cost 3.5x).
    let graph = &session.machine.graph;
    let value = |n: i64| graph.find_ints(0, &[n]).map(|node| graph.value(node));
    assert!(value(199_999).is_some_and(|v| v < 4));
    assert_eq!(value(200_000), None);
    let second = "len([n for n in 400000..400300 if value(g(n)) == 0])\n";
    assert_eq!(session.run("more.game", second).error, None);
    // The subtraction game {1, 3, 4} has period 7, losing at 0 and 2.
    let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
    assert_eq!(printed, "57144\n86\n");
    assert_eq!(session.machine.queries_compiled, 2);
}

/// A game whose loop's length grows with the heap (`k in 1..=dsum(n)`,
/// a function of it) asked in turn is swept ahead too: its positions are
/// those the query asks in any case. The count is a direct computation's.
#[test]
fn a_query_over_a_game_of_long_loops_sweeps_ahead() {
    const N: usize = 100_000;
    let dsum = |mut n: usize| {
        let mut s = 0;
        while n > 0 {
            (s, n) = (s + n % 10, n / 10);
        }
        s
    };
    let mut g = vec![0u32; N];
    for n in 0..N {
        let options: Vec<u32> = (1..=dsum(n).min(n)).map(|k| g[n - k]).collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let zeros = g.iter().filter(|v| **v == 0).count();
    let text = format!(
        "fn dsum(n) = if n == 0 then 0 else n % 10 + dsum(n / 10)\n\
         game ds(n) {{\n move take(k in 1..=dsum(n)) if k <= n -> ds(n - k)\n}}\n\
         print(len([n for n in 0..{N} if value(ds(n)) == 0]))\n"
    );
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    assert_eq!(session.run("digits.game", &text).error, None);
    let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
    assert_eq!(printed, format!("{zeros}\n"));
    let runs = session.machine.kernel_runs;
    assert!(runs < 2_000, "{runs} positions run one at a time");
    let graph = &session.machine.graph;
    assert_eq!(
        graph.find_ints(0, &[N as i64]),
        None,
        "nothing past the range"
    );
}

/// A game whose moves go to another, `h(n)` to `g(n - k)`, asked in
/// turn: the positions of `g` its sweep needs are swept first, so `h` is
/// swept too rather than run one position at a time; and a target with
/// an `if` among its terms (`g(n - k) + (if k % 2 == 0 then *1 else
/// *0)`) is one move per branch, compiled. The values are checked against
/// the definitions, computed here.
#[test]
fn a_game_read_by_one_asked_in_turn_is_swept_first() {
    const N: usize = 200_000;
    let mut g = vec![0u8; N];
    for n in 0..N {
        let options: Vec<u8> = [1, 3, 4]
            .iter()
            .filter(|&&k| k <= n)
            .map(|k| g[n - k])
            .collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let mex = |options: Vec<u8>| (0..).find(|v| !options.contains(v)).unwrap();
    let h = |n: usize, odd: bool| {
        let bonus = |k: usize| u8::from(odd && k.is_multiple_of(2));
        mex((1..=5)
            .filter(|&k| k <= n)
            .map(|k| g[n - k] ^ bonus(k))
            .collect())
    };
    let game = "game g(n) {\n move take(k in {1, 3, 4}) if n - k >= 0 -> g(n - k)\n}\n\
                game h(n) {\n move first(k in 1..=5) if k <= n -> g(n - k)\n}\n\
                game o(n) {\n move first(k in 1..=5) if k <= n -> g(n - k) + (if k % 2 == 0 then *1 else *0)\n}\n";
    for (id, name, odd) in [(1, "h", false), (2, "o", true)] {
        let out = SharedBuffer::default();
        let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
        Engine::Native.apply(&mut session.machine);
        let text = format!("{game}print(sum([value({name}(n)) for n in 0..{N}]))\n");
        assert_eq!(session.run("turn.game", &text).error, None);
        let runs = session.machine.kernel_runs;
        assert!(runs < 2_000, "{name}: {runs} positions run one at a time");
        let report = grundy::explain::game(&session.machine.game_ir(id), &session.machine.defs);
        assert!(report.native, "{name}: machine code");
        let expected: u64 = (0..N).map(|n| u64::from(h(n, odd))).sum();
        let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
        assert_eq!(printed, format!("{expected}\n"), "{name}");
    }
    let small = format!("{game}[value(h(n)) for n in 0..40]\n[value(o(n)) for n in 0..40]\n");
    agree(&small);
}

/// A query asking about a sum of positions of two games, one of them at
/// every other heap (`winner(a(n) + b(2 * n)) == "second"`): compiled, the
/// nim-sum of the values; each game's run swept ahead, the skipped heaps
/// of the second too, rather than each position run alone. The values
/// are checked against the definitions, computed here, and a Nim heap of
/// negative size is the interpreter's error.
#[test]
fn a_query_over_sums_asked_in_steps_sweeps_each_game() {
    const N: usize = 100_000;
    let mex = |options: Vec<u8>| (0..).find(|v| !options.contains(v)).unwrap();
    let (mut a, mut b) = (vec![0u8; N + 1], vec![0u8; 2 * N + 1]);
    for n in 0..=2 * N {
        if n <= N {
            a[n] = mex([1, 2, 5]
                .iter()
                .filter(|&&k| k <= n)
                .map(|k| a[n - k])
                .collect());
        }
        b[n] = mex((0..20)
            .filter(|i| 1 << i <= n)
            .map(|i| b[n - (1 << i)])
            .collect());
    }
    let game = "game a(n) { move take(k in [1, 2, 5]) if k <= n -> a(n - k) }\n\
                game b(n) { move take(i in 0..20) if 1 << i <= n -> b(n - (1 << i)) }\n";
    let out = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(SharedBuffer::default()));
    Engine::Native.apply(&mut session.machine);
    let text = format!(
        "{game}print(len([n for n in 0..={N} if winner(a(n) + b(2 * n)) == \"second\"]))\n\
         print(sum([value(a(n) + *3 + b(2 * n)) for n in 0..={N}]))\n"
    );
    assert_eq!(session.run("sums.game", &text).error, None);
    let runs = session.machine.kernel_runs;
    assert!(runs < 5_000, "{runs} positions run one at a time");
    assert_eq!(session.machine.queries_compiled, 2);
    let second = (0..=N).filter(|n| a[*n] == b[2 * n]).count();
    let sum: u64 = (0..=N).map(|n| u64::from(a[n] ^ 3 ^ b[2 * n])).sum();
    let printed = String::from_utf8(out.0.borrow().clone()).unwrap();
    assert_eq!(printed, format!("{second}\n{sum}\n"));
    agree(&format!(
        "{game}[n for n in 0..60 if winner(a(n) + b(3 * n + 1) + *(n % 4)) == \"first\"]\n\
         sum([value(a(n) + b(n)) for n in 0..50])\n"
    ));
    same_error(
        &format!("{game}len([n for n in 0..9 if value(a(n) + *(n - 5)) == 0])\n"),
        "cannot have -5 tokens",
    );
}

/// A query that asks positions with a tuple, a list, a set or a string
/// for an argument (`value(king((x, y, z)))`) runs as machine code, each
/// position asked by its flat run, and agrees with theory and with the
/// interpreter: the king's losing squares are those of even coordinates,
/// a list of Nim heaps is worth their nim-sum, a set that loses an item a
/// move is worth its size's parity, and a string of heads that loses a
/// head or two a move is worth its length modulo 3.
#[test]
fn a_query_asks_positions_with_collections_by_their_flat_runs() {
    let games = "let DIRS = [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)]\n\
                 game king(p) {\n move step((dx, dy, dz) in DIRS) if p[0] >= dx and p[1] >= dy and p[2] >= dz\n\
                 \x20   -> king((p[0] - dx, p[1] - dy, p[2] - dz))\n}\n\
                 game nim(hs) { move take(i in 0..len(hs), k in 1..=hs[i]) -> nim(hs[:i] + [hs[i] - k] + hs[i + 1:]) }\n\
                 game drop(xs) { move rm(x in xs) -> drop(xs - {x}) }\n\
                 game heads(s) { move one if len(s) >= 1 -> heads(s[1:])\n move two if len(s) >= 2 -> heads(s[2:]) }\n";
    let nim_sum: u32 = (0..9u32).flat_map(|a| (0..9).map(move |b| a ^ b ^ 3)).sum();
    for (query, expected) in [
        (
            "len([1 for x in 0..12 for y in 0..12 for z in 0..12 if value(king((x, y, z))) == 0])"
                .to_string(),
            "216".to_string(),
        ),
        (
            "sum([value(nim([a, 3, b])) for a in 0..9 for b in 0..9])".into(),
            nim_sum.to_string(),
        ),
        (
            "[value(drop({a, b, 7})) for a in 5..8 for b in 6..8]".into(),
            "[1, 0, 0, 0, 0, 1]".into(),
        ),
        (
            "[value(heads(\"H\" * n)) for n in 0..7]".into(),
            "[0, 1, 2, 0, 1, 2, 0]".into(),
        ),
        (
            "len([n for n in 0..30 if winner(nim([n % 5, n % 3])) == \"second\"])".into(),
            "6".into(),
        ),
    ] {
        let text = format!("{games}{query}\n");
        let ((out, err, phase), compiled) = run_counting(&text, Engine::Native);
        assert_eq!(
            (out.trim(), phase),
            (expected.as_str(), None),
            "{query}\n{err}"
        );
        assert_eq!(compiled, 1, "{query}");
        assert_eq!(
            run(&text, Engine::Interpreter),
            (out, err, phase),
            "{query}"
        );
    }
    // An error in the rules of a position asked so (a division by zero
    // at bad([3])) is the interpreter's to report, as without the query.
    let bad = "game bad(hs) { move m if hs[0] > 0 -> bad([hs[0] / (hs[0] - 3)]) }\n";
    let text = format!("{bad}sum([value(bad([n])) for n in 0..5])\n");
    let (compiled, counted) = run_counting(&text, Engine::Native);
    assert_eq!(compiled.2, Some(Phase::Runtime), "{}", compiled.1);
    assert_eq!(compiled, run(&text, Engine::Interpreter));
    assert_eq!(counted, 0);
}

/// `all`, `any` and `not any` of a comprehension at top level, or as an
/// `expect`, the idiom of the examples: compiled as a count of the
/// elements that decide, each still evaluated in order, so that the
/// truth, a failed `expect`, and an error met by one element are the
/// interpreter's. The subtraction game {1, 3, 4} has period 7: 0 1 0 1
/// 2 3 2.
#[test]
fn all_and_any_of_a_comprehension_are_compiled_queries() {
    let game = "game g(n) {\n move take(k in {1, 3, 4}) if k <= n -> g(n - k)\n}\n\
                game d(n) {\n move m if n > 0 -> d(n / (n - 3000))\n}\n";
    let period = "[0, 1, 0, 1, 2, 3, 2][n % 7]";
    for (query, expected) in [
        (
            format!("all([value(g(n)) == {period} for n in 0..20000])"),
            "true",
        ),
        (
            "all([value(g(n)) <= 2 for n in 0..20000])".to_string(),
            "false",
        ),
        (
            "any([value(g(n)) == 3 for n in 0..20000])".to_string(),
            "true",
        ),
        (
            "any([value(g(n)) > 3 for n in 0..20000])".to_string(),
            "false",
        ),
        (
            "not any([value(g(n)) > 3 for n in 0..20000])".to_string(),
            "true",
        ),
        (
            "not all([value(g(n)) < 3 for n in 0..20000])".to_string(),
            "true",
        ),
        ("all([value(g(n)) < 0 for n in 0..0])".to_string(), "true"),
    ] {
        let text = format!("{game}{query}\n");
        let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
        Engine::Native.apply(&mut session.machine);
        session.machine.native_after = grundy::runtime::NATIVE_AFTER;
        assert_eq!(session.run("truths.game", &text).error, None);
        let compiled = u64::from(!query.contains("0..0"));
        assert_eq!(session.machine.queries_compiled, compiled, "{query}");
        assert_eq!(agree_big(&text), format!("{expected}\n"), "{query}");
    }
    // `expect`: held, failed (reported as the interpreter reports it),
    // and an element that fails (`d(3000)` divides by zero) after
    // elements that are already false.
    let held = format!("{game}expect all([value(g(n)) == {period} for n in 0..2500])\n");
    assert_eq!(agree(&held), "");
    let failed = format!("{game}expect not any([value(g(n)) == 2 for n in 0..2500])\n");
    assert_eq!(
        run(&failed, Engine::Native),
        run(&failed, Engine::Interpreter)
    );
    assert!(run(&failed, Engine::Native).1.contains("is false"));
    same_error(
        &format!("{game}expect all([value(d(n)) == 9 for n in 2990..3010])\n"),
        "division by zero",
    );
}
