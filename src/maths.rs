//! Part of the `grundy` program (`src/main.rs`), not of the library: the
//! three functions of the C maths library that the dependencies call
//! (indicatif's rates and estimates, plotters' axes), from the `libm`
//! crate, a port of musl's. With no other reference to it, the linker
//! (`--as-needed`) leaves the maths library out of the program, whose
//! loading mapped about 0.4 MiB of it for every run, however short: the
//! loader resolves each of its hundreds of functions' variants at start
//! (docs/architecture.md, item 37). Only where that was measured: Linux
//! with glibc (`main.rs` declares the module there only).

#[unsafe(no_mangle)]
extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[unsafe(no_mangle)]
extern "C" fn log(x: f64) -> f64 {
    libm::log(x)
}

#[unsafe(no_mangle)]
extern "C" fn log10(x: f64) -> f64 {
    libm::log10(x)
}
