//! What the ground a unit stands on does in combat and shooting (BFS-TER-6, BFS-TER-11..14 and
//! the terrain entries BFS-TER-16..28): Advantage in Combat Resolution, the attacker's to-hit
//! penalty, Armor raised by woods and villages, Open Order discipline, who cannot shoot from
//! water, and how a unit shoots out of a wood (the first rank only, −1 from inside it but not on
//! its edge; rules revision 15) or through one (−1; rules revision 16). Movement through terrain is in [`crate::geo`] and
//! [`crate::moves`]; cover against shooting in [`crate::shooting`].
//!
//! A base "in" terrain (BFS-TER-6): any overlap puts it there for what hurts it, but it gets what
//! helps it only when it stands wholly inside ("a target Base half in a wood gets no cover, no
//! Armor raise and no Advantage from the wood"). A unit gets a benefit when all its bases do.
//!
//! Not yet here: slopes' direction (a unit on a hill counts as higher than one off it; there are no
//! contour heights yet; what a hill hides is [`crate::geo::sight_block`]), obstacles and field fortifications (BFS-TER-27, -32), buildings
//! (BFS-TER-29..31).
//!
//! Battles recorded before rules revision 2 were played without any of this
//! ([`crate::revision::ground_rules`]).

use crate::dice::Modifier;
use crate::ids::UnitId;
use crate::profile::UnitKind;
use crate::state::{Formation, Game, OrderKind};
use sandtable_engine::scenario::TerrainKind;
use sandtable_geometry::Rect;

/// The terrain under one unit: which kinds touch any of its bases, and which hold all of them
/// wholly.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Footing {
    partly: Vec<TerrainKind>,
    wholly: Vec<TerrainKind>,
}

impl Footing {
    /// Some base of the unit overlaps this kind of terrain (it suffers what that terrain costs).
    pub fn partly(&self, kind: TerrainKind) -> bool {
        self.partly.contains(&kind)
    }
    /// Every base stands wholly in this kind of terrain (it gets what that terrain gives).
    pub fn wholly(&self, kind: TerrainKind) -> bool {
        self.wholly.contains(&kind)
    }
    /// Nothing but open ground and fields under it (BFS-TER-14).
    pub fn open_or_fields(&self) -> bool {
        self.partly
            .iter()
            .all(|k| matches!(k, TerrainKind::WheatField | TerrainKind::PloughedField))
    }
}

/// The terrain under a set of bases (BFS-TER-6).
pub fn footing_of(game: &Game, bases: &[Rect]) -> Footing {
    let mut f = Footing::default();
    if game.terrain.is_empty() || bases.is_empty() {
        return f;
    }
    // Area of each base inside each kind of terrain.
    let mut areas: Vec<(TerrainKind, Vec<f32>)> = Vec::new();
    for piece in crate::geo::terrain_pieces(game).iter() {
        let Some(t) = game.terrain.get(piece.id as usize) else {
            continue;
        };
        let i = match areas.iter().position(|(k, _)| *k == t.kind) {
            Some(i) => i,
            None => {
                areas.push((t.kind, vec![0.0; bases.len()]));
                areas.len() - 1
            }
        };
        for (a, b) in areas[i].1.iter_mut().zip(bases) {
            *a += piece.overlap_area(b).unwrap_or(0.0);
        }
    }
    for (kind, inside) in areas {
        if inside.iter().any(|a| *a > 1e-3) {
            f.partly.push(kind);
        }
        if inside
            .iter()
            .zip(bases)
            .all(|(a, b)| a.min(b.area()) >= b.area() * 0.999)
        {
            f.wholly.push(kind);
        }
    }
    f
}

/// Is any of these kinds of terrain on the table? (A cheap first question: most tables lack most
/// kinds.)
fn on_table(game: &Game, kinds: &[TerrainKind]) -> bool {
    game.terrain.iter().any(|t| kinds.contains(&t.kind))
}

/// The terrain under a unit.
pub fn footing(game: &Game, unit: UnitId) -> Footing {
    footing_of(game, &game.unit(unit).bases)
}

fn is_infantry(game: &Game, unit: UnitId) -> bool {
    game.unit_profile(unit).kind == UnitKind::Infantry
}

fn is_cavalry(game: &Game, unit: UnitId) -> bool {
    game.unit_profile(unit).is_mounted()
}

/// Why `unit` has terrain Advantage over `enemies` in close combat, if it has (BFS-TER-12 and
/// each terrain's entry). `enemies` are the enemy units it fights.
pub fn advantage_reason(
    game: &Game,
    unit: UnitId,
    enemies: &[UnitId],
) -> Option<(&'static str, &'static str)> {
    if enemies.is_empty() {
        return None;
    }
    let me = footing(game, unit);
    let them: Vec<Footing> = enemies.iter().map(|e| footing(game, *e)).collect();
    let defending = game.unit(unit).order == Some(OrderKind::Defense);
    let infantry = is_infantry(game, unit);
    let any_enemy = |f: &dyn Fn(usize) -> bool| (0..enemies.len()).any(f);
    let enemy_cavalry = |i: usize| is_cavalry(game, enemies[i]);
    use TerrainKind as K;

    // A garrison with a Defense Order holds its building (BFS-TER-30).
    if defending && game.unit(unit).garrison.is_some() {
        return Some(("BFS-TER-30", "a garrison defending its building"));
    }
    // Wagons defended from behind count as an obstacle (BFS-WGN-5, BFS-WAG-7).
    if defending
        && enemies
            .iter()
            .any(|e| crate::wagon::assault::across(game, *e, unit).is_some())
    {
        return Some(("BFS-WGN-5", "defending from behind wagons, as an obstacle"));
    }
    // An obstacle defended: a Defense Order behind it (BFS-TER-27, BFS-TER-32).
    if defending
        && enemies
            .iter()
            .any(|e| crate::obstacle::defends_across(game, unit, *e).is_some())
    {
        return Some(("BFS-TER-27", "defending an obstacle"));
    }
    // Stream (and a ford, which counts as one): the bank against the water, any Order.
    let wet = |f: &Footing| f.partly(K::Stream) || f.partly(K::Ford);
    if !wet(&me) && them.iter().any(wet) {
        return Some((
            "BFS-TER-16",
            "fighting from the bank against a unit in the stream",
        ));
    }
    // Swamp: infantry defending in it, or infantry against cavalry caught in it; otherwise the
    // units outside against those inside.
    if infantry && defending && me.wholly(K::Marsh) {
        return Some(("BFS-TER-19", "infantry defending a swamp"));
    }
    if infantry && any_enemy(&|i| enemy_cavalry(i) && them[i].partly(K::Marsh)) {
        return Some(("BFS-TER-19", "infantry against cavalry in the swamp"));
    }
    if !me.partly(K::Marsh) && them.iter().any(|f| f.partly(K::Marsh)) {
        return Some((
            "BFS-TER-19",
            "fighting from firm ground against a unit in the swamp",
        ));
    }
    // Forest: infantry against anything but infantry; without a Defense Order the enemy must
    // be in the forest too.
    if infantry
        && me.wholly(K::Forest)
        && enemies.iter().any(|e| !is_infantry(game, *e))
        && (defending || them.iter().any(|f| f.partly(K::Forest)))
    {
        return Some(("BFS-TER-23", "infantry in the forest against horse"));
    }
    // Grove: infantry against cavalry, both in the grove, or the infantry defending it.
    if infantry
        && me.wholly(K::Grove)
        && any_enemy(&|i| enemy_cavalry(i))
        && (defending || them.iter().any(|f| f.partly(K::Grove)))
    {
        return Some(("BFS-TER-24", "infantry in the grove against cavalry"));
    }
    // Built-up area: infantry, any Order, except against infantry.
    if infantry && me.wholly(K::BuiltUpArea) && enemies.iter().any(|e| !is_infantry(game, *e)) {
        return Some(("BFS-TER-28", "infantry holding a village against horse"));
    }
    // Slopes: the higher unit, any Order (a unit on the hill is higher than one off it).
    for (kind, rule) in [(K::SteepHill, "BFS-TER-21"), (K::Hill, "BFS-TER-20")] {
        if me.wholly(kind) && them.iter().all(|f| !f.partly(kind)) {
            return Some((rule, "fighting downhill from the higher ground"));
        }
    }
    None
}

/// Terrain Advantage in Combat Resolution (BFS-TER-12): +2 for infantry with a Defense Order
/// fighting only cavalry, +1 otherwise.
pub fn advantage(game: &Game, unit: UnitId, enemies: &[UnitId]) -> Option<Modifier> {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return None;
    }
    let (rule, why) = advantage_reason(game, unit, enemies)?;
    let only_cavalry = enemies.iter().all(|e| is_cavalry(game, *e));
    // A gun on its fortified base counts as infantry defending an obstacle (BFS-ART-19).
    let as_infantry = is_infantry(game, unit)
        || enemies
            .iter()
            .any(|e| crate::fortified_gun::defends_against(game, unit, *e));
    let value = if as_infantry && game.unit(unit).order == Some(OrderKind::Defense) && only_cavalry
    {
        2
    } else {
        1
    };
    Some(Modifier::new(
        rule,
        format!("terrain Advantage: {why} (BFS-TER-12)"),
        value,
    ))
}

/// The attacker's to-hit penalty for striking a defender that holds terrain giving it
/// Advantage (BFS-TER-11): −1, or −2 for cavalry attacking infantry.
pub fn attack_penalty(game: &Game, attacker: UnitId, target: UnitId) -> Option<Modifier> {
    if !crate::revision::ground_rules(game.info.options.rules_revision)
        || game.unit(target).order != Some(OrderKind::Defense)
    {
        return None;
    }
    let (rule, why) = advantage_reason(game, target, &[attacker])?;
    let as_infantry =
        is_infantry(game, target) || crate::fortified_gun::defends_against(game, target, attacker);
    let delta = if is_cavalry(game, attacker) && as_infantry {
        -2
    } else {
        -1
    };
    Some(Modifier::new(
        "BFS-TER-11",
        format!("attacking a unit defending good ground ({why}, {rule})"),
        delta,
    ))
}

/// The Armor a unit's ground raises it to (BFS-TER-13), as a modifier on its Armor test.
pub fn armor_raise(game: &Game, unit: UnitId) -> Option<Modifier> {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return None;
    }
    // Infantry holding a building: Armor 6 (BFS-TER-30).
    if game.unit(unit).garrison.is_some() {
        let base = game.unit_profile(unit).armor as i32;
        let infantry = game.unit_profile(unit).kind == UnitKind::Infantry;
        return (infantry && base < 6)
            .then(|| Modifier::new("BFS-TER-30", "infantry in a building: Armor 6", 6 - base));
    }
    if !on_table(
        game,
        &[
            TerrainKind::Forest,
            TerrainKind::Grove,
            TerrainKind::BuiltUpArea,
        ],
    ) {
        return None;
    }
    let base = game.unit_profile(unit).armor as i32;
    let f = footing(game, unit);
    let kind = game.unit_profile(unit).kind;
    let infantry = kind == UnitKind::Infantry;
    let open_order = game.unit(unit).formation == Formation::OpenOrder;
    // "Raised to N" is max(A, N); in a forest a unit already that well armoured gets +1.
    let raised = |to: i32| if base >= to { base + 1 } else { to };
    let mut best: Option<(i32, &'static str)> = None;
    let mut consider = |armor: i32, why: &'static str| {
        if armor > base && best.is_none_or(|(a, _)| armor > a) {
            best = Some((armor, why));
        }
    };
    if f.wholly(TerrainKind::Forest) {
        if infantry {
            consider(
                raised(6),
                "infantry in a forest: Armor 6, or +1 if already 6",
            );
        } else {
            consider(raised(4), "in a forest: Armor 4, or +1 if already 4");
        }
    }
    if f.wholly(TerrainKind::Grove) {
        if infantry && open_order {
            consider(5, "Open Order infantry in a grove: Armor 5");
        } else {
            consider(3, "in a grove: Armor 3");
        }
    }
    if f.wholly(TerrainKind::BuiltUpArea)
        && matches!(kind, UnitKind::Infantry | UnitKind::Artillery)
    {
        consider(4, "in a built-up area: Armor 4");
    }
    best.map(|(armor, why)| Modifier::new("BFS-TER-13", why, armor - base))
}

/// Does an Open Order unit on this ground still count as having Poor Tactical Discipline
/// (BFS-TER-14)? Only on open ground and fields.
pub fn open_order_is_undisciplined(game: &Game, unit: UnitId) -> bool {
    !crate::revision::ground_rules(game.info.options.rules_revision)
        || footing(game, unit).open_or_fields()
}

/// Why a unit may not shoot from where it stands, if it may not: infantry and artillery in a
/// stream (BFS-TER-16), infantry in a swamp (BFS-TER-19).
pub fn cannot_shoot_from(game: &Game, unit: UnitId) -> Option<&'static str> {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return None;
    }
    if !on_table(
        game,
        &[TerrainKind::Stream, TerrainKind::Ford, TerrainKind::Marsh],
    ) {
        return None;
    }
    let kind = game.unit_profile(unit).kind;
    let f = footing(game, unit);
    let foot_or_guns = matches!(kind, UnitKind::Infantry | UnitKind::Artillery);
    if foot_or_guns && (f.partly(TerrainKind::Stream) || f.partly(TerrainKind::Ford)) {
        Some("infantry and artillery standing in a stream cannot shoot (BFS-TER-16)")
    } else if kind == UnitKind::Infantry && f.partly(TerrainKind::Marsh) {
        Some("infantry standing in a swamp cannot shoot (BFS-TER-19)")
    } else {
        None
    }
}

/// The terrain impassable to `unit` (BFS-TER-1) that any of `bases` would stand in, if any: a turn
/// or a swing that would put a base there may not be made.
pub fn impassable_under(game: &Game, unit: UnitId, bases: &[Rect]) -> Option<TerrainKind> {
    let p = game.unit_profile(unit);
    let footing = footing_of(game, bases);
    game.terrain
        .iter()
        .find(|t| {
            crate::geo::terrain_class(t.kind, p) == crate::geo::TerrainClass::Impassable
                && footing.partly(t.kind)
        })
        .map(|t| t.kind)
}

/// The woods a unit shoots out of (BFS-TER-23, BFS-TER-24).
const WOODS: [TerrainKind; 2] = [TerrainKind::Forest, TerrainKind::Grove];

/// How close to a wood's boundary (cm) a base's front edge must come to stand on the wood's
/// edge: touching, within the table's contact tolerance.
const WOOD_EDGE_CM: f32 = sandtable_geometry::tolerance::CONTACT_EPS;

/// Why only the first rank of `unit` may shoot, if so: it stands partly in a forest or grove
/// (BFS-TER-23, BFS-TER-24; rules revision 15). No Salvo, no Ranked Fire, no caracole's rear
/// ranks from a wood.
pub fn first_rank_only(game: &Game, unit: UnitId) -> Option<&'static str> {
    if !crate::revision::shooting_out_of_woods(game.info.options.rules_revision)
        || !on_table(game, &WOODS)
    {
        return None;
    }
    let f = footing(game, unit);
    if f.partly(TerrainKind::Forest) {
        Some("only the first rank shoots out of a forest (BFS-TER-23)")
    } else if f.partly(TerrainKind::Grove) {
        Some("only the first rank shoots out of a grove (BFS-TER-24)")
    } else {
        None
    }
}

/// The penalty for shooting from `base` of a unit: −1 when the base stands in a forest or grove
/// but not on its edge, its front edge short of the wood's boundary (BFS-TER-23, BFS-TER-24:
/// "a Unit whose Base edge touches the forest edge suffers no penalty from that forest when
/// shooting at targets outside it"; rules revision 15). Sight reaches 5 cm out of a wood
/// (BFS-TER-9), so only bases standing less deep than that ever see a target to take it.
pub fn shooting_from_inside_a_wood(game: &Game, base: &Rect) -> Option<Modifier> {
    if !crate::revision::shooting_out_of_woods(game.info.options.rules_revision)
        || !on_table(game, &WOODS)
    {
        return None;
    }
    let edge = base.edge(sandtable_geometry::Edge::Front);
    let front = [edge.a, edge.midpoint(), edge.b];
    wood_penalty(
        game,
        |piece| {
            piece.overlap_area(base).unwrap_or(0.0) > 1e-3
                && !front.iter().any(|&p| {
                    !piece.polygon.contains(p) || piece.polygon.boundary_distance(p) <= WOOD_EDGE_CM
                })
        },
        |wood| format!("shooting from inside a {wood}, not from its edge"),
    )
}

/// −1 for the first forest or grove on the table that `hits` (BFS-TER-23 for a forest, BFS-TER-24
/// for a grove), its reason worded by `why` from the wood's name: the one shape of both wood
/// penalties on shooting.
fn wood_penalty(
    game: &Game,
    hits: impl Fn(&sandtable_geometry::terrain::TerrainPiece) -> bool,
    why: impl Fn(&str) -> String,
) -> Option<Modifier> {
    crate::geo::terrain_pieces(game).iter().find_map(|piece| {
        let kind = game.terrain.get(piece.id as usize)?.kind;
        if !WOODS.contains(&kind) || !hits(piece) {
            return None;
        }
        let (rule, wood) = if kind == TerrainKind::Forest {
            ("BFS-TER-23", "forest")
        } else {
            ("BFS-TER-24", "grove")
        };
        Some(Modifier::new(rule, why(wood), -1))
    })
}

/// The penalty for a line of fire `from`→`to` from the shooting base `base` at the target base
/// `target` that runs through a forest or grove standing under neither of them: −1. The quick
/// reference gives "Shooting at Bases in this terrain or through this terrain: −1" under both
/// Forest and Grove (000 l.9407-9413; BFS-TER-24, and the source over the BFS-TER-23 digest,
/// which lists only the shot at a target in a forest); rules revision 16. A wood under the
/// shooting base is its own, judged by [`shooting_from_inside_a_wood`] with its edge exemption;
/// a wood under the target base is cover (BFS-SHO-17), or none for a base only partly in it
/// (BFS-TER-6), and not counted twice. Sight reaches only 5 cm into a wood (BFS-TER-9), so such
/// a line clips a wood's corner or edge. One −1 however many woods the line crosses: it is one
/// modifier for "shooting through vision-blocking terrain".
pub fn shooting_through_a_wood(
    game: &Game,
    base: &Rect,
    target: &Rect,
    from: sandtable_geometry::Vec2,
    to: sandtable_geometry::Vec2,
) -> Option<Modifier> {
    if !crate::revision::shooting_through_woods(game.info.options.rules_revision)
        || !on_table(game, &WOODS)
    {
        return None;
    }
    wood_penalty(
        game,
        |piece| {
            piece.overlap_area(base).unwrap_or(0.0) <= 1e-3
                && piece.overlap_area(target).unwrap_or(0.0) <= 1e-3
                && sandtable_geometry::terrain::segment_length_inside(&piece.polygon, from, to)
                    .unwrap_or(0.0)
                    > WOOD_EDGE_CM
        },
        |wood| format!("shooting through a {wood}"),
    )
}

/// Cavalry cannot build up speed through standing crops or furrows: a charger with a base in a
/// wheat or ploughed field gets no Impetus (BFS-TER-25, BFS-TER-26).
pub fn stops_impetus(game: &Game, unit: UnitId) -> Option<&'static str> {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return None;
    }
    if !on_table(game, &[TerrainKind::WheatField, TerrainKind::PloughedField]) {
        return None;
    }
    let set_out_from_one = game
        .unit(unit)
        .charge
        .as_ref()
        .is_some_and(|c| c.through_field);
    let f = footing(game, unit);
    if f.partly(TerrainKind::WheatField) || set_out_from_one {
        Some("BFS-TER-25")
    } else if f.partly(TerrainKind::PloughedField) {
        Some("BFS-TER-26")
    } else {
        None
    }
}

/// Whether moving a unit from `before` to `after` needs a Skill test first, and why: infantry
/// climbing or moving on a steep slope tests for every move (BFS-TER-21); guns and wagons test
/// when they enter ground where they may bog down, a stream or a grove (BFS-TER-7, BFS-TER-15).
pub fn entry_test(
    game: &Game,
    unit: UnitId,
    before: &[Rect],
    after: &[Rect],
) -> Option<(&'static str, &'static str)> {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return None;
    }
    let kind = game.unit_profile(unit).kind;
    let (from, to) = (footing_of(game, before), footing_of(game, after));
    let steep = |f: &Footing| f.partly(TerrainKind::SteepHill);
    if kind == UnitKind::Infantry && (steep(&from) || steep(&to)) {
        return Some((
            "BFS-TER-21",
            "infantry on a steep slope tests Skill for every move",
        ));
    }
    if matches!(kind, UnitKind::Artillery | UnitKind::Wagon) {
        let bogs = [TerrainKind::Stream, TerrainKind::Ford, TerrainKind::Grove];
        if bogs.iter().any(|k| to.partly(*k) && !from.partly(*k)) {
            return Some((
                "BFS-TER-7",
                "guns and wagons may bog down entering this ground",
            ));
        }
    }
    None
}

/// The higher of two Armor raises ("raised to N" does not add up, BFS-TER-13).
pub fn higher_raise(a: Option<Modifier>, b: Option<Modifier>) -> Option<Modifier> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.delta > a.delta { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// How far a cavalry unit's Additional Move may take it when it stands in, or charges into,
/// standing crops or furrows: +10 cm at most (BFS-TER-25, BFS-TER-26).
pub const FIELD_ADDITIONAL_CAP_CM: f32 = 10.0;

/// The cap on a mounted unit's Additional Move where any of `bases` is in a wheat or ploughed
/// field, with its rule.
pub fn field_cap(game: &Game, unit: UnitId, bases: &[Rect]) -> Option<(f32, &'static str)> {
    if !crate::revision::ground_rules(game.info.options.rules_revision)
        || !game.unit_profile(unit).is_mounted()
        || !on_table(game, &[TerrainKind::WheatField, TerrainKind::PloughedField])
    {
        return None;
    }
    let f = footing_of(game, bases);
    if f.partly(TerrainKind::WheatField) {
        Some((FIELD_ADDITIONAL_CAP_CM, "BFS-TER-25"))
    } else if f.partly(TerrainKind::PloughedField) {
        Some((FIELD_ADDITIONAL_CAP_CM, "BFS-TER-26"))
    } else {
        None
    }
}
