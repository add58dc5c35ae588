//! Building the opening position of a game from a checked scenario.

use crate::deploy::deployment_rects;
use crate::ids::{CommanderId, ProfileId, RegimentId, Side, UnitId};
use crate::load::LoadedScenario;
use crate::profile::SpecialRule;
use crate::scenario_spec::{CommanderRank, FormationSpec};
use crate::state::*;
use crate::turn::{Bid, Phase, TurnState};
use sandtable_engine::scenario_geometry::shape_polygons;
use sandtable_geometry::{Pose, Rect, Vec2};

/// The game as it stands before the first Initiative Phase.
///
/// The scenario must have passed [`crate::load::check_scenario`]; profile names are resolved here
/// and a missing one is an error message, never a panic.
pub fn new_game(loaded: &LoadedScenario) -> Result<Game, String> {
    new_game_with_seed(loaded, loaded.scenario.seed)
}

/// The opening position with the dice seeded by `seed` instead of the scenario's.
pub fn new_game_with_seed(loaded: &LoadedScenario, seed: u64) -> Result<Game, String> {
    let s = &loaded.scenario;
    let mut profiles = Vec::new();
    let mut profile_ids: Vec<Vec<(String, ProfileId)>> = Vec::new();
    for army in &loaded.armies {
        let mut ids = Vec::new();
        for p in &army.profiles {
            ids.push((p.id.clone(), ProfileId(profiles.len() as u16)));
            let mut p = p.clone();
            // The learning simplification: no special rules (BFS-GEN-4). What a unit is, a wagon
            // of powder or of war, and a commander's gift for guns, stay.
            if loaded.options.basic_mode {
                p.special_rules.retain(|r| {
                    matches!(
                        r,
                        SpecialRule::AmmunitionWagon
                            | SpecialRule::WarWagon
                            | SpecialRule::ArtilleryCommander
                    )
                });
            }
            profiles.push(p);
        }
        profile_ids.push(ids);
    }
    let lookup = |side: usize, name: &str| -> Result<ProfileId, String> {
        profile_ids
            .get(side)
            .and_then(|ids| ids.iter().find(|(n, _)| n == name).map(|(_, id)| *id))
            .ok_or_else(|| format!("profile \"{name}\" not found for side {}", side + 1))
    };

    let mut regiments = Vec::new();
    let mut units = Vec::new();
    let mut commanders = Vec::new();
    let mut sides = Vec::new();
    for (si, (common, spec)) in s.sides.iter().zip(&s.rules.forces).enumerate() {
        let side = Side(si as u8);
        let first_regiment = regiments.len();
        for r in &spec.regiments {
            regiments.push(Regiment {
                id: RegimentId(regiments.len() as u16),
                key: r.id.clone(),
                name: r.name.clone(),
                side,
                motivation_percent: r.motivation_percent,
                wiped_out: false,
                main_force: r.main_force,
                allied: r.allied,
            });
        }
        let regiment_of = |key: &Option<String>| {
            key.as_ref().and_then(|k| {
                regiments[first_regiment..]
                    .iter()
                    .find(|r| &r.key == k)
                    .map(|r| r.id)
            })
        };
        let mut bases_total = 0u32;
        // Each unit deploys on its own, but the members of a squadron deploy as one (BFS-SQN-2).
        let mut deployments: Vec<Deployment> = Vec::new();
        for u in &spec.units {
            if crate::squadron::in_a_squadron(spec, &u.id) {
                continue;
            }
            let mut pid = lookup(si, &u.profile)?;
            // Rules the pre-battle sequence gave this unit alone (BFS-SCN-29): its own copy of
            // the profile, so its fellows of the same profile are untouched.
            if !u.extra_rules.is_empty() && !loaded.options.basic_mode {
                let mut own = profiles[pid.index()].clone();
                for r in &u.extra_rules {
                    if !own.special_rules.contains(r) {
                        own.special_rules.push(*r);
                    }
                }
                pid = ProfileId(profiles.len() as u16);
                profiles.push(own);
            }
            let p = &profiles[pid.index()];
            // Light Cavalry, Skirmishers and the like always fight in Open Order (BFS-OO-1).
            let formation = if crate::revision::open_order_rules(loaded.options.rules_revision)
                && crate::open_order::always_open(p)
            {
                FormationSpec::OpenOrder
            } else {
                u.formation
            };
            // No Open Order in the learning simplification (BFS-GEN-4): a Line instead.
            let formation = match formation {
                FormationSpec::OpenOrder if loaded.options.basic_mode => FormationSpec::Line {
                    files: u.bases.min(if p.is_mounted() { 3 } else { 4 }).max(1),
                },
                f => f,
            };
            deployments.push(Deployment {
                key: u.id.clone(),
                name: u.name.clone().unwrap_or_else(|| p.name.clone()),
                profile: pid,
                regiment: u.regiment.clone(),
                formation: match formation {
                    FormationSpec::Line { files } => Formation::Close {
                        files: files.min(u.bases).max(1),
                    },
                    FormationSpec::Column => Formation::Close { files: 1 },
                    FormationSpec::OpenOrder => Formation::OpenOrder,
                },
                bases: deployment_rects(
                    formation,
                    u.bases,
                    p.base_size(),
                    Vec2::new(u.position.0, u.position.1),
                    u.facing,
                ),
                reserve: u.reserve,
                carries: u.carries,
                additional_crew: u.additional_crew,
                fortified: u.fortified,
                delayed: u.delayed,
                pillage: u.pillage,
            });
        }
        let army = loaded
            .armies
            .get(si)
            .ok_or_else(|| format!("no army list for side {}", si + 1))?;
        for sq in &spec.squadrons {
            let (deployed, _) = crate::squadron::deploy(spec, army, sq)
                .map_err(|why| format!("squadron \"{}\": {why}", sq.id))?;
            let first = spec
                .units
                .iter()
                .find(|u| sq.units.first() == Some(&u.id))
                .ok_or_else(|| format!("squadron \"{}\" has no units", sq.id))?;
            let pid = lookup(si, &first.profile)?;
            deployments.push(Deployment {
                key: sq.id.clone(),
                name: sq
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{} squadron", profiles[pid.index()].name)),
                profile: pid,
                regiment: first.regiment.clone(),
                formation: Formation::Close {
                    files: deployed.files.max(1),
                },
                bases: deployed.bases,
                reserve: false,
                carries: None,
                additional_crew: false,
                fortified: false,
                delayed: None,
                pillage: None,
            });
        }
        for d in deployments {
            bases_total += d.bases.len() as u32;
            let n_bases = d.bases.len();
            let emplacement = d.fortified.then(|| d.bases.first().copied()).flatten();
            units.push(Unit {
                id: UnitId(units.len() as u16),
                key: d.key,
                name: d.name,
                side,
                profile: d.profile,
                regiment: regiment_of(&d.regiment),
                formation: d.formation,
                bases_at_start: d.bases.len() as u8,
                bases: d.bases,
                status: if d.reserve {
                    UnitStatus::Reserve
                } else {
                    UnitStatus::OnTable
                },
                morale: MoraleLevel::Good,
                order: None,
                pending_order: None,
                casualty_markers: 0,
                bases_destroyed: 0,
                bases_fled: 0,
                attached: None,
                lances_broken: false,
                flags: TurnFlags::default(),
                charge: None,
                carries: d.carries,
                garrison: None,
                gun: matches!(
                    profiles[d.profile.index()].ranged,
                    Some(crate::weapons::RangedWeapon::Gun(_))
                )
                .then(|| crate::artillery::GunState {
                    additional_crew: d.additional_crew,
                    ..Default::default()
                }),
                supply: crate::ammunition::starting_supply(
                    &loaded.options,
                    &profiles[d.profile.index()],
                ),
                last_volley: None,
                taken_from: None,
                train: crate::wagon::train::Train::new(&profiles[d.profile.index()], n_bases),
                battalion: None,
                manned_from: None,
                march_losses: 0,
                delayed: d.delayed,
                pillage: d.pillage,
                caracole: None,
                cut_off: 0,
                hidden_among: None,
                dismounted: None,
                emplacement,
            });
        }
        let mut chief_cp = 0u32;
        for c in &spec.commanders {
            let pid = lookup(si, &c.profile)?;
            let (w, d) = profiles[pid.index()].base_size();
            if c.rank == CommanderRank::CommanderInChief {
                chief_cp = c.command_points as u32;
            }
            commanders.push(Commander {
                id: CommanderId(commanders.len() as u16),
                key: c.id.clone(),
                name: c.name.clone(),
                side,
                rank: c.rank,
                profile: pid,
                regiment: regiment_of(&c.regiment),
                cp_max: c.command_points,
                cp: c.command_points,
                base: Rect::new(
                    Pose::from_bearing_deg(Vec2::new(c.position.0, c.position.1), c.facing),
                    Vec2::new(w, d) * 0.5,
                ),
                status: UnitStatus::OnTable,
                fleeing: false,
                attached_to: None,
                moved: false,
                shot: false,
                stunned_until_turn: 0,
                deputy: c.deputy,
                coward: c.coward,
                gun_reroll_turn: None,
                instruction: c.instruction,
                pending_instruction: None,
            });
        }
        sides.push(SideState {
            name: common.name.clone(),
            army_list: spec.army_list.clone(),
            home_edge: common.home_edge,
            // Force Value: bases (commanders excluded) + the force commander's CP (BFS-VIC-1).
            force_value: bases_total + chief_cp,
        });
    }

    let terrain = s
        .terrain
        .iter()
        .map(|t| TerrainPiece {
            kind: t.kind,
            name: t.name.clone(),
            polygons: shape_polygons(&t.shape),
            owner: None,
        })
        .collect();

    let mut game = Game {
        info: GameInfo {
            scenario_name: s.name.clone(),
            level: s.rules.level,
            turn_limit: s.turn_limit,
            table: Vec2::new(s.table.width, s.table.depth),
            options: loaded.options.clone(),
            first_initiative: s
                .rules
                .first_initiative
                .filter(|i| *i < 2)
                .map(|i| Side(i as u8)),
            pre_battle: s.rules.pre_battle.clone(),
            confusion_changes: None,
            // Three markers by the Commander of a side struck by Fatigue or Exhaustion.
            fatigue_markers: if s.rules.pre_battle.fatigue.is_empty()
                && s.rules.pre_battle.exhaustion.is_empty()
            {
                0
            } else {
                3
            },
            reinforcements_returned: Vec::new(),
        },
        terrain,
        sides,
        profiles,
        units,
        commanders,
        regiments,
        turn: TurnState {
            number: 1,
            // The Weaker side of the pre-battle sequence has the Initiative in turn 1, and keeps
            // or hands it over as a roll's winner would (BFS-SCN-15, A-22).
            phase: match s.rules.first_initiative.filter(|i| *i < 2) {
                Some(side) => Phase::InitiativeChoice {
                    winner: Side(side as u8),
                },
                _ => Phase::InitiativeBids {
                    bids: [Bid::Waiting, Bid::Waiting],
                },
            },
            initiative: None,
        },
        objectives: Vec::new(),
        script: Vec::new(),
        standing_orders: Vec::new(),
        arriving: Vec::new(),
        abandoned_guns: Vec::new(),
        dice: sandtable_engine::Dice::from_seed(seed),
    };
    let garrisons: Vec<(UnitId, String)> = s
        .rules
        .forces
        .iter()
        .flat_map(|f| f.units.iter())
        .filter_map(|u| {
            let g = u.garrison.clone()?;
            game.units.iter().find(|x| x.key == u.id).map(|x| (x.id, g))
        })
        .collect();
    crate::building::place_garrisons(&mut game, &garrisons);
    let (objectives, script) = crate::script::compile(s, &game)?;
    game.objectives = objectives;
    game.script = script;
    Ok(game)
}

/// A unit about to be placed on the table: one unit of the scenario, or a squadron of several.
struct Deployment {
    key: String,
    name: String,
    profile: ProfileId,
    regiment: Option<String>,
    formation: Formation,
    bases: Vec<Rect>,
    reserve: bool,
    carries: Option<crate::portable::Carried>,
    /// A medium gun's additional crew base (BFS-ART-18).
    additional_crew: bool,
    /// A medium gun dug in where it deploys (BFS-ART-19).
    fortified: bool,
    /// Held back by the pre-battle sequence (BFS-SCN-31, -46).
    delayed: Option<crate::delay::Delay>,
    pillage: Option<crate::scenario_spec::Pillage>,
}
