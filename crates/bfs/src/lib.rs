//! By Fire and Sword (BFaS) for Sandtable.
//!
//! Every ruling cites its rule ID from the digests in `shared/rules/bfs-*.md` (e.g. BFS-CHG-4).
//! The game is a pure function of its commands: [`phases::execute`] checks a [`command::Command`]
//! and applies it, returning [`event::Event`]s. [`ruleset::Bfs`] puts it behind the engine's
//! seam: the rules and files in [`ruleset`], what the app draws and offers in [`present`], what
//! lessons and simple players need in [`lesson`].

pub mod ammunition;
pub mod army_list;
pub mod artillery;
pub mod attachment;
pub mod authority;
pub mod battalion;
pub mod break_off;
pub mod building;
pub mod candidates;
pub mod charge;
pub mod charge_move;
pub mod charge_reach;
pub mod close_combat;
pub mod column_bend;
pub mod combat_result;
pub mod command;
pub mod commanded;
pub mod commander_charge;
pub mod delay;
pub mod deploy;
pub mod dice;
pub mod dragoons;
pub mod event;
pub mod feigned_flight;
pub mod flight;
pub mod force;
pub mod force_card;
pub mod fortified_gun;
pub mod geo;
pub mod ground;
pub mod gun_manning;
pub mod hide_crew;
pub mod hold_pursuit;
pub mod ids;
pub mod instructions;
pub mod lesson;
pub mod load;
pub mod losses;
pub mod march;
pub mod morale;
pub mod motivation;
pub mod moves;
pub mod narrate;
pub mod obstacle;
pub mod open_order;
pub mod open_order_charge;
pub mod open_order_move;
pub mod options;
pub mod phases;
pub mod portable;
pub mod prebattle;
pub mod present;
pub mod preview;
pub mod profile;
pub mod prompt;
pub mod rabble;
pub mod reform;
pub mod revision;
pub mod ruleset;
pub mod run_behind;
pub mod scenario_spec;
pub mod scenario_v1;
pub mod script;
pub mod script_rule;
pub mod secrets;
pub mod setup;
pub mod shooting;
pub mod sight;
pub mod skill;
pub mod squadron;
pub mod state;
pub mod steady;
pub mod succession;
pub mod turn;
pub mod turn_one;
pub mod victory;
pub mod view;
pub mod vocab;
pub mod wagon;
pub mod weapons;
pub mod withdrawal;

pub use command::Command;
pub use event::Event;
pub use ids::{CommanderId, ProfileId, RegimentId, Side, UnitId};
pub use load::{LoadedScenario, RULESET_ID, load_scenario};
pub use ruleset::{BattleSetup, Bfs, BfsSession};
pub use scenario_spec::{BfsRules, BfsScenario};
pub use setup::new_game;
pub use state::Game;
