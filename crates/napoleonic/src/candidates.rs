//! The commands a computer player chooses from (every one legal): bids, the choice of A or D,
//! each unit's first or next action (moves sampled towards and away from the enemy, every
//! target in reach, formation and facing changes), leaders towards their brigades, defence
//! actions and a failed charger's choice.

use crate::actions::{formations_for, nearest_enemy};
use crate::charge::charge_reach;
use crate::command::Command;
use crate::footprint::gap;
use crate::morale::bearing_of;
use crate::rules::legal;
use crate::state::{Defence, Game, INCH, Phase, UnitId, Wait};
use crate::vocab::{Arm, Formation};
use sandtable_geometry::Vec2;

pub fn candidates(game: &Game) -> Vec<Command> {
    let mut out = Vec::new();
    match game.phase {
        Phase::Bidding { bids } => {
            let seat = bids
                .iter()
                .position(|b| *b == crate::state::Bid::None)
                .unwrap_or(0);
            let tp = game.turn_points[seat];
            let mut v: Vec<u32> = [0, 1, 2, 3, 5, 8]
                .into_iter()
                .filter(|p| *p <= tp)
                .collect();
            v.dedup();
            out.extend(v.into_iter().map(|points| Command::Bid { points }));
        }
        Phase::ChooseSide { .. } => {
            out.push(Command::ChooseSide { be_a: true });
            out.push(Command::ChooseSide { be_a: false });
        }
        Phase::Activation(a) => match a.current {
            Some(u) => {
                unit_actions(game, u, &mut out);
                out.push(Command::FinishUnit);
            }
            None => {
                for u in game.present_units(a.side).filter(|u| !u.marks.moved) {
                    out.push(Command::Stand { unit: u.id });
                    unit_actions(game, u.id, &mut out);
                }
                out.push(Command::EndActivations);
            }
        },
        Phase::Leaders { side } => {
            for l in game
                .leaders
                .iter()
                .filter(|l| l.side == side && l.alive && !l.moved)
            {
                let units: Vec<Vec2> = game
                    .present_units(side)
                    .filter(|u| u.brigade == l.brigade)
                    .map(|u| u.rect().center())
                    .collect();
                if units.is_empty() {
                    continue;
                }
                let centre = units.iter().copied().sum::<Vec2>() / units.len() as f32;
                let d = centre - l.pos;
                let max = game.options.leader_move * INCH;
                let to = if d.length() > max {
                    l.pos + d.normalize() * max
                } else {
                    centre
                };
                if d.length() > INCH {
                    out.push(Command::MoveLeader { leader: l.id, to });
                }
            }
            out.push(Command::EndLeaders);
        }
        Phase::CloseActions(Wait::Defence(_)) => {
            out.push(Command::Defend {
                choice: Defence::None,
            });
            out.push(Command::Defend {
                choice: Defence::Fire,
            });
            out.push(Command::Defend {
                choice: Defence::Face,
            });
            for f in [Formation::Square, Formation::Line, Formation::Column] {
                out.push(Command::Defend {
                    choice: Defence::Form(f),
                });
            }
        }
        Phase::CloseActions(Wait::FallBack(_)) => {
            out.push(Command::FallBack { halt: true });
            out.push(Command::FallBack { halt: false });
        }
        Phase::Over => {}
    }
    out.retain(|c| legal(game, c).is_ok());
    out
}

/// The sampled actions of one unit.
fn unit_actions(game: &Game, id: UnitId, out: &mut Vec<Command>) {
    let u = game.unit(id);
    if u.disordered() {
        out.push(Command::Reform { unit: id });
        if u.in_retreat() {
            return;
        }
    }
    let r = u.rect();
    let enemies: Vec<&crate::state::Unit> = game.enemies_of(u.side).collect();
    // Fire and charges at every enemy in reach.
    for e in &enemies {
        let d = gap(&r, &e.rect()) / INCH;
        if d <= 12.0 || u.arm().is_artillery() {
            for actions in [1, 2] {
                out.push(Command::Fire {
                    unit: id,
                    target: e.id,
                    actions,
                });
            }
        }
        if u.arm().is_artillery() && u.formation == Formation::Unlimbered {
            for actions in [1, 2] {
                out.push(Command::SolidShot {
                    unit: id,
                    aim: e.rect().center(),
                    actions,
                });
            }
        }
        if d <= charge_reach(game, id) + 1.0 {
            out.push(Command::Charge {
                unit: id,
                target: e.id,
            });
        }
    }
    // Formation changes, and facing the nearest enemy.
    for f in formations_for(game, id) {
        if f != u.formation {
            out.push(Command::Formation { unit: id, to: f });
        }
    }
    let nearest = enemies
        .iter()
        .min_by(|a, b| gap(&r, &a.rect()).total_cmp(&gap(&r, &b.rect())));
    if let Some(e) = nearest {
        let b = bearing_of(e.rect().center() - r.center());
        out.push(Command::Face {
            unit: id,
            bearing: b,
        });
        // Moves: towards the nearest enemy (stopping short of it), and back.
        let towards = (e.rect().center() - r.center()).normalize_or_zero();
        let rate = crate::actions::move_rate(game, id, false).unwrap_or(0.0);
        if rate > 0.0 {
            let turns = crate::actions::turns_freely(u.formation);
            let dist = nearest_enemy(game, u.side, &r);
            for (dir, share) in [
                (towards, 1.0),
                (towards, 0.5),
                (-towards, 0.5),
                (rotate(towards, 0.7), 0.8),
                (rotate(towards, -0.7), 0.8),
            ] {
                let mut len = rate * INCH * share;
                if dir.dot(towards) > 0.0 {
                    len = len.min((dist - 1.0 * INCH).max(0.0));
                }
                if len < 0.5 * INCH {
                    continue;
                }
                let bearing = if turns { bearing_of(dir) } else { u.bearing };
                // Back off until the terrain allows it.
                for k in [1.0, 0.7, 0.45, 0.25] {
                    let to = u.front + dir * len * k;
                    let cmd = Command::Move {
                        unit: id,
                        to,
                        bearing,
                    };
                    if legal(game, &cmd).is_ok() {
                        out.push(cmd);
                        break;
                    }
                }
            }
        }
    }
    if matches!(u.arm(), Arm::Infantry) && u.formation == Formation::Square {
        out.push(Command::Formation {
            unit: id,
            to: Formation::Line,
        });
    }
}

fn rotate(v: Vec2, a: f32) -> Vec2 {
    let (s, c) = a.sin_cos();
    Vec2::new(v.x * c - v.y * s, v.x * s + v.y * c)
}
