//! The net compiled into the binary (`nets/default.nnue`), so a fresh `make` gives a complete
//! engine. Which net plays is the engine's choice (`Engine` holds an `Arc<Network>`, replaced by
//! `EvalFile`) and reaches each search in its `SearchLimits`; this file only keeps the one
//! every search starts from, loaded once.
//!
//! The net plays by default since net 1 beat the hand-written evaluation in its 400-game match
//! (`docs/nets.md`); the hand-written one stays for the `eval` breakdown a person reads and as
//! the fixed yardstick a new net is gauged against.

use super::Network;
use once_cell::sync::Lazy;
use std::sync::Arc;

static DEFAULT_BYTES: &[u8] = include_bytes!("../../nets/default.nnue");

static DEFAULT: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the compiled-in net is valid (tested)"))
});

/// The compiled-in net.
pub fn default_network() -> Arc<Network> {
    DEFAULT.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_net_loads() {
        assert!(Network::from_bytes(DEFAULT_BYTES).is_ok());
    }
}
