//! Dead positions (FIDE Article 5.2.2) beyond insufficient material: no sequence of legal moves,
//! both sides cooperating, leads to checkmate for either side. The typical case is a locked pawn
//! wall that neither king can pass and no piece can break.
//!
//! `is_dead` answers in two steps. A cheap prefilter (`is_candidate`) admits only positions that
//! could plausibly be proven dead in a few thousand states: kings, pawns and bishops only, every
//! pawn rammed against a pawn in front of it, no pawn capture available. Everything else (every
//! position of a normal game) is "not dead" after a few bitboard operations, so `rules::judge`
//! stays cheap enough to run on every move. A candidate is then settled by exploring every
//! position reachable from it by legal moves (`explore`): a checkmate anywhere proves it alive,
//! an exhausted reachable set without one proves it dead.
//!
//! Why only those pieces: a knight jumps over any wall and so nearly always reaches a pawn; a rook
//! or queen shut in behind a wall could be dead, but with it the reachable set is too large to
//! enumerate on every move. Without pawns, everything beyond insufficient material can mate.
//!
//! Invariant: "dead" is only ever a proof. Whenever the exploration cannot finish (it reaches
//! `MAX_STATES` distinct positions, or a pawn could promote, which brings pieces whose positions
//! are far too many to enumerate and nearly always a mate), the answer is "not dead". Move
//! counters are ignored: FIDE's 5.2.2 does not consider the fifty- or seventy-five-move rules.
//!
//! Called by `rules::judge` after checkmate, stalemate and insufficient material.

use shakmaty::zobrist::{Zobrist128, ZobristValue};
use shakmaty::{attacks, Chess, Color, EnPassantMode, Move, Position as _, Role};
use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// Distinct positions explored before giving up. A locked king-and-pawn wall has at most a few
/// thousand (two king regions times the side to move); each bishop multiplies that by its
/// squares, so a wall with a shut-in bishop on each side needs about 66,000. Reaching the cap
/// costs about 35 ms of CPU time (measured on the 2-core development machine), the worst case
/// of a `judge` call.
pub const MAX_STATES: usize = 100_000;

/// What the exploration of the reachable positions found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reachable {
    /// Some reachable position is checkmate: the position is alive.
    Checkmate,
    /// Every reachable position was visited and none is checkmate: the position is dead.
    NoCheckmate,
    /// The exploration gave up (too many positions, or a promotion): nothing is proven.
    Unknown,
}

/// The outcome of `explore` and the number of distinct positions it visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exploration {
    /// Whether a checkmate is reachable, proven unreachable, or undecided.
    pub reachable: Reachable,
    /// Distinct positions visited, the start included.
    pub states: usize,
}

/// True when `board` is proven dead: no sequence of legal moves leads to checkmate.
///
/// A proof covers every position it visited: each is reachable from a dead position, so none
/// reaches a mate either. The last proof's positions are kept, so the next moves of a game in a
/// dead wall (all of them reachable from it) are answered by one lookup instead of another
/// exploration of up to `MAX_STATES` positions, which would cost up to ~35 ms on every `go`.
pub fn is_dead(board: &Chess) -> bool {
    if !is_candidate(board) {
        return false;
    }
    let key: Zobrist128 = board.zobrist_hash(EnPassantMode::Legal);
    if LAST_PROOF.with_borrow(|proof| proof.contains(&key.0)) {
        return true;
    }
    let (found, visited) = explore_keeping(board, key, MAX_STATES);
    let dead = found.reachable == Reachable::NoCheckmate;
    if dead {
        LAST_PROOF.set(visited);
    }
    dead
}

thread_local! {
    /// Every position the last successful proof on this thread visited: all proven dead. Per
    /// thread, because a game is judged on one thread (the UCI thread, a datagen game's).
    static LAST_PROOF: RefCell<KeySet> = RefCell::default();
}

/// The cheap prefilter: only kings, pawns and bishops, at least one pawn, every pawn blocked by
/// a pawn directly in front of it and no pawn capture possible now. Knights jump over any wall
/// and rooks or queens make the reachable set too large, so positions with them are never
/// explored; a pawn that can move or capture opens the structure, which the exploration could
/// follow but which nearly always ends in a promotion.
pub fn is_candidate(board: &Chess) -> bool {
    let pieces = board.board();
    let pawns = pieces.pawns();
    let white_pawns = pawns & pieces.white();
    let black_pawns = pawns & pieces.black();
    (pieces.knights() | pieces.rooks_and_queens()).is_empty()
        && pawns.any()
        && white_pawns.shift(8).is_subset(pawns)
        && black_pawns.shift(-8).is_subset(pawns)
        && !has_pawn_capture(board)
}

/// Whether a pawn of either side attacks an enemy pawn or bishop, or may capture en passant.
fn has_pawn_capture(board: &Chess) -> bool {
    let pieces = board.board();
    let capturable = |color: Color| pieces.by_color(color) & !pieces.kings();
    let attacks_enemy = |color: Color| {
        (pieces.pawns() & pieces.by_color(color))
            .into_iter()
            .any(|sq| (attacks::pawn_attacks(color, sq) & capturable(!color)).any())
    };
    attacks_enemy(Color::White)
        || attacks_enemy(Color::Black)
        || board.ep_square(EnPassantMode::Legal).is_some()
}

/// Visits every position reachable from `start` by legal moves, keyed by 128-bit Zobrist hash
/// of board, turn, castling rights and legal en-passant square (128 bits make a collision, which
/// could hide a mate, practically impossible). Stops at the first checkmate, at the first
/// possible promotion (`Unknown`), or when `max_states` distinct positions have been seen
/// (`Unknown`).
///
/// Captures and pawn moves are irreversible, so the reachable positions fall into layers by how
/// many of them were played. The deepest layer is explored first (breadth first inside it): a
/// structure that opens up reaches its promotion or mate after a few king walks instead of after
/// every walk of every shallower layer. The order changes only how soon the search stops, never
/// its verdict, since every reachable position is visited unless it stops early.
pub fn explore(start: &Chess, max_states: usize) -> Exploration {
    explore_keeping(start, start.zobrist_hash(EnPassantMode::Legal), max_states).0
}

/// `explore` from `start` (whose key is `start_key`), also handing back the keys of the
/// positions it visited.
fn explore_keeping(start: &Chess, start_key: Zobrist128, max_states: usize) -> (Exploration, KeySet) {
    let mut seen = KeySet::default();
    let mut layers = Layers::default();
    seen.insert(start_key.0);
    layers.push(0, start.clone(), start_key);
    let finish = |reachable, seen: KeySet| (Exploration { reachable, states: seen.len() }, seen);
    while let Some((layer, pos, key)) = layers.pop() {
        let moves = pos.legal_moves();
        if moves.is_empty() && pos.is_check() {
            return finish(Reachable::Checkmate, seen);
        }
        for m in moves {
            if m.is_promotion() {
                return finish(Reachable::Unknown, seen);
            }
            // Most moves lead back to known positions: look the key up before copying the board.
            let quick_key = quiet_child_key(&pos, key, m);
            if quick_key.is_some_and(|k| seen.contains(&k.0)) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = quick_key.unwrap_or_else(|| child.zobrist_hash(EnPassantMode::Legal));
            if !seen.insert(child_key.0) {
                continue;
            }
            if seen.len() >= max_states {
                return finish(Reachable::Unknown, seen);
            }
            if m.is_capture() {
                match after_capture(&child) {
                    Branch::Barren => continue,
                    Branch::Open => return finish(Reachable::Unknown, seen),
                    Branch::Walled => {}
                }
            }
            layers.push(layer + usize::from(m.is_zeroing()), child, child_key);
        }
    }
    finish(Reachable::NoCheckmate, seen)
}

/// What a capture leaves behind, as far as the exploration is concerned.
enum Branch {
    /// Material that can never mate (a lone king, a lone minor, bishops on one colour): nothing
    /// reachable from here is checkmate, and captures only ever remove more, so the branch is
    /// dropped. Exploring it would mean enumerating, say, every king-and-bishop-against-king
    /// position, far past the cap: 95 ms per `go` in a played endgame before this check.
    Barren,
    /// No pawns left but enough material to mate: no wall remains to prove anything dead, and
    /// the pieces roam the whole board, so the exploration gives up at once.
    Open,
    /// Pawns still stand: explore on.
    Walled,
}

fn after_capture(child: &Chess) -> Branch {
    if child.is_insufficient_material() {
        Branch::Barren
    } else if child.board().pawns().is_empty() {
        Branch::Open
    } else {
        Branch::Walled
    }
}

/// Positions waiting to be expanded, one queue per layer (irreversible moves played so far).
#[derive(Default)]
struct Layers(Vec<VecDeque<(Chess, Zobrist128)>>);

impl Layers {
    fn push(&mut self, layer: usize, pos: Chess, key: Zobrist128) {
        if self.0.len() <= layer {
            self.0.resize_with(layer + 1, VecDeque::new);
        }
        self.0[layer].push_back((pos, key));
    }

    /// The oldest position of the deepest non-empty layer.
    fn pop(&mut self) -> Option<(usize, Chess, Zobrist128)> {
        while self.0.last().is_some_and(VecDeque::is_empty) {
            self.0.pop();
        }
        let layer = self.0.len().checked_sub(1)?;
        let (pos, key) = self.0[layer].pop_front()?;
        Some((layer, pos, key))
    }
}

/// The key after `m`, updated from `key`, for a plain move (king moves included, which
/// shakmaty's `update_zobrist_hash` declines because of castling rights) in a position without
/// castling rights or an en-passant square, where the move creates none; `None` otherwise.
fn quiet_child_key(pos: &Chess, key: Zobrist128, m: Move) -> Option<Zobrist128> {
    let Move::Normal { role, from, capture, to, promotion: None } = m else {
        return None;
    };
    let double_push = role == Role::Pawn && from.distance(to) == 2;
    if double_push || pos.castles().any() || pos.ep_square(EnPassantMode::Always).is_some() {
        return None;
    }
    let turn = pos.turn();
    let mut next = key;
    next ^= Zobrist128::zobrist_for_white_turn();
    next ^= Zobrist128::zobrist_for_piece(from, role.of(turn));
    next ^= Zobrist128::zobrist_for_piece(to, role.of(turn));
    if let Some(captured) = capture {
        next ^= Zobrist128::zobrist_for_piece(to, captured.of(!turn));
    }
    Some(next)
}

/// Zobrist keys are already uniformly random: hash a key by its low 64 bits instead of running
/// SipHash over it, the set's main cost otherwise.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }
}

type KeySet = HashSet<u128, BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn board(fen: &str) -> Chess {
        Position::from_fen(fen, false).unwrap_or_else(|e| panic!("{e}")).chess().clone()
    }

    /// A wall across the board: white pawns on dark squares, rammed by black pawns on light ones.
    const WALL: &str = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";

    #[test]
    fn a_locked_wall_reaches_only_king_walks() {
        // 16 squares for the white king (ranks 1-2), 24 for the black one (ranks 6-8; rank 5 is
        // all attacked), two sides to move.
        let found = explore(&board(WALL), MAX_STATES);
        assert_eq!(found, Exploration { reachable: Reachable::NoCheckmate, states: 16 * 24 * 2 });
        assert!(is_dead(&board(WALL)));
    }

    #[test]
    fn the_prefilter_admits_only_locked_kings_pawns_and_bishops() {
        assert!(is_candidate(&board(WALL)));
        assert!(is_candidate(&board("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1")));
        let rejected = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // A knight, a rook.
            "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3NK3 w - - 0 1",
            "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3RK3 w - - 0 1",
            // The h-pawn can advance.
            "4k3/8/8/1p1p1p2/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1",
            // g3 can take on h4.
            "4k3/8/8/1p1p1p2/pPpPpPpp/P1P1P1PP/8/4K3 w - - 0 1",
            // No pawns at all.
            "4k3/8/8/8/8/8/8/2B1Kb2 w - - 0 1",
        ];
        for fen in rejected {
            assert!(!is_candidate(&board(fen)), "{fen}");
        }
    }

    #[test]
    fn a_helpmate_is_found() {
        // The h8 king is shut in by its own h7 pawn and, once it returns, its g8 bishop:
        // 1.Bb8 Bf7 2.Bc7 Bg8 3.Be5 mate.
        let found = explore(&board("6bk/B6p/7P/1p1p1p2/pPpPpPp1/P1P1P1P1/8/4K3 w - - 0 1"), MAX_STATES);
        assert_eq!(found.reachable, Reachable::Checkmate);
    }

    #[test]
    fn the_cap_and_promotions_prove_nothing() {
        let bishops = board("2b1k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1");
        assert_eq!(explore(&bishops, MAX_STATES).reachable, Reachable::NoCheckmate);
        assert_eq!(explore(&bishops, 1000), Exploration { reachable: Reachable::Unknown, states: 1000 });
        // The kings can eat the pawns, and a freed pawn promotes.
        let open = board("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(explore(&open, MAX_STATES).reachable, Reachable::Unknown);
    }

    #[test]
    fn captures_into_barren_or_open_material_end_their_branch_at_once() {
        // From a played game (fastchess, 2+0.02): Bxf2 Kxf2 Kxf3 leaves king and bishop against
        // a king, whose 500,000-odd positions the exploration used to enumerate up to the cap on
        // every move. Kxf3 instead frees the f2 pawn, which promotes.
        let game = board("8/2B5/8/5k2/3b4/5p2/5P2/6K1 w - - 11 130");
        let found = explore(&game, MAX_STATES);
        assert_eq!(found.reachable, Reachable::Unknown);
        assert!(found.states < 2_000, "{found:?}");
    }

    #[test]
    fn a_proof_answers_for_the_positions_it_visited() {
        let bishops = board("2b1k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1");
        assert!(is_dead(&bishops));
        // Any later position of the game is among the proof's: the lookup answers it.
        let mut later = bishops.clone();
        for uci in ["c1d2", "c8d7", "e1f2"] {
            let m = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&later).unwrap();
            later.play_unchecked(m);
        }
        let key: Zobrist128 = later.zobrist_hash(EnPassantMode::Legal);
        assert!(LAST_PROOF.with_borrow(|proof| proof.contains(&key.0)));
        assert!(is_dead(&later));
    }

    #[test]
    fn quiet_child_keys_equal_full_hashes() {
        let fens = [
            WALL,
            "6bk/B6p/7P/1p1p1p2/pPpPpPp1/P1P1P1P1/8/4K3 w - - 0 1",
            // Castling rights and an en-passant square: the quick key must decline.
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
            // Captures by king and bishop, a double push.
            "4k3/8/8/8/3p4/2b5/3PK3/2B5 w - - 0 1",
        ];
        for fen in fens {
            let pos = board(fen);
            let key: Zobrist128 = pos.zobrist_hash(EnPassantMode::Legal);
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                if let Some(quick) = quiet_child_key(&pos, key, m) {
                    assert_eq!(quick, child.zobrist_hash(EnPassantMode::Legal), "{fen} {m}");
                }
            }
        }
    }
}
