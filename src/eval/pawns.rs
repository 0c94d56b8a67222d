//! Pawn structure: doubled, isolated, backward and connected pawns, and passed pawns.
//!
//! What depends on pawns alone is cached per thread in a small pawn hash table keyed by the two
//! pawn bitboards, since the pawn skeleton changes far less often than the rest of the board.
//! Passed-pawn terms that depend on kings and pieces (king distance, free path) are computed
//! every time from the cached set of passed pawns. The tracer (`trace.rs`) bypasses the cache
//! through `recount`, which runs the same code with counts in place of weights.

use super::params::*;
use super::sink::{Score, Sink, Tally, TermId};
use super::Tapered;
use shakmaty::{Bitboard, Board, Color, Square};
use std::cell::RefCell;

/// Pawn-only evaluation of one position, both sides.
#[derive(Debug, Clone, Copy, Default)]
pub struct PawnInfo {
    pub structure: [Tapered; 2],
    pub passed: [Bitboard; 2],
}

const CACHE_ENTRIES: usize = 1 << 14;

#[derive(Clone, Copy, Default)]
struct CacheEntry {
    white_pawns: u64,
    black_pawns: u64,
    info: PawnInfo,
    used: bool,
}

thread_local! {
    static PAWN_CACHE: RefCell<Vec<CacheEntry>> = RefCell::new(vec![CacheEntry::default(); CACHE_ENTRIES]);
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

fn file_mask(file: u32) -> u64 {
    FILE_A << file
}

fn adjacent_files(file: u32) -> u64 {
    let mut mask = 0;
    if file > 0 {
        mask |= file_mask(file - 1);
    }
    if file < 7 {
        mask |= file_mask(file + 1);
    }
    mask
}

/// Squares strictly in front of `square` (toward promotion) on every rank.
pub fn forward_ranks(color: Color, square: Square) -> u64 {
    let rank = square.rank() as u32;
    match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    }
}

/// The rank as seen by `color` (0 = own back rank).
pub fn relative_rank(color: Color, square: Square) -> u32 {
    match color {
        Color::White => square.rank() as u32,
        Color::Black => 7 - square.rank() as u32,
    }
}

fn pawn_attack_span(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns << 7) & !file_mask(7)) | ((pawns << 9) & !file_mask(0)),
        Color::Black => ((pawns >> 9) & !file_mask(7)) | ((pawns >> 7) & !file_mask(0)),
    }
}

/// Adds `color`'s pawn-only terms to `tally` and returns its passed pawns.
fn evaluate_side(color: Color, ours: u64, theirs: u64, tally: &mut impl Tally) -> u64 {
    let mut passed = 0u64;
    let our_attacks = pawn_attack_span(color, ours);
    let their_attacks = pawn_attack_span(!color, theirs);
    for square in Bitboard(ours) {
        let file = square.file() as u32;
        let rank = relative_rank(color, square);
        let ahead = forward_ranks(color, square);
        let bit = 1u64 << square as u32;
        if ours & file_mask(file) & ahead != 0 {
            tally.add(DOUBLED_PAWN, 1);
        }
        let neighbours = ours & adjacent_files(file);
        if neighbours == 0 {
            tally.add(ISOLATED_PAWN, 1);
        }
        let supported = our_attacks & bit != 0;
        let phalanx = neighbours & (0xffu64 << (8 * square.rank() as u32)) != 0;
        if supported || phalanx {
            tally.add(CONNECTED_PAWN + rank as usize, 1);
        } else if neighbours != 0 {
            // Backward: every neighbour is ahead of us and our stop square is hit by a pawn.
            let stop = match color {
                Color::White => bit << 8,
                Color::Black => bit >> 8,
            };
            let behind_or_level = !ahead;
            if neighbours & behind_or_level == 0 && their_attacks & stop != 0 {
                tally.add(BACKWARD_PAWN, 1);
            }
        }
        let blockers = theirs & ahead & (file_mask(file) | adjacent_files(file));
        if blockers == 0 && ours & file_mask(file) & ahead == 0 {
            passed |= bit;
            tally.add(PASSED_PAWN + rank as usize, 1);
        }
    }
    passed
}

fn compute(white_pawns: u64, black_pawns: u64) -> PawnInfo {
    let (mut white, mut black) = (Score::default(), Score::default());
    let white_passed = evaluate_side(Color::White, white_pawns, black_pawns, &mut white);
    let black_passed = evaluate_side(Color::Black, black_pawns, white_pawns, &mut black);
    PawnInfo { structure: [white.0, black.0], passed: [Bitboard(white_passed), Bitboard(black_passed)] }
}

/// The pawn-only terms of both sides into `sink` without the cache; returns the passed pawns.
pub fn recount(board: &Board, sink: &mut impl Sink) -> [Bitboard; 2] {
    let white_pawns = (board.pawns() & board.white()).0;
    let black_pawns = (board.pawns() & board.black()).0;
    sink.begin(TermId::Pawns, Color::White);
    let white_passed = evaluate_side(Color::White, white_pawns, black_pawns, sink);
    sink.begin(TermId::Pawns, Color::Black);
    let black_passed = evaluate_side(Color::Black, black_pawns, white_pawns, sink);
    [Bitboard(white_passed), Bitboard(black_passed)]
}

/// The pawn-only terms for this board, from the thread's cache when possible.
pub fn pawn_info(board: &Board) -> PawnInfo {
    let white_pawns = (board.pawns() & board.white()).0;
    let black_pawns = (board.pawns() & board.black()).0;
    let key =
        white_pawns.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black_pawns.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let index = (key >> 50) as usize & (CACHE_ENTRIES - 1);
    PAWN_CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let entry = &mut cache[index];
        if entry.used && entry.white_pawns == white_pawns && entry.black_pawns == black_pawns {
            return entry.info;
        }
        let info = compute(white_pawns, black_pawns);
        *entry = CacheEntry { white_pawns, black_pawns, info, used: true };
        info
    })
}

/// Passed-pawn terms that depend on the rest of the board: free path and king proximity.
pub fn passed_pawn_extras(board: &Board, color: Color, passed: Bitboard, tally: &mut impl Tally) {
    let (Some(our_king), Some(their_king)) = (board.king_of(color), board.king_of(!color)) else {
        return;
    };
    for square in passed {
        let rank = relative_rank(color, square);
        let path = forward_ranks(color, square) & file_mask(square.file() as u32);
        if path & board.occupied().0 == 0 {
            tally.add(PASSED_FREE_PATH + rank as usize, 1);
        }
        let stop = match color {
            Color::White => square.offset(8),
            Color::Black => square.offset(-8),
        };
        if let Some(stop) = stop {
            let advantage = their_king.distance(stop) as i32 - our_king.distance(stop) as i32;
            tally.add(PASSED_KING_DISTANCE, advantage * rank as i32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(squares: &[Square]) -> u64 {
        squares.iter().fold(0, |acc, &sq| acc | 1u64 << sq as u32)
    }

    #[test]
    fn finds_passed_pawns_for_both_sides() {
        // White a5 passed; black h4 passed; e-pawns block each other.
        let white = bb(&[Square::A5, Square::E4]);
        let black = bb(&[Square::H4, Square::E5]);
        let info = compute(white, black);
        assert_eq!(info.passed[0], Bitboard(bb(&[Square::A5])));
        assert_eq!(info.passed[1], Bitboard(bb(&[Square::H4])));
    }

    #[test]
    fn doubled_and_isolated_pawns_are_penalised() {
        let healthy = compute(bb(&[Square::E2, Square::F2]), 0).structure[0];
        let doubled_isolated = compute(bb(&[Square::E2, Square::E3]), 0).structure[0];
        assert!(doubled_isolated.eg < healthy.eg);
    }

    #[test]
    fn forward_ranks_point_to_promotion() {
        assert_eq!(forward_ranks(Color::White, Square::E7), 0xff00_0000_0000_0000);
        assert_eq!(forward_ranks(Color::Black, Square::E2), 0xff);
        assert_eq!(forward_ranks(Color::White, Square::E8), 0);
    }
}
