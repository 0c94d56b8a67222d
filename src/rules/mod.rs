//! Game results under the FIDE Laws of Chess.
//!
//! `judge` decides whether the game in a `Position` (with its move history) is over, and if
//! not, which draws a player could claim. Order of precedence follows the Laws: checkmate and
//! stalemate end the game on the move that produced them (so a mate on the seventy-fifth move
//! still wins), then dead positions, then fivefold repetition and the seventy-five-move rule.
//! Threefold repetition and the fifty-move rule are only claimable while play goes on.
//! Dead positions are shakmaty's insufficient material plus what `dead` proves by exploring
//! every reachable position (locked pawn walls and the like).

pub mod dead;

use crate::position::Position;
use shakmaty::{Color, Position as _};
use std::fmt;

/// Why a game ended, or `Ongoing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is in check with no legal move: it has lost.
    Checkmate,
    /// The side to move has no legal move and is not in check: a draw.
    Stalemate,
    /// The current position has occurred for the fifth time: an automatic draw.
    FivefoldRepetition,
    /// 75 moves (150 plies) by each side without a capture or pawn move: an automatic draw.
    SeventyFiveMoveRule,
    /// Neither side has the material to mate (shakmaty's rule): a draw.
    InsufficientMaterial,
    /// No sequence of legal moves can reach checkmate (proven by `dead`): a draw.
    DeadPosition,
    /// The game goes on; draws may still be claimable (`Verdict::claims`).
    Ongoing,
}

/// A draw a player may claim in an ongoing game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The current position has occurred at least three times.
    ThreefoldRepetition,
    /// At least 50 moves (100 plies) by each side without a capture or pawn move.
    FiftyMoveRule,
}

/// The score of a game: `1-0`, `0-1`, `1/2-1/2` or `*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: the game is not over.
    Unfinished,
}

/// The full verdict on a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The result: decided once the game is over, `Unfinished` while it goes on.
    pub score: Score,
    /// Why the game ended, or `Ongoing`.
    pub reason: Reason,
    /// Draws the player to move could claim now; empty once the game is over.
    pub claims: Vec<Claim>,
}

impl Verdict {
    /// True when the game is over (no more moves may be played).
    pub fn is_over(&self) -> bool {
        self.reason != Reason::Ongoing
    }
}

/// Plies without capture or pawn move after which a draw may be claimed (the fifty-move rule).
pub const FIFTY_MOVE_PLIES: u32 = 100;
/// Plies without capture or pawn move after which the game is drawn (the seventy-five-move rule).
pub const SEVENTY_FIVE_MOVE_PLIES: u32 = 150;

/// Judges the current position of a game.
pub fn judge(pos: &Position) -> Verdict {
    let board = pos.chess();
    let has_moves = !board.legal_moves().is_empty();
    let ended = |score, reason| Verdict { score, reason, claims: Vec::new() };
    if !has_moves {
        return if board.is_check() {
            let score = match board.turn() {
                Color::White => Score::BlackWins,
                Color::Black => Score::WhiteWins,
            };
            ended(score, Reason::Checkmate)
        } else {
            ended(Score::Draw, Reason::Stalemate)
        };
    }
    if board.is_insufficient_material() {
        return ended(Score::Draw, Reason::InsufficientMaterial);
    }
    if dead::is_dead(board) {
        return ended(Score::Draw, Reason::DeadPosition);
    }
    // The current position plus four earlier occurrences make five.
    if pos.repetitions() >= 4 {
        return ended(Score::Draw, Reason::FivefoldRepetition);
    }
    if board.halfmoves() >= SEVENTY_FIVE_MOVE_PLIES {
        return ended(Score::Draw, Reason::SeventyFiveMoveRule);
    }
    let mut claims = Vec::new();
    if pos.repetitions() >= 2 {
        claims.push(Claim::ThreefoldRepetition);
    }
    if board.halfmoves() >= FIFTY_MOVE_PLIES {
        claims.push(Claim::FiftyMoveRule);
    }
    Verdict { score: Score::Unfinished, reason: Reason::Ongoing, claims }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Score::WhiteWins => "1-0",
            Score::BlackWins => "0-1",
            Score::Draw => "1/2-1/2",
            Score::Unfinished => "*",
        })
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::FivefoldRepetition => "fivefold-repetition",
            Reason::SeventyFiveMoveRule => "seventy-five-move-rule",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::DeadPosition => "dead-position",
            Reason::Ongoing => "ongoing",
        })
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::ThreefoldRepetition => "threefold-repetition",
            Claim::FiftyMoveRule => "fifty-move-rule",
        })
    }
}

/// `<score> <reason>[ claimable <claim>...]`, the text after `info string result`.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.score, self.reason)?;
        if !self.claims.is_empty() {
            f.write_str(" claimable")?;
            for claim in &self.claims {
                write!(f, " {claim}")?;
            }
        }
        Ok(())
    }
}
