//! Artillery (BFS-ART, BFS-SPC-1): the gun table, the gun classes, the two kinds of ammunition
//! and the owner's choice of load, how many dice a cannonball rolls, crews destroyed rather than
//! disordered, Quick Loading and the organ gun, how far a gun moves and when it limbers, the
//! Artillery Commander and the additional crew. These are rules, not army data: a profile names
//! its gun (`ranged: Some(Gun(RegimentalGun))`) and the numbers come from here. A gun's volley is
//! planned in `shooting::guns`.
//!
//! Not yet modelled, and listed in docs/rules-coverage.md: siege guns and mortars (the book gives
//! them no shooting row, A-18), fortified bases (BFS-ART-19), manning abandoned guns
//! (BFS-ART-17), and Division artillery (BFS-ART-20).

use crate::event::Event;
use crate::ids::UnitId;
use crate::profile::{UnitKind, UnitProfile};
use crate::state::{Game, UnitStatus};
use crate::weapons::{Horseback, RangedStats, RangedWeapon, WeaponClass};
use sandtable_engine::RuleError;
use sandtable_geometry::Rect;
use serde::{Deserialize, Serialize};

/// The guns of the artillery table (BFS-ART-9), in the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Gun {
    /// Handgun, 0.5 pdr.
    Handgun,
    /// Turkish Şahaloz.
    Sahaloz,
    /// Organ gun, 0.5 pdr: fires every second turn, as case-shot at effective range (BFS-ART-10).
    OrganGun,
    /// 1.5 pdr falconet, or the Darbzen of 300 dirhems.
    Falconet,
    /// Regimental gun, 3 pdr.
    RegimentalGun,
    Tarack,
    /// Falcon, 3 pdr (moves as a medium gun).
    Falcon,
    /// Darbzen of 1 oka (2.5 pdr) or the octave colubrine (moves as a medium gun).
    Darbzen1Oka,
    /// Muscovite 4 pdr (moves as a medium gun).
    Muscovite4Pdr,
    /// Octave, 6 pdr, or the sacer, 5.5 pdr.
    Octave,
    /// Darbzen of 2 oka (5 pdr) or the quarta colubrine (moves as a heavy gun).
    Darbzen2Oka,
    /// Brandenburgian 8 pdr.
    Brandenburg8Pdr,
    /// Demi-culverin, 10 pdr (moves as a heavy gun).
    DemiCulverin,
    /// Swedish 12 pdr (a heavy gun that moves as a medium one).
    Swedish12Pdr,
}

/// Gun classes (BFS-ART-8). Siege guns and mortars have movement rules but no row in the gun
/// table, so no [`Gun`] is of those classes yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GunClass {
    Light,
    Medium,
    Heavy,
    Siege,
    Mortar,
    LightMortar,
}

/// Which of the two loads a gun fires (BFS-ART-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ammunition {
    Cannonball,
    CaseShot,
}

impl Ammunition {
    pub fn name(self) -> &'static str {
        match self {
            Ammunition::Cannonball => "cannonball",
            Ammunition::CaseShot => "case-shot",
        }
    }
}

/// One row of the artillery table (BFS-ART-9).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GunStats {
    pub name: &'static str,
    /// The table's group: Quick Loading, additional crew and fortified bases follow it.
    pub class: GunClass,
    /// The class it moves as: distances, manhandling, limbering and maneuver cost follow it.
    pub moves_as: GunClass,
    /// Cannonball dice against Close Order (BFS-ART-4).
    pub shooting: u8,
    /// Cannonball Effective and Long range bounds, cm.
    pub range_cm: (f32, f32),
    /// Cannonball Effectiveness (both bands).
    pub effectiveness: i8,
    /// Case-shot's one maximum range, cm (BFS-ART-5).
    pub case_range_cm: f32,
    pub case_effectiveness: i8,
}

impl Gun {
    pub const ALL: [Gun; 14] = [
        Gun::Handgun,
        Gun::Sahaloz,
        Gun::OrganGun,
        Gun::Falconet,
        Gun::RegimentalGun,
        Gun::Tarack,
        Gun::Falcon,
        Gun::Darbzen1Oka,
        Gun::Muscovite4Pdr,
        Gun::Octave,
        Gun::Darbzen2Oka,
        Gun::Brandenburg8Pdr,
        Gun::DemiCulverin,
        Gun::Swedish12Pdr,
    ];

    /// The gun's row of the artillery table (BFS-ART-9, from the Quick Reference's clean copy).
    pub fn stats(self) -> GunStats {
        use GunClass::*;
        let row = |name, class, moves_as, shooting, e, l, eff, case, case_eff| GunStats {
            name,
            class,
            moves_as,
            shooting,
            range_cm: (e, l),
            effectiveness: eff,
            case_range_cm: case,
            case_effectiveness: case_eff,
        };
        match self {
            Gun::Handgun => row("Handgun (0.5 pdr)", Light, Light, 1, 25.0, 60.0, 5, 20.0, 3),
            Gun::Sahaloz => row("Şahaloz", Light, Light, 1, 25.0, 60.0, 5, 30.0, 3),
            Gun::OrganGun => row(
                "Organ gun (0.5 pdr)",
                Light,
                Light,
                3,
                25.0,
                60.0,
                5,
                25.0,
                3,
            ),
            Gun::Falconet => row(
                "Falconet (1.5 pdr)",
                Light,
                Light,
                1,
                40.0,
                80.0,
                7,
                30.0,
                3,
            ),
            Gun::RegimentalGun => row(
                "Regimental gun (3 pdr)",
                Light,
                Light,
                1,
                40.0,
                80.0,
                8,
                30.0,
                3,
            ),
            Gun::Tarack => row("Tarack", Light, Light, 1, 40.0, 80.0, 9, 30.0, 3),
            Gun::Falcon => row("Falcon (3 pdr)", Light, Medium, 1, 50.0, 100.0, 9, 30.0, 3),
            Gun::Darbzen1Oka => row(
                "Darbzen of 1 oka (2.5 pdr)",
                Light,
                Medium,
                1,
                55.0,
                110.0,
                8,
                30.0,
                3,
            ),
            Gun::Muscovite4Pdr => row("Muscovite 4 pdr", Light, Medium, 1, 60.0, 120.0, 9, 30.0, 3),
            Gun::Octave => row(
                "Octave (6 pdr)",
                Medium,
                Medium,
                2,
                65.0,
                130.0,
                10,
                40.0,
                4,
            ),
            Gun::Darbzen2Oka => row(
                "Darbzen of 2 oka (5 pdr)",
                Medium,
                Heavy,
                2,
                70.0,
                140.0,
                10,
                40.0,
                4,
            ),
            Gun::Brandenburg8Pdr => row(
                "Brandenburgian 8 pdr",
                Medium,
                Medium,
                2,
                70.0,
                140.0,
                11,
                40.0,
                4,
            ),
            Gun::DemiCulverin => row(
                "Demi-culverin (10 pdr)",
                Medium,
                Heavy,
                2,
                90.0,
                180.0,
                11,
                40.0,
                4,
            ),
            Gun::Swedish12Pdr => row("Swedish 12 pdr", Heavy, Medium, 3, 65.0, 130.0, 11, 50.0, 4),
        }
    }

    /// Light and medium guns fire twice a turn under a Defense order; not the organ gun, not a
    /// heavy gun, whatever it moves as (BFS-ART-7, BFS-ART-10, A-5).
    pub fn quick_loading(self) -> bool {
        self != Gun::OrganGun && matches!(self.stats().class, GunClass::Light | GunClass::Medium)
    }

    /// The organ gun fires only every second turn (BFS-ART-10).
    pub fn every_second_turn(self) -> bool {
        self == Gun::OrganGun
    }
}

impl GunClass {
    /// How far a gun of this class moves: (carried or manhandled, pulled by horses when
    /// limbered), cm; `None` where it cannot (BFS-ART-12, BFS-ART-14).
    pub fn moves_cm(self) -> (Option<f32>, Option<f32>) {
        match self {
            GunClass::Light => (Some(10.0), Some(15.0)),
            GunClass::Medium | GunClass::LightMortar => (Some(5.0), Some(10.0)),
            GunClass::Heavy => (Some(2.0), Some(5.0)),
            GunClass::Siege | GunClass::Mortar => (None, None),
        }
    }

    /// Special Maneuvers to limber or unlimber: 1 for light guns, 2 for the others
    /// (BFS-ART-16).
    pub fn limber_maneuvers(self) -> u8 {
        if self == GunClass::Light { 1 } else { 2 }
    }
}

/// What a cannonball's dice are capped by, from the target (BFS-ART-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CannonballTarget {
    /// A unit in Open Order, a lone gun (a one-base Open Order unit, BFS-ART-1) or a commander.
    OpenOrder,
    /// A Close Order unit struck in its front or rear, with its number of ranks.
    CloseOrderFrontOrRear { ranks: u32 },
    /// A Close Order unit fired on from its flank.
    CloseOrderFlank,
    /// Fortifications, wagons and other constructions (a garrisoned building).
    Construction,
}

/// The dice a gun rolls with this load at this target, and why (BFS-ART-4, BFS-ART-5). With
/// `case_caps` (off by default, A-6) case-shot is capped as a cannonball is.
pub fn dice(
    gun: Gun,
    ammunition: Ammunition,
    target: CannonballTarget,
    case_caps: bool,
) -> (u32, &'static str) {
    let full = gun.stats().shooting as u32;
    let base = match ammunition {
        Ammunition::CaseShot => full + 1,
        Ammunition::Cannonball => full,
    };
    if ammunition == Ammunition::CaseShot && !case_caps {
        return (base, "case-shot: the gun's Shooting + 1 (BFS-ART-5)");
    }
    match target {
        CannonballTarget::OpenOrder => (1, "1 die at an Open Order target (BFS-ART-4)"),
        CannonballTarget::CloseOrderFrontOrRear { ranks } if ranks < base => (
            ranks.max(1),
            "no more dice than the target's ranks, fired on front or rear (BFS-ART-4)",
        ),
        CannonballTarget::CloseOrderFrontOrRear { .. } => (base, "the gun's full dice (BFS-ART-4)"),
        CannonballTarget::CloseOrderFlank => (base, "the full dice from the flank (BFS-ART-4)"),
        CannonballTarget::Construction => {
            (base, "the full dice against a construction (BFS-ART-4)")
        }
    }
}

/// The state of a gun on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GunState {
    /// Towed by its limber: it moves at the horses' pace and cannot fire (BFS-ART-12, BFS-ART-16).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub limbered: bool,
    /// The turn it last fired, for the organ gun (BFS-ART-10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_fired_turn: Option<u32>,
    /// The load its owner chose (BFS-ART-3): cannonball always, or case-shot whenever the target
    /// is within case-shot range; `None` leaves it to the crew, who load by the rules' odds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<Ammunition>,
    /// An additional crew base (1 SP) stands behind the gun and takes its losses first
    /// (BFS-ART-18).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub additional_crew: bool,
}

/// Case-shot as a weapon row: one band up to its maximum range, treated as Effective (no
/// reroll of hits), at its own Effectiveness (BFS-ART-5, A-6).
pub fn case_shot_stats(gun: Gun) -> RangedStats {
    let g = gun.stats();
    RangedStats {
        name: g.name,
        effective_cm: g.case_range_cm,
        long_cm: None,
        effectiveness: (g.case_effectiveness, g.case_effectiveness),
        sam_penalty: false,
        horseback: Horseback::Cannot,
        class: WeaponClass::Artillery,
        matchlock: false,
    }
}

/// May this gun fire at all now: not while limbered (BFS-ART-16), and the organ gun not in the
/// turn after it fired (BFS-ART-10). Anything that is not a gun may.
pub fn may_fire(game: &Game, unit: UnitId) -> bool {
    let Some(state) = game.unit(unit).gun else {
        return true;
    };
    let every_second = gun_of(game.unit_profile(unit)).is_some_and(Gun::every_second_turn);
    let fired_last_turn = state
        .last_fired_turn
        .is_some_and(|t| t + 1 >= game.turn.number);
    let resting = every_second && fired_last_turn;
    !state.limbered && !resting
}

/// After a gun fires, the organ gun's turn is noted (BFS-ART-10).
pub fn fired(game: &mut Game, unit: UnitId) {
    let turn = game.turn.number;
    if let Some(state) = game.unit_mut(unit).gun.as_mut() {
        state.last_fired_turn = Some(turn);
    }
}

/// Gun crews never flee and are never Disorganized: forced to any other Morale level than Good,
/// they are destroyed (BFS-ART-1). Returns whether it destroyed this unit's crews.
pub fn crew_destroyed(
    game: &mut Game,
    unit: UnitId,
    reason: &str,
    events: &mut Vec<Event>,
) -> bool {
    if game.unit_profile(unit).kind != UnitKind::Artillery
        || game.unit(unit).status != UnitStatus::OnTable
    {
        return false;
    }
    let u = game.unit_mut(unit);
    u.order = None;
    u.pending_order = None;
    u.charge = None;
    crate::losses::destroy_unit(
        game,
        unit,
        "BFS-ART-1",
        format!("gun crews never flee nor fall into disorder: {reason}"),
        events,
    );
    true
}

/// A gun's Move now: pulled by horses while limbered, carried or manhandled otherwise
/// (BFS-ART-12); `None` for a unit that is not a gun.
pub fn move_allowance(game: &Game, unit: UnitId) -> Option<f32> {
    let state = game.unit(unit).gun?;
    let class = gun_of(game.unit_profile(unit))?.stats().moves_as;
    let (carried, pulled) = class.moves_cm();
    Some(if state.limbered { pulled } else { carried }.unwrap_or(0.0))
}

/// A Movement Maneuver costs a light gun 2 cm and any other gun its whole Move (BFS-MAN-6,
/// BFS-ART-8, by the class it moves as, A-5); `None` for a unit that is not a gun.
pub fn maneuver_cost(game: &Game, unit: UnitId) -> Option<f32> {
    let class = gun_of(game.unit_profile(unit))?.stats().moves_as;
    if class == GunClass::Light {
        Some(2.0)
    } else {
        move_allowance(game, unit)
    }
}

/// A gun marches only limbered, and then only along roads (BFS-ART-15): `stations` are the
/// unit's frames along the march.
pub fn check_march(game: &Game, unit: UnitId, stations: &[Rect]) -> Result<(), RuleError> {
    let Some(state) = game.unit(unit).gun else {
        return Ok(());
    };
    let name = &game.unit(unit).name;
    if !state.limbered {
        return Err(RuleError::new(
            "BFS-ART-15",
            format!("{name} is manhandled: manhandled guns never March."),
        ));
    }
    if stations
        .iter()
        .any(|f| !crate::geo::on_road(game, f.center()))
    {
        return Err(RuleError::new(
            "BFS-ART-15",
            format!("{name} is a limbered gun: it may March only along a road."),
        ));
    }
    Ok(())
}

/// Can this unit limber (or unlimber) now, and for how many Special Maneuvers (BFS-ART-16)?
/// The limber is part of the gun's model in Sandtable: scenarios place no limber bases, so the
/// book's "a limber model in contact" always holds.
pub fn check_limber(game: &Game, unit: UnitId, limber: bool) -> Result<u8, RuleError> {
    let u = game.unit(unit);
    let (Some(state), Some(gun)) = (u.gun, gun_of(game.unit_profile(unit))) else {
        return Err(RuleError::new(
            "BFS-ART-16",
            format!("{} is not a gun: only guns limber and unlimber.", u.name),
        ));
    };
    let class = gun.stats().moves_as;
    if class.moves_cm().1.is_none() {
        return Err(RuleError::new(
            "BFS-ART-14",
            format!("{} cannot be limbered during a battle.", u.name),
        ));
    }
    if state.limbered == limber {
        return Err(RuleError::new(
            "BFS-ART-16",
            format!(
                "{} is already {}.",
                u.name,
                if limber { "limbered" } else { "unlimbered" }
            ),
        ));
    }
    Ok(class.limber_maneuvers())
}

/// A heavy gun is manhandled only in open ground: every frame of its path and its bases at the
/// end clear of any terrain but roads and bridges (BFS-ART-13). Limbered, it goes where horses
/// may.
pub fn check_manhandled_ground(
    game: &Game,
    unit: UnitId,
    plan: &crate::moves::MovePlan,
) -> Result<(), RuleError> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let heavy = gun_of(p).is_some_and(|g| g.stats().moves_as == GunClass::Heavy);
    if !heavy || u.gun.is_some_and(|g| g.limbered) {
        return Ok(());
    }
    let pieces = crate::geo::terrain_pieces(game);
    let rough = |r: &Rect| {
        pieces.iter().find_map(|piece| {
            let t = game.terrain.get(piece.id as usize)?;
            (crate::geo::terrain_class(t.kind, p) != crate::geo::TerrainClass::Open
                && piece.overlap_area(r).is_ok_and(|a| a > 1e-3))
            .then(|| t.name.clone().unwrap_or_else(|| format!("{:?}", t.kind)))
        })
    };
    let found = u
        .bases
        .iter()
        .chain(&plan.path)
        .chain(&plan.bases)
        .find_map(rough);
    match found {
        Some(name) => Err(RuleError::new(
            "BFS-ART-13",
            format!(
                "{} is a heavy gun: it is manhandled only in open ground, not in {name}.",
                u.name
            ),
        )),
        None => Ok(()),
    }
}

/// A heavy gun is not manhandled with a Special Maneuver (BFS-ART-13).
pub fn check_special_manhandling(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    match gun_of(game.unit_profile(unit)) {
        Some(g) if g.stats().moves_as == GunClass::Heavy => Err(RuleError::new(
            "BFS-ART-13",
            format!(
                "{} is a heavy gun: it is manhandled only with a Move order, 2 cm.",
                game.unit(unit).name
            ),
        )),
        _ => Ok(()),
    }
}

/// May the owner choose this load for the gun now: once, in its side's Movement Phase, before
/// the Combat Phase in which it fires (BFS-ART-3)? The organ gun loads by range (BFS-ART-10).
pub fn check_load(game: &Game, unit: UnitId, load: Option<Ammunition>) -> Result<(), RuleError> {
    crate::phases::movement::acting_unit(game, unit)?;
    let u = game.unit(unit);
    let (Some(state), Some(gun)) = (u.gun, gun_of(game.unit_profile(unit))) else {
        return Err(RuleError::new(
            "BFS-ART-3",
            format!("{} is not a gun.", u.name),
        ));
    };
    if gun.every_second_turn() {
        return Err(RuleError::new(
            "BFS-ART-10",
            format!(
                "{} is an organ gun: it fires case-shot at Effective range and cannonball beyond.",
                u.name
            ),
        ));
    }
    if state.load == load {
        return Err(RuleError::new(
            "BFS-ART-3",
            format!("{} is already loaded so.", u.name),
        ));
    }
    if u.flags.load_chosen {
        return Err(RuleError::new(
            "BFS-ART-3",
            format!(
                "{}'s load for this turn's shots is chosen (undo to change it).",
                u.name
            ),
        ));
    }
    Ok(())
}

/// What a load choice is called in menus and the log.
pub fn load_name(load: Option<Ammunition>) -> &'static str {
    match load {
        Some(Ammunition::Cannonball) => "cannonball",
        Some(Ammunition::CaseShot) => "case-shot within its range",
        None => "the crew's choice by the odds",
    }
}

/// The owner chooses the gun's load (BFS-ART-3); it stays until changed.
pub fn load(
    game: &mut Game,
    unit: UnitId,
    load: Option<Ammunition>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_load(game, unit, load)?;
    let u = game.unit_mut(unit);
    if let Some(state) = u.gun.as_mut() {
        state.load = load;
    }
    u.flags.load_chosen = true;
    events.push(Event::Ruling {
        rule: "BFS-ART-3".into(),
        text: format!("{} will fire {}.", u.name, load_name(load)),
    });
    Ok(())
}

/// An Artillery Commander of the gun's side whose base touches it (commanders never join guns)
/// and who has not yet helped a gun this turn: he lets it roll a missed shot again (BFS-ART-2).
pub fn commander_for_reroll(game: &Game, unit: UnitId) -> Option<crate::ids::CommanderId> {
    let u = game.unit(unit);
    u.gun?;
    game.commanders
        .iter()
        .filter(|c| c.side == u.side && c.status == UnitStatus::OnTable && !c.fleeing)
        .filter(|c| c.gun_reroll_turn != Some(game.turn.number))
        .filter(|c| {
            game.profile(c.profile)
                .has(crate::profile::SpecialRule::ArtilleryCommander)
        })
        .find(|c| {
            u.bases
                .iter()
                .any(|b| sandtable_geometry::contact::in_contact(&c.base, b).unwrap_or(false))
        })
        .map(|c| c.id)
}

/// Additional crew bases a force may deploy with its medium guns: one for 1–2 guns, two for
/// 3–4, and so on (BFS-ART-18).
pub fn additional_crew_allowed(medium_guns: usize) -> usize {
    medium_guns.div_ceil(2)
}

/// A force's additional crew, checked: only behind medium guns (by the table's group, A-5), and
/// no more than its medium guns allow (BFS-ART-18).
pub fn crew_problems(
    force: &crate::scenario_spec::ForceSpec,
    army: &crate::army_list::ArmyList,
) -> Vec<sandtable_engine::problem::Problem> {
    use sandtable_engine::problem::Problem;
    let medium = |u: &crate::scenario_spec::UnitSpec| {
        army.profile(&u.profile)
            .and_then(gun_of)
            .is_some_and(|g| g.stats().class == GunClass::Medium)
    };
    let mut out = Vec::new();
    for u in force.units.iter().filter(|u| u.fortified && !medium(u)) {
        out.push(Problem::new(
            format!("unit \"{}\"", u.id),
            "only a medium gun is dug in on a fortified base (BFS-ART-19)",
        ));
    }
    for u in force
        .units
        .iter()
        .filter(|u| u.additional_crew && !medium(u))
    {
        out.push(Problem::new(
            format!("unit \"{}\"", u.id),
            "only a medium gun deploys with an additional crew base (BFS-ART-18)",
        ));
    }
    let guns = force.units.iter().filter(|u| medium(u)).count();
    let crews = force
        .units
        .iter()
        .filter(|u| u.additional_crew && medium(u))
        .count();
    if crews > additional_crew_allowed(guns) {
        out.push(Problem::new(
            format!("force \"{}\"", force.army_list),
            format!(
                "{crews} additional crew bases, but {guns} medium gun(s) allow {} (BFS-ART-18)",
                additional_crew_allowed(guns)
            ),
        ));
    }
    out
}

/// The additional crew takes a gun's losses first: the Strength points left for the gun after it
/// (BFS-ART-18).
pub fn crew_takes_losses(game: &mut Game, unit: UnitId, sp: u32, events: &mut Vec<Event>) -> u32 {
    let u = game.unit_mut(unit);
    match u.gun.as_mut() {
        Some(state) if state.additional_crew && sp > 0 => {
            state.additional_crew = false;
            events.push(Event::Ruling {
                rule: "BFS-ART-18".into(),
                text: format!("{}'s additional crew takes the first loss.", u.name),
            });
            sp - 1
        }
        _ => sp,
    }
}

/// The gun a unit serves, if it is artillery.
pub fn gun_of(p: &UnitProfile) -> Option<Gun> {
    match p.ranged {
        Some(RangedWeapon::Gun(g)) => Some(g),
        _ => None,
    }
}

/// What an artillery profile must say so that the profile card and the gun table agree: a gun is
/// fired by artillery only, an artillery base has 1 SP (BFS-ART-1), and its printed Shooting and
/// Move are the table's cannonball dice and manhandled move (BFS-ART-9, BFS-ART-12).
pub fn profile_problems(p: &UnitProfile) -> Vec<String> {
    let mut out = Vec::new();
    let gun = gun_of(p);
    match (p.kind, gun) {
        (UnitKind::Artillery, None) => out
            .push("is artillery but names no gun: write ranged: Some(Gun(...)) (BFS-ART-9)".into()),
        (UnitKind::Artillery, Some(_)) => {}
        (_, Some(g)) => out.push(format!(
            "names the gun {g:?} but is not artillery (kind: Artillery, BFS-ART-1)"
        )),
        (_, None) => {}
    }
    let Some(g) = gun else { return out };
    let s = g.stats();
    if p.strength != 1 {
        out.push(format!(
            "strength {} per base, but an artillery base has 1 SP (BFS-ART-1)",
            p.strength
        ));
    }
    if p.shooting as u32 != s.shooting as u32 {
        out.push(format!(
            "shooting {}, but the {} fires {} cannonball dice (BFS-ART-9)",
            p.shooting, s.name, s.shooting
        ));
    }
    let manhandled = s.moves_as.moves_cm().0.unwrap_or(0.0);
    if (p.movement.basic - manhandled).abs() > 1e-3 || p.movement.additional != 0.0 {
        out.push(format!(
            "movement {}, but the {} is manhandled {manhandled} cm (BFS-ART-12): write movement: (basic: {manhandled})",
            p.movement, s.name
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BFS-ART-5's worked example: a 3 pdr regimental gun fires 1 die to 80 cm at Effectiveness 8
    /// with cannonball; with case-shot 2 dice to 30 cm at Effectiveness 3.
    #[test]
    fn bfs_art_5_regimental_gun_case_shot_example() {
        let s = Gun::RegimentalGun.stats();
        assert_eq!(s.shooting, 1);
        assert_eq!(s.range_cm.1, 80.0);
        assert_eq!(s.effectiveness, 8);
        let (d, _) = dice(
            Gun::RegimentalGun,
            Ammunition::CaseShot,
            CannonballTarget::CloseOrderFrontOrRear { ranks: 1 },
            false,
        );
        assert_eq!(d, 2);
        assert_eq!(s.case_range_cm, 30.0);
        assert_eq!(s.case_effectiveness, 3);
    }

    /// BFS-ART-4: 1 die at Open Order; at most the ranks from front or rear; full from a flank
    /// and against constructions.
    #[test]
    fn bfs_art_4_cannonball_dice() {
        let g = Gun::Swedish12Pdr;
        let d = |t| dice(g, Ammunition::Cannonball, t, false).0;
        assert_eq!(d(CannonballTarget::OpenOrder), 1);
        assert_eq!(d(CannonballTarget::CloseOrderFrontOrRear { ranks: 2 }), 2);
        assert_eq!(d(CannonballTarget::CloseOrderFrontOrRear { ranks: 4 }), 3);
        assert_eq!(d(CannonballTarget::CloseOrderFlank), 3);
        assert_eq!(d(CannonballTarget::Construction), 3);
        // Case-shot is not capped by default, and is with the option.
        assert_eq!(
            dice(g, Ammunition::CaseShot, CannonballTarget::OpenOrder, false).0,
            4
        );
        assert_eq!(
            dice(g, Ammunition::CaseShot, CannonballTarget::OpenOrder, true).0,
            1
        );
    }

    /// BFS-ART-9: every row as the Quick Reference prints it.
    #[test]
    fn bfs_art_9_artillery_table() {
        // Shooting dice, (effective, long) range, effectiveness, case-shot range and its
        // effectiveness.
        type Row = (u8, (f32, f32), i8, f32, i8);
        let rows: Vec<Row> = Gun::ALL
            .iter()
            .map(|g| {
                let s = g.stats();
                (
                    s.shooting,
                    s.range_cm,
                    s.effectiveness,
                    s.case_range_cm,
                    s.case_effectiveness,
                )
            })
            .collect();
        assert_eq!(
            rows,
            vec![
                (1, (25.0, 60.0), 5, 20.0, 3),
                (1, (25.0, 60.0), 5, 30.0, 3),
                (3, (25.0, 60.0), 5, 25.0, 3),
                (1, (40.0, 80.0), 7, 30.0, 3),
                (1, (40.0, 80.0), 8, 30.0, 3),
                (1, (40.0, 80.0), 9, 30.0, 3),
                (1, (50.0, 100.0), 9, 30.0, 3),
                (1, (55.0, 110.0), 8, 30.0, 3),
                (1, (60.0, 120.0), 9, 30.0, 3),
                (2, (65.0, 130.0), 10, 40.0, 4),
                (2, (70.0, 140.0), 10, 40.0, 4),
                (2, (70.0, 140.0), 11, 40.0, 4),
                (2, (90.0, 180.0), 11, 40.0, 4),
                (3, (65.0, 130.0), 11, 50.0, 4),
            ]
        );
    }

    /// BFS-ART-7, A-5: Quick Loading for light and medium guns, not the organ gun nor the
    /// Swedish 12 pdr (heavy, though it moves as a medium gun).
    #[test]
    fn bfs_art_7_quick_loading_by_class() {
        assert!(Gun::RegimentalGun.quick_loading());
        assert!(Gun::DemiCulverin.quick_loading());
        assert!(!Gun::OrganGun.quick_loading());
        assert!(!Gun::Swedish12Pdr.quick_loading());
        assert_eq!(Gun::Swedish12Pdr.stats().moves_as, GunClass::Medium);
    }

    /// BFS-ART-12, BFS-ART-16: distances and limbering costs by class.
    #[test]
    fn bfs_art_12_gun_movement() {
        assert_eq!(GunClass::Light.moves_cm(), (Some(10.0), Some(15.0)));
        assert_eq!(GunClass::Medium.moves_cm(), (Some(5.0), Some(10.0)));
        assert_eq!(GunClass::Heavy.moves_cm(), (Some(2.0), Some(5.0)));
        assert_eq!(GunClass::Siege.moves_cm(), (None, None));
        assert_eq!(GunClass::Light.limber_maneuvers(), 1);
        assert_eq!(GunClass::Heavy.limber_maneuvers(), 2);
    }
}
