//! Programs that call every built-in with arguments of every type, and use
//! every REPL command, built from bytes: the cargo-fuzz target `calls`
//! (`fuzz/`) and the tests in `tests/fuzz.rs` share them. Random text
//! seldom gets past the parser to `mex("a")` or `table(nim, [[1]])`; these
//! programs always do, so the runtime's corners meet every kind of value.
//!
//! ```
//! let text = grundy::sandbox::calls::program(&[3, 141, 59, 26, 5, 35]);
//! assert!(text.starts_with(grundy::sandbox::calls::PRELUDE));
//! ```

use crate::builtins::Builtin;
use crate::repl::COMMANDS;

/// Games of zero, one and two parameters, one taking a list, a function
/// and a constant, for calls to refer to.
pub const PRELUDE: &str = "\
game nim(n) {
    move take(k in 1..=n) -> nim(n - k)
}
game w(a, b) {
    move left(k in 1..=a) -> w(a - k, b)
    move right(k in 1..=b) -> w(a, b - k)
}
game z() { }
game code(c, n) {
    move take(k in c) if k <= n -> code(c, n - k)
}
fn f(x) = x
let L = [1, 2, 3]
";

/// One value of every type the language has, written as source: integers
/// (small, negative, at the edges of 64 bits), booleans, strings, tuples,
/// lists, sets, ranges, heaps, positions and sums, games, the results of
/// `table` and `moves`, a function's name, and nestings of them.
pub const SAMPLES: &[&str] = &[
    "0",
    "1",
    "-1",
    "7",
    "64",
    "9223372036854775807",
    "-9223372036854775807 - 1",
    "true",
    "false",
    "\"\"",
    "\"ab\"",
    "\"a\\nb\"",
    "()",
    "(1,)",
    "(1, \"a\", [2])",
    "[]",
    "[1, 2, 3]",
    "[[1, 2], [3]]",
    "[true, \"x\", *1]",
    "{}",
    "{3, 1, 2}",
    "{(1, 2), (0, 5)}",
    "0..5",
    "0..=0",
    "-3..3",
    "5..0",
    "0..9223372036854775807",
    "*0",
    "*3",
    "nim(3)",
    "nim(-1)",
    "nim(2) + *1",
    "w(1, 2)",
    "z()",
    "code([1, 2], 4)",
    "nim",
    "w",
    "z",
    "code",
    "f",
    "L",
    "table(nim, 0..4)",
    "moves(nim(2))",
    "options(w(1, 1))",
    "[nim(1), nim(2)]",
    "[(nim, 1), (f, L)]",
];

/// Reads choices from fuzz bytes; past the end every choice is 0, so any
/// input, even empty, makes a program.
struct Choices<'a> {
    bytes: &'a [u8],
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let (first, rest) = self.bytes.split_first().unwrap_or((&0, &[]));
        self.bytes = rest;
        *first
    }

    /// A number below `n` (which is at least 1).
    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    fn pick<'t>(&mut self, items: &[&'t str]) -> &'t str {
        items[self.below(items.len())]
    }

    fn done(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// Entries (lines) of a program at most.
const MAX_ENTRIES: usize = 24;

/// [`PRELUDE`], then REPL entries chosen by `bytes`: calls of built-ins
/// with typed arguments, REPL commands with arguments, and `let`s that
/// later calls use. Each entry is one line, so the REPL reports an error
/// in one and goes on with the next.
pub fn program(bytes: &[u8]) -> String {
    let mut choices = Choices { bytes };
    let mut text = PRELUDE.to_string();
    for _ in 0..MAX_ENTRIES {
        if choices.done() {
            break;
        }
        let entry = match choices.below(8) {
            0 => command(&mut choices),
            1 => format!("let V = {}", value(&mut choices, 2)),
            _ => builtin_call(&mut choices),
        };
        text.push_str(&entry);
        text.push('\n');
    }
    text
}

/// A value: a sample, or (while `depth` lasts) a collection of values, a
/// built-in's result, or `V` (the last `let`).
fn value(choices: &mut Choices, depth: u32) -> String {
    if depth == 0 {
        return choices.pick(SAMPLES).to_string();
    }
    let items = |c: &mut Choices| -> Vec<String> {
        let n = c.below(4);
        (0..n).map(|_| value(c, depth - 1)).collect()
    };
    match choices.below(10) {
        0 => format!("[{}]", items(choices).join(", ")),
        1 => format!("{{{}}}", items(choices).join(", ")),
        2 => format!("({},)", items(choices).join(", ")),
        3 => builtin_call(choices),
        4 => "V".into(),
        _ => choices.pick(SAMPLES).to_string(),
    }
}

/// A call of a built-in with as many arguments as it takes (now and then
/// one more or one fewer), each of any type.
fn builtin_call(choices: &mut Choices) -> String {
    let builtin = Builtin::ALL[choices.below(Builtin::ALL.len())];
    let (least, most) = builtin.arity();
    let most = most.unwrap_or(least + 3);
    let mut n = least + choices.below(most - least + 1);
    match choices.below(16) {
        0 => n += 1,
        1 => n = n.saturating_sub(1),
        _ => {}
    }
    let args: Vec<String> = (0..n).map(|_| value(choices, 1)).collect();
    call(builtin, &args)
}

/// `name(args...)`.
pub fn call(builtin: Builtin, args: &[String]) -> String {
    format!("{}({})", builtin.name(), args.join(", "))
}

/// A REPL command from the REPL's own table (or a misspelt one), with an
/// argument of the kind it takes, now and then a wrong one.
fn command(choices: &mut Choices) -> String {
    const NAMES: &[&str] = &["nim", "w", "z", "code", "f", "L", "V", "len", "nope", ""];
    let known = COMMANDS.len();
    let (name, args) = match choices.below(known + 2) {
        i if i < known => (COMMANDS[i].name, COMMANDS[i].args),
        i if i == known => ("type", "NAME"),
        _ => ("", ""),
    };
    // `:quit` would end the program: it comes last or not at all.
    if name == "quit" {
        return ":games".into();
    }
    let arg = match args {
        "NAME" | "[NAME]" => choices.pick(NAMES).to_string(),
        "FILE..." => "/nonexistent.game".into(),
        _ if choices.below(4) == 0 => value(choices, 0),
        _ => String::new(),
    };
    format!(":{name} {arg}").trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_bytes_make_a_program_of_one_line_entries() {
        assert_eq!(program(&[]), PRELUDE);
        let text = program(&(0..=255).collect::<Vec<u8>>());
        let entries: Vec<&str> = text[PRELUDE.len()..].lines().collect();
        assert!(!entries.is_empty() && entries.len() <= MAX_ENTRIES);
        assert!(entries.iter().all(|e| !e.is_empty()), "{text}");
    }

    #[test]
    fn every_command_and_builtin_can_be_chosen() {
        let mut seen = String::new();
        for first in 0..=255u8 {
            for second in 0..=255u8 {
                seen.push_str(&program(&[first, second, first, 0, 1, 2]));
            }
        }
        for c in COMMANDS.iter().filter(|c| c.name != "quit") {
            assert!(seen.contains(&format!(":{}", c.name)), ":{}", c.name);
        }
        for b in Builtin::ALL {
            assert!(seen.contains(&format!("{}(", b.name())), "{}", b.name());
        }
    }
}
