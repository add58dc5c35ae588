//! How wide a viewer sees: the one word vision and occlusion both need.

use serde::{Deserialize, Serialize};

/// How wide a viewer sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum VisionArc {
    /// 180° to the front (BFS-FOV-2).
    #[default]
    Front180,
    /// All round (BFS-FOV-3: commanders, wagons, skirmishers, light cavalry…; BFS-FOV-5).
    All360,
}
