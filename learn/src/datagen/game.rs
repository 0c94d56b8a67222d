//! One self-play game: search every move within the run's node limits (`budget.rs`), keep the quiet positions,
//! stop when the rules or the adjudication rules say so, and label the kept positions with the
//! result.
//!
//! Before each move the full FIDE rules (`rules::judge`) decide whether the game is over
//! (checkmate, stalemate, fivefold repetition, the seventy-five-move rule, insufficient
//! material or another dead position, all but checkmate scored as draws); a claimable threefold
//! repetition or fifty-move rule is taken as a draw, as a GUI would claim it. After each search
//! the adjudicator may end the game: a resignation when both sides have agreed for
//! `RESIGN_PLIES` plies that one of them is `RESIGN_SCORE_CP` ahead and the board still holds
//! `RESIGN_MIN_MATERIAL` (thinner endgames are played out: see that constant), a draw after
//! `DRAW_FROM_PLY` when the score stayed within `DRAW_SCORE_CP` for `DRAW_PLIES` plies, and a
//! draw at `MAX_GAME_PLIES`. Plies are counted from the end of the opening.
//!
//! With Syzygy tables, a game that reaches a table position ends there with the table's result
//! (a win the fifty-move rule frustrates counts as a draw), unless a table playout is asked for:
//! then the game goes on for that many plies more (or until the rules end it), every position
//! from the first table position on labelled with its own table result, a draw scored 0 and a
//! win at least `TABLE_WIN_CP`. Without it the net never sees those endings, and guesses them
//! (net 9 scored a rook against a bishop, a dead draw, three pawns up). A probe that finds its
//! table missing or unreadable ends nothing: the game is played on, and the miss is kept in the
//! game's record for the run to count and report (`GameRecord::tablebase_misses`). At 5,000
//! nodes a move the engine cannot always mate with a lone rook or two bishops, so without tables such endings are often
//! shuffled to the fifty-move rule, and every position before them is labelled a draw.
//!
//! Every searched position is recorded with what the search said of it (score, mate, whether
//! the best move captures or promotes). The binary records (`data`) keep them all, flagged, for
//! the reader's filter to choose from; the older text format writes only the positions whose
//! label is likely to mean something for a static evaluation: the side to move is not in
//! check, the best move is neither a capture nor a promotion, and the score is not a mate.

use super::budget::{self, NodeBudget};
use crate::data::{write_text_line, DataResult, GamePlace, PackedPosition, SearchLabel};
use patina::position::Position;
use patina::rules;
use patina::search::{Score, SearchMemory};
use patina::tablebase::{self, Outcome, ProbeMiss, Tablebases};
use patina::tt::TranspositionTable;
use shakmaty::{Chess, Color, Move, Position as _};

/// Score (centipawns) at which the losing side resigns.
pub const RESIGN_SCORE_CP: i32 = 1000;
/// Consecutive plies both sides must see the resignation score, with the same winner.
pub const RESIGN_PLIES: u32 = 4;
/// Least material on the board (`wdl::material`: pawns 1, minors 3, rooks 5, queens 9, both
/// sides) at which a resignation is accepted. The WDL model fitted on the net-1 engine's games
/// (docs/nets.md, dg4) makes its 1000 cp a win 997 times in 1000 at material 16 and above but
/// only 951 at 8 and 858 at 4; with thin endgames played out (dg5) about 740 at 8.
pub const RESIGN_MIN_MATERIAL: i32 = 12;
/// Largest absolute score (centipawns) that counts towards draw adjudication.
pub const DRAW_SCORE_CP: i32 = 10;
/// Consecutive near-zero plies that adjudicate a draw.
pub const DRAW_PLIES: u32 = 10;
/// Plies that must have been played before near-zero scores start to count.
pub const DRAW_FROM_PLY: u32 = 80;
/// A game still running after this many plies is a draw.
pub const MAX_GAME_PLIES: u32 = 400;
/// What a mate score counts as when adjudicating (beyond any resignation threshold).
const MATE_AS_CP: i32 = 32_000;
/// The least score (centipawns, the winner's view) a table win is labelled with in a table
/// playout: what the adjudicator takes for a won game.
pub const TABLE_WIN_CP: i32 = RESIGN_SCORE_CP;

/// The outcome of a game from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`, by mate, resignation or a tablebase win.
    WhiteWins,
    /// `1/2-1/2`, by the rules or by adjudication.
    Draw,
    /// `0-1`, by mate, resignation or a tablebase win.
    BlackWins,
}

impl GameResult {
    /// A win for whoever `white_cp` favours.
    fn favoured_by(white_cp: i32) -> GameResult {
        if white_cp > 0 {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        }
    }
}

/// One searched position of a game and what the search said of it.
#[derive(Debug, Clone)]
pub struct SearchedPosition {
    pub board: Chess,
    /// The search score, White's view, mates as `MATE_AS_CP`.
    pub white_cp: i32,
    pub mate: bool,
    pub best_is_capture: bool,
    pub best_is_promotion: bool,
    /// The table's result for this position, where a table playout probed it; the game's
    /// result labels it otherwise.
    pub table_result: Option<GameResult>,
}

impl SearchedPosition {
    /// Whether the text format keeps it (see the module comment).
    pub fn is_quiet(&self) -> bool {
        !self.board.is_check() && !self.best_is_capture && !self.best_is_promotion && !self.mate
    }
}

/// A finished game: every searched position, in order, and the result.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// Every position a move was searched in, from the opening on.
    pub positions: Vec<SearchedPosition>,
    /// How the game ended.
    pub result: GameResult,
    /// Probes that should have ended the game but found a table missing or unreadable, in
    /// order (never `ProbeMiss::NotHeld`); the game was played on past each.
    pub tablebase_misses: Vec<ProbeMiss>,
}

impl From<GameResult> for DataResult {
    fn from(result: GameResult) -> DataResult {
        match result {
            GameResult::WhiteWins => DataResult::WhiteWins,
            GameResult::Draw => DataResult::Draw,
            GameResult::BlackWins => DataResult::BlackWins,
        }
    }
}

impl GameRecord {
    /// The quiet positions as text lines, `FEN | score | result` each, newline-terminated.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for position in self.positions.iter().filter(|p| p.is_quiet()) {
            let fen = shakmaty::fen::Fen::from_position(&position.board, shakmaty::EnPassantMode::Legal);
            let result = position.table_result.unwrap_or(self.result);
            write_text_line(&mut text, fen, position.white_cp, result.into());
        }
        text
    }

    /// Positions `to_text` writes.
    pub fn quiet_count(&self) -> usize {
        self.positions.iter().filter(|p| p.is_quiet()).count()
    }

    /// Every position as a 32-byte record, the first marked as the game's start.
    pub fn to_records(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.positions.len() * crate::data::RECORD_BYTES);
        for (ply, position) in self.positions.iter().enumerate() {
            let label = SearchLabel {
                white_score: position.white_cp,
                mate: position.mate,
                best_is_capture: position.best_is_capture,
                best_is_promotion: position.best_is_promotion,
            };
            let result = DataResult::from(position.table_result.unwrap_or(self.result));
            let place = GamePlace { ply: ply as u32, game_start: ply == 0, result };
            // A legal game position always packs (at most 32 pieces, one king a side).
            if let Ok(record) = PackedPosition::pack(&position.board, label, place) {
                bytes.extend_from_slice(record.as_bytes());
            }
        }
        bytes
    }
}

/// Tracks the score streaks that end a game early.
#[derive(Debug, Default)]
struct Adjudicator {
    resign_streak: u32,
    /// Sign (1 or -1) of White's score over the current resignation streak.
    resign_sign: i32,
    draw_streak: u32,
}

impl Adjudicator {
    /// Takes White's score after the search at `ply` of a position with `material` on the
    /// board; says whether the game ends here.
    fn update(&mut self, ply: u32, white_cp: i32, material: i32) -> Option<GameResult> {
        if white_cp.abs() >= RESIGN_SCORE_CP && material >= RESIGN_MIN_MATERIAL {
            let sign = white_cp.signum();
            self.resign_streak = if sign == self.resign_sign { self.resign_streak + 1 } else { 1 };
            self.resign_sign = sign;
        } else {
            self.resign_streak = 0;
            self.resign_sign = 0;
        }
        if self.resign_streak >= RESIGN_PLIES {
            return Some(GameResult::favoured_by(white_cp));
        }
        let near_zero = ply >= DRAW_FROM_PLY && white_cp.abs() <= DRAW_SCORE_CP;
        self.draw_streak = if near_zero { self.draw_streak + 1 } else { 0 };
        (self.draw_streak >= DRAW_PLIES).then_some(GameResult::Draw)
    }
}

/// White's view of a search score, mates counted as `MATE_AS_CP`.
fn white_centipawns(score: Score, turn: Color) -> i32 {
    let own = match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(moves) if moves > 0 => MATE_AS_CP,
        Score::Mate(_) => -MATE_AS_CP,
    };
    match turn {
        Color::White => own,
        Color::Black => -own,
    }
}

/// The result the rules give, if the game is over or a draw can be claimed.
fn rules_result(pos: &Position) -> Option<GameResult> {
    let verdict = rules::judge(pos);
    match verdict.score {
        rules::Score::WhiteWins => Some(GameResult::WhiteWins),
        rules::Score::BlackWins => Some(GameResult::BlackWins),
        rules::Score::Draw => Some(GameResult::Draw),
        rules::Score::Unfinished if !verdict.claims.is_empty() => Some(GameResult::Draw),
        rules::Score::Unfinished => None,
    }
}

/// The tables' result for a position they hold, looked up only right after a capture or pawn
/// move (halfmove clock 0), where a WDL probe is exact; the first table position of a game is
/// always reached that way, by the capture that brought the piece count down. `Err` when the
/// tables should hold the position but a table it needs is missing or unreadable.
fn tablebase_result(pos: &Position, tables: Option<&Tablebases>) -> Result<Option<GameResult>, ProbeMiss> {
    let Some(tables) = tables else { return Ok(None) };
    if pos.chess().halfmoves() != 0 {
        return Ok(None);
    }
    table_label(pos.chess(), tables)
}

/// The tables' result for `chess` as if its halfmove clock were 0 (what a table playout labels
/// its positions with; off by a cursed win at worst); `Ok(None)` outside the tables.
fn table_label(chess: &Chess, tables: &Tablebases) -> Result<Option<GameResult>, ProbeMiss> {
    if !tablebase::is_candidate(chess, tables.max_pieces()) {
        return Ok(None);
    }
    let mover_wins = match tables.try_probe_wdl(chess, true) {
        Ok(Outcome::Draw) => return Ok(Some(GameResult::Draw)),
        Ok(Outcome::Win) => true,
        Ok(Outcome::Loss) => false,
        Err(ProbeMiss::NotHeld) => return Ok(None),
        Err(miss) => return Err(miss),
    };
    Ok(Some(if mover_wins == (chess.turn() == Color::White) {
        GameResult::WhiteWins
    } else {
        GameResult::BlackWins
    }))
}

/// What the search said of `pos`.
fn searched(pos: &Position, best: Move, score: Score, white_cp: i32) -> SearchedPosition {
    SearchedPosition {
        board: pos.chess().clone(),
        white_cp,
        mate: matches!(score, Score::Mate(_)),
        best_is_capture: best.is_capture(),
        best_is_promotion: best.is_promotion(),
        table_result: None,
    }
}

/// `position` labelled with its table result: a draw scores 0, a win at least `TABLE_WIN_CP`
/// for the winner (a mate the search found is kept as it is).
fn with_table_label(mut position: SearchedPosition, result: GameResult) -> SearchedPosition {
    if !position.mate {
        position.white_cp = match result {
            GameResult::Draw => 0,
            GameResult::WhiteWins => position.white_cp.max(TABLE_WIN_CP),
            GameResult::BlackWins => position.white_cp.min(-TABLE_WIN_CP),
        };
    }
    position.table_result = Some(result);
    position
}

/// Plays the game from `start` to its end, searching each move within `budget` on one thread
/// with `tt` (which the caller has cleared for this game), ending it at the first position
/// `tablebases` hold (or `table_playout` plies after it, see the module comment) and keeping
/// the probes they could not answer.
///
/// One `SearchMemory` serves the whole game, as the engine's does between `go` commands in a
/// real game: fresh histories at every move would make each 5,000-node search order its moves
/// as if it had never seen the position's neighbours, which is not how Patina plays.
pub fn play(
    start: Position,
    budget: NodeBudget,
    tt: &TranspositionTable,
    tablebases: Option<&Tablebases>,
    table_playout: u32,
) -> GameRecord {
    let memory = SearchMemory::default();
    let mut pos = start;
    let mut positions = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let mut tablebase_misses = Vec::new();
    let mut ply = 0;
    // The first table position's result and ply, once a playout has gone past it: the result
    // of every position before it, whatever the playout's own end.
    let mut entered: Option<(GameResult, u32)> = None;
    let result = loop {
        if let Some(result) = rules_result(&pos) {
            // In a playout the positions before the tables keep the tables' result.
            break entered.map_or(result, |(table_result, _)| table_result);
        }
        if entered.is_none() {
            let tables_say = match tablebase_result(&pos, tablebases) {
                Ok(result) => result,
                Err(miss) => {
                    tablebase_misses.push(miss);
                    None
                }
            };
            match tables_say {
                Some(result) if table_playout == 0 => break result,
                Some(result) => entered = Some((result, ply)),
                None => {}
            }
        }
        if let Some((result, from)) = entered {
            if ply >= from + table_playout {
                break result;
            }
        } else if ply >= MAX_GAME_PLIES {
            break GameResult::Draw;
        }
        // `rules_result` has ended every game without a legal move.
        let Some(outcome) = budget::search(&pos, budget, tt, &memory) else { break GameResult::Draw };
        let white_cp = white_centipawns(outcome.score, pos.turn());
        let position = searched(&pos, outcome.best, outcome.score, white_cp);
        if entered.is_some() {
            // A position whose table the run lacks stays unlabelled: it keeps the game's
            // result and the search's score, as every position did before playouts.
            let label = tablebases.and_then(|tables| table_label(pos.chess(), tables).ok().flatten());
            positions.push(match label {
                Some(result) => with_table_label(position, result),
                None => position,
            });
        } else {
            positions.push(position);
            if let Some(result) = adjudicator.update(ply, white_cp, patina::wdl::material(pos.chess())) {
                break result;
            }
        }
        pos.play_game_move(outcome.best);
        ply += 1;
    };
    GameRecord { positions, result, tablebase_misses }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `wdl::material` of the starting position.
    const FULL_BOARD: i32 = patina::wdl::MATERIAL_MAX;

    #[test]
    fn resignation_needs_four_agreeing_plies() {
        let mut judge = Adjudicator::default();
        assert_eq!(judge.update(0, 1200, FULL_BOARD), None);
        assert_eq!(judge.update(1, 1500, FULL_BOARD), None);
        assert_eq!(judge.update(2, -1100, FULL_BOARD), None, "a change of winner restarts the streak");
        assert_eq!(judge.update(3, -1000, FULL_BOARD), None);
        assert_eq!(judge.update(4, -MATE_AS_CP, FULL_BOARD), None);
        assert_eq!(judge.update(5, -1300, FULL_BOARD), Some(GameResult::BlackWins));
    }

    #[test]
    fn thin_endgames_are_played_out_not_resigned() {
        let mut judge = Adjudicator::default();
        for ply in 0..8 {
            let material = RESIGN_MIN_MATERIAL - 1;
            assert_eq!(judge.update(ply, 1500, material), None, "ply {ply}");
        }
        for ply in 8..11 {
            assert_eq!(judge.update(ply, 1500, RESIGN_MIN_MATERIAL), None, "the streak restarts");
        }
        assert_eq!(judge.update(11, 1500, RESIGN_MIN_MATERIAL), Some(GameResult::WhiteWins));
    }

    #[test]
    fn draws_need_ten_quiet_plies_after_ply_eighty() {
        let mut judge = Adjudicator::default();
        for ply in 70..89 {
            assert_eq!(judge.update(ply, 5, FULL_BOARD), None, "ply {ply}");
        }
        assert_eq!(judge.update(89, -10, FULL_BOARD), Some(GameResult::Draw));
        let mut judge = Adjudicator::default();
        for ply in 80..89 {
            assert_eq!(judge.update(ply, 0, FULL_BOARD), None);
        }
        assert_eq!(judge.update(89, 11, FULL_BOARD), None, "one larger score restarts the count");
    }

    #[test]
    fn scores_are_turned_to_whites_view() {
        assert_eq!(white_centipawns(Score::Centipawns(35), Color::Black), -35);
        assert_eq!(white_centipawns(Score::Mate(2), Color::Black), -MATE_AS_CP);
        assert_eq!(white_centipawns(Score::Mate(-3), Color::Black), MATE_AS_CP);
    }

    #[test]
    fn finished_games_end_before_any_search() {
        let mated = Position::default().play_uci_moves(["f2f3", "e7e5", "g2g4", "d8h4"]).unwrap();
        let tt = TranspositionTable::new(1).unwrap();
        let record = play(mated, NodeBudget::fixed(100), &tt, None, 0);
        assert_eq!(record.result, GameResult::BlackWins);
        assert!(record.positions.is_empty());
        assert_eq!(record.to_text(), "");
    }

    #[test]
    fn a_dead_position_ends_the_game_as_a_draw() {
        // A locked pawn wall neither king can pass, with legal moves left.
        let wall = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
        let pos = Position::from_fen(wall, false).unwrap();
        assert_eq!(rules::judge(&pos).reason, rules::Reason::DeadPosition);
        assert_eq!(rules_result(&pos), Some(GameResult::Draw));
        let tt = TranspositionTable::new(1).unwrap();
        let record = play(pos, NodeBudget::fixed(100), &tt, None, 0);
        assert_eq!(record.result, GameResult::Draw);
        assert!(record.positions.is_empty());
    }

    #[test]
    fn a_table_position_ends_the_game_with_the_tables_result() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/syzygy");
        let tables = Tablebases::load(folder).expect("the test tables load");
        let tt = TranspositionTable::new(1).unwrap();
        let results = [
            ("8/8/8/3k4/8/8/8/R3K3 w - - 0 1", GameResult::WhiteWins),
            ("8/8/8/3k4/8/8/8/R3K3 b - - 0 1", GameResult::WhiteWins),
            ("8/8/8/3K4/8/8/8/r3k3 w - - 0 1", GameResult::BlackWins),
            ("8/8/8/8/8/8/3kP3/7K b - - 0 1", GameResult::Draw),
        ];
        for (fen, result) in results {
            let record =
                play(Position::from_fen(fen, false).unwrap(), NodeBudget::fixed(100), &tt, Some(&tables), 0);
            assert_eq!(record.result, result, "{fen}");
            assert!(record.positions.is_empty(), "{fen}: nothing searched");
        }
        // Only right after a zeroing move, where the probe is exact; never without tables.
        let shuffled = Position::from_fen("8/8/8/3k4/8/8/8/R3K3 w - - 5 40", false).unwrap();
        assert_eq!(tablebase_result(&shuffled, Some(&tables)), Ok(None));
        let fresh = Position::from_fen("8/8/8/3k4/8/8/8/R3K3 w - - 0 40", false).unwrap();
        assert_eq!(tablebase_result(&fresh, None), Ok(None));
        // A position the tables do not hold is played on.
        let bigger = Position::from_fen("8/8/8/3k4/8/8/1P6/RN2K3 w - - 0 1", false).unwrap();
        assert_eq!(tablebase_result(&bigger, Some(&tables)), Ok(None));
        assert!(record_misses(&tables, "8/8/8/3k4/8/8/8/R3K3 w - - 0 1").is_empty(), "every table answers");
    }

    #[test]
    fn a_table_playout_labels_each_position_by_its_own_probe() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/syzygy");
        let tables = Tablebases::load(folder).expect("the test tables load");
        let tt = TranspositionTable::new(1).unwrap();
        let game = |fen: &str| {
            tt.clear();
            play(Position::from_fen(fen, false).unwrap(), NodeBudget::fixed(100), &tt, Some(&tables), 6)
        };

        // A rook up: six plies more, each a table win scored at least the resignation score.
        let won = game("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
        assert_eq!(won.result, GameResult::WhiteWins);
        assert_eq!(won.positions.len(), 6, "played on for the playout, not ended at the tables");
        for position in &won.positions {
            assert_eq!(position.table_result, Some(GameResult::WhiteWins));
            assert!(position.mate || position.white_cp >= TABLE_WIN_CP, "{}", position.white_cp);
        }

        // A rook pawn whose queening square the defending king holds: drawn, scored 0, though
        // the search may see a pawn more; the records carry the label.
        let drawn = game("k7/8/8/8/8/8/P7/K7 w - - 0 1");
        assert_eq!(drawn.result, GameResult::Draw);
        assert!(!drawn.positions.is_empty());
        for position in &drawn.positions {
            assert_eq!(position.table_result, Some(GameResult::Draw));
            assert_eq!((position.white_cp, position.mate), (0, false));
        }
        let records = drawn.to_records();
        let first: [u8; crate::data::RECORD_BYTES] = records[..crate::data::RECORD_BYTES].try_into().unwrap();
        let first = PackedPosition::from_bytes(first).unwrap();
        assert_eq!((first.white_score(), first.result()), (0, DataResult::Draw));

        // Before the tables, the game's positions keep the entry's result; in them, their own.
        let position = |fen: &str| searched_at(fen, 150);
        let before = GameRecord {
            positions: vec![
                position("8/8/8/3k4/8/8/1P6/RN2K3 w - - 0 1"),
                with_table_label(position("k7/8/8/8/8/8/P7/K7 w - - 0 1"), GameResult::Draw),
            ],
            result: GameResult::WhiteWins,
            tablebase_misses: Vec::new(),
        };
        let text = before.to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with("| 150 | 1.0") && lines[1].ends_with("| 0 | 0.5"), "{text}");
    }

    /// A quiet searched position of `fen` scored `white_cp`.
    fn searched_at(fen: &str, white_cp: i32) -> SearchedPosition {
        SearchedPosition {
            board: Position::from_fen(fen, false).unwrap().chess().clone(),
            white_cp,
            mate: false,
            best_is_capture: false,
            best_is_promotion: false,
            table_result: None,
        }
    }

    /// The misses of a 100-node game from `fen` under `tables`, checking it was played on.
    fn record_misses(tables: &Tablebases, fen: &str) -> Vec<ProbeMiss> {
        let tt = TranspositionTable::new(1).unwrap();
        let record =
            play(Position::from_fen(fen, false).unwrap(), NodeBudget::fixed(100), &tt, Some(tables), 0);
        if !record.tablebase_misses.is_empty() {
            assert!(!record.positions.is_empty(), "{fen}: a miss ends nothing, the game is played on");
        }
        record.tablebase_misses
    }

    /// A folder holding `name` from the engine's tests/data/syzygy, cut to `bytes` (whole file when `None`).
    fn table_folder(test: &str, name: &str, bytes: Option<usize>) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("patina-datagen-game-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let source = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/syzygy");
        let table = std::fs::read(std::path::Path::new(source).join(name)).unwrap();
        std::fs::write(dir.join(name), &table[..bytes.unwrap_or(table.len()).min(table.len())]).unwrap();
        dir
    }

    #[test]
    fn a_corrupt_table_is_played_past_and_kept_as_a_miss() {
        // 208 bytes cut to 16 (the magic bytes and a little more) keeps a size a table may have
        // (16 mod 64), so it registers and is only found out when probed.
        let dir = table_folder("corrupt", "KRvK.rtbw", Some(16));
        let tables = Tablebases::load(dir.to_str().unwrap()).expect("a plausible size registers");
        let misses = record_misses(&tables, "8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
        // No later probe: the only zeroing move left, the rook's capture, leaves bare kings.
        assert_eq!(misses.len(), 1, "{misses:?}");
        assert!(matches!(&misses[0], ProbeMiss::Failed(why) if why.contains("KRvK")), "{misses:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_table_is_played_past_and_kept_as_a_miss() {
        let dir = table_folder("missing", "KRvK.rtbw", None);
        let tables = Tablebases::load(dir.to_str().unwrap()).unwrap();
        let misses = record_misses(&tables, "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1");
        assert_eq!(misses.len(), 1, "{misses:?}");
        assert!(matches!(&misses[0], ProbeMiss::MissingTable(why) if why.contains("KQvK")), "{misses:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn position(fen: &str, white_cp: i32, best_is_capture: bool) -> SearchedPosition {
        let board = Position::from_fen(fen, false).unwrap().chess().clone();
        SearchedPosition {
            board,
            white_cp,
            mate: false,
            best_is_capture,
            best_is_promotion: false,
            table_result: None,
        }
    }

    #[test]
    fn lines_have_fen_score_and_result() {
        let record = GameRecord {
            positions: vec![
                position("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", -12, false),
                position("8/8/4k3/8/8/3BK3/8/8 b - - 0 1", 30, true),
            ],
            result: GameResult::Draw,
            tablebase_misses: Vec::new(),
        };
        assert_eq!(
            record.to_text(),
            "8/8/4k3/8/8/3BK3/8/8 w - - 0 1 | -12 | 0.5\n",
            "the capture is not quiet"
        );
        assert_eq!(record.quiet_count(), 1);
        let bytes = record.to_records();
        assert_eq!(bytes.len(), 64, "records keep every position");
        let second = PackedPosition::from_bytes(bytes[32..].try_into().unwrap()).unwrap();
        assert!(second.best_is_capture() && !second.is_game_start() && second.ply() == 1);
        assert_eq!((second.white_score(), second.result()), (30, DataResult::Draw));
    }
}
