//! Lazy SMP staggering: which iterations each helper thread skips, so the threads spread over
//! neighbouring depths rather than all repeating the main thread's. The worker's iterative
//! deepening asks `helper_skips_depth` before each iteration; the main thread (id 0) never skips.

/// Whether helper `id` skips iteration `depth`.
///
/// Helpers that ran the same depths as the main thread mostly repeated its work (two threads
/// reached a depth only 1.25 times sooner than one). Each helper instead searches blocks of
/// `size` consecutive depths and skips the next `size`, starting at its own `phase`, so the
/// threads spread over neighbouring depths and fill the shared table with results the main
/// thread has not computed yet. Helpers are taken in groups: group `g` has `2 * (g + 1)`
/// helpers with blocks of `g + 1` depths and every phase from 0 up; helper 1 skips odd depths.
pub(super) fn helper_skips_depth(id: usize, depth: i32) -> bool {
    if id == 0 {
        return false;
    }
    let mut index = (id - 1) % 20;
    let mut size = 1;
    while index >= 2 * size {
        index -= 2 * size;
        size += 1;
    }
    let phase = index as i32;
    ((depth + phase) / size as i32) % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searched(id: usize) -> Vec<i32> {
        (1..=12).filter(|&depth| !helper_skips_depth(id, depth)).collect()
    }

    #[test]
    fn the_main_thread_searches_every_depth() {
        assert_eq!(searched(0), (1..=12).collect::<Vec<_>>());
    }

    #[test]
    fn the_first_two_helpers_split_the_depths_between_them() {
        assert_eq!(searched(1), vec![2, 4, 6, 8, 10, 12]);
        assert_eq!(searched(2), vec![1, 3, 5, 7, 9, 11]);
    }

    #[test]
    fn later_helpers_search_blocks_of_depths_at_their_own_phase() {
        assert_eq!(searched(3), vec![1, 4, 5, 8, 9, 12]);
        assert_eq!(searched(4), vec![3, 4, 7, 8, 11, 12]);
        assert_eq!(searched(7), vec![1, 2, 6, 7, 8, 12]);
        // Every helper searches about half the depths, whatever its group.
        for id in 1..=40 {
            let count = (1..=120).filter(|&depth| !helper_skips_depth(id, depth)).count();
            assert!((54..=66).contains(&count), "helper {id} searches {count} of 120 depths");
        }
    }
}
