//! The streams of their own that a share of the runs draws from (the modes,
//! the mirror, the store's history, the hand on single messages, the joint
//! changes): each seeded from the run's seed and a salt of its own, so that
//! the runs without it draw the scripts they drew before it existed.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

/// The stream salted with `salt` of `seed`'s run, in a `share` of the runs.
pub fn side_stream(seed: u64, salt: u64, share: f64) -> Option<Pcg64> {
    let mut rng = Pcg64::seed_from_u64(seed ^ salt);
    rng.random_bool(share).then_some(rng)
}
