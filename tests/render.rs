//! `grundy graph` and `grundy plot`, and the `graph` and `plot` built-ins,
//! run through the real binary: the DOT text of a small game against a
//! snapshot, cut graphs, SVG charts read back as XML and their points
//! counted against the values the library computes, PNG files of the size
//! asked for, and the errors of each command with their exit codes.

mod common;

use common::{grundy, text};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory of its own for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-render-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `grundy plot FILE GAME RANGE -o TO`, then `extra` arguments.
fn plot_to(file: &str, game: &str, range: &str, to: &str, extra: &[&str]) -> Output {
    let mut args = vec!["plot", file, game, range, "-o", to];
    args.extend_from_slice(extra);
    grundy(&args)
}

/// The values of `game(n)` for `n` in `range`, from the library itself.
fn values(file: &str, game: &str, range: &str) -> Vec<u64> {
    let mut session =
        grundy::session::Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let source = std::fs::read_to_string(full).unwrap();
    assert_eq!(session.run(file, &source).exit_code(), 0);
    let (list, _) = session
        .value(&format!("[value({game}(n)) for n in {range}]"))
        .unwrap_or_else(|_| panic!("{game} over {range}"));
    list.as_slice()
        .unwrap()
        .iter()
        .map(|v| match v {
            grundy::value::Value::Int(n) => *n as u64,
            other => panic!("{other:?} is no value"),
        })
        .collect()
}

/// The number of nodes a DOT text declares.
fn nodes_of(dot: &str) -> usize {
    dot.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('n') && l.contains(" [label=") && !l.contains("->"))
        .count()
}

fn assert_exit(out: &Output, code: i32, says: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains(says), "expected {says:?} in:\n{stderr}");
}

#[test]
fn the_graph_of_a_small_game_is_dot_text() {
    let out = grundy(&["graph", "examples/kayles.game", "kayles(4)"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout));
}

#[test]
fn a_sum_with_a_heap_splits_into_its_components() {
    let out = grundy(&["graph", "examples/kayles.game", "kayles(2) + *1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout));
}

#[test]
fn a_graph_cut_by_its_limits_says_so() {
    let out = grundy(&["graph", "examples/kayles.game", "kayles(6)", "--depth", "1"]);
    let dot = text(&out.stdout);
    let note = "cut at depth 1: the ";
    assert!(dot.contains(&format!("// {note}")), "{dot}");
    assert!(
        dot.contains(&format!("\\n{note}")),
        "the title says it too:\n{dot}"
    );
    assert!(dot.contains("style=\"rounded,dashed\""), "{dot}");

    let out = grundy(&[
        "graph",
        "examples/kayles.game",
        "kayles(9)",
        "--max-nodes",
        "5",
    ]);
    let dot = text(&out.stdout);
    assert!(dot.contains("cut at 5 nodes"), "{dot}");
    assert_eq!(nodes_of(&dot), 5, "{dot}");

    let whole = grundy(&["graph", "examples/kayles.game", "kayles(6)"]);
    assert!(
        !text(&whole.stdout).contains("cut"),
        "{}",
        text(&whole.stdout)
    );
}

#[test]
fn the_graph_built_in_takes_the_same_limits() {
    let script = "game nim(n) {\n    move take(k in 1..=n) -> nim(n - k)\n}\n\
                  print(graph(nim(5), 1, 100))\nprint(graph(nim(5), 8, 3))\n";
    let out = common::run_stdin(script);
    let shown = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(shown.contains("cut at depth 1"), "{shown}");
    assert!(shown.contains("cut at 3 nodes"), "{shown}");
    assert_eq!(shown.matches("digraph \"nim(5)\"").count(), 2);
}

#[test]
fn graphs_are_drawn_as_svg_when_graphviz_is_installed() {
    let dot_installed = Command::new("dot").arg("-V").output().is_ok();
    if !dot_installed {
        eprintln!("Graphviz's dot is not installed: the SVG graph is not tested");
        return;
    }
    let dir = scratch("graph-svg");
    let file = dir.join("k.svg");
    let out = grundy(&[
        "graph",
        "examples/kayles.game",
        "kayles(3)",
        "-o",
        path(&file),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dot = text(&grundy(&["graph", "examples/kayles.game", "kayles(3)"]).stdout);
    let said = format!("kayles(3): {} nodes written to", nodes_of(&dot));
    assert!(text(&out.stdout).contains(&said), "{}", text(&out.stdout));
    let svg = std::fs::read_to_string(&file).unwrap();
    // Graphviz's SVG names its document type.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&svg, options).unwrap();
    let nodes = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("node"))
        .count();
    assert_eq!(nodes, nodes_of(&dot), "{svg}");
}

#[test]
fn without_graphviz_the_error_says_how_to_get_it() {
    let dir = scratch("no-dot");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["graph", "examples/kayles.game", "kayles(3)", "-o"])
        .arg(dir.join("k.svg"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // A PATH with no `dot` on it.
        .env("PATH", &dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_exit(&out, 2, "apt-get install graphviz");
    assert!(!dir.join("k.svg").exists());
    // DOT needs no Graphviz.
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["graph", "examples/kayles.game", "kayles(3)", "-o"])
        .arg(dir.join("k.dot"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(dir.join("k.dot")).unwrap();
    let printed = grundy(&["graph", "examples/kayles.game", "kayles(3)"]);
    assert_eq!(written, text(&printed.stdout));
}

/// The circles of a chart, as (x, y, whether red: a zero).
fn circles(svg: &str) -> Vec<(f64, f64, bool)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|c| {
            let number = |a: &str| c.attribute(a).unwrap().parse::<f64>().unwrap();
            let fill = c.attribute("fill").unwrap().to_ascii_lowercase();
            assert!(fill == "#d62728" || fill == "#356aa8", "{fill}");
            (number("cx"), number("cy"), fill == "#d62728")
        })
        .collect()
}

#[test]
fn a_plot_has_a_point_for_each_value_and_marks_the_zeros() {
    let dir = scratch("plot-svg");
    let file = dir.join("take3.svg");
    let out = plot_to(
        "examples/take_1_to_3.game",
        "take3",
        "0..=60",
        path(&file),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("take3(n), n = 0..=60: 61 values plotted to"));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(
        svg.contains("take3(n), n = 0..=60"),
        "the title names the game"
    );
    let expected = values("examples/take_1_to_3.game", "take3", "0..=60");
    let drawn = circles(&svg);
    assert_eq!(drawn.len(), expected.len());
    let zeros: Vec<usize> = (0..expected.len()).filter(|n| expected[*n] == 0).collect();
    let red: Vec<&(f64, f64, bool)> = drawn.iter().filter(|c| c.2).collect();
    assert_eq!(red.len(), zeros.len());
    // The zeros lie on one line, spaced as their n are.
    assert!(red.iter().all(|c| c.1 == red[0].1));
    let step = (red[1].0 - red[0].0) / (zeros[1] - zeros[0]) as f64;
    for (c, n) in red.iter().zip(&zeros) {
        let x = red[0].0 + step * (n - zeros[0]) as f64;
        assert!(
            (c.0 - x).abs() <= 1.0,
            "zero at n = {n} drawn at {}, not {x}",
            c.0
        );
    }
    // Higher values are drawn higher (SVG's y grows downwards).
    let one = drawn.iter().find(|c| !c.2).unwrap();
    assert!(one.1 < red[0].1);
}

#[test]
fn a_long_plot_keeps_every_value_of_each_run_of_neighbours() {
    let dir = scratch("plot-long");
    let file = dir.join("take3.svg");
    let out = plot_to(
        "examples/take_1_to_3.game",
        "take3",
        "0..100000",
        path(&file),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let drawn = circles(&std::fs::read_to_string(&file).unwrap());
    // 960 pixels wide: runs of 105 values, each holding the values 0 to 3.
    let runs = 100_000usize.div_ceil(100_000usize.div_ceil(960));
    assert_eq!(drawn.len(), runs * 4);
    assert_eq!(drawn.iter().filter(|c| c.2).count(), runs);
}

#[test]
fn a_png_plot_has_the_size_asked_for() {
    let dir = scratch("plot-png");
    let file = dir.join("square.png");
    let out = plot_to(
        "examples/subtract_square.game",
        "square",
        "0..=200",
        path(&file),
        &["--size", "640x360"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let png = std::fs::read(&file).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (640, 360));
}

#[test]
fn the_plot_built_in_writes_the_game_s_svg_and_returns_its_path() {
    let dir = scratch("plot-built-in");
    let script = "game take3(n) {\n    move take(k in 1..=3) if k <= n -> take3(n - k)\n}\n\
                  expect plot(take3, 0..=20) == \"take3.svg\"\n\
                  expect plot(take3, 0..=20, \"small.png\") == \"small.png\"\n";
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args(["run", "-"]).current_dir(&dir);
    let out = common::with_stdin(cmd, script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(dir.join("take3.svg")).unwrap();
    assert_eq!(circles(&svg).len(), 21);
    assert_eq!(&std::fs::read(dir.join("small.png")).unwrap()[1..4], b"PNG");
}

#[test]
fn mistakes_in_what_to_plot_are_diagnostics() {
    let dir = scratch("plot-errors");
    let to = dir.join("p.svg");
    let plot =
        |game: &str, range: &str| plot_to("examples/kayles.game", game, range, path(&to), &[]);
    let out = plot("kayle", "0..=10");
    assert_exit(&out, 3, "unknown name `kayle`");
    assert!(text(&out.stderr).contains("did you mean `kayles`?"));
    assert_exit(&plot("kayles", "10..=2"), 3, "the range is empty");
    assert_exit(&plot("kayles", "0..=x"), 3, "unknown name `x`");
    assert_exit(&plot("kayles", "[1, 2]"), 3, "needs a range of integers");
    assert_exit(&plot("kayles(3)", "0..=10"), 3, "`plot(kayles, ...)`");
    assert!(!to.exists(), "nothing is written after an error");
}

#[test]
fn outputs_that_cannot_be_written_are_usage_errors() {
    let missing = "/nonexistent-dir/p.svg";
    let out = plot_to("examples/kayles.game", "kayles", "0..=10", missing, &[]);
    assert_exit(&out, 2, "cannot write `/nonexistent-dir/p.svg`");
    let out = plot_to("examples/kayles.game", "kayles", "0..=10", "p.gif", &[]);
    assert_exit(
        &out,
        2,
        "`p.gif` has `.gif`: the file must end in `.svg` or `.png`",
    );
    let out = grundy(&[
        "graph",
        "examples/kayles.game",
        "kayles(3)",
        "-o",
        "/nonexistent-dir/g.dot",
    ]);
    assert_exit(&out, 2, "cannot write `/nonexistent-dir/g.dot`");
    let out = grundy(&["graph", "examples/kayles.game", "kayles(3)", "-o", "g.pdf"]);
    assert_exit(&out, 2, "must end in `.dot`, `.svg` or `.png`");
    let out = plot_to(
        "examples/kayles.game",
        "kayles",
        "0..=10",
        "p.svg",
        &["--size", "9x9"],
    );
    assert_exit(&out, 2, "from 200 to 4096 pixels");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(!root.join("p.gif").exists() && !root.join("g.pdf").exists());
}

#[test]
fn graph_errors_point_into_the_expression() {
    let out = grundy(&["graph", "examples/kayles.game", "kayle(3)"]);
    assert_exit(&out, 3, "did you mean `kayles`?");
    let out = grundy(&["graph", "examples/kayles.game", "3 + 4"]);
    assert_exit(&out, 3, "the argument of `graph`");
}

#[test]
fn untrusted_source_plots_no_files() {
    use grundy::sandbox::{Mode, on_interpreter_stack, run};
    let source = "game g(n) {\n    move take(k in 1..=n) -> g(n - k)\n}\nplot(g, 0..=3)\n";
    let ran = on_interpreter_stack(move || run(source, &Mode::Run));
    assert_eq!(ran.code, 3);
    assert!(
        ran.diagnostics.contains("`plot` cannot write files here"),
        "{}",
        ran.diagnostics
    );
    assert!(!Path::new("g.svg").exists());
}
