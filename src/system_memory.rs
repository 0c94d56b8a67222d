//! How much memory the machine can still give this process, so that a huge `Hash` is refused
//! with an error instead of being granted by overcommit and then killed by the OOM killer.

use std::fs;

/// Bytes available to allocate: the kernel's `MemAvailable`, lowered to the cgroup's remaining
/// allowance when the process runs under a memory limit (containers). `None` where unknown.
pub fn available_bytes() -> Option<u64> {
    let system = fs::read_to_string("/proc/meminfo").ok().and_then(|text| meminfo_available(&text));
    let cgroup = cgroup_remaining();
    match (system, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
fn meminfo_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// What a cgroup v2 memory limit still allows, if one is set.
fn cgroup_remaining() -> Option<u64> {
    let limit: u64 = fs::read_to_string("/sys/fs/cgroup/memory.max").ok()?.trim().parse().ok()?;
    let used: u64 = fs::read_to_string("/sys/fs/cgroup/memory.current").ok()?.trim().parse().ok()?;
    Some(limit.saturating_sub(used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal:       24684084 kB\nMemFree:  100 kB\nMemAvailable:   24082976 kB\n";
        assert_eq!(meminfo_available(text), Some(24082976 * 1024));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
    }
}
