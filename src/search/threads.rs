//! Lazy SMP: N workers search the same root and share only the transposition table.
//! Helpers skip some iterations (`worker/stagger.rs`) so the threads spread over
//! neighbouring depths rather than all repeating the main thread's.
//!
//! Workers run in a `std::thread::scope`, borrowing the table and limits directly. The main
//! worker (id 0) owns the clock; when it finishes it raises the stop flag so helpers unwind.
//! The move played comes from a vote: each worker backs its best move with weight growing in
//! its completed depth and its score, so a deeper, more confident thread carries the decision.
//! Before any worker starts, `RootFacts::settle` learns what it can of the root: whether it is
//! dead, and at a tablebase root which moves keep the tables' result (the only ones searched).

use super::kept::SearchMemory;
use super::params::{MATE_BOUND, MAX_PLY};
use super::root_facts::RootFacts;
use super::worker::{Shared, Worker};
use super::{
    IterationReport, RootLine, Score, ScoreBound, SearchControl, SearchEvent, SearchLimits, SearchOutcome,
};
use crate::position::Position;
use crate::tt::TranspositionTable;
use shakmaty::Move;
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;

/// Searches `pos` within `limits`; reports iterations through `report` and returns the outcome.
/// The caller guarantees the root has at least one legal move. Histories start empty; see
/// `run_with_memory` to keep them from one search to the next.
pub fn run(
    pos: &Position,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    control: &SearchControl,
    report: &(dyn Fn(SearchEvent) + Sync),
) -> SearchOutcome {
    run_with_memory(pos, limits, tt, &SearchMemory::default(), control, report)
}

/// `run`, with the threads' histories and correction tables lent by `memory` and given back
/// to it when the search ends (what a game's searches learn carries over to the next move).
pub fn run_with_memory(
    pos: &Position,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    memory: &SearchMemory,
    control: &SearchControl,
    report: &(dyn Fn(SearchEvent) + Sync),
) -> SearchOutcome {
    tt.new_search();
    let mut root_moves = root_moves(pos, limits);
    let root = RootFacts::settle(pos, &mut root_moves, limits.tablebases.as_ref(), control);
    let without_probes;
    let limits = if root.probes_in_search() {
        limits
    } else {
        without_probes = SearchLimits { tablebases: None, ..limits.clone() };
        &without_probes
    };
    let threads = limits.threads.max(1);
    let node_counts: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let shared = Shared { tt, control, limits, root: &root, node_counts: &node_counts, report };

    let mut loan = memory.lend(threads);
    let mut lent = std::mem::take(&mut loan.tables).into_iter();
    let main_memory = lent.next().unwrap_or_default();
    let (results, lines): (Vec<ThreadResult>, Vec<RootLine>) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .zip(lent)
            .map(|(id, tables)| {
                let shared = &shared;
                let root_moves = root_moves.clone();
                let mut pos = pos.clone();
                std::thread::Builder::new()
                    .name(format!("patina-search-{id}"))
                    .stack_size(8 << 20)
                    .spawn_scoped(scope, move || {
                        let mut worker =
                            Worker::new(id, shared, std::mem::take(&mut pos), root_moves, tables);
                        worker.iterative_deepening();
                        (ThreadResult::from(&worker), worker.into_memory())
                    })
            })
            .collect();
        let mut main = Worker::new(0, &shared, pos.clone(), root_moves.clone(), main_memory);
        main.iterative_deepening();
        control.stop();
        let mut results = vec![ThreadResult::from(&main)];
        let lines = std::mem::take(&mut main.completed_lines);
        let mut kept = vec![main.into_memory()];
        for helper in helpers.into_iter().flatten() {
            if let Ok((result, tables)) = helper.join() {
                results.push(result);
                kept.push(tables);
            }
        }
        loan.tables = kept;
        memory.keep(loan);
        (results, lines)
    });

    let total_nodes = node_counts.iter().map(|n| n.load(std::sync::atomic::Ordering::Relaxed)).sum();
    let (depth, seldepth, score, bound, pv) = match lines.first() {
        // With several lines the GUI shows one sorted set: the move played is the first line of
        // the last complete iteration (no vote, no unfinished iteration), as in Stockfish.
        Some(first) if limits.multipv > 1 => {
            (results[0].depth, results[0].seldepth, first.score, ScoreBound::Exact, first.pv.clone())
        }
        _ => {
            let chosen = vote(&results, limits.params.vote_score_offset);
            (
                chosen.depth,
                chosen.seldepth,
                Score::from_internal(root.reported(chosen.pv[0], chosen.score)),
                chosen.bound,
                chosen.pv.clone(),
            )
        }
    };
    let elapsed = control.search_elapsed();
    let played = IterationReport {
        depth: depth.max(1),
        seldepth: seldepth.max(depth.max(1) as usize),
        multipv: 1,
        score,
        bound,
        nodes: total_nodes,
        nps: (total_nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64,
        hashfull: tt.hashfull(),
        tbhits: control.tb_hits(),
        time: elapsed,
        pv,
    };
    SearchOutcome {
        best: played.pv[0],
        ponder: played.pv.get(1).copied(),
        nodes: total_nodes,
        depth,
        score,
        lines,
        played,
    }
}

/// The legal root moves, restricted to `searchmoves` when given (ignoring illegal ones).
fn root_moves(pos: &Position, limits: &SearchLimits) -> Vec<Move> {
    let legal = pos.legal_moves();
    let restricted: Vec<Move> = legal.iter().copied().filter(|m| limits.search_moves.contains(m)).collect();
    if restricted.is_empty() {
        legal.to_vec()
    } else {
        restricted
    }
}

/// What one worker believes when the search ends.
struct ThreadResult {
    depth: i32,
    seldepth: usize,
    score: i32,
    /// Whether `score` is exact or the bound of an aspiration failure in a cut-short iteration.
    bound: ScoreBound,
    pv: Vec<Move>,
}

impl ThreadResult {
    fn from(worker: &Worker) -> ThreadResult {
        let best = &worker.root_moves[0];
        let (score, bound) = if best.score == -super::params::INFINITY {
            (best.previous_score, ScoreBound::Exact)
        } else {
            (best.score, best.bound)
        };
        ThreadResult {
            depth: worker.completed_depth,
            seldepth: worker.seldepth(),
            score,
            bound,
            pv: best.pv.clone(),
        }
    }
}

fn vote(results: &[ThreadResult], score_offset: i32) -> &ThreadResult {
    let main = &results[0];
    if results.len() == 1 {
        return main;
    }
    let min_score = results.iter().map(|r| r.score).min().unwrap_or(0);
    let mut votes: HashMap<Move, i64> = HashMap::new();
    for result in results.iter().filter(|r| r.depth > 0) {
        let weight = (result.score - min_score + score_offset) as i64 * result.depth as i64;
        *votes.entry(result.pv[0]).or_default() += weight;
    }
    let mut best = main;
    for result in results.iter().filter(|r| r.depth > 0) {
        let (best_votes, votes_here) = (votes[&best.pv[0]], votes[&result.pv[0]]);
        // A proven mate beats any vote; otherwise the most-voted move, deepest line first.
        let mate_found = result.score >= MATE_BOUND && result.score > best.score;
        let better = votes_here > best_votes || (votes_here == best_votes && result.pv.len() > best.pv.len());
        if mate_found || (best.score < MATE_BOUND && better) {
            best = result;
        }
    }
    debug_assert!(best.pv.len() <= MAX_PLY + 1);
    best
}

#[cfg(test)]
mod tests {
    //! The pool's time limits on an injected clock: the search stops when the clock it is given
    //! says so, not when the machine's does.

    use super::*;
    use crate::time::{FakeClock, TimeBudget};
    use shakmaty::CastlingMode;
    use std::time::Duration;

    /// A search of the start position to `depth` at most, with 1 ms to think, on one thread.
    fn limits(depth: i32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            time: Some(TimeBudget::fixed(Duration::from_millis(1))),
            multipv: 1,
            threads: 1,
            ..SearchLimits::default()
        }
    }

    fn search(limits: &SearchLimits, control: &SearchControl) -> SearchOutcome {
        let tt = TranspositionTable::new(1).unwrap();
        run(&Position::startpos(CastlingMode::Standard), limits, &tt, control, &|_| {})
    }

    #[test]
    fn a_clock_standing_still_never_runs_out() {
        let control = SearchControl::with_clock(false, FakeClock::new());
        assert_eq!(search(&limits(6), &control).depth, 6);
    }

    #[test]
    fn a_clock_past_its_limits_stops_after_the_first_iteration() {
        let clock = FakeClock::new();
        let control = SearchControl::with_clock(false, clock.clone());
        clock.advance(Duration::from_secs(1));
        assert_eq!(search(&limits(6), &control).depth, 1);
    }

    #[test]
    fn time_spent_pondering_is_not_on_our_clock() {
        let clock = FakeClock::new();
        let control = SearchControl::with_clock(true, clock.clone());
        clock.advance(Duration::from_secs(10));
        control.ponderhit();
        assert_eq!(search(&limits(6), &control).depth, 6);
        assert!(control.search_elapsed() >= Duration::from_secs(10));
    }
}
