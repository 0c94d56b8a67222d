//! The state of one UCI conversation and how each command changes it: this file holds the
//! state, the line and command dispatch, options and positions; `go.rs` the searches and the
//! `bestmove` each is owed, `owed.rs` that bestmove's state; `turns.rs` the commands that wait
//! for a running search to end; `long_commands.rs` the long commands and table loads. The
//! session's deadlines read an injected clock (`engine::Now`, from `time`: the system's, or a
//! `FakeClock` in tests).
//!
//! Invariants: every `go` is answered by exactly one `bestmove`, except a ponder search that the
//! GUI abandons by sending a new `position` without `stop` (see `abandon_ponder`) and a `go`
//! still waiting for its turn when `quit` comes; a rejected `position` leaves no position (so
//! `go` answers `bestmove 0000` rather than search a game the GUI never sent); a rejected
//! `setoption` changes nothing.
//!
//! With `UCI_LimitStrength` on, the engine searches under the level's node budget with a few
//! lines (reporting only the first `MultiPV` of them) and picks the move; the session holds the
//! `bestmove` until the level's shortest think time (`GoPlan::min_think`) has passed on the
//! clock (`wake_at` tells the loop when), unless `stop` comes first.

mod go;
mod long_commands;
mod owed;
mod turns;

use super::command::{self, Command, PositionStart};
use super::log::{DebugLog, Direction};
use super::output;
use crate::engine::{
    self, Applied, Engine, EngineChannels, EngineError, EngineEvent, Job, Now, Position, SystemClock,
};
use crate::options::{self, Effect, EngineOptions};
use crossbeam_channel::Receiver;
use go::PendingGo;
use shakmaty::CastlingMode;
use std::collections::VecDeque;
use std::io::Write;
use std::time::{Duration, Instant};
use turns::Queued;

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
    /// The engine: the options in force, the tables, the net, the searches and the jobs.
    engine: Engine,
    events: Receiver<EngineEvent>,
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
    /// The engine's job events (`bench`, `go perft`, `genfens`, table loads).
    job_events: Receiver<crate::engine::JobEvent>,
    /// How the running `go perft` writes its moves.
    job_mode: CastlingMode,
    /// `isready`s that wait for a setting to be in force (a `SyzygyPath` load).
    ready_owed: usize,
    /// Lines waiting for the running finite search to end, oldest first (`turns.rs`).
    backlog: VecDeque<Queued>,
    /// The end of the input has been reached in turn.
    input_ended: bool,
    /// A command was refused (an `info string error` went out).
    refused: bool,
}

impl<W: Write> Session<W> {
    /// A session on an engine set up with `options`, and the receiving ends of the engine's
    /// search and job events. A `Debug Log File` in `options` is opened (an error if it cannot
    /// be: a configuration that says to log and does not would mislead).
    pub fn new(options: EngineOptions, out: W) -> Result<(Session<W>, EngineChannels), SessionError> {
        let log = match options.debug_log_file.as_str() {
            "" => None,
            path => Some(
                DebugLog::open(path).map_err(|error| SessionError::Log { path: path.to_string(), error })?,
            ),
        };
        let mode = castling_mode(options.chess960);
        let (engine, channels) = Engine::new(options).map_err(SessionError::Engine)?;
        let session = Session {
            out,
            engine,
            events: channels.events.clone(),
            position: Some(Position::startpos(mode)),
            pending: None,
            debug: false,
            broken: false,
            last_output: Instant::now(),
            clock: Box::new(SystemClock),
            log,
            job_events: channels.job_events.clone(),
            job_mode: mode,
            ready_owed: 0,
            backlog: VecDeque::new(),
            input_ended: false,
            refused: false,
        };
        Ok((session, channels))
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
            self.engine.stop_job();
        }
    }

    fn error(&mut self, message: &str) {
        // A megabyte of garbage need not be echoed back whole: the start names the problem.
        const LONGEST: usize = 200;
        let shown = match message.char_indices().nth(LONGEST) {
            Some((cut, _)) => format!("{}...", &message[..cut]),
            None => message.to_string(),
        };
        self.refused = true;
        self.say(&format!("info string error: {shown}"));
    }

    /// Whether any command was refused with an `info string error` (a script of commands
    /// then exits with a failure).
    pub fn has_refused(&self) -> bool {
        self.refused
    }

    fn flow(&self) -> Flow {
        if self.broken {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// Handles one line of input, now or in its turn (`turns.rs`).
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
        self.take_turn(command::parse(line))
    }

    /// Handles a line whose turn has come: its command, or its parse error.
    fn handle_parsed(&mut self, parsed: Result<Command, command::ParseError>) -> Flow {
        match parsed {
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
                let text = output::handshake(self.engine.options(), &self.engine.tunables());
                self.say(&text);
            }
            Command::IsReady => self.is_ready(),
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
            Command::Quit => {
                self.finish_before_exit(true);
                return Flow::Quit;
            }
            Command::Display => match &self.position {
                Some(pos) => {
                    let text = output::board(pos);
                    self.say(&text);
                }
                None => self.error("no valid position"),
            },
            Command::Eval => match &self.position {
                Some(pos) => {
                    let text = output::eval_trace(&self.engine.evaluate(pos));
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

    /// `isready`: answered at once, during a search or a job too, unless a setting is not yet
    /// in force (a `SyzygyPath` load): then once it is (`answer_owed_readyok`).
    fn is_ready(&mut self) {
        if self.engine.is_settling() {
            self.ready_owed += 1;
        } else {
            self.say("readyok");
        }
    }

    /// Whether an `isready` waits for a setting to be in force: the loop reads no further
    /// input until it is answered, so a script that sends a setting, `isready` and `go` in one
    /// breath searches with the setting in force, as a GUI that waits for `readyok` does.
    pub fn owes_readyok(&self) -> bool {
        self.ready_owed > 0
    }

    /// Prints the `readyok`s that waited for a setting, once every setting is in force.
    pub(super) fn answer_owed_readyok(&mut self) {
        if self.engine.is_settling() {
            return;
        }
        for _ in 0..std::mem::take(&mut self.ready_owed) {
            self.say("readyok");
        }
    }

    /// `setoption`: parse, apply (the engine's business, but for the log), print.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_change(name, value) {
            Ok(change) => change,
            Err(error) => {
                // A tuning build also takes the search's tunables.
                return match self.engine.set_tunable(name, value) {
                    Some(Ok(())) => {}
                    Some(Err(refused)) => self.error(&refused.to_string()),
                    None => self.error(&error.to_string()),
                };
            }
        };
        match change.effect() {
            // The running search answers before its table goes.
            Effect::ResizeTable => self.settle_search(),
            Effect::OpenLog => {
                let path = change.value.text();
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
        match self.engine.apply(&change) {
            Ok(Applied::NetChosen { hash }) => {
                self.say(&format!("info string EvalFile: net {hash:016x} loaded"))
            }
            Ok(Applied::Done | Applied::LoadingTables | Applied::TablesDropped) => {}
            Err(error) => self.error(&error.to_string()),
        }
    }

    fn set_position(&mut self, start: PositionStart, moves: &[String]) {
        self.abandon_ponder();
        let chess960 = self.engine.options().chess960;
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

    /// Before the process exits (`quit`, or the end of input once jobs have finished): a
    /// running search is stopped and its `bestmove` printed (even in `go infinite` or `go
    /// ponder`, as Stockfish does); with `cut_jobs` a running job is stopped and what it had is
    /// printed, marked incomplete. Nothing is printed once the output is gone.
    pub fn finish_before_exit(&mut self, cut_jobs: bool) {
        if self.broken {
            return;
        }
        self.settle_search();
        if cut_jobs {
            self.end_job();
        }
    }

    /// End of the conversation: stop searching and let the threads go. A job is told to stop
    /// but not waited for: the process exits at once and takes it along.
    pub fn shutdown(&mut self) {
        self.engine.stop_job();
        self.engine.stop();
        self.engine.wait();
    }
}

/// Why a session could not start.
#[derive(Debug)]
pub enum SessionError {
    /// The engine could not be set up (the table, the net).
    Engine(EngineError),
    /// The configured `Debug Log File` cannot be opened.
    Log {
        /// The file.
        path: String,
        /// What the OS said.
        error: std::io::Error,
    },
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Engine(error) => write!(f, "{error}"),
            SessionError::Log { path, error } => write!(f, "debug_log_file: cannot open '{path}': {error}"),
        }
    }
}

fn castling_mode(chess960: bool) -> CastlingMode {
    if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}
