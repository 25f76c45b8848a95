//! `--format json`: what a session reports, as JSON Lines for programs to
//! read. Each result, `expect` and diagnostic becomes one [`Event`], and
//! [`write`] turns it into one line holding one object. The schema is
//! docs/json.schema.json, explained in docs/json.md; the session decides
//! what to report and when, this module only how it looks.

use super::exit;
use crate::diag::{Diagnostic, Phase, Sources};
use crate::runtime::Machine;
use crate::span::Span;
use crate::value::Value;
use serde_json::json;
use std::io::Write;

/// How a session prints results and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Values as the language writes them, diagnostics drawn by ariadne.
    #[default]
    Human,
    /// One JSON object per line on the output; nothing else there.
    Json,
}

/// One thing a session reports.
pub enum Event<'a> {
    /// A bare expression's value (one value), or the arguments of one
    /// `print(...)` call, at `span`.
    Result { span: Span, values: &'a [Value] },
    /// An `expect` at `span` (its condition): `failure` is `None` when it
    /// held; `sides` are the texts of a failed comparison's two sides.
    Expect {
        span: Span,
        failure: Option<&'a Diagnostic>,
        sides: Option<&'a [String; 2]>,
    },
    /// A diagnostic, and the exit code it gives.
    Error {
        diag: &'a Diagnostic,
        exit_code: i32,
    },
}

/// Writes `event` as one line of JSON. Fails only when a result's value is
/// too large to write out (more items than `--max-items`, counting every
/// item of every nested collection): then nothing is written, and the
/// error says so.
pub fn write(
    out: &mut dyn Write,
    event: Event,
    sources: &Sources,
    machine: &Machine,
) -> Result<(), Box<Diagnostic>> {
    let line = match event {
        Event::Result { span, values } => result(span, values, sources, machine)?,
        Event::Expect {
            span,
            failure,
            sides,
        } => expect(span, failure, sides, sources),
        Event::Error { diag, exit_code } => error(diag, exit_code, sources),
    };
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
    Ok(())
}

/// A JSON object written field by field, so that its keys keep the order
/// the schema gives (`kind` first).
struct Object(String);

impl Object {
    fn new(kind: &str, span: Option<Span>, sources: &Sources) -> Object {
        let mut object = Object(String::new());
        object.field("kind", json!(kind));
        match span {
            Some(span) => {
                let (line, col) = sources.line_col(span.file, span.start as usize);
                object.field("file", json!(sources.name(span.file)));
                object.field("line", json!(line));
                object.field("col", json!(col));
            }
            None => {
                object.field("file", json!(null));
                object.field("line", json!(null));
            }
        }
        object
    }

    fn field(&mut self, key: &str, value: serde_json::Value) {
        self.raw(key, &value.to_string());
    }

    fn raw(&mut self, key: &str, json: &str) {
        self.0.push(if self.0.is_empty() { '{' } else { ',' });
        self.0.push_str(&serde_json::Value::from(key).to_string());
        self.0.push(':');
        self.0.push_str(json);
    }

    fn end(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

fn result(
    span: Span,
    values: &[Value],
    sources: &Sources,
    machine: &Machine,
) -> Result<String, Box<Diagnostic>> {
    let mut budget = machine.limits.max_items;
    if !values.iter().all(|v| fits(v, &mut budget)) {
        return Err(too_large(span, machine.limits.max_items));
    }
    let mut value = String::new();
    match values {
        [one] => write_value(one, machine, &mut value),
        many => write_items(many.iter(), machine, &mut value),
    }
    let text: Vec<String> = values.iter().map(|v| machine.show_top(v)).collect();
    let mut object = Object::new("result", Some(span), sources);
    object.raw("value", &value);
    object.field("text", json!(text.join(" ")));
    Ok(object.end())
}

fn expect(
    span: Span,
    failure: Option<&Diagnostic>,
    sides: Option<&[String; 2]>,
    sources: &Sources,
) -> String {
    let mut object = Object::new("expect", Some(span), sources);
    object.field("ok", json!(failure.is_none()));
    let condition = &sources.text(span.file)[span.start as usize..span.end as usize];
    object.field("expr", json!(condition));
    if let Some(failure) = failure {
        object.field("message", json!(failure.message));
        object.field("left", json!(sides.map(|s| &s[0])));
        object.field("right", json!(sides.map(|s| &s[1])));
        object.field("help", json!(failure.help));
    }
    object.end()
}

fn error(diag: &Diagnostic, exit_code: i32, sources: &Sources) -> String {
    // Labels can show values of millions of items: cut as on a terminal.
    let diag = diag.clipped();
    let mut object = Object::new("error", diag.span, sources);
    let stage = match diag.phase {
        _ if exit_code == exit::USAGE => "usage",
        Phase::Syntax => "syntax",
        Phase::Check => "check",
        Phase::Runtime => "runtime",
        Phase::Limit => "limit",
        Phase::Expect => "expect",
        Phase::Interrupted => "interrupted",
    };
    object.field("stage", json!(stage));
    object.field("message", json!(diag.message));
    object.field("exit_code", json!(exit_code));
    let primary = diag.span.map(|span| (span, &diag.label, true));
    let extra = diag.extra.iter().map(|(span, text)| (*span, text, false));
    let labels: Vec<String> = primary
        .into_iter()
        .chain(extra)
        .map(|(span, text, primary)| label(span, text, primary, sources))
        .collect();
    object.raw("labels", &format!("[{}]", labels.join(",")));
    object.field("notes", json!(diag.notes));
    object.field("help", json!(diag.help));
    object.end()
}

/// A labelled span: where it starts and ends, in bytes of its source and
/// as lines and columns, and what it says.
fn label(span: Span, text: &str, primary: bool, sources: &Sources) -> String {
    let (line, col) = sources.line_col(span.file, span.start as usize);
    let (end_line, end_col) = sources.line_col(span.file, span.end as usize);
    let mut object = Object(String::new());
    object.field("file", json!(sources.name(span.file)));
    object.field("start", json!(span.start));
    object.field("end", json!(span.end));
    object.field("line", json!(line));
    object.field("col", json!(col));
    object.field("end_line", json!(end_line));
    object.field("end_col", json!(end_col));
    object.field("message", json!(text));
    object.field("primary", json!(primary));
    object.end()
}

/// Whether `v` written out holds at most `budget` items, each integer,
/// boolean, string, position or game counting one, and every item of a
/// collection counting however many its own items do. Values share their
/// parts, so a small one can be astronomically large written out.
fn fits(v: &Value, budget: &mut usize) -> bool {
    let Some(left) = budget.checked_sub(1) else {
        return false;
    };
    *budget = left;
    match v {
        Value::Tuple(items) => items.iter().all(|v| fits(v, budget)),
        Value::List(items) => items.iter().all(|v| fits(v, budget)),
        Value::Set(items) => items.iter().all(|v| fits(v, budget)),
        Value::Report(r) => r.items().iter().all(|v| fits(v, budget)),
        Value::Range(lo, hi) => {
            let len = (i128::from(*hi) - i128::from(*lo)).max(0);
            match usize::try_from(len)
                .ok()
                .and_then(|len| budget.checked_sub(len))
            {
                Some(left) => {
                    *budget = left;
                    true
                }
                None => false,
            }
        }
        Value::Int(_) | Value::Bool(_) | Value::Str(_) | Value::Pos(_) | Value::Game(_) => true,
    }
}

fn too_large(span: Span, max_items: usize) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(Phase::Limit, "the value is too large to write as JSON")
            .at(
                span,
                format!("written out, this value holds more than {max_items} items"),
            )
            .help("raise the limit with --max-items, or print a part of the value"),
    )
}

/// The value as native JSON: integers (exact, as all are 64-bit),
/// booleans and strings as themselves; lists, tuples, sets, ranges and
/// the lists of `table` and `moves` as arrays; positions and games as
/// their printed text.
fn write_value(v: &Value, machine: &Machine, out: &mut String) {
    match v {
        Value::Int(n) => out.push_str(&n.to_string()),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Str(s) => out.push_str(&json!(&**s).to_string()),
        Value::Tuple(items) => write_items(items.iter(), machine, out),
        Value::List(items) => write_items(items.iter(), machine, out),
        Value::Set(items) => write_items(items.iter(), machine, out),
        Value::Report(r) => write_items(r.items().iter(), machine, out),
        Value::Range(lo, hi) => {
            out.push('[');
            for n in *lo..*hi {
                if n > *lo {
                    out.push(',');
                }
                out.push_str(&n.to_string());
            }
            out.push(']');
        }
        Value::Pos(_) | Value::Game(_) => out.push_str(&json!(machine.show(v)).to_string()),
    }
}

fn write_items<'a>(items: impl Iterator<Item = &'a Value>, machine: &Machine, out: &mut String) {
    out.push('[');
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_value(item, machine, out);
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fits_in(v: &Value, budget: usize) -> bool {
        let mut budget = budget;
        fits(v, &mut budget)
    }

    #[test]
    fn shared_parts_count_each_time_they_are_written() {
        let ten = Value::list((0..10).map(Value::Int).collect());
        let hundred = Value::list(vec![ten; 10]);
        // The outer list, and ten lists of one list and ten integers.
        assert!(fits_in(&hundred, 111));
        assert!(!fits_in(&hundred, 110));
    }

    #[test]
    fn a_range_counts_its_integers() {
        assert!(fits_in(&Value::Range(0, 5), 6));
        assert!(!fits_in(&Value::Range(0, 5), 5));
        assert!(fits_in(&Value::Range(5, 0), 1));
        assert!(!fits_in(&Value::Range(i64::MIN, i64::MAX), usize::MAX));
    }
}
