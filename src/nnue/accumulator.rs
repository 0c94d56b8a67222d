//! Accumulators: the first layer's sums for both perspectives, kept current along the search.
//!
//! `AccumulatorStack` holds one entry per position of a line (the root, then one per move
//! made), each marked computed or not. `Position` pushes an uncomputed entry on every move and
//! pops on unmake, which costs nothing; only `evaluate` does work: it finds the nearest
//! computed entry below the top and walks up, applying each move's change, found by comparing
//! the two boards' piece bitboards (so castling, en passant, promotions, Chess960 and null
//! moves need no special case). The change is applied in one pass over each accumulator
//! (the added and removed weight rows together), and for a mirrored net (architecture 3) a
//! perspective whose king crossed between the d- and e-files is recomputed from scratch
//! instead, since every one of its inputs moved. With nothing computed it refreshes the root.
//!
//! The entries are typed by the net's hidden size (`Accumulator<H>`), so the update loops run
//! over fixed-size arrays and vectorise; a stack remembers which net filled it, and another
//! net (`EvalFile`) starts it over at that net's size.

use super::{feature_index, Architecture, Layers, Network, SizedLayers};
use shakmaty::{Board, Color, Role};

/// One perspective's first-layer sums, in `QA` units.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator<const H: usize> {
    /// Feature bias plus the weight rows of every active feature, one sum per hidden neuron.
    pub values: [i16; H],
}

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

/// The most pieces one move adds or removes: castling moves two (king and rook).
const MAX_CHANGES: usize = 4;

impl<const H: usize> Accumulator<H> {
    #[inline]
    pub(super) fn add(&mut self, row: &[i16; H]) {
        for (value, &weight) in self.values.iter_mut().zip(row) {
            *value = value.wrapping_add(weight);
        }
    }

    #[inline]
    fn sub(&mut self, row: &[i16; H]) {
        for (value, &weight) in self.values.iter_mut().zip(row) {
            *value = value.wrapping_sub(weight);
        }
    }

    /// Becomes `before` plus the `added` rows minus the `removed` ones, in one pass for a quiet
    /// move, a capture and castling. The sums are exact in any order (wrapping arithmetic, and
    /// the result is in range), so the order of the rows does not matter.
    #[inline]
    fn update_from(&mut self, before: &Accumulator<H>, added: &[&[i16; H]], removed: &[&[i16; H]]) {
        let (out, old) = (&mut self.values, &before.values);
        match (added, removed) {
            ([a], [r]) => {
                for ((o, &b), (&a, &r)) in out.iter_mut().zip(old).zip(a.iter().zip(r.iter())) {
                    *o = b.wrapping_add(a).wrapping_sub(r);
                }
            }
            ([a], [r1, r2]) => {
                for ((o, &b), (&a, (&r1, &r2))) in
                    out.iter_mut().zip(old).zip(a.iter().zip(r1.iter().zip(r2.iter())))
                {
                    *o = b.wrapping_add(a).wrapping_sub(r1).wrapping_sub(r2);
                }
            }
            ([a1, a2], [r1, r2]) => {
                let adds = a1.iter().zip(a2.iter());
                for ((o, &b), ((&a1, &a2), (&r1, &r2))) in
                    out.iter_mut().zip(old).zip(adds.zip(r1.iter().zip(r2.iter())))
                {
                    *o = b.wrapping_add(a1).wrapping_add(a2).wrapping_sub(r1).wrapping_sub(r2);
                }
            }
            _ => {
                *out = *old;
                added.iter().for_each(|row| self.add(row));
                removed.iter().for_each(|row| self.sub(row));
            }
        }
    }
}

/// The inputs one move turned off and on, as White sees the board unmirrored
/// (`feature_index(Color::White, false, ..)`); `perspective_index` turns one into another
/// perspective's.
struct Change {
    /// The first `added_len` are used.
    added: [u16; MAX_CHANGES],
    added_len: usize,
    /// The first `removed_len` are used.
    removed: [u16; MAX_CHANGES],
    removed_len: usize,
}

impl Change {
    /// The change from `before` to `after`; `None` when more than `MAX_CHANGES` pieces were
    /// added or removed (no move does that; the caller then refreshes). Only the squares whose
    /// occupant changed (colour or role) are looked at: two to four of them.
    #[inline]
    fn between(before: &Board, after: &Board) -> Option<Change> {
        let mut change =
            Change { added: [0; MAX_CHANGES], added_len: 0, removed: [0; MAX_CHANGES], removed_len: 0 };
        let mut changed = before.white() ^ after.white();
        for role in ROLES {
            changed |= before.by_role(role) ^ after.by_role(role);
        }
        for square in changed {
            if let Some(piece) = before.piece_at(square) {
                *change.removed.get_mut(change.removed_len)? =
                    feature_index(Color::White, false, piece.color, piece.role, square) as u16;
                change.removed_len += 1;
            }
            if let Some(piece) = after.piece_at(square) {
                *change.added.get_mut(change.added_len)? =
                    feature_index(Color::White, false, piece.color, piece.role, square) as u16;
                change.added_len += 1;
            }
        }
        Some(change)
    }
}

/// `perspective`'s input, `mirrored` or not, for White's unmirrored input `white`: Black sees
/// the colours swapped and the ranks flipped; mirroring flips the file (the low three bits).
#[inline]
fn perspective_index(white: u16, perspective: Color, mirrored: bool) -> usize {
    let white = usize::from(white);
    let index = match perspective {
        Color::White => white,
        Color::Black => (if white >= 384 { white - 384 } else { white + 384 }) ^ 56,
    };
    index ^ (7 * usize::from(mirrored))
}

/// Fills `after_pair` (White's, Black's) for `after` from `before_pair`, computed for `before`.
fn update<const H: usize>(
    layers: &Layers<H>,
    arch: Architecture,
    before_pair: &[Accumulator<H>; 2],
    after_pair: &mut [Accumulator<H>; 2],
    before: &Board,
    after: &Board,
) {
    let change = Change::between(before, after);
    for (side, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
        let mirrored = arch.mirrors(after, perspective);
        match &change {
            Some(change) if mirrored == arch.mirrors(before, perspective) => {
                let row = |white: u16| layers.row(perspective_index(white, perspective, mirrored));
                let mut added = [layers.row(0); MAX_CHANGES];
                let mut removed = [layers.row(0); MAX_CHANGES];
                for (slot, &white) in added.iter_mut().zip(&change.added[..change.added_len]) {
                    *slot = row(white);
                }
                for (slot, &white) in removed.iter_mut().zip(&change.removed[..change.removed_len]) {
                    *slot = row(white);
                }
                after_pair[side].update_from(
                    &before_pair[side],
                    &added[..change.added_len],
                    &removed[..change.removed_len],
                );
            }
            // The king crossed the d/e line: every input of this perspective moved.
            _ => after_pair[side] = layers.refreshed(after, perspective, mirrored),
        }
    }
}

/// Brings `computed`'s last entry up to date and evaluates it (see the module comment).
/// Compiled for AVX-512, AVX2 and the baseline, the widest the CPU runs chosen at run time:
/// the updates and the output layer inline into it and vectorise at that width.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512bw+avx2+fma", "x86_64+avx2+fma"))]
fn evaluate_line<'a, const H: usize>(
    layers: &Layers<H>,
    arch: Architecture,
    entries: &mut Vec<[Accumulator<H>; 2]>,
    computed: &mut [bool],
    turn: Color,
    board_at: impl Fn(usize) -> &'a Board,
) -> i32 {
    let top = computed.len() - 1;
    if entries.len() <= top {
        entries.resize(top + 1, [Accumulator { values: [0; H] }; 2]);
    }
    let start = match computed.iter().rposition(|&done| done) {
        Some(index) => index,
        None => {
            let root = board_at(0);
            entries[0] = [Color::White, Color::Black]
                .map(|perspective| layers.refreshed(root, perspective, arch.mirrors(root, perspective)));
            computed[0] = true;
            0
        }
    };
    for index in start + 1..=top {
        let (done, rest) = entries.split_at_mut(index);
        update(layers, arch, &done[index - 1], &mut rest[0], board_at(index - 1), board_at(index));
        computed[index] = true;
    }
    let [white, black] = &entries[top];
    let pieces = board_at(top).occupied().count();
    match turn {
        Color::White => layers.evaluate(white, black, pieces),
        Color::Black => layers.evaluate(black, white, pieces),
    }
}

/// The vector instructions the net's loops run with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorWidth {
    /// 512-bit x86 vectors.
    Avx512,
    /// 256-bit x86 vectors.
    Avx2,
    /// The x86-64 baseline's 128-bit vectors.
    Sse2,
    /// ARM's 128-bit vectors.
    Neon,
    /// None the build knows of.
    Scalar,
}

impl std::fmt::Display for VectorWidth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            VectorWidth::Avx512 => "AVX-512",
            VectorWidth::Avx2 => "AVX2",
            VectorWidth::Sse2 => "SSE2",
            VectorWidth::Neon => "NEON",
            VectorWidth::Scalar => "scalar",
        })
    }
}

/// The vector instructions `evaluate_line` runs with on this CPU, for `patina --version`:
/// multiversioned over the same targets, so the dispatch that picks one picks the other.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512bw+avx2+fma", "x86_64+avx2+fma"))]
pub fn vector_width() -> VectorWidth {
    multiversion::target::match_target! {
        "x86_64+avx512f+avx512bw" => VectorWidth::Avx512,
        "x86_64+avx2" => VectorWidth::Avx2,
        "x86_64+sse2" => VectorWidth::Sse2,
        "aarch64+neon" => VectorWidth::Neon,
        _ => VectorWidth::Scalar,
    }
}

/// The entries of a stack, at the hidden size of the net that filled them.
#[derive(Clone)]
enum SizedEntries {
    Empty,
    H128(Vec<[Accumulator<128>; 2]>),
    H256(Vec<[Accumulator<256>; 2]>),
    H384(Vec<[Accumulator<384>; 2]>),
    H512(Vec<[Accumulator<512>; 2]>),
}

/// The accumulators of a line of play (see the module comment).
#[derive(Clone)]
pub struct AccumulatorStack {
    /// Per entry (the root, then one per move made): whether its accumulators are current.
    computed: Vec<bool>,
    /// Entries in use.
    len: usize,
    /// The net that filled the entries: its hash, architecture and size.
    net: Option<(u64, Architecture, usize)>,
    /// White's and Black's accumulators per entry; may be longer or shorter than `len`.
    entries: SizedEntries,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack { computed: vec![false], len: 1, net: None, entries: SizedEntries::Empty }
    }
}

impl AccumulatorStack {
    /// A move was made: its entry is computed when first needed.
    #[inline]
    pub fn push(&mut self) {
        if self.len == self.computed.len() {
            self.computed.push(false);
        } else {
            self.computed[self.len] = false;
        }
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
        self.computed[0] = false;
    }

    /// Centipawns for `turn`, the side to move at the top entry, by `net`, bringing the top
    /// entry up to date. `board_at(i)` is the board of entry `i` (0 = the root).
    pub fn evaluate<'a>(&mut self, net: &Network, turn: Color, board_at: impl Fn(usize) -> &'a Board) -> i32 {
        let identity = (net.hash(), net.arch(), net.hidden());
        if self.net != Some(identity) {
            self.start_over(net);
            self.net = Some(identity);
        }
        let (arch, computed) = (net.arch(), &mut self.computed[..self.len]);
        match (&net.layers, &mut self.entries) {
            (SizedLayers::H128(layers), SizedEntries::H128(entries)) => {
                evaluate_line(layers, arch, entries, computed, turn, board_at)
            }
            (SizedLayers::H256(layers), SizedEntries::H256(entries)) => {
                evaluate_line(layers, arch, entries, computed, turn, board_at)
            }
            (SizedLayers::H384(layers), SizedEntries::H384(entries)) => {
                evaluate_line(layers, arch, entries, computed, turn, board_at)
            }
            (SizedLayers::H512(layers), SizedEntries::H512(entries)) => {
                evaluate_line(layers, arch, entries, computed, turn, board_at)
            }
            _ => unreachable!("start_over gave the entries the net's size"),
        }
    }

    /// Forgets every entry and sizes them for `net`.
    fn start_over(&mut self, net: &Network) {
        self.computed.iter_mut().for_each(|done| *done = false);
        self.entries = match net.layers {
            SizedLayers::H128(_) => SizedEntries::H128(Vec::new()),
            SizedLayers::H256(_) => SizedEntries::H256(Vec::new()),
            SizedLayers::H384(_) => SizedEntries::H384(Vec::new()),
            SizedLayers::H512(_) => SizedEntries::H512(Vec::new()),
        };
    }
}

#[cfg(test)]
mod tests {
    use crate::nnue::test_support::random_network;
    use crate::nnue::{default_network, Architecture, Network};
    use crate::position::Position;
    use crate::rng::Rng;
    use shakmaty::{Bitboard, Board, ByColor, Color, Position as _, Role};

    fn full(net: &Network, pos: &Position) -> i32 {
        net.evaluate_board(pos.chess().board(), pos.turn())
    }

    /// Random walks of makes, unmakes and null moves: the lazy, incremental evaluation must
    /// equal a refresh at every step. Returns how many king moves crossed the d/e line.
    fn walk(net: &Network, fen: &str, chess960: bool, seed: u64) -> usize {
        let mut pos = Position::from_fen(fen, chess960).unwrap();
        let mut rng = Rng::new(seed);
        let (mut depth, mut crossings) = (0, 0);
        for step in 0..400 {
            let moves = pos.legal_moves();
            let choice = rng.below(10);
            if depth > 0 && (moves.is_empty() || choice < 3) {
                pos.unmake();
                depth -= 1;
            } else if choice == 3 && pos.make_null() {
                depth += 1;
            } else if !moves.is_empty() {
                // Prefer captures, castling, en passant, promotions and king moves, which
                // change most (a king crossing the d/e line refreshes a mirrored perspective).
                let special: Vec<_> = moves
                    .iter()
                    .filter(|m| m.is_capture() || m.is_promotion() || m.is_castle() || m.role() == Role::King)
                    .collect();
                let m = if !special.is_empty() && rng.below(2) == 0 {
                    *special[rng.below(special.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                let king = pos.chess().board().king_of(pos.turn());
                pos.make(m);
                let moved = pos.chess().board().king_of(!pos.turn());
                crossings +=
                    usize::from(king.map(crate::nnue::king_mirrors) != moved.map(crate::nnue::king_mirrors));
                depth += 1;
            }
            if rng.below(3) == 0 {
                assert_eq!(pos.evaluate_network(net), full(net, &pos), "{fen} step {step}: {}", pos.fen());
            }
        }
        crossings
    }

    const WALKS: [(&str, bool); 8] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
        ("2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", true),
        // Kings in the middle, on either side of the d/e line.
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
        ("8/8/2n1k3/3p4/4P3/3K1B2/8/8 w - - 0 1", false),
    ];

    #[test]
    fn incremental_equals_refresh_along_random_lines() {
        let net = default_network();
        for (index, (fen, chess960)) in WALKS.into_iter().enumerate() {
            for seed in 0..4 {
                walk(&net, fen, chess960, index as u64 * 10 + seed);
            }
        }
    }

    #[test]
    fn a_mirrored_net_refreshes_a_perspective_whose_king_crosses_the_d_e_line() {
        let nets = [
            random_network(Architecture::Mirrored, 256, 11),
            random_network(Architecture::Mirrored, 128, 12),
            random_network(Architecture::OutputBuckets, 512, 13),
            // The shape of a net 7 widened by `train --init --hidden 256` (n7w, n18w).
            random_network(Architecture::OutputBuckets, 256, 14),
        ];
        for net in &nets {
            let mut crossings = 0;
            for (index, (fen, chess960)) in WALKS.into_iter().enumerate() {
                for seed in 0..2 {
                    crossings += walk(net, fen, chess960, 1000 + index as u64 * 10 + seed);
                }
            }
            assert!(crossings > 50, "only {crossings} king moves crossed the d/e line");
        }
    }

    #[test]
    fn a_stack_follows_a_change_of_net_and_size() {
        let mut pos =
            Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false)
                .unwrap();
        let nets = [default_network().as_ref().clone(), random_network(Architecture::Mirrored, 384, 5)];
        for round in 0..6 {
            let net = &nets[round % 2];
            let m = pos.legal_moves()[round];
            pos.make(m);
            assert_eq!(pos.evaluate_network(net), full(net, &pos), "round {round}");
        }
    }

    #[test]
    fn perspective_indices_follow_feature_index() {
        use super::{perspective_index, ROLES};
        use crate::nnue::feature_index;
        for square in shakmaty::Square::ALL {
            for (color, role) in [Color::White, Color::Black].into_iter().flat_map(|c| ROLES.map(|r| (c, r)))
            {
                let white = feature_index(Color::White, false, color, role, square) as u16;
                for (perspective, mirrored) in
                    [(Color::White, true), (Color::Black, false), (Color::Black, true)]
                {
                    assert_eq!(
                        perspective_index(white, perspective, mirrored),
                        feature_index(perspective, mirrored, color, role, square)
                    );
                }
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
        let nets = [default_network().as_ref().clone(), random_network(Architecture::Mirrored, 256, 9)];
        for net in &nets {
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
}
