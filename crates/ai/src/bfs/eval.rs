//! The search player's judgement of a position, from one side's point of view:
//!
//! - material: strength points left, weighted by the unit's quality and Morale Level, and the
//!   losses so far as the victory count weighs them (BFS-VIC-4), which decide the battle;
//! - threat: for each unit, the best charge it could make (its melee edge over the target, fading
//!   with distance beyond its Basic Move) and the worst charge it could suffer;
//! - position: shooters within range of a target;
//! - command reach: units a commander can order for 1 CP, counting the move he can still make.
//!
//! Melee edges come from the rules' own odds ([`preview::charge_odds`] for the charger,
//! [`preview::reply_odds`] for the target striking back), worked out once
//! per decision in [`Matchups`]; evaluating a position afterwards needs only distances, so a
//! decision can afford hundreds of evaluations.

use crate::field::{Field, FieldCache, Grid};
use sandtable_bfs::geo::{self, TerrainClass, frame_of};
use sandtable_bfs::ids::{ProfileId, Side, UnitId};
use sandtable_bfs::preview;
use sandtable_bfs::profile::UnitProfile;
use sandtable_bfs::state::{Game, MoraleLevel, OrderKind, Unit, UnitStatus};
use sandtable_geometry::distance::set_distance;
use sandtable_geometry::rect;
use sandtable_geometry::{Polygon, Rect, Vec2};
// The evaluation looks its pairs up for every position it judges: a fast hash (the maps are
// only ever looked up, never iterated, so the hasher changes no answer).
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Weight of one loss point (a destroyed base, or two fled ones; BFS-VIC-4) against one
/// strength point of material. Losses are what the victory count reads, so they dominate.
const LOSS_POINT: f64 = 4.0;
/// How much of the blows a charged unit strikes back count against the charger's edge.
const REPLY: f64 = 0.3;
/// How much of the Defender's Fire a charger expects to take counts against the charge
/// (BFS-CBT-3): those strength points are lost before the first blow, so they count in full.
const DEFENDERS_FIRE: f64 = 1.0;
/// Worth of one objective VP held, against a loss point's 4 (a VP is what a loss band moves).
const OBJECTIVE: f64 = 1.5;
/// Worth of a unit within a commander's 1-CP range.
const COMMAND_REACH: f64 = 0.25;
/// How much more a Disorganized or fleeing unit needs a commander within range (to rally it).
const RALLY_NEED: f64 = 3.0;
/// Cost per cm between a commander and the middle of his side's units.
const COMMANDER_PULL: f64 = 0.003;
/// Chance that one volley at a lone commander kills him: a few dice at −1 (BFS-CDR-7), his
/// Armor, then a Skill test he fails about half the time (BFS-CDR-9).
const COMMANDER_SHOT_RISK: f64 = 0.25;
/// Friends closer than this hamper each other's moves, cm.
const CROWD_CM: f64 = 4.0;
/// Cost of two units touching.
const CROWDING: f64 = 0.4;
/// Cost of standing in difficult terrain (three times that in very difficult terrain).
const SLOWED: f64 = 0.15;
/// Weight of the best charge a unit could make.
const ATTACK: f64 = 1.0;
/// Weight of the worst charge a unit could suffer: the enemy may not take the chance.
const DANGER: f64 = 0.2;
/// Share of a charge's danger when it needs the Additional Move to arrive.
const FAR_DANGER: f64 = 0.35;
/// Distance over which a volley's pull fades beyond its long range, cm.
const SHOT_FADE_CM: f64 = 80.0;
/// Weight of the best volley a unit could fire where it stands (strength points per volley).
const SHOOT: f64 = 0.8;
/// Weight of the volleys it could suffer there.
const SHOT_AT: f64 = 0.4;
/// Distance over which an attack's pull fades to nothing beyond the Basic Move, cm. Long enough
/// to draw units across the whole table.
const PULL_FADE_CM: f64 = 90.0;

/// Fighting worth of one Strength point of a unit.
fn quality(game: &Game, u: &Unit) -> f64 {
    let p = game.profile(u.profile);
    let base = 1.0
        + 0.35 * p.close_combat as f64
        + 0.25 * p.shooting as f64 * sandtable_bfs::ammunition::share_left(u)
        + 0.08 * p.armor as f64
        + 0.15 * (p.skill as f64 - 3.0)
        + 0.1 * (p.morale as f64 - 4.0);
    let morale = match u.morale {
        MoraleLevel::Good => 1.0,
        MoraleLevel::Disorganized => 0.6,
        MoraleLevel::Flight => 0.2,
    };
    base * morale
}

/// Strength points left, as the rules count them (a War Wagon Train's are its crews').
fn strength(game: &Game, u: &Unit) -> f64 {
    sandtable_bfs::losses::sp_left(game, u.id) as f64
}

/// Material of a unit: what the side would lose with it.
pub fn material(game: &Game, u: &Unit) -> f64 {
    if u.status != UnitStatus::OnTable {
        return 0.0;
    }
    strength(game, u) * quality(game, u)
}

/// Who wins a charge between two units, as the rules' odds say, from the root position of a
/// decision. A move changes distances, not who is the better fighter, so one table serves every
/// position the decision looks at.
#[derive(Debug, Clone)]
pub struct Matchups {
    /// `(a, b)`: strength points `a` expects to take off `b` when it charges, less what `b`
    /// takes off `a` striking back, standing, with no Impetus.
    edge: FxHashMap<(UnitId, UnitId), f64>,
    /// `(a, b)`: strength points a volley of `a` is expected to take off `b`.
    volley: FxHashMap<(UnitId, UnitId), Volley>,
    /// How much the charges a unit could suffer count: a side that is not ahead must take more
    /// risks as the turn limit nears, or the battle ends a draw (BFS-VIC-7).
    pub danger_weight: f64,
    /// How far the battle has run, 0 at the start to 1 at the turn limit.
    pub late: f64,
    /// Travel fields towards each enemy, for each profile of the judging side's units.
    travel: FxHashMap<(ProfileId, UnitId), Arc<Field>>,
    grid: Arc<TerrainGrid>,
    /// The order each of the judging side's units would be given where it stands, worked out
    /// once a decision when first asked (by the search's judgement of Instructions).
    pub wanted: std::sync::OnceLock<FxHashMap<UnitId, OrderKind>>,
}

/// A volley's expected strength point losses at each range band, and the bands' reach.
#[derive(Debug, Clone, Copy, Default)]
pub struct Volley {
    pub effective: f64,
    pub long: f64,
    pub effective_cm: f64,
    pub long_cm: f64,
}

impl Volley {
    /// Expected losses at distance `d`; beyond range, a fading pull towards it.
    pub fn at(&self, d: f64) -> f64 {
        if d <= self.effective_cm {
            self.effective
        } else if d <= self.long_cm {
            self.long
        } else {
            0.7 * self.long.max(0.5 * self.effective)
                * (1.0 - (d - self.long_cm) / SHOT_FADE_CM).max(0.0)
        }
    }
}

impl Matchups {
    /// Every pair of opposing units on the table, judged for `side`.
    pub fn new(game: &Game, side: Side) -> Self {
        Self::with_cache(game, side, &mut Fields::default())
    }

    /// As [`Matchups::new`], reusing travel fields from earlier decisions: terrain never moves,
    /// and most enemies have not moved since the last decision either.
    pub fn with_cache(game: &Game, side: Side, cache: &mut Fields) -> Self {
        let mut edge = FxHashMap::default();
        let mut volleys = FxHashMap::default();
        // Who would fire Defender's Fire at a charger, once per unit: the test is not cheap.
        let fires: std::collections::HashSet<UnitId> = game
            .units
            .iter()
            .filter(|u| u.status == sandtable_bfs::state::UnitStatus::OnTable)
            .filter(|u| fires_defenders(game, u.id))
            .map(|u| u.id)
            .collect();
        for a in game.units_on_table(Side::A) {
            for b in game.units_on_table(Side::B) {
                let ab = volley(game, a, b);
                let ba = volley(game, b, a);
                let edge_of = |x: &Unit, y: &Unit, y_at_x: &Volley| {
                    let fire = if fires.contains(&y.id) {
                        y_at_x.effective
                    } else {
                        0.0
                    };
                    odds(game, x.id, y.id) - REPLY * reply(game, y.id, x.id) - DEFENDERS_FIRE * fire
                };
                edge.insert((a.id, b.id), edge_of(a, b, &ba));
                edge.insert((b.id, a.id), edge_of(b, a, &ab));
                volleys.insert((a.id, b.id), ab);
                volleys.insert((b.id, a.id), ba);
            }
        }
        let lost = |s: Side| -> f64 {
            game.units
                .iter()
                .filter(|u| u.side == s)
                .map(|u| u.bases_destroyed as f64 + 0.5 * u.bases_fled as f64)
                .sum()
        };
        let ahead = lost(side.other()) > lost(side);
        let limit = game.info.turn_limit.max(1) as f64;
        let late = (game.turn.number as f64 / limit).min(1.0);
        let danger_weight = if ahead {
            DANGER
        } else {
            DANGER * (1.0 - 0.8 * late)
        };
        let grid = grid(cache, game);
        let mut travel = FxHashMap::default();
        // Only units that can strike or shoot are drawn towards the enemy: wagons and other
        // units with neither close combat nor shooting dice need no travel fields.
        for u in game.units_on_table(side).filter(|u| {
            let p = game.profile(u.profile);
            p.close_combat > 0 || (p.shooting > 0 && p.ranged.is_some())
        }) {
            for e in game.units_on_table(side.other()) {
                travel
                    .entry((u.profile, e.id))
                    .or_insert_with(|| field(cache, game, &grid, u.profile, e));
            }
        }
        Self {
            edge,
            volley: volleys,
            danger_weight,
            late,
            travel,
            grid,
            wanted: std::sync::OnceLock::new(),
        }
    }

    /// The melee edge of `a` charging `b`; zero for a pair it does not know.
    pub fn edge(&self, a: UnitId, b: UnitId) -> f64 {
        self.edge.get(&(a, b)).copied().unwrap_or(0.0)
    }

    /// The travel field towards `target` for units of `profile`, if the judging side has any.
    pub fn field(&self, profile: ProfileId, target: UnitId) -> Option<&Field> {
        self.travel.get(&(profile, target)).map(|f| &**f)
    }

    /// How far `u` must travel to reach `e`: at least the straight distance `d`, more where
    /// terrain is in the way.
    pub fn travel(&self, u: &Unit, e: &Unit, d: f64) -> f64 {
        let f = frame_of(&u.bases);
        self.travel_from(u.profile, (f.front_left() + f.front_right()) * 0.5, e.id, d)
    }

    /// As [`Matchups::travel`], from a point (a unit's front middle) for units of `profile`.
    pub fn travel_from(
        &self,
        profile: ProfileId,
        from: sandtable_geometry::Vec2,
        target: UnitId,
        d: f64,
    ) -> f64 {
        self.field(profile, target)
            .map_or(d, |f| d.max(f.at(from) as f64))
    }

    /// The volley `a` would fire at `b`; nothing for a pair it does not know.
    pub fn volley(&self, a: UnitId, b: UnitId) -> Volley {
        self.volley.get(&(a, b)).copied().unwrap_or_default()
    }
}

/// Expected strength points lost by `target` when `unit` charges it.
fn odds(game: &Game, unit: UnitId, target: UnitId) -> f64 {
    expected(game, unit, target, preview::charge_odds)
}

/// Expected strength points `defender`'s Defender's Fire takes off `charger` before contact:
/// only a unit whose Defense order the charger's side can see fires it (BFS-CBT-3, and
/// `shooting::shoots_in`); a face-down order counts as none, as it would for a person.
pub fn defenders_fire(game: &Game, defender: &Unit, charger: &Unit) -> f64 {
    if !fires_defenders(game, defender.id) {
        return 0.0;
    }
    volley(game, defender, charger).effective
}

/// Would `unit` fire Defender's Fire at a charger, as its side's enemy sees it?
fn fires_defenders(game: &Game, unit: UnitId) -> bool {
    sandtable_bfs::shooting::shoots_in(
        game,
        unit,
        sandtable_bfs::shooting::FireStage::DefendersFire,
    )
}

/// Expected strength points `defender` takes off `charger` striking back at it, standing.
fn reply(game: &Game, defender: UnitId, charger: UnitId) -> f64 {
    expected(game, defender, charger, preview::reply_odds)
}

/// Expected losses of `target` from `striker`'s blows as `odds` estimates them; nothing for a
/// unit that cannot fight (no close combat dice, or in Flight).
fn expected(
    game: &Game,
    striker: UnitId,
    target: UnitId,
    odds: fn(&Game, UnitId, UnitId) -> Option<preview::Odds>,
) -> f64 {
    let u = game.unit(striker);
    if u.morale == MoraleLevel::Flight || game.unit_profile(striker).close_combat == 0 {
        return 0.0;
    }
    odds(game, striker, target).map_or(0.0, |o| o.expected_losses())
}

/// A rough volley estimate from the profiles (BFS-SHO-9..15): the front rank's shooting dice,
/// hitting on Skill, rerolled at long range, less the target's armor saves after the weapon's
/// effectiveness. Good enough to choose where to stand; the app shows the exact odds.
fn volley(game: &Game, a: &Unit, b: &Unit) -> Volley {
    let p = game.profile(a.profile);
    let Some(w) = p.ranged else {
        return Volley::default();
    };
    if a.morale == MoraleLevel::Flight
        || p.shooting == 0
        || !sandtable_bfs::ammunition::may_shoot(game, a.id)
    {
        return Volley::default();
    }
    let s = w.stats(p.is_mounted());
    let front = sandtable_bfs::shooting::front_rank(game, a.id).len().max(1) as f64;
    let per_base = if a.morale == MoraleLevel::Disorganized {
        1.0
    } else {
        p.shooting as f64
    };
    let dice = front * per_base;
    let hit = (p.skill as f64 / 10.0).clamp(0.0, 1.0);
    let armor = game.profile(b.profile).armor as f64;
    let fails = |eff: i8| 1.0 - ((armor - eff as f64) / 10.0).clamp(0.0, 1.0);
    Volley {
        effective: dice * hit * fails(s.effectiveness.0),
        long: if s.long_cm.is_some() {
            dice * hit * hit * fails(s.effectiveness.1)
        } else {
            0.0
        },
        effective_cm: s.effective_cm as f64,
        long_cm: s.long_cm.unwrap_or(s.effective_cm) as f64,
    }
}

/// How strongly a charge at distance `d` pulls: fully within the Basic Move (the charge arrives
/// without a test), fading linearly beyond it so that closing in always helps.
pub fn closeness(d: f64, basic: f64) -> f64 {
    if d <= basic {
        1.0
    } else {
        (1.0 - (d - basic) / PULL_FADE_CM).max(0.0)
    }
}

/// Distance between two unit frames, cm.
fn frame_distance(a: &Rect, b: &Rect) -> f64 {
    // The crate's own rectangle distance: the evaluation asks it for every pair of units in
    // every position it judges, and parry's general query was a tenth of a battle's time.
    sandtable_geometry::distance::rect_distance_exact(a, b).unwrap_or(f32::INFINITY) as f64
}

/// Distance between two units' bases, cm.
pub fn distance(a: &Unit, b: &Unit) -> f64 {
    set_distance(&a.bases, &b.bases).unwrap_or(f32::INFINITY) as f64
}

/// A position's value for `side`: higher is better.
pub fn evaluate(game: &Game, side: Side, matchups: &Matchups) -> f64 {
    breakdown(game, side, matchups).total()
}

/// A position's value split by what it comes from, for explaining and tuning the player.
#[derive(Debug, Clone, Copy, Default)]
pub struct Breakdown {
    pub material: f64,
    pub losses: f64,
    /// Charges and volleys each unit could make or suffer.
    pub threat: f64,
    /// Crowding and slowing terrain.
    pub room: f64,
    pub objectives: f64,
    pub command: f64,
}

impl Breakdown {
    pub fn total(&self) -> f64 {
        self.material + self.losses + self.threat + self.room + self.objectives + self.command
    }
}

/// The terms of [`evaluate`].
pub fn breakdown(game: &Game, side: Side, matchups: &Matchups) -> Breakdown {
    let mut b = Breakdown::default();
    // Each unit's frame once: distances between frames are one rectangle test instead of one
    // per pair of bases, close enough for judging a position.
    let mine: Vec<Placed> = game
        .units_on_table(side)
        .map(|u| Placed::new(game, u))
        .collect();
    let theirs: Vec<Placed> = game
        .units_on_table(side.other())
        .map(|u| Placed::new(game, u))
        .collect();
    for m in &mine {
        b.material += material(game, m.unit);
    }
    for e in &theirs {
        b.material -= material(game, e.unit);
    }
    // Losses as the victory count weighs them (the rules' own tally, BFS-VIC-4): destroyed
    // bases in full, fled bases half (a unit in Flight on the table counts as fled, as it will
    // if the battle ends so), a killed commander his CP + 1.
    let lost = |s: Side| {
        let t = sandtable_bfs::victory::tally(game, s);
        t.destroyed as f64 + 0.5 * t.fled as f64 + t.commanders as f64
    };
    b.losses = LOSS_POINT * (lost(side.other()) - lost(side));
    for m in &mine {
        b.threat += unit_terms(game, m, &theirs, matchups).worth(matchups);
    }
    // Room to move: units bunched together block each other (friends cannot be passed through),
    // and a unit in slowing terrain crawls (BFS-TER-2/3).
    for (i, m) in mine.iter().enumerate() {
        let (u, uf) = (m.unit, &m.frame);
        for Placed {
            unit: f, frame: ff, ..
        } in &mine[i + 1..]
        {
            // Wagons are drawn up to be stood behind, not to maneuver (BFS-WAG-5).
            if sandtable_bfs::wagon::crewless(game, u.id)
                || sandtable_bfs::wagon::crewless(game, f.id)
            {
                continue;
            }
            let d = frame_distance(uf, ff);
            if d < CROWD_CM {
                b.room -= CROWDING * (CROWD_CM - d) / CROWD_CM;
            }
        }
        // Any base in slowing ground slows the whole unit (BFS-TER-2/3).
        b.room -= match m.footing.class {
            TerrainClass::Difficult => SLOWED,
            TerrainClass::VeryDifficult => 3.0 * SLOWED,
            _ => 0.0,
        };
    }
    // Objectives (BFS-SCN-7, BFS-VIC-6): held ones are worth their VP, as losses are; the nearest
    // unit is drawn towards one the side does not hold.
    for (i, o) in game.objectives.iter().enumerate() {
        let vp = o.vp as f64;
        match sandtable_bfs::script::holder(game, i) {
            Some(s) if s == side => b.objectives += OBJECTIVE * vp,
            Some(_) => b.objectives -= OBJECTIVE * vp,
            None => {}
        }
        if sandtable_bfs::script::holder(game, i) != Some(side) {
            // Only a unit in good order can be ordered onto it: a Disorganized unit beside the
            // marker (a repulsed charge) would otherwise be the nearest and the pull would
            // leave every other unit where it stands.
            let nearest = mine
                .iter()
                .filter(|m| m.unit.morale == MoraleLevel::Good)
                .map(|m| (m.frame.closest_point(o.position) - o.position).length() as f64)
                .fold(f64::INFINITY, f64::min);
            if nearest.is_finite() {
                b.objectives -= 0.02 * vp * (nearest - o.radius as f64).max(0.0);
            }
        }
    }
    // Command reach: units a commander can order for 1 CP (BFS-CMD-4), and a pull towards the
    // others. A commander who has not moved yet this turn can still follow his units, so a unit
    // that outruns his range by no more than his move is not yet out of reach.
    for Placed { unit: u, .. } in &mine {
        let gap = game
            .commanders_on_table(side)
            .map(|c| {
                let follow = if c.moved || c.attached_to.is_some() {
                    0.0
                } else {
                    game.profile(c.profile).movement.basic as f64
                };
                let range = sandtable_bfs::authority::command_range_cm(game, c.id) as f64 + follow;
                (sandtable_bfs::authority::distance_to_unit(game, c.id, u.id) as f64 - range)
                    .max(0.0)
            })
            .fold(f64::INFINITY, f64::min);
        // A unit that must be rallied before it can take an order again needs a commander in
        // range most (BFS-RAL-3): otherwise it sits orderless under the enemy's muskets.
        let need = if u.morale == MoraleLevel::Good {
            1.0
        } else {
            RALLY_NEED
        };
        if gap.is_finite() {
            b.command += need
                * if gap == 0.0 {
                    COMMAND_REACH
                } else {
                    -0.01 * gap
                };
        }
    }
    // A lone commander who is the nearest target of enemy shooters within 30 cm risks his life,
    // worth his CP + 1 loss points (BFS-CDR-7, BFS-VIC-4).
    for c in game.commanders_on_table(side) {
        let volleys = sandtable_bfs::shooting::exposed_to_fire(game, c.id).min(2) as f64;
        b.command -= volleys * COMMANDER_SHOT_RISK * LOSS_POINT * (c.cp_max as f64 + 1.0);
    }
    // Commanders keep up with the middle of their army, where most orders will be given.
    if !mine.is_empty() {
        let middle = mine
            .iter()
            .map(|m| m.frame.center())
            .sum::<sandtable_geometry::Vec2>()
            / mine.len() as f32;
        for c in game
            .commanders_on_table(side)
            .filter(|c| c.attached_to.is_none())
        {
            b.command -= COMMANDER_PULL * (c.base.center() - middle).length() as f64;
        }
    }
    b
}

impl UnitTerms {
    /// What the terms add to the position's value, as the evaluation weighs them.
    pub fn worth(&self, matchups: &Matchups) -> f64 {
        ATTACK * self.attack - matchups.danger_weight * self.danger + SHOOT * self.shot
            - SHOT_AT * self.shot_at
    }
}

/// What one unit's position offers and risks.
#[derive(Debug, Clone, Copy, Default)]
pub struct UnitTerms {
    /// Its best charge: melee edge times closeness.
    pub attack: f64,
    /// The worst charge it could suffer from an enemy within reach.
    pub danger: f64,
    /// Its best volley from where it stands (or the pull towards one).
    pub shot: f64,
    /// The volleys it could suffer there.
    pub shot_at: f64,
}

/// How far a unit can go this phase from the ground it stands on, as the rules' charge budget
/// has it (`charge_reach::terrain_budget`): a unit with any base in difficult terrain moves half
/// its Move, in very difficult terrain 5 cm, and out of very difficult terrain it makes no
/// Additional Move (BFS-TER-2/3). A hussar banner with one flank in a wood charges 5 cm, not 20.
#[derive(Debug, Clone, Copy)]
pub struct Footing {
    /// The worst ground under any of its bases, for this unit.
    pub class: TerrainClass,
    /// Its Basic Move from here, cm.
    pub basic: f64,
    /// Its Additional Move from here, cm.
    pub additional: f64,
}

/// The footing of unit `u` where it stands.
pub fn footing(game: &Game, u: &Unit) -> Footing {
    let p = game.profile(u.profile);
    let class = geo::worst_class_under(game, &u.bases, p);
    let basic =
        geo::slowed_move(class, p.movement.basic).map_or(p.movement.basic, |(cap, _, _)| cap);
    let additional = if class == TerrainClass::VeryDifficult {
        0.0
    } else {
        p.movement.additional
    };
    Footing {
        class,
        basic: basic as f64,
        additional: additional as f64,
    }
}

/// A unit placed for judging: its frame (distances between frames are one rectangle test) and
/// its footing, each worked out once per position.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    pub unit: &'a Unit,
    pub frame: Rect,
    /// The frame with its axes worked out once (no sine and cosine per question).
    pub axes: rect::Placed,
    pub footing: Footing,
    /// It shoots only into its front zone (BFS-SHO-3): a close-order unit without a horse bow.
    pub front_arc: bool,
}

impl<'a> Placed<'a> {
    pub fn new(game: &Game, unit: &'a Unit) -> Self {
        let frame = frame_of(&unit.bases);
        Placed {
            unit,
            frame,
            axes: rect::Placed::of(&frame),
            footing: footing(game, unit),
            front_arc: unit.formation != sandtable_bfs::state::Formation::OpenOrder
                && sandtable_bfs::shooting::fire_arc(game, unit.id)
                    == sandtable_geometry::FireArc::Front,
        }
    }

    /// Can it shoot at `target` without turning first? Outside the front zone a unit with the
    /// front arc must turn (BFS-SHO-3).
    fn in_arc(&self, target: &rect::Placed) -> bool {
        !self.front_arc || in_front_zone(&self.axes, target)
    }
}

/// Does any part of `target` lie in the front zone of `frame` (BFS-SHO-3, the zones of GEO-4 and
/// AMB-2 as the rules draw them)? Judged by the target's corners and its point nearest the front's
/// middle: cheap, and enough for judging positions (a target straddling the zone with none of
/// those points inside it is missed; the rules' `fire::in_field_of_fire` clips the areas).
fn in_front_zone(frame: &rect::Placed, target: &rect::Placed) -> bool {
    use sandtable_geometry::zones::{Zone, ZoneScheme, zone_of_placed_point};
    let front =
        |p: Vec2| zone_of_placed_point(frame, p, ZoneScheme::default()) == Some(Zone::Front);
    let mid = frame.pos + frame.facing * frame.half.y;
    target.corners().into_iter().any(front) || front(target.closest_point(mid))
}

/// The threat and position terms of one unit against the enemies `theirs`.
pub fn unit_terms(game: &Game, me: &Placed, theirs: &[Placed], matchups: &Matchups) -> UnitTerms {
    let (u, frame) = (me.unit, &me.frame);
    let up = game.profile(u.profile);
    let fights = u.morale == MoraleLevel::Good && up.close_combat > 0;
    let baggage = sandtable_bfs::wagon::crewless(game, u.id);
    let mut t = UnitTerms::default();
    let front_mid = (frame.front_left() + frame.front_right()) * 0.5;
    for them in theirs {
        let Placed {
            unit: e,
            frame: ef,
            footing: their_footing,
            ..
        } = them;
        let d = frame_distance(frame, ef);
        if fights {
            let edge = matchups.edge(u.id, e.id);
            if edge > 0.0 {
                // A charge out of slowing ground is capped from the start; one into it covers
                // half the move, or 5 cm (BFS-TER-2/3).
                let basic = if me.footing.basic < up.movement.basic as f64 {
                    me.footing.basic
                } else {
                    let class = matchups.grid.class_at(game, up, ef.center());
                    geo::slowed_move(class, up.movement.basic)
                        .map_or(up.movement.basic, |(cap, _, _)| cap) as f64
                };
                // Terrain between counts even within the Basic Move: a hill between a unit and
                // a target 17 cm away halves the charge, and a unit judged already in reach
                // would never move to where its charge really arrives (the Charge order is
                // valued by the rules' own charge preview).
                let far = matchups.travel_from(u.profile, front_mid, e.id, d);
                // The wheel that turns it to face the target comes out of the same move
                // (BFS-CHG-8): a target beside it is further than it looks. The wheel only
                // lowers the pull, so it is worked out only where the pull could still count.
                if edge * closeness(far, basic) > t.attack {
                    let far = far + charge_wheel_cm(u, &me.axes, &them.axes);
                    t.attack = t.attack.max(edge * closeness(far, basic));
                }
            }
        }
        let their_edge = matchups.edge(e.id, u.id);
        if e.morale == MoraleLevel::Good && their_edge > 0.0 {
            // A charge needing the Additional Move must pass a Skill test and may find the
            // target gone (BFS-CHG-24): it counts for less.
            let full = their_footing.basic + their_footing.additional;
            // Its wheel to face this unit comes out of its move too (worked out only where
            // the charge could count).
            let d = if d <= full || baggage {
                d + charge_wheel_cm(e, &them.axes, &me.axes)
            } else {
                d
            };
            let reach = if d <= their_footing.basic {
                1.0
            } else if d <= full {
                FAR_DANGER
            } else if baggage {
                // Wagons cannot fight back: an enemy that can reach them next turn threatens
                // them already (BFS-WAG-6), fading over one more full move.
                FAR_DANGER * (1.0 - (d - full) / full.max(1.0)).max(0.0)
            } else {
                0.0
            };
            // Wagons taken are whole bases lost (BFS-WAG-6, BFS-WAG-8): count them as such.
            let at_stake = if baggage {
                material(game, u) + LOSS_POINT * u.bases.len() as f64
            } else {
                their_edge
            };
            t.danger = t.danger.max(at_stake * reach);
        }
        let volley = matchups.volley(u.id, e.id);
        let shot_d = if d > volley.long_cm {
            matchups.travel_from(u.profile, front_mid, e.id, d)
        } else if me.in_arc(&them.axes) {
            d
        } else {
            // In range but outside its arc: it must turn before it fires, so the volley only
            // pulls, as one out of range does, and the less the further it must turn.
            volley.long_cm + charge_wheel_cm(u, &me.axes, &them.axes)
        };
        t.shot = t.shot.max(volley.at(shot_d));
        let theirs = matchups.volley(e.id, u.id);
        if d <= theirs.long_cm && them.in_arc(&me.axes) {
            t.shot_at += theirs.at(d);
        }
    }
    t
}

/// How far the outer front corner of `unit` (its frame `frame`) travels as a charge wheels it to
/// face `target` (BFS-CHG-8, GEO-11), cm: the wheel is measured by that corner and comes out of
/// the charge's move, so a target beside or behind a unit is further away than the distance
/// between them. An estimate for judging positions (the rules' own wheel is
/// `sandtable_geometry::charge::facing_wheel`, which costs too much to ask for every pair in every
/// position): see [`facing_wheel_cm`]. Open Order units do not wheel to charge (BFS-OO-3).
fn charge_wheel_cm(unit: &Unit, frame: &rect::Placed, target: &rect::Placed) -> f64 {
    if unit.formation == sandtable_bfs::state::Formation::OpenOrder {
        0.0
    } else {
        facing_wheel_cm(frame, target)
    }
}

/// The outer corner's path, cm, as a unit framed by `frame` wheels to face `target` (see
/// [`charge_wheel_cm`]): nothing when the target's nearest point already lies ahead of the
/// front, else the smallest turn about the front corner on the target's side that brings one of
/// the target's corners in line ahead of it, times the frontage. Within 2 cm of the rules' wheel
/// up to 130° off the facing (tested).
pub fn facing_wheel_cm(frame: &rect::Placed, target: &rect::Placed) -> f64 {
    let [fl, fr, _, _] = frame.corners();
    let (facing, right) = (frame.facing, frame.right);
    let mid = (fl + fr) * 0.5;
    let v = target.closest_point(mid) - mid;
    let (across, ahead) = (v.dot(right), v.dot(facing));
    if ahead >= 0.0 && across.abs() <= frame.half.x {
        return 0.0;
    }
    // It wheels about its front corner on the target's side until the first of the target's
    // corners comes in line ahead of that corner: the smallest turn towards the target side.
    let (pivot, side) = if across >= 0.0 { (fr, 1.0) } else { (fl, -1.0) };
    // The corner with the smallest turn, found by a cheap monotonic stand-in for the angle;
    // the angle itself is worked out once, for it (the evaluation asks this for every pair of
    // units in every position it judges).
    let (x, y) = target
        .corners()
        .into_iter()
        .map(|q| {
            let d = q - pivot;
            (side * d.dot(right), d.dot(facing))
        })
        .min_by(|a, b| turn_order(*a).total_cmp(&turn_order(*b)))
        .expect("four corners");
    let mut turn = x.atan2(y);
    // A corner behind the pivot on the far side is reached only past half a turn.
    if x < 0.0 && y < 0.0 {
        turn += std::f32::consts::TAU;
    }
    (turn.max(0.0) * 2.0 * frame.half.x) as f64
}

/// A value that orders directions `(x, y)` as their turn from `+y` towards `+x` does, with the
/// far side behind (`x < 0`, `y < 0`) counted past half a turn: `x / (|x| + |y|)` ahead (−1 to
/// 1 from a quarter turn left to a quarter turn right), `2 − x / (|x| + |y|)` behind (1 to 3),
/// without a trigonometric call.
fn turn_order((x, y): (f32, f32)) -> f32 {
    let s = x.abs() + y.abs();
    if s <= 0.0 {
        return 0.0;
    }
    let p = x / s;
    if y < 0.0 { 2.0 - p } else { p }
}

/// Half a typical unit's frontage, cm: how far beside a path terrain still slows the unit.
const HALF_FRONTAGE_CM: f32 = 6.0;
/// Cost of a cell beside impassable terrain, within half a frontage of it.
const BARRED_NEIGHBOUR: f32 = 4.0;

/// Which terrain piece, if any, covers each cell (the first listed wins where pieces overlap).
#[derive(Debug)]
pub struct TerrainGrid {
    pub grid: Grid,
    /// Index into `game.terrain` for each cell, row by row from the south-west corner.
    piece: Vec<Option<usize>>,
    /// The widened costs for each profile (by its whole description), worked out once: the
    /// same for every target a unit of it travels to.
    widened: std::sync::Mutex<HashMap<String, Arc<Vec<Option<f32>>>>>,
}

/// A copy shares nothing: it works its widened costs out again.
impl Clone for TerrainGrid {
    fn clone(&self) -> Self {
        Self {
            grid: self.grid,
            piece: self.piece.clone(),
            widened: Default::default(),
        }
    }
}

impl TerrainGrid {
    pub fn new(game: &Game) -> Self {
        let grid = Grid::over(game.info.table);
        let polygons: Vec<(usize, Polygon)> = game
            .terrain
            .iter()
            .enumerate()
            .flat_map(|(i, t)| {
                t.polygons
                    .iter()
                    .filter_map(move |p| Polygon::new(p.clone()).ok().map(|p| (i, p)))
            })
            .collect();
        let mut piece = vec![None; grid.len()];
        for row in 0..grid.depth {
            for col in 0..grid.width {
                let centre = Grid::centre(col, row);
                piece[row * grid.width + col] = polygons
                    .iter()
                    .find(|(_, p)| p.contains(centre))
                    .map(|(i, _)| *i);
            }
        }
        Self {
            grid,
            piece,
            widened: Default::default(),
        }
    }

    /// Cost of crossing each cell for a unit of profile `p`, widened by half a frontage.
    fn costs(&self, game: &Game, p: &UnitProfile) -> Arc<Vec<Option<f32>>> {
        let key = format!("{p:?}");
        let mut widened = self
            .widened
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        widened
            .entry(key)
            .or_insert_with(|| {
                Arc::new(self.grid.widen(
                    &self.own_costs(game, p),
                    HALF_FRONTAGE_CM,
                    BARRED_NEIGHBOUR,
                ))
            })
            .clone()
    }

    /// Cost of crossing each cell for a point-sized mover: the rules' terrain costs.
    fn own_costs(&self, game: &Game, p: &UnitProfile) -> Vec<Option<f32>> {
        self.piece
            .iter()
            .map(|piece| {
                let class = piece.map_or(TerrainClass::Open, |i| {
                    geo::terrain_class(game.terrain[i].kind, p)
                });
                geo::move_cost_per_cm(class, p.movement.basic)
            })
            .collect()
    }

    /// The terrain class at point `p` for a unit of profile `prof`.
    pub fn class_at(&self, game: &Game, prof: &UnitProfile, p: Vec2) -> TerrainClass {
        self.piece[self.grid.index(p)].map_or(TerrainClass::Open, |i| {
            geo::terrain_class(game.terrain[i].kind, prof)
        })
    }

    /// The travel field towards `target` for a unit of profile `p`: from the cells under the
    /// target's bases and the cell nearest each base.
    pub fn field(&self, game: &Game, p: &UnitProfile, target: &Unit) -> Field {
        let g = self.grid;
        let mut sources = Vec::new();
        for b in &target.bases {
            sources.push(g.index(b.center()));
            let (lo, hi) = b.aabb();
            let (c0, r0) = g.cell_of(lo);
            let (c1, r1) = g.cell_of(hi);
            for row in r0..=r1 {
                for col in c0..=c1 {
                    if b.contains(Grid::centre(col, row), crate::field::CELL_CM * 0.5) {
                        sources.push(row * g.width + col);
                    }
                }
            }
        }
        g.field(&self.costs(game, p), sources)
    }
}

/// Travel cost for a unit: from the middle of its front edge.
pub fn travel_from_unit(field: &Field, u: &Unit) -> f32 {
    let f = frame_of(&u.bases);
    field.at((f.front_left() + f.front_right()) * 0.5)
}

/// Travel fields kept between decisions, keyed by the mover's profile and the target's bases.
pub type Fields = FieldCache<(ProfileId, u64), TerrainGrid>;

/// The terrain grid of this game's table, built once.
pub fn grid(cache: &mut Fields, game: &Game) -> Arc<TerrainGrid> {
    cache
        .table(terrain_key(game), || TerrainGrid::new(game))
        .clone()
}

/// The travel field towards `target` for units of `profile`.
pub fn field(
    cache: &mut Fields,
    game: &Game,
    grid: &TerrainGrid,
    profile: ProfileId,
    target: &Unit,
) -> Arc<Field> {
    cache.field((profile, bases_key(target)), || {
        grid.field(game, game.profile(profile), target)
    })
}

fn terrain_key(game: &Game) -> u64 {
    let mut h = DefaultHasher::new();
    game.info.table.x.to_bits().hash(&mut h);
    game.info.table.y.to_bits().hash(&mut h);
    for t in &game.terrain {
        (t.kind as u8).hash(&mut h);
        for p in t.polygons.iter().flatten() {
            p.x.to_bits().hash(&mut h);
            p.y.to_bits().hash(&mut h);
        }
    }
    h.finish()
}

fn bases_key(u: &Unit) -> u64 {
    let mut h = DefaultHasher::new();
    for b in &u.bases {
        for v in [b.pose.pos.x, b.pose.pos.y, b.pose.angle, b.half.x, b.half.y] {
            v.to_bits().hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::test_support::default_battle;
    use sandtable_bfs::authority::{command_range_cm, distance_to_unit};

    /// Moves a unit straight away from its side's commander until it stands `cm` from him.
    fn place_from_commander(game: &mut Game, key: &str, cm: f32) {
        let i = game.units.iter().position(|u| u.key == key).expect(key);
        let c = game
            .commanders_on_table(game.units[i].side)
            .next()
            .expect("a commander")
            .id;
        let away =
            (frame_of(&game.units[i].bases).center() - game.commander(c).base.center()).normalize();
        for _ in 0..20 {
            let gap = cm - distance_to_unit(game, c, game.units[i].id);
            if gap.abs() < 0.05 {
                return;
            }
            for b in &mut game.units[i].bases {
                *b = b.translated(away * gap);
            }
        }
        panic!("could not place {key} {cm} cm from the commander");
    }

    /// A unit just beyond its commander's range is not yet out of reach while he can still move
    /// after it; once he has moved, it is. Without this the whole army stopped at the edge of the
    /// range of a commander who had no reason to move.
    #[test]
    fn a_unit_may_outrun_a_commander_who_can_still_follow() {
        let mut game = default_battle();
        let side = Side::B;
        let c = game.commanders_on_table(side).next().expect("commander").id;
        let range = command_range_cm(&game, c);
        let follow = game.profile(game.commander(c).profile).movement.basic;
        assert!(follow >= 5.0, "the commander can move");
        let m = Matchups::new(&game, side);
        place_from_commander(&mut game, "reiters-1", range - 2.0);
        let inside = breakdown(&game, side, &m).command;
        place_from_commander(&mut game, "reiters-1", range + follow * 0.5);
        let beyond = breakdown(&game, side, &m).command;
        // Only the pull on the commander towards the army's middle changes.
        assert!((inside - beyond).abs() < 0.1, "{inside} against {beyond}");
        let i = game
            .commanders
            .iter()
            .position(|x| x.id == c)
            .expect("commander");
        game.commanders[i].moved = true;
        let stranded = breakdown(&game, side, &m).command;
        assert!(
            stranded < beyond - COMMAND_REACH * 0.9,
            "{stranded} against {beyond}"
        );
    }

    fn unit<'g>(game: &'g Game, key: &str) -> &'g Unit {
        game.units.iter().find(|u| u.key == key).expect(key)
    }

    /// The evaluation's estimate of a charge's facing wheel (BFS-CHG-8) against the rules' own
    /// (`sandtable_geometry::charge::facing_wheel`, measured by the outer corner: its angle times
    /// the frontage), for a 15 cm front charging a unit 22.5 cm away at every bearing from
    /// straight ahead to behind its flank, within 2 cm wherever it decides a charge. A Finnish
    /// horse 15 cm from a Disorganized Pancerni at 71° was judged in reach of it while the rules'
    /// wheel took its whole 20 cm move.
    #[test]
    fn the_facing_wheel_estimate_follows_the_rules_wheel() {
        use sandtable_geometry::charge::{ChargeParams, charge_zone, facing_wheel};
        let size = Vec2::new(15.0, 5.0);
        let charger = Rect::from_front_mid(Vec2::ZERO, size, 0.0);
        let params = ChargeParams::default();
        for bearing in (0..=150).step_by(10) {
            let b = (bearing as f32).to_radians();
            // Bearings clockwise from the charger's facing (+y); the target faces the charger.
            let at = Vec2::new(b.sin(), b.cos()) * 22.5;
            let target = Rect::from_front_mid(at, size, b + std::f32::consts::PI);
            let zone = charge_zone(&target, &charger, params.zones)
                .expect("valid")
                .expect("a zone");
            let w = facing_wheel(&charger, &target, zone, &params).expect("valid");
            let rules = (w.wheel.angle * size.x) as f64;
            let estimate = facing_wheel_cm(&rect::Placed::of(&charger), &rect::Placed::of(&target));
            if !w.faces {
                // No wheel of up to half a turn faces it there: the rules' fallback.
                continue;
            }
            // Past 40 cm (twice a horse's Basic Move) only "out of reach" matters.
            let close = (estimate - rules).abs() <= 2.0 || (rules > 40.0 && estimate > 30.0);
            assert!(
                close,
                "at {bearing}°: estimate {estimate:.2} cm, rules {rules:.2} cm"
            );
        }
    }

    /// The stand-in for the turn orders directions as the turn itself does, all the way round.
    #[test]
    fn turn_order_orders_directions_as_their_turn() {
        let turn = |(x, y): (f32, f32)| {
            let a = x.atan2(y);
            if x < 0.0 && y < 0.0 {
                a + std::f32::consts::TAU
            } else {
                a
            }
        };
        let dirs: Vec<(f32, f32)> = (0..720)
            .map(|i| (i as f32 * 0.5 - 89.75).to_radians())
            .map(|a| (a.sin() * 7.0, a.cos() * 7.0))
            .collect();
        for w in dirs.windows(2) {
            assert!(turn(w[0]) < turn(w[1]));
            assert!(turn_order(w[0]) < turn_order(w[1]), "{:?} {:?}", w[0], w[1]);
        }
    }

    /// A volley is judged where the rules let it be fired: only into the front zone of a unit
    /// with the front arc (BFS-SHO-3). Schwelick's musketeers 20 cm in front of the haiduks are
    /// judged to shoot them at once; turned away, only to be drawn towards turning, and the
    /// haiduks' own volley at them counts only while the musketeers are in the haiduks' front.
    #[test]
    fn bfs_sho_3_a_volley_is_judged_only_inside_the_front_arc() {
        let mut game = default_battle();
        let key = |k: &str| game.units.iter().position(|u| u.key == k).expect(k);
        let (m, h) = (key("musketeers"), key("haiduks"));
        // Face to face, 20 cm apart: the musketeers' front 20 cm north of the haiduks' front.
        let gap = frame_of(&game.units[m].bases).front_left().y
            - frame_of(&game.units[h].bases).front_left().y;
        let shift = sandtable_geometry::Vec2::new(
            frame_of(&game.units[h].bases).center().x - frame_of(&game.units[m].bases).center().x,
            20.0 - gap,
        );
        for b in &mut game.units[m].bases {
            *b = b.translated(shift);
        }
        let side = game.units[m].side;
        let matchups = Matchups::new(&game, side);
        let terms = |game: &Game| {
            let me = Placed::new(game, &game.units[m]);
            let theirs = [Placed::new(game, &game.units[h])];
            unit_terms(game, &me, &theirs, &matchups)
        };
        let facing = terms(&game);
        let volley = matchups.volley(game.units[m].id, game.units[h].id);
        assert_eq!(facing.shot, volley.at(20.0));
        assert!(facing.shot_at > 0.0, "the haiduks face them");
        // About turn on the spot: the haiduks are now behind them.
        let c = frame_of(&game.units[m].bases).center();
        for b in &mut game.units[m].bases {
            *b = b.rotated_about(c, std::f32::consts::PI);
        }
        let away = terms(&game);
        assert!(
            away.shot < 0.5 * facing.shot,
            "turned away: {} against {}",
            away.shot,
            facing.shot
        );
        assert_eq!(away.shot_at, facing.shot_at, "still in the haiduks' front");
        // Put the haiduks side-on: the musketeers are outside their arc.
        let hc = frame_of(&game.units[h].bases).center();
        for b in &mut game.units[h].bases {
            *b = b.rotated_about(hc, std::f32::consts::FRAC_PI_2);
        }
        assert_eq!(terms(&game).shot_at, 0.0, "outside the haiduks' arc");
    }

    /// The pull towards an objective the side does not hold comes from its nearest unit in good
    /// order (BFS-SCN-7): a Disorganized unit beside the marker cannot be ordered onto it, and
    /// counting it left every other unit where it stood (an "Attack on a village" trace: the
    /// hussars repulsed at the fences, the haiduks shooting from across the brook).
    #[test]
    fn only_a_unit_in_good_order_is_pulled_onto_an_objective() {
        let mut game = default_battle();
        let side = Side::A;
        let at = |game: &Game, key: &str| frame_of(&unit(game, key).bases).center();
        let marker = at(&game, "hussars") + Vec2::new(0.0, 8.0);
        game.objectives.push(sandtable_bfs::state::Objective {
            key: "mill".into(),
            name: "Mill".into(),
            position: marker,
            radius: 1.0,
            vp: 4,
            held_by: Some(side.other()),
        });
        let m = Matchups::new(&game, side);
        let shift = |game: &mut Game, key: &str, by: Vec2| {
            let i = game.units.iter().position(|u| u.key == key).expect(key);
            for b in &mut game.units[i].bases {
                *b = b.translated(by);
            }
        };
        let i = game
            .units
            .iter()
            .position(|u| u.key == "hussars")
            .expect("hussars");
        // In good order, the hussars beside the marker are the nearest: moving the haiduks
        // changes nothing.
        let before = breakdown(&game, side, &m).objectives;
        let towards = (marker - at(&game, "haiduks")).normalize() * 5.0;
        shift(&mut game, "haiduks", towards);
        let after = breakdown(&game, side, &m).objectives;
        assert!((after - before).abs() < 1e-9, "{before} against {after}");
        // Disorganized, they are not: the haiduks' 5 cm towards it are worth 0.02 × 4 VP a cm.
        game.units[i].morale = MoraleLevel::Disorganized;
        let before = breakdown(&game, side, &m).objectives;
        shift(&mut game, "haiduks", towards);
        let after = breakdown(&game, side, &m).objectives;
        assert!(
            ((after - before) - 0.02 * 4.0 * 5.0).abs() < 0.05,
            "{before} against {after}"
        );
    }

    /// A unit with one base in a wood charges out of it 5 cm and makes no Additional Move
    /// (BFS-TER-3), so its charge at a target 12 cm away no longer counts as in reach. A Mill
    /// Ford trace had the hussar banner wade a flank into the Dąbrowa wood on its way to the
    /// musketeers and stand there for three turns, judged 16 cm from a charge it could not make.
    #[test]
    fn a_unit_in_a_wood_charges_out_of_it_five_centimetres() {
        let mut game = default_battle();
        let side = Side::A;
        let shift = |game: &mut Game, key: &str, by: Vec2| {
            let i = game.units.iter().position(|u| u.key == key).expect(key);
            for b in &mut game.units[i].bases {
                *b = b.translated(by);
            }
        };
        let hussars = unit(&game, "hussars");
        let p = game.profile(hussars.profile);
        let open = footing(&game, hussars);
        assert_eq!(open.class, TerrainClass::Open);
        assert_eq!(open.basic, p.movement.basic as f64);
        assert_eq!(open.additional, p.movement.additional as f64);
        // The banner's left flank in the Dąbrowa wood (a forest: very difficult for horse).
        let centre = frame_of(&hussars.bases).center();
        shift(&mut game, "hussars", Vec2::new(36.0, 55.0) - centre);
        let hussars = unit(&game, "hussars");
        let wood = footing(&game, hussars);
        assert_eq!(wood.class, TerrainClass::VeryDifficult);
        assert_eq!(wood.basic, 5.0);
        assert_eq!(wood.additional, 0.0);
        // The musketeers 12 cm before the banner's front, in the open.
        let hf = frame_of(&hussars.bases);
        let musketeers = unit(&game, "musketeers");
        let mf = frame_of(&musketeers.bases);
        let want = hf.center() + Vec2::new(0.0, hf.half.y + 12.0 + mf.half.y);
        shift(&mut game, "musketeers", want - mf.center());
        let m = Matchups::new(&game, side);
        let (hussars, musketeers) = (unit(&game, "hussars"), unit(&game, "musketeers"));
        let edge = m.edge(hussars.id, musketeers.id);
        assert!(edge > 0.0, "the hussars beat the musketeers: {edge}");
        let them = [Placed::new(&game, musketeers)];
        let d = frame_distance(&frame_of(&hussars.bases), &them[0].frame);
        assert!((d - 12.0).abs() < 0.01, "{d}");
        let me = Placed::new(&game, hussars);
        let in_wood = unit_terms(&game, &me, &them, &m).attack;
        // Travel is never shorter than the 12 cm between them: 7 cm beyond the 5 cm it may go.
        assert!(
            in_wood <= edge * closeness(12.0, 5.0) + 1e-9,
            "{in_wood} against {edge}"
        );
        // The same banner judged as if on open ground would be in reach.
        let as_if_open = Placed {
            footing: open,
            ..me
        };
        let out = unit_terms(&game, &as_if_open, &them, &m).attack;
        assert!(out > in_wood, "{out} against {in_wood}");
    }

    /// A commander alone 20 cm before enemy muskets is their target (BFS-CDR-7): the position
    /// costs about a quarter of his worth in loss points; with his own men nearer to them, or
    /// beyond 30 cm, it costs nothing.
    #[test]
    fn a_commander_alone_before_enemy_muskets_is_at_risk() {
        let mut game = default_battle();
        let side = Side::A;
        let m = Matchups::new(&game, side);
        let c = game.commanders_on_table(side).next().expect("commander").id;
        let musketeers = unit(&game, "musketeers").id;
        let front = frame_of(&game.unit(musketeers).bases);
        let muskets_y = front.center().y - front.half.y;
        let place = |game: &mut Game, y: f32| {
            let cm = game.commander_mut(c);
            cm.base = Rect::new(
                sandtable_geometry::Pose::new(Vec2::new(58.0, y), 0.0),
                cm.base.half,
            );
        };
        let half = game.commander(c).base.half.y;
        place(&mut game, muskets_y - 20.0 - half);
        assert_eq!(sandtable_bfs::shooting::exposed_to_fire(&game, c), 1);
        let exposed = breakdown(&game, side, &m).command;
        place(&mut game, muskets_y - 31.0 - half);
        assert_eq!(sandtable_bfs::shooting::exposed_to_fire(&game, c), 0);
        let safe = breakdown(&game, side, &m).command;
        let worth = LOSS_POINT * (game.commander(c).cp_max as f64 + 1.0);
        let cost = safe - exposed;
        // The other command terms move by under half a point over these 11 cm.
        assert!(
            cost > COMMANDER_SHOT_RISK * worth && cost < COMMANDER_SHOT_RISK * worth + 0.5,
            "{cost} against {}",
            COMMANDER_SHOT_RISK * worth
        );
        // The haiduks stand nearer the muskets than he does: they are the target.
        place(&mut game, muskets_y - 20.0 - half);
        let h = game
            .units
            .iter()
            .position(|u| u.key == "haiduks")
            .expect("haiduks");
        let hf = frame_of(&game.units[h].bases);
        let shift = Vec2::new(58.0, muskets_y - 10.0 - hf.half.y) - hf.center();
        for b in &mut game.units[h].bases {
            *b = b.translated(shift);
        }
        assert_eq!(sandtable_bfs::shooting::exposed_to_fire(&game, c), 0);
    }

    #[test]
    fn cavalry_goes_round_a_wood_not_through_it() {
        let game = default_battle();
        let grid = TerrainGrid::new(&game);
        let reiters = unit(&game, "reiters-2");
        let profile = game.profile(reiters.profile);
        let field = grid.field(&game, profile, unit(&game, "pl-dragoons"));
        // Just north of the wood, with the dragoons due south beyond it.
        let start = Vec2::new(18.0, 78.0);
        let straight = (start - Vec2::new(18.0, 26.0)).length();
        assert!(
            field.at(start) > straight + 10.0,
            "{} against {straight}",
            field.at(start)
        );
        // Following the field never leads into the wood.
        let mut p = start;
        for _ in 0..5 {
            p = field.waypoint(p, 10.0);
            assert_ne!(
                grid.class_at(&game, profile, p),
                TerrainClass::VeryDifficult,
                "the path enters the wood at {p:?}"
            );
        }
    }

    #[test]
    fn a_cell_beside_a_wood_costs_what_the_wood_does() {
        let game = default_battle();
        let grid = TerrainGrid::new(&game);
        let reiters = unit(&game, "reiters-2");
        let profile = game.profile(reiters.profile);
        let own = grid.own_costs(&game, profile);
        let widened = grid.costs(&game, profile);
        // (40.5, 61.5) is open ground about 3 cm east of the wood's eastern point (38, 62).
        let i = grid.grid.index(Vec2::new(40.5, 61.5));
        assert_eq!(own[i], Some(1.0));
        assert_eq!(widened[i], Some(profile.movement.basic / 5.0));
        // Far out in the open nothing changes.
        let i = grid.grid.index(Vec2::new(60.0, 100.0));
        assert_eq!(widened[i], Some(1.0));
    }
}
