//! The transposition table shared by all search threads.
//!
//! Lock-free: each entry is two `AtomicU64`s, `key ^ data` and `data`. A reader recomputes
//! `stored_key ^ data` and trusts the entry only if it equals the probing key, so an entry torn
//! by two threads writing at once is simply a miss (the "xor trick"). The move stored in an
//! entry is additionally matched against the legal moves before use, so even a key collision
//! can never produce an illegal move. `Relaxed` ordering is enough: entries are independent
//! hints, and a stale or torn one is detected as above.
//!
//! Entries live in clusters of four (one 64-byte cache line). Replacement keeps the entry for the
//! same key, else evicts the shallowest, oldest entry. The generation is bumped per search.
//!
//! The clusters are held in power-of-two slabs rather than one vector, so that touching the
//! pages of a multi-gigabyte table (allocating, clearing) is split over the machine's cores:
//! `setoption name Hash value 4096` must not keep `isready` waiting for many seconds.
//!
//! Data layout (64 bits): move 16 | score 16 | eval 16 | depth 8 | generation 6 | bound 2.

use shakmaty::{Chess, Move, MoveList, Position as _, Role, Square};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score relates to the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The score is at most this (fail low).
    Upper = 1,
    /// The score is at least this (fail high).
    Lower = 2,
    /// The score is the node's value (it fell inside the search window).
    Exact = 3,
}

/// A decoded table entry.
#[derive(Debug, Clone, Copy)]
pub struct TtHit {
    /// Encoded move (see `encode_move`), 0 for none.
    pub packed_move: u16,
    /// Search score in centipawns, mate and tablebase scores node-relative (`score_from_tt`).
    pub score: i32,
    /// The uncorrected static eval in centipawns, `EVAL_NONE` when none was stored.
    pub eval: i32,
    /// Depth in plies the score was searched to (0..=255).
    pub depth: i32,
    /// Whether `score` is exact or only a bound on the true value.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const CLUSTER_SIZE: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    entries: [Entry; CLUSTER_SIZE],
}

/// Shared, fixed-size hash table of search results.
pub struct TranspositionTable {
    /// Equal slabs of `1 << slab_shift` clusters (the last may be shorter).
    slabs: Vec<Box<[Cluster]>>,
    slab_shift: u32,
    cluster_count: usize,
    generation: AtomicU8,
}

/// The table could not be allocated at the requested size.
#[derive(Debug)]
pub struct AllocationError {
    /// The size asked for, in MiB.
    pub mib: usize,
    /// Bytes the machine could still give, when known.
    pub available: Option<u64>,
}

impl std::fmt::Display for AllocationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} MiB for the hash table", self.mib)?;
        if let Some(bytes) = self.available {
            write!(f, " (about {} MiB of memory is available)", bytes >> 20)?;
        }
        Ok(())
    }
}

/// Slabs per table at most: enough to keep every core busy when touching pages.
const MAX_SLABS: usize = 64;
/// Slabs no smaller than this many clusters (64 KiB), so small tables stay one or a few slabs.
const MIN_SLAB_CLUSTERS: usize = 1024;
/// Below this many clusters (64 MiB) a single thread touches the table faster than threads start.
const PARALLEL_CLUSTERS: usize = 1 << 20;

/// Threads used to allocate or clear `clusters` clusters.
fn worker_count(clusters: usize) -> usize {
    if clusters < PARALLEL_CLUSTERS {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_SLABS)
}

/// `job` applied to every item, in order, the items split into contiguous runs over `workers`
/// scoped threads (inline when one).
fn map_in_parallel<T: Sync, R: Send>(items: &[T], workers: usize, job: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if workers <= 1 {
        return items.iter().map(job).collect();
    }
    let run = items.len().div_ceil(workers).max(1);
    let job = &job;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(run)
            .map(|part| scope.spawn(move || part.iter().map(job).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

/// One slab of `len` empty clusters, or `None` if the allocator refuses.
fn allocate_slab(len: usize) -> Option<Box<[Cluster]>> {
    let mut slab = Vec::new();
    slab.try_reserve_exact(len).ok()?;
    slab.resize_with(len, Cluster::default);
    Some(slab.into_boxed_slice())
}

fn pack(packed_move: u16, score: i32, eval: i32, depth: i32, generation: u8, bound: Bound) -> u64 {
    (packed_move as u64) << 48
        | ((score as i16) as u16 as u64) << 32
        | ((eval as i16) as u16 as u64) << 16
        | (depth.clamp(0, 255) as u64) << 8
        | ((generation & 0x3f) as u64) << 2
        | bound as u64
}

fn unpack(data: u64) -> Option<TtHit> {
    let bound = match data & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtHit {
        packed_move: (data >> 48) as u16,
        score: (data >> 32) as u16 as i16 as i32,
        eval: (data >> 16) as u16 as i16 as i32,
        depth: ((data >> 8) & 0xff) as i32,
        bound,
    })
}

fn entry_generation(data: u64) -> u8 {
    ((data >> 2) & 0x3f) as u8
}

impl TranspositionTable {
    /// A table of `mib` mebibytes (at least one cluster), its pages touched so that it is
    /// resident. Fails, instead of aborting or inviting the OOM killer, when the allocator
    /// refuses or the machine reports less memory available than asked for.
    pub fn new(mib: usize) -> Result<TranspositionTable, AllocationError> {
        let bytes = mib.saturating_mul(1024 * 1024);
        let available = crate::system_memory::available_bytes();
        if available.is_some_and(|free| bytes as u64 > free) {
            return Err(AllocationError { mib, available });
        }
        let cluster_count = (bytes / std::mem::size_of::<Cluster>()).max(1);
        // A table one thread touches is one slab: many small slabs would each be a separate heap
        // allocation that glibc returns to the OS on drop, so every new table would fault its
        // pages in again (7 ms instead of 1 ms for 16 MiB, a fifth of `patina bench`'s time).
        let workers = worker_count(cluster_count);
        let slabs_wanted = if workers > 1 { MAX_SLABS } else { 1 };
        let slab_len = cluster_count.div_ceil(slabs_wanted).max(MIN_SLAB_CLUSTERS).next_power_of_two();
        let lengths: Vec<usize> = (0..cluster_count.div_ceil(slab_len))
            .map(|index| slab_len.min(cluster_count - index * slab_len))
            .collect();
        let slabs: Option<Vec<Box<[Cluster]>>> =
            map_in_parallel(&lengths, workers, |&len| allocate_slab(len)).into_iter().collect();
        Ok(TranspositionTable {
            slabs: slabs.ok_or(AllocationError { mib, available })?,
            slab_shift: slab_len.trailing_zeros(),
            cluster_count,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        map_in_parallel(&self.slabs, worker_count(self.cluster_count), |slab| {
            for cluster in slab.iter() {
                for entry in &cluster.entries {
                    entry.key_xor_data.store(0, Ordering::Relaxed);
                    entry.data.store(0, Ordering::Relaxed);
                }
            }
        });
        self.generation.store(0, Ordering::Relaxed);
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.cluster_count * std::mem::size_of::<Cluster>()
    }

    /// Marks the start of a new search so older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((key as u128 * self.cluster_count as u128) >> 64) as usize;
        &self.slabs[index >> self.slab_shift][index & ((1 << self.slab_shift) - 1)]
    }

    /// Starts loading `key`'s cluster into the cache: called right after a move is made, so the
    /// child's probe a little later finds the cluster there instead of waiting on memory.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let cluster = (self.cluster(key) as *const Cluster).cast::<i8>();
            // SAFETY: SSE is part of the x86-64 baseline, so the instruction exists on every
            // CPU this build runs on; a prefetch only hints the cache and never faults, and the
            // pointer is to a live cluster of this table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(cluster) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any and intact.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for entry in &self.cluster(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result; keeps an existing move when the new result has none.
    pub fn store(&self, key: u64, packed_move: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let cluster = self.cluster(key);
        let mut victim = &cluster.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &cluster.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let stored_key = entry.key_xor_data.load(Ordering::Relaxed) ^ data;
            if stored_key == key || data == 0 {
                victim = entry;
                break;
            }
            let age = (generation.wrapping_sub(entry_generation(data)) & 0x3f) as i32;
            let worth = ((data >> 8) & 0xff) as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        let old = victim.data.load(Ordering::Relaxed);
        let old_key = victim.key_xor_data.load(Ordering::Relaxed) ^ old;
        let same_key = old_key == key && old != 0;
        // Keep a deeper result for the same position from this search, but take the new best
        // move: it comes from a search of the current tree, the old one may be stale.
        if same_key
            && bound != Bound::Exact
            && entry_generation(old) == generation
            && ((old >> 8) & 0xff) as i32 > depth + 3
        {
            if packed_move != 0 && packed_move != (old >> 48) as u16 {
                let data = (old & !(0xffff << 48)) | (packed_move as u64) << 48;
                victim.key_xor_data.store(key ^ data, Ordering::Relaxed);
                victim.data.store(data, Ordering::Relaxed);
            }
            return;
        }
        let packed_move = if packed_move == 0 && same_key { (old >> 48) as u16 } else { packed_move };
        let data = pack(packed_move, score, eval, depth, generation, bound);
        victim.key_xor_data.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let sample = self.cluster_count.min(250);
        let mut used = 0;
        for cluster in self.slabs.iter().flat_map(|slab| slab.iter()).take(sample) {
            for entry in &cluster.entries {
                let data = entry.data.load(Ordering::Relaxed);
                if data != 0 && entry_generation(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * CLUSTER_SIZE)) as u32
    }
}

/// 16-bit move code: from (6 bits) | to (6 bits) | promotion role (3 bits). Castling is
/// stored king-to-rook. 0 means "no move" (a1a1 is never legal).
pub fn encode_move(m: Move) -> u16 {
    let from = m.from().map_or(0, |sq| sq as u16);
    let to = m.to() as u16;
    let promotion = m
        .promotion()
        .and_then(|role| PROMOTION_CODES.iter().position(|&code| code == Some(role)))
        .unwrap_or(0) as u16;
    from | to << 6 | promotion << 12
}

/// The promotion role each 3-bit code names (0: none; 5-7 name nothing).
const PROMOTION_CODES: [Option<Role>; 5] =
    [None, Some(Role::Knight), Some(Role::Bishop), Some(Role::Rook), Some(Role::Queen)];

/// The legal move with this code, if there is one.
pub fn decode_move(packed: u16, legal: &MoveList) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    legal.iter().copied().find(|&m| encode_move(m) == packed)
}

/// The legal move in `pos` with this code, if there is one, found without generating the
/// position's moves: the code names one candidate (a king onto its own rook castles, a pawn
/// onto the empty square diagonally ahead takes en passant), which shakmaty then checks
/// against the few moves of that piece kind to that square. Agrees with `decode_move` over
/// `pos.legal_moves()`.
pub fn decode_move_in(packed: u16, pos: &Chess) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    let square = |bits: u16| Square::new(u32::from(bits & 63));
    let (from, to) = (square(packed), square(packed >> 6));
    let promotion = *PROMOTION_CODES.get(usize::from(packed >> 12))?;
    let board = pos.board();
    let us = pos.turn();
    let moving = board.piece_at(from).filter(|piece| piece.color == us)?;
    let target = board.piece_at(to);
    let candidate = match (moving.role, target) {
        (Role::King, Some(piece)) if piece == us.rook() && promotion.is_none() => {
            Move::Castle { king: from, rook: to }
        }
        (_, Some(piece)) if piece.color == us => return None,
        (Role::Pawn, None) if from.file() != to.file() && promotion.is_none() => Move::EnPassant { from, to },
        (role, target) => Move::Normal { role, from, capture: target.map(|piece| piece.role), to, promotion },
    };
    pos.is_legal(candidate).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_round_trip() {
        let table = TranspositionTable::new(1).unwrap();
        table.store(0xdead_beef, 0x1234, -31000, 55, 12, Bound::Lower);
        let hit = table.probe(0xdead_beef).unwrap();
        assert_eq!((hit.packed_move, hit.score, hit.eval, hit.depth), (0x1234, -31000, 55, 12));
        assert_eq!(hit.bound, Bound::Lower);
        assert!(table.probe(0xdead_bef0).is_none());
        table.clear();
        assert!(table.probe(0xdead_beef).is_none());
    }

    #[test]
    fn prefetch_reaches_every_cluster_and_changes_nothing() {
        let table = TranspositionTable::new(1).unwrap();
        table.store(0xdead_beef, 0x1234, 7, 5, 4, Bound::Exact);
        // The extreme keys map to the first and last clusters.
        for key in [0, u64::MAX, 0xdead_beef, 0x8000_0000_0000_0000] {
            table.prefetch(key);
        }
        let hit = table.probe(0xdead_beef).unwrap();
        assert_eq!((hit.packed_move, hit.score, hit.depth), (0x1234, 7, 4));
        assert!(table.probe(u64::MAX).is_none());
    }

    #[test]
    fn a_shallower_store_keeps_the_deeper_result_but_takes_its_new_move() {
        let table = TranspositionTable::new(1).unwrap();
        table.store(0xfeed, 0x0111, 40, 10, 12, Bound::Lower);
        table.store(0xfeed, 0x0222, -5, 10, 3, Bound::Upper);
        let hit = table.probe(0xfeed).unwrap();
        assert_eq!((hit.packed_move, hit.score, hit.depth, hit.bound), (0x0222, 40, 12, Bound::Lower));
        // A store without a move leaves the old move in place.
        table.store(0xfeed, 0, -5, 10, 3, Bound::Upper);
        assert_eq!(table.probe(0xfeed).unwrap().packed_move, 0x0222);
    }

    #[test]
    fn slabs_cover_every_cluster_once() {
        // 3 MiB is not a power of two of clusters: the last slab is shorter.
        let table = TranspositionTable::new(3).unwrap();
        assert_eq!(table.bytes(), 3 << 20);
        assert_eq!(table.slabs.iter().map(|slab| slab.len()).sum::<usize>(), table.cluster_count);
        for key in [0, u64::MAX, 1 << 63, 0x9e37_79b9_7f4a_7c15] {
            table.store(key, 9, 1, 2, 3, Bound::Exact);
            assert_eq!(table.probe(key).unwrap().packed_move, 9);
        }
    }

    #[test]
    fn refuses_more_than_the_machine_has() {
        let error = TranspositionTable::new(1 << 40).err().expect("a yobibyte-scale table must fail");
        assert!(error.to_string().contains("cannot allocate"));
    }

    #[test]
    fn torn_entries_are_misses() {
        let table = TranspositionTable::new(1).unwrap();
        table.store(42, 7, 100, 0, 5, Bound::Exact);
        let entry = &table.cluster(42).entries[0];
        entry.data.store(entry.data.load(Ordering::Relaxed) ^ 1 << 40, Ordering::Relaxed);
        assert!(table.probe(42).is_none());
    }

    fn chess(fen: &str, chess960: bool) -> Chess {
        crate::position::Position::from_fen(fen, chess960).unwrap().chess().clone()
    }

    #[test]
    fn every_legal_move_code_is_unique() {
        let pos = chess("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", false);
        let legal = pos.legal_moves();
        for &m in &legal {
            assert_eq!(decode_move(encode_move(m), &legal), Some(m));
        }
    }

    /// Every 16-bit code, in positions with castling (both modes), en passant, promotions and
    /// checks: decoding from the position finds exactly what searching the move list finds.
    #[test]
    fn decoding_from_the_position_agrees_with_the_move_list() {
        let fens = [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1", false),
            ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", false),
            ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false),
            ("8/8/3k4/2pP4/8/8/8/3K4 w - c6 0 2", false),
            ("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", false),
            ("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9", true),
            ("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", true),
        ];
        for (fen, chess960) in fens {
            let pos = chess(fen, chess960);
            let legal = pos.legal_moves();
            for packed in 0..=u16::MAX {
                assert_eq!(
                    decode_move_in(packed, &pos),
                    decode_move(packed, &legal),
                    "{fen}: code {packed:#06x}"
                );
            }
        }
    }
}
