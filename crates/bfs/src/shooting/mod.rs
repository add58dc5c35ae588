//! Shooting (BFS-SHO, BFS-CBT-3/6/9): who may shoot in each stage, the target the rules require
//! (a lone commander too, when he is the closest within 30 cm, BFS-CDR-7), the dice with every
//! modifier, armor tests, and losses applied at the end of the stage.
//!
//! Shooting out of a wood (the first rank only, −1 from inside it but not on its edge,
//! BFS-TER-23/24) is asked of [`crate::ground`].
//!
//! Not yet modelled, and listed in docs/rules-coverage.md: split fire (BFS-SHO-11), terrain cover
//! for a commander shot at, low visibility.

use crate::dice::{Modifier, PoolSpec, TestRoll};
use crate::event::{Band, Event, Piece, ShotGroup, VolleyReport};
use crate::flight;
use crate::geo::{self, frame_of, sid, unit_frame};
use crate::ids::{CommanderId, UnitId};
use crate::losses::{self, LossCause};
use crate::morale::MoraleCause;
use crate::profile::{SpecialRule, UnitKind};
use crate::sight;
use crate::state::{Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use crate::weapons::{Horseback, RangedWeapon, WeaponClass};
use sandtable_engine::odds;
use sandtable_engine::scenario::TerrainKind;
use sandtable_geometry::fire::{self, FireArc, FlankSide, RangeBand};
use sandtable_geometry::{Rect, Scene, SceneBase, ZoneScheme};

pub mod aim;
mod flanking;
mod guns;
pub mod hail;
pub mod ranks;
pub mod rifles;
pub mod twice;

/// The stages and steps in which units shoot (BFS-SEQ-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireStage {
    DefendersFire,
    ReactionFire,
    WhileCharging,
    AfterMovement,
}

impl FireStage {
    pub fn name(self) -> &'static str {
        match self {
            FireStage::DefendersFire => "Defender's Fire",
            FireStage::ReactionFire => "Reaction Fire",
            FireStage::WhileCharging => "Shooting while Charging",
            FireStage::AfterMovement => "Shooting after Movement",
        }
    }
}

/// One group of shooting bases with the same range band.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupPlan {
    pub bases: u32,
    pub band: Band,
    pub distance: f32,
    pub spec: PoolSpec,
    /// Armor test target for hits from this group, with the changes to it.
    pub armor_base: i32,
    pub armor_mods: Vec<Modifier>,
}

/// A volley as it will be rolled.
#[derive(Debug, Clone, PartialEq)]
pub struct VolleyPlan {
    pub shooter: Piece,
    pub target: Piece,
    pub weapon: RangedWeapon,
    pub stage: FireStage,
    pub groups: Vec<GroupPlan>,
    /// What it fires: its weapon, a gun's load or its rifles.
    pub fire: Fire,
}

/// What a unit fires, beyond its profile's weapon.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fire {
    /// Its weapon, its profile's Shooting.
    Weapon,
    /// A gun's load, its dice and why (BFS-ART-4/5).
    Gun(crate::artillery::Ammunition, u32, &'static str),
    /// Its rifles (BFS-SPC-27).
    Rifles,
    /// Its weapon, fired by more than its front rank: a Salvo or Ranked Fire (BFS-SPC-29,
    /// BFS-SPC-26).
    Ranks(ranks::RankVolley),
}

impl VolleyPlan {
    /// A gun's load (BFS-ART-3..5); `None` for any other volley.
    pub fn ammunition(&self) -> Option<crate::artillery::Ammunition> {
        match self.fire {
            Fire::Gun(load, _, _) => Some(load),
            Fire::Weapon | Fire::Rifles | Fire::Ranks(_) => None,
        }
    }

    /// Fired with rifles instead of the unit's weapon (BFS-SPC-27).
    pub fn rifled(&self) -> bool {
        self.fire == Fire::Rifles
    }

    /// Strength points the target is expected to lose (the mean of [`Self::losses`]).
    pub fn expected_losses(&self) -> f64 {
        odds::mean(&self.losses())
    }

    /// Exact distribution of hits (before armor).
    pub fn hits(&self) -> Vec<f64> {
        self.groups.iter().fold(vec![1.0], |acc, g| {
            odds::convolve(&acc, &g.spec.plan().distribution())
        })
    }
    /// Exact distribution of Strength points lost after armor tests.
    pub fn losses(&self) -> Vec<f64> {
        self.groups.iter().fold(vec![1.0], |acc, g| {
            let save = TestRoll {
                base_target: 0,
                modifiers: vec![],
                target: armor_target(g),
                face: None,
                passed: false,
                failed_by: 0,
                rerolled: None,
            }
            .pass_chance();
            odds::convolve(&acc, &odds::thin(&g.spec.plan().distribution(), save))
        })
    }
}

/// Does a shot from `origin` come from a flank of `target` (the point in one of its flank zones)?
/// For a gun's full dice (BFS-ART-4) and Flanking fire (BFS-OPT-1).
fn from_flank(game: &Game, target: UnitId, origin: sandtable_geometry::Vec2) -> bool {
    sandtable_geometry::zones::zone_of_point(
        &unit_frame(game.unit(target)),
        origin,
        ZoneScheme::default(),
    )
    .ok()
    .flatten()
    .is_some_and(|z| z.is_flank())
}

fn armor_target(g: &GroupPlan) -> i32 {
    g.armor_base + g.armor_mods.iter().map(|m| m.delta).sum::<i32>()
}

/// Does this unit shoot in this stage (BFS-SHO-21, BFS-CBT-3/6/8)?
pub fn shoots_in(game: &Game, unit: UnitId, stage: FireStage) -> bool {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let second_shot = twice::second_shot(game, unit, stage);
    if u.status != UnitStatus::OnTable
        || u.morale == MoraleLevel::Flight
        || (u.flags.shot && !second_shot)
        || p.shooting == 0
        || !crate::artillery::may_fire(game, unit)
        || !crate::ammunition::may_shoot(game, unit)
        || ranks::forfeits_shot(game, unit)
    {
        return false;
    }
    let Some(w) = p.ranged else { return false };
    if p.is_mounted() && w.stats(true).horseback == Horseback::Cannot {
        return false;
    }
    if u.flags.reformed || u.flags.marched || crate::ground::cannot_shoot_from(game, unit).is_some()
    {
        return false;
    }
    let in_contact = !flight::enemies_in_contact(game, unit).is_empty();
    match stage {
        FireStage::DefendersFire => {
            u.order == Some(OrderKind::Defense)
                && !u.flags.delayed_fire
                && !u.flags.hail_of_arrows
                && u.flags.special_maneuvers < 2
        }
        FireStage::ReactionFire => {
            (u.order == Some(OrderKind::Defense)
                && u.flags.delayed_fire
                && !u.flags.hail_of_arrows
                && u.flags.special_maneuvers < 2)
                || crate::feigned_flight::fires_in_reaction(game, unit)
        }
        FireStage::WhileCharging => {
            u.charge
                .as_ref()
                .is_some_and(|c| c.contact && !c.carried_over)
                && (p.has(SpecialRule::ShootingWhileCharging) || w == RangedWeapon::Javelins)
        }
        FireStage::AfterMovement => {
            !u.flags.fought
                && !in_contact
                && (matches!(u.order, Some(OrderKind::Move) | None)
                    || second_shot
                    || hail::delayed_to_now(game, unit))
        }
    }
}

/// The shooting arc of the unit (BFS-SHO-3/4); a War Wagon Train's long sides (BFS-WAG-15).
pub fn fire_arc(game: &Game, unit: UnitId) -> FireArc {
    if crate::wagon::train::is_train(game, unit) {
        return FireArc::Flanks;
    }
    let p = game.unit_profile(unit);
    let bow = p
        .ranged
        .is_some_and(|w| w.stats(p.is_mounted()).class == WeaponClass::Bow);
    if bow && p.is_mounted() {
        if game.info.options.bow_arc_excludes_right {
            FireArc::CavalryBow {
                excluded: FlankSide::Right,
            }
        } else {
            FireArc::FrontAndFlanks
        }
    } else {
        FireArc::Front
    }
}

/// The bases that shoot: the front rank in close order, every base in Open Order (BFS-SHO-1).
pub fn front_rank(game: &Game, unit: UnitId) -> Vec<usize> {
    let u = game.unit(unit);
    match u.formation {
        Formation::OpenOrder => (0..u.bases.len()).collect(),
        _ => {
            let f = frame_of(&u.bases);
            (0..u.bases.len())
                .filter(|&i| {
                    let b = &u.bases[i];
                    let front = f
                        .pose
                        .to_local(b.edge(sandtable_geometry::Edge::Front).midpoint())
                        .y;
                    (front - f.half.y).abs() < 0.05
                })
                .collect()
        }
    }
}

fn terrain_under(game: &Game, r: &Rect) -> Vec<TerrainKind> {
    let mut kinds: Vec<TerrainKind> = crate::geo::terrain_pieces(game)
        .iter()
        .filter(|p| p.overlap_area(r).is_ok_and(|a| a > 1e-3))
        .filter_map(|p| game.terrain.get(p.id as usize).map(|t| t.kind))
        .collect();
    kinds.dedup();
    kinds
}

/// Is the target in cover (BFS-SHO-17, BFS-TER-15): woods, built-up areas, buildings; a wheat
/// field for infantry and artillery. Every base must be wholly in cover (BFS-TER-6: a base half
/// in a wood gets no cover); battles before rules revision 2 counted a base partly in it.
fn in_cover(game: &Game, target: UnitId) -> bool {
    let kind = game.unit_profile(target).kind;
    let covers = |k: &TerrainKind| match k {
        TerrainKind::Forest
        | TerrainKind::Grove
        | TerrainKind::BuiltUpArea
        | TerrainKind::Building => true,
        TerrainKind::WheatField => matches!(kind, UnitKind::Infantry | UnitKind::Artillery),
        _ => false,
    };
    let wholly = crate::revision::ground_rules(game.info.options.rules_revision);
    game.unit(target).bases.iter().all(|b| {
        let under = terrain_under(game, b);
        if !wholly {
            return under.iter().any(covers);
        }
        let f = crate::ground::footing_of(game, std::slice::from_ref(b));
        under.iter().any(|k| covers(k) && f.wholly(*k))
    })
}

/// What a shooting unit brings to every target it weighs: its shooting bases, its frame and its
/// arc (BFS-SHO-1..4).
struct Lanes<'a> {
    game: &'a Game,
    shooter: UnitId,
    shooters: Vec<usize>,
    frame: Rect,
    arc: FireArc,
    /// A garrison shoots from its building's walls instead of its bases (BFS-TER-30).
    walls: Option<Vec<crate::building::Wall>>,
    /// More ranks than the first fire (BFS-SPC-26, BFS-SPC-29).
    rank_volley: Option<ranks::RankVolley>,
    /// A caracole's second volley: the second and third ranks fire from the first rank's
    /// ranges, the first rank itself not again (BFS-SPC-4).
    caracole_rear: bool,
    /// For each target weighed (by scene id), the bases that shoot it only over friends: bows'
    /// overhead fire, one die a base (BFS-SHO-5). Filled as [`Lanes::to`] weighs targets.
    overhead: std::cell::RefCell<std::collections::BTreeMap<u32, Vec<usize>>>,
    /// For each target weighed (by scene id), the bases whose line of fire at it runs through a
    /// wood, with the −1 it costs (BFS-TER-23/24). Filled as [`Lanes::to`] weighs targets; a
    /// garrison's walls (BFS-TER-30) are not checked.
    through_woods: std::cell::RefCell<std::collections::BTreeMap<u32, Vec<(usize, Modifier)>>>,
    /// Friendly wagons the unit stands on to shoot (BFS-WAG-5): they do not block its fire.
    on_wagons: Vec<UnitId>,
}

impl<'a> Lanes<'a> {
    fn of(
        game: &'a Game,
        shooter: UnitId,
        rank_volley: Option<ranks::RankVolley>,
        caracole_rear: bool,
    ) -> Self {
        let walls = crate::building::in_building(game, shooter)
            .then(|| crate::building::walls(game, shooter));
        // Every crewed war wagon of a train fires (BFS-WAG-15).
        let mut shooters = match &game.unit(shooter).train {
            Some(t) => t
                .wagons
                .iter()
                .zip(&game.unit(shooter).bases)
                .enumerate()
                .filter(|(_, (w, _))| w.crew > 0)
                .map(|(i, _)| i)
                .collect(),
            None => front_rank(game, shooter),
        };
        if let Some(kind) = rank_volley {
            shooters.extend(ranks::rear_shooters(game, shooter, kind));
        }
        Self {
            game,
            shooter,
            shooters,
            rank_volley,
            caracole_rear,
            overhead: Default::default(),
            through_woods: Default::default(),
            on_wagons: crate::wagon::cover::standing_on(game, shooter),
            frame: unit_frame(game.unit(shooter)),
            arc: fire_arc(game, shooter),
            walls,
        }
    }

    /// Each wall of a garrison's building that has the target in its 90° field of fire, within
    /// range from its middle and with a line of fire (BFS-TER-30, AMB-69), as (wall, band,
    /// distance). The garrison's own bases never block its fire.
    fn shots_from_walls(
        &self,
        walls: &[crate::building::Wall],
        scene: &Scene,
        target_sid: u32,
        tb: &[Rect],
        stats: &crate::weapons::RangedStats,
    ) -> Vec<(usize, RangeBand, f32)> {
        let own = scene.unit_base_indices(sid(self.shooter));
        let Some(&scene_index) = own.first() else {
            return Vec::new();
        };
        let blocks = |b: &SceneBase| !geo::is_commander(b) && b.unit != sid(self.shooter);
        let mut out = Vec::new();
        for (i, w) in walls.iter().enumerate() {
            if w.dice == 0
                || !tb.iter().any(|r| {
                    fire::in_field_of_fire(&w.frame, FireArc::Front, ZoneScheme::default(), r)
                        .unwrap_or(false)
                })
            {
                continue;
            }
            let Ok((d, _, _)) = fire::range_to(w.origin, tb) else {
                continue;
            };
            let Ok(band) = fire::range_band(d, stats.effective_cm, stats.long_cm) else {
                continue;
            };
            if band == RangeBand::OutOfRange {
                continue;
            }
            let clear = fire::line_of_fire(
                scene,
                scene_index as usize,
                w.origin,
                target_sid,
                fire::LOF_CLEARANCE_CM,
                blocks,
            )
            .ok()
            .flatten()
            .is_some();
            if clear {
                out.push((i, band, d));
            }
        }
        out
    }

    /// Each shooting base that has `target` (scene id `target_sid`, bases `tb`) in its field of
    /// fire, within range and with a line of fire, with its band and distance (BFS-SHO-5..7).
    fn to(
        &self,
        scene: &Scene,
        target_sid: u32,
        tb: &[Rect],
        stats: &crate::weapons::RangedStats,
    ) -> Vec<(usize, RangeBand, f32)> {
        if let Some(walls) = &self.walls {
            return self.shots_from_walls(walls, scene, target_sid, tb, stats);
        }
        let u = self.game.unit(self.shooter);
        let scheme = ZoneScheme::default();
        let in_arc = match u.formation {
            Formation::OpenOrder => self.shooters.iter().any(|&i| {
                tb.iter().any(|r| {
                    fire::in_field_of_fire(&u.bases[i], self.arc, scheme, r).unwrap_or(false)
                })
            }),
            _ => tb
                .iter()
                .any(|r| fire::in_field_of_fire(&self.frame, self.arc, scheme, r).unwrap_or(false)),
        };
        if !in_arc {
            return Vec::new();
        }
        let own = scene.unit_base_indices(sid(self.shooter));
        // Own bases block fire in close order; commanders never (BFS-CDR-5); nor the wagons
        // the unit has climbed onto (BFS-WAG-5).
        let blocks = |b: &SceneBase| {
            !geo::is_commander(b)
                && (b.unit != sid(self.shooter) || u.formation == Formation::OpenOrder)
                && !self.on_wagons.contains(&UnitId(b.unit as u16))
        };
        // Bows shoot over their own unit's bases and friends in Open Order (BFS-SHO-5).
        let bows = stats.class == WeaponClass::Bow
            && crate::revision::special_rules_9(self.game.info.options.rules_revision);
        let blocks_arrows = |b: &SceneBase| {
            blocks(b)
                && !(b.side == u.side.0
                    && (b.unit == sid(self.shooter)
                        || self
                            .game
                            .units
                            .get(b.unit as usize)
                            .is_some_and(|f| f.formation == Formation::OpenOrder)))
        };
        let mut overhead = Vec::new();
        let mut through = Vec::new();
        let mut per_base = Vec::new();
        for &i in &self.shooters {
            // A war wagon fires from the long side facing the target (BFS-WAG-15).
            let origin = if u.train.is_some() {
                Ok(crate::wagon::train::fire_origin(&u.bases[i], tb))
            } else {
                fire::front_midpoint(&u.bases[i])
            };
            let Ok(origin) = origin else {
                return Vec::new();
            };
            let Ok((d, _, _)) = fire::range_to(origin, tb) else {
                continue;
            };
            let Ok(band) = fire::range_band(d, stats.effective_cm, stats.long_cm) else {
                continue;
            };
            if band == RangeBand::OutOfRange {
                continue;
            }
            let Some(&scene_index) = own.get(i) else {
                continue;
            };
            let line = |blocks: &dyn Fn(&SceneBase) -> bool| {
                fire::line_of_fire(
                    scene,
                    scene_index as usize,
                    origin,
                    target_sid,
                    fire::LOF_CLEARANCE_CM,
                    blocks,
                )
                .ok()
                .flatten()
            };
            let line = match line(&blocks) {
                Some(l) => l,
                None => {
                    let Some(l) = line(&blocks_arrows).filter(|_| bows) else {
                        continue;
                    };
                    overhead.push(i);
                    l
                }
            };
            // The line the rules draw, the closest clear one (as players measure), through a wood.
            if let Some(target_base) = scene.bases().get(line.target_base)
                && let Some(m) = crate::ground::shooting_through_a_wood(
                    self.game,
                    &u.bases[i],
                    &target_base.rect,
                    line.from,
                    line.to,
                )
            {
                through.push((i, m));
            }
            per_base.push((i, band, d));
        }
        self.overhead.borrow_mut().insert(target_sid, overhead);
        // Ranks firing from the first rank's ranges fire along its lines too.
        if self.rank_volley == Some(ranks::RankVolley::Salvo) {
            let followers = ranks::salvo_followers(self.game, self.shooter, &per_base);
            per_base.extend(followers);
            let rear = along_front_lines(&through, |f| {
                ranks::salvo_followers(self.game, self.shooter, f)
            });
            through.extend(rear);
        }
        if self.caracole_rear {
            per_base = crate::caracole::rear_followers(self.game, self.shooter, &per_base);
            through = along_front_lines(&through, |f| {
                crate::caracole::rear_followers(self.game, self.shooter, f)
            });
        }
        self.through_woods.borrow_mut().insert(target_sid, through);
        per_base
    }
}

/// A shooting base with the index of its entry in a list, as the rules' follower choice
/// ([`ranks::followers`]) carries it from a front base to the base behind.
type Carried = (usize, usize, f32);

/// The rear-rank bases that fire along the lines of the front bases in `through` (a Salvo's
/// second rank, a caracole's rear ranks: BFS-SPC-29, BFS-SPC-4), with the front base's penalty;
/// `rear` is the rules' own choice of the base behind each front base.
fn along_front_lines(
    through: &[(usize, Modifier)],
    rear: impl Fn(&[Carried]) -> Vec<Carried>,
) -> Vec<(usize, Modifier)> {
    let front: Vec<Carried> = through
        .iter()
        .enumerate()
        .map(|(k, (i, _))| (*i, k, 0.0))
        .collect();
    rear(&front)
        .into_iter()
        .map(|(j, k, _)| (j, through[k].1.clone()))
        .collect()
}

/// A lone enemy commander may be shot at only within this range (BFS-CDR-7).
pub const COMMANDER_TARGET_RANGE_CM: f32 = 30.0;

/// Enemy shooting units that would have this lone commander as their target if they could see
/// him: he is within their weapon's range and 30 cm, and nearer to them than any unit of his side
/// (BFS-CDR-7). A quick bound for judging positions: sight, arcs and lines of fire are not
/// checked.
pub fn exposed_to_fire(game: &Game, c: CommanderId) -> usize {
    let cm = game.commander(c);
    if cm.status != UnitStatus::OnTable || cm.attached_to.is_some() {
        return 0;
    }
    let me = std::slice::from_ref(&cm.base);
    game.units_on_table(cm.side.other())
        .filter(|e| e.morale != MoraleLevel::Flight)
        .filter(|e| {
            let p = game.unit_profile(e.id);
            let Some(w) = p.ranged.filter(|_| p.shooting > 0) else {
                return false;
            };
            let stats = w.stats(p.is_mounted());
            let reach = stats
                .long_cm
                .unwrap_or(stats.effective_cm)
                .min(COMMANDER_TARGET_RANGE_CM);
            let Ok(d) = sandtable_geometry::distance::set_distance(&e.bases, me) else {
                return false;
            };
            d <= reach
                && game.units_on_table(cm.side).all(|f| {
                    sandtable_geometry::distance::set_distance(&e.bases, &f.bases)
                        .is_ok_and(|fd| fd > d)
                })
        })
        .count()
}

/// The nearest lone enemy commander the shooter sees and may fire at within 30 cm (BFS-CDR-7),
/// with its range and the shooting bases' lanes.
#[allow(clippy::type_complexity)]
fn nearest_commander(
    game: &Game,
    shooter: UnitId,
    lanes: &Lanes<'_>,
    stats: &crate::weapons::RangedStats,
) -> Option<(f32, CommanderId, Vec<(usize, RangeBand, f32)>)> {
    let u = game.unit(shooter);
    let near: Vec<CommanderId> = game
        .commanders
        .iter()
        .filter(|c| c.side != u.side && c.status == UnitStatus::OnTable && c.attached_to.is_none())
        .filter(|c| {
            sandtable_geometry::distance::set_distance(&u.bases, std::slice::from_ref(&c.base))
                .is_ok_and(|d| {
                    d <= COMMANDER_TARGET_RANGE_CM + sandtable_geometry::tolerance::LIMIT_EPS
                })
        })
        .map(|c| c.id)
        .collect();
    if near.is_empty() {
        return None;
    }
    let scene = geo::scene_with_commanders(game, &near);
    let mut best: Option<(f32, CommanderId, Vec<(usize, RangeBand, f32)>)> = None;
    for c in near {
        let csid = geo::commander_sid(c);
        if !sight::sees_commander(game, &scene, shooter, c) {
            continue;
        }
        let per_base = lanes.to(
            &scene,
            csid,
            std::slice::from_ref(&game.commander(c).base),
            stats,
        );
        let closest = per_base.iter().map(|x| x.2).fold(f32::INFINITY, f32::min);
        if closest > COMMANDER_TARGET_RANGE_CM + sandtable_geometry::tolerance::LIMIT_EPS {
            continue;
        }
        if best.as_ref().is_none_or(|(d, _, _)| closest < *d - 1e-4) {
            best = Some((closest, c, per_base));
        }
    }
    best
}

/// The volley a unit would fire now: the closest enemy it may shoot, the required target
/// (BFS-SHO-9), with every base's band, line of fire and the modifiers. A gun fires its load
/// (`guns`); a unit with Rifled Barrels fires its rifles when the rules' odds favour them
/// (`rifles`).
pub fn plan_volley(
    game: &Game,
    scene: &Scene,
    shooter: UnitId,
    stage: FireStage,
) -> Option<VolleyPlan> {
    plan_volley_at(game, scene, shooter, stage, game.unit(shooter).flags.aim)
}

/// [`plan_volley`] with `aim` the target paid for (BFS-SHO-10), or none: the volley the rules
/// alone require.
pub(crate) fn plan_volley_at(
    game: &Game,
    scene: &Scene,
    shooter: UnitId,
    stage: FireStage,
    aim: Option<UnitId>,
) -> Option<VolleyPlan> {
    let u = game.unit(shooter);
    let p = game.unit_profile(shooter);
    let weapon = p.ranged?;
    let stats = weapon.stats(p.is_mounted());
    let rank_volley = ranks::mode(game, shooter, stage);
    // A caracole's ranks behind the first fire too, but never out of a wood (BFS-TER-23/24).
    let caracole_rear = crate::caracole::fires_twice(game, shooter)
        && twice::second_shot(game, shooter, stage)
        && crate::ground::first_rank_only(game, shooter).is_none();
    let lanes = Lanes::of(game, shooter, rank_volley, caracole_rear);
    let in_contact = flight::enemies_in_contact(game, shooter);

    // Candidate targets: visible enemies. From contact, a charged unit shoots only at the unit
    // charging it (BFS-SHO-18, BFS-CC-5); a charger shooting while charging, only at the unit it
    // charges (BFS-CC-6).
    let mut candidates: Vec<UnitId> = sight::visible_enemies(game, scene, shooter);
    let free_choice = stage != FireStage::WhileCharging && in_contact.is_empty();
    let feigned =
        stage == FireStage::ReactionFire && crate::feigned_flight::fires_in_reaction(game, shooter);
    if stage == FireStage::WhileCharging {
        let charged = u.charge.as_ref().map(|c| c.target);
        candidates.retain(|t| Some(*t) == charged);
    } else if feigned {
        // Feigned Flight shoots only at its charger (BFS-SPC-11).
        let chargers = crate::feigned_flight::chargers(game, shooter);
        candidates.retain(|t| chargers.contains(t));
    } else if !in_contact.is_empty() {
        candidates.retain(|t| {
            in_contact.contains(t)
                && game
                    .unit(*t)
                    .charge
                    .as_ref()
                    .is_some_and(|c| c.target == shooter)
        });
    }
    // A target paid for (BFS-SHO-10), where some base reaches it; otherwise the closest.
    let aimed = aim.filter(|t| free_choice && candidates.contains(t));
    let target = |stats: &crate::weapons::RangedStats| {
        if let Some(t) = aimed
            && let Some(hit) = closest_target(game, scene, shooter, &lanes, &[t], false, stats)
        {
            return Some(hit);
        }
        closest_target(
            game,
            scene,
            shooter,
            &lanes,
            &candidates,
            free_choice,
            stats,
        )
    };
    if let Some(gun) = crate::artillery::gun_of(p) {
        let (target, per_base) = target(&stats)?;
        return guns::gun_volley(game, scene, shooter, stage, gun, target, per_base, &lanes);
    }
    let normal = target(&stats).map(|(target, per_base)| {
        volley_at(
            game,
            shooter,
            stage,
            target,
            per_base,
            &lanes,
            &stats,
            rank_volley.map_or(Fire::Weapon, Fire::Ranks),
        )
    });
    // Rifles instead, when the rules' odds say they take off more (BFS-SPC-27).
    if rank_volley.is_some() || !rifles::may_use(game, shooter) {
        return normal;
    }
    let rifle = rifles::stats();
    let rifled = target(&rifle).map(|(target, per_base)| {
        volley_at(
            game,
            shooter,
            stage,
            target,
            per_base,
            &lanes,
            &rifle,
            Fire::Rifles,
        )
    });
    match (normal, rifled) {
        (Some(n), Some(r)) if r.expected_losses() > n.expected_losses() + 1e-9 => Some(r),
        (Some(n), _) => Some(n),
        (None, r) => r,
    }
}

/// The target the rules require of a shooter with these weapon stats: the closest visible enemy
/// it has in its field of fire, in range and with a line of fire (BFS-SHO-9), or a lone
/// commander closer still within 30 cm (BFS-CDR-7); with each shooting base's band and range.
#[allow(clippy::type_complexity)]
fn closest_target(
    game: &Game,
    scene: &Scene,
    shooter: UnitId,
    lanes: &Lanes<'_>,
    candidates: &[UnitId],
    free_choice: bool,
    stats: &crate::weapons::RangedStats,
) -> Option<(Piece, Vec<(usize, RangeBand, f32)>)> {
    // (closest range, target, (base, band, distance) of each shooting base)
    let mut best: Option<(f32, Piece, Vec<(usize, RangeBand, f32)>)> = None;
    for &t in candidates {
        // At a caracoling unit, ranges are measured to its first rank (BFS-SPC-4).
        let per_base = lanes.to(scene, sid(t), &crate::caracole::shot_at(game, t), stats);
        if per_base.is_empty() {
            continue;
        }
        let closest = per_base.iter().map(|x| x.2).fold(f32::INFINITY, f32::min);
        if best.as_ref().is_none_or(|(d, id, _)| {
            closest < *d - 1e-4 || ((closest - *d).abs() <= 1e-4 && Piece::Unit(t) < *id)
        }) {
            best = Some((closest, Piece::Unit(t), per_base));
        }
    }
    // A lone commander closer than any unit it may shoot, and within 30 cm, is the target
    // (BFS-CDR-7). Battles recorded before rules revision 4 never shot at commanders.
    if free_choice && crate::revision::commander_targets(game.info.options.rules_revision) {
        let unit_range = best.as_ref().map_or(f32::INFINITY, |b| b.0);
        if let Some((d, c, per_base)) = nearest_commander(game, shooter, lanes, stats)
            && d < unit_range - 1e-4
        {
            best = Some((d, Piece::Commander(c), per_base));
        }
    }
    best.map(|(_, target, per_base)| (target, per_base))
}

/// The volley of `shooter` at `target` from the shooting bases `per_base`, with every modifier.
/// A gun brings its load and the dice the artillery rules give it; other units roll their
/// profile's Shooting.
#[allow(clippy::too_many_arguments)]
fn volley_at(
    game: &Game,
    shooter: UnitId,
    stage: FireStage,
    target: Piece,
    per_base: Vec<(usize, RangeBand, f32)>,
    lanes: &Lanes<'_>,
    stats: &crate::weapons::RangedStats,
    fire: Fire,
) -> VolleyPlan {
    let u = game.unit(shooter);
    let p = game.unit_profile(shooter);
    let weapon = p.ranged.expect("a shooter has a ranged weapon");
    let in_contact = flight::enemies_in_contact(game, shooter);
    let mut per_base = per_base;
    // Dragoons' horse holders do not shoot: the bases farthest from the target hold the horses
    // (BFS-SPC-9).
    let holders = crate::dragoons::holders(game, shooter);
    if holders > 0 {
        per_base.sort_by(|a, b| a.2.total_cmp(&b.2));
        per_base.truncate(per_base.len().saturating_sub(holders));
    }
    // With only ½ Ammunition Unit left, half its bases fire: the closest (BFS-AMM-3).
    if let Some(cap) = crate::ammunition::bases_allowed(game, shooter) {
        per_base.sort_by(|a, b| {
            (a.1 == RangeBand::Long)
                .cmp(&(b.1 == RangeBand::Long))
                .then(a.2.total_cmp(&b.2))
        });
        per_base.truncate(cap);
    }
    // Dice per base (BFS-SHO-21, BFS-DICE-9 steps 1-2; a gun's from BFS-ART-4/5).
    let mut dice = match fire {
        Fire::Gun(_, dice, _) => dice,
        Fire::Weapon | Fire::Rifles | Fire::Ranks(_) => p.shooting as u32,
    };
    let mut set_to_one = None;
    if fire == Fire::Rifles {
        set_to_one = Some("rifled weapons: Shooting 1 (BFS-SPC-27)");
    } else if u.morale == MoraleLevel::Disorganized {
        set_to_one = Some("Disorganized: 1 die per base (BFS-PSY-6)");
    } else if stage == FireStage::WhileCharging {
        set_to_one = Some("Shooting while Charging: 1 die per base (BFS-CC-6)");
    } else if stage == FireStage::ReactionFire
        && crate::feigned_flight::fires_in_reaction(game, shooter)
    {
        set_to_one =
            Some("Feigned Flight, as Shooting while Charging: 1 die per base (BFS-SPC-11)");
    } else if u.order.is_none() && stage == FireStage::AfterMovement {
        set_to_one = Some("no order: 1 die per base (BFS-ORD-9)");
    } else if crate::portable::burdened(game, shooter) {
        set_to_one = Some("carrying portable obstacles: 1 die per base (BFS-OBS-3, BFS-OBS-8)");
    }
    if set_to_one.is_some() {
        dice = dice.min(1);
    }
    // Skill modifiers (BFS-SHO-17).
    let mut mods = target_mods(game, target, Some(shooter), !in_contact.is_empty());
    // A second volley takes no −1 for Shooting after Movement (BFS-ART-7, BFS-SPC-8), nor do
    // Commanded Musketeers with muskets (BFS-SPC-5).
    let penalised_stage = if twice::second_shot(game, shooter, stage)
        || crate::commanded::steady_after_moving(game, shooter, weapon)
    {
        FireStage::DefendersFire
    } else {
        stage
    };
    mods.extend(weapon_mods(stats, p.is_mounted(), penalised_stage));
    let gun = matches!(fire, Fire::Gun(..));
    if gun {
        mods.extend(guns::ground_mods(game, target));
    }
    // The owner puts the casualty marker on a base that is not shooting if there is one (BFS-CBT-10).
    let marker_on_shooter = u.casualty_markers > 0 && per_base.len() >= u.bases.len();
    let mut groups = Vec::new();
    // A garrison rolls each wall's dice, at most its bases × their dice in all (BFS-TER-30).
    let mut garrison_dice_left = crate::building::dice_cap(game, shooter);
    // Marksmen: as many shooting bases as stand in the second rank shoot at Skill +1, those at
    // effective range first (BFS-SPC-17).
    let mut marksmen_left = marksmen_bases(game, shooter);
    // A base inside a wood but not on its edge shoots at −1 (BFS-TER-23, BFS-TER-24), as does
    // one whose line of fire runs through a wood: one −1 for shooting through vision-blocking
    // terrain, whichever it is. A garrison shoots from its walls.
    let through_woods = match target {
        Piece::Unit(t) => lanes
            .through_woods
            .borrow()
            .get(&sid(t))
            .cloned()
            .unwrap_or_default(),
        Piece::Commander(_) => Vec::new(),
    };
    let from_inside = |i: usize| {
        lanes
            .walls
            .is_none()
            .then(|| crate::ground::shooting_from_inside_a_wood(game, &u.bases[i]))
            .flatten()
            .or_else(|| {
                through_woods
                    .iter()
                    .find(|(j, _)| *j == i)
                    .map(|(_, m)| m.clone())
            })
    };
    #[allow(clippy::type_complexity)]
    let mut subgroups: Vec<(Vec<&(usize, RangeBand, f32)>, bool, Option<Modifier>)> = Vec::new();
    for band in [RangeBand::Effective, RangeBand::Long] {
        let in_band: Vec<&(usize, RangeBand, f32)> =
            per_base.iter().filter(|x| x.1 == band).collect();
        let k = marksmen_left.min(in_band.len());
        marksmen_left -= k;
        let (sharp, plain) = in_band.split_at(k);
        for (part, sharp) in [(sharp, true), (plain, false)] {
            let (mut edge, mut inside) = (Vec::new(), Vec::new());
            let mut wood = None;
            for x in part {
                match from_inside(x.0) {
                    Some(m) => {
                        inside.push(*x);
                        wood = Some(m);
                    }
                    None => edge.push(*x),
                }
            }
            for (bases, penalty) in [(edge, None), (inside, wood)] {
                if !bases.is_empty() {
                    subgroups.push((bases, sharp, penalty));
                }
            }
        }
    }
    for (in_band, sharp, wood) in subgroups {
        let band = in_band[0].1;
        let mut spec = PoolSpec::new(in_band.len(), dice, p.skill as i32);
        if let Some(walls) = &lanes.walls {
            spec.dice_per_base = in_band
                .iter()
                .map(|(w, _, _)| {
                    let wall = walls[*w].dice;
                    let d = if set_to_one.is_some() {
                        wall.min(1)
                    } else {
                        wall
                    }
                    .min(garrison_dice_left);
                    garrison_dice_left -= d;
                    d
                })
                .collect();
        }
        spec.modifiers = mods.clone();
        spec.modifiers.extend(wood);
        if sharp {
            spec.modifiers.push(Modifier::new(
                "BFS-SPC-17",
                "Marksmen: a first-rank base backed by the second rank",
                1,
            ));
        }
        spec.below_one = game.info.options.below_one;
        spec.dice_changes.extend(flanking::dice(
            game, shooter, target, lanes, &in_band, stats,
        ));
        spec.dice_changes
            .extend(hail::dice(game, shooter, stage, in_band.len()));
        // Bows shooting over friends roll 1 die a base (BFS-SHO-5).
        if let Piece::Unit(t) = target
            && dice > 1
            && let Some(over) = lanes.overhead.borrow().get(&sid(t))
        {
            for (k, (i, _, _)) in in_band.iter().enumerate() {
                if over.contains(i) {
                    spec.dice_changes.push(crate::dice::DiceChange {
                        rule: "BFS-SHO-5".into(),
                        reason: "bows shooting over friends: 1 die".into(),
                        delta: 1 - dice as i32,
                        base: k,
                    });
                }
            }
        }
        if groups.is_empty() && lanes.walls.is_none() {
            spec.dice_changes
                .extend(crate::losses::first_base_dice(u, marker_on_shooter));
            if gun {
                spec.dice_changes
                    .extend(guns::chevaux_die(game, target, shooter));
            }
        }
        let b = if band == RangeBand::Long {
            spec.reroll = crate::dice::Reroll::Hits;
            Band::Long
        } else {
            Band::Effective
        };
        let (armor_base, armor_mods) = armor(game, target, Some(shooter), stats, b);
        let distance = in_band.iter().map(|x| x.2).fold(f32::INFINITY, f32::min);
        groups.push(GroupPlan {
            bases: in_band.len() as u32,
            band: b,
            distance,
            spec,
            armor_base,
            armor_mods,
        });
    }
    VolleyPlan {
        shooter: Piece::Unit(shooter),
        target,
        weapon,
        stage,
        groups,
        fire,
    }
}

/// How many of a Marksmen unit's shooting bases get +1 Skill: one per base of its second rank,
/// when it stands in at least 2 ranks with a Defense Order, not Disorganized and not in a
/// building (BFS-SPC-17; revision 6).
fn marksmen_bases(game: &Game, shooter: UnitId) -> usize {
    let u = game.unit(shooter);
    if !crate::revision::special_rules_6(game.info.options.rules_revision)
        || !game
            .unit_profile(shooter)
            .has(crate::profile::SpecialRule::Marksmen)
        || u.order != Some(OrderKind::Defense)
        || u.morale != MoraleLevel::Good
        || u.garrison.is_some()
    {
        return 0;
    }
    match u.formation {
        Formation::Close { files } if files > 0 => {
            let (n, f) = (u.bases.len(), files as usize);
            n.saturating_sub(f).min(f)
        }
        _ => 0,
    }
}

/// The to-hit modifiers the target brings (BFS-SHO-8, BFS-SHO-17, BFS-SHO-19, BFS-TER-27,
/// BFS-CDR-7). `shooter` is the shooting unit, for the obstacle between them; a commander
/// shooting is never engaged.
fn target_mods(
    game: &Game,
    target: Piece,
    shooter: Option<UnitId>,
    shooter_engaged: bool,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    match target {
        Piece::Unit(target) => {
            let tu = game.unit(target);
            if let Some(kind) = shooter.and_then(|s| crate::obstacle::shelter(game, target, s)) {
                mods.push(Modifier::new(
                    "BFS-TER-27",
                    format!("target in cover behind an obstacle ({kind:?})"),
                    -1,
                ));
            } else if in_cover(game, target) {
                mods.push(Modifier::new("BFS-SHO-17", "target in cover", -1));
            } else if crate::caracole::riding_out(game, target) {
                mods.push(Modifier::new(
                    "BFS-SPC-4",
                    "target caracoling counts as Open Order",
                    -1,
                ));
            } else if crate::elite_cavalry::shielded_from_fire(game, target) {
                mods.push(Modifier::new(
                    "BFS-SPC-10",
                    "Elite Cavalry holding a Charge order counts as Open Order",
                    -1,
                ));
            } else if tu.formation == Formation::OpenOrder
                // A lone base of troops is shot at as Open Order; a wagon is a normal unit under
                // fire (BFS-SHO-8, BFS-WAG-9).
                || (tu.bases.len() == 1 && !crate::wagon::any_wagon(game, target))
            {
                mods.push(Modifier::new(
                    "BFS-SHO-8",
                    "target in Open Order (a single base counts as Open Order)",
                    -1,
                ));
            }
            mods.extend(crate::fortified_gun::shooting_penalty(game, target));
            if shooter_engaged || !flight::enemies_in_contact(game, target).is_empty() {
                mods.push(Modifier::new(
                    "BFS-SHO-19",
                    "shooter or target engaged in close combat",
                    -1,
                ));
            }
        }
        Piece::Commander(_) => mods.push(Modifier::new(
            "BFS-CDR-7",
            "a commander counts as a one-base Open Order unit",
            -1,
        )),
    }
    mods
}

/// The to-hit modifiers of the weapon as it is used (BFS-SHO-17).
fn weapon_mods(
    stats: &crate::weapons::RangedStats,
    mounted: bool,
    stage: FireStage,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    if mounted && stats.horseback == Horseback::Penalty {
        mods.push(Modifier::new(
            "BFS-SHO-17",
            format!("shooting a {} from horseback", stats.name),
            -1,
        ));
    }
    if stage == FireStage::AfterMovement && stats.sam_penalty {
        mods.push(Modifier::new(
            "BFS-SHO-17",
            format!("{} in Shooting after Movement", stats.name),
            -1,
        ));
    }
    mods
}

/// The target's Armor against this weapon at this band, and what changes it (BFS-SHO-15,
/// BFS-CCW-11, BFS-TER-13, BFS-OBS-10). The obstacle between is known only for a unit shooting.
fn armor(
    game: &Game,
    target: Piece,
    shooter: Option<UnitId>,
    stats: &crate::weapons::RangedStats,
    band: Band,
) -> (i32, Vec<Modifier>) {
    let tp = match target {
        Piece::Unit(t) => game.unit_profile(t),
        Piece::Commander(c) => game.profile(game.commander(c).profile),
    };
    let eff = if band == Band::Long {
        stats.effectiveness.1
    } else {
        stats.effectiveness.0
    };
    let mut mods = Vec::new();
    if eff != 0 {
        mods.push(Modifier::new(
            "BFS-SHO-15",
            format!(
                "{} effectiveness at {} range",
                stats.name,
                if band == Band::Long {
                    "long"
                } else {
                    "effective"
                }
            ),
            -(eff as i32),
        ));
    }
    if tp.shields && matches!(stats.class, WeaponClass::Bow | WeaponClass::Thrown) {
        mods.push(Modifier::new(
            "BFS-CCW-11",
            "shields against arrows and javelins",
            1,
        ));
    }
    if let Piece::Unit(target) = target {
        mods.extend(crate::ground::higher_raise(
            crate::ground::higher_raise(
                crate::ground::higher_raise(
                    crate::ground::armor_raise(game, target),
                    shooter.and_then(|s| crate::obstacle::armor_raise(game, target, s, true)),
                ),
                crate::wagon::cover::armor_raise(game, target),
            ),
            crate::fortified_gun::armor_raise(game, target),
        ));
        // Chevaux de frise carried, or stood behind, make firearms more deadly (BFS-OBS-10).
        let behind_chevaux = shooter.is_some_and(|s| {
            crate::obstacle::screened_by(game, target, s)
                == Some(sandtable_engine::vocab::TerrainKind::ChevauxDeFrise)
        });
        if stats.class == WeaponClass::Firearm
            && (game
                .unit(target)
                .carries
                .is_some_and(|c| c.kind == crate::portable::PortableKind::ChevauxDeFrise)
                || behind_chevaux)
        {
            mods.push(Modifier::new(
                "BFS-OBS-10",
                "firearms through chevaux de frise",
                -1,
            ));
        }
    }
    (tp.armor as i32, mods)
}

/// Rolls a planned volley: to-hit pools, then one Armor test per hit (BFS-SHO-13..15).
pub fn roll_volley(game: &mut Game, plan: &VolleyPlan) -> VolleyReport {
    let mut groups = Vec::new();
    let mut armor = Vec::new();
    let mut hits = 0;
    let mut lost = 0;
    let mut notes = Vec::new();
    let at_train = matches!(plan.target, Piece::Unit(t) if crate::wagon::train::is_train(game, t));
    let mut structure = Vec::new();
    let mut structure_lost = 0;
    for g in &plan.groups {
        let mut roll = g.spec.plan().roll(&mut game.dice);
        // A gun's shot that missed is rolled again if its Artillery Commander touches it,
        // once a turn; the second roll stands (BFS-ART-2).
        if roll.successes == 0
            && let Piece::Unit(gun) = plan.shooter
            && let Some(c) = crate::artillery::commander_for_reroll(game, gun)
        {
            let turn = game.turn.number;
            game.commander_mut(c).gun_reroll_turn = Some(turn);
            let first = roll.faces.clone();
            roll = g.spec.plan().roll(&mut game.dice);
            notes.push(format!(
                "{} has {} fire again after a miss ({first:?}), and the second roll stands (BFS-ART-2).",
                game.commander(c).name,
                game.unit(gun).name,
            ));
        }
        hits += roll.successes;
        let test = crate::dice::armor_tests(
            &mut game.dice,
            g.armor_base,
            g.armor_mods.clone(),
            roll.successes,
        );
        lost += test.failed;
        if roll.successes > 0 {
            armor.push(test);
            // A war wagon: each hit is tested against the wagon too (BFS-WAG-13).
            if at_train {
                let report = crate::wagon::train::structure_tests(game, g, roll.successes);
                structure_lost += report.failed;
                structure.push(report);
            }
        }
        groups.push(ShotGroup {
            bases: g.bases,
            band: g.band,
            distance_cm: g.distance,
            roll,
        });
    }
    VolleyReport {
        shooter: plan.shooter,
        target: plan.target,
        stage: plan.stage.name().into(),
        weapon: {
            let name = plan
                .weapon
                .stats(piece_profile(game, plan.shooter).is_mounted())
                .name;
            match plan.fire {
                Fire::Gun(load, _, why) => format!("{name}, {}: {why}", load.name()),
                Fire::Rifles => "rifled barrels (BFS-SPC-27: 20/50 cm, Shooting 1)".into(),
                Fire::Weapon => name.into(),
                Fire::Ranks(kind) => format!("{name}, {} ({})", kind.name(), kind.rule()),
            }
        },
        groups,
        hits,
        armor,
        sp_lost: lost,
        notes,
        structure,
        structure_lost,
    }
}

/// Every unit that shoots in `stage` fires at once; losses and Morale tests come at the end of the
/// stage or step (BFS-SEQ-3, BFS-CBT-9).
pub fn resolve_stage(game: &mut Game, stage: FireStage, events: &mut Vec<Event>) {
    let scene = geo::scene(game);
    let shooters: Vec<UnitId> = game
        .units
        .iter()
        .map(|u| u.id)
        .filter(|u| shoots_in(game, *u, stage))
        .collect();
    let mut plans: Vec<VolleyPlan> = shooters
        .iter()
        .filter_map(|s| plan_volley(game, &scene, *s, stage))
        .collect();
    // Lone commanders fire once a turn, at their first chance (BFS-CDR-16).
    let commanders: Vec<CommanderId> = game.commanders.iter().map(|c| c.id).collect();
    plans.extend(
        commanders
            .into_iter()
            .filter_map(|c| plan_commander_volley(game, c, stage)),
    );
    let mut damage: Vec<(UnitId, Option<UnitId>, u32)> = Vec::new();
    let mut commanders_hit: Vec<(CommanderId, Piece, u32)> = Vec::new();
    let mut case_shot_hit: Vec<(UnitId, Option<UnitId>)> = Vec::new();
    let mut salvo_hit: Vec<(UnitId, UnitId)> = Vec::new();
    // Volleys at War Wagon Trains: (train, shooter, crew SP, structure SP) (BFS-WAG-13).
    let mut train_hits: Vec<(UnitId, Piece, u32, u32)> = Vec::new();
    for plan in &plans {
        let report = roll_volley(game, plan);
        let spent = spent(game, plan);
        match plan.shooter {
            Piece::Unit(u) => {
                game.unit_mut(u).flags.shot = true;
                crate::artillery::fired(game, u);
                let first = stage == FireStage::DefendersFire && twice::fires_twice(game, u);
                game.unit_mut(u).flags.fired_first_of_two = first;
            }
            Piece::Commander(c) => game.commander_mut(c).shot = true,
        }
        let faces = crate::close_combat::armor_faces(&report.armor);
        let lost = report.sp_lost;
        let structure_lost = report.structure_lost;
        events.push(Event::Volley(report));
        if let Piece::Unit(u) = plan.shooter {
            crate::ammunition::spend(game, u, spent, events);
            if let Fire::Ranks(kind) = plan.fire {
                ranks::fired(game, u, kind);
                if let Piece::Unit(t) = plan.target
                    && kind == ranks::RankVolley::Salvo
                    && stage == FireStage::ReactionFire
                    && ranks::shakes_charger(game, u, t, lost)
                {
                    salvo_hit.push((t, u));
                }
            }
        }
        match plan.target {
            Piece::Unit(t) if crate::wagon::train::is_train(game, t) => {
                train_hits.push((t, plan.shooter, lost, structure_lost));
            }
            Piece::Unit(t) => {
                damage.push((t, plan.shooter.unit(), lost));
                if lost > 0 && plan.ammunition() == Some(crate::artillery::Ammunition::CaseShot) {
                    case_shot_hit.push((t, plan.shooter.unit()));
                }
                crate::attachment::risk_to_attached(game, t, &faces, events);
            }
            Piece::Commander(c) => commanders_hit.push((c, plan.shooter, lost)),
        }
    }
    // A lone commander's unsaved hits: a Skill test for each (BFS-CDR-9, BFS-CDR-10).
    for (c, by, sp) in commanders_hit {
        let cause = format!("shot down by {}", piece_name(game, by));
        crate::attachment::lone_commander_hit(game, c, sp, cause, events);
    }
    // A train's losses land at the end of the stage too, each volley's on the wagon nearest its
    // shooter (BFS-WAG-15); a train that lost a whole crew tests its Morale once (BFS-WAG-17).
    let mut trains_tested: Vec<UnitId> = Vec::new();
    for (t, by, crew, structure) in train_hits {
        if crate::wagon::train::shot(game, t, by, crew, structure, events)
            && !trains_tested.contains(&t)
        {
            trains_tested.push(t);
        }
    }
    for t in trains_tested {
        if game.unit(t).status == UnitStatus::OnTable {
            flight::test_and_apply(game, t, &MoraleCause::Shooting, events);
        }
    }
    // Losses at the end of the stage, all fire at one target together.
    let mut targets: Vec<UnitId> = damage.iter().map(|d| d.0).collect();
    targets.sort();
    targets.dedup();
    let mut tests = Vec::new();
    for t in targets {
        let sp: u32 = damage.iter().filter(|d| d.0 == t).map(|d| d.2).sum();
        let removed = losses::apply(game, t, sp, LossCause::Shooting, stage.name(), events);
        if removed > 0 && game.unit(t).status == UnitStatus::OnTable {
            // Withdraw or flee away from the shooter that did most harm (BFS-PSY-17).
            let worst = damage
                .iter()
                .filter(|d| d.0 == t)
                .max_by_key(|d| d.2)
                .and_then(|d| d.1);
            tests.push((t, worst));
        }
    }
    // A unit that lost Strength points to case-shot tests its Morale, besides any test for a
    // lost base (BFS-ART-6).
    case_shot_hit.sort();
    case_shot_hit.dedup_by_key(|h| h.0);
    let mut tests: Vec<(UnitId, Option<UnitId>, MoraleCause)> = tests
        .into_iter()
        .map(|(t, by)| (t, by, MoraleCause::Shooting))
        .collect();
    tests.extend(case_shot_hit.into_iter().map(|(t, by)| {
        let cause = MoraleCause::Other {
            rule: "BFS-ART-6",
            reason: "lost Strength points to case-shot".into(),
        };
        (t, by, cause)
    }));
    // A Salvo in Reaction Fire that took Strength off the charger: it tests (BFS-SPC-29), once.
    for (t, by) in salvo_hit {
        if !tests.iter().any(|x| x.0 == t) {
            let cause = MoraleCause::Other {
                rule: "BFS-SPC-29",
                reason: "a Salvo in Reaction Fire took Strength off it".into(),
            };
            tests.push((t, Some(by), cause));
        }
    }
    for (t, by, cause) in tests {
        let case_shot = matches!(cause, MoraleCause::Other { .. });
        if case_shot && game.unit(t).status != UnitStatus::OnTable {
            continue;
        }
        let enemies: Vec<UnitId> = by.into_iter().collect();
        shooting_morale(game, t, &cause, &enemies, events);
    }
}

/// What a unit's volley spends of its ammunition (BFS-AMM-3, BFS-SPC-8, BFS-OPT-2).
fn spent(game: &Game, plan: &VolleyPlan) -> crate::ammunition::Spent {
    use crate::ammunition::Spent;
    let bases = plan.groups.iter().map(|g| g.bases).sum();
    let Piece::Unit(u) = plan.shooter else {
        return Spent::Volley(bases);
    };
    if hail::delayed_to_now(game, u) && plan.stage == FireStage::AfterMovement {
        Spent::HailOfArrows(bases)
    } else if twice::countermarches(game, u)
        && (game.unit(u).flags.fired_first_of_two || plan.stage == FireStage::DefendersFire)
    {
        Spent::Countermarch
    } else {
        Spent::Volley(bases)
    }
}

/// The profile of a unit or a commander.
fn piece_profile(game: &Game, piece: Piece) -> &crate::profile::UnitProfile {
    match piece {
        Piece::Unit(u) => game.unit_profile(u),
        Piece::Commander(c) => game.profile(game.commander(c).profile),
    }
}

/// A unit's or a commander's name.
fn piece_name(game: &Game, piece: Piece) -> String {
    match piece {
        Piece::Unit(u) => game.unit(u).name.clone(),
        Piece::Commander(c) => game.commander(c).name.clone(),
    }
}

/// A lone commander's shot (BFS-CDR-16): once a turn, at the first of Defender's Fire, Reaction
/// Fire and Shooting after Movement in which he has a target (the book lets the player choose
/// the moment; Sandtable does not yet offer to wait), as a one-base Open Order unit with his own
/// weapon and no special rules, at the closest enemy unit in front of him that he sees and has a
/// line of fire to. Battles recorded before rules revision 4 had commanders hold their fire.
pub fn plan_commander_volley(game: &Game, c: CommanderId, stage: FireStage) -> Option<VolleyPlan> {
    if !crate::revision::commander_targets(game.info.options.rules_revision)
        || stage == FireStage::WhileCharging
    {
        return None;
    }
    let cm = game.commander(c);
    if cm.status != UnitStatus::OnTable || cm.attached_to.is_some() || cm.shot || cm.fleeing {
        return None;
    }
    let p = game.profile(cm.profile);
    let weapon = p.ranged?;
    let stats = weapon.stats(p.is_mounted());
    if p.shooting == 0 || (p.is_mounted() && stats.horseback == Horseback::Cannot) {
        return None;
    }
    // Nobody in reach: no need for the scene with him in it.
    let reach = stats.long_cm.unwrap_or(stats.effective_cm);
    let in_reach = game.units_on_table(cm.side.other()).any(|u| {
        sandtable_geometry::distance::set_distance(std::slice::from_ref(&cm.base), &u.bases)
            .is_ok_and(|d| d <= reach + sandtable_geometry::tolerance::LIMIT_EPS)
    });
    if !in_reach {
        return None;
    }
    let scene = geo::scene_with_commanders(game, &[c]);
    let csid = geo::commander_sid(c);
    let own = *scene.unit_base_indices(csid).first()? as usize;
    let eyes = [cm.base];
    let viewer = sandtable_geometry::vision::Viewer {
        unit: csid,
        eyes: &eyes,
        arc: sandtable_geometry::vision::VisionArc::All360,
    };
    let side = cm.side.0;
    let sees = sight::blocks_sight_for(game, side);
    let blocks_sight = |b: &SceneBase| !geo::is_commander(b) && sees(b);
    let visible = sandtable_geometry::vision::visible_units(
        &scene,
        &viewer,
        |e| e.side != side && e.id < geo::COMMANDER_SID,
        blocks_sight,
    )
    .ok()?;
    let origin = fire::front_midpoint(&cm.base).ok()?;
    let blocks_fire = |b: &SceneBase| !geo::is_commander(b);
    let mut best: Option<(f32, UnitId, RangeBand)> = None;
    for (id, _) in visible {
        let t = UnitId(id as u16);
        let tb = &game.unit(t).bases;
        let in_arc = tb.iter().any(|r| {
            fire::in_field_of_fire(&cm.base, FireArc::Front, ZoneScheme::default(), r)
                .unwrap_or(false)
        });
        let Ok((d, _, _)) = fire::range_to(origin, tb) else {
            continue;
        };
        let Ok(band) = fire::range_band(d, stats.effective_cm, stats.long_cm) else {
            continue;
        };
        if !in_arc || band == RangeBand::OutOfRange {
            continue;
        }
        let clear = fire::line_of_fire(
            &scene,
            own,
            origin,
            sid(t),
            fire::LOF_CLEARANCE_CM,
            blocks_fire,
        )
        .ok()
        .flatten()
        .is_some();
        if clear
            && best.is_none_or(|(bd, bt, _)| d < bd - 1e-4 || ((d - bd).abs() <= 1e-4 && t < bt))
        {
            best = Some((d, t, band));
        }
    }
    let (distance, t, band) = best?;
    let target = Piece::Unit(t);
    let mut spec = PoolSpec::new(1, p.shooting as u32, p.skill as i32);
    spec.modifiers = target_mods(game, target, None, false);
    spec.modifiers
        .extend(weapon_mods(&stats, p.is_mounted(), stage));
    spec.below_one = game.info.options.below_one;
    let b = if band == RangeBand::Long {
        spec.reroll = crate::dice::Reroll::Hits;
        Band::Long
    } else {
        Band::Effective
    };
    let (armor_base, armor_mods) = armor(game, target, None, &stats, b);
    Some(VolleyPlan {
        shooter: Piece::Commander(c),
        target,
        weapon,
        stage,
        groups: vec![GroupPlan {
            bases: 1,
            band: b,
            distance,
            spec,
            armor_base,
            armor_mods,
        }],
        fire: Fire::Weapon,
    })
}

/// A Morale test for losing a base to shooting (BFS-PSY-3): a pass changes nothing.
fn shooting_morale(
    game: &mut Game,
    unit: UnitId,
    cause: &MoraleCause,
    enemies: &[UnitId],
    events: &mut Vec<Event>,
) {
    // Wagons have no crew: no Morale test touches them (BFS-WAG-1).
    if crate::wagon::crewless(game, unit) {
        return;
    }
    if game.unit(unit).morale == MoraleLevel::Flight {
        flight::test_and_apply(game, unit, cause, events);
        return;
    }
    let roll = crate::morale::morale_test(game, unit, cause);
    let to = crate::morale::level_after(game, unit, &roll);
    let outcome = match to {
        MoraleLevel::Good => "passed".to_string(),
        l if l == game.unit(unit).morale => "passed".into(),
        MoraleLevel::Disorganized => "failed: Disorganized".into(),
        MoraleLevel::Flight => "failed: Flight".into(),
    };
    events.push(crate::morale::report(
        unit,
        crate::event::TestKind::Morale,
        cause,
        roll,
        outcome,
    ));
    let from = game.unit(unit).morale;
    crate::turn_one::fatigue_markers_lost(game, unit, from, to, events);
    flight::apply_level(
        game,
        unit,
        to,
        "a failed Morale test after losses to shooting",
        Some(enemies),
        events,
    );
}
