//! The analyser's engine: one transposition table and one set of limits, searching position
//! after position synchronously through `engine::search`.
//!
//! A game is analysed in order with one table, so each search starts from what the previous
//! positions taught it. The table is emptied between games, so a game's analysis does not depend
//! on the games before it.

use super::review::Eval;
use super::{AnalysisLimits, AnalyzeError, TablebaseSettings};
use crate::engine;
use crate::position::Position;
use crate::rules::{Reason, Verdict};
use crate::search::{
    IterationReport, Score, ScoreBound, SearchControl, SearchEvent, SearchLimits, TablebaseUse,
};
use crate::tablebase::Tablebases;
use crate::time::TimeBudget;
use crate::tt::TranspositionTable;
use parking_lot::Mutex;
use shakmaty::Move;
use std::sync::Arc;

/// What one search concluded about a position.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The value from the side to move's point of view.
    pub eval: Eval,
    /// The engine's choice and the line it expects (at least the choice).
    pub line: Vec<Move>,
    /// Depth in plies of the last iteration completed by the thread whose move was chosen.
    pub depth: i32,
    /// Nodes the search visited, all threads together.
    pub nodes: u64,
}

/// Searches positions within fixed limits on a table of its own.
pub struct Analyst {
    table: TranspositionTable,
    limits: SearchLimits,
}

impl Analyst {
    /// An analyst searching within `limits` on a fresh table of `limits.hash_mib` MiB, with
    /// the Syzygy tables `limits` name loaded.
    pub fn new(limits: &AnalysisLimits) -> Result<Analyst, AnalyzeError> {
        let table = TranspositionTable::new(limits.hash_mib)?;
        let tablebases = limits.tablebases.as_ref().map(table_use).transpose()?;
        let search_limits = SearchLimits {
            depth: limits.depth,
            nodes: limits.nodes,
            time: limits.movetime.map(TimeBudget::fixed),
            multipv: limits.multipv.max(1),
            threads: limits.threads.max(1),
            tablebases,
            ..SearchLimits::default()
        };
        Ok(Analyst { table, limits: search_limits })
    }

    /// Forgets what earlier searches stored.
    pub fn forget(&self) {
        self.table.clear();
    }

    /// Searches `pos`, passing every completed line (all MultiPV lines of each depth, exact
    /// scores only) to `on_line`. `None` when the side to move has no legal move.
    pub fn search(&self, pos: &Position, on_line: &(dyn Fn(&IterationReport) + Sync)) -> Option<Finding> {
        let last_main_line: Mutex<Option<Vec<Move>>> = Mutex::new(None);
        let report = |event: SearchEvent| {
            let SearchEvent::Iteration(line) = event else { return };
            if line.bound == ScoreBound::Exact {
                if line.multipv == 1 {
                    *last_main_line.lock() = Some(line.pv.clone());
                }
                on_line(&line);
            }
        };
        let control = SearchControl::new(false);
        let outcome = engine::search(pos, &self.limits, &self.table, &control, &report)?;
        // The reported line explains the move only when the final choice is its first move (a
        // helper thread's vote or an unfinished iteration can pick another).
        let line = match last_main_line.into_inner() {
            Some(pv) if pv.first() == Some(&outcome.best) => pv,
            _ => std::iter::once(outcome.best).chain(outcome.ponder).collect(),
        };
        Some(Finding {
            eval: Eval { score: outcome.score, turn: pos.turn() },
            line,
            depth: outcome.depth,
            nodes: outcome.nodes,
        })
    }
}

/// Loads the tables of `settings` for the search, as the engine applies the UCI options.
fn table_use(settings: &TablebaseSettings) -> Result<TablebaseUse, AnalyzeError> {
    let tables = Tablebases::load(&settings.path)?;
    Ok(TablebaseUse {
        probe_depth: settings.probe_depth,
        probe_limit: settings.probe_limit.min(tables.max_pieces()),
        rule50: settings.rule50,
        tables: Arc::new(tables),
    })
}

/// The value of a position the rules have ended the game in (`verdict` judged it): checkmate is
/// mate 0 for the side to move, any other end a draw.
pub fn final_eval(pos: &Position, verdict: &Verdict) -> Eval {
    let score = if verdict.reason == Reason::Checkmate { Score::Mate(0) } else { Score::Centipawns(0) };
    Eval { score, turn: pos.turn() }
}
