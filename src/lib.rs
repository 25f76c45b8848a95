//! grundy: an interpreter for a small declarative language of impartial
//! combinatorial games. Rules go in; Sprague–Grundy values, winners and
//! winning moves come out.
//!
//! The pipeline, one module per phase: [`syntax`] (text to AST), [`check`]
//! (names, arity, scopes), [`lower`] (AST to slot-indexed [`ir`]), then the
//! [`runtime`]: a [`runtime::Machine`] that interprets the IR, generates
//! moves, compiles integer games to kernels and finds nim-values by an
//! explicit-stack search, keeping every position and value in the
//! [`graph`]. A [`session::Session`] runs them in order, and the [`repl`]
//! and the binary drive a session. `docs/architecture.md` draws the module
//! graph and says where new features plug in.
//!
//! ```
//! let out = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
//! let mut session = grundy::session::Session::new(
//!     Box::new(grundy::SharedBuffer(out.clone())),
//!     Box::new(std::io::sink()),
//! );
//! let outcome = session.run("nim.game", "
//! game nim(n) {
//!     move take(k in 1..=n) -> nim(n - k)
//! }
//! value(nim(3) + nim(4) + nim(5))
//! ");
//! assert_eq!(outcome.exit_code(), 0);
//! assert_eq!(String::from_utf8(out.borrow().clone()).unwrap(), "2\n");
//! ```

// Unsafe code is denied everywhere but in the one module that calls the
// machine code it generates (runtime::kernel::native).
#![deny(unsafe_code)]

pub mod builtins;
pub mod check;
pub mod defs;
pub mod deps;
pub mod diag;
pub mod draw;
pub mod explain;
pub mod graph;
pub mod ir;
pub mod lower;
pub mod play;
pub mod progress;
pub mod render;
pub mod repl;
pub mod runtime;
pub mod sandbox;
pub mod session;
pub mod span;
pub mod syntax;
pub mod value;

/// A writer into a shared buffer, to capture a session's output.
#[derive(Clone, Default)]
pub struct SharedBuffer(pub std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl std::io::Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
