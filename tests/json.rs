//! `--format json` through the real binary: every line on stdout is one
//! object valid against docs/json.schema.json (checked with the
//! jsonschema crate), and each test looks at what the objects say about
//! results, expects and errors of every stage, in `run`, `eval` and the
//! REPL on a pipe.

mod common;

use serde_json::{Value, json};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The committed schema, compiled once.
fn validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json.schema.json");
        let text = std::fs::read_to_string(path).expect("the schema is committed");
        let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
        jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
    })
}

/// What `--format json` printed, every line checked against the schema.
struct Json {
    objects: Vec<Value>,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Json {
    fn of(out: Output) -> Json {
        let stdout = common::text(&out.stdout);
        let stderr = common::text(&out.stderr);
        let objects = stdout
            .lines()
            .map(|line| {
                let object: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {line}\nstderr: {stderr}"));
                let errors: Vec<String> = validator()
                    .iter_errors(&object)
                    .map(|e| format!("{e} at {}", e.instance_path()))
                    .collect();
                assert!(errors.is_empty(), "{line}\n{}", errors.join("\n"));
                object
            })
            .collect();
        Json {
            objects,
            code: out.status.code(),
            stdout,
            stderr,
        }
    }

    fn kinds(&self) -> Vec<&str> {
        self.objects
            .iter()
            .map(|o| o["kind"].as_str().unwrap())
            .collect()
    }

    fn values(&self) -> Vec<&Value> {
        self.objects.iter().map(|o| &o["value"]).collect()
    }
}

/// `grundy --format json ARGS` with `input` on stdin.
fn grundy(args: &[&str], input: &str) -> Json {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.arg("--format")
        .arg("json")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("GRUNDY_HISTORY", "");
    Json::of(common::with_stdin(cmd, input))
}

/// `grundy --format json run -` with `script` on stdin.
fn run(script: &str) -> Json {
    grundy(&["run", "-"], script)
}

const SUB: &str = "game sub(n) {\n    move take(k in 1..=3) if k <= n -> sub(n - k)\n}\n";

#[test]
fn results_of_every_kind_are_native_json_with_their_text() {
    let script = format!(
        "{SUB}value(sub(5))\ntrue\n\"a \\\"b\\\"\"\n[1, [2, 3]]\n(1, \"x\", sub(2))\n\
         {{3, 1, 2}}\n2..5\nsub(3) + *2\nsub\ntable(sub, 0..6)\nmoves(sub(1))\n"
    );
    let out = run(&script);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.kinds().iter().all(|k| *k == "result"));
    let expected = [
        json!(1),
        json!(true),
        json!("a \"b\""),
        json!([1, [2, 3]]),
        json!([1, "x", "sub(2)"]),
        json!([1, 2, 3]),
        json!([2, 3, 4]),
        json!("sub(3) + *2"),
        json!("sub"),
        json!([0, 1, 2, 3, 0, 1]),
        json!([["sub(1)", "take(k=1)", "sub(0)", 0]]),
    ];
    assert_eq!(out.values(), expected.iter().collect::<Vec<_>>());
    let texts: Vec<&str> = out
        .objects
        .iter()
        .map(|o| o["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts[2], "a \"b\"", "a string prints without quotes");
    assert_eq!(texts[4], "(1, \"x\", sub(2))");
    assert_eq!(texts[6], "2..5");
    assert!(texts[9].starts_with("sub(n), n = 0..=5\n"), "{}", texts[9]);
    let places: Vec<(u64, u64)> = out
        .objects
        .iter()
        .map(|o| (o["line"].as_u64().unwrap(), o["col"].as_u64().unwrap()))
        .collect();
    assert_eq!(places, (4..=14).map(|line| (line, 1)).collect::<Vec<_>>());
    assert!(out.objects.iter().all(|o| o["file"] == "<stdin>"));
    insta::assert_snapshot!(out.stdout);
}

#[test]
fn integers_keep_every_digit_beyond_what_a_double_holds() {
    // 2^53 + 1 is the first integer a double cannot hold; the other two
    // are the ends of the 64-bit range.
    let out = run("9007199254740993\n9223372036854775807\n-9223372036854775807 - 1\n");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let ints: Vec<i64> = out.values().iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(ints, [9_007_199_254_740_993, i64::MAX, i64::MIN]);
    assert!(
        out.stdout.contains("\"value\":9007199254740993,"),
        "{}",
        out.stdout
    );
    assert_eq!(out.objects[0]["text"], "9007199254740993");
}

#[test]
fn print_shows_its_arguments_as_values_in_order() {
    let script =
        "fn loud(x) = if print(\"in\", x) == () then x * 2 else 0\nprint(7)\nloud(5)\nprint()\n";
    let out = run(script);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let shown: Vec<(&Value, &Value, u64)> = out
        .objects
        .iter()
        .map(|o| (&o["value"], &o["text"], o["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        shown,
        [
            (&json!(7), &json!("7"), 2),
            (&json!(["in", 5]), &json!("in 5"), 1),
            (&json!(10), &json!("10"), 3),
            (&json!([]), &json!(""), 4),
        ]
    );
}

#[test]
fn every_expect_is_reported_and_a_failed_one_gives_both_sides() {
    let script = format!(
        "{SUB}expect value(sub(4)) == 0\nexpect value(sub(5)) == 2\nexpect false\n\
         expect sub(4) == 0\nvalue(sub(6))\n"
    );
    let out = run(&script);
    assert_eq!(out.code, Some(1), "a failed expect is exit code 1");
    assert_eq!(
        out.kinds(),
        ["expect", "expect", "expect", "expect", "result"]
    );
    let [held, compared, plain, position, _] = &out.objects[..] else {
        unreachable!()
    };
    assert_eq!(held["ok"], true);
    assert_eq!(held["expr"], "value(sub(4)) == 0");
    assert_eq!(
        (held["line"].as_u64(), held["col"].as_u64()),
        (Some(4), Some(8))
    );
    assert!(held.get("left").is_none(), "{held}");
    assert_eq!(compared["ok"], false);
    assert_eq!(compared["message"], "`value(sub(5)) == 2` is false");
    assert_eq!(
        (&compared["left"], &compared["right"]),
        (&json!("1"), &json!("2"))
    );
    assert_eq!(
        (&plain["left"], &plain["right"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(position["left"], "sub(4)");
    assert!(position["help"].as_str().unwrap().contains("value(P) == 0"));
}

#[test]
fn a_syntax_error_is_one_error_with_exit_code_3() {
    let out = run("let x =\n");
    assert_eq!(out.code, Some(3));
    assert_eq!(out.kinds(), ["error"]);
    let error = &out.objects[0];
    assert_eq!(error["stage"], "syntax");
    assert_eq!(error["exit_code"], 3);
    assert_eq!(
        (error["line"].as_u64(), error["col"].as_u64()),
        (Some(1), Some(7))
    );
    assert!(
        error["help"].as_str().unwrap().contains("bracket"),
        "{error}"
    );
}

#[test]
fn check_errors_all_come_out_with_their_places() {
    let out = run("let a = 1\nlet x = y + z\n");
    assert_eq!(out.code, Some(3));
    let messages: Vec<&Value> = out.objects.iter().map(|o| &o["message"]).collect();
    assert_eq!(
        messages,
        [&json!("unknown name `y`"), &json!("unknown name `z`")]
    );
    assert!(out.objects.iter().all(|o| o["stage"] == "check"));
    let label = &out.objects[1]["labels"][0];
    assert_eq!(label["start"], 22);
    assert_eq!(label["end"], 23);
    assert_eq!(
        (label["line"].as_u64(), label["col"].as_u64()),
        (Some(2), Some(13))
    );
    assert_eq!(
        (label["end_line"].as_u64(), label["end_col"].as_u64()),
        (Some(2), Some(14))
    );
    assert_eq!(label["message"], "not defined here");
}

#[test]
fn a_runtime_error_stops_the_run_after_what_came_before() {
    let out = run("1 + 1\n[1, 2] + 3\n4\n");
    assert_eq!(out.code, Some(3));
    assert_eq!(out.kinds(), ["result", "error"]);
    assert_eq!(out.objects[1]["stage"], "runtime");
    assert_eq!(out.objects[1]["line"], 2);
}

#[test]
fn limits_are_errors_with_exit_code_4() {
    let script = format!("{SUB}value(sub(100))\n");
    let states = grundy(&["--max-states", "10", "run", "-"], &script);
    let timeout = grundy(
        &["--timeout", "300ms", "run", "tests/data/endless.game"],
        "",
    );
    for out in [states, timeout] {
        assert_eq!(out.code, Some(4), "{}", out.stdout);
        let error = out.objects.last().unwrap();
        assert_eq!(
            (&error["stage"], &error["exit_code"]),
            (&json!("limit"), &json!(4))
        );
    }
}

#[test]
fn a_value_too_large_to_write_is_a_limit_error() {
    // Each list is short; written out, the list of lists is not.
    let script = "let a = [i for i in 0..50]\n[a for i in 0..50]\n";
    let out = grundy(&["--max-items", "100", "run", "-"], script);
    assert_eq!(out.code, Some(4));
    assert_eq!(out.kinds(), ["error"]);
    assert!(
        out.objects[0]["help"]
            .as_str()
            .unwrap()
            .contains("--max-items")
    );
}

#[test]
fn a_file_that_cannot_be_read_is_a_usage_error_without_a_place() {
    let out = grundy(&["run", "tests/data/no_such_file.game"], "");
    assert_eq!(out.code, Some(2));
    let error = &out.objects[0];
    assert_eq!(
        (&error["stage"], &error["exit_code"]),
        (&json!("usage"), &json!(2))
    );
    assert_eq!(
        (&error["file"], &error["line"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(error["labels"], json!([]));
}

#[test]
fn ctrl_c_is_an_error_with_exit_code_130() {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["--format", "json", "run", "tests/data/endless.game"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: `kill` takes plain integers; it signals only the child above.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let out = Json::of(child.wait_with_output().unwrap());
    assert_eq!(out.code, Some(130), "{}", out.stderr);
    let error = out.objects.last().unwrap();
    assert_eq!(
        (&error["stage"], &error["exit_code"]),
        (&json!("interrupted"), &json!(130))
    );
}

#[test]
fn a_diagnostic_with_several_labels_lists_each_primary_first() {
    let script =
        "let a = 1\ngame nim(n) {\n    move take(k in 1..=n) -> nim(n - k)\n}\nfn nim(n) = n\n";
    let out = run(script);
    assert_eq!(out.code, Some(3));
    let error = &out.objects[0];
    assert_eq!(error["message"], "`nim` is defined twice");
    assert_eq!(
        (error["line"].as_u64(), error["col"].as_u64()),
        (Some(5), Some(4))
    );
    let labels = error["labels"].as_array().unwrap();
    let shown: Vec<(&str, u64, u64, bool)> = labels
        .iter()
        .map(|l| {
            let text =
                &script[l["start"].as_u64().unwrap() as usize..l["end"].as_u64().unwrap() as usize];
            (
                l["message"].as_str().unwrap(),
                l["line"].as_u64().unwrap(),
                l["col"].as_u64().unwrap(),
                l["primary"].as_bool().unwrap() && text == "nim",
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("defined again here", 5, 4, true),
            ("first defined here", 2, 6, false)
        ]
    );
}

#[test]
fn eval_prints_one_result_and_its_errors_as_json() {
    let out = grundy(
        &["eval", "-e", "value(nim(3) + nim(5))", "examples/nim.game"],
        "",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    // The file's expects and results come first, then the expression's.
    let last = out.objects.last().unwrap();
    assert_eq!(
        (&last["kind"], &last["value"]),
        (&json!("result"), &json!(6))
    );
    assert_eq!(
        (&last["file"], &last["line"], &last["col"]),
        (&json!("<expression>"), &json!(1), &json!(1))
    );
    let statement = grundy(&["eval", "-e", "let x = 1"], "");
    assert_eq!(statement.code, Some(3));
    assert_eq!(statement.objects[0]["message"], "`-e` takes one expression");
    let failing = grundy(&["eval", "-e", "1 / 0"], "");
    assert_eq!(failing.code, Some(3));
    assert_eq!(failing.objects[0]["labels"][0]["file"], "<expression>");
}

#[test]
fn the_repl_on_a_pipe_prints_json_and_goes_on_after_errors() {
    let input = format!(
        "{SUB}value(sub(5))\n:games\nvalue(sub(2)) / 0\nexpect 1 == 2\nprint(sub(1))\n:nonsense\n"
    );
    for args in [&["repl"][..], &[]] {
        let out = grundy(args, &input);
        assert_eq!(out.code, Some(3), "the worst: an error in source");
        assert_eq!(
            out.kinds(),
            ["result", "error", "expect", "result", "error"]
        );
        let lines: Vec<&Value> = out.objects.iter().map(|o| &o["line"]).collect();
        assert_eq!(
            lines,
            [&json!(4), &json!(6), &json!(7), &json!(8), &Value::Null]
        );
        assert_eq!(out.objects[3]["value"], "sub(1)");
        assert_eq!(out.objects[4]["stage"], "usage");
        assert_eq!(out.objects[4]["exit_code"], 2);
        // A command's answer is for people: it goes to stderr.
        assert!(out.stderr.contains("sub(n)"), "{}", out.stderr);
    }
}

#[test]
fn text_for_people_goes_to_stderr() {
    let out = grundy(
        &["--debug", "ir", "--explain", "run", "examples/nim.game"],
        "",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.contains("Print"), "--debug ir: {}", out.stderr);
    assert!(out.stderr.contains("nim"), "--explain: {}", out.stderr);
    assert_eq!(out.objects.len(), out.stdout.lines().count());
}

#[test]
fn the_schema_rejects_what_grundy_must_not_print() {
    let bad = [
        json!({"kind": "result", "file": "f", "line": 1, "col": 1, "value": 1.5, "text": "1.5"}),
        json!({"kind": "result", "file": "f", "line": 1, "col": 1, "value": {"a": 1}, "text": ""}),
        json!({"kind": "expect", "file": "f", "line": 1, "col": 1, "ok": false, "expr": "x"}),
        json!({"kind": "expect", "file": "f", "line": 1, "col": 1, "ok": true, "expr": "x", "left": "1"}),
        json!({"kind": "error", "file": null, "line": null, "stage": "limit", "message": "m",
               "exit_code": 3, "labels": [], "notes": [], "help": null}),
        json!({"kind": "error", "file": "f", "line": 1, "col": 1, "stage": "check", "message": "m",
               "exit_code": 3, "labels": [], "notes": [], "help": null}),
        json!({"kind": "warning", "file": "f", "line": 1, "col": 1}),
    ];
    for object in bad {
        assert!(!validator().is_valid(&object), "{object}");
    }
}

/// The text of the first fenced block of `lang` in `markdown`.
fn block<'a>(markdown: &'a str, lang: &str) -> &'a str {
    let start = markdown.find(&format!("```{lang}\n")).expect("the block") + lang.len() + 4;
    let len = markdown[start..].find("```").expect("the block's end");
    &markdown[start..start + len]
}

#[test]
fn the_example_in_the_docs_is_what_grundy_prints() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json.md"))
        .expect("docs/json.md");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_grundy"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .args(["-c", block(&docs, "sh").trim()])
        .env("PATH", path)
        .output()
        .expect("sh runs");
    let out = Json::of(out);
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    assert_eq!(out.stdout, block(&docs, "json"));
}

#[test]
fn columns_count_characters_and_offsets_bytes() {
    // `x` is the 8th character, after 9 bytes.
    let out = run("\"éé\" + x\n");
    assert_eq!(out.code, Some(3));
    let label = &out.objects[0]["labels"][0];
    assert_eq!(
        (label["start"].as_u64(), label["col"].as_u64()),
        (Some(9), Some(8))
    );
    assert_eq!(out.objects[0]["col"], 8);
}

#[test]
fn what_print_printed_comes_before_the_error_that_followed_it() {
    let out = run("fn f(x) = [print(\"before\", x), 1 / 0][1]\nf(3)\n");
    assert_eq!(out.code, Some(3));
    assert_eq!(out.kinds(), ["result", "error"]);
    assert_eq!(out.objects[0]["value"], json!(["before", 3]));
}

#[test]
fn check_prints_only_its_errors() {
    let clean = grundy(
        &["check", "-"],
        &format!("{SUB}value(sub(3))\nexpect 1 == 2\n"),
    );
    assert_eq!((clean.code, clean.stdout.as_str()), (Some(0), ""));
    let wrong = grundy(&["check", "-"], "value(nope(3))\n");
    assert_eq!(wrong.code, Some(3));
    assert_eq!(wrong.kinds(), ["error"]);
    assert_eq!(wrong.objects[0]["stage"], "check");
}
