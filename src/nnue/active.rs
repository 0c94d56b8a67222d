//! The evaluation the engine plays with: a net (the one compiled into the binary,
//! `nets/default.nnue`, so a fresh `make` gives a complete engine, or another loaded by
//! `EvalFile`), or the hand-written evaluation when `UseNNUE` is off.
//!
//! The net plays by default since net 1 beat the hand-written evaluation in its 400-game match
//! (`docs/nets.md`); the hand-written one stays for the `eval` breakdown a person reads and as
//! the fixed yardstick a new net is gauged against. Searches take an `Arc` of the active net
//! when they start, so a change never reaches a running search; a failed load leaves the old
//! choice in place.

use super::Network;
use once_cell::sync::Lazy;
use parking_lot::RwLock;
use std::sync::Arc;

static DEFAULT_BYTES: &[u8] = include_bytes!("../../nets/default.nnue");

static DEFAULT: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the compiled-in net is valid (tested)"))
});

/// The net `EvalFile` chose and whether it plays (`UseNNUE`).
struct Choice {
    net: Arc<Network>,
    plays: bool,
}

static CHOICE: Lazy<RwLock<Choice>> =
    Lazy::new(|| RwLock::new(Choice { net: default_network(), plays: true }));

/// The compiled-in net.
pub fn default_network() -> Arc<Network> {
    DEFAULT.clone()
}

/// The net searches use now; `None` while the hand-written evaluation plays.
pub fn active() -> Option<Arc<Network>> {
    let choice = CHOICE.read();
    choice.plays.then(|| choice.net.clone())
}

/// The net `EvalFile` chose, whether or not it plays.
pub fn chosen() -> Arc<Network> {
    CHOICE.read().net.clone()
}

/// Makes `net` the chosen one, from the next search's start.
pub fn set_chosen(net: Arc<Network>) {
    CHOICE.write().net = net;
}

/// Whether the chosen net plays (true) or the hand-written evaluation (false).
pub fn set_net_plays(plays: bool) {
    CHOICE.write().plays = plays;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_net_loads() {
        assert!(Network::from_bytes(DEFAULT_BYTES).is_ok());
    }
}
