//! A sample of the commands open to the deciding player, each checked legal: what a random player
//! picks from, what the AI searches over, and what property tests drive games with.
//!
//! It is a sample, not every possible command: moves come in a few lengths and wheel angles.
//! Commanders joining and leaving units (BFS-CDR-12, -14) are left out, so neither the computer
//! nor the random player uses them yet: an attached commander orders only his own unit, and
//! nothing here plans his leaving it. Offered, the random player's colonel joined a unit at once
//! and stayed: its army stood still, and the AI's record against it fell from 131 to 119 wins in
//! 200 (losses 21 → 37), a different yardstick rather than a weaker AI. The player's menu offers
//! both (present/menu.rs).

use crate::authority;
use crate::charge;
use crate::command::{Command, MoveStep, PivotCorner, Reaction, SpecialManeuver, TurnKind};
use crate::geo;
use crate::ids::{CommanderId, Side};
use crate::phases::{self, movement, orders};
use crate::state::{Game, MoraleLevel, OrderKind, UnitStatus};
use crate::turn::{Bid, Phase};

/// Legal commands for whoever must decide now.
pub fn candidates(game: &Game) -> Vec<Command> {
    let raw = match &game.turn.phase {
        Phase::InitiativeBids { bids } => {
            let side = if bids[0] == Bid::Waiting {
                Side::A
            } else {
                Side::B
            };
            let max = crate::phases::initiative::max_bid(game, side);
            (0..=max).map(|cp| Command::Bid { side, cp }).collect()
        }
        Phase::InitiativeChoice { .. } => vec![
            Command::ChooseInitiative { keep: true },
            Command::ChooseInitiative { keep: false },
        ],
        Phase::Orders { acting, .. } => orders(game, *acting),
        Phase::Movement {
            charge:
                Some(crate::turn::PendingCharge {
                    commander: Some(cm),
                    ..
                }),
            ..
        } => {
            let cm = *cm;
            crate::commander_charge::answers(game, cm)
                .into_iter()
                .map(|reaction| Command::CommanderReacts {
                    commander: cm,
                    reaction,
                })
                .collect()
        }
        Phase::Movement {
            charge: Some(c), ..
        } => {
            let unit = c.answering();
            let mut v = vec![
                Command::React {
                    unit,
                    reaction: Reaction::Stand,
                },
                Command::React {
                    unit,
                    reaction: Reaction::Countercharge,
                },
                Command::React {
                    unit,
                    reaction: Reaction::BreakOff,
                },
                Command::React {
                    unit,
                    reaction: Reaction::RunBehindPikes { advance: true },
                },
                Command::React {
                    unit,
                    reaction: Reaction::RunBehindPikes { advance: false },
                },
                Command::React {
                    unit,
                    reaction: Reaction::HideAmongPikes,
                },
                // Elite Cavalry about to countercharge (BFS-SPC-10).
                Command::CloseOrderCharge { unit },
            ];
            for by in authority::commanders_who_may_order(game, unit) {
                v.push(Command::React {
                    unit,
                    reaction: Reaction::HoldFire { by },
                });
            }
            v
        }
        Phase::Movement { .. } => movement_commands(game),
        Phase::Combat(_) => vec![Command::Continue],
        Phase::GameOver => Vec::new(),
    };
    raw.into_iter()
        .filter(|c| phases::check(game, c).is_ok())
        .collect()
}

/// The cheapest commander able to pay for something for this unit.
fn cheapest(game: &Game, unit: crate::ids::UnitId) -> Option<CommanderId> {
    authority::commanders_who_may_order(game, unit)
        .into_iter()
        .min_by_key(|c| (authority::order_cost(game, *c, unit).cp, c.0))
}

fn orders(game: &Game, side: Side) -> Vec<Command> {
    let mut v = vec![Command::EndOrders];
    for u in game.units_on_table(side) {
        // Orders from the cheapest commander who may place one (any, for an Independent unit,
        // BFS-SPC-14); rallies and reorganising from the cheapest who may order it.
        let placer = orders::who_may_place(game, u.id).first().copied();
        let payer = cheapest(game, u.id);
        match (u.morale, payer) {
            (MoraleLevel::Good, _) => {
                if let Some(by) = placer {
                    for order in OrderKind::ALL {
                        v.push(Command::IssueOrder {
                            unit: u.id,
                            order,
                            by,
                        });
                    }
                }
                if let (Some(by), true) = (payer, u.casualty_markers > 0) {
                    v.push(Command::Reorganize { unit: u.id, by });
                }
            }
            (_, None) => {
                v.push(Command::RallyItself { unit: u.id });
            }
            (_, Some(by)) => {
                // An Independent unit may rally itself, for free (BFS-SPC-14).
                v.push(Command::RallyItself { unit: u.id });
                // A sample: the search rarely gains by the last extra CP the rules allow
                // (BFS-RAL-2), and leaving it out keeps decisions quick. Menus offer them all.
                for extra in 0..orders::MAX_RALLY_EXTRA_CP {
                    v.push(Command::Rally {
                        unit: u.id,
                        by,
                        extra_cp: extra,
                    });
                }
            }
        }
    }
    // Instructions at Division level (BFS-ORD-11), from the Senior commander they cost least.
    if crate::instructions::apply(game) {
        for c in game.commanders.iter().filter(|c| c.side == side) {
            let by = game
                .commanders
                .iter()
                .filter(|s| s.side == side && authority::is_senior(s.rank))
                .min_by_key(|s| (crate::instructions::cost(game, s.id, c.id).0, s.id.0));
            if let Some(by) = by {
                for instruction in OrderKind::ALL {
                    v.push(Command::IssueInstruction {
                        commander: c.id,
                        instruction,
                        by: by.id,
                    });
                }
            }
        }
    }
    // Pike and Shot Battalions (BFS-SPC-21), free in the first turn.
    for (units, by) in crate::battalion::offers(game, side) {
        v.push(Command::FormBattalion { units, by });
    }
    // Group orders (BFS-OPT-3): each commander's chains of up to 4 units of a Regiment.
    if game.info.options.group_orders {
        for c in game.commanders.iter().filter(|c| c.side == side) {
            for units in crate::phases::group_order::groups_for(game, c.id) {
                for order in OrderKind::ALL {
                    v.push(Command::GroupOrder {
                        units: units.clone(),
                        order,
                        by: c.id,
                    });
                }
            }
        }
    }
    v
}

fn movement_commands(game: &Game) -> Vec<Command> {
    let mut v = vec![Command::EndMovement];
    let Ok(side) = movement::acting(game) else {
        return v;
    };
    let scene = geo::scene(game);
    for u in game.units_on_table(side).filter(|u| !u.flags.activated) {
        let id = u.id;
        let basic = crate::artillery::move_allowance(game, id)
            .unwrap_or(game.unit_profile(id).movement.basic);
        // Dragoons mount or dismount, as the whole of a Move order's move or as a Special
        // Maneuver (BFS-SPC-9).
        if game
            .unit_profile(id)
            .has(crate::profile::SpecialRule::Dragoons)
        {
            for step in [MoveStep::Mount, MoveStep::Dismount { keep_horses: true }] {
                v.push(Command::Move {
                    unit: id,
                    steps: vec![step],
                });
            }
            for m in [
                SpecialManeuver::Mount,
                SpecialManeuver::Dismount { keep_horses: true },
            ] {
                v.push(Command::Maneuver {
                    unit: id,
                    maneuvers: vec![m],
                });
            }
        }
        // A Rabble unit out of formation Reforms first (BFS-SPC-25).
        if u.flags.must_reform {
            for m in crate::rabble::reforms(game, id) {
                v.push(Command::Maneuver {
                    unit: id,
                    maneuvers: vec![m],
                });
            }
        }
        // Into a building, or out of the one it holds (BFS-TER-29, BFS-TER-31).
        v.extend(crate::building::offers(game, id));
        match u.order {
            Some(OrderKind::Charge) => {
                // A lone enemy commander who is the closest target (BFS-CDR-7).
                for c in crate::commander_charge::targets(game, id) {
                    v.push(Command::ChargeCommander {
                        unit: id,
                        commander: c,
                    });
                }
                // Elite Cavalry may trade its shelter from fire for +2 Impetus (BFS-SPC-10).
                if crate::elite_cavalry::check_close_charge(game, id).is_ok() {
                    v.push(Command::CloseOrderCharge { unit: id });
                }
                for t in charge::target_options(game, &scene, id).free {
                    v.push(Command::DeclareCharge {
                        unit: id,
                        target: t,
                        pay: None,
                    });
                }
                push_moves(&mut v, id, basic);
                push_open_order_moves(game, &mut v, id, basic);
            }
            Some(OrderKind::Move) => {
                push_moves(&mut v, id, basic);
                push_open_order_moves(game, &mut v, id, basic);
                // Chevaux or caltrops set up where it stands (BFS-OBS-6, BFS-OBS-9).
                v.push(Command::Move {
                    unit: id,
                    steps: vec![MoveStep::SetUpObstacles],
                });
                // A march straight on, whole or half (BFS-AMV-2).
                let far = basic + crate::march::bonus_cm(game.unit_profile(id));
                for d in [far, far * 0.5] {
                    v.push(Command::Move {
                        unit: id,
                        steps: vec![MoveStep::March, MoveStep::Forward(d)],
                    });
                }
            }
            Some(OrderKind::Defense) => {
                for m in [
                    SpecialManeuver::Turn(TurnKind::About),
                    SpecialManeuver::Turn(TurnKind::Left),
                    SpecialManeuver::Turn(TurnKind::Right),
                    SpecialManeuver::Frontage(1),
                    SpecialManeuver::Frontage(-1),
                    SpecialManeuver::ChangePosition {
                        dx: 0.0,
                        dy: 2.0,
                        degrees: 0.0,
                    },
                    SpecialManeuver::CrossObstacle,
                    SpecialManeuver::SetUpObstacles,
                    SpecialManeuver::ClearObstacles,
                    SpecialManeuver::Limber,
                    SpecialManeuver::Unlimber,
                    SpecialManeuver::RetrieveAmmunition,
                    SpecialManeuver::ConnectWagons,
                ] {
                    v.push(Command::Maneuver {
                        unit: id,
                        maneuvers: vec![m],
                    });
                }
                for m in crate::wagon::manning::options(game, id)
                    .into_iter()
                    .chain(crate::gun_manning::options(game, id))
                    .chain(crate::hide_crew::options(game, id))
                {
                    v.push(Command::Maneuver {
                        unit: id,
                        maneuvers: vec![m],
                    });
                }
                for wagon in crate::wagon::supply::wagons_in_reach(game, id) {
                    v.push(Command::Maneuver {
                        unit: id,
                        maneuvers: vec![SpecialManeuver::TakeAmmunition { wagon }],
                    });
                }
                v.push(Command::Hold { unit: id });
            }
            None => {
                v.push(Command::Withdraw { unit: id });
                v.push(Command::Hold { unit: id });
            }
        }
    }
    for c in game
        .commanders_on_table(side)
        .filter(|c| !c.moved && c.attached_to.is_none())
    {
        for d in [5.0, 10.0] {
            v.push(Command::MoveCommander {
                commander: c.id,
                steps: vec![MoveStep::Forward(d)],
            });
        }
    }
    // A gun's load (BFS-ART-3), last: free, and rarely better than the crew's own choice by the
    // odds, so a search with a small budget weighs the moves first.
    for u in game.units_on_table(side).filter(|u| u.gun.is_some()) {
        for ammunition in [
            Some(crate::artillery::Ammunition::Cannonball),
            Some(crate::artillery::Ammunition::CaseShot),
            None,
        ] {
            v.push(Command::Load {
                unit: u.id,
                ammunition,
            });
        }
    }
    // Holding a Salvo or Ranked Fire for a turn (BFS-SPC-26, BFS-SPC-29).
    for u in game.units_on_table(side) {
        v.push(Command::OrdinaryFire { unit: u.id });
    }
    // A caracole (BFS-SPC-4), instead of moving.
    for u in game.units_on_table(side) {
        if let Some(distance) = crate::caracole::offered_distance(game, u.id) {
            v.push(Command::Caracole {
                unit: u.id,
                distance,
            });
        }
    }
    // A hail of arrows (BFS-OPT-2), where the battle plays that optional rule.
    if game.info.options.hail_of_arrows {
        for u in game.units_on_table(side) {
            v.push(Command::HailOfArrows { unit: u.id });
        }
    }
    v
}

fn push_moves(v: &mut Vec<Command>, unit: crate::ids::UnitId, basic: f32) {
    v.push(Command::Move {
        unit,
        steps: vec![MoveStep::CrossObstacle],
    });
    for frac in [0.25, 0.5, 1.0] {
        v.push(Command::Move {
            unit,
            steps: vec![MoveStep::Forward(basic * frac)],
        });
    }
    v.push(Command::Move {
        unit,
        steps: vec![MoveStep::Backward(basic * 0.25)],
    });
    for deg in [15.0, 30.0, 45.0] {
        for pivot in [PivotCorner::FrontLeft, PivotCorner::FrontRight] {
            v.push(Command::Move {
                unit,
                steps: vec![MoveStep::Wheel {
                    pivot,
                    degrees: deg,
                }],
            });
            v.push(Command::Move {
                unit,
                steps: vec![
                    MoveStep::Wheel {
                        pivot,
                        degrees: deg,
                    },
                    MoveStep::Forward(basic * 0.3),
                ],
            });
        }
    }
    v.push(Command::Move {
        unit,
        steps: vec![MoveStep::Turn(TurnKind::About)],
    });
    v.push(Command::Move {
        unit,
        steps: vec![MoveStep::Frontage(-1)],
    });
    v.push(Command::Hold { unit });
}

/// The moves only Open Order allows (BFS-OO-3: sideways, diagonally, backwards at full speed),
/// which Elite Cavalry makes too (BFS-SPC-10), and the change of order for units whose rules
/// allow it (BFS-MAN-17/18).
fn push_open_order_moves(game: &Game, v: &mut Vec<Command>, unit: crate::ids::UnitId, basic: f32) {
    if !crate::open_order::rules_apply(game) {
        return;
    }
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if crate::open_order_move::moves_freely(game, unit) {
        for (dx, dy) in [
            (0.5, 0.0),
            (-0.5, 0.0),
            (0.35, 0.35),
            (-0.35, 0.35),
            (0.0, -0.75),
        ] {
            v.push(Command::Move {
                unit,
                steps: vec![MoveStep::Shift {
                    dx: basic * dx,
                    dy: basic * dy,
                    degrees: 0.0,
                }],
            });
        }
        if u.formation == crate::state::Formation::OpenOrder
            && !crate::open_order::always_open(p)
            && crate::open_order::may_use_open(p)
        {
            let files = u.bases.len().min(if p.is_mounted() { 3 } else { 4 }) as u8;
            v.push(Command::Move {
                unit,
                steps: vec![
                    MoveStep::Forward(basic * 0.5),
                    MoveStep::CloseRanks { files },
                ],
            });
        }
    } else if crate::open_order::may_use_open(p) {
        v.push(Command::Move {
            unit,
            steps: vec![MoveStep::Disperse, MoveStep::Forward(basic * 0.5)],
        });
    }
}

/// Is the unit still in the game (for callers filtering candidates)?
pub fn on_table(game: &Game, unit: crate::ids::UnitId) -> bool {
    game.unit(unit).status == UnitStatus::OnTable
}
