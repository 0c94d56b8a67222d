//! Reading games from PGN: `pgn-reader` tokenizes the file (tags, SAN, comments, variations),
//! and each game's main line is replayed on a `Position`, so repetitions and the move counters
//! are the game's own.
//!
//! Variations and comments of the source are skipped. A game whose movetext has an illegal (or
//! ambiguous) move keeps the moves before it and records the problem, so the rest of the game
//! and the other games are still analysed. A token the reader cannot read as SAN at all is
//! skipped by `pgn-reader`; the move after it then usually fails as the wrong side's move.

use crate::position::Position;
use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Visitor};
use shakmaty::san::SanError;
use shakmaty::Move;
use std::io::Read;
use std::ops::ControlFlow;

/// One game as written: its tags in order, its main-line moves and its termination marker.
#[derive(Debug, Clone, Default)]
pub struct RawGame {
    /// `(name, value)` of every tag, in file order.
    pub tags: Vec<(String, String)>,
    /// The main line's moves as written, not yet checked.
    pub sans: Vec<SanPlus>,
    /// The movetext's result marker (`1-0`, `0-1`, `1/2-1/2`, `*`), if it had one.
    pub termination: Option<String>,
}

/// Collects `RawGame`s from the reader's events.
struct Collector;

impl Visitor for Collector {
    type Tags = Vec<(String, String)>;
    type Movetext = RawGame;
    type Output = RawGame;

    fn begin_tags(&mut self) -> ControlFlow<RawGame, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<RawGame> {
        tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<RawGame, RawGame> {
        ControlFlow::Continue(RawGame { tags, ..RawGame::default() })
    }

    fn san(&mut self, game: &mut RawGame, san: SanPlus) -> ControlFlow<RawGame> {
        game.sans.push(san);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut RawGame, outcome: Outcome) -> ControlFlow<RawGame> {
        game.termination = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: RawGame) -> RawGame {
        game
    }
}

/// Every game in `input`.
pub fn read_games(input: impl Read) -> std::io::Result<Vec<RawGame>> {
    let mut reader = Reader::new(input);
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut Collector)? {
        games.push(game);
    }
    Ok(games)
}

/// Why a game could not be replayed to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameProblem {
    /// The FEN tag is not a legal position; nothing of the game is analysed.
    BadFen {
        /// The FEN tag's value.
        fen: String,
        /// Why it is not a legal position.
        reason: String,
    },
    /// Move `ply` (1-based), written `numbered` (`4. Ke3`), is not legal (`reason`: `illegal move`
    /// or `ambiguous move`); the moves before it are analysed.
    IllegalMove {
        /// The move's ply in the game, counting from 1.
        ply: usize,
        /// The move with its number, as written (`4. Ke3`).
        numbered: String,
        /// `illegal move` or `ambiguous move`.
        reason: &'static str,
    },
}

impl std::fmt::Display for GameProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameProblem::BadFen { fen, reason } => write!(f, "bad FEN tag '{fen}': {reason}"),
            GameProblem::IllegalMove { ply, numbered, reason } => {
                write!(f, "{reason} '{numbered}' at ply {ply}")
            }
        }
    }
}

/// A game replayed: the legal moves from its start, and what stopped the replay, if anything.
#[derive(Clone)]
pub struct GameRecord {
    /// 1-based position in the file.
    pub number: usize,
    /// `(name, value)` of every tag, in file order.
    pub tags: Vec<(String, String)>,
    /// The starting position: the FEN tag's, else the standard one.
    pub start: Position,
    /// The main-line moves that replayed legally, up to the first that did not.
    pub moves: Vec<Move>,
    /// What stopped the replay early, if anything.
    pub problem: Option<GameProblem>,
    /// The Result tag, else the movetext's termination marker, else `*`.
    pub result: String,
}

impl GameRecord {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }
}

/// Replays `raw`, game `number` of its file.
pub fn replay(number: usize, raw: RawGame) -> GameRecord {
    let tag = |name: &str| raw.tags.iter().find(|(key, _)| key == name).map(|(_, v)| v.clone());
    let result = tag("Result").or_else(|| raw.termination.clone()).unwrap_or_else(|| "*".to_string());
    let chess960 = tag("Variant").is_some_and(|variant| variant.contains("960"));
    let mut record = GameRecord {
        number,
        tags: raw.tags.clone(),
        start: Position::default(),
        moves: Vec::new(),
        problem: None,
        result,
    };
    if let Some(fen) = tag("FEN") {
        match Position::from_fen(&fen, chess960) {
            Ok(start) => record.start = start,
            Err(error) => {
                record.problem = Some(GameProblem::BadFen { fen, reason: error.to_string() });
                return record;
            }
        }
    }
    let mut pos = record.start.clone();
    for (index, san_plus) in raw.sans.iter().enumerate() {
        match san_plus.san.to_move(pos.chess()) {
            Ok(m) => {
                record.moves.push(m);
                pos.play_game_move(m);
            }
            Err(error) => {
                let numbered = format!("{}{}", super::notation::move_number(pos.chess()), san_plus);
                let reason = match error {
                    SanError::AmbiguousSan => "ambiguous move",
                    SanError::IllegalSan => "illegal move",
                };
                record.problem = Some(GameProblem::IllegalMove { ply: index + 1, numbered, reason });
                break;
            }
        }
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = "[Event \"A\"]\n[White \"W\"]\n[Result \"0-1\"]\n\n\
        1. f3 e5 (1... d5 2. e4) 2. g4 {blunder} Qh4# 0-1\n\n\
        [Event \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n";

    #[test]
    fn games_keep_their_tags_and_main_line() {
        let games = read_games(TWO_GAMES.as_bytes()).unwrap();
        assert_eq!(games.len(), 2);
        let first = replay(1, games[0].clone());
        assert_eq!(first.tag("White"), Some("W"));
        assert_eq!((first.moves.len(), first.result.as_str(), first.problem.clone()), (4, "0-1", None));
        assert_eq!(games[0].termination.as_deref(), Some("0-1"));
    }

    #[test]
    fn an_illegal_move_keeps_the_moves_before_it() {
        let games = read_games(TWO_GAMES.as_bytes()).unwrap();
        let second = replay(2, games[1].clone());
        assert_eq!(second.moves.len(), 2);
        let Some(GameProblem::IllegalMove { ply, numbered, .. }) = second.problem.clone() else {
            panic!("{:?}", second.problem)
        };
        assert_eq!((ply, numbered.as_str()), (3, "2. Ke3"));
    }

    #[test]
    fn a_fen_tag_sets_the_start() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n[SetUp \"1\"]\n\n40... Kd7 41. e4 *\n";
        let game = replay(1, read_games(pgn.as_bytes()).unwrap().remove(0));
        assert_eq!((game.moves.len(), game.problem), (2, None));
        let bad = "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
        let game = replay(1, read_games(bad.as_bytes()).unwrap().remove(0));
        assert!(matches!(game.problem, Some(GameProblem::BadFen { .. })));
    }
}
