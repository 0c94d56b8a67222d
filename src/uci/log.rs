//! The `Debug Log File` option: every line in and out, with a UTC timestamp, appended to a file
//! for post-mortems of GUI sessions.
//!
//! The UCI thread only formats a line and offers it to a bounded channel; a writer thread owns
//! the file. When the disk is slow or full the channel fills and lines are dropped (and counted
//! in the file once it drains) rather than ever holding up `bestmove`.

use crate::utc::utc_timestamp;
use crossbeam_channel::{bounded, Receiver, Sender, TrySendError};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Lines waiting for the writer before new ones are dropped.
const QUEUE_LINES: usize = 4096;
/// A logged line is cut after this many bytes (a GUI may send megabytes of garbage).
const LONGEST_LINE: usize = 4096;
/// How long closing the log waits for the writer to drain before leaving it behind.
const CLOSE_GRACE: Duration = Duration::from_millis(500);

/// Which way a line went.
#[derive(Debug, Clone, Copy)]
pub enum Direction {
    /// From the GUI to the engine.
    In,
    /// From the engine to the GUI.
    Out,
}

/// What the writer thread and the UCI thread both see.
#[derive(Default)]
struct Counters {
    dropped: AtomicU64,
    write_failed: AtomicBool,
}

/// An open debug log. Dropping it closes the file after a short grace period.
pub struct DebugLog {
    sender: Option<Sender<String>>,
    finished: Receiver<()>,
    counters: Arc<Counters>,
    /// The write failure has been reported to the GUI once already.
    failure_reported: bool,
}

impl DebugLog {
    /// Opens (creating, appending to) `path` and starts the writer thread.
    pub fn open(path: &str) -> io::Result<DebugLog> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let (sender, lines) = bounded(QUEUE_LINES);
        let (done, finished) = bounded(1);
        let counters = Arc::new(Counters::default());
        let writer_counters = Arc::clone(&counters);
        std::thread::Builder::new().name("patina-log".into()).spawn(move || {
            write_lines(file, &lines, &writer_counters);
            let _ = done.send(());
        })?;
        Ok(DebugLog { sender: Some(sender), finished, counters, failure_reported: false })
    }

    /// Queues one line; never waits.
    pub fn record(&self, direction: Direction, line: &str) {
        let Some(sender) = &self.sender else { return };
        let arrow = match direction {
            Direction::In => ">>",
            Direction::Out => "<<",
        };
        let text = line.trim_end_matches(['\r', '\n']);
        let shown = match text.char_indices().nth(LONGEST_LINE) {
            Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
            None => text.to_string(),
        };
        let entry = format!("{} {arrow} {shown}\n", utc_timestamp(SystemTime::now()));
        if let Err(TrySendError::Full(_)) = sender.try_send(entry) {
            self.counters.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The first write failure, once: the caller tells the GUI.
    pub fn take_failure(&mut self) -> bool {
        if self.failure_reported || !self.counters.write_failed.load(Ordering::Relaxed) {
            return false;
        }
        self.failure_reported = true;
        true
    }
}

impl Drop for DebugLog {
    fn drop(&mut self) {
        // Closing the channel lets the writer finish; wait a little for the tail of the session
        // to reach the disk, but never hang on a stuck one.
        self.sender = None;
        let _ = self.finished.recv_timeout(CLOSE_GRACE);
    }
}

/// The writer thread: drains the channel, flushing whenever it runs dry.
fn write_lines(file: File, lines: &Receiver<String>, counters: &Counters) {
    let mut out = BufWriter::new(file);
    let mut reported_drops = 0;
    while let Ok(first) = lines.recv() {
        let mut ok = out.write_all(first.as_bytes()).is_ok();
        while let Ok(line) = lines.try_recv() {
            ok &= out.write_all(line.as_bytes()).is_ok();
        }
        let dropped = counters.dropped.load(Ordering::Relaxed);
        if dropped > reported_drops {
            let note = format!(
                "{} -- {} lines dropped\n",
                utc_timestamp(SystemTime::now()),
                dropped - reported_drops
            );
            ok &= out.write_all(note.as_bytes()).is_ok();
            reported_drops = dropped;
        }
        ok &= out.flush().is_ok();
        if !ok {
            counters.write_failed.store(true, Ordering::Relaxed);
        }
    }
}
