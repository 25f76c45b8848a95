pub mod diag;
pub mod span;
pub mod syntax;
