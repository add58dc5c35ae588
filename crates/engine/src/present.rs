//! What a ruleset hands the app to draw and offer: the table as pieces and terrain, shapes on top
//! of it, menus of commands (each allowed, or refused with its rule), the preview of a planned
//! command, a piece's card. The app draws these and computes none of them: a screen that needs a
//! rule asks the ruleset through [`crate::Present`].
//!
//! Positions are table centimetres, like everything inside the program; [`LengthUnit`] says how
//! the ruleset measures on screen.

pub use crate::vocab::LengthUnit;
use crate::vocab::{RuleError, Seat, TerrainKind};
use sandtable_geometry::{Rect, Vec2};
use serde::{Deserialize, Serialize};

/// Something on the table a player can point at, numbered by its ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PieceId(pub u32);

/// How a piece is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PieceKind {
    /// A unit of one or more rectangular bases, its front edge marked.
    Unit,
    /// A leader or commander on a small base, drawn as a disc with a pennant.
    Leader,
}

/// A token beside a piece: an order marker, a status marker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Token {
    pub at: Vec2,
    /// Side of the square token, cm.
    pub size: f32,
    /// One or two letters.
    pub text: String,
    /// Face down (dark, its letter shown only to its owner) or face up (parchment).
    pub face_down: bool,
}

/// One piece as a seat sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    pub id: PieceId,
    /// The scenario's identifier (lessons highlight pieces by it).
    pub key: String,
    pub kind: PieceKind,
    pub side: Seat,
    /// Shown on the table.
    pub label: String,
    /// Footprints: a unit's bases, a leader's one base.
    pub bases: Vec<Rect>,
    /// Where the label goes (behind the unit, clear of its bases).
    pub label_at: Vec2,
    pub tokens: Vec<Token>,
    /// The troop type its bases show as a map symbol, if the ruleset gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emblem: Option<Emblem>,
}

/// A unit's troop type as a map symbol on each base, NATO-like, so that a table reads at a glance
/// (issue 19): foot a cross, horse a diagonal, and so on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Emblem {
    /// Foot of no more particular kind: a cross.
    Infantry,
    /// Pikemen: a cross with an upright.
    Pikes,
    /// Musketeers and other shot: a cross with a bar across the front.
    Shot,
    /// Horse: one diagonal.
    Cavalry,
    /// Light horse (skirmishing, raiding): a diagonal with a bar across the front.
    LightCavalry,
    /// Horse that fights on foot: a cross and a diagonal.
    Dragoons,
    /// Guns: a disc.
    Artillery,
    /// Wagons: two wheels.
    Wagon,
}

/// A terrain piece as drawn: its kind (for its colour) and its outline as polygons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TerrainPatch {
    pub kind: TerrainKind,
    pub name: Option<String>,
    pub polygons: Vec<Vec<Vec2>>,
}

/// A control point and who holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveMark {
    pub name: String,
    pub position: Vec2,
    pub radius: f32,
    pub label: String,
    pub held_by: Option<Seat>,
}

/// The whole table as one seat may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableScene {
    /// Width and depth, cm.
    pub size: Vec2,
    pub unit: LengthUnit,
    pub terrain: Vec<TerrainPatch>,
    /// Pieces on the table, drawn in order (leaders last, on top).
    pub pieces: Vec<Piece>,
    pub objectives: Vec<ObjectiveMark>,
}

impl TableScene {
    pub fn piece(&self, id: PieceId) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.id == id)
    }

    /// The piece under `p` (leaders first, as they are drawn on top), with the base hit.
    pub fn pick(&self, p: Vec2, slack: f32) -> Option<(PieceId, Rect)> {
        let leaders = self
            .pieces
            .iter()
            .rev()
            .filter(|x| x.kind == PieceKind::Leader);
        let units = self
            .pieces
            .iter()
            .rev()
            .filter(|x| x.kind == PieceKind::Unit);
        leaders.chain(units).find_map(|piece| {
            piece
                .bases
                .iter()
                .find(|b| b.contains(p, slack))
                .map(|b| (piece.id, *b))
        })
    }
}

/// What a shape means; the app chooses its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tone {
    /// Where a planned move would leave the piece.
    Ghost,
    /// The path a planned move follows.
    Path,
    /// A plan the rules refuse.
    Refused,
    /// The target of a planned action (a charge).
    Target,
    /// A piece that may be targeted now.
    Choice,
    /// A piece that may be targeted only at a cost.
    CostlyChoice,
    /// What a piece can see.
    Sight,
    /// The near band of a weapon's reach.
    ReachNear,
    /// The far band of a weapon's reach.
    ReachFar,
    /// The short, deadly reach of a gun's case-shot (BFS-ART-5).
    ReachClose,
    /// A side's own mark (command ranges), in its colour.
    Side(Seat),
    /// Ground the rules keep clear (zones around the enemy).
    Keep,
    /// What a lesson step asks the learner to look at.
    Lesson,
}

/// The outline of a shape, in table cm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Outline {
    /// A closed polygon.
    Polygon(Vec<Vec2>),
    /// An open line.
    Line(Vec<Vec2>),
    Circle {
        centre: Vec2,
        radius: f32,
    },
    /// A rectangle grown by `grow` cm on every side.
    Rect {
        rect: Rect,
        grow: f32,
    },
    /// The points within `radius` of a rectangle: its outline grown with rounded corners.
    Rounded {
        rect: Rect,
        radius: f32,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    pub outline: Outline,
    pub tone: Tone,
}

impl Shape {
    pub fn new(outline: Outline, tone: Tone) -> Self {
        Self { outline, tone }
    }

    /// A base outlined, grown by `grow` cm.
    pub fn rect(rect: Rect, grow: f32, tone: Tone) -> Self {
        Self::new(Outline::Rect { rect, grow }, tone)
    }
}

/// An overlay a player can switch on: vision, fire, command ranges…
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OverlayKind {
    /// Stable name, passed back to [`crate::Present::shapes`].
    pub id: &'static str,
    pub label: &'static str,
    /// The key that toggles it.
    pub key: char,
}

/// What choosing a menu item does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MenuEffect {
    /// Submit the command now.
    #[default]
    Submit,
    /// Make the command the plan being built (a maneuver joins a planned move); the player
    /// commits it later.
    Plan,
}

/// One thing the player on screen can do: the command, and whether the rules allow it now.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuItem<C> {
    pub label: String,
    pub command: C,
    /// Filled in by the engine from the rules (`legal`) and the seat's turn: never by the app.
    pub allowed: Result<(), RuleError>,
    /// A keyboard shortcut, shown on the button.
    pub key: Option<char>,
    pub effect: MenuEffect,
}

impl<C> MenuItem<C> {
    /// An item to submit; its `allowed` is filled in by the engine.
    pub fn new(label: impl Into<String>, command: C) -> Self {
        Self {
            label: label.into(),
            command,
            allowed: Ok(()),
            key: None,
            effect: MenuEffect::Submit,
        }
    }

    pub fn key(mut self, key: char) -> Self {
        self.key = Some(key);
        self
    }

    pub fn plan(mut self) -> Self {
        self.effect = MenuEffect::Plan;
        self
    }

    pub fn map<D>(self, f: impl FnOnce(C) -> D) -> MenuItem<D> {
        MenuItem {
            label: self.label,
            command: f(self.command),
            allowed: self.allowed,
            key: self.key,
            effect: self.effect,
        }
    }
}

/// A choice that shapes a menu (which commander pays for orders, say): the app shows it as a
/// drop-down and passes the chosen option back.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuParam {
    /// Stable name.
    pub id: String,
    pub label: String,
    pub options: Vec<String>,
    pub chosen: usize,
}

/// The menu for a selection: its choices, its items, and what can be done on the table itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Menu<C> {
    pub params: Vec<MenuParam>,
    pub items: Vec<MenuItem<C>>,
    /// How to plan on the table with the selection ("drag the unit forward or back…").
    pub hint: Option<String>,
}

impl<C> Default for Menu<C> {
    fn default() -> Self {
        Self {
            params: Vec::new(),
            items: Vec::new(),
            hint: None,
        }
    }
}

impl<C> Menu<C> {
    pub fn map<D>(self, mut f: impl FnMut(C) -> D) -> Menu<D> {
        Menu {
            params: self.params,
            items: self.items.into_iter().map(|i| i.map(&mut f)).collect(),
            hint: self.hint,
        }
    }
}

/// The player's choices for a menu's params, by param id: the option chosen.
pub type MenuChoices = std::collections::BTreeMap<String, usize>;

/// A distribution to draw as a bar chart: `chances[k]` is the chance of exactly k.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OddsChart {
    /// What is rolled, with its numbers ("Hussar banner charges the pikemen: 6 dice needing 5").
    pub title: String,
    pub chances: Vec<f64>,
    /// What k counts ("Strength points the target loses").
    pub counts: String,
}

impl OddsChart {
    pub fn mean(&self) -> f64 {
        crate::odds::mean(&self.chances)
    }
}

/// What a planned command would do, in words and shapes, before it is committed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PreviewReport {
    /// Lines in plain words: the cost, what is left, whether a charge reaches.
    pub lines: Vec<String>,
    /// The rules refuse it.
    pub refused: Option<RuleError>,
    /// Ghost, path, target.
    pub shapes: Vec<Shape>,
    pub odds: Vec<OddsChart>,
    /// The commit button's words ("Commit move", "Charge!").
    pub commit: String,
}

/// A grab point on a selected piece for planning a move by dragging.
#[derive(Debug, Clone, PartialEq)]
pub struct Handle {
    /// The ruleset's name for it, passed back with the drag.
    pub id: u8,
    pub grip: Grip,
}

/// Where a handle is grabbed.
#[derive(Debug, Clone, PartialEq)]
pub enum Grip {
    /// Anywhere on these footprints (moving the whole piece).
    Body(Vec<Rect>),
    /// Near this point (a corner to wheel about the other).
    Point(Vec2),
}

/// A piece's card in the side panel.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Card {
    pub title: String,
    pub side: Option<Seat>,
    /// Short lines under the title.
    pub lines: Vec<String>,
    /// The profile as a table of name and value.
    pub rows: Vec<(String, String)>,
    pub notes: String,
}

/// A resource shown in the side panel (command points, turn points): who holds it and how much.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolLine {
    pub side: Seat,
    pub text: String,
}

/// The end of a battle as the end screen shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat, or none for a draw.
    pub winner: Option<Seat>,
    /// "tactical victory", "draw"…
    pub result: String,
    /// Why it ended.
    pub reason: String,
    /// The figures that decided it: a header row, then a row per side (first cell: the side).
    pub table: Vec<Vec<String>>,
    /// How the figures become a result, citing the rules.
    pub explanation: String,
}
