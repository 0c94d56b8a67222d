//! The evaluation the engine plays with: the net compiled into the binary
//! (`nets/default.nnue`, so a fresh `make` gives a complete engine), another loaded by
//! `EvalFile`, or, while no net has beaten it, the hand-written evaluation.
//!
//! `NET_PLAYS_BY_DEFAULT` says whether the compiled-in net plays from the start; it turns on
//! once a net has won its match against the hand-written evaluation (`docs/nets.md`).
//! Searches take an `Arc` of the active net when they start, so a load never changes the net
//! under a running search; a failed load leaves the old choice in place.

use super::{NetError, Network};
use once_cell::sync::Lazy;
use parking_lot::RwLock;
use std::path::Path;
use std::sync::Arc;

static DEFAULT_BYTES: &[u8] = include_bytes!("../../nets/default.nnue");

static DEFAULT: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the compiled-in net is valid (tested)"))
});

/// Whether the compiled-in net plays when no `EvalFile` is given.
pub const NET_PLAYS_BY_DEFAULT: bool = false;

static ACTIVE: Lazy<RwLock<Option<Arc<Network>>>> =
    Lazy::new(|| RwLock::new(NET_PLAYS_BY_DEFAULT.then(default_network)));

/// The compiled-in net.
pub fn default_network() -> Arc<Network> {
    DEFAULT.clone()
}

/// The net searches use now; `None` while the hand-written evaluation plays.
pub fn active() -> Option<Arc<Network>> {
    ACTIVE.read().clone()
}

/// What `EvalFile`'s empty value restores: the compiled-in net when it plays by default.
pub fn reset_active() -> Option<Arc<Network>> {
    let choice = NET_PLAYS_BY_DEFAULT.then(default_network);
    *ACTIVE.write() = choice.clone();
    choice
}

/// Makes `net` the one searches use from their next start.
pub fn set_active(net: Arc<Network>) {
    *ACTIVE.write() = Some(net);
}

/// Loads a net file and makes it active; on error the active net is unchanged.
pub fn load_active(path: &Path) -> Result<Arc<Network>, NetError> {
    let net = Arc::new(Network::load(path)?);
    set_active(net.clone());
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_net_loads() {
        assert!(Network::from_bytes(DEFAULT_BYTES).is_ok());
    }
}
