//! The UCI protocol: `command` parses input lines, `output` formats answers, `session` holds
//! the state between commands, and `run` is the loop.
//!
//! A reader thread turns stdin into lines on a channel; the loop `select!`s between those and
//! the search's and the jobs' events, so `isready`, `stop`, `ponderhit` and `quit` are answered
//! at once while a search or a long command (`bench`, `go perft`, `genfens`, a table load) runs;
//! a command that would cut a finite search short (a new `go`) waits for it in a queue, not by
//! blocking the loop (`session/turns.rs`).
//! `log` writes the `Debug Log File`. Only this thread prints, so `bestmove` can be held back
//! while pondering or in `go infinite` without any busy-waiting.
//!
//! The layer depends on `engine` (which re-exports the data types it names: positions, search
//! reports, verdicts, jobs), `options` and `utc` for the log's dates, nothing else: it decides
//! nothing about chess, it parses, formats and holds the `bestmove` until it is due.

pub mod command;
pub(crate) mod log;
pub mod output;
mod session;

use crate::engine::EngineChannels;
use crate::options::EngineOptions;
use crossbeam_channel::{at, never, select, tick, unbounded, Receiver};
use session::{Flow, Session};
use std::io::{BufRead, Write};

/// Spawns the reader thread: each line of `input` arrives on the channel; the channel closes
/// at end of input (or a read error, which we treat the same way).
fn spawn_reader(input: impl BufRead + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = unbounded();
    let spawned = std::thread::Builder::new().name("patina-stdin".into()).spawn(move || {
        let mut input = input;
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    // Invalid UTF-8 becomes replacement characters and then a parse error.
                    let line = String::from_utf8_lossy(&buffer).into_owned();
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    if spawned.is_err() {
        // Without a reader there is no input: behave as at end of input.
        let (_, closed) = unbounded();
        return closed;
    }
    receiver
}

/// Runs the UCI loop until `quit`, end of input, or an unwritable output. Returns the exit code.
pub fn run(options: EngineOptions, input: impl BufRead + Send + 'static, output: impl Write) -> i32 {
    run_loop(options, input, output, false)
}

/// Runs `lines` as UCI commands, in order, then exits as at end of input (`patina "CMD" ...`).
/// Unlike a GUI's input, each long job (`bench`, `go perft`, `genfens`, a table load) and each
/// finite search ends before the next line is read, so `patina "genfens 10" "quit"` prints all
/// ten openings and `patina "position startpos" "go depth 9"` searches to depth 9. Returns 1
/// when a line was refused (an `info string error`), else 0.
pub fn run_lines(options: EngineOptions, lines: &[String], output: impl Write) -> i32 {
    let input = std::io::Cursor::new(lines.join("\n").into_bytes());
    run_loop(options, input, output, true)
}

fn run_loop(
    options: EngineOptions,
    input: impl BufRead + Send + 'static,
    output: impl Write,
    one_job_at_a_time: bool,
) -> i32 {
    let lines = spawn_reader(input);
    let (mut session, EngineChannels { events, job_events }) = match Session::new(options, output) {
        Ok(pair) => pair,
        Err(message) => {
            eprintln!("patina: {message}");
            return 1;
        }
    };
    let exit_code = |session: &Session<_>| i32::from(one_job_at_a_time && session.has_refused());
    // Also wakes the loop while a long search is quiet: it prints progress, and a failed write
    // (the GUI died) ends the engine instead of leaving it searching for nobody.
    let ticks = tick(std::time::Duration::from_millis(250));
    let no_lines = never();
    let mut input_closed = false;
    loop {
        // A strength-limited level's `bestmove` may be due at a set time.
        let due = session.wake_at().map_or_else(never, at);
        // End of input, in its turn after the commands still waiting for a search
        // (`Session::end_of_input`), stops a search, which still prints its `bestmove`, and
        // lets running jobs and table loads finish (`echo "go perft 6" | patina` counts them
        // all), as a script does between its lines; `quit` cuts a job short
        // (`Session::finish_before_exit`). An `isready` waiting for a setting holds the lines
        // after it, as a GUI would.
        let input_ended = session.has_input_ended();
        let waiting = (session.is_busy() && (one_job_at_a_time || input_ended))
            || (one_job_at_a_time && session.is_searching_to_a_limit())
            || session.owes_readyok();
        if input_ended && !waiting {
            session.shutdown();
            return exit_code(&session);
        }
        let input = if waiting || input_closed { &no_lines } else { &lines };
        let flow = select! {
            recv(input) -> line => match line {
                Ok(line) => session.handle_line(&line),
                Err(_) => {
                    input_closed = true;
                    session.end_of_input()
                }
            },
            recv(events) -> event => match event {
                Ok(event) => session.handle_event(event),
                Err(_) => Flow::Continue,
            },
            recv(job_events) -> event => match event {
                Ok(event) => session.handle_job_event(event),
                Err(_) => Flow::Continue,
            },
            recv(ticks) -> _ => session.heartbeat(),
            recv(due) -> _ => session.wake(),
        };
        let flow = match flow {
            Flow::Continue => session.run_backlog(),
            Flow::Quit => Flow::Quit,
        };
        if flow == Flow::Quit {
            session.shutdown();
            return exit_code(&session);
        }
    }
}
