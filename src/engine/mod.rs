//! The engine API the UCI loop drives: start a search, stop it, ponderhit; set an option; run
//! a long job. Nothing here parses or prints text, and nothing blocks except `wait`, a `Hash`
//! resize (which must wait for a running search to let go of the old table) and an `EvalFile`
//! load.
//!
//! The engine owns what a search is configured by: the option values in force
//! (`EngineOptions`), the transposition table, the Syzygy tables, the net and the long jobs.
//! `config.rs` applies a `setoption` (`Engine::apply`) and says when it is in force: a table
//! load runs off the caller's thread and is in force once its `JobEvent::TablesLoaded` has
//! been handed back (`tables_loaded`); `is_settling` tells whether one is under way.
//!
//! A search runs on its own thread and sends `EngineEvent`s over a channel (`events.rs`: the
//! lines, the answer, and the engine's decisions about it: no legal move, a limited level's
//! choice); the caller formats them and decides when to print `bestmove`. `request.rs` turns a
//! `go` into search limits; `inspect.rs` answers what needs no search (`eval`, `result`); the
//! long jobs (`bench`, `go perft`, `genfens`, table loads) are `jobs.rs`'s, with `bench.rs` the
//! bench positions.
//!
//! `search` is the one blocking entry into the search: the engine's thread, `bench`, datagen's
//! games and openings, and the analyser all call it, and it alone decides what a position with
//! no legal move gets (no search: `None`); `Engine::go` turns that case into its answer
//! (`events::answer_without_search`: checkmate or stalemate, `bestmove (none)`). `fixed_nodes`
//! and `fixed_depth` are the limits the single-threaded callers use.

pub mod bench;
mod config;
mod events;
pub mod inspect;
pub mod jobs;
pub mod openings;
mod request;

pub use config::{Applied, ApplyError, TablesInForce, TunableOption};
pub use events::{Answer, EngineEvent};
pub use inspect::{game_result, Evaluation};
pub use request::{GoClocks, GoLimits, GoPlan, GoRequest};

// The engine side's data types and services the UCI layer names, so that it depends on the
// engine alone: positions, what searches report, the evaluation's terms, game results, the
// long jobs run off the UCI thread and the tablebases they load.
pub use crate::rules::Verdict;
pub use crate::search::{IterationReport, Score, ScoreBound};
pub use crate::tablebase::Tablebases;
pub use crate::time::{FakeClock, Now, SystemClock};
pub use crate::wdl::Wdl;
pub use bench::DEFAULT_DEPTH as BENCH_DEPTH;
pub use jobs::{BenchEnd, Job, JobEvent};

pub use crate::nnue::{vector_width, VectorWidth};

/// The version, and for a build from a git checkout the short commit and its date
/// (`0.1.0 90f4126 2026-12-05`; `build.rs` finds them): what tells one build from another.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), env!("PATINA_GIT_DESCRIPTION"));

/// The engine's name and build for `id name` and analysis headers: `Patina ` and `VERSION`.
pub const NAME: &str = concat!("Patina ", env!("CARGO_PKG_VERSION"), env!("PATINA_GIT_DESCRIPTION"));

use crate::nnue::{self, NetError, Network};
use crate::options::EngineOptions;
pub use crate::position::Position;
use crate::search::{
    self, Evaluator, SearchControl, SearchEvent, SearchLimits, SearchMemory, SearchOutcome, SharedParams,
};
use crate::strength::{self, MoveRng};
use crate::tt::{AllocationError, TranspositionTable};
use crossbeam_channel::{unbounded, Receiver, Sender};
use events::{LimitedLevel, WdlView};
use jobs::Jobs;
use std::fmt;
use std::path::Path;
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

/// How a running search's events are reported: which lines, with what, and the move choice
/// made on its outcome.
struct Reporting {
    view: WdlView,
    /// Lines with a higher `multipv` are not reported (a limited level searches more lines
    /// than `MultiPV` asks for).
    shown_lines: usize,
    limited: Option<LimitedLevel>,
    /// The tables the search probes, whose failure is reported once it ends.
    tablebases: Option<Arc<Tablebases>>,
}

/// Why an engine could not be set up with the options given.
#[derive(Debug)]
pub enum EngineError {
    /// The `Hash` table could not be allocated.
    Table(AllocationError),
    /// The `EvalFile` net could not be loaded.
    Net {
        /// The file.
        path: String,
        /// Why.
        error: NetError,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Table(error) => write!(f, "{error}"),
            EngineError::Net { path, error } => write!(f, "eval_file '{path}': {error}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Where an engine reports: its searches' events and its jobs' events.
pub struct EngineChannels {
    /// What the running search says (`go`).
    pub events: Receiver<EngineEvent>,
    /// What the long jobs and table loads say.
    pub job_events: Receiver<JobEvent>,
}

/// Owns the option values in force, the transposition table, the Syzygy tables, the net, at
/// most one running search and the long jobs.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    /// The search threads' histories, kept from one `go` to the next, cleared with the table.
    memory: Arc<SearchMemory>,
    events: Sender<EngineEvent>,
    running: Option<RunningSearch>,
    /// Where a strength-limited level's move choices come from (seeded from the clock).
    move_rng: MoveRng,
    /// `new_game`s so far: the same position in another game may get another limited move.
    games: u64,
    /// The option values in force (`syzygy_path` only once its tables are in).
    options: EngineOptions,
    /// The net `EvalFile` chose (the compiled-in one by default).
    net: Arc<Network>,
    /// The tables of `options.syzygy_path`, once loaded.
    tablebases: Option<Arc<Tablebases>>,
    /// `bench`, `go perft`, `genfens` and table loads, run off the caller's thread.
    jobs: Jobs,
    /// The search's tunables (the defaults; a `--features tune` build lets `setoption` move them).
    params: SharedParams,
}

/// The net `eval_file` names, or the compiled-in one when it is empty.
fn load_net(eval_file: &str) -> Result<Arc<Network>, EngineError> {
    match eval_file {
        "" => Ok(nnue::default_network()),
        path => Network::load(Path::new(path))
            .map(Arc::new)
            .map_err(|error| EngineError::Net { path: path.to_string(), error }),
    }
}

/// The evaluation a search with `options` plays with: the `EvalFile` net (the compiled-in one
/// by default).
pub fn evaluator_for(options: &EngineOptions) -> Result<Evaluator, EngineError> {
    Ok(Evaluator(load_net(&options.eval_file)?))
}

impl Engine {
    /// An idle engine set up with `options` (its table allocated, its net loaded, its Syzygy
    /// tables loading), and the receiving ends of its events.
    pub fn new(options: EngineOptions) -> Result<(Engine, EngineChannels), EngineError> {
        let tt = Arc::new(TranspositionTable::new(options.hash_mib).map_err(EngineError::Table)?);
        let net = load_net(&options.eval_file)?;
        let (events, receiver) = unbounded();
        let (jobs, job_events) = Jobs::new();
        let wanted_tables = options.syzygy_path.clone();
        let mut engine = Engine {
            tt,
            memory: Arc::default(),
            events,
            running: None,
            move_rng: MoveRng::from_clock(),
            games: 0,
            options: EngineOptions { syzygy_path: String::new(), ..options },
            net,
            tablebases: None,
            jobs,
            params: SharedParams::default(),
        };
        if !wanted_tables.is_empty() {
            engine.jobs.load_tables(wanted_tables);
        }
        Ok((engine, EngineChannels { events: receiver, job_events }))
    }

    /// The option values in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The evaluation a search started now plays with.
    fn evaluator(&self) -> Evaluator {
        Evaluator(Arc::clone(&self.net))
    }

    /// Makes a strength-limited level's move choices reproducible: the same seed, game and
    /// position always give the same move.
    pub fn set_move_seed(&mut self, seed: u64) {
        self.move_rng = MoveRng::new(seed);
    }

    /// Answers a `go`. A search already running is stopped and joined first (its `Finished`
    /// event is still delivered). A position whose side to move has no legal move is answered
    /// at once, in the returned plan's events; otherwise the search starts with the time
    /// allocated, the strength level and the tablebase settings applied, and reports through
    /// the event channel, ending with `Finished`.
    pub fn go(&mut self, request: GoRequest) -> GoPlan {
        self.stop();
        self.wait();
        let view = WdlView::new(&request.position, self.options.show_wdl);
        let events = events::answer_without_search(&request.position, &view);
        if matches!(events.last(), Some(EngineEvent::Finished(_))) {
            return GoPlan { min_think: None, events };
        }
        let knobs = request::knobs(&self.options);
        let limits = request.limits(
            &self.options,
            self.tablebases.as_ref(),
            self.evaluator(),
            self.params.clone(),
            knobs.as_ref(),
        );
        let min_think = knobs.and(limits.time).map(|time| strength::min_think(time.soft));
        let limited = knobs.map(|knobs| LimitedLevel {
            elo: self.options.elo,
            knobs,
            rng: self.move_rng.for_move(self.games, request.position.key()),
        });
        let reporting = Reporting {
            view,
            shown_lines: self.options.multipv,
            limited,
            tablebases: self.tablebases.clone(),
        };
        self.search(request.position, limits, request.limits.ponder, reporting);
        GoPlan { min_think, events }
    }

    /// Starts searching `pos` (which has a legal move) within `limits` on the engine's thread.
    fn search(&mut self, pos: Position, limits: SearchLimits, pondering: bool, reporting: Reporting) {
        let control = Arc::new(SearchControl::new(pondering));
        let tt = Arc::clone(&self.tt);
        let memory = Arc::clone(&self.memory);
        let events = self.events.clone();
        let thread_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new().name("patina-search-0".into()).stack_size(16 << 20).spawn(
            move || {
                let send = |event: EngineEvent| {
                    let _ = events.send(event);
                };
                let report = |event: SearchEvent| match event {
                    SearchEvent::Iteration(report) => {
                        if report.multipv <= reporting.shown_lines {
                            send(EngineEvent::Iteration { wdl: reporting.view.of(report.score), report });
                        }
                    }
                    SearchEvent::RootMove { depth, mv, number } => {
                        send(EngineEvent::RootMove { depth, mv, number })
                    }
                };
                let searched = search_with_memory(&pos, &limits, &tt, &memory, &thread_control, &report);
                let Some(outcome) = searched else { return };
                if let Some(failure) = reporting.tablebases.as_ref().and_then(|tables| tables.take_failure())
                {
                    send(EngineEvent::TablebaseFailure(failure));
                }
                let outcome = match reporting.limited {
                    Some(level) => level.play(outcome, &send),
                    None => outcome,
                };
                let wdl = reporting.view.of(outcome.played.score);
                send(EngineEvent::Finished(Answer::Move { outcome, wdl }));
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

    /// Empties the table and forgets the histories (the `Clear Hash` button, `ucinewgame`).
    fn clear_hash(&self) {
        self.tt.clear();
        self.memory.clear();
    }

    /// A new game (`ucinewgame`): the table and histories emptied, and a limited level's move
    /// choices drawn afresh for positions seen in earlier games.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.games += 1;
    }

    /// The transposition table (for `hashfull` in progress lines).
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Starts a long job after stopping and waiting for any running one (its end event is
    /// still delivered). A `bench` searches with the evaluation in force.
    pub fn start_job(&mut self, job: Job) {
        self.jobs.start(job, self.evaluator());
    }

    /// Asks the running job (if any) to end soon; it still sends its end event.
    pub fn stop_job(&self) {
        self.jobs.stop();
    }

    /// Whether a job has been started and its end event not yet handed back (`job_ended`).
    pub fn is_job_running(&self) -> bool {
        self.jobs.is_running()
    }

    /// A job's end event has arrived: frees the slot for the next.
    pub fn job_ended(&mut self) {
        self.jobs.ended();
    }

    /// Whether a setting is not yet in force (a `SyzygyPath` load under way).
    pub fn is_settling(&self) -> bool {
        self.jobs.is_loading_tables()
    }
}
