//! The opening position: the scenario's units, leaders and terrain made into a game, and the
//! first period begun.

use crate::force::ForceList;
use crate::options::Options;
use crate::scenario_spec::NapScenario;
use crate::state::{Brigade, Game, Ground, Leader, LeaderId, Marks, Phase, Unit, UnitId};
use crate::vocab::{Ammo, Fatigue, Standing};
use sandtable_engine::Dice;
use sandtable_geometry::Vec2;

pub fn new_game(s: &NapScenario, forces: &[ForceList], seed: u64) -> Result<Game, String> {
    let options = Options::from_scenario(&s.options).map_err(|ps| {
        ps.iter()
            .map(|p| format!("{}: {}", p.entity, p.message))
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let mut units = Vec::new();
    let mut leaders = Vec::new();
    let mut brigades = Vec::new();
    for (side, (force, list)) in s.rules.forces.iter().zip(forces).enumerate() {
        for b in &force.brigades {
            let lid = LeaderId(leaders.len() as u16);
            let bid = brigades.len() as u16;
            leaders.push(Leader {
                id: lid,
                key: b.leader.id.clone(),
                name: b.leader.name.clone(),
                side: side as u8,
                brigade: bid,
                pos: Vec2::new(b.leader.position.0, b.leader.position.1),
                alive: true,
                moved: false,
            });
            brigades.push(Brigade {
                key: b.id.clone(),
                name: b.name.clone(),
                side: side as u8,
                leader: lid,
            });
            for u in &b.units {
                let p = list.profile(&u.profile).ok_or_else(|| {
                    format!("unit \"{}\": unknown profile \"{}\"", u.id, u.profile)
                })?;
                let figures = u.figures.unwrap_or(p.figures);
                units.push(Unit {
                    id: UnitId(units.len() as u16),
                    key: u.id.clone(),
                    name: u.name.clone().unwrap_or_else(|| p.name.clone()),
                    side: side as u8,
                    brigade: bid,
                    profile: p.clone(),
                    formation: u.formation,
                    front: Vec2::new(u.position.0, u.position.1),
                    bearing: u.facing.rem_euclid(360.0),
                    figures,
                    start_figures: figures,
                    morale_number: p.morale.unwrap_or(options.morale_number(p.rating)),
                    fatigue: Fatigue::Fresh,
                    standing: Standing::Good,
                    ammo: Ammo::Full,
                    sixes: 0,
                    actions_left: 2,
                    ridden_down: false,
                    marks: Marks::default(),
                });
            }
        }
    }
    let mut start = [0u32; 2];
    for u in &units {
        start[u.side as usize] += u.figures;
    }
    let ground = s
        .terrain
        .iter()
        .map(|t| Ground {
            kind: t.kind,
            name: t.name.clone(),
            polygons: sandtable_engine::scenario_geometry::shape_polygons(&t.shape),
        })
        .collect();
    let mut game = Game {
        table: Vec2::new(s.table.width, s.table.depth),
        ground,
        side_names: [
            s.sides
                .first()
                .map_or("First side".into(), |x| x.name.clone()),
            s.sides
                .get(1)
                .map_or("Second side".into(), |x| x.name.clone()),
        ],
        units,
        leaders,
        brigades,
        period: 0,
        periods: s.turn_limit,
        turn_points: [options.turn_points; 2],
        side_a: 0,
        phase: Phase::Over,
        charges: Vec::new(),
        options,
        dice: Dice::from_seed(seed),
        start_figures: start,
        ending: None,
        script: s.script.iter().map(|r| (r.clone(), false)).collect(),
        standing_orders: Vec::new(),
    };
    let mut events = Vec::new();
    crate::sequence::begin_period(&mut game, &mut events);
    Ok(game)
}
