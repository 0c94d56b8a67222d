//! Weights of the positional evaluation terms, as middlegame/endgame pairs in centipawns.
//!
//! Hand-set starting values; `patina tune` fits replacements. Every term is linear in its
//! weight (a count or a table lookup times the weight), which is what lets a Texel tuner fit
//! them by gradient descent. `params.rs` copies these into the flat parameter vector (under the
//! same names); the evaluation reads them from there.

use super::{s, Tapered};

/// Mobility by number of safe squares reached.
pub const KNIGHT_MOBILITY: [Tapered; 9] =
    [s(-40, -50), s(-25, -30), s(-10, -15), s(0, -5), s(8, 5), s(14, 12), s(20, 16), s(25, 18), s(30, 20)];
pub const BISHOP_MOBILITY: [Tapered; 14] = [
    s(-35, -50),
    s(-20, -30),
    s(-8, -15),
    s(0, -5),
    s(8, 4),
    s(15, 10),
    s(20, 16),
    s(24, 22),
    s(27, 26),
    s(30, 29),
    s(33, 31),
    s(36, 33),
    s(39, 35),
    s(42, 36),
];
pub const ROOK_MOBILITY: [Tapered; 15] = [
    s(-30, -60),
    s(-18, -35),
    s(-10, -18),
    s(-5, -6),
    s(-2, 4),
    s(0, 12),
    s(3, 20),
    s(6, 27),
    s(9, 33),
    s(12, 38),
    s(14, 42),
    s(16, 46),
    s(18, 49),
    s(20, 51),
    s(22, 53),
];
pub const QUEEN_MOBILITY: [Tapered; 28] = [
    s(-20, -40),
    s(-15, -30),
    s(-10, -20),
    s(-6, -12),
    s(-3, -6),
    s(0, 0),
    s(2, 5),
    s(4, 10),
    s(6, 14),
    s(8, 18),
    s(10, 21),
    s(11, 24),
    s(12, 26),
    s(13, 28),
    s(14, 30),
    s(15, 32),
    s(16, 33),
    s(17, 34),
    s(18, 35),
    s(19, 36),
    s(20, 37),
    s(21, 38),
    s(22, 39),
    s(23, 40),
    s(24, 41),
    s(25, 42),
    s(26, 43),
    s(27, 44),
];

/// Passed pawn by relative rank (index 0 = first rank, never used).
pub const PASSED_PAWN: [Tapered; 8] =
    [s(0, 0), s(2, 10), s(4, 14), s(8, 22), s(20, 40), s(40, 75), s(70, 120), s(0, 0)];
/// Extra for a passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE_PATH: [Tapered; 8] =
    [s(0, 0), s(0, 2), s(0, 4), s(2, 8), s(5, 18), s(10, 35), s(20, 60), s(0, 0)];
/// Endgame bonus per square of (enemy king distance - own king distance) to the stop square,
/// scaled by the pawn's relative rank.
pub const PASSED_KING_DISTANCE: Tapered = s(0, 3);
pub const DOUBLED_PAWN: Tapered = s(-10, -22);
pub const ISOLATED_PAWN: Tapered = s(-10, -12);
pub const BACKWARD_PAWN: Tapered = s(-8, -10);
/// Pawn defended by a pawn or standing beside one, by relative rank.
pub const CONNECTED_PAWN: [Tapered; 8] =
    [s(0, 0), s(0, 0), s(6, 2), s(8, 5), s(14, 10), s(25, 22), s(45, 40), s(0, 0)];

pub const BISHOP_PAIR: Tapered = s(28, 55);
pub const ROOK_OPEN_FILE: Tapered = s(28, 10);
pub const ROOK_SEMI_OPEN_FILE: Tapered = s(12, 6);
pub const ROOK_ON_SEVENTH: Tapered = s(10, 25);
pub const KNIGHT_OUTPOST: Tapered = s(25, 12);
pub const BISHOP_OUTPOST: Tapered = s(15, 6);

/// Our pawn attacks one of their pieces (knight .. queen).
pub const THREAT_BY_PAWN: Tapered = s(55, 35);
/// Our knight or bishop attacks their rook or queen.
pub const THREAT_BY_MINOR: Tapered = s(35, 25);
/// Our rook attacks their queen.
pub const THREAT_BY_ROOK: Tapered = s(30, 20);
/// One of their pieces is attacked and not defended.
pub const HANGING_PIECE: Tapered = s(25, 15);

/// Pawn shield: own pawns one and two ranks in front of the king, on its file and beside it.
pub const SHIELD_PAWN_NEAR: Tapered = s(14, -2);
pub const SHIELD_PAWN_FAR: Tapered = s(7, -1);
/// Enemy pawns one or two ranks from our shield zone.
pub const PAWN_STORM: Tapered = s(-8, 0);
/// A file next to (or at) the king without own pawns; worse without any pawns.
pub const KING_SEMI_OPEN_FILE: Tapered = s(-12, 0);
pub const KING_OPEN_FILE: Tapered = s(-18, 0);
/// Attacks on the king zone, per attacked square, by attacking role (knight .. queen), counted
/// only once at least two kinds of enemy piece join the attack.
pub const KING_ZONE_ATTACK: [Tapered; 4] = [s(-9, -2), s(-8, -2), s(-10, -3), s(-14, -4)];
/// Squares from which an enemy knight .. queen could give a check nobody defends against.
pub const SAFE_CHECK: [Tapered; 4] = [s(-35, -8), s(-25, -8), s(-40, -10), s(-30, -10)];

/// Safe central squares behind and around our pawns (ranks 2-4, files c-f), per square.
pub const SPACE: Tapered = s(3, 0);

/// The side to move is usually better off by roughly this much.
pub const TEMPO: Tapered = s(14, 12);
