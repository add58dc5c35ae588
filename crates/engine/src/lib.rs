//! Ruleset-agnostic core of Sandtable.
//!
//! - [`data_file`]: reading RON files safely (size, encoding and nesting limits) with errors that
//!   name the file, line and column; atomic writes;
//! - [`problem`]: the load errors every loader reports;
//! - [`scenario`]: the battle description shared by all rulesets (table, terrain, sides, commanders,
//!   units by profile name), [`scenario_check`] for the checks that need no ruleset and
//!   [`scenario_geometry`] for turning its shapes into polygons;
//! - [`dice`], [`roll`], [`odds`]: the seeded dice, roll-under pools with their modifiers, and exact
//!   probability distributions for previews;
//! - [`ruleset`]: the seam every ruleset implements; [`session`]: the command log, undo/redo by
//!   replay, saves and the state hash.
//!
//! No rule of any particular game lives here, and nothing here imports Bevy.

pub mod data_file;
pub mod dice;
pub mod odds;
pub mod problem;
pub mod roll;
pub mod ruleset;
pub mod scenario;
pub mod scenario_check;
pub mod scenario_geometry;
pub mod scenario_script;
pub mod session;

pub use dice::Dice;
pub use problem::{LoadError, Problem};
pub use roll::{Modifier, PoolSpec, Reroll, TestRoll};
pub use ruleset::{Prompt, RuleError, Ruleset, Seat};
pub use session::{SaveError, SaveFile, Session};
