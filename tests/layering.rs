//! The modules of the library form a pipeline, so their dependencies must
//! not loop: this test reads `src/**/*.rs`, collects each top-level
//! module's `crate::x` references (outside comments and `#[cfg(test)]`
//! modules, which may use the whole crate) and fails on any cycle between
//! top-level modules. `docs/architecture.md` draws the graph it checks.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file that ships: comments dropped, and everything from a
/// `#[cfg(test)]` module on (test modules come last in every file).
fn shipped_code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut code = String::new();
    for (i, line) in lines.iter().enumerate() {
        let next = lines.get(i + 1).map_or("", |l| l.trim_start());
        if line.trim() == "#[cfg(test)]" && next.starts_with("mod ") {
            break;
        }
        code.push_str(line.split("//").next().unwrap());
        code.push('\n');
    }
    code
}

/// The top-level modules `code` refers to as `crate::name`.
fn references(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if modules.contains(&name) {
            found.insert(name);
        }
    }
    found
}

/// Each top-level module of `src` with the top-level modules it uses.
fn module_graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let top = |path: &Path| -> Option<String> {
        let rel = path.strip_prefix(src).unwrap();
        let first = rel.components().next()?.as_os_str().to_str()?;
        let name = first.strip_suffix(".rs").unwrap_or(first);
        (!matches!(name, "lib" | "main")).then(|| name.to_string())
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top(f)).collect();
    let mut graph: Graph = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for file in &files {
        let Some(module) = top(file) else { continue };
        // A file holding only a module's tests (`#[cfg(test)] mod tests;`),
        // or in a directory of them (`tests/mod.rs` and its children).
        let in_tests =
            (file.strip_prefix(src).unwrap().components()).any(|c| c.as_os_str() == "tests");
        if in_tests || file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = shipped_code(&fs::read_to_string(file).unwrap());
        for used in references(&code, &modules) {
            if used != module {
                graph.get_mut(&module).unwrap().insert(used);
            }
        }
    }
    graph
}

/// A cycle of `graph`, as the modules along it with the first repeated.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit<'g>(
        node: &'g str,
        graph: &'g Graph,
        done: &mut BTreeSet<&'g str>,
        path: &mut Vec<&'g str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut cycle: Vec<String> = path[at..].iter().map(|n| n.to_string()).collect();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut done, &mut Vec::new()))
}

fn show(graph: &Graph) -> String {
    graph
        .iter()
        .map(|(m, uses)| {
            format!(
                "{m} -> {}\n",
                Vec::from_iter(uses.iter().cloned()).join(", ")
            )
        })
        .collect()
}

#[test]
fn top_level_modules_do_not_import_each_other_in_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    assert!(graph.contains_key("runtime") && graph.contains_key("syntax"));
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "the modules import each other in a cycle: {}\n\nthe module graph:\n{}",
            cycle.join(" -> "),
            show(&graph)
        );
    }
}

#[test]
fn the_front_end_needs_nothing_of_the_back_end() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    for front in [
        "span", "diag", "syntax", "builtins", "check", "defs", "ir", "lower", "graph",
    ] {
        let reach = reachable(&graph, front);
        for back in ["runtime", "session", "repl", "sandbox"] {
            assert!(
                !reach.contains(back),
                "`{front}` reaches `{back}`\n\nthe module graph:\n{}",
                show(&graph)
            );
        }
    }
}

fn reachable<'g>(graph: &'g Graph, from: &'g str) -> BTreeSet<&'g str> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from];
    while let Some(node) = todo.pop() {
        for next in graph.get(node).into_iter().flatten() {
            if seen.insert(next.as_str()) {
                todo.push(next);
            }
        }
    }
    seen
}

#[test]
fn the_checker_sees_a_cycle_and_skips_comments_and_tests() {
    let modules: BTreeSet<String> = ["a", "b", "c"].map(String::from).into();
    let code = shipped_code(
        "use crate::b::X; // crate::c\n/// [`crate::c`]\nfn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::c;\n}\n",
    );
    assert_eq!(references(&code, &modules), ["b".to_string()].into());
    let mut graph: Graph = Graph::new();
    graph.insert("a".into(), ["b".to_string()].into());
    graph.insert("b".into(), ["c".to_string()].into());
    graph.insert("c".into(), BTreeSet::new());
    assert_eq!(find_cycle(&graph), None);
    graph.get_mut("c").unwrap().insert("a".into());
    assert_eq!(
        find_cycle(&graph).unwrap(),
        ["a", "b", "c", "a"].map(String::from)
    );
}
