//! FEN parsing, and everything Patina does with a position once one parses.
//!
//! Input: byte 0 picks the mode (bit 0: Chess960); the rest is a FEN, optionally followed by
//! `|` and UCI move tokens that are played from it (all or nothing, as `position ... moves`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use patina::engine::inspect;
use patina::nnue;
use patina::perft;
use patina::position::Position;
use patina::rules;
use patina::see;
use patina::uci::output;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position as _};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let chess960 = mode & 1 == 1;
    let text = String::from_utf8_lossy(rest);
    let (fen, moves) = match text.split_once('|') {
        Some((fen, moves)) => (fen, Some(moves)),
        None => (text.as_ref(), None),
    };
    let Ok(start) = Position::from_fen(fen, chess960) else { return };
    check(&start, chess960);
    if let Some(moves) = moves {
        // Must never panic, whatever the tokens; when they all play, check the result too.
        if let Ok(played) = start.play_uci_moves(moves.split_whitespace()) {
            check(&played, chess960);
        }
    }
});

/// The key a freshly parsed copy of `pos`'s FEN gets, when that FEN parses.
fn reparsed_key(pos: &Position, chess960: bool) -> Option<u64> {
    Position::from_fen(&pos.fen(), chess960).ok().map(|p| p.key())
}

fn check(pos: &Position, chess960: bool) {
    let expected_mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    assert_eq!(pos.castling_mode(), expected_mode);

    // FEN round trip: what we print parses again to the same position.
    let printed = pos.fen();
    let again = Position::from_fen(&printed, chess960)
        .unwrap_or_else(|e| panic!("printed FEN '{printed}' does not parse again: {e}"));
    assert_eq!(again.key(), pos.key(), "key changed over the FEN round trip of '{printed}'");
    assert_eq!(again.fen(), printed, "FEN not stable over a round trip");

    let verdict = rules::judge(pos);
    let _ = verdict.to_string();
    let moves = pos.legal_moves();
    assert_eq!(verdict.reason == rules::Reason::Checkmate, moves.is_empty() && pos.is_check());
    assert_eq!(verdict.reason == rules::Reason::Stalemate, moves.is_empty() && !pos.is_check());

    // Evaluation: no panic, the `eval` trace agrees with the net, and colour symmetry.
    let net = nnue::default_network();
    let score = net.evaluate_board(pos.chess().board(), pos.turn());
    assert!(score.abs() < 30_000, "evaluation {score} out of range");
    let trace = inspect::trace(&net, pos.chess().board(), pos.turn());
    let from_white = if pos.turn().is_white() { score } else { -score };
    assert_eq!(trace.network_white_cp, from_white, "eval trace and the net disagree");
    let _ = output::eval_trace(&trace);
    let _ = output::board(pos);
    let mirrored = pos.chess().to_setup(EnPassantMode::Legal).into_mirrored();
    if let Ok(mirror) = Chess::from_setup(mirrored, expected_mode) {
        let mirror_score = net.evaluate_board(mirror.board(), mirror.turn());
        assert_eq!(mirror_score, score, "colour-mirrored position evaluates differently");
    }

    // Make/unmake every legal move; perft agrees with the move counts seen.
    let mut pos = pos.clone();
    let before = pos.key();
    let mut leaves = 0u64;
    for m in moves.iter().copied() {
        let text = pos.uci(m);
        assert_eq!(pos.parse_uci_move(&text), Ok(m), "move text '{text}' does not parse back");
        let predicted_check = pos.gives_check(m);
        let see_zero = see::see_ge(pos.chess(), m, 0);
        if !see_zero {
            assert!(!see::see_ge(pos.chess(), m, 1), "see_ge not monotone");
        }
        if see::see_ge(pos.chess(), m, 100) {
            assert!(see_zero, "see_ge not monotone");
        }
        pos.make(m);
        assert_eq!(pos.is_check(), predicted_check, "gives_check wrong for {text}");
        if let Some(key) = reparsed_key(&pos, chess960) {
            assert_eq!(pos.key(), key, "incremental key differs from a fresh one after {text}");
        }
        leaves += pos.legal_moves().len() as u64;
        let _ = rules::judge(&pos);
        pos.unmake();
        assert_eq!(pos.key(), before, "unmake of {text} did not restore the key");
    }
    assert_eq!(perft::perft(&mut pos, 1), moves.len() as u64);
    assert_eq!(perft::perft(&mut pos, 2), leaves);
    assert_eq!(pos.key(), before, "perft left the position changed");
    let divided: u64 = perft::divide(&mut pos, 2).iter().map(|(_, n)| n).sum();
    assert_eq!(divided, leaves);

    // Null move: passes the turn, keeps the key honest, and is undone.
    let had_ep = Fen::from_position(pos.chess(), EnPassantMode::Legal).as_setup().ep_square.is_some();
    let in_check = pos.is_check();
    if pos.make_null() {
        assert!(!in_check, "null move made in check");
        if let Some(key) = reparsed_key(&pos, chess960) {
            assert_eq!(pos.key(), key, "null move key differs from a fresh one");
        }
        if !had_ep {
            assert_eq!(pos.key(), Position::flip_turn_key(before));
        }
        pos.unmake();
        assert_eq!(pos.key(), before, "unmake of a null move did not restore the key");
    }
}
