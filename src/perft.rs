//! Perft: counts the leaf nodes of the legal move tree, proving move generation and make/unmake.
//!
//! Runs through Patina's own `Position` (undo stack and incremental hashing included), so it
//! exercises exactly what the search uses. The last ply is bulk-counted: the number of legal
//! moves is the number of leaves.

use crate::position::Position;
use shakmaty::Move;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// `divide` that can be stopped (the UCI `go perft` job): hands each root move's count to
/// `on_move` as soon as it is known and returns whether every root move was counted. Once
/// `stop` is raised (checked at every interior node) it returns false; the root move under way
/// is left out rather than reported with a partial count.
pub fn divide_until(
    pos: &mut Position,
    depth: u32,
    stop: &AtomicBool,
    mut on_move: impl FnMut(Move, u64),
) -> bool {
    if depth == 0 {
        return true;
    }
    for m in pos.legal_moves() {
        pos.make(m);
        let nodes = perft_until(pos, depth - 1, stop);
        pos.unmake();
        match nodes {
            Some(nodes) => on_move(m, nodes),
            None => return false,
        }
    }
    true
}

/// `perft`, or `None` once `stop` is raised.
fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 1 {
        return Some(if depth == 0 { 1 } else { pos.legal_moves().len() as u64 });
    }
    // Relaxed: a stop seen one node late costs nothing.
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for m in pos.legal_moves() {
        pos.make(m);
        let below = perft_until(pos, depth - 1, stop);
        pos.unmake();
        nodes += below?;
    }
    Some(nodes)
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

    #[test]
    fn divide_until_counts_the_same_or_stops() {
        let mut pos = Position::default();
        let mut counted = Vec::new();
        assert!(divide_until(&mut pos, 3, &AtomicBool::new(false), |m, n| counted.push((m, n))));
        assert_eq!(counted, divide(&mut pos, 3));
        let mut reported = 0;
        assert!(!divide_until(&mut pos, 3, &AtomicBool::new(true), |_, _| reported += 1));
        assert_eq!(reported, 0, "a stopped count reports no partial move");
    }
}
