//! A nim-sequence as a chart: value against `n`, with the positions of
//! value 0 (the player to move loses) marked in red, drawn with plotters
//! as SVG or PNG. The text is drawn with a font carried in the binary
//! (`assets/fonts`), so a chart looks the same on every machine and needs
//! no system fonts.
//!
//! Up to one point per pixel column is drawn as is; a longer sequence is
//! cut into as many runs of neighbours as there are columns, and in each
//! run one value per pixel row it reaches is drawn, where the run starts.
//! Every value that occurs, or one a pixel away, still shows (0 always),
//! and a chart of 100,000 values stays a few thousand points.

use super::Format;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::OnceLock;

/// A one-parameter game's values over a range of its parameter.
#[derive(Debug)]
pub struct Sequence {
    /// `kayles(n), n = 0..=100`.
    pub title: String,
    /// The parameter's name, for the horizontal axis.
    pub param: String,
    /// `(n, value)`, `n` increasing by one.
    pub points: Vec<(i64, u64)>,
}

/// The size of a chart when none is asked for, in pixels.
pub const DEFAULT_SIZE: (u32, u32) = (960, 540);

/// The widths and heights a chart may have, in pixels.
pub const SIZES: RangeInclusive<u32> = 200..=4096;

/// DejaVu Sans, cut down to ASCII (see `assets/fonts/LICENSE-DejaVu.txt`).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

const NONZERO: RGBColor = RGBColor(0x35, 0x6a, 0xa8);
const ZERO: RGBColor = RGBColor(0xd6, 0x27, 0x28);

/// The chart of `seq` written to `path` as `format` (SVG or PNG) of
/// `size` pixels. The error says what went wrong, with the path.
pub fn write(seq: &Sequence, path: &Path, format: Format, size: (u32, u32)) -> Result<(), String> {
    font()?;
    let failed = |e: &dyn std::fmt::Display| format!("cannot write `{}`: {e}", path.display());
    match format {
        Format::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
                draw(&root, seq, size).map_err(|e| failed(&e))?;
                root.present().map_err(|e| failed(&e))?;
            }
            std::fs::write(path, text).map_err(|e| failed(&e))
        }
        Format::Png => {
            // The bitmap backend writes the file itself, when presented;
            // a file that cannot be made is found out before drawing.
            std::fs::File::create(path).map_err(|e| failed(&e))?;
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw(&root, seq, size).map_err(|e| failed(&e))?;
            root.present().map_err(|e| failed(&e))
        }
        Format::Dot => Err(format!(
            "`{}`: a plot is written as `.svg` or `.png`",
            path.display()
        )),
    }
}

/// Registers the carried font with plotters, once.
fn font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
                .map_err(|_| "the font carried for plots cannot be read".to_string())
        })
        .clone()
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    seq: &Sequence,
    size: (u32, u32),
) -> Drawn<DB> {
    root.fill(&WHITE)?;
    // The title and the key above the chart, where they hide no point.
    let (header, body) = root.split_vertically(64);
    header.titled(&seq.title, ("sans-serif", 22))?;
    key(&header, size.0 as i32)?;
    let (first, last) = match (seq.points.first(), seq.points.last()) {
        (Some(first), Some(last)) => (first.0 as f64, last.0 as f64),
        _ => (0.0, 0.0),
    };
    let top = seq.points.iter().map(|p| p.1).max().unwrap_or(0) as f64;
    let mut chart = ChartBuilder::on(&body)
        .margin(16)
        .margin_top(4)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(first - 0.5..last + 0.5, -0.5..top + 0.5)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(0)
        .x_desc(seq.param.as_str())
        .y_desc("nim-value")
        // As many ticks as whole numbers on a short axis, so that no tick
        // falls between two of them.
        .x_labels((seq.points.len() + 1).min(12))
        .y_labels((top as usize + 2).min(12))
        .x_label_formatter(&|x| integer(*x))
        .y_label_formatter(&|y| integer(*y))
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    // Shading for a preperiod and a period, once the runtime finds them,
    // belongs here: drawn before the points, so that they stay on top.
    let points = decimated(&seq.points, (size.0 as usize, size.1 as usize));
    let radius = match points.len() {
        0..=200 => 3,
        201..=2000 => 2,
        _ => 1,
    };
    let nonzero = points.iter().filter(|p| p.1 != 0);
    chart.draw_series(
        nonzero.map(|&(n, v)| Circle::new((n as f64, v as f64), radius, NONZERO.filled())),
    )?;
    let zeros = points.iter().filter(|p| p.1 == 0);
    chart.draw_series(
        zeros.map(|&(n, _)| Circle::new((n as f64, 0.0), radius + 1, ZERO.filled())),
    )?;
    Ok(())
}

/// What the colours mean, on one line at the bottom right of the header.
fn key<DB: DrawingBackend>(header: &DrawingArea<DB, Shift>, width: i32) -> Drawn<DB> {
    let style = ("sans-serif", 13).into_font().color(&BLACK);
    let entries = [
        (ZERO, "value 0: the player to move loses"),
        (NONZERO, "value > 0"),
    ];
    let mut x = width - 16;
    for (colour, text) in entries.iter().rev() {
        let (w, _) = header.estimate_text_size(text, &style)?;
        x -= w as i32;
        header.draw(&Text::new(*text, (x, 44), style.clone()))?;
        x -= 14;
        header.draw(&Rectangle::new([(x, 46), (x + 9, 55)], colour.filled()))?;
        x -= 18;
    }
    Ok(())
}

/// An axis label for whole numbers only: the ticks plotters chooses
/// between them stay unlabelled.
fn integer(x: f64) -> String {
    match x.fract() == 0.0 {
        true => format!("{x:.0}"),
        false => String::new(),
    }
}

/// The points to draw for a chart `columns` pixels wide and `rows`
/// high: all of them if they fit across, else, for each run of
/// neighbours, one point per pixel row that its values fall in (see the
/// module's comment). A value 0 is never merged with another.
pub fn decimated(points: &[(i64, u64)], (columns, rows): (usize, usize)) -> Vec<(i64, u64)> {
    let columns = columns.max(1);
    if points.len() <= columns {
        return points.to_vec();
    }
    let top = points.iter().map(|p| p.1).max().unwrap_or(0) as u128 + 1;
    let row = |v: u64| match v {
        0 => 0,
        v => 1 + v as u128 * rows.max(1) as u128 / top,
    };
    let run = points.len().div_ceil(columns);
    let mut out = Vec::new();
    let mut values = Vec::with_capacity(run);
    for chunk in points.chunks(run) {
        values.clear();
        values.extend(chunk.iter().map(|p| p.1));
        values.sort_unstable();
        values.dedup_by_key(|v| row(*v));
        out.extend(values.iter().map(|v| (chunk[0].0, *v)));
    }
    out
}

/// A chart size written as `WIDTHxHEIGHT`, e.g. `960x540`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{text}` is not a size such as `960x540` (width x height in pixels)");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !SIZES.contains(&w) || !SIZES.contains(&h) {
        return Err(format!(
            "`{text}`: width and height must be from {} to {} pixels",
            SIZES.start(),
            SIZES.end()
        ));
    }
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_sequences_are_drawn_whole() {
        let points: Vec<(i64, u64)> = (0..10).map(|n| (n, n as u64 % 3)).collect();
        assert_eq!(decimated(&points, (100, 100)), points);
    }

    #[test]
    fn long_sequences_keep_every_value_of_each_run() {
        let points: Vec<(i64, u64)> = (0..1000).map(|n| (n, n as u64 % 4)).collect();
        let drawn = decimated(&points, (100, 500));
        // Runs of ten, each holding all four values.
        assert_eq!(drawn.len(), 100 * 4);
        assert_eq!(&drawn[..5], &[(0, 0), (0, 1), (0, 2), (0, 3), (10, 0)]);
    }

    #[test]
    fn values_that_fall_in_one_pixel_row_are_drawn_once() {
        // Values as large as n: runs of ten values each a fraction of a
        // row apart, in 50 rows.
        let points: Vec<(i64, u64)> = (0..1000).map(|n| (n, n as u64)).collect();
        let drawn = decimated(&points, (100, 50));
        assert!(drawn.len() <= 100 * 2, "{}", drawn.len());
        assert_eq!(drawn[0], (0, 0), "the zero is kept apart");
        assert!(drawn.iter().all(|p| p.0 % 10 == 0));
        // Each run still reaches from its least value to past its middle.
        assert!(drawn.iter().any(|p| p.1 >= 990));
    }

    #[test]
    fn sizes_are_read_and_bounded() {
        assert_eq!(parse_size("800x600"), Ok((800, 600)));
        assert!(parse_size("800").is_err());
        assert!(
            parse_size("10x600")
                .unwrap_err()
                .contains("from 200 to 4096")
        );
    }
}
