//! The session's searches: a `go` becomes a `GoRequest` for the engine, the engine's events
//! become `info` lines (the engine decides; this file only formats and holds), and the one
//! `bestmove` it is owed goes out once nothing holds it back (`go infinite` and `go ponder`
//! until `stop` or `ponderhit`, a limited level until its shortest think time has passed; the
//! state is `owed::Owed`).

use super::owed::Owed;
use super::{output, Flow, Session, PROGRESS_INTERVAL};
use crate::engine::{Answer, EngineEvent, GoRequest, Job, Position};
use crate::uci::command::GoParams;
use shakmaty::{CastlingMode, Move};
use std::io::Write;
use std::time::{Duration, Instant};

/// The `go` currently owed a `bestmove`.
pub(super) struct PendingGo {
    /// What holds the `bestmove` back, and the engine's answer once it is in.
    pub(super) owed: Owed,
    pub(super) mode: CastlingMode,
    /// A limited level's shortest time over this move, counted from when the clock starts.
    pub(super) min_think: Option<Duration>,
    /// The first two moves of the last `multipv 1` line printed for this `go` (the plan the
    /// GUI shows; `bestmove` and its `ponder` must match it).
    pub(super) last_shown: Option<Vec<Move>>,
}

impl<W: Write> Session<W> {
    pub(super) fn go(&mut self, params: GoParams) {
        // A GUI that sends `go` before stopping the last one still gets both answers, in order:
        // a finite search has already ended (`turns.rs`), `go infinite` or `go ponder` ends now.
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
        if self.engine.is_settling() {
            self.say("info string SyzygyPath: tables still loading; this search goes without the new ones");
        }
        let mode = pos.castling_mode();
        let (request, rejected) = self.request(pos, &params);
        let plan = self.engine.go(request);
        let not_before = plan.min_think.map(|think| self.clock.now() + think);
        let owed = Owed::new(params.limits.ponder, params.limits.infinite, not_before);
        self.pending = Some(PendingGo { owed, mode, min_think: plan.min_think, last_shown: None });
        // A `go` answered without a search (no legal move) has no use for its `searchmoves`.
        let searching = !matches!(plan.events.last(), Some(EngineEvent::Finished(_)));
        for event in plan.events {
            self.handle_event(event);
        }
        if searching {
            for error in rejected {
                self.error(&error);
            }
        }
    }

    /// The engine's view of a `go`: the parsed parameters and the moves of `searchmoves`; and an
    /// error for each `searchmoves` move left out.
    fn request(&self, position: Position, params: &GoParams) -> (GoRequest, Vec<String>) {
        let mut search_moves = Vec::new();
        let mut rejected = Vec::new();
        for token in &params.search_moves {
            match position.parse_uci_move(token) {
                Ok(m) => search_moves.push(m),
                Err(reason) => rejected.push(format!("searchmoves: {reason} move '{token}' ignored")),
            }
        }
        let request = GoRequest { position, limits: params.limits.clone(), search_moves };
        (request, rejected)
    }

    pub(super) fn stop(&mut self) {
        self.engine.stop();
        self.engine.stop_job();
        self.advance(Owed::stopped);
    }

    pub(super) fn ponderhit(&mut self) {
        self.engine.ponderhit();
        let Some(pending) = &mut self.pending else { return };
        // Clients such as python-chess drop what came while pondering: if no line follows
        // the `ponderhit`, the line of the move played goes out before `bestmove`.
        pending.last_shown = None;
        let not_before = pending.min_think.map(|think| self.clock.now() + think);
        self.advance(|owed| owed.ponderhit(not_before));
    }

    /// Moves the owed `bestmove` on by `step`, and prints it if it is now due.
    fn advance(&mut self, step: impl FnOnce(Owed) -> Owed) {
        if let Some(pending) = &mut self.pending {
            let owed = std::mem::replace(&mut pending.owed, Owed::StoppedPonder);
            pending.owed = step(owed);
        }
        self.deliver_if_ready();
    }

    /// An event arrived from the engine: print it, and keep its answer for the `bestmove`.
    pub fn handle_event(&mut self, event: EngineEvent) -> Flow {
        let mode = self.pending.as_ref().map_or(CastlingMode::Standard, |p| p.mode);
        match event {
            EngineEvent::GameOver(verdict) => self.say(&format!("info string result {verdict}")),
            EngineEvent::Iteration { report, wdl } => {
                if let (1, Some(pending)) = (report.multipv, &mut self.pending) {
                    pending.last_shown = Some(report.pv.iter().take(2).copied().collect());
                }
                let line = output::iteration(&report, mode, wdl);
                self.say(&line);
            }
            EngineEvent::RootMove { depth, mv, number } => {
                let line = output::current_move(depth, mv, number, mode);
                self.say(&line);
            }
            EngineEvent::TablebaseFailure(failure) => self.error(&format!("Syzygy: {failure}")),
            EngineEvent::LimitedChoice { elo, played, best } => {
                if self.debug {
                    let line = output::strength_choice(elo, played, best, mode);
                    self.say(&line);
                }
            }
            EngineEvent::Finished(answer) => {
                self.engine.wait();
                if let Answer::NoMove { score, wdl } = answer {
                    let line = output::no_move(score, wdl);
                    self.say(&line);
                }
                self.advance(|owed| owed.answered(answer));
            }
        }
        self.flow()
    }

    /// When the loop must call `wake`: the moment a held limited-level `bestmove` is due.
    pub fn wake_at(&self) -> Option<Instant> {
        self.pending.as_ref()?.owed.due_at()
    }

    /// The time `wake_at` named has come.
    pub fn wake(&mut self) -> Flow {
        self.deliver_if_ready();
        self.flow()
    }

    /// Once a second of silence, a progress line for the running search (see `output::progress`).
    pub fn heartbeat(&mut self) -> Flow {
        if self.clock.now().saturating_duration_since(self.last_output) >= PROGRESS_INTERVAL {
            if let Some((nodes, elapsed)) = self.engine.progress() {
                let line = output::progress(nodes, elapsed, self.engine.table().hashfull());
                self.say(&line);
            }
        }
        self.flow()
    }

    /// Prints the owed `bestmove` once the search is done and nothing holds it back.
    pub(super) fn deliver_if_ready(&mut self) {
        let now = self.clock.now();
        if !self.pending.as_ref().is_some_and(|p| p.owed.is_due(now)) {
            return;
        }
        let Some(PendingGo { owed, mode, last_shown, .. }) = self.pending.take() else { return };
        let Some(answer) = owed.into_answer() else { return };
        let line = match answer {
            Answer::Move { outcome, wdl } => {
                // The GUI takes the last line shown for the engine's plan: when that line began
                // with other moves (an iteration cut short, another thread's vote, a limited
                // level's choice), the line of the move played goes out first.
                let answered: Vec<Move> = std::iter::once(outcome.best).chain(outcome.ponder).collect();
                if last_shown != Some(answered) {
                    let line = output::iteration(&outcome.played, mode, wdl);
                    self.say(&line);
                }
                output::bestmove(outcome.best, outcome.ponder, mode)
            }
            Answer::NoMove { .. } => "bestmove (none)".to_string(),
        };
        self.say(&line);
    }

    /// Ends any running or held search and prints its bestmove, so the next command starts clean.
    pub(super) fn settle_search(&mut self) {
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
    pub(super) fn abandon_ponder(&mut self) {
        if !self.pending.as_ref().is_some_and(|p| p.owed.is_ponder()) {
            return;
        }
        self.engine.stop();
        self.wait_for_search();
        self.pending = None;
    }

    /// Processes search events until the pending search's `Finished` has arrived.
    pub(super) fn wait_for_search(&mut self) {
        while self.pending.as_ref().is_some_and(|p| !p.owed.has_answer()) {
            match self.events.recv() {
                Ok(event) => {
                    self.handle_event(event);
                }
                Err(_) => break,
            }
        }
    }

    /// A malformed `go`: answer it without searching.
    pub(super) fn finish_unanswerable_go(&mut self) {
        self.settle_search();
        self.say("bestmove 0000");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{FakeClock, Now};
    use crate::options::EngineOptions;
    use std::collections::BTreeSet;

    const LIMITED: [&str; 3] = [
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1300",
        "position startpos",
    ];

    /// Runs `LIMITED` and `go` in a session seeded with `seed` whose clock stands still, waits
    /// for the search, then stops; returns everything printed and whether the `bestmove` was
    /// still held back.
    fn run_limited(seed: u64, go: &str) -> (String, bool) {
        let mut out = Vec::new();
        let held = {
            let (mut session, _) = Session::new(EngineOptions::default(), &mut out).unwrap();
            session.set_move_seed(seed);
            session.set_clock(FakeClock::new());
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
            assert!(infos
                .iter()
                .all(|l| nodes(l).unwrap() <= 2 * crate::strength::knobs(1300).nodes.unwrap()));
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

    /// Runs `body` on a session whose deadlines read a fake clock, shuts it down and returns
    /// everything it printed.
    fn with_fake_clock(body: impl FnOnce(&mut Session<&mut Vec<u8>>, &FakeClock)) -> String {
        let mut out = Vec::new();
        {
            let (mut session, _) = Session::new(EngineOptions::default(), &mut out).unwrap();
            let clock = FakeClock::new();
            session.set_clock(clock.clone());
            body(&mut session, &clock);
            session.shutdown();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_limited_bestmove_goes_out_when_its_think_time_has_passed() {
        let output = with_fake_clock(|session, clock| {
            for line in LIMITED.iter().chain(&["go movetime 5000"]) {
                session.handle_line(line);
            }
            session.wait_for_search();
            let due = session.wake_at().expect("held for the think time");
            let think = due.duration_since(clock.now());
            assert!(think >= Duration::from_secs(1) && think <= Duration::from_secs(5), "{think:?}");
            clock.advance(think - Duration::from_millis(1));
            session.wake();
            assert!(session.wake_at().is_some(), "a millisecond early");
            clock.advance(Duration::from_millis(1));
            session.wake();
            assert!(session.wake_at().is_none() && session.pending.is_none(), "answered on time");
        });
        assert_eq!(output.lines().filter(|l| l.starts_with("bestmove")).count(), 1, "{output}");
    }

    #[test]
    fn a_quiet_search_reports_progress_after_a_second() {
        let output = with_fake_clock(|session, clock| {
            session.handle_line("go infinite");
            clock.advance(PROGRESS_INTERVAL - Duration::from_millis(1));
            session.heartbeat();
            clock.advance(Duration::from_millis(1));
            session.heartbeat();
            session.heartbeat();
            session.stop();
            session.wait_for_search();
        });
        let progress = output.lines().filter(|l| l.starts_with("info nodes")).count();
        assert_eq!(progress, 1, "one line after a second of silence, then silence again: {output}");
    }
}
