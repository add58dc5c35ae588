//! A Napoleonic battalion-level ruleset, from a quick-reference sheet (digest
//! `qrs-napoleonic.md`, rule IDs NQ-*; the sheet's gaps filled by the house rules G1–G22, each a
//! named option). Inches on the table and in the files, centimetres inside.
//!
//! The sheet's tables are data (`assets/napoleonic/tables.ron`, [`tables`]); forces are house
//! force files (`assets/armies/nap-*.ron`, [`force`]). The rules reach the app, the CLI and the
//! computer only through the engine's seam: [`Napoleonic`] implements `Ruleset`, `Files`,
//! `Present` ([`present`]) and `Teach` ([`lesson`]).

pub mod actions;
pub mod candidates;
pub mod charge;
pub mod close_action;
pub mod command;
pub mod event;
pub mod facts;
pub mod fire;
pub mod footprint;
pub mod force;
pub mod ground;
pub mod lesson;
pub mod load;
pub mod morale;
pub mod options;
pub mod present;
pub mod preview;
pub mod rules;
pub mod ruleset;
pub mod scenario_spec;
pub mod sequence;
pub mod setup;
pub mod solid_shot;
pub mod state;
pub mod tables;
pub mod victory;
pub mod vocab;

pub use command::Command;
pub use event::Event;
pub use ruleset::{NapSetup, Napoleonic};
pub use state::{Game, INCH, LeaderId, UnitId};
