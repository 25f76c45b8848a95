//! `csv(t)`: a table as comma-separated values, for a spreadsheet or a
//! plotting tool. A `table(...)` result keeps its axis labels and a
//! header; any other list is read as rows. Fields are quoted as RFC 4180
//! says: a field holding a comma, a double quote or a line break is put in
//! double quotes, with its double quotes doubled. Lines end with `\n` and
//! the text has no final newline, since printing it adds one.

use crate::runtime::{Machine, RtResult};
use crate::span::Span;
use crate::value::{ReportText, TableSpec, Value};

impl Machine {
    /// `csv(t)` of a table result, or of a collection of rows (each a
    /// collection of cells, or a single cell).
    pub(super) fn csv(&mut self, (t, span): (&Value, Span)) -> RtResult<Value> {
        let mut text = String::new();
        if let Value::Report(r) = t
            && let ReportText::Table(spec) = &r.text
        {
            self.table_csv(spec, &mut text, span)?;
            return Ok(Value::str(&text));
        }
        for (i, row) in self.items(t, span)?.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            let cells: Vec<String> = match row {
                Value::Int(_) | Value::Bool(_) | Value::Str(_) | Value::Pos(_) | Value::Game(_) => {
                    vec![self.show_top(row)]
                }
                row => self
                    .items(row, span)?
                    .iter()
                    .map(|v| self.show_top(v))
                    .collect(),
            };
            push_record(&mut text, cells.iter().map(String::as_str));
            self.check_size(text.len() as i64, span)?;
        }
        Ok(Value::str(&text))
    }

    /// A one-parameter table as two columns (the argument, the value); a
    /// grid as it prints, its first row the columns' arguments.
    fn table_csv(&self, spec: &TableSpec, text: &mut String, span: Span) -> RtResult<()> {
        let TableSpec {
            title,
            params,
            axes,
            nims,
        } = spec;
        match &axes[..] {
            [xs] => {
                push_record(text, [&*params[0], title.as_str()].into_iter());
                for i in 0..xs.len() {
                    text.push('\n');
                    let label = self.show_top(&xs.get(i));
                    push_record(
                        text,
                        [label, nims.get(i).to_string()].iter().map(String::as_str),
                    );
                    self.check_size(text.len() as i64, span)?;
                }
            }
            [xs, ys] => {
                let corner = format!("{}\\{}", params[0], params[1]);
                let header = (0..ys.len()).map(|j| self.show_top(&ys.get(j)));
                let header: Vec<String> = [corner].into_iter().chain(header).collect();
                push_record(text, header.iter().map(String::as_str));
                for i in 0..xs.len() {
                    text.push('\n');
                    let values = (0..ys.len()).map(|j| nims.get(i * ys.len() + j).to_string());
                    let row: Vec<String> = [self.show_top(&xs.get(i))]
                        .into_iter()
                        .chain(values)
                        .collect();
                    push_record(text, row.iter().map(String::as_str));
                    self.check_size(text.len() as i64, span)?;
                }
            }
            _ => unreachable!("a table has one or two axes"),
        }
        Ok(())
    }
}

/// One line of CSV: the fields, quoted where they must be, comma-separated.
fn push_record<'a>(text: &mut String, fields: impl Iterator<Item = &'a str>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            text.push(',');
        }
        if field.contains([',', '"', '\n', '\r']) {
            text.push('"');
            text.push_str(&field.replace('"', "\"\""));
            text.push('"');
        } else {
            text.push_str(field);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::push_record;

    fn record(fields: &[&str]) -> String {
        let mut text = String::new();
        push_record(&mut text, fields.iter().copied());
        text
    }

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        assert_eq!(record(&["a", "b c", ""]), "a,b c,");
        assert_eq!(record(&["x, y"]), "\"x, y\"");
        assert_eq!(record(&["say \"hi\""]), "\"say \"\"hi\"\"\"");
        assert_eq!(record(&["two\nlines", "cr\r"]), "\"two\nlines\",\"cr\r\"");
    }
}
