//! Links the `grundy` executable at a fixed address on Linux (`-no-pie`).
//!
//! A position-independent executable is relocated by the loader at every
//! start: it reads the whole relocation table (about 250 KiB here) and
//! writes every pointer of `.data.rel.ro` (about 170 KiB), and the pages it
//! touches stay resident for the whole run. Linked at a fixed address, the
//! linker resolves those pointers once, and a run of a one-line script
//! needs about 0.7 MiB less memory (BENCHMARKS.md, "Memory"). The code is
//! compiled as before; only the final link of the binary changes.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
