//! The game around the search: Chess960 castling and FENs, results and claims, very long move
//! lists, `UCI_ShowWDL`, and `UCI_LimitStrength` with `UCI_Elo`.

mod common;

use common::uci::*;
use common::{assert_latency, field, ms, score, timing, EngineProcess, QUICK};
use std::time::Duration;

// 7. Chess960.

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut engine = EngineProcess::spawn();
    let corners = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

    // Standard mode: king moves two squares.
    engine.send(corners);
    let legal = engine.legal_moves();
    assert!(legal.contains("e1g1") && legal.contains("e1c1"), "{legal:?}");
    assert!(!legal.contains("e1h1") && !legal.contains("e1a1"), "{legal:?}");
    let search = checked_go(&mut engine, corners, "go searchmoves e1g1 depth 3");
    assert_eq!(search.bestmove, "e1g1");
    engine.send(&format!("{corners} moves e1g1"));
    let fen = board_fen(&mut engine);
    assert!(fen.starts_with("r3k2r/8/8/8/8/8/8/R4RK1 b kq"), "{fen}");

    // Chess960 mode: the same position, castling written as king takes rook.
    engine.send("setoption name UCI_Chess960 value true");
    engine.send(corners);
    let legal = engine.legal_moves();
    assert!(legal.contains("e1h1") && legal.contains("e1a1"), "{legal:?}");
    assert!(!legal.contains("e1g1") && !legal.contains("e1c1"), "{legal:?}");
    let search = checked_go(&mut engine, corners, "go searchmoves e1h1 depth 3");
    assert_eq!(search.bestmove, "e1h1");
    engine.send(&format!("{corners} moves e1h1 e8a8"));
    let fen = board_fen(&mut engine);
    assert!(fen.starts_with("2kr3r/8/8/8/8/8/8/R4RK1 w - "), "{fen}");
}

#[test]
fn chess960_accepts_shredder_and_x_fen() {
    let mut engine = EngineProcess::spawn();
    engine.send("setoption name UCI_Chess960 value true");
    // King f1 between rooks e1 and g1: short castling only swaps king and rook.
    let shredder = "position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    let x_fen = "position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1";
    engine.send(shredder);
    let from_shredder = engine.legal_moves();
    assert!(from_shredder.contains("f1g1"), "castling with the g1 rook: {from_shredder:?}");
    assert_eq!(from_shredder.len(), 20);
    engine.send(x_fen);
    let from_x_fen = engine.legal_moves();
    assert_eq!(from_shredder, from_x_fen);

    engine.send(&format!("{x_fen} moves f1g1 f8g8"));
    let fen = board_fen(&mut engine);
    assert!(fen.starts_with("bqnbrrkn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRRKN w "), "{fen}");
    checked_go(&mut engine, &format!("{shredder} moves f1g1"), "go depth 4");
}

// 11 and 12. Game results.

#[test]
fn result_reports_claims_and_finished_games_still_get_a_move() {
    let mut engine = EngineProcess::spawn();
    engine.send(&format!("position startpos moves {}", shuffle(2)));
    engine.send("result");
    assert_eq!(
        engine.next_line(QUICK).as_deref(),
        Some("info string result * ongoing claimable threefold-repetition")
    );

    engine.send("position startpos moves e2e4");
    engine.send("result");
    assert_eq!(engine.next_line(QUICK).as_deref(), Some("info string result * ongoing"));

    // Fivefold repetition ends the game, but a GUI asking for a move still gets one.
    let search = checked_go(&mut engine, &format!("position startpos moves {}", shuffle(4)), "go depth 3");
    assert_eq!(search.lines[0], "info string result 1/2-1/2 fivefold-repetition");

    let search = checked_go(&mut engine, "position fen 8/8/4k3/8/8/3BK3/8/8 w - - 0 1", "go depth 3");
    assert_eq!(search.lines[0], "info string result 1/2-1/2 insufficient-material");

    engine.send(&format!("position fen {FOOLS_MATE}"));
    engine.send("result");
    assert_eq!(engine.next_line(QUICK).as_deref(), Some("info string result 0-1 checkmate"));
}

#[test]
fn very_long_move_lists_are_accepted_quickly() {
    let mut engine = EngineProcess::spawn();
    let cycles = 504; // 2016 plies
    engine.send(&format!("position startpos moves {}", shuffle(cycles)));
    engine.send("isready");
    let (line, latency) = engine.expect_line(|_| true, Duration::from_secs(5));
    eprintln!("position with {} plies: readyok after {:.1} ms", cycles * 4, ms(latency));
    assert_eq!(line, "readyok");
    let bound = timing(Duration::from_secs(1), Duration::from_secs(4));
    assert!(latency <= bound, "took {:.1} ms", ms(latency));
    engine.send("result");
    assert_eq!(engine.next_line(QUICK).as_deref(), Some("info string result 1/2-1/2 fivefold-repetition"));
    let fen = board_fen(&mut engine);
    assert!(fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2016 "), "{fen}");
    let search =
        checked_go(&mut engine, &format!("position startpos moves {}", shuffle(cycles)), "go depth 3");
    assert_eq!(search.lines[0], "info string result 1/2-1/2 fivefold-repetition");
}

// 14. UCI_ShowWDL.

/// The `wdl W D L` numbers of an info line, if it has them.
fn wdl(line: &str) -> Option<[i64; 3]> {
    let mut tokens = line.split_whitespace().skip_while(|&t| t != "wdl").skip(1);
    let mut next = || tokens.next()?.parse().ok();
    Some([next()?, next()?, next()?])
}

#[test]
fn show_wdl_puts_per_mille_results_after_the_score() {
    let mut engine = EngineProcess::spawn();
    let search = checked_go(&mut engine, "position startpos", "go depth 4");
    assert!(search.infos().iter().all(|l| wdl(l).is_none()), "off by default: {:?}", search.infos());

    engine.send("setoption name UCI_ShowWDL value true");
    // White is a queen up: every line says so, and the last is all but won.
    let queen_up = "position fen rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let search = checked_go(&mut engine, queen_up, "go depth 6");
    for line in search.infos() {
        let [win, draw, loss] = wdl(line).unwrap_or_else(|| panic!("no wdl in '{line}'"));
        assert_eq!(win + draw + loss, 1000, "{line}");
        assert!(win > loss && [win, draw, loss].iter().all(|n| (0..=1000).contains(n)), "{line}");
        // Right after the score and its bound.
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let score_at = tokens.iter().position(|&t| t == "score").expect("a score");
        let bound = matches!(tokens[score_at + 3], "lowerbound" | "upperbound") as usize;
        assert_eq!(tokens[score_at + 3 + bound], "wdl", "{line}");
    }
    let best = search.last_iteration()[0];
    assert!(wdl(best).expect("wdl")[0] > 900, "{best}");

    // Mates are certain, for the winner and for the side already mated; stalemate is a draw.
    let search = checked_go(&mut engine, &format!("position fen {MATE_IN_TWO}"), "go depth 6");
    let best = search.last_iteration()[0];
    assert_eq!((score(best), wdl(best)), ("mate 2".to_string(), Some([1000, 0, 0])), "{best}");
    engine.send(&format!("position fen {FOOLS_MATE}"));
    let search = engine.go("go depth 3", QUICK);
    assert_eq!(search.lines[1], "info depth 0 score mate 0 wdl 0 0 1000");
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let search = engine.go("go depth 3", QUICK);
    assert_eq!(search.lines[1], "info depth 0 score cp 0 wdl 0 1000 0");

    engine.send("setoption name UCI_ShowWDL value false");
    let search = checked_go(&mut engine, "position startpos", "go depth 3");
    assert!(search.infos().iter().all(|l| wdl(l).is_none()), "off again: {:?}", search.infos());
}

// 15. UCI_LimitStrength and UCI_Elo.

#[test]
fn limited_strength_answers_every_go_legally_and_quickly() {
    let mut engine = EngineProcess::spawn();
    expect_each_rejected(
        &mut engine,
        &[
            ("setoption name UCI_Elo value 1299", &["'UCI_Elo'", "out of range 1300..2550"]),
            ("setoption name UCI_Elo value 2551", &["'UCI_Elo'", "out of range"]),
            ("setoption name UCI_Elo value strong", &["'UCI_Elo'", "'strong'"]),
            ("setoption name UCI_LimitStrength value yes", &["'UCI_LimitStrength'", "'yes'"]),
        ],
    );
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 1300");
    engine.send("setoption name UCI_Elo value 1000");
    expect_error(&mut engine, &["out of range"]);
    engine.send("uci");
    let lines = engine.lines_until(|l| l == "uciok", QUICK);
    assert!(
        lines.iter().any(|l| l == "option name UCI_Elo type spin default 1300 min 1300 max 2550"),
        "{lines:?}"
    );

    // A game's worth of clocked moves: each legal, each well inside its budget (1 s under
    // PATINA_STRICT_TIMING=1; always inside the 3 s clock).
    let budget = timing(Duration::from_secs(1), Duration::from_millis(2900));
    engine.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        let position = format!("position startpos moves {}", moves.join(" "));
        let search = checked_go(&mut engine, position.trim_end(), "go wtime 3000 btime 3000 winc 30 binc 30");
        assert!(search.elapsed < budget, "took {:.0} ms", ms(search.elapsed));
        // Only the one line MultiPV asks for is printed, whatever the level searches.
        assert!(search.infos().iter().all(|l| field(l, "multipv") == Some(1)), "{:?}", search.infos());
        moves.push(search.bestmove);
    }

    // The node budget caps a deep request, and a fixed move time is not answered instantly.
    let search = checked_go(&mut engine, "position startpos", "go nodes 1000000");
    let nodes = search.infos().iter().filter_map(|l| field(l, "nodes")).max().expect("nodes");
    assert!(nodes < 5_000, "1300 searched {nodes} nodes");
    let search = checked_go(&mut engine, "position startpos", "go movetime 400");
    assert!(search.elapsed >= Duration::from_millis(150), "answered after {:.0} ms", ms(search.elapsed));
    let latest = timing(Duration::from_secs(2), Duration::from_secs(5));
    assert!(search.elapsed < latest, "answered after {:.0} ms", ms(search.elapsed));

    // `stop` releases a held answer at once.
    engine.send("position startpos");
    let latency = go_then_stop(&mut engine, "go movetime 10000");
    assert_latency("stop releasing a held limited move", latency, || {
        go_then_stop(&mut engine, "go movetime 10000")
    });
    engine.assert_ready();
}
