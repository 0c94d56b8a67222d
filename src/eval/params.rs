//! Every evaluation weight in one flat vector, and the names of its parts.
//!
//! `EvalParams::values` holds one middlegame/endgame pair per weight; the constants below are the
//! index where each block starts (`KNIGHT_MOBILITY + 3` is a knight reaching three squares), and
//! `BLOCKS` lists the blocks in order with their lengths. The term code (`mod.rs`, `pawns.rs`,
//! `pieces.rs`, `king.rs`) only ever says "parameter `i`, `n` times" to a sink, so the same code
//! both evaluates (`ACTIVE`, a `static` the compiler folds like the old named constants) and
//! traces coefficients for `patina tune`.
//!
//! `HAND_SET` assembles the hand-written numbers of `psqt.rs` and `weights.rs` into this layout.
//! Piece-square blocks keep `psqt.rs`'s order: 64 entries per role, drawn rank 8 first, from the
//! piece's own side (a White piece on a1 reads entry 56, a Black one entry 0).
//!
//! `patina tune` writes a file holding one `EvalParams { values: [...] }` expression in this
//! layout. The engine plays `tuned.rs` (`ACTIVE` below includes it); a new file plays once it
//! replaces that one. `HAND_SET` stays as the tuner's unit tests' fixed reference.

use super::{psqt, s, weights, Tapered};

/// One named run of parameters in the flat vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The block's constant name, e.g. `"KNIGHT_MOBILITY"`.
    pub name: &'static str,
    /// Index of its first parameter in the flat vector.
    pub start: usize,
    /// Number of parameters in it.
    pub len: usize,
}

/// Declares the block start constants in order, `PARAM_COUNT`, and `BLOCKS`.
macro_rules! layout {
    ($($(#[$doc:meta])* $name:ident: $len:expr,)*) => {
        layout!(@starts 0usize; $($(#[$doc])* $name: $len,)*);
        /// Every block, in vector order.
        pub const BLOCKS: &[Block] = &[$(Block { name: stringify!($name), start: $name, len: $len }),*];
    };
    (@starts $at:expr; $(#[$doc:meta])* $name:ident: $len:expr, $($rest:tt)*) => {
        $(#[$doc])*
        pub const $name: usize = $at;
        layout!(@starts $name + $len; $($rest)*);
    };
    (@starts $at:expr;) => {
        /// Length of the parameter vector.
        pub const PARAM_COUNT: usize = $at;
    };
}

layout! {
    /// Material by role: pawn, knight, bishop, rook, queen, king (the king's never counts).
    MATERIAL: 6,
    /// Piece-square tables, 64 per role in role order; see the module comment for the order.
    PSQT: 6 * 64,
    /// Mobility by number of safe squares reached.
    KNIGHT_MOBILITY: 9,
    /// Bishop mobility by number of safe squares reached (0..=13).
    BISHOP_MOBILITY: 14,
    /// Rook mobility by number of safe squares reached (0..=14).
    ROOK_MOBILITY: 15,
    /// Queen mobility by number of safe squares reached (0..=27).
    QUEEN_MOBILITY: 28,
    /// Passed pawn by relative rank (0 = own back rank).
    PASSED_PAWN: 8,
    /// A passed pawn with nothing on its path, by relative rank.
    PASSED_FREE_PATH: 8,
    /// Per (enemy minus own king distance to the stop square) times relative rank.
    PASSED_KING_DISTANCE: 1,
    /// Per pawn with an own pawn ahead of it on its file.
    DOUBLED_PAWN: 1,
    /// Per pawn with no own pawn on either adjacent file.
    ISOLATED_PAWN: 1,
    /// Per unconnected pawn whose neighbours are all ahead and whose stop square an enemy pawn
    /// attacks.
    BACKWARD_PAWN: 1,
    /// Pawn defended by or beside another, by relative rank.
    CONNECTED_PAWN: 8,
    /// Once for a side with two or more bishops.
    BISHOP_PAIR: 1,
    /// Per rook on a file with no pawns at all.
    ROOK_OPEN_FILE: 1,
    /// Per rook on a file with enemy pawns but no own pawns.
    ROOK_SEMI_OPEN_FILE: 1,
    /// Per rook on the relative seventh rank while the enemy king is on the eighth or enemy
    /// pawns are on the seventh.
    ROOK_ON_SEVENTH: 1,
    /// Per knight on relative rank 4 to 6, defended by a pawn, that no enemy pawn can attack.
    KNIGHT_OUTPOST: 1,
    /// Per bishop on such an outpost square.
    BISHOP_OUTPOST: 1,
    /// Per enemy knight .. queen our pawns attack.
    THREAT_BY_PAWN: 1,
    /// Per enemy rook or queen our knights or bishops attack.
    THREAT_BY_MINOR: 1,
    /// Per enemy queen our rooks attack.
    THREAT_BY_ROOK: 1,
    /// Per enemy knight .. queen we attack and they do not defend.
    HANGING_PIECE: 1,
    /// Per own pawn one rank in front of the king, on its file or an adjacent one.
    SHIELD_PAWN_NEAR: 1,
    /// Per own pawn two ranks in front of the king, on its file or an adjacent one.
    SHIELD_PAWN_FAR: 1,
    /// Per enemy pawn one or two ranks from the king's shield zone.
    PAWN_STORM: 1,
    /// Per file at or beside the king with enemy pawns but no own pawns.
    KING_SEMI_OPEN_FILE: 1,
    /// Per file at or beside the king with no pawns at all.
    KING_OPEN_FILE: 1,
    /// Attacked king-zone squares by attacking role (knight .. queen), after the two-kinds gate.
    KING_ZONE_ATTACK: 4,
    /// Safe checking squares by checking role (knight .. queen).
    SAFE_CHECK: 4,
    /// Per central-file square (c to f) on our relative ranks 2 to 4 free of own pawns and not
    /// attacked by enemy pawns.
    SPACE: 1,
    /// Once, for the side to move.
    TEMPO: 1,
}

/// Index of the piece-square entry for role index `role` (0 = pawn) at drawn-table index
/// `table_index` (see `psqt::table_index`).
#[inline]
pub const fn psqt(role: usize, table_index: usize) -> usize {
    PSQT + role * 64 + table_index
}

/// Every evaluation weight, in the layout above.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalParams {
    /// One middlegame/endgame weight in centipawns per parameter, indexed by the block
    /// constants above.
    pub values: [Tapered; PARAM_COUNT],
}

/// The weights the engine plays with: the tuned file (its header says how it was made).
pub static ACTIVE: EvalParams = include!("tuned.rs");

/// The hand-set weights of `psqt.rs` and `weights.rs`.
pub const HAND_SET: EvalParams = {
    let mut values = [s(0, 0); PARAM_COUNT];
    let mut role = 0;
    while role < 6 {
        values[MATERIAL + role] = s(psqt::MATERIAL_MG[role], psqt::MATERIAL_EG[role]);
        let mut index = 0;
        while index < 64 {
            values[psqt(role, index)] = s(psqt::TABLES_MG[role][index], psqt::TABLES_EG[role][index]);
            index += 1;
        }
        role += 1;
    }
    place(&mut values, KNIGHT_MOBILITY, &weights::KNIGHT_MOBILITY);
    place(&mut values, BISHOP_MOBILITY, &weights::BISHOP_MOBILITY);
    place(&mut values, ROOK_MOBILITY, &weights::ROOK_MOBILITY);
    place(&mut values, QUEEN_MOBILITY, &weights::QUEEN_MOBILITY);
    place(&mut values, PASSED_PAWN, &weights::PASSED_PAWN);
    place(&mut values, PASSED_FREE_PATH, &weights::PASSED_FREE_PATH);
    place(&mut values, PASSED_KING_DISTANCE, &[weights::PASSED_KING_DISTANCE]);
    place(&mut values, DOUBLED_PAWN, &[weights::DOUBLED_PAWN]);
    place(&mut values, ISOLATED_PAWN, &[weights::ISOLATED_PAWN]);
    place(&mut values, BACKWARD_PAWN, &[weights::BACKWARD_PAWN]);
    place(&mut values, CONNECTED_PAWN, &weights::CONNECTED_PAWN);
    place(&mut values, BISHOP_PAIR, &[weights::BISHOP_PAIR]);
    place(&mut values, ROOK_OPEN_FILE, &[weights::ROOK_OPEN_FILE]);
    place(&mut values, ROOK_SEMI_OPEN_FILE, &[weights::ROOK_SEMI_OPEN_FILE]);
    place(&mut values, ROOK_ON_SEVENTH, &[weights::ROOK_ON_SEVENTH]);
    place(&mut values, KNIGHT_OUTPOST, &[weights::KNIGHT_OUTPOST]);
    place(&mut values, BISHOP_OUTPOST, &[weights::BISHOP_OUTPOST]);
    place(&mut values, THREAT_BY_PAWN, &[weights::THREAT_BY_PAWN]);
    place(&mut values, THREAT_BY_MINOR, &[weights::THREAT_BY_MINOR]);
    place(&mut values, THREAT_BY_ROOK, &[weights::THREAT_BY_ROOK]);
    place(&mut values, HANGING_PIECE, &[weights::HANGING_PIECE]);
    place(&mut values, SHIELD_PAWN_NEAR, &[weights::SHIELD_PAWN_NEAR]);
    place(&mut values, SHIELD_PAWN_FAR, &[weights::SHIELD_PAWN_FAR]);
    place(&mut values, PAWN_STORM, &[weights::PAWN_STORM]);
    place(&mut values, KING_SEMI_OPEN_FILE, &[weights::KING_SEMI_OPEN_FILE]);
    place(&mut values, KING_OPEN_FILE, &[weights::KING_OPEN_FILE]);
    place(&mut values, KING_ZONE_ATTACK, &weights::KING_ZONE_ATTACK);
    place(&mut values, SAFE_CHECK, &weights::SAFE_CHECK);
    place(&mut values, SPACE, &[weights::SPACE]);
    place(&mut values, TEMPO, &[weights::TEMPO]);
    EvalParams { values }
};

/// Copies a hand-set block into `values` at `start`; a length that does not match the layout
/// stops the build.
const fn place(values: &mut [Tapered; PARAM_COUNT], start: usize, block: &[Tapered]) {
    let mut at = 0;
    while at < BLOCKS.len() && BLOCKS[at].start != start {
        at += 1;
    }
    assert!(at < BLOCKS.len() && BLOCKS[at].len == block.len(), "hand-set block does not fit the layout");
    let mut index = 0;
    while index < block.len() {
        values[start + index] = block[index];
        index += 1;
    }
}

/// The block holding parameter `index`, and the offset of `index` inside it.
pub fn block_of(index: usize) -> Option<(&'static Block, usize)> {
    BLOCKS
        .iter()
        .find(|block| (block.start..block.start + block.len).contains(&index))
        .map(|b| (b, index - b.start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_vector() {
        let mut next = 0;
        for block in BLOCKS {
            assert_eq!(block.start, next, "{}", block.name);
            assert!(block.len > 0);
            next += block.len;
        }
        assert_eq!(next, PARAM_COUNT);
        assert_eq!(block_of(KNIGHT_MOBILITY + 3), Some((&BLOCKS[2], 3)));
        assert_eq!(block_of(PARAM_COUNT), None);
    }

    #[test]
    fn hand_set_values_keep_their_meaning() {
        assert_eq!(HAND_SET.values[MATERIAL + 4], s(1025, 936));
        // White pawn on e2 reads the drawn table's rank-2 row: entry 52.
        assert_eq!(HAND_SET.values[psqt(0, 52)], s(-20, 5));
        assert_eq!(HAND_SET.values[QUEEN_MOBILITY + 27], s(27, 44));
        assert_eq!(HAND_SET.values[TEMPO], s(14, 12));
    }
}
