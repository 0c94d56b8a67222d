//! The session's searches: a `go` becomes search limits and an engine search, its events
//! become `info` lines, and the one `bestmove` it is owed goes out once nothing holds it back
//! (`go infinite` and `go ponder` until `stop` or `ponderhit`, a limited level until its
//! shortest think time has passed).

use super::{output, Flow, Session, PROGRESS_INTERVAL};
use crate::engine::{GoClocks, GoRequest};
use crate::jobs::Job;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{self, Reason};
use crate::search::{SearchEvent, SearchOutcome};
use crate::strength::{self, Knobs};
use crate::uci::command::GoParams;
use crate::wdl::{self, Wdl};
use shakmaty::{CastlingMode, Move};
use std::io::Write;
use std::time::{Duration, Instant};

/// What a `go` will answer once it may.
pub(super) enum Answer {
    Move(SearchOutcome),
    /// Checkmate or stalemate on the board: `bestmove (none)`.
    NoMove,
}

/// What the owed `bestmove` waits for besides the answer itself: one state where there were
/// three flags and a deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Release {
    /// `go ponder` before its `ponderhit`: held until `ponderhit` or `stop`.
    Ponderhit,
    /// `go infinite`: held until `stop`.
    Stop,
    /// Due as soon as the answer is in, or not before `not_before` (a limited level's shortest
    /// think time). `stopped_ponder`: a ponder search that `stop` ended before any
    /// `ponderhit`; a new `position` or `go` still treats it as the ponder search it was.
    Due { not_before: Option<Instant>, stopped_ponder: bool },
}

/// The `go` currently owed a `bestmove`.
pub(super) struct PendingGo {
    /// What holds the `bestmove` back.
    pub(super) release: Release,
    /// The search's answer once its `Finished` event has arrived (`None`: still searching).
    pub(super) answer: Option<Answer>,
    pub(super) mode: CastlingMode,
    /// The root's material when `UCI_ShowWDL` was on at `go`: info lines carry `wdl` from it.
    pub(super) wdl_material: Option<i32>,
    /// Info lines with a higher `multipv` are not printed (a limited level searches more lines
    /// than `MultiPV` asks for).
    pub(super) shown_lines: usize,
    /// A strength-limited `go`: the level, and the random stream its move choice draws from.
    pub(super) strength: Option<(Knobs, Rng)>,
    /// A limited level's shortest time over this move, counted from when the clock starts.
    pub(super) min_think: Option<Duration>,
    /// The first two moves of the last `multipv 1` line printed for this `go` (the plan the
    /// GUI shows; `bestmove` and its `ponder` must match it).
    pub(super) last_shown: Option<Vec<Move>>,
}

impl<W: Write> Session<W> {
    pub(super) fn go(&mut self, params: GoParams) {
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
        let mut pending = PendingGo {
            release: if params.ponder {
                Release::Ponderhit
            } else if params.infinite {
                Release::Stop
            } else {
                Release::Due { not_before: None, stopped_ponder: false }
            },
            answer: None,
            mode: pos.castling_mode(),
            wdl_material: self.options.show_wdl.then(|| wdl::material(pos.chess())),
            shown_lines: self.options.multipv,
            strength: None,
            min_think: None,
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
                pending.answer = Some(Answer::NoMove);
                self.pending = Some(pending);
                self.deliver_if_ready();
                return;
            }
        }
        let request = self.request(pos, &params);
        let key = request.position.key();
        let plan = self.engine.go(request);
        pending.strength = plan.knobs.map(|knobs| (knobs, self.move_rng.for_move(self.games, key)));
        pending.min_think = plan.min_think;
        if let Release::Due { not_before, .. } = &mut pending.release {
            *not_before = plan.min_think.map(|think| Instant::now() + think);
        }
        self.pending = Some(pending);
    }

    /// The engine's view of a `go`: the parsed parameters, the moves of `searchmoves` (an
    /// illegal one is reported and left out), the options and tables in force.
    fn request(&mut self, position: Position, params: &GoParams) -> GoRequest {
        let mut search_moves = Vec::new();
        for token in &params.searchmoves {
            match position.parse_uci_move(token) {
                Ok(m) => search_moves.push(m),
                Err(reason) => self.error(&format!("searchmoves: {reason} move '{token}' ignored")),
            }
        }
        GoRequest {
            position,
            clocks: GoClocks {
                wtime: params.wtime,
                btime: params.btime,
                winc: params.winc,
                binc: params.binc,
                movestogo: params.movestogo,
                movetime: params.movetime,
            },
            depth: params.depth,
            nodes: params.nodes,
            mate: params.mate,
            infinite: params.infinite,
            ponder: params.ponder,
            search_moves,
            options: self.options.clone(),
            tablebases: self.tablebases.clone(),
        }
    }

    pub(super) fn stop(&mut self) {
        self.engine.stop();
        self.jobs.stop();
        if let Some(pending) = &mut self.pending {
            let stopped_ponder = match pending.release {
                Release::Ponderhit => true,
                Release::Stop => false,
                Release::Due { stopped_ponder, .. } => stopped_ponder,
            };
            pending.release = Release::Due { not_before: None, stopped_ponder };
        }
        self.deliver_if_ready();
    }

    pub(super) fn ponderhit(&mut self) {
        self.engine.ponderhit();
        if let Some(pending) = &mut self.pending {
            let not_before = pending.min_think.map(|think| Instant::now() + think);
            pending.release = Release::Due { not_before, stopped_ponder: false };
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
                    pending.answer = Some(Answer::Move(outcome));
                }
                self.deliver_if_ready();
            }
        }
        self.flow()
    }

    /// A limited level's move: one of the search's lines, maybe not the best (`strength::play`).
    pub(super) fn play_limited(
        &mut self,
        outcome: SearchOutcome,
        knobs: &Knobs,
        rng: &mut Rng,
    ) -> SearchOutcome {
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
        match self.pending.as_ref().filter(|p| p.answer.is_some())?.release {
            Release::Due { not_before, .. } => not_before,
            Release::Ponderhit | Release::Stop => None,
        }
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
    pub(super) fn deliver_if_ready(&mut self) {
        let due = |p: &PendingGo| match p.release {
            Release::Due { not_before, .. } => not_before.is_none_or(|time| Instant::now() >= time),
            Release::Ponderhit | Release::Stop => false,
        };
        let ready = matches!(&self.pending, Some(p) if p.answer.is_some() && due(p));
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
        let pondering = |p: &PendingGo| {
            matches!(p.release, Release::Ponderhit | Release::Due { stopped_ponder: true, .. })
        };
        if !matches!(&self.pending, Some(p) if pondering(p)) {
            return;
        }
        self.engine.stop();
        self.wait_for_search();
        self.pending = None;
    }

    /// Processes search events until the pending search's `Finished` has arrived.
    pub(super) fn wait_for_search(&mut self) {
        while matches!(&self.pending, Some(p) if p.answer.is_none()) {
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
    use crate::options::EngineOptions;
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
