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

use crate::position::Position;
use crate::search::{self, SearchControl, SearchEvent, SearchLimits, SearchMemory, SearchOutcome};
use crate::tt::{AllocationError, TranspositionTable};
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

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

    /// Starts searching `pos` (which must have a legal move). A search already running is
    /// stopped and joined first; its `Finished` event is still delivered.
    pub fn go(&mut self, pos: Position, limits: SearchLimits, pondering: bool) {
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
