//! The workloads of the speed harness (`benches/speed`) at small sizes:
//! grundy's answer, from its real binary, must equal the baseline's,
//! computed here; and the baselines must reproduce published values.
//! Nothing here is timed.

mod common;

#[allow(dead_code)] // the harness uses more of each module than the tests
#[path = "../benches/speed/baselines.rs"]
mod baselines;
#[allow(dead_code)]
#[path = "../benches/speed/known.rs"]
mod known;
#[allow(dead_code)]
#[path = "../benches/speed/pairs.rs"]
mod pairs;
#[allow(dead_code)]
#[path = "../benches/speed/workloads.rs"]
mod workloads;

use workloads::{ALL, Answer, Workload};

/// What grundy prints for workload `w` at size `n`.
fn grundy(w: &Workload, n: usize) -> String {
    let script = w.script(n).unwrap();
    let out = common::run_stdin(&script);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{} at N = {n}: {}",
        w.name,
        common::text(&out.stderr)
    );
    common::text(&out.stdout)
}

/// The answer as the baseline prints it.
fn render(w: &Workload, answer: &Answer) -> String {
    let mut out = Vec::new();
    w.write_answer(answer, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn agrees(w: &Workload, n: usize) {
    let printed = grundy(w, n);
    let expected = (w.baseline)(n);
    let got = w
        .parse(&printed)
        .unwrap_or_else(|e| panic!("{} at N = {n}: {e}", w.name));
    assert!(
        got == expected,
        "{} at N = {n}: {}",
        w.name,
        workloads::difference(&expected, &got)
    );
    // The baseline prints the very same text, so both pay the same output.
    assert_eq!(render(w, &expected), printed, "{} at N = {n}", w.name);
}

#[test]
fn every_workload_agrees_with_its_baseline_at_its_smoke_size() {
    for w in &ALL {
        agrees(w, w.smoke);
    }
}

#[test]
fn every_workload_is_right_at_tiny_sizes() {
    for w in &ALL {
        for n in 0..=3 {
            agrees(w, n);
        }
    }
}

#[test]
fn the_baselines_agree_with_published_values() {
    let wrong = known::check();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_different_answer_is_read_as_different() {
    let kayles = workloads::find("kayles").unwrap();
    let right = render(kayles, &Answer::Seq(known::KAYLES.to_vec()));
    assert_eq!(
        kayles.parse(&right),
        Ok(Answer::Seq(known::KAYLES.to_vec()))
    );
    let wrong = right.replacen(" |  0  1  2  3", " |  0  1  2  4", 1);
    assert_ne!(wrong, right);
    assert_ne!(
        kayles.parse(&wrong),
        Ok(Answer::Seq(known::KAYLES.to_vec()))
    );
    let short = right.lines().take(3).collect::<Vec<_>>().join("\n");
    assert_ne!(
        kayles.parse(&short),
        Ok(Answer::Seq(known::KAYLES.to_vec()))
    );
    assert!(kayles.parse("error: something").is_err());
    let each = workloads::find("take_from_each").unwrap();
    assert!(each.parse("first").is_err());
    let coins = workloads::find("coins").unwrap();
    assert!(coins.parse("3").is_err());
}

#[test]
fn ogsolve_output_is_read() {
    let out = "Solving 0.77 with naive:\n nimbers: 0 1 2 3 1 4\n nimber of 5: 4\n";
    assert_eq!(
        workloads::parse_ogsolve(out),
        Ok(Answer::Seq(vec![0, 1, 2, 3, 1, 4]))
    );
    assert!(workloads::parse_ogsolve("nothing").is_err());
}

#[test]
fn every_rule_file_is_a_workload() {
    let mut files: Vec<String> = ALL
        .iter()
        .map(|w| format!("benches/workloads/{}", w.file))
        .collect();
    files.sort();
    assert_eq!(files, common::files("benches/workloads", ".game"));
}

#[test]
fn each_script_has_one_size_line() {
    for w in &ALL {
        let script = w.script(7).unwrap();
        assert_eq!(script.lines().filter(|l| *l == "let N = 7").count(), 1);
    }
}
