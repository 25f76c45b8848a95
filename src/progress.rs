//! Watching a long evaluation from another thread: a live progress line on
//! a terminal, and the `--max-memory` limit. The evaluator only publishes a
//! few counters in a shared [`Pulse`] where it already stops to look at
//! Ctrl-C and the clock (every few thousand steps, never per position); a
//! watcher thread ([`watch`]) reads them ten times a second, draws the line
//! on standard error with indicatif, and measures the process's resident
//! memory. Past the memory limit it cancels the evaluation as Ctrl-C does,
//! and the evaluator reports the limit instead of the interruption.
//!
//! Nothing is drawn during the first second of a run, on a pipe, with `CI`
//! set or with `--quiet`; output of the session goes through [`Clearing`]
//! writers, which take the line away before anything is written.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What the evaluator shares with the watcher.
#[derive(Default)]
pub struct Pulse {
    /// Positions interned so far (the graph's size), published now and then.
    positions: AtomicUsize,
    /// Cells of the table under way that have values, and how many it has
    /// (0: no table under way).
    table_done: AtomicUsize,
    table_total: AtomicUsize,
    /// The resident memory measured over the limit, in bytes; 0 while under.
    over_memory: AtomicU64,
    run: Mutex<Run>,
}

/// The run under way, if any, and its progress line once drawn.
#[derive(Default)]
struct Run {
    started: Option<Instant>,
    /// Positions when the run started: the line counts the run's own.
    positions_before: usize,
    bar: Option<ProgressBar>,
}

impl Pulse {
    fn run(&self) -> MutexGuard<'_, Run> {
        // A panic while drawing leaves nothing half-done worth refusing.
        self.run.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A run (a command, or one REPL entry) starts.
    pub fn begin(&self) {
        let mut run = self.run();
        run.started = Some(Instant::now());
        run.positions_before = self.positions.load(Ordering::Relaxed);
        self.over_memory.store(0, Ordering::Relaxed);
        self.table(0, 0);
    }

    /// The run is over: the progress line goes away before anything else
    /// is written.
    pub fn end(&self) {
        let mut run = self.run();
        run.started = None;
        clear(&mut run);
    }

    /// Takes the progress line away (it comes back at the next tick).
    pub fn hide(&self) {
        clear(&mut self.run());
    }

    #[inline]
    pub fn positions(&self, n: usize) {
        self.positions.store(n, Ordering::Relaxed);
    }

    /// `done` of the `total` cells of a table have values.
    #[inline]
    pub fn table(&self, done: usize, total: usize) {
        self.table_done.store(done, Ordering::Relaxed);
        self.table_total.store(total, Ordering::Relaxed);
    }

    /// The resident memory that went over `--max-memory`, if it did.
    pub fn over_memory(&self) -> Option<u64> {
        Some(self.over_memory.load(Ordering::Relaxed)).filter(|b| *b > 0)
    }
}

fn clear(run: &mut Run) {
    if let Some(bar) = run.bar.take() {
        bar.finish_and_clear();
    }
}

/// What the watcher does.
pub struct Watch {
    /// Draw the progress line (on a terminal only).
    pub progress: bool,
    /// `--max-memory`, in bytes.
    pub max_memory: Option<u64>,
    /// Set to stop the evaluation, as Ctrl-C does.
    pub cancel: Arc<AtomicBool>,
}

/// How often the watcher looks; also how late the memory limit may act.
const TICK: Duration = Duration::from_millis(100);
/// Runs shorter than this show no progress line.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Starts the watcher thread; it lives as long as the process.
pub fn watch(pulse: Arc<Pulse>, watch: Watch) {
    if !watch.progress && watch.max_memory.is_none() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("watcher".into())
        .stack_size(256 << 10)
        .spawn(move || {
            loop {
                std::thread::sleep(TICK);
                tick(&pulse, &watch);
            }
        });
    if let Err(e) = spawned {
        let _ = writeln!(
            io::stderr(),
            "warning: no progress line nor memory limit: {e}"
        );
    }
}

fn tick(pulse: &Pulse, watch: &Watch) {
    let mut run = pulse.run();
    let Some(started) = run.started else { return };
    if let (Some(limit), Some(used)) = (watch.max_memory, resident_memory())
        && used > limit
        && pulse.over_memory().is_none()
    {
        pulse.over_memory.store(used, Ordering::Relaxed);
        watch.cancel.store(true, Ordering::Relaxed);
    }
    let elapsed = started.elapsed();
    if !watch.progress || elapsed < QUIET_FOR {
        return;
    }
    let positions = pulse
        .positions
        .load(Ordering::Relaxed)
        .saturating_sub(run.positions_before);
    let rate = positions as f64 / elapsed.as_secs_f64();
    let mut line = format!(
        "{} positions, {}/s, {}s",
        thousands(positions as u64),
        thousands(rate as u64),
        elapsed.as_secs()
    );
    let total = pulse.table_total.load(Ordering::Relaxed);
    if total > 0 {
        let done = pulse.table_done.load(Ordering::Relaxed);
        line = format!(
            "table {}/{} cells; {line}",
            thousands(done as u64),
            thousands(total as u64)
        );
    }
    match &run.bar {
        Some(bar) => {
            bar.set_message(line);
            // The spinner turns even when no count moves.
            bar.tick();
        }
        None => run.bar = Some(new_bar(line)),
    }
}

fn new_bar(line: String) -> ProgressBar {
    let style = ProgressStyle::with_template("{spinner} evaluating: {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        .with_style(style)
        .with_message(line);
    bar.tick();
    bar
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The process's resident memory, from `/proc/self/status` (Linux);
/// `None` where there is no such file.
pub fn resident_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&status, "VmRSS:")
}

/// A `Name:   1234 kB` line of a `/proc` file, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The physical memory of the machine, from `/proc/meminfo`.
pub fn physical_memory() -> Option<u64> {
    kib_field(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemTotal:")
}

/// `1.5 MiB`: a size in bytes for people.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut size = bytes as f64;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < UNITS.len() {
        size /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{size:.1} {}", UNITS[unit])
    }
}

/// A writer that takes the progress line away before each write, so that
/// output never mixes with it.
pub struct Clearing<W> {
    pub inner: W,
    pub pulse: Arc<Pulse>,
}

impl<W: Write> Write for Clearing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pulse.hide();
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_print_with_thousands_separators() {
        let shown: Vec<String> = [0, 999, 1000, 1234567].map(thousands).into();
        assert_eq!(shown, ["0", "999", "1,000", "1,234,567"]);
    }

    #[test]
    fn the_memory_limit_cancels_a_run_and_says_how_much_was_used() {
        let pulse = Pulse::default();
        let cancel = Arc::new(AtomicBool::new(false));
        let watch = Watch {
            progress: false,
            max_memory: Some(1),
            cancel: cancel.clone(),
        };
        tick(&pulse, &watch);
        assert!(!cancel.load(Ordering::Relaxed), "no run under way");
        pulse.begin();
        tick(&pulse, &watch);
        if resident_memory().is_some() {
            assert!(cancel.load(Ordering::Relaxed));
            assert!(pulse.over_memory().is_some_and(|b| b > 1));
        }
        pulse.begin();
        assert_eq!(pulse.over_memory(), None, "each run starts afresh");
    }
}
