//! `patina analyze` on one position: the diagram, then one line per search depth (and MultiPV
//! line) as the search deepens, then the verdict.
//!
//! Scores and win/draw/loss are from White's point of view, the WDL from the model of
//! `crate::wdl` at the position's material. Lines are written as each depth completes, so a
//! long search shows its progress; only exact scores are shown (an aspiration window's failed
//! bound is not a value).

use super::notation::{human_count, pawns, san_line, wdl_percent};
use super::review::Eval;
use super::searcher::Analyst;
use super::{diagram, AnalysisLimits, AnalyzeError};
use crate::position::{Position, PositionError};
use crate::rules;
use crate::search::IterationReport;
use crate::wdl::{self, Wdl};
use parking_lot::Mutex;
use shakmaty::san::San;
use shakmaty::Color;
use std::io::Write;

/// Plays `tokens` from `start`: each a UCI move (`g1f3`) or SAN (`Nf3`); move numbers (`1.`,
/// `12...`), alone or fused to the move after them (`1.e4`, `12...Nc6`), are skipped. All or
/// nothing. `patina analyze --moves` and `patina result --moves` read their moves with this.
pub fn play_moves<'a>(
    start: &Position,
    tokens: impl IntoIterator<Item = &'a str>,
) -> Result<Position, PositionError> {
    let mut pos = start.clone();
    let moves = tokens.into_iter().filter_map(without_move_number);
    for (index, token) in moves.enumerate() {
        let parsed = pos.parse_uci_move(token).or_else(|uci_reason| {
            let san: San = token.trim_end_matches(['+', '#', '!', '?']).parse().map_err(|_| uci_reason)?;
            san.to_move(pos.chess()).map_err(|_| "illegal")
        });
        let m = parsed.map_err(|reason| PositionError::Move {
            token: token.to_string(),
            ply: index + 1,
            reason,
        })?;
        pos.play_game_move(m);
    }
    Ok(pos)
}

/// The move in `token` without the move number before it (`e4` of `1.e4`, `Nc6` of `2...Nc6`,
/// `e4` of `e4`); `None` for a move number alone (`1.`, `12...`). A number is digits then dots.
fn without_move_number(token: &str) -> Option<&str> {
    let after_digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let after_number = after_digits.trim_start_matches('.');
    let is_numbered = after_digits.len() < token.len() && after_number.len() < after_digits.len();
    match (is_numbered, after_number) {
        (false, _) => Some(token),
        (true, "") => None,
        (true, rest) => Some(rest),
    }
}

/// The WDL of a value, from White's point of view.
fn white_wdl(eval: Eval, setting: wdl::Setting) -> Wdl {
    let own = wdl::MODEL.expected_for(eval.score, eval.turn, setting);
    match eval.turn {
        Color::White => own,
        Color::Black => own.flipped(),
    }
}

/// One depth's line: `depth 12  +0.31  W 31.2% D 52.0% L 16.8%  1.23M nodes  850k nps  1.4 s  12. Nf3 Nc6`.
fn line_text(pos: &Position, line: &IterationReport, multipv: usize, setting: wdl::Setting) -> String {
    let eval = Eval { score: line.score, turn: pos.turn() };
    let rank = if multipv > 1 { format!(" #{}", line.multipv) } else { String::new() };
    format!(
        "depth {:>2}{rank}  {:>6}  {}  {:>6} nodes  {:>6} nps  {:>5.1} s  {}",
        line.depth,
        pawns(eval),
        wdl_percent(white_wdl(eval, setting)),
        human_count(line.nodes),
        human_count(line.nps),
        line.time.as_secs_f64(),
        san_line(pos.chess(), &line.pv)
    )
}

/// Analyses `pos` within `limits`, writing the report to `out`.
pub fn run(
    pos: &Position,
    limits: &AnalysisLimits,
    out: &mut (dyn Write + Send),
) -> Result<(), AnalyzeError> {
    writeln!(out, "{}\n", diagram::diagram(pos))?;
    let verdict = rules::judge(pos);
    if verdict.is_over() || !verdict.claims.is_empty() {
        writeln!(out, "By the rules: {verdict}")?;
    }
    if pos.legal_moves().is_empty() {
        writeln!(out, "No legal move: the game is over.")?;
        return Ok(());
    }
    let analyst = Analyst::new(limits)?;
    writeln!(out, "Searching {}; scores from White's side, WDL from Patina's model.", limits.describe())?;
    let setting = wdl::Setting::of(pos.chess());
    let start = std::time::Instant::now();
    let out = Mutex::new(out);
    let finding = analyst.search(pos, &|line| {
        let _ = writeln!(out.lock(), "{}", line_text(pos, line, limits.multipv, setting));
    });
    let out = out.into_inner();
    let Some(finding) = finding else {
        return Ok(());
    };
    let elapsed = start.elapsed();
    let nps = (finding.nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64;
    writeln!(
        out,
        "\nBest move: {}  {}  {}  (depth {}, {} nodes in {:.1} s, {} nps)",
        san_line(pos.chess(), &finding.line[..1]),
        pawns(finding.eval),
        wdl_percent(white_wdl(finding.eval, setting)),
        finding.depth,
        human_count(finding.nodes),
        elapsed.as_secs_f64(),
        human_count(nps)
    )?;
    writeln!(out, "Line: {}", san_line(pos.chess(), &finding.line))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_may_be_uci_or_san_with_move_numbers() {
        let start = Position::default();
        let mixed = play_moves(&start, "1. e4 e7e5 2. Nf3 Nc6 3. Bb5+".split_whitespace()).unwrap();
        let uci = start.play_uci_moves("e2e4 e7e5 g1f3 b8c6 f1b5".split_whitespace()).unwrap();
        assert_eq!(mixed.fen(), uci.fen());
        let fused = play_moves(&start, "1.e4 e5 2.Nf3 2...Nc6 3.f1b5".split_whitespace()).unwrap();
        assert_eq!(fused.fen(), uci.fen(), "numbers fused to their moves");
        let error = play_moves(&start, "e4 e5 Ke3".split_whitespace()).err().unwrap();
        assert_eq!(error.to_string(), "illegal move 'Ke3' at ply 3 of the move list");
        let error = play_moves(&start, "e4 zz".split_whitespace()).err().unwrap();
        assert_eq!(error.to_string(), "unparsable move 'zz' at ply 2 of the move list");
    }
}
