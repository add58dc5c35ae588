//! Shared by the remote tests: the shipped battles and a random player.
#![allow(dead_code)]

use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::{Ruleset, Seat};
use sandtable_remote::Identity;
use std::path::Path;

pub fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A shipped BFaS scenario's setup.
pub fn bfs_setup(file: &str) -> BattleSetup {
    let root = root();
    let loaded = load_scenario(
        &root.join("scenarios").join(file),
        &root.join("assets/armies"),
    )
    .expect("the scenario loads");
    BattleSetup::from(&loaded)
}

/// Two fixed identities.
pub fn identities(seed: u8) -> [Identity; 2] {
    [
        Identity::from_secret([seed; 32]),
        Identity::from_secret([seed.wrapping_add(101); 32]),
    ]
}

/// A player that picks a legal command at random (xorshift), from its seat's view.
pub fn random_player<R: Ruleset>(seed: u64) -> impl FnMut(&R::State, Seat) -> Option<R::Command> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move |view, _seat| {
        let c = R::candidates(view);
        if c.is_empty() {
            return None;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        Some(c[(x % c.len() as u64) as usize].clone())
    }
}

pub fn bfs() -> std::marker::PhantomData<Bfs> {
    std::marker::PhantomData
}
