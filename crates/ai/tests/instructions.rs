//! Instructions at Division level (BFS-ORD-11, BFS-ORD-12): an order contrary to its regiment's
//! Instruction costs a command point more, so the computer gives a regiment the Instruction its
//! units' wanted orders match. The Division battle's foot regiment starts under a Defense
//! Instruction, far out of range of every enemy, where each of its units wants to move: the
//! computer must give it a Move Instruction, or its infantry stands all battle (a traced game,
//! seed 903, had all four haiduk units at their start line in the sixth turn).

use sandtable_ai::bfs::BfsEvaluation;
use sandtable_ai::evaluate::Evaluate;
use sandtable_ai::{AiPlayer, PlayerKind};
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{BattleSetup, Bfs, Command, load_scenario};
use sandtable_engine::{Ruleset, Session};
use std::path::Path;

fn division() -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios/04-division-sobota.ron"),
        &root.join("assets/armies"),
    )
    .expect("loads");
    BattleSetup::from(&loaded)
}

/// The Polish-Lithuanian side's first Orders decision of the battle.
fn first_polish_orders(seed: u64) -> Game {
    let mut s = Session::<Bfs>::new(division(), seed).expect("setup");
    let mut players = [
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, seed).unwrap(),
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, seed + 100).unwrap(),
    ];
    while let Some(seat) = Bfs::deciding(s.state()) {
        if seat == 0 && matches!(s.state().turn.phase, Phase::Orders { .. }) {
            return s.state().clone();
        }
        let cmd = players[seat as usize]
            .choose_from(s.state(), seat)
            .expect("a command");
        s.submit(cmd).expect("legal");
    }
    panic!("no Orders Phase for the Polish-Lithuanian side");
}

#[test]
fn bfs_ord_12_the_foot_regiment_is_given_the_instruction_its_units_want() {
    for seed in [3u64, 903] {
        let game = first_polish_orders(seed);
        let colonel = game
            .commanders
            .iter()
            .find(|c| c.key == "wolodyjowski")
            .expect("the foot regiment's colonel")
            .id;
        let move_instruction = Bfs::candidates(&Bfs::view(&game, 0))
            .into_iter()
            .find(|c| {
                matches!(c, Command::IssueInstruction { commander, instruction: OrderKind::Move, .. }
                    if *commander == colonel)
            })
            .expect("a Move Instruction for the foot is on offer");
        // Judged worth more than ending the Orders Phase.
        let view = Bfs::view(&game, 0);
        let mut ev = BfsEvaluation::default();
        let ctx = ev.prepare(&view, 0);
        let base = ev.value(&view, 0, &ctx);
        let judge = |c: &Command| ev.judge(&view, 0, c, base, &ctx).expect("judged");
        assert!(
            judge(&move_instruction) > judge(&Command::EndOrders),
            "seed {seed}: a Move Instruction for the foot looks worse than doing nothing"
        );
        // And given, before the side's Orders end.
        let mut g = game.clone();
        let mut player = AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 7).unwrap();
        let mut given = false;
        while Bfs::deciding(&g) == Some(0) && matches!(g.turn.phase, Phase::Orders { .. }) {
            let cmd = player.choose_from(&g, 0).expect("a command");
            given |= matches!(cmd, Command::IssueInstruction { commander, instruction: OrderKind::Move, .. }
                if commander == colonel);
            Bfs::execute(&mut g, &cmd).expect("legal");
        }
        assert!(given, "seed {seed}: the foot kept its Defense Instruction");
    }
}
