//! By Fire and Sword (BFaS) for Sandtable.
//!
//! Every ruling cites its rule ID from the digests in `shared/rules/bfs-*.md` (e.g. BFS-CHG-4).

pub mod army_list;
pub mod command;
pub mod deploy;
pub mod ids;
pub mod load;
pub mod options;
pub mod profile;
pub mod setup;
pub mod state;
pub mod turn;
pub mod weapons;

pub use ids::{CommanderId, ProfileId, RegimentId, Side, UnitId};
pub use load::{LoadedScenario, RULESET_ID, load_scenario};
pub use setup::new_game;
pub use state::Game;
