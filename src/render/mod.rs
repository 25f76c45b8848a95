//! Pictures of what the runtime has worked out, as files for other tools:
//! a position's transition graph as Graphviz DOT (`dot.rs`), and a
//! nim-sequence as an SVG or PNG chart (`plot.rs`). Both take plain data
//! made by the runtime (`runtime/transitions.rs`, `runtime/plot.rs`) and
//! know nothing of games, so they depend on no other module.

pub mod dot;
pub mod plot;

use std::path::Path;

/// The kinds of file a picture is written as, told by the file's
/// extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Dot,
    Svg,
    Png,
}

impl Format {
    /// The format a path's extension names, from among `allowed`; the
    /// error says which extensions are.
    pub fn of_path(path: &Path, allowed: &[Format]) -> Result<Format, String> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let found = allowed
            .iter()
            .copied()
            .find(|f| ext.as_deref() == Some(f.extension()));
        found.ok_or_else(|| {
            let names: Vec<String> = allowed
                .iter()
                .map(|f| format!("`.{}`", f.extension()))
                .collect();
            let given = match &ext {
                Some(ext) => format!("`.{ext}`"),
                None => "no extension".to_string(),
            };
            format!(
                "`{}` has {given}: the file must end in {}",
                path.display(),
                or_list(&names)
            )
        })
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Dot => "dot",
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_come_from_extensions_in_any_case() {
        let all = [Format::Dot, Format::Svg, Format::Png];
        assert_eq!(Format::of_path(Path::new("a/b.SVG"), &all), Ok(Format::Svg));
        assert_eq!(Format::of_path(Path::new("b.dot"), &all), Ok(Format::Dot));
        assert_eq!(
            Format::of_path(Path::new("b.jpg"), &[Format::Svg, Format::Png]),
            Err("`b.jpg` has `.jpg`: the file must end in `.svg` or `.png`".to_string())
        );
        assert_eq!(
            Format::of_path(Path::new("plot"), &all),
            Err(
                "`plot` has no extension: the file must end in `.dot`, `.svg` or `.png`"
                    .to_string()
            )
        );
    }
}
