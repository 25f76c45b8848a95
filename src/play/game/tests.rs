//! Games played through [`Game::respond`], on positions of the engine.

use super::*;
