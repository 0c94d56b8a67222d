//! The search: what it is asked (`SearchLimits`), how it is steered while running
//! (`SearchControl`), and what it reports (`SearchEvent`), all as plain data. The recipe itself
//! lives in `worker/`, the Lazy SMP thread pool in `threads.rs`, tunables in `params.rs`.
//!
//! The search never formats text: the UCI layer turns events into `info` and `bestmove` lines.

mod correction;
mod history;
mod kept;
mod mate_line;
mod material_scale;
pub mod params;
mod root_facts;
mod threads;
mod tt_scores;
mod worker;

pub use kept::SearchMemory;
pub use material_scale::material_scaled;
pub use params::{SearchParams, Tunable, TUNABLES};
pub use threads::{run, run_with_memory};

use crate::nnue::Network;
use crate::tablebase::Tablebases;
use crate::time::{Now, SearchClock, SystemClock, TimeBudget};
use shakmaty::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What one `go` asks for. Every limit that is set applies; the first reached ends the search.
#[derive(Debug, Clone, Default)]
pub struct SearchLimits {
    /// Deepest iteration to run, in plies.
    pub depth: Option<i32>,
    /// Nodes to search at most, all threads together.
    pub nodes: Option<u64>,
    /// The first iteration that completes with this many nodes or more is the last (a soft
    /// limit: `nodes` stays the hard one).
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate_in_moves: Option<i32>,
    /// Soft and hard thinking-time limits, measured from the clock start; `None`: no clock.
    pub time: Option<TimeBudget>,
    /// Restrict the root to these moves (empty: all legal moves).
    pub search_moves: Vec<Move>,
    /// Lines to report per iteration (at least 1).
    pub multipv: usize,
    /// Search threads (at least 1).
    pub threads: usize,
    /// Syzygy tables and how to use them, when loaded.
    pub tablebases: Option<TablebaseUse>,
    /// The evaluation the search plays with (the compiled-in net unless told otherwise).
    pub evaluator: Evaluator,
    /// The tunables the search reads (the defaults unless a tuner set them).
    pub params: SharedParams,
}

/// A search's tunables, shared by its threads; the default is one shared copy of
/// `SearchParams::default()`, built once.
#[derive(Debug, Clone)]
pub struct SharedParams(pub Arc<SearchParams>);

impl Default for SharedParams {
    fn default() -> SharedParams {
        static DEFAULT: once_cell::sync::Lazy<Arc<SearchParams>> =
            once_cell::sync::Lazy::new(|| Arc::new(SearchParams::default()));
        SharedParams(Arc::clone(&DEFAULT))
    }
}

impl std::ops::Deref for SharedParams {
    type Target = SearchParams;
    fn deref(&self) -> &SearchParams {
        &self.0
    }
}

/// The evaluation one search plays with, fixed for the whole search: a network (the
/// compiled-in one, or an `EvalFile`'s).
#[derive(Clone)]
pub struct Evaluator(pub Arc<Network>);

impl Evaluator {
    /// The network.
    pub fn network(&self) -> &Arc<Network> {
        &self.0
    }
}

impl Default for Evaluator {
    /// The net compiled into the binary.
    fn default() -> Evaluator {
        Evaluator(crate::nnue::default_network())
    }
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({:016x})", self.0.hash())
    }
}

/// The Syzygy options as one search applies them.
#[derive(Clone)]
pub struct TablebaseUse {
    /// The loaded tables, shared with the engine.
    pub tables: Arc<Tablebases>,
    /// Probe inside the search only at this remaining depth or more (`SyzygyProbeDepth`).
    pub probe_depth: i32,
    /// Probe only positions of at most this many pieces (`SyzygyProbeLimit`, capped by the tables).
    pub probe_limit: usize,
    /// Count wins and losses the fifty-move rule spoils as draws (`Syzygy50MoveRule`).
    pub rule50: bool,
}

impl std::fmt::Debug for TablebaseUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "TablebaseUse({} files, depth {}, limit {})",
            self.tables.files(),
            self.probe_depth,
            self.probe_limit
        )
    }
}

/// A score as the GUI sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Centipawns(i32),
    /// Mate in this many moves; negative when we are being mated.
    Mate(i32),
}

impl Score {
    /// Converts an internal search score (mate = `MATE - plies`).
    pub fn from_internal(value: i32) -> Score {
        use params::{MATE, MATE_BOUND};
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Centipawns(value)
        }
    }
}

/// Whether a reported score is exact or only a bound (aspiration failure).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is the line's value.
    Exact,
    /// The true value is at least the score (the line failed high).
    Lower,
    /// The true value is at most the score (the line failed low).
    Upper,
}

/// One line of one iteration.
#[derive(Debug, Clone)]
pub struct IterationReport {
    /// The iteration's depth, in plies.
    pub depth: i32,
    /// The deepest ply any line of the iteration reached.
    pub seldepth: usize,
    /// 1-based line number.
    pub multipv: usize,
    /// The line's score, from the side to move's point of view.
    pub score: Score,
    /// Whether `score` is exact or only a bound.
    pub bound: ScoreBound,
    /// Nodes searched so far, all threads together.
    pub nodes: u64,
    /// Nodes per second since the search began.
    pub nps: u64,
    /// Permille of sampled table entries written during this search.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads together.
    pub tbhits: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The line: its root move first, then the expected replies.
    pub pv: Vec<Move>,
}

/// One line of a completed iteration: the root move first, then the expected replies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootLine {
    /// The root move, then the expected replies.
    pub pv: Vec<Move>,
    /// The line's exact score, from the side to move's point of view.
    pub score: Score,
}

/// The search's final answer.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The move to play.
    pub best: Move,
    /// The expected reply to `best`, to ponder on, when the line has one.
    pub ponder: Option<Move>,
    /// Nodes searched, all threads together.
    pub nodes: u64,
    /// The depth completed by the thread whose line is played (0 when none finished one).
    pub depth: i32,
    /// The score of the line played, from the side to move's point of view.
    pub score: Score,
    /// The main thread's lines of its last completed iteration, best first, one per MultiPV
    /// line (at a tablebase root, only moves that keep the tables' result are searched, so
    /// there may be fewer). `best` may differ from the first line's move:
    /// it also weighs a deeper, unfinished iteration and the other threads' votes.
    pub lines: Vec<RootLine>,
    /// The `info` line of the move played (`multipv 1`, its PV starting with `best`, its score
    /// and bound), with the whole search's nodes and time. The last iteration reported may
    /// have shown another move (cut short, outvoted, or a limited level's choice): the UCI
    /// layer then prints this one before `bestmove`, so the GUI's last PV is the move played.
    pub played: IterationReport,
}

/// What a running search sends to whoever started it.
#[derive(Debug, Clone)]
pub enum SearchEvent {
    /// One line of an iteration (or of an aspiration failure worth showing), as it happens.
    /// The final answer is not an event: `run` returns it.
    Iteration(IterationReport),
    /// The root move the main thread searches: once the search has run `CURRMOVE_AFTER_MS`,
    /// the one under way then, and each after it as it starts (GUIs show which move a long
    /// search is on, as Stockfish reports it).
    RootMove {
        /// The iteration's depth.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its 1-based place in this iteration's order of the root moves.
        number: usize,
    },
}

/// Shared switches a running search obeys; the UCI thread flips them. The search's clock
/// (`time::SearchClock`) is injected: the system's, or a fake one in tests.
///
/// `Relaxed` ordering suffices: each flag is a single independent word, and a search thread
/// noticing a flip a poll interval late only costs microseconds.
pub struct SearchControl {
    stop: AtomicBool,
    /// What the search is measured by: since it began, and on our clock.
    clock: SearchClock,
    /// All threads' nodes as the main thread last summed them, for progress reports.
    nodes: AtomicU64,
    /// Tablebase probes that answered.
    tb_hits: AtomicU64,
}

impl SearchControl {
    /// Switches for a new search, not stopped, measured by the system's clock; while
    /// `pondering` our clock waits for `ponderhit`, else it starts now.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl::with_clock(pondering, SystemClock)
    }

    /// `new`, with the time read from `now` (tests pass a `time::FakeClock`).
    pub fn with_clock(pondering: bool, now: impl Now + 'static) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            clock: SearchClock::new(pondering, Box::new(now)),
            nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
        }
    }

    /// Counts one tablebase probe that answered.
    pub fn count_tb_hit(&self) {
        self.tb_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// Tablebase probes that answered so far, all threads together.
    pub fn tb_hits(&self) -> u64 {
        self.tb_hits.load(Ordering::Relaxed)
    }

    /// Records the node count so far (the main thread does, every few thousand nodes).
    pub fn publish_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Ordering::Relaxed);
    }

    /// Nodes searched as last published.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Asks every search thread to stop as soon as it next polls.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether `stop` has been called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: our clock starts now.
    pub fn ponderhit(&self) {
        self.clock.ponderhit();
    }

    /// Whether the search is still pondering (no `ponderhit` yet): no time limit applies.
    pub fn is_pondering(&self) -> bool {
        self.clock.is_pondering()
    }

    /// The clock the search is measured by, for the time manager's decisions.
    pub fn clock(&self) -> &SearchClock {
        &self.clock
    }

    /// Time since the search began, for `info time` and nps.
    pub fn search_elapsed(&self) -> Duration {
        self.clock.search_elapsed()
    }
}
