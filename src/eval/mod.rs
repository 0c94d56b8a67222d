//! Static evaluation: what a position is worth, in centipawns.
//!
//! Terms (each a middlegame/endgame pair, blended by the game phase): material and piece-square
//! tables, mobility, pawn structure, passed pawns, king safety, bishop pair, rooks, outposts,
//! threats, space and tempo; then an endgame scale for drawish material. Every weight lives in
//! one flat vector (`params.rs`; the hand-set numbers come from `weights.rs` and `psqt.rs`).
//! `accumulate` walks the terms once and tells a sink (`sink.rs`) "parameter `i`, `n` times" for
//! each side: `evaluate` weighs those counts with `params::ACTIVE` as they come, `breakdown`
//! keeps them per term for the `eval` command, and `trace` keeps the bare counts for
//! `patina tune` (`trace.rs`). `evaluate` returns centipawns from the side to move's point of
//! view.

mod attacks;
mod king;
pub mod params;
mod pawns;
mod pieces;
mod psqt;
mod scale;
mod sink;
mod trace;
mod weights;

pub use params::EvalParams;
pub use psqt::PHASE_MAX;
pub use scale::SCALE_NORMAL;
pub use trace::Trace;

pub use attacks::attacked_squares;
use attacks::AttackMap;
use shakmaty::{Board, Chess, Color, Position as _, Role};
use sink::{side_index, Sink, TermId, TermTable, Totals, TERM_NAMES};

/// A middlegame/endgame pair of centipawn values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tapered {
    /// Centipawns in the middlegame (full phase).
    pub mg: i32,
    /// Centipawns in the endgame (phase 0).
    pub eg: i32,
}

/// A middlegame/endgame pair; the short name keeps tables and generated files readable (the
/// weight tables of `weights.rs`, the tuner's output that `params.rs` includes).
pub const fn s(mg: i32, eg: i32) -> Tapered {
    Tapered { mg, eg }
}

impl std::ops::AddAssign for Tapered {
    fn add_assign(&mut self, other: Tapered) {
        self.mg += other.mg;
        self.eg += other.eg;
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    fn sub(self, other: Tapered) -> Tapered {
        Tapered { mg: self.mg - other.mg, eg: self.eg - other.eg }
    }
}

/// One evaluation term for both sides.
#[derive(Debug, Clone, Copy)]
pub struct Term {
    /// The term's label in the `eval` table, e.g. `"mobility"`.
    pub name: &'static str,
    /// White's value of the term in centipawns, from White's view.
    pub white: Tapered,
    /// Black's value of the term in centipawns, from Black's view (the net is `white - black`).
    pub black: Tapered,
}

/// Everything `eval` shows: the terms, the phase, the endgame scale and the blended total.
#[derive(Debug, Clone)]
pub struct Breakdown {
    /// Every term, in the order the `eval` command lists them.
    pub terms: Vec<Term>,
    /// 0 (bare kings and pawns) to `PHASE_MAX` (all pieces on the board).
    pub phase: i32,
    /// `PHASE_MAX`, the full phase, for display next to `phase`.
    pub phase_max: i32,
    /// Endgame scale out of 64 (64 = no scaling).
    pub scale: i32,
    /// Final score in centipawns, White's point of view.
    pub white_score: i32,
}

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

fn material_and_squares(board: &Board, color: Color, sink: &mut impl Sink) {
    let ours = board.by_color(color);
    sink.begin(TermId::Material, color);
    for (index, &role) in ROLES.iter().enumerate() {
        sink.add(params::MATERIAL + index, (ours & board.by_role(role)).count() as i32);
    }
    sink.begin(TermId::PieceSquares, color);
    let white = color == Color::White;
    for (index, &role) in ROLES.iter().enumerate() {
        for square in ours & board.by_role(role) {
            sink.add(params::psqt(index, psqt::table_index(square as usize, white)), 1);
        }
    }
}

fn game_phase(pos: &Chess) -> i32 {
    let board = pos.board();
    let phase: i32 = ROLES
        .iter()
        .enumerate()
        .map(|(index, &role)| board.by_role(role).count() as i32 * psqt::PHASE_WEIGHT[index])
        .sum();
    phase.min(psqt::PHASE_MAX)
}

/// Both sides' pawn-only terms into `sink`, and each side's passed pawns (White first): the
/// pawn cache's totals for a scoring sink, every parameter recounted for the tracer.
#[inline]
fn pawn_structure<S: Sink>(board: &Board, sink: &mut S) -> [shakmaty::Bitboard; 2] {
    if S::COUNTS_PAWN_TERMS {
        return pawns::recount(board, sink);
    }
    let info = pawns::pawn_info(board);
    sink.add_pawn_totals(info.structure);
    info.passed
}

/// Every term of both sides into `sink`: the one walk over the position that evaluating,
/// the `eval` table and tracing share.
fn accumulate<S: Sink>(pos: &Chess, sink: &mut S) {
    let board = pos.board();
    let maps = [AttackMap::of(board, Color::White), AttackMap::of(board, Color::Black)];
    let passed = pawn_structure(board, sink);
    for color in [Color::White, Color::Black] {
        let side = side_index(color);
        let (ours, theirs) = (&maps[side], &maps[1 - side]);
        material_and_squares(board, color, sink);
        sink.begin(TermId::PassedPawns, color);
        pawns::passed_pawn_extras(board, color, passed[side], sink);
        sink.begin(TermId::Mobility, color);
        pieces::mobility(board, color, theirs, sink);
        sink.begin(TermId::KingSafety, color);
        king::king_safety(board, color, ours, theirs, sink);
        sink.begin(TermId::Threats, color);
        pieces::threats(board, color, ours, theirs, sink);
        sink.begin(TermId::Outposts, color);
        pieces::outposts(board, color, ours, sink);
        sink.begin(TermId::Rooks, color);
        pieces::rooks(board, color, sink);
        sink.begin(TermId::BishopPair, color);
        pieces::bishop_pair(board, color, sink);
        sink.begin(TermId::Space, color);
        pieces::space(board, color, theirs, sink);
    }
    sink.begin(TermId::Tempo, pos.turn());
    sink.add(params::TEMPO, 1);
}

/// Blends a White-relative total by `phase` (out of `PHASE_MAX`) after scaling its endgame
/// part by `scale` (out of `SCALE_NORMAL`); integer division, as the engine has always done.
fn taper(total: Tapered, phase: i32, scale: i32) -> i32 {
    let eg = total.eg * scale / scale::SCALE_NORMAL;
    (total.mg * phase + eg * (psqt::PHASE_MAX - phase)) / psqt::PHASE_MAX
}

/// The White-relative score of a summed total, with the phase and scale used.
fn blend(pos: &Chess, total: Tapered) -> (i32, i32, i32) {
    let phase = game_phase(pos);
    let strong = if total.eg >= 0 { Color::White } else { Color::Black };
    let scale = scale::endgame_scale(pos.board(), strong);
    (taper(total, phase, scale), phase, scale)
}

/// All terms for both sides, for display.
pub fn breakdown(pos: &Chess) -> Breakdown {
    let mut table = TermTable::default();
    accumulate(pos, &mut table);
    let mut total = Tapered::default();
    let terms: Vec<Term> = TERM_NAMES
        .iter()
        .zip(table.terms)
        .map(|(&name, [white, black])| {
            total += white - black;
            Term { name, white, black }
        })
        .collect();
    let (white_score, phase, scale) = blend(pos, total);
    Breakdown { terms, phase, phase_max: psqt::PHASE_MAX, scale, white_score }
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let mut totals = Totals::default();
    accumulate(pos, &mut totals);
    let (white, _, _) = blend(pos, totals.sides[0] - totals.sides[1]);
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The evaluation of `pos` as coefficients over the parameter vector, for tuning.
pub fn trace(pos: &Chess) -> Trace {
    let mut tracer = trace::Tracer::new();
    accumulate(pos, &mut tracer);
    let board = pos.board();
    Trace {
        coefficients: tracer.coefficients(),
        phase: game_phase(pos),
        scale: [scale::endgame_scale(board, Color::White), scale::endgame_scale(board, Color::Black)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode, EnPassantMode};

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn mirrored_positions_evaluate_the_same_for_the_side_to_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
            "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
            "2r3k1/pp3ppp/4p3/3pP3/1P1P4/P3R3/5PPP/6K1 b - - 0 24",
            "8/8/4k3/3b4/8/2B5/3PK3/8 w - - 0 1",
        ] {
            let pos = chess(fen);
            let mirrored: Chess =
                pos.to_setup(EnPassantMode::Legal).into_mirrored().position(CastlingMode::Standard).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
            assert_eq!(breakdown(&pos).white_score, -breakdown(&mirrored).white_score, "{fen}");
        }
    }

    #[test]
    fn breakdown_agrees_with_evaluate() {
        let pos = chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
        assert_eq!(evaluate(&pos), -breakdown(&pos).white_score);
    }

    /// Twenty positions that between them reach every term: openings, middlegames with
    /// king attacks, passed pawns, rooks on the seventh, scaled endgames, both sides to move.
    const VARIED: [&str; 20] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 b - - 3 10",
        "2kr3r/ppp2ppp/2n5/2b1q3/4P1b1/2N2N2/PPPQ1PPP/R3KB1R w KQ - 4 11",
        "r1b2rk1/pp3ppp/2n1p3/q2pP3/3P1P2/P1PB1N2/5QPP/R4RK1 w - - 1 16",
        "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/5pk1/6p1/7p/7P/6P1/5PK1/8 b - - 0 1",
        "2r3k1/pp3ppp/4p3/3pP3/1P1P4/P3R3/5PPP/6K1 b - - 0 24",
        "8/8/4k3/3b4/8/2B5/3PK3/8 w - - 0 1",
        "4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1",
        "4k3/1P6/8/8/8/8/8/4K3 b - - 0 1",
        "1r4k1/R5pp/8/8/8/8/6PP/6K1 w - - 0 1",
        "3q2k1/5ppp/8/3N4/8/8/5PPP/3Q2K1 b - - 0 1",
        "r5k1/1p3ppp/p1p5/2Pp4/1P1P4/P3r3/5PPP/R4RK1 w - - 0 22",
        "8/1k6/8/8/3K4/8/8/2q5 w - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ];

    #[test]
    fn trace_reproduces_evaluate_exactly() {
        // The trace's integer sum under the engine's weights, with the same integer blend,
        // must give exactly `evaluate`: no rounding slack.
        for fen in VARIED {
            let pos = chess(fen);
            let trace = trace(&pos);
            let white = trace.white_score(&params::ACTIVE);
            let expected = if pos.turn() == Color::White { evaluate(&pos) } else { -evaluate(&pos) };
            assert_eq!(white, expected, "{fen}");
            assert_eq!(white, breakdown(&pos).white_score, "{fen}");
        }
    }

    #[test]
    fn mirrored_trace_negates_every_coefficient() {
        for fen in VARIED {
            let pos = chess(fen);
            let mirrored: Chess =
                pos.to_setup(EnPassantMode::Legal).into_mirrored().position(CastlingMode::Standard).unwrap();
            let (ours, theirs) = (trace(&pos), trace(&mirrored));
            let negated: Vec<(u16, i32)> = theirs.coefficients.iter().map(|&(i, c)| (i, -c)).collect();
            assert_eq!(ours.coefficients, negated, "{fen}");
            assert_eq!(ours.scale, [theirs.scale[1], theirs.scale[0]], "{fen}");
        }
    }

    #[test]
    fn extra_queen_is_winning() {
        assert!(evaluate(&chess("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) > 800);
    }

    #[test]
    fn pawnless_minor_piece_edge_is_scaled_towards_a_draw() {
        // KR v KB: a rook up for a bishop, but without pawns it is nearly always a draw.
        assert!(evaluate(&chess("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1")).abs() < 100);
    }

    #[test]
    fn far_advanced_passed_pawn_is_worth_more() {
        let far = evaluate(&chess("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
        let near = evaluate(&chess("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1"));
        assert!(far > near + 50, "{far} vs {near}");
    }
}
