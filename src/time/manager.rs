//! How long the main thread keeps deepening, from plain numbers: after each iteration it is
//! told whether the best move changed, the best score and how the iteration's nodes were
//! spread, and answers how much of the soft time limit this position deserves. The clock is
//! not read here: `should_stop` is handed the elapsed time, so tests drive it without waiting.

use crate::time::TimeBudget;
use std::time::Duration;

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

    /// Whether to start no further iteration, `elapsed` after the clock started. A pondering
    /// search runs on: its clock has not started.
    pub fn should_stop(&self, elapsed: Duration, pondering: bool) -> bool {
        let Some(budget) = self.budget else { return false };
        if pondering {
            return false;
        }
        // A single legal move needs no thought when the clock is running.
        self.single_move_settled || elapsed >= budget.scaled_soft(self.scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(soft_ms: u64, hard_ms: u64) -> Option<TimeBudget> {
        Some(TimeBudget {
            soft: Duration::from_millis(soft_ms),
            hard: Duration::from_millis(hard_ms),
            fixed: false,
        })
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
        let at = Duration::from_millis(1200);
        assert!(stable.should_stop(at, false));
        assert!(!unstable.should_stop(at, false));
        // Never past the hard limit, whatever the scale.
        assert!(unstable.should_stop(Duration::from_millis(4000), false));
    }

    #[test]
    fn pondering_and_untimed_searches_never_stop_on_time() {
        let mut timed = TimeManager::init(budget(10, 20));
        timed.update(iteration(1, true, 0, 50));
        assert!(!timed.should_stop(Duration::from_secs(60), true));
        let mut untimed = TimeManager::init(None);
        untimed.update(iteration(1, true, 0, 50));
        assert!(!untimed.should_stop(Duration::from_secs(3600), false));
    }

    #[test]
    fn a_single_legal_move_stops_once_settled() {
        let mut plan = TimeManager::init(budget(10_000, 40_000));
        let only_move = |depth| IterationSummary { root_moves: 1, ..iteration(depth, false, 0, 100) };
        plan.update(only_move(SINGLE_MOVE_DEPTH - 1));
        assert!(!plan.should_stop(Duration::ZERO, false));
        plan.update(only_move(SINGLE_MOVE_DEPTH));
        assert!(plan.should_stop(Duration::ZERO, false));
    }
}
