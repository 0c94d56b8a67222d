//! The network's score shrunk as material leaves the board: an edge of +150 with queens and
//! rooks on is easier to convert than the same +150 in a bare pawn ending, and a side that is
//! behind does better by keeping pieces on. Scaling the search's static eval by the material
//! left (full at the opening's material, about three quarters with only pawns) steers the search
//! toward keeping material when ahead and trading when behind, as engines with trained nets
//! commonly do.

use crate::see;
use shakmaty::{Board, Role};

/// The roles whose material counts (pieces by their exchange values, `see::value`; no kings).
const COUNTED: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
/// Both sides' material at the start: 16 pawns, 4 knights, 4 bishops, 4 rooks, 2 queens.
const START_MATERIAL: i32 = 7_800;
/// What the scale's numerator starts from: with no material the eval keeps two thirds (3/4
/// lost to it in a pooled match, docs/tests.md).
const SCALE_BASE: i32 = 2 * START_MATERIAL;

/// `eval` scaled by the material on `board`: unchanged at the starting material, 2/3 with
/// none; more material than the start (promotions) counts as the start, so it never grows.
pub fn material_scaled(eval: i32, board: &Board) -> i32 {
    let material = material(board).min(START_MATERIAL);
    eval * (SCALE_BASE + material) / (SCALE_BASE + START_MATERIAL)
}

/// Both sides' material on `board`, kings left out.
fn material(board: &Board) -> i32 {
    COUNTED.iter().map(|&role| board.by_role(role).count() as i32 * see::value(role)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        fen.split(' ').next().unwrap().parse().unwrap()
    }

    #[test]
    fn the_starting_material_is_what_the_values_add_up_to() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(material(&start), START_MATERIAL);
    }

    #[test]
    fn the_starting_material_keeps_the_eval() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(material_scaled(150, &start), 150);
        assert_eq!(material_scaled(-150, &start), -150);
    }

    #[test]
    fn less_material_shrinks_the_eval_toward_two_thirds() {
        let pawn_ending = board("4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1");
        let bare = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let scaled = material_scaled(400, &pawn_ending);
        assert!(scaled < 400 && scaled > 267, "{scaled}");
        assert_eq!(material_scaled(600, &bare), 400);
        assert_eq!(material_scaled(0, &pawn_ending), 0);
    }

    #[test]
    fn promoted_material_never_grows_the_eval() {
        let queens = board("rnbqkbnr/pppppppp/8/8/8/8/QQQQPPPP/RNBQKBNR w - - 0 1");
        assert_eq!(material_scaled(200, &queens), 200);
    }
}
