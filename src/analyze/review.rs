//! Judging the moves of a game: how much each move lost against the engine's choice, the marks
//! `?!`, `?` and `??`, and each side's averages.
//!
//! A move's loss is the mover's expected score (a win 1, a draw 1/2, from the WDL model in
//! `crate::wdl`) before the move, where the engine's best move is assumed, minus the expected
//! score after the move played. Both are read in the model's setting before the move (its
//! material, and who can still win: `wdl::Setting`), so a capture neither earns nor costs
//! anything by the material count alone. A move equal to the engine's
//! choice loses nothing by definition: a later, deeper search finding the line worse is the
//! engine's horizon, not the player's error.
//!
//! The marks follow Lichess. Lichess marks on its "winning chances" scale from -1 to +1
//! (0.1 / 0.2 / 0.3); that scale is twice the expected score less one, so on the expected score
//! the same thresholds are 0.05 / 0.10 / 0.15.

use crate::search::Score;
use crate::wdl;
use shakmaty::{Color, Move};

/// A position's value: `score` as the side to move `turn` sees it. `Mate(0)`: it is mated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eval {
    /// The value from `turn`'s point of view.
    pub score: Score,
    /// The side to move in the position.
    pub turn: Color,
}

/// Expected-score loss (0 to 1) from which a move is an inaccuracy (`?!`).
pub const INACCURACY_LOSS: f64 = 0.05;
/// Expected-score loss (0 to 1) from which a move is a mistake (`?`).
pub const MISTAKE_LOSS: f64 = 0.10;
/// Expected-score loss (0 to 1) from which a move is a blunder (`??`).
pub const BLUNDER_LOSS: f64 = 0.15;

/// Centipawn losses count mates and larger scores as this much, as Lichess's average does, so
/// one missed mate does not swamp a game's average.
pub const CENTIPAWN_CAP: i32 = 1000;

/// How bad a move was, from its loss of expected score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`: a loss of at least `INACCURACY_LOSS`.
    Inaccuracy,
    /// `?`: a loss of at least `MISTAKE_LOSS`.
    Mistake,
    /// `??`: a loss of at least `BLUNDER_LOSS`.
    Blunder,
}

impl Mark {
    /// Every mark, mildest first.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The mark a loss earns, if any.
    pub fn for_loss(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER_LOSS {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE_LOSS {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY_LOSS {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The PGN suffix: `?!`, `?`, `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
        }
    }
}

/// The mover's expected score, 0 to 1, from a position's value and the model's `setting`
/// (material, who can still win).
pub fn expected_score(eval: Eval, mover: Color, setting: wdl::Setting) -> f64 {
    let own = wdl::MODEL.expected_score_for(eval.score, eval.turn, setting);
    if eval.turn == mover {
        own
    } else {
        1.0 - own
    }
}

/// Centipawns from the mover's side, mates and big scores capped at `CENTIPAWN_CAP`.
pub fn capped_centipawns(eval: Eval, mover: Color) -> i32 {
    let own = match eval.score {
        Score::Centipawns(cp) => cp.clamp(-CENTIPAWN_CAP, CENTIPAWN_CAP),
        Score::Mate(moves) if moves > 0 => CENTIPAWN_CAP,
        Score::Mate(_) => -CENTIPAWN_CAP,
    };
    if eval.turn == mover {
        own
    } else {
        -own
    }
}

/// One move of a game, judged.
#[derive(Debug, Clone)]
pub struct MoveReview {
    /// The move of the game.
    pub played: Move,
    /// `12. Nf3` / `12... Nc6`.
    pub numbered: String,
    /// The side that played it.
    pub mover: Color,
    /// The engine's choice before the move and its line (empty in a finished position).
    pub best_line: Vec<Move>,
    /// `Nf3`: the engine's choice in SAN.
    pub best_san: Option<String>,
    /// The value of the position before the move, with the engine's choice.
    pub before: Eval,
    /// The value of the position after the move played.
    pub after: Eval,
    /// Loss of expected score, 0 to 1.
    pub loss: f64,
    /// Centipawns lost from the mover's view, 0 or more, both values capped at `CENTIPAWN_CAP`.
    pub centipawn_loss: i32,
    /// `?!`, `?` or `??` by `loss`; `None` for a good move.
    pub mark: Option<Mark>,
}

/// What `judge_move` needs about one move.
pub struct MoveFacts {
    /// The move of the game.
    pub played: Move,
    /// The side that played it.
    pub mover: Color,
    /// The engine's choice before it (`None` when the search gave none); matching it loses
    /// nothing.
    pub best: Option<Move>,
    /// The value of the position before the move.
    pub before: Eval,
    /// The value of the position after the move played.
    pub after: Eval,
    /// The model's setting before the move (`wdl::Setting::of`): material, who can win.
    pub setting: wdl::Setting,
}

/// The loss, centipawn loss and mark of one move.
pub fn judge_move(facts: &MoveFacts) -> (f64, i32, Option<Mark>) {
    if facts.best == Some(facts.played) {
        return (0.0, 0, None);
    }
    let mover = facts.mover;
    let loss = (expected_score(facts.before, mover, facts.setting)
        - expected_score(facts.after, mover, facts.setting))
    .max(0.0);
    let centipawn_loss =
        (capped_centipawns(facts.before, mover) - capped_centipawns(facts.after, mover)).max(0);
    (loss, centipawn_loss, Mark::for_loss(loss))
}

/// One side's record over a game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SideSummary {
    /// Moves the side played.
    pub moves: usize,
    /// Mean loss of expected score, 0 to 1.
    pub average_loss: f64,
    /// Mean centipawn loss (capped per move at `CENTIPAWN_CAP`).
    pub average_centipawn_loss: f64,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
}

impl SideSummary {
    /// The record of `side`'s moves among `moves`.
    pub fn of(moves: &[MoveReview], side: Color) -> SideSummary {
        let own: Vec<&MoveReview> = moves.iter().filter(|m| m.mover == side).collect();
        let count = |mark| own.iter().filter(|m| m.mark == Some(mark)).count();
        let mean = |total: f64| if own.is_empty() { 0.0 } else { total / own.len() as f64 };
        SideSummary {
            moves: own.len(),
            average_loss: mean(own.iter().map(|m| m.loss).sum()),
            average_centipawn_loss: mean(own.iter().map(|m| f64::from(m.centipawn_loss)).sum()),
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            blunders: count(Mark::Blunder),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn eval(cp: i32, turn: Color) -> Eval {
        Eval { score: Score::Centipawns(cp), turn }
    }

    fn facts(before: Eval, after: Eval, best_played: bool) -> MoveFacts {
        let pos = Position::default();
        let e4 = pos.parse_uci_move("e2e4").unwrap();
        let d4 = pos.parse_uci_move("d2d4").unwrap();
        MoveFacts {
            played: e4,
            mover: Color::White,
            best: Some(if best_played { e4 } else { d4 }),
            before,
            after,
            setting: wdl::Setting::both_can_win(40),
        }
    }

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::for_loss(0.049), None);
        assert_eq!(Mark::for_loss(0.05), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(0.10), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(0.2), Some(Mark::Blunder));
        let glyphs: Vec<&str> = Mark::ALL.iter().map(|m| m.glyph()).collect();
        assert_eq!(glyphs, ["?!", "?", "??"]);
    }

    #[test]
    fn a_loss_is_read_from_the_movers_side() {
        // White was +0.30; after the move Black, to move, stands +3.00: a blunder.
        let (loss, cp_loss, mark) =
            judge_move(&facts(eval(30, Color::White), eval(300, Color::Black), false));
        assert!(loss > BLUNDER_LOSS, "{loss}");
        assert_eq!((cp_loss, mark), (330, Some(Mark::Blunder)));
        // Black, to move, stands worse after the move than White stood before: no loss.
        let (loss, cp_loss, mark) =
            judge_move(&facts(eval(30, Color::White), eval(-50, Color::Black), false));
        assert_eq!((loss, cp_loss, mark), (0.0, 0, None));
        // The engine's own move never loses, whatever the next search thinks.
        let (loss, _, mark) = judge_move(&facts(eval(30, Color::White), eval(300, Color::Black), true));
        assert_eq!((loss, mark), (0.0, None));
    }

    #[test]
    fn giving_up_a_won_ending_is_a_blunder() {
        // King and rook against king, +7.80: a sure win. Dropping the rook (0.00 after) loses
        // half a point, where the two-sided model would have called the ending half drawn.
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let mut rook_up = facts(eval(780, Color::White), eval(0, Color::Black), false);
        rook_up.setting = wdl::Setting::of(pos.chess());
        let (loss, _, mark) = judge_move(&rook_up);
        assert!(loss > 0.49 && mark == Some(Mark::Blunder), "{loss}");
    }

    #[test]
    fn mates_are_certain_and_capped_in_centipawns() {
        let mated = Eval { score: Score::Mate(0), turn: Color::Black };
        let setting = wdl::Setting::both_can_win(10);
        assert_eq!(expected_score(mated, Color::White, setting), 1.0);
        assert_eq!(expected_score(mated, Color::Black, setting), 0.0);
        assert_eq!(capped_centipawns(mated, Color::White), CENTIPAWN_CAP);
        // Missing a mate in 2 for a +1.00 position (which the model puts near 0.72).
        let before = Eval { score: Score::Mate(2), turn: Color::White };
        let (loss, cp_loss, mark) = judge_move(&facts(before, eval(-100, Color::Black), false));
        assert!(loss > 0.25 && cp_loss == 900 && mark == Some(Mark::Blunder), "{loss} {cp_loss}");
    }
}
