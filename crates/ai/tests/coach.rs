//! The coach of issue 20: before a person's command is carried out, the search player's
//! judgement points out a clear blunder in one sentence, says nothing of the command it would
//! choose itself, and judges from the person's own view.

use sandtable_ai::bfs::{BLUNDER_SP, BfsEvaluation};
use sandtable_ai::{AiPlayer, PlayerKind, SearchPlayer};
use sandtable_bfs::command::Command;
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::{Player, Ruleset, Session, Teach};
use std::path::Path;

fn setup(file: &str) -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(&root.join(file), &root.join("assets/armies")).expect("loads");
    BattleSetup::from(&loaded)
}

/// Plays a battle between two search players; at each of side A's decisions the coach is asked
/// about a unit's move or charge that the search ranks well behind that unit's best option.
/// Returns, for the first such: (the coach on it, the coach on the unit's best, the gap).
fn first_clear_blunder(file: &str, seed: u64) -> Option<(Option<String>, Option<String>, f64)> {
    let mut s = Session::<Bfs>::new(setup(file), seed).expect("setup");
    let mut players = [
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 1).unwrap(),
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 2).unwrap(),
    ];
    let mut judge = SearchPlayer::<Bfs, BfsEvaluation>::new(3);
    for _ in 0..3000 {
        let seat = Bfs::deciding(s.state())?;
        if seat == 0 {
            let view = Bfs::view(s.state(), 0);
            let (_, ranked) = judge.explain(&view);
            // The best and the worst option of one unit: the coach compares a unit's own.
            let acting = |c: &Command| Bfs::command_parts(&view, c).pieces.first().cloned();
            for (score, cmd) in ranked.iter().rev() {
                // Orders are judged without play; a move or charge is what the coach guards.
                if !matches!(cmd, Command::Move { .. } | Command::DeclareCharge { .. }) {
                    continue;
                }
                let who = acting(cmd);
                let best = ranked
                    .iter()
                    .find(|(_, c)| acting(c) == who)
                    .expect("the unit's own best");
                let gap = best.0 - score;
                // Clear of the threshold, so that the coach's own scoring cannot fall short.
                if gap >= BLUNDER_SP + 0.5 {
                    let on_worst = judge.coach(&view, 0, cmd);
                    let on_best = judge.coach(&view, 0, &best.1);
                    return Some((on_worst, on_best, gap));
                }
            }
        }
        let cmd = players[seat as usize]
            .choose_from(s.state(), seat)
            .expect("a command");
        s.submit(cmd).expect("legal");
    }
    None
}

#[test]
fn the_coach_names_a_clear_blunder_and_is_silent_on_the_best_move() {
    let (on_worst, on_best, gap) = [
        ("scenarios/01-mill-ford-skirmish.ron", 7),
        ("scenarios/02-warka-task-force.ron", 7),
        ("scenarios/01-mill-ford-skirmish.ron", 8),
    ]
    .into_iter()
    .find_map(|(file, seed)| first_clear_blunder(file, seed))
    .expect("a clear blunder on offer in one of the battles");
    let said = on_worst.expect("the coach speaks up about the worst option");
    println!("the coach: {said}");
    assert!(
        said.contains("clear mistake") && said.contains("strength points worse"),
        "{said}"
    );
    assert!(gap >= BLUNDER_SP, "the gap {gap} is a clear blunder's");
    assert_eq!(on_best, None, "the best option draws no comment");
}

/// A command the coach judges is judged on the planner's own view: with a seat that is not the
/// one deciding, it says nothing at all.
#[test]
fn the_coach_speaks_only_to_the_side_deciding() {
    let s = Session::<Bfs>::new(setup("scenarios/01-mill-ford-skirmish.ron"), 3).expect("setup");
    let seat = Bfs::deciding(s.state()).expect("someone decides");
    let other = 1 - seat;
    let view = Bfs::view(s.state(), other);
    let cmd = Bfs::candidates(&Bfs::view(s.state(), seat))
        .into_iter()
        .next()
        .expect("a command");
    let mut judge = SearchPlayer::<Bfs, BfsEvaluation>::new(3);
    assert_eq!(Player::<Bfs>::coach(&mut judge, &view, other, &cmd), None);
}
