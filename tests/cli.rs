//! The command line as a user meets it: commands, exit codes, stdin, and
//! the printed output of the language overview.

mod common;

use common::{grundy, text};
use std::process::{Command, Stdio};

#[test]
fn the_overview_prints_what_the_language_promises() {
    let out = grundy(&["run", "examples/spec.game"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout));
}

#[test]
fn eval_loads_files_then_prints_one_expression() {
    let out = grundy(&[
        "eval",
        "-e",
        "[value(kayles(n)) for n in 0..6]",
        "examples/spec.game",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.ends_with("[0, 1, 2, 3, 1, 4]\n"), "{stdout}");
    let out = grundy(&["eval", "-e", "2 ** 10"]);
    assert_eq!(text(&out.stdout), "1024\n");
}

#[test]
fn eval_rejects_statements() {
    let out = grundy(&["eval", "-e", "let x = 3"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("`-e` takes one expression"));
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let out = grundy(&["run", "examples/no-such-file.game"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read `examples/no-such-file.game`"));
}

#[test]
fn bad_arguments_are_a_usage_error() {
    assert_eq!(grundy(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(grundy(&["run"]).status.code(), Some(2));
    assert_eq!(
        grundy(&["run", "--max-states", "lots", "x.game"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn help_is_everywhere() {
    for args in [
        &["--help"][..],
        &["run", "--help"],
        &["check", "--help"],
        &["eval", "--help"],
    ] {
        let out = grundy(args);
        assert_eq!(out.status.code(), Some(0));
        assert!(text(&out.stdout).contains("Usage: grundy"), "{args:?}");
    }
}

#[test]
fn a_dash_reads_the_script_from_stdin() {
    let out = common::run_stdin(
        "game nim(n) {\n  move take(k in 1..=n) -> nim(n - k)\n}\nwinner(nim(1) + nim(4) + nim(5))\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "second\n");
}

#[test]
fn later_files_see_earlier_definitions() {
    let dir = std::env::temp_dir().join(format!("grundy-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("rules.game");
    let query = dir.join("query.game");
    std::fs::write(
        &rules,
        "game nim(n) {\n  move take(k in 1..=n) -> nim(n - k)\n}\n",
    )
    .unwrap();
    std::fs::write(
        &query,
        "expect value(nim(5) + nim(3)) == 6\nvalue(nim(9))\n",
    )
    .unwrap();
    let out = grundy(&["run", rules.to_str().unwrap(), query.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "9\n");
    let out = grundy(&["check", rules.to_str().unwrap(), query.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn colors_are_off_without_a_terminal_and_with_no_color() {
    let out = grundy(&["run", "tests/ui/type_error.game"]);
    assert!(!text(&out.stderr).contains('\x1b'));
    let out = grundy(&["run", "--color", "always", "tests/ui/type_error.game"]);
    assert!(text(&out.stderr).contains('\x1b'));
}

#[test]
fn debug_graph_lists_every_position_with_its_value() {
    let out = grundy(&["run", "--debug", "graph", "examples/take_1_to_3.game"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("take3(5) = 1\n"), "{stdout}");
}

#[test]
fn output_printed_before_an_error_comes_before_it() {
    // stdout and stderr into one pipe, as a terminal shows them.
    let mut child = Command::new("sh")
        .args([
            "-c",
            &format!(
                "printf '1\\n1/0\\n' | {} run - 2>&1",
                env!("CARGO_BIN_EXE_grundy")
            ),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut merged = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut merged).unwrap();
    child.wait().unwrap();
    assert!(merged.starts_with("1\nError: division by zero"), "{merged}");
}

#[test]
fn tables_print_sequences_in_rows_of_ten_and_other_arguments_one_per_row() {
    let mut shown = String::new();
    for expr in [
        "table(take3, 5..=27)",
        "table(take3, [0, 5, 10, 15])",
        "table(take3, 0..0)",
        "table(bachet, 1..=3, 0..=12)",
    ] {
        let out = grundy(&["eval", "-e", expr, "examples/take_1_to_3.game"]);
        assert_eq!(out.status.code(), Some(0), "{expr}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        // Only the last lines belong to the expression; the file prints first.
        let lines: Vec<&str> = stdout.lines().collect();
        let start = lines
            .iter()
            .rposition(|l| l.starts_with("take3(") || l.starts_with("bachet("))
            .unwrap();
        shown.push_str(&format!("> {expr}\n{}\n", lines[start..].join("\n")));
    }
    insta::assert_snapshot!(shown);
}

/// A table whose values run past those whose cells are written once
/// (up to 1023): every cell right-aligned alike, either way.
#[test]
fn table_cells_of_small_and_large_values_line_up() {
    let rules = "game nim(n) {\n move take(k in 1..=n) -> nim(n - k)\n}\ntable(nim, 1015..1035)\n";
    let path = std::env::temp_dir().join(format!("grundy-cells-{}.game", std::process::id()));
    std::fs::write(&path, rules).unwrap();
    let out = grundy(&["run", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut want = String::from("nim(n), n = 1015..=1034\n   n |");
    for i in 0..10 {
        want.push_str(&format!(" {:>4}", format!("+{i}")));
    }
    for row in [1015, 1025] {
        want.push_str(&format!("\n{row:>4} |"));
        for v in row..row + 10 {
            want.push_str(&format!(" {v:>4}"));
        }
    }
    assert_eq!(text(&out.stdout).trim_end(), want);
}

#[test]
fn explain_says_how_each_game_runs_and_what_slows_it() {
    let out = grundy(&["run", "--explain", "tests/explain/spellings.game"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout));
}

#[test]
fn explain_says_when_the_item_limit_turns_the_compiled_rules_off() {
    let script = "examples/take_1_to_3.game";
    let low = grundy(&["run", "--max-items", "1000", "--explain", script]);
    assert_eq!(low.status.code(), Some(0), "{}", text(&low.stderr));
    let said = "compiled rules off: `--max-items 1000` is below 65536";
    assert!(text(&low.stdout).contains(said), "{}", text(&low.stdout));
    let usual = grundy(&["run", "--explain", script]);
    assert!(!text(&usual.stdout).contains("compiled rules off"));
}
