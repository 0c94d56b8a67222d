//! Every tunable number of the search, in one place, with why it is there.
//!
//! Values are conventional starting points for an engine of this kind; each one is to be
//! re-tested by a match before it changes (see the search-strength issue).

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

/// Aspiration windows start this wide (cp) from depth `ASPIRATION_MIN_DEPTH` and grow by half
/// on each failure.
pub const ASPIRATION_DELTA: i32 = 12;
/// Iterations shallower than this search with a full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Reverse futility pruning applies at this depth or less.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Reverse futility: a node whose static eval beats beta by this much (cp) per ply of depth
/// (one ply less when improving) is cut.
pub const RFP_MARGIN: i32 = 80;

/// Null move: only from this depth; reduction = base + depth / divisor + min(excess / divisor,
/// cap), where excess is how far the static eval beats beta.
pub const NMP_MIN_DEPTH: i32 = 3;
/// The null move's reduction before the depth and eval terms, in plies.
pub const NMP_BASE_REDUCTION: i32 = 4;
/// The null move's reduction grows one ply per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 6;
/// The null move's reduction grows one ply per this many centipawns the eval beats beta by.
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// The eval term adds at most this many plies to the null move's reduction.
pub const NMP_EVAL_CAP: i32 = 3;

/// ProbCut: from this depth, a capture that beats `beta + PROBCUT_MARGIN` in a search this many
/// plies shallower cuts the node.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut's margin over beta, in centipawns.
pub const PROBCUT_MARGIN: i32 = 100;
/// ProbCut's confirming search is this many plies shallower than the node.
pub const PROBCUT_REDUCTION: i32 = 4;

/// Internal iterative reduction: PV and cut nodes at least this deep with no table move are
/// searched one ply shallower. Below it the saving is too small to pay for the worse search.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions: from this depth, a table move whose entry is a lower bound at least
/// `depth - SE_TT_DEPTH_MARGIN` deep is tested against the other moves at half depth.
pub const SE_MIN_DEPTH: i32 = 7;
/// A singular test needs a table entry at most this many plies shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// The test's window lies this much per ply of depth below the table score.
pub const SE_MARGIN_PER_DEPTH: i32 = 2;
/// Failing the test by more than this (cp, non-PV nodes) extends the table move by two plies.
pub const SE_DOUBLE_MARGIN: i32 = 20;
/// At most this many double extensions on one line from the root.
pub const SE_MAX_DOUBLE_EXTENSIONS: u8 = 6;

/// Late-move reductions start at this depth and number of moves searched (1-based).
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions start at this move number in the node (1-based: 2 spares the first).
pub const LMR_MIN_MOVE: usize = 2;
/// A quiet's combined history reduces it one ply less per this much (at most
/// `LMR_HISTORY_CLAMP` plies either way).
pub const LMR_HISTORY_DIVISOR: i32 = 5_000;
/// History changes a late move's reduction by at most this many plies either way.
pub const LMR_HISTORY_CLAMP: i32 = 2;
/// reduction = LMR_BASE + ln(depth) * ln(move) / LMR_DIVISOR
pub const LMR_BASE: f64 = 0.75;
/// Divisor of the `ln(depth) * ln(move)` term of the late-move reduction.
pub const LMR_DIVISOR: f64 = 2.25;

/// Quiescence delta pruning: a capture that cannot lift alpha even with this margin is skipped.
pub const DELTA_MARGIN: i32 = 200;
/// Quiescence gives up a node whose stand-pat is this far below alpha: no capture can close it.
pub const QS_NODE_DELTA: i32 = 1_000;
/// Quiescence skips captures whose exchange cannot gain what is missing to alpha less this.
pub const QS_SEE_MARGIN: i32 = 110;

/// History bonus: `HISTORY_STEP * min(depth^2, HISTORY_DEPTH_CAP)`; gravity holds entries
/// within `HISTORY_MAX` (Ethereal's scale).
pub const HISTORY_STEP: i32 = 32;
/// The history bonus's `depth^2` is capped at this (reached at depth 20).
pub const HISTORY_DEPTH_CAP: i32 = 400;
/// History entries stay within plus or minus this.
pub const HISTORY_MAX: i32 = 16_384;

/// Continuation pruning: at depth <= `[not improving, improving]` a quiet whose one-ply (or
/// two-ply) continuation history is below the limit is skipped.
pub const CONTINUATION_PRUNE_DEPTH: [i32; 2] = [3, 2];
/// One-ply continuation history below which a quiet is skipped, `[not improving, improving]`.
pub const COUNTER_HISTORY_LIMIT: [i32; 2] = [0, -1_000];
/// Two-ply continuation history below which a quiet is skipped, `[not improving, improving]`.
pub const FOLLOW_UP_HISTORY_LIMIT: [i32; 2] = [-2_000, -4_000];
/// Futility pruning spares quiets whose combined history is at least this
/// (`[not improving, improving]`).
pub const FUTILITY_HISTORY_LIMIT: [i32; 2] = [12_000, 6_000];
/// Capture history lowers a capture's SEE pruning threshold by one centipawn per this much.
pub const SEE_CAPTURE_HISTORY_DIVISOR: i32 = 48;

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

/// A tablebase result is stored this many plies deeper than the node: it is exact.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

/// How often (in nodes) a worker publishes its node count and checks the clock and stop flag.
pub const POLL_INTERVAL: u64 = 1024;

/// Late-move pruning: at depth <= this, quiet moves after `(LMP_BASE + depth^2) / (2 - improving)`
/// tried moves are skipped.
pub const LMP_MAX_DEPTH: i32 = 8;
/// The constant part of late-move pruning's quiet count.
pub const LMP_BASE: i32 = 3;

/// Futility pruning applies at this depth or less: quiet moves are skipped when static eval plus
/// `FUTILITY_BASE + FUTILITY_PER_DEPTH * depth` cannot reach alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// The futility margin's constant part, in centipawns.
pub const FUTILITY_BASE: i32 = 90;
/// The futility margin grows this much per ply of depth, in centipawns.
pub const FUTILITY_PER_DEPTH: i32 = 80;

/// SEE pruning at low depth: quiets losing more than `SEE_QUIET_MARGIN * depth`, captures losing
/// more than `SEE_CAPTURE_MARGIN * depth`, are skipped.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
/// The exchange threshold per ply of depth for quiets (cp; negative: the loss tolerated).
pub const SEE_QUIET_MARGIN: i32 = -60;
/// The exchange threshold per ply of depth for captures, lowered further by capture history.
pub const SEE_CAPTURE_MARGIN: i32 = -100;

/// Thread voting: a thread's vote weighs (score - lowest score + this) * depth.
pub const VOTE_SCORE_OFFSET: i32 = 14;

/// The main thread reports aspiration failures as bound lines once the search has run this long.
pub const BOUND_REPORT_AFTER_MS: u128 = 2_000;
