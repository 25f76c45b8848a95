//! Every example is a test: `grundy run` on it must exit 0, which means
//! every `expect` in it held and nothing went wrong.

mod common;

#[test]
fn every_example_runs_and_all_its_expectations_hold() {
    let examples = common::files("examples", ".game");
    assert!(
        examples.len() >= 15,
        "expected at least 15 examples, found {}",
        examples.len()
    );
    let mut failures = Vec::new();
    for example in &examples {
        let out = common::grundy(&["run", example]);
        if out.status.code() != Some(0) {
            failures.push(format!(
                "{example}: exit {:?}\n{}",
                out.status.code(),
                common::text(&out.stderr)
            ));
        } else if !out.stderr.is_empty() {
            failures.push(format!(
                "{example}: wrote to stderr\n{}",
                common::text(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_language_test_script_runs_clean() {
    for script in common::files("tests/lang", ".game") {
        let out = common::grundy(&["run", &script]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{script}: {}",
            common::text(&out.stderr)
        );
    }
}

#[test]
fn every_example_passes_check() {
    for example in common::files("examples", ".game") {
        let out = common::grundy(&["check", &example]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{example}: {}",
            common::text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "check prints no results");
    }
}
