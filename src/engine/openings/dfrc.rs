//! Double Fischer Random (DFRC) start positions: each side's back rank drawn on its own from
//! the 960 Chess960 arrangements (bishops on opposite colours, the king between the rooks),
//! pawns in front, both sides free to castle both ways. Self-play from such starts reaches
//! structures the standard start rarely gives, which is what datagen's `--dfrc` share is for.

use crate::position::Position;
use crate::rng::Rng;
use shakmaty::Role;

/// One side's back rank, files a to h, drawn uniformly from the 960 arrangements.
pub fn back_rank(rng: &mut Rng) -> [Role; 8] {
    let mut rank: [Option<Role>; 8] = [None; 8];
    // A bishop on a light square (files b, d, f, h of the first rank) and one on a dark one.
    rank[2 * rng.below(4) + 1] = Some(Role::Bishop);
    rank[2 * rng.below(4)] = Some(Role::Bishop);
    let mut place_on_free = |role: Role, choice: usize| {
        let file = (0..8).filter(|&file| rank[file].is_none()).nth(choice).expect("a free file");
        rank[file] = Some(role);
    };
    place_on_free(Role::Queen, rng.below(6));
    place_on_free(Role::Knight, rng.below(5));
    place_on_free(Role::Knight, rng.below(4));
    // The three files left take rook, king, rook in that order.
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_on_free(role, 0);
    }
    rank.map(|role| role.expect("every file filled"))
}

/// A DFRC start position (in Chess960 castling mode), White to move.
pub fn start_position(rng: &mut Rng) -> Position {
    let (white, black) = (back_rank(rng), back_rank(rng));
    let letters = |rank: &[Role; 8]| -> String { rank.iter().map(|role| role.char()).collect() };
    // Castling rights by the rooks' files (Shredder-FEN): kingside rook first, as `HAha`.
    let rook_files = |rank: &[Role; 8]| -> String {
        let mut files: Vec<char> = (0..8u8)
            .filter(|&file| rank[file as usize] == Role::Rook)
            .map(|file| (b'a' + file) as char)
            .collect();
        files.reverse();
        files.into_iter().collect()
    };
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
        letters(&black),
        letters(&white).to_uppercase(),
        rook_files(&white).to_uppercase(),
        rook_files(&black)
    );
    Position::from_fen(&fen, true).expect("a DFRC start is a legal Chess960 position")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position as _;
    use std::collections::HashSet;

    #[test]
    fn back_ranks_are_chess960_arrangements_and_all_960_occur() {
        let mut rng = Rng::new(7);
        let mut seen = HashSet::new();
        for _ in 0..40_000 {
            let rank = back_rank(&mut rng);
            let files = |role: Role| (0..8).filter(|&file| rank[file] == role).collect::<Vec<_>>();
            let (bishops, rooks, king) = (files(Role::Bishop), files(Role::Rook), files(Role::King));
            assert_eq!((files(Role::Queen).len(), files(Role::Knight).len()), (1, 2), "{rank:?}");
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "bishops on opposite colours: {rank:?}");
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "king between the rooks: {rank:?}");
            seen.insert(rank);
        }
        assert_eq!(seen.len(), 960);
    }

    #[test]
    fn start_positions_can_castle_both_ways_and_differ_per_side() {
        let mut rng = Rng::new(11);
        let mut asymmetric = 0;
        for _ in 0..200 {
            let pos = start_position(&mut rng);
            assert_eq!(pos.chess().castles().castling_rights().count(), 4, "{}", pos.fen());
            assert!(!pos.legal_moves().is_empty());
            let fen = pos.fen();
            let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
            asymmetric += usize::from(ranks[0].to_uppercase() != ranks[7]);
        }
        assert!(asymmetric > 190, "each side draws its own rank: {asymmetric} of 200 differ");
    }
}
