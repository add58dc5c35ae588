//! The readings a charge uses ([`ChargeParams`] and its default facing margin): what both the
//! charge move ([`crate::charge`]) and its alignment wheel ([`crate::charge_align`]) need, kept
//! apart so that neither has to import the other.

use crate::movement::MoveCost;
use crate::wheel::WheelReference;
use crate::zones::ZoneScheme;
use serde::{Deserialize, Serialize};

/// How far inside the charger's frontage the struck edge must come for the charger to count as
/// facing it (GEO-11), so that the straight move meets the edge rather than grazing its end.
pub const FACING_MARGIN_CM: f32 = 0.1;

/// The readings a charge uses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ChargeParams {
    pub zones: ZoneScheme,
    pub reference: WheelReference,
    pub cost: MoveCost,
    /// See [`FACING_MARGIN_CM`].
    pub facing_margin: f32,
}

impl Default for ChargeParams {
    fn default() -> Self {
        Self {
            zones: ZoneScheme::default(),
            reference: WheelReference::default(),
            cost: MoveCost::default(),
            facing_margin: FACING_MARGIN_CM,
        }
    }
}
