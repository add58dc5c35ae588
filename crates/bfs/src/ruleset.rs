//! By Fire and Sword behind the engine's `Ruleset` seam.

use crate::army_list::ArmyList;
use crate::command::Command;
use crate::event::Event;
use crate::ids::Side;
use crate::load::{LoadedScenario, check_scenario};
use crate::options::Options;
use crate::preview::{self, Preview};
use crate::state::Game;
use sandtable_engine::scenario::Scenario;
use sandtable_engine::{Prompt, RuleError, Ruleset, Seat};
use serde::{Deserialize, Serialize};

pub struct Bfs;

/// Everything a save needs to rebuild the opening position: the scenario and the army lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleSetup {
    pub scenario: Scenario,
    pub armies: Vec<ArmyList>,
}

impl From<&LoadedScenario> for BattleSetup {
    fn from(l: &LoadedScenario) -> Self {
        Self {
            scenario: l.scenario.clone(),
            armies: l.armies.clone(),
        }
    }
}

impl Ruleset for Bfs {
    type State = Game;
    type Command = Command;
    type Event = Event;
    type Preview = Preview;
    type Setup = BattleSetup;
    const ID: &'static str = crate::load::RULESET_ID;

    fn setup(setup: &BattleSetup, seed: u64) -> Result<Game, String> {
        let problems = check_scenario(&setup.scenario, &setup.armies);
        if let Some(p) = problems.first() {
            return Err(format!("{}: {}", p.entity, p.message));
        }
        let options = Options::from_scenario(&setup.scenario.options).map_err(|ps| {
            ps.iter()
                .map(|p| p.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        let loaded = LoadedScenario {
            path: Default::default(),
            scenario: setup.scenario.clone(),
            armies: setup.armies.clone(),
            options,
        };
        crate::setup::new_game_with_seed(&loaded, seed)
    }

    fn prompt(state: &Game) -> Prompt {
        crate::prompt::prompt(state)
    }

    fn legal(state: &Game, cmd: &Command) -> Result<(), RuleError> {
        crate::phases::check(state, cmd)
    }

    fn preview(state: &Game, cmd: &Command) -> Result<Preview, RuleError> {
        preview::preview(state, cmd)
    }

    fn execute(state: &mut Game, cmd: &Command) -> Result<Vec<Event>, RuleError> {
        crate::phases::execute(state, cmd)
    }

    fn view(state: &Game, seat: Seat) -> Game {
        crate::view::view(state, Side(seat.min(1)))
    }
}

/// A game in progress with its command log.
pub type BfsSession = sandtable_engine::Session<Bfs>;

impl BattleSetup {
    /// The setup as a loaded scenario (for a battle rebuilt from a save).
    pub fn loaded(&self, path: &std::path::Path) -> Result<LoadedScenario, String> {
        let options = Options::from_scenario(&self.scenario.options).map_err(|ps| {
            ps.iter()
                .map(|p| p.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        Ok(LoadedScenario {
            path: path.to_path_buf(),
            scenario: self.scenario.clone(),
            armies: self.armies.clone(),
            options,
        })
    }
}
