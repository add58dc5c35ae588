//! The Napoleonic ruleset behind the engine's seam: the rules ([`Ruleset`]) and its files
//! ([`Files`]). What the app draws is in [`crate::present`], what lessons need in
//! [`crate::lesson`].

use crate::command::Command;
use crate::event::Event;
use crate::force::{ForceList, load_force};
use crate::load::{RULESET_ID, check_scenario, load_scenario_text};
use crate::preview::Preview;
use crate::scenario_spec::{NapRules, NapScenario};
use crate::state::{Bid, Game, Phase};
use sandtable_engine::files::{DataDirs, Files};
use sandtable_engine::present::Outcome;
use sandtable_engine::{Dice, LoadError, Prompt, RuleError, Ruleset, Seat};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub struct Napoleonic;

/// Everything a save needs to rebuild the opening position: the scenario and the forces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NapSetup {
    pub scenario: NapScenario,
    pub forces: Vec<ForceList>,
}

impl Ruleset for Napoleonic {
    type State = Game;
    type Command = Command;
    type Event = Event;
    type Preview = Preview;
    type Setup = NapSetup;
    const ID: &'static str = RULESET_ID;
    const NAME: &'static str = "Napoleonic quick-reference rules";

    fn setup(setup: &NapSetup, seed: u64) -> Result<Game, String> {
        if let Some(p) = check_scenario(&setup.scenario, &setup.forces).first() {
            return Err(format!("{}: {}", p.entity, p.message));
        }
        for f in &setup.forces {
            if let Some(p) = f.check().first() {
                return Err(format!("force \"{}\": {}: {}", f.id, p.entity, p.message));
            }
        }
        crate::setup::new_game(&setup.scenario, &setup.forces, seed)
    }

    fn prompt(state: &Game) -> Prompt {
        crate::rules::prompt(state)
    }

    fn legal(state: &Game, cmd: &Command) -> Result<(), RuleError> {
        crate::rules::legal(state, cmd)
    }

    fn preview(state: &Game, cmd: &Command) -> Result<Preview, RuleError> {
        crate::preview::preview(state, cmd)
    }

    fn execute(state: &mut Game, cmd: &Command) -> Result<Vec<Event>, RuleError> {
        crate::rules::execute(state, cmd)
    }

    fn view(state: &Game, seat: Seat) -> Game {
        crate::rules::view(state, seat)
    }

    fn candidates(state: &Game) -> Vec<Command> {
        crate::candidates::candidates(state)
    }

    /// A bid placed and not yet revealed (NQ-SEQ-2).
    fn holds_secrets(state: &Game) -> bool {
        matches!(state.phase, Phase::Bidding { bids } if bids.iter().any(|b| matches!(b, Bid::Placed(_))))
    }

    fn reveals(event: &Event) -> bool {
        matches!(event, Event::BidsRevealed { .. })
    }

    fn dice_mut(state: &mut Game) -> &mut Dice {
        &mut state.dice
    }

    fn outcome(state: &Game) -> Option<Outcome> {
        crate::victory::outcome(state)
    }

    /// A bid is secret until both are placed (NQ-SEQ-2); its stand-in bids nothing.
    fn secret(state: &Game, cmd: &Command) -> Option<sandtable_engine::Secret<Command>> {
        match cmd {
            Command::Bid { .. } => Some(sandtable_engine::Secret {
                keys: vec![format!("bid:{}", Self::deciding(state)?)],
                stand_in: Command::Bid { points: 0 },
            }),
            _ => None,
        }
    }

    fn opened_by(_before: &Game, event: &Event) -> Vec<String> {
        match event {
            Event::BidsRevealed { .. } => vec!["bid:0".into(), "bid:1".into()],
            _ => Vec::new(),
        }
    }
}

impl Files for Napoleonic {
    type Section = NapRules;

    fn load_scenario(path: &Path, text: &str, dirs: &DataDirs) -> Result<NapSetup, LoadError> {
        let (scenario, forces) = load_scenario_text(path, text, &dirs.armies)?;
        Ok(NapSetup { scenario, forces })
    }

    fn scenario(setup: &NapSetup) -> &NapScenario {
        &setup.scenario
    }

    fn with_turn_limit(mut setup: NapSetup, turns: u32) -> NapSetup {
        setup.scenario = setup.scenario.with_turn_limit(turns);
        setup
    }

    fn other_files() -> &'static [&'static str] {
        &["Force"]
    }

    fn check_other(
        path: &Path,
        _kind: &str,
        _dirs: &sandtable_engine::DataDirs,
    ) -> Result<(), LoadError> {
        load_force(path).map(|_| ())
    }
}

/// A game in progress with its command log.
pub type NapSession = sandtable_engine::Session<Napoleonic>;
