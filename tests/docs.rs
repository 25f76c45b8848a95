//! Code blocks in the documentation are tests: every ```grundy block of
//! README.md and docs/language.md runs as a script and must exit 0, so its
//! `expect` lines hold and the docs cannot go stale.

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
