//! Which rules compile, to what, and that they agree with the interpreter.

use super::compile;
use crate::session::loaded;

mod strips;

/// Whether the first game of `source` compiles, once its statements
/// have run (so that its `let`s have values).
fn compiles(source: &str) -> bool {
    kernel(source).is_some()
}

pub(super) fn kernel(source: &str) -> Option<super::Kernel> {
    let (mut session, _) = loaded("");
    assert_eq!(session.run("test.game", source).exit_code(), 0, "{source}");
    first_game(&session.machine)
}

/// The kernel of the first game `m` defines, compiled afresh.
pub(crate) fn first_game(m: &crate::runtime::Machine) -> Option<super::Kernel> {
    compile(
        &crate::runtime::normalize::rules(&m.game_ir(0), &m.defs),
        0,
        &m.defs,
        m.limits.max_depth,
    )
}

#[test]
fn integer_rules_have_machine_code() {
    for rules in [
        "move knock(k in 1..=2, a in 0..=n - k) if a % 3 != 1 -> g(a) + g(n - k - a)",
        "move take(k in {1, 3, 4}) if k <= n -> g(n - k)",
        "move take(k in 1..=3) if k <= n -> g(n - k)",
        "move take(k in [1, n / 2, n % 7]) if 0 < k <= n -> g(n - k)",
        "move split(a in 1..n) if a != n - a and (n >> 1) & a ^ 3 > -1 -> g(a) + g(n - a)",
        "move div(d in 2..=n) if n % d == 0 and max(d, 2) ** 2 >= abs(-d) -> g(n / d) + *(d - 1)",
        "move pick(k in 1..=3) if (if k == 2 then n > 5 else not (n < k or k > 9)) -> g(n - k)",
        "move root(k in 1..=isqrt(n)) if k * k <= n -> g(n - k * k)",
        "move bits(k in 1..=bit_length(n)) if popcount(n) >= k and gcd(k, n) == 1 -> g(n - k)",
        // A loop `min(3, n)` long: short, however large `n`.
        "move take(k in 1..=min(3, n)) -> g(n - k)",
    ] {
        let source = format!("game g(n) {{\n {rules}\n}}\n");
        let kernel = kernel(&source).expect(rules);
        assert!(kernel.is_native(), "{rules}");
        assert!(kernel.native().unwrap().sweep.is_some(), "{rules}");
    }
    // Kayles: the fast loop reads the dense tables by slice, faster.
    let kayles = "game g(n) {\n move knock(k in 1..=2, a in 0..=n - k) -> g(a) + g(n - k - a)\n}\n";
    assert!(!kernel(kayles).expect("compiles").is_native());
}

#[test]
fn machine_code_is_compiled_only_for_enough_positions() {
    let kernel = kernel("game g(n) {\n move take(k in 1..=3) if k <= n -> g(n - k)\n}\n");
    let kernel = kernel.expect("compiles");
    // A few positions: the kernel's own run takes them, nothing compiled.
    assert!(!kernel.native_for(100, 4096));
    assert!(kernel.native.get().is_none());
    // Enough of them: compiled now, and from then on whatever the count.
    assert!(kernel.native_for(4096, 4096));
    assert!(kernel.native.get().is_some_and(|n| n.is_some()));
    assert!(kernel.native_for(1, 4096));
}

/// A session that ran the rules of the subtraction game {1, 2, 3}, for
/// the tests of when its machine code is compiled.
fn take_three() -> crate::session::Session {
    let (mut session, _) = loaded("");
    let rules = "game g(n) {\n move take(k in 1..=3) if k <= n -> g(n - k)\n}\n";
    assert_eq!(session.run("test.game", rules).exit_code(), 0);
    session
}

/// [`super::Kernel::native_mex`] of `kernel`'s position 0.
fn run_zero(
    m: &mut crate::runtime::Machine,
    kernel: &super::Kernel,
    eager: bool,
) -> Option<Result<super::Found, super::Stop>> {
    let (mut marks, mut views) = (super::Marks::default(), Vec::new());
    let given = (&m.defs, &mut m.graph, None);
    kernel.native_mex(given, &[0], (&mut marks, &mut views), &mut || false, eager)
}

#[test]
fn a_kernel_compiles_its_machine_code_once_its_runs_took_long_enough() {
    let mut session = take_three();
    let fresh = first_game(&session.machine).unwrap();
    let eager = first_game(&session.machine).unwrap();
    let m = &mut session.machine;
    let kernel = fresh;
    run_zero(m, &kernel, false);
    assert!(
        kernel.counts_work(),
        "nothing compiled before any work was done"
    );
    kernel.ran(super::COMPILE_AFTER / 2);
    run_zero(m, &kernel, false);
    assert!(
        kernel.counts_work(),
        "half the work: still nothing compiled"
    );
    kernel.ran(super::COMPILE_AFTER / 2);
    run_zero(m, &kernel, false);
    assert!(!kernel.counts_work() && kernel.native.get().is_some_and(Option::is_some));
    // Eager (as tests run): compiled at the first position.
    run_zero(m, &eager, true);
    assert!(!eager.counts_work());
}

/// Machine code compiled for a sweep leaves its mex function out: the
/// positions run alone after it take the kernel's own run, their work
/// counted, until they have done what compiling costs; then it is
/// compiled, and they run as machine code.
#[test]
fn a_sweeps_machine_code_compiles_its_mex_function_once_positions_alone_did_the_work() {
    let mut session = take_three();
    let kernel = first_game(&session.machine).unwrap();
    assert!(kernel.is_native(), "compiled, as for a sweep");
    assert!(kernel.counts_work(), "no mex function yet");
    let m = &mut session.machine;
    assert!(
        run_zero(m, &kernel, false).is_none(),
        "left to the kernel's run"
    );
    kernel.ran(super::COMPILE_AFTER / 2);
    assert!(run_zero(m, &kernel, false).is_none() && kernel.counts_work());
    kernel.ran(super::COMPILE_AFTER / 2);
    assert_eq!(run_zero(m, &kernel, false), Some(Ok((0, 0))));
    assert!(!kernel.counts_work());
}

#[test]
fn a_run_collects_more_waiting_options_as_the_search_asks() {
    for (shift, kept) in [(0, super::MISSING_MAX), (3, 8 * super::MISSING_MAX)] {
        let mut marks = super::Marks {
            missing_shift: shift,
            ..Default::default()
        };
        for n in 0..1000 {
            let v = crate::graph::ABSENT;
            assert_eq!(marks.known(v, 0, &[n, 7]), Ok(None));
        }
        assert_eq!(marks.missing.len(), kept);
        assert_eq!(marks.args(&marks.missing[kept - 1]), [kept as i64 - 1, 7]);
    }
}

#[test]
fn only_rules_without_linear_forms_take_integers_of_any_size() {
    let game = |rules: &str| kernel(&format!("game g(n) {{\n {rules}\n}}\n")).expect(rules);
    let divide = game("move by(d in {2, 3, 6}) if n > 0 -> g(n / d)");
    assert!(divide.wide);
    let mut frame = Vec::new();
    assert!(divide.load(&[10i64.pow(15)], &mut frame) && frame[0] == 10i64.pow(15));
    let take = game("move take(k in 1..=3) if k <= n -> g(n - k)");
    assert!(!take.wide && !take.load(&[10i64.pow(15)], &mut frame));
}

#[test]
fn integer_rules_compile_and_others_are_left_to_the_interpreter() {
    for rules in [
        "move knock(k in 1..=2, a in 0..=n - k) -> g(a) + g(n - k - a)",
        "move take(k in [1, 2, 3]) if k <= n -> g(n - k)",
        "move take(k in (1, 2)) if k <= n -> g(n - k)",
        "move take(s in STEPS) if s <= n -> g(n - s)",
        "move split(a in 1..n) if 2 * a < n and n % 2 == 0 -> g(a) + g(n - a)",
        "move take(k in {1, 2}) if k <= n -> g(n - k)",
        "move take(k in SET) if k <= n -> g(n - k)",
        "move split(a in 1..n) if a != n - a -> g(a) + g(n - a)",
        "move split(a in 1..n) if unequal(a, n) -> g(a) + g(n - a)",
        "move go((d, e) in [(1, 2), (2, 1)]) if inside(n - d - e) -> g(n - d - e)",
        "move go((d, e) in PAIRS) if d + e <= n -> g(n - d - e)",
        // Calls itself: unrolled.
        "move take(k in [1, 2, 3]) if r(k) and k <= n -> g(n - k)",
    ] {
        let source = format!(
            "let STEPS = [1, 4]\nlet SET = {{1, 4}}\nlet PAIRS = [(1, 2), (2, 1)]\n\
             fn unequal(a, n) = a != n - a\nfn inside(x) = 0 <= x <= N\nlet N = 100\n\
             fn r(k) = k <= 0 or r(k - 1)\n\
             game g(n) {{\n {rules}\n}}\n"
        );
        assert!(compiles(&source), "{rules}");
    }
    for rules in [
        "move take(k in [1, 2, 3]) if f(k) -> g(n - k)",
        "move take(k in [1, 2, 3]) if f(k * k) -> g(n - k)",
        "move take(k in [1, \"a\"]) if k <= n -> g(n - k)",
    ] {
        let source = format!("fn f(k) = len(str([k])) > 3\ngame g(n) {{\n {rules}\n}}\n");
        assert!(!compiles(&source), "{rules}");
    }
}

#[test]
fn monotone_guards_end_the_loop_and_agree_with_the_interpreter() {
    use crate::sandbox::engines_disagree;
    // Each domain and guard, and whether the run fails (an overflow).
    for (domain, guard, fails) in [
        ("1..=n", "k * k <= n", false),
        ("1..=n", "n > k ** 3", false),
        ("0..=n + 3", "2 * k * k + k < n + 1", false),
        ("-2..=n", "k * k <= n", false),
        ("[1, 2, 4, 8, 9]", "k * k - 1 <= n", false),
        ("0..20", "1 << k <= n", false),
        // k * k * k * k overflows at the top of the range: an error.
        ("1..=100000", "k * k * k * k <= n and k <= n", true),
        // So does 3 << k.
        ("0..=70", "3 << k <= n + 1", true),
    ] {
        let source = format!(
            "game g(n) {{\n move t(k in {domain}) if {guard} -> g(n - max(k, 1))\n}}\ntable(g, 0..40)\n"
        );
        if !fails {
            assert!(compiles(&source), "{guard}");
        }
        assert_eq!(engines_disagree(&source), None, "{domain} {guard}");
    }
}

#[test]
fn positions_of_three_or_more_integers_are_packed_and_get_machine_code() {
    // Three heaps (Nim, so the value is the xor), four coordinates with a
    // negative one and a huge one, and a target of three integers from a
    // game of one.
    for (rules, query) in [
        (
            "game t(a, b, c) {\n move x(k in 1..=a) -> t(a - k, b, c)\n \
             move y(k in 1..=b) -> t(a, b - k, c)\n move z(k in 1..=c) -> t(a, b, c - k)\n}\n",
            "expect all([value(t(a, b, c)) == a ^ b ^ c for a in 0..5 for b in 0..4 for c in 0..6])",
        ),
        (
            "game q(a, b, c, d) {\n move m(k in 1..=2) if a > 0 -> q(a - 1, b - k, c, d + 10 ** 12)\n \
             move n if c > 0 -> q(a, b, c - 1, d)\n}\n",
            "[value(q(4, -3, 2, 0)), value(q(6, 0, 3, 10 ** 15))]",
        ),
        (
            "game s(n) {\n move m(k in 1..=n) -> t(n - k, k, 1)\n}\n\
             game t(a, b, c) {\n move x(k in 1..=a) -> t(a - k, b, c)\n move y if b > c -> t(a, b - 1, c)\n}\n",
            "[value(s(n)) for n in 0..9]",
        ),
    ] {
        let source = format!("{rules}{query}\n");
        let kernel = kernel(&source).expect(rules);
        assert!(kernel.is_native() && !kernel.takes_lists(), "{rules}");
        assert_eq!(crate::sandbox::engines_disagree(&source), None, "{source}");
    }
}

#[test]
fn boards_of_constant_shifts_inside_a_box_have_levels() {
    let knight = "let N = 50\nfn inside(x, y) = 1 <= x <= N and 1 <= y <= N\n\
                  game g(x, y) {\n move jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)])\n \
                  if inside(x + dx, y + dy) and (x + y) % 3 != 1 -> g(x + dx, y + dy)\n}\n";
    let levels = kernel(knight).expect("compiles").levels();
    let expected = super::Levels {
        weights: (1, 1),
        rows: (1, 50),
        cols: (1, 50),
        form: None,
    };
    assert_eq!(levels, Some(expected));
    // The same board, its square a tuple read item by item.
    let tuple = "let N = 50\ngame g(p) {\n move jump((dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)])\n \
                 if 1 <= p[0] + dx <= N and 1 <= p[1] + dy <= N -> g((p[0] + dx, p[1] + dy))\n}\n";
    let levels = kernel(tuple).expect("compiles").levels().expect("levels");
    assert_eq!(
        (levels.weights, levels.rows, levels.cols),
        ((1, 1), (1, 50), (1, 50))
    );
    let header = crate::graph::flat::header([crate::graph::Shape::Tuple].into_iter());
    assert_eq!(levels.form, Some(crate::graph::form_code(header, &[2])));
    // Shifts that only x + 2y lowers; a box from the moves' own bounds.
    let steep = "game g(x, y) {\n move a if 0 <= x <= 37 and 2 <= y and y - 2 <= 30 -> g(x + 3, y - 2)\n \
                 move b if 0 <= x - 1 and x <= 40 and 5 <= y and y <= 20 -> g(x - 1, y)\n}\n";
    let levels = kernel(steep).expect("compiles").levels().expect("levels");
    assert_eq!(levels.weights, (1, 2));
    assert_eq!((levels.rows, levels.cols), ((0, 40), (0, 30)));
    // Bounds only where a move goes: below for a coordinate it lowers,
    // above for one it raises.
    let one_sided = "let N = 40\ngame g(x, y) {\n move a if x > 2 and y < N -> g(x - 2, y + 1)\n \
                     move b if x > 2 and y > 1 -> g(x - 2, y - 1)\n \
                     move c if x < N and y > 2 -> g(x + 1, y - 2)\n}\n";
    let levels = kernel(one_sided)
        .expect("compiles")
        .levels()
        .expect("levels");
    assert_eq!((levels.rows, levels.cols), ((1, 40), (1, 40)));
    // No bound above on a coordinate a move raises, nor below on one no
    // move lowers: the box reaches to the dense tables' ends.
    let open = "let N = 40\ngame g(x, y) {\n move a if x >= 2 -> g(x - 2, y + 1)\n \
                move b if y >= 3 -> g(x + 1, y - 3)\n}\n";
    let levels = kernel(open).expect("compiles").levels().expect("levels");
    let last = crate::graph::SIDE_MAX - 1;
    assert_eq!(levels.weights, (1, 1));
    assert_eq!((levels.rows, levels.cols), ((0, last), (0, last)));
    let up = "game g(x, y) {\n move a if 1 <= x - 1 <= 9 -> g(x - 1, y + 1)\n}\n";
    let levels = kernel(up).expect("compiles").levels().expect("levels");
    assert_eq!(
        (levels.weights, levels.rows, levels.cols),
        ((2, 1), (1, 9), (0, last))
    );
    for no_board in [
        // A binder: no constant shift.
        "game g(x, y) {\n move a(k in 1..=x) -> g(x - k, y)\n}\n",
        // Shifts no weights lower: the rules may cycle.
        "game g(x, y) {\n move a if 0 <= x - 1 <= 9 and 0 <= y <= 9 -> g(x - 1, y)\n \
         move b if 0 <= x + 1 <= 9 and 0 <= y <= 9 -> g(x + 1, y)\n}\n",
        // Negative rows are not dense.
        "game g(x, y) {\n move a if -5 <= x - 1 <= 9 and 0 <= y <= 9 -> g(x - 1, y)\n}\n",
    ] {
        assert_eq!(
            kernel(no_board).expect("compiles").levels(),
            None,
            "{no_board}"
        );
    }
}

#[test]
fn a_function_calling_itself_past_the_levels_unrolled_is_called() {
    // Both branches call `ones`: only a few levels are unrolled, and
    // 1000 + k needs ten. The rest are calls, in the kernel's run and in
    // the machine code, where they were once left to the interpreter.
    let source = "fn ones(n) = if n == 0 then 0 else if n % 2 == 1 then 1 + ones(n / 2) else ones(n / 2)\n\
                  game g(n) {\n move m(k in 1..=40) if ones(n + k) == 3 -> *0\n}\n";
    let (mut session, _) = loaded("");
    assert_eq!(session.run("test.game", source).exit_code(), 0);
    let kernel = first_game(&session.machine);
    let kernel = kernel.expect("compiles");
    let m = &mut session.machine;
    let n: i64 = 1000;
    let options = (1..=40).filter(|k| (n + k).count_ones() == 3).count();
    assert!(options > 0);
    let (mut marks, mut views, mut no) = (super::Marks::default(), Vec::new(), || false);
    let run = kernel.mex(&m.defs, &m.graph, &[n], &mut marks, &mut no);
    assert_eq!(run, Ok((1, options)));
    let given = (&m.defs, &mut m.graph, None);
    let native = kernel.native_mex(given, &[n], (&mut marks, &mut views), &mut no, true);
    assert_eq!(native, Some(Ok((1, options))));
}

#[test]
fn sums_of_comprehensions_of_positions_have_machine_code() {
    for rules in [
        "move split(k in 2..=n) if n % k == 0 -> sum([g(n / k) for i in 1..=k])",
        "move cut(a in 1..n) -> sum([g(b) for b in a..n if b != 3]) + *1",
        "move heaps(a in 1..=3) if a <= n -> g(n - a) + sum([*j + g(j - 1) for j in 1..=a])",
        "move nested(a in 1..=2) if a <= n -> sum([sum([g(i) for i in 0..j]) for j in 0..a])",
    ] {
        let source = format!("game g(n) {{\n {rules}\n}}\n");
        let kernel = kernel(&source).expect(rules);
        assert!(kernel.is_native(), "{rules}");
    }
    // Over a list made for the purpose: the kernel's run, as any such
    // comprehension.
    let made =
        "game g(n) {\n move cut(a in 1..n) -> sum([g(b) for b in [a, n - a] if b != 3])\n}\n";
    assert!(compiles(made));
    // A `sum` of integers is an integer, an error as a target (the
    // interpreter's to report); a set of positions is not summed here.
    for rules in [
        "move add(a in 1..=n) -> sum([k for k in 0..a])",
        "move zero(a in 1..=n) -> sum([0 for k in 0..a]) + g(n - a)",
        "move set(a in 1..=n) -> sum({g(k) for k in 0..a})",
    ] {
        let source = format!("game g(n) {{\n {rules}\n}}\n");
        assert!(!compiles(&source), "{rules}");
    }
}

/// A conjunct of the binder alone (`ones(k) == 2`, `k % 3 != 1`) is
/// evaluated once per game and value, however many positions loop over
/// the value: 300 values for the positions 0..=300, not the 45,000 a
/// test at every position would make. Conjuncts that read the position,
/// or follow one that does, are not kept.
#[test]
fn conjuncts_of_the_binder_alone_are_evaluated_once_per_value() {
    for (rules, kept) in [
        ("move t(k in 1..=n) if ones(k) == 2 -> g(n - k)", true),
        (
            "move t(k in 1..=n) if k % 3 != 1 and ones(k) < 4 -> g(n - k)",
            true,
        ),
        (
            "move t(k in 1..=n) if 2 * k <= n + 1 and ones(k) == 2 -> g(n - k)",
            true,
        ),
        ("move t(k in 1..=n) if ones(k + n) == 2 -> g(n - k)", false),
        (
            "move t(k in 1..=n) if (n + k) % 4 != 0 and ones(k) == 2 -> g(n - k)",
            false,
        ),
    ] {
        let source = format!(
            "fn ones(k) = if k == 0 then 0 else k % 2 + ones(k / 2)\n\
             game g(n) {{\n {rules}\n}}\ntable(g, 0..=300)\n"
        );
        for native in [false, true] {
            let (mut session, _) = loaded("");
            session.machine.use_native = native;
            session.machine.native_after = 0;
            assert_eq!(session.run("test.game", &source).exit_code(), 0, "{source}");
            let kernel = session.machine.kernel(0).expect("compiles");
            let evaluated = kernel.filtered();
            match kept {
                true => assert!((1..=300).contains(&evaluated), "{rules}: {evaluated}"),
                false => assert_eq!(evaluated, 0, "{rules}"),
            }
        }
    }
}
