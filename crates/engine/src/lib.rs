//! Ruleset-agnostic core of Sandtable: the seam every ruleset plugs into, and what all of them
//! share.
//!
//! - the seam: [`ruleset`] (the rules: prompt, legal, preview, execute, view, candidates),
//!   [`presenter`] (what the app draws and offers, with the vocabulary in [`present`] and
//!   [`narration`]), [`teach`] (lessons and simple players) with [`lesson_run`] (a lesson being followed), [`files`] (scenarios, saves and a
//!   ruleset's own data); [`dynamic`] erases a ruleset behind one handle for the app,
//!   [`player`] does the same for computer players, and [`registry`] lists the rulesets a
//!   program knows;
//! - [`prebattle`]: the seam for a ruleset's pre-battle sequence, from two forces to a scenario;
//! - [`session`]: the command log, fair take-backs, saves and the state hash;
//! - [`scenario`]: the scenario file's shared part, [`scenario_check`] its checks,
//!   [`scenario_script`] objectives, scripts and lessons, [`scenario_geometry`] its shapes;
//! - [`dice`], [`roll`], [`odds`]: the seeded dice, dice pipelines (any die, roll-under or over,
//!   pools, re-rolls, tests, sums, opposed rolls) and exact distributions;
//! - [`data_file`], [`problem`]: reading files without trusting them, and their errors;
//! - [`help`]: the rules' plain-language help and rule IDs in text.
//!
//! No rule of any particular game lives here, and nothing here imports Bevy.

pub mod data_file;
pub mod dice;
pub mod dynamic;
pub mod editor;
pub mod files;
pub mod help;
pub mod lesson_drill;
pub mod lesson_run;
pub mod narration;
pub mod odds;
pub mod player;
pub mod prebattle;
pub mod present;
pub mod presenter;
pub mod problem;
pub mod registry;
pub mod roll;
pub mod ruleset;
pub mod scenario;
pub mod scenario_check;
pub mod scenario_geometry;
pub mod scenario_script;
pub mod session;
pub mod teach;
pub mod vocab;

pub use dice::Dice;
pub use dynamic::{AnyCommand, AnyGame, Snapshot, TypedGame};
pub use files::{DataDirs, Files};
pub use lesson_run::{Debrief, LessonRun, Noted, Progress};
pub use narration::{DiceReport, DieFace, LineStyle, Narration, RollReport};
pub use player::{AnyPlayer, Player, TypedPlayer};
pub use present::{
    Card, Emblem, Grip, Handle, LengthUnit, Menu, MenuChoices, MenuEffect, MenuItem, MenuParam,
    OddsChart, Outcome, Outline, OverlayKind, Piece, PieceId, PieceKind, PoolLine, PreviewReport,
    Shape, TableScene, Token, Tone,
};
pub use presenter::Present;
pub use problem::{LoadError, Problem};
pub use registry::{Registry, RulesetEntry};
pub use roll::{Modifier, Reroll};
pub use ruleset::{Prompt, RuleError, Ruleset, Seat, Secret};
pub use session::{SaveError, SaveFile, Session, TakeBack, TakeBackKind};
pub use teach::Teach;
