//! Table geometry for Sandtable.
//!
//! Everything here is plain 2D geometry in table centimetres on `glam` + `parry2d`. It answers the
//! spatial questions the rules ask (distances, zones, vision, fire, moves, wheels, charges) and knows
//! nothing of any ruleset: the rules crates call it and decide what the answers mean. Rules numbers
//! (2 cm, 1 cm, ranges, allowances) arrive as parameters; where the BFaS digests propose a reading
//! the default follows the proposal and the alternative sits behind an enum parameter.
//!
//! Frames: the table frame has x to the right and y away from the south edge. Every base and unit
//! has a local frame with **+y forward** (the way the figures face) and **+x to the right**
//! (the digests' GEO conventions, `bfs-1-core.md` §19). Angles are radians inside the crate.
//!
//! Every public function validates its input (finite, non-degenerate) and returns
//! `Result<_, GeoError>`; none panics and none returns NaN. Tolerances live in [`tolerance`].

pub(crate) mod cast;
pub mod charge;
pub mod command;
pub mod contact;
pub mod distance;
pub mod error;
pub mod fire;
pub mod formation;
pub mod maneuver;
pub mod movement;
pub(crate) mod occlusion;
pub mod openorder;
pub mod polygon;
pub mod pose;
pub(crate) mod prim;
pub mod rect;
pub mod scene;
pub mod table;
pub mod terrain;
pub mod tolerance;
pub mod vision;
pub mod wheel;
pub mod zones;

pub use charge::{ChargeOutcome, ChargeParams, HalfwayLine};
pub use contact::{Contact, ContactKind, Corner, Feature};
pub use error::GeoError;
pub use fire::{FireArc, FlankSide, RangeBand};
pub use formation::{CloseOrder, FormationKind, Slot, UnitFrame};
pub use glam::Vec2;
pub use movement::{Blocker, Body, MoveCost, MoveOutcome, Obstacles, SidePolicy};
pub use polygon::Polygon;
pub use pose::Pose;
pub use rect::{Edge, Rect, Segment};
pub use scene::{BroadPhase, Scene, SceneBase, UnitEntry};
pub use table::{Table, TableEdge};
pub use terrain::{SightBlock, TerrainPiece};
pub use vision::{SightLine, Viewer, VisionArc};
pub use wheel::{Pivot, Wheel, WheelOutcome, WheelReference, WheelSense};
pub use zones::{Zone, ZoneScheme, ZoneShares};
