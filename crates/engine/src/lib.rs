//! Ruleset-agnostic core of Sandtable.
//!
//! - [`data_file`]: reading RON files safely (size, encoding and nesting limits) with errors that
//!   name the file, line and column;
//! - [`problem`]: the load errors every loader reports;
//! - [`scenario`]: the battle description shared by all rulesets (table, terrain, sides, commanders,
//!   units by profile name), and [`scenario_check`] for the checks that need no ruleset.
//!
//! No rule of any particular game lives here, and nothing here imports Bevy.

pub mod data_file;
pub mod problem;
pub mod scenario;
pub mod scenario_check;
pub mod scenario_geometry;

pub use problem::{LoadError, Problem};
