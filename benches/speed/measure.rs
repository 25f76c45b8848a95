//! Runs grundy, the baseline and (when installed) ogsolve on one workload at
//! one size, each in a child process of its own, and checks that they all
//! give the same answer.

use crate::child::{self, Outcome};
use crate::workloads::{self, Answer, Workload};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The median of the runs of one program (the lower middle one for an
/// even count), each figure taken separately.
#[derive(Clone, Copy)]
pub struct Stats {
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_kib: u64,
}

/// The result of one program on one workload: its statistics, or a short
/// word for the table when it failed (the details have gone to stderr).
pub type Cell = Result<Stats, &'static str>;

pub struct Row {
    pub grundy: Cell,
    pub baseline: Cell,
    /// `None` when ogsolve is not installed or cannot play the game.
    pub ogsolve: Option<Cell>,
}

impl Row {
    pub fn failed(&self) -> bool {
        self.grundy.is_err() || self.baseline.is_err() || matches!(self.ogsolve, Some(Err(_)))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Program {
    Grundy,
    Baseline,
    Ogsolve,
}

pub struct Runner {
    /// Where the resized scripts are written.
    pub dir: PathBuf,
    pub timeout: Duration,
    pub runs: usize,
    /// The ogsolve binary, when it is on the PATH.
    pub ogsolve: Option<PathBuf>,
}

impl Runner {
    /// Measures `w` at size `n`: `runs` rounds, grundy first in even rounds
    /// and the baseline first in odd ones, so that noise hits both alike.
    pub fn compare(&self, w: &Workload, n: usize) -> Row {
        let script = match self.write_script(w, n) {
            Ok(path) => path,
            Err(e) => {
                eprintln!("speed: {e}");
                let fail = Err("no script");
                return Row {
                    grundy: fail,
                    baseline: fail,
                    ogsolve: None,
                };
            }
        };
        let ogsolve = self.ogsolve.is_some() && w.octal.is_some();
        let mut samples: [Vec<child::Measured>; 3] = Default::default();
        let mut errors: [Option<&'static str>; 3] = [None; 3];
        for round in 0..self.runs {
            let mut order = vec![Program::Grundy, Program::Baseline];
            if round % 2 == 1 {
                order.reverse();
            }
            if ogsolve {
                order.push(Program::Ogsolve);
            }
            let mut answers: [Option<Answer>; 3] = Default::default();
            for p in order {
                if errors[p as usize].is_some() {
                    continue;
                }
                match self.run_once(w, n, p, &script) {
                    Ok((m, answer)) => {
                        samples[p as usize].push(m);
                        answers[p as usize] = Some(answer);
                    }
                    Err(word) => errors[p as usize] = Some(word),
                }
            }
            check_answers(w, n, &answers, &mut errors);
        }
        let cell = |p: Program| match errors[p as usize] {
            Some(word) => Err(word),
            None => Ok(median(&samples[p as usize])),
        };
        Row {
            grundy: cell(Program::Grundy),
            baseline: cell(Program::Baseline),
            ogsolve: ogsolve.then(|| cell(Program::Ogsolve)),
        }
    }

    fn write_script(&self, w: &Workload, n: usize) -> Result<PathBuf, String> {
        let path = self.dir.join(format!("{}-{n}.game", w.name));
        std::fs::write(&path, w.script(n)?).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }

    /// One run of one program: what it took and the answer it printed.
    fn run_once(
        &self,
        w: &Workload,
        n: usize,
        p: Program,
        script: &Path,
    ) -> Result<(child::Measured, Answer), &'static str> {
        let cmd = self.command(w, n, p, script);
        let name = ["grundy", "baseline", "ogsolve"][p as usize];
        match child::run_isolated(&cmd, self.timeout) {
            Outcome::Done(mut m) => {
                let out = std::mem::take(&mut m.stdout);
                let parsed = match p {
                    Program::Ogsolve => workloads::parse_ogsolve(&out),
                    _ => w.parse(&out),
                };
                match parsed {
                    Ok(answer) => Ok((m, answer)),
                    Err(e) => {
                        eprintln!("speed: {}, N = {n}: {name} printed no answer: {e}", w.name);
                        Err("bad output")
                    }
                }
            }
            Outcome::TimedOut(t) => {
                eprintln!("speed: {}, N = {n}: {name} timed out after {t:?}", w.name);
                Err("timeout")
            }
            Outcome::Failed(e) => {
                eprintln!("speed: {}, N = {n}: {name} failed: {e}", w.name);
                Err("failed")
            }
        }
    }

    fn command(&self, w: &Workload, n: usize, p: Program, script: &Path) -> Command {
        match p {
            Program::Grundy => {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
                cmd.arg("run").arg(script);
                cmd
            }
            Program::Baseline => {
                let me = std::env::current_exe().expect("the path of this program");
                let mut cmd = Command::new(me);
                cmd.args(["--child", "baseline", w.name, &n.to_string()]);
                cmd
            }
            Program::Ogsolve => {
                let mut cmd = Command::new(self.ogsolve.as_ref().expect("ogsolve"));
                let octal = w.octal.expect("an octal game");
                cmd.args([octal, "-m", "naive", "-n", &n.to_string(), "-p"]);
                cmd
            }
        }
    }
}

/// Every answer must equal the baseline's; a program that disagrees is
/// marked MISMATCH and reported on stderr.
fn check_answers(
    w: &Workload,
    n: usize,
    answers: &[Option<Answer>; 3],
    errors: &mut [Option<&'static str>; 3],
) {
    let Some(expected) = &answers[Program::Baseline as usize] else {
        return;
    };
    for p in [Program::Grundy, Program::Ogsolve] {
        if let Some(got) = &answers[p as usize]
            && got != expected
        {
            let name = ["grundy", "baseline", "ogsolve"][p as usize];
            let diff = workloads::difference(expected, got);
            eprintln!(
                "speed: MISMATCH: {}, N = {n}: {name} disagrees with the baseline: {diff}",
                w.name
            );
            errors[p as usize] = Some("MISMATCH");
        }
    }
}

fn median(samples: &[child::Measured]) -> Stats {
    fn mid<T: Ord + Copy>(mut xs: Vec<T>) -> T {
        xs.sort();
        xs[(xs.len() - 1) / 2]
    }
    Stats {
        cpu: mid(samples.iter().map(|m| m.cpu).collect()),
        wall: mid(samples.iter().map(|m| m.wall).collect()),
        peak_kib: mid(samples.iter().map(|m| m.peak_kib).collect()),
    }
}

/// The ogsolve binary on the PATH, if any.
pub fn find_ogsolve() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("ogsolve"))
        .find(|p| p.is_file())
}
