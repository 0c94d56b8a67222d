//! The search through the library API, one thread at a fixed depth: it still answers legally from
//! the start position at every depth, and still finds known mates and tactics. A guard for the
//! selective parts of the recipe (extensions, reductions, pruning), which can lose a tactic or
//! blow up a line without changing any other test.
//!
//! Run with `cargo test --release --test search`.

use patina::position::Position;
use patina::search::{self, Score, SearchControl, SearchLimits, SearchOutcome};
use patina::tt::TranspositionTable;

/// Searches `fen` to `depth` on one thread with a fresh table and fresh history.
fn search_to_depth(fen: &str, depth: i32) -> (Position, SearchOutcome) {
    let pos = Position::from_fen(fen, false).expect("a valid test FEN");
    let tt = TranspositionTable::new(16).expect("a 16 MiB table");
    let limits = SearchLimits { depth: Some(depth), multipv: 1, threads: 1, ..SearchLimits::default() };
    let control = SearchControl::new(false);
    let outcome = search::run(&pos, &limits, &tt, &control, &|_| {});
    (pos, outcome)
}

#[test]
fn every_depth_from_the_start_position_answers_a_legal_move() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for depth in 1..=12 {
        let (pos, outcome) = search_to_depth(start, depth);
        assert!(pos.legal_moves().contains(&outcome.best), "depth {depth}: {:?}", outcome.best);
        assert_eq!(outcome.depth, depth);
        match outcome.score {
            Score::Centipawns(cp) => assert!(cp.abs() < 150, "depth {depth}: {cp} cp at the start"),
            Score::Mate(n) => panic!("depth {depth}: mate {n} at the start"),
        }
    }
}

/// Mates every search of depth 10 must find, with the first move and the distance in moves.
const MATES: &[(&str, &str, i32)] = &[
    // Ra6! bxa6 b7#.
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6", 2),
    // Win at Chess 1: Qg6! and Qxh6# or Qxg7#.
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "g3g6", 2),
    // Win at Chess 5: Qc4+ and mate next move.
    ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", "c6c4", 2),
    // The white king stranded on d4: Bc5+ and mate follows.
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", "f8c5", 3),
];

#[test]
fn known_mates_are_found_with_their_distance() {
    for &(fen, first_move, moves) in MATES {
        let (pos, outcome) = search_to_depth(fen, 10);
        assert_eq!(pos.uci(outcome.best), first_move, "{fen}");
        assert_eq!(outcome.score, Score::Mate(moves), "{fen}");
    }
}

#[test]
fn a_quiet_winning_move_is_found() {
    // Win at Chess 3: Rg3, against the queen pinned on the g-file, wins material.
    let (pos, outcome) = search_to_depth("5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1", 10);
    assert_eq!(pos.uci(outcome.best), "e3g3");
    assert!(matches!(outcome.score, Score::Centipawns(cp) if cp > 150), "{:?}", outcome.score);
}
