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
//! runs, so the code a run uses, about 1 MiB of the 6.7 MiB, kept about
//! 3.5 MiB resident where the linker had scattered it. `link/often.ld`
//! names the sections of the functions that runs of the examples and
//! benchmarks executed, made by `link/profile.sh`, and places them first
//! (link/README.md). The code is compiled as before; only the final link
//! of the binary changes. `GRUNDY_LINK_MAP=FILE` writes the link's map,
//! which `link/profile.sh` reads.

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=link/often.ld");
    println!("cargo:rerun-if-env-changed=GRUNDY_LINK_MAP");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os != "linux" || env != "gnu" {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    // The script is for the linker Rust uses by default here (lld; GNU ld
    // reads it too). A build that chooses its own linker, mold say, which
    // reads no such script, links as before.
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch != "x86_64" || flags.contains("fuse-ld") || flags.contains("linker") {
        return;
    }
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let script = Path::new(&dir).join("link/often.ld");
    let script = script.to_string_lossy();
    if Path::new(&*script).exists() && !script.contains(',') {
        println!("cargo:rustc-link-arg-bins=-Wl,-T,{script}");
    }
    if let Ok(map) = std::env::var("GRUNDY_LINK_MAP")
        && !map.contains(',')
    {
        println!("cargo:rustc-link-arg-bins=-Wl,-Map={map},--no-demangle");
    }
}
