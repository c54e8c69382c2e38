//! The limits of the HTTP server, each answered with its own status or
//! enforced by closing: body size (413), header size and count (431,
//! answered by hyper), the header-read and idle timeout, the body-read
//! timeout (408), the write-stall timeout, and the number of connections
//! held at once, derived from memory and the open-file limit.

use std::time::Duration;

use mcp_lanes_core::server::MAX_MESSAGE_BYTES;

/// Largest request body accepted (the core's message limit); larger: 413.
pub const MAX_BODY_BYTES: usize = MAX_MESSAGE_BYTES;
/// Largest request line plus headers; larger: 431.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Most header fields in one request; more: 431.
pub const MAX_HEADERS: usize = 100;
/// A request head must arrive within this time, counted from when the
/// connection is ready for it (just opened, or idle after a response): it
/// is both the slow-header guard and the keep-alive idle timeout.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// A request body must arrive within this time once its head has; slower:
/// 408 and the connection is closed.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// A write may stall (client not reading) this long; then the connection
/// is closed.
pub const WRITE_STALL: Duration = Duration::from_secs(30);
/// How long graceful shutdown waits for in-flight requests.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// Bodies up to this size are read by any connection; larger ones need
/// one of the large-body slots, so memory stays bounded however many
/// connections send big bodies at once.
pub const SMALL_BODY_BYTES: usize = 64 * 1024;
/// Memory one held connection is budgeted (buffers, task, small body).
pub const BYTES_PER_CONNECTION: u64 = 64 * 1024;
/// File descriptors kept free for everything but connections.
const RESERVED_FDS: u64 = 64;

/// The memory the server plans for: a quarter of the machine, at most
/// 1 GiB (4 GiB assumed when the machine does not say).
pub fn memory_budget(mem_total: Option<u64>) -> u64 {
    (mem_total.unwrap_or(4 << 30) / 4).min(1 << 30)
}

/// Connections held at once by default: as many as the memory budget
/// allows at [`BYTES_PER_CONNECTION`] each, and no more than the
/// open-file limit leaves room for.
pub fn default_max_connections(mem_total: Option<u64>, open_files: Option<u64>) -> usize {
    let by_memory = memory_budget(mem_total) / BYTES_PER_CONNECTION;
    let by_files = open_files.unwrap_or(1024).saturating_sub(RESERVED_FDS);
    usize::try_from(by_memory.min(by_files).max(1)).unwrap_or(usize::MAX)
}

/// Large bodies read at once: the memory budget in bodies of the largest
/// size, at least one.
pub fn large_body_slots(mem_total: Option<u64>) -> usize {
    let slots = memory_budget(mem_total) / 4 / MAX_BODY_BYTES as u64;
    usize::try_from(slots.max(1)).unwrap_or(1)
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
pub fn mem_total() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The soft open-file limit of this process (`/proc/self/limits`).
pub fn open_files() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_limits_follow_memory_and_files() {
        // 24 GiB, 20,000 files: 1 GiB / 64 KiB = 16,384 < 19,936.
        assert_eq!(
            default_max_connections(Some(24 << 30), Some(20_000)),
            16_384
        );
        // A small machine: 512 MiB / 4 = 128 MiB / 64 KiB = 2,048.
        assert_eq!(
            default_max_connections(Some(512 << 20), Some(1 << 20)),
            2_048
        );
        // Few files.
        assert_eq!(default_max_connections(Some(24 << 30), Some(1024)), 960);
        assert_eq!(default_max_connections(Some(0), Some(0)), 1);
        assert_eq!(large_body_slots(Some(24 << 30)), 64);
        assert_eq!(large_body_slots(Some(0)), 1);
        assert!(mem_total().is_some_and(|m| m > 0));
        assert!(open_files().is_some_and(|n| n > 0));
    }
}
