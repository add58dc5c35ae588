//! Colours. The two sides use the Okabe–Ito vermillion and blue by default, a pair that stays
//! distinct for the common forms of colour blindness; a second pair, Paul Tol's high-contrast
//! yellow and dark blue, differs in lightness too, so it reads even without colour (a setting).

use bevy::prelude::Color;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU8, Ordering};

/// The table cloth.
pub const TABLE: [u8; 3] = [0x9c, 0xb0, 0x74];
/// Beyond the table.
pub const BACKGROUND: [u8; 3] = [0x2b, 0x2d, 0x31];
/// Fill of the dice panel in the side panel, a shade lighter than the panel itself.
pub const DICE_PANEL: [u8; 3] = [0x26, 0x2a, 0x32];
/// The pairs of side colours a player may choose (settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SidePalette {
    /// Okabe–Ito vermillion and blue.
    #[default]
    VermillionBlue,
    /// Paul Tol's high-contrast yellow and dark blue: apart in lightness as well as hue.
    YellowDarkBlue,
}

impl SidePalette {
    pub const ALL: [SidePalette; 2] = [SidePalette::VermillionBlue, SidePalette::YellowDarkBlue];

    /// The two colours, in scenario order.
    pub fn colours(self) -> [[u8; 3]; 2] {
        match self {
            SidePalette::VermillionBlue => [[0xd5, 0x5e, 0x00], [0x00, 0x72, 0xb2]],
            SidePalette::YellowDarkBlue => [[0xdd, 0xaa, 0x33], [0x00, 0x44, 0x88]],
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SidePalette::VermillionBlue => "Vermillion and blue",
            SidePalette::YellowDarkBlue => "Yellow and dark blue (high contrast)",
        }
    }
}

/// The palette in use: one for the whole program, set from the settings. Read by every drawing
/// of a side, so it lives here rather than being passed to each.
static SIDE_PALETTE: AtomicU8 = AtomicU8::new(0);

/// Uses `p` for the sides from now on (the table redraws when the settings change).
pub fn set_side_palette(p: SidePalette) {
    SIDE_PALETTE.store(p as u8, Ordering::Relaxed);
}

fn side_palette() -> SidePalette {
    match SIDE_PALETTE.load(Ordering::Relaxed) {
        1 => SidePalette::YellowDarkBlue,
        _ => SidePalette::VermillionBlue,
    }
}

/// A side's colour as RGB, in scenario order.
pub fn side_rgb(index: usize) -> [u8; 3] {
    side_palette().colours()[index.min(1)]
}

pub fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

pub fn side(index: usize) -> Color {
    rgb(side_rgb(index))
}

/// A palette colour for egui widgets.
pub fn egui_rgb(c: [u8; 3]) -> bevy_egui::egui::Color32 {
    bevy_egui::egui::Color32::from_rgb(c[0], c[1], c[2])
}

/// Side colour for egui widgets.
pub fn side_egui(index: usize) -> bevy_egui::egui::Color32 {
    let c = side_rgb(index);
    bevy_egui::egui::Color32::from_rgb(c[0], c[1], c[2])
}

/// Terrain fill colours by kind.
pub fn terrain(kind: sandtable_engine::scenario::TerrainKind) -> [u8; 3] {
    use sandtable_engine::scenario::TerrainKind::*;
    match kind {
        Forest => [0x4f, 0x6b, 0x3a],
        Grove => [0x76, 0x8f, 0x52],
        Hill => [0xb8, 0xa8, 0x7a],
        SteepHill => [0x9a, 0x86, 0x5c],
        WheatField => [0xd9, 0xc6, 0x7a],
        PloughedField => [0x8d, 0x72, 0x52],
        Stream | River | Lake => [0x6e, 0x9c, 0xc4],
        Ford => [0x93, 0xb4, 0xcf],
        Bridge => [0x8a, 0x7a, 0x66],
        Marsh => [0x7f, 0x92, 0x76],
        Road => [0xc9, 0xb5, 0x94],
        Obstacle => [0x6b, 0x55, 0x3c],
        BuiltUpArea => [0xa3, 0x8f, 0x85],
        Building => [0x8c, 0x5a, 0x46],
        Fortification => [0x7a, 0x6a, 0x5a],
        Kobylica | ChevauxDeFrise => [0x5c, 0x44, 0x2c],
        Caltrops => [0x70, 0x70, 0x70],
    }
}

/// Draw order of terrain kinds: flat ground first, roads and water over fields, woods and
/// buildings on top.
pub fn terrain_layer(kind: sandtable_engine::scenario::TerrainKind) -> f32 {
    use sandtable_engine::scenario::TerrainKind::*;
    match kind {
        WheatField | PloughedField | Marsh => 0.1,
        Hill | SteepHill => 0.05,
        Road | Stream | River | Lake | Ford => 0.2,
        Bridge => 0.3,
        Forest | Grove | BuiltUpArea | Obstacle | Fortification => 0.4,
        Kobylica | Caltrops | ChevauxDeFrise => 0.45,
        Building => 0.5,
    }
}
