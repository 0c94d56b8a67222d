//! Static evaluation: tapered material, piece-square tables, bishop pair and tempo.
//!
//! Every term is a middlegame/endgame pair, blended by the game phase (how much non-pawn
//! material is left). `evaluate` returns centipawns from the side to move's point of view;
//! `breakdown` returns the same terms per side for the `eval` command.

mod psqt;

use shakmaty::{Chess, Color, Position as _, Role};

/// A middlegame/endgame pair of centipawn values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
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

const BISHOP_PAIR: Tapered = Tapered { mg: 30, eg: 50 };
/// The side to move is usually better off by roughly this much.
const TEMPO: i32 = 12;

/// One evaluation term for both sides.
#[derive(Debug, Clone, Copy)]
pub struct Term {
    pub name: &'static str,
    pub white: Tapered,
    pub black: Tapered,
}

/// Everything `eval` shows: the terms, the phase and the blended total.
#[derive(Debug, Clone)]
pub struct Breakdown {
    pub terms: Vec<Term>,
    /// 0 (bare kings and pawns) to `PHASE_MAX` (all pieces on the board).
    pub phase: i32,
    pub phase_max: i32,
    /// Final score in centipawns, White's point of view.
    pub white_score: i32,
}

const ROLES: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

fn material_and_squares(pos: &Chess, color: Color) -> (Tapered, Tapered) {
    let board = pos.board();
    let mut material = Tapered::default();
    let mut squares = Tapered::default();
    let white = color == Color::White;
    for (index, &role) in ROLES.iter().enumerate() {
        let pieces = board.by_color(color) & board.by_role(role);
        let count = pieces.count() as i32;
        material.mg += count * psqt::MATERIAL_MG[index];
        material.eg += count * psqt::MATERIAL_EG[index];
        for square in pieces {
            let (mg, eg) = psqt::square_bonus(index, square as usize, white);
            squares += Tapered { mg, eg };
        }
    }
    (material, squares)
}

fn bishop_pair(pos: &Chess, color: Color) -> Tapered {
    let board = pos.board();
    if (board.by_color(color) & board.bishops()).count() >= 2 {
        BISHOP_PAIR
    } else {
        Tapered::default()
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

fn blend(score: Tapered, phase: i32) -> i32 {
    (score.mg * phase + score.eg * (psqt::PHASE_MAX - phase)) / psqt::PHASE_MAX
}

/// All terms for both sides, for display and for `evaluate`.
pub fn breakdown(pos: &Chess) -> Breakdown {
    let (white_material, white_squares) = material_and_squares(pos, Color::White);
    let (black_material, black_squares) = material_and_squares(pos, Color::Black);
    let tempo = Tapered { mg: TEMPO, eg: TEMPO };
    let (white_tempo, black_tempo) = match pos.turn() {
        Color::White => (tempo, Tapered::default()),
        Color::Black => (Tapered::default(), tempo),
    };
    let terms = vec![
        Term { name: "material", white: white_material, black: black_material },
        Term { name: "piece-squares", white: white_squares, black: black_squares },
        Term {
            name: "bishop pair",
            white: bishop_pair(pos, Color::White),
            black: bishop_pair(pos, Color::Black),
        },
        Term { name: "tempo", white: white_tempo, black: black_tempo },
    ];
    let phase = game_phase(pos);
    let mut total = Tapered::default();
    for term in &terms {
        total += term.white - term.black;
    }
    Breakdown { terms, phase, phase_max: psqt::PHASE_MAX, white_score: blend(total, phase) }
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let white = breakdown_total(pos);
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The same sum as `breakdown`, without building the term list (the search's hot path).
fn breakdown_total(pos: &Chess) -> i32 {
    let (white_material, white_squares) = material_and_squares(pos, Color::White);
    let (black_material, black_squares) = material_and_squares(pos, Color::Black);
    let mut total = Tapered::default();
    total += white_material - black_material;
    total += white_squares - black_squares;
    total += bishop_pair(pos, Color::White) - bishop_pair(pos, Color::Black);
    let tempo = match pos.turn() {
        Color::White => TEMPO,
        Color::Black => -TEMPO,
    };
    total += Tapered { mg: tempo, eg: tempo };
    blend(total, game_phase(pos))
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
        ] {
            let pos = chess(fen);
            let mirrored: Chess =
                pos.to_setup(EnPassantMode::Legal).into_mirrored().position(CastlingMode::Standard).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
            assert_eq!(breakdown(&pos).white_score, -breakdown(&mirrored).white_score);
        }
    }

    #[test]
    fn breakdown_agrees_with_evaluate() {
        let pos = chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
        assert_eq!(evaluate(&pos), -breakdown(&pos).white_score);
    }

    #[test]
    fn extra_queen_is_winning() {
        assert!(evaluate(&chess("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) > 800);
    }
}
