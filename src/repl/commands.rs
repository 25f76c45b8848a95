//! The REPL's `:` commands: the table of them, and what each does.

use super::{Flow, Repl};
use crate::defs::Global;
use crate::diag::count;
use crate::progress::human;
use std::fmt::Write as _;
use std::path::PathBuf;

pub struct Command {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub args: &'static str,
    pub about: &'static str,
}

pub const COMMANDS: [Command; 10] = [
    Command {
        name: "help",
        aliases: &["h", "?"],
        args: "",
        about: "these commands and a summary of the language",
    },
    Command {
        name: "load",
        aliases: &["l"],
        args: "FILE...",
        about: "run files without printing results (-v prints them)",
    },
    Command {
        name: "reload",
        aliases: &["r"],
        args: "",
        about: "read again every file loaded so far, in order",
    },
    Command {
        name: "games",
        aliases: &[],
        args: "",
        about: "the games, functions and constants defined, and where",
    },
    Command {
        name: "show",
        aliases: &[],
        args: "NAME",
        about: "a definition as it was written",
    },
    Command {
        name: "explain",
        aliases: &[],
        args: "[NAME]",
        about: "how a game's rules run (compiled or interpreted), and why",
    },
    Command {
        name: "time",
        aliases: &[],
        args: "",
        about: "turn on or off printing how long each entry took",
    },
    Command {
        name: "stats",
        aliases: &[],
        args: "",
        about: "positions memoized per game, and memory used",
    },
    Command {
        name: "clear",
        aliases: &[],
        args: "",
        about: "forget every memoized value (definitions stay)",
    },
    Command {
        name: "quit",
        aliases: &["q", "exit"],
        args: "",
        about: "leave (Ctrl-D does too)",
    },
];

const LANGUAGE: &str = "\
The language on one screen:
  game nim(n) {                        # a game: parameters are its state
      move take(k in 1..=n) -> nim(n - k)
  }                                    # move NAME(binders) if GUARD -> TARGET
  game kayles(n) {                     # `+` in a target splits the position
      move hit(i in 0..n, w in 1..=2) if i + w <= n \\
          -> kayles(i) + kayles(n - i - w)
  }
  fn half(n) = n / 2                   # functions; `/` and `%` round down
  let P = nim(3) + nim(5) + *2         # constants; `*k` is a Nim heap
  value(P)                             # the nim-value: 4
  winner(P)                            # \"first\" or \"second\"
  moves(P)                             # every move, and which ones win
  line(P)                              # a perfect game played out
  table(kayles, 0..30)                 # values of a game, in rows of ten
  graph(kayles(4))                     # its moves as a Graphviz DOT graph
  plot(kayles, 0..=100)                # its values drawn into kayles.svg
  expect value(P) == 4                 # a check that reports both sides
  [k * k for k in 1..10 if k % 2 == 1] # lists; also sets {1, 2}, tuples
Types: integers, booleans, strings, tuples, lists, sets, ranges, positions.
Operators: + - * / % ** ^ & | ~ << >>, == != < <= > >= (chained), and or
not, in, a..b and a..=b. An open bracket or a final `\\` continues an entry
on the next line. Ctrl-C cancels an evaluation and keeps what is known; one
that runs past a second shows its progress (`grundy --quiet` turns it off).
`play(P)` plays a game from P against the computer (`?` lists its commands).";

/// The command that `name` names, by its name or an alias.
fn find(name: &str) -> Option<&'static Command> {
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name))
}

/// The command whose name is nearest to a mistyped one, if any is near.
pub fn nearest(name: &str) -> Option<&'static str> {
    near(name, COMMANDS.iter().map(|c| c.name), |c| {
        c.starts_with(name)
    })
}

/// The candidate nearest to a mistyped `name` in edits, among those within
/// a third of their length (at least 2) or for which `also` holds.
fn near<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
    also: impl Fn(&str) -> bool,
) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::damerau_levenshtein(name, c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3) || also(c))
        .min()
        .map(|(_, c)| c)
}

impl Repl {
    /// Runs a `:` command line.
    pub(super) fn command(&mut self, line: &str) -> Flow {
        let line = line.trim().trim_start_matches(':');
        let (name, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        let Some(cmd) = find(name) else {
            let hint = match nearest(name) {
                Some(near) => format!("; did you mean `:{near}`?"),
                None => String::new(),
            };
            self.problem(&format!(
                "unknown command `:{name}`{hint} (`:help` lists them)"
            ));
            return Flow::Continue;
        };
        if cmd.args.is_empty() && !args.is_empty() {
            self.problem(&format!("`:{}` takes no arguments", cmd.name));
            return Flow::Continue;
        }
        match cmd.name {
            "help" => self.say(&help()),
            "load" if args.is_empty() => self.problem("`:load` needs a file to read"),
            "load" => {
                let mut verbose = self.verbose;
                let files: Vec<PathBuf> = args
                    .split_whitespace()
                    .filter(|a| {
                        let flag = matches!(*a, "-v" | "--verbose");
                        verbose |= flag;
                        !flag
                    })
                    .map(PathBuf::from)
                    .collect();
                if files.is_empty() {
                    self.problem("`:load` needs a file to read");
                } else {
                    self.load(&files, verbose);
                }
            }
            "reload" => self.reload(),
            "explain" => {
                let only = Some(args).filter(|a| !a.is_empty());
                match self.session.explain(only) {
                    Ok(text) => self.say(text.trim_end()),
                    Err(e) => self.problem(&e),
                }
            }
            "games" => {
                let text = self.games();
                self.say(&text)
            }
            "show" if args.is_empty() => self.problem("`:show` needs a name"),
            "show" => self.show(args),
            "time" => {
                self.time = !self.time;
                self.say(if self.time { "timing on" } else { "timing off" });
            }
            "stats" => {
                let text = self.stats();
                self.say(&text)
            }
            "clear" => {
                let known: usize = self.session.machine.graph.stats().map(|s| s.2).sum();
                self.session.machine.graph.clear_values();
                self.say(&format!(
                    "forgot {} (positions stay interned, definitions stay)",
                    count(known, "memoized value")
                ));
            }
            "quit" => return Flow::Quit,
            _ => unreachable!("every command in COMMANDS has an arm"),
        }
        Flow::Continue
    }

    fn reload(&mut self) {
        if self.files.is_empty() {
            self.problem("no file has been loaded yet (`:load FILE` loads one)");
            return;
        }
        let files = self.files.clone();
        self.load(&files, self.verbose);
    }

    /// `:games`: every global name by kind, in the order defined, with where.
    fn games(&self) -> String {
        let defs = &self.session.machine.defs;
        let mut named: Vec<(Global, &str)> = defs.names.iter().map(|(n, g)| (*g, &**n)).collect();
        named.sort_by_key(|(g, _)| match g {
            Global::Game(id) => (0, *id),
            Global::Fn(id) => (1, *id),
            Global::Let(id) => (2, *id),
        });
        if named.is_empty() {
            return "nothing is defined yet".into();
        }
        let mut rows: Vec<(&str, String, String)> = Vec::new();
        for (global, name) in named {
            let (kind, shown) = match global {
                Global::Game(id) => {
                    let params = defs.game(id).map(|g| params(&g.def.params));
                    ("games", format!("{name}({})", params.unwrap_or_default()))
                }
                Global::Fn(id) => {
                    let f = defs.fns[id as usize].as_ref();
                    let params = f.map(|f| params(&f.def.params)).unwrap_or_default();
                    ("functions", format!("{name}({params})"))
                }
                Global::Let(id) => {
                    let value = match &defs.lets[id as usize].value {
                        Some(v) => short(self.session.machine.show(v), 40),
                        None => "(not set: its definition failed)".into(),
                    };
                    ("constants", format!("{name} = {value}"))
                }
            };
            let at = match self.session.origins.get(name) {
                Some(span) => self.place(*span),
                None => String::new(),
            };
            rows.push((kind, shown, at));
        }
        let width = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
        let mut out = String::new();
        let mut heading = "";
        for (kind, shown, at) in rows {
            if kind != heading {
                let _ = writeln!(out, "{kind}:");
                heading = kind;
            }
            let _ = writeln!(out, "  {shown:<width$}  {at}");
        }
        out.trim_end().to_string()
    }

    /// `:show NAME`: the statement that defined it, as written.
    fn show(&mut self, name: &str) {
        if let Some(span) = self.session.origins.get(name)
            && self.session.machine.defs.lookup(name).is_some()
        {
            let text = self.session.sources.text(span.file);
            let written = text[span.start as usize..span.end as usize].to_string();
            let at = self.place(*span);
            self.say(&format!("# {at}\n{}", written.trim_end()));
            return;
        }
        if crate::builtins::Builtin::from_name(name).is_some() {
            self.say(&format!(
                "`{name}` is built in; docs/language.md describes it"
            ));
            return;
        }
        let names = self.session.machine.defs.names.keys().map(|n| &**n);
        let near = near(name, names, |_| false)
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        self.problem(&format!("`{name}` is not defined{near}"));
    }

    /// `:stats`: positions and values per game, and memory.
    fn stats(&self) -> String {
        let m = &self.session.machine;
        let mut rows = vec![(
            "game".to_string(),
            "positions".to_string(),
            "values known".to_string(),
            "memory".to_string(),
        )];
        let (mut positions, mut known, mut bytes) = (0, 0, 0);
        // Games made for fixed arguments (`runtime::instances`) are
        // counted with the game they were made from, which has its name.
        let mut games: Vec<(&str, usize, usize, usize)> = Vec::new();
        for (game, count, values) in m.graph.stats() {
            let (name, size) = (m.defs.game_name(game), m.graph.bytes(game));
            match games.iter_mut().find(|g| g.0 == name) {
                Some(g) => (g.1, g.2, g.3) = (g.1 + count, g.2 + values, g.3 + size),
                None => games.push((name, count, values, size)),
            }
            positions += count;
            known += values;
            bytes += size;
        }
        for (name, count, values, size) in games {
            rows.push((
                name.to_string(),
                count.to_string(),
                values.to_string(),
                human(size as u64),
            ));
        }
        rows.push((
            "total".into(),
            positions.to_string(),
            known.to_string(),
            human(bytes as u64),
        ));
        let w0 = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
        let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
        let w2 = rows.iter().map(|r| r.2.len()).max().unwrap_or(0);
        let mut out = String::new();
        for (a, b, c, d) in rows {
            let _ = writeln!(out, "{a:<w0$}  {b:>w1$}  {c:>w2$}  {d}");
        }
        if let Some(rss) = crate::progress::resident_memory() {
            let _ = writeln!(out, "process memory (resident): {}", human(rss));
        }
        out.trim_end().to_string()
    }

    /// `file:line` of where a span starts.
    fn place(&self, span: crate::span::Span) -> String {
        let at = self.session.sources.location(span);
        at.rsplit_once(':')
            .map_or(at.clone(), |(line, _col)| line.to_string())
    }

    /// Prints a command's answer.
    pub(super) fn say(&mut self, text: &str) {
        // In JSON the output holds JSON only: answers go to stderr.
        let out = self.session.human_out();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

fn help() -> String {
    let mut out = String::from("Commands:\n");
    for c in &COMMANDS {
        let usage = format!(":{} {}", c.name, c.args);
        let aliases = match c.aliases {
            [] => String::new(),
            a => format!(
                " (also {})",
                a.iter()
                    .map(|a| format!(":{a}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        let _ = writeln!(out, "  {usage:<16} {}{aliases}", c.about);
    }
    out.push_str("Anything else is grundy source: definitions, `expect`s and expressions,\n");
    out.push_str("whose values are printed.\n\n");
    out.push_str(LANGUAGE);
    out
}

fn params(params: &[crate::syntax::ast::Ident]) -> String {
    params
        .iter()
        .map(|p| p.node.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn short(s: String, max: usize) -> String {
    if s.chars().count() <= max {
        s
    } else {
        format!("{}...", s.chars().take(max - 3).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_command_finds_the_nearest() {
        assert_eq!(nearest("lod"), Some("load"));
        assert_eq!(nearest("relaod"), Some("reload"));
        assert_eq!(nearest("stat"), Some("stats"));
        assert_eq!(nearest("gmaes"), Some("games"));
        assert_eq!(nearest("xyzzy"), None);
    }

    #[test]
    fn commands_are_found_by_name_and_alias() {
        assert_eq!(find("q").map(|c| c.name), Some("quit"));
        assert_eq!(find("?").map(|c| c.name), Some("help"));
        assert_eq!(find("games").map(|c| c.name), Some("games"));
        assert!(find("gam").is_none());
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(3 << 20), "3.0 MiB");
    }

    #[test]
    fn help_fits_one_screen_and_lists_every_command() {
        let text = help();
        for c in &COMMANDS {
            assert!(text.contains(&format!(":{}", c.name)), "{}", c.name);
        }
        assert!(text.lines().count() <= 40, "{} lines", text.lines().count());
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    }
}

#[cfg(test)]
mod summary {
    /// The code in `:help`'s language summary runs as shown.
    #[test]
    fn the_language_summary_runs() {
        let lines: Vec<String> = super::LANGUAGE
            .lines()
            .filter(|l| l.starts_with("  "))
            .map(|l| format!("{}\n", l.split(" # ").next().unwrap().trim_end()))
            .collect();
        // `plot` writes a file: it runs last, where it may write none, so
        // that it gets as far as writing.
        let (plots, code): (Vec<String>, Vec<String>) = lines
            .into_iter()
            .partition(|l| l.trim_start().starts_with("plot("));
        let code: String = code.concat();
        let err = crate::SharedBuffer::default();
        let mut session =
            crate::session::Session::new(Box::new(std::io::sink()), Box::new(err.clone()));
        session.machine.write_files = false;
        let outcome = session.run("help", &code);
        let said = String::from_utf8(err.0.borrow().clone()).unwrap();
        assert_eq!(outcome.exit_code(), 0, "{code}\n{said}");
        assert!(code.contains("game kayles"), "{code}");
        assert_eq!(plots.len(), 1);
        let outcome = session.run("help", &plots[0]);
        let said = String::from_utf8(err.0.borrow().clone()).unwrap();
        assert_eq!(outcome.exit_code(), 3);
        assert!(said.contains("`plot` cannot write files here"), "{said}");
    }
}
