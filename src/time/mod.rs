//! Time: how long one `go` may think, and the clock it is measured by.
//!
//! `allocate` turns the clocks of a `go` as the GUI sent them (`GoClocks`) into a soft limit
//! (don't start another iteration past it) and a hard limit (abort the search), both measured
//! from the moment our clock starts (the `go`, or the `ponderhit` when pondering). It reads our
//! side's clock, by the side to move; `Move Overhead` is taken off the remaining time first, so
//! GUI and pipe latency never flag us.
//!
//! `manager.rs` (`TimeManager`) makes both decisions while the search runs: after each iteration
//! whether to begin another (the soft limit, scaled by how settled the search looks), and every
//! few thousand nodes whether to abort (the hard limit). `clock.rs` is where time is read: the
//! `Now` trait (the system's clock, or a `FakeClock` in tests) and `SearchClock`, the clock one
//! search is measured by. The search asks and obeys; nothing here knows the search.

mod clock;
pub mod manager;

pub use clock::{FakeClock, Now, SearchClock, SystemClock};

use shakmaty::Color;
use std::time::Duration;

/// The clocks of a `go`, as sent (milliseconds; any may be missing).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoClocks {
    /// White's time left.
    pub wtime: Option<i64>,
    /// Black's time left.
    pub btime: Option<i64>,
    /// White's increment per move.
    pub winc: Option<i64>,
    /// Black's increment per move.
    pub binc: Option<i64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// A fixed time for this move.
    pub movetime: Option<i64>,
}

/// Our clock: what the GUI said about the clocks for the side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct OwnClock {
    /// Remaining time in milliseconds; negative values (GUI margins) count as zero.
    time_ms: Option<i64>,
    /// Milliseconds added to the clock after each move (`winc`/`binc`); 0 when none.
    increment_ms: i64,
    /// Moves left until the next time control (`movestogo`); `None` plans for 30 more.
    moves_to_go: Option<u32>,
    /// `go movetime`.
    move_time_ms: Option<i64>,
}

impl OwnClock {
    /// The clock of `turn`, the side to move, from the clocks as sent.
    fn of(clocks: &GoClocks, turn: Color) -> OwnClock {
        let (own_time, other_time, increment_ms) = match turn {
            Color::White => (clocks.wtime, clocks.btime, clocks.winc),
            Color::Black => (clocks.btime, clocks.wtime, clocks.binc),
        };
        OwnClock {
            // A GUI that sends only the opponent's clock is still playing with clocks: assume
            // ours is the same rather than think forever.
            time_ms: own_time.or(other_time),
            increment_ms: increment_ms.unwrap_or(0),
            moves_to_go: clocks.movestogo,
            move_time_ms: clocks.movetime,
        }
    }
}

/// Soft and hard thinking-time limits for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeBudget {
    /// Past this, measured from the clock start, no new iteration begins.
    pub soft: Duration,
    /// Past this, measured from the clock start, the search aborts mid-iteration.
    pub hard: Duration,
    /// A `go movetime` with no clock: the whole time is spent. The search scales a clock's soft
    /// limit by how settled it looks, but `movetime` asks for exactly that long.
    pub fixed: bool,
}

impl TimeBudget {
    /// Exactly `time`, neither cut short nor stretched.
    pub fn fixed(time: Duration) -> TimeBudget {
        TimeBudget { soft: time, hard: time, fixed: true }
    }

    /// The soft limit scaled by `scale` (how much this position deserves), never past the hard
    /// limit; a fixed budget is not scaled.
    pub fn scaled_soft(&self, scale: f64) -> Duration {
        if self.fixed {
            self.hard
        } else {
            self.soft.mul_f64(scale).min(self.hard)
        }
    }
}

/// Moves we plan for when the GUI does not say how many remain.
const DEFAULT_MOVES_TO_GO: i64 = 30;
/// The shortest budget we ever give ourselves; a depth-1 search fits in it.
const MINIMUM_MS: i64 = 1;

/// GUI clock values are clamped to +-2^40 ms (about 35 years) before any arithmetic, so no
/// value a GUI can send overflows (found by the `uci_session` fuzz target).
const LIMIT_MS: i64 = 1 << 40;

/// The budget for this move of `turn`, the side to move, from the clocks of its `go`; `None`
/// when no clock or move time limits the search.
pub fn allocate(clocks: &GoClocks, turn: Color, move_overhead_ms: i64) -> Option<TimeBudget> {
    allocate_own(&OwnClock::of(clocks, turn), move_overhead_ms)
}

/// The budget from our clock alone.
fn allocate_own(clock: &OwnClock, move_overhead_ms: i64) -> Option<TimeBudget> {
    let limit = |ms: i64| ms.clamp(-LIMIT_MS, LIMIT_MS);
    let clock = &OwnClock {
        time_ms: clock.time_ms.map(limit),
        increment_ms: limit(clock.increment_ms),
        moves_to_go: clock.moves_to_go,
        move_time_ms: clock.move_time_ms.map(limit),
    };
    let move_overhead_ms = move_overhead_ms.clamp(0, LIMIT_MS);
    if let Some(move_time) = clock.move_time_ms {
        let hard = (move_time - move_overhead_ms).max(MINIMUM_MS);
        let budget = TimeBudget::fixed(ms(hard));
        return Some(match clock.time_ms {
            Some(_) => tighter(budget, clock_budget(clock, move_overhead_ms)),
            None => budget,
        });
    }
    clock.time_ms.map(|_| clock_budget(clock, move_overhead_ms))
}

fn clock_budget(clock: &OwnClock, move_overhead_ms: i64) -> TimeBudget {
    let remaining = clock.time_ms.unwrap_or(0).max(0);
    // With `movestogo` the clock must last exactly that many moves, each paying the overhead,
    // and we plan for one move more than that so each period ends with about 1/(moves + 1)
    // of it in hand (40/10: about 240 ms; sharing it all left 17 ms when the next period
    // arrived). Without it the clock is open-ended and 30 moves are only a planning horizon.
    let (moves_to_go, planned_moves, paid_overheads) = match clock.moves_to_go {
        Some(moves) => {
            let moves = i64::from(moves.clamp(1, 60));
            (moves, moves + 1, moves)
        }
        None => (DEFAULT_MOVES_TO_GO, DEFAULT_MOVES_TO_GO, 1),
    };
    let available = (remaining - move_overhead_ms.saturating_mul(paid_overheads)).max(MINIMUM_MS);
    // Every future move also pays the overhead, so only the increment beyond it is ours to
    // spend, and only three quarters of that: searches overshoot their soft limit, and the
    // rest keeps a cushion on the clock (at 1+0.01 a whole increment per move left Patina
    // with 20 ms by move 30, and latency spikes flagged it).
    let spendable_increment = (clock.increment_ms - move_overhead_ms).max(0);
    let share = available / planned_moves + spendable_increment * 3 / 4;
    let (soft_cap, hard_cap) = if moves_to_go == 1 {
        (available * 7 / 10, available * 3 / 4)
    } else {
        (available / 5, available / 3)
    };
    let soft = share.min(soft_cap).max(MINIMUM_MS);
    let hard = (share * 4).min(hard_cap).max(soft);
    TimeBudget { soft: ms(soft), hard: ms(hard), fixed: false }
}

fn tighter(a: TimeBudget, b: TimeBudget) -> TimeBudget {
    TimeBudget { soft: a.soft.min(b.soft), hard: a.hard.min(b.hard), fixed: a.fixed && b.fixed }
}

fn ms(value: i64) -> Duration {
    Duration::from_millis(value.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: i64, inc: i64, mtg: Option<u32>) -> OwnClock {
        OwnClock { time_ms: Some(time), increment_ms: inc, moves_to_go: mtg, move_time_ms: None }
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for time in [-500, 0, 1, 20, 100, 1_000, 60_000] {
            for inc in [0, 100, 5_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let budget = allocate_own(&clock(time, inc, mtg), 10).unwrap();
                    assert!(budget.soft <= budget.hard);
                    let cap = (time - 10).max(1) as u128;
                    assert!(budget.hard.as_millis() <= cap, "{time} {inc} {mtg:?}: {budget:?}");
                }
            }
        }
    }

    #[test]
    fn tiny_clock_still_gets_a_budget() {
        let budget = allocate_own(&clock(20, 0, None), 10).unwrap();
        assert!(budget.hard <= Duration::from_millis(10));
        assert!(budget.hard >= Duration::from_millis(1));
    }

    #[test]
    fn movetime_is_honoured_minus_overhead() {
        let c = OwnClock { move_time_ms: Some(1000), ..OwnClock::default() };
        assert_eq!(allocate_own(&c, 30).unwrap().hard, Duration::from_millis(970));
    }

    #[test]
    fn movetime_alone_is_spent_whole_and_with_a_clock_is_scaled() {
        let alone = allocate_own(&OwnClock { move_time_ms: Some(200), ..OwnClock::default() }, 0).unwrap();
        assert!(alone.fixed);
        // However settled the search looks, movetime 200 thinks for 200 ms.
        assert_eq!(alone.scaled_soft(0.4), Duration::from_millis(200));
        let with_clock = OwnClock { move_time_ms: Some(200), ..clock(60_000, 0, None) };
        let budget = allocate_own(&with_clock, 0).unwrap();
        assert!(!budget.fixed);
        assert_eq!(budget.scaled_soft(0.5), budget.soft.mul_f64(0.5));
        assert_eq!(budget.scaled_soft(100.0), budget.hard);
    }

    #[test]
    fn increments_and_moves_to_go_are_used() {
        let without = allocate_own(&clock(10_000, 0, None), 0).unwrap();
        let with_inc = allocate_own(&clock(10_000, 1_000, None), 0).unwrap();
        assert!(with_inc.soft > without.soft);
        let last_move = allocate_own(&clock(10_000, 0, Some(1)), 0).unwrap();
        assert!(last_move.soft > without.soft);
    }

    #[test]
    fn bullet_keeps_a_cushion() {
        // 1+0.01: a full increment per move would let the clock sink to a few milliseconds.
        let mut remaining = 1_000.0;
        for _ in 0..150 {
            let budget = allocate_own(&clock(remaining as i64, 10, None), 10).unwrap();
            remaining += 10.0 - budget.soft.as_millis() as f64 * 1.3 - 3.0;
        }
        assert!(remaining > 60.0, "clock sank to {remaining} ms");
    }

    #[test]
    fn a_moves_to_go_period_ends_with_time_in_hand() {
        // 40/10 with the default 10 ms overhead, each search running 30% past its soft limit
        // (but never past the hard one) and 3 ms of latency a move.
        let mut remaining = 10_000.0;
        for moves_to_go in (1..=40).rev() {
            let budget = allocate_own(&clock(remaining as i64, 0, Some(moves_to_go)), 10).unwrap();
            let spent = (budget.soft.as_millis() as f64 * 1.3).min(budget.hard.as_millis() as f64);
            remaining -= spent + 3.0;
        }
        assert!(remaining > 100.0, "the period ended with {remaining} ms");
    }

    #[test]
    fn extreme_clock_values_give_a_sane_budget() {
        let (max, min) = (i64::MAX, i64::MIN);
        let clock = |time_ms, increment_ms, moves_to_go, move_time_ms| OwnClock {
            time_ms,
            increment_ms,
            moves_to_go,
            move_time_ms,
        };
        for (case, clock) in [
            ("wtime max, movestogo 0", clock(Some(max), 0, Some(0), None)),
            ("wtime max", clock(Some(max), 0, None, None)),
            ("winc max", clock(Some(1000), max, None, None)),
            ("winc min", clock(Some(1000), min, None, None)),
            ("wtime min", clock(Some(min), 0, None, None)),
            ("movetime max", clock(None, 0, None, Some(max))),
            ("movetime min", clock(None, 0, None, Some(min))),
            ("movetime min with clock", clock(Some(1000), 0, None, Some(min))),
            ("everything max", clock(Some(max), max, Some(u32::MAX), Some(max))),
        ] {
            for overhead in [0, 10, 5000] {
                let budget = allocate_own(&clock, overhead).unwrap_or_else(|| panic!("{case}: no budget"));
                assert!(
                    budget.soft >= Duration::from_millis(1) && budget.hard >= budget.soft,
                    "{case}: {budget:?}"
                );
            }
        }
        // A huge clock is a long think, not 1 ms (what wrapped arithmetic gave in release builds).
        for mtg in [None, Some(1)] {
            let budget = allocate_own(&clock(Some(max), 0, mtg, None), 10).unwrap();
            assert!(budget.soft >= Duration::from_secs(3600), "{budget:?}");
        }
    }

    #[test]
    fn no_clock_means_no_budget() {
        assert_eq!(allocate_own(&OwnClock::default(), 10), None);
        assert_eq!(allocate(&GoClocks::default(), Color::White, 10), None);
    }

    #[test]
    fn the_side_to_move_reads_its_own_clock() {
        let clocks = GoClocks {
            wtime: Some(60_000),
            btime: Some(1_000),
            winc: Some(500),
            binc: Some(10),
            movestogo: Some(20),
            movetime: None,
        };
        let white =
            OwnClock { time_ms: Some(60_000), increment_ms: 500, moves_to_go: Some(20), move_time_ms: None };
        let black = OwnClock { time_ms: Some(1_000), increment_ms: 10, ..white };
        assert_eq!(OwnClock::of(&clocks, Color::White), white);
        assert_eq!(OwnClock::of(&clocks, Color::Black), black);
        assert_eq!(allocate(&clocks, Color::Black, 10), allocate_own(&black, 10));
        assert!(
            allocate(&clocks, Color::White, 10).unwrap().soft
                > allocate(&clocks, Color::Black, 10).unwrap().soft
        );
    }

    #[test]
    fn only_the_opponents_clock_is_taken_for_ours_and_movetime_for_either_side() {
        let only_black = GoClocks { btime: Some(10_000), ..GoClocks::default() };
        let mirrored = GoClocks { wtime: Some(10_000), ..GoClocks::default() };
        assert!(allocate(&only_black, Color::White, 10).is_some());
        assert_eq!(allocate(&only_black, Color::White, 10), allocate(&mirrored, Color::White, 10));
        let movetime = GoClocks { movetime: Some(300), ..GoClocks::default() };
        for turn in [Color::White, Color::Black] {
            assert_eq!(allocate(&movetime, turn, 0), Some(TimeBudget::fixed(Duration::from_millis(300))));
        }
    }
}
