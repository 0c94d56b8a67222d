//! Where the time is read. Everything that measures time (a search's clock, the UCI session's
//! deadlines) reads a `Now`: the system's monotonic clock in play, a `FakeClock` that moves only
//! when told to in tests, so time-dependent logic is tested without sleeping or racing the
//! machine's load.
//!
//! `SearchClock` is the clock one search is measured by: it starts with the search (the `go`),
//! except that a pondering search's clock waits for the `ponderhit`. The search's
//! `SearchControl` owns one; the `TimeManager` reads it to decide when to stop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A source of the current time, shared between threads (a search's workers all read it).
pub trait Now: Send + Sync {
    /// The time now.
    fn now(&self) -> Instant;
}

/// The system's monotonic clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Now for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that moves only when told to; its clones share one time (for tests).
#[derive(Debug, Clone)]
pub struct FakeClock {
    start: Instant,
    /// Nanoseconds moved on since `start`. `Relaxed` suffices: tests move the clock between
    /// the steps they check, and a reader seeing the move a moment late only delays a stop.
    advanced_ns: Arc<AtomicU64>,
}

impl FakeClock {
    /// A clock standing at the real time now.
    pub fn new() -> FakeClock {
        FakeClock { start: Instant::now(), advanced_ns: Arc::new(AtomicU64::new(0)) }
    }

    /// Moves the time on by `by` (for every clone).
    pub fn advance(&self, by: Duration) {
        let by_ns = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        // `fetch_update` with a saturating add: a clock never wraps back to its start.
        let _ = self
            .advanced_ns
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |ns| Some(ns.saturating_add(by_ns)));
    }
}

impl Default for FakeClock {
    fn default() -> FakeClock {
        FakeClock::new()
    }
}

impl Now for FakeClock {
    fn now(&self) -> Instant {
        self.start + Duration::from_nanos(self.advanced_ns.load(Ordering::Relaxed))
    }
}

/// The clock one search is measured by: time since the search began (for `info time` and nps),
/// and time on our clock, which starts with the search or, when pondering, at the `ponderhit`.
///
/// `Relaxed` ordering suffices: the pondering flag and the start are independent words, and a
/// search thread seeing the `ponderhit` a poll interval late only costs microseconds.
pub struct SearchClock {
    now: Box<dyn Now>,
    /// When the search began.
    epoch: Instant,
    pondering: AtomicBool,
    /// Microseconds after `epoch` at which our clock started (the `go`, or the `ponderhit`).
    clock_start_us: AtomicU64,
}

impl SearchClock {
    /// A clock reading `now`, started now unless `pondering` (then it waits for `ponderhit`).
    pub fn new(pondering: bool, now: Box<dyn Now>) -> SearchClock {
        let epoch = now.now();
        SearchClock { now, epoch, pondering: AtomicBool::new(pondering), clock_start_us: AtomicU64::new(0) }
    }

    /// The opponent played the expected move: our clock starts now.
    pub fn ponderhit(&self) {
        let now = self.search_elapsed().as_micros() as u64;
        self.clock_start_us.store(now, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether the search is still pondering (no `ponderhit` yet): our clock has not started.
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time on our clock since it started (zero while pondering).
    pub fn clock_elapsed(&self) -> Duration {
        if self.is_pondering() {
            return Duration::ZERO;
        }
        let start = Duration::from_micros(self.clock_start_us.load(Ordering::Relaxed));
        self.search_elapsed().saturating_sub(start)
    }

    /// Time since the search began.
    pub fn search_elapsed(&self) -> Duration {
        self.now.now().saturating_duration_since(self.epoch)
    }
}

impl std::fmt::Debug for SearchClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchClock")
            .field("search_elapsed", &self.search_elapsed())
            .field("pondering", &self.is_pondering())
            .field("clock_elapsed", &self.clock_elapsed())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_fake_clock_moves_only_when_told_and_its_clones_move_with_it() {
        let clock = FakeClock::new();
        let clone = clock.clone();
        let before = clock.now();
        assert_eq!(clone.now(), before);
        clone.advance(250 * MS);
        assert_eq!(clock.now(), before + 250 * MS);
        clock.advance(Duration::MAX);
        assert!(clock.now() >= before + 250 * MS, "saturates, never wraps");
    }

    #[test]
    fn a_search_clock_runs_from_the_start_of_the_search() {
        let now = FakeClock::new();
        let clock = SearchClock::new(false, Box::new(now.clone()));
        assert_eq!(clock.clock_elapsed(), Duration::ZERO);
        now.advance(40 * MS);
        assert_eq!(clock.search_elapsed(), 40 * MS);
        assert_eq!(clock.clock_elapsed(), 40 * MS);
    }

    #[test]
    fn a_pondering_clock_starts_at_the_ponderhit() {
        let now = FakeClock::new();
        let clock = SearchClock::new(true, Box::new(now.clone()));
        now.advance(5_000 * MS);
        assert!(clock.is_pondering());
        assert_eq!(clock.clock_elapsed(), Duration::ZERO, "the opponent's time, not ours");
        assert_eq!(clock.search_elapsed(), 5_000 * MS);
        clock.ponderhit();
        assert!(!clock.is_pondering());
        assert_eq!(clock.clock_elapsed(), Duration::ZERO);
        now.advance(30 * MS);
        assert_eq!(clock.clock_elapsed(), 30 * MS);
        assert_eq!(clock.search_elapsed(), 5_030 * MS);
    }
}
