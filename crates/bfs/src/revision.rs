//! Revisions of the rules engine that change how a battle already recorded plays out.
//!
//! A save is a seed and a list of commands: replaying it must give the same battle. When a ruling
//! is corrected (the book was misread), a battle saved before the fix would replay differently and
//! could even stop at a command that is no longer legal. So every battle records the revision it
//! was played under ([`crate::BattleSetup::rules_revision`]), and the engine keeps each corrected
//! ruling's old reading for the revisions before the fix. New battles always use
//! [`CURRENT`]. A revision is not a player's choice: options of the book are in
//! [`crate::options`].
//!
//! | Revision | Changed |
//! |---|---|
//! | 0 | The rules as first written (saves without a `rules_revision` field). |
//! | 1 | BFS-CHG-22: a countercharger moves exactly to the halfway line, not 0.5 cm past it. |
//! | 2 | The ground in combat ([`crate::ground`]): terrain Advantage, to-hit penalties and Armor (BFS-TER-11..13), Open Order discipline by terrain (BFS-TER-14), who cannot shoot from a stream or swamp, cover only for bases wholly in it (BFS-TER-6), no Impetus and +10 cm of Additional Move at most for cavalry charging through fields (BFS-TER-25/26), Skill tests to move on steep slopes and to enter bogging ground (BFS-TER-7, BFS-TER-21), hills that hide what is behind them (BFS-TER-9, BFS-TER-20), cover and Armor behind obstacles (BFS-TER-27, BFS-TER-32), no maneuver that ends a base in ground impassable to it (BFS-TER-4), no rallied unit reformed on top of a friend (both found by the property tests), a lone commander making way for enemies and friends (BFS-CDR-5, BFS-CDR-6), no move ending on a friendly commander (BFS-CDR-3). |
//! | 3 | Open Order ([`crate::open_order`]): each base of an Open Order unit moves on its own account, paying the path of its corners, backwards at full speed, turns free of the maneuver limit (BFS-OO-3); spacing and facing checked after the move (BFS-OO-2/3); Light Cavalry, Skirmishers, Highlanders and Commanded Musketeers deployed and rallied in Open Order (BFS-OO-1); swamps, forests and built-up areas put a unit into Open Order and leaving them takes it out (BFS-TER-8); the switch between the orders as a maneuver (BFS-MAN-17..19); withdrawals through friends and Disorganization spreading ([`crate::withdrawal`], BFS-PSY-18); a fleeing unit whose turn would swing a base into impassable ground turns its bases in place (found by the property tests). |
//! | 4 | Regiment Motivation at Division level ([`crate::motivation`], BFS-PSY-25..30): Breaking Points, the Regimental Commander's test in the Reorganization Phase, Regiments Wiped Out, Allied Regiments leaving with their Commander-in-Chief, a side with every Regiment Wiped Out losing the battle. A lone commander who is the closest target within 30 cm is shot at, and a hit he does not save makes him test Skill once per hit, to escape or fall (BFS-CDR-7, BFS-CDR-9, BFS-CDR-10); a lone commander fires his own weapon once a turn (BFS-CDR-16). An Open Order unit charges base by base ([`crate::open_order_charge`], BFS-OO-7..10). A unit marches along a road through a wood or village (BFS-TER-22). |
//! | 5 | Chains of charge reactions (BFS-AMV-1): a unit of the charging side that a countercharge would run into may react to it, and the reactions are carried out last declared first. A lone commander who is the closest target within 30 cm may be charged, and may Break Off or join a unit (BFS-CDR-7, BFS-CDR-8). A base moving straight no longer slips through a corner it meets almost head on (found by the property tests: a charge ended inside a friend). |
//! | 6 | Special rules of the army lists: a Militia or Rabble unit tests Morale to charge a more numerous enemy, and on a failure stays put with no order (BFS-SPC-18, BFS-SPC-25); a No Quarter unit always pursues, infantry the cavalry it beat too, and one with no Additional Move pursues 5 cm (BFS-SPC-20); a Mobility unit with a Defense or Charge order tests Skill in the Reorganization Phase or takes a Move order, and one with no order gets a Move order (BFS-SPC-19); Highlanders strike at +1 Skill from a base wholly in a forest, grove or on a hill (BFS-SPC-13); Marksmen in two ranks with a Defense order shoot at +1 Skill from one front base per base behind (BFS-SPC-17); an Independent unit takes any order for free, face up (BFS-SPC-14); Light Cavalry may Break Off from a charge, its full Move (half if it has moved) straight away from the charger, then a Skill test to face it, and withdraws its full Move after a lost combat (BFS-SPC-16). |
//! | 7 | Special rules of the army lists, second part: a To the Last Man unit with a Defense order rolls a failed Morale test again when that is expected to cost it less (BFS-SPC-33); Companions roll one more close combat die for every two bases fighting, unless Disorganized (BFS-SPC-7). |
//! | 8 | A Rifled Barrels unit fires its rifles (20/50 cm, Shooting 1, Effectiveness 1/0) instead of its weapon when the rules' odds favour them (BFS-SPC-27); a Countermarch unit in two ranks or more with a Defense order fires again in Shooting after Movement, with no −1 (BFS-SPC-8). Artillery ([`crate::artillery`]) came with this revision too, but needs no gate: no battle before it could field a gun. |
//! | 9 | Salvo and Ranked Fire ([`crate::shooting::ranks`]): a Salvo unit in two ranks fires with both, a Ranked Fire unit with a Defense order with up to three, and reloads the next turn; a Salvo in Reaction Fire that takes Strength off the charger makes it test Morale (BFS-SPC-26, BFS-SPC-29). Commanded Musketeers see all round, lose Salvo and Countermarch, take no −1 after movement with muskets and a Defense order free and face up (BFS-SPC-5, [`crate::commanded`]). Feigned Flight faces its charger after a Break Off without a test and shoots at it in Reaction Fire (BFS-SPC-11, [`crate::feigned_flight`]); the Light Cavalry rules it borrows apply from revision 6, as no recorded battle fielded a unit with it. Instructions at Division level ([`crate::instructions`], BFS-ORD-11..14): a Regimental commander with none pays 1 CP more an order, and contrary orders 1 CP more once turned up. Rabble's formation: no wider than deep in Close Order, and a Reform first when out of it (BFS-SPC-25, [`crate::rabble`]). Bows shoot over their own unit and over friends in Open Order, 1 die a base (BFS-SHO-5). The optional rules Ammunition, Hail of arrows and Group orders came with this revision too, but need no gate: the first two are off unless a scenario names them, and a group order is a new command that no recorded battle holds. |
//! | 10 | Wagons ([`crate::wagon`], BFS-WAG-1..11): a charge on wagons wins at once and the wagons are taken or destroyed, the chargers lose their Charge order and withdraw; infantry with a Defense order fights from behind them and climbs on them to shoot; a unit behind friendly wagons loses its Charge order; an ammunition wagon is shot at only as the closest target, restocks units and explodes. Wagons take no Morale tests and no Charge order. War Wagon Trains ([`crate::wagon::train`], BFS-WAG-12..20) are fought wagon by wagon and lose crews instead of fleeing. No recorded battle had a wagon on the table, so the gate only keeps the old refusals. A unit moving on beside a friend it only touches no longer counts as passing through it (found with the wagons drawn up side by side). A unit striking two enemies rolls its unit-wide dice (its casualty marker's, an attached commander's) once, not once a target (BFS-CBT-10, BFS-CDR-13). |
//! | 11 | Succession ([`crate::succession`], BFS-CMD-6): when a Regimental commander falls or leaves the table, his 2nd (else 3rd) in Command becomes the Regiment's Regimental commander and keeps its Instruction. Abandoned guns stay on the table to be manned (BFS-MAN-21, [`crate::gun_manning`]), a Battalion's gun crew may hide among its pikemen (BFS-SPC-23), a unit's shooting target may be paid for (BFS-SHO-10, [`crate::shooting::aim`]), CP set aside for a unit's next test are spent on it (BFS-CMD-8, [`crate::steady`]), a pursuit may be stopped for 1 CP ordered beforehand (BFS-CC-29, [`crate::hold_pursuit`]), dragoons mount and dismount (BFS-SPC-9, [`crate::dragoons`]), and a medium gun may stand dug in on its fortified base (BFS-ART-19, [`crate::fortified_gun`]). Pike and Shot Battalions and Run Behind the Pikes (BFS-SPC-21, BFS-SPC-22) came with this revision too, but need no gate: they are new commands that no recorded battle holds. |
//! | 12 | The pre-battle sequence's effects, completed: Panic that falls on a War Wagon Train costs each wagon 1 SP instead of 1 SP in all (BFS-WAG-23), under Fatigue or Exhaustion a commander adds at most 2 CP to a unit's Morale test (BFS-SCN-25, -26), and Cut Off the Retreat tests fled commanders too (BFS-SCN-47). Cowardly Commander and Unexpected Reinforcements (BFS-SCN-30, -32) came with this revision too, but need no gate: no recorded battle holds them. |
//! | 13 | Elite Cavalry ([`crate::elite_cavalry`], BFS-SPC-10): in Close Order it moves and marches like an Open Order unit, base by base and ending in Close Order; shot at −1 while it holds a Charge order, its Impetus capped at +1, unless it declares a Close Order charge for +2. Caracole ([`crate::caracole`], BFS-SPC-4): a cavalry unit with a Defense order rides its first rank up to 10 cm out, fires it in Defender's Fire and the ranks behind in Shooting after Movement, and calls it back after the Combat Phase. Battles recorded before it moved such units as any close-order unit. |
//! | 14 | A wheel that sweeps through difficult or very difficult ground is slowed from where it reaches it, even when it ends clear of it, a turn or a frontage change that puts a base in such ground is slowed too, or refused after more than the cap already moved, a Column following its head (BFS-AMV-4) meets the ground the head's path crosses, an Open Order base wheeling or turning meets the ground its sweep crosses (BFS-TER-2/3, BFS-OO-3), and a charge meets the ground on its path (its facing wheel, then straight on), stopping at the edge of ground it reaches after more than the cap; before it only the ground a wheel ended on counted, so a unit could swing through a marsh's corner at full speed, a maneuver's ground not at all, a bending Column or a swinging Open Order base only the ground it ended on, and a charge only where it ended, capped at the cap even when the ground was reached later. |
//! | 15 | Shooting out of a wood (BFS-TER-23, BFS-TER-24): only the first rank of a unit standing partly in a forest or grove shoots (no Salvo, Ranked Fire or caracole's rear ranks), and a shooting base inside the wood but not on its edge takes −1; before it a unit in a wood shot as in the open. |
//! | 16 | Shooting through a wood (BFS-TER-23, BFS-TER-24, after the quick reference): a base whose line of fire runs through a forest or grove that stands neither under it nor under the target base shoots at −1; before it a line that clipped a wood's corner cost nothing. A Light Cavalry unit breaking off no longer turns a base into ground impassable to it (BFS-SPC-16), a withdrawal never ends on another unit, and a wheel or turn that starts with a corner a sliver inside slowing ground meets it at once (BFS-TER-2/3; before it a base turning about its centre from there swept through a wood unslowed); both found by the property tests. |

/// The revision every new battle is played under.
pub const CURRENT: u32 = 16;

/// The revision new battles get (serde's default for a freshly built game's options).
pub const fn current() -> u32 {
    CURRENT
}

/// How far past the halfway line a countercharger may move (BFS-CHG-22). The book: to the line,
/// where the charger meets it. Revision 0 let it run 0.5 cm past.
pub fn countercharge_overshoot_cm(revision: u32) -> f32 {
    if revision == 0 { 0.5 } else { 0.0 }
}

/// Do the rules of revision 2 apply: the ground ([`crate::ground`], [`crate::obstacle`], hills
/// that hide, no maneuver into impassable ground) and the fixes found with it? Battles recorded
/// before it were played without them.
pub fn ground_rules(revision: u32) -> bool {
    revision >= 2
}

/// Do the Open Order rules of revision 3 apply ([`crate::open_order`]): each base moving on its
/// own account, spacing and facing checked, units that always fight in Open Order deployed so,
/// the ground forcing Open Order and taking it away, the maneuvers between the two orders, and
/// withdrawals through friends ([`crate::withdrawal`])?
/// Battles recorded before it moved an Open Order unit as one block.
pub fn open_order_rules(revision: u32) -> bool {
    revision >= 3
}

/// Do the Division rules of revision 4 apply: Regiment Motivation tests, Wiped Out Regiments and
/// the battle lost with them ([`crate::motivation`])? Division battles recorded before it had no
/// Motivation.
pub fn motivation_rules(revision: u32) -> bool {
    revision >= 4
}

/// May units shoot at a lone commander who is their closest target within 30 cm (BFS-CDR-7), and
/// a lone commander shoot (BFS-CDR-16)? Revision 4; battles recorded before it did neither.
pub fn commander_targets(revision: u32) -> bool {
    revision >= 4
}

/// Does an Open Order unit charge base by base (BFS-OO-7..10, revision 4)? Battles recorded
/// before it charged in Open Order as one block.
pub fn open_order_charge(revision: u32) -> bool {
    revision >= 4
}

/// Does a road override the ground it crosses for marching (BFS-TER-22, revision 4)? Battles
/// recorded before it refused a march along a road through a wood or village.
pub fn roads_override(revision: u32) -> bool {
    revision >= 4
}

/// May a unit in the path of a countercharge react to it, the chain carried out last declared
/// first (BFS-AMV-1, revision 5)? Battles recorded before it asked only the charge's target.
pub fn charge_chains(revision: u32) -> bool {
    revision >= 5
}

/// May a unit charge a lone commander, and he Break Off or join a unit (BFS-CDR-7, BFS-CDR-8,
/// revision 5)? Battles recorded before it never offered the charge.
pub fn commander_charges(revision: u32) -> bool {
    revision >= 5
}

/// Do moves measure corners meeting almost head on exactly (revision 5)? Before it, a base moving
/// straight could slip through another's corner (the geometry's `cast::translate_as`).
pub fn legacy_corner_rounding(revision: u32) -> bool {
    revision < 5
}

/// Do the army lists' special rules of revision 6 apply: the Morale test of a Militia or Rabble
/// unit charging a more numerous enemy (BFS-SPC-18, BFS-SPC-25), No Quarter's pursuit
/// (BFS-SPC-20) and Mobility's test in the Reorganization Phase (BFS-SPC-19)? Battles recorded before it played those units without them.
pub fn special_rules_6(revision: u32) -> bool {
    revision >= 6
}

/// Do the special rules of revision 7 apply: To the Last Man's second Morale roll (BFS-SPC-33)
/// and the Companions' extra close combat dice (BFS-SPC-7)?
pub fn special_rules_7(revision: u32) -> bool {
    revision >= 7
}

/// Special rules of revision 8, Rifled Barrels and Countermarch (BFS-SPC-27, BFS-SPC-8):
/// battles recorded before it never used them.
pub fn special_rules_8(revision: u32) -> bool {
    revision >= 8
}

/// Special rules of revision 9, Salvo and Ranked Fire (BFS-SPC-29, BFS-SPC-26): battles
/// recorded before it never fired them.
pub fn special_rules_9(revision: u32) -> bool {
    revision >= 9
}

/// Wagons of revision 10 (BFS-WAG-1..11): battles recorded before it had none on the table.
pub fn wagons(revision: u32) -> bool {
    revision >= 10
}

/// Succession (revision 11, [`crate::succession`], BFS-CMD-6): a Regimental commander's deputy
/// takes over the Regiment when he falls. Before it the Regiment went on with its deputies as
/// they were.
pub fn succession(revision: u32) -> bool {
    revision >= 11
}

/// The pre-battle effects completed in revision 12: Panic on a train per wagon (BFS-WAG-23), the
/// cap of 2 CP on a Morale test under Fatigue (BFS-SCN-25). Battles recorded before it took 1 SP
/// from a panicked train and let a tired side's commander add 3.
pub fn prebattle_effects_12(revision: u32) -> bool {
    revision >= 12
}

/// Special rules of revision 13, Elite Cavalry and Caracole ([`crate::elite_cavalry`],
/// [`crate::caracole`], BFS-SPC-10, BFS-SPC-4): battles recorded before it moved, shot at and
/// charged such units as any close-order cavalry.
pub fn special_rules_13(revision: u32) -> bool {
    revision >= 13
}

/// Does a wheel meet the slowing ground it sweeps through, not only the ground it ends on, a
/// turn or a frontage change the ground it puts a base in, a bending Column the ground its
/// head's path crosses, a swinging Open Order base the ground it sweeps, and a charge the ground
/// on its path (BFS-TER-2/3, revision 14)?
pub fn ground_met_on_the_way(revision: u32) -> bool {
    revision >= 14
}

/// Does a unit in a forest or grove shoot out of it as the book has it (BFS-TER-23, BFS-TER-24,
/// revision 15): with its first rank only, and at −1 from a base inside the wood but not on its
/// edge? Battles recorded before it shot from a wood as from open ground.
pub fn shooting_out_of_woods(revision: u32) -> bool {
    revision >= 15
}

/// Does a line of fire through a forest or grove cost −1 (BFS-TER-23, BFS-TER-24 after the quick
/// reference, revision 16)? Battles recorded before it shot through a wood's corner for nothing.
pub fn shooting_through_woods(revision: u32) -> bool {
    revision >= 16
}

/// Do the small steps no cast checks keep out of ground impassable to the unit (BFS-TER-1,
/// revision 16): a Break Off's bases turning about their centres (BFS-SPC-16), an Open Order
/// charger's base backing up to stop short (BFS-OO-7)? Battles recorded before it turned a base
/// into a steep hill's edge and backed one into a lake.
pub fn small_steps_mind_impassable_ground(revision: u32) -> bool {
    revision >= 16
}

/// Does a wheel or turn that starts with a corner a sliver inside slowing ground meet that
/// ground at once (BFS-TER-2/3, revision 16)? Before it the sweep's cast saw such a base only
/// leave the ground, so a base turning about its centre deep into a wood was not slowed.
pub fn sliver_met_at_once(revision: u32) -> bool {
    revision >= 16
}

/// Is a withdrawal cut short where it would end on another unit (BFS-PSY-15, revision 16)?
/// Before it a unit starting a hair inside a friend could slide onto it.
pub fn withdrawal_never_ends_on_a_unit(revision: u32) -> bool {
    revision >= 16
}
