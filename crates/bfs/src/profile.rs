//! Unit and commander profiles (BFS-ATT-1) as army lists state them.

use crate::weapons::{MeleeWeapon, RangedWeapon};
use serde::{Deserialize, Serialize};

/// Unit types (BFS-ATT-5). Commanders have their own profile kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnitKind {
    Infantry,
    Cavalry,
    /// Cavalry while mounted, infantry while dismounted (BFS-ATT-5, BFS-SPC-9).
    Dragoons,
    Artillery,
    Wagon,
    Commander,
}

impl UnitKind {
    /// Default base size (width, depth) in cm (BFS-SCL-8): infantry 4×2, cavalry 4×3.
    pub fn default_base(self) -> (f32, f32) {
        match self {
            UnitKind::Infantry => (4.0, 2.0),
            UnitKind::Cavalry | UnitKind::Dragoons => (4.0, 3.0),
            UnitKind::Artillery => (4.0, 4.0),
            UnitKind::Wagon => (4.0, 6.0),
            UnitKind::Commander => (3.0, 3.0),
        }
    }
}

/// Move written "basic/+additional" (BFS-MOV-12); `additional` 0 when the profile shows one value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Movement {
    pub basic: f32,
    #[serde(default)]
    pub additional: f32,
}

impl std::fmt::Display for Movement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.additional > 0.0 {
            write!(f, "{}/+{}", self.basic, self.additional)
        } else {
            write!(f, "{}", self.basic)
        }
    }
}

/// Special rules the engine knows by name (BFS-SPC). Rules that are only partly implemented say so
/// in `docs/rules-coverage.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SpecialRule {
    CannotCharge,
    Caracole,
    CommandedMusketeers,
    Companions,
    Countermarch,
    Dragoons,
    EliteCavalry,
    FeignedFlight,
    GoodTacticalDiscipline,
    Highlanders,
    Independent,
    Insubordinate,
    LightCavalry,
    Marksmen,
    Militia,
    Mobility,
    NoQuarter,
    PikeAndShot,
    PoorTacticalDiscipline,
    Rabble,
    RankedFire,
    RifledBarrels,
    Salvo,
    Scouts,
    ShootingWhileCharging,
    Skirmishers,
    ToTheLastMan,
    OpenOrder,
    /// A commander who lets a gun he touches roll a missed shot again, once a turn (BFS-ART-2).
    /// Last, so that the state hashes of recorded battles keep their variants' indices.
    ArtilleryCommander,
    /// 4 Ammunition Units instead of 6, or out of ammunition sooner (BFS-AMM-2, BFS-AMM-6).
    ScarceAmmunition,
    /// 8 Ammunition Units instead of 6, or out of ammunition later (BFS-AMM-2, BFS-AMM-6).
    PlentyOfAmmunition,
    /// A wagon carrying the army's powder and shot: 1 SP, explodes when lost to anything but
    /// close combat, and the only wagon units restock from (BFS-WAG-3, BFS-WAG-10, BFS-WAG-11).
    AmmunitionWagon,
    /// A war wagon of a War Wagon Train, the tabor: a crewed wagon with two Armor values and two
    /// Strength tracks, fought wagon by wagon (BFS-WAG-12..18, [`crate::wagon::train`]).
    WarWagon,
    /// A gun manned from an abandoned one by another unit's men: Skill and Morale 4, no Quick
    /// Loading (BFS-MAN-21, [`crate::gun_manning`]).
    Manned,
    /// Plunderers: before deployment their force rolls for what their pillage cost it
    /// (BFS-SPC-28, [`crate::prebattle`]).
    Robbers,
}

impl SpecialRule {
    /// The rule's name as a card prints it: "Light Cavalry", "War Wagon".
    pub fn name(self) -> String {
        let raw = format!("{self:?}");
        let mut out = String::with_capacity(raw.len() + 4);
        for (i, c) in raw.chars().enumerate() {
            if i > 0 && c.is_ascii_uppercase() {
                out.push(' ');
            }
            out.push(c);
        }
        // Small words stay small: "Pike and Shot", "To the Last Man".
        out.replace(" And ", " and ").replace(" The ", " the ")
    }

    /// Special rules that give 360° vision (BFS-FOV-3).
    pub fn gives_all_round_vision(self) -> bool {
        matches!(
            self,
            SpecialRule::Skirmishers | SpecialRule::LightCavalry | SpecialRule::FeignedFlight
        )
    }
}

/// A unit profile (BFS-ATT-1). `morale` is the Morale value (BFS-ATT-3); Move is `movement`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitProfile {
    pub id: String,
    pub name: String,
    pub kind: UnitKind,
    pub movement: Movement,
    /// Close combat dice per base (CC).
    pub close_combat: u8,
    /// Shooting dice per base (St).
    pub shooting: u8,
    pub armor: u8,
    /// 3 Recruit, 4 Trained, 5 Veteran (BFS-ATT-2).
    pub skill: u8,
    /// 4 Cowardly, 5 Average, 6 Courageous, 7 Fearless (BFS-ATT-3).
    pub morale: u8,
    /// Strength points per base (BFS-CBT-10; commanders 1).
    #[serde(default = "default_strength")]
    pub strength: u8,
    /// Base (width, depth) in cm; defaults by kind (BFS-SCL-8).
    #[serde(default)]
    pub base: Option<(f32, f32)>,
    #[serde(default = "default_melee")]
    pub melee: MeleeWeapon,
    #[serde(default)]
    pub ranged: Option<RangedWeapon>,
    #[serde(default)]
    pub shields: bool,
    #[serde(default)]
    pub special_rules: Vec<SpecialRule>,
    /// Free text for the profile card (equipment options, history).
    #[serde(default)]
    pub notes: String,
    /// Dragoons: the id of this unit's profile on foot, if this one is mounted, or mounted, if
    /// this one is on foot; the two name each other (BFS-SPC-9, [`crate::dragoons`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_form: Option<String>,
    /// A named historical commander (e.g. Stefan Czarniecki): immune to Cowardly Commander
    /// (BFS-SCN-30).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub historical: bool,
    /// Never sent to Reserves by Delay, Outmaneuver or Unexpected Reinforcements, as the book
    /// names Cossack moloitsy (BFS-SCN-31, -32; wagons and rabble are barred by their kind).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_reserves: bool,
}

fn default_strength() -> u8 {
    3
}
fn default_melee() -> MeleeWeapon {
    MeleeWeapon::HandWeapons
}

impl UnitProfile {
    pub fn base_size(&self) -> (f32, f32) {
        self.base.unwrap_or_else(|| self.kind.default_base())
    }

    pub fn has(&self, rule: SpecialRule) -> bool {
        self.special_rules.contains(&rule)
    }

    /// Light Cavalry, or counted as it: Feigned Flight (BFS-SPC-16, BFS-SPC-11).
    pub fn light_cavalry(&self) -> bool {
        self.has(SpecialRule::LightCavalry) || self.has(SpecialRule::FeignedFlight)
    }

    /// Mounted for shooting and impetus purposes (dragoons are deployed mounted).
    pub fn is_mounted(&self) -> bool {
        matches!(self.kind, UnitKind::Cavalry | UnitKind::Dragoons)
            || (self.kind == UnitKind::Commander && self.base_size().1 >= 3.0)
    }

    /// Sees all round (BFS-FOV-3): commanders, wagons and some special rules.
    pub fn all_round_vision(&self) -> bool {
        matches!(self.kind, UnitKind::Commander | UnitKind::Wagon)
            || self
                .special_rules
                .iter()
                .any(|r| r.gives_all_round_vision())
    }

    /// Problems with the values themselves, each as a plain sentence.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.id.trim().is_empty() {
            out.push("has an empty id".into());
        }
        if !(self.movement.basic.is_finite() && self.movement.additional.is_finite())
            || self.movement.basic < 0.0
            || self.movement.basic > 100.0
            || self.movement.additional < 0.0
            || self.movement.additional > 100.0
        {
            out.push(format!("movement {} is outside 0..100 cm", self.movement));
        }
        if self.close_combat > 10 || self.shooting > 10 {
            out.push("close combat and shooting dice must be 0..10".into());
        }
        if self.armor > 20 {
            out.push(format!("armor {} is more than 20", self.armor));
        }
        if !(1..=9).contains(&self.skill) {
            out.push(format!(
                "skill {} is outside 1..9 (3 Recruit, 4 Trained, 5 Veteran)",
                self.skill
            ));
        }
        if !(1..=9).contains(&self.morale) {
            out.push(format!(
                "morale {} is outside 1..9 (4 Cowardly .. 7 Fearless)",
                self.morale
            ));
        }
        if !(1..=10).contains(&self.strength) {
            out.push(format!(
                "strength {} per base is outside 1..10",
                self.strength
            ));
        }
        let (w, d) = self.base_size();
        let sane = |v: f32| v.is_finite() && (0.5..=20.0).contains(&v);
        if !(sane(w) && sane(d)) {
            out.push(format!("base {w} × {d} cm is outside 0.5..20 cm"));
        }
        out.extend(crate::artillery::profile_problems(self));
        let mut seen = std::collections::BTreeSet::new();
        for r in &self.special_rules {
            if !seen.insert(r) {
                out.push(format!("lists special rule {r:?} twice"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::SpecialRule;

    #[test]
    fn special_rules_print_as_words() {
        assert_eq!(SpecialRule::LightCavalry.name(), "Light Cavalry");
        assert_eq!(SpecialRule::WarWagon.name(), "War Wagon");
        assert_eq!(SpecialRule::Salvo.name(), "Salvo");
    }
}
