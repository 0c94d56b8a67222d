//! What the workers publish while they search: node counts for the stop checks and `info`
//! lines, and the main worker's iteration reports and, in a long search, each root move it
//! starts.

use super::*;

impl Worker<'_> {
    pub(super) fn publish_nodes(&self) {
        self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
        if self.is_main() {
            self.shared.control.publish_nodes(self.total_nodes());
        }
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.node_counts.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Keeps the lines of the iteration just completed, for `SearchOutcome::lines`.
    pub(super) fn record_lines(&mut self, lines: usize) {
        self.completed_lines = self.root_moves[..lines]
            .iter()
            .map(|rm| RootLine {
                pv: rm.pv.clone(),
                score: Score::from_internal(self.shared.root.reported(rm.mv, rm.score)),
            })
            .collect();
    }

    /// Notes the root move at `index` as the one under way, and reports it once root moves are
    /// reported (`report_root_moves_when_due`).
    pub(super) fn start_root_move(&mut self, mv: Move, index: usize) {
        self.current_root_move = Some((mv, index + 1));
        if self.reporting_root_moves {
            self.report_current_root_move();
        } else {
            self.report_root_moves_when_due();
        }
    }

    /// Once the search has run `CURRMOVE_AFTER_MS`, the main worker reports the root move under
    /// way and from then on each as it starts (called as each starts and from the poll, so a
    /// root move that takes seconds is shown while it is searched).
    pub(super) fn report_root_moves_when_due(&mut self) {
        if self.reporting_root_moves
            || !self.is_main()
            || self.shared.control.search_elapsed().as_millis() <= CURRMOVE_AFTER_MS
        {
            return;
        }
        self.reporting_root_moves = true;
        self.report_current_root_move();
    }

    fn report_current_root_move(&self) {
        if let Some((mv, number)) = self.current_root_move {
            (self.shared.report)(SearchEvent::RootMove { depth: self.root_depth, mv, number });
        }
    }

    pub(super) fn report_lines(&self, depth: i32, lines: usize) {
        for index in 0..lines {
            self.report_line(depth, index, self.root_moves[index].bound);
        }
    }

    pub(super) fn report_line(&self, depth: i32, index: usize, bound: ScoreBound) {
        let root_move = &self.root_moves[index];
        let score = if root_move.score == -INFINITY { root_move.previous_score } else { root_move.score };
        if score == -INFINITY {
            return;
        }
        let elapsed = self.shared.control.search_elapsed();
        let nodes = self.total_nodes().max(self.nodes);
        let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
        (self.shared.report)(SearchEvent::Iteration(IterationReport {
            depth,
            seldepth: self.seldepth.max(depth as usize),
            multipv: index + 1,
            score: Score::from_internal(self.shared.root.reported(root_move.mv, score)),
            bound,
            nodes,
            nps,
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.control.tb_hits(),
            time: elapsed,
            pv: root_move.pv.clone(),
        }));
    }
}
