//! Perft: counts the leaf nodes of the legal move tree, proving move generation and make/unmake.
//!
//! Runs through Patina's own `Position` (undo stack and incremental hashing included), so it
//! exercises exactly what the search uses. The last ply is bulk-counted: the number of legal
//! moves is the number of leaves.

use crate::position::Position;
use shakmaty::Move;

/// Leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        pos.make(m);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// Per-root-move counts (the `go perft` / `divide` listing), in move generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            pos.make(m);
            let nodes = perft(pos, depth - 1);
            pos.unmake();
            (m, nodes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_small_depths() {
        let mut pos = Position::default();
        let counts: Vec<u64> = (0..=4).map(|d| perft(&mut pos, d)).collect();
        assert_eq!(counts, vec![1, 20, 400, 8902, 197_281]);
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut pos = Position::default();
        let total: u64 = divide(&mut pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 8902);
    }
}
