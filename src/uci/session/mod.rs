//! The state of one UCI conversation and how each command changes it: this file holds the
//! state, the line and command dispatch, options and positions; `go.rs` the searches and the
//! `bestmove` each is owed, `owed.rs` that bestmove's state; `long_commands.rs` the long commands and
//! table loads. The session's deadlines read an injected clock (`engine::Now`, from `time`: the
//! system's, or a `FakeClock` in tests).
//!
//! Invariants: every `go` is answered by exactly one `bestmove`, except a ponder search that the
//! GUI abandons by sending a new `position` or `go` without `stop` (see `abandon_ponder`); a
//! rejected `position` leaves no position (so `go` answers `bestmove 0000` rather than search a
//! game the GUI never sent); a rejected `setoption` changes nothing.
//!
//! With `UCI_LimitStrength` on, the engine searches under the level's node budget with a few
//! lines (reporting only the first `MultiPV` of them) and picks the move; the session holds the
//! `bestmove` until the level's shortest think time (`GoPlan::min_think`) has passed on the
//! clock (`wake_at` tells the loop when), unless `stop` comes first.

mod go;
mod long_commands;
mod owed;

use super::command::{self, Command, PositionStart};
use super::log::{DebugLog, Direction};
use super::output;
use crate::engine::{self, Engine, EngineEvent, Job, JobEvent, Jobs, Now, Position, SystemClock, Tablebases};
use crate::options::{self, EngineOptions, OptionChange};
use crossbeam_channel::Receiver;
use go::PendingGo;
use shakmaty::CastlingMode;
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

pub struct Session<W: Write> {
    out: W,
    engine: Engine,
    events: Receiver<EngineEvent>,
    options: EngineOptions,
    /// `None` after a rejected `position` command.
    position: Option<Position>,
    pending: Option<PendingGo>,
    debug: bool,
    /// Output failed (the GUI is gone): stop as soon as possible.
    broken: bool,
    /// When the last line went out, so a long quiet search can report progress.
    last_output: Instant,
    /// The time for the session's own deadlines (the system's, but for tests).
    clock: Box<dyn Now>,
    /// `Debug Log File`, when set.
    log: Option<DebugLog>,
    /// Tables from `SyzygyPath`, when set.
    tablebases: Option<Arc<Tablebases>>,
    /// `bench`, `go perft`, `genfens` and table loads, run off this thread.
    jobs: Jobs,
    job_events: Receiver<JobEvent>,
    /// How the running `go perft` writes its moves.
    job_mode: CastlingMode,
}

impl<W: Write> Session<W> {
    /// A session, the receiving end of its search events, and that of its job events.
    #[allow(clippy::type_complexity)]
    pub fn new(
        options: EngineOptions,
        out: W,
    ) -> Result<(Session<W>, Receiver<EngineEvent>, Receiver<JobEvent>), String> {
        let (engine, events) = Engine::new(options.hash_mib).map_err(|e| e.to_string())?;
        if !options.eval_file.is_empty() {
            engine::set_eval_file(&options.eval_file)
                .map_err(|e| format!("eval_file '{}': {e}", options.eval_file))?;
        }
        engine::set_use_nnue(options.use_nnue);
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
            clock: Box::new(SystemClock),
            log: None,
            tablebases: None,
            jobs,
            job_events: job_events.clone(),
            job_mode: mode,
        };
        Ok((session, events, job_events))
    }

    /// Makes a strength-limited level's move choices reproducible (tests).
    #[cfg(test)]
    fn set_move_seed(&mut self, seed: u64) {
        self.engine.set_move_seed(seed);
    }

    /// Reads the time from `clock` from now on (tests move it by hand).
    #[cfg(test)]
    fn set_clock(&mut self, clock: impl Now + 'static) {
        self.last_output = clock.now();
        self.clock = Box::new(clock);
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
        self.last_output = self.clock.now();
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
                self.engine.new_game();
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
                    let evaluation = engine::evaluate(pos);
                    let mut text = output::eval_table(&evaluation.breakdown);
                    text.push_str(&output::network_eval_line(
                        evaluation.network_white_cp,
                        evaluation.net_hash,
                        evaluation.net_plays,
                    ));
                    self.say(&text);
                }
                None => self.error("no valid position"),
            },
            Command::Result => match &self.position {
                Some(pos) => {
                    let line = format!("info string result {}", engine::game_result(pos));
                    self.say(&line);
                }
                None => self.error("no valid position"),
            },
            Command::Bench(depth) => {
                let depth = depth.unwrap_or(engine::BENCH_DEPTH);
                self.start_job(Job::Bench { depth });
            }
            Command::Genfens(params) => self.genfens(params),
        }
        self.flow()
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
            OptionChange::EvalFile(ref path) => match engine::set_eval_file(path) {
                Ok(hash) if self.options.use_nnue => self.say(&format!("info string EvalFile: net {hash:016x} loaded")),
                Ok(hash) => self.say(&format!(
                    "info string EvalFile: net {hash:016x} loaded; UseNNUE is false, so the hand-written evaluation plays"
                )),
                Err(error) => return self.error(&format!("EvalFile: {error}; the net is unchanged")),
            },
            OptionChange::UseNnue(on) => {
                engine::set_use_nnue(on);
                self.say(if on {
                    "info string UseNNUE: the net plays"
                } else {
                    "info string UseNNUE: the hand-written evaluation plays"
                });
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
