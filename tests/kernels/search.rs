//! The search beside the compiled rules: sweeps from the bottom, cycles
//! and errors met on the interpreter's play, the order options wait in,
//! and the limits on positions, depth and time.

use super::*;

#[test]
fn long_chains_are_swept_from_the_bottom_with_the_same_values() {
    let chain = "game g(n) {\n move a(k in 1..=3) if k <= n -> g(n - k)\n move b if n % 5 == 2 -> g(n / 2)\n}\n";
    let out = agree(&format!("{chain}value(g(2900))\nvalue(g(1000))\n"));
    assert_eq!(out.lines().count(), 2);
    // A position low in the chain whose option is not dense (h(-1)): the
    // sweep stops there and the search goes on as usual.
    let blocked = "game h(n) {\n move m if n > 0 -> h(n - 1)\n}\n\
                   game g(n) {\n move a(k in 1..=2) if k <= n -> g(n - k)\n move b if n == 700 -> h(-1) + g(n - 1)\n}\n";
    agree(&format!("{blocked}value(g(2900))\n"));
}

#[test]
fn values_past_63_and_positions_left_half_done_agree_on_every_path() {
    // The machine code keeps option values below 64 as bits of a word
    // and larger ones in the marks; a Nim heap's options have every value
    // below it, so the mex crosses from one to the other at 64.
    let nim = "game g(n) {\n move take(k in 1..=n) -> g(n - k)\n}\n";
    let out = agree(&format!(
        "{nim}value(g(200))\ntable(g, 60..70)\nvalue(g(64) + g(63))\n"
    ));
    assert!(out.starts_with("200\n"), "{out}");
    assert!(out.contains("60 | 60 61 62 63 64 65 66 67 68 69"), "{out}");
    assert!(out.ends_with("127\n"), "{out}");
    // A position some of whose options have values (below 64) and some
    // none yet: the search completes its mex from the values the run
    // found, which the machine code kept as bits. (The guard, not linear,
    // has the rules run as machine code rather than the fast loop.)
    let out = agree(&format!(
        "{nim}game h(n) {{\n move to(k in 0..n) if k * k >= 0 -> g(k)\n}}\nvalue(g(30))\nvalue(h(100))\n"
    ));
    assert_eq!(out, "30\n100\n");
    // The same where a position has a few options (8): their values are
    // bits of a word, written into the marks when some have no value.
    let out = agree(&format!(
        "{nim}game h(n) {{\n move to(k in 0..8) if k * k >= n -> g(k)\n}}\nvalue(g(3))\nvalue(h(0))\n"
    ));
    assert_eq!(out, "3\n8\n");
    // Wythoff's game asked top-down (options without values are left to
    // the search, the bits written into the marks first), then swept.
    let wythoff = "game w(a, b) {\n move x(k in 1..=a) -> w(a - k, b)\n \
                   move y(k in 1..=b) -> w(a, b - k)\n move z(k in 1..=min(a, b)) -> w(a - k, b - k)\n}\n";
    let out = agree(&format!(
        "{wythoff}value(w(40, 50))\nlen([(a, b) for a in 0..50 for b in 0..50 if value(w(a, b)) == 0])\n"
    ));
    // Its losing positions: (0, 0) and the pairs (floor(k phi), floor(k
    // phi) + k) either way round, 39 of them in the square of side 50.
    assert!(out.ends_with("\n39\n"), "{out}");
}

#[test]
fn a_cycle_below_a_long_chain_is_reported_as_the_interpreter_reports_it() {
    let text = "game g(n) {\n move a if n > 0 -> g(n - 1)\n move b if n == 50 -> g(100)\n}\nvalue(g(2000))\n";
    let (interpreted, compiled) = (run(text, Engine::Interpreter), run(text, Engine::Native));
    assert_eq!(compiled, interpreted);
    assert!(
        compiled.1.contains("can be reached from itself"),
        "{}",
        compiled.1
    );
}

/// The machine code evaluates an option outside the dense tables (a heap
/// of 10^15, a negative one) in place, where it meets it; an option met
/// after one without a value waits its turn, so the
/// search meets the first error on the interpreter's play. Evaluated in
/// place, `h(-3)` below would lead on through `h(5)`, `h(-5)`, `h(7)`, ...
/// to the position limit before `h(2)` was looked at.
#[test]
fn an_option_after_one_without_a_value_is_evaluated_in_the_interpreters_order() {
    let text = "game h(n) {\n move down if n > 0 -> h(n - 1)\n move neg if n > 0 -> h(-n)\n \
                move up if n < 0 -> h(2 - n)\n move bad if n == 0 -> h(1 / n)\n}\nvalue(h(3))\n";
    let (interpreted, compiled) = (run(text, Engine::Interpreter), run(text, Engine::Native));
    assert_eq!(compiled, interpreted);
    assert!(
        compiled
            .1
            .contains("reached by the play h(3) -> h(2) -> h(1) -> h(0)"),
        "{}",
        compiled.1
    );
}

/// A move of the position asked back onto itself is a cycle, wherever it
/// is among its options: the kernel's first run records only the first
/// few options without values (here `h(40)` down to `h(9)`, with an
/// error at `h(39)`), but the position is in progress for it already.
#[test]
fn a_move_onto_the_position_asked_is_a_cycle_wherever_it_comes() {
    let text = "game h(n) {\n move m(a in reversed(0..=40)) if n == 0 -> h(a)\n \
                move bad if n == 39 -> h(1 / (n - n))\n}\nvalue(h(0))\n";
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run(text, engine), run(text, Engine::Interpreter));
    }
    let (_, reported, _) = run(text, Engine::Native);
    assert!(reported.contains("cycle: h(0) -> h(0)"), "{reported}");
}

/// Runs `text`, which fails, on every path: each reports what the
/// interpreter reports, the error reached by `play`.
fn meets_the_error_by(text: &str, play: &str) {
    let interpreted = run(text, Engine::Interpreter);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run(text, engine), interpreted, "{engine:?}");
    }
    let play = format!("reached by the play {play}");
    assert!(interpreted.1.contains(&play), "{}", interpreted.1);
}

/// The interpreter waits for the options without values of each move in
/// its own share, as a kernel's run records them: here 32 of the 40 of
/// `a`, then `h(200)` of `b`, then the rest. Both search in that order,
/// and meet the error at `h(200)` before the one at `h(35)`.
#[test]
fn the_interpreter_and_the_kernels_wait_for_the_same_options() {
    let text = "game h(n) {\n move a(k in 1..=40) if n == 100 -> h(k)\n \
                move b if n == 100 -> h(200)\n \
                move bad if n == 200 or n == 35 -> h(1 / (n - n))\n}\nvalue(h(100))\n";
    meets_the_error_by(text, "h(100) -> h(200)");
}

/// A move whose leading binder the compiled rules unroll waits for the
/// options of each copy in a share of its own, as moves written out for
/// each item would, and so does the interpreter, running the move as
/// written: 32 of `h(1)` to `h(40)`, then 32 of `h(201)` to `h(240)`.
/// Every path meets the error at `h(201)` before the one at `h(35)`.
#[test]
fn each_copy_of_an_unrolled_move_waits_for_options_of_its_own() {
    let text = "game h(n) {\n move a((c, e) in [(1, 0), (1, 200)], k in 1..=40) if n == 100 \
                -> h(c * k + e)\n \
                move bad if n == 201 or n == 35 -> h(1 / (n - n))\n}\nvalue(h(100))\n";
    meets_the_error_by(text, "h(100) -> h(201)");
}

/// The copies of a move split before it is unrolled (here by the choice
/// in its guard, `k == 1 or ...`, a move for `k == 1` and one for the
/// rest, each unrolled over the two items) would make the first item's
/// options again after the second's: they share the move's one share, as
/// the interpreter does, and every path meets the error at `h(33)` first.
/// Copies over a range (`dx in -2..=2, dy in -2..=2`) and of two leading
/// binders start theirs as the interpreter's range does.
#[test]
fn copies_out_of_the_items_order_share_and_ranges_start_shares_alike() {
    let split = "game h(n) {\n move a((c, e) in [(1, 0), (1, 200)], k in 1..=40) \
                 if n == 100 and (k == 1 or k >= 2) -> h(c * k + e)\n \
                 move bad if n == 33 or n == 232 -> h(1 / (n - n))\n}\nvalue(h(100))\n";
    let ranges = "game h(n) {\n move a(dx in -1..=1, dy in 0..=1, k in 1..=40) \
                  if n == 100 and dx * dx + dy == 1 -> h(k + 100 * (dx + 1) + 1000 * dy)\n \
                  move bad if n == 35 or n == 1101 -> h(1 / (n - n))\n}\nvalue(h(100))\n";
    // An `if` picking by an inner binder: unrolled, it would make the
    // options in another order; left alone.
    let inner = "game h(n) {\n move a(k in 1..=40, i in 0..2, j in 0..(if i == 0 then 1 else 1)) \
                 if n == 100 -> h(k + 200 * i + j)\n \
                 move bad if n == 35 or n == 201 -> h(1 / (n - n))\n}\nvalue(h(100))\n";
    // The target's `if` splits the move, each part unrolled over `i`;
    // the part for `k <= 40` keeps its copy for `i = 1`, which makes no
    // options and starts no share: item 0's options share one, as the
    // interpreter's do, and the error below `h(1, 2)` is met first.
    let never = "game h(k, t) {\n move x -> *(if t == 0 then 0 else -t)\n}\n\
                 game g(a, b) {\n move m(i in 0..2, k in 1..=(if i == 0 then a else b)) \
                 -> if i == 0 and k <= 40 then h(k, 0) else h(k, 1 + i)\n}\nvalue(g(60, 5))\n";
    for (text, play) in [
        (never, "g(60, 5) -> h(1, 2)"),
        (split, "h(100) -> h(33)"),
        (ranges, "h(100) -> h(1101)"),
        (inner, "h(100) -> h(201)"),
    ] {
        meets_the_error_by(text, play);
    }
}

/// The binders whose items start a share are found again when a function
/// the rules inline is redefined: here it turns the move's items into
/// constants, which the normaliser then unrolls.
#[test]
fn shares_follow_a_redefined_function_on_every_path() {
    let game = "game h(n) {\n move a((c, e) in dirs(n), k in 1..=40) if n == 100 -> h(c * k + e)\n \
                move bad if n == 201 or n == 35 -> h(1 / (n - n))\n}\n";
    let before = "fn dirs(n) = if n > 1000 then [(1, 0)] else [(1, 0), (1, 200)]\n";
    let after = "fn dirs(n) = [(1, 0), (1, 200)]\n";
    let fresh = run(
        &format!("{after}{game}value(h(100))\n"),
        Engine::Interpreter,
    );
    assert!(fresh.1.contains("h(100) -> h(201)"), "{}", fresh.1);
    for engine in Engine::ALL {
        let err = grundy::SharedBuffer::default();
        let out = Box::new(grundy::SharedBuffer::default());
        let mut session = Session::new(out, Box::new(err.clone()));
        engine.apply(&mut session.machine);
        session.machine.limits.max_states = 3_000;
        session.run("one.game", &format!("{before}{game}value(h(100))\n"));
        err.0.borrow_mut().clear();
        session.run("two.game", &format!("{after}value(h(100))\n"));
        let reported = String::from_utf8(err.0.borrow().clone()).unwrap();
        assert!(
            reported.contains("h(100) -> h(201)"),
            "{engine:?}: {reported}"
        );
    }
}

/// A target computed as written (`(if ... then g(n + 1) else *n) +
/// g(-1)`) makes options of two positions, which the interpreter has
/// wait in their order (`g(-1)`, made first, before `g(-10)`), not as
/// written: the machine code evaluates none of them in place, where it
/// would go down `g(-10)` first and meet another error. (A random file
/// of the differential tests found it.)
#[test]
fn the_positions_of_a_computed_target_are_not_evaluated_in_place() {
    let text = "game g(n) {\n move m0 -> (if n < -2 then g(n + 1) else *n) + g(-1)\n}\n\
                table(g, -12..=0)\n";
    meets_the_error_by(text, "g(-12) -> g(-11) -> g(-1)");
}

/// A sweep makes the whole square below `h(120, 120)`, 14,641 positions
/// where the rules reach some 1,600, as far as its room goes; those do not
/// count towards the search's limit (3,000 here), which the interpreter
/// alone stays under.
#[test]
fn positions_a_sweep_makes_ahead_leave_the_search_its_whole_limit() {
    let text = "game h(x, y) {\n move m if 1 <= popcount(y) <= y and 1 <= popcount(x) <= x \
                -> h(x, y - popcount(y)) + h(x - popcount(x), y)\n}\nvalue(h(120, 120))\n";
    let interpreted = run(text, Engine::Interpreter);
    assert_eq!(interpreted.2, None, "{}", interpreted.1);
    for engine in [Engine::Kernels, Engine::Native] {
        assert_eq!(run(text, engine), interpreted);
    }
}

#[test]
fn a_sweep_never_makes_a_query_exceed_the_position_limit() {
    // 2,900 positions are needed; the limit (3,000) leaves room for them
    // and nothing much else.
    let text = "game g(n) {\n move a(k in 1..=2) if k <= n -> g(n - k)\n}\nvalue(g(2899))\n";
    agree(text);
}

/// The generator makes files that check, and values as well as errors.
#[test]
fn the_random_files_are_mostly_valid_games() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..100 {
        let file = game_file().new_tree(&mut runner).unwrap().current();
        let (_, err, phase) = run(&file, Engine::Native);
        assert_ne!(phase, Some(Phase::Syntax), "{file}\n{err}");
        assert_ne!(phase, Some(Phase::Check), "{file}\n{err}");
        match phase {
            None => ok += 1,
            // Out of time (a debug build on a busy machine): says nothing
            // of the file.
            Some(Phase::Limit) if err.contains("time limit") => {}
            Some(_) => failed += 1,
        }
    }
    let judged = ok + failed;
    assert!(
        judged >= 20 && ok * 4 >= judged,
        "only {ok} of {judged} random files that finished in time ran cleanly"
    );
}

/// Every kernel run is short here, but there are a million of them: the
/// clock is looked at across runs, not only within a long one.
#[test]
fn many_short_compiled_runs_still_meet_the_time_limit() {
    // Two parameters: no sweep, whose own loop looks at the clock. The
    // second's values are copied out: its runs make no loop at all.
    for text in [
        "game g(n, c) {\n move m(k in 1..=300) if (k * k) % 7 != c and k <= n -> g(n - k, c)\n}\n\
         value(g(1000000, 3))\n",
        "game g(n, c) {\n move m(k in [1, 2]) if k <= n -> g(n - k, c)\n}\nvalue(g(10000000, 3))\n",
    ] {
        meets_the_time_limit(text);
    }
}

fn meets_the_time_limit(text: &str) {
    let out = SharedBuffer::default();
    let err = SharedBuffer::default();
    let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
    session.machine.limits.timeout = Some(std::time::Duration::from_millis(50));
    session.machine.start_clock();
    let outcome = session.run("slow.game", text);
    let err = String::from_utf8(err.0.borrow().clone()).unwrap();
    assert_eq!(outcome.error, Some(Phase::Limit), "{err}");
    assert!(err.contains("time limit"), "{err}");
}

#[test]
fn a_lower_max_depth_is_met_alike_by_every_path() {
    // Calls inlined into the rules, unrolled in a function's body, and
    // made by the compiled code all count towards --max-depth, as the
    // interpreter counts them: no path may give a value where it stops.
    let files = [
        // A recursion, unrolled into the rules and then called.
        "fn f(n) = if n == 0 then 0 else 1 + f(n - 1)\n\
         game g(n) {\n move t(k in 1..=n) if f(k * 7) % 2 == 1 -> g(n - k)\n}\n\
         value(g(30))\n",
        // Helpers that call one another, not themselves.
        "fn a(n) = n + 1\nfn b(n) = a(n) * 2\nfn c(n) = b(n) - a(n)\n\
         game g(n) {\n move t(k in 1..=3) if k <= n and c(k) > 0 -> g(n - k)\n}\n\
         value(g(40))\n",
        // Calls in a top-level query.
        "fn f(n) = if n == 0 then 0 else 1 + f(n - 1)\n\
         game g(n) {\n move t(k in 1..=2) if k <= n -> g(n - k)\n}\n\
         sum([value(g(n)) for n in 0..300 if f(n) % 3 == 1])\n",
        // A result remembered from a shallow call, asked for again from
        // deep inside another recursion: there it is past the limit.
        "fn f(n) = if n <= 0 then 0 else 1 + f(n - 1)\n\
         fn g(n, d) = if d == 0 then f(n) else g(n, d - 1)\n\
         game h(n) {\n move t(k in 1..=2) if k <= n and f(150) + g(150, 100 + n) > 0 -> h(n - k)\n}\n\
         value(h(12))\n",
    ];
    for text in files {
        for depth in [
            1, 2, 3, 4, 5, 19, 20, 21, 40, 100, 203, 204, 205, 250, 260, 270, 290, 300, 301,
        ] {
            let interpreted = run_at_depth(text, Engine::Interpreter, depth);
            for engine in [Engine::Kernels, Engine::Native] {
                let compiled = run_at_depth(text, engine, depth);
                assert_eq!(
                    compiled, interpreted,
                    "{engine:?} at depth {depth}:\n{text}"
                );
            }
        }
    }
}

/// Runs `text` on the machine code with at most `max_states` positions,
/// and returns the session, whose graph and counters the caller reads.
fn run_within(text: &str, max_states: usize) -> Session {
    let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    Engine::Native.apply(&mut session.machine);
    session.machine.limits.max_states = max_states;
    assert_eq!(session.run("sparse.game", text).error, None, "{text}");
    session
}

#[test]
fn a_sparse_game_is_searched_not_swept_through() {
    // From a position just above a missing option, a sweep would value
    // every position below it; these reach a handful. A bitmask losing a
    // bit a move (the value is the parity of the bits), and two heaps in
    // a list that each move lowers by at most its last two digits.
    for (text, value) in [
        (
            "game coins(m) { move take(i in 0..40) if (m >> i) & 1 == 1 -> coins(m ^ (1 << i)) }\n\
             value(coins(2 ** 30 + 2 ** 20 + 1))\n",
            "1",
        ),
        (
            "game g(hs) { move down(i in 0..len(hs), d in 1..=hs[i] % 100) -> g(hs[:i] + [hs[i] - d] + hs[i + 1:]) }\n\
             value(g([2002, 3002])) + value(g([2002, 3001]))\n",
            "3",
        ),
    ] {
        let session = run_within(text, 200_000);
        let held = session.machine.graph.len();
        assert!(held < 1_000, "{held} positions held for {text}");
        assert_eq!(run_big(text, Engine::Native).trim(), value);
        assert_eq!(run_big(text, Engine::Interpreter).trim(), value);
    }
}

#[test]
fn a_gap_left_by_an_earlier_query_does_not_stop_the_sweep() {
    // `sub(10)` values 10, 8, 5, ... but not 9 or 7; asked next, the chain
    // below 200,000 is swept from the lowest position without a value,
    // not descended one position at a time (200,000 runs).
    const N: usize = 200_000;
    let mut g = vec![0u64; N + 1];
    for n in 0..=N {
        let options: Vec<u64> = [2, 5]
            .iter()
            .filter(|&&k| k <= n)
            .map(|k| g[n - k])
            .collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    let text = format!(
        "game sub(n) {{ move take(k in [2, 5]) if k <= n -> sub(n - k) }}\n\
         value(sub(10))\nvalue(sub({N}))\nvalue(sub({}))\n",
        N - 3
    );
    let session = run_within(&text, 1_000_000);
    let runs = session.machine.kernel_runs;
    assert!(runs < 10_000, "{runs} positions run one at a time");
    let values = format!("{}\n{}\n{}\n", g[10], g[N], g[N - 3]);
    assert_eq!(run_big(&text, Engine::Native), values);
}
