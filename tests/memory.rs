//! Peak memory of whole runs, measured on the real binary: a search must
//! not keep what it no longer needs. Grundy's game asked top-down, with a
//! user function or a list in its guard, once held every option of every
//! position on the search path: about 32 bytes an option, n²/4 options,
//! so 66 MB at n = 2,000 and 6 GB at n = 20,000. The search keeps a
//! bounded number of waiting options per position now.
//!
//! Each case's bound is far below what the old search took and far above
//! what the binary needs to start (about 4 MB); it also covers the test
//! process, whose memory Linux counts in the child's peak until its exec.

use std::process::{Command, Stdio};

#[path = "support/reap.rs"]
mod reap;

/// The peak resident memory of `grundy run` on `script`, in KiB, with
/// what it printed.
fn peak_kib(script: &str) -> (u64, String) {
    let (kib, out, err, ok) = peak_kib_with(script, &[]);
    assert!(ok, "grundy failed on:\n{script}\n{err}");
    (kib, out)
}

/// [`peak_kib`] of `grundy run ARGS`, whether or not it succeeds: the
/// peak, what it printed and reported, and whether it exited with 0.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which also gives its resource usage"
)]
fn peak_kib_with(script: &str, args: &[&str]) -> (u64, String, String, bool) {
    let dir = std::env::temp_dir().join(format!("grundy-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{:x}.game", fxhash(script)));
    std::fs::write(&file, script).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("run")
        .args(args)
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grundy binary starts");
    let pid = child.id() as libc::pid_t;
    let (status, usage) = reap::reap(pid);
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.unwrap(), &mut out).unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.unwrap(), &mut err).unwrap();
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    (usage.ru_maxrss as u64, out, err, ok)
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

/// Grundy's game (split a heap into two unequal heaps) to `n`, asked
/// top-down, with `guard` deciding which splits are allowed.
fn grundy_game(prelude: &str, guard: &str, n: u32) -> String {
    format!(
        "{prelude}\ngame grundy(n) {{\n    move split(a in 1..n) if {guard} -> grundy(a) + grundy(n - a)\n}}\nvalue(grundy({n}))\n"
    )
}

#[test]
fn a_top_down_search_keeps_memory_bounded_whatever_the_guard() {
    const BOUND_KIB: u64 = 40 << 10;
    let cases = [
        ("fn unequal(a, n) = a != n - a", "unequal(a, n)"),
        ("", "a not in [n - a]"),
        ("", "a != n - a"),
    ];
    let mut values = Vec::new();
    for (prelude, guard) in cases {
        let (kib, out) = peak_kib(&grundy_game(prelude, guard, 2000));
        values.push(out);
        assert!(
            kib < BOUND_KIB,
            "`{guard}`: peak memory {kib} KiB, bound {BOUND_KIB} KiB"
        );
    }
    // The three spellings are the same game.
    assert!(
        values.iter().all(|v| *v == values[0] && !v.is_empty()),
        "{values:?}"
    );
}

/// How many of the cubes 1..=3000 are losing in the divide game, from a
/// memoized Python recursion written from the same rules.
const EXPECTED_LOSING_CUBES: &str = "631";

/// Positions scattered over the range the dense tables index (cubes, then
/// their thirds, sixths...) each took a page of their own: 6.6 GB for the
/// cubes to 10,000. The dense tables now grow only while they stay within
/// a few slots per position, and the rest is hashed.
#[test]
fn scattered_positions_do_not_each_take_a_page() {
    const BOUND_KIB: u64 = 64 << 10;
    let script = "game divide(n) {\n    move by(d in {2, 3, 6}) if n > 0 -> divide(n / d)\n}\n\
                  len([i for i in 1..=3000 if value(divide(i ** 3)) == 0])\n";
    let (kib, out) = peak_kib(script);
    // Checked against a memoized Python recursion over the same rules.
    assert_eq!(out.trim(), EXPECTED_LOSING_CUBES, "{out}");
    assert!(
        kib < BOUND_KIB,
        "peak memory {kib} KiB, bound {BOUND_KIB} KiB"
    );
}

/// A heap and a boolean (a pass, once in the game), asked heap after heap:
/// the positions are a strip of two columns, two slots a row, its rows
/// made a run (`graph/dense/rows/run.rs`) with no place, address or
/// length of their own. Two million positions take about 11 MB more than
/// a run that makes none (a release build; a debug build's about 17,
/// with more of its code resident), 30 MB when each row had its place,
/// address and length (20 bytes), and about 40 MB before rows of a
/// boolean took two slots, not four; the bound is about 11 bytes a
/// position. Measured above the binary's own peak, which a debug build
/// makes larger.
#[test]
fn positions_of_a_heap_and_a_boolean_take_a_few_slots_a_heap() {
    const BOUND_KIB: u64 = 21 << 10;
    let script = "game heap(n, spent) {\n    move take(k in 1..=3) if k <= n -> heap(n - k, spent)\n    \
                  move pass() if not spent and n > 0 -> heap(n, true)\n}\n\
                  len([n for n in 0..1000000 if value(heap(n, false)) == 0])\n";
    let (kib, out) = peak_kib(script);
    let (own, _) = peak_kib("value(*1)\n");
    let kib = kib.saturating_sub(own);
    // Lost: 0, then the heaps 4k + 1 from 5 (a pass answers a pass).
    assert_eq!(out.trim(), "250000", "{out}");
    assert!(
        kib < BOUND_KIB,
        "peak memory {kib} KiB, bound {BOUND_KIB} KiB"
    );
}

/// `len` of a comprehension counts its items instead of keeping them: a
/// list of two million integers takes 48 MB (24 bytes an item).
#[test]
fn len_of_a_comprehension_keeps_no_items() {
    const BOUND_KIB: u64 = 24 << 10;
    let (kib, out) = peak_kib("len([1 for x in 0..4000000 if x % 2 == 0])\n");
    assert_eq!(out.trim(), "2000000", "{out}");
    assert!(
        kib < BOUND_KIB,
        "peak memory {kib} KiB, bound {BOUND_KIB} KiB"
    );
}

/// `moves(P)` of a position of twenty million moves, past `--max-items`:
/// the error gives their number, counted as the rules list them, not
/// held (about 80 bytes a move held, 1.6 GB), whichever engine lists
/// them: the compiled rules, or the interpreter's move generation (a
/// target it makes, `z() + *0` computed as a value).
#[test]
fn moves_past_the_item_limit_are_counted_not_held() {
    for target in ["z()", "(if k < 0 then *1 else z())"] {
        let script = format!(
            "game z() {{\n}}\ngame h(n) {{\n    move to(k in 0..n) -> {target}\n}}\nlen(moves(h(20000000)))\n"
        );
        let (kib, _, err, ok) = peak_kib_with(&script, &["--max-items", "100000"]);
        assert!(!ok, "{script}");
        assert!(
            err.contains("a sequence of 20000000 items is too large"),
            "{err}"
        );
        assert!(kib < 150 * 1024, "{target}: {kib} KiB");
    }
}

/// Where the code is placed: in the optimised builds of x86-64 Linux
/// that place it (build.rs sets `grundy_code_unplaced` where it does not).
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_arch = "x86_64",
    target_pointer_width = "64",
    not(grundy_code_unplaced)
))]
mod placed {
    /// The names and sizes of the sections of the ELF64 little-endian file
    /// at `path`, in the order of its section table. Only the headers and the
    /// names are read: a test that read the whole binary would raise this
    /// process's peak, which the children spawned after it inherit.
    fn elf_sections(path: &str) -> Vec<(String, u64)> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(path).expect("the grundy binary");
        let mut read = |at: u64, len: usize| -> Vec<u8> {
            let mut buf = vec![0; len];
            file.seek(SeekFrom::Start(at))
                .expect("a seek in the binary");
            file.read_exact(&mut buf).expect("the binary's headers");
            buf
        };
        let word = |bytes: &[u8], at: usize, n: usize| -> u64 {
            bytes[at..at + n]
                .iter()
                .rev()
                .fold(0, |acc, &b| (acc << 8) | u64::from(b))
        };
        let header = read(0, 64);
        // The magic number, 64-bit (class 2), little-endian (data 1).
        assert_eq!(
            &header[..6],
            b"\x7fELF\x02\x01",
            "not a little-endian ELF64 file"
        );
        let table = word(&header, 0x28, 8);
        let size = word(&header, 0x3a, 2) as usize;
        let count = word(&header, 0x3c, 2) as usize;
        let entries = read(table, size * count);
        let entry = |i: usize| &entries[i * size..(i + 1) * size];
        let names = entry(word(&header, 0x3e, 2) as usize);
        let strings = read(word(names, 0x18, 8), word(names, 0x20, 8) as usize);
        (0..count)
            .map(|i| {
                let start = word(entry(i), 0, 4) as usize;
                let len = strings[start..].iter().position(|&b| b == 0).unwrap_or(0);
                let name = String::from_utf8_lossy(&strings[start..start + len]).into_owned();
                (name, word(entry(i), 0x20, 8))
            })
            .collect()
    }

    /// The functions runs need are linked together, before the rest of the
    /// code (`link/often.ld`, `build.rs`): scattered over the binary, they
    /// kept about 2 MiB more of it resident in every run. A build that
    /// cannot place them (its own linker, legacy symbol names) says so and
    /// sets `grundy_code_unplaced`.
    #[test]
    fn the_code_runs_need_is_linked_together() {
        let sections = elf_sections(env!("CARGO_BIN_EXE_grundy"));
        let at = |name: &str| sections.iter().position(|(n, _)| n == name);
        let (Some(often), Some(text)) = (at(".text.often"), at(".text")) else {
            panic!("no `.text.often` before `.text`: {sections:?}");
        };
        assert!(often < text, "{sections:?}");
        let size = sections[often].1;
        assert!(
            (512 << 10..8 << 20).contains(&size),
            "`.text.often` holds {size} bytes"
        );
    }
}

/// The maths library is left out of the program (src/maths.rs):
/// its loading mapped about 0.4 MiB of it in every run. The loader lists
/// what it loads, and stops, where `LD_TRACE_LOADED_OBJECTS` is set (as
/// `ldd` has it do).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_maths_library_is_not_loaded() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .env("LD_TRACE_LOADED_OBJECTS", "1")
        .output()
        .expect("the grundy binary runs");
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("libc.so"),
        "not the loader's list: {listed}"
    );
    assert!(!listed.contains("libm.so"), "{listed}");
}
