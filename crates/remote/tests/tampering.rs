//! A chain that was tampered with is refused, naming a file, and never panics: any digit of any
//! file changed, two files swapped, a file dropped or replaced by one of another battle.

mod support;

use proptest::prelude::*;
use sandtable_bfs::Bfs;
use sandtable_remote::Entropy;
use sandtable_remote::play_out::play_out;
use sandtable_remote::verify::verify;
use std::sync::OnceLock;
use support::*;

type Files = Vec<(String, Vec<u8>)>;

fn battle(seed: u64) -> Files {
    let mut files = Vec::new();
    let mut a = random_player::<Bfs>(seed);
    let mut b = random_player::<Bfs>(seed + 7);
    play_out::<Bfs>(
        bfs_setup("01-mill-ford-skirmish.ron"),
        identities(3),
        [Entropy::seeded(seed, 0), Entropy::seeded(seed, 1)],
        [&mut a, &mut b],
        |i, _, bytes| files.push((format!("turn-{i:04}.ron"), bytes.to_vec())),
    )
    .unwrap();
    files
}

/// Two battles between the same two players.
fn chains() -> &'static (Files, Files) {
    static CHAINS: OnceLock<(Files, Files)> = OnceLock::new();
    CHAINS.get_or_init(|| (battle(11), battle(12)))
}

/// The whole battle, verified as complete: over, every secret open.
fn complete(files: &Files) -> Result<(), String> {
    let v = verify::<Bfs>(files).map_err(|e| e.to_string())?;
    if v.over && v.sealed == 0 {
        Ok(())
    } else {
        Err(format!("not a complete battle: {v:?}"))
    }
}

#[test]
fn the_untouched_chains_verify() {
    let (a, b) = chains();
    complete(a).unwrap();
    complete(b).unwrap();
}

proptest! {
    #[test]
    fn any_digit_changed_is_refused_naming_its_file(file in any::<prop::sample::Index>(), at in any::<prop::sample::Index>(), by in 1u8..10) {
        let (chain, _) = chains();
        let mut files = chain.clone();
        let f = file.index(files.len());
        let digits: Vec<usize> = files[f].1.iter().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
        let i = digits[at.index(digits.len())];
        let d = files[f].1[i] - b'0';
        files[f].1[i] = b'0' + (d + by) % 10;
        let err = verify::<Bfs>(&files).expect_err("a changed digit must be refused");
        prop_assert_eq!(&err.file, &files[f].0, "{}", err);
    }

    #[test]
    fn reordered_dropped_or_replaced_files_are_refused(i in any::<prop::sample::Index>(), j in any::<prop::sample::Index>(), how in 0u8..3) {
        let (chain, other) = chains();
        let mut files = chain.clone();
        let n = files.len();
        let i = i.index(n);
        match how {
            0 => {
                let j = j.index(n);
                prop_assume!(i != j);
                files.swap(i, j);
            }
            1 => { files.remove(i); }
            _ => {
                prop_assume!(i < other.len() && other[i].1 != files[i].1);
                files[i] = other[i].clone();
            }
        }
        prop_assert!(complete(&files).is_err());
    }
}
