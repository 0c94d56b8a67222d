//! A tiny seeded random number generator (SplitMix64): datagen's openings and the move choice
//! of a strength-limited level (`strength.rs`).
//!
//! Datagen and `genfens` must be reproducible from a seed on every platform and every build, so
//! they use this fixed algorithm rather than a crate whose streams may change between versions.
//! Each game (or each `genfens` line) gets its own stream from `(seed, index)`, which makes the
//! result of game `index` independent of which worker thread plays it and in what order.

/// SplitMix64: one 64-bit word of state, a Weyl increment and a strong output finaliser.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective mix of all 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A stream determined by `seed` alone.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The stream for item `index` of a run seeded with `seed`: neighbouring indices (and
    /// neighbouring seeds) give unrelated streams.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        Rng::new(mix(seed ^ mix(index.wrapping_add(GOLDEN_GAMMA))))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A uniform integer in `0..bound` (`bound` must be positive), by multiply-shift.
    pub fn below(&mut self, bound: usize) -> usize {
        ((self.next_u64() as u128 * bound as u128) >> 64) as usize
    }

    /// A uniform number in `[0, 1)`, from the top 53 bits (a double's whole precision).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let first: Vec<u64> = (0..4).map(|_| Rng::for_item(7, 3).next_u64()).collect();
        assert!(first.windows(2).all(|pair| pair[0] == pair[1]));
        assert_ne!(Rng::for_item(7, 3).next_u64(), Rng::for_item(7, 4).next_u64());
        assert_ne!(Rng::for_item(7, 3).next_u64(), Rng::for_item(8, 3).next_u64());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(1);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let value = rng.below(5);
            assert!(value < 5);
            seen[value] = true;
        }
        assert!(seen.iter().all(|&hit| hit));
    }

    #[test]
    fn unit_stays_in_range_and_spreads() {
        let mut rng = Rng::new(2);
        let draws: Vec<f64> = (0..1000).map(|_| rng.unit()).collect();
        assert!(draws.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        assert!((0.45..0.55).contains(&mean), "mean {mean}");
    }
}
