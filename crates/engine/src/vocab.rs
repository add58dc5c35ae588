//! The words every part of the engine (and every ruleset) shares: seats, refusals with their rule,
//! units of length, kinds of terrain and outlines on the table. Plain data, so that the seam, the
//! scenario format and the presentation can all name them without depending on one another.

use serde::{Deserialize, Serialize};

/// A player's seat: 0 or 1, in scenario side order.
pub type Seat = u8;

/// A refused command: the rule that refuses it and a sentence a newcomer understands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message} ({rule})")]
pub struct RuleError {
    pub rule: String,
    pub message: String,
}

impl RuleError {
    pub fn new(rule: &str, message: impl Into<String>) -> Self {
        Self {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}

/// How a ruleset measures on the table. Inside, everything is centimetres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum LengthUnit {
    #[default]
    Centimetres,
    Inches,
}

impl LengthUnit {
    pub const CM_PER_INCH: f32 = 2.54;

    /// `cm` in this unit.
    pub fn from_cm(self, cm: f32) -> f32 {
        match self {
            LengthUnit::Centimetres => cm,
            LengthUnit::Inches => cm / Self::CM_PER_INCH,
        }
    }

    /// The other unit (the tape's toggle).
    pub fn other(self) -> Self {
        match self {
            LengthUnit::Centimetres => LengthUnit::Inches,
            LengthUnit::Inches => LengthUnit::Centimetres,
        }
    }

    /// The unit's short name: "cm" or "in".
    pub fn symbol(self) -> &'static str {
        match self {
            LengthUnit::Centimetres => "cm",
            LengthUnit::Inches => "in",
        }
    }

    /// `cm` written in this unit, to a tenth: "12.5 cm", "4.9 in".
    pub fn format(self, cm: f32) -> String {
        format!("{:.1} {}", self.from_cm(cm), self.symbol())
    }
}

/// Kinds of terrain piece a table may hold. What each means for movement, sight and combat is
/// the ruleset's to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainKind {
    /// Dense woods.
    Forest,
    /// Light woods.
    Grove,
    /// Gentle slopes.
    Hill,
    /// Steep slopes and cliffs.
    SteepHill,
    /// Wheat field or tall steppe grass.
    WheatField,
    /// Ploughed field or soft ground.
    PloughedField,
    Stream,
    /// A river: impassable except at fords and bridges.
    River,
    Ford,
    Bridge,
    Lake,
    /// Swamp or marsh.
    Marsh,
    Road,
    /// Fences, low walls, narrow ditches.
    Obstacle,
    /// A village or town: a built-up area.
    BuiltUpArea,
    /// A single building.
    Building,
    /// Field fortifications.
    Fortification,
    /// A portable obstacle of wooden stakes (By Fire and Sword's kobylica), set up by a unit.
    Kobylica,
    /// Scattered caltrops: hinder cavalry only.
    Caltrops,
    /// Chevaux de frise, set up in front of a unit.
    ChevauxDeFrise,
}

/// An outline on the table, in the table's unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ShapeSpec {
    /// A rectangle given by its centre, its size and a rotation in degrees (clockwise).
    Rect {
        center: (f32, f32),
        size: (f32, f32),
        #[serde(default)]
        rotation: f32,
    },
    /// A simple polygon, listed in order around its edge.
    Polygon(Vec<(f32, f32)>),
    /// A strip of constant width along a polyline: roads, streams, rivers, hedges.
    Strip { points: Vec<(f32, f32)>, width: f32 },
}

impl ShapeSpec {
    /// Scales every length (inches to centimetres).
    pub fn scale(&mut self, f: f32) {
        let s = |p: &mut (f32, f32)| *p = (p.0 * f, p.1 * f);
        match self {
            ShapeSpec::Rect { center, size, .. } => {
                s(center);
                s(size);
            }
            ShapeSpec::Polygon(points) => points.iter_mut().for_each(s),
            ShapeSpec::Strip { points, width } => {
                points.iter_mut().for_each(s);
                *width *= f;
            }
        }
    }
}
