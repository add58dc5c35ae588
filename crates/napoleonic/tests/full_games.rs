//! Whole battles of random legal play end, within the period limit, with a result.

mod common;

use sandtable_engine::Ruleset;
use sandtable_napoleonic::Napoleonic;
use sandtable_napoleonic::state::Phase;

#[test]
fn random_battles_end_with_a_result() {
    for seed in 0..4u64 {
        let mut g = common::game(seed);
        let mut rng = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut n = 0;
        while g.phase != Phase::Over {
            let options = Napoleonic::candidates(&g);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let c = options[(rng % options.len() as u64) as usize].clone();
            Napoleonic::execute(&mut g, &c).unwrap();
            n += 1;
            assert!(n < 20_000, "the battle did not end");
        }
        let out = Napoleonic::outcome(&g).expect("an outcome");
        eprintln!(
            "seed {seed}: {n} commands, period {}, {} ({})",
            g.period, out.result, out.reason
        );
        assert!(g.period <= g.periods);
    }
}
