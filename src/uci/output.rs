//! Formatting engine data as UCI text. Pure functions from plain structs to strings.

use crate::engine::{Evaluation, IterationReport, Position, Score, ScoreBound, TunableOption, Wdl};
use crate::options::{EngineOptions, OptionKind, OPTIONS};
use shakmaty::{CastlingMode, Move, Position as _};
use std::fmt::Write as _;

/// The `id`/`option`/`uciok` block answering `uci`.
pub fn handshake(options: &EngineOptions, tunables: &[TunableOption]) -> String {
    let mut text = format!("id name {}\nid author the Patina developers\n", crate::engine::NAME);
    for spec in &OPTIONS {
        let default = spec.current(options).to_uci();
        let _ = match spec.kind {
            OptionKind::Spin { min, max } => {
                writeln!(text, "option name {} type spin default {default} min {min} max {max}", spec.name)
            }
            OptionKind::Check => writeln!(text, "option name {} type check default {default}", spec.name),
            OptionKind::Button => writeln!(text, "option name {} type button", spec.name),
            OptionKind::Text => writeln!(text, "option name {} type string default {default}", spec.name),
        };
    }
    for TunableOption { name, value, min, max } in tunables {
        let _ = writeln!(text, "option name {name} type spin default {value} min {min} max {max}");
    }
    text.push_str("uciok");
    text
}

fn move_text(m: Move, mode: CastlingMode) -> String {
    m.to_uci(mode).to_string()
}

/// `score cp 31` / `score mate -2`.
pub fn score(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("score cp {cp}"),
        Score::Mate(moves) => format!("score mate {moves}"),
    }
}

/// ` wdl 412 430 158` (per mille: wins, draws, losses).
pub fn wdl(wdl: Wdl) -> String {
    format!(" wdl {} {} {}", wdl.win, wdl.draw, wdl.loss)
}

/// One `info` line for an iteration; `wdl` (when `UCI_ShowWDL` is on) follows the score and
/// its bound.
pub fn iteration(report: &IterationReport, mode: CastlingMode, wdl: Option<Wdl>) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} {}",
        report.depth,
        report.seldepth,
        report.multipv,
        score(report.score)
    );
    match report.bound {
        ScoreBound::Lower => line.push_str(" lowerbound"),
        ScoreBound::Upper => line.push_str(" upperbound"),
        ScoreBound::Exact => {}
    }
    if let Some(expected) = wdl {
        line.push_str(&self::wdl(expected));
    }
    let _ = write!(
        line,
        " nodes {} nps {} hashfull {} tbhits {} time {} pv",
        report.nodes,
        report.nps,
        report.hashfull,
        report.tbhits,
        report.time.as_millis()
    );
    for &m in &report.pv {
        line.push(' ');
        line.push_str(&move_text(m, mode));
    }
    line
}

/// A progress line for a search that has printed nothing for a while: GUIs keep their node
/// counters moving, and a write that fails tells us the GUI has gone.
pub fn progress(nodes: u64, elapsed: std::time::Duration, hashfull: u32) -> String {
    let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
    format!("info nodes {nodes} nps {nps} hashfull {hashfull} time {}", elapsed.as_millis())
}

/// `info depth 12 currmove e2e4 currmovenumber 3`: the root move a long search is on, in the
/// iteration of that depth (Stockfish's form).
pub fn current_move(depth: i32, m: Move, number: usize, mode: CastlingMode) -> String {
    format!("info depth {depth} currmove {} currmovenumber {number}", move_text(m, mode))
}

/// A count and its noun: `1 table file`, `2 table files`.
pub fn counted(count: impl Into<u64>, one: &str, many: &str) -> String {
    let count = count.into();
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `bestmove e2e4 [ponder e7e5]`.
pub fn bestmove(best: Move, ponder: Option<Move>, mode: CastlingMode) -> String {
    match ponder {
        Some(p) => format!("bestmove {} ponder {}", move_text(best, mode), move_text(p, mode)),
        None => format!("bestmove {}", move_text(best, mode)),
    }
}

/// Under `debug on`, what a strength-limited level played instead of the search's best line.
pub fn strength_choice(elo: i64, played: (Move, Score), best: (Move, Score), mode: CastlingMode) -> String {
    format!(
        "info string debug: UCI_Elo {elo} plays {} ({}) rather than {} ({})",
        move_text(played.0, mode),
        score(played.1),
        move_text(best.0, mode),
        score(best.1)
    )
}

/// The certain result of a position whose side to move has no legal move (`score mate 0` or
/// `score cp 0` at depth 0), before its `bestmove (none)`.
pub fn no_move(result: Score, wdl: Option<Wdl>) -> String {
    format!("info depth 0 {}{}", score(result), wdl.map(self::wdl).unwrap_or_default())
}

/// The `d` command: board diagram, FEN, key and checkers.
pub fn board(pos: &Position) -> String {
    let chess = pos.chess();
    let board = chess.board();
    let mut text = String::from("\n +---+---+---+---+---+---+---+---+\n");
    for rank in (0..8).rev() {
        for file in 0..8 {
            let square = shakmaty::Square::new(rank * 8 + file);
            let symbol = board.piece_at(square).map_or(' ', |p| p.char());
            let _ = write!(text, " | {symbol}");
        }
        let _ = writeln!(text, " | {}\n +---+---+---+---+---+---+---+---+", rank + 1);
    }
    text.push_str("   a   b   c   d   e   f   g   h\n\n");
    let _ = writeln!(text, "Fen: {}", pos.fen());
    let _ = writeln!(text, "Key: {:016X}", pos.key());
    let checkers: Vec<String> = chess.checkers().into_iter().map(|sq| sq.to_string()).collect();
    let _ = write!(text, "Checkers: {}", checkers.join(" "));
    text
}

/// The `eval` command: the board with what the net makes of each piece (its score with the
/// piece minus without it, White's view, in pawns), then the bucket and the scores.
pub fn eval_trace(evaluation: &Evaluation) -> String {
    let border = " +-------+-------+-------+-------+-------+-------+-------+-------+\n";
    let mut text = String::from(
        " What each piece is worth to the net: its score with the piece minus without it\n (pawns, White's view)\n\n",
    );
    text.push_str(border);
    for rank in (0..8u32).rev() {
        let squares = (0..8u32).map(|file| shakmaty::Square::new(rank * 8 + file));
        let mut pieces = String::from(" |");
        let mut values = String::from(" |");
        for square in squares {
            let symbol = evaluation.board.piece_at(square).map_or(' ', |p| p.char());
            let _ = write!(pieces, "   {symbol}   |");
            match evaluation.piece_value(square) {
                Some(cp) => {
                    let _ = write!(values, " {:+5.2} |", cp as f64 / 100.0);
                }
                None => values.push_str("       |"),
            }
        }
        let _ = writeln!(text, "{pieces} {}", rank + 1);
        let _ = writeln!(text, "{values}");
        text.push_str(border);
    }
    text.push_str("     a       b       c       d       e       f       g       h\n\n");
    let pieces = evaluation.board.occupied().count();
    let _ =
        writeln!(text, "Output bucket: {} of {} ({pieces} pieces)", evaluation.bucket, evaluation.buckets);
    let _ = writeln!(
        text,
        "Net evaluation: {:+.2} (white side; net {:016x})",
        evaluation.network_white_cp as f64 / 100.0,
        evaluation.net_hash
    );
    let _ = write!(
        text,
        "Final evaluation: {:+.2} (white side; the net's score scaled by the material left, as the search uses it)",
        evaluation.search_white_cp as f64 / 100.0
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn handshake_lists_every_option() {
        let text = handshake(&EngineOptions::default(), &[]);
        assert!(text.starts_with("id name Patina "));
        assert!(text.contains("option name Hash type spin default 16 min 1 max 262144"));
        assert!(text.contains("option name Move Overhead type spin default 10 min 0 max 5000"));
        assert!(text.contains("option name Clear Hash type button"));
        assert!(text.contains("option name UCI_Chess960 type check default false"));
        assert!(text.ends_with("uciok"));
    }

    #[test]
    fn current_move_names_the_move_and_its_number() {
        let pos = Position::default();
        let g1f3 = pos.parse_uci_move("g1f3").unwrap();
        assert_eq!(
            current_move(12, g1f3, 7, CastlingMode::Standard),
            "info depth 12 currmove g1f3 currmovenumber 7"
        );
    }

    #[test]
    fn info_line_has_every_field() {
        let pos = Position::default();
        let e2e4 = pos.parse_uci_move("e2e4").unwrap();
        let report = IterationReport {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score::Mate(-3),
            bound: ScoreBound::Lower,
            nodes: 1000,
            nps: 50_000,
            hashfull: 12,
            tbhits: 0,
            time: Duration::from_millis(20),
            pv: vec![e2e4],
        };
        assert_eq!(
            iteration(&report, CastlingMode::Standard, None),
            "info depth 5 seldepth 9 multipv 1 score mate -3 lowerbound nodes 1000 nps 50000 hashfull 12 tbhits 0 time 20 pv e2e4"
        );
        let wdl = Some(Wdl { win: 0, draw: 0, loss: 1000 });
        assert_eq!(
            iteration(&report, CastlingMode::Standard, wdl),
            "info depth 5 seldepth 9 multipv 1 score mate -3 lowerbound wdl 0 0 1000 nodes 1000 nps 50000 hashfull 12 tbhits 0 time 20 pv e2e4"
        );
    }
}
