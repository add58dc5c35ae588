//! The table: its view (camera), drawing, hit testing, input and the measuring tape.

pub mod draft;
pub mod draw;
pub mod input;
pub mod label_layout;
pub mod label_plan;
pub mod mesh;
pub mod overlays;
pub mod pick;
pub mod tape_math;
pub mod view;

use crate::battle::Battle;
use crate::screens::Screen;
use bevy::prelude::*;
use input::{Hovered, Pointer, Selected, Tape, Tool};

/// `--measure A,B`: the pieces to lay the tape between when the battle shows.
#[derive(Resource, Default, Clone)]
pub struct MeasureAtStart(pub Option<(String, String)>);

/// `--select KEY[,OVERLAY…]`: the piece selected when the battle shows, and overlays switched on.
#[derive(Resource, Default)]
pub struct SelectAtStart(pub Option<(String, Vec<String>)>);
use view::{TableArea, TableView};

/// The table's input systems; battle controls run after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct InputSet;

/// Set when the view should fit the whole table on the next frame (entering a battle, the F key).
#[derive(Resource, Debug, Default)]
pub struct FitPending(pub bool);

/// Input and view state, with no rendering: enough for headless tests.
pub fn interaction_plugin(app: &mut App) {
    app.init_resource::<TableView>()
        .insert_resource(TableArea {
            min: Vec2::ZERO,
            max: Vec2::new(1280.0, 800.0),
            measured: false,
        })
        .init_resource::<Tool>()
        .init_resource::<Pointer>()
        .init_resource::<Hovered>()
        .init_resource::<Selected>()
        .init_resource::<input::UnitMenu>()
        .init_resource::<Tape>()
        .init_resource::<FitPending>()
        .init_resource::<draft::Draft>()
        .init_resource::<overlays::Overlays>()
        .init_resource::<overlays::OverlayCache>()
        .add_systems(
            OnEnter(Screen::Battle),
            |mut fit: ResMut<FitPending>,
             mut sel: ResMut<Selected>,
             mut menu: ResMut<input::UnitMenu>,
             mut tape: ResMut<Tape>,
             measure: Option<Res<MeasureAtStart>>,
             select: Option<Res<SelectAtStart>>,
             mut overlays: ResMut<overlays::Overlays>,
             settings: Option<Res<crate::settings::Settings>>,
             battle: Option<Res<Battle>>| {
                fit.0 = true;
                sel.0 = None;
                if let (Some(b), Some((key, on))) =
                    (battle.as_ref(), select.as_ref().and_then(|s| s.0.as_ref()))
                {
                    sel.0 = b.scene.pieces.iter().find(|p| &p.key == key).map(|p| p.id);
                    for o in b.game.overlays() {
                        if on.iter().any(|n| n == o.id) {
                            overlays.0.insert(o.id);
                        }
                    }
                }
                menu.open = None;
                tape.start = None;
                tape.end = None;
                // The tape measures in the unit the settings choose (by default the ruleset's
                // own) until the player switches it.
                if let Some(b) = battle {
                    let choice = settings.map(|s| s.tape_unit).unwrap_or_default();
                    tape.unit = choice.resolve(b.game.length_unit());
                    // `--measure A,B`: the tape laid between two pieces, base to base.
                    let end = |key: &str| {
                        b.scene.pieces.iter().find(|p| p.key == key).and_then(|p| {
                            p.bases.first().map(|r| tape_math::TapeEnd {
                                point: r.center(),
                                base: Some(*r),
                            })
                        })
                    };
                    if let Some((a, z)) = measure.as_ref().and_then(|m| m.0.as_ref()) {
                        tape.start = end(a);
                        tape.end = end(z);
                    }
                }
            },
        )
        .add_systems(
            Update,
            (
                input::update_pointer,
                (draft::drag_pieces, draft::click_target).chain(),
                (
                    input::zoom_with_wheel,
                    input::mouse_buttons,
                    input::keyboard,
                    overlays::toggle_keys,
                ),
                fit_when_pending,
            )
                .chain()
                .in_set(InputSet)
                .run_if(in_state(Screen::Battle)),
        );
}

/// Drawing the table with Bevy's renderer.
pub fn render_plugin(app: &mut App) {
    app.add_systems(Startup, (spawn_camera, install_font))
        .add_systems(
            PostUpdate,
            (
                view::sync_camera,
                draw::rebuild_table,
                draw::scale_labels,
                draw::place_labels.after(draw::rebuild_table),
                (draw::draw_overlays, overlays::draw).run_if(in_state(Screen::Battle)),
            ),
        );
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Msaa::Sample4));
}

/// DejaVu Sans Condensed Bold (assets/fonts, Bitstream Vera licence) replaces Bevy's built-in
/// font, which lacks the Polish letters in names such as "Sosiński".
fn install_font(mut fonts: ResMut<Assets<Font>>) {
    let bytes = include_bytes!("../../../../assets/fonts/DejaVuSansCondensed-Bold.ttf");
    let _ = fonts.insert(&Handle::<Font>::default(), Font::from_bytes(bytes.to_vec()));
}

fn fit_when_pending(
    mut fit: ResMut<FitPending>,
    mut view: ResMut<TableView>,
    area: Res<TableArea>,
    battle: Option<Res<Battle>>,
) {
    // Wait until the panels have been laid out once, or the fit would hide the table under them.
    if !fit.0 || !area.measured {
        return;
    }
    if let Some(b) = battle {
        let t = b.scene.size;
        view.fit(Vec2::new(t.x, t.y), *area, 24.0);
        fit.0 = false;
    }
}
