//! How much memory the machine can still give this process, so that a huge `Hash` is refused
//! with an error instead of being granted by overcommit and then killed by the OOM killer (or,
//! on Windows, paged to disk). `TranspositionTable::new` asks before it allocates.
//!
//! The figures come from the `sysinfo` crate, which asks each platform its own way:
//! `/proc/meminfo` and the cgroup (v1 or v2) memory files on Linux, `GlobalMemoryStatusEx` on
//! Windows, the host statistics on macOS.

use sysinfo::{MemoryRefreshKind, ProcessRefreshKind, ProcessesToUpdate, RefreshKind, System};

/// Bytes available to allocate: the system's available memory, lowered to the cgroup's
/// remaining allowance when the process runs under a memory limit (containers, Linux only).
/// `None` where the platform reports neither.
pub fn available_bytes() -> Option<u64> {
    let mut system = memory_only()?;
    // sysinfo reports 0 on a platform it does not support: that is "unknown", not "full".
    let machine = Some(system.available_memory()).filter(|&bytes| bytes > 0);
    lower_of(machine, own_cgroup_free(&mut system))
}

/// A `System` with only the RAM figures read (no processes, CPUs or swap).
fn memory_only() -> Option<System> {
    let ram = RefreshKind::nothing().with_memory(MemoryRefreshKind::nothing().with_ram());
    System::new_with_specifics(ram).ok()
}

/// What this process's own memory cgroup still allows. `System::cgroup_limits` reads the
/// hierarchy's root, which a container or a `systemd-run -p MemoryMax=` scope does not limit:
/// under a cgroup v1 limit of 2 GiB it let a 4 GiB table be allocated and the OOM killer end
/// the engine. The process's entry (`/proc/self/cgroup`) names the cgroup that does.
fn own_cgroup_free(system: &mut System) -> Option<u64> {
    let pid = sysinfo::get_current_pid().ok()?;
    system.refresh_processes_specifics(ProcessesToUpdate::Some(&[pid]), false, ProcessRefreshKind::nothing());
    let own = system.process(pid).and_then(|process| process.cgroup_limits());
    own.or_else(|| system.cgroup_limits()).map(|limits| limits.free_memory)
}

/// The smaller of two limits, either of which may be unknown.
fn lower_of(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lower_known_limit_wins() {
        assert_eq!(lower_of(Some(8), Some(5)), Some(5));
        assert_eq!(lower_of(Some(3), Some(5)), Some(3));
        assert_eq!(lower_of(Some(8), None), Some(8));
        assert_eq!(lower_of(None, Some(5)), Some(5));
        assert_eq!(lower_of(None, None), None);
    }

    /// `MemTotal` read straight from `/proc/meminfo`, to check sysinfo's figure against.
    #[cfg(target_os = "linux")]
    fn mem_total_bytes() -> u64 {
        let text = std::fs::read_to_string("/proc/meminfo").expect("/proc/meminfo on Linux");
        let line = text.lines().find(|line| line.starts_with("MemTotal:")).expect("a MemTotal line");
        let kib: u64 = line.split_whitespace().nth(1).expect("a number").parse().expect("kB");
        kib * 1024
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_reports_free_memory_within_the_machine_and_its_cgroup() {
        let available = available_bytes().expect("Linux always reports available memory");
        // Whatever runs the tests has more than 16 MiB left (the default Hash) ...
        assert!(available > 16 << 20, "{available} bytes available");
        // ... and never more than the machine has.
        let total = mem_total_bytes();
        assert!(available <= total, "{available} bytes available of {total}");
        // A cgroup v2 limit, where one is set, bounds it too (what a container sees).
        let cgroup_file = |name: &str| -> Option<u64> {
            std::fs::read_to_string(format!("/sys/fs/cgroup/{name}")).ok()?.trim().parse().ok()
        };
        if let Some(limit) = cgroup_file("memory.max") {
            assert!(available <= limit, "{available} bytes available under a {limit}-byte limit");
        }
    }
}
