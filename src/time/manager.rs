//! How long the search goes on, decided from plain numbers and the search's clock. After each
//! iteration the main thread tells the manager whether the best move changed, the best score and
//! how the iteration's nodes were spread; the manager answers how much of the soft limit this
//! position deserves and whether to begin another iteration (`should_stop`). Every few thousand
//! nodes each worker asks whether the hard limit has passed (`must_abort`). The clock is read
//! through the search's `SearchClock`, so tests drive both with a `FakeClock`, without waiting.

use crate::time::{SearchClock, TimeBudget};

/// Soft time scaling after each iteration (this file): an unstable best move
/// earns more time, each stable iteration a little less, down to `STABILITY_FLOOR`.
pub const INSTABILITY_BONUS: f64 = 1.4;
/// Each iteration with the same best move takes this off the stability factor.
pub const STABILITY_STEP: f64 = 0.1;
/// The stability factor never falls below this.
pub const STABILITY_FLOOR: f64 = 0.8;
/// A score drop of this many centipawns (or more) adds up to 50% time.
pub const SCORE_DROP_FULL: i32 = 100;
/// Node-share factor = NODE_SHARE_BASE - share of root nodes spent on the best move.
pub const NODE_SHARE_BASE: f64 = 1.6;
/// The soft limit's scale never falls below this.
pub const TIME_SCALE_MIN: f64 = 0.4;
/// The soft limit's scale never rises above this.
pub const TIME_SCALE_MAX: f64 = 2.5;
/// With a single legal move and a running clock, the search stops after this depth.
pub const SINGLE_MOVE_DEPTH: i32 = 4;

/// What one finished iteration tells the time manager.
#[derive(Debug, Clone, Copy)]
pub struct IterationSummary {
    /// The depth just finished.
    pub depth: i32,
    /// Whether its best move differs from the last iteration's.
    pub best_move_changed: bool,
    /// Its best score, in centipawns for the side to move.
    pub best_score: i32,
    /// Nodes spent below the best move, and below all root moves, in this iteration.
    pub best_move_nodes: u64,
    /// Nodes spent below all root moves.
    pub iteration_nodes: u64,
    /// Legal moves at the root.
    pub root_moves: usize,
}

/// The main thread's time plan for one search.
#[derive(Debug, Clone)]
pub struct TimeManager {
    budget: Option<TimeBudget>,
    /// Iterations in a row that ended with the same best move.
    stable_iterations: u32,
    /// Best score of the previous iteration.
    last_score: Option<i32>,
    /// The soft limit as scaled by the last iteration.
    scale: f64,
    /// Whether the last iteration left a single legal move at a depth that settles it.
    single_move_settled: bool,
}

impl TimeManager {
    /// A plan for a search with this budget (`None`: no clock, only other limits stop it).
    pub fn init(budget: Option<TimeBudget>) -> TimeManager {
        TimeManager { budget, stable_iterations: 0, last_score: None, scale: 1.0, single_move_settled: false }
    }

    /// Takes in an iteration just finished: more time when the best move keeps changing or the
    /// score falls, less when one move dominates the node count.
    pub fn update(&mut self, iteration: IterationSummary) {
        self.stable_iterations = if iteration.best_move_changed { 0 } else { self.stable_iterations + 1 };
        let stability =
            (INSTABILITY_BONUS - STABILITY_STEP * self.stable_iterations as f64).max(STABILITY_FLOOR);
        let drop = self.last_score.map_or(0, |last| (last - iteration.best_score).clamp(0, SCORE_DROP_FULL));
        let falling = 1.0 + 0.5 * drop as f64 / SCORE_DROP_FULL as f64;
        let share = iteration.best_move_nodes as f64 / iteration.iteration_nodes.max(1) as f64;
        let effort = NODE_SHARE_BASE - share;
        self.scale = (stability * falling * effort).clamp(TIME_SCALE_MIN, TIME_SCALE_MAX);
        self.last_score = Some(iteration.best_score);
        self.single_move_settled = iteration.root_moves == 1 && iteration.depth >= SINGLE_MOVE_DEPTH;
    }

    /// The soft limit's scale the last iteration earned.
    #[cfg(test)]
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// Whether to start no further iteration: the soft limit, as the last iteration scaled it,
    /// has passed on `clock`. A pondering search runs on: our clock has not started.
    pub fn should_stop(&self, clock: &SearchClock) -> bool {
        let Some(budget) = self.budget else { return false };
        let elapsed = clock.clock_elapsed();
        if clock.is_pondering() {
            return false;
        }
        // A single legal move needs no thought when the clock is running.
        self.single_move_settled || elapsed >= budget.scaled_soft(self.scale)
    }

    /// Whether the search must abort mid-iteration: the hard limit has passed on `clock`. Never
    /// before a first iteration is complete (`completed_depth` 0), so there is a searched move
    /// to play; never while pondering (our clock has not started).
    pub fn must_abort(&self, clock: &SearchClock, completed_depth: i32) -> bool {
        let Some(budget) = self.budget else { return false };
        completed_depth >= 1 && clock.clock_elapsed() >= budget.hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::FakeClock;
    use std::time::Duration;

    const MS: Duration = Duration::from_millis(1);

    fn budget(soft_ms: u32, hard_ms: u32) -> Option<TimeBudget> {
        Some(TimeBudget { soft: soft_ms * MS, hard: hard_ms * MS, fixed: false })
    }

    fn iteration(depth: i32, changed: bool, score: i32, best_share_percent: u64) -> IterationSummary {
        IterationSummary {
            depth,
            best_move_changed: changed,
            best_score: score,
            best_move_nodes: best_share_percent,
            iteration_nodes: 100,
            root_moves: 20,
        }
    }

    /// A search clock reading a fake one, and the fake one to move it.
    fn fake_search_clock(pondering: bool) -> (SearchClock, FakeClock) {
        let now = FakeClock::new();
        (SearchClock::new(pondering, Box::new(now.clone())), now)
    }

    #[test]
    fn a_stable_dominant_move_stops_early_and_an_unstable_one_runs_long() {
        let mut stable = TimeManager::init(budget(1000, 4000));
        let mut unstable = TimeManager::init(budget(1000, 4000));
        for depth in 1..=10 {
            stable.update(iteration(depth, false, 30, 90));
            unstable.update(iteration(depth, true, 30 - depth * 10, 20));
        }
        assert!(stable.scale() < 1.0, "{}", stable.scale());
        assert!(unstable.scale() > 2.0, "{}", unstable.scale());
        let (clock, now) = fake_search_clock(false);
        now.advance(1200 * MS);
        assert!(stable.should_stop(&clock));
        assert!(!unstable.should_stop(&clock));
        // Never past the hard limit, whatever the scale.
        now.advance(2800 * MS);
        assert!(unstable.should_stop(&clock));
    }

    #[test]
    fn the_soft_limit_passes_on_the_clock_as_the_last_iteration_scaled_it() {
        let mut plan = TimeManager::init(budget(1000, 4000));
        plan.update(iteration(1, true, 0, 50));
        let soft = budget(1000, 4000).unwrap().scaled_soft(plan.scale());
        let (clock, now) = fake_search_clock(false);
        now.advance(soft - MS);
        assert!(!plan.should_stop(&clock), "a millisecond early");
        assert!(!plan.must_abort(&clock, 1), "the soft limit does not abort");
        now.advance(MS);
        assert!(plan.should_stop(&clock));
    }

    #[test]
    fn pondering_and_untimed_searches_never_stop_on_time() {
        let (pondering, now) = fake_search_clock(true);
        let mut timed = TimeManager::init(budget(10, 20));
        timed.update(iteration(1, true, 0, 50));
        now.advance(Duration::from_secs(60));
        assert!(!timed.should_stop(&pondering));
        assert!(!timed.must_abort(&pondering, 1));
        let (running, now) = fake_search_clock(false);
        let mut untimed = TimeManager::init(None);
        untimed.update(iteration(1, true, 0, 50));
        now.advance(Duration::from_secs(3600));
        assert!(!untimed.should_stop(&running));
        assert!(!untimed.must_abort(&running, 1));
    }

    #[test]
    fn the_hard_limit_counts_from_the_ponderhit() {
        let plan = TimeManager::init(budget(100, 300));
        let (clock, now) = fake_search_clock(true);
        now.advance(10_000 * MS);
        assert!(!plan.must_abort(&clock, 5), "the opponent's thinking time is not ours");
        clock.ponderhit();
        now.advance(299 * MS);
        assert!(!plan.must_abort(&clock, 5), "a millisecond early");
        now.advance(MS);
        assert!(plan.must_abort(&clock, 5));
    }

    #[test]
    fn the_hard_limit_waits_for_a_first_completed_iteration() {
        let plan = TimeManager::init(budget(100, 300));
        let (clock, now) = fake_search_clock(false);
        now.advance(Duration::from_secs(10));
        assert!(!plan.must_abort(&clock, 0), "no move searched yet");
        assert!(plan.must_abort(&clock, 1));
    }

    #[test]
    fn a_single_legal_move_stops_once_settled() {
        let mut plan = TimeManager::init(budget(10_000, 40_000));
        let (clock, _) = fake_search_clock(false);
        let only_move = |depth| IterationSummary { root_moves: 1, ..iteration(depth, false, 0, 100) };
        plan.update(only_move(SINGLE_MOVE_DEPTH - 1));
        assert!(!plan.should_stop(&clock));
        plan.update(only_move(SINGLE_MOVE_DEPTH));
        assert!(plan.should_stop(&clock));
    }
}
