//! The real-window check: run `sandtable --screenshot` in an X display (CI starts Xvfb with
//! Mesa's software Vulkan), then read the PNG and assert on its pixels.
//!
//! Ignored by default because it needs a display: `.ci/run` runs it with `--ignored`.

use sandtable_app::palette;
use sandtable_app::screenshot::Probes;
use std::path::PathBuf;
use std::process::Command;

/// Largest per-channel difference accepted (anti-aliasing, dithering).
const TOLERANCE: i32 = 10;

fn shot_dir() -> PathBuf {
    let dir = std::env::var_os("SANDTABLE_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("sandtable-shots"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn take(name: &str, extra: &[&str]) -> (image::RgbImage, Probes) {
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "set DISPLAY (e.g. run Xvfb :99 and DISPLAY=:99)"
    );
    let png = shot_dir().join(name);
    let _ = std::fs::remove_file(&png);
    // From the project root, so relative scenario paths work as they do for a player.
    let status = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .current_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .args(extra)
        .arg("--screenshot")
        .arg(&png)
        .status()
        .expect("run sandtable");
    assert!(
        status.success(),
        "sandtable --screenshot exited with {status}"
    );
    let img = image::open(&png).expect("read the PNG").to_rgb8();
    let mut probes_path = png.clone().into_os_string();
    probes_path.push(".probes.ron");
    let probes: Probes = ron::from_str(&std::fs::read_to_string(probes_path).unwrap()).unwrap();
    (img, probes)
}

fn assert_pixel(img: &image::RgbImage, x: u32, y: u32, want: [u8; 3], what: &str) {
    let got = img.get_pixel(x, y).0;
    let close = got
        .iter()
        .zip(want)
        .all(|(g, w)| (*g as i32 - w as i32).abs() <= TOLERANCE);
    assert!(
        close,
        "{what} at ({x}, {y}): expected {want:?}, found {got:?}"
    );
}

/// The probe named `what`, if the app wrote one.
fn probe<'p>(probes: &'p Probes, what: &str) -> Option<&'p sandtable_app::screenshot::Probe> {
    probes.probes.iter().find(|p| p.what.starts_with(what))
}

/// The checks every battle screenshot must pass: table, a base of each side, the background.
fn assert_battle_basics(img: &image::RgbImage, probes: &Probes) {
    assert_eq!((img.width(), img.height()), (probes.width, probes.height));
    // The expected colours are the palette's, so a probe file cannot vouch for a wrong render.
    let table = probe(probes, "table centre").expect("a table probe");
    assert_pixel(img, table.x, table.y, palette::TABLE, "table centre");
    let bases: Vec<_> = probes
        .probes
        .iter()
        .filter(|p| p.what.starts_with("base of "))
        .collect();
    assert_eq!(bases.len(), 2, "a base of each side: {probes:?}");
    for (side, p) in bases.iter().enumerate() {
        assert_pixel(img, p.x, p.y, palette::side_rgb(side), &p.what);
    }
    let bg = probe(probes, "background").expect("a background probe");
    assert_pixel(
        img,
        bg.x,
        bg.y,
        palette::BACKGROUND,
        "background beside the table",
    );
}

#[test]
#[ignore = "needs an X display"]
fn default_scenario_renders_table_and_both_sides() {
    let (img, probes) = take("default.png", &[]);
    assert_battle_basics(&img, &probes);
}

/// Issue 19: an installed copy runs from any folder. The program is copied away from the
/// repository (so neither the current folder nor the program's own folder holds the data) and run
/// with an empty home: it unpacks its built-in data and renders the default battle.
#[test]
#[ignore = "needs an X display"]
fn a_copy_away_from_the_repository_runs_with_an_empty_home() {
    let place = shot_dir().join("installed");
    let _ = std::fs::remove_dir_all(&place);
    let (bin, home) = (place.join("bin"), place.join("home"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let exe = bin.join("sandtable");
    std::fs::copy(env!("CARGO_BIN_EXE_sandtable"), &exe).expect("copy the program");
    let png = place.join("installed.png");
    let out = Command::new(&exe)
        .current_dir(&place)
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("SANDTABLE_SAVES")
        .arg("--screenshot")
        .arg(&png)
        .output()
        .expect("run the copied program");
    assert!(
        out.status.success(),
        "the copy exited with {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::open(&png).expect("read the PNG").to_rgb8();
    let mut probes_path = png.clone().into_os_string();
    probes_path.push(".probes.ron");
    let probes: Probes = ron::from_str(&std::fs::read_to_string(probes_path).unwrap()).unwrap();
    assert_battle_basics(&img, &probes);
    let data = home.join(".local/share/sandtable");
    let unpacked: Vec<_> = std::fs::read_dir(&data)
        .expect("the data folder under the empty home")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        unpacked.iter().any(|n| n.starts_with("data-")),
        "no unpacked data in {}: {unpacked:?}",
        data.display()
    );
    let _ = std::fs::remove_file(&exe);
}

#[test]
#[ignore = "needs an X display"]
fn orders_phase_shows_order_markers() {
    // Bids, the Initiative choice and some orders: face-down markers are on the table.
    let (img, probes) = take("orders.png", &["--autoplay", "6"]);
    assert_battle_basics(&img, &probes);
    let marker = probe(&probes, "order marker").expect("an order marker probe");
    assert!(
        [
            sandtable_app::table::draw::MARKER_FACE_DOWN,
            sandtable_app::table::draw::MARKER_REVEALED
        ]
        .contains(&marker.rgb),
        "a marker has a marker colour: {marker:?}"
    );
    assert_pixel(&img, marker.x, marker.y, marker.rgb, &marker.what);
}

#[test]
#[ignore = "needs an X display"]
fn the_initiative_roll_opens_the_dice_panel() {
    // Both bids placed: the Initiative roll is the last action, so the dice panel is open.
    let (img, probes) = take("dice.png", &["--autoplay", "2"]);
    assert_battle_basics(&img, &probes);
    let dice = probe(&probes, "dice panel").expect("the dice panel is open");
    assert_pixel(&img, dice.x, dice.y, palette::DICE_PANEL, "dice panel");
}

#[test]
#[ignore = "needs an X display"]
fn a_battle_against_the_computer_renders_mid_turn() {
    let (img, probes) = take("computer.png", &["--computer", "b", "--autoplay", "20"]);
    assert_battle_basics(&img, &probes);
}

#[test]
#[ignore = "needs an X display"]
fn the_start_screen_renders() {
    let png = shot_dir().join("start.png");
    let _ = std::fs::remove_file(&png);
    // Its own empty saves folder: an autosave elsewhere would add a "Resume" row.
    let saves = shot_dir().join("start-saves");
    let _ = std::fs::remove_dir_all(&saves);
    let status = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .arg("--saves")
        .arg(&saves)
        .args(["--start-screen", "--screenshot"])
        .arg(&png)
        .status()
        .expect("run sandtable");
    assert!(status.success(), "{status}");
    let img = image::open(&png).expect("read the PNG").to_rgb8();
    // The selected scenario's row is highlighted in egui's selection blue, in the list's upper
    // half.
    let highlighted = (0..img.height() / 2).any(|y| {
        let p = img.get_pixel(40, y).0;
        p[2] > 90 && p[2] as i32 - p[0] as i32 > 60
    });
    assert!(
        highlighted,
        "the default scenario is selected on the start screen"
    );
}

#[test]
#[ignore = "needs an X display"]
fn a_lesson_step_shows_its_card_and_highlights() {
    let (img, probes) = take(
        "lesson.png",
        &["--scenario", "scenarios/tutorial/01-dice-and-tests.ron"],
    );
    assert_battle_basics(&img, &probes);
    let card = probe(&probes, "lesson card").expect("the lesson card is shown");
    assert_pixel(&img, card.x, card.y, [28, 44, 52], "lesson card");
}

#[test]
#[ignore = "needs an X display"]
fn a_rule_explanation_opens_in_its_window() {
    let (img, probes) = take("rule.png", &["--open-rule", "BFS-SHO-14"]);
    assert_battle_basics(&img, &probes);
    let window = probe(&probes, "rule window").expect("the rule window is shown");
    assert_pixel(&img, window.x, window.y, window.rgb, "rule window");
    // The window's fill is egui's dark window colour, not the table or the background.
    assert!(window.rgb != palette::TABLE && window.rgb != palette::BACKGROUND);
}

#[test]
#[ignore = "needs an X display"]
fn movement_phase_shows_the_revealed_orders() {
    // Orders given and the first side's orders revealed: a charge is declared and answered.
    let (img, probes) = take("movement.png", &["--autoplay", "16"]);
    assert_battle_basics(&img, &probes);
    let marker = probe(&probes, "order marker").expect("an order marker probe");
    assert_pixel(&img, marker.x, marker.y, marker.rgb, &marker.what);
}

/// The second ruleset renders in the same window, and its tape reads inches.
#[test]
#[ignore = "needs an X display"]
fn the_napoleonic_battle_renders_and_its_tape_reads_inches() {
    let (img, probes) = take(
        "napoleonic.png",
        &[
            "--scenario",
            "scenarios/10-rossbach-brigade-action.ron",
            "--measure",
            "fr-4-ligne,au-kuerassiere",
        ],
    );
    assert_battle_basics(&img, &probes);
    let tape = probe(&probes, "tape label").expect("the tape's label is shown");
    // From the 4e Ligne's column (front-left corner at 19", 10") to the Kürassiere's line
    // (front-right corner at 14", 38"): √(5² + 28²) = 28.44", written in inches.
    assert_eq!(tape.what, "tape label 28.4 in");
    assert_pixel(&img, tape.x, tape.y, tape.rgb, "the tape label");
}
