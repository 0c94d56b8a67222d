//! `Position`: shakmaty's `Chess` plus what a searching engine needs and shakmaty lacks.
//!
//! shakmaty is copy-make; Patina keeps an undo stack of earlier boards so the search can
//! `make`/`unmake`, a Zobrist key updated incrementally on every move and null move (shakmaty's
//! own update declines king moves, castling and en-passant positions), the keys of every
//! earlier position for repetition detection, and null moves. Keys use `EnPassantMode::Legal`,
//! so two positions repeat exactly when FIDE says they do (an en-passant square counts only
//! when the capture is legal).
//!
//! Invariant: `key` always equals `board.zobrist_hash(EnPassantMode::Legal)`, and `history`
//! holds the keys of all earlier positions in order (game moves, then search moves).

use crate::nnue::{AccumulatorStack, Network};
use shakmaty::attacks;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, FromSetup, Move, MoveList, Piece,
    Position as _, PositionErrorKinds, Role, Square,
};
use std::fmt;

/// The key of `after`, the position `m` made from `before` (whose key is `key`): the pieces
/// the move touched, the castling rights it changed, the turn, and the en-passant file on
/// either side (counted only where the capture is legal, as in `full_key`). Unlike shakmaty's
/// own update, this covers every move, so no move pays for a full recompute.
fn key_after(key: u64, before: &Chess, m: Move, after: &Chess) -> u64 {
    let us = before.turn();
    let piece = |square: Square, piece: Piece| Zobrist64::zobrist_for_piece(square, piece).0;
    let mut key = key ^ Zobrist64::zobrist_for_white_turn().0;
    match m {
        Move::Normal { role, from, capture, to, promotion } => {
            key ^= piece(from, role.of(us)) ^ piece(to, promotion.unwrap_or(role).of(us));
            if let Some(captured) = capture {
                key ^= piece(to, captured.of(!us));
            }
        }
        Move::EnPassant { from, to } => {
            let captured = Square::from_coords(to.file(), from.rank());
            key ^= piece(from, Piece { color: us, role: Role::Pawn })
                ^ piece(to, Piece { color: us, role: Role::Pawn })
                ^ piece(captured, Piece { color: !us, role: Role::Pawn });
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            key ^= piece(king, us.king())
                ^ piece(rook, us.rook())
                ^ piece(side.king_to(us), us.king())
                ^ piece(side.rook_to(us), us.rook());
        }
        Move::Put { .. } => unreachable!("drops are not chess moves"),
    }
    let (old_rights, new_rights) = (before.castles(), after.castles());
    if old_rights.castling_rights() != new_rights.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if old_rights.has(color, side) != new_rights.has(color, side) {
                    key ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    for position in [before, after] {
        if let Some(square) = position.ep_square(EnPassantMode::Legal) {
            key ^= Zobrist64::zobrist_for_en_passant_file(square.file()).0;
        }
    }
    key
}

/// Why a FEN or a move list was rejected; the message names the offending token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN did not parse, or describes an illegal or (without Chess960) unsupported setup.
    Fen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it, in words.
        reason: String,
    },
    /// A move of the list did not parse or is illegal where it was to be played.
    Move {
        /// The move as given, in UCI notation.
        token: String,
        /// Its place in the move list, counting from 1.
        ply: usize,
        /// `"unparsable"` or `"illegal"`.
        reason: &'static str,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen { fen, reason } => write!(f, "invalid fen '{fen}': {reason}"),
            PositionError::Move { token, ply, reason } => {
                write!(f, "{reason} move '{token}' at ply {ply} of the move list")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// A chess position with undo, hashing and repetition history.
#[derive(Clone)]
pub struct Position {
    board: Chess,
    key: u64,
    mode: CastlingMode,
    /// Keys of all earlier positions (oldest first).
    history: Vec<u64>,
    /// Boards to restore on `unmake`, parallel to the search part of `history`.
    undo: Vec<Chess>,
    /// The network's accumulators along `undo` and the current board, computed lazily.
    accumulators: AccumulatorStack,
    /// `history` lengths just after each null move on the search path: no position before a
    /// null move can repeat one after it (passing is not a move of the game).
    null_marks: Vec<usize>,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos(CastlingMode::Standard)
    }
}

/// A board's Zobrist key as `Position` keeps it (`EnPassantMode::Legal`).
pub fn full_key(board: &Chess) -> u64 {
    board.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Position {
    /// The standard starting position.
    pub fn startpos(mode: CastlingMode) -> Position {
        Position::from_chess(Chess::default(), mode)
    }

    /// Wraps an already-validated shakmaty position with empty history.
    pub fn from_chess(board: Chess, mode: CastlingMode) -> Position {
        let key = full_key(&board);
        Position {
            board,
            key,
            mode,
            history: Vec::new(),
            undo: Vec::new(),
            accumulators: AccumulatorStack::default(),
            null_marks: Vec::new(),
        }
    }

    /// Parses a FEN (standard, X-FEN or Shredder-FEN). With `chess960` off, castling rights
    /// must be standard ones.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, PositionError> {
        let fen_error = |reason: String| PositionError::Fen { fen: fen.to_string(), reason };
        let parsed: Fen = fen.trim().parse().map_err(|e| fen_error(format!("{e}")))?;
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let board = Chess::from_setup(parsed.into_setup(), mode)
            .map_err(|e| fen_error(describe_position_error(e.kinds(), chess960)))?;
        Ok(Position::from_chess(board, mode))
    }

    /// Parses `moves` (UCI notation) one after another from this position, all or nothing.
    pub fn play_uci_moves<'a>(
        &self,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Position, PositionError> {
        let mut next = self.clone();
        for (index, token) in moves.into_iter().enumerate() {
            let ply = index + 1;
            let m = next.parse_uci_move(token).map_err(|reason| PositionError::Move {
                token: token.to_string(),
                ply,
                reason,
            })?;
            next.play_game_move(m);
        }
        Ok(next)
    }

    /// Parses one UCI move and checks it is legal here. Castling is accepted as king-takes-rook
    /// (`e1h1`) in either mode, and as the king's two-square step (`e1g1`) when the king stands
    /// on e1/e8, since GUIs differ; output follows the mode (see `uci`).
    pub fn parse_uci_move(&self, token: &str) -> Result<Move, &'static str> {
        let uci: UciMove = token.parse().map_err(|_| "unparsable")?;
        uci.to_move(&self.board).map_err(|_| "illegal")
    }

    /// Plays a move as part of the game record: it becomes history that cannot be unmade.
    pub fn play_game_move(&mut self, m: Move) {
        self.make(m);
        self.undo.clear();
        self.accumulators.reset();
    }

    /// Plays a legal move, remembering how to undo it.
    pub fn make(&mut self, m: Move) {
        self.history.push(self.key);
        self.undo.push(self.board.clone());
        self.board.play_unchecked(m);
        self.accumulators.push();
        let before = self.undo.last().expect("just pushed");
        self.key = key_after(self.key, before, m, &self.board);
    }

    /// Takes back the last `make` or `make_null`.
    pub fn unmake(&mut self) {
        if let (Some(board), Some(key)) = (self.undo.pop(), self.history.pop()) {
            if self.null_marks.last() == Some(&(self.history.len() + 1)) {
                self.null_marks.pop();
            }
            self.board = board;
            self.key = key;
            self.accumulators.pop();
        }
    }

    /// Passes the turn (for null-move pruning). Returns false (and changes nothing) in check.
    pub fn make_null(&mut self) -> bool {
        if self.is_check() {
            return false;
        }
        let mut setup = self.board.to_setup(EnPassantMode::Always);
        setup.swap_turn();
        setup.halfmoves = setup.halfmoves.saturating_add(1);
        let Ok(next) = Chess::from_setup(setup, self.mode) else {
            return false;
        };
        let mut key = self.key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(square) = self.board.ep_square(EnPassantMode::Legal) {
            key ^= Zobrist64::zobrist_for_en_passant_file(square.file()).0;
        }
        self.history.push(self.key);
        self.null_marks.push(self.history.len());
        self.undo.push(std::mem::replace(&mut self.board, next));
        self.accumulators.push();
        self.key = key;
        true
    }

    /// The network's evaluation in centipawns for the side to move, updating the accumulators
    /// from the nearest position already evaluated.
    pub fn evaluate_network(&mut self, net: &Network) -> i32 {
        let (undo, board) = (&self.undo, &self.board);
        self.accumulators.evaluate(net, board.turn(), |index| undo.get(index).unwrap_or(board).board())
    }

    /// The current board, as shakmaty's position.
    pub fn chess(&self) -> &Chess {
        &self.board
    }
    /// Zobrist key of the current board (en passant counted only where legal).
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Standard or Chess960 castling, fixed when the position was set up; governs move notation.
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }
    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.turn()
    }
    /// True when the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.board.is_check()
    }
    /// The fifty-move counter: plies since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.board.halfmoves()
    }
    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        self.board.legal_moves()
    }
    /// Number of plies made since this position was set up for search (the undo depth).
    pub fn search_ply(&self) -> usize {
        self.undo.len()
    }

    /// Keys of the earlier positions that can still repeat the current one: those inside the
    /// fifty-move counter's window, oldest first.
    pub fn repeatable_keys(&self) -> &[u64] {
        let window = (self.board.halfmoves() as usize).min(self.history.len());
        &self.history[self.history.len() - window..]
    }

    /// How often the current position occurred before, looking back only as far as the
    /// fifty-move counter allows (earlier positions cannot repeat the current one).
    pub fn repetitions(&self) -> usize {
        let window = self.board.halfmoves() as usize;
        self.history.iter().rev().take(window).skip(1).step_by(2).filter(|&&key| key == self.key).count()
    }

    /// Whether some position since the last capture or pawn move (the current one included)
    /// has occurred twice: the game is going round in circles.
    pub fn has_repeated(&self) -> bool {
        let mut seen = std::collections::HashSet::with_capacity(self.repeatable_keys().len() + 1);
        self.repeatable_keys().iter().chain(std::iter::once(&self.key)).any(|key| !seen.insert(*key))
    }

    /// Draw by repetition inside the search: one earlier occurrence after the root, or two
    /// anywhere (the game record included).
    pub fn is_search_repetition(&self) -> bool {
        let since_null = self.null_marks.last().map_or(usize::MAX, |&mark| self.history.len() - mark);
        let window = (self.board.halfmoves() as usize).min(since_null);
        let searched = self.undo.len();
        let mut seen = 0;
        for (distance, &key) in self.history.iter().rev().enumerate().take(window).skip(1).step_by(2) {
            if key == self.key {
                if distance + 1 < searched {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the legal move `m` would give check, without playing it (normal moves are
    /// answered from attack tables; castling, en passant and drops by playing them on a copy).
    pub fn gives_check(&self, m: Move) -> bool {
        let board = self.board.board();
        let us = self.board.turn();
        let Some(king) = board.king_of(!us) else { return false };
        let Move::Normal { role, from, to, promotion, .. } = m else {
            let mut after = self.board.clone();
            after.play_unchecked(m);
            return after.is_check();
        };
        let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
        let moved = promotion.unwrap_or(role).of(us);
        if attacks::attacks(to, moved, occupied).contains(king) {
            return true;
        }
        // Discovered check: one of our sliders now sees the king through the vacated square.
        let ours = board.by_color(us) & !Bitboard::from(from);
        let diagonal = board.bishops_and_queens() & ours;
        let straight = board.rooks_and_queens() & ours;
        (attacks::bishop_attacks(king, occupied) & diagonal).any()
            || (attacks::rook_attacks(king, occupied) & straight).any()
    }

    /// FEN of the position; castling in Shredder style when playing Chess960.
    pub fn fen(&self) -> String {
        Fen::from_position(&self.board, EnPassantMode::Legal).to_string()
    }

    /// UCI text of a move under this position's castling convention.
    pub fn uci(&self, m: Move) -> String {
        m.to_uci(self.mode).to_string()
    }

    /// Whether `color` has a piece other than pawns and the king. Without one, zugzwang is common
    /// and null-move pruning is unsafe.
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        let board = self.board.board();
        let pieces = board.by_color(color) & !board.pawns() & !board.kings();
        pieces.any()
    }

    /// The hash key a null move would produce (used by tests and diagnostics).
    pub fn flip_turn_key(key: u64) -> u64 {
        key ^ Zobrist64::zobrist_for_white_turn().0
    }
}

/// Says in plain words what is wrong with a position shakmaty refused.
fn describe_position_error(kinds: PositionErrorKinds, chess960: bool) -> String {
    let castling_hint = if chess960 {
        "castling rights name no king/rook pair on the back rank"
    } else {
        "castling rights need the king on e1/e8 and rooks in the corners (Chess960 needs UCI_Chess960)"
    };
    let reasons = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a side has no king"),
        (PositionErrorKinds::TOO_MANY_KINGS, "a side has more than one king"),
        (PositionErrorKinds::PAWNS_ON_BACKRANK, "pawns on the first or eighth rank"),
        (PositionErrorKinds::INVALID_CASTLING_RIGHTS, castling_hint),
        (PositionErrorKinds::INVALID_EP_SQUARE, "the en-passant square does not follow a double pawn push"),
        (PositionErrorKinds::OPPOSITE_CHECK, "the side not to move is in check"),
        (PositionErrorKinds::IMPOSSIBLE_CHECK, "the check could not have arisen from a legal move"),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "more pieces than a game can have"),
    ];
    let found: Vec<&str> =
        reasons.iter().filter(|(kind, _)| kinds.contains(*kind)).map(|(_, text)| *text).collect();
    if found.is_empty() {
        "illegal position".to_string()
    } else {
        found.join("; ")
    }
}

#[cfg(test)]
mod tests;
