//! Plays a battle to a given command and prints what the search player thinks of each option
//! there: `cargo run -p sandtable-ai --example explain -- SEED PLAYERS COMMAND_INDEX`.
//! With `PROBE=UNIT_INDEX,CM` it also prints the evaluation's terms before and after that unit
//! goes forward that far, to see which term holds a unit back. With `REACH=1` each charge target
//! also shows how the rules' Basic Move charge would go (zone, planned wheel, distance travelled,
//! allowance spent, what blocked it).

mod common;

use sandtable_ai::SearchPlayer;
use sandtable_bfs::{Bfs, narrate};
use sandtable_engine::{Ruleset, Session};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let kinds = common::kinds(args.next());
    let stop: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(50);
    let setup = common::default_setup();
    let mut s = Session::<Bfs>::new(setup, seed).expect("setup");
    let mut players = common::players(&kinds, seed);
    for i in 0..stop {
        let Some(seat) = Bfs::prompt(s.state()).seat else {
            break;
        };
        let cmd = players[seat as usize]
            .choose_from(s.state(), seat)
            .expect("a command");
        let events = s.submit(cmd).expect("legal").to_vec();
        for e in events {
            println!("{i:4} [{seat}] {}", narrate::describe(s.state(), &e));
            if matches!(e, sandtable_bfs::Event::TurnBegan { .. }) {
                let g = s.state();
                for side in sandtable_bfs::Side::BOTH {
                    let line: Vec<String> = g
                        .units_on_table(side)
                        .map(|u| {
                            let d = g
                                .units_on_table(side.other())
                                .map(|e| sandtable_ai::bfs::eval::distance(u, e))
                                .fold(f64::INFINITY, f64::min);
                            let c = sandtable_bfs::geo::frame_of(&u.bases).center();
                            format!(
                                "{}@({:.0},{:.0}) {:?}/{:?} near {:.0}",
                                u.key, c.x, c.y, u.order, u.morale, d
                            )
                        })
                        .collect();
                    println!("       side {}: {}", side.0, line.join("; "));
                }
            }
        }
    }
    let Some(seat) = Bfs::prompt(s.state()).seat else {
        return;
    };
    let view = Bfs::view(s.state(), seat);
    let side = sandtable_bfs::Side(seat);
    let m = sandtable_ai::bfs::eval::Matchups::new(&view, side);
    let theirs: Vec<_> = view
        .units_on_table(side.other())
        .map(|u| sandtable_ai::bfs::eval::Placed::new(&view, u))
        .collect();
    for u in view.units_on_table(side) {
        let t = sandtable_ai::bfs::eval::unit_terms(
            &view,
            &sandtable_ai::bfs::eval::Placed::new(&view, u),
            &theirs,
            &m,
        );
        println!(
            "  {} order {:?} morale {:?}: {t:?}",
            u.name, u.order, u.morale
        );
    }
    for u in view.units_on_table(side) {
        let basic = view.unit_profile(u.id).movement.basic;
        for d in [basic, basic * 0.5, 2.0] {
            let cmd = sandtable_bfs::Command::Move {
                unit: u.id,
                steps: vec![sandtable_bfs::command::MoveStep::Forward(d)],
            };
            println!(
                "  try {} forward {d}: {:?}",
                u.name,
                Bfs::legal(&view, &cmd).err().map(|e| e.to_string())
            );
        }
    }
    let scene = sandtable_bfs::geo::scene(&view);
    for u in view.units_on_table(side) {
        let opts = sandtable_bfs::charge::target_options(&view, &scene, u.id);
        let reach: Vec<String> = opts
            .free
            .iter()
            .map(|t| {
                let r = sandtable_bfs::charge::reach(&view, &scene, u.id, *t);
                format!(
                    "{}: {}/{} edge {:.2}",
                    view.unit(*t).name,
                    r.reaches,
                    r.reaches_with_additional,
                    m.edge(u.id, *t)
                ) + &if std::env::var("REACH").is_ok() {
                    format!(
                        " {:?}",
                        r.basic.as_ref().map(|o| (
                            o.zone,
                            o.planned,
                            o.travelled,
                            o.cost,
                            o.blocked
                        ))
                    )
                } else {
                    String::new()
                }
            })
            .collect();
        println!(
            "  charge options of {}: visible {:?} free {:?}",
            u.name, opts.visible, reach
        );
    }
    if let Ok(probe) = std::env::var("PROBE") {
        let parsed: Vec<f32> = probe.split(',').filter_map(|v| v.parse().ok()).collect();
        // UNIT_INDEX,CM goes forward (back when negative); UNIT_INDEX,CM,DEGREES wheels first (positive: on the
        // front-left corner, negative: on the front-right one).
        let (index, cm, deg) = match parsed[..] {
            [index, cm] => (index, cm, 0.0),
            [index, cm, deg] => (index, cm, deg),
            _ => panic!("PROBE must be UNIT_INDEX,CM[,DEGREES]"),
        };
        let id = sandtable_bfs::UnitId(index as u16);
        let mut g = view.clone();
        let mut steps = Vec::new();
        if deg != 0.0 {
            let pivot = if deg > 0.0 {
                sandtable_bfs::command::PivotCorner::FrontLeft
            } else {
                sandtable_bfs::command::PivotCorner::FrontRight
            };
            steps.push(sandtable_bfs::command::MoveStep::Wheel {
                pivot,
                degrees: deg.abs(),
            });
        }
        if cm > 0.0 {
            steps.push(sandtable_bfs::command::MoveStep::Forward(cm));
        } else if cm < 0.0 {
            steps.push(sandtable_bfs::command::MoveStep::Backward(-cm));
        }
        let cmd = sandtable_bfs::Command::Move { unit: id, steps };
        match Bfs::execute(&mut g, &cmd) {
            Err(e) => {
                println!("  probe: that move is refused: {e}");
                return;
            }
            Ok(evs) => {
                for e in evs {
                    println!("  probe event: {}", narrate::describe(&g, &e));
                }
            }
        }
        // Every unit whose terms the probe changed (a move can change another unit's view).
        for (a, b) in view.units_on_table(side).zip(g.units_on_table(side)) {
            let terms = |game: &sandtable_bfs::state::Game, u: &sandtable_bfs::state::Unit| {
                let theirs: Vec<_> = game
                    .units_on_table(side.other())
                    .map(|u| sandtable_ai::bfs::eval::Placed::new(game, u))
                    .collect();
                sandtable_ai::bfs::eval::unit_terms(
                    game,
                    &sandtable_ai::bfs::eval::Placed::new(game, u),
                    &theirs,
                    &m,
                )
            };
            let (ta, tb) = (terms(&view, a), terms(&g, b));
            if format!("{ta:?}") != format!("{tb:?}") {
                println!("  changed {}: {ta:?}\n       -> {tb:?}", a.name);
            }
        }
        let u = g.unit(id);
        let theirs: Vec<_> = g
            .units_on_table(side.other())
            .map(|u| sandtable_ai::bfs::eval::Placed::new(&g, u))
            .collect();
        let t = sandtable_ai::bfs::eval::unit_terms(
            &g,
            &sandtable_ai::bfs::eval::Placed::new(&g, u),
            &theirs,
            &m,
        );
        println!(
            "  probe {} forward {cm} after a wheel of {deg}: {t:?};\n    before {:?}\n    after  {:?}",
            u.name,
            sandtable_ai::bfs::eval::breakdown(&view, side, &m),
            sandtable_ai::bfs::eval::breakdown(&g, side, &m)
        );
    }
    let (base, ranked) =
        SearchPlayer::<sandtable_bfs::Bfs, sandtable_ai::bfs::BfsEvaluation>::new(seed)
            .explain(&view);
    println!("position value {base:.3}; seat {seat} chooses among:");
    for (score, cmd) in ranked.iter().take(
        std::env::var("TOP")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60),
    ) {
        println!("  {:+.3}  {cmd:?}", score - base);
    }
}
