//! Move ordering: gives each move a score so the likeliest cut comes first.
//!
//! Order: the transposition-table move (handed out before anything else is scored); captures
//! that do not lose material (by static exchange) and queen promotions, most valuable victim
//! first; the two killers of this ply; the counter move to the opponent's last move; quiet moves
//! by history; then losing captures and under-promotions.

use crate::see::see_ge;
use shakmaty::{Chess, Move, MoveList, Role};

/// Rough piece values for ordering captures (pawn .. king).
const ORDER_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 2000];

fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// MVV-LVA value of a capture or promotion; 0 for quiet moves.
pub fn tactical_value(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => ORDER_VALUE[0],
        _ => m.capture().map_or(0, |role| ORDER_VALUE[role_index(role)]),
    };
    let promotion = m.promotion().map_or(0, |role| ORDER_VALUE[role_index(role)]);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    victim * 10 + promotion * 10 - ORDER_VALUE[role_index(m.role())] / 10
}

/// True for moves ordered and pruned as quiet (no capture, no promotion).
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// The captured piece's value for delta pruning in quiescence.
pub fn gain_estimate(m: Move) -> i32 {
    tactical_value(m) / 10
}

/// Moves that help ordering beyond the table move.
#[derive(Debug, Clone, Copy, Default)]
pub struct OrderingHints {
    /// The transposition table's move for this position, handed out first; must be legal here.
    pub tt_move: Option<Move>,
    /// The two quiet moves that last caused a cutoff at this ply, tried after good captures.
    pub killers: [Option<Move>; 2],
    /// The quiet move that last refuted the opponent's previous move, tried after the killers.
    pub counter: Option<Move>,
}

/// Where a picker is in a node's move order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    GatherTacticals,
    GoodTacticals,
    Killers,
    Quiets,
    BadTacticals,
}

/// A node's moves, handed out best first in stages, each doing its work only when reached.
///
/// The table move comes alone, before anything is scored: it causes most cutoffs. Captures and
/// promotions follow by victim value; the static exchange is evaluated only for the one picked,
/// and a loser is put aside for the last stage. Then the killers and the counter move, then the
/// other quiets by history (scored when the stage begins, so by the history the earlier
/// moves' subtrees left), then the losing tacticals in victim order. Within a stage the picker
/// selects lazily (a cutoff usually comes after the first few). `skip_quiets` drops every quiet
/// not worth trying once the search prunes quiets wholesale, so they are neither scored nor
/// scanned again. The moves live in fixed-size lists: no heap allocation per node. A picker
/// made by `table_move_first` generates the moves only once the table move has failed to cut.
pub struct MovePicker {
    /// `[..next]` handed out or put aside; tacticals first in `[next..tacticals_end]` while
    /// their stage runs, then the quiets to `len`.
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
    tacticals_end: usize,
    stage: Stage,
    /// Killers and the counter move tried so far (index into the hint list).
    hint_index: usize,
    /// Losing captures and under-promotions, in the order they were put aside (best victim
    /// first).
    bad_tacticals: MoveList,
    bad_next: usize,
    hints: OrderingHints,
    last_known_good: bool,
    /// How to generate the moves, while that is still to be done (the table move goes out
    /// first).
    pending: Option<fn(&Chess) -> MoveList>,
}

impl MovePicker {
    /// `hints.tt_move`, when given, must be one of `moves`.
    pub fn new(moves: MoveList, hints: OrderingHints) -> MovePicker {
        MovePicker {
            moves,
            scores: [0; 256],
            next: 0,
            tacticals_end: 0,
            stage: Stage::TableMove,
            hint_index: 0,
            bad_tacticals: MoveList::new(),
            bad_next: 0,
            hints,
            last_known_good: false,
            pending: None,
        }
    }

    /// A picker that hands out `tt_move` (legal in the position, and one `generate` yields)
    /// before generating anything: a node the table move cuts never pays for the rest. The
    /// other moves are generated when asked for, and come in the same order as from
    /// `new(generate(pos), hints)`.
    pub fn table_move_first(
        tt_move: Move,
        hints: OrderingHints,
        generate: fn(&Chess) -> MoveList,
    ) -> MovePicker {
        let mut picker = MovePicker::new(MoveList::new(), OrderingHints { tt_move: Some(tt_move), ..hints });
        picker.pending = Some(generate);
        picker
    }

    /// The next move in `pos` (the position the moves were generated in). `history` gives a
    /// move's history score: a quiet's orders the quiets, a tactical's is added to its victim
    /// value. It is called only once the stage of the moves it scores begins.
    pub fn next_move(&mut self, pos: &Chess, history: impl Fn(Move) -> i32) -> Option<Move> {
        self.last_known_good = false;
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GatherTacticals;
                    if self.hints.tt_move.is_some() {
                        return self.hints.tt_move;
                    }
                }
                Stage::GatherTacticals => {
                    self.stage = Stage::GoodTacticals;
                    self.generate(pos);
                    // The table move went out first: out of the list with it.
                    let tt_index = self.hints.tt_move.and_then(|tt| self.moves.iter().position(|&m| m == tt));
                    if let Some(index) = tt_index {
                        self.take(index);
                    }
                    self.gather_tacticals(&history);
                }
                Stage::GoodTacticals => {
                    if self.next >= self.tacticals_end {
                        self.stage = Stage::Killers;
                        continue;
                    }
                    let m = self.pick_best(self.tacticals_end);
                    let underpromotion = m.promotion().is_some_and(|role| role != Role::Queen);
                    if !underpromotion && see_ge(pos, m, 0) {
                        self.last_known_good = true;
                        return Some(m);
                    }
                    self.bad_tacticals.push(m);
                }
                Stage::Killers => {
                    let hints = [self.hints.killers[0], self.hints.killers[1], self.hints.counter];
                    let Some(&hint) = hints.get(self.hint_index) else {
                        self.stage = Stage::Quiets;
                        let (start, end) = (self.next, self.moves.len());
                        for index in start..end {
                            self.scores[index] = history(self.moves[index]);
                        }
                        continue;
                    };
                    self.hint_index += 1;
                    let Some(hint) = hint.filter(|&m| is_quiet(m)) else { continue };
                    if let Some(offset) = self.moves[self.next..].iter().position(|&m| m == hint) {
                        self.take(self.next + offset);
                        return Some(hint);
                    }
                }
                Stage::Quiets => {
                    if self.next >= self.moves.len() {
                        self.stage = Stage::BadTacticals;
                        continue;
                    }
                    return Some(self.pick_best(self.moves.len()));
                }
                Stage::BadTacticals => {
                    let m = self.bad_tacticals.get(self.bad_next).copied();
                    self.bad_next += 1;
                    return m;
                }
            }
        }
    }

    /// Whether the move last handed out is a capture or promotion already known not to lose
    /// material by static exchange, so callers can skip their own exchange test. False for the
    /// table move, which was handed out unscored.
    pub fn last_is_known_good_tactical(&self) -> bool {
        self.last_known_good
    }

    /// The search prunes quiets from here on: keep only the quiets `keep` spares (quiet checks),
    /// so the others are never scored, scanned or tested again.
    pub fn skip_quiets(&mut self, pos: &Chess, keep: impl Fn(Move) -> bool) {
        if matches!(self.stage, Stage::BadTacticals) {
            return;
        }
        self.generate(pos);
        let start = if self.stage == Stage::GoodTacticals { self.tacticals_end } else { self.next };
        // Before the tacticals are gathered they are still among the quiets: keep them.
        let gathered = !matches!(self.stage, Stage::TableMove | Stage::GatherTacticals);
        let mut kept = start;
        for index in start..self.moves.len() {
            let m = self.moves[index];
            if keep(m) || (!gathered && !is_quiet(m)) {
                self.moves.swap(kept, index);
                self.scores.swap(kept, index);
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        if self.stage == Stage::Killers {
            // The killers left are in the kept list: they come by history with the rest.
            self.hint_index = 3;
        }
    }

    /// Generates the moves of a picker made by `table_move_first` (once).
    fn generate(&mut self, pos: &Chess) {
        if let Some(generate) = self.pending.take() {
            self.moves = generate(pos);
        }
    }

    /// Puts the unpicked tacticals (captures and promotions) first and scores them by victim
    /// value and history.
    fn gather_tacticals(&mut self, history: impl Fn(Move) -> i32) {
        let mut end = self.next;
        for index in self.next..self.moves.len() {
            if !is_quiet(self.moves[index]) {
                self.moves.swap(end, index);
                end += 1;
            }
        }
        for index in self.next..end {
            self.scores[index] = tactical_value(self.moves[index]) + history(self.moves[index]);
        }
        self.tacticals_end = end;
    }

    /// Hands out `moves[index]` next (the table move, or a killer once the tacticals are done).
    fn take(&mut self, index: usize) {
        self.moves.swap(self.next, index);
        self.scores.swap(self.next, index);
        self.next += 1;
    }

    /// The best-scored move in `[next..end)`, swapped to `next` and handed out.
    fn pick_best(&mut self, end: usize) -> Move {
        let mut best = self.next;
        for index in self.next + 1..end {
            if self.scores[index] > self.scores[best] {
                best = index;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        self.moves[self.next - 1]
    }

    /// Every move, in order, for tests.
    #[cfg(test)]
    fn drain(mut self, pos: &Chess, history: impl Fn(Move) -> i32) -> Vec<Move> {
        std::iter::from_fn(|| self.next_move(pos, &history)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Position};

    #[test]
    fn orders_tt_move_good_captures_killers_counter_history_bad_captures() {
        // White: Qd1xd5 is defended by e6 (bad), Nc3xd5 trades knight for pawn... also bad;
        // e4xd5 wins a pawn for nothing lost (good).
        let pos: Chess = "4k3/8/4p3/3p4/4P3/2N5/8/3QK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mv = |uci: &str| uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let (tt, good, killer, counter, quiet, bad) =
            (mv("e1f2"), mv("e4d5"), mv("c3b5"), mv("d1d2"), mv("c3a4"), mv("d1d5"));
        let hints =
            OrderingHints { tt_move: Some(tt), killers: [Some(killer), None], counter: Some(counter) };
        let picked =
            MovePicker::new(pos.legal_moves(), hints).drain(&pos, |m| if m == quiet { 500 } else { 0 });
        let rank = |m: Move| picked.iter().position(|&p| p == m).unwrap();
        assert_eq!(rank(tt), 0);
        assert_eq!(rank(good), 1);
        assert_eq!(rank(killer), 2);
        assert_eq!(rank(counter), 3);
        assert!(rank(quiet) == 4);
        assert_eq!(rank(bad), picked.len() - 1, "the losing queen capture goes last: {picked:?}");
        assert_eq!(picked.len(), pos.legal_moves().len());
    }

    /// The order a picker must follow: (stage, rank within the stage), smaller first.
    fn expected_rank(pos: &Chess, m: Move, hints: OrderingHints, history: i32) -> (u8, i32) {
        let good = m.promotion().is_none_or(|role| role == Role::Queen) && see_ge(pos, m, 0);
        if Some(m) == hints.tt_move {
            (0, 0)
        } else if !is_quiet(m) {
            (if good { 1 } else { 6 }, -tactical_value(m) - history)
        } else if Some(m) == hints.killers[0] {
            (2, 0)
        } else if Some(m) == hints.killers[1] {
            (3, 0)
        } else if Some(m) == hints.counter {
            (4, 0)
        } else {
            (5, -history)
        }
    }

    fn varied_positions() -> Vec<Chess> {
        let mut positions = Vec::new();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let root: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for m in root.legal_moves() {
                let mut child = root.clone();
                child.play_unchecked(m);
                positions.push(child);
            }
            positions.push(root);
        }
        positions
    }

    #[test]
    fn every_move_comes_once_in_stage_order() {
        for (n, pos) in varied_positions().iter().enumerate() {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue;
            }
            let hint = |k: usize| moves.get((n * 7 + k * 3) % (moves.len() + 1)).copied();
            let hints = OrderingHints { tt_move: hint(0), killers: [hint(1), hint(2)], counter: hint(1) };
            let history = |m: Move| (m.to() as i32 * 31 + m.from().map_or(0, |f| f as i32) * 7) % 50;
            let picked = MovePicker::new(moves.clone(), hints).drain(pos, history);
            assert_eq!(picked.len(), moves.len(), "{picked:?}");
            assert!(moves.iter().all(|m| picked.contains(m)));
            let ranks: Vec<_> = picked.iter().map(|&m| expected_rank(pos, m, hints, history(m))).collect();
            assert!(ranks.windows(2).all(|pair| pair[0] <= pair[1]), "out of order: {picked:?} {ranks:?}");
        }
    }

    #[test]
    fn skipped_quiets_leave_only_tacticals_and_the_quiets_kept() {
        for pos in varied_positions() {
            let moves = pos.legal_moves();
            let mut picker = MovePicker::new(moves.clone(), OrderingHints::default());
            let Some(first) = picker.next_move(&pos, |_| 0) else { continue };
            let keep = |m: Move| (m.to() as usize).is_multiple_of(3);
            picker.skip_quiets(&pos, keep);
            let mut rest = vec![first];
            rest.extend(std::iter::from_fn(|| picker.next_move(&pos, |_| 0)));
            let expected: Vec<Move> =
                moves.iter().copied().filter(|&m| !is_quiet(m) || keep(m) || m == first).collect();
            assert_eq!(rest.len(), expected.len(), "{rest:?} vs {expected:?}");
            assert!(expected.iter().all(|m| rest.contains(m)));
        }
    }

    #[test]
    fn a_picker_that_generates_late_hands_out_what_an_eager_one_does() {
        for (n, pos) in varied_positions().iter().enumerate() {
            let moves = pos.legal_moves();
            let Some(&tt) = moves.get(n % moves.len().max(1)) else { continue };
            let hints = OrderingHints {
                tt_move: Some(tt),
                killers: [moves.get(n % 5).copied(), None],
                counter: None,
            };
            let history = |m: Move| (m.to() as i32 * 13 + m.from().map_or(0, |f| f as i32)) % 40;
            let eager = MovePicker::new(moves.clone(), hints).drain(pos, history);
            let late = MovePicker::table_move_first(tt, hints, Chess::legal_moves).drain(pos, history);
            assert_eq!(eager, late);
            // Quiets skipped right after the table move, or before it.
            for handed_out in [0, 1] {
                let keep = |m: Move| (m.to() as usize).is_multiple_of(4);
                let mut eager = MovePicker::new(moves.clone(), hints);
                let mut late = MovePicker::table_move_first(tt, hints, Chess::legal_moves);
                let mut eager_order: Vec<Move> =
                    (0..handed_out).filter_map(|_| eager.next_move(pos, history)).collect();
                let mut late_order: Vec<Move> =
                    (0..handed_out).filter_map(|_| late.next_move(pos, history)).collect();
                eager.skip_quiets(pos, keep);
                late.skip_quiets(pos, keep);
                eager_order.extend(std::iter::from_fn(|| eager.next_move(pos, history)));
                late_order.extend(std::iter::from_fn(|| late.next_move(pos, history)));
                assert_eq!(eager_order, late_order);
            }
        }
    }

    #[test]
    fn the_table_move_comes_before_anything_is_scored() {
        let pos = Chess::default();
        let tt = "g1f3".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let hints = OrderingHints { tt_move: Some(tt), ..OrderingHints::default() };
        let mut picker = MovePicker::new(pos.legal_moves(), hints);
        assert_eq!(picker.next_move(&pos, |_| panic!("history read for the table move")), Some(tt));
        assert!(!picker.last_is_known_good_tactical());
        let rest: Vec<Move> = std::iter::from_fn(|| picker.next_move(&pos, |_| 0)).collect();
        assert_eq!(rest.len(), 19);
        assert!(!rest.contains(&tt));
    }

    #[test]
    fn only_captures_that_win_or_trade_are_known_good() {
        // e4xd5 wins a pawn; Qd1xd5 loses the queen to e6xd5; the king move is quiet.
        let pos: Chess = "4k3/8/4p3/3p4/4P3/8/8/3QK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut picker = MovePicker::new(pos.legal_moves(), OrderingHints::default());
        let mut known_good = Vec::new();
        while let Some(m) = picker.next_move(&pos, |_| 0) {
            if picker.last_is_known_good_tactical() {
                known_good.push(m);
            }
        }
        let good = "e4d5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(known_good, vec![good]);
    }
}
