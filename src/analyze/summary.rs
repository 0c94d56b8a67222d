//! The text summary of an analysed game (what `patina analyze --pgn` prints on stdout): players,
//! the Result tag against the rules' verdict, each side's average loss and mark counts, the
//! marked moves, and any illegal move in the source.

use super::game::GameReview;
use super::notation::counted;
use super::pgn::{GameProblem, GameRecord};
use super::review::SideSummary;
use crate::rules::Verdict;
use shakmaty::Color;
use std::fmt::Write as _;

/// How the Result tag compares with what the rules say about the final position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultCheck {
    /// The rules give the same result (a claimable draw counts for `1/2-1/2`, an ongoing game for `*`).
    Agrees,
    /// The rules ended the game with another result, or the tag is not a result.
    Mismatch,
    /// The game goes on by the rules: a resignation, an agreed draw or a loss on time.
    OffTheBoard,
}

/// Compares a Result tag with the verdict on the final position.
pub fn check_result(tag: &str, verdict: &Verdict) -> ResultCheck {
    let known = ["1-0", "0-1", "1/2-1/2", "*"];
    if !known.contains(&tag) {
        return ResultCheck::Mismatch;
    }
    if verdict.is_over() {
        return if verdict.score.to_string() == tag { ResultCheck::Agrees } else { ResultCheck::Mismatch };
    }
    match tag {
        "*" => ResultCheck::Agrees,
        "1/2-1/2" if !verdict.claims.is_empty() => ResultCheck::Agrees,
        _ => ResultCheck::OffTheBoard,
    }
}

/// `White - Black` from the tags (`?` for a missing name).
pub fn players(record: &GameRecord) -> String {
    let name = |tag| record.tag(tag).filter(|name| !name.is_empty()).unwrap_or("?");
    format!("{} - {}", name("White"), name("Black"))
}

/// `Event, Site, Date` from the tags, leaving out unknown (`?`) parts.
pub fn occasion(record: &GameRecord) -> String {
    let known = |tag| record.tag(tag).filter(|value| !value.is_empty() && !value.starts_with('?'));
    ["Event", "Site", "Date"].iter().filter_map(|&tag| known(tag)).collect::<Vec<_>>().join(", ")
}

/// The summary of one game, lines ending in newlines.
pub fn game_summary(review: &GameReview) -> String {
    let record = &review.record;
    let mut text = format!("Game {}: {}", record.number, players(record));
    let occasion = occasion(record);
    if !occasion.is_empty() {
        let _ = write!(text, " ({occasion})");
    }
    let _ = writeln!(text, ", {} analysed", counted(review.moves.len(), "ply", "plies"));
    let _ = writeln!(text, "  {}", result_line(review));
    if let Some(problem) = &record.problem {
        let _ = writeln!(text, "  {}", problem_line(record.number, problem, review.moves.len()));
    }
    for side in [Color::White, Color::Black] {
        let _ = writeln!(text, "  {}", side_line(review, side));
    }
    let marked: Vec<String> = review
        .moves
        .iter()
        .filter_map(|m| {
            let mark = m.mark?;
            let best = m.best_san.as_deref().map(|best| format!(" ({best} was best)")).unwrap_or_default();
            Some(format!("{}{}{best}", m.numbered, mark.glyph()))
        })
        .collect();
    if !marked.is_empty() {
        let _ = writeln!(text, "  Marked: {}", marked.join(", "));
    }
    text
}

/// `Result: 1-0 in the PGN; by the rules 1-0 checkmate: agrees`.
fn result_line(review: &GameReview) -> String {
    let tag = &review.record.result;
    let Some(verdict) = &review.verdict else {
        return format!("Result: {tag} in the PGN; not checked, the game could not be set up");
    };
    if review.record.problem.is_some() {
        return format!("Result: {tag} in the PGN; not checked, the moves stop at an illegal one");
    }
    let check = match check_result(tag, verdict) {
        ResultCheck::Agrees => "agrees",
        ResultCheck::Mismatch => "MISMATCH",
        ResultCheck::OffTheBoard => "decided off the board (resignation, agreement or time)",
    };
    format!("Result: {tag} in the PGN; by the rules {verdict}: {check}")
}

/// `Illegal move: game 3, move 4 (4. Ke3): illegal san; the 6 plies before it are analysed`.
pub fn problem_line(game: usize, problem: &GameProblem, plies: usize) -> String {
    match problem {
        GameProblem::IllegalMove { ply, numbered, reason } => {
            let number = numbered.split('.').next().unwrap_or("?");
            let verb = if plies == 1 { "is" } else { "are" };
            let plies = counted(plies, "ply", "plies");
            format!("Game {game}, move {number}: {reason} {numbered} (ply {ply}); the {plies} before it {verb} analysed")
        }
        GameProblem::BadFen { fen, reason } => {
            format!("Bad FEN tag in game {game}: '{fen}': {reason}; not analysed")
        }
    }
}

/// `White Paul Morphy: average loss 1.2% (14 cp) over 17 moves; 0 inaccuracies, 0 mistakes, 0 blunders`.
fn side_line(review: &GameReview, side: Color) -> String {
    let summary = SideSummary::of(&review.moves, side);
    let (label, tag) = match side {
        Color::White => ("White", "White"),
        Color::Black => ("Black", "Black"),
    };
    let name = review.record.tag(tag).unwrap_or("?");
    format!(
        "{label} {name}: average loss {:.1}% ({:.0} cp) over {}; {}, {}, {}",
        summary.average_loss * 100.0,
        summary.average_centipawn_loss,
        counted(summary.moves, "move", "moves"),
        counted(summary.inaccuracies, "inaccuracy", "inaccuracies"),
        counted(summary.mistakes, "mistake", "mistakes"),
        counted(summary.blunders, "blunder", "blunders")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::rules::judge;

    fn verdict(moves: &str) -> Verdict {
        judge(&Position::default().play_uci_moves(moves.split_whitespace()).unwrap())
    }

    #[test]
    fn results_are_checked_against_the_rules() {
        let mate = verdict("f2f3 e7e5 g2g4 d8h4");
        assert_eq!(check_result("0-1", &mate), ResultCheck::Agrees);
        assert_eq!(check_result("1-0", &mate), ResultCheck::Mismatch);
        assert_eq!(check_result("*", &mate), ResultCheck::Mismatch);
        let threefold = verdict("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(check_result("1/2-1/2", &threefold), ResultCheck::Agrees);
        assert_eq!(check_result("1-0", &threefold), ResultCheck::OffTheBoard);
        let opening = verdict("e2e4");
        assert_eq!(check_result("1-0", &opening), ResultCheck::OffTheBoard);
        assert_eq!(check_result("*", &opening), ResultCheck::Agrees);
        assert_eq!(check_result("white won", &opening), ResultCheck::Mismatch);
    }
}
