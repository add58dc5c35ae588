//! Property tests: random legal play of the default battle keeps the game's invariants, and the
//! same seed and choices give the same game.

mod common;

use proptest::prelude::*;
use sandtable_engine::Ruleset;
use sandtable_napoleonic::state::Phase;
use sandtable_napoleonic::{Game, Napoleonic};

fn invariants(g: &Game) {
    for u in &g.units {
        assert!(u.figures <= u.start_figures, "{} gained figures", u.name);
        assert!(u.actions_left <= 2);
        if u.present() {
            let r = u.rect();
            assert!(r.center().x.is_finite() && r.center().y.is_finite());
        }
    }
    for s in 0..2 {
        assert!(g.turn_points[s] <= g.options.turn_points);
    }
    // Present units never overlap (touching in contact is fine).
    let present: Vec<_> = g.units.iter().filter(|u| u.present()).collect();
    for (i, a) in present.iter().enumerate() {
        for b in &present[i + 1..] {
            assert!(
                !sandtable_napoleonic::footprint::overlap(&a.rect(), &b.rect()),
                "{} overlaps {} in period {} ({:?})",
                a.name,
                b.name,
                g.period,
                g.phase
            );
        }
    }
}

fn present(g: &Game) {
    use sandtable_engine::Present;
    use sandtable_engine::present::PieceId;
    let seat = Napoleonic::prompt(g).seat.unwrap_or(0);
    let view = Napoleonic::view(g, seat);
    let table = Napoleonic::table(&view, seat);
    assert_eq!(
        table
            .pieces
            .iter()
            .filter(|p| p.kind == sandtable_engine::present::PieceKind::Unit)
            .count(),
        g.units.iter().filter(|u| u.on_table()).count()
    );
    for p in table.pieces.iter().map(|p| p.id).chain([PieceId(9999)]) {
        let menu = Napoleonic::menu(&view, seat, Some(p), None, &Default::default());
        for item in menu.items.iter().take(3) {
            let report = Napoleonic::describe(
                &view,
                seat,
                &item.command,
                Napoleonic::preview(&view, &item.command),
            );
            assert!(!report.commit.is_empty());
        }
        let _ = Napoleonic::card(&view, seat, p);
        let _ = Napoleonic::shapes(
            &view,
            seat,
            Some(p),
            &["ranges", "charge", "command", "support"],
        );
    }
}

/// Plays `steps` commands chosen by `pick` from the candidates.
fn play(seed: u64, picks: &[u16]) -> Game {
    let mut g = common::game(seed);
    for (n, p) in picks.iter().enumerate() {
        if g.phase == Phase::Over {
            break;
        }
        let options = Napoleonic::candidates(&g);
        assert!(
            !options.is_empty(),
            "no candidates at step {n}: {:?}",
            g.phase
        );
        let c = &options[*p as usize % options.len()];
        // What the app is handed never panics and never shows a piece the rules have removed.
        if n % 7 == 0 {
            present(&g);
        }
        Napoleonic::execute(&mut g, c).unwrap_or_else(|e| panic!("candidate {c:?} refused: {e:?}"));
        invariants(&g);
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(16)))]

    #[test]
    fn random_legal_play_keeps_the_invariants(seed in 0u64..1000, picks in proptest::collection::vec(0u16..1000, 50..400)) {
        let a = play(seed, &picks);
        let b = play(seed, &picks);
        prop_assert_eq!(a, b);
    }
}
