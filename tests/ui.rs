//! Golden tests of what users see when they make mistakes.
//!
//! Each `tests/ui/NAME.game` is run through the real binary (colors off)
//! and its exit code, stdout and stderr are compared with
//! `tests/ui/NAME.out`. A first line `# args: check` runs another command
//! (the file's path is appended). To regenerate every `.out` after an
//! intended change, run `GRUNDY_BLESS=1 cargo test --test ui` and review
//! the diff.

mod common;

fn render(file: &str) -> String {
    let source = std::fs::read_to_string(file).unwrap();
    let mut args: Vec<&str> = match source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# args:"))
    {
        Some(words) => words.split_whitespace().collect(),
        None => vec!["run"],
    };
    args.push(file);
    let out = common::grundy(&args);
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().map_or("signal".into(), |c| c.to_string()),
        common::text(&out.stdout),
        common::text(&out.stderr)
    )
}

#[test]
fn diagnostics_match_their_golden_files() {
    let bless = std::env::var_os("GRUNDY_BLESS").is_some();
    let cases = common::files("tests/ui", ".game");
    assert!(cases.len() >= 10, "expected at least 10 ui cases");
    let mut failures = Vec::new();
    for case in &cases {
        let actual = render(case);
        let golden = case.replace(".game", ".out");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&golden);
        if bless {
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if actual != expected {
            failures.push(format!(
                "{case}\n--- expected\n{expected}\n--- actual\n{actual}"
            ));
        }
        assert!(
            actual.starts_with("exit: 0")
                || actual.contains("--- stderr\n") && !actual.ends_with("--- stderr\n"),
            "{case}: a mistake must produce a diagnostic"
        );
    }
    assert!(
        failures.is_empty(),
        "{} golden files differ (GRUNDY_BLESS=1 regenerates):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
