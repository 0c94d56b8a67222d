//! Analysing one game: one search per position, from the start to the last position reached,
//! then each move judged from the values before and after it.
//!
//! The search of the position before a move gives the engine's choice and the value with best
//! play; the value after the move played is the next position's search, seen from the other
//! side. So a game of N moves costs N + 1 searches, not 2N. A final position the rules have
//! ended (checkmate, stalemate, a dead position, fivefold repetition, the 75-move rule) is not
//! searched: checkmate is mate 0, the rest draws.

use super::notation::numbered_move;
use super::pgn::{GameProblem, GameRecord};
use super::review::{judge_move, Eval, MoveFacts, MoveReview};
use super::searcher::{final_eval, Analyst, Finding};
use crate::position::Position;
use crate::rules::{self, Verdict};
use crate::wdl;
use shakmaty::san::SanPlus;

/// A game with every move judged.
#[derive(Clone)]
pub struct GameReview {
    /// The game as replayed from the PGN.
    pub record: GameRecord,
    /// Every legal move replayed, judged, in order.
    pub moves: Vec<MoveReview>,
    /// The value of every position reached, the start first (one more than `moves`; empty
    /// when the game could not be set up).
    pub evals: Vec<Eval>,
    /// The rules' verdict on the last position reached (`None` when the game could not be set up).
    pub verdict: Option<Verdict>,
}

/// Analyses `record`; `on_search(done, total)` follows each search, for progress reports.
pub fn review_game(
    record: GameRecord,
    analyst: &Analyst,
    on_search: &mut dyn FnMut(usize, usize),
) -> GameReview {
    if matches!(record.problem, Some(GameProblem::BadFen { .. })) {
        return GameReview { record, moves: Vec::new(), evals: Vec::new(), verdict: None };
    }
    analyst.forget();
    let positions = positions(&record);
    let last = positions.len() - 1;
    let verdict = rules::judge(&positions[last]);
    let mut findings: Vec<Option<Finding>> = Vec::with_capacity(positions.len());
    for (index, pos) in positions.iter().enumerate() {
        let finding = if index == last && verdict.is_over() { None } else { analyst.search(pos, &|_| {}) };
        findings.push(finding);
        on_search(index + 1, positions.len());
    }
    let evals: Vec<Eval> = findings
        .iter()
        .zip(&positions)
        .map(|(finding, pos)| finding.as_ref().map_or_else(|| final_eval(pos, &verdict), |f| f.eval))
        .collect();
    let moves = record
        .moves
        .iter()
        .enumerate()
        .map(|(index, &played)| {
            judge(&positions[index], played, findings[index].as_ref(), evals[index], evals[index + 1])
        })
        .collect();
    GameReview { record, moves, evals, verdict: Some(verdict) }
}

/// The start and the position after each move.
fn positions(record: &GameRecord) -> Vec<Position> {
    let mut positions = vec![record.start.clone()];
    let mut pos = record.start.clone();
    for &m in &record.moves {
        pos.play_game_move(m);
        positions.push(pos.clone());
    }
    positions
}

fn judge(
    pos: &Position,
    played: shakmaty::Move,
    finding: Option<&Finding>,
    before: Eval,
    after: Eval,
) -> MoveReview {
    let chess = pos.chess();
    let best_line = finding.map(|f| f.line.clone()).unwrap_or_default();
    let best = best_line.first().copied();
    let facts =
        MoveFacts { played, mover: pos.turn(), best, before, after, setting: wdl::Setting::of(chess) };
    let (loss, centipawn_loss, mark) = judge_move(&facts);
    MoveReview {
        played,
        numbered: numbered_move(chess, played),
        mover: pos.turn(),
        best_san: best.map(|m| SanPlus::from_move(chess.clone(), m).to_string()),
        best_line,
        before,
        after,
        loss,
        centipawn_loss,
        mark,
    }
}
