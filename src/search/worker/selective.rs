//! The selective searches `negamax` runs beside its move loop: ProbCut, the singular test of
//! the table move, and the late-move reduction of quiets (which late-move pruning reads too).

use super::*;

impl Worker<'_> {
    /// ProbCut's search (see step 6b): captures that win enough by exchange are tried in
    /// quiescence, then confirmed `probcut_reduction` plies shallower. A confirmed score is
    /// stored and returned.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        depth: i32,
        probcut_beta: i32,
        pruning_eval: i32,
        raw_eval: i32,
        hit: Option<TtHit>,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let moves = tactical_moves(self.pos.chess());
        let tt_move = hit.and_then(|hit| decode_move(hit.packed_move, &moves));
        let side = self.pos.turn();
        let mut picker = MovePicker::new(moves, OrderingHints { tt_move, ..OrderingHints::default() });
        let threshold = probcut_beta - pruning_eval;
        while let Some(mv) = picker.next_move(self.pos.chess(), |mv| self.history.capture(side, mv) / 2) {
            if !see_ge(self.pos.chess(), mv, threshold) {
                continue;
            }
            self.move_stack[ply] = Some(mv);
            self.moved[ply] = Some(PieceTo::of(side, mv));
            self.double_extensions[ply + 1] = self.double_extensions[ply];
            self.make_move(mv);
            let mut score = -self.quiescence(-probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta && !self.stopped {
                score = -self.negamax(
                    depth - self.params().probcut_reduction,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                    !cut_node,
                );
            }
            self.pos.unmake();
            if self.stopped {
                return None;
            }
            if score >= probcut_beta {
                let key = self.pos.key();
                self.store(
                    key,
                    Some(mv),
                    score,
                    Some(raw_eval),
                    depth - self.params().probcut_reduction + 1,
                    Bound::Lower,
                    ply,
                );
                return Some(score);
            }
        }
        None
    }

    /// The late-move reduction of a quiet searched as the `move_number`th at `depth`, before
    /// the node-type and move-hint terms: the table's, a ply more when not improving, and up
    /// to `lmr_history_clamp` plies less (or more) by its history. Pruning reads it too.
    pub(super) fn quiet_reduction(
        &self,
        depth: i32,
        move_number: usize,
        improving: bool,
        history: i32,
    ) -> i32 {
        let params = self.params();
        params.lmr(depth, move_number) - 1 + !improving as i32
            - (history / params.lmr_history_divisor)
                .clamp(-params.lmr_history_clamp, params.lmr_history_clamp)
    }

    /// Whether the table move of a node may be tested for singularity: deep enough, the entry a
    /// lower bound from nearly as deep with a score that is no mate or tablebase win, and not so
    /// far from the root that extensions could run away.
    pub(super) fn is_singular_candidate(&self, hit: TtHit, depth: i32, ply: usize) -> bool {
        depth >= self.params().se_min_depth
            && matches!(hit.bound, Bound::Lower | Bound::Exact)
            && hit.depth >= depth - self.params().se_tt_depth_margin
            && score_from_tt(hit.score, ply).abs() < TB_WIN_BOUND
            && (ply as i32) < 2 * self.root_depth
    }

    /// Searches the node at `ply` without the table move `mv`, at half depth and against a
    /// window below the table's score. Every other move failing low there makes `mv` singular:
    /// extend it (by two when far below, a few times per line at most). Another move beating
    /// beta too means the node fails high whatever `mv` is worth (multi-cut). Otherwise, when
    /// the table already expects a cut, `mv` is not the only good move and is searched a ply
    /// shallower.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular_test(
        &mut self,
        mv: Move,
        tt_score: i32,
        depth: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Singularity {
        let singular_beta = tt_score - self.params().se_margin_per_depth * depth;
        self.excluded[ply] = Some(mv);
        let score = self.negamax((depth - 1) / 2, singular_beta - 1, singular_beta, ply, cut_node);
        self.excluded[ply] = None;
        if score < singular_beta {
            let doubled = !pv_node
                && score < singular_beta - self.params().se_double_margin
                && self.double_extensions[ply] < SE_MAX_DOUBLE_EXTENSIONS;
            Singularity::Extend(if doubled { 2 } else { 1 })
        } else if singular_beta >= beta {
            Singularity::MultiCut(singular_beta)
        } else if tt_score >= beta {
            Singularity::Extend(-1)
        } else {
            Singularity::Extend(0)
        }
    }
}

/// What the singular test says about a node's table move.
pub(super) enum Singularity {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// Other moves beat beta too: the node fails high with this score.
    MultiCut(i32),
}
