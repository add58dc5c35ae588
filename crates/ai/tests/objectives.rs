//! The computer goes for the objectives it does not hold (BFS-SCN-7): its plans include moves
//! that put a unit onto the marker, and the search takes one when nothing stands in the way.

use sandtable_ai::bfs::BfsEvaluation;
use sandtable_ai::bfs::plans::{objective_moves, objective_runners};
use sandtable_ai::evaluate::Evaluate;
use sandtable_ai::{AiPlayer, PlayerKind};
use sandtable_bfs::ids::{Side, UnitId};
use sandtable_bfs::state::Game;
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::{Ruleset, Session};
use std::path::Path;

fn setup(file: &str) -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(&root.join(file), &root.join("assets/armies")).expect("loads");
    BattleSetup::from(&loaded)
}

/// Does any base of `unit` stand within objective `i`'s radius?
fn on_marker(game: &Game, unit: UnitId, i: usize) -> bool {
    let o = &game.objectives[i];
    game.unit(unit)
        .bases
        .iter()
        .any(|b| b.closest_point(o.position).distance(o.position) <= o.radius)
}

/// A movement decision of the side to act with a unit free to move whose front is within half
/// its Basic Move of an objective its side does not hold, with no enemy on or near the marker.
fn runner(game: &Game) -> Option<(Side, UnitId, usize)> {
    if !matches!(game.turn.phase, Phase::Movement { .. }) {
        return None;
    }
    let side = Side(Bfs::deciding(game)?);
    // A free choice of what to move next, not a reaction to a charge (BFS-CHG-12).
    if Bfs::legal(game, &sandtable_bfs::Command::EndMovement).is_err() {
        return None;
    }
    // The unit the plans send first to each objective the side does not hold.
    for (i, runners) in objective_runners(game, side) {
        let o = &game.objectives[i];
        let enemy_near = game.units_on_table(side.other()).any(|e| {
            e.bases
                .iter()
                .any(|b| b.closest_point(o.position).distance(o.position) <= o.radius + 10.0)
        });
        let Some(u) = runners.first().map(|&u| game.unit(u)) else {
            continue;
        };
        if enemy_near {
            continue;
        }
        let basic = game.unit_profile(u.id).movement.basic;
        let f = sandtable_bfs::geo::frame_of(&u.bases);
        let gap = ((f.front_left() + f.front_right()) * 0.5).distance(o.position) - o.radius;
        // Within reach even at half speed (a grove or a stream on the way, BFS-TER-2), and free
        // to move at all (not held in contact, BFS-CHG-20).
        let free = Bfs::legal(
            game,
            &sandtable_bfs::Command::Move {
                unit: u.id,
                steps: vec![sandtable_bfs::command::MoveStep::Forward(0.5)],
            },
        )
        .is_ok();
        if gap > 2.0 && gap < basic * 0.5 && free {
            return Some((side, u.id, i));
        }
    }
    None
}

#[test]
fn the_computer_steps_onto_an_objective_it_can_reach() {
    let file = "scenarios/solo/52-take-and-hold.ron";
    let mut found = 0;
    for seed in 1..=20u64 {
        let mut s = Session::<Bfs>::new(setup(file), seed).expect("setup");
        let mut players = [
            AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, seed).unwrap(),
            AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, seed + 100).unwrap(),
        ];
        while let Some(seat) = Bfs::deciding(s.state()) {
            if let Some((side, unit, i)) = runner(s.state()) {
                let game = s.state().clone();
                // Every planned move is legal; does one of them put the unit on the marker?
                let moves = objective_moves(&game, unit, i);
                let mut onto = false;
                for m in &moves {
                    let mut g = game.clone();
                    Bfs::execute(&mut g, m).expect("a planned move is legal");
                    onto |= on_marker(&g, unit, i);
                }
                // Where one does, the evaluation's plans offer the search those moves (the rules'
                // sampled moves rarely end on a marker)...
                if onto {
                    let view = Bfs::view(&game, side.0);
                    let mut ev = BfsEvaluation::default();
                    let ctx = ev.prepare(&view, side.0);
                    let plans = ev.plans(&view, side.0, &ctx);
                    assert!(
                        moves.iter().all(|m| plans.contains(m)),
                        "seed {seed}: the plans leave out the moves onto the marker"
                    );
                }
                // ... and the search takes the marker (with that unit or another) before
                // its side's movement ends: the rules' own sampled moves rarely end there.
                if onto {
                    let mut g = game.clone();
                    let mut player =
                        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 7).unwrap();
                    while Bfs::deciding(&g) == Some(side.0)
                        && matches!(g.turn.phase, Phase::Movement { .. })
                    {
                        let cmd = player.choose_from(&g, side.0).expect("a command");
                        Bfs::execute(&mut g, &cmd).expect("legal");
                    }
                    assert!(
                        (0..g.units.len()).any(|k| {
                            let u = UnitId(k as u16);
                            g.unit(u).side == side && on_marker(&g, u, i)
                        }),
                        "seed {seed}: the side ended its movement off {:?}",
                        game.objectives[i].name
                    );
                    found += 1;
                    break;
                }
            }
            let cmd = players[seat as usize]
                .choose_from(s.state(), seat)
                .expect("a command");
            s.submit(cmd).expect("legal");
        }
    }
    assert!(
        found >= 3,
        "only {found} positions with an objective in reach"
    );
}
