//! Tests of `position`.

use super::*;

fn walk(pos: &mut Position, depth: u32) {
    assert_eq!(pos.key(), full_key(pos.chess()), "incremental key drifted at {}", pos.fen());
    if depth == 0 {
        return;
    }
    if pos.make_null() {
        assert_eq!(pos.key(), full_key(pos.chess()), "null move key drifted at {}", pos.fen());
        pos.unmake();
    }
    for m in pos.legal_moves() {
        pos.make(m);
        walk(pos, depth - 1);
        pos.unmake();
    }
}

#[test]
fn incremental_hash_matches_full_recompute() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        let mut pos = Position::from_fen(fen, false).unwrap();
        walk(&mut pos, 3);
    }
    // Chess960: castling with king or rook already on (or passing) its target square.
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "1r2k2r/8/8/8/8/8/8/R2K3R w HAhb - 0 1",
    ] {
        let mut pos = Position::from_fen(fen, true).unwrap();
        walk(&mut pos, 3);
    }
}

#[test]
fn null_move_after_a_double_push_drops_the_en_passant_file() {
    let mut pos =
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false).unwrap();
    assert!(pos.chess().ep_square(EnPassantMode::Legal).is_some());
    assert!(pos.make_null());
    assert_eq!(pos.key(), full_key(pos.chess()));
}

#[test]
fn illegal_en_passant_square_does_not_change_the_key() {
    // Black just played d7d5 but no white pawn can capture: same key as without ep square.
    let with_ep = Position::from_fen("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1", false)
        .unwrap()
        .play_uci_moves(["d7d5"])
        .unwrap();
    let without = Position::from_fen("4k3/8/8/3p4/8/8/8/4K3 w - - 0 2", false).unwrap();
    assert_eq!(with_ep.key(), without.key());
}

#[test]
fn gives_check_agrees_with_playing_the_move() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "4k3/8/8/8/8/8/3B4/R3K2R w KQ - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ] {
        let mut pos = Position::from_fen(fen, false).unwrap();
        for m in pos.legal_moves() {
            let predicted = pos.gives_check(m);
            pos.make(m);
            assert_eq!(predicted, pos.is_check(), "{fen} {m:?}");
            pos.unmake();
        }
    }
}

#[test]
fn null_move_flips_only_the_turn() {
    let mut pos = Position::startpos(CastlingMode::Standard);
    let before = pos.key();
    assert!(pos.make_null());
    assert_eq!(pos.key(), Position::flip_turn_key(before));
    pos.unmake();
    assert_eq!(pos.key(), before);
}

#[test]
fn move_errors_name_token_and_ply() {
    let pos = Position::startpos(CastlingMode::Standard);
    let err = pos.play_uci_moves(["e2e4", "e7e5", "e1e3"]).err().unwrap();
    assert_eq!(err.to_string(), "illegal move 'e1e3' at ply 3 of the move list");
    let err = pos.play_uci_moves(["e2e4", "xyz"]).err().unwrap();
    assert_eq!(err.to_string(), "unparsable move 'xyz' at ply 2 of the move list");
}

#[test]
fn repetition_counts_through_the_game_record() {
    let pos = Position::startpos(CastlingMode::Standard)
        .play_uci_moves(["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"])
        .unwrap();
    assert_eq!(pos.repetitions(), 2);
}

#[test]
fn only_positions_since_the_last_capture_or_pawn_move_can_repeat() {
    let pos =
        Position::startpos(CastlingMode::Standard).play_uci_moves(["e2e4", "g8f6", "g1f3", "f6g8"]).unwrap();
    // e2e4 reset the counter: the start position and the one after it cannot recur.
    let before_knights = Position::startpos(CastlingMode::Standard).play_uci_moves(["e2e4"]).unwrap();
    assert_eq!(pos.repeatable_keys().len(), 3);
    assert_eq!(pos.repeatable_keys()[0], before_knights.key());
}

#[test]
fn a_position_before_a_null_move_does_not_repeat_after_it() {
    let play = |pos: &mut Position, tokens: &[&str]| {
        for token in tokens {
            let m = pos.parse_uci_move(token).unwrap();
            pos.make(m);
        }
    };
    // After Ra1-b1 White passes and its king walks a triangle while Black's steps out and
    // back: the position after Rb1 recurs with Black to move, but only because White passed.
    let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
    play(&mut pos, &["a1b1"]);
    let after_rook_move = pos.fen();
    assert!(pos.make_null());
    play(&mut pos, &["e1d1", "e8d8", "d1d2", "d8e8", "d2e1"]);
    assert_eq!(pos.fen().split(' ').next(), after_rook_move.split(' ').next());
    assert_eq!(pos.turn(), Color::Black);
    assert!(!pos.is_search_repetition(), "a repetition was counted across the null move");
    for _ in 0..7 {
        pos.unmake();
    }
    assert!(pos.null_marks.is_empty());
    // The same kind of return without a pass is a repetition inside the search.
    play(&mut pos, &["a1b1", "e8d8", "b1a1", "d8e8", "a1b1"]);
    assert!(pos.is_search_repetition());
}
