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
//!
//! Map (rule IDs from the BFaS digests):
//!
//! | module | answers |
//! |---|---|
//! | [`pose`], [`rect`], [`polygon`] | placements, oriented base rectangles (GEO-1), terrain polygons |
//! | [`distance`], [`command`] | shape distances (GEO-2), command-range steps (GEO-15, BFS-CMD-4/7) |
//! | [`contact`] | contact, edge-contact length, corner contact (GEO-3) |
//! | [`zones`] | front/flank/rear zones (GEO-4), "most of the unit" (GEO-14) |
//! | [`formation`], [`maneuver`], [`openorder`] | slots (GEO-16, BFS-FRM-6), turns and frontage (BFS-MAN-8/9/11), displacement caps (GEO-17), Open Order spacing (GEO-18) |
//! | [`scene`] | the bases and terrain of one query batch, with the parry2d BVH broad phase |
//! | [`vision`] | field of vision with blockers (GEO-5) |
//! | [`fire`] | fields of fire (GEO-6), line of fire with clearance (GEO-7), range bands (GEO-8) |
//! | [`movement`], [`wheel`] | straight moves with gaps (GEO-9), wheels (GEO-10), costs (AMB-5) |
//! | [`charge`], [`charge_params`] | charge side, facing wheel, simulation and reachability (GEO-11), path (AMB-26) |
//! | [`charge_align`], [`charge_halfway`] | alignment (GEO-12), halfway line (GEO-13) |
//! | [`terrain`], [`table`] | terrain membership and path lengths, table edges (GEO-19) |

pub(crate) mod cast;
pub mod charge;
pub mod charge_align;
pub mod charge_halfway;
pub mod charge_params;
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
pub mod prim;
pub mod rect;
pub mod scene;
pub(crate) mod scene_terrain;
pub mod sight_arc;
pub mod table;
pub mod terrain;
#[cfg(test)]
mod test_support;
pub mod tolerance;
pub mod vision;
pub(crate) mod vision_walk;
pub mod wheel;
pub mod zones;

pub use charge::{ChargeOutcome, ChargeParams, HalfwayLine};
pub use contact::{Contact, ContactKind, Corner, Feature};
pub use error::GeoError;
pub use fire::{FireArc, FlankSide, RangeBand};
pub use formation::{CloseOrder, FormationKind, Slot, UnitFrame, UnitLayout};
pub use glam::Vec2;
pub use movement::{Blocker, Body, MoveCost, MoveOutcome, Obstacles, SidePolicy};
pub use polygon::Polygon;
pub use pose::Pose;
pub use rect::{Edge, Rect, Segment};
pub use scene::{BroadPhase, PreparedTerrain, Scene, SceneBase, UnitEntry};
pub use table::{Table, TableEdge};
pub use terrain::{SightBlock, TerrainPiece};
pub use vision::{SightLine, Viewer, VisionArc};
pub use wheel::{Pivot, Wheel, WheelOutcome, WheelReference, WheelSense};
pub use zones::{Zone, ZoneScheme, ZoneShares};
