//! Commands that wait their turn. A finite search (a depth, nodes, a clock or a move time) is
//! never cut short by a command that would end it: a `go`, `ucinewgame`, `setoption`, `bench`
//! or `genfens` arriving while one runs is queued, with every line after it, and run in order
//! once the search's `bestmove` has gone out (Stockfish waits the same way, but blocks its
//! input loop to do it). Meanwhile `isready`, `stop` and `quit` are answered at once, so the
//! loop never blocks behind the search:
//!
//! - `isready` prints `readyok` (unless a setting is still loading, as without a queue);
//! - `stop` ends the running search now and is also queued after the waiting commands, so a
//!   queued `go` is answered at once when it starts: `stop` ends every search sent before it;
//! - `quit` stops the running search (its `bestmove` printed) and exits; queued commands, a
//!   `go` among them, are dropped unanswered.
//!
//! `go infinite` and `go ponder` are not finite: a new `go` stops them (their `bestmove`
//! printed first) and starts at once, as before. A `position` needs no turn: the running
//! search has its own copy of the board, so a new one applies to the next `go` (while a
//! command waits, the `position` after it waits too, so it applies to the `go` after that).
//! The end of the input is queued like a command: a script piped to stdin sees its searches
//! run in order, the last one stopped by the end, as if it were typed.
//!
//! The loop calls `run_backlog` after every input line, event and tick.

use super::{Flow, Session};
use crate::uci::command::{Command, ParseError};
use std::io::Write;

/// A line that arrived while a command before it waited for the running search.
#[derive(Debug)]
pub(super) enum Queued {
    /// A parsed (or unparsable) input line.
    Line(Result<Command, ParseError>),
    /// The input ended here.
    EndOfInput,
}

impl Queued {
    fn waits_for_search(&self) -> bool {
        matches!(self, Queued::Line(parsed) if waits_for_search(parsed))
    }
}

/// Whether a command would end a running search, so waits for a finite one to end instead: any
/// `go` (a malformed one still owes a `bestmove`, after the running search's), `ucinewgame`,
/// `setoption` (a new table or net would replace what the search uses), `bench`, `genfens`.
fn waits_for_search(parsed: &Result<Command, ParseError>) -> bool {
    match parsed {
        Ok(command) => matches!(
            command,
            Command::Go(_)
                | Command::UciNewGame
                | Command::SetOption { .. }
                | Command::Bench(_)
                | Command::Genfens(_)
        ),
        Err(error) => error.command() == Some("go"),
    }
}

impl<W: Write> Session<W> {
    /// Runs a parsed line now, or queues it behind a command waiting for the running search.
    pub(super) fn take_turn(&mut self, parsed: Result<Command, ParseError>) -> Flow {
        let queue = if self.backlog.is_empty() {
            waits_for_search(&parsed) && self.is_searching_to_a_limit()
        } else {
            match parsed {
                Ok(Command::IsReady | Command::Quit) => false,
                Ok(Command::Stop) => {
                    self.stop();
                    true
                }
                _ => true,
            }
        };
        if queue {
            self.backlog.push_back(Queued::Line(parsed));
            return self.flow();
        }
        self.handle_parsed(parsed)
    }

    /// Whether a finite search is owed a `bestmove`: running, stopped but not yet answered, or
    /// answered and held for a limited level's think time. Not `go infinite` or `go ponder`.
    pub fn is_searching_to_a_limit(&self) -> bool {
        self.pending.as_ref().is_some_and(|pending| !pending.owed.is_held_for_release())
    }

    /// Runs the queued commands whose turn has come, in order, until one must wait again.
    pub fn run_backlog(&mut self) -> Flow {
        while let Some(next) = self.backlog.front() {
            if next.waits_for_search() && self.is_searching_to_a_limit() {
                break;
            }
            let flow = match self.backlog.pop_front() {
                Some(Queued::Line(parsed)) => self.handle_parsed(parsed),
                Some(Queued::EndOfInput) => self.end_input(),
                None => break,
            };
            if flow == Flow::Quit {
                return flow;
            }
        }
        self.flow()
    }

    /// The input has ended: after the commands still waiting, the running search is stopped
    /// (its `bestmove` printed); jobs and table loads are left to finish.
    pub fn end_of_input(&mut self) -> Flow {
        if self.backlog.is_empty() {
            return self.end_input();
        }
        self.backlog.push_back(Queued::EndOfInput);
        self.flow()
    }

    fn end_input(&mut self) -> Flow {
        self.input_ended = true;
        self.finish_before_exit(false);
        self.flow()
    }

    /// Whether the end of the input has been reached in turn (`end_of_input`).
    pub fn has_input_ended(&self) -> bool {
        self.input_ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Position;
    use crate::options::EngineOptions;

    /// Feeds `lines` to a session as the loop would, then runs the loop's part (events and the
    /// backlog) until every search has answered; returns what was printed.
    fn converse(lines: &[&str]) -> String {
        let mut out = Vec::new();
        {
            let (mut session, channels) = Session::new(EngineOptions::default(), &mut out).unwrap();
            for line in lines {
                session.handle_line(line);
                session.run_backlog();
            }
            while session.pending.is_some() || !session.backlog.is_empty() {
                let event = channels.events.recv().unwrap();
                session.handle_event(event);
                session.run_backlog();
            }
            session.shutdown();
        }
        String::from_utf8(out).unwrap()
    }

    fn depths_and_bestmoves(output: &str) -> Vec<String> {
        let mut seen = Vec::new();
        for line in output.lines() {
            if line.starts_with("bestmove") {
                seen.push("bestmove".to_string());
            } else if let Some(depth) = line.strip_prefix("info depth ").and_then(|l| l.split(' ').next()) {
                if seen.last().is_none_or(|last| last != &format!("depth {depth}")) {
                    seen.push(format!("depth {depth}"));
                }
            }
        }
        seen
    }

    #[test]
    fn a_go_during_a_finite_search_waits_for_its_bestmove() {
        let output =
            converse(&["position startpos", "go depth 5", "position startpos moves e2e4", "go depth 4"]);
        let expected = ["depth 1", "depth 2", "depth 3", "depth 4", "depth 5", "bestmove"]
            .into_iter()
            .chain(["depth 1", "depth 2", "depth 3", "depth 4", "bestmove"])
            .map(str::to_string)
            .collect::<Vec<_>>();
        assert_eq!(depths_and_bestmoves(&output), expected, "{output}");
        // The second search was of the position sent for it: Black's reply.
        let second = output.lines().filter(|l| l.starts_with("bestmove")).nth(1).unwrap();
        let after_e4 = Position::default().play_uci_moves(["e2e4"]).unwrap();
        assert!(after_e4.parse_uci_move(second.split(' ').nth(1).unwrap()).is_ok(), "{second}");
    }

    #[test]
    fn isready_is_answered_at_once_and_stop_answers_every_waiting_go() {
        let mut out = Vec::new();
        {
            let (mut session, channels) = Session::new(EngineOptions::default(), &mut out).unwrap();
            for line in ["go depth 60", "go depth 60", "isready"] {
                session.handle_line(line);
            }
            assert_eq!(session.backlog.len(), 1, "the second go waits");
            session.handle_line("stop");
            while session.pending.is_some() || !session.backlog.is_empty() {
                let event = channels.events.recv().unwrap();
                session.handle_event(event);
                session.run_backlog();
            }
            session.shutdown();
        }
        let output = String::from_utf8(out).unwrap();
        let answers: Vec<&str> =
            output.lines().filter(|l| *l == "readyok" || l.starts_with("bestmove")).collect();
        assert_eq!(answers.len(), 3, "{output}");
        assert_eq!(answers[0], "readyok", "{output}");
    }

    #[test]
    fn a_go_during_go_infinite_stops_it_and_starts() {
        let output = converse(&["go infinite", "go depth 3"]);
        let seen = depths_and_bestmoves(&output);
        assert_eq!(seen.iter().filter(|s| *s == "bestmove").count(), 2, "{output}");
        assert_eq!(&seen[seen.len() - 2..], ["depth 3", "bestmove"], "{output}");
    }
}
