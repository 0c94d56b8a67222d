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
//! Data layout (64 bits): move 16 | score 16 | eval 16 | depth 8 | generation 6 | bound 2.

use shakmaty::{Move, MoveList, Role};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// How a stored score relates to the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The score is at most this (fail low).
    Upper = 1,
    /// The score is at least this (fail high).
    Lower = 2,
    Exact = 3,
}

/// A decoded table entry.
#[derive(Debug, Clone, Copy)]
pub struct TtHit {
    /// Encoded move (see `encode_move`), 0 for none.
    pub packed_move: u16,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
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
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

/// The table could not be allocated at the requested size.
#[derive(Debug)]
pub struct AllocationError {
    pub mib: usize,
}

impl std::fmt::Display for AllocationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} MiB for the hash table", self.mib)
    }
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
    /// A table of `mib` mebibytes (at least one cluster); fails instead of aborting.
    pub fn new(mib: usize) -> Result<TranspositionTable, AllocationError> {
        let bytes = mib.saturating_mul(1024 * 1024);
        let count = (bytes / std::mem::size_of::<Cluster>()).max(1);
        let mut clusters = Vec::new();
        clusters.try_reserve_exact(count).map_err(|_| AllocationError { mib })?;
        clusters.resize_with(count, Cluster::default);
        Ok(TranspositionTable { clusters, generation: AtomicU8::new(0) })
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for cluster in &self.clusters {
            for entry in &cluster.entries {
                entry.key_xor_data.store(0, Ordering::Relaxed);
                entry.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search so older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
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
        // Keep a deeper exact result for the same position from this search.
        if same_key
            && bound != Bound::Exact
            && entry_generation(old) == generation
            && ((old >> 8) & 0xff) as i32 > depth + 3
        {
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
        let sample = self.clusters.len().min(250);
        let mut used = 0;
        for cluster in &self.clusters[..sample] {
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
    let promotion = match m.promotion() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    from | to << 6 | promotion << 12
}

/// The legal move with this code, if there is one.
pub fn decode_move(packed: u16, legal: &MoveList) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    legal.iter().copied().find(|&m| encode_move(m) == packed)
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
    fn torn_entries_are_misses() {
        let table = TranspositionTable::new(1).unwrap();
        table.store(42, 7, 100, 0, 5, Bound::Exact);
        let entry = &table.cluster(42).entries[0];
        entry.data.store(entry.data.load(Ordering::Relaxed) ^ 1 << 40, Ordering::Relaxed);
        assert!(table.probe(42).is_none());
    }

    #[test]
    fn every_legal_move_code_is_unique() {
        use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
        let pos: Chess = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let legal = pos.legal_moves();
        for &m in &legal {
            assert_eq!(decode_move(encode_move(m), &legal), Some(m));
        }
    }
}
