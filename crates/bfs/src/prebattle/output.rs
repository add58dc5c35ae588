//! The battle the sequence sets up (BFS-SCN-9 step J), as a scenario file the loader checks like
//! any other.

use super::{PreBattle, Step};
use crate::ids::Side;
use crate::profile::SpecialRule;
use crate::scenario_spec::{BfsRules, BfsScenario, GameLevel};
use sandtable_engine::scenario::{SCENARIO_FORMAT, ScenarioKind, SideSpec, TableEdge, TableSpec};
use std::collections::BTreeMap;

impl PreBattle {
    /// The scenario, once both sides have deployed.
    pub fn scenario(&self) -> Option<BfsScenario> {
        if self.step != Step::Ready {
            return None;
        }
        let book = self.scenario?;
        let map = self.map()?;
        let frame = self.frame()?;
        let mut forces = Vec::new();
        let mut sides = Vec::new();
        // Every base placed so far, for where held-back units wait.
        let mut taken: Vec<sandtable_geometry::Rect> = Side::BOTH
            .iter()
            .flat_map(|s| self.deployed_rects(*s))
            .collect();
        for side in Side::BOTH {
            let i = side.index();
            let list = &self.lists[i];
            let mut spec = self.forces[i].to_spec(list);
            let placements = self.deployed[i].as_ref()?;
            for u in &mut spec.units {
                u.pillage = self
                    .pillaged
                    .iter()
                    .find(|p| p.side == side && p.unit == u.id)
                    .map(|p| crate::scenario_spec::Pillage {
                        sp: p.sp,
                        no_free_order: p.no_free_order,
                    });
                if self
                    .insubordinate
                    .iter()
                    .any(|(s, id)| *s == side && id == &u.id)
                {
                    u.extra_rules.push(SpecialRule::Insubordinate);
                }
                if let Some((_, _, delay)) =
                    self.delayed.iter().find(|d| d.0 == side && d.1 == u.id)
                {
                    let (at, facing) = self.reserve_place(side, &u.id, &mut taken);
                    u.reserve = true;
                    u.delayed = Some(*delay);
                    u.formation = crate::scenario_spec::FormationSpec::Column;
                    u.position = at;
                    u.facing = facing;
                    continue;
                }
                let p = placements.iter().find(|p| p.id == u.id)?;
                u.position = p.position;
                u.facing = p.facing;
                if let Some(profile) = list.profile(&u.profile) {
                    u.formation = super::deployment::formation_of(profile, u.bases);
                }
            }
            for c in &mut spec.commanders {
                c.coward = self
                    .coward
                    .as_ref()
                    .is_some_and(|(s, id)| *s == side && *id == c.id);
                let p = placements.iter().find(|p| p.id == c.id)?;
                c.position = p.position;
                c.facing = p.facing;
            }
            // Good/Bad Day changes the Skirmish Force Commander's CP for the battle (BFS-SCN-34).
            if let Some(chief) = spec.commanders.first_mut() {
                let cp = chief.command_points as i32 + self.cp_change[i] as i32;
                chief.command_points = cp.clamp(0, 255) as u8;
            }
            // Ids are unique across the battle: each side's carry its letter.
            let prefix = if side == Side::A { "a-" } else { "b-" };
            for u in &mut spec.units {
                u.id = format!("{prefix}{}", u.id);
            }
            for c in &mut spec.commanders {
                c.id = format!("{prefix}{}", c.id);
            }
            forces.push(spec);
            sides.push(SideSpec {
                name: self.name(side).to_string(),
                home_edge: if self.south(side)? {
                    TableEdge::South
                } else {
                    TableEdge::North
                },
                deployment: self.zone_shape(side),
            });
        }
        let mut options = BTreeMap::new();
        if self.fortifications > 0 {
            options.insert(
                "field_fortifications".to_string(),
                sandtable_engine::scenario::OptionValue::Bool(true),
            );
        }
        Some(BfsScenario {
            format: SCENARIO_FORMAT,
            name: format!(
                "{}: {} against {}",
                book.name(),
                self.name(Side::A),
                self.name(Side::B)
            ),
            ruleset: crate::RULESET_ID.into(),
            briefing: self.briefing(),
            table: TableSpec {
                width: self.table.0,
                depth: self.table.1,
                unit: Default::default(),
            },
            turn_limit: map.turns,
            // The battle's dice follow from the sequence's seed, but not the same stream.
            seed: self.seed ^ 0x5eed_0fba_771e,
            terrain: self.elements.iter().map(|e| e.spec.clone()).collect(),
            sides,
            options,
            menu_order: 100,
            kind: ScenarioKind::Battle,
            objectives: map
                .objectives
                .iter()
                .enumerate()
                .map(|(k, o)| frame.objective(o, k, self.defender.index()))
                .collect(),
            script: Vec::new(),
            debriefing: String::new(),
            lesson: None,
            rules: BfsRules {
                level: GameLevel::Skirmish,
                forces,
                first_initiative: self.weaker.map(|w| w.index()),
                pre_battle: self.battle_effects(),
            },
        })
    }

    /// What the battle plays: March Losses and Panic rolled for the Weaker strike the Stronger
    /// side in turn 1; the reconnaissance buyer's Decisive Moment and Cut Off the Retreat.
    fn battle_effects(&self) -> crate::scenario_spec::PreBattleEffects {
        use super::book::{Effect, ReconEffect};
        let count = |e: Effect| self.effects.iter().filter(|t| t.effect == e).count();
        let bought = |e: ReconEffect| self.bought.iter().filter(|b| b.effect == e).count();
        let stronger = self.weaker.map(|w| w.other().index());
        let buyer = self.recon_buyer.map(|b| b.index());
        crate::scenario_spec::PreBattleEffects {
            march_losses: stronger.map_or(vec![], |s| vec![s; count(Effect::MarchLosses)]),
            panic: stronger.map_or(vec![], |s| vec![s; count(Effect::Panic)]),
            chaos: buyer.map_or(vec![], |b| vec![1 - b; bought(ReconEffect::Chaos)]),
            confusion: buyer.map_or(vec![], |b| vec![b; bought(ReconEffect::Confusion)]),
            fatigue: stronger.map_or(vec![], |s| {
                if count(Effect::Fatigue) > 0 {
                    vec![s]
                } else {
                    vec![]
                }
            }),
            exhaustion: stronger.map_or(vec![], |s| {
                if count(Effect::Exhaustion) > 0 {
                    vec![s]
                } else {
                    vec![]
                }
            }),
            enthusiasm: self
                .weaker
                .filter(|_| count(Effect::Enthusiasm) > 0)
                .map_or(vec![], |w| vec![w.index()]),
            big_mouthed_prisoner: buyer
                .map_or(vec![], |b| vec![b; bought(ReconEffect::BigMouthedPrisoner)]),
            decisive_moment: buyer.map_or(vec![], |b| vec![b; bought(ReconEffect::DecisiveMoment)]),
            cut_off_retreat: buyer.map_or(vec![], |b| {
                vec![1 - b; bought(ReconEffect::CutOffTheRetreat)]
            }),
            unexpected_reinforcements: self.weaker.map_or(vec![], |w| {
                vec![w.index(); count(Effect::UnexpectedReinforcements)]
            }),
        }
    }

    /// What the players should know before the first turn: the scenario, the forces and the
    /// effects rolled and bought.
    fn briefing(&self) -> String {
        let mut out = Vec::new();
        if let Some(map) = self.map() {
            out.push(map.briefing.clone());
        }
        out.push(match self.weaker {
            Some(w) => format!(
                "{} ({} FSP) faces {} ({} FSP) and has the Initiative in turn 1 (BFS-SCN-15).",
                self.name(w),
                self.fsp(w),
                self.name(w.other()),
                self.fsp(w.other())
            ),
            None => format!("Both forces have {} FSP.", self.fsp(Side::A)),
        });
        if !self.effects.is_empty() {
            let list: Vec<String> = self
                .effects
                .iter()
                .map(|t| {
                    if t.detail.is_empty() {
                        t.effect.name().to_string()
                    } else {
                        format!("{} ({})", t.effect.name(), t.detail)
                    }
                })
                .collect();
            out.push(format!(
                "Additional Effects: {} (BFS-SCN-24).",
                list.join(", ")
            ));
        }
        if !self.bought.is_empty() {
            let list: Vec<String> = self
                .bought
                .iter()
                .map(|b| b.effect.name().to_string())
                .collect();
            out.push(format!("Reconnaissance: {} (BFS-SCN-36).", list.join(", ")));
        }
        if self.fortifications > 0 {
            out.push(format!(
                "{} field fortification elements (BFS-SCN-13).",
                self.fortifications
            ));
        }
        out.push("Set up by the pre-battle sequence on a house map (the book's maps are not in the sources).".into());
        out.join(" ")
    }
}
