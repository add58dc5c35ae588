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
    let status = Command::new(env!("CARGO_BIN_EXE_sandtable"))
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

#[test]
#[ignore = "needs an X display"]
fn default_scenario_renders_table_and_both_sides() {
    let (img, probes) = take("default.png", &[]);
    assert_eq!((img.width(), img.height()), (probes.width, probes.height));
    assert!(probes.probes.len() >= 3, "{probes:?}");
    // The expected colours are the palette's, so a probe file cannot vouch for a wrong render.
    let table = &probes.probes[0];
    assert_eq!(table.what, "table centre");
    assert_pixel(&img, table.x, table.y, palette::TABLE, "table centre");
    for (side, p) in probes.probes[1..3].iter().enumerate() {
        assert_pixel(&img, p.x, p.y, palette::SIDES[side], &p.what);
    }
    // Off the table, the background shows.
    assert_pixel(
        &img,
        2,
        probes.height - 2,
        palette::BACKGROUND,
        "window corner",
    );
}
