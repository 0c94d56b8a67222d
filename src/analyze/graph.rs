//! The evaluation graph as SVG: one chart per game, stacked in one file.
//!
//! Each chart plots White's expected score (the WDL model's win plus half the draws, 0 to 100%)
//! after every ply, the way Lichess draws its graph: White's share as the light area under the
//! curve, Black's as the dark area above it, so a game that swings is seen at a glance and mate
//! scores need no clamping. Move numbers run along the bottom; inaccuracies, mistakes and
//! blunders are dots on the curve (blue, orange, red, as on Lichess) with the move and the
//! engine's choice as a tooltip. The title names the players, the result and the rules' verdict.
//!
//! The file starts with `<svg` and ends with `</svg>`; every text is XML-escaped.

use super::game::GameReview;
use super::review::{expected_score, Mark, SideSummary};
use super::summary::{occasion, players};
use crate::wdl;
use shakmaty::{Color, Position as _};
use std::fmt::Write as _;

const WIDTH: f64 = 960.0;
const PLOT_LEFT: f64 = 64.0;
const PLOT_RIGHT: f64 = 24.0;
const TITLE_HEIGHT: f64 = 72.0;
const PLOT_HEIGHT: f64 = 220.0;
/// Room under a plot for the move numbers and the gap to the next chart.
const BELOW_PLOT: f64 = 48.0;
const CHART_HEIGHT: f64 = TITLE_HEIGHT + PLOT_HEIGHT + BELOW_PLOT;
/// Characters of the occasion-and-verdict line that fit the width at 12 px.
const DETAILS_CHARS: usize = 140;

const WHITE_AREA: &str = "#f3f1ea";
const BLACK_AREA: &str = "#3b3a36";
const CURVE: &str = "#e08e0b";

fn mark_color(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "#56b4e9",
        Mark::Mistake => "#e69f00",
        Mark::Blunder => "#db3031",
    }
}

/// The whole SVG document for `games`; `settings` says how they were analysed (under each plot).
pub fn svg(games: &[GameReview], settings: &str) -> String {
    let height = CHART_HEIGHT * games.len().max(1) as f64;
    let mut text = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"Helvetica, Arial, sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    );
    for (index, review) in games.iter().enumerate() {
        text.push_str(&chart(review, settings, index as f64 * CHART_HEIGHT));
    }
    text.push_str("</svg>\n");
    text
}

/// White's expected score, 0 to 1, in every position reached.
pub fn white_expectations(review: &GameReview) -> Vec<f64> {
    let mut pos = review.record.start.clone();
    let mut values = Vec::with_capacity(review.evals.len());
    for (index, &eval) in review.evals.iter().enumerate() {
        values.push(expected_score(eval, Color::White, wdl::Setting::of(pos.chess())));
        if let Some(m) = review.moves.get(index) {
            pos.play_game_move(m.played);
        }
    }
    values
}

/// Maps ply indices and expected scores to a chart's plot area.
struct Frame {
    top: f64,
    plies: usize,
}

impl Frame {
    fn plot_width() -> f64 {
        WIDTH - PLOT_LEFT - PLOT_RIGHT
    }
    fn x(&self, ply: usize) -> f64 {
        PLOT_LEFT + Self::plot_width() * ply as f64 / self.plies.max(1) as f64
    }
    fn y(&self, value: f64) -> f64 {
        self.top + (1.0 - value.clamp(0.0, 1.0)) * PLOT_HEIGHT
    }
    fn bottom(&self) -> f64 {
        self.top + PLOT_HEIGHT
    }
}

fn chart(review: &GameReview, settings: &str, offset: f64) -> String {
    let mut text = titles(review, settings, offset);
    let frame = Frame { top: offset + TITLE_HEIGHT, plies: review.evals.len().saturating_sub(1) };
    let right = WIDTH - PLOT_RIGHT;
    let _ = writeln!(
        text,
        "<rect x=\"{PLOT_LEFT}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{PLOT_HEIGHT}\" fill=\"{BLACK_AREA}\"/>",
        frame.top,
        Frame::plot_width()
    );
    let values = white_expectations(review);
    if values.is_empty() {
        let _ = writeln!(
            text,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#ffffff\" text-anchor=\"middle\">not analysed</text>",
            PLOT_LEFT + Frame::plot_width() / 2.0,
            frame.y(0.5)
        );
        return text;
    }
    let points: Vec<String> =
        values.iter().enumerate().map(|(ply, &v)| format!("{:.1},{:.1}", frame.x(ply), frame.y(v))).collect();
    let _ = writeln!(
        text,
        "<polygon fill=\"{WHITE_AREA}\" points=\"{:.1},{:.1} {} {:.1},{:.1}\"/>",
        frame.x(0),
        frame.bottom(),
        points.join(" "),
        frame.x(values.len() - 1),
        frame.bottom()
    );
    for (value, label) in [(1.0, "100%"), (0.75, "75%"), (0.5, "50%"), (0.25, "25%"), (0.0, "0%")] {
        let y = frame.y(value);
        let dash = if value == 0.5 { " stroke-dasharray=\"6 4\"" } else { "" };
        let _ = writeln!(
            text,
            "<line x1=\"{PLOT_LEFT}\" y1=\"{y:.1}\" x2=\"{right:.1}\" y2=\"{y:.1}\" stroke=\"#8a8a8a\" \
             stroke-opacity=\"0.6\" stroke-width=\"1\"{dash}/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#555555\" text-anchor=\"end\">{label}</text>",
            PLOT_LEFT - 6.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        text,
        "<text transform=\"translate({:.1} {:.1}) rotate(-90)\" font-size=\"11\" fill=\"#555555\" \
         text-anchor=\"middle\">White's expected score</text>",
        PLOT_LEFT - 44.0,
        frame.y(0.5)
    );
    text.push_str(&move_axis(review, &frame));
    let _ = writeln!(
        text,
        "<polyline fill=\"none\" stroke=\"{CURVE}\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"{}\"/>",
        points.join(" ")
    );
    text.push_str(&dots(review, &frame, &values));
    text
}

/// Title (players and result), the occasion with the rules' verdict, and each side's record.
fn titles(review: &GameReview, settings: &str, offset: f64) -> String {
    let record = &review.record;
    let title = format!(
        "Game {}: {}  ·  {}",
        record.number,
        players(record).replacen(" - ", " – ", 1),
        record.result
    );
    let mut details = vec![occasion(record)];
    match (&review.verdict, &record.problem) {
        (_, Some(problem)) => details.push(format!("analysis stops: {problem}")),
        (Some(verdict), None) => details.push(format!("by the rules: {verdict}")),
        (None, None) => {}
    }
    let details: Vec<String> = details.into_iter().filter(|d| !d.is_empty()).collect();
    let side = |color| {
        let s = SideSummary::of(&review.moves, color);
        format!(
            "average loss {:.1}% ({:.0} cp), {} ?!, {} ?, {} ??",
            s.average_loss * 100.0,
            s.average_centipawn_loss,
            s.inaccuracies,
            s.mistakes,
            s.blunders
        )
    };
    let record_line = format!("White: {}    Black: {}", side(Color::White), side(Color::Black));
    let mut text = String::new();
    let _ = writeln!(
        text,
        "<text x=\"{PLOT_LEFT}\" y=\"{:.1}\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n\
         <text x=\"{PLOT_LEFT}\" y=\"{:.1}\" font-size=\"12\" fill=\"#555555\">{}</text>\n\
         <text x=\"{PLOT_LEFT}\" y=\"{:.1}\" font-size=\"12\" fill=\"#555555\">{}</text>",
        offset + 22.0,
        escape(&title),
        offset + 42.0,
        escape(&shortened(&details.join("  ·  "), DETAILS_CHARS)),
        offset + 60.0,
        escape(&record_line)
    );
    text.push_str(&legend(offset + 22.0));
    let _ = writeln!(
        text,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#888888\" text-anchor=\"end\">{}</text>",
        WIDTH - PLOT_RIGHT,
        offset + TITLE_HEIGHT + PLOT_HEIGHT + 34.0,
        escape(settings)
    );
    text
}

/// `text` cut to `limit` characters with an ellipsis, so a line stays inside the chart.
fn shortened(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(limit - 1).collect();
    cut.push('…');
    cut
}

/// The dot colours, top right.
fn legend(y: f64) -> String {
    let mut text = String::new();
    let mut x = WIDTH - PLOT_RIGHT - 270.0;
    for mark in Mark::ALL {
        let _ = writeln!(
            text,
            "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{y:.1}\" font-size=\"12\" fill=\"#333333\">{} {}</text>",
            y - 4.0,
            mark_color(mark),
            x + 9.0,
            mark.name(),
            escape(mark.glyph())
        );
        x += 95.0;
    }
    text
}

/// Ticks and labels for move numbers under the plot, at most about 16 of them.
fn move_axis(review: &GameReview, frame: &Frame) -> String {
    let start = review.record.start.chess();
    let first_move = start.fullmoves().get() as usize;
    // Plies before White's first move: 1 when the game starts with Black to move.
    let black_first = usize::from(start.turn() == Color::Black);
    let last_move = first_move + (frame.plies + black_first) / 2;
    let step = [1, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|step| (last_move - first_move) / step <= 16)
        .unwrap_or(200);
    let mut text = String::new();
    let first_tick = first_move.div_ceil(step) * step;
    for number in (first_tick.max(step)..=last_move).step_by(step) {
        // The position after White's move `number`.
        let Some(ply) = (2 * (number - first_move) + 1usize).checked_sub(black_first) else { continue };
        if ply > frame.plies {
            continue;
        }
        let x = frame.x(ply);
        let _ = writeln!(
            text,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#555555\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#555555\" text-anchor=\"middle\">{number}</text>",
            frame.bottom(),
            frame.bottom() + 5.0,
            frame.bottom() + 18.0
        );
    }
    let _ = writeln!(
        text,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#555555\" text-anchor=\"middle\">move</text>",
        PLOT_LEFT + Frame::plot_width() / 2.0,
        frame.bottom() + 34.0
    );
    text
}

/// A dot after every marked move, with a tooltip.
fn dots(review: &GameReview, frame: &Frame, values: &[f64]) -> String {
    let mut text = String::new();
    for (index, m) in review.moves.iter().enumerate() {
        let Some(mark) = m.mark else { continue };
        let best = m.best_san.as_deref().map(|best| format!(", {best} was best")).unwrap_or_default();
        let tooltip =
            format!("{}{} {} (-{:.1}%){best}", m.numbered, mark.glyph(), mark.name(), m.loss * 100.0);
        let _ = writeln!(
            text,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{}\" stroke=\"#222222\" stroke-width=\"1\">\
             <title>{}</title></circle>",
            frame.x(index + 1),
            frame.y(values[index + 1]),
            mark_color(mark),
            escape(&tooltip)
        );
    }
    text
}

/// Text with XML's special characters escaped.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("A & B <c> \"d\" 'e'"), "A &amp; B &lt;c&gt; &quot;d&quot; &apos;e&apos;");
    }
}
