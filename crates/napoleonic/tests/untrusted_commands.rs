//! Commands from an untrusted save that name a unit or leader the battle lacks are refused, in
//! every phase random play reaches, never a panic.

mod common;

use sandtable_engine::Ruleset;
use sandtable_geometry::Vec2;
use sandtable_napoleonic::state::{LeaderId, Phase};
use sandtable_napoleonic::{Command, Napoleonic, UnitId};

#[test]
fn commands_naming_what_the_battle_lacks_are_refused() {
    let (u, real) = (UnitId(300), UnitId(0));
    let bad = [
        Command::Move {
            unit: u,
            to: Vec2::ZERO,
            bearing: 0.0,
        },
        Command::Fire {
            unit: real,
            target: u,
            actions: 1,
        },
        Command::Charge {
            unit: real,
            target: u,
        },
        Command::Stand { unit: u },
        Command::MoveLeader {
            leader: LeaderId(300),
            to: Vec2::ZERO,
        },
    ];
    let mut g = common::game(3);
    for step in 0..400 {
        if g.phase == Phase::Over {
            break;
        }
        for cmd in &bad {
            let e = Napoleonic::legal(&g, cmd).expect_err("refused");
            assert!(e.message.contains("#300"), "step {step}: {e:?}");
        }
        let options = Napoleonic::candidates(&g);
        let c = options[step * 7 % options.len()].clone();
        Napoleonic::execute(&mut g, &c).unwrap();
    }
}
