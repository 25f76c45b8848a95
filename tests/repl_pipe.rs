//! The REPL on a pipe: entries read from stdin with no prompts or colors.
//! Each tests/repl/*.txt is a transcript as a user would see it: lines
//! after `grundy> `, `   ...> ` and `  play> ` (a game's prompt) are typed,
//! every other line is what the REPL prints (stdout and stderr, in
//! order). The README's ```console
//! transcripts are checked the same way, so they cannot go stale. A line
//! `$ grundy ARGS` gives the command, `# exit N` the exit code expected.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `grundy ARGS` with `input` piped in and stderr joined to stdout.
fn pipe(args: &[&str], input: &str) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("exec \"$0\" \"$@\" 2>&1")
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("GRUNDY_HISTORY", "");
    common::with_stdin(cmd, input)
}

/// A transcript: the command's arguments, what is typed, what is printed,
/// and the exit code expected.
struct Transcript {
    args: Vec<String>,
    input: String,
    output: String,
    exit: i32,
}

fn transcript(text: &str) -> Transcript {
    let mut t = Transcript {
        args: vec!["repl".into()],
        input: String::new(),
        output: String::new(),
        exit: 0,
    };
    for line in text.lines() {
        if let Some(command) = line.strip_prefix("$ grundy") {
            t.args = command.split_whitespace().map(String::from).collect();
        } else if let Some(code) = line.strip_prefix("# exit ") {
            t.exit = code.trim().parse().expect("`# exit N`");
        } else if let Some(typed) = ["grundy> ", "   ...> ", "  play> "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
        {
            t.input.push_str(typed);
            t.input.push('\n');
        } else if line == "grundy>" {
            t.input.push('\n');
        } else if line.starts_with("grundy ") && line.contains("type :help") {
            // The greeting: printed on a terminal only.
        } else {
            t.output.push_str(line);
            t.output.push('\n');
        }
    }
    t
}

/// The process's memory differs from run to run: transcripts show `[..]`.
fn normalise(printed: &str) -> String {
    const RSS: &str = "process memory (resident): ";
    printed
        .lines()
        .map(|l| match l.starts_with(RSS) {
            true => format!("{RSS}[..]\n"),
            false => format!("{l}\n"),
        })
        .collect()
}

fn check(name: &str, text: &str) -> Result<(), String> {
    let t = transcript(text);
    let args: Vec<&str> = t.args.iter().map(String::as_str).collect();
    let out = pipe(&args, &t.input);
    let printed = normalise(&common::text(&out.stdout));
    if printed == t.output && out.status.code() == Some(t.exit) {
        return Ok(());
    }
    Err(format!(
        "{name}: exit {:?} (expected {})\n--- expected\n{}--- printed\n{printed}",
        out.status.code(),
        t.exit,
        t.output
    ))
}

#[test]
fn transcripts() {
    let files = common::files("tests/repl", ".txt");
    assert!(files.len() >= 5, "only {} transcripts", files.len());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| check(f, &std::fs::read_to_string(root.join(f)).unwrap()).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_readme_transcript_is_true() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match &mut current {
            None if line.trim_start() == "```console" => current = Some(String::new()),
            Some(_) if line.trim_start().starts_with("```") => blocks.push(current.take().unwrap()),
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    let sessions: Vec<&String> = blocks.iter().filter(|b| b.contains("grundy> ")).collect();
    assert!(!sessions.is_empty(), "README.md shows no REPL session");
    for block in sessions {
        check("README.md", block).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The README's pipe example prints the answer and nothing else: the
/// results of the file loaded first are not shown.
#[test]
fn the_readme_pipe_example_prints_only_its_answer() {
    let out = pipe(&["repl", "examples/nim.game"], "value(nim(3))\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(common::text(&out.stdout), "3\n");
    let shown = pipe(&["repl", "-v", "examples/nim.game"], "value(nim(3))\n");
    let printed = common::text(&shown.stdout);
    assert!(printed.lines().count() > 1, "{printed}");
    assert_eq!(printed.lines().last(), Some("3"), "{printed}");
}

#[test]
fn command_words_without_their_colon_run_with_a_note() {
    let out = pipe(&["repl"], "help\n1 + 1\nexit\n2 + 2\n");
    let printed = common::text(&out.stdout);
    assert!(
        printed.starts_with("`help` is the command `:help` (commands start with `:`)\nCommands:\n"),
        "{printed}"
    );
    assert!(
        printed.ends_with("\n2\n`exit` is the command `:exit` (commands start with `:`)\n"),
        "{printed}"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn no_command_at_all_starts_the_repl() {
    let out = pipe(&[], "1 + 2\n:quit\n3 + 4\n");
    assert_eq!(common::text(&out.stdout), "3\n");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_unreadable_file_is_a_usage_error() {
    let out = pipe(&["repl", "no/such.game"], "1\n");
    let printed = common::text(&out.stdout);
    assert!(printed.contains("cannot read `no/such.game`"), "{printed}");
    assert!(printed.ends_with("1\n"), "the session goes on: {printed}");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn input_that_ends_inside_an_entry_is_reported() {
    let out = pipe(&["repl"], "game g(n) {\n  move m -> g(n - 1)\n");
    let printed = common::text(&out.stdout);
    assert!(printed.contains("syntax error"), "{printed}");
    assert!(printed.contains("<stdin>:"), "{printed}");
    assert_eq!(out.status.code(), Some(3));
}

/// The REPL on a pipe in `dir`, with stdout read line by line as it comes.
struct Live {
    child: std::process::Child,
    lines: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

impl Live {
    fn start(dir: &std::path::Path) -> Live {
        std::fs::create_dir_all(dir).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
        Live { child, lines }
    }

    /// Sends an entry that prints nothing.
    fn send(&mut self, entry: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{entry}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends an entry and returns the next line printed.
    fn ask(&mut self, entry: &str) -> String {
        self.send(entry);
        self.lines.next().unwrap().unwrap()
    }
}

#[test]
fn reload_reads_the_files_again() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("repl-reload");
    let rules =
        |max: u32| format!("game g(n) {{\n  move m(k in 1..={max}) if k <= n -> g(n - k)\n}}\n");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("g.game"), rules(2)).unwrap();
    let mut repl = Live::start(&dir);
    repl.send(":load g.game");
    assert_eq!(repl.ask("value(g(3))"), "0", "takes of 1 or 2: 3 % 3");
    // The user edits the file, then reloads it.
    std::fs::write(dir.join("g.game"), rules(3)).unwrap();
    repl.send(":reload");
    assert_eq!(repl.ask("value(g(3))"), "3", "takes of 1 to 3: 3 % 4");
    drop(repl.child.stdin.take());
    let out = repl.child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
}

#[test]
fn reload_with_nothing_loaded_says_so() {
    let out = pipe(&["repl"], ":reload\n");
    let printed = common::text(&out.stdout);
    assert!(printed.contains("no file has been loaded yet"), "{printed}");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn time_prints_how_long_each_entry_took() {
    let printed = common::text(&pipe(&["repl"], ":time\n1 + 1\n:time\n2 + 2\n").stdout);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines[0], "timing on");
    assert_eq!(lines[1], "2");
    let time = lines[2].strip_prefix("time: ").expect(&printed);
    let (number, unit) = time.split_once(' ').expect(&printed);
    assert!(
        number.parse::<f64>().is_ok() && ["µs", "ms", "s"].contains(&unit),
        "{time}"
    );
    assert_eq!(&lines[3..], ["timing off", "4"]);
}
