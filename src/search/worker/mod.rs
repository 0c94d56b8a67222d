//! One search thread: iterative deepening over a principal-variation alpha-beta search.
//!
//! Each worker owns its position, killers, history and PV table; only the transposition table
//! and the `SearchControl` are shared. The main worker (id 0) reports iterations and watches
//! the clock; helpers just search and fill the shared table (Lazy SMP).

use super::correction::{Correction, Slots};
use super::history::{Contexts, History, PieceTo};
use super::kept::ThreadMemory;
use super::mate_line;
use super::material_scale::material_scaled;
use super::params::*;
use super::root_facts::RootFacts;
use super::tt_scores::{bound_allows_cutoff, score_from_tt, score_to_tt};
use super::{IterationReport, RootLine, Score, ScoreBound, SearchControl, SearchEvent, SearchLimits};
use crate::attacks::attacked_squares;
use crate::movepick::{gain_estimate, is_quiet, MovePicker, OrderingHints};
use crate::nnue::Network;
use crate::position::Position;
use crate::rules::FIFTY_MOVE_PLIES;
use crate::see::see_ge;
use crate::tablebase::Outcome;
use crate::time::manager::{IterationSummary, TimeManager};
use crate::tt::{decode_move, decode_move_in, encode_move, Bound, TranspositionTable, TtHit};
use shakmaty::{Chess, Color, Move, MoveList, Position as _, Role};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

mod quiescence;
mod report;
mod root;
mod selective;
mod stagger;
#[cfg(test)]
mod tests;

use selective::Singularity;

/// A root move with its latest score and line.
#[derive(Debug, Clone)]
pub struct RootMove {
    pub mv: Move,
    /// Score from the current iteration, `-INFINITY` until this move proved to be best.
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Move>,
    /// Whether the last score is exact or a bound from an aspiration failure.
    pub bound: ScoreBound,
    /// Nodes spent below this move in the current iteration (main worker's own count).
    pub nodes: u64,
}

/// What every worker of one search shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a SearchLimits,
    /// What is known of the root before the search: dead, or ranked by the tables.
    pub root: &'a RootFacts,
    /// Node count of each worker, published every `POLL_INTERVAL` nodes.
    pub node_counts: &'a [AtomicU64],
    pub report: &'a (dyn Fn(SearchEvent) + Sync),
}

pub struct Worker<'a> {
    id: usize,
    shared: &'a Shared<'a>,
    pos: Position,
    pub root_moves: Vec<RootMove>,
    pv_index: usize,
    pub nodes: u64,
    seldepth: usize,
    pub completed_depth: i32,
    /// The main worker's MultiPV lines of its last completed iteration, best first.
    pub completed_lines: Vec<RootLine>,
    stopped: bool,
    /// When to stop: deepening (the main worker), or mid-iteration on the hard limit (all).
    time_manager: TimeManager,
    /// Killers, counter moves and the history tables.
    history: Box<History>,
    /// What searches found the static evaluation gets wrong, by structure.
    correction: Box<Correction>,
    /// The move made at each ply (None for a null move), for counter-move lookups.
    move_stack: [Option<Move>; MAX_PLY + 1],
    /// The piece and target of the move made at each ply: continuation history contexts.
    moved: [Option<PieceTo>; MAX_PLY + 1],
    pv_table: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_length: [usize; MAX_PLY + 1],
    /// Corrected static evaluation at each ply (`-INFINITY` in check).
    eval_stack: [i32; MAX_PLY + 1],
    /// The uncorrected one (`EVAL_NONE` in check), what the table stores and a singular test
    /// reuses.
    raw_eval_stack: [i32; MAX_PLY + 1],
    /// The move a singular-extension search at each ply leaves out (None: an ordinary node).
    excluded: [Option<Move>; MAX_PLY + 1],
    /// Double singular extensions on the path from the root to each ply, capped so that a line
    /// of them cannot blow the tree up.
    double_extensions: [u8; MAX_PLY + 1],
    /// Depth of the iteration under way: extensions stop beyond twice this many plies.
    root_depth: i32,
    /// The evaluation network, fixed for the whole search (an `EvalFile` load waits for the
    /// next).
    network: Arc<Network>,
    /// The root move under way and its 1-based number in this iteration's order (`currmove`).
    current_root_move: Option<(Move, usize)>,
    /// Whether the main worker reports root moves yet (the search has run `CURRMOVE_AFTER_MS`).
    reporting_root_moves: bool,
}

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        pos: Position,
        root_moves: Vec<Move>,
        memory: ThreadMemory,
    ) -> Worker<'a> {
        let root_moves = root_moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                previous_score: -INFINITY,
                pv: vec![mv],
                bound: ScoreBound::Exact,
                nodes: 0,
            })
            .collect();
        Worker {
            id,
            shared,
            pos,
            root_moves,
            pv_index: 0,
            nodes: 0,
            seldepth: 0,
            completed_depth: 0,
            completed_lines: Vec::new(),
            stopped: false,
            network: Arc::clone(shared.limits.evaluator.network()),
            time_manager: TimeManager::init(shared.limits.time),
            history: memory.history,
            correction: memory.correction,
            move_stack: [None; MAX_PLY + 1],
            moved: [None; MAX_PLY + 1],
            pv_table: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_length: [0; MAX_PLY + 1],
            eval_stack: [0; MAX_PLY + 1],
            raw_eval_stack: [EVAL_NONE; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            double_extensions: [0; MAX_PLY + 1],
            root_depth: 0,
            current_root_move: None,
            reporting_root_moves: false,
        }
    }

    /// The tunables of this search (borrowed for the whole search, not from `self`).
    fn params(&self) -> &'a SearchParams {
        &self.shared.limits.params
    }

    /// The histories and correction tables this worker learned, for the next search.
    pub fn into_memory(self) -> ThreadMemory {
        ThreadMemory { history: self.history, correction: self.correction }
    }

    /// The deepest ply reached in the iteration under way (or the last one).
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The principal-variation search recipe. With `excluded[ply]` set it is the singular test
    /// of the node at `ply` (see `singular_test`): the same position without that move, which
    /// neither reads a cutoff from nor writes to the table under this key (the full node owns
    /// the entry) and reuses the node's static eval.
    fn negamax(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, cut_node: bool) -> i32 {
        let pv_node = beta - alpha > 1;
        let excluded = self.excluded[ply];
        self.pv_length[ply] = ply;

        // Step 1. Poll the clock and stop flag; hand over to quiescence at the horizon.
        if self.poll() {
            return DRAW;
        }
        let in_check = self.pos.is_check();
        let mut depth = if in_check { depth + 1 } else { depth }; // check extension
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        // Step 2. Draws by rule, the ply ceiling, and mate-distance pruning.
        if let Some(score) = self.rule_draw(in_check, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return if in_check { DRAW } else { self.static_eval() };
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Transposition table: a deep enough bound settles non-PV nodes outright.
        let key = self.pos.key();
        let hit = if excluded.is_some() { None } else { self.shared.tt.probe(key) };
        let tt_score = hit.map(|hit| score_from_tt(hit.score, ply));
        if let (Some(hit), Some(score)) = (hit, tt_score) {
            if !pv_node && hit.depth >= depth && bound_allows_cutoff(hit.bound, score, alpha, beta) {
                return score;
            }
        }

        // Step 3b. Tablebases: right after a capture or pawn move a WDL probe is exact; a draw,
        // or a win/loss on the right side of the window, settles the node.
        // A singular test skips it like the table: its node already probed.
        let tablebase = if excluded.is_some() { None } else { self.probe_tablebase(depth, ply) };
        if let Some((score, bound)) = tablebase {
            if bound_allows_cutoff(bound, score, alpha, beta) {
                self.store(key, None, score, None, depth + TB_STORE_DEPTH_BONUS, bound, ply);
                return score;
            }
        }
        self.history.clear_killers(ply + 1);

        // Step 4. Static evaluation, corrected by what searches of this structure found; the
        // table's upper bound lowers it for pruning; `improving` compares
        // with two plies back. A singular test has its node's.
        let slots = Slots::of(self.pos.chess());
        let raw_eval = if excluded.is_some() {
            self.raw_eval_stack[ply]
        } else if in_check {
            EVAL_NONE
        } else {
            self.stored_or_static_eval(hit)
        };
        let eval = if in_check { -INFINITY } else { self.corrected(raw_eval, slots) };
        self.raw_eval_stack[ply] = raw_eval;
        self.eval_stack[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.eval_stack[ply - 2];
        // Only downward: a shallow lower bound that missed a quiet threat (a mate after a
        // sacrifice) would otherwise feed reverse futility a score the full depth refutes, iteration
        // after iteration (it hid Ra6! bxa6 b7# from a depth-10 search).
        let pruning_eval = match (hit, tt_score) {
            (Some(hit), Some(score))
                if !in_check && score < eval && matches!(hit.bound, Bound::Upper | Bound::Exact) =>
            {
                score
            }
            _ => eval,
        };

        // Step 5. Reverse futility pruning: far above beta near the leaves, assume a cut. Not in
        // a singular test, nor null move below: it asks about the other moves, not the position.
        if !pv_node
            && excluded.is_none()
            && !in_check
            && depth <= self.params().rfp_max_depth
            && beta.abs() < MATE_BOUND
            && pruning_eval - self.params().rfp_margin * (depth - improving as i32) >= beta
        {
            return pruning_eval;
        }

        // Step 6. Null-move pruning: if passing still beats beta, a real move will too. Not
        // right after a pass, nor when the table already knows the node fails low.
        let after_null = ply > 0 && self.move_stack[ply - 1].is_none();
        let table_says_fail_low =
            matches!((hit, tt_score), (Some(hit), Some(score)) if hit.bound == Bound::Upper && score < beta);
        if !pv_node
            && excluded.is_none()
            && !in_check
            && !after_null
            && !table_says_fail_low
            && depth >= self.params().nmp_min_depth
            && eval >= beta
            && pruning_eval >= beta
            && beta.abs() < MATE_BOUND
            && self.pos.has_non_pawn_material(self.pos.turn())
            && self.pos.make_null()
        {
            self.move_stack[ply] = None;
            self.moved[ply] = None;
            self.double_extensions[ply + 1] = self.double_extensions[ply];
            let reduction = self.params().nmp_base_reduction
                + depth / self.params().nmp_depth_divisor
                + ((pruning_eval - beta) / self.params().nmp_eval_divisor).min(self.params().nmp_eval_cap);
            let score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, !cut_node);
            self.pos.unmake();
            if self.stopped {
                return DRAW;
            }
            if score >= beta {
                return if score >= MATE_BOUND { beta } else { score };
            }
        }

        // Step 6b. ProbCut: a capture that beats beta by a margin in a much shallower search
        // (first confirmed by quiescence) very likely beats beta in the full one.
        let probcut_beta = beta + self.params().probcut_margin;
        if !pv_node
            && excluded.is_none()
            && !in_check
            && depth >= self.params().probcut_min_depth
            && beta.abs() < TB_WIN_BOUND
            && !matches!((hit, tt_score), (Some(hit), Some(score))
                if hit.depth > depth - self.params().probcut_reduction && score < probcut_beta)
        {
            if let Some(score) = self.probcut(depth, probcut_beta, pruning_eval, raw_eval, hit, ply, cut_node)
            {
                return score;
            }
            if self.stopped {
                return DRAW;
            }
        }

        // Step 7. Order moves: a legal table move goes first, before the others are generated.
        // Without one they are generated now: none means mate or stalemate, and a singular
        // test whose excluded move is the only one fails low (that move is singular indeed).
        let tt_move = hit.and_then(|hit| decode_move_in(hit.packed_move, self.pos.chess()));
        let hints = self.ordering_hints(tt_move, ply);
        let mut picker = match tt_move {
            Some(tt_move) => MovePicker::table_move_first(tt_move, hints, Chess::legal_moves),
            None => {
                let mut legal = self.pos.legal_moves();
                if legal.is_empty() {
                    return if in_check { -MATE + ply as i32 } else { DRAW };
                }
                if let Some(excluded) = excluded {
                    legal.retain(|mv| *mv != excluded);
                    if legal.is_empty() {
                        return alpha;
                    }
                }
                MovePicker::new(legal, hints)
            }
        };
        // A singular test probes no table (`hit` is None), so it never nests another one.
        let singular_score = hit
            .filter(|&hit| self.is_singular_candidate(hit, depth, ply))
            .map(|hit| score_from_tt(hit.score, ply));

        // Step 7b. Internal iterative reduction: a node expected to matter but with no table
        // move is badly ordered; search it a ply shallower, which also fills the table with a
        // move for the full-depth visit that comes if the line holds.
        if (pv_node || cut_node)
            && depth >= self.params().iir_min_depth
            && tt_move.is_none()
            && excluded.is_none()
        {
            depth -= 1;
        }
        let side = self.pos.turn();
        let contexts = self.contexts(ply);

        // Step 8. The move loop: PVS with late-move reductions.
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried = MoveList::new(); // on the stack: no allocation per node
        let mut tacticals_tried = MoveList::new();
        let mut skip_quiets = false;
        let late_move_limit = (self.params().lmp_base + depth * depth) / (2 - improving as i32);
        let mut moves_searched = 0;
        while let Some(mv) = picker.next_move(self.pos.chess(), |mv| self.order_score(&contexts, side, mv)) {
            let quiet = is_quiet(mv);
            let history =
                if quiet { self.history.quiet(&contexts, side, mv) } else { self.history.capture(side, mv) };

            // Step 9. Prune late, hopeless moves once a real line is on the board. Quiet checks
            // are spared from move-count, futility and history pruning: they are how a
            // lost-looking side mates.
            if !pv_node && !in_check && best_score > -MATE_BOUND {
                let prunable_quiet = quiet && !self.pos.gives_check(mv);
                if prunable_quiet && skip_quiets {
                    continue;
                }
                // The depth the move would be searched at after its late-move reduction:
                // futility and SEE pruning judge a quiet by the search it would really get.
                let lmr_depth = if quiet {
                    let reduction = self.quiet_reduction(depth, moves_searched + 1, improving, history);
                    (depth - 1 - reduction.max(0)).clamp(0, depth)
                } else {
                    depth
                };
                if prunable_quiet
                    && ((depth <= self.params().lmp_max_depth
                        && quiets_tried.len() as i32 >= late_move_limit)
                        || (lmr_depth <= self.params().futility_max_depth
                            && pruning_eval
                                + self.params().futility_base
                                + self.params().futility_per_depth * lmr_depth
                                <= alpha
                            && history < self.params().futility_history_limit(improving)))
                {
                    // The picker drops the quiets left but the checks, unscored and unscanned.
                    skip_quiets = true;
                    picker.skip_quiets(self.pos.chess(), |quiet| self.pos.gives_check(quiet));
                    continue;
                }
                // A quiet whose continuations have gone badly is skipped near the leaves.
                if prunable_quiet
                    && depth <= self.params().continuation_prune_depth(improving)
                    && (self.history.continuation(&contexts, 0, side, mv)
                        < self.params().counter_history_limit(improving)
                        || self.history.continuation(&contexts, 1, side, mv)
                            < self.params().follow_up_history_limit(improving))
                {
                    continue;
                }
                // A capture that, with what it takes and a margin, still cannot reach alpha.
                // The check test comes last: it is the one that costs.
                if !quiet
                    && mv.promotion().is_none()
                    && depth <= self.params().capture_futility_max_depth
                    && pruning_eval
                        + self.params().capture_futility_base
                        + self.params().capture_futility_per_depth * depth
                        + mv.capture().map_or(0, crate::see::value)
                        + history / self.params().capture_futility_history_divisor
                        <= alpha
                    && !self.pos.gives_check(mv)
                {
                    continue;
                }
                let see_margin = if quiet {
                    self.params().see_quiet_margin * lmr_depth
                } else {
                    self.params().see_capture_margin * depth
                        - history / self.params().see_capture_history_divisor
                };
                // A capture known not to lose material passes any margin at or below zero.
                let known_good = picker.last_is_known_good_tactical() && see_margin <= 0;
                if depth <= self.params().see_prune_max_depth
                    && !known_good
                    && !see_ge(self.pos.chess(), mv, see_margin)
                {
                    continue;
                }
            }

            // Step 9b. Singular extensions: is the table move much better than every other?
            let mut extension = 0;
            if let Some(tt_score) = singular_score.filter(|_| Some(mv) == tt_move) {
                match self.singular_test(mv, tt_score, depth, beta, ply, pv_node, cut_node) {
                    Singularity::Extend(plies) => extension = plies,
                    Singularity::MultiCut(score) => return score,
                }
                if self.stopped {
                    return DRAW;
                }
            }

            self.move_stack[ply] = Some(mv);
            self.moved[ply] = Some(PieceTo::of(side, mv));
            self.double_extensions[ply + 1] = self.double_extensions[ply] + (extension >= 2) as u8;
            self.make_move(mv);
            moves_searched += 1;
            let gives_check = self.pos.is_check();
            let new_depth = depth - 1 + extension;
            let score = if moves_searched == 1 {
                -self.negamax(new_depth, -beta, -alpha, ply + 1, !pv_node && !cut_node)
            } else {
                let mut reduction = 0;
                // Checks and moves out of check are reduced a ply less than other quiets.
                if depth >= self.params().lmr_min_depth && moves_searched >= LMR_MIN_MOVE && quiet {
                    let hinted = hints.killers.contains(&Some(mv)) || hints.counter == Some(mv);
                    reduction = self.quiet_reduction(depth, moves_searched, improving, history)
                        + !pv_node as i32
                        - hinted as i32
                        - (in_check || gives_check) as i32;
                    reduction = reduction.clamp(0, (new_depth - 1).max(0));
                }
                let mut score = -self.negamax(new_depth - reduction, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                    // The full-depth answer teaches the move's continuation histories.
                    if !self.stopped {
                        let delta = if score > alpha {
                            self.params().history_bonus(new_depth)
                        } else {
                            -self.params().history_malus(new_depth)
                        };
                        self.history.update_continuations(&contexts, side, mv, delta);
                    }
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.negamax(new_depth, -beta, -alpha, ply + 1, false);
                }
                score
            };
            self.pos.unmake();
            if self.stopped {
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        let previous = self.previous_move(ply);
                        self.history.reward_cutoff(
                            mv,
                            &quiets_tried,
                            &tacticals_tried,
                            &contexts,
                            side,
                            previous,
                            (self.params().history_bonus(depth), self.params().history_malus(depth)),
                            ply,
                        );
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            } else {
                tacticals_tried.push(mv);
            }
        }
        if moves_searched == 0 {
            // Every move was pruned or excluded: the node is worth no more than alpha.
            return alpha;
        }

        // Step 10. Store the result and learn the static evaluation's error (a singular test
        // leaves the entry and the lesson to its node).
        if excluded.is_some() {
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let raw = (!in_check).then_some(raw_eval);
        self.store(key, best_move, best_score, raw, depth, bound, ply);
        let best_is_quiet = best_move.is_none_or(is_quiet);
        if !in_check
            && best_is_quiet
            && best_score.abs() < TB_WIN_BOUND
            && !(bound == Bound::Lower && best_score <= eval)
            && !(bound == Bound::Upper && best_score >= eval)
        {
            self.correction.learn(slots, raw_eval, best_score, depth);
        }
        best_score
    }

    /// Records a node's result in the shared table (mate scores made node-relative; no static
    /// eval is stored for positions in check).
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        best_move: Option<Move>,
        score: i32,
        eval: Option<i32>,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let packed_move = best_move.map_or(0, encode_move);
        self.shared.tt.store(
            key,
            packed_move,
            score_to_tt(score, ply),
            eval.unwrap_or(EVAL_NONE),
            depth,
            bound,
        );
    }

    /// Draw by the fifty-move rule, repetition or insufficient material, seen from inside the
    /// tree; every node below a dead root.
    fn rule_draw(&self, in_check: bool, ply: usize) -> Option<i32> {
        if ply == 0 {
            return None;
        }
        let chess = self.pos.chess();
        // A dead position is a draw whatever is played: exactly 0, so a dead root reports 0.
        if self.shared.root.is_dead || chess.is_insufficient_material() {
            return Some(DRAW);
        }
        // Other draws inside the tree score 0 +- 1 by node count, so that the search does not
        // settle into one repetition line when every other line scores exactly the same.
        let draw = DRAW + 1 - (self.nodes & 2) as i32;
        if self.pos.halfmoves() >= FIFTY_MOVE_PLIES {
            // Checkmate on the hundredth ply still wins.
            if in_check && chess.legal_moves().is_empty() {
                return Some(-MATE + ply as i32);
            }
            return Some(draw);
        }
        if self.pos.is_search_repetition() {
            return Some(draw);
        }
        None
    }

    /// Makes `mv` and starts loading the child's table cluster, which its probe needs soon.
    #[inline]
    fn make_move(&mut self, mv: Move) {
        self.pos.make(mv);
        self.shared.tt.prefetch(self.pos.key());
    }

    fn previous_move(&self, ply: usize) -> Option<Move> {
        if ply == 0 {
            None
        } else {
            self.move_stack[ply - 1]
        }
    }

    /// The table move, killers and counter move that order this node's moves.
    fn ordering_hints(&self, tt_move: Option<Move>, ply: usize) -> OrderingHints {
        let counter = self.history.counter(self.pos.turn(), self.previous_move(ply));
        OrderingHints { tt_move, killers: self.history.killers(ply), counter }
    }

    /// The quiet-history contexts of the node at `ply`: the moves one and two plies back and
    /// the squares the opponent of the side to move attacks.
    fn contexts(&self, ply: usize) -> Contexts {
        let back = |plies: usize| if ply >= plies { self.moved[ply - plies] } else { None };
        let threats = attacked_squares(self.pos.chess().board(), !self.pos.turn());
        Contexts { moved: [back(1), back(2)], threats }
    }

    /// A move's history score for the picker: a quiet's combined history, half a capture's
    /// history (added to its victim value).
    fn order_score(&self, contexts: &Contexts, side: Color, mv: Move) -> i32 {
        if is_quiet(mv) {
            self.history.quiet(contexts, side, mv)
        } else {
            self.history.capture(side, mv) / 2
        }
    }

    /// The uncorrected static eval the table stored with `hit`, or a fresh one where it holds
    /// none (no entry, or an entry stored in check or from a tablebase).
    fn stored_or_static_eval(&mut self, hit: Option<TtHit>) -> i32 {
        hit.map(|hit| hit.eval).filter(|&eval| eval != EVAL_NONE).unwrap_or_else(|| self.static_eval())
    }

    /// A raw static evaluation plus the correction learned for its structure, kept clear of
    /// tablebase and mate scores.
    fn corrected(&self, raw_eval: i32, slots: Slots) -> i32 {
        (raw_eval + self.correction.correction(slots)).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_length = self.pv_length[ply + 1].max(ply + 1);
        self.pv_table[ply][ply] = Some(mv);
        for i in ply + 1..child_length {
            self.pv_table[ply][i] = self.pv_table[ply + 1][i];
        }
        self.pv_length[ply] = child_length;
    }

    /// The static evaluation of the current position, side to move's view.
    fn static_eval(&mut self) -> i32 {
        let raw = self.pos.evaluate_network(&self.network);
        material_scaled(raw, self.pos.chess().board())
    }

    /// Counts the node budget and checks stop conditions; true once the search must unwind.
    fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let limits = self.shared.limits;
        if let Some(limit) = limits.nodes {
            // One thread stops on the exact node, so fixed-node searches are reproducible.
            if limits.threads <= 1 && self.nodes >= limit {
                self.shared.control.stop();
            }
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.publish_nodes();
            if let Some(limit) = limits.nodes {
                if self.total_nodes() >= limit {
                    self.shared.control.stop();
                }
            }
            if self.time_manager.must_abort(self.shared.control.clock(), self.completed_depth) {
                self.shared.control.stop();
            }
            self.report_root_moves_when_due();
        }
        // Finish depth 1 whatever happens, so there is always a searched move to play.
        if self.shared.control.is_stopped() && (self.completed_depth >= 1 || !self.is_main()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The tablebase score and bound of the current node, when the options allow a probe here.
    fn probe_tablebase(&mut self, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let tb = self.shared.limits.tablebases.as_ref()?;
        let chess = self.pos.chess();
        if ply == 0
            || depth < tb.probe_depth
            || self.pos.halfmoves() != 0
            || !crate::tablebase::is_candidate(chess, tb.probe_limit)
        {
            return None;
        }
        let outcome = tb.tables.probe_wdl(chess, tb.rule50)?;
        self.shared.control.count_tb_hit();
        Some(match outcome {
            Outcome::Win => (TB_WIN - ply as i32, Bound::Lower),
            Outcome::Loss => (-TB_WIN + ply as i32, Bound::Upper),
            Outcome::Draw => (DRAW, Bound::Exact),
        })
    }
}

/// Whether quiescence looks at `mv` outside check: one `tactical_moves` yields.
fn is_tactical(mv: Move) -> bool {
    mv.is_capture() || mv.promotion() == Some(Role::Queen)
}

/// Captures, en passant and queen promotions: the moves quiescence looks at.
fn tactical_moves(chess: &Chess) -> MoveList {
    let mut moves = chess.capture_moves();
    // Capturing promotions came with the captures.
    moves.extend(chess.promotion_moves().into_iter().filter(|&mv| !mv.is_capture() && is_tactical(mv)));
    moves
}
