//! Identifiers of the things in a game. They index the game's vectors and never change.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub struct $name(pub u16);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// A unit (BFS-ORG-5).
    UnitId
);
id!(
    /// A commander (BFS-CMD).
    CommanderId
);
id!(
    /// A regiment (BFS-ORG-3).
    RegimentId
);
id!(
    /// A unit profile in the game's profile table.
    ProfileId
);

/// One of the two sides, in scenario order. Also the seat of the player who commands it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Side(pub u8);

impl Side {
    pub const A: Side = Side(0);
    pub const B: Side = Side(1);
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn other(self) -> Side {
        Side(1 - self.0.min(1))
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "side {}", self.0 + 1)
    }
}
