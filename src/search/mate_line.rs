//! Mate lines that reach the mate. A mate score often comes from a table entry deeper in the
//! tree (a transposition, or a child settled by a bound), so the principal variation the search
//! collected stops short of the mate it announces: `score mate 6 ... pv g6b6 h7g7`. GUIs and
//! testers (fastchess's `-check-mate-pvs`) read such a line as wrong. `complete` walks on from
//! the line's last position through the table's best moves until the mate is on the board.
//!
//! The walk stops where the game would already be over by rule: at a position seen before (on
//! the line or in the game), since the table's moves can cycle and a line through a repetition
//! is not the mate it claims (fastchess: "PV continues after threefold repetition"), and once
//! the fifty-move counter has run out ("PV continues after fifty-move rule").
//!
//! Only the reported line changes: the search's tree, scores and moves do not.

use super::params::{MATE, MATE_BOUND};
use crate::position::full_key;
use crate::rules::FIFTY_MOVE_PLIES;
use crate::tt::{decode_move_in, TranspositionTable};
use shakmaty::{Chess, Move, Position as _};

/// Plies from the root to the mate a root `score` announces; `None` for any other score.
pub fn plies_to_mate(score: i32) -> Option<usize> {
    (score.abs() >= MATE_BOUND && score.abs() <= MATE).then(|| (MATE - score.abs()) as usize)
}

/// Extends `pv` (a line from `root` scored `score` for the side to move at the root) with the
/// table's moves until it is as long as the mate it announces, the table has no legal move to
/// offer, or the next position would repeat one of `earlier` (the game's keys before `root`),
/// `root` or the line's own. Leaves `pv` alone unless `score` is a mate score; never shortens it.
pub fn complete(root: &Chess, earlier: &[u64], pv: &mut Vec<Move>, score: i32, tt: &TranspositionTable) {
    let Some(plies) = plies_to_mate(score) else { return };
    if pv.len() >= plies {
        return;
    }
    let mut seen = earlier.to_vec();
    let mut pos = root.clone();
    seen.push(full_key(&pos));
    for &mv in pv.iter() {
        if !pos.is_legal(mv) {
            return;
        }
        pos.play_unchecked(mv);
        seen.push(full_key(&pos));
    }
    while pv.len() < plies && pos.halfmoves() < FIFTY_MOVE_PLIES {
        let Some(hit) = tt.probe(full_key(&pos)) else { return };
        let Some(mv) = decode_move_in(hit.packed_move, &pos).filter(|&mv| pos.is_legal(mv)) else {
            return;
        };
        let mut next = pos.clone();
        next.play_unchecked(mv);
        let key = full_key(&next);
        if seen.contains(&key) {
            return;
        }
        seen.push(key);
        pv.push(mv);
        pos = next;
        if pos.is_checkmate() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::{encode_move, Bound};
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        text.parse::<UciMove>().unwrap().to_move(pos).unwrap()
    }

    /// Stores `text` as the best move of `pos` and returns the position after it.
    fn store(tt: &TranspositionTable, pos: &Chess, text: &str) -> Chess {
        let mv = uci(pos, text);
        tt.store(full_key(pos), encode_move(mv), 0, 0, 5, Bound::Exact);
        let mut next = pos.clone();
        next.play_unchecked(mv);
        next
    }

    #[test]
    fn mate_scores_give_the_plies_to_the_mate() {
        assert_eq!(plies_to_mate(MATE - 3), Some(3));
        assert_eq!(plies_to_mate(-(MATE - 4)), Some(4));
        assert_eq!(plies_to_mate(250), None);
        assert_eq!(plies_to_mate(-250), None);
    }

    #[test]
    fn a_short_mate_line_is_completed_from_the_table() {
        // Mate in two: 1. Ra7 (quiet) Kg8 2. Rb8#.
        let root = chess("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
        let tt = TranspositionTable::new(1).unwrap();
        let after_first = {
            let mut pos = root.clone();
            pos.play_unchecked(uci(&root, "a2a7"));
            pos
        };
        let after_reply = store(&tt, &after_first, "h8g8");
        store(&tt, &after_reply, "b1b8");
        let mut pv = vec![uci(&root, "a2a7")];
        complete(&root, &[], &mut pv, MATE - 3, &tt);
        let line: Vec<String> = pv.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
        assert_eq!(line, ["a2a7", "h8g8", "b1b8"]);
    }

    #[test]
    fn a_line_without_table_moves_or_a_mate_score_is_left_alone() {
        let root = chess("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
        let tt = TranspositionTable::new(1).unwrap();
        let mut pv = vec![uci(&root, "a2a7")];
        complete(&root, &[], &mut pv, MATE - 3, &tt);
        assert_eq!(pv.len(), 1, "nothing in the table: the line stays as searched");
        let after_first = {
            let mut pos = root.clone();
            pos.play_unchecked(pv[0]);
            pos
        };
        store(&tt, &after_first, "h8g8");
        complete(&root, &[], &mut pv, 120, &tt);
        assert_eq!(pv.len(), 1, "not a mate score");
    }

    /// Plays `moves` (UCI, space-separated) from `pos`.
    fn after(pos: &Chess, moves: &str) -> Chess {
        let mut pos = pos.clone();
        for text in moves.split_whitespace() {
            let mv = uci(&pos, text);
            pos.play_unchecked(mv);
        }
        pos
    }

    fn uci_line(pv: &[Move]) -> Vec<String> {
        pv.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect()
    }

    #[test]
    fn the_walk_stops_before_the_table_moves_repeat_a_position() {
        let root = chess("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1");
        let tt = TranspositionTable::new(1).unwrap();
        // The table cycles: Kh1 Kg8 Kg1 Kh8 is back at the root.
        store(&tt, &after(&root, "g1h1"), "h8g8");
        store(&tt, &after(&root, "g1h1 h8g8"), "h1g1");
        store(&tt, &after(&root, "g1h1 h8g8 h1g1"), "g8h8");
        store(&tt, &root, "g1h1");
        let mut pv = vec![uci(&root, "g1h1")];
        complete(&root, &[], &mut pv, MATE - 9, &tt);
        assert_eq!(uci_line(&pv), ["g1h1", "h8g8", "h1g1"], "g8h8 would repeat the root");

        // A position of the game before the root counts too.
        let mut pv = vec![uci(&root, "g1h1")];
        let earlier = [full_key(&after(&root, "g1h1 h8g8 h1g1"))];
        complete(&root, &earlier, &mut pv, MATE - 9, &tt);
        assert_eq!(uci_line(&pv), ["g1h1", "h8g8"], "h1g1 would repeat a game position");
    }

    #[test]
    fn the_walk_stops_when_the_fifty_move_counter_runs_out() {
        let root = chess("7k/8/8/8/8/8/R7/1R4K1 w - - 99 80");
        let tt = TranspositionTable::new(1).unwrap();
        let after_first = store(&tt, &after(&root, "a2a7"), "h8g8");
        store(&tt, &after_first, "b1b8");
        let mut pv = vec![uci(&root, "a2a7")];
        complete(&root, &[], &mut pv, MATE - 3, &tt);
        assert_eq!(uci_line(&pv), ["a2a7"], "the 100th quiet ply ends the game by rule");
    }
}
