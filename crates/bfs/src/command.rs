//! Everything a player (or the AI) can ask of a By Fire and Sword game. Each command is checked
//! against the rules before it changes anything; a refusal names the rule (BFS-…) that forbids it.

use crate::ids::{CommanderId, Side, UnitId};
use crate::vocab::OrderKind;
pub use crate::vocab::Reaction;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Command {
    // ---- Initiative Phase (BFS-INI) ----
    /// Secretly commit `cp` of the Commander-in-Chief's points to the Initiative roll (BFS-INI-2).
    Bid { side: Side, cp: u8 },
    /// The roll's winner keeps the Initiative or hands it over (BFS-INI-4).
    ChooseInitiative { keep: bool },

    // ---- Orders Phase (BFS-ORD-1) ----
    /// Place a face-down order marker beside a unit, paid by a commander (BFS-ORD-3, BFS-CMD-4).
    IssueOrder {
        unit: UnitId,
        order: OrderKind,
        by: CommanderId,
    },
    /// Try to rally a Disorganized or Fleeing unit: 1 CP plus up to 3 more for +1 Morale each
    /// (BFS-RAL-2..6).
    Rally {
        unit: UnitId,
        by: CommanderId,
        extra_cp: u8,
    },
    /// Spend 1 CP for one Morale test that removes a casualty marker on a pass (BFS-RAL-7).
    Reorganize { unit: UnitId, by: CommanderId },
    /// Send CP to a subordinate commander, losing some beyond range (BFS-CMD-7).
    TransferCp {
        from: CommanderId,
        to: CommanderId,
        amount: u8,
    },
    /// The acting player has finished the Orders Phase.
    EndOrders,

    // ---- Movement Phase (BFS-MOV) ----
    /// A unit with a Move order (or a Charge order that became one) moves: forward, back, wheels,
    /// turns and movement maneuvers, within its allowance (BFS-MOV-5..14, BFS-MAN).
    Move { unit: UnitId, steps: Vec<MoveStep> },
    /// A unit with a Defense order makes its Special Maneuvers (BFS-ORD-8, BFS-MAN-5).
    Maneuver {
        unit: UnitId,
        maneuvers: Vec<SpecialManeuver>,
    },
    /// A unit with no order withdraws half its Move towards its own table edge (BFS-PSY-20).
    Withdraw { unit: UnitId },
    /// A unit with no order stays where it is this phase (BFS-ORD-9).
    Hold { unit: UnitId },
    /// A unit with a Charge order names its target (BFS-CHG-2..7). `pay` is the commander who
    /// spends 1 CP to pick a target other than the one the rules require (BFS-CHG-4).
    DeclareCharge {
        unit: UnitId,
        target: UnitId,
        pay: Option<CommanderId>,
    },
    /// The charged side answers a charge (BFS-CHG-12).
    React { unit: UnitId, reaction: Reaction },
    /// A unit with a Charge order charges a lone enemy commander who is the closest target in its
    /// field of vision, within 30 cm and within its Basic Move (BFS-CDR-7).
    ChargeCommander {
        unit: UnitId,
        commander: CommanderId,
    },
    /// A lone commander answers the charge on him (BFS-CDR-8).
    CommanderReacts {
        commander: CommanderId,
        reaction: CommanderReaction,
    },
    /// A commander moves as a one-base unit in Open Order (BFS-CDR-2), optionally joining a unit.
    MoveCommander {
        commander: CommanderId,
        steps: Vec<MoveStep>,
    },
    /// A commander joins a friendly unit he can reach with his Move; it moves no more this turn
    /// (BFS-CDR-12).
    JoinUnit {
        commander: CommanderId,
        unit: UnitId,
    },
    /// An attached commander leaves his unit before it moves, his move measured from its middle
    /// (BFS-CDR-14).
    LeaveUnit {
        commander: CommanderId,
        steps: Vec<MoveStep>,
    },
    /// Infantry with a Defense order enters a building within 10 cm as a Special Maneuver,
    /// `by` paying 1 CP (BFS-TER-29, BFS-MAN-22). `building` is the piece's index in the
    /// scenario's terrain.
    OccupyBuilding {
        unit: UnitId,
        building: u16,
        by: CommanderId,
    },
    /// A garrison comes out, set up in a Line outside wall `wall` (0 front, 1 right, 2 rear,
    /// 3 left of the building's footprint), `by` paying 1 CP (BFS-TER-31).
    LeaveBuilding {
        unit: UnitId,
        wall: u8,
        by: CommanderId,
    },
    /// The owner chooses a gun's load for its shots (BFS-ART-3): cannonball, case-shot whenever
    /// the target is within its range, or `None` for the crew's choice by the rules' odds. Free,
    /// in the side's Movement Phase, and it stays until changed.
    Load {
        unit: UnitId,
        ammunition: Option<crate::artillery::Ammunition>,
    },
    /// The acting player has finished moving.
    EndMovement,

    // ---- Combat Phase and after ----
    /// Resolve the next stage or step (BFS-CBT-2); the Initiative player drives it.
    Continue,
    /// Bowmen with a Defense order hold their Defender's Fire for a hail of arrows after
    /// movement (BFS-OPT-2, an optional rule). Declared in the side's Movement Phase. Last, as a
    /// newcomer to the list.
    HailOfArrows { unit: UnitId },
    /// One order for a group of 2 to 4 units of a Regiment within 10 cm of each other, placed
    /// face down on each, for 2 CP (3 with an Insubordinate unit) (BFS-OPT-3).
    GroupOrder {
        units: Vec<UnitId>,
        order: OrderKind,
        by: CommanderId,
    },
    /// The owner holds a unit's Salvo or Ranked Fire this turn: it fires ordinary volleys and
    /// need not reload the next turn (BFS-SPC-26, BFS-SPC-29). Free, in his Movement Phase.
    OrdinaryFire { unit: UnitId },
    /// An Independent unit tries to rally itself, with no commander and no CP (BFS-SPC-14).
    RallyItself { unit: UnitId },
    /// A Senior commander gives a Regimental commander a face-down Instruction, at Division
    /// level, for what an order would cost (BFS-ORD-11).
    IssueInstruction {
        commander: CommanderId,
        instruction: OrderKind,
        by: CommanderId,
    },
    /// The owner of a unit that charges, in his Movement Phase, chooses to destroy the wagons it
    /// beats this turn rather than take them over (BFS-WAG-6). Free.
    BurnWagons { unit: UnitId },
    /// Form a Pike and Shot Battalion of one block of pikemen, one or two units of musketeers and
    /// up to two regimental guns of a Regiment, standing within 2 cm of one another: free in the
    /// first turn's Orders Phase (`by` none), later 1 CP or more from `by` in the side's Orders
    /// or Movement Phase (BFS-SPC-21).
    FormBattalion {
        units: Vec<UnitId>,
        by: Option<CommanderId>,
    },
    /// In the side's Movement Phase, a commander pays 1 CP for the unit to shoot at `target`
    /// this turn rather than at the closest enemy (BFS-SHO-10).
    AimFire {
        unit: UnitId,
        target: UnitId,
        by: CommanderId,
    },
    /// In the side's Orders or Movement Phase, `by` stands ready to spend `cp` (1 to 3) CP on
    /// the unit's next Morale or Skill test this turn, +1 each (BFS-CMD-8).
    Steady {
        unit: UnitId,
        by: CommanderId,
        cp: u8,
    },
    /// In the side's Orders or Movement Phase, the unit's commander or the Commander-in-Chief
    /// stands ready to stop its pursuit this turn, for 1 CP if it comes (BFS-CC-29).
    HoldPursuit { unit: UnitId, by: CommanderId },
    /// In the side's Orders or Movement Phase, the side will discard its Enthusiasm marker to
    /// pass the unit's next Morale test this turn outright (BFS-SCN-27).
    SpendEnthusiasm { unit: UnitId },
    /// In its side's Movement Phase, before it charges, an Elite Cavalry unit holding a Charge
    /// order declares it charges as a Close Order unit this turn (BFS-SPC-10).
    CloseOrderCharge { unit: UnitId },
    /// In its side's Movement Phase, a cavalry unit with the Caracole rule and a Defense order
    /// rides its first rank `distance` cm (at most 10) forward to fire (BFS-SPC-4).
    Caracole { unit: UnitId, distance: f32 },
}

/// How a lone commander answers a charge on him (BFS-CDR-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CommanderReaction {
    /// He waits for it, his escort with him.
    Stand,
    /// He rides away from the charger, his full Move (half if he has moved this turn), as Light
    /// Cavalry Breaks Off (BFS-SPC-16, AMB-95).
    BreakOff,
    /// He joins a friendly unit he can reach: he leaves the charger's sight, and the charger may
    /// choose another target (BFS-CDR-12).
    Join(UnitId),
}

/// One piece of a unit's move (BFS-MOV-5..14, BFS-MAN-6..12).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum MoveStep {
    /// Straight ahead, cm (costs 1 per cm).
    Forward(f32),
    /// Straight across the obstacle touching the unit's front, every base to the far side: a
    /// Movement Maneuver costing the distance and 2 cm (infantry) or 5 cm (cavalry)
    /// (BFS-TER-5, BFS-MAN-16).
    CrossObstacle,
    /// Straight back, cm (costs 2 per cm, BFS-MOV-6).
    Backward(f32),
    /// Wheel about a front corner, degrees; positive wheels forward (BFS-MOV-14). A backward
    /// wheel costs double (AMB-5).
    Wheel { pivot: PivotCorner, degrees: f32 },
    /// A Movement Maneuver turn of the whole unit (BFS-MAN-8/9).
    Turn(TurnKind),
    /// Movement Maneuver: one base more (+1) or fewer (−1) in the front rank (BFS-MAN-12).
    Frontage(i8),
    /// Open Order only: every base moves `dx`, `dy` cm in the unit's frame (x right, y forward)
    /// and turns `degrees` about its own centre; each base pays the path of its corners
    /// (BFS-OO-3, AMB-39).
    Shift { dx: f32, dy: f32, degrees: f32 },
    /// Open Order only: one base (by its index in the unit) moves and turns on its own, paying
    /// the path of its corners (BFS-OO-3).
    ShiftBase {
        base: u8,
        dx: f32,
        dy: f32,
        degrees: f32,
    },
    /// The whole move is a march: first step, once; +5 cm (+10 cm mounted), open ground and
    /// roads only, never within 20 cm of the enemy, no shooting this turn (BFS-AMV-2).
    March,
    /// Movement Maneuver, the last step: set up the chevaux de frise or scatter the caltrops the
    /// unit carries in front of it (BFS-OBS-6, BFS-OBS-9).
    SetUpObstacles,
    /// Movement Maneuver: a close-order unit whose rules allow it spreads into Open Order, every
    /// file and rank 1 cm apart about the middle of its front rank (BFS-MAN-17/18).
    Disperse,
    /// Movement Maneuver: an Open Order unit closes up into a Line of `files` files about the base
    /// nearest the middle of its front (BFS-MAN-17/18).
    CloseRanks { files: u8 },
    /// A Column follows a bend, the last step of its move: the head base wheels `degrees`
    /// forward about its `pivot` corner and goes on `then` cm; each following base moves up until
    /// it touches the one in front, wheeling about the same point (BFS-AMV-4). With `degrees`
    /// 0 a Column curved by an earlier bend goes on following its head.
    Bend {
        pivot: PivotCorner,
        degrees: f32,
        then: f32,
    },
    /// Movement Maneuver, the whole move: dragoons mount (BFS-SPC-9).
    Mount,
    /// Movement Maneuver, the whole move: dragoons dismount, keeping horse holders or not
    /// (BFS-SPC-9).
    Dismount { keep_horses: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PivotCorner {
    FrontLeft,
    FrontRight,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnKind {
    Left,
    Right,
    About,
}

/// Special Maneuvers for a Defense order (BFS-MAN-7..14).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum SpecialManeuver {
    /// Turn the whole unit 90° or 180° in place (BFS-MAN-7).
    Turn(TurnKind),
    /// Change the frontage by up to one base on each side: −2..=2 files (BFS-MAN-11).
    Frontage(i8),
    /// Shift up to 2 cm in any direction, with an optional wheel, no corner moving more than 2 cm
    /// (BFS-MAN-14, AMB-18). `dx`/`dy` are in the unit's frame (x right, y forward).
    ChangePosition { dx: f32, dy: f32, degrees: f32 },
    /// Every base across the obstacle touching its front (BFS-MAN-15).
    CrossObstacle,
    /// Spread into Open Order, the middle base of the front rank staying put (BFS-MAN-19).
    Disperse,
    /// Close up into a Line of `files` files, one base staying put and the others moving at most
    /// half their Move (BFS-MAN-19).
    CloseRanks { files: u8 },
    /// Reform (2 Special Maneuvers): a Line of `files` files (a Column for 1) turned `degrees`
    /// (counter-clockwise positive) about the base nearest the middle of the front, which stays
    /// put; no base moves further than its Move; then no shooting and no order this turn
    /// (BFS-MAN-13).
    Reform { files: u8, degrees: f32 },
    /// Set up the kobylicas (2 Special Maneuvers) or chevaux de frise (1) the unit carries in
    /// front of it, or scatter its caltrops (1) (BFS-OBS-3, -6, -9).
    SetUpObstacles,
    /// Clear caltrops within 5 cm (infantry, 2 Special Maneuvers), or take up its own chevaux de
    /// frise or destroy another's that it touches (1) (BFS-OBS-6, BFS-OBS-11).
    ClearObstacles,
    /// Limber a gun to be pulled by horses (1 Special Maneuver light, 2 medium or heavy,
    /// BFS-ART-16).
    Limber,
    /// Unlimber a gun so that it can fire (the same cost, BFS-ART-16).
    Unlimber,
    /// Take ammunition from the dead (2 Special Maneuvers and a Skill test), under the
    /// Ammunition rules (BFS-AMM-4, BFS-AMM-7).
    RetrieveAmmunition,
    /// Take ammunition from the side's ammunition wagon within the unit's Basic Move (1 Special
    /// Maneuver counting, 2 under the test method), risking an explosion (BFS-AMM-5, BFS-AMM-8,
    /// BFS-WAG-11).
    TakeAmmunition { wagon: UnitId },
    /// Connect a War Wagon Train and prepare it for defence (2 Special Maneuvers): from then on
    /// it moves 5 cm, never marches (BFS-WAG-14).
    ConnectWagons,
    /// Man a war wagon of the side's own train that has lost its crew (index `wagon` among the
    /// train's bases), within 10 cm: 1 Special Maneuver and 1 CP paid by `by`; the unit gives
    /// the crew's Strength (BFS-WAG-19).
    ManWagon {
        train: UnitId,
        wagon: u8,
        by: CommanderId,
    },
    /// Man an abandoned gun within 10 cm, the side's own or the enemy's: 1 Special Maneuver and
    /// 1 CP paid by `by`; the unit gives the gun's Strength, and the gun is set up facing the
    /// nearest enemy (`toward_enemy`) or as the unit faces (BFS-MAN-21).
    ManGun {
        gun: UnitId,
        by: CommanderId,
        toward_enemy: bool,
    },
    /// A block of pikemen sends the gun crew hiding among it back to its gun within 10 cm, in a
    /// later turn: 1 Special Maneuver and 1 CP paid by `by`; the pikemen lose nothing
    /// (BFS-SPC-23).
    ReturnCrew { gun: UnitId, by: CommanderId },
    /// Dragoons mount their horses (BFS-SPC-9).
    Mount,
    /// Dragoons dismount, keeping horse holders (one mounted base for three on foot) or sending
    /// every horse away, never to mount again (BFS-SPC-9).
    Dismount { keep_horses: bool },
}

impl Command {
    /// The units, commanders and sides the command names, for checking that they exist before
    /// any rule looks them up (a save is untrusted input).
    pub fn names(&self) -> (Vec<UnitId>, Vec<CommanderId>, Option<Side>) {
        use Command::*;
        match self {
            Bid { side, .. } => (vec![], vec![], Some(*side)),
            IssueOrder { unit, by, .. } | Rally { unit, by, .. } | Reorganize { unit, by } => {
                (vec![*unit], vec![*by], None)
            }
            GroupOrder { units, by, .. } => (units.clone(), vec![*by], None),
            FormBattalion { units, by } => (units.clone(), by.iter().copied().collect(), None),
            AimFire { unit, target, by } => (vec![*unit, *target], vec![*by], None),
            Steady { unit, by, .. } | HoldPursuit { unit, by } => (vec![*unit], vec![*by], None),
            SpendEnthusiasm { unit } | CloseOrderCharge { unit } | Caracole { unit, .. } => {
                (vec![*unit], vec![], None)
            }
            TransferCp { from, to, .. } => (vec![], vec![*from, *to], None),
            IssueInstruction { commander, by, .. } => (vec![], vec![*commander, *by], None),
            Maneuver { unit, maneuvers } => {
                let mut units = vec![*unit];
                let mut commanders = Vec::new();
                for m in maneuvers {
                    match m {
                        SpecialManeuver::TakeAmmunition { wagon } => units.push(*wagon),
                        SpecialManeuver::ManWagon { train, by, .. } => {
                            units.push(*train);
                            commanders.push(*by);
                        }
                        SpecialManeuver::ManGun { gun, by, .. }
                        | SpecialManeuver::ReturnCrew { gun, by } => {
                            units.push(*gun);
                            commanders.push(*by);
                        }
                        _ => {}
                    }
                }
                (units, commanders, None)
            }
            Move { unit, .. }
            | Withdraw { unit }
            | Hold { unit }
            | Load { unit, .. }
            | HailOfArrows { unit }
            | OrdinaryFire { unit }
            | RallyItself { unit }
            | BurnWagons { unit }
            | React { unit, .. } => (vec![*unit], vec![], None),
            DeclareCharge { unit, target, pay } => {
                (vec![*unit, *target], pay.iter().copied().collect(), None)
            }
            MoveCommander { commander, .. } | LeaveUnit { commander, .. } => {
                (vec![], vec![*commander], None)
            }
            JoinUnit { commander, unit } | ChargeCommander { unit, commander } => {
                (vec![*unit], vec![*commander], None)
            }
            CommanderReacts {
                commander,
                reaction,
            } => match reaction {
                CommanderReaction::Join(unit) => (vec![*unit], vec![*commander], None),
                _ => (vec![], vec![*commander], None),
            },
            OccupyBuilding { unit, by, .. } | LeaveBuilding { unit, by, .. } => {
                (vec![*unit], vec![*by], None)
            }
            ChooseInitiative { .. } | EndOrders | EndMovement | Continue => (vec![], vec![], None),
        }
    }

    /// The command's kind as lesson files and logs name it (`"IssueOrder"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Command::Bid { .. } => "Bid",
            Command::ChooseInitiative { .. } => "ChooseInitiative",
            Command::IssueOrder { .. } => "IssueOrder",
            Command::Rally { .. } => "Rally",
            Command::Reorganize { .. } => "Reorganize",
            Command::TransferCp { .. } => "TransferCp",
            Command::EndOrders => "EndOrders",
            Command::Move { .. } => "Move",
            Command::Maneuver { .. } => "Maneuver",
            Command::Withdraw { .. } => "Withdraw",
            Command::Hold { .. } => "Hold",
            Command::Load { .. } => "Load",
            Command::HailOfArrows { .. } => "HailOfArrows",
            Command::GroupOrder { .. } => "GroupOrder",
            Command::OrdinaryFire { .. } => "OrdinaryFire",
            Command::RallyItself { .. } => "RallyItself",
            Command::IssueInstruction { .. } => "IssueInstruction",
            Command::BurnWagons { .. } => "BurnWagons",
            Command::FormBattalion { .. } => "FormBattalion",
            Command::AimFire { .. } => "AimFire",
            Command::Steady { .. } => "Steady",
            Command::HoldPursuit { .. } => "HoldPursuit",
            Command::SpendEnthusiasm { .. } => "SpendEnthusiasm",
            Command::CloseOrderCharge { .. } => "CloseOrderCharge",
            Command::Caracole { .. } => "Caracole",
            Command::DeclareCharge { .. } => "DeclareCharge",
            Command::React { .. } => "React",
            Command::ChargeCommander { .. } => "ChargeCommander",
            Command::CommanderReacts { .. } => "CommanderReacts",
            Command::MoveCommander { .. } => "MoveCommander",
            Command::JoinUnit { .. } => "JoinUnit",
            Command::LeaveUnit { .. } => "LeaveUnit",
            Command::OccupyBuilding { .. } => "OccupyBuilding",
            Command::LeaveBuilding { .. } => "LeaveBuilding",
            Command::EndMovement => "EndMovement",
            Command::Continue => "Continue",
        }
    }
}
