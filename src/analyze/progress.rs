//! The progress bar of a PGN analysis, on stderr so stdout keeps only results:
//! `game 2/5 move 17/40 [#####.....]`.
//!
//! On a terminal the bar is redrawn in place (at most ten times a second); written to a file or
//! a pipe it would fill it with redraws, so there each game gets one line when it is done.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const BAR_WIDTH: usize = 30;
const REDRAW_INTERVAL: Duration = Duration::from_millis(100);

/// Progress over a file of games.
pub struct Progress {
    games: usize,
    is_terminal: bool,
    last_draw: Option<Instant>,
    game_started: Instant,
}

impl Progress {
    /// Progress over a file of `games` games; the bar is redrawn only when stderr is a terminal.
    pub fn new(games: usize) -> Progress {
        Progress {
            games,
            is_terminal: std::io::stderr().is_terminal(),
            last_draw: None,
            game_started: Instant::now(),
        }
    }

    /// A new game starts: its clock restarts and its next line is drawn at once.
    pub fn start_game(&mut self) {
        self.game_started = Instant::now();
        self.last_draw = None;
    }

    /// `done` of `total` positions of `game` are searched.
    pub fn update(&mut self, game: usize, done: usize, total: usize) {
        if !self.is_terminal {
            return;
        }
        let now = Instant::now();
        if done < total && self.last_draw.is_some_and(|last| now - last < REDRAW_INTERVAL) {
            return;
        }
        self.last_draw = Some(now);
        let mut stderr = std::io::stderr().lock();
        let _ = write!(stderr, "\r\x1b[2K{}", bar_line(game, self.games, done, total));
        let _ = stderr.flush();
    }

    /// `game` is done after `total` positions.
    pub fn finish_game(&mut self, game: usize, total: usize) {
        let line = bar_line(game, self.games, total, total);
        let seconds = self.game_started.elapsed().as_secs_f64();
        let mut stderr = std::io::stderr().lock();
        if self.is_terminal {
            let _ = write!(stderr, "\r\x1b[2K");
        }
        let _ = writeln!(stderr, "{line} {seconds:.1} s");
    }
}

/// `game 2/5 move 17/40 [#####.....]`; a game's positions are its plies plus the start.
pub fn bar_line(game: usize, games: usize, done: usize, total: usize) -> String {
    let plies = total.saturating_sub(1);
    let ply = done.saturating_sub(1);
    let filled = (BAR_WIDTH * done).checked_div(total).unwrap_or(BAR_WIDTH).min(BAR_WIDTH);
    format!(
        "game {game}/{games} move {}/{} [{}{}]",
        ply.div_ceil(2),
        plies.div_ceil(2),
        "#".repeat(filled),
        ".".repeat(BAR_WIDTH - filled)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_moves() {
        assert_eq!(bar_line(2, 5, 1, 81), format!("game 2/5 move 0/40 [{}]", ".".repeat(30)));
        let half = bar_line(2, 5, 41, 81);
        assert!(half.starts_with("game 2/5 move 20/40 [###############"), "{half}");
        assert_eq!(bar_line(1, 1, 81, 81), format!("game 1/1 move 40/40 [{}]", "#".repeat(30)));
    }
}
