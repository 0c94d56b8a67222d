//! The engine API the UCI loop drives: start a search, stop it, ponderhit, resize or clear the
//! table. Nothing here parses or prints text, and nothing blocks except `wait` and `resize_hash`
//! (which must wait for a running search to let go of the old table).
//!
//! A search runs on its own thread and sends `SearchEvent`s over a channel; the caller decides
//! when to print `bestmove`.
//!
//! `search` is the one blocking entry into the search: the engine's thread, `bench`, datagen's
//! games and openings, and the analyser all call it, and it alone decides what a position with
//! no legal move gets (no search: `None`). `fixed_nodes` and `fixed_depth` are the limits the
//! single-threaded callers use.

use crate::options::EngineOptions;
use crate::position::Position;
use crate::search::{
    self, SearchControl, SearchEvent, SearchLimits, SearchMemory, SearchOutcome, TablebaseUse,
};
use crate::strength::{self, Knobs};
use crate::tablebase::Tablebases;
use crate::time::{self, Clock};
use crate::tt::{AllocationError, TranspositionTable};
use crossbeam_channel::{unbounded, Receiver, Sender};
use shakmaty::{Color, Move};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Searches `pos` within `limits` on the calling thread (and `limits.threads - 1` helpers),
/// with `tt`, obeying `control`, passing every event to `report`. `None`, without searching,
/// when the side to move has no legal move (checkmate or stalemate: the caller reports the
/// result its own way).
pub fn search(
    pos: &Position,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    control: &SearchControl,
    report: &(dyn Fn(SearchEvent) + Sync),
) -> Option<SearchOutcome> {
    search_with_memory(pos, limits, tt, &SearchMemory::default(), control, report)
}

/// `search` with the histories and correction tables lent by `memory` (the engine's, kept from
/// one `go` to the next); `search` starts from empty ones.
pub fn search_with_memory(
    pos: &Position,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    memory: &SearchMemory,
    control: &SearchControl,
    report: &(dyn Fn(SearchEvent) + Sync),
) -> Option<SearchOutcome> {
    if pos.legal_moves().is_empty() {
        return None;
    }
    Some(search::run_with_memory(pos, limits, tt, memory, control, report))
}

/// `search` that nobody watches or stops: it runs to its limits (datagen, tests).
pub fn search_to_limits(
    pos: &Position,
    limits: &SearchLimits,
    tt: &TranspositionTable,
) -> Option<SearchOutcome> {
    search(pos, limits, tt, &SearchControl::new(false), &|_| {})
}

/// One line, one thread, at most `nodes` nodes: a reproducible search.
pub fn fixed_nodes(nodes: u64) -> SearchLimits {
    SearchLimits { nodes: Some(nodes), multipv: 1, threads: 1, ..SearchLimits::default() }
}

/// One line to `depth` on `threads` threads (reproducible with one).
pub fn fixed_depth(depth: i32, threads: usize) -> SearchLimits {
    SearchLimits { depth: Some(depth), multipv: 1, threads, ..SearchLimits::default() }
}

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

/// Everything one `go` asks of the engine, as plain data: the UCI layer parsed it, the engine
/// turns it into search limits (time allocation, the strength level, tablebase use).
#[derive(Clone)]
pub struct GoRequest {
    /// The position to search; it has a legal move (the caller answers a finished game).
    pub position: Position,
    /// The clocks as sent.
    pub clocks: GoClocks,
    /// Plies to search at most.
    pub depth: Option<i32>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
    /// Stop at a mate in at most this many moves.
    pub mate: Option<i32>,
    /// `go infinite`: ignore the clocks, run until `stop`.
    pub infinite: bool,
    /// `go ponder`: the clock starts at `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub search_moves: Vec<Move>,
    /// The options in force (MultiPV, Threads, Move Overhead, the strength level, Syzygy).
    pub options: EngineOptions,
    /// The loaded Syzygy tables, if any.
    pub tablebases: Option<Arc<Tablebases>>,
}

/// What the engine decided for a `go`, for the caller's bookkeeping.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GoPlan {
    /// The strength level playing, when `UCI_LimitStrength` limits it (`strength::play` picks
    /// its move from the search's lines).
    pub knobs: Option<Knobs>,
    /// A limited level's shortest time over this move, counted from when the clock starts.
    pub min_think: Option<Duration>,
}

impl GoRequest {
    /// The strength level the options ask for; `None` at full strength (the top of the range
    /// is no limit at all).
    fn knobs(&self) -> Option<Knobs> {
        let options = &self.options;
        options.limit_strength.then(|| strength::knobs(options.elo)).filter(|k| *k != Knobs::FULL)
    }

    /// The search limits: the time allocated from our clock, the level's restrictions, the
    /// tablebase settings.
    fn limits(&self, knobs: Option<&Knobs>) -> SearchLimits {
        let clocks = &self.clocks;
        let (own_time, other_time, increment_ms) = match self.position.turn() {
            Color::White => (clocks.wtime, clocks.btime, clocks.winc),
            Color::Black => (clocks.btime, clocks.wtime, clocks.binc),
        };
        let clock = Clock {
            // A GUI that sends only the opponent's clock is still playing with clocks: assume
            // ours is the same rather than think forever.
            time_ms: own_time.or(other_time),
            increment_ms: increment_ms.unwrap_or(0),
            moves_to_go: clocks.movestogo,
            move_time_ms: clocks.movetime,
        };
        let options = &self.options;
        let mut limits = SearchLimits {
            depth: self.depth.map(|d| d.max(1)),
            nodes: self.nodes,
            mate_in_moves: self.mate,
            // `go infinite` ignores clocks: it runs until `stop`.
            time: if self.infinite { None } else { time::allocate(&clock, options.move_overhead_ms) },
            search_moves: self.search_moves.clone(),
            multipv: options.multipv,
            threads: options.threads,
            tablebases: self.tablebases.as_ref().map(|tables| TablebaseUse {
                tables: Arc::clone(tables),
                probe_depth: options.syzygy_probe_depth,
                probe_limit: options.syzygy_probe_limit.min(tables.max_pieces()),
                rule50: options.syzygy_50_move_rule,
            }),
        };
        if let Some(knobs) = knobs {
            knobs.restrict(&mut limits);
        }
        limits
    }
}

struct RunningSearch {
    control: Arc<SearchControl>,
    thread: JoinHandle<()>,
}

/// Owns the transposition table and at most one running search.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    /// The search threads' histories, kept from one `go` to the next, cleared with the table.
    memory: Arc<SearchMemory>,
    events: Sender<SearchEvent>,
    running: Option<RunningSearch>,
}

impl Engine {
    /// An idle engine with a `hash_mib` table, and the receiving end of its search events.
    pub fn new(hash_mib: usize) -> Result<(Engine, Receiver<SearchEvent>), AllocationError> {
        let tt = Arc::new(TranspositionTable::new(hash_mib)?);
        let (events, receiver) = unbounded();
        Ok((Engine { tt, memory: Arc::default(), events, running: None }, receiver))
    }

    /// Starts the search a `go` asks for (its position must have a legal move): allocates the
    /// time, applies the strength level and the tablebase settings, and says what it decided.
    /// A search already running is stopped and joined first; its `Finished` event is still
    /// delivered.
    pub fn go(&mut self, request: GoRequest) -> GoPlan {
        let knobs = request.knobs();
        let limits = request.limits(knobs.as_ref());
        let min_think = knobs.and(limits.time).map(|time| strength::min_think(time.soft));
        self.search(request.position, limits, request.ponder);
        GoPlan { knobs, min_think }
    }

    /// Starts searching `pos` within `limits` on the engine's thread.
    fn search(&mut self, pos: Position, limits: SearchLimits, pondering: bool) {
        self.stop();
        self.wait();
        let control = Arc::new(SearchControl::new(pondering));
        let tt = Arc::clone(&self.tt);
        let memory = Arc::clone(&self.memory);
        let events = self.events.clone();
        let thread_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new().name("patina-search-0".into()).stack_size(16 << 20).spawn(
            move || {
                let report = |event: SearchEvent| {
                    let _ = events.send(event);
                };
                // `go`'s contract: the position has a legal move, so an outcome always comes.
                let searched = search_with_memory(&pos, &limits, &tt, &memory, &thread_control, &report);
                if let Some(outcome) = searched {
                    let _ = events.send(SearchEvent::Finished(outcome));
                }
            },
        );
        // If the OS refuses a thread there is nothing to wait for; the caller sees no event.
        if let Ok(thread) = spawned {
            self.running = Some(RunningSearch { control, thread });
        }
    }

    /// Asks the running search (if any) to finish as soon as possible.
    pub fn stop(&self) {
        if let Some(running) = &self.running {
            running.control.stop();
        }
    }

    /// The opponent played the pondered move: the clock starts now.
    pub fn ponderhit(&self) {
        if let Some(running) = &self.running {
            running.control.ponderhit();
        }
    }

    /// Waits until the search thread has exited (after its `Finished` event was sent).
    pub fn wait(&mut self) {
        if let Some(running) = self.running.take() {
            let _ = running.thread.join();
        }
    }

    /// Nodes searched and time spent so far by the running search, if one is running.
    pub fn progress(&self) -> Option<(u64, std::time::Duration)> {
        let running = self.running.as_ref().filter(|r| !r.thread.is_finished())?;
        Some((running.control.nodes(), running.control.search_elapsed()))
    }

    /// Whether a search thread is still running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.thread.is_finished())
    }

    /// Replaces the table with one of `mib` MiB; on failure the old table stays.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), AllocationError> {
        self.stop();
        self.wait();
        let table = TranspositionTable::new(mib)?;
        self.tt = Arc::new(table);
        Ok(())
    }

    /// Empties the table and forgets the histories (a new game, or the `Clear Hash` button).
    pub fn clear_hash(&self) {
        self.tt.clear();
        self.memory.clear();
    }

    /// The transposition table (for `hashfull` in progress lines).
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }
}
