//! The rulesets this program plays: the one place the app names them. Every screen reaches a
//! ruleset through the engine's registry and the game handle it opens.

use bevy::prelude::Resource;
use sandtable_engine::{Registry, RulesetEntry};

/// The registry as a Bevy resource.
#[derive(Resource, Clone)]
pub struct Rulesets(pub Registry);

impl Default for Rulesets {
    fn default() -> Self {
        Self(Registry::new(vec![
            RulesetEntry::new::<sandtable_bfs::Bfs>(
                sandtable_ai::any_player::<sandtable_bfs::Bfs, sandtable_ai::bfs::BfsEvaluation>,
            ),
            RulesetEntry::new::<sandtable_napoleonic::Napoleonic>(
                sandtable_ai::any_player::<
                    sandtable_napoleonic::Napoleonic,
                    sandtable_ai::napoleonic::NapEvaluation,
                >,
            ),
        ]))
    }
}
