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

/// The rulesets whose pre-battle sequence and force builder the app offers.
#[derive(Resource, Clone)]
pub struct PreBattleRulesets(pub Vec<sandtable_engine::prebattle::PreBattleEntry>);

impl Default for PreBattleRulesets {
    fn default() -> Self {
        Self(vec![sandtable_bfs::prebattle::entry()])
    }
}

/// The rulesets this program plays remotely (`docs/remote.md`).
#[derive(Resource, Clone)]
pub struct RemoteRulesets(pub Vec<sandtable_remote::RemoteEntry>);

impl Default for RemoteRulesets {
    fn default() -> Self {
        Self(vec![
            sandtable_remote::RemoteEntry::new::<sandtable_bfs::Bfs>(),
            sandtable_remote::RemoteEntry::new::<sandtable_napoleonic::Napoleonic>(),
        ])
    }
}
