//! The state of one UCI conversation and how each command changes it.
//!
//! Invariants: every `go` is answered by exactly one `bestmove`, except a ponder search that the
//! GUI abandons by sending a new `position` or `go` without `stop` (see `abandon_ponder`); a
//! rejected `position` leaves no position (so `go` answers `bestmove 0000` rather than search a
//! game the GUI never sent); a rejected `setoption` changes nothing.
//!
//! With `UCI_LimitStrength` on, a `go` searches under the level's node budget with a few lines
//! (only the first `MultiPV` of them are printed), the move comes from `strength::play`, and the
//! `bestmove` waits until `strength::min_think` has passed on the clock (`wake_at` tells the loop
//! when), unless `stop` comes first.

use super::command::{self, Command, GenfensParams, GoParams, PositionStart};
use super::log::{DebugLog, Direction};
use super::output;
use crate::engine::Engine;
use crate::eval;
use crate::jobs::{Job, JobEvent, Jobs};
use crate::options::{self, EngineOptions, OptionChange};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{self, Reason};
use crate::search::{SearchEvent, SearchLimits, SearchOutcome, TablebaseUse};
use crate::strength::{self, Knobs, MoveRng};
use crate::tablebase::Tablebases;
use crate::time::{self, Clock};
use crate::wdl::{self, Wdl};
use crossbeam_channel::Receiver;
use shakmaty::{CastlingMode, Color, Move};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A search that has printed nothing for this long prints a progress line.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);

/// Whether the loop goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// What a `go` will answer once it may.
enum Answer {
    Move(SearchOutcome),
    /// Checkmate or stalemate on the board: `bestmove (none)`.
    NoMove,
}

/// The `go` currently owed a `bestmove`.
struct PendingGo {
    /// `go infinite` or `go ponder`: hold the answer until `stop` (or `ponderhit`).
    hold: bool,
    /// `go ponder` before its `ponderhit`.
    pondering: bool,
    /// The search is still running (its `Finished` event has not arrived).
    searching: bool,
    answer: Option<Answer>,
    mode: CastlingMode,
    /// The root's material when `UCI_ShowWDL` was on at `go`: info lines carry `wdl` from it.
    wdl_material: Option<i32>,
    /// Info lines with a higher `multipv` are not printed (a limited level searches more lines
    /// than `MultiPV` asks for).
    shown_lines: usize,
    /// A strength-limited `go`: the level, and the random stream its move choice draws from.
    strength: Option<(Knobs, Rng)>,
    /// A limited level's shortest time over this move, counted from when the clock starts.
    min_think: Option<Duration>,
    /// The `bestmove` is held until then (`min_think` after the clock started).
    not_before: Option<Instant>,
    /// The first two moves of the last `multipv 1` line printed for this `go` (the plan the
    /// GUI shows; `bestmove` and its `ponder` must match it).
    last_shown: Option<Vec<Move>>,
}

pub struct Session<W: Write> {
    out: W,
    engine: Engine,
    events: Receiver<SearchEvent>,
    options: EngineOptions,
    /// `None` after a rejected `position` command.
    position: Option<Position>,
    pending: Option<PendingGo>,
    debug: bool,
    /// Output failed (the GUI is gone): stop as soon as possible.
    broken: bool,
    /// When the last line went out, so a long quiet search can report progress.
    last_output: Instant,
    /// `Debug Log File`, when set.
    log: Option<DebugLog>,
    /// Tables from `SyzygyPath`, when set.
    tablebases: Option<Arc<Tablebases>>,
    /// `bench`, `go perft`, `genfens` and table loads, run off this thread.
    jobs: Jobs,
    job_events: Receiver<JobEvent>,
    /// How the running `go perft` writes its moves.
    job_mode: CastlingMode,
    /// Where a strength-limited level's move choices come from (seeded from the clock).
    move_rng: MoveRng,
    /// `ucinewgame`s so far: the same position in another game may get another move.
    games: u64,
}

impl<W: Write> Session<W> {
    /// A session, the receiving end of its search events, and that of its job events.
    #[allow(clippy::type_complexity)]
    pub fn new(
        options: EngineOptions,
        out: W,
    ) -> Result<(Session<W>, Receiver<SearchEvent>, Receiver<JobEvent>), String> {
        let (engine, events) = Engine::new(options.hash_mib).map_err(|e| e.to_string())?;
        if !options.eval_file.is_empty() {
            crate::nnue::load_active(std::path::Path::new(&options.eval_file))
                .map_err(|e| format!("eval_file '{}': {e}", options.eval_file))?;
        }
        let (jobs, job_events) = Jobs::new();
        let mode = castling_mode(options.chess960);
        let session = Session {
            out,
            engine,
            events: events.clone(),
            options,
            position: Some(Position::startpos(mode)),
            pending: None,
            debug: false,
            broken: false,
            last_output: Instant::now(),
            log: None,
            tablebases: None,
            jobs,
            job_events: job_events.clone(),
            job_mode: mode,
            move_rng: MoveRng::from_clock(),
            games: 0,
        };
        Ok((session, events, job_events))
    }

    /// Makes a strength-limited level's move choices reproducible (tests).
    #[cfg(test)]
    fn set_move_seed(&mut self, seed: u64) {
        self.move_rng = MoveRng::new(seed);
    }

    fn say(&mut self, text: &str) {
        if self.broken {
            return;
        }
        if let Some(log) = &self.log {
            for line in text.lines() {
                log.record(Direction::Out, line);
            }
        }
        self.last_output = Instant::now();
        let written = writeln!(self.out, "{text}").and_then(|_| self.out.flush());
        if written.is_err() {
            self.broken = true;
            self.engine.stop();
            self.jobs.stop();
        }
    }

    fn error(&mut self, message: &str) {
        // A megabyte of garbage need not be echoed back whole: the start names the problem.
        const LONGEST: usize = 200;
        let shown = match message.char_indices().nth(LONGEST) {
            Some((cut, _)) => format!("{}...", &message[..cut]),
            None => message.to_string(),
        };
        self.say(&format!("info string error: {shown}"));
    }

    fn flow(&self) -> Flow {
        if self.broken {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// Handles one line of input.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        if let Some(log) = &mut self.log {
            log.record(Direction::In, line);
            if log.take_failure() {
                self.error("Debug Log File: writing failed (disk full?); later lines may be missing");
            }
        }
        if self.debug {
            self.say(&format!("info string debug: received '{}'", line.trim_end()));
        }
        match command::parse(line) {
            Ok(command) => self.handle_command(command),
            Err(error) => {
                self.error(&error.to_string());
                match error.command() {
                    // A malformed `go` still owes the GUI a bestmove.
                    Some("go") => self.finish_unanswerable_go(),
                    // A malformed `position` is rejected like a bad FEN or move: the old
                    // position is not the game the GUI meant, so none is left.
                    Some("position") => self.position = None,
                    _ => {}
                }
                self.flow()
            }
        }
    }

    fn handle_command(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => {
                let text = output::handshake(&self.options);
                self.say(&text);
            }
            Command::IsReady => self.say("readyok"),
            Command::Debug(on) => self.debug = on,
            Command::Register | Command::Empty => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.settle_search();
                self.engine.clear_hash();
                self.games += 1;
            }
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(params) => self.go(params),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => match &self.position {
                Some(pos) => {
                    let text = output::board(pos);
                    self.say(&text);
                }
                None => self.error("no valid position"),
            },
            Command::Eval => match &self.position {
                Some(pos) => {
                    let mut text = output::eval_table(&eval::breakdown(pos.chess()));
                    let (net, plays) = match crate::nnue::active() {
                        Some(net) => (net, true),
                        None => (crate::nnue::default_network(), false),
                    };
                    let own = pos.clone().evaluate_network(&net);
                    let white = if pos.turn() == shakmaty::Color::White { own } else { -own };
                    text.push_str(&output::network_eval_line(white, net.hash(), plays));
                    self.say(&text);
                }
                None => self.error("no valid position"),
            },
            Command::Result => match &self.position {
                Some(pos) => {
                    let line = format!("info string result {}", rules::judge(pos));
                    self.say(&line);
                }
                None => self.error("no valid position"),
            },
            Command::Bench(depth) => {
                let depth = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
                self.start_job(Job::Bench { depth });
            }
            Command::Genfens(params) => self.genfens(params),
        }
        self.flow()
    }

    /// OpenBench's `genfens`: one `info string genfens <FEN>` line per opening, printed as each
    /// is found (the client waits on every line).
    fn genfens(&mut self, params: GenfensParams) {
        let GenfensParams { count, seed, book } = params;
        self.start_job(Job::Genfens { count, seed, book, chess960: self.options.chess960 });
    }

    /// Runs a long command off this thread, after ending whatever search or job was running
    /// (one long task at a time, as one search at a time).
    fn start_job(&mut self, job: Job) {
        self.settle_search();
        self.end_job();
        if let Job::Perft { pos, .. } = &job {
            self.job_mode = pos.castling_mode();
        }
        self.jobs.start(job);
    }

    /// Stops the running job, if any, and prints what it has before going on.
    fn end_job(&mut self) {
        if !self.jobs.is_running() {
            return;
        }
        self.jobs.stop();
        while self.jobs.is_running() {
            match self.job_events.recv() {
                Ok(event) => {
                    self.handle_job_event(event);
                }
                Err(_) => break,
            }
        }
    }

    /// Whether a job or a table load is under way (a script waits for them between lines).
    pub fn is_busy(&self) -> bool {
        self.jobs.is_running() || self.jobs.is_loading_tables()
    }

    /// A job reported: print it.
    pub fn handle_job_event(&mut self, event: JobEvent) -> Flow {
        if event.is_end() {
            self.jobs.ended();
        }
        match event {
            JobEvent::PerftMove { mv, nodes } => {
                let line = format!("{}: {nodes}", mv.to_uci(self.job_mode));
                self.say(&line);
            }
            JobEvent::PerftDone { nodes, elapsed, counted, root_moves, complete } => {
                if complete {
                    self.say(&format!("\nNodes searched: {nodes}"));
                } else {
                    self.say(&format!(
                        "info string perft stopped: {counted} of {root_moves} root moves counted, \
                         {nodes} nodes; the count is incomplete"
                    ));
                }
                if self.debug {
                    let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
                    self.say(&format!("info string perft {} ms {nps} nps", elapsed.as_millis()));
                }
            }
            JobEvent::BenchDone(Some(result)) => {
                self.say(&format!("{} nodes {} nps", result.nodes, result.nps()));
            }
            JobEvent::BenchDone(None) => self.say("info string bench stopped; no node count"),
            JobEvent::Genfen(fen) => self.say(&format!("info string genfens {fen}")),
            JobEvent::GenfensDone { emitted, requested, error } => match error {
                Some(error) => self.error(&format!("genfens: {error}")),
                None if emitted < requested => {
                    self.say(&format!("info string genfens stopped after {emitted} of {requested} openings"))
                }
                None => {}
            },
            JobEvent::TablesLoaded { generation, path, result } => {
                if self.jobs.tables_loaded(generation) {
                    self.tables_loaded(path, result);
                }
            }
        }
        self.flow()
    }

    /// The latest `SyzygyPath` load has ended: the new tables replace the old, or the old stay.
    fn tables_loaded(&mut self, path: String, result: Result<Tablebases, String>) {
        match result {
            Ok(tables) => {
                let line = format!(
                    "info string SyzygyPath: {} table files, up to {} pieces",
                    tables.files(),
                    tables.max_pieces()
                );
                self.tablebases = Some(Arc::new(tables));
                self.options.apply(&OptionChange::SyzygyPath(path));
                self.say(&line);
            }
            Err(error) => self.error(&format!("SyzygyPath: {error}; tables unchanged")),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_change(name, value) {
            Ok(change) => change,
            Err(error) => return self.error(&error.to_string()),
        };
        match change {
            OptionChange::Hash(mib) => {
                self.settle_search();
                if let Err(error) = self.engine.resize_hash(mib) {
                    return self.error(&format!("{error}; keeping {} MiB", self.options.hash_mib));
                }
            }
            OptionChange::ClearHash => self.engine.clear_hash(),
            OptionChange::SyzygyPath(ref path) => {
                if path.is_empty() {
                    self.jobs.forget_tables();
                    self.tablebases = None;
                } else {
                    // Opening every file takes a while on a large set: the loop keeps answering,
                    // and the option takes the path once the tables are in (`tables_loaded`).
                    self.jobs.load_tables(path.clone());
                    return;
                }
            }
            OptionChange::EvalFile(ref path) => {
                let loaded = if path.is_empty() {
                    Ok(crate::nnue::reset_active())
                } else {
                    crate::nnue::load_active(std::path::Path::new(path)).map(Some)
                };
                match loaded {
                    Ok(Some(net)) => {
                        self.say(&format!("info string EvalFile: net {:016x} loaded", net.hash()))
                    }
                    Ok(None) => self.say("info string EvalFile: the hand-written evaluation plays"),
                    Err(error) => return self.error(&format!("EvalFile: {error}; the net is unchanged")),
                }
            }
            OptionChange::DebugLogFile(ref path) => {
                if path.is_empty() {
                    self.log = None;
                } else {
                    match DebugLog::open(path) {
                        Ok(log) => self.log = Some(log),
                        Err(error) => {
                            return self.error(&format!("Debug Log File: cannot open '{path}': {error}"))
                        }
                    }
                }
            }
            _ => {}
        }
        self.options.apply(&change);
    }

    fn set_position(&mut self, start: PositionStart, moves: &[String]) {
        self.abandon_ponder();
        let chess960 = self.options.chess960;
        let base = match start {
            PositionStart::StartPos => Ok(Position::startpos(castling_mode(chess960))),
            PositionStart::Fen(fen) => Position::from_fen(&fen, chess960),
        };
        match base.and_then(|pos| pos.play_uci_moves(moves.iter().map(String::as_str))) {
            Ok(pos) => self.position = Some(pos),
            Err(error) => {
                self.position = None;
                self.error(&format!("{error}; position not set"));
            }
        }
    }

    fn go(&mut self, params: GoParams) {
        // A GUI that sends `go` before stopping the last one still gets both answers, in order
        // (unless the last one was a ponder search it has evidently given up on).
        self.abandon_ponder();
        self.settle_search();
        self.end_job();
        let Some(pos) = self.position.clone() else {
            self.error("no valid position");
            self.say("bestmove 0000");
            return;
        };
        if let Some(depth) = params.perft {
            return self.start_job(Job::Perft { pos: Box::new(pos), depth });
        }
        if self.jobs.is_loading_tables() {
            self.say("info string SyzygyPath: tables still loading; this search goes without the new ones");
        }
        // At the top of the range a limited level is full strength: nothing changes.
        let knobs = self
            .options
            .limit_strength
            .then(|| strength::knobs(self.options.elo))
            .filter(|k| *k != Knobs::FULL);
        let mut pending = PendingGo {
            hold: params.infinite || params.ponder,
            pondering: params.ponder,
            searching: true,
            answer: None,
            mode: pos.castling_mode(),
            wdl_material: self.options.show_wdl.then(|| wdl::material(pos.chess())),
            shown_lines: self.options.multipv,
            strength: knobs.map(|knobs| (knobs, self.move_rng.for_move(self.games, pos.key()))),
            min_think: None,
            not_before: None,
            last_shown: None,
        };
        let verdict = rules::judge(&pos);
        if verdict.is_over() {
            let line = format!("info string result {verdict}");
            self.say(&line);
            // The game is over: the result is certain, whatever the model would say of the score.
            let shown = match verdict.reason {
                Reason::Checkmate => Some(("score mate 0", Wdl::LOST)),
                Reason::Stalemate => Some(("score cp 0", Wdl::DRAWN)),
                _ => None,
            };
            if let Some((score, expected)) = shown {
                let wdl = pending.wdl_material.map(|_| output::wdl(expected)).unwrap_or_default();
                self.say(&format!("info depth 0 {score}{wdl}"));
                pending.searching = false;
                pending.answer = Some(Answer::NoMove);
                self.pending = Some(pending);
                self.deliver_if_ready();
                return;
            }
        }
        let mut limits = self.limits(&pos, &params);
        if let Some(knobs) = &knobs {
            knobs.restrict(&mut limits);
            pending.min_think = limits.time.map(|time| strength::min_think(time.soft));
            if !params.ponder {
                pending.not_before = pending.min_think.map(|think| Instant::now() + think);
            }
        }
        self.engine.go(pos, limits, params.ponder);
        self.pending = Some(pending);
    }

    fn limits(&mut self, pos: &Position, params: &GoParams) -> SearchLimits {
        let (own_time, other_time, increment_ms) = match pos.turn() {
            Color::White => (params.wtime, params.btime, params.winc),
            Color::Black => (params.btime, params.wtime, params.binc),
        };
        let clock = Clock {
            // A GUI that sends only the opponent's clock is still playing with clocks: assume
            // ours is the same rather than think forever.
            time_ms: own_time.or(other_time),
            increment_ms: increment_ms.unwrap_or(0),
            moves_to_go: params.movestogo,
            move_time_ms: params.movetime,
        };
        let mut search_moves = Vec::new();
        for token in &params.searchmoves {
            match pos.parse_uci_move(token) {
                Ok(m) => search_moves.push(m),
                Err(reason) => self.error(&format!("searchmoves: {reason} move '{token}' ignored")),
            }
        }
        SearchLimits {
            depth: params.depth.map(|d| d.max(1)),
            nodes: params.nodes,
            mate_in_moves: params.mate,
            // `go infinite` ignores clocks: it runs until `stop`.
            time: if params.infinite { None } else { time::allocate(&clock, self.options.move_overhead_ms) },
            search_moves,
            multipv: self.options.multipv,
            threads: self.options.threads,
            tablebases: self.tablebases.as_ref().map(|tables| TablebaseUse {
                tables: Arc::clone(tables),
                probe_depth: self.options.syzygy_probe_depth,
                probe_limit: self.options.syzygy_probe_limit.min(tables.max_pieces()),
                rule50: self.options.syzygy_50_move_rule,
            }),
        }
    }

    fn stop(&mut self) {
        self.engine.stop();
        self.jobs.stop();
        if let Some(pending) = &mut self.pending {
            pending.hold = false;
            pending.not_before = None;
        }
        self.deliver_if_ready();
    }

    fn ponderhit(&mut self) {
        self.engine.ponderhit();
        if let Some(pending) = &mut self.pending {
            pending.hold = false;
            pending.pondering = false;
            pending.not_before = pending.min_think.map(|think| Instant::now() + think);
            // Clients such as python-chess drop what came while pondering: if no line follows
            // the `ponderhit`, the line of the move played goes out before `bestmove`.
            pending.last_shown = None;
        }
        self.deliver_if_ready();
    }

    /// A search event arrived from the engine.
    pub fn handle_event(&mut self, event: SearchEvent) -> Flow {
        match event {
            SearchEvent::Iteration(report) => {
                let (mode, wdl_material, shown_lines) =
                    self.pending.as_ref().map_or((CastlingMode::Standard, None, usize::MAX), |p| {
                        (p.mode, p.wdl_material, p.shown_lines)
                    });
                if report.multipv > shown_lines {
                    return self.flow();
                }
                if let (1, Some(pending)) = (report.multipv, &mut self.pending) {
                    pending.last_shown = Some(report.pv.iter().take(2).copied().collect());
                }
                let expected = wdl_material.map(|material| wdl::MODEL.expected_for(report.score, material));
                let line = output::iteration(&report, mode, expected);
                self.say(&line);
            }
            SearchEvent::Finished(outcome) => {
                self.engine.wait();
                if let Some(failure) = self.tablebases.as_ref().and_then(|tables| tables.take_failure()) {
                    self.error(&format!("Syzygy: {failure}"));
                }
                let outcome = match self.pending.as_mut().and_then(|p| p.strength.take()) {
                    Some((knobs, mut rng)) => self.play_limited(outcome, &knobs, &mut rng),
                    None => outcome,
                };
                if let Some(pending) = &mut self.pending {
                    pending.searching = false;
                    pending.answer = Some(Answer::Move(outcome));
                }
                self.deliver_if_ready();
            }
        }
        self.flow()
    }

    /// A limited level's move: one of the search's lines, maybe not the best (`strength::play`).
    fn play_limited(&mut self, outcome: SearchOutcome, knobs: &Knobs, rng: &mut Rng) -> SearchOutcome {
        let best = outcome.lines.first().map(|line| (line.pv[0], line.score));
        let played = strength::play(outcome, knobs, rng);
        if let (true, Some(best), Some(pending)) = (self.debug, best, &self.pending) {
            if best.0 != played.best {
                let line = output::strength_choice(
                    self.options.elo,
                    (played.best, played.score),
                    best,
                    pending.mode,
                );
                self.say(&line);
            }
        }
        played
    }

    /// When the loop must call `wake`: the moment a held limited-level `bestmove` is due.
    pub fn wake_at(&self) -> Option<Instant> {
        self.pending.as_ref().filter(|p| !p.hold && !p.searching && p.answer.is_some())?.not_before
    }

    /// The time `wake_at` named has come.
    pub fn wake(&mut self) -> Flow {
        self.deliver_if_ready();
        self.flow()
    }

    /// Once a second of silence, a progress line for the running search (see `output::progress`).
    pub fn heartbeat(&mut self) -> Flow {
        if self.last_output.elapsed() >= PROGRESS_INTERVAL {
            if let Some((nodes, elapsed)) = self.engine.progress() {
                let line = output::progress(nodes, elapsed, self.engine.table().hashfull());
                self.say(&line);
            }
        }
        self.flow()
    }

    /// Prints the owed `bestmove` once the search is done and nothing holds it back.
    fn deliver_if_ready(&mut self) {
        let due = |p: &PendingGo| p.not_before.is_none_or(|time| Instant::now() >= time);
        let ready =
            matches!(&self.pending, Some(p) if !p.hold && !p.searching && p.answer.is_some() && due(p));
        if !ready {
            return;
        }
        let Some(PendingGo { answer: Some(answer), mode, last_shown, wdl_material, .. }) =
            self.pending.take()
        else {
            return;
        };
        let line = match answer {
            Answer::Move(outcome) => {
                // The GUI takes the last line shown for the engine's plan: when that line began
                // with other moves (an iteration cut short, another thread's vote, a limited
                // level's choice), the line of the move played goes out first.
                let answered: Vec<Move> = std::iter::once(outcome.best).chain(outcome.ponder).collect();
                if last_shown != Some(answered) {
                    let played = &outcome.played;
                    let expected =
                        wdl_material.map(|material| wdl::MODEL.expected_for(played.score, material));
                    let line = output::iteration(played, mode, expected);
                    self.say(&line);
                }
                output::bestmove(outcome.best, outcome.ponder, mode)
            }
            Answer::NoMove => "bestmove (none)".to_string(),
        };
        self.say(&line);
    }

    /// Ends any running or held search and prints its bestmove, so the next command starts clean.
    fn settle_search(&mut self) {
        if self.pending.is_none() {
            return;
        }
        self.stop();
        self.wait_for_search();
        self.pending = None;
    }

    /// Some GUIs answer a ponder miss with a new `position` and `go` but no `stop`. That ponder
    /// search is then dropped without a `bestmove`: the GUI is not waiting for one, and would
    /// take it for the answer to its next `go`.
    fn abandon_ponder(&mut self) {
        if !matches!(&self.pending, Some(p) if p.pondering) {
            return;
        }
        self.engine.stop();
        self.wait_for_search();
        self.pending = None;
    }

    /// Processes search events until the pending search's `Finished` has arrived.
    fn wait_for_search(&mut self) {
        while matches!(&self.pending, Some(p) if p.searching) {
            match self.events.recv() {
                Ok(event) => {
                    self.handle_event(event);
                }
                Err(_) => break,
            }
        }
    }

    /// A malformed `go`: answer it without searching.
    fn finish_unanswerable_go(&mut self) {
        self.settle_search();
        self.say("bestmove 0000");
    }

    /// End of the conversation: stop searching and let the threads go. A job is told to stop
    /// but not waited for: the process exits at once and takes it along.
    pub fn shutdown(&mut self) {
        self.jobs.stop();
        self.engine.stop();
        self.engine.wait();
    }
}

fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const LIMITED: [&str; 3] = [
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1300",
        "position startpos",
    ];

    /// Runs `LIMITED` and `go` in a session seeded with `seed`, waits for the search, then
    /// stops; returns everything printed and whether the `bestmove` was still held back.
    fn run_limited(seed: u64, go: &str) -> (String, bool) {
        let mut out = Vec::new();
        let held = {
            let (mut session, _, _) = Session::new(EngineOptions::default(), &mut out).unwrap();
            session.set_move_seed(seed);
            for line in LIMITED.iter().chain([&go]) {
                session.handle_line(line);
            }
            session.wait_for_search();
            let held = session.wake_at().is_some();
            session.stop();
            session.shutdown();
            held
        };
        (String::from_utf8(out).unwrap(), held)
    }

    fn bestmove(output: &str) -> &str {
        output.lines().find(|line| line.starts_with("bestmove")).expect("a bestmove")
    }

    #[test]
    fn a_fixed_seed_makes_the_limited_choice_reproducible() {
        let mut moves = BTreeSet::new();
        for seed in 0..12 {
            let (first, _) = run_limited(seed, "go nodes 50000");
            let (again, _) = run_limited(seed, "go nodes 50000");
            assert_eq!(bestmove(&first), bestmove(&again), "seed {seed}");
            moves.insert(bestmove(&first).split_whitespace().nth(1).unwrap().to_string());
            // Four lines searched, the one MultiPV asks for printed; the budget caps `go nodes`.
            let infos: Vec<&str> = first.lines().filter(|l| l.starts_with("info depth")).collect();
            assert!(!infos.is_empty() && infos.iter().all(|l| l.contains(" multipv 1 ")), "{infos:?}");
            let nodes = |l: &str| l.split(" nodes ").nth(1)?.split(' ').next()?.parse::<u64>().ok();
            assert!(infos.iter().all(|l| nodes(l).unwrap() <= 2 * strength::knobs(1300).nodes.unwrap()));
        }
        assert!(moves.len() > 1, "1300 varies its first move: {moves:?}");
    }

    #[test]
    fn a_limited_level_shows_the_line_it_plays_last() {
        for seed in 0..12 {
            let (output, _) = run_limited(seed, "go nodes 50000");
            let played = bestmove(&output).split_whitespace().nth(1).unwrap();
            let last = output.lines().rfind(|l| l.starts_with("info depth")).expect("an info line");
            let first_pv_move = last.split(" pv ").nth(1).and_then(|pv| pv.split(' ').next());
            assert_eq!(first_pv_move, Some(played), "seed {seed}: {output}");
        }
    }

    #[test]
    fn a_limited_bestmove_waits_for_its_think_time_unless_stopped() {
        let (output, held) = run_limited(1, "go movetime 5000");
        assert!(held, "a 5 s move time holds a 400-node search's answer: {output}");
        assert_eq!(output.lines().filter(|l| l.starts_with("bestmove")).count(), 1, "stop answers once");
        let (_, held) = run_limited(1, "go nodes 1000");
        assert!(!held, "no clock, no wait");
    }
}
