//! Forces built from army-list cards (BFS-LST-1..3), their Force Value and loss chart
//! (BFS-VIC-1..3) and Reconnaissance Points (BFS-SCN-35), on the shipped house cards.

use sandtable_bfs::army_list::{ArmyList, load_army_list};
use sandtable_bfs::force::{ForceFile, Pick, load_force};
use sandtable_engine::LoadError;
use std::path::PathBuf;

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

fn lists() -> Vec<ArmyList> {
    ["polish-lithuanian-1655.ron", "swedish-1655.ron"]
        .iter()
        .map(|f| load_army_list(&assets().join("armies").join(f)).expect("shipped list"))
        .collect()
}

fn force(name: &str) -> sandtable_bfs::force::Force {
    load_force(&assets().join("forces").join(name), &lists())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn polish() -> ArmyList {
    lists()
        .into_iter()
        .find(|l| l.id == "polish-lithuanian-1655")
        .expect("shipped list")
}

fn messages(f: &ForceFile) -> Vec<String> {
    f.problems(&polish())
        .into_iter()
        .map(|p| format!("{}: {}", p.entity, p.message))
        .collect()
}

fn pick(card: &str, bases: u8) -> Pick {
    Pick {
        card: card.into(),
        bases,
        name: None,
    }
}

fn core() -> ForceFile {
    ForceFile {
        format: 1,
        name: "test".into(),
        army_list: "polish-lithuanian-1655".into(),
        units: vec![pick("pancerni", 3), pick("cossacks", 3), pick("haiduks", 4)],
        additional: vec![],
        commander_upgrade: None,
        commander_name: None,
    }
}

/// BFS-LST-1, BFS-LST-3: the FSP is the highest level's, plus grey bases (1 FSP for 2, rounded
/// up, per the card's notes), additional units and a better commander.
#[test]
fn bfs_lst_1_force_strength_points_of_the_shipped_forces() {
    let s = force("polish-sosinski-banners.ron").summary;
    // Level FSP 6 (the hussars) + 1 veteran colonel + 1 (one grey Cossack base) + 1 falconet.
    assert_eq!((s.level_fsp, s.fsp), (6, 9));
    let s = force("polish-border-patrol.ron").summary;
    // Core FSP 4 + 1 (one grey Cossack base) + 2 (three grey dragoon bases).
    assert_eq!((s.level_fsp, s.fsp), (4, 7));
    let s = force("swedish-schwelick-column.ron").summary;
    // Level FSP 8 + 1 (two grey pike bases) + 1 gun + 0 (the wagons' bases are black: free).
    assert_eq!((s.level_fsp, s.fsp), (8, 10));
    let s = force("swedish-foraging-party.ron").summary;
    assert_eq!((s.level_fsp, s.fsp), (4, 5));
    assert!(!s.small, "5 FSP is not a Small Skirmish Force (BFS-SCN-17)");
    let core = core().resolve(&polish()).expect("the bare core is legal");
    assert_eq!(core.summary.fsp, 4);
    assert!(
        core.summary.small,
        "a force of 4 FSP or less is a Small Skirmish Force (BFS-SCN-17)"
    );
}

/// BFS-VIC-1, BFS-VIC-3: Force Value is the bases plus the Skirmish Force Commander's CP; the
/// border patrol (14 bases, Colonel of 2 CP) has the worked example's Force Value 16 and chart.
#[test]
fn bfs_vic_1_force_value_and_loss_chart() {
    let s = force("polish-border-patrol.ron").summary;
    assert_eq!((s.bases, s.command_points, s.force_value), (14, 2, 16));
    assert_eq!(s.thresholds, [2, 4, 8, 12], "BFS-VIC-5's chart for FV 16");
    let s = force("polish-sosinski-banners.ron").summary;
    assert_eq!((s.bases, s.command_points, s.force_value), (15, 3, 18));
    assert_eq!(s.thresholds, [2, 5, 9, 14]);
    let s = force("swedish-schwelick-column.ron").summary;
    // Gun and wagon bases count.
    assert_eq!((s.bases, s.force_value), (23, 25));
}

/// BFS-SCN-35: 1 RP a cavalry or dragoon base, plus the best of Scouts (2) or Light Cavalry,
/// Skirmishers, Dragoons (1) once a unit.
#[test]
fn bfs_scn_35_reconnaissance_points() {
    // Pancerni 3 + Cossacks (4 bases, Light Cavalry) 5 + haiduks 0 + dragoons (3, Dragoons) 4.
    assert_eq!(
        force("polish-border-patrol.ron")
            .summary
            .reconnaissance_points,
        12
    );
    // Pancerni 3 + Cossacks 5 + hussars 3; the haiduks and the falconet give none.
    assert_eq!(
        force("polish-sosinski-banners.ron")
            .summary
            .reconnaissance_points,
        11
    );
    // Three bases of horse in each of three units, no scouting rules.
    assert_eq!(
        force("swedish-schwelick-column.ron")
            .summary
            .reconnaissance_points,
        9
    );
    assert_eq!(
        force("swedish-foraging-party.ron")
            .summary
            .reconnaissance_points,
        3
    );
}

/// BFS-LST-3: a force that breaks the card is refused, each problem naming the rule.
#[test]
fn bfs_lst_3_forces_that_break_the_card_are_refused_with_the_rule() {
    let mut f = core();
    f.units.retain(|p| p.card != "haiduks");
    let m = messages(&f);
    assert!(
        m.iter()
            .any(|m| m.contains("\"haiduks\"") && m.contains("core") && m.contains("BFS-LST-3")),
        "{m:?}"
    );

    let mut f = core();
    f.units[0].bases = 5; // 3 black + 1 grey at most
    let m = messages(&f);
    assert!(
        m.iter()
            .any(|m| m.contains("5 bases") && m.contains("3 black and 1 grey")),
        "{m:?}"
    );

    // The FSP 8 level's units need some of the FSP 6 level first.
    let mut f = core();
    f.units.push(pick("haiduks-2", 4));
    let m = messages(&f);
    assert!(
        m.iter()
            .any(|m| m.contains("FSP 6 level first") && m.contains("BFS-LST-3")),
        "{m:?}"
    );

    // The falconet comes with the FSP 6 level.
    let mut f = core();
    f.additional.push(pick("falconet", 1));
    let m = messages(&f);
    assert!(
        m.iter()
            .any(|m| m.contains("\"falconet\"") && m.contains("FSP 6 level")),
        "{m:?}"
    );
    f.units.push(pick("pancerni-2", 3));
    assert!(messages(&f).is_empty(), "{:?}", messages(&f));

    let mut f = core();
    f.units.push(pick("pancerni", 3));
    f.units.push(pick("janissaries", 4));
    let m = messages(&f);
    assert!(m.iter().any(|m| m.contains("picked twice")), "{m:?}");
    assert!(m.iter().any(|m| m.contains("not on the card")), "{m:?}");
}

/// A hand-written force with a syntax error names its file, line and column.
#[test]
fn a_broken_force_file_names_line_and_column() {
    let dir = std::env::temp_dir().join(format!("sandtable-force-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.ron");
    std::fs::write(
        &path,
        "SkirmishForce(\n  format: 1,\n  name: \"x\",\n  army_list: \"polish-lithuanian-1655\",\n  units: [Pick(card: \"pancerni\", bases: three)],\n)\n",
    )
    .unwrap();
    match load_force(&path, &lists()) {
        Err(LoadError::Syntax { line, .. }) => assert_eq!(line, 5),
        other => panic!("expected a syntax error, got {other:?}"),
    }
    std::fs::write(
        &path,
        "SkirmishForce(format: 1, name: \"x\", army_list: \"ottoman-1672\", units: [])\n",
    )
    .unwrap();
    let e = load_force(&path, &lists()).unwrap_err().to_string();
    assert!(
        e.contains("broken.ron") && e.contains("ottoman-1672"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// BFS-SPC-30 with BFS-SCN-35: Scouts give 2 Reconnaissance Points a unit, on top of its horse's
/// 1 a base, and do not stack with Light Cavalry's 1 (the highest bonus counts). The rule's
/// reroll "when checking whether a scouting unit suffered losses" belongs to a reconnaissance
/// procedure the sources do not hold.
#[test]
fn bfs_spc_30_scouts_give_two_reconnaissance_points_a_unit() {
    use sandtable_bfs::force::reconnaissance_points;
    use sandtable_bfs::profile::SpecialRule;
    let list = polish();
    let mut cossacks = list.profile("cossack-cavalry").unwrap().clone();
    assert!(cossacks.has(SpecialRule::LightCavalry));
    assert_eq!(reconnaissance_points(&cossacks, 3, true), 3 + 1);
    cossacks.special_rules.push(SpecialRule::Scouts);
    assert_eq!(reconnaissance_points(&cossacks, 3, true), 3 + 2);
    // Additional units of one row count as one unit: the bonus once.
    assert_eq!(reconnaissance_points(&cossacks, 3, false), 3);
    // Scouts on foot: the bonus alone.
    let mut haiduks = list.profile("haiduks").unwrap().clone();
    haiduks.special_rules.push(SpecialRule::Scouts);
    assert_eq!(reconnaissance_points(&haiduks, 4, true), 2);
}

/// BFS-LST-9: the Cossack house card follows the rulebook's worked example: a Colonel of 2 CP;
/// a core (FSP 4) of two sotnias of moloitsy of 4 bases, register moloitsy of 4 and of 3 with a
/// grey base, and 2 grey bases of plastuny scouts; a cavalry sotnia at FSP 6 that needs the FSP 5
/// level; an esaul, a wagon train and a horde of rabble on the right. The two shipped forces keep
/// to it.
#[test]
fn bfs_lst_9_the_cossack_card_follows_the_books_example() {
    use sandtable_bfs::profile::SpecialRule;
    let lists = {
        let mut l = lists();
        l.push(load_army_list(&assets().join("armies/cossack-1648.ron")).expect("shipped list"));
        l
    };
    let cossack = lists.iter().find(|l| l.id == "cossack-1648").unwrap();
    let card = cossack.card.as_ref().expect("a card");
    assert_eq!((card.commander.command_points, card.levels[0].fsp), (2, 4));
    let core: Vec<(&str, u8, u8)> = card.levels[0]
        .units
        .iter()
        .map(|u| (u.profile.as_str(), u.bases, u.optional_bases))
        .collect();
    assert_eq!(
        core,
        [
            ("moloitsy", 4, 0),
            ("moloitsy", 4, 0),
            ("register-moloitsy", 4, 0),
            ("register-moloitsy", 3, 1),
            ("plastuny", 0, 2),
        ]
    );
    assert!(
        cossack
            .profile("plastuny")
            .unwrap()
            .has(SpecialRule::Scouts)
    );
    let rabble = cossack.profile("cossack-rabble").unwrap();
    assert!(rabble.has(SpecialRule::Rabble));
    // Rabble deploys no wider than deep (BFS-SPC-25): 10 bases 3 wide in 4 ranks, 4 bases 2 by 2.
    use sandtable_bfs::force::default_formation;
    use sandtable_bfs::scenario_spec::FormationSpec;
    assert_eq!(
        default_formation(Some(rabble), 10),
        FormationSpec::Line { files: 3 }
    );
    assert_eq!(
        default_formation(Some(rabble), 4),
        FormationSpec::Line { files: 2 }
    );
    // Moloitsy are never sent to Reserves (BFS-SCN-31).
    assert!(cossack.profile("moloitsy").unwrap().no_reserves);
    // The cavalry of FSP 6 needs units of the FSP 5 level (BFS-LST-3).
    let mut f: ForceFile = ron::from_str(
        &std::fs::read_to_string(assets().join("forces/cossack-raiders.ron")).unwrap(),
    )
    .unwrap();
    f.units.retain(|p| p.card != "register-3");
    let problems = f.problems(cossack);
    assert!(
        problems.iter().any(|p| p.message.contains("FSP 5")),
        "{problems:?}"
    );
    for (name, fsp) in [
        ("cossack-chyhyryn-foot.ron", 7),
        ("cossack-raiders.ron", 10),
    ] {
        let force = load_force(&assets().join("forces").join(name), &lists)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(force.summary.fsp, fsp, "{name}");
    }
}
