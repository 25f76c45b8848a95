//! Links the `grundy` executable at a fixed address on Linux (`-no-pie`),
//! with the functions a run needs placed together (`link/often.ld`).
//!
//! A position-independent executable is relocated by the loader at every
//! start: it reads the whole relocation table (about 250 KiB here) and
//! writes every pointer of `.data.rel.ro` (about 170 KiB), and the pages it
//! touches stay resident for the whole run. Linked at a fixed address, the
//! linker resolves those pointers once, and a run of a one-line script
//! needs about 0.7 MiB less memory (BENCHMARKS.md, "Memory").
//!
//! The kernel maps a program's code 64 KiB at a time around each page that
//! runs, so the code a run uses, 1 to 3 MiB of the 6.4 MiB, kept 3.3 to
//! 5.7 MiB resident where the linker had scattered it. `link/often.ld`
//! names the sections of the functions that runs of the examples and
//! benchmarks executed, made by `link/profile.sh`, and places them first
//! (link/README.md). The code is compiled as before; only the final link
//! of the binary changes.
//!
//! - The script is passed in optimised builds on x86-64 Linux, to the
//!   linker Rust uses there (lld; GNU ld reads it too). It is not passed
//!   when the build names its own linker (mold, say, stops at such a
//!   script), when `GRUNDY_NO_LINK_ORDER` is set, or when symbols are
//!   mangled the legacy way (flags that replace `.cargo/config.toml`'s),
//!   where its lines would match little: the build then warns. In each of these cases,
//!   and in unoptimised builds, it sets the cfg `grundy_code_unplaced`,
//!   which turns off the test that the code was placed (tests/memory.rs;
//!   `.ci/run` runs it in an optimised build).
//! - `GRUNDY_LINK_MAP=FILE` writes the link's map, which `link/profile.sh`
//!   reads.

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=link/often.ld");
    for var in [
        "GRUNDY_LINK_MAP",
        "GRUNDY_NO_LINK_ORDER",
        "RUSTC_LINKER",
        "MOLD_PATH",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rustc-check-cfg=cfg(grundy_code_unplaced)");
    let target = |key: &str| std::env::var(format!("CARGO_CFG_TARGET_{key}")).unwrap_or_default();
    if target("OS") != "linux" || target("ENV") != "gnu" {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    if target("ARCH") != "x86_64" {
        return;
    }
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let script = Path::new(&dir).join("link/often.ld");
    if std::env::var("OPT_LEVEL").is_ok_and(|level| level == "0") {
        // Unoptimised builds are for tests and debugging, and lld matches
        // their 80,000 functions' sections against the script's patterns
        // one by one: 45 seconds a link.
        println!("cargo:rustc-cfg=grundy_code_unplaced");
        return;
    }
    if !script.exists() {
        // Not an excuse: the test that the code was placed fails.
        println!("cargo:warning=link/often.ld is missing: the code is linked unplaced");
        return;
    }
    match unplaced(&script) {
        Some(why) => {
            println!("cargo:warning=link/often.ld not used: {why}");
            println!("cargo:rustc-cfg=grundy_code_unplaced");
        }
        None => {
            println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", script.display());
            if let Some(map) = std::env::var("GRUNDY_LINK_MAP")
                .ok()
                .filter(|m| !m.is_empty())
            {
                println!("cargo:rustc-link-arg-bins=-Wl,-Map={map},--no-demangle");
            }
        }
    }
}

/// Why the code cannot be placed by `script` in this build, if it cannot.
fn unplaced(script: &Path) -> Option<&'static str> {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    // A flag's value, whether given in one argument (`-Clinker=x`) or two
    // (`-C linker=x`).
    let values = || {
        flags.iter().enumerate().filter_map(|(i, f)| {
            f.strip_prefix("-C").map(|v| {
                if v.is_empty() {
                    flags.get(i + 1).copied().unwrap_or("")
                } else {
                    v
                }
            })
        })
    };
    let own_linker = values().any(|v| {
        v.starts_with("linker=")
            || v.strip_prefix("link-arg=")
                .or_else(|| v.strip_prefix("link-args="))
                .is_some_and(|arg| {
                    arg.contains("-fuse-ld=") || arg.contains("--ld-path=") || arg.starts_with("-B")
                })
    });
    if std::env::var_os("GRUNDY_NO_LINK_ORDER").is_some() {
        Some("GRUNDY_NO_LINK_ORDER is set")
    } else if own_linker
        || std::env::var_os("RUSTC_LINKER").is_some()
        || std::env::var_os("MOLD_PATH").is_some()
    {
        Some("the build names its own linker")
    } else if script.to_str().is_none_or(|s| s.contains(',')) {
        Some("its path has a comma or is not UTF-8")
    } else if !values().any(|v| v == "symbol-mangling-version=v0") {
        Some("symbols are mangled the legacy way (RUSTFLAGS replaces .cargo/config.toml)")
    } else {
        None
    }
}
