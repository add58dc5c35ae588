//! The rulesets this program plays: the one place the CLI names them. Everything else reaches a
//! ruleset through the engine's registry.

use sandtable_engine::{Registry, RulesetEntry};

pub fn registry() -> Registry {
    Registry::new(vec![
        RulesetEntry::new::<sandtable_bfs::Bfs>(
            sandtable_ai::any_player::<sandtable_bfs::Bfs, sandtable_ai::bfs::BfsEvaluation>,
        ),
        RulesetEntry::new::<sandtable_napoleonic::Napoleonic>(
            sandtable_ai::any_player::<
                sandtable_napoleonic::Napoleonic,
                sandtable_ai::napoleonic::NapEvaluation,
            >,
        ),
    ])
}

/// The rulesets this program plays remotely (by email, and live).
pub fn remote() -> Vec<sandtable_remote::RemoteEntry> {
    vec![
        sandtable_remote::RemoteEntry::new::<sandtable_bfs::Bfs>(),
        sandtable_remote::RemoteEntry::new::<sandtable_napoleonic::Napoleonic>(),
    ]
}

/// The rulesets whose pre-battle sequence this program runs (`setup`).
pub fn prebattle() -> Vec<sandtable_engine::prebattle::PreBattleEntry> {
    vec![sandtable_bfs::prebattle::entry()]
}
