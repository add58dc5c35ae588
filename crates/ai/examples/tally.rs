//! Plays seeded battles between two players and prints each result with both sides' losses, to
//! see why games are won, lost or drawn:
//! `cargo run -p sandtable-ai --example tally -- GAMES ai,random`. Each line starts with the
//! winner (`w0`, `w1`, or `w2` for a draw); with `TALLY_UNITS=1` it also lists where every unit
//! ended the battle, to spot units that never reached the fight.

mod common;

use sandtable_bfs::{Bfs, Event};
use sandtable_engine::{Ruleset, Session};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let kinds = common::kinds(args.next());
    let setup = common::default_setup();
    let mut tally = [0; 3];
    for seed in 0..games {
        let mut s = Session::<Bfs>::new(setup.clone(), seed).expect("setup");
        let mut players = common::players(&kinds, seed);
        while let Some(seat) = Bfs::prompt(s.state()).seat {
            let cmd = players[seat as usize]
                .choose_from(s.state(), seat)
                .expect("a command");
            s.submit(cmd).expect("legal");
        }
        let report = sandtable_bfs::victory::final_report(s.state()).expect("report");
        let w = report.winner.map_or(2, |w| w.0 as usize);
        tally[w] += 1;
        let l = |i: usize| {
            format!(
                "{}d+{}f",
                report.sides[i].bases_destroyed, report.sides[i].bases_fled
            )
        };
        // Charges, charges that touched, volleys and strength points lost, per side.
        let mut acts = [[0u32; 4]; 2];
        let side_of = |u: sandtable_bfs::UnitId| s.state().unit(u).side.0 as usize;
        for e in s.events().flatten() {
            match e {
                Event::ChargeDeclared { unit, .. } => acts[side_of(*unit)][0] += 1,
                Event::ChargeMoved {
                    unit,
                    contact: Some(_),
                    ..
                } => acts[side_of(*unit)][1] += 1,
                Event::Volley(v) => {
                    if let Some(u) = v.shooter.unit() {
                        acts[side_of(u)][2] += 1
                    }
                }
                Event::Losses { unit, sp, .. } => acts[side_of(*unit)][3] += sp,
                _ => {}
            }
        }
        println!(
            "seed {seed:3}: w{w} {:>18} margin {:+3}  losses A {:8} B {:8}  charges/contacts/volleys/SP lost A {:?} B {:?}",
            report.result,
            report.margin,
            l(0),
            l(1),
            acts[0],
            acts[1]
        );
        if std::env::var("TALLY_UNITS").is_ok() {
            let g = s.state();
            for u in g
                .units
                .iter()
                .filter(|u| u.status == sandtable_bfs::state::UnitStatus::OnTable)
            {
                let near = g
                    .units_on_table(u.side.other())
                    .map(|e| (sandtable_ai::bfs::eval::distance(u, e), e.name.clone()))
                    .min_by(|a, b| a.0.total_cmp(&b.0));
                let f = sandtable_bfs::geo::frame_of(&u.bases);
                println!(
                    "    {} {:28} at ({:5.1},{:5.1}) {:?} {:?} sp-{} nearest {:?}",
                    u.side.0,
                    u.name,
                    f.center().x,
                    f.center().y,
                    u.morale,
                    u.order,
                    u.casualty_markers,
                    near
                );
            }
        }
    }
    println!(
        "A wins {}, B wins {}, draws {}",
        tally[0], tally[1], tally[2]
    );
}
