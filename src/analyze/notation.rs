//! Chess notation for people: SAN lines with move numbers, scores in pawns from White's point
//! of view, Lichess's `[%eval ...]` comment and win/draw/loss percentages.
//!
//! Pure functions over shakmaty positions and search scores; the position report, the summary,
//! the annotated PGN and the graph all format through here, so they read alike.

use super::review::Eval;
use crate::search::params::TB_WIN_BOUND;
use crate::search::Score;
use crate::wdl::Wdl;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position as _};

/// The move number and SAN of `m` played in `pos`: `12. Nf3` or `12... Nc6`.
pub fn numbered_move(pos: &Chess, m: Move) -> String {
    format!("{}{}", move_number(pos), SanPlus::from_move(pos.clone(), m))
}

/// `12. ` before White's move, `12... ` before Black's.
pub fn move_number(pos: &Chess) -> String {
    match pos.turn() {
        Color::White => format!("{}. ", pos.fullmoves()),
        Color::Black => format!("{}... ", pos.fullmoves()),
    }
}

/// A line in SAN with move numbers from `pos`: `12. Nf3 Nc6 13. Bb5` or `12... Nc6 13. Bb5`.
/// The moves must be legal one after another (a principal variation is).
pub fn san_line(pos: &Chess, moves: &[Move]) -> String {
    let mut board = pos.clone();
    let mut text = String::new();
    for (index, &m) in moves.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        if index == 0 || board.turn() == Color::White {
            text.push_str(&move_number(&board));
        }
        text.push_str(&SanPlus::from_move_and_play_unchecked(&mut board, m).to_string());
    }
    text
}

/// The value of a position from White's point of view: `+0.31`, `-1.20`, `0.00`, `#3` (White
/// mates in 3), `-#2` (Black mates in 2); a checkmate on the board is `#0` or `-#0`; a win the
/// Syzygy tables prove (the search's `TB_WIN` less a distance) is `+TB` or `-TB`.
pub fn pawns(eval: Eval) -> String {
    match eval.for_white() {
        WhiteValue::Centipawns(0) => "0.00".to_string(),
        WhiteValue::Centipawns(cp) if cp >= TB_WIN_BOUND => "+TB".to_string(),
        WhiteValue::Centipawns(cp) if cp <= -TB_WIN_BOUND => "-TB".to_string(),
        WhiteValue::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        WhiteValue::Mate { moves, winner: Color::White } => format!("#{moves}"),
        WhiteValue::Mate { moves, winner: Color::Black } => format!("-#{moves}"),
    }
}

/// Lichess's evaluation comment: `[%eval 0.31]`, `[%eval -1.20]` in pawns from White's view,
/// `[%eval #3]` / `[%eval #-2]` for mates. A mate on the board is `#0` when White gave it and
/// `#-0` when Black did, so the sign still says who won.
pub fn eval_tag(eval: Eval) -> String {
    match eval.for_white() {
        WhiteValue::Centipawns(cp) => format!("[%eval {:.2}]", f64::from(cp) / 100.0),
        WhiteValue::Mate { moves, winner: Color::White } => format!("[%eval #{moves}]"),
        WhiteValue::Mate { moves, winner: Color::Black } => format!("[%eval #-{moves}]"),
    }
}

/// A value from White's point of view with the winner of a mate kept apart from its distance,
/// so that a mate already on the board (distance 0) still has a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhiteValue {
    /// Centipawns from White's point of view.
    Centipawns(i32),
    /// A forced mate.
    Mate {
        /// Moves to the mate, never negative (0: mate on the board).
        moves: i32,
        /// The side that mates.
        winner: Color,
    },
}

impl Eval {
    /// This value from White's point of view.
    pub fn for_white(self) -> WhiteValue {
        match self.score {
            Score::Centipawns(cp) => WhiteValue::Centipawns(self.turn.fold_wb(cp, -cp)),
            Score::Mate(moves) if moves > 0 => WhiteValue::Mate { moves, winner: self.turn },
            Score::Mate(moves) => WhiteValue::Mate { moves: -moves, winner: !self.turn },
        }
    }
}

/// `W 54.1% D 21.2% L 24.7%`.
pub fn wdl_percent(wdl: Wdl) -> String {
    let percent = |per_mille: u32| f64::from(per_mille) / 10.0;
    format!("W {:.1}% D {:.1}% L {:.1}%", percent(wdl.win), percent(wdl.draw), percent(wdl.loss))
}

/// A count and its noun: `1 mistake`, `2 mistakes`, `0 games`.
pub fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// A count for people: `950`, `12.3k`, `4.56M`.
pub fn human_count(count: u64) -> String {
    let value = count as f64;
    if count < 10_000 {
        count.to_string()
    } else if count < 1_000_000 {
        format!("{:.1}k", value / 1e3)
    } else if count < 1_000_000_000 {
        format!("{:.2}M", value / 1e6)
    } else {
        format!("{:.2}G", value / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn moves(pos: &Position, uci: &[&str]) -> Vec<Move> {
        let mut board = pos.clone();
        uci.iter()
            .map(|token| {
                let m = board.parse_uci_move(token).unwrap();
                board.play_game_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn lines_carry_move_numbers_for_either_side_to_move() {
        let start = Position::default();
        let line = moves(&start, &["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(san_line(start.chess(), &line), "1. e4 e5 2. Nf3 Nc6");
        let after_e4 = start.play_uci_moves(["e2e4"]).unwrap();
        let line = moves(&after_e4, &["e7e5", "g1f3", "f8c5"]);
        assert_eq!(san_line(after_e4.chess(), &line), "1... e5 2. Nf3 Bc5");
        assert_eq!(numbered_move(after_e4.chess(), line[0]), "1... e5");
        let mate = moves(&Position::default(), &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(san_line(start.chess(), &mate), "1. f3 e5 2. g4 Qh4#");
    }

    #[test]
    fn scores_read_from_whites_side() {
        let white = |score| Eval { score, turn: Color::White };
        let black = |score| Eval { score, turn: Color::Black };
        assert_eq!(pawns(white(Score::Centipawns(31))), "+0.31");
        assert_eq!(pawns(black(Score::Centipawns(31))), "-0.31");
        assert_eq!(pawns(black(Score::Centipawns(0))), "0.00");
        assert_eq!(pawns(white(Score::Mate(3))), "#3");
        assert_eq!(pawns(white(Score::Mate(-2))), "-#2");
        assert_eq!(pawns(black(Score::Mate(-2))), "#2");
        assert_eq!(pawns(white(Score::Centipawns(24_971))), "+TB");
        assert_eq!(pawns(black(Score::Centipawns(24_990))), "-TB");
        assert_eq!(pawns(black(Score::Centipawns(-24_990))), "+TB");
        assert_eq!(eval_tag(white(Score::Centipawns(31))), "[%eval 0.31]");
        assert_eq!(eval_tag(black(Score::Centipawns(120))), "[%eval -1.20]");
        assert_eq!(eval_tag(black(Score::Mate(2))), "[%eval #-2]");
        assert_eq!(eval_tag(black(Score::Mate(-3))), "[%eval #3]");
        // Checkmate on the board: the side to move is mated.
        assert_eq!(eval_tag(black(Score::Mate(0))), "[%eval #0]");
        assert_eq!(eval_tag(white(Score::Mate(0))), "[%eval #-0]");
    }

    #[test]
    fn counts_and_percentages_read_easily() {
        assert_eq!(human_count(950), "950");
        assert_eq!(human_count(12_345), "12.3k");
        assert_eq!(human_count(4_560_000), "4.56M");
        assert_eq!(wdl_percent(Wdl { win: 541, draw: 212, loss: 247 }), "W 54.1% D 21.2% L 24.7%");
    }
}
