//! Building exact test situations: units placed where a worked example puts them, with the house
//! army lists' profiles (which carry the values the book's examples state).

#![allow(dead_code)]

use sandtable_bfs::army_list::load_army_list;
use sandtable_bfs::ids::{Side, UnitId};
use sandtable_bfs::scenario_spec::*;
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_bfs::turn::{CombatStage, Phase};
use sandtable_bfs::{BattleSetup, Bfs, Command, Event};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::*;
use std::collections::BTreeMap;
use std::path::Path;

pub struct Placed {
    pub key: &'static str,
    pub side: usize,
    pub profile: &'static str,
    pub bases: u8,
    pub files: u8,
    /// Middle of the front edge.
    pub at: (f32, f32),
    pub facing: f32,
}

pub fn unit(
    key: &'static str,
    side: usize,
    profile: &'static str,
    bases: u8,
    files: u8,
    at: (f32, f32),
    facing: f32,
) -> Placed {
    Placed {
        key,
        side,
        profile,
        bases,
        files,
        at,
        facing,
    }
}

pub fn armies() -> Vec<sandtable_bfs::army_list::ArmyList> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/armies");
    vec![
        load_army_list(&dir.join("polish-lithuanian-1655.ron")).unwrap(),
        load_army_list(&dir.join("swedish-1655.ron")).unwrap(),
    ]
}

/// A 120 × 120 Skirmish table with one commander a side in a far corner, the units given, and
/// optional terrain.
pub fn setup(units: &[Placed], terrain: Vec<TerrainSpec>) -> BattleSetup {
    let mut sides = Vec::new();
    let mut forces = Vec::new();
    for (i, (name, list, edge)) in [
        ("Poles", "polish-lithuanian-1655", TableEdge::South),
        ("Swedes", "swedish-1655", TableEdge::North),
    ]
    .into_iter()
    .enumerate()
    {
        sides.push(SideSpec {
            name: name.into(),
            home_edge: edge,
            deployment: None,
        });
        forces.push(ForceSpec {
            army_list: list.into(),
            commanders: vec![CommanderSpec {
                id: format!("cmd-{i}"),
                name: format!("Colonel {i}"),
                rank: CommanderRank::CommanderInChief,
                command_points: 3,
                profile: "commander".into(),
                position: if i == 0 { (4.0, 4.0) } else { (116.0, 116.0) },
                facing: if i == 0 { 0.0 } else { 180.0 },
                regiment: None,
                deputy: false,
                coward: false,
                instruction: None,
            }],
            regiments: vec![],
            squadrons: vec![],
            units: units
                .iter()
                .filter(|u| u.side == i)
                .map(|u| UnitSpec {
                    id: u.key.into(),
                    name: Some(u.key.into()),
                    profile: u.profile.into(),
                    regiment: None,
                    formation: if u.files == 1 {
                        FormationSpec::Column
                    } else {
                        FormationSpec::Line { files: u.files }
                    },
                    bases: u.bases,
                    position: u.at,
                    facing: u.facing,
                    reserve: false,
                    carries: None,
                    garrison: None,
                    additional_crew: false,
                    fortified: false,
                    extra_rules: vec![],
                    delayed: None,
                    pillage: None,
                })
                .collect(),
        });
    }
    let scenario = Scenario {
        format: SCENARIO_FORMAT,
        name: "test".into(),
        ruleset: "bfs".into(),
        briefing: String::new(),
        table: TableSpec {
            width: 120.0,
            depth: 120.0,
            unit: Default::default(),
        },
        turn_limit: 6,
        seed: 1,
        terrain,
        sides,
        options: BTreeMap::new(),
        menu_order: 0,
        kind: ScenarioKind::Battle,
        objectives: vec![],
        script: vec![],
        debriefing: String::new(),
        lesson: None,
        rules: BfsRules {
            level: GameLevel::Skirmish,
            forces,
            first_initiative: None,
            pre_battle: Default::default(),
        },
    };
    BattleSetup::new(scenario, armies())
}

pub fn game(units: &[Placed]) -> Game {
    Bfs::setup(&setup(units, vec![]), 1).unwrap_or_else(|e| panic!("setup: {e}"))
}

pub fn id(game: &Game, key: &str) -> UnitId {
    game.units
        .iter()
        .find(|u| u.key == key)
        .unwrap_or_else(|| panic!("no unit {key}"))
        .id
}

pub fn set_order(game: &mut Game, key: &str, order: Option<OrderKind>) {
    let u = id(game, key);
    game.unit_mut(u).order = order;
}

/// Skips to a Combat stage with side A holding the Initiative.
pub fn at_combat(game: &mut Game, stage: CombatStage) {
    game.turn.initiative = Some(Side::A);
    game.turn.phase = Phase::Combat(stage);
}

/// Skips to side `acting`'s Orders Phase of turn 2, where orders are paid for.
pub fn at_orders(game: &mut Game, acting: Side) {
    game.turn.number = 2;
    game.turn.phase = Phase::Orders {
        acting,
        second: false,
    };
}

/// Skips to side `acting`'s Movement Phase with its orders already revealed.
pub fn at_movement(game: &mut Game, acting: Side, second: bool) {
    game.turn.initiative = Some(if second { acting.other() } else { acting });
    game.turn.phase = Phase::Movement {
        acting,
        second,
        charge: None,
    };
}

pub fn run(game: &mut Game, cmd: Command) -> Vec<Event> {
    Bfs::execute(game, &cmd).unwrap_or_else(|e| panic!("{cmd:?} refused: {e}"))
}

/// `unit` declares a charge at `target` (`pay`: the commander who pays to pick it, BFS-CHG-4),
/// and the target stands if it is asked to react. Returns the events of both.
pub fn charge_and_stand(
    game: &mut Game,
    unit: UnitId,
    target: UnitId,
    pay: Option<sandtable_bfs::ids::CommanderId>,
) -> Vec<Event> {
    let mut events = run(game, Command::DeclareCharge { unit, target, pay });
    if matches!(
        game.turn.phase,
        Phase::Movement {
            charge: Some(_),
            ..
        }
    ) {
        events.extend(run(
            game,
            Command::React {
                unit: target,
                reaction: sandtable_bfs::vocab::Reaction::Stand,
            },
        ));
    }
    events
}
