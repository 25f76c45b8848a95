//! Fuzz tests: bad input never crashes grundy. Random token sequences and
//! random edits of the examples go through the pipeline as the binary runs
//! it (`grundy::sandbox`, shared with the cargo-fuzz target in `fuzz/`),
//! on a thread with the binary's stack and within small limits. Each must
//! end with an exit code the README documents, with a diagnostic when it
//! failed, and never panic. `PROPTEST_CASES=N` runs N cases of each.
//! Every built-in is also called with arguments of every type, and the
//! REPL's commands used, through `grundy::sandbox::calls`.

use grundy::builtins::Builtin;
use grundy::repl::{INTERNAL_ERROR, Repl};
use grundy::sandbox::calls::{PRELUDE, SAMPLES, call, program};
use grundy::sandbox::{Mode, engines_disagree, on_interpreter_stack, run, small_limits};
use grundy::session::Session;
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::LazyLock;

/// The cases of each property: few, because the tests run in debug
/// builds, unless `PROPTEST_CASES` says otherwise. Failures are not
/// written to files: the failing input is in the message.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Runs `text` in each mode on the interpreter's stack; `Err` names the
/// first mode that ended badly. A panic fails the test by itself.
fn survives(text: String, modes: &'static [Mode]) -> Result<(), TestCaseError> {
    let problems = on_interpreter_stack(move || {
        modes
            .iter()
            .filter_map(|mode| run(&text, mode).problem(mode))
            .collect::<Vec<_>>()
    });
    match problems.first() {
        Some(problem) => Err(TestCaseError::fail(problem.clone())),
        None => Ok(()),
    }
}

/// Keywords, operators, brackets and separators of the language, builtins,
/// REPL commands, and a few longer pieces that make deeper programs likelier.
const TOKENS: &[&str] = &[
    "game",
    "move",
    "fn",
    "let",
    "expect",
    "if",
    "then",
    "else",
    "for",
    "in",
    "and",
    "or",
    "not",
    "not in",
    "true",
    "false",
    "->",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "<<",
    ">>",
    "..",
    "..=",
    "|",
    "^",
    "&",
    "+",
    "-",
    "*",
    "**",
    "/",
    "%",
    "~",
    "=",
    ",",
    ":",
    ";",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "\n",
    "\\\n",
    "len",
    "min",
    "max",
    "abs",
    "sum",
    "all",
    "any",
    "sorted",
    "reversed",
    "enumerate",
    "zip",
    "list",
    "set",
    "str",
    "mex",
    "print",
    "value",
    "winner",
    "moves",
    "options",
    "table",
    ":games",
    ":show g",
    ":stats",
    ":clear",
    ":time",
    ":help",
    "game g(n) {",
    "move m(k in 1..=n) if k <= n -> g(n - k)",
    "fn f(x) =",
    "let P =",
    "expect value(",
    "[k for k in 0..n if",
    "*3",
    "g(5) + g(3)",
];

const NAMES: &[&str] = &["n", "k", "x", "g", "f", "P", "h", "_", "nim", "value2"];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "10",
    "63",
    "64",
    "100",
    "1_000",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999",
];

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => select(TOKENS).prop_map(String::from),
        3 => select(NAMES).prop_map(String::from),
        3 => select(NUMBERS).prop_map(String::from),
        1 => r#""([a-z ]|\\.|\\)?{0,4}"?"#,
        1 => "#[ a-z(\"]{0,6}\n",
    ]
}

/// Tokens joined by blanks, newlines or nothing.
fn token_source() -> impl Strategy<Value = String> {
    let joined = (token(), select(&[" ", " ", "\n", ""][..]));
    prop::collection::vec(joined, 0..48).prop_map(|parts| {
        parts
            .into_iter()
            .flat_map(|(token, gap)| [token, gap.to_string()])
            .collect()
    })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_tokens_never_crash(text in token_source()) {
        survives(text, &[Mode::Check, Mode::Run, Mode::Repl])?;
    }
}

/// Every example, read when the tests run.
static EXAMPLES: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let mut examples: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("examples/ can be listed")
        .map(|entry| entry.expect("examples/ can be read").path())
        .filter(|path| path.extension().is_some_and(|e| e == "game"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("an example can be read");
            (path.display().to_string(), text)
        })
        .collect();
    examples.sort();
    assert!(!examples.is_empty(), "no examples in {dir}");
    examples
});

/// Where an edit applies: `n` bytes, or `n` tokens (names, numbers,
/// strings, comments, operators; not blanks). It starts `place / 2^64` of
/// the way along the text, or along its tokens.
#[derive(Clone, Debug)]
enum Span {
    Bytes(u64, usize),
    Tokens(u64, usize),
}

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    Delete(Span),
    Duplicate(Span),
    Swap(Span, Span),
    Replace(Span, String),
    Insert(Span, String),
    /// The token at a place replaced by another of its kind (a number by
    /// a number, a name by a name, an operator by an operator), the
    /// second number picking which: it keeps the text likelier to parse.
    Respell(u64, u64),
}

fn span() -> impl Strategy<Value = Span> {
    let n = prop_oneof![1..=3usize, 1..=40usize];
    prop_oneof![
        (any::<u64>(), n).prop_map(|(at, n)| Span::Bytes(at, n)),
        (any::<u64>(), 1..=4usize).prop_map(|(at, n)| Span::Tokens(at, n)),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => span().prop_map(Edit::Delete),
        1 => span().prop_map(Edit::Duplicate),
        1 => (span(), span()).prop_map(|(a, b)| Edit::Swap(a, b)),
        1 => (span(), token()).prop_map(|(at, t)| Edit::Replace(at, t)),
        1 => (span(), token()).prop_map(|(at, t)| Edit::Insert(at, t)),
        3 => (any::<u64>(), any::<u64>()).prop_map(|(at, pick)| Edit::Respell(at, pick)),
    ]
}

/// `place / 2^64` of `len`.
fn fit(place: u64, len: usize) -> usize {
    ((len as u128 * u128::from(place)) >> 64) as usize
}

const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "%", "**", "^", "&", "|", "<<", ">>", "==", "!=", "<", "<=", ">", ">=",
    "..", "..=", " and ", " or ", " in ", " not in ",
];

/// The byte ranges of the tokens of `text`, roughly as grundy reads them.
fn tokens(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let mut end = start + c.len_utf8();
        let mut take_while = |f: &dyn Fn(char) -> bool, end: &mut usize| {
            while let Some(&(i, c)) = chars.peek().filter(|(_, c)| f(*c)) {
                *end = i + c.len_utf8();
                chars.next();
            }
        };
        match c {
            c if c.is_whitespace() => continue,
            '#' => take_while(&|c| c != '\n', &mut end),
            '"' => {
                take_while(&|c| c != '"' && c != '\n', &mut end);
                end += chars.next_if(|(_, c)| *c == '"').map_or(0, |_| 1);
            }
            c if c.is_alphanumeric() || c == '_' => {
                take_while(&|c| c.is_alphanumeric() || c == '_', &mut end)
            }
            c if "=!<>.*-".contains(c) => take_while(&|c| "=<>.*>".contains(c), &mut end),
            _ => {}
        }
        out.push(start..end);
    }
    out
}

impl Edit {
    fn apply(&self, text: &str) -> String {
        let tokens = tokens(text);
        let range = |span: &Span| match *span {
            Span::Bytes(place, n) => {
                let start = text.floor_char_boundary(fit(place, text.len() + 1));
                start..text.floor_char_boundary(start + n)
            }
            Span::Tokens(_, _) if tokens.is_empty() => 0..0,
            Span::Tokens(place, n) => {
                let first = fit(place, tokens.len());
                let last = (first + n).min(tokens.len()) - 1;
                tokens[first].start..tokens[last].end
            }
        };
        let splice = |r: std::ops::Range<usize>, with: &str| {
            format!("{}{with}{}", &text[..r.start], &text[r.end..])
        };
        match self {
            Edit::Delete(span) => splice(range(span), ""),
            Edit::Duplicate(span) => {
                let r = range(span);
                splice(r.end..r.end, &format!(" {}", &text[r]))
            }
            Edit::Swap(a, b) => {
                let (mut a, mut b) = (range(a), range(b));
                if b.start < a.start {
                    std::mem::swap(&mut a, &mut b);
                }
                if a.end > b.start {
                    return text.to_string();
                }
                let (head, middle) = (&text[..a.start], &text[a.end..b.start]);
                let (first, second) = (&text[a], &text[b.clone()]);
                format!("{head}{second}{middle}{first}{}", &text[b.end..])
            }
            Edit::Replace(span, token) => splice(range(span), token),
            Edit::Insert(span, token) => {
                let at = range(span).start;
                splice(at..at, &format!(" {token} "))
            }
            Edit::Respell(_, _) if tokens.is_empty() => text.to_string(),
            Edit::Respell(place, pick) => {
                let r = tokens[fit(*place, tokens.len())].clone();
                let kind: &[&str] = match text[r.clone()].chars().next() {
                    Some(c) if c.is_ascii_digit() => NUMBERS,
                    Some(c) if c.is_alphabetic() || c == '_' => NAMES,
                    Some(c) if "+-*/%^&|<>=.".contains(c) => OPERATORS,
                    _ => return text.to_string(),
                };
                splice(r, kind[fit(*pick, kind.len())])
            }
        }
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn edited_examples_never_crash(
        example in 0..EXAMPLES.len(),
        edits in prop::collection::vec(edit(), 1..=3),
    ) {
        let (name, text) = &EXAMPLES[example];
        let text = edits.iter().fold(text.clone(), |text, edit| edit.apply(&text));
        survives(text.clone(), &[Mode::Run])
            .map_err(|e| TestCaseError::fail(format!("{name} edited:\n{text}\n{e}")))?;
        // Edited games are the likeliest to reach the compiled rules'
        // corners: the interpreter alone must print the same.
        let source = text.clone();
        let disagreement = on_interpreter_stack(move || engines_disagree(&source));
        prop_assert!(disagreement.is_none(), "{} edited:\n{}\n{}", name, text, disagreement.unwrap());
    }
}

#[test]
fn edits_fit_any_text() {
    let text = "ab–c + 12 # x\n\"s\"";
    // Places in sixteenths: of 20 byte places, 1/16 is byte 1, 3/16 byte 3
    // (inside `–`, so 2), 4/16 byte 5, 5/16 byte 6; of the 7 tokens, 0/16
    // is `ab`, 3/16 `–`, 7/16 `+`, 10/16 `12`, 12/16 `# x`, 14/16 `"s"`.
    let at = |n: u64| n << 60;
    let bytes = |n: u64, len: usize| Span::Bytes(at(n), len);
    let token = |n: u64| Span::Tokens(at(n), 1);
    let edits = [
        (Edit::Delete(bytes(1, 2)), "a–c + 12 # x\n\"s\""),
        (Edit::Delete(bytes(3, 1)), text),
        (Edit::Duplicate(bytes(0, 1)), "a ab–c + 12 # x\n\"s\""),
        (Edit::Swap(bytes(0, 1), bytes(4, 1)), "cb–a + 12 # x\n\"s\""),
        (
            Edit::Replace(bytes(3, 3), "x".into()),
            "abxc + 12 # x\n\"s\"",
        ),
        (
            Edit::Insert(bytes(5, 0), "y".into()),
            "ab–c y  + 12 # x\n\"s\"",
        ),
        (Edit::Delete(token(0)), "–c + 12 # x\n\"s\""),
        (Edit::Swap(token(14), token(10)), "ab–c + \"s\" # x\n12"),
        (Edit::Respell(at(10), 0), "ab–c + 0 # x\n\"s\""),
        (
            Edit::Respell(at(7), u64::MAX),
            "ab–c  not in  12 # x\n\"s\"",
        ),
        (Edit::Respell(at(0), 0), "n–c + 12 # x\n\"s\""),
        (Edit::Respell(at(3), 0), text),
        (Edit::Respell(at(12), 0), text),
        (Edit::Respell(at(14), 0), text),
    ];
    assert_eq!(tokens(text).len(), 7);
    for (edit, edited) in edits {
        assert_eq!(edit.apply(text), edited, "{edit:?}");
    }
}

/// The calls of `builtin` with every sample value in each argument place:
/// every pair of samples in the first two places, and a third that varies
/// with them, so that the count stays in the hundreds.
fn calls_of(builtin: Builtin) -> Vec<String> {
    let (least, most) = builtin.arity();
    let most = most.unwrap_or(least + 1).min(3);
    let n = SAMPLES.len();
    let mut calls = Vec::new();
    for arity in least..=most {
        let combinations = n.pow(arity.min(2) as u32);
        for i in 0..combinations {
            let args: Vec<String> = (0..arity)
                .map(|place| match place {
                    0 => SAMPLES[i % n],
                    1 => SAMPLES[i / n],
                    _ => SAMPLES[(i + place) % n],
                })
                .map(String::from)
                .collect();
            calls.push(call(builtin, &args));
        }
    }
    calls
}

/// Each call as a REPL entry in one session with small limits: each must
/// print a value or a diagnostic, and none may panic. Returns the calls
/// that printed nothing.
fn silent_calls(calls: Vec<String>) -> Vec<String> {
    on_interpreter_stack(move || {
        let (out, err) = (
            grundy::SharedBuffer::default(),
            grundy::SharedBuffer::default(),
        );
        let mut session = Session::new(Box::new(out.clone()), Box::new(err.clone()));
        session.machine.limits = small_limits();
        // `plot` with sample arguments must not write into the checkout.
        session.machine.write_files = false;
        let mut repl = Repl::new(session);
        repl.submit(PRELUDE, "prelude", 1);
        assert!(
            err.0.borrow().is_empty(),
            "{}",
            String::from_utf8_lossy(&err.0.borrow())
        );
        let printed = || out.0.borrow().len() + err.0.borrow().len();
        let mut silent = Vec::new();
        for entry in calls {
            let before = printed();
            repl.submit(&entry, "<call>", 1);
            let said = String::from_utf8_lossy(&err.0.borrow()).into_owned();
            assert!(!said.contains(INTERNAL_ERROR), "{entry} panicked: {said}");
            if printed() == before {
                silent.push(entry);
            }
        }
        silent
    })
}

#[test]
fn every_builtin_takes_arguments_of_every_type() {
    for builtin in Builtin::ALL {
        let calls = calls_of(builtin);
        assert!(calls.len() >= SAMPLES.len(), "{}", builtin.name());
        let silent = silent_calls(calls);
        assert!(silent.is_empty(), "printed nothing: {silent:?}");
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// Programs of built-in calls with random typed arguments and REPL
    /// commands, as the fuzz target `calls` makes them.
    #[test]
    fn random_builtin_calls_and_commands_never_crash(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        survives(program(&bytes), &[Mode::Repl])?;
    }
}
