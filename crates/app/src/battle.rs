//! The battle on screen: the loaded scenario and the game state the table draws.

use bevy::prelude::*;
use sandtable_bfs::LoadedScenario;
use sandtable_bfs::state::Game;

/// The battle being shown. The app reads the game from here and never changes it directly.
#[derive(Resource, Debug, Clone)]
pub struct Battle {
    pub loaded: LoadedScenario,
    pub game: Game,
}

impl Battle {
    pub fn new(loaded: LoadedScenario) -> Result<Self, String> {
        let game = sandtable_bfs::new_game(&loaded)?;
        Ok(Self { loaded, game })
    }
}
