//! The run itself: worker threads play games, this thread writes them in index order.
//!
//! Workers take the next game index from a shared `Schedule` and send each finished game (or an
//! error) over a channel. The `Writer` keeps games that arrive early until every game before them
//! is written, so the file grows in index order only, one whole game per write. Raising `stop` or
//! `abort` makes workers take no new game; the games already taken finish and are written, and
//! since indices are handed out in order, the written games always form an unbroken prefix.

use super::budget::NodeBudget;
use super::game::{self, GameRecord};
use super::progress::Output;
use super::{DatagenError, DatagenEvent, DatagenRequest, Progress};
use crate::data::DataFormat;
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use patina::engine::openings::{self as opening, Book, OpeningError, OpeningSource};
use patina::rng::Rng;
use patina::tablebase::{ProbeMiss, Tablebases};
use patina::tt::TranspositionTable;
use shakmaty::CastlingMode;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Transposition table per worker, cleared for each game.
const HASH_MIB: usize = 8;
/// How often `run` reports progress.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(2);
/// Stack of a worker thread: the search recurses on it (the engine's search thread uses the same).
const WORKER_STACK_BYTES: usize = 16 << 20;

/// Everything a worker needs to play game `index`.
struct GameSettings<'a> {
    seed: u64,
    budget: NodeBudget,
    /// Random plies each opening adds to the usual ones.
    random_plies: usize,
    source: OpeningSource<'a>,
    tablebases: Option<&'a Tablebases>,
    /// Plies played on past the first table position (0: the game ends there).
    table_playout: u32,
}

impl GameSettings<'_> {
    fn play(&self, index: u64, tt: &TranspositionTable) -> Result<GameRecord, DatagenError> {
        let mut rng = Rng::for_item(self.seed, index);
        let opening = self
            .source
            .balanced_opening_with_extra_plies(&mut rng, tt, self.random_plies)
            .ok_or(OpeningError::NoOpening { index, attempts: opening::MAX_OPENING_ATTEMPTS })?;
        tt.clear();
        Ok(game::play(opening, self.budget, tt, self.tablebases, self.table_playout))
    }
}

type Finished = Result<(u64, GameRecord), DatagenError>;

/// Where workers get their next game and whether to take one at all.
///
/// `Relaxed` ordering is enough for all three atomics: `next` only has to hand out distinct
/// indices, and a worker that sees `stop` or `abort` a game late merely finishes one more game,
/// which is then written like any other.
struct Schedule<'a> {
    next: AtomicU64,
    total: u64,
    /// The caller's stop flag (Ctrl-C).
    stop: &'a AtomicBool,
    /// Raised by the writer after an error.
    abort: AtomicBool,
}

impl Schedule<'_> {
    /// The next game index to play, or `None` when all are taken or the run is stopping.
    fn take(&self) -> Option<u64> {
        if self.stop.load(Ordering::Relaxed) || self.abort.load(Ordering::Relaxed) {
            return None;
        }
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        (index < self.total).then_some(index)
    }
}

/// One worker: plays the games the schedule hands out until it hands out none.
fn work(settings: &GameSettings, schedule: &Schedule, sender: Sender<Finished>) {
    let tt = match TranspositionTable::new(HASH_MIB) {
        Ok(tt) => tt,
        Err(error) => {
            let _ = sender.send(Err(DatagenError::Table(error)));
            return;
        }
    };
    while let Some(index) = schedule.take() {
        let finished = settings.play(index, &tt).map(|record| (index, record));
        let failed = finished.is_err();
        if sender.send(finished).is_err() || failed {
            break;
        }
    }
}

/// Plays games until the file holds `request.games` of them or `stop` is raised; returns the
/// final counts. See the module comment for the guarantees.
pub fn run(
    request: &DatagenRequest,
    stop: &AtomicBool,
    mut on_event: impl FnMut(DatagenEvent),
) -> Result<Progress, DatagenError> {
    // Bad limits, a bad --book or --syzygy fail before the output or its sidecar is touched.
    if let (Some(soft_nodes), Some(nodes)) = (request.soft_nodes, request.nodes) {
        if soft_nodes > nodes {
            return Err(DatagenError::SoftAboveHard { soft_nodes, nodes });
        }
    }
    let given_book = request.book.as_deref().map(|path| Book::load(path, false)).transpose()?;
    let given_tables = request.syzygy.as_deref().map(load_tablebases).transpose()?;
    let mut output = Output::open(request)?;
    let checkpoint = output.checkpoint().clone();
    let load_book = |path: &str| Book::load(Path::new(path), false).map_err(DatagenError::from);
    let book = given_or_stored(given_book, checkpoint.book.as_deref(), load_book)?;
    let tablebases = given_or_stored(given_tables, checkpoint.syzygy.as_deref(), load_tablebases)?;
    let settings = GameSettings {
        seed: checkpoint.seed,
        budget: NodeBudget { hard: checkpoint.nodes, soft: checkpoint.soft_nodes },
        random_plies: checkpoint.random_plies as usize,
        source: OpeningSource {
            book: book.as_ref(),
            mode: CastlingMode::Standard,
            dfrc_percent: checkpoint.dfrc_percent,
        },
        tablebases: tablebases.as_ref(),
        table_playout: checkpoint.table_playout,
    };
    on_event(DatagenEvent::Started { recipe: checkpoint.clone(), games: request.games });
    let format = DataFormat::of(&request.out);
    let mut writer = Writer {
        output: &mut output,
        format,
        total: request.games,
        run_games: 0,
        run_positions: 0,
        tablebase_failures: 0,
        tablebase_missing: 0,
    };
    if checkpoint.games >= request.games {
        return Ok(writer.progress(Duration::ZERO));
    }
    let schedule = Schedule {
        next: AtomicU64::new(checkpoint.games),
        total: request.games,
        stop,
        abort: AtomicBool::new(false),
    };
    let (sender, receiver) = crossbeam_channel::unbounded();
    std::thread::scope(|scope| {
        let mut failure = None;
        for id in 0..request.threads.max(1) {
            let (settings, schedule, sender) = (&settings, &schedule, sender.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("patina-datagen-{id}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, move || work(settings, schedule, sender));
            if let Err(error) = spawned {
                schedule.abort.store(true, Ordering::Relaxed);
                failure = Some(DatagenError::Thread(error));
                break;
            }
        }
        drop(sender);
        let collected = writer.collect(&receiver, &schedule.abort, &mut on_event);
        match failure {
            Some(error) => Err(error),
            None => collected,
        }
    })
}

/// What the command line gave, else what the progress file recorded (a resumed run keeps the
/// book and tables it started with), loaded from its path.
fn given_or_stored<T>(
    given: Option<T>,
    stored: Option<&str>,
    load: impl FnOnce(&str) -> Result<T, DatagenError>,
) -> Result<Option<T>, DatagenError> {
    match (given, stored) {
        (Some(value), _) => Ok(Some(value)),
        (None, Some(path)) => load(path).map(Some),
        (None, None) => Ok(None),
    }
}

fn load_tablebases(path: &str) -> Result<Tablebases, DatagenError> {
    Tablebases::load(path).map_err(|reason| DatagenError::Tablebases { path: path.to_string(), reason })
}

/// Writes finished games in index order and reports progress.
struct Writer<'a> {
    output: &'a mut Output,
    format: DataFormat,
    total: u64,
    run_games: u64,
    run_positions: u64,
    /// Probes of the written games that met an unreadable table.
    tablebase_failures: u64,
    /// Probes of the written games that met a missing table.
    tablebase_missing: u64,
}

impl Writer<'_> {
    fn progress(&self, elapsed: Duration) -> Progress {
        let checkpoint = self.output.checkpoint();
        Progress {
            games_done: checkpoint.games,
            games_total: self.total,
            positions: checkpoint.positions,
            run_games: self.run_games,
            run_positions: self.run_positions,
            tablebase_failures: self.tablebase_failures,
            tablebase_missing: self.tablebase_missing,
            elapsed,
        }
    }

    /// Receives games until every worker has finished; the first error raises `abort` and is
    /// returned once the games already finished before it are written.
    fn collect(
        &mut self,
        receiver: &Receiver<Finished>,
        abort: &AtomicBool,
        on_event: &mut impl FnMut(DatagenEvent),
    ) -> Result<Progress, DatagenError> {
        let start = Instant::now();
        let mut next_report = start + PROGRESS_INTERVAL;
        let mut waiting = BTreeMap::new();
        let mut first_error = None;
        loop {
            match receiver.recv_timeout(next_report.saturating_duration_since(Instant::now())) {
                Ok(Ok((index, record))) => {
                    waiting.insert(index, record);
                    if first_error.is_none() {
                        first_error = self.write_ready(&mut waiting, on_event).err();
                    }
                }
                Ok(Err(error)) => {
                    first_error.get_or_insert(error);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if first_error.is_some() {
                abort.store(true, Ordering::Relaxed);
            }
            if Instant::now() >= next_report {
                on_event(DatagenEvent::Progress(self.progress(start.elapsed())));
                next_report += PROGRESS_INTERVAL;
            }
        }
        match first_error {
            Some(error) => Err(error),
            None => Ok(self.progress(start.elapsed())),
        }
    }

    /// Writes every waiting game that continues the file without a gap, counting its tablebase
    /// misses and reporting the run's first of each kind.
    fn write_ready(
        &mut self,
        waiting: &mut BTreeMap<u64, GameRecord>,
        on_event: &mut impl FnMut(DatagenEvent),
    ) -> Result<(), DatagenError> {
        while let Some(record) = waiting.remove(&self.output.checkpoint().games) {
            let game = self.output.checkpoint().games;
            let (bytes, positions) = match self.format {
                DataFormat::Records => (record.to_records(), record.positions.len()),
                DataFormat::Text => (record.to_text().into_bytes(), record.quiet_count()),
            };
            let positions = positions as u64;
            self.output.append_game(&bytes, positions)?;
            self.run_games += 1;
            self.run_positions += positions;
            for miss in record.tablebase_misses {
                let count = match miss {
                    ProbeMiss::Failed(_) => &mut self.tablebase_failures,
                    ProbeMiss::MissingTable(_) => &mut self.tablebase_missing,
                    ProbeMiss::NotHeld => continue,
                };
                *count += 1;
                if *count == 1 {
                    on_event(DatagenEvent::TablebaseMiss { game, miss });
                }
            }
        }
        Ok(())
    }
}
