//! What the engine reports while it answers a `go`, in the order things happen. The UCI layer
//! formats each event as text and decides only when the owed `bestmove` may go out.
//!
//! The engine's own decisions about an answer are made here, once: a position whose side to
//! move has no legal move is answered without a search (`answer_without_search`), a search's
//! lines carry their win/draw/loss expectation when `UCI_ShowWDL` asks (`WdlView`), and a
//! strength-limited level picks its move from the search's lines (`LimitedLevel::play`),
//! reporting when that is not the best one.

use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{self, Reason, Verdict};
use crate::search::{IterationReport, Score, SearchOutcome};
use crate::strength::{self, Knobs};
use crate::wdl::{self, Wdl};
use shakmaty::{Color, Move};

/// One thing the engine has to say about the `go` it is answering.
#[derive(Debug, Clone)]
pub enum EngineEvent {
    /// The game on the board is over (said first; unless the side to move has no legal move,
    /// the search still runs, as GUIs analysing a finished game expect).
    GameOver(Verdict),
    /// A line of a finished iteration, with its expected result when `UCI_ShowWDL` is on. The
    /// extra lines a limited level searches beyond `MultiPV` are not reported.
    Iteration {
        /// The line.
        report: IterationReport,
        /// Its expected result for the side to move.
        wdl: Option<Wdl>,
    },
    /// The root move a long search's main thread is on (`info currmove`).
    RootMove {
        /// The depth of the iteration it is searched in.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its 1-based place among the root moves in this iteration's order.
        number: usize,
    },
    /// A tablebase probe failed during the search (reported once).
    TablebaseFailure(String),
    /// A strength-limited level plays another line than the search's best (a debug note).
    LimitedChoice {
        /// The `UCI_Elo` playing.
        elo: i64,
        /// The move played and its line's score.
        played: (Move, Score),
        /// The search's best move and its score.
        best: (Move, Score),
    },
    /// The answer to the `go`: the last event of each.
    Finished(Answer),
}

/// How the engine answers a `go`.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The move to play, from the search's `outcome` (a limited level's choice already made);
    /// `wdl` is the expected result of the line played (`outcome.played`).
    Move {
        /// The search's outcome, the move played first.
        outcome: SearchOutcome,
        /// The played line's expected result when `UCI_ShowWDL` is on.
        wdl: Option<Wdl>,
    },
    /// Checkmate or stalemate on the board: no move, and the certain result (`score mate 0`
    /// or a draw at depth 0).
    NoMove {
        /// Mate 0 or 0 centipawns.
        score: Score,
        /// The sure result when `UCI_ShowWDL` is on.
        wdl: Option<Wdl>,
    },
}

/// Whether reported lines carry a win/draw/loss expectation: the root's setting (material,
/// who can still win) and side to move when `UCI_ShowWDL` was on at `go`.
#[derive(Debug, Clone, Copy)]
pub(super) struct WdlView {
    root: Option<(wdl::Setting, Color)>,
}

impl WdlView {
    pub(super) fn new(pos: &Position, show_wdl: bool) -> WdlView {
        WdlView { root: show_wdl.then(|| (wdl::Setting::of(pos.chess()), pos.turn())) }
    }

    /// The expected result of a line scoring `score` (the side to move's view), if asked for.
    pub(super) fn of(&self, score: Score) -> Option<Wdl> {
        self.root.map(|(setting, turn)| wdl::MODEL.expected_for(score, turn, setting))
    }

    /// `wdl`, if asked for.
    fn certain(&self, wdl: Wdl) -> Option<Wdl> {
        self.root.map(|_| wdl)
    }
}

/// What the engine says at once about a `go` on `pos`, before any search: the result of a
/// finished game, and for checkmate or stalemate the whole answer (`Finished(NoMove)`).
pub(super) fn answer_without_search(pos: &Position, view: &WdlView) -> Vec<EngineEvent> {
    let verdict = rules::judge(pos);
    if !verdict.is_over() {
        return Vec::new();
    }
    // The game is over: the result is certain, whatever the model would say of the score.
    let no_move = match verdict.reason {
        Reason::Checkmate => Some((Score::Mate(0), Wdl::LOST)),
        Reason::Stalemate => Some((Score::Centipawns(0), Wdl::DRAWN)),
        _ => None,
    };
    let mut events = vec![EngineEvent::GameOver(verdict)];
    if let Some((score, expected)) = no_move {
        events.push(EngineEvent::Finished(Answer::NoMove { score, wdl: view.certain(expected) }));
    }
    events
}

/// A strength-limited `go`: the level, and the random stream its move choice draws from.
#[derive(Debug, Clone)]
pub(super) struct LimitedLevel {
    pub(super) elo: i64,
    pub(super) knobs: Knobs,
    pub(super) rng: Rng,
}

impl LimitedLevel {
    /// The level's move: one of the search's lines, maybe not the best (`strength::play`);
    /// `report` hears a `LimitedChoice` when it is not.
    pub(super) fn play(mut self, outcome: SearchOutcome, report: &dyn Fn(EngineEvent)) -> SearchOutcome {
        let best = outcome.lines.first().map(|line| (line.pv[0], line.score));
        let played = strength::play(outcome, &self.knobs, &mut self.rng);
        if let Some(best) = best.filter(|best| best.0 != played.best) {
            report(EngineEvent::LimitedChoice { elo: self.elo, played: (played.best, played.score), best });
        }
        played
    }
}
