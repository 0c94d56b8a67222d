//! Where the session reads the time: the system's clock in play, a hand-moved one in tests.
//! The session's own time-dependent logic (a limited level's think-time deadline, the progress
//! line after a second of silence) reads `Now`, so tests of it never race the machine's load.

#[cfg(test)]
use std::sync::{Arc, Mutex};
#[cfg(test)]
use std::time::Duration;
use std::time::Instant;

/// A source of the current time.
pub(super) trait Now: Send {
    /// The time now.
    fn now(&self) -> Instant;
}

/// The system's monotonic clock.
pub(super) struct SystemClock;

impl Now for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that moves only when told to; its clones share one time (tests).
#[cfg(test)]
#[derive(Clone)]
pub(super) struct FakeClock(Arc<Mutex<Instant>>);

#[cfg(test)]
impl FakeClock {
    /// A clock standing at the real time now.
    pub(super) fn new() -> FakeClock {
        FakeClock(Arc::new(Mutex::new(Instant::now())))
    }

    /// Moves the time on by `by`.
    pub(super) fn advance(&self, by: Duration) {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) += by;
    }
}

#[cfg(test)]
impl Now for FakeClock {
    fn now(&self) -> Instant {
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
