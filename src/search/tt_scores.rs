//! How the search reads and writes the shared table's scores: mate and tablebase scores are
//! stored relative to the node (so they stay right wherever the position recurs), and which
//! bounds settle a window.

use super::params::TB_WIN_BOUND;
use crate::tt::Bound;

/// Whether a stored `bound` on `score` settles the window `(alpha, beta)`.
pub fn bound_allows_cutoff(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// A search score made node-relative for the table.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A table score made root-relative again at `ply`.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::{MATE, TB_WIN};

    #[test]
    fn mate_and_tablebase_scores_are_stored_relative_to_the_node() {
        // Mate in 3 plies from a node 5 plies deep is mate in 8 from the root.
        assert_eq!(score_to_tt(MATE - 8, 5), MATE - 3);
        assert_eq!(score_from_tt(MATE - 3, 5), MATE - 8);
        assert_eq!(score_from_tt(score_to_tt(-MATE + 9, 4), 4), -MATE + 9);
        assert_eq!(score_from_tt(score_to_tt(TB_WIN - 20, 7), 2), TB_WIN - 15);
        // Ordinary scores are stored as they are.
        assert_eq!(score_to_tt(123, 9), 123);
        assert_eq!(score_from_tt(-45, 3), -45);
    }

    #[test]
    fn bounds_settle_only_the_side_they_bound() {
        assert!(bound_allows_cutoff(Bound::Lower, 50, 0, 50));
        assert!(!bound_allows_cutoff(Bound::Lower, 49, 0, 50));
        assert!(bound_allows_cutoff(Bound::Upper, 0, 0, 50));
        assert!(!bound_allows_cutoff(Bound::Upper, 1, 0, 50));
        assert!(bound_allows_cutoff(Bound::Exact, 25, 0, 50));
    }
}
