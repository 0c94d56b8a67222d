//! Accumulators: the first layer's sums for both perspectives, kept current along the search.
//!
//! `AccumulatorStack` holds one entry per position of a line (the root, then one per move
//! made), each marked computed or not. `Position` pushes an uncomputed entry on every move and
//! pops on unmake, which costs nothing; only `evaluate` does work: it finds the nearest
//! computed entry below the top and walks up, applying each move's change, found by comparing
//! the two boards' piece bitboards (so castling, en passant, promotions, Chess960 and null
//! moves need no special case). With nothing computed it refreshes the root from scratch. A
//! stack remembers which net filled it, and a new net (`EvalFile`) starts it over.

use super::{feature_index, features, Network, HIDDEN};
use shakmaty::{Board, Color, Role};

/// One perspective's first-layer sums, in `QA` units.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Feature bias plus the weight rows of every active feature, one sum per hidden neuron.
    pub values: [i16; HIDDEN],
}

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

impl Accumulator {
    /// White's and Black's accumulators of `board`, from scratch.
    pub fn refreshed(net: &Network, board: &Board) -> [Accumulator; 2] {
        let mut pair = [Accumulator { values: *net.feature_bias() }; 2];
        for (white, black) in features(board) {
            pair[0].add(net.feature_row(white));
            pair[1].add(net.feature_row(black));
        }
        pair
    }

    #[inline]
    fn add(&mut self, row: &[i16; HIDDEN]) {
        for (value, &weight) in self.values.iter_mut().zip(row) {
            *value = value.wrapping_add(weight);
        }
    }

    #[inline]
    fn sub(&mut self, row: &[i16; HIDDEN]) {
        for (value, &weight) in self.values.iter_mut().zip(row) {
            *value = value.wrapping_sub(weight);
        }
    }
}

/// Applies the change from `before` to `after` to a pair computed for `before`.
fn apply_change(net: &Network, pair: &mut [Accumulator; 2], before: &Board, after: &Board) {
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            let old = before.by_color(color) & before.by_role(role);
            let new = after.by_color(color) & after.by_role(role);
            if old == new {
                continue;
            }
            for square in old & !new {
                pair[0].sub(net.feature_row(feature_index(Color::White, color, role, square)));
                pair[1].sub(net.feature_row(feature_index(Color::Black, color, role, square)));
            }
            for square in new & !old {
                pair[0].add(net.feature_row(feature_index(Color::White, color, role, square)));
                pair[1].add(net.feature_row(feature_index(Color::Black, color, role, square)));
            }
        }
    }
}

#[derive(Clone)]
struct Entry {
    /// White's perspective, then Black's.
    pair: [Accumulator; 2],
    computed: bool,
}

/// The accumulators of a line of play (see the module comment).
#[derive(Clone)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// Entries in use: the root and one per move made.
    len: usize,
    net_hash: u64,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack {
            entries: vec![Entry { pair: [Accumulator { values: [0; HIDDEN] }; 2], computed: false }],
            len: 1,
            net_hash: 0,
        }
    }
}

impl AccumulatorStack {
    /// A move was made: its entry is computed when first needed.
    #[inline]
    pub fn push(&mut self) {
        if self.len == self.entries.len() {
            self.entries.push(self.entries[self.len - 1].clone());
        }
        self.entries[self.len].computed = false;
        self.len += 1;
    }

    /// The last move was taken back.
    #[inline]
    pub fn pop(&mut self) {
        self.len = (self.len - 1).max(1);
    }

    /// The line starts over at a new root.
    pub fn reset(&mut self) {
        self.len = 1;
        self.entries[0].computed = false;
    }

    /// The top entry's pair (White's, Black's), bringing it up to date. `board_at(i)` is the
    /// board of entry `i` (0 = the root).
    pub fn current<'a>(&mut self, net: &Network, board_at: impl Fn(usize) -> &'a Board) -> &[Accumulator; 2] {
        if self.net_hash != net.hash() {
            self.net_hash = net.hash();
            self.entries[..self.len].iter_mut().for_each(|entry| entry.computed = false);
        }
        let top = self.len - 1;
        let computed = (0..=top).rev().find(|&index| self.entries[index].computed);
        let start = match computed {
            Some(index) => index,
            None => {
                self.entries[0].pair = Accumulator::refreshed(net, board_at(0));
                self.entries[0].computed = true;
                0
            }
        };
        for index in start + 1..=top {
            let mut pair = self.entries[index - 1].pair;
            apply_change(net, &mut pair, board_at(index - 1), board_at(index));
            self.entries[index] = Entry { pair, computed: true };
        }
        &self.entries[top].pair
    }
}

#[cfg(test)]
mod tests {
    use crate::nnue::default_network;
    use crate::position::Position;
    use crate::rng::Rng;
    use shakmaty::{Bitboard, Board, ByColor, Color, Position as _};

    fn full(pos: &Position) -> i32 {
        default_network().evaluate_board(pos.chess().board(), pos.turn())
    }

    /// Random walks of makes, unmakes and null moves: the lazy, incremental evaluation must
    /// equal a refresh at every step.
    fn walk(fen: &str, chess960: bool, seed: u64) {
        let net = default_network();
        let mut pos = Position::from_fen(fen, chess960).unwrap();
        let mut rng = Rng::new(seed);
        let mut depth = 0;
        for step in 0..400 {
            let moves = pos.legal_moves();
            let choice = rng.below(10);
            if depth > 0 && (moves.is_empty() || choice < 3) {
                pos.unmake();
                depth -= 1;
            } else if choice == 3 && pos.make_null() {
                depth += 1;
            } else if !moves.is_empty() {
                // Prefer captures, castling, en passant and promotions, which change most.
                let special: Vec<_> =
                    moves.iter().filter(|m| m.is_capture() || m.is_promotion() || m.is_castle()).collect();
                let m = if !special.is_empty() && rng.below(2) == 0 {
                    *special[rng.below(special.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.make(m);
                depth += 1;
            }
            if rng.below(3) == 0 {
                assert_eq!(pos.evaluate_network(&net), full(&pos), "{fen} step {step}: {}", pos.fen());
            }
        }
    }

    #[test]
    fn incremental_equals_refresh_along_random_lines() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false),
            ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
            ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
        ];
        for (index, (fen, chess960)) in cases.into_iter().enumerate() {
            for seed in 0..4 {
                walk(fen, chess960, index as u64 * 10 + seed);
            }
        }
    }

    fn mirrored(board: &Board) -> Board {
        let flip = |bb: Bitboard| bb.flip_vertical();
        let colors =
            ByColor { white: flip(board.by_color(Color::Black)), black: flip(board.by_color(Color::White)) };
        let mut mirror = Board::empty();
        for square in flip(board.occupied()) {
            let piece = board.piece_at(square.flip_vertical()).unwrap();
            mirror.set_piece_at(square, shakmaty::Piece { color: !piece.color, role: piece.role });
        }
        assert_eq!(mirror.by_color(Color::White), colors.white);
        mirror
    }

    #[test]
    fn colour_flipped_positions_evaluate_the_same() {
        let net = default_network();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkb1r/pp1p1ppp/2p2n2/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 4",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            let board = pos.chess().board();
            let own = net.evaluate_board(board, pos.turn());
            let flipped = net.evaluate_board(&mirrored(board), !pos.turn());
            assert_eq!(own, flipped, "{fen}");
        }
    }
}
