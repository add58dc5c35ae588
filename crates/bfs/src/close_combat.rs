//! The Close Combat stage (BFS-CC-1): Additional Moves, Reaction Fire, Shooting while Charging,
//! two rounds of close combat: who fights whom, and the blows (Impetus, first strike, weapons,
//! pike support). Each round's Combat Resolution, Flights, Withdrawals and Pursuits are in
//! [`crate::combat_result`].
//!
//! Not yet modelled (docs/rules-coverage.md): terrain Advantage in close combat (BFS-TER-12) and
//! its to-hit penalties, commanders at risk (BFS-CDR-11), a commander paying to stop a pursuit,
//! the wiped-out "breakthrough" charge (BFS-CC-27), lances kept after wiping out a small enemy.

use crate::charge;
use crate::combat_result::{pursue, resolve};
use crate::dice::{DiceChange, Modifier, PoolSpec};
use crate::event::{ArmorReport, Event, MeleeGroup, MeleeReport};
use crate::flight;
use crate::ids::UnitId;
use crate::losses::{self, LossCause};
use crate::profile::UnitKind;
use crate::shooting::{self, FireStage};
use crate::state::{ChargeState, Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use crate::weapons::{FirstStrike, MeleeWeapon};
use sandtable_geometry::Edge;
use sandtable_geometry::contact::{self, Corner, Feature};

/// Close combat weapons reach this far (BFS-CC-8 step 5, BFS-CCW-1).
pub const REACH_CM: f32 = 2.0;

/// Runs the whole Close Combat stage.
pub fn resolve_stage(game: &mut Game, events: &mut Vec<Event>) {
    charge::additional_moves(game, events);
    shooting::resolve_stage(game, FireStage::ReactionFire, events);
    let engaged = chargers_in_contact(game);
    shooting::resolve_stage(game, FireStage::WhileCharging, events);
    // A target driven off by Shooting while Charging is not fought in the First Round but
    // pursued as if beaten (BFS-CC-6, BFS-CC-28).
    let mut pursuers = driven_off(game, &engaged, events);
    for combat in combats(game) {
        // Wagons nobody defends lose at once (BFS-WAG-6).
        if crate::wagon::assault::overrun(game, &combat, events) {
            continue;
        }
        if let Some(outcome) = fight(game, &combat, 1, events) {
            pursuers.extend(outcome);
        }
    }
    let mut second = Vec::new();
    for (winner, loser) in pursuers {
        if pursue(game, winner, loser, events) {
            second.push(winner);
        }
    }
    for combat in combats(game) {
        if combat.iter().any(|u| second.contains(u)) {
            // A pursuit that runs into wagons takes them if nobody defends them, and fights no
            // Second Round across them (BFS-WGN-4).
            if crate::wagon::assault::overrun(game, &combat, events) {
                continue;
            }
            if crate::wagon::assault::is_wagon_fight(game, &combat) {
                events.push(Event::Ruling {
                    rule: "BFS-WGN-4".into(),
                    text: "The pursuit ran into defended wagons: no Second Round is fought across them.".into(),
                });
                continue;
            }
            fight(game, &combat, 2, events);
            // Winners of the second round are left with no order unless Defense (BFS-CC-32).
            for u in &combat {
                let unit = game.unit_mut(*u);
                if unit.status == UnitStatus::OnTable && unit.order == Some(OrderKind::Charge) {
                    unit.order = None;
                    unit.charge = None;
                }
            }
        }
    }
    for u in game.units.iter_mut() {
        if u.flags.fought && u.charge.as_ref().is_some_and(|c| !c.carried_over) {
            u.charge = None;
        }
        u.flags.fled_this_step = false;
    }
}

/// Each charger in contact with the unit it charged, before the volleys of step 3.
fn chargers_in_contact(game: &Game) -> Vec<(UnitId, UnitId)> {
    game.units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
        .filter_map(|u| {
            let c = u.charge.as_ref().filter(|c| c.contact && !c.pursuit)?;
            flight::enemies_in_contact(game, u.id)
                .contains(&c.target)
                .then_some((u.id, c.target))
        })
        .collect()
}

/// The (charger, target) pairs whose target withdrew or fled from the volleys of step 3 before the First
/// Round: the charger pursues it as if it had won a combat (BFS-CC-6, BFS-CC-28).
fn driven_off(
    game: &Game,
    engaged: &[(UnitId, UnitId)],
    events: &mut Vec<Event>,
) -> Vec<(UnitId, UnitId)> {
    let mut out = Vec::new();
    for &(charger, target) in engaged {
        let t = game.unit(target);
        let gone = t.status != UnitStatus::OnTable
            || !flight::enemies_in_contact(game, charger).contains(&target);
        if t.status == UnitStatus::OnTable && gone && t.morale != MoraleLevel::Good {
            events.push(Event::Ruling {
                rule: "BFS-CC-6".into(),
                text: format!(
                    "{} broke under fire before the First Round: no blows are struck, and {} \
                     pursues it as if it had won the combat (BFS-CC-28)",
                    t.name,
                    game.unit(charger).name
                ),
            });
            out.push((charger, target));
        }
    }
    out
}

/// Groups of units in contact with enemies: each is one combat (BFS-CC-23), in unit id order.
pub fn combats(game: &Game) -> Vec<Vec<UnitId>> {
    let live: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
        .map(|u| u.id)
        .collect();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for &start in &live {
        if seen.contains(&start) || flight::enemies_in_contact(game, start).is_empty() {
            continue;
        }
        let mut group = vec![start];
        let mut i = 0;
        while i < group.len() {
            // Infantry defending charged wagons from behind joins their fight (BFS-WGN-5).
            for e in flight::enemies_in_contact(game, group[i])
                .into_iter()
                .chain(crate::wagon::assault::defenders_of(game, group[i]))
            {
                if !group.contains(&e) {
                    group.push(e);
                }
            }
            i += 1;
        }
        group.sort();
        seen.extend(group.iter().copied());
        out.push(group);
    }
    out
}

/// One base's attack: which enemy base it strikes and how (BFS-CC-8).
#[derive(Debug, Clone, Copy)]
struct Attack {
    base: usize,
    target: UnitId,
    /// The enemy is at this base's front (edge or corner): the charging effectiveness applies.
    at_front: bool,
    /// The enemy is on this base's flank or rear: one die fewer (BFS-CC-15).
    from_flank_or_rear: bool,
    /// The enemy base struck, when it touches: a War Wagon Train's blows land wagon by wagon
    /// (BFS-WAG-15).
    target_base: Option<usize>,
}

/// Pistols in close combat, under the Ammunition rules (BFS-WPN-5): the bases fighting, when the
/// unit has pistols and ammunition for them. It must use them: +1 to hit, spent as if fired.
fn pistol_bases(game: &Game, unit: UnitId, list: &[Attack]) -> Option<u32> {
    let mut bases: Vec<usize> = list.iter().map(|a| a.base).collect();
    bases.sort();
    bases.dedup();
    let n = bases.len() as u32;
    (n > 0 && crate::ammunition::pistols_in_combat(game, unit, n)).then_some(n)
}

/// Each fighting base of `unit` picks its target by the priorities of BFS-CC-8.
fn attacks(game: &Game, unit: UnitId, enemies: &[UnitId]) -> Vec<Attack> {
    let u = game.unit(unit);
    let mut out = Vec::new();
    for (i, b) in u.bases.iter().enumerate() {
        // Across wagons, the bases touching the same wagon fight each other (BFS-WGN-5).
        if let Some(blow) = crate::wagon::assault::attack_across(game, unit, i, enemies) {
            out.push(Attack {
                base: i,
                target: blow.target,
                at_front: blow.at_front,
                from_flank_or_rear: blow.from_flank_or_rear,
                target_base: None,
            });
            continue;
        }
        // A war wagon without a crew neither fights nor shoots (BFS-WAG-16).
        if crate::wagon::train::is_train(game, unit)
            && !crate::wagon::train::wagon_crewed(game, unit, i)
        {
            continue;
        }
        let mut best: Option<(u8, f32, Attack)> = None;
        let mut front_touched = false;
        for &e in enemies {
            if crate::wagon::crewless(game, e) {
                continue;
            }
            for (j, eb) in game.unit(e).bases.iter().enumerate() {
                let Ok(c) = contact::contact(b, eb) else {
                    continue;
                };
                if !c.in_contact() {
                    continue;
                }
                let front_len = c.length_on_a(Edge::Front);
                let (prio, at_front, flank) = if front_len > 0.01 {
                    front_touched = true;
                    (1, true, false)
                } else if c.corners_a[Corner::FrontLeft.index()]
                    || c.corners_a[Corner::FrontRight.index()]
                {
                    front_touched = true;
                    (2, true, false)
                } else if c.length_on_a(Edge::Left) > 0.01
                    || c.length_on_a(Edge::Right) > 0.01
                    || matches!(c.feature_a, Some(Feature::Edge(Edge::Left | Edge::Right)))
                {
                    (3, false, true)
                } else {
                    (4, false, true)
                };
                // A war wagon fights from its long sides as a front, and its crew rolls one die
                // fewer at its short ends (BFS-WAG-15).
                let flank = if crate::wagon::train::is_train(game, unit) {
                    crate::wagon::train::at_short_end(&c)
                } else {
                    flank
                };
                let a = Attack {
                    base: i,
                    target: e,
                    at_front,
                    from_flank_or_rear: flank,
                    target_base: Some(j),
                };
                if best
                    .as_ref()
                    .is_none_or(|(p, l, _)| prio < *p || (prio == *p && c.edge_length > *l))
                {
                    best = Some((prio, c.edge_length, a));
                }
            }
        }
        // A base attacks its flank only with nothing at its front, its rear only with nothing
        // elsewhere (BFS-CC-8) — the priority order above does exactly that.
        if let Some((_, _, a)) = best {
            out.push(a);
            continue;
        }
        // Step 5: a base touching nobody may strike an enemy within 2 cm of its clear front.
        if front_touched {
            continue;
        }
        for &e in enemies
            .iter()
            .filter(|e| !crate::wagon::crewless(game, **e))
        {
            let near = game.unit(e).bases.iter().any(|eb| {
                sandtable_geometry::distance::distance(b, eb).is_ok_and(|d| d <= REACH_CM)
                    && b.pose.to_local(eb.center()).y > b.half.y
            });
            if near {
                out.push(Attack {
                    base: i,
                    target: e,
                    at_front: true,
                    from_flank_or_rear: false,
                    target_base: None,
                });
                break;
            }
        }
    }
    out
}

/// Cavalry Impetus (BFS-CC-14): +1 or +2 in the round a cavalry unit charges into contact.
fn impetus(game: &Game, unit: UnitId, round: u8, a: &Attack) -> Option<Modifier> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let cs: &ChargeState = u.charge.as_ref()?;
    if round != 1 || !cs.contact || cs.pursuit || !p.is_mounted() || a.from_flank_or_rear {
        return None;
    }
    if cs.start_distance < charge::IMPETUS_RUN_CM - 1e-3
        || cs.straight_run < charge::IMPETUS_RUN_CM - 1e-3
    {
        return None;
    }
    let struck_front = cs.struck.is_none_or(|e| e == Edge::Front);
    if polearms_stop_impetus(game, a.target, struck_front)
        || crate::wagon::assault::stops_impetus(game, unit, a.target)
        || crate::ground::stops_impetus(game, unit).is_some()
        || crate::obstacle::behind(game, a.target, unit).is_some()
    {
        return None;
    }
    let bonus = crate::elite_cavalry::impetus(game, unit, impetus_bonus(p, u.formation));
    (bonus > 0).then(|| {
        Modifier::new(
            "BFS-CC-14",
            format!(
                "Impetus: cavalry charging with +{} Additional Move",
                p.movement.additional
            ),
            bonus,
        )
    })
}

/// The Impetus a cavalry unit of this profile and formation charges with (BFS-CC-14): +2 with an
/// Additional Move of 20 cm or more in close order, +1 with 10 cm or more or in Open Order.
pub fn impetus_bonus(p: &crate::profile::UnitProfile, formation: Formation) -> i32 {
    let open = formation == Formation::OpenOrder;
    if p.movement.additional >= 20.0 && !open {
        2
    } else if p.movement.additional >= 10.0 || open {
        1
    } else {
        0
    }
}

/// Polearms stop Impetus: infantry with a Defense order, struck in front, not in Open Order
/// (BFS-CCW-4).
pub fn polearms_stop_impetus(game: &Game, target: UnitId, struck_front: bool) -> bool {
    let t = game.unit(target);
    let tp = game.unit_profile(target);
    tp.kind == UnitKind::Infantry
        && tp.melee.stats().polearms
        && t.order == Some(OrderKind::Defense)
        // A unit that reformed this turn counts as having no order (BFS-MAN-13).
        && !t.flags.reformed
        && t.formation != Formation::OpenOrder
        && struck_front
}

/// Does this unit strike first this round (BFS-CC-10, BFS-CCW-5)?
fn first_strike(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    if u.morale != MoraleLevel::Good || u.lances_broken {
        return false;
    }
    match game.unit_profile(unit).melee.stats().first_strike {
        FirstStrike::Always => true,
        FirstStrike::WhileCharging => u.charge.as_ref().is_some_and(|c| c.contact && !c.pursuit),
        FirstStrike::Never => false,
    }
}

/// The weapon a unit fights with now: broken lances leave hand weapons (BFS-CCW-7, AMB-31), and
/// a fight at a building's walls is with hand weapons only, garrison and attackers alike
/// (BFS-TER-30; peasant and improvised weapons stay what they are).
fn weapon(game: &Game, unit: UnitId) -> MeleeWeapon {
    let u = game.unit(unit);
    let w = game.unit_profile(unit).melee;
    let at_walls = || {
        u.garrison.is_some()
            || flight::enemies_in_contact(game, unit)
                .iter()
                .any(|e| game.unit(*e).garrison.is_some())
    };
    let lances_gone = u.lances_broken && w.stats().single_use;
    if lances_gone
        || (!matches!(
            w,
            MeleeWeapon::HandWeapons | MeleeWeapon::PeasantWeapons | MeleeWeapon::ImprovisedWeapons
        ) && at_walls())
    {
        MeleeWeapon::HandWeapons
    } else {
        w
    }
}

/// Companions: one more die for every two of the unit's bases that fight this round, not while
/// Disorganized (BFS-SPC-7; AMB-43: the bases that attack, 2 cm reach included; revision 7). The
/// dice go with the strike on the first of its targets, so a unit fighting two gets them once.
fn companions(game: &Game, unit: UnitId, target: UnitId, list: &[Attack]) -> Option<DiceChange> {
    if list.iter().map(|a| a.target).min() != Some(target) {
        return None;
    }
    let mut bases: Vec<usize> = list.iter().map(|a| a.base).collect();
    bases.sort_unstable();
    bases.dedup();
    companions_dice(game, unit, bases.len())
}

/// The Companions' dice for `fighting` bases of `unit` (BFS-SPC-7), for the fight above and
/// the odds preview.
pub(crate) fn companions_dice(game: &Game, unit: UnitId, fighting: usize) -> Option<DiceChange> {
    if !crate::revision::special_rules_7(game.info.options.rules_revision)
        || !game
            .unit_profile(unit)
            .has(crate::profile::SpecialRule::Companions)
        || crate::caracole::fights_disorganized(game, unit)
    {
        return None;
    }
    let extra = fighting / 2;
    (extra > 0).then(|| DiceChange {
        rule: "BFS-SPC-7".into(),
        reason: format!("Companions: {fighting} base(s) fighting, +1 die for every 2"),
        delta: extra as i32,
        base: 0,
    })
}

/// Highlanders: +1 Skill in close combat for a base standing wholly in a forest or grove or on a
/// hill (BFS-SPC-13; revision 6).
fn highlanders(game: &Game, unit: UnitId, base: &sandtable_geometry::Rect) -> Option<Modifier> {
    use sandtable_engine::scenario::TerrainKind as K;
    if !crate::revision::special_rules_6(game.info.options.rules_revision)
        || !game
            .unit_profile(unit)
            .has(crate::profile::SpecialRule::Highlanders)
    {
        return None;
    }
    let f = crate::ground::footing_of(game, std::slice::from_ref(base));
    [K::Forest, K::Grove, K::Hill, K::SteepHill]
        .into_iter()
        .any(|k| f.wholly(k))
        .then(|| {
            Modifier::new(
                "BFS-SPC-13",
                "Highlanders: this base stands in a forest or grove or on a hill",
                1,
            )
        })
}

/// One pool of a unit's blows among several: a War Wagon Train's wagons take theirs one by one
/// (BFS-WAG-15), and a unit may strike more than one enemy. What belongs to the striking unit as
/// a whole (the casualty marker's die, an attached commander's, Companions) comes with its first
/// pool only (BFS-CBT-10, BFS-CDR-13, BFS-SPC-7).
#[derive(Debug, Clone, Copy)]
struct Part {
    first: bool,
    /// Every base of the striking unit fights this enemy (BFS-CBT-10).
    all_fight: bool,
}

/// Rolls one unit's attacks on one enemy unit (or one wagon of a train: `part`).
fn strike(
    game: &mut Game,
    unit: UnitId,
    target: UnitId,
    list: &[Attack],
    round: u8,
    part: Option<Part>,
) -> MeleeReport {
    let u = game.unit(unit).clone();
    let p = game.unit_profile(unit).clone();
    let charging = u.charge.as_ref().is_some_and(|c| c.contact && !c.pursuit) && round == 1;
    let mut dice = p.close_combat as u32;
    // An interrupted caracole fights as Disorganized (BFS-SPC-4).
    if crate::caracole::fights_disorganized(game, unit) {
        dice = dice.min(1);
    }
    let fighting: Vec<&Attack> = list.iter().filter(|a| a.target == target).collect();
    let pistols = pistol_bases(game, unit, list).is_some();
    let mut groups: Vec<(Vec<usize>, i32, Vec<Modifier>, bool)> = Vec::new();
    for a in &fighting {
        let mut mods = Vec::new();
        if pistols {
            mods.push(Modifier::new(
                "BFS-WPN-5",
                "pistols, with ammunition left",
                1,
            ));
        }
        if let Some(m) = impetus(game, unit, round, a) {
            mods.push(m);
        }
        mods.extend(crate::ground::attack_penalty(game, unit, a.target));
        mods.extend(highlanders(game, unit, &u.bases[a.base]));
        mods.extend(crate::dragoons::mounted_penalty(game, unit));
        let mut flank_die = a.from_flank_or_rear && dice > 1;
        if a.from_flank_or_rear && dice <= 1 {
            mods.push(Modifier::new(
                "BFS-CC-15",
                "fighting an enemy on its own flank or rear with 1 die",
                -1,
            ));
            flank_die = false;
        }
        let key = mods.iter().map(|m| m.delta).sum::<i32>();
        match groups
            .iter_mut()
            .find(|g| g.1 == key && g.3 == flank_die && g.2 == mods)
        {
            Some(g) => g.0.push(a.base),
            None => groups.push((vec![a.base], key, mods, flank_die)),
        }
    }
    let all_fight = part.map_or(fighting.len() >= u.bases.len(), |p| p.all_fight);
    let mut report_groups = Vec::new();
    let mut hits = 0;
    // The unit's own dice come once (see [`Part`]); pike support with this pool's first group.
    let mut unit_wide = part.is_none_or(|p| p.first);
    let mut first_group = true;
    for (bases, _, mods, flank_die) in &groups {
        let mut spec = PoolSpec::new(bases.len(), dice, p.skill as i32);
        spec.below_one = game.info.options.below_one;
        spec.modifiers = mods.clone();
        if *flank_die {
            for k in 0..bases.len() {
                spec.dice_changes.push(DiceChange {
                    rule: "BFS-CC-15".into(),
                    reason: "enemy on its flank or rear: 1 die fewer".into(),
                    delta: -1,
                    base: k,
                });
            }
        }
        if unit_wide {
            spec.dice_changes
                .extend(crate::losses::first_base_dice(&u, all_fight));
            spec.dice_changes
                .extend(companions(game, unit, target, list));
            unit_wide = false;
        }
        if first_group {
            spec.dice_changes
                .extend(pike_support_dice(game, unit, bases));
            first_group = false;
        }
        let roll = spec.plan().roll(&mut game.dice);
        hits += roll.successes;
        report_groups.push(MeleeGroup {
            bases: bases.len() as u32,
            roll,
        });
    }
    // Armor tests (BFS-CC-17): charging effectiveness only against bases at the charger's front.
    let w = weapon(game, unit).stats();
    let eff = |at_front: bool| -> i32 {
        if crate::caracole::fights_disorganized(game, unit) && w.cumbersome {
            0
        } else if charging && at_front {
            w.effectiveness.1 as i32
        } else {
            w.effectiveness.0 as i32
        }
    };
    let front_share = fighting.iter().filter(|a| a.at_front).count();
    let e = eff(front_share * 2 >= fighting.len().max(1));
    let tp = game.unit_profile(target);
    let mut armor_mods = Vec::new();
    if e != 0 {
        armor_mods.push(Modifier::new(
            "BFS-CC-17",
            format!(
                "{} effectiveness{}",
                w.name,
                if charging { " when charging" } else { "" }
            ),
            -e,
        ));
    }
    if tp.shields {
        armor_mods.push(Modifier::new("BFS-CCW-11", "shields in close combat", 1));
    }
    armor_mods.extend(crate::ground::higher_raise(
        crate::ground::higher_raise(
            crate::ground::higher_raise(
                crate::ground::armor_raise(game, target),
                crate::obstacle::armor_raise(game, target, unit, false),
            ),
            crate::wagon::cover::armor_raise(game, target),
        ),
        crate::fortified_gun::armor_raise(game, target),
    ));
    let armor_base = tp.armor as i32;
    let test = crate::dice::armor_tests(&mut game.dice, armor_base, armor_mods, hits);
    let saved = test.saved;
    let armor = if hits > 0 { vec![test] } else { Vec::new() };
    MeleeReport {
        round,
        attacker: unit,
        target,
        weapon: w.name.into(),
        groups: report_groups,
        hits,
        armor,
        sp_lost: hits - saved,
        first_strike: first_strike(game, unit),
    }
}

/// The pikes' extra dice when `fighting` bases of `unit` fight: one for each with an unengaged
/// pike base behind it, not while Disorganized (BFS-CCW-6); for the fight and the odds preview.
pub(crate) fn pike_support_dice(
    game: &Game,
    unit: UnitId,
    fighting: &[usize],
) -> Option<DiceChange> {
    let p = game.unit_profile(unit);
    if !p.melee.stats().multiple_ranks || game.unit(unit).morale != MoraleLevel::Good {
        return None;
    }
    let support = pike_support(game, unit, fighting);
    (support > 0).then(|| DiceChange {
        rule: "BFS-CCW-6".into(),
        reason: format!("pikes: {support} base(s) supported by an unengaged pike base behind"),
        delta: support as i32,
        base: 0,
    })
}

/// Pike bases among `fighting` with an unengaged pike base of the unit directly behind
/// (BFS-CCW-6).
fn pike_support(game: &Game, unit: UnitId, fighting: &[usize]) -> u32 {
    let u = game.unit(unit);
    let engaged: Vec<usize> = fighting.to_vec();
    fighting
        .iter()
        .filter(|&&i| {
            let rear = u.bases[i].edge(Edge::Rear);
            u.bases.iter().enumerate().any(|(j, b)| {
                j != i
                    && !engaged.contains(&j)
                    && b.edge(Edge::Front).midpoint().distance(rear.midpoint()) < 0.1
            })
        })
        .count() as u32
}

/// One round of one combat with its resolution. Returns the (winner, loser) pairs to pursue after
/// the first round.
fn fight(
    game: &mut Game,
    combat: &[UnitId],
    round: u8,
    events: &mut Vec<Event>,
) -> Option<Vec<(UnitId, UnitId)>> {
    let side_of = |g: &Game, u: UnitId| g.unit(u).side;
    let enemies_of = |g: &Game, u: UnitId| -> Vec<UnitId> {
        combat
            .iter()
            .copied()
            .filter(|e| side_of(g, *e) != side_of(g, u))
            .collect()
    };
    // Positions before losses decide flank and rear bonuses (BFS-CC-20 note).
    let mut flank_bonus = flank_rear_bonus(game, combat);
    crate::wagon::assault::add_flanks(game, combat, &mut flank_bonus);
    let mut inflicted = [0u32; 2];
    // Wagons have no crew and do not fight (BFS-WAG-6).
    let fighters: Vec<UnitId> = combat
        .iter()
        .copied()
        .filter(|u| {
            game.unit(*u).status == UnitStatus::OnTable
                && game.unit(*u).morale != MoraleLevel::Flight
                && !crate::wagon::crewless(game, *u)
        })
        .collect();
    // First Strike: those units strike and their losses land before the others roll (BFS-CC-10).
    let (first, rest): (Vec<UnitId>, Vec<UnitId>) =
        fighters.iter().partition(|u| first_strike(game, **u));
    let both_first = first
        .iter()
        .any(|a| first.iter().any(|b| side_of(game, *a) != side_of(game, *b)));
    let waves: Vec<Vec<UnitId>> = if first.is_empty() || both_first {
        vec![fighters.clone()]
    } else {
        vec![first, rest]
    };
    for wave in waves {
        let mut damage: Vec<(UnitId, Option<usize>, u32)> = Vec::new();
        let plans: Vec<(UnitId, Vec<Attack>)> = wave
            .iter()
            .filter(|u| game.unit(**u).status == UnitStatus::OnTable)
            .map(|u| (*u, attacks(game, *u, &enemies_of(game, *u))))
            .collect();
        for (unit, list) in plans {
            let pistols = pistol_bases(game, unit, &list);
            let mut targets: Vec<UnitId> = list.iter().map(|a| a.target).collect();
            targets.sort();
            targets.dedup();
            // What belongs to the striking unit as a whole (its casualty marker's die, an
            // attached commander's) comes once, with its first pool, whatever it strikes; and
            // its every base fights when its attacks, on all targets, take them all (BFS-CBT-10,
            // BFS-CDR-13). Before rules revision 10 each target's pool had them.
            let once = crate::revision::wagons(game.info.options.rules_revision);
            let unit_all_fight = {
                let mut bases: Vec<usize> = list.iter().map(|a| a.base).collect();
                bases.sort_unstable();
                bases.dedup();
                bases.len() >= game.unit(unit).bases.len()
            };
            let mut first_pool = true;
            for t in targets {
                // At a War Wagon Train, the blows on each wagon's crew are rolled and counted
                // wagon by wagon; a wagon with no crew takes none (BFS-WAG-15, BFS-WAG-21).
                let parts: Vec<(Option<usize>, Vec<Attack>)> =
                    if crate::wagon::train::is_train(game, t) {
                        let mut wagons: Vec<usize> =
                            list.iter().filter_map(|a| a.target_base).collect();
                        wagons.sort();
                        wagons.dedup();
                        wagons
                            .into_iter()
                            .filter(|w| crate::wagon::train::wagon_crewed(game, t, *w))
                            .map(|w| {
                                let on: Vec<Attack> = list
                                    .iter()
                                    .copied()
                                    .filter(|a| a.target == t && a.target_base == Some(w))
                                    .collect();
                                (Some(w), on)
                            })
                            .collect()
                    } else {
                        vec![(None, list.clone())]
                    };
                let all_fight =
                    list.iter().filter(|a| a.target == t).count() >= game.unit(unit).bases.len();
                for (k, (wagon, on)) in parts.into_iter().enumerate() {
                    let part = if once {
                        Some(Part {
                            first: first_pool,
                            all_fight: unit_all_fight,
                        })
                    } else {
                        wagon.map(|_| Part {
                            first: k == 0,
                            all_fight,
                        })
                    };
                    first_pool = false;
                    let report = strike(game, unit, t, &on, round, part);
                    inflicted[side_of(game, unit).index()] += report.sp_lost;
                    damage.push((t, wagon, report.sp_lost));
                    let faces = armor_faces(&report.armor);
                    events.push(Event::Melee(report));
                    crate::attachment::risk_to_attached(game, t, &faces, events);
                }
            }
            if let Some(n) = pistols {
                crate::ammunition::spend(game, unit, crate::ammunition::Spent::Pistols(n), events);
            }
        }
        for ((t, wagon), sp) in collapse(damage) {
            // Close combat hits only a war wagon's crew (BFS-WAG-13).
            let taken = match wagon {
                Some(w) => {
                    crate::wagon::train::crew_losses(game, t, Some(w), sp, "close combat", events)
                }
                None => {
                    let before = losses::sp_left(game, t);
                    losses::apply(game, t, sp, LossCause::CloseCombat, "close combat", events);
                    sp.min(before)
                }
            };
            // SP beyond what the unit had do not count in the resolution (BFS-CC-17).
            let over = sp.saturating_sub(taken);
            inflicted[side_of(game, t).other().index()] -= over;
        }
    }
    for u in combat {
        game.unit_mut(*u).flags.fought = true;
        if round == 1
            && game.unit(*u).charge.as_ref().is_some_and(|c| c.contact)
            && game.unit_profile(*u).melee.stats().single_use
        {
            // Lances break after the first round (BFS-CCW-7).
            game.unit_mut(*u).lances_broken = true;
        }
    }
    Some(resolve(game, combat, round, inflicted, flank_bonus, events))
}

/// Every die of a set of Armor tests (for the risk to an attached commander, BFS-CDR-11).
pub(crate) fn armor_faces(tests: &[ArmorReport]) -> Vec<u8> {
    tests.iter().flat_map(|a| a.faces.iter().copied()).collect()
}

/// Damage added up by unit (and by wagon, for a War Wagon Train).
fn collapse(v: Vec<(UnitId, Option<usize>, u32)>) -> Vec<((UnitId, Option<usize>), u32)> {
    let mut out: Vec<((UnitId, Option<usize>), u32)> = Vec::new();
    for (u, w, sp) in v {
        match out.iter_mut().find(|x| x.0 == (u, w)) {
            Some(x) => x.1 += sp,
            None => out.push(((u, w), sp)),
        }
    }
    out
}

/// Flank (+1 each, at most +2) and rear (+2) bonuses for each side, from charges that struck
/// an enemy's flank or rear (BFS-CC-20, BFS-CC-21).
fn flank_rear_bonus(game: &Game, combat: &[UnitId]) -> [(i32, i32); 2] {
    let mut out = [(0, 0); 2];
    let mut flanks: Vec<(UnitId, Edge)> = Vec::new();
    for &u in combat {
        let unit = game.unit(u);
        if let Some(cs) = unit
            .charge
            .as_ref()
            .filter(|c| c.contact && combat.contains(&c.target))
            // No flank or rear bonus against wagons (BFS-WAG-15).
            .filter(|c| !crate::wagon::any_wagon(game, c.target))
            && let Some(edge) = cs.struck
        {
            let s = unit.side.index();
            match edge {
                Edge::Left | Edge::Right if !flanks.contains(&(cs.target, edge)) => {
                    flanks.push((cs.target, edge));
                    out[s].0 = (out[s].0 + 1).min(2);
                }
                Edge::Rear => out[s].1 = 2,
                _ => {}
            }
        }
    }
    out
}
