//! Long commands that are not searches, run off the UCI thread so the protocol keeps answering:
//! `bench`, `go perft`, `genfens` (one at a time, stoppable) and loading Syzygy tables (not
//! stoppable, but never waited for).
//!
//! Like the engine (`mod.rs`) for searches: the caller starts a job, the job's thread sends `JobEvent`s
//! (plain data, never text) over a channel the UCI loop `select!`s on, and the caller may raise
//! the stop flag at any time. A job ends with exactly one terminal event (`is_end`), stopped or
//! not, so the caller knows when the slot is free again. Nothing here blocks but `wait`.

use super::bench::{self, BenchResult};
use super::openings::{self, Book, OpeningError, OpeningSource};
use crate::perft;
use crate::position::Position;
use crate::search::Evaluator;
use crate::tablebase::{TablebaseError, Tablebases};
use crate::tt::{AllocationError, TranspositionTable};
use crossbeam_channel::{unbounded, Receiver, Sender};
use shakmaty::{CastlingMode, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A long command to run.
#[derive(Clone)]
pub enum Job {
    /// `bench [DEPTH]`: the fixed positions on one thread.
    Bench {
        /// Search depth in plies for every bench position.
        depth: i32,
    },
    /// `go perft DEPTH`: per-root-move counts.
    Perft {
        /// The position to count from.
        pos: Box<Position>,
        /// Plies to count to; 0 counts the position itself and has no root moves.
        depth: u32,
    },
    /// OpenBench's `genfens`.
    Genfens {
        /// Openings to emit.
        count: u64,
        /// Seed of the opening draws; the same seed, book and build give the same FENs.
        seed: u64,
        /// Path of an opening book to start from; `None` plays random plies from the start.
        book: Option<String>,
        /// Chess960 castling (`UCI_Chess960`): the book is read and positions set up that way.
        chess960: bool,
    },
}

/// What a job reports.
#[derive(Debug)]
pub enum JobEvent {
    /// One root move of `go perft`, counted in full.
    PerftMove {
        /// The root move.
        mv: Move,
        /// Leaf nodes under it at the job's depth.
        nodes: u64,
    },
    /// `go perft` has ended: `complete` is false when it was stopped.
    PerftDone {
        /// Leaf nodes of the root moves counted in full (the sum of their `PerftMove`s; 1 at
        /// depth 0, the position itself).
        nodes: u64,
        /// Wall time from the job's start to its end.
        elapsed: Duration,
        /// Root moves counted in full.
        counted: usize,
        /// Legal moves at the root (0 at depth 0).
        root_moves: usize,
        /// False when the stop flag cut the count short.
        complete: bool,
    },
    /// `bench` has ended: its node count, or why there is none (a partial count means nothing).
    BenchDone(Result<BenchResult, BenchEnd>),
    /// One `genfens` opening.
    Genfen(String),
    /// `genfens` has ended after `emitted` of `requested` openings; `error` when it failed.
    GenfensDone {
        /// Openings sent as `Genfen` events.
        emitted: u64,
        /// Openings the command asked for.
        requested: u64,
        /// Why it failed (a book that would not load, a table that would not allocate).
        error: Option<JobError>,
    },
    /// A `SyzygyPath` load has ended (not a job of the slot: `load_tables` starts it).
    TablesLoaded {
        /// The number `load_tables` returned; stale unless `tables_loaded` says otherwise.
        generation: u64,
        /// The `SyzygyPath` value loaded.
        path: String,
        /// The tables, or why they could not be registered.
        result: Result<Tablebases, JobError>,
    },
}

/// Why a job or a table load produced nothing.
#[derive(Debug)]
pub enum JobError {
    /// The OS refused the job a thread.
    NoThread(std::io::Error),
    /// `bench`: the machine could not give it its hash table.
    Table(AllocationError),
    /// `genfens`: the book would not load, or no balanced opening was found.
    Openings(OpeningError),
    /// The Syzygy tables could not be registered.
    Tables(TablebaseError),
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobError::NoThread(error) => write!(f, "cannot start a thread: {error}"),
            JobError::Table(error) => write!(f, "{error}"),
            JobError::Openings(error) => write!(f, "{error}"),
            JobError::Tables(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for JobError {}

/// Why `bench` ended without a node count.
#[derive(Debug)]
pub enum BenchEnd {
    /// `stop` (or `quit`) cut it short.
    Stopped,
    /// It could not run at all.
    Failed(JobError),
}

impl JobEvent {
    /// The last event of a `Job`: the slot is free once it has arrived.
    pub fn is_end(&self) -> bool {
        matches!(self, JobEvent::PerftDone { .. } | JobEvent::BenchDone(_) | JobEvent::GenfensDone { .. })
    }
}

struct RunningJob {
    /// Raised by `stop`; `Relaxed` suffices: the job only needs to see it eventually.
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// At most one running `Job`, and any number of table loads.
pub struct Jobs {
    events: Sender<JobEvent>,
    running: Option<RunningJob>,
    /// Number of the latest table load; an older load's result is stale.
    tables_generation: u64,
    /// Table loads started and not yet reported.
    tables_loading: usize,
}

impl Jobs {
    /// No job running, and the receiving end of job events.
    pub fn new() -> (Jobs, Receiver<JobEvent>) {
        let (events, receiver) = unbounded();
        (Jobs { events, running: None, tables_generation: 0, tables_loading: 0 }, receiver)
    }

    /// Starts `job` (a `bench` searching with `evaluator`). The caller ends any running job
    /// first (`stop`, then wait for its end event); a job the OS refuses a thread for ends at
    /// once with its end event.
    pub fn start(&mut self, job: Job, evaluator: Evaluator) {
        let stop = Arc::new(AtomicBool::new(false));
        let refused = refusal(&job);
        let events = self.events.clone();
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new()
            .name("patina-job".into())
            .stack_size(16 << 20)
            .spawn(move || run(job, evaluator, &flag, &events));
        match spawned {
            Ok(thread) => self.running = Some(RunningJob { stop, thread }),
            Err(error) => {
                let _ = self.events.send(refused(error));
            }
        }
    }

    /// Asks the running job (if any) to end soon; it still sends its end event.
    pub fn stop(&self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a job has been started and its end event not yet handled (`ended`).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The end event has arrived: joins the thread (which is exiting) and frees the slot.
    pub fn ended(&mut self) {
        if let Some(running) = self.running.take() {
            let _ = running.thread.join();
        }
    }

    /// Loads the tables of `path` on a thread of its own; the result comes as `TablesLoaded`
    /// with the number returned here. A newer load makes older results stale.
    pub fn load_tables(&mut self, path: String) -> u64 {
        self.tables_generation += 1;
        let generation = self.tables_generation;
        let events = self.events.clone();
        let refused_path = path.clone();
        let spawned = std::thread::Builder::new().name("patina-tables".into()).spawn(move || {
            let result = Tablebases::load(&path).map_err(JobError::Tables);
            let _ = events.send(JobEvent::TablesLoaded { generation, path, result });
        });
        match spawned {
            Ok(_) => self.tables_loading += 1,
            Err(error) => {
                let result = Err(JobError::NoThread(error));
                let _ = self.events.send(JobEvent::TablesLoaded { generation, path: refused_path, result });
                self.tables_loading += 1;
            }
        }
        generation
    }

    /// Makes every load under way stale (`SyzygyPath` was emptied).
    pub fn forget_tables(&mut self) {
        self.tables_generation += 1;
    }

    /// A `TablesLoaded` has arrived: whether it is the latest load's.
    pub fn tables_loaded(&mut self, generation: u64) -> bool {
        self.tables_loading = self.tables_loading.saturating_sub(1);
        generation == self.tables_generation
    }

    /// Whether any table load has not reported yet.
    pub fn is_loading_tables(&self) -> bool {
        self.tables_loading > 0
    }
}

/// The end event of `job` if it never runs, from the OS's reason for refusing it a thread
/// (found before the job moves into the thread it may not get).
fn refusal(job: &Job) -> impl FnOnce(std::io::Error) -> JobEvent + use<> {
    enum Kind {
        Bench,
        Perft,
        Genfens { requested: u64 },
    }
    let kind = match job {
        Job::Bench { .. } => Kind::Bench,
        Job::Perft { .. } => Kind::Perft,
        Job::Genfens { count, .. } => Kind::Genfens { requested: *count },
    };
    move |error| match kind {
        Kind::Bench => JobEvent::BenchDone(Err(BenchEnd::Failed(JobError::NoThread(error)))),
        Kind::Perft => JobEvent::PerftDone {
            nodes: 0,
            elapsed: Duration::ZERO,
            counted: 0,
            root_moves: 0,
            complete: false,
        },
        Kind::Genfens { requested } => {
            JobEvent::GenfensDone { emitted: 0, requested, error: Some(JobError::NoThread(error)) }
        }
    }
}

/// `bench` on the table the machine gave it, or the reason it gave none.
fn bench_on(
    table: Result<TranspositionTable, AllocationError>,
    depth: i32,
    evaluator: Evaluator,
    stop: &AtomicBool,
) -> Result<BenchResult, BenchEnd> {
    let tt = table.map_err(|error| BenchEnd::Failed(JobError::Table(error)))?;
    bench::run_until(depth, 1, &tt, evaluator, stop, |_, _, _| {}).ok_or(BenchEnd::Stopped)
}

/// The job's thread: runs it and sends its events, the end event last.
fn run(job: Job, evaluator: Evaluator, stop: &AtomicBool, events: &Sender<JobEvent>) {
    let send = |event| {
        let _ = events.send(event);
    };
    match job {
        Job::Bench { depth } => {
            let table = TranspositionTable::new(bench::DEFAULT_HASH_MIB);
            send(JobEvent::BenchDone(bench_on(table, depth, evaluator, stop)))
        }
        Job::Perft { mut pos, depth } => {
            let start = Instant::now();
            let root_moves = if depth == 0 { 0 } else { pos.legal_moves().len() };
            // Depth 0 counts the position itself: perft(0) = 1, with no root moves to list.
            let (mut nodes, mut counted) = (u64::from(depth == 0), 0);
            let complete = perft::divide_until(&mut pos, depth, stop, |mv, count| {
                nodes += count;
                counted += 1;
                send(JobEvent::PerftMove { mv, nodes: count });
            });
            send(JobEvent::PerftDone { nodes, elapsed: start.elapsed(), counted, root_moves, complete });
        }
        Job::Genfens { count, seed, book, chess960 } => {
            let mut emitted = 0;
            let error = genfens(count, seed, book.as_deref(), chess960, stop, |fen| {
                emitted += 1;
                send(JobEvent::Genfen(fen.to_string()));
            })
            .err();
            send(JobEvent::GenfensDone { emitted, requested: count, error });
        }
    }
}

/// `openings::genfens` with the book loaded here (a large book takes a while too) and a stop.
fn genfens(
    count: u64,
    seed: u64,
    book: Option<&str>,
    chess960: bool,
    stop: &AtomicBool,
    mut emit: impl FnMut(&str),
) -> Result<(), JobError> {
    let book = match book {
        Some(path) => Some(Book::load(std::path::Path::new(path), chess960).map_err(JobError::Openings)?),
        None => None,
    };
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    let source = OpeningSource { book: book.as_ref(), mode, dfrc_percent: 0 };
    openings::genfens(count, seed, source, |fen| {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        emit(fen);
        true
    })
    .map_err(JobError::Openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events until the job's end event.
    fn until_end(receiver: &Receiver<JobEvent>) -> Vec<JobEvent> {
        let mut seen = Vec::new();
        while let Ok(event) = receiver.recv_timeout(Duration::from_secs(60)) {
            let end = event.is_end();
            seen.push(event);
            if end {
                break;
            }
        }
        seen
    }

    #[test]
    fn perft_job_counts_every_root_move() {
        let (mut jobs, events) = Jobs::new();
        jobs.start(Job::Perft { pos: Box::default(), depth: 3 }, Evaluator::default());
        let seen = until_end(&events);
        jobs.ended();
        assert_eq!(seen.len(), 21);
        assert!(
            matches!(
                seen[20],
                JobEvent::PerftDone { nodes: 8902, counted: 20, root_moves: 20, complete: true, .. }
            ),
            "{:?}",
            seen[20]
        );
        assert!(!jobs.is_running());
    }

    #[test]
    fn a_stopped_perft_says_it_is_incomplete() {
        let (mut jobs, events) = Jobs::new();
        jobs.start(Job::Perft { pos: Box::default(), depth: 9 }, Evaluator::default());
        jobs.stop();
        let seen = until_end(&events);
        jobs.ended();
        assert!(matches!(seen.last(), Some(JobEvent::PerftDone { complete: false, .. })), "{seen:?}");
    }

    #[test]
    fn a_stopped_bench_gives_no_node_count() {
        let (mut jobs, events) = Jobs::new();
        jobs.start(Job::Bench { depth: 30 }, Evaluator::default());
        std::thread::sleep(Duration::from_millis(50));
        jobs.stop();
        let seen = until_end(&events);
        jobs.ended();
        assert!(matches!(seen.last(), Some(JobEvent::BenchDone(Err(BenchEnd::Stopped)))), "{seen:?}");
    }

    #[test]
    fn a_bench_without_its_table_says_why() {
        let refused = Err(AllocationError { mib: 16, available: Some(8 << 20) });
        let ended = bench_on(refused, 1, Evaluator::default(), &AtomicBool::new(false));
        let Err(BenchEnd::Failed(error)) = ended else { panic!("{ended:?}") };
        assert_eq!(
            error.to_string(),
            "cannot allocate 16 MiB for the hash table (about 8 MiB of memory is available)"
        );
        let table = TranspositionTable::new(1);
        assert!(bench_on(table, 1, Evaluator::default(), &AtomicBool::new(false)).is_ok_and(|r| r.nodes > 0));
    }

    #[test]
    fn a_job_refused_a_thread_ends_with_the_os_reason() {
        let refused = || std::io::Error::other("out of threads");
        let bench = refusal(&Job::Bench { depth: 5 })(refused());
        let JobEvent::BenchDone(Err(BenchEnd::Failed(error))) = bench else { panic!("{bench:?}") };
        assert_eq!(error.to_string(), "cannot start a thread: out of threads");
        let genfens = refusal(&Job::Genfens { count: 7, seed: 1, book: None, chess960: false })(refused());
        assert!(
            matches!(
                &genfens,
                JobEvent::GenfensDone { emitted: 0, requested: 7, error: Some(JobError::NoThread(_)) }
            ),
            "{genfens:?}"
        );
        let perft = refusal(&Job::Perft { pos: Box::default(), depth: 3 })(refused());
        assert!(matches!(perft, JobEvent::PerftDone { nodes: 0, complete: false, .. }), "{perft:?}");
    }

    #[test]
    fn only_the_latest_table_load_counts() {
        let (mut jobs, events) = Jobs::new();
        let first = jobs.load_tables("/no/such/folder".into());
        let second = jobs.load_tables("/no/such/other".into());
        assert!(jobs.is_loading_tables());
        for _ in 0..2 {
            match events.recv_timeout(Duration::from_secs(10)) {
                Ok(JobEvent::TablesLoaded { generation, result, .. }) => {
                    assert!(result.is_err());
                    assert_eq!(jobs.tables_loaded(generation), generation == second && generation != first);
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(!jobs.is_loading_tables());
    }
}
