//! Every tunable number of the search, in one place, with why it is there: the constants that
//! shape the search's data (ply and score bounds, table sizes) as `const`s, and the numbers a
//! tuner may move as the fields of `SearchParams`, which each search reads at run time
//! (`SearchLimits::params`). `TUNABLES` lists them with their ranges for SPSA.
//!
//! The `SearchParams` defaults are SPSA run 1's (2,000 iterations, 16,000 games at 6,000 nodes,
//! docs/tests.md "Tuning"; the state is `docs/spsa/run1.json`), rounded, kept by a confirmation
//! match against the hand-set values; `VOTE_SCORE_OFFSET` is not tuned (one thread has no vote:
//! its row is marked `threads`, and `patina spsa` leaves such rows out).
//! A value changes only by a match (see the search-strength issue).

/// Deepest ply the search ever reaches (bounds the PV, killer and eval stacks).
pub const MAX_PLY: usize = 128;
/// Deepest iteration `go` will run.
pub const MAX_DEPTH: i32 = 120;

/// Score of being mated right now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any real score.
pub const INFINITY: i32 = 32_001;
/// Score of a draw (stalemate, repetition, fifty moves, insufficient material), either side.
pub const DRAW: i32 = 0;
/// What the table stores as static eval where there is none (in check, tablebase results).
pub const EVAL_NONE: i32 = i16::MIN as i32;
/// A tablebase win at the root; a win `n` plies away scores `TB_WIN - n`. Below every mate
/// score and above every evaluation, so a shorter mate still wins over a tablebase win.
pub const TB_WIN: i32 = 25_000;
/// Scores at or beyond this are tablebase wins or mates, not evaluations.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// At most this many double extensions on one line from the root.
pub const SE_MAX_DOUBLE_EXTENSIONS: u8 = 6;

/// Late-move reductions start at this move number in the node (1-based: 2 spares the first).
pub const LMR_MIN_MOVE: usize = 2;

/// History entries stay within plus or minus this (Ethereal's scale); the bonus and malus are
/// the tunables `HISTORY_BONUS_*` and `HISTORY_MALUS_*`.
pub const HISTORY_MAX: i32 = 16_384;

/// Correction history: entries per table (a power of two), fixed-point grain, the most it may
/// correct (cp), and the cap of the depth weight (out of 256) a result learns with.
pub const CORRECTION_SIZE: usize = 16_384;
/// Correction entries hold centipawns times this (fixed point).
pub const CORRECTION_GRAIN: i32 = 256;
/// The largest correction of a static eval, in centipawns; an error learned counts up to four
/// times this.
pub const CORRECTION_LIMIT: i32 = 64;
/// A result learns with weight `depth + 1` out of 256, at most this.
pub const CORRECTION_WEIGHT_CAP: i32 = 16;
/// Every table learns the whole error, so their entries' sum is divided by this (2: a 15 cp
/// error all three tables learned corrects by 22 cp, not 45).
pub const CORRECTION_TABLES_DIVISOR: i32 = 2;

/// A tablebase result is stored this many plies deeper than the node: it is exact.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

/// How often (in nodes) a worker publishes its node count and checks the clock and stop flag.
pub const POLL_INTERVAL: u64 = 1024;

/// The main thread reports aspiration failures as bound lines once the search has run this long.
pub const BOUND_REPORT_AFTER_MS: u128 = 2_000;

/// The main thread reports the root move it searches (`currmove`) once the search has run this
/// long: Stockfish's three seconds, past the moves of a fast game.
pub const CURRMOVE_AFTER_MS: u128 = 3_000;

/// A search tunable as a tuner sees it: its name (as `setoption` and OpenBench's SPSA input
/// name it), default, range and SPSA step.
#[derive(Debug, Clone, Copy)]
pub struct Tunable {
    /// The name, in upper case as OpenBench writes it.
    pub name: &'static str,
    /// The value the search uses unless told otherwise.
    pub default: i64,
    /// The smallest value a tuner may try.
    pub min: i64,
    /// The largest value a tuner may try.
    pub max: i64,
    /// SPSA's final perturbation (OpenBench's `c_end`).
    pub step: i64,
    /// Whether a one-thread search reads it. One that only several threads read (the vote
    /// between them) cannot be tuned by one-thread games, so `patina spsa` leaves it out.
    pub one_thread: bool,
    get: fn(&SearchParams) -> i64,
    set: fn(&mut SearchParams, i64),
}

impl Tunable {
    /// The tunable named `name` (any case, as `setoption` and OpenBench write it).
    pub fn named(name: &str) -> Option<&'static Tunable> {
        TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Its value in `params`.
    pub fn get(&self, params: &SearchParams) -> i64 {
        (self.get)(params)
    }

    /// Sets it in `params` to `value`, clamped into its range, and recomputes what derives
    /// from it.
    pub fn set_in(&self, params: &mut SearchParams, value: i64) {
        (self.set)(params, value.clamp(self.min, self.max));
        params.derive();
    }

    /// OpenBench's SPSA input line: `NAME, int, default, min, max, c_end, r_end`.
    pub fn spsa_line(&self) -> String {
        format!("{}, int, {}, {}, {}, {}, 0.002", self.name, self.default, self.min, self.max, self.step)
    }
}

/// A `tunables!` row ending in `, threads` is read only by a search on several threads.
macro_rules! one_thread {
    () => {
        true
    };
    (threads) => {
        false
    };
}

macro_rules! tunables {
    ($( $(#[doc = $doc:literal])* $field:ident: $ty:ty = $default:expr, $name:ident, [$min:expr, $max:expr], $step:expr $(, $scope:ident)?; )*) => {
        /// Every tunable number of the search, read by the search at run time (a tuner sets
        /// them through `setoption` in a `--features tune` build, see `TUNABLES`); the
        /// defaults are the values every search uses otherwise.
        #[derive(Debug, Clone, PartialEq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $field: $ty, )*
            /// `lmr_table[depth][move_number]`: plies to reduce a late quiet move, derived
            /// from `lmr_base` and `lmr_divisor`.
            lmr_table: Box<[[i32; 64]; 64]>,
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                let mut params = SearchParams { $( $field: $default, )* lmr_table: Box::new([[0; 64]; 64]) };
                params.derive();
                params
            }
        }

        /// Every field of `SearchParams`, for tuners.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable {
                name: stringify!($name),
                default: $default as i64,
                min: $min,
                max: $max,
                step: $step,
                one_thread: one_thread!($($scope)?),
                get: |p| p.$field as i64,
                set: |p, v| p.$field = v as $ty,
            }, )*
        ];
    };
}

tunables! {
    /// Aspiration windows start this wide (cp) from depth `ASPIRATION_MIN_DEPTH` and grow by half
    /// on each failure.
    aspiration_delta: i32 = 15, ASPIRATION_DELTA, [4, 40], 2;
    /// Iterations shallower than this search with a full window.
    aspiration_min_depth: i32 = 4, ASPIRATION_MIN_DEPTH, [2, 8], 1;
    /// Reverse futility pruning applies at this depth or less.
    rfp_max_depth: i32 = 6, RFP_MAX_DEPTH, [3, 10], 1;
    /// Reverse futility: a node whose static eval beats beta by this much (cp) per ply of depth
    /// (one ply less when improving) is cut.
    rfp_margin: i32 = 81, RFP_MARGIN, [30, 160], 8;
    /// Null move: only from this depth; reduction = base + depth / divisor + min(excess / divisor,
    /// cap), where excess is how far the static eval beats beta.
    nmp_min_depth: i32 = 3, NMP_MIN_DEPTH, [1, 6], 1;
    /// The null move's reduction before the depth and eval terms, in plies.
    nmp_base_reduction: i32 = 4, NMP_BASE_REDUCTION, [2, 6], 1;
    /// The null move's reduction grows one ply per this many plies of depth.
    nmp_depth_divisor: i32 = 6, NMP_DEPTH_DIVISOR, [2, 10], 1;
    /// The null move's reduction grows one ply per this many centipawns the eval beats beta by.
    nmp_eval_divisor: i32 = 209, NMP_EVAL_DIVISOR, [80, 400], 20;
    /// The eval term adds at most this many plies to the null move's reduction.
    nmp_eval_cap: i32 = 3, NMP_EVAL_CAP, [1, 6], 1;
    /// ProbCut: from this depth, a capture that beats `beta + PROBCUT_MARGIN` in a search this many
    /// plies shallower cuts the node.
    probcut_min_depth: i32 = 5, PROBCUT_MIN_DEPTH, [3, 8], 1;
    /// ProbCut's margin over beta, in centipawns.
    probcut_margin: i32 = 106, PROBCUT_MARGIN, [50, 250], 10;
    /// ProbCut's confirming search is this many plies shallower than the node.
    probcut_reduction: i32 = 4, PROBCUT_REDUCTION, [2, 6], 1;
    /// Internal iterative reduction: PV and cut nodes at least this deep with no table move are
    /// searched one ply shallower. Below it the saving is too small to pay for the worse search.
    iir_min_depth: i32 = 4, IIR_MIN_DEPTH, [2, 8], 1;
    /// Singular extensions: from this depth, a table move whose entry is a lower bound at least
    /// `depth - SE_TT_DEPTH_MARGIN` deep is tested against the other moves at half depth.
    se_min_depth: i32 = 5, SE_MIN_DEPTH, [4, 10], 1;
    /// A singular test needs a table entry at most this many plies shallower than the node.
    se_tt_depth_margin: i32 = 3, SE_TT_DEPTH_MARGIN, [1, 6], 1;
    /// The test's window lies this much per ply of depth below the table score.
    se_margin_per_depth: i32 = 2, SE_MARGIN_PER_DEPTH, [1, 4], 1;
    /// Failing the test by more than this (cp, non-PV nodes) extends the table move by two plies.
    se_double_margin: i32 = 19, SE_DOUBLE_MARGIN, [5, 50], 3;
    /// A move that causes a cutoff at depth d earns `min(HISTORY_BONUS_STEP * d^2,
    /// HISTORY_BONUS_CAP)` history (Ethereal's form: the cap is reached at depth 20).
    history_bonus_step: i32 = 32, HISTORY_BONUS_STEP, [8, 96], 4;
    /// The history bonus's ceiling.
    history_bonus_cap: i32 = 12_800, HISTORY_BONUS_CAP, [2000, 16000], 800;
    /// The moves tried before a cutoff lose `min(HISTORY_MALUS_STEP * d^2, HISTORY_MALUS_CAP)`.
    history_malus_step: i32 = 32, HISTORY_MALUS_STEP, [8, 96], 4;
    /// The history malus's ceiling.
    history_malus_cap: i32 = 12_800, HISTORY_MALUS_CAP, [2000, 16000], 800;
    /// Late-move reductions start at this depth and number of moves searched (1-based).
    lmr_min_depth: i32 = 3, LMR_MIN_DEPTH, [2, 5], 1;
    /// A quiet's combined history reduces it one ply less per this much (at most
    /// `LMR_HISTORY_CLAMP` plies either way).
    lmr_history_divisor: i32 = 4_843, LMR_HISTORY_DIVISOR, [2000, 12000], 500;
    /// History changes a late move's reduction by at most this many plies either way.
    lmr_history_clamp: i32 = 2, LMR_HISTORY_CLAMP, [1, 4], 1;
    /// Quiescence delta pruning: a capture that cannot lift alpha even with this margin is skipped.
    delta_margin: i32 = 195, DELTA_MARGIN, [50, 400], 20;
    /// Quiescence gives up a node whose stand-pat is this far below alpha: no capture can close it.
    qs_node_delta: i32 = 1_024, QS_NODE_DELTA, [400, 2000], 80;
    /// Quiescence skips captures whose exchange cannot gain what is missing to alpha less this.
    qs_see_margin: i32 = 115, QS_SEE_MARGIN, [20, 250], 10;
    /// Quiescence searches captures whose exchange is worth at least this even where the stand-pat
    /// is close to alpha (0 or below: even trades too, as Stockfish and most engines do).
    qs_see_floor: i32 = -3, QS_SEE_FLOOR, [-100, 1], 10;
    /// Capture history lowers a capture's SEE pruning threshold by one centipawn per this much.
    see_capture_history_divisor: i32 = 48, SEE_CAPTURE_HISTORY_DIVISOR, [16, 128], 8;
    /// Late-move pruning: at depth <= this, quiet moves after `(LMP_BASE + depth^2) / (2 - improving)`
    /// tried moves are skipped.
    lmp_max_depth: i32 = 9, LMP_MAX_DEPTH, [3, 12], 1;
    /// The constant part of late-move pruning's quiet count.
    lmp_base: i32 = 4, LMP_BASE, [1, 8], 1;
    /// Futility pruning applies at this depth or less: quiet moves are skipped when static eval plus
    /// `FUTILITY_BASE + FUTILITY_PER_DEPTH * depth` cannot reach alpha.
    futility_max_depth: i32 = 6, FUTILITY_MAX_DEPTH, [3, 10], 1;
    /// The futility margin's constant part, in centipawns.
    futility_base: i32 = 85, FUTILITY_BASE, [30, 200], 10;
    /// The futility margin grows this much per ply of depth, in centipawns.
    futility_per_depth: i32 = 77, FUTILITY_PER_DEPTH, [30, 160], 8;
    /// SEE pruning at low depth: quiets losing more than `SEE_QUIET_MARGIN * depth`, captures losing
    /// more than `SEE_CAPTURE_MARGIN * depth`, are skipped.
    see_prune_max_depth: i32 = 8, SEE_PRUNE_MAX_DEPTH, [3, 12], 1;
    /// The exchange threshold per ply of depth for quiets (cp; negative: the loss tolerated).
    see_quiet_margin: i32 = -53, SEE_QUIET_MARGIN, [-150, -20], 8;
    /// The exchange threshold per ply of depth for captures, lowered further by capture history.
    see_capture_margin: i32 = -91, SEE_CAPTURE_MARGIN, [-200, -40], 10;
    /// Captures that do not check are skipped at this depth or less when static eval plus
    /// the captured piece, capture history and `CAPTURE_FUTILITY_BASE + CAPTURE_FUTILITY_PER_DEPTH
    /// * depth` cannot reach alpha (Stockfish 17's capture futility).
    capture_futility_max_depth: i32 = 6, CAPTURE_FUTILITY_MAX_DEPTH, [3, 10], 1;
    /// Capture futility's constant margin, in centipawns.
    capture_futility_base: i32 = 141, CAPTURE_FUTILITY_BASE, [50, 300], 10;
    /// Capture futility's margin per ply of depth, in centipawns.
    capture_futility_per_depth: i32 = 117, CAPTURE_FUTILITY_PER_DEPTH, [50, 250], 10;
    /// Capture history raises capture futility's margin by one centipawn per this much.
    capture_futility_history_divisor: i32 = 16, CAPTURE_FUTILITY_HISTORY_DIVISOR, [4, 64], 2;
    /// Thread voting: a thread's vote weighs (score - lowest score + this) * depth. Only several
    /// threads vote, so one-thread SPSA leaves it alone.
    vote_score_offset: i32 = 14, VOTE_SCORE_OFFSET, [0, 50], 3, threads;
    /// Continuation pruning applies at this depth or less, when the eval is not improving.
    continuation_prune_depth_not_improving: i32 = 2, CONTINUATION_PRUNE_DEPTH_NOT_IMPROVING, [1, 6], 1;
    /// Continuation pruning applies at this depth or less, when the eval is improving.
    continuation_prune_depth_improving: i32 = 3, CONTINUATION_PRUNE_DEPTH_IMPROVING, [1, 6], 1;
    /// One-ply continuation history below which a quiet is skipped (not improving).
    counter_history_limit_not_improving: i32 = -397, COUNTER_HISTORY_LIMIT_NOT_IMPROVING, [-4000, 2000], 250;
    /// One-ply continuation history below which a quiet is skipped (improving).
    counter_history_limit_improving: i32 = -955, COUNTER_HISTORY_LIMIT_IMPROVING, [-4000, 2000], 250;
    /// Two-ply continuation history below which a quiet is skipped (not improving).
    follow_up_history_limit_not_improving: i32 = -1_961, FOLLOW_UP_HISTORY_LIMIT_NOT_IMPROVING, [-6000, 0], 250;
    /// Two-ply continuation history below which a quiet is skipped (improving).
    follow_up_history_limit_improving: i32 = -4_004, FOLLOW_UP_HISTORY_LIMIT_IMPROVING, [-8000, 0], 250;
    /// Futility pruning spares quiets whose combined history is at least this (not improving).
    futility_history_limit_not_improving: i32 = 11_996, FUTILITY_HISTORY_LIMIT_NOT_IMPROVING, [2000, 20000], 1000;
    /// Futility pruning spares quiets whose combined history is at least this (improving).
    futility_history_limit_improving: i32 = 6_019, FUTILITY_HISTORY_LIMIT_IMPROVING, [1000, 16000], 1000;
    /// Late-move reduction = (LMR_BASE + ln(depth) * ln(move) / LMR_DIVISOR), both in hundredths.
    lmr_base: i32 = 75, LMR_BASE, [0, 200], 8;
    /// Divisor of the `ln(depth) * ln(move)` term of the late-move reduction, in hundredths.
    lmr_divisor: i32 = 221, LMR_DIVISOR, [120, 400], 10;
}

/// The history bonus and malus's one form: `step * depth^2`, at most `cap`.
#[inline]
fn depth_squared_capped(step: i32, cap: i32, depth: i32) -> i32 {
    (step * depth * depth).min(cap)
}

impl SearchParams {
    /// The history a move earns by causing a cutoff at `depth`.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        depth_squared_capped(self.history_bonus_step, self.history_bonus_cap, depth)
    }

    /// The history a move loses by failing before another's cutoff at `depth`.
    #[inline]
    pub fn history_malus(&self, depth: i32) -> i32 {
        depth_squared_capped(self.history_malus_step, self.history_malus_cap, depth)
    }

    /// Futility pruning spares quiets whose combined history is at least this.
    #[inline]
    pub fn futility_history_limit(&self, improving: bool) -> i32 {
        pick(improving, self.futility_history_limit_improving, self.futility_history_limit_not_improving)
    }

    /// Continuation pruning applies at this depth or less.
    #[inline]
    pub fn continuation_prune_depth(&self, improving: bool) -> i32 {
        pick(improving, self.continuation_prune_depth_improving, self.continuation_prune_depth_not_improving)
    }

    /// One-ply continuation history below which a quiet is skipped.
    #[inline]
    pub fn counter_history_limit(&self, improving: bool) -> i32 {
        pick(improving, self.counter_history_limit_improving, self.counter_history_limit_not_improving)
    }

    /// Two-ply continuation history below which a quiet is skipped.
    #[inline]
    pub fn follow_up_history_limit(&self, improving: bool) -> i32 {
        pick(improving, self.follow_up_history_limit_improving, self.follow_up_history_limit_not_improving)
    }

    /// The late-move reduction of the `move_number`th move at `depth` (both capped at 63).
    #[inline]
    pub fn lmr(&self, depth: i32, move_number: usize) -> i32 {
        self.lmr_table[depth.clamp(0, 63) as usize][move_number.min(63)]
    }

    /// Sets the tunable named `name` (any case) to `value`, clamped into its range; `None`
    /// when no tunable has that name.
    pub fn set(&mut self, name: &str, value: i64) -> Option<&'static Tunable> {
        let tunable = Tunable::named(name)?;
        tunable.set_in(self, value);
        Some(tunable)
    }

    /// Recomputes what is derived from the tunables (the reduction table).
    fn derive(&mut self) {
        let (base, divisor) = (f64::from(self.lmr_base) / 100.0, f64::from(self.lmr_divisor.max(1)) / 100.0);
        for (depth, row) in self.lmr_table.iter_mut().enumerate() {
            for (number, cell) in row.iter_mut().enumerate() {
                *cell = if depth == 0 || number == 0 {
                    0
                } else {
                    (base + (depth as f64).ln() * (number as f64).ln() / divisor) as i32
                };
            }
        }
    }
}

/// The value for an improving eval, or the other.
#[inline]
fn pick(improving: bool, when_improving: i32, otherwise: i32) -> i32 {
    if improving {
        when_improving
    } else {
        otherwise
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_has_a_unique_name_and_a_default_in_its_range() {
        let mut names = std::collections::HashSet::new();
        for tunable in TUNABLES {
            assert!(names.insert(tunable.name.to_ascii_lowercase()), "{} twice", tunable.name);
            assert!(tunable.min <= tunable.default && tunable.default <= tunable.max, "{tunable:?}");
            assert!(tunable.step > 0, "{tunable:?}");
            assert_eq!(tunable.get(&SearchParams::default()), tunable.default, "{}", tunable.name);
        }
    }

    #[test]
    fn the_reduction_table_follows_its_tunables() {
        let mut params = SearchParams::default();
        // The values the search was tuned with as constants: 0.75 + ln(d) ln(m) / 2.25.
        assert_eq!(params.lmr(10, 10), (0.75 + 10f64.ln() * 10f64.ln() / 2.25) as i32);
        assert_eq!(params.lmr(0, 5), 0);
        assert_eq!(params.lmr(200, 200), params.lmr(63, 63), "capped at 63");
        let before = params.lmr(20, 30);
        assert!(params.set("lmr_base", 175).is_some());
        assert_eq!(params.lmr(20, 30), before + 1);
    }

    #[test]
    fn set_clamps_into_the_range_and_names_no_unknown_tunable() {
        let mut params = SearchParams::default();
        assert!(params.set("RFP_MARGIN", 10_000).is_some());
        assert_eq!(params.rfp_margin, 160);
        assert!(params.set("NO_SUCH_THING", 1).is_none());
        assert_eq!(
            TUNABLES[0].spsa_line(),
            format!(
                "{}, int, {}, {}, {}, {}, 0.002",
                TUNABLES[0].name, TUNABLES[0].default, TUNABLES[0].min, TUNABLES[0].max, TUNABLES[0].step
            )
        );
    }
}
