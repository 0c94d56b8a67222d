//! Game results through `patina::rules::judge`, one known position per verdict.
//!
//! Each test sets up a legal position (a FEN, optionally followed by UCI moves so that the
//! repetition history and halfmove clock are built the way a game builds them) and compares the
//! verdict's text, `<score> <reason>[ claimable <claim>...]`, with the result the FIDE Laws give.

use patina::position::Position;
use patina::rules::{judge, Claim, Reason, Score, Verdict};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A knight tour out and back for both sides: the position after it equals the one before.
const KNIGHT_SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

fn game(fen: &str, moves: &[&str]) -> Position {
    let start = Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{e}"));
    start.play_uci_moves(moves.iter().copied()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn verdict(fen: &str, moves: &[&str]) -> String {
    judge(&game(fen, moves)).to_string()
}

/// `KNIGHT_SHUFFLE` repeated `times` times.
fn shuffles(times: usize) -> Vec<&'static str> {
    KNIGHT_SHUFFLE.iter().copied().cycle().take(4 * times).collect()
}

/// `prefix` followed by `shuffle` repeated `times` times.
fn then_repeat<'a>(prefix: &[&'a str], shuffle: &[&'a str], times: usize) -> Vec<&'a str> {
    let mut moves = prefix.to_vec();
    for _ in 0..times {
        moves.extend_from_slice(shuffle);
    }
    moves
}

// Checkmate and stalemate.

#[test]
fn fools_mate_wins_for_black() {
    let pos = game(STARTPOS, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let v = judge(&pos);
    assert_eq!(v, Verdict { score: Score::BlackWins, reason: Reason::Checkmate, claims: vec![] });
    assert!(v.is_over());
    assert_eq!(v.to_string(), "0-1 checkmate");
}

#[test]
fn scholars_mate_wins_for_white() {
    let moves = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"];
    assert_eq!(verdict(STARTPOS, &moves), "1-0 checkmate");
}

#[test]
fn checkmate_positions_for_each_side() {
    // Back-rank mate, Black to move and mated.
    assert_eq!(verdict("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", &[]), "1-0 checkmate");
    // Queen supported by the king, White to move and mated.
    assert_eq!(verdict("8/8/8/8/8/5k2/6q1/6K1 w - - 1 1", &[]), "0-1 checkmate");
}

#[test]
fn stalemate_is_a_draw() {
    assert_eq!(verdict("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]), "1/2-1/2 stalemate");
    // Reached by a move: Qc1-c7 leaves the a8 king no square and no check.
    assert_eq!(verdict("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", &["c1c7"]), "1/2-1/2 stalemate");
}

#[test]
fn positions_with_moves_are_ongoing() {
    let v = judge(&game(STARTPOS, &[]));
    assert_eq!(v, Verdict { score: Score::Unfinished, reason: Reason::Ongoing, claims: vec![] });
    assert!(!v.is_over());
    assert_eq!(v.to_string(), "* ongoing");
    assert_eq!(verdict(STARTPOS, &["e2e4", "e7e5"]), "* ongoing");
}

// Repetition.

#[test]
fn twofold_repetition_is_nothing() {
    assert_eq!(verdict(STARTPOS, &shuffles(1)), "* ongoing");
}

#[test]
fn threefold_repetition_is_claimable() {
    let pos = game(STARTPOS, &shuffles(2));
    assert_eq!(pos.repetitions(), 2);
    let v = judge(&pos);
    assert_eq!(v.claims, vec![Claim::ThreefoldRepetition]);
    assert!(!v.is_over());
    assert_eq!(v.to_string(), "* ongoing claimable threefold-repetition");
}

#[test]
fn fourfold_repetition_is_still_only_claimable() {
    assert_eq!(verdict(STARTPOS, &shuffles(3)), "* ongoing claimable threefold-repetition");
}

#[test]
fn fivefold_repetition_ends_the_game() {
    let pos = game(STARTPOS, &shuffles(4));
    assert_eq!(pos.repetitions(), 4);
    let v = judge(&pos);
    assert!(v.is_over());
    assert_eq!(v.to_string(), "1/2-1/2 fivefold-repetition");
}

#[test]
fn repetition_counts_the_position_not_the_move_order() {
    // Reaching the start position with the black knight first and the white knight second is
    // still the same position.
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8"];
    assert_eq!(verdict(STARTPOS, &moves), "* ongoing claimable threefold-repetition");
}

#[test]
fn a_pawn_move_ends_the_claim() {
    // The start position has occurred three times; after 1.e4 it can never recur.
    let mut moves = shuffles(2);
    assert_eq!(verdict(STARTPOS, &moves), "* ongoing claimable threefold-repetition");
    moves.push("e2e4");
    assert_eq!(verdict(STARTPOS, &moves), "* ongoing");
    // The count starts afresh: the position after 1.e4 needs three occurrences of its own.
    let black_first = ["g8f6", "g1f3", "f6g8", "f3g1"];
    assert_eq!(verdict(STARTPOS, &then_repeat(&moves, &black_first, 1)), "* ongoing");
    assert_eq!(
        verdict(STARTPOS, &then_repeat(&moves, &black_first, 2)),
        "* ongoing claimable threefold-repetition"
    );
}

#[test]
fn lost_castling_rights_make_a_different_position() {
    // After 1.e4 e5 the kings walk out and back: the pieces stand as before, but neither side
    // may castle any more, so the first occurrence (with rights) does not count.
    let kings = ["e1e2", "e8e7", "e2e1", "e7e8"];
    let twice = then_repeat(&["e2e4", "e7e5"], &kings, 2);
    let pos = game(STARTPOS, &twice);
    assert_eq!(pos.repetitions(), 1, "the position with castling rights must not count");
    assert_eq!(judge(&pos).to_string(), "* ongoing");
    // One more round gives three occurrences of the position without rights.
    let thrice = then_repeat(&["e2e4", "e7e5"], &kings, 3);
    assert_eq!(verdict(STARTPOS, &thrice), "* ongoing claimable threefold-repetition");
}

#[test]
fn a_legal_en_passant_capture_makes_a_different_position() {
    // 1.e4 a6 2.e5 d5: White may capture d5 en passant right now, and only now. After two
    // knight round trips the pieces stand as they did, but the en-passant right is gone, so
    // the position has occurred twice, not three times.
    let shuffle = ["b1c3", "b8c6", "c3b1", "c6b8"];
    let prefix = ["e2e4", "a7a6", "e4e5", "d7d5"];
    let pos = game(STARTPOS, &then_repeat(&prefix, &shuffle, 2));
    assert_eq!(pos.repetitions(), 1);
    assert_eq!(judge(&pos).to_string(), "* ongoing");
    let pos = game(STARTPOS, &then_repeat(&prefix, &shuffle, 3));
    assert_eq!(judge(&pos).to_string(), "* ongoing claimable threefold-repetition");
    // The same from a FEN whose en-passant square is capturable.
    let fen = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    assert!(game(fen, &[]).parse_uci_move("e5d6").is_ok());
    assert_eq!(verdict(fen, &then_repeat(&[], &shuffle, 2)), "* ongoing");
}

#[test]
fn an_en_passant_square_without_a_legal_capture_still_repeats() {
    // 1.e4 d5: the FEN names d6, but no white pawn stands beside d5, so the position is the
    // same as after the knights return.
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    let shuffle = ["b1c3", "b8c6", "c3b1", "c6b8"];
    let pos = game(fen, &shuffle);
    assert_eq!(pos.key(), game(fen, &[]).key());
    assert_eq!(pos.repetitions(), 1);
    assert_eq!(verdict(fen, &then_repeat(&[], &shuffle, 2)), "* ongoing claimable threefold-repetition");
}

#[test]
fn a_pinned_en_passant_capturer_still_repeats() {
    // Black's e4 pawn stands beside d4 after d2-d4, but capturing would expose the a4 king to
    // the h4 rook along the fourth rank: the capture is illegal, so the square does not count.
    let fen = "8/8/8/8/k3p2R/8/3P4/4K3 w - - 0 1";
    let pos = game(fen, &["d2d4"]);
    assert!(pos.parse_uci_move("e4d3").is_err());
    let shuffle = ["a4a3", "e1f1", "a3a4", "f1e1"];
    let pos = game(fen, &then_repeat(&["d2d4"], &shuffle, 2));
    assert_eq!(pos.repetitions(), 2);
    assert_eq!(judge(&pos).to_string(), "* ongoing claimable threefold-repetition");
}

// Fifty- and seventy-five-move rules.

/// Kings and rooks only: White has Rh1, Black Ra8; every king or rook move is quiet.
const QUIET_ENDGAME: &str = "r3k3/8/8/8/8/8/8/4K2R w - - ";

fn with_clock(halfmoves: u32) -> String {
    format!("{QUIET_ENDGAME}{halfmoves} 100")
}

#[test]
fn fifty_move_rule_is_claimable_from_the_hundredth_ply() {
    assert_eq!(verdict(&with_clock(99), &[]), "* ongoing");
    let pos = game(&with_clock(99), &["h1h2"]);
    assert_eq!(pos.halfmoves(), 100);
    assert_eq!(judge(&pos).to_string(), "* ongoing claimable fifty-move-rule");
    assert_eq!(verdict(&with_clock(100), &[]), "* ongoing claimable fifty-move-rule");
}

#[test]
fn a_capture_or_pawn_move_resets_the_fifty_move_count() {
    // White Rh1 takes a rook on h8 at halfmove 120: the clock resets to 0.
    let fen = "4k2r/8/8/8/8/8/P7/4K2R w - - 120 100";
    assert_eq!(verdict(fen, &[]), "* ongoing claimable fifty-move-rule");
    assert_eq!(verdict(fen, &["h1h8"]), "* ongoing");
    assert_eq!(verdict(fen, &["a2a3"]), "* ongoing");
}

#[test]
fn seventy_five_move_rule_ends_the_game_at_150_plies() {
    assert_eq!(verdict(&with_clock(149), &[]), "* ongoing claimable fifty-move-rule");
    let pos = game(&with_clock(149), &["e1d1"]);
    assert_eq!(pos.halfmoves(), 150);
    let v = judge(&pos);
    assert!(v.is_over());
    assert_eq!(v.to_string(), "1/2-1/2 seventy-five-move-rule");
    assert_eq!(verdict(&with_clock(150), &[]), "1/2-1/2 seventy-five-move-rule");
}

#[test]
fn checkmate_on_the_150th_ply_wins() {
    // Ra1-a8 is a quiet move that takes the clock to 150 and mates.
    let pos = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 120", &["a1a8"]);
    assert_eq!(pos.halfmoves(), 150);
    assert_eq!(judge(&pos).to_string(), "1-0 checkmate");
    // And for Black.
    let pos = game("r5k1/8/8/8/8/8/5PPP/6K1 b - - 149 120", &["a8a1"]);
    assert_eq!(judge(&pos).to_string(), "0-1 checkmate");
}

#[test]
fn stalemate_on_the_150th_ply_is_stalemate() {
    let pos = game("k7/8/1K6/8/8/8/8/2Q5 w - - 149 120", &["c1c7"]);
    assert_eq!(pos.halfmoves(), 150);
    assert_eq!(judge(&pos).to_string(), "1/2-1/2 stalemate");
}

#[test]
fn repetition_and_fifty_moves_are_both_claimable() {
    let pos = game(&with_clock(120), &then_repeat(&[], &["h1h2", "a8a7", "h2h1", "a7a8"], 2));
    assert_eq!(pos.halfmoves(), 128);
    assert_eq!(judge(&pos).to_string(), "* ongoing claimable threefold-repetition fifty-move-rule");
}

// Material.

fn assert_insufficient(fen: &str) {
    assert_eq!(verdict(fen, &[]), "1/2-1/2 insufficient-material", "{fen}");
}

fn assert_sufficient(fen: &str) {
    assert_eq!(verdict(fen, &[]), "* ongoing", "{fen}");
}

#[test]
fn bare_kings_and_single_minor_pieces_are_insufficient() {
    assert_insufficient("8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    assert_insufficient("8/8/4k3/8/8/3KB3/8/8 w - - 0 1");
    assert_insufficient("8/8/4k3/8/8/3K4/8/2b5 b - - 0 1");
    assert_insufficient("8/8/4k3/8/8/3KN3/8/8 w - - 0 1");
    assert_insufficient("8/8/4k3/4n3/8/3K4/8/8 w - - 0 1");
}

#[test]
fn bishops_on_squares_of_one_colour_are_insufficient() {
    // e3 and c5 are both dark squares.
    assert_insufficient("8/8/4k3/2b5/8/3KB3/8/8 w - - 0 1");
    // Several bishops, all on light squares (e2, f1, h3).
    assert_insufficient("4k3/8/8/8/8/7b/4B3/4KB2 w - - 0 1");
}

#[test]
fn material_that_can_still_mate_is_sufficient() {
    // Bishops on opposite colours (e3 dark, c6 light): a helpmate exists.
    assert_sufficient("8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1");
    // Knight against knight.
    assert_sufficient("8/8/4k3/4n3/8/3KN3/8/8 w - - 0 1");
    // Two knights cannot force mate, but mate is possible, so the position is not dead.
    assert_sufficient("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1");
    // Knight against bishop.
    assert_sufficient("8/8/4k3/4b3/8/3KN3/8/8 w - - 0 1");
    // A pawn, a rook, a queen.
    assert_sufficient("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1");
    assert_sufficient("8/8/4k3/8/8/3K4/8/7R w - - 0 1");
    assert_sufficient("8/8/4k3/8/8/3K4/8/7q w - - 0 1");
}

#[test]
fn a_capture_can_leave_insufficient_material() {
    // The rook on d2 checks the d3 king, which takes it: king against king.
    let fen = "8/8/4k3/8/8/3K4/3r4/8 w - - 0 1";
    assert_eq!(verdict(fen, &[]), "* ongoing");
    assert_eq!(verdict(fen, &["d3d2"]), "1/2-1/2 insufficient-material");
    // Taking the last pawn with the bishop leaves king and bishop against king.
    let fen = "8/8/4k3/8/8/3KB3/2p5/8 w - - 0 1";
    assert_eq!(verdict(fen, &[]), "* ongoing");
    assert_eq!(verdict(fen, &["d3c2"]), "1/2-1/2 insufficient-material");
}

#[test]
fn insufficient_material_outranks_the_seventy_five_move_rule() {
    assert_insufficient("8/8/4k3/8/8/3K4/8/8 w - - 150 120");
}

// Dead positions beyond insufficient material: no sequence of legal moves mates either side.

fn assert_dead(fen: &str) {
    assert_eq!(verdict(fen, &[]), "1/2-1/2 dead-position", "{fen}");
}

fn assert_alive(fen: &str) {
    assert_eq!(verdict(fen, &[]), "* ongoing", "{fen}");
}

/// A wall across the board: white pawns a3 b4 c3 d4 e3 f4 g3 h4 (dark squares) rammed by black
/// pawns a4 b5 c4 d5 e4 f5 g4 h5 (light squares). Every square in front of the wall is attacked,
/// so the white king keeps to ranks 1-2 and the black king to ranks 6-8; nothing can be taken.
const WALL: &str = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";

#[test]
fn a_locked_pawn_wall_is_dead() {
    let pos = game(WALL, &[]);
    let v = judge(&pos);
    assert_eq!(v, Verdict { score: Score::Draw, reason: Reason::DeadPosition, claims: vec![] });
    assert!(v.is_over());
    // Black to move changes nothing.
    assert_dead("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 b - - 0 1");
}

#[test]
fn a_wall_with_a_gap_is_alive() {
    // Without the g- and h-pawns the white king walks round by h4-g5-g6, takes f5 and the f-pawn
    // promotes.
    assert_alive("4k3/8/8/1p1p1p2/pPpPpP2/P1P1P3/8/4K3 w - - 0 1");
}

#[test]
fn a_bishop_that_can_never_attack_anything_leaves_the_wall_dead() {
    // The c1 bishop runs on dark squares; every dark square of the wall holds a white pawn, so it
    // stays on ranks 1-2, never reaches a black pawn (all on light squares) and never checks.
    assert_dead("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1");
    // The same for Black's light-squared c8 bishop on its side of the wall, both at once.
    assert_dead("2b1k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1");
}

#[test]
fn a_bishop_that_can_take_a_pawn_makes_the_wall_alive() {
    // The d1 bishop runs on light squares: Bb3xa4, and the a-pawn walks to a8.
    assert_alive("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3BK3 w - - 0 1");
}

#[test]
fn a_locked_looking_wall_with_a_pawn_capture_is_alive() {
    // The h-pawns stand one rank lower, so g3 can take on h4 and free the black g-pawn.
    assert_alive("4k3/8/8/1p1p1p2/pPpPpPpp/P1P1P1PP/8/4K3 w - - 0 1");
}

#[test]
fn a_blocked_position_with_a_helpmate_is_alive() {
    // Nothing can break the wall, but the h8 king is shut in by its own h7 pawn and, whenever
    // it stands there, its g8 bishop: 1.Bb8 Bf7 2.Bc7 Bg8 3.Be5 is mate.
    let fen = "6bk/B6p/7P/1p1p1p2/pPpPpPp1/P1P1P1P1/8/4K3 w - - 0 1";
    assert_alive(fen);
    assert_eq!(verdict(fen, &["a7b8", "g8f7", "b8c7", "f7g8", "c7e5"]), "1-0 checkmate");
}

#[test]
fn a_king_boxed_in_is_dead_while_the_other_king_cannot_reach_its_pawns() {
    // Black pawns b7 d7 f7 h7 rammed by b6 d6 f6 h6: the black king is boxed in on the back rank
    // (every free square of rank 7 is attacked) and the white king, free on ranks 1-5, can
    // reach neither the box nor a pawn.
    assert_dead("4k3/1p1p1p1p/1P1P1P1P/8/8/8/8/4K3 w - - 0 1");
    // With the white king inside the box it can take b7, and the b-pawn promotes.
    assert_alive("K3k3/1p1p1p1p/1P1P1P1P/8/8/8/8/8 w - - 0 1");
}

#[test]
fn stalemate_outranks_a_dead_position() {
    // The same box with the white king on c7 covering b8: Black has no move at all.
    assert_eq!(verdict("k7/1pKp1p1p/1P1P1P1P/8/8/8/8/8 b - - 0 1", &[]), "1/2-1/2 stalemate");
}

#[test]
fn a_dead_position_outranks_repetition_and_the_seventy_five_move_rule() {
    assert_dead("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 150 120");
    let kings = ["e1d1", "e8d8", "d1e1", "d8e8"];
    let pos = game(WALL, &then_repeat(&[], &kings, 4));
    assert_eq!(pos.repetitions(), 4);
    assert_eq!(judge(&pos).to_string(), "1/2-1/2 dead-position");
}

#[test]
fn display_names_every_reason_and_claim() {
    let names: Vec<String> = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::FivefoldRepetition,
        Reason::SeventyFiveMoveRule,
        Reason::InsufficientMaterial,
        Reason::DeadPosition,
        Reason::Ongoing,
    ]
    .iter()
    .map(|r| r.to_string())
    .collect();
    assert_eq!(
        names,
        [
            "checkmate",
            "stalemate",
            "fivefold-repetition",
            "seventy-five-move-rule",
            "insufficient-material",
            "dead-position",
            "ongoing"
        ]
    );
    assert_eq!(Claim::ThreefoldRepetition.to_string(), "threefold-repetition");
    assert_eq!(Claim::FiftyMoveRule.to_string(), "fifty-move-rule");
    let scores: Vec<String> = [Score::WhiteWins, Score::BlackWins, Score::Draw, Score::Unfinished]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(scores, ["1-0", "0-1", "1/2-1/2", "*"]);
}
