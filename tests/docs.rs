//! Code blocks in the documentation are tests: every ```grundy block of
//! README.md and docs/language.md runs as a script and must exit 0, so its
//! `expect` lines hold and the docs cannot go stale. Every command line
//! of their ```sh blocks runs too, against the binary built for the tests.

mod common;

/// The ```grundy blocks of a markdown file, with the line each starts on.
fn blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start();
        match &mut current {
            None if fence.starts_with("```grundy") => current = Some((i + 1, String::new())),
            Some(_) if fence.starts_with("```") => out.push(current.take().unwrap()),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

fn check_file(path: &str, at_least: usize) {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let markdown = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
    let blocks = blocks(&markdown);
    assert!(
        blocks.len() >= at_least,
        "{path}: expected at least {at_least} grundy blocks, found {}",
        blocks.len()
    );
    let failures: Vec<String> = blocks
        .iter()
        .filter_map(|(line, script)| {
            let out = common::run_stdin(script);
            (out.status.code() != Some(0)).then(|| {
                format!(
                    "{path}:{line}: exit {:?}\n{}",
                    out.status.code(),
                    common::text(&out.stderr)
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn readme_blocks_run() {
    check_file("README.md", 1);
}

#[test]
fn language_reference_blocks_run() {
    check_file("docs/language.md", 30);
}

/// The lines of the ```sh blocks of a markdown file that run grundy
/// (`grundy ...`, `cargo run ... -- ...`, or a pipe or `VAR=x` before
/// them), with their line numbers.
fn command_lines(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start();
        if fence.starts_with("```") {
            in_sh = !in_sh && fence == "```sh";
            continue;
        }
        let runs_grundy = line
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .any(|w| w == "grundy" || w == "cargo");
        if in_sh && runs_grundy && !line.trim_start().starts_with("cargo test") {
            out.push((i + 1, line.to_string()));
        }
    }
    out
}

/// A command line as the shell runs it here: `cargo run [--release] --`
/// is the binary under test, and the placeholders of a synopsis
/// (`FILE...`, `EXPR`) are an example and an expression. `[repl]` gives two
/// lines, with and without the word.
fn runnable(line: &str) -> Vec<String> {
    let line = line
        .replace("cargo run --release --", "grundy")
        .replace("cargo run --", "grundy")
        .replace("[FILE...]", "examples/nim.game")
        .replace("FILE...", "examples/nim.game")
        .replace("EXPR", "'value(nim(3))'");
    match line.contains("[repl]") {
        true => vec![line.replace("[repl] ", ""), line.replace("[repl]", "repl")],
        false => vec![line],
    }
}

fn check_commands(path: &str, at_least: usize) {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let markdown = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines = command_lines(&markdown);
    assert!(lines.len() >= at_least, "{path}: found only {lines:?}");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_grundy"));
    let path_var = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for (number, line) in lines {
        for command in runnable(&line) {
            let out = std::process::Command::new("sh")
                .args(["-c", &command])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .env("PATH", &path_var)
                .env("GRUNDY_HISTORY", "")
                .stdin(std::process::Stdio::null())
                .output()
                .expect("sh runs");
            let stderr = common::text(&out.stderr);
            if out.status.code() != Some(0) || stderr.contains("unrecognized") {
                failures.push(format!(
                    "{path}:{number}: `{command}` exited {:?}\n{stderr}",
                    out.status.code()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn readme_command_lines_run() {
    check_commands("README.md", 1);
}

#[test]
fn language_reference_command_lines_run() {
    check_commands("docs/language.md", 9);
}
