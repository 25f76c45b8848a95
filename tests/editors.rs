//! The editor files in editors/ against the language: the TextMate grammar
//! (VS Code) is valid JSON that its manifest points to, and it, the Sublime
//! syntax and the Vim syntax file highlight every keyword of
//! grammar/grundy.pest (read from the pest file itself, so a keyword added
//! there without highlighting fails here) and every built-in function, and
//! the grammars' patterns match comments, numbers, strings and the move
//! arrow.

use grundy::builtins::Builtin;
use regex::Regex;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json(path: &str) -> Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path} is not valid JSON: {e}"))
}

/// The words of the `keyword` rule of the pest grammar: the quoted
/// strings between `keyword = @{` and the rule's closing brace.
fn pest_keywords() -> BTreeSet<String> {
    let pest = read("grammar/grundy.pest");
    let start = pest
        .find("keyword    = @{")
        .or_else(|| pest.find("keyword = @{"))
        .expect("grammar/grundy.pest has a `keyword` rule");
    let rule = &pest[start..];
    let rule = &rule[..rule.find("\n}").expect("the rule ends with `}`")];
    let words: BTreeSet<String> = Regex::new(r#""([a-z_]+)""#)
        .unwrap()
        .captures_iter(rule)
        .map(|c| c[1].to_string())
        .collect();
    assert!(
        words.contains("game") && words.contains("false") && words.len() >= 10,
        "{words:?}"
    );
    words
}

fn builtins() -> BTreeSet<String> {
    Builtin::ALL.iter().map(|b| b.name().to_string()).collect()
}

/// Every `(scope name, pattern)` of the grammar: patterns named
/// themselves, and each capture of a pattern named by its captures.
fn patterns(grammar: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut todo = vec![grammar];
    while let Some(node) = todo.pop() {
        match node {
            Value::Object(map) => {
                if let Some(Value::String(pattern)) = map.get("match") {
                    if let Some(Value::String(name)) = map.get("name") {
                        out.push((name.clone(), pattern.clone()));
                    }
                    if let Some(Value::Object(captures)) = map.get("captures") {
                        for capture in captures.values() {
                            if let Some(Value::String(name)) = capture.get("name") {
                                out.push((name.clone(), pattern.clone()));
                            }
                        }
                    }
                }
                todo.extend(map.values());
            }
            Value::Array(items) => todo.extend(items),
            _ => {}
        }
    }
    out
}

/// The `(scope name, pattern)`s of a `.sublime-syntax` file: each
/// `- match: '...'` with the `scope:` or the captures' names under it.
/// (YAML read by hand: the file sticks to single-quoted patterns.)
fn sublime_patterns(yaml: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut pattern: Option<String> = None;
    for line in yaml.lines().map(str::trim) {
        if let Some(quoted) = line.strip_prefix("- match: ") {
            let inner = quoted.strip_prefix('\'').and_then(|q| q.strip_suffix('\''));
            let inner = inner.unwrap_or_else(|| panic!("an unquoted pattern: {line}"));
            pattern = Some(inner.replace("''", "'"));
        } else if line.starts_with("- ") {
            pattern = None;
        } else if let (Some(p), Some((key, name))) = (&pattern, line.split_once(": "))
            && (key == "scope" || key.chars().all(|c| c.is_ascii_digit()))
        {
            out.push((name.to_string(), p.clone()));
        }
    }
    out
}

/// The scope names of the patterns that match all of `text`.
fn scopes_of(grammar: &Value, text: &str) -> Vec<String> {
    scopes_in(patterns(grammar), text)
}

fn scopes_in(patterns: Vec<(String, String)>, text: &str) -> Vec<String> {
    patterns
        .into_iter()
        .filter(|(_, pattern)| {
            let whole = Regex::new(&format!("^(?:{pattern})$"))
                .unwrap_or_else(|e| panic!("`{pattern}` is not a regular expression: {e}"));
            whole.is_match(text)
        })
        .map(|(name, _)| name)
        .collect()
}

const GRAMMAR: &str = "editors/vscode/syntaxes/grundy.tmLanguage.json";

#[test]
fn the_manifest_declares_the_language_and_its_grammar() {
    let manifest = json("editors/vscode/package.json");
    let language = &manifest["contributes"]["languages"][0];
    assert_eq!(language["id"], "grundy");
    assert_eq!(language["extensions"][0], ".game");
    let config = language["configuration"].as_str().unwrap();
    let config = json(&format!(
        "editors/vscode/{}",
        config.trim_start_matches("./")
    ));
    assert_eq!(config["comments"]["lineComment"], "#");
    let contributed = &manifest["contributes"]["grammars"][0];
    assert_eq!(contributed["language"], "grundy");
    let path = contributed["path"].as_str().unwrap();
    assert_eq!(
        format!("editors/vscode/{}", path.trim_start_matches("./")),
        GRAMMAR
    );
    let grammar = json(GRAMMAR);
    assert_eq!(grammar["scopeName"], contributed["scopeName"]);
    // Every include names a rule of the repository.
    for include in grammar["patterns"].as_array().unwrap() {
        let rule = include["include"].as_str().unwrap().trim_start_matches('#');
        assert!(grammar["repository"].get(rule).is_some(), "#{rule}");
    }
}

/// Every keyword and built-in is highlighted by one of `patterns`, from
/// the file `file`, and other names are not.
fn highlights_keywords_and_builtins(patterns: &[(String, String)], file: &str) {
    let scopes = |text: &str| scopes_in(patterns.to_vec(), text);
    let keywords = ["keyword.", "storage.", "constant.language."];
    for word in pest_keywords() {
        let scopes = scopes(&word);
        assert!(
            scopes
                .iter()
                .any(|s| keywords.iter().any(|k| s.starts_with(k))),
            "the keyword `{word}` of grammar/grundy.pest is not highlighted by {file} \
             (scopes: {scopes:?})"
        );
    }
    for name in builtins() {
        assert!(
            scopes(&name)
                .iter()
                .any(|s| s.starts_with("support.function")),
            "the built-in `{name}` is not highlighted by {file}: add it to its builtins"
        );
    }
    // A name that is neither is not highlighted as one.
    assert!(scopes("kayles").is_empty());
    assert!(scopes("games").is_empty());
}

#[test]
fn the_grammar_highlights_every_keyword_and_builtin() {
    highlights_keywords_and_builtins(&patterns(&json(GRAMMAR)), GRAMMAR);
}

const SUBLIME: &str = "editors/sublime/grundy.sublime-syntax";

#[test]
fn the_sublime_syntax_highlights_what_the_grammar_does() {
    let text = read(SUBLIME);
    assert!(text.starts_with("%YAML 1.2\n---\n"), "{SUBLIME}");
    assert!(text.contains("file_extensions: [game]") && text.contains("scope: source.grundy"));
    let sublime = sublime_patterns(&text);
    highlights_keywords_and_builtins(&sublime, SUBLIME);
    let grammar = patterns(&json(GRAMMAR));
    for sample in [
        "# a comment",
        "1_000",
        "->",
        "..=",
        "game kayles",
        "move knock",
        r#"\""#,
    ] {
        let mut in_sublime = scopes_in(sublime.clone(), sample);
        let mut in_grammar = scopes_in(grammar.clone(), sample);
        in_sublime.sort();
        in_grammar.sort();
        assert!(
            !in_sublime.is_empty() && in_sublime == in_grammar,
            "`{sample}`: {in_sublime:?} in {SUBLIME}, {in_grammar:?} in {GRAMMAR}"
        );
    }
}

#[test]
fn the_grammar_highlights_comments_numbers_strings_and_arrows() {
    let grammar = json(GRAMMAR);
    let expected = [
        ("# a comment", "comment.line"),
        ("42", "constant.numeric"),
        ("1_000_000", "constant.numeric"),
        ("->", "keyword.operator.arrow"),
        ("..=", "keyword.operator.range"),
        ("game kayles", "entity.name.function"),
        ("move knock", "entity.name.function"),
    ];
    for (text, scope) in expected {
        let scopes = scopes_of(&grammar, text);
        assert!(
            scopes.iter().any(|s| s.starts_with(scope)),
            "`{text}`: {scopes:?}, not {scope}"
        );
    }
    let string = &grammar["repository"]["string"];
    assert!(
        string["name"]
            .as_str()
            .unwrap()
            .starts_with("string.quoted")
    );
    assert_eq!(string["begin"], "\"");
    assert_eq!(
        scopes_of(&grammar, r#"\""#),
        ["constant.character.escape.grundy"]
    );
    // The arrow comes before the operators, or `-` would take its first half.
    let order: Vec<&str> = grammar["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["include"].as_str().unwrap())
        .collect();
    let at = |rule: &str| order.iter().position(|r| *r == rule).unwrap();
    assert!(at("#arrow") < at("#operator"), "{order:?}");
    assert!(at("#comment") < at("#operator") && at("#string") < at("#keyword"));
}

/// The words of the Vim file's `syn keyword GROUP ...` lines, by group.
fn vim_keywords(vim: &str) -> Vec<(String, String)> {
    vim.lines()
        .filter_map(|l| l.trim().strip_prefix("syn keyword"))
        .flat_map(|rest| {
            let mut words = rest.split_whitespace();
            let group = words.next().unwrap_or_default().to_string();
            words
                .filter(|w| *w != "contained")
                .map(move |w| (group.clone(), w.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_vim_syntax_knows_every_keyword_and_builtin() {
    let vim = read("editors/vim/syntax/grundy.vim");
    let found = vim_keywords(&vim);
    let in_group = |prefix: &str| -> BTreeSet<String> {
        found
            .iter()
            .filter(|(g, _)| g != "grundyBuiltin" && g.starts_with(prefix) && g != "grundyTodo")
            .map(|(_, w)| w.clone())
            .collect()
    };
    assert_eq!(
        in_group("grundy"),
        pest_keywords(),
        "editors/vim/syntax/grundy.vim and grammar/grundy.pest disagree on the keywords"
    );
    let builtins_found: BTreeSet<String> = found
        .iter()
        .filter(|(g, _)| g == "grundyBuiltin")
        .map(|(_, w)| w.clone())
        .collect();
    assert_eq!(
        builtins_found,
        builtins(),
        "editors/vim/syntax/grundy.vim's grundyBuiltin and the built-ins disagree"
    );
    for needed in [
        "grundyComment",
        "grundyString",
        "grundyNumber",
        "grundyArrow",
    ] {
        assert!(vim.contains(&format!("hi def link {needed}")), "{needed}");
    }
    let detect = read("editors/vim/ftdetect/grundy.vim");
    assert!(detect.contains("*.game setfiletype grundy"), "{detect}");
}
