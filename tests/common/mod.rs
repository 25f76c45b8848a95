//! Helpers shared by the integration tests: running the real binary.

pub mod differ;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `grundy` with `args` in the crate root, colors off, no stdin.
#[allow(dead_code)] // not every test file runs the binary this way
pub fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the grundy binary runs")
}

/// Runs `grundy run -` with `script` on its standard input, colors off.
#[allow(dead_code)] // not every test file feeds scripts on stdin
pub fn run_stdin(script: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args(["run", "-"]).env("NO_COLOR", "1");
    with_stdin(cmd, script)
}

/// Runs `cmd` with `input` on its standard input; captures what it prints.
#[allow(dead_code)] // not every test file feeds standard input
pub fn with_stdin(mut cmd: Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// The files in `dir` (relative to the crate root) ending in `ext`, sorted.
#[allow(dead_code)] // not every test file lists files
pub fn files(dir: &str, ext: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<String> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(ext))
        .map(|name| format!("{dir}/{name}"))
        .collect();
    out.sort();
    out
}

/// What `grundy run --explain -` prints for `script`: how each game's
/// rules run.
#[allow(dead_code)] // not every test file asks
pub fn explained(script: &str) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args(["run", "--explain", "-"]).env("NO_COLOR", "1");
    text(&with_stdin(cmd, script).stdout)
}

/// Output bytes as text.
#[allow(dead_code)] // not every test file reads output bytes
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Which of the evaluator's paths a session takes: the interpreter only,
/// the kernels as well, or the kernels' machine code too.
#[allow(dead_code)] // not every test file compares the paths
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Engine {
    Interpreter,
    Kernels,
    Native,
}

#[allow(dead_code)]
impl Engine {
    pub const ALL: [Engine; 3] = [Engine::Interpreter, Engine::Kernels, Engine::Native];

    pub fn apply(self, machine: &mut grundy::runtime::Machine) {
        machine.use_kernels = self != Engine::Interpreter;
        machine.use_native = self == Engine::Native;
        machine.native_after = 0;
    }

    /// Runs `text` in a session of its own on this path, which must not
    /// fail: the session and what it printed.
    pub fn run(self, name: &str, text: &str) -> (grundy::session::Session, String) {
        use grundy::SharedBuffer;
        let (out, err) = (SharedBuffer::default(), SharedBuffer::default());
        let mut session =
            grundy::session::Session::new(Box::new(out.clone()), Box::new(err.clone()));
        self.apply(&mut session.machine);
        let outcome = session.run(name, text);
        let printed = |b: &SharedBuffer| String::from_utf8(b.0.borrow().clone()).unwrap();
        assert_eq!(outcome.error, None, "{}", printed(&err));
        let out = printed(&out);
        (session, out)
    }

    /// How many positions of games `0..games` in `session`'s graph are
    /// hashed rather than dense.
    pub fn hashed(session: &grundy::session::Session, games: u32) -> usize {
        let graph = &session.machine.graph;
        (0..games)
            .flat_map(|game| graph.nodes(game))
            .filter(|(node, _)| node.index >= grundy::graph::DENSE_END)
            .count()
    }
}
