//! A scenario's scripted rules as the game state keeps them, names resolved to ids: plain data,
//! run by [`crate::script`] after every command.

use crate::ids::{Side, UnitId};
use crate::vocab::OrderKind;
use sandtable_geometry::Vec2;
use serde::{Deserialize, Serialize};

/// A scripted rule with names resolved to ids.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub when: When,
    pub then: Vec<Action>,
    pub fired: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum When {
    TurnBegins(u32),
    UnitLost(UnitId),
    SideEntersArea { side: Side, area: Vec<Vec<Vec2>> },
    ObjectiveTaken { objective: usize, side: Side },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Action {
    Orders {
        units: Vec<UnitId>,
        order: OrderKind,
    },
    Reserves(Vec<UnitId>),
    Message(String),
}
