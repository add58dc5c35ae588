//! The computer opponent of issue 17 at the table: it plays the same whatever the other side's
//! secrets are, its levels parse and play legally, and it says why it chose what it chose.

use sandtable_ai::bfs::BfsEvaluation;
use sandtable_ai::{AiPlayer, Level, PlayerKind};
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{Game, OrderKind, PendingOrder};
use sandtable_bfs::turn::{Bid, Phase};
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::{Player, Ruleset, Session};
use std::path::Path;

fn setup(file: &str) -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(&root.join(file), &root.join("assets/armies")).expect("loads");
    BattleSetup::from(&loaded)
}

/// Plays `seed`'s battle between two search players until `stop` holds for the position.
fn play_until(file: &str, seed: u64, stop: impl Fn(&Game) -> bool) -> Game {
    let mut s = Session::<Bfs>::new(setup(file), seed).expect("setup");
    let mut players = [
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 1).unwrap(),
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 2).unwrap(),
    ];
    for _ in 0..5000 {
        if stop(s.state()) {
            return s.state().clone();
        }
        let seat = Bfs::deciding(s.state()).expect("the battle goes on");
        let cmd = players[seat as usize]
            .choose_from(s.state(), seat)
            .expect("a command");
        s.submit(cmd).expect("legal");
    }
    panic!("the position never came");
}

/// The same position with every face-down order of `other` replaced by `kind`, and its bid
/// (if one is placed) set to `cp`: what a peek would tell, and nothing else.
fn with_secrets(game: &Game, other: Side, kind: OrderKind, cp: u8) -> Game {
    let mut g = game.clone();
    for u in g.units.iter_mut().filter(|u| u.side == other) {
        if let Some(p) = u.pending_order.as_mut()
            && !p.face_up
        {
            *p = PendingOrder {
                kind: Some(kind),
                ..*p
            };
        }
    }
    if let Phase::InitiativeBids { bids } = &mut g.turn.phase
        && let Bid::Placed(_) = bids[other.0 as usize]
    {
        bids[other.0 as usize] = Bid::Placed(cp);
    }
    g
}

/// It plays the same whatever the other side's face-down orders and bids are: each decision is
/// taken from its own seat's view, where they are hidden (issue 17, item 2). Checked at every
/// level, at the second side's orders (the first side's orders lie face down) and at its bid
/// (the first side's bid is placed).
#[test]
fn the_computer_decides_the_same_whatever_the_other_sides_secrets() {
    let file = "scenarios/02-warka-task-force.ron";
    let at_second_orders = |g: &Game| {
        matches!(g.turn.phase, Phase::Orders { second: true, .. })
            && g.units.iter().any(|u| u.pending_order.is_some())
    };
    let at_second_bid = |g: &Game| {
        g.turn.number >= 2
            && matches!(g.turn.phase, Phase::InitiativeBids { bids } if bids.iter().any(|b| matches!(b, Bid::Placed(_))))
    };
    let mut checked = 0;
    for stop in [&at_second_orders as &dyn Fn(&Game) -> bool, &at_second_bid] {
        let game = play_until(file, 7, stop);
        let seat = Bfs::deciding(&game).expect("someone decides");
        let other = Side(1 - seat);
        let worlds = [
            with_secrets(&game, other, OrderKind::Charge, 0),
            with_secrets(&game, other, OrderKind::Defense, 3),
            with_secrets(&game, other, OrderKind::Move, 1),
        ];
        assert_ne!(
            worlds[0], worlds[1],
            "the other side has a secret to change here"
        );
        for level in Level::ALL {
            let choices: Vec<_> = worlds
                .iter()
                .map(|w| {
                    AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::Ai(level), 11)
                        .unwrap()
                        .choose_from(w, seat)
                })
                .collect();
            assert!(choices[0].is_some());
            assert_eq!(choices[0], choices[1], "{level:?}");
            assert_eq!(choices[0], choices[2], "{level:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

/// The levels are named as `--players ai:recruit,…` names them, and an unknown one is refused
/// with the names to use.
#[test]
fn levels_parse_by_name() {
    for level in Level::ALL {
        let kind: PlayerKind = format!("ai:{}", level.name()).parse().unwrap();
        assert_eq!(kind, PlayerKind::Ai(level));
    }
    assert_eq!("ai".parse::<PlayerKind>().unwrap(), PlayerKind::AI);
    assert_eq!(
        "baseline".parse::<PlayerKind>().unwrap(),
        PlayerKind::Baseline
    );
    let err = "ai:hero".parse::<PlayerKind>().unwrap_err();
    assert!(err.contains("recruit, veteran or general"), "{err}");
}

/// "Why?": after a searched move the computer names the unit, what it expected of the new
/// position in the evaluation's numbers, and the enemy the move is about; after a charge, the
/// rules' odds.
#[test]
fn the_computer_says_why_it_moved() {
    use sandtable_bfs::command::Command;
    let mut s = Session::<Bfs>::new(setup("scenarios/02-warka-task-force.ron"), 3).expect("setup");
    let mut players = [
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 1).unwrap(),
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 2).unwrap(),
    ];
    let (mut moves, mut charges) = (0, 0);
    for _ in 0..3000 {
        let Some(seat) = Bfs::deciding(s.state()) else {
            break;
        };
        let p = &mut players[seat as usize];
        let cmd = p.choose_from(s.state(), seat).expect("a command");
        let why = p.explain_last();
        match &cmd {
            Command::Move { unit, .. } => {
                let why = why.expect("a reason for a searched move");
                assert!(why.starts_with("Moved "), "{why}");
                assert!(why.contains(&s.state().unit(*unit).name), "{why}");
                assert!(why.contains("better than before"), "{why}");
                moves += 1;
            }
            Command::DeclareCharge { unit, target, .. } => {
                let why = why.expect("a reason for a charge");
                assert!(why.contains(&s.state().unit(*unit).name), "{why}");
                assert!(why.contains(&s.state().unit(*target).name), "{why}");
                assert!(why.contains("the rules' odds give"), "{why}");
                charges += 1;
            }
            _ => {}
        }
        s.submit(cmd).expect("legal");
        if moves >= 10 && charges >= 1 {
            break;
        }
    }
    assert!(
        moves >= 10 && charges >= 1,
        "{moves} moves, {charges} charges"
    );
}

/// Each level plays a whole battle with legal commands only, and the recruit still plays
/// sensibly: against a random player it wins more than it loses.
#[test]
fn every_level_plays_a_legal_battle_and_the_recruit_beats_random_play() {
    let s = setup("scenarios/01-mill-ford-skirmish.ron");
    for level in Level::ALL {
        sandtable_ai::battle::play::<Bfs, BfsEvaluation>(
            s.clone(),
            21,
            [PlayerKind::Ai(level), PlayerKind::Random],
        )
        .unwrap_or_else(|e| panic!("{level:?}: {e}"));
    }
    let (mut won, mut lost) = (0, 0);
    for seed in 0..20u64 {
        let players = if seed % 2 == 0 {
            [PlayerKind::Ai(Level::Recruit), PlayerKind::Random]
        } else {
            [PlayerKind::Random, PlayerKind::Ai(Level::Recruit)]
        };
        let session = sandtable_ai::battle::play::<Bfs, BfsEvaluation>(s.clone(), seed, players)
            .expect("a legal battle");
        let ai = (seed % 2) as u8;
        match Bfs::outcome(session.state()).and_then(|o| o.winner) {
            Some(w) if w == ai => won += 1,
            Some(_) => lost += 1,
            None => {}
        }
    }
    assert!(won > lost, "recruit against random: {won} won, {lost} lost");
}

/// "Why?" in the Napoleonic rules too: over a whole brigade action, every fire and charge the
/// computer chose comes with the rules' own numbers.
#[test]
fn the_computer_says_why_in_the_napoleonic_rules() {
    use sandtable_ai::napoleonic::NapEvaluation;
    use sandtable_engine::files::{DataDirs, Files};
    use sandtable_napoleonic::Napoleonic;
    use sandtable_napoleonic::command::Command;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("scenarios/10-rossbach-brigade-action.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let setup = Napoleonic::load_scenario(&path, &text, &DataDirs::under(&root.join("assets")))
        .unwrap_or_else(|e| panic!("{}", e.lines().join("\n")));
    let mut s = Session::<Napoleonic>::new(setup, 4).expect("setup");
    let mut players = [
        AiPlayer::<Napoleonic, NapEvaluation>::new(PlayerKind::AI, 1).unwrap(),
        AiPlayer::<Napoleonic, NapEvaluation>::new(PlayerKind::AI, 2).unwrap(),
    ];
    let (mut fires, mut explained) = (0, 0);
    while let Some(seat) = Napoleonic::deciding(s.state()) {
        let p = &mut players[seat.min(1) as usize];
        let cmd = p.choose_from(s.state(), seat).expect("a command");
        if matches!(cmd, Command::Fire { .. } | Command::Charge { .. }) {
            fires += 1;
            let why = p.explain_last().expect("a reason for a fire or a charge");
            if why.contains("expected") || why.contains("% to succeed") {
                explained += 1;
            }
        }
        s.submit(cmd).expect("legal");
    }
    assert!(fires > 0, "the battle had fire or charges");
    assert_eq!(explained, fires);
}
