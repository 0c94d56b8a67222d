//! What the engine says of a position without searching it: the `eval` command's trace of the
//! net, the `result` command's verdict. The UCI layer calls these and formats their answers.

use super::{Engine, Position, Verdict};
use crate::nnue::{self, Network};
use crate::rules;
use crate::search::material_scaled;
use shakmaty::{Board, Color, Position as _, Role, Square};

/// What the net makes of a position, and of each piece on it.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// The position's board.
    pub board: Board,
    /// Per square (a1 = 0 .. h8 = 63): what the piece there is worth to the net, centipawns
    /// from White's point of view (the net's score with the piece minus without it, so a
    /// black piece usually reads negative); `None` on empty squares and kings.
    pub piece_values: [Option<i32>; 64],
    /// The net's score, centipawns from White's point of view.
    pub network_white_cp: i32,
    /// The static evaluation the search uses: the net's score scaled by the material left.
    pub search_white_cp: i32,
    /// The output bucket the net read the position with (by piece count).
    pub bucket: usize,
    /// The net's output buckets.
    pub buckets: usize,
    /// The hash of the network that scored it.
    pub net_hash: u64,
}

impl Engine {
    /// `pos` as the chosen net (`EvalFile`'s or the compiled-in one) sees it: its score, the
    /// search's static evaluation, and each piece's worth by taking it off the board (as
    /// Stockfish's `eval` trace does).
    pub fn evaluate(&self, pos: &Position) -> Evaluation {
        trace(&self.net, pos.chess().board(), pos.turn())
    }
}

/// The net's score of `board` with `turn` to move, from White's point of view.
fn white_score(net: &Network, board: &Board, turn: Color) -> i32 {
    let own = net.evaluate_board(board, turn);
    if turn == Color::White {
        own
    } else {
        -own
    }
}

/// `Engine::evaluate` for any net and board.
pub fn trace(net: &Network, board: &Board, turn: Color) -> Evaluation {
    let network_white_cp = white_score(net, board, turn);
    let mut piece_values = [None; 64];
    for square in board.occupied() {
        if board.role_at(square) == Some(Role::King) {
            continue;
        }
        let mut without = board.clone();
        without.discard_piece_at(square);
        piece_values[usize::from(square)] = Some(network_white_cp - white_score(net, &without, turn));
    }
    Evaluation {
        board: board.clone(),
        piece_values,
        network_white_cp,
        search_white_cp: material_scaled(network_white_cp, board),
        bucket: nnue::output_bucket(net.buckets(), board.occupied().count()),
        buckets: net.buckets(),
        net_hash: net.hash(),
    }
}

impl Evaluation {
    /// The value of the piece on `square`, if it is one that gets a value.
    pub fn piece_value(&self, square: Square) -> Option<i32> {
        self.piece_values[usize::from(square)]
    }
}

/// Whether the game on the board is over, and how (or what a player may claim).
pub fn game_result(pos: &Position) -> Verdict {
    rules::judge(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> (Board, Color) {
        let pos = Position::from_fen(fen, false).unwrap();
        (pos.chess().board().clone(), pos.turn())
    }

    #[test]
    fn pieces_are_worth_about_their_material_and_kings_get_no_value() {
        let net = nnue::default_network();
        let (b, turn) = board("4k3/8/8/8/8/8/8/R3K2Q w - - 0 1");
        let trace = trace(&net, &b, turn);
        let queen = trace.piece_value(Square::H1).unwrap();
        let rook = trace.piece_value(Square::A1).unwrap();
        assert!(queen > rook && rook > 200, "queen {queen}, rook {rook}");
        assert_eq!(trace.piece_value(Square::E1), None);
        assert_eq!(trace.piece_value(Square::E8), None);
        assert_eq!(trace.piece_value(Square::D4), None);
        assert!(trace.network_white_cp > 500);
    }

    #[test]
    fn the_trace_is_colour_symmetric() {
        let net = nnue::default_network();
        let (white, w_turn) = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let (black, b_turn) = board("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        let (a, b) = (trace(&net, &white, w_turn), trace(&net, &black, b_turn));
        assert_eq!(a.network_white_cp, -b.network_white_cp);
        assert_eq!(a.bucket, b.bucket);
        for square in Square::ALL {
            assert_eq!(a.piece_value(square), b.piece_value(square.flip_vertical()).map(|v| -v), "{square}");
        }
    }
}
