//! The root of one search: iterative deepening, an aspiration window around each iteration,
//! the loop over root moves (each MultiPV line in turn) and the main worker's choice whether to
//! begin another iteration.

use super::stagger::helper_skips_depth;
use super::*;

impl Worker<'_> {
    /// Iterative deepening until a limit or the stop flag ends it.
    pub fn iterative_deepening(&mut self) {
        let limits = self.shared.limits;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = limits.multipv.clamp(1, self.root_moves.len().max(1));
        self.history.reset_killers();
        for depth in 1..=max_depth {
            if helper_skips_depth(self.id, depth) && depth < max_depth {
                continue;
            }
            let previous_best = self.root_moves[0].mv;
            for root_move in &mut self.root_moves {
                root_move.previous_score = root_move.score;
                root_move.score = -INFINITY;
                root_move.nodes = 0;
            }
            for pv_index in 0..lines {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration_search(depth);
                self.sort_root_moves(pv_index);
                // A later line can outscore an earlier one (the table changed in between, or
                // another thread filled it): MultiPV lines are reported best first.
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.is_main() {
                self.record_lines(lines);
                self.report_lines(depth, lines);
                let best = &self.root_moves[0];
                self.time_manager.update(IterationSummary {
                    depth,
                    best_move_changed: best.mv != previous_best,
                    best_score: best.score,
                    best_move_nodes: best.nodes,
                    iteration_nodes: self.root_moves.iter().map(|rm| rm.nodes).sum(),
                    root_moves: self.root_moves.len(),
                });
                if self.should_stop_after_iteration() {
                    break;
                }
            }
        }
        self.publish_nodes();
    }

    /// Step 0. Search the root in a narrow window around the last score, widening on failure.
    fn aspiration_search(&mut self, depth: i32) {
        self.root_depth = depth;
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = self.params().aspiration_delta;
        let (mut alpha, mut beta) =
            if depth >= self.params().aspiration_min_depth && previous.abs() < MATE_BOUND {
                (previous - delta, previous + delta)
            } else {
                (-INFINITY, INFINITY)
            };
        // A fail high is searched again a ply shallower (down to half the depth): the move
        // that beat the window is likely good, and the shallower search confirms it sooner. A
        // fail low goes back to the full depth. (Only a narrow window fails high, from
        // `aspiration_min_depth`, at least 2: half the depth is never below 1.)
        let mut search_depth = depth;
        loop {
            let score = self.search_root(search_depth, alpha, beta);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                search_depth = depth;
                ScoreBound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                search_depth = (search_depth - 1).max(depth / 2);
                ScoreBound::Lower
            } else {
                return;
            };
            self.root_moves[self.pv_index].bound = bound;
            // With several lines only whole iterations are reported, so the lines shown are
            // always one sorted set.
            let single_line = self.shared.limits.multipv <= 1;
            if self.is_main()
                && single_line
                && self.shared.control.search_elapsed().as_millis() > BOUND_REPORT_AFTER_MS
            {
                self.sort_root_moves(self.pv_index);
                self.report_line(depth, self.pv_index, bound);
            }
            delta += delta / 2;
        }
    }

    /// Searches root moves `pv_index..` (earlier ones belong to better MultiPV lines).
    fn search_root(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.pv_length[0] = 0;
        // The root's static eval, for `improving` two plies down.
        self.eval_stack[0] = if self.pos.is_check() {
            -INFINITY
        } else {
            let raw = self.static_eval();
            self.corrected(raw, Slots::of(self.pos.chess()))
        };
        self.history.clear_killers(1);
        let side = self.pos.turn();
        let mut best_score = -INFINITY;
        for index in self.pv_index..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            self.start_root_move(mv, index);
            self.move_stack[0] = Some(mv);
            self.moved[0] = Some(PieceTo::of(side, mv));
            self.double_extensions[1] = 0;
            let nodes_before = self.nodes;
            self.make_move(mv);
            self.nodes += 1;
            let score = if index == self.pv_index {
                -self.negamax(depth - 1, -beta, -alpha, 1, false)
            } else {
                let mut score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, true);
                if score > alpha && !self.stopped {
                    score = -self.negamax(depth - 1, -beta, -alpha, 1, false);
                }
                score
            };
            self.pos.unmake();
            self.root_moves[index].nodes += self.nodes - nodes_before;
            if self.stopped {
                return best_score;
            }
            let root_move = &mut self.root_moves[index];
            if index == self.pv_index || score > alpha {
                root_move.score = score;
                root_move.bound = ScoreBound::Exact;
                root_move.pv.clear();
                root_move.pv.push(mv);
                root_move.pv.extend(self.pv_table[1][1..self.pv_length[1]].iter().flatten());
                mate_line::complete(
                    self.pos.chess(),
                    self.pos.repeatable_keys(),
                    &mut root_move.pv,
                    score,
                    self.shared.tt,
                );
            }
            best_score = best_score.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best_score
    }

    fn sort_root_moves(&mut self, from: usize) {
        self.root_moves[from..].sort_by_key(|rm| std::cmp::Reverse((rm.score, rm.previous_score)));
    }

    /// Called by the main worker after each iteration: should we begin another?
    fn should_stop_after_iteration(&self) -> bool {
        let control = self.shared.control;
        if control.is_stopped() {
            return true;
        }
        if let (Some(moves), Score::Mate(found)) =
            (self.shared.limits.mate_in_moves, Score::from_internal(self.root_moves[0].score))
        {
            if found > 0 && found <= moves {
                return true;
            }
        }
        if self.shared.limits.soft_nodes.is_some_and(|soft| self.total_nodes().max(self.nodes) >= soft) {
            return true;
        }
        self.time_manager.should_stop(control.clock())
    }
}
