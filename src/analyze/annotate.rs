//! The annotated PGN, written the way Lichess exports an analysed game: every move followed by
//! `{ [%eval 0.31] }` (pawns from White's point of view, `#3` / `#-2` for mates), a marked move
//! carrying `?!`, `?` or `??` and `{ [%eval -1.20] Mistake. Nf3 was best. }` followed by the
//! engine's line as a variation, an unmarked move the engine would not have played naming its
//! choice (`Best: Nf3.`).
//!
//! The source's tags are kept in order, with an `Annotator` tag added (or replaced). A game cut
//! short by an illegal move ends with a comment naming it, then the source's result.

use super::game::GameReview;
use super::notation::{eval_tag, san_line};
use super::pgn::GameProblem;
use super::review::MoveReview;
use shakmaty::Chess;

/// Plies of the engine's line written as a variation after a marked move.
const VARIATION_PLIES: usize = 8;
/// Movetext lines are wrapped before this many characters (the PGN standard allows 255).
const LINE_WIDTH: usize = 80;

/// The game as annotated PGN, ending with a blank line. `annotator` names the engine and its
/// limits for the `Annotator` tag.
pub fn annotated_pgn(review: &GameReview, annotator: &str) -> String {
    let mut text = tags(review, annotator);
    text.push('\n');
    text.push_str(&wrap(&movetext(review)));
    text.push_str("\n\n");
    text
}

fn tags(review: &GameReview, annotator: &str) -> String {
    let mut tags: Vec<(String, String)> =
        review.record.tags.iter().filter(|(name, _)| name != "Annotator").cloned().collect();
    if !tags.iter().any(|(name, _)| name == "Result") {
        tags.push(("Result".to_string(), review.record.result.clone()));
    }
    tags.push(("Annotator".to_string(), annotator.to_string()));
    tags.iter().map(|(name, value)| format!("[{name} \"{}\"]\n", escape(value))).collect()
}

/// A tag value with `\` and `"` escaped, as the PGN standard asks.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The movetext as atoms: pieces that must stay on one line (`[%eval 0.31]` keeps its space).
fn movetext(review: &GameReview) -> Vec<String> {
    let mut atoms = Vec::new();
    let mut pos = review.record.start.clone();
    for review_move in &review.moves {
        // Every move follows a comment, so Black's moves carry their number too (`12... Nc6`).
        let glyph = review_move.mark.map_or("", |mark| mark.glyph());
        atoms.push(format!("{}{glyph}", review_move.numbered));
        atoms.extend(comment(review_move));
        atoms.extend(variation(pos.chess(), review_move));
        pos.play_game_move(review_move.played);
    }
    if let Some(GameProblem::IllegalMove { numbered, reason, .. }) = &review.record.problem {
        atoms.extend(comment_atoms(&format!(
            "The source's next move, {numbered}, is an {reason}; the analysis stops here."
        )));
    }
    atoms.push(review.record.result.clone());
    atoms
}

/// `{ [%eval -1.20] Mistake. Nf3 was best. }`, `{ [%eval 0.25] Best: Nf3. }` or `{ [%eval 0.31] }`.
fn comment(review_move: &MoveReview) -> Vec<String> {
    let differs = review_move.best_line.first().is_some_and(|&best| best != review_move.played);
    let words = match (review_move.mark, &review_move.best_san) {
        (Some(mark), Some(best)) => format!("{}. {best} was best.", mark.name()),
        (None, Some(best)) if differs => format!("Best: {best}."),
        _ => String::new(),
    };
    comment_atoms(&format!("{} {words}", eval_tag(review_move.after)))
}

/// `{ text }` as atoms, the braces kept with the first and last words so no line starts with
/// `}` or ends with `{`; the `[%eval ...]` command is one atom.
fn comment_atoms(text: &str) -> Vec<String> {
    let mut atoms: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match atoms.last_mut() {
            Some(command) if command.starts_with("[%") && !command.ends_with(']') => {
                command.push(' ');
                command.push_str(word);
            }
            _ => atoms.push(word.to_string()),
        }
    }
    match atoms.first_mut() {
        Some(first) => first.insert_str(0, "{ "),
        None => atoms.push("{".to_string()),
    }
    if let Some(last) = atoms.last_mut() {
        last.push_str(" }");
    }
    atoms
}

/// `( 9... Nbd7 10. Qxb7 ... )`: the engine's line instead of a marked move, played from `before`.
fn variation(before: &Chess, review_move: &MoveReview) -> Vec<String> {
    if review_move.mark.is_none() || review_move.best_line.is_empty() {
        return Vec::new();
    }
    let plies = review_move.best_line.len().min(VARIATION_PLIES);
    let line = san_line(before, &review_move.best_line[..plies]);
    let mut atoms = vec!["(".to_string()];
    // Keep each move number with its move (`12.` and `Nf3` never split over lines).
    for word in line.split(' ') {
        match atoms.last_mut() {
            Some(number) if number.ends_with('.') => {
                number.push(' ');
                number.push_str(word);
            }
            _ => atoms.push(word.to_string()),
        }
    }
    atoms.push(")".to_string());
    atoms
}

/// Joins atoms with spaces, breaking lines before `LINE_WIDTH`.
fn wrap(atoms: &[String]) -> String {
    let mut text = String::new();
    let mut line_length = 0;
    for atom in atoms {
        let width = atom.chars().count();
        if line_length > 0 && line_length + 1 + width > LINE_WIDTH {
            text.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            text.push(' ');
            line_length += 1;
        }
        text.push_str(atom);
        line_length += width;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_atoms_whole() {
        let atoms: Vec<String> = (0..30).map(|i| format!("[%eval {i}.00]")).collect();
        let text = wrap(&atoms);
        assert!(text.lines().all(|line| line.chars().count() < LINE_WIDTH));
        assert_eq!(text.matches("[%eval ").count(), 30);
        assert!(text.lines().all(|line| line.starts_with("[%eval ")));
    }

    #[test]
    fn comments_keep_braces_and_eval_commands_whole() {
        assert_eq!(
            comment_atoms("[%eval -1.20] Mistake. Nf3 was best."),
            ["{ [%eval -1.20]", "Mistake.", "Nf3", "was", "best. }"]
        );
        assert_eq!(comment_atoms("[%eval #3] "), ["{ [%eval #3] }"]);
    }

    #[test]
    fn tag_values_are_escaped() {
        assert_eq!(escape(r#"say "hi" \o/"#), r#"say \"hi\" \\o/"#);
    }
}
