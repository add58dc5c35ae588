//! Property tests: random legal games never panic and keep the invariants; save → load replays to
//! the same state hash. `PROPTEST_CASES` sets the number of games (CI uses a modest count).

use proptest::prelude::*;
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::state::{Game, UnitStatus};
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::TakeBackKind;
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use sandtable_engine::scenario_check::rects_overlap;
use sandtable_engine::{Ruleset, Session};
use sandtable_geometry::{Pose, Rect, Vec2};
use std::path::Path;

fn setup() -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    BattleSetup::from(
        &load_scenario(
            &root.join("scenarios/01-mill-ford-skirmish.ron"),
            &root.join("assets/armies"),
        )
        .unwrap(),
    )
}

/// The same battle with optional rules switched on by `flavour`: the Ammunition rules by
/// neither, either method (BFS-OPT-7), Hail of arrows (BFS-OPT-2), Group orders off (BFS-OPT-3),
/// the musketeers firing Salvoes and the haiduks Ranked Fire (BFS-SPC-29, BFS-SPC-26), and the
/// hussars and pancerni as Elite Cavalry with the reiters caracoling, two ranks deep
/// (BFS-SPC-10, BFS-SPC-4: no shipped army list fields them yet).
fn setup_with_options(flavour: u8) -> BattleSetup {
    use sandtable_bfs::profile::SpecialRule;
    use sandtable_engine::scenario::OptionValue;
    let mut s = setup();
    if flavour / 24 % 2 == 1 {
        for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
            match p.id.as_str() {
                "winged-hussars" | "pancerni" => p.special_rules.push(SpecialRule::EliteCavalry),
                "reiters" => p.special_rules.push(SpecialRule::Caracole),
                _ => {}
            }
        }
        for u in s
            .scenario
            .rules
            .forces
            .iter_mut()
            .flat_map(|f| f.units.iter_mut())
        {
            if u.profile == "reiters" {
                u.formation = sandtable_bfs::scenario_spec::FormationSpec::Line { files: 2 };
            }
        }
    }
    if flavour / 12 % 2 == 1 {
        for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
            match p.id.as_str() {
                "musketeers" => p.special_rules.push(SpecialRule::Salvo),
                "haiduks" => p.special_rules.push(SpecialRule::RankedFire),
                _ => {}
            }
        }
    }
    let options = &mut s.scenario.options;
    match flavour % 3 {
        1 => options.insert("ammunition".into(), OptionValue::Text("counting".into())),
        2 => options.insert("ammunition".into(), OptionValue::Text("test".into())),
        _ => None,
    };
    if flavour / 3 % 2 == 1 {
        options.insert("hail_of_arrows".into(), OptionValue::Bool(true));
    }
    if flavour / 6 % 2 == 1 {
        options.insert("group_orders".into(), OptionValue::Bool(false));
    }
    s
}

/// The invariants every reachable position keeps.
fn check_invariants(g: &Game) -> Result<(), String> {
    let live: Vec<_> = g
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
        .collect();
    for (i, a) in live.iter().enumerate() {
        // Bases leave only through the rules: every base is on the table, destroyed or fled.
        let accounted = a.bases.len() + a.bases_destroyed as usize + a.bases_fled as usize;
        if accounted != a.bases_at_start as usize {
            return Err(format!(
                "{}: {} bases on table + {} destroyed + {} fled != {}",
                a.name,
                a.bases.len(),
                a.bases_destroyed,
                a.bases_fled,
                a.bases_at_start
            ));
        }
        if a.bases.is_empty() {
            return Err(format!("{} is on the table with no bases", a.name));
        }
        // A War Wagon Train keeps one wagon for each base (BFS-WAG-13).
        if let Some(t) = &a.train
            && t.wagons.len() != a.bases.len()
        {
            return Err(format!(
                "{} has {} wagons on {} bases",
                a.name,
                t.wagons.len(),
                a.bases.len()
            ));
        }
        let strength = g.profile(a.profile).strength;
        if a.casualty_markers >= strength {
            return Err(format!(
                "{} has {} casualty markers with {} SP per base",
                a.name, a.casualty_markers, strength
            ));
        }
        for b in &a.bases {
            let c = b.center();
            if !(c.x.is_finite() && c.y.is_finite()) {
                return Err(format!("{} has a base at a non-finite position", a.name));
            }
        }
        // No two units' bases overlap (touching is contact, allowed).
        for other in &live[i + 1..] {
            for x in &a.bases {
                for y in &other.bases {
                    if rects_overlap(x, y) {
                        return Err(format!("{} overlaps {}", a.name, other.name));
                    }
                }
            }
        }
    }
    for u in &g.units {
        if let Some(sandtable_bfs::ammunition::Supply::Counting { halves, start }) = u.supply
            && halves > start
        {
            return Err(format!(
                "{} has {halves} half Ammunition Units of {start}",
                u.name
            ));
        }
    }
    for c in &g.commanders {
        if c.cp > c.cp_max.saturating_add(20) {
            return Err(format!("{} has an impossible {} CP", c.name, c.cp));
        }
    }
    Ok(())
}

fn play(seed: u64, choices: &[u16], limit: usize) -> Result<Session<Bfs>, String> {
    play_with(setup(), seed, choices, limit)
}

fn play_with(
    setup: BattleSetup,
    seed: u64,
    choices: &[u16],
    limit: usize,
) -> Result<Session<Bfs>, String> {
    let mut s = Session::<Bfs>::new(setup, seed).map_err(|e| e.to_string())?;
    for i in 0..limit {
        let c = candidates(s.state());
        if c.is_empty() {
            break;
        }
        let pick = c[choices[i % choices.len()] as usize % c.len()].clone();
        // Everything the candidate list offers must be legal and must execute.
        if let Err(e) = s.submit(pick.clone()) {
            return Err(format!("{pick:?} was offered but refused: {e}"));
        }
        check_invariants(s.state()).map_err(|e| format!("after {pick:?}: {e}"))?;
        // The view never shows the other side's face-down orders.
        for seat in 0..2u8 {
            let v = Bfs::view(s.state(), seat);
            if v.units
                .iter()
                .any(|u| u.side.0 != seat && u.pending_order.is_some_and(|p| p.kind.is_some()))
            {
                return Err(format!("seat {seat} sees a face-down order"));
            }
            if v.commanders.iter().any(|c| {
                c.side.0 != seat && c.pending_instruction.is_some_and(|p| p.kind.is_some())
            }) {
                return Err(format!("seat {seat} sees a face-down Instruction"));
            }
        }
    }
    Ok(s)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24), ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_keep_the_invariants(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..64), flavour in 0u8..48) {
        let s = play_with(setup_with_options(flavour), seed, &choices, 400).map_err(TestCaseError::fail)?;
        // Save, load and compare: the replay reproduces the state exactly.
        let text = sandtable_engine::data_file::to_ron_pretty(&s.to_save()).map_err(TestCaseError::fail)?;
        let save = sandtable_engine::data_file::parse_ron(Path::new("game.ron"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded = Session::<Bfs>::from_save(save, "game.ron").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.hash(), s.hash());
    }

    /// The wagon battles: the baggage at Nowy Dwór (transport and powder wagons, the Ammunition
    /// rules) and the tabor at the Bug (a War Wagon Train), played at random; saved and loaded,
    /// they replay exactly (BFS-WAG).
    #[test]
    fn random_legal_games_with_wagons(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..64), tabor in any::<bool>()) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let file = if tabor { "scenarios/06-the-tabor-at-the-bug.ron" } else { "scenarios/05-baggage-at-nowy-dwor.ron" };
        let setup = BattleSetup::from(&load_scenario(&root.join(file), &root.join("assets/armies")).unwrap());
        let s = play_with(setup, seed, &choices, 400).map_err(TestCaseError::fail)?;
        let text = sandtable_engine::data_file::to_ron_pretty(&s.to_save()).map_err(TestCaseError::fail)?;
        let save = sandtable_engine::data_file::parse_ron(Path::new("game.ron"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded = Session::<Bfs>::from_save(save, "game.ron").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.hash(), s.hash());
    }

    /// A free take-back (the seat's own last command, which showed nothing new) is exact, and
    /// redo puts it back.
    #[test]
    fn undo_is_exact(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..32)) {
        let mut s = play(seed, &choices, 60).map_err(TestCaseError::fail)?;
        let Some(seat) = s.entries().last().and_then(|e| e.by) else { return Ok(()) };
        if s.take_back_kind(seat) == TakeBackKind::Free {
            let before_last = {
                let mut t = Session::<Bfs>::new(setup(), seed).unwrap();
                let n = s.len();
                for c in s.commands().take(n - 1) {
                    t.submit(c.clone()).unwrap();
                }
                t.hash()
            };
            let after = s.hash();
            prop_assert!(s.undo(seat));
            prop_assert_eq!(s.hash(), before_last);
            s.redo().unwrap();
            prop_assert_eq!(s.hash(), after);
        }
    }

    /// A consented take-back re-draws the dice that follow, is logged, and a save with it
    /// replays to the same state.
    #[test]
    fn a_consented_take_back_is_logged_and_replays_exactly(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..48), salt in any::<u64>()) {
        let mut s = play(seed, &choices, 120).map_err(TestCaseError::fail)?;
        let Some(seat) = s.entries().last().and_then(|e| e.by) else { return Ok(()) };
        let n = s.len();
        let undone = s.take_back(seat, Some(salt));
        prop_assert!(undone >= 1 && s.len() == n - undone);
        prop_assert_eq!(s.take_backs().len(), 1);
        // Play on a little after the take-back, then save and load.
        let mut more = 0;
        while more < 6 {
            let Some(c) = Bfs::candidates(s.state()).into_iter().next() else { break };
            s.submit(c).map_err(|e| TestCaseError::fail(e.to_string()))?;
            more += 1;
        }
        let text = sandtable_engine::data_file::to_ron_pretty(&s.to_save()).map_err(TestCaseError::fail)?;
        let save = sandtable_engine::data_file::parse_ron(Path::new("game.ron"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded = Session::<Bfs>::from_save(save, "game.ron").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.hash(), s.hash());
    }
}

/// Every kind of terrain piece, for the random tables below.
const KINDS: [TerrainKind; 17] = [
    TerrainKind::Forest,
    TerrainKind::Grove,
    TerrainKind::Hill,
    TerrainKind::SteepHill,
    TerrainKind::WheatField,
    TerrainKind::PloughedField,
    TerrainKind::Stream,
    TerrainKind::River,
    TerrainKind::Ford,
    TerrainKind::Bridge,
    TerrainKind::Lake,
    TerrainKind::Marsh,
    TerrainKind::Road,
    TerrainKind::Obstacle,
    TerrainKind::BuiltUpArea,
    TerrainKind::Building,
    TerrainKind::Fortification,
];

/// The Mill Ford skirmish with random pieces of terrain added, each at least 3 cm clear of every
/// base deployed (a scenario may not deploy a unit inside impassable ground).
fn setup_with_terrain(pieces: &[(usize, f32, f32, f32, f32, f32)]) -> BattleSetup {
    let mut setup = setup();
    let game = Bfs::setup(&setup, 1).unwrap();
    for &(k, x, y, w, h, rot) in pieces {
        let spec = TerrainSpec {
            kind: KINDS[k % KINDS.len()],
            name: None,
            shape: ShapeSpec::Rect {
                center: (x, y),
                size: (w, h),
                rotation: rot,
            },
        };
        // Scenario rotations are clockwise degrees.
        let piece = Rect::new(
            Pose::new(Vec2::new(x, y), (-rot).to_radians()),
            Vec2::new(w, h) * 0.5,
        );
        let clear = game
            .units
            .iter()
            .flat_map(|u| &u.bases)
            .all(|b| sandtable_geometry::distance::distance(b, &piece).is_ok_and(|d| d > 3.0));
        if clear {
            setup.scenario.terrain.push(spec);
        }
    }
    setup
}

/// No base of a unit on the table lies in terrain impassable to it (BFS-TER-4), but a garrison
/// in its own building (BFS-TER-29).
fn check_terrain(g: &Game) -> Result<(), String> {
    for u in g.units.iter().filter(|u| u.status == UnitStatus::OnTable) {
        let p = g.profile(u.profile);
        for (i, t) in g.terrain.iter().enumerate() {
            if u.garrison == Some(i as u16) {
                continue;
            }
            if sandtable_bfs::geo::terrain_class(t.kind, p)
                != sandtable_bfs::geo::TerrainClass::Impassable
            {
                continue;
            }
            let inside = sandtable_bfs::ground::footing_of(g, &u.bases).partly(t.kind);
            if inside {
                return Err(format!(
                    "{} stands in {:?}, impassable to it",
                    u.name, t.kind
                ));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24), ..ProptestConfig::default() })]

    /// Random legal play across random terrain (every kind, obstacles included) keeps the
    /// invariants, never puts a base in impassable terrain, and replays exactly.
    #[test]
    fn random_legal_games_across_random_terrain(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 1..64),
        pieces in prop::collection::vec((0usize..17, 5.0f32..115.0, 5.0f32..115.0, 2.0f32..24.0, 1.0f32..16.0, 0.0f32..180.0), 1..7),
    ) {
        let setup = setup_with_terrain(&pieces);
        let mut s = Session::<Bfs>::new(setup.clone(), seed).map_err(TestCaseError::fail)?;
        check_terrain(s.state()).map_err(TestCaseError::fail)?;
        for i in 0..300 {
            let c = candidates(s.state());
            if c.is_empty() {
                break;
            }
            let pick = c[choices[i % choices.len()] as usize % c.len()].clone();
            if let Err(e) = s.submit(pick.clone()) {
                return Err(TestCaseError::fail(format!("{pick:?} was offered but refused: {e}")));
            }
            check_invariants(s.state()).map_err(|e| TestCaseError::fail(format!("after {pick:?}: {e}")))?;
            check_terrain(s.state()).map_err(|e| TestCaseError::fail(format!("after {pick:?}: {e}")))?;
        }
        let text = sandtable_engine::data_file::to_ron_pretty(&s.to_save()).map_err(TestCaseError::fail)?;
        let save = sandtable_engine::data_file::parse_ron(Path::new("game.ron"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded = Session::<Bfs>::from_save(save, "game.ron").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.hash(), s.hash());
    }
}

/// The same seed and the same commands give the same game.
#[test]
fn determinism_same_seed_same_hash() {
    let a = play(42, &[3, 1, 4, 1, 5, 9, 2, 6], 300).unwrap();
    let b = play(42, &[3, 1, 4, 1, 5, 9, 2, 6], 300).unwrap();
    assert_eq!(a.hash(), b.hash());
    let c = play(43, &[3, 1, 4, 1, 5, 9, 2, 6], 300).unwrap();
    assert_ne!(a.hash(), c.hash());
}
