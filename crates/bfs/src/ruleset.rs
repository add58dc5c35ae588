//! By Fire and Sword behind the engine's seam: the rules ([`Ruleset`]) and its files
//! ([`Files`]). What the app draws is in [`crate::present`], what lessons need in
//! [`crate::lesson`].

use crate::army_list::{ArmyList, load_army_list};
use crate::command::Command;
use crate::event::Event;
use crate::ids::Side;
use crate::load::{LoadedScenario, check_scenario, load_scenario_text};
use crate::options::Options;
use crate::preview::{self, Preview};
use crate::scenario_spec::{BfsRules, BfsScenario};
use crate::scenario_v1::ScenarioV1;
use crate::state::Game;
use crate::turn::{Bid, Phase};
use sandtable_engine::files::{DataDirs, Files};
use sandtable_engine::present::Outcome;
use sandtable_engine::session::{SaveError, SaveFile};
use sandtable_engine::{Dice, LoadError, Prompt, RuleError, Ruleset, Seat, data_file};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub struct Bfs;

/// Everything a save needs to rebuild the opening position: the scenario and the army lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleSetup {
    pub scenario: BfsScenario,
    pub armies: Vec<ArmyList>,
    /// The engine revision the battle is played under ([`crate::revision`]). A save without the
    /// field was written before revisions were recorded: revision 0.
    #[serde(default)]
    pub rules_revision: u32,
}

impl BattleSetup {
    /// A new battle, played under the current revision.
    pub fn new(scenario: BfsScenario, armies: Vec<ArmyList>) -> Self {
        Self {
            scenario,
            armies,
            rules_revision: crate::revision::CURRENT,
        }
    }
}

impl From<&LoadedScenario> for BattleSetup {
    fn from(l: &LoadedScenario) -> Self {
        Self::new(l.scenario.clone(), l.armies.clone())
    }
}

impl Ruleset for Bfs {
    type State = Game;
    type Command = Command;
    type Event = Event;
    type Preview = Preview;
    type Setup = BattleSetup;
    const ID: &'static str = crate::load::RULESET_ID;
    const NAME: &'static str = "By Fire and Sword";

    fn setup(setup: &BattleSetup, seed: u64) -> Result<Game, String> {
        let problems = check_scenario(&setup.scenario, &setup.armies);
        if let Some(p) = problems.first() {
            return Err(format!("{}: {}", p.entity, p.message));
        }
        let loaded = setup.loaded(Path::new(""))?;
        crate::setup::new_game_with_seed(&loaded, seed)
    }

    fn prompt(state: &Game) -> Prompt {
        crate::prompt::prompt(state)
    }
    fn deciding(state: &Game) -> Option<Seat> {
        crate::prompt::deciding(state)
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

    fn candidates(state: &Game) -> Vec<Command> {
        crate::candidates::candidates(state)
    }

    /// A placed secret bid, or a face-down order marker or Instruction whose kind one side knows
    /// (BFS-INI-2, BFS-ORD-3, BFS-ORD-11).
    fn holds_secrets(game: &Game) -> bool {
        let bids = matches!(&game.turn.phase, Phase::InitiativeBids { bids } if bids.iter().any(|b| matches!(b, Bid::Placed(_))));
        bids || game
            .units
            .iter()
            .any(|u| u.pending_order.is_some_and(|p| p.kind.is_some()))
            || game
                .commanders
                .iter()
                .any(|c| c.pending_instruction.is_some_and(|p| p.kind.is_some()))
    }

    /// Bids and orders turned up, and a reaction to a charge (a countercharge shows a Charge
    /// order, BFS-CHG-21).
    fn reveals(event: &Event) -> bool {
        matches!(
            event,
            Event::BidsRevealed { .. } | Event::OrdersRevealed { .. } | Event::Reacted { .. }
        ) || matches!(event, Event::OrderChanged { rule, .. } if rule == "BFS-ORD-7")
    }

    fn dice_mut(state: &mut Game) -> &mut Dice {
        &mut state.dice
    }

    fn outcome(state: &Game) -> Option<Outcome> {
        crate::victory::outcome(state)
    }

    fn secret(state: &Game, cmd: &Command) -> Option<sandtable_engine::Secret<Command>> {
        crate::secrets::secret(state, cmd)
    }

    /// At Division level a face-down Instruction decides which starting orders are legal and
    /// what a revealed contrary order costs (BFS-ORD-11, BFS-ORD-12): the other side's machine
    /// cannot check those without it.
    fn remote_refusal(game: &Game) -> Option<String> {
        if crate::instructions::apply(game) {
            return Some(
                "a Division battle with Instructions cannot be played remotely yet: a face-down \
                 Instruction decides which orders are legal and what a contrary one costs \
                 (BFS-ORD-11, BFS-ORD-12), and the other side's machine could not check them"
                    .to_string(),
            );
        }
        // A face-down order changed in Confusion's window would be sealed a second time under
        // the same key.
        (!game.info.pre_battle.confusion.is_empty() || game.info.confusion_changes.is_some()).then(
            || {
                "a battle with Confusion (BFS-SCN-44) cannot be played remotely yet: an order \
                 changed after both sides have ordered is not sealed for remote play"
                    .to_string()
            },
        )
    }

    fn opened_by(before: &Game, event: &Event) -> Vec<String> {
        crate::secrets::opened_by(before, event)
    }
}

/// A game in progress with its command log.
pub type BfsSession = sandtable_engine::Session<Bfs>;

impl BattleSetup {
    /// The setup as a loaded scenario (for a battle rebuilt from a save).
    pub fn loaded(&self, path: &Path) -> Result<LoadedScenario, String> {
        let mut options = Options::from_scenario(&self.scenario.options).map_err(|ps| {
            ps.iter()
                .map(|p| p.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        if self.rules_revision > crate::revision::CURRENT {
            return Err(format!(
                "the battle was played under rules revision {}; this program knows revisions up to {}",
                self.rules_revision,
                crate::revision::CURRENT
            ));
        }
        options.rules_revision = self.rules_revision;
        Ok(LoadedScenario {
            path: path.to_path_buf(),
            scenario: self.scenario.clone(),
            armies: self.armies.clone(),
            options,
        })
    }
}

/// A save's setup as format 1 wrote it (the scenario before the split).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename = "BattleSetup")]
struct BattleSetupV1 {
    scenario: ScenarioV1,
    armies: Vec<ArmyList>,
}

impl Files for Bfs {
    type Section = BfsRules;

    fn load_scenario(path: &Path, text: &str, dirs: &DataDirs) -> Result<BattleSetup, LoadError> {
        load_scenario_text(path, text, &dirs.armies).map(|l| BattleSetup::from(&l))
    }

    fn scenario(setup: &BattleSetup) -> &BfsScenario {
        &setup.scenario
    }

    fn with_turn_limit(mut setup: BattleSetup, turns: u32) -> BattleSetup {
        setup.scenario = setup.scenario.with_turn_limit(turns);
        setup
    }

    /// The current save format; a save whose scenario is still format 1 is migrated.
    fn parse_save(path: &Path, text: &str) -> Result<SaveFile<BattleSetup, Command>, SaveError> {
        let current = data_file::parse_ron::<SaveFile<BattleSetup, Command>>(path, text);
        let Err(err) = current else {
            return Ok(current?);
        };
        match data_file::parse_ron::<SaveFile<BattleSetupV1, Command>>(path, text) {
            Ok(old) => Ok(SaveFile {
                format: old.format,
                ruleset: old.ruleset,
                seed: old.seed,
                setup: BattleSetup {
                    scenario: old.setup.scenario.migrate().into_centimetres(),
                    armies: old.setup.armies,
                    rules_revision: 0,
                },
                commands: old.commands,
                take_backs: old.take_backs,
                state_hash: old.state_hash,
            }),
            Err(_) => Err(err.into()),
        }
    }

    fn other_files() -> &'static [&'static str] {
        &["ArmyList", "SkirmishForce"]
    }

    /// Army lists, and forces built from their cards (checked against their list, BFS-LST-3).
    fn check_other(
        path: &Path,
        kind: &str,
        dirs: &sandtable_engine::DataDirs,
    ) -> Result<(), LoadError> {
        if kind == "SkirmishForce" {
            let (good, _) = crate::army_list::load_army_lists(&dirs.armies);
            let lists: Vec<_> = good.into_iter().map(|(_, l)| l).collect();
            return crate::force::load_force(path, &lists).map(|_| ());
        }
        load_army_list(path).map(|_| ())
    }
}
