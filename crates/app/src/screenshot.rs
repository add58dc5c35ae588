//! `--screenshot PATH`: render the opening view of a scenario to a PNG and exit.
//!
//! Beside the PNG it writes `PATH.probes.ron`: the screen pixels of known things (the table's
//! centre, one base of each side) and the colours they must have. The real-window check reads the
//! PNG independently and compares (crates/app/tests/real_window.rs).

use crate::battle::Battle;
use crate::palette;
use crate::screens::Screen;
use crate::table::view::{TableView, from_geo};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::window::PrimaryWindow;
use sandtable_engine::{Piece, PieceKind, TableScene};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Frames to let the table settle (assets, fonts, the first layout) before capturing.
pub const SETTLE_FRAMES: u32 = 20;

#[derive(Resource, Debug, Clone)]
pub struct ScreenshotRequest {
    pub path: PathBuf,
    frames_in_battle: u32,
    /// Frames in a row with a reason of the computer's on screen (for --open-why).
    frames_with_why: u32,
    taken: bool,
}

impl ScreenshotRequest {
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            frames_in_battle: 0,
            frames_with_why: 0,
            taken: false,
        }
    }
}

/// A pixel the check should look at.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Probe {
    pub what: String,
    /// Physical pixel, origin top-left.
    pub x: u32,
    pub y: u32,
    pub rgb: [u8; 3],
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Probes {
    pub width: u32,
    pub height: u32,
    pub probes: Vec<Probe>,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        take_screenshot.run_if(resource_exists::<ScreenshotRequest>),
    );
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each argument is a resource it reads
fn take_screenshot(
    mut commands: Commands,
    mut request: ResMut<ScreenshotRequest>,
    state: Res<State<Screen>>,
    mut battle: Option<ResMut<Battle>>,
    view: Res<TableView>,
    windows: Query<&Window, With<PrimaryWindow>>,
    ui: Res<crate::ui::BattleUi>,
    area: Res<crate::table::view::TableArea>,
    rule: Res<crate::ui::rules::RuleWindowShown>,
    autoplay: Option<Res<crate::autoplay::Autoplay>>,
    mut exit: MessageWriter<AppExit>,
) {
    if !crate::autoplay::done(autoplay) {
        return;
    }
    if request.taken || *state.get() != Screen::Battle {
        // A scenario that failed to load leaves us on the start screen: capture that instead
        // after the same delay, so the errors can be seen in the PNG.
        if !request.taken && *state.get() == Screen::Start {
            request.frames_in_battle += 1;
            if request.frames_in_battle > SETTLE_FRAMES * 3 {
                capture(&mut commands, &mut request, None, 1.0);
            }
        }
        return;
    }
    // A screenshot is taken for whoever must decide: no hand-over curtain in the way.
    if let Some(b) = battle.as_mut()
        && b.curtain.is_some()
    {
        b.lift_curtain();
        request.frames_in_battle = 0;
    }
    request.frames_in_battle += 1;
    if request.frames_in_battle < SETTLE_FRAMES {
        return;
    }
    // A screenshot of "Why?" (--open-why) waits, a while, for the computer to give a reason
    // and for the panel to take its size.
    if ui.why_open {
        let shown = battle.as_ref().is_some_and(|b| b.computer_why.is_some());
        request.frames_with_why = if shown {
            request.frames_with_why + 1
        } else {
            0
        };
        if request.frames_with_why < 5 && request.frames_in_battle < SETTLE_FRAMES * 40 {
            return;
        }
    }
    let Some(battle) = battle else {
        exit.write(AppExit::error());
        return;
    };
    let Ok(window) = windows.single() else { return };
    let scale = window.scale_factor();
    let mut probes = probes_for(&battle, &view, window, scale);
    // The lesson card and the rule window, when shown: a pixel inside each frame has its fill.
    for (what, shown) in [("lesson card", ui.lesson_rect), ("rule window", rule.0)] {
        if let Some((rect, fill)) = shown {
            probes.probes.push(Probe {
                what: what.into(),
                x: ((rect.max.x - 8.0) * scale).round() as u32,
                y: ((rect.max.y - 8.0) * scale).round() as u32,
                rgb: fill,
            });
        }
    }
    // The table area's background, just inside its top-left corner (the table is fitted with a
    // margin, so this is never the table).
    probes.probes.push(Probe {
        what: "background".into(),
        x: ((area.min.x + 4.0) * scale).round() as u32,
        y: ((area.min.y + 4.0) * scale).round() as u32,
        rgb: palette::BACKGROUND,
    });
    // The tape's label, when laid: a pixel inside its frame has its fill; its words say the unit.
    if let Some((rect, fill, words)) = &ui.tape_label {
        probes.probes.push(Probe {
            what: format!("tape label {words}"),
            x: ((rect.min.x + 3.0) * scale).round() as u32,
            y: ((rect.max.y - 3.0) * scale).round() as u32,
            rgb: *fill,
        });
    }
    // The dice panel, when open: a pixel inside its frame has the window fill.
    if let Some((rect, fill)) = ui.dice_rect {
        probes.probes.push(Probe {
            what: "dice panel".into(),
            x: ((rect.max.x - 6.0) * scale).round() as u32,
            y: ((rect.max.y - 6.0) * scale).round() as u32,
            rgb: fill,
        });
    }
    capture(&mut commands, &mut request, Some(probes), scale);
}

fn probes_for(battle: &Battle, view: &TableView, window: &Window, scale: f32) -> Probes {
    let scene = &battle.scene;
    let mut probes = Vec::new();
    let mut add = |what: String, world: sandtable_geometry::Vec2, rgb: [u8; 3]| {
        let s = view.world_to_screen(from_geo(world)) * scale;
        if s.x >= 0.0 && s.y >= 0.0 {
            probes.push(Probe {
                what,
                x: s.x.round() as u32,
                y: s.y.round() as u32,
                rgb,
            });
        }
    };
    add(
        "table centre".into(),
        open_table_point(scene),
        palette::TABLE,
    );
    // For each side, the base standing furthest from other pieces (labels and outlines of others
    // cannot cover it).
    let units: Vec<&Piece> = scene
        .pieces
        .iter()
        .filter(|p| p.kind == PieceKind::Unit)
        .collect();
    for side in 0..2u8 {
        let clearance = |u: &Piece, b: &sandtable_geometry::Rect| {
            scene
                .pieces
                .iter()
                .filter(|o| o.id != u.id)
                .flat_map(|o| o.bases.iter())
                .map(|ob| ob.center().distance(b.center()))
                .fold(f32::INFINITY, f32::min)
        };
        if let Some((u, b)) = units
            .iter()
            .filter(|u| u.side == side)
            .flat_map(|u| u.bases.iter().map(move |b| (*u, b)))
            .max_by(|x, y| clearance(x.0, x.1).total_cmp(&clearance(y.0, y.1)))
        {
            add(
                format!("base of unit \"{}\"", u.key),
                crate::table::draw::emblem_free_point(b),
                palette::side_rgb(side as usize),
            );
        }
    }
    // A token: dark while face down, parchment once face up.
    if let Some((u, t)) = units.iter().find_map(|u| u.tokens.first().map(|t| (*u, t))) {
        let rgb = if t.face_down {
            crate::table::draw::MARKER_FACE_DOWN
        } else {
            crate::table::draw::MARKER_REVEALED
        };
        // Near a corner of the token, clear of its letter.
        let corner = t.size * 0.35;
        add(
            format!("order marker of \"{}\"", u.key),
            t.at + sandtable_geometry::Vec2::new(-corner, -corner),
            rgb,
        );
    }
    Probes {
        width: window.physical_width(),
        height: window.physical_height(),
        probes,
    }
}

fn capture(
    commands: &mut Commands,
    request: &mut ScreenshotRequest,
    probes: Option<Probes>,
    _scale: f32,
) {
    request.taken = true;
    let path = request.path.clone();
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            let result = save(&path, &captured.image, probes.as_ref());
            match result {
                Ok(()) => {
                    info!("screenshot written to {}", path.display());
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    error!("cannot write the screenshot {}: {e}", path.display());
                    exit.write(AppExit::error());
                }
            }
        },
    );
}

fn save(path: &std::path::Path, image: &Image, probes: Option<&Probes>) -> Result<(), String> {
    let rgb = image
        .clone()
        .try_into_dynamic()
        .map_err(|e| e.to_string())?
        .to_rgb8();
    let tmp = path.with_extension("png.tmp");
    rgb.save_with_format(&tmp, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    std::fs::rename(&tmp, path).map_err(|e| e.to_string())?;
    if let Some(p) = probes {
        let text = sandtable_engine::data_file::to_ron_pretty(p)?;
        let mut probe_path = path.as_os_str().to_owned();
        probe_path.push(".probes.ron");
        sandtable_engine::data_file::write_atomic(std::path::Path::new(&probe_path), &text)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A point of open table for the table-colour probe: the nearest to the centre that is clear of
/// terrain, pieces and their labels.
fn open_table_point(scene: &TableScene) -> sandtable_geometry::Vec2 {
    use sandtable_geometry::{Polygon, Vec2};
    let centre = scene.size * 0.5;
    let polygons: Vec<Polygon> = scene
        .terrain
        .iter()
        .flat_map(|t| t.polygons.iter())
        .filter_map(|p| Polygon::new(p.clone()).ok())
        .collect();
    let things: Vec<Vec2> = scene
        .pieces
        .iter()
        .flat_map(|p| p.bases.iter().map(|b| b.center()))
        .collect();
    let clear = |p: Vec2| {
        polygons
            .iter()
            .all(|poly| !poly.contains(p) && poly.distance_to_point(p) > 3.0)
            && things
                .iter()
                .all(|t| (t.x - p.x).abs() > 14.0 || (t.y - p.y).abs() > 9.0)
    };
    let step = 3.0;
    for ring in 0..60 {
        let r = ring as f32 * step;
        let n = (ring * 8).max(1);
        for k in 0..n {
            let a = k as f32 / n as f32 * std::f32::consts::TAU;
            let p = centre + Vec2::new(a.cos(), a.sin()) * r;
            if p.x > 2.0
                && p.y > 2.0
                && p.x < scene.size.x - 2.0
                && p.y < scene.size.y - 2.0
                && clear(p)
            {
                return p;
            }
        }
    }
    centre
}
