//! Which function a module builds (see [`Kind`]).

use crate::runtime::kernel::Kernel;
use crate::runtime::kernel::calls::Func;
use crate::runtime::kernel::query::Query;

/// Which function to build: the mex of one position of a kernel's game;
/// a function that finds the values of many positions in turn and writes
/// each into the game's own dense table (a one-integer game's sweep, a
/// square, a board's levels, a strip, a four-integer game's row, a
/// group's sweep); a top-level query; or a function the rules call.
#[derive(Clone, Copy)]
pub enum Kind<'a> {
    Mex(&'a Kernel),
    Sweep(&'a Kernel),
    /// The levels of a board (see [`crate::runtime::kernel::Levels`]).
    Levels(&'a Kernel),
    /// The positions of a two-integer game by dense index.
    Square(&'a Kernel),
    /// The rows of a strip (see [`crate::runtime::kernel::Strip`]).
    Strip(&'a Kernel),
    /// The rows of a three-integer game's cube (see `Emit::cube`).
    Cube(&'a Kernel),
    /// The rows of a three-integer game's strips (see `Emit::strip3`).
    Strip3(&'a Kernel),
    /// A row of a four-integer game's table (see `Emit::quad_row`).
    Quad(&'a Kernel),
    /// The sweep of games that move to one another (see `Emit::group_sweep`).
    Group(&'a crate::runtime::kernel::native::group::Members<'a>),
    Query(&'a Query),
    /// A function the rules call (see `func`).
    Func(&'a Func),
}

impl Kind<'_> {
    /// The game's kernel, for the functions that run its rules.
    pub(super) fn kernel(&self) -> Option<&Kernel> {
        match self {
            Kind::Mex(k)
            | Kind::Sweep(k)
            | Kind::Levels(k)
            | Kind::Square(k)
            | Kind::Strip(k)
            | Kind::Cube(k)
            | Kind::Strip3(k)
            | Kind::Quad(k) => Some(k),
            Kind::Query(_) | Kind::Func(_) | Kind::Group(_) => None,
        }
    }

    /// What the function is, in a word: for a dump of the machine code.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Mex(_) => "mex",
            Kind::Sweep(_) => "sweep",
            Kind::Levels(_) => "levels",
            Kind::Square(_) => "square",
            Kind::Quad(_) => "quad",
            Kind::Group(_) => "group",
            Kind::Strip(_) => "strip",
            Kind::Cube(_) => "cube",
            Kind::Strip3(_) => "strip3",
            Kind::Query(_) => "query",
            Kind::Func(_) => "function",
        }
    }
}
