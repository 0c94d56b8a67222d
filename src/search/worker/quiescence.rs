//! Quiescence: the search below the horizon, over captures and promotions (every evasion in
//! check) until the position is quiet, standing pat on the static evaluation.

use super::*;

impl Worker<'_> {
    /// Captures and promotions until the position is quiet (all evasions when in check).
    pub(super) fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.poll() {
            return DRAW;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.pv_length[ply] = ply;
        let in_check = self.pos.is_check();
        if let Some(score) = self.rule_draw(in_check, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return if in_check { DRAW } else { self.static_eval() };
        }

        let key = self.pos.key();
        let hit = self.shared.tt.probe(key);
        let tt_score = hit.map(|hit| score_from_tt(hit.score, ply));
        if let (Some(hit), Some(score)) = (hit, tt_score) {
            if bound_allows_cutoff(hit.bound, score, alpha, beta) {
                return score;
            }
        }

        // Stand pat: the side to move may decline every capture (not when in check). The
        // corrected static eval, refined by the table's score where its bound allows.
        let raw_eval = if in_check { EVAL_NONE } else { self.stored_or_static_eval(hit) };
        let stand_pat = if in_check {
            -INFINITY
        } else {
            let eval = self.corrected(raw_eval, Slots::of(self.pos.chess()));
            let refines = |hit: TtHit, score: i32| match hit.bound {
                Bound::Exact => true,
                Bound::Lower => score > eval,
                Bound::Upper => score < eval,
            };
            match (hit, tt_score) {
                (Some(hit), Some(score)) if score.abs() < TB_WIN_BOUND && refines(hit, score) => score,
                _ => eval,
            }
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        // So far below alpha that no capture can close the gap: give the node up.
        if !in_check && stand_pat + self.params().qs_node_delta < alpha {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);

        // A table move this node would try goes first, before the others are generated.
        let generate: fn(&Chess) -> MoveList = if in_check { Chess::legal_moves } else { tactical_moves };
        let tt_move = hit
            .and_then(|hit| decode_move_in(hit.packed_move, self.pos.chess()))
            .filter(|&mv| in_check || is_tactical(mv));
        let hints = OrderingHints { tt_move, ..OrderingHints::default() };
        let mut picker = match tt_move {
            Some(tt_move) => MovePicker::table_move_first(tt_move, hints, generate),
            None => {
                let moves = generate(self.pos.chess());
                if in_check && moves.is_empty() {
                    return -MATE + ply as i32;
                }
                MovePicker::new(moves, hints)
            }
        };
        let side = self.pos.turn();
        let mut best_score = stand_pat;
        let mut best_move = None;
        while let Some(mv) =
            picker.next_move(self.pos.chess(), |mv| self.order_score(&Contexts::NONE, side, mv))
        {
            if !in_check {
                // Delta pruning: even winning this piece outright would not reach alpha.
                if stand_pat + gain_estimate(mv) + self.params().delta_margin <= alpha {
                    continue;
                }
                // Only captures whose exchange does not lose, and wins what alpha still needs
                // less a margin, can improve a quiet position.
                let threshold =
                    (alpha - stand_pat - self.params().qs_see_margin).max(self.params().qs_see_floor);
                if !see_ge(self.pos.chess(), mv, threshold) {
                    continue;
                }
            }
            self.make_move(mv);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.pos.unmake();
            if self.stopped {
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        self.store(key, best_move, best_score, (!in_check).then_some(raw_eval), 0, bound, ply);
        best_score
    }
}
