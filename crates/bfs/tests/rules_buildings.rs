//! Buildings (BFS-TER-29..31, BFS-PSY-8, BFS-MAN-22): what a building holds, occupying it,
//! shooting from its walls, the garrison that never flees, and leaving it.

mod support;

use sandtable_bfs::building;
use sandtable_bfs::event::{Event, Piece};
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::shooting::{FireStage, plan_volley};
use sandtable_bfs::state::{Formation, Game, MoraleLevel, OrderKind};
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::*;
use sandtable_geometry::{Pose, Rect, Vec2};
use support::*;

const COLONEL: CommanderId = CommanderId(0);

fn house(center: (f32, f32), size: (f32, f32)) -> TerrainSpec {
    TerrainSpec {
        kind: TerrainKind::Building,
        name: Some("Mill house".into()),
        shape: ShapeSpec::Rect {
            center,
            size,
            rotation: 0.0,
        },
    }
}

/// A 6 × 4 cm house at (30, 30), its south wall at y = 28; two bases of haiduks (Defense order)
/// with their front 5 cm south of it; the Polish colonel (40 cm range) at (4, 4); Swedish
/// reiters far to the north. Side A moving.
fn by_the_house(haiduk_bases: u8, gap: f32) -> Game {
    let s = setup(
        &[
            unit(
                "haiduks",
                0,
                "haiduks",
                haiduk_bases,
                haiduk_bases,
                (30.0, 28.0 - gap),
                0.0,
            ),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 100.0), 180.0),
        ],
        vec![house((30.0, 30.0), (6.0, 4.0))],
    );
    let mut g = Bfs::setup(&s, 1).unwrap_or_else(|e| panic!("setup: {e}"));
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    g
}

fn occupy(g: &Game) -> Command {
    Command::OccupyBuilding {
        unit: id(g, "haiduks"),
        building: 0,
        by: COLONEL,
    }
}

fn refusal(g: &Game, cmd: &Command) -> String {
    let e = Bfs::legal(g, cmd).unwrap_err();
    format!("{}: {}", e.rule, e.message)
}

fn place(g: &mut Game, key: &str, dx: f32, dy: f32) {
    let u = id(g, key);
    for b in g.unit_mut(u).bases.iter_mut() {
        *b = Rect::new(
            Pose::new(
                Vec2::new(b.center().x + dx, b.center().y + dy),
                b.pose.angle,
            ),
            b.half,
        );
    }
}

#[test]
fn bfs_ter_29_what_a_building_holds() {
    let cap = |size: (f32, f32)| {
        let s = setup(
            &[
                unit("haiduks", 0, "haiduks", 2, 2, (80.0, 20.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 100.0), 180.0),
            ],
            vec![house((30.0, 30.0), size)],
        );
        let g = Bfs::setup(&s, 1).unwrap();
        building::capacity(&g, 0)
    };
    // The book: 6 × 4 = 24 cm² → 2 bases; 6 × 6 = 36 cm² → 4 bases.
    assert_eq!(cap((6.0, 4.0)), 2);
    assert_eq!(cap((6.0, 6.0)), 4);
    // To the nearest base: 25 cm² → 3 (2.5 up), 14 cm² → 1.
    assert_eq!(cap((5.0, 5.0)), 3);
    assert_eq!(cap((7.0, 2.0)), 1);
}

#[test]
fn bfs_ter_29_infantry_occupies_a_building_within_10_cm() {
    let mut g = by_the_house(2, 5.0);
    let h = id(&g, "haiduks");
    let cp = g.commander(COLONEL).cp;
    let events = {
        let c = occupy(&g);
        run(&mut g, c)
    };
    let u = g.unit(h);
    assert_eq!(u.garrison, Some(0));
    assert_eq!(
        u.order, None,
        "the bases that enter become a unit with no order"
    );
    assert_eq!(u.formation, Formation::NonStandard);
    assert_eq!(
        u.flags.special_maneuvers, 1,
        "a Special Maneuver (BFS-MAN-22)"
    );
    assert_eq!(g.commander(COLONEL).cp, cp - 1);
    // Its bases fill the house exactly: the unit's edges are the walls.
    let frame = sandtable_bfs::geo::unit_frame(u);
    assert!((frame.half.x * 2.0 - 6.0).abs() < 0.03, "{frame:?}");
    assert!((frame.half.y * 2.0 - 4.0).abs() < 0.03, "{frame:?}");
    assert!(frame.center().distance(Vec2::new(30.0, 30.0)) < 0.01);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-TER-29"))
    );
    // It may not move, charge or withdraw out of it.
    at_movement(&mut g, Side::A, false);
    g.unit_mut(h).flags.activated = false;
    g.unit_mut(h).order = Some(OrderKind::Move);
    let r = refusal(
        &g,
        &Command::Move {
            unit: h,
            steps: vec![sandtable_bfs::command::MoveStep::Forward(2.0)],
        },
    );
    assert!(r.starts_with("BFS-TER-31"), "{r}");
}

#[test]
fn bfs_ter_29_who_may_not_occupy() {
    // 10.01 cm away: too far; 9.99: near enough.
    let g = by_the_house(2, 10.01);
    assert!(refusal(&g, &occupy(&g)).contains("within 10 cm"));
    let g = by_the_house(2, 9.99);
    assert!(Bfs::legal(&g, &occupy(&g)).is_ok());
    // Three bases do not fit in a house for two.
    let g = by_the_house(3, 5.0);
    assert!(refusal(&g, &occupy(&g)).contains("holds 2 base(s)"));
    // A Move order is not a Defense order.
    let mut g = by_the_house(2, 5.0);
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    assert!(refusal(&g, &occupy(&g)).starts_with("BFS-MAN-22"));
    // An enemy within 2 cm of the house.
    let mut g = by_the_house(2, 5.0);
    let r = id(&g, "reiters");
    let rb = g.unit(r).bases.clone();
    let dy = 33.5 + rb[0].half.y - rb[0].center().y;
    let dx = 30.0 - rb[1].center().x;
    place(&mut g, "reiters", dx, dy);
    let why = refusal(&g, &occupy(&g));
    assert!(why.contains("within 2 cm"), "{why}");
    // No CP left.
    let mut g = by_the_house(2, 5.0);
    g.commander_mut(COLONEL).cp = 0;
    assert!(refusal(&g, &occupy(&g)).contains("no CP"));
    // A colonel beyond his command range.
    let mut g = by_the_house(2, 5.0);
    let c = g.commander_mut(COLONEL);
    c.base = Rect::new(Pose::new(Vec2::new(100.0, 4.0), 0.0), c.base.half);
    assert!(refusal(&g, &occupy(&g)).contains("command range"));
}

#[test]
fn bfs_ter_30_the_garrison_shoots_from_every_wall_capped_by_its_dice() {
    // The book's example: a 6 × 4 cm building gives 3 dice on each long wall and 2 on each short
    // one; 2 bases of Shooting 2 roll at most 4.
    let mut g = by_the_house(2, 5.0);
    {
        let c = occupy(&g);
        run(&mut g, c)
    };
    let h = id(&g, "haiduks");
    let walls = building::walls(&g, h);
    let mut dice: Vec<u32> = walls.iter().map(|w| w.dice).collect();
    dice.sort();
    assert_eq!(dice, vec![2, 2, 3, 3]);
    assert_eq!(building::dice_cap(&g, h), 4);
    // Reiters off the house's north-east corner, across the diagonal: the north and the east
    // walls both see them, 3 + 2 dice, capped at 4.
    let r = id(&g, "reiters");
    let c = g.unit(r).bases[1].center();
    place(&mut g, "reiters", 42.0 - c.x, 44.0 - c.y);
    g.unit_mut(h).order = Some(OrderKind::Defense);
    let scene = sandtable_bfs::geo::scene(&g);
    let plan = plan_volley(&g, &scene, h, FireStage::DefendersFire).expect("a volley");
    assert_eq!(plan.target, Piece::Unit(r));
    let rolled: u32 = plan
        .groups
        .iter()
        .flat_map(|gp| gp.spec.dice_per_base.iter())
        .sum();
    assert_eq!(rolled, 4);
    assert_eq!(
        plan.groups.iter().map(|gp| gp.bases).sum::<u32>(),
        2,
        "two walls"
    );
    // Reiters due north: only the north wall, 3 dice.
    let c = g.unit(r).bases[1].center();
    place(&mut g, "reiters", 30.0 - c.x, 45.0 - c.y);
    let scene = sandtable_bfs::geo::scene(&g);
    let plan = plan_volley(&g, &scene, h, FireStage::DefendersFire).expect("a volley");
    let rolled: u32 = plan
        .groups
        .iter()
        .flat_map(|gp| gp.spec.dice_per_base.iter())
        .sum();
    assert_eq!(rolled, 3);
    // Range is measured from the middle of the wall: 45 − half the reiters' depth − 32.
    let d = plan
        .groups
        .iter()
        .map(|gp| gp.distance)
        .fold(f32::INFINITY, f32::min);
    let half = g.unit(r).bases[1].half.y;
    assert!((d - (45.0 - half - 32.0)).abs() < 0.01, "{d}");
}

#[test]
fn bfs_ter_30_shooting_at_the_garrison_minus_one_and_armor_6() {
    let mut g = by_the_house(2, 5.0);
    {
        let c = occupy(&g);
        run(&mut g, c)
    };
    let h = id(&g, "haiduks");
    // Swedish musketeers 12 cm north of the house, facing it.
    let s = setup(
        &[
            unit("haiduks", 0, "haiduks", 2, 2, (30.0, 23.0), 0.0),
            unit("musketeers", 1, "musketeers", 4, 4, (30.0, 44.0), 180.0),
        ],
        vec![house((30.0, 30.0), (6.0, 4.0))],
    );
    let mut g2 = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g2, "haiduks", Some(OrderKind::Defense));
    set_order(&mut g2, "musketeers", Some(OrderKind::Move));
    at_movement(&mut g2, Side::A, false);
    {
        let c = occupy(&g2);
        run(&mut g2, c)
    };
    let scene = sandtable_bfs::geo::scene(&g2);
    let plan = plan_volley(&g2, &scene, id(&g2, "musketeers"), FireStage::AfterMovement)
        .expect("a volley");
    assert_eq!(plan.target, Piece::Unit(id(&g2, "haiduks")));
    let gp = &plan.groups[0];
    let skill: Vec<(String, i32)> = gp
        .spec
        .modifiers
        .iter()
        .map(|m| (m.rule.clone(), m.delta))
        .collect();
    assert!(
        skill.contains(&("BFS-SHO-17".to_string(), -1)),
        "in cover: {skill:?}"
    );
    let armor = gp.armor_base + gp.armor_mods.iter().map(|m| m.delta).sum::<i32>();
    // Haiduks' Armor 3 raised to 6, less the musket's effectiveness at effective range.
    let musket = sandtable_bfs::weapons::RangedWeapon::Musket.stats(false);
    let eff = if gp.band == sandtable_bfs::event::Band::Long {
        musket.effectiveness.1
    } else {
        musket.effectiveness.0
    } as i32;
    assert_eq!(armor, 6 - eff, "{:?}", gp.armor_mods);
    assert!(gp.armor_mods.iter().any(|m| m.rule == "BFS-TER-30"));
    let _ = h;
}

#[test]
fn bfs_psy_8_a_garrison_loses_sp_instead_of_disorganizing_or_fleeing() {
    let mut g = by_the_house(2, 5.0);
    {
        let c = occupy(&g);
        run(&mut g, c)
    };
    let h = id(&g, "haiduks");
    let sp = |g: &Game| sandtable_bfs::losses::sp_left(g, h);
    let before = sp(&g);
    let mut events = Vec::new();
    sandtable_bfs::flight::apply_level(
        &mut g,
        h,
        MoraleLevel::Disorganized,
        "test",
        None,
        &mut events,
    );
    assert_eq!(g.unit(h).morale, MoraleLevel::Good);
    assert_eq!(sp(&g), before - 1);
    sandtable_bfs::flight::apply_level(&mut g, h, MoraleLevel::Flight, "test", None, &mut events);
    assert_eq!(g.unit(h).morale, MoraleLevel::Good);
    assert_eq!(sp(&g), before - 3);
    assert_eq!(g.unit(h).garrison, Some(0), "it never leaves");
    // It never withdraws either.
    let moved = sandtable_bfs::flight::withdraw(&mut g, h, Vec2::NEG_Y, "test", &mut events);
    assert_eq!(moved, 0.0);
    // What is left of it still fills the house.
    let frame = sandtable_bfs::geo::unit_frame(g.unit(h));
    assert!((frame.half.x * 2.0 - 6.0).abs() < 0.03, "{frame:?}");
}

#[test]
fn bfs_ter_31_leaving_a_building() {
    let mut g = by_the_house(2, 5.0);
    let h = id(&g, "haiduks");
    {
        let c = occupy(&g);
        run(&mut g, c)
    };
    // Not in the turn it entered.
    g.unit_mut(h).flags.activated = false;
    let leave = |wall| Command::LeaveBuilding {
        unit: h,
        wall,
        by: COLONEL,
    };
    assert!(refusal(&g, &leave(2)).contains("may not enter and leave"));
    // Next turn, in the Movement Phase, for 1 CP: out by the south wall, facing south.
    g.unit_mut(h).flags = Default::default();
    g.unit_mut(h).order = Some(OrderKind::Defense);
    let cp = g.commander(COLONEL).cp;
    let south = (0..4u8)
        .find(|w| building::wall_name(&g, 0, *w) == "south")
        .unwrap();
    run(&mut g, leave(south));
    let u = g.unit(h);
    assert_eq!(u.garrison, None);
    assert_eq!(u.order, None, "no order this turn");
    assert_eq!(u.formation, Formation::Close { files: 2 });
    assert_eq!(g.commander(COLONEL).cp, cp - 1);
    // Within 10 cm of the house, outside it, facing away from it.
    let house = Rect::new(Pose::new(Vec2::new(30.0, 30.0), 0.0), Vec2::new(3.0, 2.0));
    let d = sandtable_geometry::distance::set_distance(&u.bases, &[house]).unwrap();
    assert!(d > 0.0 && d <= 10.0, "{d}");
    assert!(u.bases.iter().all(|b| b.center().y < 28.0));
    let facing = u.bases[0].pose.dir_to_world(Vec2::Y);
    assert!((facing - Vec2::NEG_Y).length() < 1e-3, "{facing:?}");
    // The menu offered it, and offers nothing more now.
    assert!(building::offers(&g, h).is_empty());
}

#[test]
fn bfs_man_22_the_menus_offer_occupying_and_leaving() {
    let g = by_the_house(2, 5.0);
    let h = id(&g, "haiduks");
    let offers = building::offers(&g, h);
    assert_eq!(offers, vec![occupy(&g)]);
    let too_far = by_the_house(2, 12.0);
    assert!(building::offers(&too_far, h).is_empty());
}

#[test]
fn bfs_ter_30_a_defending_garrison_has_the_advantage() {
    let mut g = by_the_house(2, 5.0);
    {
        let c = occupy(&g);
        run(&mut g, c);
    }
    let (h, r) = (id(&g, "haiduks"), id(&g, "reiters"));
    assert_eq!(
        sandtable_bfs::ground::advantage(&g, h, &[r]),
        None,
        "no order: none"
    );
    g.unit_mut(h).order = Some(OrderKind::Defense);
    let m = sandtable_bfs::ground::advantage(&g, h, &[r]).expect("Advantage");
    assert_eq!(m.rule, "BFS-TER-30");
    // Infantry defending against cavalry: +2 (BFS-TER-12).
    assert_eq!(m.delta, 2);
}

#[test]
fn bfs_ter_29_a_scenario_may_start_a_unit_in_a_building() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = sandtable_bfs::load::load_scenario(
        &root.join("scenarios/solo/51-attack-on-a-village.ron"),
        &root.join("assets/armies"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let g = Bfs::setup(&sandtable_bfs::BattleSetup::from(&loaded), 1).unwrap();
    let church = g.units.iter().find(|u| u.key == "church").unwrap();
    let index = g
        .terrain
        .iter()
        .position(|t| t.name.as_deref() == Some("Church of Our Lady of Loreto"))
        .unwrap();
    assert_eq!(church.garrison, Some(index as u16));
    // 5 × 5 cm = 25 cm²: 3 bases at most; the 2 fill it.
    assert_eq!(building::capacity(&g, index), 3);
    let frame = sandtable_bfs::geo::unit_frame(church);
    assert!((frame.half.x * 2.0 - 5.0).abs() < 0.03 && (frame.half.y * 2.0 - 5.0).abs() < 0.03);
    // A garrison too big for its building, or in a building that is not there, is refused.
    let text =
        std::fs::read_to_string(root.join("scenarios/solo/51-attack-on-a-village.ron")).unwrap();
    for (from, to, why) in [
        (
            "bases: 2, position: (68.0, 86.0)",
            "bases: 4, position: (68.0, 86.0)",
            "holds 3",
        ),
        (
            "garrison: Some(\"Church of Our Lady of Loreto\")",
            "garrison: Some(\"Town hall\")",
            "not a building",
        ),
    ] {
        assert!(text.contains(from));
        let bad = text.replace(from, to);
        let err = sandtable_bfs::load::load_scenario_text(
            &root.join("scenarios/solo/51-attack-on-a-village.ron"),
            &bad,
            &root.join("assets/armies"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains(why) && err.contains("unit \"church\""),
            "{err}"
        );
    }
}

/// Swedish musketeers (2 bases) holding a 6 × 4 house at (60, 60), its south wall at y = 58; a
/// Polish hussar banner with a Charge order 10 cm south of it, side A moving.
fn hussars_before_the_house(seed: u64) -> Game {
    let s = setup(
        &[
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 48.0), 0.0),
            unit("musketeers", 1, "musketeers", 2, 2, (60.0, 90.0), 180.0),
        ],
        vec![house((60.0, 60.0), (6.0, 4.0))],
    );
    let mut g = Bfs::setup(&s, seed).unwrap();
    let m = id(&g, "musketeers");
    let fp = building::footprint(&g, 0).unwrap();
    g.unit_mut(m).garrison = Some(0);
    g.unit_mut(m).bases = building::garrison_rects(&fp, 2);
    g.unit_mut(m).formation = Formation::NonStandard;
    set_order(&mut g, "hussars", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    g
}

#[test]
fn bfs_ter_30_one_round_with_hand_weapons_and_the_attackers_withdraw_while_it_holds() {
    let mut outcomes = [0u32; 3]; // garrison held and the hussars withdrew; building cleared; hussars beaten
    for seed in 1..=12 {
        let mut g = hussars_before_the_house(seed);
        let (h, m) = (id(&g, "hussars"), id(&g, "musketeers"));
        charge_and_stand(&mut g, h, m, None);
        assert!(
            g.unit(h).charge.as_ref().is_some_and(|c| c.contact),
            "the hussars reach the wall"
        );
        at_combat(&mut g, sandtable_bfs::turn::CombatStage::CloseCombat);
        let mut events = Vec::new();
        sandtable_bfs::close_combat::resolve_stage(&mut g, &mut events);
        let rounds: Vec<u8> = events
            .iter()
            .filter_map(|e| match e {
                Event::CombatResolved(r) => Some(r.round),
                _ => None,
            })
            .collect();
        assert_eq!(rounds, vec![1], "only one round against a building");
        for e in &events {
            if let Event::Melee(r) = e {
                assert_eq!(r.weapon, "Hand weapons", "lances are left outside");
            }
        }
        let won = events.iter().find_map(|e| match e {
            Event::CombatResolved(r) => Some(r.winner),
            _ => None,
        });
        assert!(!events.iter().any(|e| matches!(e, Event::Pursued { .. })));
        assert_eq!(
            g.unit(m).morale,
            MoraleLevel::Good,
            "a garrison never breaks"
        );
        match won.flatten() {
            Some(Side::A) if g.unit(m).status == sandtable_bfs::state::UnitStatus::OnTable => {
                assert!(events.iter().any(|e| matches!(
                    e,
                    Event::Withdrew { unit, reason, .. } if *unit == h && reason.contains("BFS-TER-30")
                )));
                outcomes[0] += 1;
            }
            Some(Side::A) => outcomes[1] += 1,
            _ => outcomes[2] += 1,
        }
    }
    assert!(outcomes[0] > 0, "{outcomes:?}");
}
